//! Rule options: the choices a game offers on top of its rules (Kalah's
//! `empty-capture` and `end-rule`), held in [`RuleOptions`] and named everywhere
//! outside this crate by their keys and values as [`VariantInfo::options`] lists them,
//! so that front ends, records and the API offer a game's options without knowing them.
//!
//! [`VariantInfo::options`]: crate::variants::VariantInfo::options

use std::fmt;
use std::str::FromStr;

use crate::info::{EMPTY_CAPTURE, END_RULE, RULE_OPTIONS, RuleOptionInfo};

/// When a game of Kalah ends.
///
/// ```
/// use mancala_core::EndRule;
/// assert_eq!("either-side-empty".parse::<EndRule>().unwrap(), EndRule::EitherSideEmpty);
/// assert_eq!(EndRule::default().to_string(), "mover-cannot-move");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum EndRule {
    /// The game ends when the player to move has no seeds in their houses (the Auckland
    /// specifications).
    #[default]
    MoverCannotMove,
    /// The game ends as soon as either player's houses are all empty.
    EitherSideEmpty,
}

impl EndRule {
    /// Both end rules.
    pub const ALL: [EndRule; 2] = [EndRule::MoverCannotMove, EndRule::EitherSideEmpty];

    /// The name used on the command line and in files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EndRule::MoverCannotMove => "mover-cannot-move",
            EndRule::EitherSideEmpty => "either-side-empty",
        }
    }
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EndRule {
    type Err = OptionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| OptionError::UnknownEndRule(s.to_owned()))
    }
}

/// The Kalah rule options found in the wild. Other variants ignore them (and say so in
/// [`VariantInfo::options`](crate::variants::VariantInfo)).
///
/// ```
/// use mancala_core::{EndRule, RuleOptions};
/// let o = RuleOptions { empty_capture: true, ..RuleOptions::default() };
/// assert_eq!(o.end_rule, EndRule::MoverCannotMove);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RuleOptions {
    /// When the last seed lands in an own empty house whose opposite house is empty, the
    /// seed still goes to the store (off in the Auckland specifications).
    pub empty_capture: bool,
    /// When the game ends.
    pub end_rule: EndRule,
}

impl RuleOptions {
    /// The value of the rule option `key`, as [`RuleOptionInfo::values`] writes it
    /// (`on`, `either-side-empty`); `None` for a key that names no option.
    ///
    /// ```
    /// use mancala_core::{EndRule, RuleOptions};
    /// let o = RuleOptions { end_rule: EndRule::EitherSideEmpty, ..RuleOptions::default() };
    /// assert_eq!(o.value("empty-capture"), Some("off"));
    /// assert_eq!(o.value("end-rule"), Some("either-side-empty"));
    /// assert_eq!(o.value("sowing"), None);
    /// ```
    #[must_use]
    pub fn value(&self, key: &str) -> Option<&'static str> {
        match key {
            EMPTY_CAPTURE => Some(if self.empty_capture { "on" } else { "off" }),
            END_RULE => Some(self.end_rule.name()),
            _ => None,
        }
    }

    /// These options with the option `key` set to `value` (as [`RuleOptions::value`]
    /// writes it).
    ///
    /// # Errors
    /// [`OptionError::Unknown`] for a key no game takes, [`OptionError::Value`] for a
    /// value the option does not take.
    ///
    /// ```
    /// use mancala_core::{EndRule, RuleOptions};
    /// let o = RuleOptions::default().with("end-rule", "either-side-empty").unwrap();
    /// assert_eq!(o.end_rule, EndRule::EitherSideEmpty);
    /// let err = o.with("end-rule", "never").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "unknown end-rule \"never\" (expected mover-cannot-move or either-side-empty)"
    /// );
    /// assert!(o.with("sowing", "on").is_err());
    /// ```
    pub fn with(mut self, key: &str, value: &str) -> Result<RuleOptions, OptionError> {
        let option = RuleOptions::info(key)?;
        if !option.values.contains(&value) {
            return Err(OptionError::Value {
                key: key.to_owned(),
                value: value.to_owned(),
                expected: option.values.join(" or "),
            });
        }
        match key {
            EMPTY_CAPTURE => self.empty_capture = value == "on",
            _ => self.end_rule = value.parse()?,
        }
        Ok(self)
    }

    /// Every rule option a game takes, each once, as front ends offer them (a game's
    /// own are its [`VariantInfo::options`](crate::variants::VariantInfo::options)).
    ///
    /// ```
    /// let keys: Vec<&str> = mancala_core::RuleOptions::all().iter().map(|o| o.key).collect();
    /// assert_eq!(keys, ["empty-capture", "end-rule"]);
    /// ```
    #[must_use]
    pub fn all() -> &'static [RuleOptionInfo] {
        &RULE_OPTIONS
    }

    /// What the option `key` is.
    ///
    /// # Errors
    /// [`OptionError::Unknown`] when no game takes it.
    pub fn info(key: &str) -> Result<&'static RuleOptionInfo, OptionError> {
        RULE_OPTIONS
            .iter()
            .find(|o| o.key == key)
            .ok_or_else(|| OptionError::Unknown(key.to_owned()))
    }
}

/// "empty-capture and end-rule": the keys of [`RuleOptions::all`].
fn keys_in_words() -> String {
    let keys: Vec<&str> = RULE_OPTIONS.iter().map(|o| o.key).collect();
    match keys.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{} and {last}", init.join(", ")),
        _ => keys.join(""),
    }
}

/// Why a rule option cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// A rule option no game takes.
    #[error("no game takes a rule option {0:?} (the options are {keys})", keys = keys_in_words())]
    Unknown(String),
    /// A value a rule option does not take.
    #[error("unknown {key} {value:?} (expected {expected})")]
    Value {
        /// The option's key.
        key: String,
        /// The value given.
        value: String,
        /// The values it takes, in words.
        expected: String,
    },
    /// The end rule name is not known.
    #[error("unknown end rule {0:?} (expected mover-cannot-move or either-side-empty)")]
    UnknownEndRule(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn every_option_of_every_game_reads_back_each_of_its_values() {
        for v in Variant::catalogue() {
            for option in v.info().options {
                assert_eq!(
                    RuleOptions::default().value(option.key),
                    Some(option.values[0]),
                    "{v}: the first value is the default"
                );
                for value in option.values {
                    let set = RuleOptions::default().with(option.key, value).unwrap();
                    assert_eq!(set.value(option.key), Some(*value));
                }
            }
        }
    }

    #[test]
    fn every_option_a_game_takes_is_one_the_options_hold() {
        for v in Variant::catalogue() {
            for option in v.info().options {
                assert!(RuleOptions::all().contains(option), "{v}: {}", option.key);
            }
        }
    }

    #[test]
    fn an_unknown_key_names_the_keys_there_are() {
        assert_eq!(
            RuleOptions::default()
                .with("sowing", "on")
                .unwrap_err()
                .to_string(),
            "no game takes a rule option \"sowing\" (the options are empty-capture and end-rule)"
        );
    }
}
