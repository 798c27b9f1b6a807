//! Computer players for every game the rules core plays.
//!
//! Every front end drives its computer seats through one trait, [`Player`]: given a
//! game in progress, choose a move (and, for players that can, say why). Players are
//! built from a textual [`PlayerSpec`] such as `random`, `robot` or `greedy`, so the
//! same names work on every command line, in the web API and in match tables.
//!
//! ```
//! use mancala_core::{Game, Rules};
//! use mancala_engine::PlayerSpec;
//!
//! let rules = Rules::kalah(6, 4);
//! let mut robot = "robot".parse::<PlayerSpec>().unwrap().build(rules, 7).unwrap();
//! let game = Game::new(rules);
//! let choice = robot.choose(&game);
//! // From the start, house 3's four seeds end in the store: an extra move.
//! assert_eq!(choice.mv.house(), 3);
//! assert_eq!(choice.reason.as_deref(), Some("leads to an extra move"));
//! ```
//!
//! Crate map:
//!
//! ```text
//! player.rs     the Player trait, Choice, PlayerSpec (parsing) and the factory
//! simple.rs     random, fewest, most, robot (best-move-first), greedy
//! score.rs      Score: heuristic values and exact "win by N" results
//! eval.rs       static evaluation per variant
//! tt.rs         transposition table with packed entries, position keys
//! ordering.rs   move ordering keys and the history table
//! search.rs     iterative-deepening PVS (Searcher, Limits)
//! endgame.rs    Kalah endgame tables the search probes, shared in a process
//! alphabeta.rs  the alphabeta player
//! analysis.rs   game analysis: every move's value against the best, labels, accuracy
//! mcts.rs       Monte-Carlo tree search with random playouts
//! levels.rs     easy, medium, hard, expert, master, perfect
//! master.rs     master: a time budget, the solver near the end, alpha-beta on threads
//! perfect.rs    the perfect player, a thin adapter over the exact solver (the crate
//!               mancala-solver), and first_guess, the alpha-beta guesses it starts from
//! ```

#![forbid(unsafe_code)]

mod alphabeta;
mod analysis;
mod catalogue;
mod endgame;
mod eval;
mod levels;
mod master;
mod mcts;
mod ordering;
mod perfect;
mod player;
mod score;
mod search;
mod simple;
mod spec;
mod tt;

pub use alphabeta::AlphaBeta;
pub use analysis::{
    Analysis, AnalysisError, AnalysisProgress, AnalysisSettings, Label, PlyAnalysis, analyse,
};
pub use catalogue::{Cost, PlayerInfo, Plays};
pub use endgame::default_probe_seeds;
pub(crate) use eval::evaluate_with;
pub use eval::{Weights, evaluate, features};
pub use levels::{LEVELS, level_spec};
pub use master::Master;
pub use mcts::{MAX_TREE_NODES, Mcts, MctsLimits, PLAYOUT_LIMIT, random_playout};
pub use ordering::History;
pub(crate) use ordering::order_key;
pub use perfect::{Perfect, first_guess};
pub use player::{Choice, Player};
pub use score::Score;
pub use search::{Limits, MAX_DEPTH, SearchResult, Searcher, repetition_score};
pub use simple::{Fewest, Greedy, Most, RandomPlayer, Robot};
pub use spec::{PlayerError, PlayerSpec};
pub use tt::{Bound, Entry};
pub(crate) use tt::{TranspositionTable, position_key};

/// Games longer than this many plies are stopped and scored by
/// [`Position::final_scores`](mancala_core::Position::final_scores) as they stand: a
/// safety net only: the rules core refuses a description under which a game could go
/// round for ever without a repetition rule or a move limit.
pub const MAX_PLIES: usize = 5000;
