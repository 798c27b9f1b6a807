//! The alpha-beta player: [`Searcher`] behind the [`Player`] trait.

use std::time::Duration;

use mancala_core::{Game, Rules};

use crate::endgame::PendingTable;
use crate::{Choice, Limits, Player, Searcher, Weights};

/// Plays the best move of an iterative-deepening alpha-beta search within its limits
/// (spec `alphabeta:depth=12`, `alphabeta:ms=500`, `alphabeta:nodes=100000`; limits
/// combine, the first reached stops the search; `hash=MB` sizes the table;
/// `threads=N` searches on N threads sharing the table, see
/// [`Searcher::search_threads`]).
///
/// ```
/// use mancala_core::{Game, Rules};
/// use mancala_engine::{AlphaBeta, Limits, Player};
/// let game = Game::new(Rules::kalah(6, 4));
/// let mut ab = AlphaBeta::new(Limits::depth(8), 1);
/// let choice = ab.choose(&game);
/// assert!(game.legal_moves().contains(&choice.mv));
/// assert!(choice.reason.unwrap().contains("8-ply"));
/// ```
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    searcher: Searcher,
    limits: Limits,
    threads: usize,
    probe_seeds: u16,
}

impl AlphaBeta {
    /// A player searching within `limits`, with a table of about `tt_megabytes` MiB.
    #[must_use]
    pub fn new(limits: Limits, tt_megabytes: usize) -> AlphaBeta {
        AlphaBeta {
            searcher: Searcher::new(tt_megabytes),
            limits,
            threads: 1,
            probe_seeds: 0,
        }
    }

    /// Changes the limits of the next searches.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The same player searching on `threads` threads (1: the plain search).
    #[must_use]
    pub fn with_threads(self, threads: usize) -> AlphaBeta {
        AlphaBeta {
            threads: threads.max(1),
            ..self
        }
    }

    /// The same player reading exact values from a Kalah endgame table of every
    /// position of `rules` with at most `seeds` seeds in play (0: none), built in the
    /// background and shared with the other players of this process.
    #[must_use]
    pub fn with_endgame(self, rules: Rules, seeds: u16) -> AlphaBeta {
        self.with_table(crate::endgame::shared_table(rules, seeds), seeds)
    }

    /// The same player probing `table`, of at most `seeds` seeds.
    pub(crate) fn with_table(self, table: Option<PendingTable>, seeds: u16) -> AlphaBeta {
        AlphaBeta {
            searcher: self.searcher.with_endgame(table),
            probe_seeds: seeds,
            ..self
        }
    }

    /// The same player evaluating with `weights` (see [`Searcher::with_weights`]).
    #[must_use]
    pub fn with_weights(self, weights: Weights) -> AlphaBeta {
        AlphaBeta {
            searcher: self.searcher.with_weights(weights),
            ..self
        }
    }
}

impl Player for AlphaBeta {
    fn name(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.limits.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.limits.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.limits.time {
            parts.push(format!("ms={}", t.as_millis()));
        }
        if self.threads > 1 {
            parts.push(format!("threads={}", self.threads));
        }
        if self.probe_seeds > 0 {
            parts.push(format!("probe={}", self.probe_seeds));
        }
        format!("alphabeta({})", parts.join(","))
    }

    fn prepare(&mut self, within: Duration) -> bool {
        self.searcher.prepare(within)
    }

    fn choose(&mut self, game: &Game) -> Choice {
        let r = self
            .searcher
            .search_threads(game, self.limits, self.threads);
        let reason = if r.depth == 0 {
            "is the only legal move".to_owned()
        } else {
            format!("scores {} in a {}-ply search", r.score, r.depth)
        };
        Choice {
            mv: r.best,
            reason: Some(reason),
        }
    }
}
