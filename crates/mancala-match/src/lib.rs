//! Matches between computer players: who plays ([`Contestant`]: one of the engine's
//! players by its spec, or an external engine run as a child process), balanced
//! openings, games played in parallel and their statistics, and the engine line
//! protocol (docs/engine-protocol.md) that `mancala engine` speaks and external
//! engines are spoken to in.
//!
//! The engine (`mancala-engine`) knows how to choose a move; this crate knows how to
//! set players against each other, which only `mancala match`, the strength benches
//! and tests need.
//!
//! ```
//! use mancala_core::Rules;
//! use mancala_match::{MatchConfig, run_match};
//! let config = MatchConfig {
//!     rules: Rules::kalah(3, 2),
//!     p1: "greedy".parse().unwrap(),
//!     p2: "random".parse().unwrap(),
//!     games: 4,
//!     seed: 1,
//!     swap: true,
//!     opening_plies: 0,
//!     balanced: None,
//! };
//! let stats = run_match(&config, |_, _| {}).unwrap();
//! assert_eq!(stats.games(), 4);
//! ```
//!
//! Crate map:
//!
//! ```text
//! matches.rs     openings, one game from any start, parallel matches, statistics
//! contestant.rs  who plays a match: a PlayerSpec or an external engine
//! external.rs    external engines: a child process spoken to in the protocol
//! protocol.rs    the engine line protocol's commands and replies
//! ```

#![forbid(unsafe_code)]

mod contestant;
mod external;
mod matches;
pub mod protocol;

pub use contestant::{Contestant, Seated};
pub use external::{ExternalEngine, ExternalError, ExternalSpec};
pub use matches::{
    BALANCE_DEPTH, BALANCE_TRIES, GameResult, MatchConfig, MatchGame, MatchStats, PREPARE_WITHIN,
    opening, opening_from, play_match_game, play_match_game_from, ready_players, repeated_games,
    run_match, sub_seed,
};
