//! Benchmarks of the search players, for `mancala bench`.

use std::time::{Duration, Instant};

use mancala_core::{Move, Position, Rules};

use crate::{Limits, Mcts, MctsLimits, Score, Searcher};

/// A fixed-depth alpha-beta search from the start position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchBench {
    /// Nodes visited over all iterations.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// The value for player 1.
    pub value: Score,
    /// The best move found.
    pub best_move: Move,
}

impl SearchBench {
    /// Nodes per second.
    #[must_use]
    pub fn nodes_per_sec(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }
}

/// Searches the start position of `rules` to `depth` plies, on one thread, with a
/// fresh 64 MiB table.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_engine::bench_search;
/// let b = bench_search(Rules::kalah(4, 3), 6);
/// assert!(b.nodes > 0);
/// ```
#[must_use]
pub fn bench_search(rules: Rules, depth: u32) -> SearchBench {
    let mut searcher = Searcher::new(64);
    let start = Instant::now();
    let r = searcher.search_position(&Position::new(rules), Limits::depth(depth));
    SearchBench {
        nodes: r.nodes,
        seconds: start.elapsed().as_secs_f64(),
        value: r.score,
        best_move: r.best,
    }
}

/// MCTS from the start position for a while.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsBench {
    /// Simulations run (one random playout each).
    pub sims: u64,
    /// Wall time.
    pub seconds: f64,
}

impl MctsBench {
    /// Simulations per second.
    #[must_use]
    pub fn sims_per_sec(&self) -> f64 {
        self.sims as f64 / self.seconds.max(1e-9)
    }
}

/// Runs MCTS from the start position of `rules` for `seconds`, on one thread.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_engine::bench_mcts;
/// let b = bench_mcts(Rules::oware(6, 4), 0.05);
/// assert!(b.sims > 0);
/// ```
#[must_use]
pub fn bench_mcts(rules: Rules, seconds: f64) -> MctsBench {
    let limits = MctsLimits {
        sims: None,
        time: Some(Duration::from_secs_f64(seconds.max(0.0))),
    };
    let mut mcts = Mcts::new(limits, 1);
    let start = Instant::now();
    let (_, sims, _) = mcts.search(&Position::new(rules));
    MctsBench {
        sims,
        seconds: start.elapsed().as_secs_f64(),
    }
}
