//! The Kalah solver's state kept between solves (the table, the endgame database and
//! the numbering they share), and the first guesses its root moves start from.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use mancala_core::{Move, Position, Rules};

use crate::board::Shape;
use crate::busy::Busy;
use crate::endgame::Endgame;
use crate::kalah::KalahSearch;
use crate::table::Table;

/// Root moves get a first guess from the caller's [`FirstGuess`] unless they are within
/// this many seeds of the endgame database.
const GUESS_SEEDS: i32 = 6;

/// A first guess at the value of a position that is not over, for MTD(f) to start
/// from: the final margin (the mover's score minus the other player's, stores
/// included) a heuristic search expects, or `None` for no guess. A good guess saves
/// null-window tests; a bad one costs tests but never changes a value.
pub type FirstGuess = dyn Fn(&Position) -> Option<i32> + Send + Sync;

/// The Kalah solver's state kept between solves: the shape its table's keys use.
pub(crate) struct KalahState {
    pub rules: Rules,
    pub shape: Shape,
    pub table: Table,
    pub busy: Busy,
    /// Built for this state, read from a file, or shared by the caller
    /// ([`Solver::set_endgame_table`](crate::Solver::set_endgame_table)).
    pub endgame: Option<Arc<Endgame>>,
}

impl KalahState {
    /// A first guess at the gain of the position after house `i` of `pos` (not over),
    /// for the player to move there: from `first_guess`.
    pub(crate) fn guess(&self, pos: &Position, i: usize, first_guess: Option<&FirstGuess>) -> i32 {
        let mut next = *pos;
        next.play_unchecked(Move::from_index(i));
        if next.is_over() {
            0
        } else {
            self.guess_gain(&next, first_guess)
        }
    }

    /// A first guess at the gain of `pos` (not over) for its player to move: the
    /// margin `first_guess` expects, less the store difference already banked. Small
    /// problems, and a solver without a first guess, start from 0.
    fn guess_gain(&self, pos: &Position, first_guess: Option<&FirstGuess>) -> i32 {
        let seeds = i32::from(pos.seeds_in_play());
        if self
            .endgame
            .as_ref()
            .is_some_and(|db| seeds <= db.seeds() + GUESS_SEEDS)
        {
            return 0;
        }
        let Some(margin) = first_guess.and_then(|guess| guess(pos)) else {
            return 0;
        };
        let me = pos.to_move();
        let banked = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        (margin - banked).clamp(-seeds, seeds)
    }

    /// A fresh search over this state's table, stopping at `deadline` or when `stop`
    /// is set.
    pub(crate) fn search<'a>(
        &'a self,
        deadline: Option<Instant>,
        stop: &'a AtomicBool,
    ) -> KalahSearch<'a> {
        KalahSearch {
            shape: &self.shape,
            table: &self.table,
            busy: &self.busy,
            endgame: self.endgame.as_deref(),
            nodes: 0,
            deadline,
            stop,
            finished: None,
            aborted: false,
        }
    }
}
