//! `VectorGame`: n games of one rule set stepped together, numpy arrays in and out,
//! for reinforcement learning.

use mancala_core::{Game as CoreGame, LeanGame, Move, Position, Side};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};
use rayon::prelude::*;

use crate::actions::actions_of;
use crate::game::Game;
use crate::{args, learn_description, move_of, pickled_description, rules_of, value_error};

/// How one game ended in the last step: the winner (0 for a draw) and the scores.
#[derive(Clone, Copy, Default)]
struct Finished {
    winner: i8,
    scores: [i32; 2],
}

/// `n` games of the same rules played side by side. Every game that ends in a step is
/// reported by that step's rewards and terminations (and `last_results`), then starts
/// again from the rules' start position.
#[pyclass(module = "mancala_rs", name = "VectorGame")]
pub struct VectorGame {
    /// The rules' start position, where every game starts and starts again.
    start: Position,
    /// The games: what `mancala_core::Game` keeps, less the move list, which a batch
    /// never reads, and with the legal moves as bits, which every step reads.
    games: Vec<LeanGame>,
    rng: SmallRng,
    /// For each game, how it ended in the last step; `None` if it did not.
    last: Vec<Option<Finished>>,
}

impl VectorGame {
    fn houses(&self) -> usize {
        self.start.houses_per_side()
    }

    /// Columns of an observation: 2H+2, and the two claimed houses in a game with claims.
    fn observation_width(&self) -> usize {
        let extra = if self.start.variant().info().claims {
            2
        } else {
            0
        };
        2 * self.houses() + 2 + extra
    }

    /// Checks `actions` (houses 1..H), every one before any is played: an illegal one
    /// is refused with the rules' reason.
    fn check(&self, actions: &[i64]) -> PyResult<()> {
        if actions.len() != self.games.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                self.games.len()
            )));
        }
        // One pass with no early exit (it vectorises); the reason is looked for only
        // when something is wrong.
        let all_legal = self
            .games
            .iter()
            .zip(actions)
            .fold(true, |ok, (game, &a)| ok & is_legal(game, a));
        if all_legal {
            return Ok(());
        }
        let (i, (game, &a)) = self
            .games
            .iter()
            .zip(actions)
            .enumerate()
            .find(|(_, (game, a))| !is_legal(game, **a))
            .expect("an illegal action was seen");
        Err(illegal_action(i, a, game, self.houses()))
    }

    /// Plays checked actions; the rewards of the movers and whether their game ended.
    /// Large batches are played in chunks on rayon's threads (a step has no
    /// randomness, so the result is the same on any number of threads); a small one
    /// on the calling thread, where handing chunks over would cost more than it saves.
    fn play(&mut self, actions: &[i64]) -> (Vec<f32>, Vec<bool>) {
        let n = actions.len();
        let mut rewards = vec![0.0; n];
        let mut done = vec![false; n];
        let start = &self.start;
        let play_chunk = |games: &mut [LeanGame],
                          actions: &[i64],
                          last: &mut [Option<Finished>],
                          rewards: &mut [f32],
                          done: &mut [bool]| {
            for i in 0..games.len() {
                (rewards[i], done[i], last[i]) = play_one(start, &mut games[i], actions[i]);
            }
        };
        if n < PARALLEL_FROM {
            play_chunk(
                &mut self.games,
                actions,
                &mut self.last,
                &mut rewards,
                &mut done,
            );
        } else {
            self.games
                .par_chunks_mut(CHUNK)
                .zip(actions.par_chunks(CHUNK))
                .zip(self.last.par_chunks_mut(CHUNK))
                .zip(rewards.par_chunks_mut(CHUNK))
                .zip(done.par_chunks_mut(CHUNK))
                .for_each(|((((games, actions), last), rewards), done)| {
                    play_chunk(games, actions, last, rewards, done);
                });
        }
        (rewards, done)
    }
}

/// Games a thread plays at a time in a step: enough that handing them over costs
/// little beside playing them.
const CHUNK: usize = 512;

/// Batches smaller than this are played on the calling thread.
const PARALLEL_FROM: usize = 2 * CHUNK;

/// Whether `action` (a house, 1..H) is legal in `game`.
#[inline]
fn is_legal(game: &LeanGame, action: i64) -> bool {
    // Houses out of 1..=32 shift to nothing; the bits hold none above H.
    (1..=32).contains(&action) && game.legal_bits() >> (action - 1) & 1 == 1
}

/// Plays a checked action in one game: the mover's reward, whether the game ended,
/// and how; a game that ended starts again.
#[inline]
fn play_one(start: &Position, game: &mut LeanGame, action: i64) -> (f32, bool, Option<Finished>) {
    let mover = game.position().to_move();
    let mv = Move::from_index(action as usize - 1);
    let Ok(Some(outcome)) = game.play(mv) else {
        return (0.0, false, None);
    };
    game.restart(start);
    let reward = match outcome.winner {
        None => 0.0,
        Some(w) if w == mover => 1.0,
        Some(_) => -1.0,
    };
    let finished = Finished {
        winner: outcome.winner.map_or(0, |w| w.number() as i8),
        scores: outcome.scores.map(i32::from),
    };
    (reward, true, Some(finished))
}

/// The ValueError for an illegal action in game `i`: the rules' reason, prefixed.
fn illegal_action(i: usize, action: i64, game: &LeanGame, houses: usize) -> PyErr {
    let why = match move_of(action, houses) {
        Err(e) => Python::attach(|py| e.value(py).to_string()),
        Ok(mv) => match game.clone().play(mv) {
            Err(e) => e.to_string(),
            Ok(_) => unreachable!("a legal action is not refused"),
        },
    };
    PyValueError::new_err(format!("game {i}: {why}"))
}

/// A pickled batch: the rules' start, each game's run start and moves (houses as
/// bytes), the seed of the random actions, the last results (winner, scores), and the
/// description of a game of one's own (empty for a shipped game).
type PickledBatch = (
    String,
    Vec<(String, Vec<u8>)>,
    u64,
    Vec<Option<(i8, i32, i32)>>,
    String,
);

/// A game of a pickled batch: its run's start played on by its moves.
fn restore_game(start: &Position, from: &str, moves: &[u8]) -> PyResult<LeanGame> {
    let from = Position::from_notation(from).map_err(value_error)?;
    if from.rules() != start.rules() {
        return Err(PyValueError::new_err(format!(
            "not a pickled VectorGame: a game of {} in a batch of {}",
            from.rules(),
            start.rules()
        )));
    }
    let mut game = LeanGame::new(from);
    for &house in moves {
        game.play(move_of(house.into(), from.houses_per_side())?)
            .map_err(value_error)?;
    }
    Ok(game)
}

/// The bits of a legal-move mask (at most 8 houses) spread to one byte per house, 1
/// for a legal house, house 1 in the lowest byte: a multiplication puts bit `k` in
/// byte `k`, an addition makes any non-zero byte's top bit set.
#[inline]
fn spread_bits(bits: u32) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let picked = (u64::from(bits & 0xff) * ONES) & 0x8040_2010_0804_0201;
    ((picked + 0x7f7f_7f7f_7f7f_7f7f) >> 7) & ONES
}

#[pymethods]
impl VectorGame {
    /// `n` games of the rules given, each at its start position; `seed` seeds
    /// `random_actions`.
    #[new]
    #[pyo3(signature = (n, variant = "kalah", houses = None, seeds = None, seed = 0, rules = None, **options))]
    fn new(
        n: i64,
        variant: &str,
        houses: Option<i64>,
        seeds: Option<i64>,
        seed: i128,
        rules: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorGame> {
        let n = args::count(n, 1, "the number of games")?;
        let seed = args::seed(seed)?;
        let rules = rules_of(variant, rules, houses, seeds, options)?;
        let start = Position::new(rules);
        Ok(VectorGame {
            start,
            games: vec![LeanGame::new(start); n],
            rng: SmallRng::seed_from_u64(seed),
            last: vec![None; n],
        })
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Houses per side: actions are 1..num_houses.
    #[getter]
    fn num_houses(&self) -> usize {
        self.houses()
    }

    /// Starts every game again from the start position.
    fn reset(&mut self) {
        let start = self.start;
        self.games.iter_mut().for_each(|g| g.restart(&start));
        self.last.fill(None);
    }

    /// An (n, 2H+2) int32 array, each row from the player to move's side: its houses in
    /// sowing order, the opponent's houses, its store, the opponent's store; in a variant
    /// whose captures claim houses two more columns, (n, 2H+4): the house of the
    /// opponent's row the mover owns, then the opponent's of the mover's row, each as
    /// that row's owner numbers it, 0 for none. The layout of the environments'.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let width = self.observation_width();
        let claims = self.start.variant().info().claims;
        let mut out = Vec::with_capacity(self.games.len() * width);
        for game in &self.games {
            let p = game.position();
            let me = p.to_move();
            let them = me.opponent();
            out.extend(p.houses(me).iter().map(|&s| i32::from(s)));
            out.extend(p.houses(them).iter().map(|&s| i32::from(s)));
            out.push(i32::from(p.store(me)));
            out.push(i32::from(p.store(them)));
            if claims {
                let house = |side| p.claimed(side).map_or(0, |m: Move| i32::from(m.house()));
                out.extend([house(me), house(them)]);
            }
        }
        PyArray1::from_vec(py, out).reshape([self.games.len(), width])
    }

    /// The player to move in each game, 1 or 2 (int8).
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let sides = self.games.iter().map(|g| g.position().to_move());
        PyArray1::from_iter(py, sides.map(|s: Side| s.number() as i8))
    }

    /// An (n, H) bool array: whether each house is a legal move in each game.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let (n, h) = (self.games.len(), self.houses());
        if h > 8 {
            let mut out = vec![false; n * h];
            for (row, game) in out.chunks_exact_mut(h).zip(&self.games) {
                for (house, cell) in row.iter_mut().enumerate() {
                    *cell = game.legal_bits() >> house & 1 == 1;
                }
            }
            return PyArray1::from_vec(py, out).reshape([n, h]);
        }
        // Up to 8 houses, a row is one 8-byte store of the bits spread to bytes (0 or
        // 1), each row written over the tail of the one before; numpy then reads the
        // bytes as bools, without a copy.
        let mut out = vec![0u8; n * h + 8];
        for (i, game) in self.games.iter().enumerate() {
            out[i * h..][..8].copy_from_slice(&spread_bits(game.legal_bits()).to_le_bytes());
        }
        out.truncate(n * h);
        let bytes = PyArray1::from_vec(py, out).reshape([n, h])?;
        Ok(bytes
            .call_method1("view", (numpy::dtype::<bool>(py),))?
            .cast_into::<PyArray2<bool>>()?)
    }

    /// The legal houses of each game as bits, house `h` as bit `h - 1` (int64): the
    /// rows of `legal_mask()` as numbers, for policies that look moves up in a table
    /// (`legal_mask() @ 2 ** np.arange(H)` without the product).
    fn legal_bits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let bits: Vec<i64> = self
            .games
            .iter()
            .map(|g| i64::from(g.legal_bits()))
            .collect();
        PyArray1::from_vec(py, bits)
    }

    /// A uniformly random legal house (1..H) for each game, from the generator seeded
    /// by `seed`.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let rng = &mut self.rng;
        let actions: Vec<i64> = self
            .games
            .iter()
            .map(|g| {
                // The k-th legal house, counted from house 1: k lowest bits cleared.
                let mut bits = g.legal_bits();
                for _ in 0..rng.random_range(0..bits.count_ones().max(1)) {
                    bits &= bits - 1;
                }
                i64::from(bits.trailing_zeros() + 1)
            })
            .collect();
        PyArray1::from_vec(py, actions)
    }

    /// Plays one house (1..H) in every game. Returns (rewards, terminations): float32
    /// rewards for the player who moved (1 for a win, -1 for a loss, 0 for a draw or a
    /// game going on) and bool terminations. Games that ended start again; their
    /// results are in `last_results()` until the next step. Raises ValueError, playing
    /// nothing, if any action is illegal.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>)> {
        let actions = actions_of(actions, self.games.len())?;
        self.check(&actions)?;
        let (rewards, done) = py.detach(|| self.play(&actions));
        Ok((
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, done),
        ))
    }

    /// How the games that ended in the last step ended: (winners, scores), an int8
    /// array with 1 or 2 for the winner, 0 for a draw and -1 for a game that did not
    /// end, and an (n, 2) int32 array of final scores (0 for a game that did not end).
    #[allow(clippy::type_complexity)]
    fn last_results<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray1<i8>>, Bound<'py, PyArray2<i32>>)> {
        let winners = self.last.iter().map(|f| f.map_or(-1, |f| f.winner));
        let scores: Vec<i32> = self
            .last
            .iter()
            .flat_map(|f| f.unwrap_or_default().scores)
            .collect();
        Ok((
            PyArray1::from_iter(py, winners),
            PyArray1::from_vec(py, scores).reshape([self.games.len(), 2])?,
        ))
    }

    /// Pickles by the settings and each game's record: its rules' start, for each game
    /// the position its repetition run starts from and the moves since (so Oware's
    /// repetition rule carries over), the last step's results, and the seed of the
    /// random actions. The generator's state cannot be read, so pickling draws that seed
    /// and reseeds this batch with it as well: from then on the two draw the same
    /// actions.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let mut vec = slf.borrow_mut();
        let seed = vec.rng.next_u64();
        vec.rng = SmallRng::seed_from_u64(seed);
        let games = vec
            .games
            .iter()
            .map(|g| {
                let (from, moves) = g.since_capture();
                let houses: Vec<u8> = moves.iter().map(|m| m.house()).collect();
                (from.to_notation(), PyBytes::new(py, &houses))
            })
            .collect::<Vec<_>>();
        let last: Vec<Option<(i8, i32, i32)>> = vec
            .last
            .iter()
            .map(|f| f.map(|f| (f.winner, f.scores[0], f.scores[1])))
            .collect();
        let description = pickled_description(vec.start.rules());
        let state = (vec.start.to_notation(), games, seed, last, description);
        (slf.get_type(), (1,), state).into_pyobject(py)
    }

    /// Restores a pickled batch (see `__reduce__`).
    fn __setstate__(&mut self, state: PickledBatch) -> PyResult<()> {
        let (start, games, seed, last, description) = state;
        learn_description(&description)?;
        let start = Position::from_notation(&start).map_err(value_error)?;
        if games.is_empty() || games.len() != last.len() {
            return Err(PyValueError::new_err(
                "not a pickled VectorGame: the games and results do not match",
            ));
        }
        let games = games
            .iter()
            .map(|(from, moves)| restore_game(&start, from, moves))
            .collect::<PyResult<Vec<_>>>()?;
        *self = VectorGame {
            start,
            games,
            rng: SmallRng::seed_from_u64(seed),
            last: last
                .into_iter()
                .map(|f| {
                    f.map(|(winner, a, b)| Finished {
                        winner,
                        scores: [a, b],
                    })
                })
                .collect(),
        };
        Ok(())
    }

    /// Game `i` as a `Game` starting from its current position (a batch keeps no move
    /// list: the `Game` has no history, so Oware's repetition rule counts from there).
    /// Negative `i` counts from the end, as in a list.
    fn game(&self, i: i64) -> PyResult<Game> {
        let n = self.games.len();
        args::index(i, n)
            .map(|i| Game::wrap(CoreGame::from_position(*self.games[i].position())))
            .ok_or_else(|| {
                PyIndexError::new_err(format!("no game {i}: the batch has games 0 to {}", n - 1))
            })
    }
}
