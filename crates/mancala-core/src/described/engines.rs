//! The engine of each interned game, kept beside the table of games (`interned.rs`)
//! rather than in it, so that the handle `Rules` holds depends on no position: made
//! the first time a game is played, then read without a lock.

use std::sync::OnceLock;

use super::Described;
use crate::interned::{DescribedGame, MAX_INTERNED};

/// The engines, by the games' indices.
static ENGINES: [OnceLock<Described>; MAX_INTERNED] = [const { OnceLock::new() }; MAX_INTERNED];

impl DescribedGame {
    /// The engine that plays this game.
    ///
    /// ```
    /// use mancala_core::described::DescribedGame;
    /// use mancala_core::description::Description;
    /// use mancala_core::{Position, Rules, Variant};
    /// let mut d = Description::builtin("oware").unwrap();
    /// d.key = "oware-engine-example".into();
    /// d.turn.must_feed = false;
    /// let game = DescribedGame::intern(d).unwrap();
    /// let start = Position::new(Rules::standard(Variant::Described(game)));
    /// assert_eq!(game.engine().legal_moves(&start).len(), 6);
    /// ```
    #[must_use]
    pub fn engine(self) -> &'static Described {
        ENGINES[self.index()].get_or_init(|| Described::new(self.description()))
    }
}
