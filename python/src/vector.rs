//! `VectorGame`: n games of one rule set stepped together, numpy arrays in and out,
//! for reinforcement learning.

use mancala_core::{Game as CoreGame, Move, Outcome, Position, RepetitionTracker, Rules, Side};
use numpy::{AllowTypeChange, PyArray1, PyArray2, PyArrayLike1, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::game::Game;
use crate::{move_of, rules_of};

/// How one game ended in the last step: the winner (0 for a draw) and the scores.
#[derive(Clone, Copy, Default)]
struct Finished {
    winner: i8,
    scores: [i32; 2],
}

/// One game of the batch: what `mancala_core::Game` keeps, less the move list, which a
/// batch never reads, and the legal moves as bits (house `h` is bit `h - 1`), which
/// every step checks and `legal_mask` reports.
#[derive(Clone)]
struct Slot {
    position: Position,
    repetitions: RepetitionTracker,
    legal: u32,
}

impl Slot {
    fn new(rules: Rules) -> Slot {
        let position = Position::new(rules);
        Slot {
            position,
            repetitions: RepetitionTracker::new(&position),
            legal: legal_bits(&position),
        }
    }

    /// Plays a legal move; the outcome if it ends the game (by the rules, or by
    /// repetition as `mancala_core::Game` judges it).
    fn play(&mut self, mv: Move) -> Option<Outcome> {
        let before = self.position;
        self.position.play_unchecked(mv);
        if self.repetitions.record(&before, &self.position) {
            self.legal = 0;
            return self.position.end_by_repetition().map(|e| e.outcome);
        }
        self.legal = legal_bits(&self.position);
        self.position.outcome()
    }
}

fn legal_bits(position: &Position) -> u32 {
    position
        .legal_moves()
        .iter()
        .fold(0, |bits, mv| bits | 1 << mv.index())
}

/// `n` games of the same rules played side by side. Every game that ends in a step is
/// reported by that step's rewards and terminations (and `last_results`), then starts
/// again from the rules' start position.
#[pyclass(module = "mancala_rs", name = "VectorGame")]
pub struct VectorGame {
    rules: Rules,
    games: Vec<Slot>,
    rng: SmallRng,
    /// For each game, how it ended in the last step; `None` if it did not.
    last: Vec<Option<Finished>>,
}

impl VectorGame {
    fn houses(&self) -> usize {
        self.rules.houses()
    }

    /// The moves of `actions` (houses 1..H), every one checked before any is played;
    /// an illegal one is refused with the rules' reason.
    fn moves_of(&self, actions: &[i64]) -> PyResult<Vec<Move>> {
        if actions.len() != self.games.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                self.games.len()
            )));
        }
        let mut moves = Vec::with_capacity(actions.len());
        for (i, (slot, &a)) in self.games.iter().zip(actions).enumerate() {
            match usize::try_from(a) {
                Ok(h @ 1..=16) if slot.legal >> (h - 1) & 1 == 1 => {
                    moves.push(Move::from_index(h - 1));
                }
                _ => return Err(illegal_action(i, a, slot, self.houses())),
            }
        }
        Ok(moves)
    }

    /// Plays checked moves; the rewards of the movers and whether their game ended.
    /// Chunks of games are played on rayon's threads: a step has no randomness, so
    /// the result is the same on any number of threads.
    fn play(&mut self, moves: &[Move]) -> (Vec<f32>, Vec<bool>) {
        let mut rewards = vec![0.0; moves.len()];
        let mut done = vec![false; moves.len()];
        let rules = self.rules;
        self.games
            .par_chunks_mut(CHUNK)
            .zip(moves.par_chunks(CHUNK))
            .zip(self.last.par_chunks_mut(CHUNK))
            .zip(rewards.par_chunks_mut(CHUNK))
            .zip(done.par_chunks_mut(CHUNK))
            .for_each(|((((games, moves), last), rewards), done)| {
                for i in 0..games.len() {
                    (rewards[i], done[i], last[i]) = play_one(rules, &mut games[i], moves[i]);
                }
            });
        (rewards, done)
    }
}

/// Games a thread plays at a time in a step: enough that handing them over costs
/// little beside playing them.
const CHUNK: usize = 512;

/// Plays a checked move in one game: the mover's reward, whether the game ended, and
/// how; a game that ended starts again.
fn play_one(rules: Rules, slot: &mut Slot, mv: Move) -> (f32, bool, Option<Finished>) {
    let mover = slot.position.to_move();
    let Some(outcome) = slot.play(mv) else {
        return (0.0, false, None);
    };
    *slot = Slot::new(rules);
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
fn illegal_action(i: usize, action: i64, slot: &Slot, houses: usize) -> PyErr {
    let why = match move_of(action, houses) {
        Err(e) => Python::attach(|py| e.value(py).to_string()),
        Ok(mv) => match slot.position.check(mv) {
            Err(e) => e.to_string(),
            // Legal on the board, refused by the bits: the game ended by repetition.
            Ok(()) => mancala_core::IllegalMove::GameOver.to_string(),
        },
    };
    PyValueError::new_err(format!("game {i}: {why}"))
}

#[pymethods]
impl VectorGame {
    /// `n` games of the rules given, each at its start position; `seed` seeds
    /// `random_actions`.
    #[new]
    #[pyo3(signature = (n, variant = "kalah", houses = None, seeds = None, empty_capture = None, end_rule = None, seed = 0))]
    fn new(
        n: usize,
        variant: &str,
        houses: Option<i64>,
        seeds: Option<i64>,
        empty_capture: Option<bool>,
        end_rule: Option<&str>,
        seed: u64,
    ) -> PyResult<VectorGame> {
        if n == 0 {
            return Err(PyValueError::new_err(
                "a VectorGame needs at least one game",
            ));
        }
        let rules = rules_of(variant, houses, seeds, empty_capture, end_rule)?;
        Ok(VectorGame {
            rules,
            games: vec![Slot::new(rules); n],
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
        self.games.fill(Slot::new(self.rules));
        self.last.fill(None);
    }

    /// An (n, 2H+2) int32 array, each row from the player to move's side: its houses in
    /// sowing order, the opponent's houses, its store, the opponent's store.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let h = self.houses();
        let mut out = Vec::with_capacity(self.games.len() * (2 * h + 2));
        for slot in &self.games {
            let p = &slot.position;
            let me = p.to_move();
            let them = me.opponent();
            out.extend(p.houses(me).iter().map(|&s| i32::from(s)));
            out.extend(p.houses(them).iter().map(|&s| i32::from(s)));
            out.push(i32::from(p.store(me)));
            out.push(i32::from(p.store(them)));
        }
        PyArray1::from_vec(py, out).reshape([self.games.len(), 2 * h + 2])
    }

    /// The player to move in each game, 1 or 2 (int8).
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let sides = self.games.iter().map(|g| g.position.to_move());
        PyArray1::from_iter(py, sides.map(|s: Side| s.number() as i8))
    }

    /// An (n, H) bool array: whether each house is a legal move in each game.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let h = self.houses();
        let mut out = vec![false; self.games.len() * h];
        for (row, slot) in out.chunks_mut(h).zip(&self.games) {
            for (house, cell) in row.iter_mut().enumerate() {
                *cell = slot.legal >> house & 1 == 1;
            }
        }
        PyArray1::from_vec(py, out).reshape([self.games.len(), h])
    }

    /// A uniformly random legal house (1..H) for each game, from the generator seeded
    /// by `seed`.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let rng = &mut self.rng;
        let actions = self.games.iter().map(|g| {
            let legal = g.position.legal_moves();
            let moves: &[Move] = &legal;
            i64::from(moves[rng.random_range(0..moves.len())].house())
        });
        PyArray1::from_iter(py, actions.collect::<Vec<_>>())
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
        actions: PyArrayLike1<'py, i64, AllowTypeChange>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>)> {
        let moves = self.moves_of(actions.as_slice()?)?;
        let (rewards, done) = py.detach(|| self.play(&moves));
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

    /// Game `i` as a `Game` starting from its current position (a batch keeps no move
    /// list: the `Game` has no history, so Oware's repetition rule counts from there).
    fn game(&self, i: usize) -> PyResult<Game> {
        self.games
            .get(i)
            .map(|g| Game::wrap(CoreGame::from_position(g.position)))
            .ok_or_else(|| PyIndexError::new_err(format!("no game {i} of {}", self.games.len())))
    }
}
