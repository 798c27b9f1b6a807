//! What the threads of any root solve share besides their work: the seeds in play at
//! the root and how a gain for the root's mover becomes player 1's margin, the
//! deadline and stop flag every search checks, the nodes searched, and whether a
//! thread ran out of time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use mancala_core::{Position, Side};

use crate::error::SolveError;
use crate::kalah::sign;

pub(crate) struct RootFrame<'a> {
    /// Seeds in play at the root.
    pub(crate) seeds: i32,
    /// The root's store difference for player 1.
    base: i32,
    /// The sign that turns a gain for the root's mover into a margin for player 1.
    sgn: i32,
    pub(crate) deadline: Option<Instant>,
    pub(crate) stop: &'a AtomicBool,
    nodes: AtomicU64,
    failed: AtomicBool,
}

impl<'a> RootFrame<'a> {
    pub(crate) fn new(pos: &Position, deadline: Option<Instant>, stop: &'a AtomicBool) -> Self {
        RootFrame {
            seeds: i32::from(pos.seeds_in_play()),
            base: i32::from(pos.store(Side::South)) - i32::from(pos.store(Side::North)),
            sgn: sign(pos.to_move()),
            deadline,
            stop,
            nodes: AtomicU64::new(0),
            failed: AtomicBool::new(false),
        }
    }

    /// Player 1's final margin when the root's mover gains `rel` from here on.
    pub(crate) fn margin(&self, rel: i32) -> i32 {
        self.base + self.sgn * rel
    }

    /// Counts `nodes` more searched; returns the count before them.
    pub(crate) fn add_nodes(&self, nodes: u64) -> u64 {
        self.nodes.fetch_add(nodes, Ordering::Relaxed)
    }

    /// A search was stopped by the deadline or the stop flag: the solve fails.
    pub(crate) fn fail(&self) {
        self.failed.store(true, Ordering::Relaxed);
    }

    pub(crate) fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// The nodes searched in all, unless a thread ran out of time.
    pub(crate) fn finish(self) -> Result<u64, SolveError> {
        if self.failed.into_inner() {
            Err(SolveError::OutOfTime)
        } else {
            Ok(self.nodes.into_inner())
        }
    }
}
