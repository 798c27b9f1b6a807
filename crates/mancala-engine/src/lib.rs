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
//! player.rs   the Player trait, Choice, PlayerSpec (parsing) and the factory
//! simple.rs   random, fewest, most, robot (best-move-first), greedy
//! ```

mod player;
mod simple;

pub use player::{Choice, Player, PlayerError, PlayerSpec};
pub use simple::{Fewest, Greedy, Most, RandomPlayer, Robot};
