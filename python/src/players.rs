//! Computer players and the exact solver, thinking with the GIL released.

use std::sync::Mutex;

use mancala_core::Rules;
use mancala_engine::PlayerSpec;
use mancala_match::{Contestant, Seated};
use mancala_solver::{SolveConfig, SolveError, Solver};
use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::game::Game;
use crate::{args, value_error};

/// The player a person wrote, as `mancala match` reads it (one of the suite's
/// players, or `ext:COMMAND`), refused with the engine's message when it names no
/// computer player.
fn contestant_of(text: &str) -> PyResult<Contestant> {
    let contestant: Contestant = text.parse().map_err(value_error)?;
    if contestant.is_human() {
        return Err(PyValueError::new_err(format!(
            "{text:?} is a person, not a computer player"
        )));
    }
    if let Some(spec) = contestant.spec() {
        // Build once to check the options now rather than at the first move.
        spec.build(Rules::kalah(6, 4), 0).map_err(value_error)?;
    }
    Ok(contestant)
}

/// The seated player's move; an external engine's failure is a RuntimeError.
fn choose_with(seated: &mut Seated, game: &mancala_core::Game) -> PyResult<u8> {
    seated
        .choose(game)
        .map(|c| c.mv.house())
        .map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", seated.name())))
}

fn game_in_progress(game: &Game) -> PyResult<mancala_core::Game> {
    if game.inner.is_over() {
        return Err(value_error(mancala_core::IllegalMove::GameOver));
    }
    Ok(game.inner.clone())
}

/// A computer player built from a spec such as "expert", "greedy", "random:seed=3",
/// "alphabeta:ms=200" or "ext:COMMAND", as `mancala match` takes them. It keeps its
/// state (tables, random generator, the external engine's process) between moves while
/// the rules stay the same.
#[pyclass(module = "mancala_rs", name = "Player")]
pub struct Player {
    contestant: Contestant,
    seed: u64,
    seated: Mutex<Option<(Rules, Seated)>>,
}

impl Player {
    /// Runs `f` on the player seated for `rules`, seating it first if need be; an
    /// external engine that failed is dropped (and so stopped), to start afresh next time.
    fn with_seated<T>(
        &self,
        rules: Rules,
        f: impl FnOnce(&mut Seated) -> PyResult<T>,
    ) -> PyResult<T> {
        let mut seated = self.seated.lock().unwrap_or_else(|e| e.into_inner());
        if seated.as_ref().is_none_or(|(r, _)| *r != rules) {
            *seated = None;
            let player = self
                .contestant
                .seat(rules, self.seed)
                .map_err(value_error)?;
            *seated = Some((rules, player));
        }
        let (_, player) = seated.as_mut().expect("seated above");
        let result = f(player);
        if result.is_err() {
            *seated = None;
        }
        result
    }
}

#[pymethods]
impl Player {
    /// A player for `spec`; `seed` makes its random choices repeatable. Raises
    /// ValueError for a spec the engine does not know.
    #[new]
    #[pyo3(signature = (spec = "expert", seed = 0))]
    fn new(spec: &str, seed: i128) -> PyResult<Player> {
        Ok(Player {
            contestant: contestant_of(spec)?,
            seed: args::seed(seed)?,
            seated: Mutex::new(None),
        })
    }

    /// The spec, as written back by the engine.
    #[getter]
    fn spec(&self) -> String {
        self.contestant.to_string()
    }

    /// The house (1..H) this player sows in `game`. Raises ValueError if the game is
    /// over or the player does not play its variant, RuntimeError if an external
    /// engine fails.
    fn choose(&self, py: Python<'_>, game: PyRef<'_, Game>) -> PyResult<u8> {
        let game = game_in_progress(&game)?;
        py.detach(|| self.with_seated(game.rules(), |p| choose_with(p, &game)))
    }

    /// Waits at most `seconds` for what the player builds in the background (the Kalah
    /// endgame table of master); whether it is ready. Seats the player for `game`'s rules.
    #[pyo3(signature = (game, seconds = 60.0))]
    fn prepare(&self, py: Python<'_>, game: PyRef<'_, Game>, seconds: f64) -> PyResult<bool> {
        let rules = game.inner.rules();
        let within = args::duration(seconds, "seconds")?;
        py.detach(|| self.with_seated(rules, |p| Ok(p.prepare(within))))
    }

    /// Pickles by the spec and seed: the player unpickled starts afresh (no tables
    /// built, no engine process, its random choices from the seed again).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, u64)) {
        let player = slf.borrow();
        (slf.get_type(), (player.spec(), player.seed))
    }

    fn __repr__(&self) -> String {
        format!(
            "Player({:?}, seed={})",
            self.contestant.to_string(),
            self.seed
        )
    }
}

/// The house (1..H) the computer player `player` (any spec `mancala match` accepts:
/// "expert", "master:ms=500", "random:seed=2", "ext:COMMAND", ...) sows in `game`. The
/// GIL is released while it thinks. Raises ValueError for an unknown spec or a finished
/// game, RuntimeError if an external engine fails.
#[pyfunction]
#[pyo3(signature = (game, player = "expert", seed = 0))]
pub(crate) fn best_move(
    py: Python<'_>,
    game: PyRef<'_, Game>,
    player: &str,
    seed: i128,
) -> PyResult<u8> {
    let seed = args::seed(seed)?;
    let contestant = contestant_of(player)?;
    let game = game_in_progress(&game)?;
    py.detach(|| {
        let mut seated = contestant.seat(game.rules(), seed).map_err(value_error)?;
        choose_with(&mut seated, &game)
    })
}

/// The names of the computer players that play `variant`.
#[pyfunction]
#[pyo3(signature = (variant = "kalah"))]
pub(crate) fn player_names(variant: &str) -> PyResult<Vec<&'static str>> {
    let variant = variant.parse().map_err(value_error)?;
    Ok(PlayerSpec::known_for(variant).collect())
}

/// The exact value of `game` under perfect play: a dict with "value" (player 1's final
/// score minus player 2's), "best_moves", "move_values" ({house: value}), "nodes" and
/// "seconds". `seconds` bounds the time (TimeoutError when it runs out), `table_mb`
/// the memory. Kalah and Oware; the GIL is released while it solves.
#[pyfunction]
#[pyo3(signature = (game, seconds = None, table_mb = 256, force = false))]
pub(crate) fn solve<'py>(
    py: Python<'py>,
    game: PyRef<'_, Game>,
    seconds: Option<f64>,
    table_mb: i64,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let table_mb = args::count(table_mb, 1, "table_mb")?;
    let game = game_in_progress(&game)?;
    let mut config = SolveConfig::default().with_table_mb(table_mb);
    config.force = force;
    if let Some(s) = seconds {
        config = config.with_time_limit(args::duration(s, "seconds")?);
    }
    let solution = py
        .detach(|| Solver::new(config).solve(&game))
        .map_err(|e| match e {
            SolveError::OutOfTime => PyTimeoutError::new_err(e.to_string()),
            e => value_error(e),
        })?;
    let d = PyDict::new(py);
    d.set_item("value", solution.value)?;
    let best: Vec<u32> = solution
        .best_moves
        .iter()
        .map(|m| u32::from(m.house()))
        .collect();
    d.set_item("best_moves", best)?;
    let values = PyDict::new(py);
    for (m, v) in &solution.move_values {
        values.set_item(m.house(), v)?;
    }
    d.set_item("move_values", values)?;
    d.set_item("nodes", solution.nodes)?;
    d.set_item("seconds", solution.elapsed.as_secs_f64())?;
    Ok(d)
}
