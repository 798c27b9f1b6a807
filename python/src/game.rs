//! `Game`: one game of any variant, with its notation and records.

use std::hash::{DefaultHasher, Hash, Hasher};

use mancala_core::{Move, Position, Side};
use mancala_session::{Record, RecordFormat, parse_records};
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyDict, PyTuple, PyType};

use crate::args::whole_number;
use crate::{learn_description, move_of, pickled_description, rules_of, value_error};

/// A game of any variant (Kalah, Oware, simplified Oware, Togyz Kumalak): the start
/// position, the moves played and the position they lead to, with the repetition rule.
/// The board is the variant's standard one unless `houses` and `seeds` are given.
///
/// Houses are numbered 1..H in the mover's sowing order; player 1 moves first from the
/// rules' start position.
#[pyclass(module = "mancala_rs", name = "Game")]
#[derive(Clone)]
pub struct Game {
    pub(crate) inner: mancala_core::Game,
}

impl Game {
    pub(crate) fn wrap(inner: mancala_core::Game) -> Game {
        Game { inner }
    }
}

/// 1 or 2 for a side.
fn number(side: Side) -> u8 {
    side.number()
}

#[pymethods]
impl Game {
    /// A new game from the start position of the rules given.
    #[new]
    #[pyo3(signature = (variant = "kalah", houses = None, seeds = None, rules = None, **options))]
    fn new(
        variant: &str,
        houses: Option<i64>,
        seeds: Option<i64>,
        rules: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Game> {
        let rules = rules_of(variant, rules, houses, seeds, options)?;
        Ok(Game::wrap(mancala_core::Game::new(rules)))
    }

    /// A game starting from a position in the one-line notation of docs/records.md.
    #[staticmethod]
    fn from_notation(notation: &str) -> PyResult<Game> {
        let start = Position::from_notation(notation).map_err(value_error)?;
        Ok(Game::wrap(mancala_core::Game::from_position(start)))
    }

    /// The game of a record holding exactly one game (see `read_records` for several).
    #[staticmethod]
    #[pyo3(signature = (text, variant = "kalah", houses = None, seeds = None))]
    fn from_record(
        text: &str,
        variant: &str,
        houses: Option<i64>,
        seeds: Option<i64>,
    ) -> PyResult<Game> {
        let mut games = read_records(text, variant, houses, seeds)?;
        match games.len() {
            1 => Ok(games.remove(0)),
            n => Err(value_error(format!("the text holds {n} games, not one"))),
        }
    }

    /// The variant's key: one of `VARIANTS`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.rules().variant().name()
    }

    /// The rules in words, e.g. "kalah(6,4) either-side-empty".
    #[getter]
    fn rules(&self) -> String {
        self.inner.rules().to_string()
    }

    /// Houses per side.
    #[getter]
    fn houses_per_side(&self) -> usize {
        self.inner.rules().houses()
    }

    /// The current position in the one-line notation.
    #[getter]
    fn notation(&self) -> String {
        self.inner.position().to_notation()
    }

    /// The start position in the one-line notation.
    #[getter]
    fn start_notation(&self) -> String {
        self.inner.start().to_notation()
    }

    /// The houses played so far, each 1..H in its mover's sowing order.
    #[getter]
    fn moves(&self) -> Vec<u32> {
        self.inner
            .moves()
            .iter()
            .map(|m| u32::from(m.house()))
            .collect()
    }

    /// The legal moves (houses 1..H) of the player to move; empty once the game is over.
    fn legal_moves(&self) -> Vec<u32> {
        self.inner
            .legal_moves()
            .iter()
            .map(|m| u32::from(m.house()))
            .collect()
    }

    /// Sows `house` (1..H) for the player to move: an int, or a float that is a whole
    /// number. Raises ValueError, with the rules' reason, if the move is illegal (or the
    /// float has a fraction), TypeError for what is not a number; the game is then
    /// unchanged.
    fn play(&mut self, house: &Bound<'_, PyAny>) -> PyResult<()> {
        let house = whole_number(house, "a house")?;
        let mv = move_of(house, self.inner.rules().houses())?;
        self.inner.play(mv).map_err(value_error)?;
        Ok(())
    }

    /// Takes back the last move; False if none was played.
    fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    /// Seeds in each house: player 1's row, then player 2's, each in sowing order.
    #[getter]
    fn houses(&self) -> (Vec<u16>, Vec<u16>) {
        let p = self.inner.position();
        (
            p.houses(Side::South).to_vec(),
            p.houses(Side::North).to_vec(),
        )
    }

    /// Claimed houses (in a game whose captures claim houses): for player 1, the house
    /// of player 2's row it has claimed (as player 2 numbers it), or None; then player
    /// 2's. (None, None) in games without claims.
    #[getter]
    fn claimed(&self) -> (Option<u8>, Option<u8>) {
        let [a, b] = self.inner.position().claims().map(|t| t.map(Move::house));
        (a, b)
    }

    /// The stores (Oware: the seeds captured) of player 1 and player 2.
    #[getter]
    fn stores(&self) -> [u16; 2] {
        self.inner.position().stores()
    }

    /// The player to move, 1 or 2; None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.inner.to_move().map(number)
    }

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// None while the game goes on; then (winner, [score 1, score 2]), the winner 1 or
    /// 2, or None for a draw. Scores include the seeds swept at the end.
    #[getter]
    fn result(&self) -> Option<(Option<u8>, [u16; 2])> {
        self.inner
            .outcome()
            .map(|o| (o.winner.map(number), o.scores))
    }

    /// Why the game ended, e.g. "no-seeds", "majority" or "repetition"; None while it goes on.
    #[getter]
    fn end_reason(&self) -> Option<&'static str> {
        self.inner.end().map(|e| e.reason.name())
    }

    /// Plies played.
    #[getter]
    fn ply(&self) -> usize {
        self.inner.ply()
    }

    /// An independent copy.
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|o| o.borrow().inner == self.inner)
    }

    /// Consistent with `==`: equal games have the same start and moves, and so the same
    /// hash. A game is mutable: its hash changes with the moves played.
    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.inner.start().hash(&mut hasher);
        self.inner.moves().hash(&mut hasher);
        hasher.finish()
    }

    /// Pickles by the game's record: its start position (rules included) and moves. The
    /// game unpickled is equal to this one, repetition rule and all.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        Bound<'py, PyTuple>,
        (String, Vec<u32>, String),
    ) {
        let game = slf.borrow();
        let description = pickled_description(game.inner.rules());
        let state = (game.inner.start().to_notation(), game.moves(), description);
        (slf.get_type(), PyTuple::empty(slf.py()), state)
    }

    /// Restores a pickled game (see `__reduce__`).
    fn __setstate__(&mut self, state: (String, Vec<i64>, String)) -> PyResult<()> {
        let (start, moves, description) = state;
        learn_description(&description)?;
        let mut game = mancala_core::Game::from_position(
            Position::from_notation(&start).map_err(value_error)?,
        );
        for house in moves {
            game.play(move_of(house, game.rules().houses())?)
                .map_err(value_error)?;
        }
        self.inner = game;
        Ok(())
    }

    /// The game as a record (docs/records.md), with the players' names when given.
    #[pyo3(signature = (names = None))]
    fn to_record(&self, names: Option<(String, String)>) -> String {
        record_of(self, names).to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game.from_notation({:?}) after {:?}",
            self.inner.start().to_notation(),
            self.moves()
        )
    }

    fn __str__(&self) -> String {
        self.inner.position().to_string()
    }
}

fn record_of(game: &Game, names: Option<(String, String)>) -> Record {
    let record = Record::new(game.inner.clone());
    match names {
        Some((a, b)) => record.with_names([a, b]),
        None => record,
    }
}

/// Every game of a text of game records (docs/records.md; a bare list of houses or
/// the two-digit Oware notation are read too, with the rules given for text without
/// tags). Raises ValueError with the line and reason of the first problem.
#[pyfunction]
#[pyo3(signature = (text, variant = "kalah", houses = None, seeds = None))]
pub(crate) fn read_records(
    text: &str,
    variant: &str,
    houses: Option<i64>,
    seeds: Option<i64>,
) -> PyResult<Vec<Game>> {
    let defaults = rules_of(variant, None, houses, seeds, None)?;
    let records = parse_records(text, defaults).map_err(value_error)?;
    Ok(records
        .into_iter()
        .map(|r| Game::wrap(r.game().clone()))
        .collect())
}

/// Several games written as one text of records, in the strict format.
#[pyfunction]
pub(crate) fn write_records(games: Vec<PyRef<'_, Game>>) -> PyResult<String> {
    let records: Vec<Record> = games.iter().map(|g| record_of(g, None)).collect();
    mancala_session::write_records(&records, RecordFormat::Strict).map_err(value_error)
}
