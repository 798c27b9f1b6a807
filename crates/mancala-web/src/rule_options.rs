//! The rule options in JSON, for any game: each under its field, the option's key with
//! `_` for `-` (`empty_capture`), a switch as `true` or `false`, any other option as
//! one of its values (`"either-side-empty"`). `POST /api/games` takes them beside the
//! game's key, and a game view's `rules` shows the options its game takes; which
//! options there are comes from the games themselves (`GET /api/variants`), so that
//! nothing here knows one.

use mancala_core::variants::RuleOptionInfo;
use mancala_core::{RuleOptions, Rules};
use serde_json::{Map, Value};

use crate::error::GameError;

/// The field of the option `key`: `empty-capture` is `empty_capture`.
pub(crate) fn field(key: &str) -> String {
    key.replace('-', "_")
}

/// The options a request's `extra` fields give (the fields its type does not know,
/// which it keeps with `#[serde(flatten)]`), by key and value as the option writes it:
/// a field that names no rule option of any game is refused as serde refuses an
/// unknown field (400), and so is a switch that is not a boolean or another option's
/// value that is not a string. Whether the game takes the option, and the value, the
/// session's [`RuleChoice`](mancala_session::RuleChoice) checks (422).
pub(crate) fn given(
    extra: &Map<String, Value>,
    known: &[&str],
) -> Result<Vec<(&'static str, String)>, GameError> {
    let all = RuleOptions::all();
    extra
        .iter()
        .map(|(name, value)| {
            let Some(option) = all.iter().find(|o| field(o.key) == *name) else {
                let mut fields: Vec<String> = known.iter().map(|f| format!("`{f}`")).collect();
                fields.extend(all.iter().map(|o| format!("`{}`", field(o.key))));
                return Err(GameError::BadRequest(format!(
                    "unknown field `{name}`, expected one of {}",
                    fields.join(", ")
                )));
            };
            Ok((option.key, value_of(option, name, value)?))
        })
        .collect()
}

/// The option's value a field holds.
fn value_of(option: &RuleOptionInfo, name: &str, value: &Value) -> Result<String, GameError> {
    let wrong =
        |expected: &str| GameError::BadRequest(format!("{name} must be {expected}, not {value}"));
    match value {
        Value::Bool(on) if option.is_switch() => Ok(if *on { "on" } else { "off" }.to_owned()),
        _ if option.is_switch() => Err(wrong("true or false")),
        Value::String(text) => Ok(text.clone()),
        _ => Err(wrong(&format!(
            "one of \"{}\"",
            option.values.join("\", \"")
        ))),
    }
}

/// The options of `rules`' game, each under its field, as [`given`] reads them back.
pub(crate) fn shown(rules: Rules) -> Map<String, Value> {
    rules
        .variant()
        .info()
        .options
        .iter()
        .map(|option| {
            let value = rules
                .options()
                .value(option.key)
                .unwrap_or(option.values[0]);
            let json = if option.is_switch() {
                Value::Bool(value == "on")
            } else {
                Value::String(value.to_owned())
            };
            (field(option.key), json)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::Variant;
    use serde_json::json;

    #[test]
    fn every_option_of_every_game_reads_back_from_its_json() {
        for &variant in Variant::catalogue() {
            let info = variant.info();
            let mut rules = Rules::new(variant, info.default_houses, info.default_seeds).unwrap();
            for option in info.options {
                let last = option.values[option.values.len() - 1];
                rules = rules.with_options(rules.options().with(option.key, last).unwrap());
            }
            let json = shown(rules);
            let read = given(&json, &[]).unwrap();
            assert_eq!(read.len(), info.options.len(), "{variant}");
            for (key, value) in read {
                assert_eq!(
                    rules.options().value(key),
                    Some(value.as_str()),
                    "{variant}"
                );
            }
        }
    }

    #[test]
    fn a_field_of_no_option_or_of_the_wrong_type_is_refused() {
        let err = |body: Value| {
            let Value::Object(map) = body else { panic!() };
            match given(&map, &["variant"]) {
                Err(GameError::BadRequest(m)) => m,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(
            err(json!({"sowing": 1})),
            "unknown field `sowing`, expected one of `variant`, `empty_capture`, `end_rule`"
        );
        assert_eq!(
            err(json!({"empty_capture": "yes"})),
            "empty_capture must be true or false, not \"yes\""
        );
        assert_eq!(
            err(json!({"end_rule": 2})),
            "end_rule must be one of \"mover-cannot-move\", \"either-side-empty\", not 2"
        );
    }
}
