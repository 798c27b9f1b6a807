//! Computer players for Kalah and Oware.
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
//! alphabeta.rs  the alphabeta player
//! mcts.rs       Monte-Carlo tree search with random playouts
//! levels.rs     easy, medium, hard, expert, master, perfect
//! master.rs     master: a time budget, the solver near the end, alpha-beta on threads
//! perfect.rs    the perfect player, a thin adapter over the exact solver (the crate
//!               mancala-solver), and first_guess, the alpha-beta guesses it starts from
//! matches.rs    bot-against-bot matches in parallel, statistics
//! contestant.rs who plays a match: a PlayerSpec or an external engine
//! protocol.rs   the engine line protocol (docs/engine-protocol.md)
//! external.rs   external engines: a child process spoken to in the protocol
//! ```

#![forbid(unsafe_code)]

mod alphabeta;
mod contestant;
mod eval;
mod external;
mod levels;
mod master;
mod matches;
mod mcts;
mod ordering;
mod perfect;
mod player;
pub mod protocol;
mod score;
mod search;
mod simple;
mod tt;

pub use alphabeta::AlphaBeta;
pub use contestant::{Contestant, Seated};
pub use eval::{Weights, evaluate, evaluate_with};
pub use external::{ExternalEngine, ExternalError, ExternalSpec};
pub use levels::{LEVELS, level_spec};
pub use master::Master;
pub use matches::{
    BALANCE_DEPTH, BALANCE_TRIES, GameResult, MAX_PLIES, MatchConfig, MatchGame, MatchStats,
    opening, opening_from, play_match_game, play_match_game_from, run_match, sub_seed,
};
pub use mcts::{MAX_TREE_NODES, Mcts, MctsLimits, PLAYOUT_LIMIT, random_playout};
pub use ordering::{History, order_key, predict};
pub use perfect::{Perfect, first_guess};
pub use player::{Choice, Player, PlayerError, PlayerSpec};
pub use score::Score;
pub use search::{Limits, MAX_DEPTH, SearchResult, Searcher, repetition_score};
pub use simple::{Fewest, Greedy, Most, RandomPlayer, Robot};
pub use tt::{Bound, Entry, TranspositionTable, position_key};
