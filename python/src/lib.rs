//! The native module of the `mancala-rs` Python package (`mancala_rs._core`).
//!
//! It binds the suite's crates and adds no rules of its own: games are
//! `mancala_core::Game`s, players are `mancala_match::Contestant`s (a player spec or an
//! external engine, as `mancala match` reads them), exact
//! values come from `mancala_solver::Solver`, and the position notation and game
//! records are those of `mancala-core` and `mancala-session`. The Python side
//! (`python/mancala_rs/`) adds the environments and the engine bridge on top.
//!
//! ```text
//! lib.rs     the module, rule options as Python gives them, house numbers
//! args.rs    numbers as Python gives them (houses, seeds, counts, seconds), checked
//! game.rs    Game: one game, its notation and records
//! players.rs Player, best_move (a player spec or ext:COMMAND), solve (the GIL
//!            released while they think)
//! vector.rs  VectorGame: n games stepped at once, numpy in and out
//! ```

use mancala_core::description::Description;
use mancala_core::{IllegalMove, Move, RuleOptions, Rules, RulesError, Variant};
use mancala_session::RuleChoice;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod actions;
mod args;
mod game;
mod players;
mod vector;

/// The rules named by Python's keyword arguments. The board is the variant's standard
/// one unless given; `options` are the other keyword arguments, each a rule option
/// under its key with `_` for `-` (`empty_capture=True`, `end_rule="either-side-empty"`;
/// `None` is not given), checked by the session, which names an option given for a
/// game that does not take it. `rules`, a game description in TOML
/// (docs/rules-format.md), replaces `variant` and its options.
pub(crate) fn rules_of(
    variant: &str,
    rules: Option<&str>,
    houses: Option<i64>,
    seeds: Option<i64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Rules> {
    let options = options_of(options)?;
    if let Some(text) = rules {
        return described(text, variant, !options.is_empty(), houses, seeds);
    }
    let variant: Variant = variant.parse().map_err(value_error)?;
    let info = variant.info();
    let houses = houses.unwrap_or(info.default_houses.into());
    let seeds = seeds.unwrap_or(info.default_seeds.into());
    // Out of u8's range the board is out of range anyway: say so in the rules' words.
    let houses = u8::try_from(houses)
        .map_err(|_| out_of_range(RulesError::Houses(saturate(houses)), houses))?;
    let seeds =
        u8::try_from(seeds).map_err(|_| out_of_range(RulesError::Seeds(saturate(seeds)), seeds))?;
    options
        .iter()
        .fold(
            RuleChoice::new(variant, houses, seeds),
            |c, (key, value)| c.option(key, value),
        )
        .rules()
        .map_err(value_error)
}

/// The rule options among keyword arguments, by key and value: a switch is `True` or
/// `False`, any other option one of its values as a string. A keyword that names no
/// option of any game is Python's own "unexpected keyword argument" (`TypeError`).
fn options_of(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut given = Vec::new();
    for (name, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let name: String = name.extract()?;
        let key = name.replace('_', "-");
        let option = RuleOptions::info(&key)
            .map_err(|_| PyTypeError::new_err(format!("unexpected keyword argument '{name}'")))?;
        if value.is_none() {
            continue;
        }
        let value = if option.is_switch() {
            let on: bool = value
                .extract()
                .map_err(|_| value_error(format!("{name} must be True or False")))?;
            if on { "on" } else { "off" }.to_owned()
        } else {
            value.extract().map_err(|_| {
                value_error(format!(
                    "{name} must be one of {}",
                    option.values.join(", ")
                ))
            })?
        };
        given.push((key, value));
    }
    Ok(given)
}

/// The rules a description in TOML describes (the rules of a shipped game when it is
/// one), on its board unless `houses` or `seeds` say otherwise: `variant` must be left
/// at its default, and rule options are the description's.
fn described(
    text: &str,
    variant: &str,
    options: bool,
    houses: Option<i64>,
    seeds: Option<i64>,
) -> PyResult<Rules> {
    if variant != "kalah" {
        return Err(value_error("give a variant or rules, not both"));
    }
    if options {
        return Err(value_error(
            "a description's rule options are written in it, not given beside it",
        ));
    }
    let mut description = Description::from_toml(text, "rules").map_err(value_error)?;
    let board = &mut description.board;
    if let Some(h) = houses {
        board.houses =
            u8::try_from(h).map_err(|_| out_of_range(RulesError::Houses(saturate(h)), h))?;
    }
    if let Some(n) = seeds {
        board.seeds =
            u8::try_from(n).map_err(|_| out_of_range(RulesError::Seeds(saturate(n)), n))?;
    }
    Rules::from_description(description).map_err(value_error)
}

/// What a pickle carries of a game's rules besides its notation: the description of a
/// game of one's own (its key names no shipped game in another process), else nothing.
pub(crate) fn pickled_description(rules: Rules) -> String {
    let variant = rules.variant();
    if variant.is_catalogued() {
        String::new()
    } else {
        variant.description().to_json()
    }
}

/// Makes the game a pickle's description describes known to this process, so that the
/// notation that names it by its key reads back (see [`pickled_description`]).
pub(crate) fn learn_description(json: &str) -> PyResult<()> {
    if !json.is_empty() {
        let d = Description::from_json(json, "the pickled game").map_err(value_error)?;
        Rules::from_description(d).map_err(value_error)?;
    }
    Ok(())
}

fn saturate(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The rules' message for a number out of range, naming the number as given: the
/// rules hold it as a u32, so -1 would read "not 0".
fn out_of_range(e: RulesError, given: i64) -> PyErr {
    let msg = e.to_string();
    match msg.rsplit_once("not ") {
        Some((head, _)) => PyValueError::new_err(format!("{head}not {given}")),
        None => PyValueError::new_err(msg),
    }
}

/// The move sowing `house` (1..H) on a board of `houses` houses a side. A number that
/// names no house at all is refused with the rules' own message for a house off the
/// board.
pub(crate) fn move_of(house: i64, houses: usize) -> PyResult<Move> {
    let houses = u8::try_from(houses).unwrap_or(u8::MAX);
    match u8::try_from(house) {
        Ok(h) => {
            Move::new(h).ok_or_else(|| value_error(IllegalMove::OutOfRange { house: h, houses }))
        }
        // IllegalMove::OutOfRange holds a u8: a number beyond it is still "no house",
        // in the rules' words with the number as given.
        Err(_) => {
            let msg = IllegalMove::OutOfRange { house: 0, houses }.to_string();
            Err(PyValueError::new_err(msg.replacen(
                "house 0",
                &format!("house {house}"),
                1,
            )))
        }
    }
}

/// A `ValueError` carrying an error's message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// What a variant is, as the rules core describes it: a dict of its key, display
/// name, rules text, standard board, rule options and what its board has.
#[pyfunction]
fn variant_info(py: Python<'_>, variant: &str) -> PyResult<Py<PyDict>> {
    let v: Variant = variant.parse().map_err(value_error)?;
    let info = v.info();
    let d = PyDict::new(py);
    d.set_item("key", info.key)?;
    d.set_item("name", info.name)?;
    d.set_item("rules", info.rules)?;
    d.set_item("default_houses", info.default_houses)?;
    d.set_item("default_seeds", info.default_seeds)?;
    d.set_item("max_houses", info.max_houses)?;
    d.set_item("max_seeds", info.max_seeds)?;
    let options: Vec<&str> = info.options.iter().map(|o| o.key).collect();
    d.set_item("options", options)?;
    d.set_item("stores", info.stores)?;
    d.set_item("extra_turns", info.extra_turns)?;
    d.set_item("repetition", info.repetition)?;
    d.set_item("claims", info.claims)?;
    d.set_item("claim_word", info.claim_word)?;
    Ok(d.unbind())
}

/// The mancala family: rules, computer players, an exact solver and batched games.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::Game>()?;
    m.add_class::<players::Player>()?;
    m.add_class::<vector::VectorGame>()?;
    m.add_function(wrap_pyfunction!(players::best_move, m)?)?;
    m.add_function(wrap_pyfunction!(players::solve, m)?)?;
    m.add_function(wrap_pyfunction!(players::player_names, m)?)?;
    m.add_function(wrap_pyfunction!(game::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(game::write_records, m)?)?;
    m.add_function(wrap_pyfunction!(variant_info, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let keys: Vec<&str> = Variant::catalogue().iter().map(|v| v.name()).collect();
    m.add("VARIANTS", keys)?;
    Ok(())
}
