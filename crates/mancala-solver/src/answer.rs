//! What a solve reports: its answer, the endgame database it used, and its progress
//! on the way.

use std::time::Duration;

use mancala_core::Move;

/// The answer of [`Solver::solve`](crate::Solver::solve).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The margin (player 1's final score minus player 2's) under perfect play.
    pub value: i32,
    /// Each legal move with the margin after it under perfect play, in house order.
    pub move_values: Vec<(Move, i32)>,
    /// The moves that achieve [`Solution::value`], in house order.
    pub best_moves: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Memory held by the solver's table, in bytes.
    pub memory_bytes: usize,
}

impl Solution {
    /// The margin after `mv`, if it is legal.
    #[must_use]
    pub fn value_of(&self, mv: Move) -> Option<i32> {
        self.move_values
            .iter()
            .find(|&&(m, _)| m == mv)
            .map(|&(_, v)| v)
    }
}

/// The Kalah endgame database a solve used ([`Solver::endgame`](crate::Solver::endgame)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameInfo {
    /// It holds every board of at most this many seeds in play.
    pub seeds: usize,
    /// It was read from the endgame file.
    pub read: bool,
    /// It was built and written to the endgame file.
    pub written: bool,
}

/// A progress report during a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Kalah: the endgame database now holds every board of up to `seeds` seeds in
    /// play, of the `of` it is being built for.
    Database {
        /// Seed counts done.
        seeds: usize,
        /// Seed counts to do.
        of: usize,
    },
    /// A null-window test narrowed the value of a root move.
    Bounds {
        /// The root move being solved, or `None` for the position itself.
        mv: Option<Move>,
        /// The margin is proved to be at least this...
        lower: i32,
        /// ... and at most this (for player 1, like every value here).
        upper: i32,
        /// Nodes searched so far by this move's search.
        nodes: u64,
    },
    /// Oware: `solved` of the `of` positions reachable from the one solved are done
    /// (they are solved from the end of the game backwards, the position itself last).
    Positions {
        /// Positions done.
        solved: usize,
        /// Positions reachable from the one solved.
        of: usize,
    },
}
