//! A description made into a game the rest of the suite plays: [`DescribedGame`] is a
//! small `Copy` handle (its engine is the description engine's to make:
//! `DescribedGame::engine` in `described/`, so that this module, which `Rules` needs,
//! depends on no position), so that [`Rules`](crate::Rules) and every
//! [`Position`](crate::Position) stay `Copy` while carrying any description.
//!
//! Handles are interned: the same description always gives the same handle, so two
//! handles are equal exactly when their descriptions are. A handle is a 16-bit index
//! into a table of games that only grows, so that it keeps `Position` as small as it
//! was before games were data (search and MCTS trees copy and store positions by the
//! million) and reading a game is one atomic load, without a lock. The number of
//! distinct descriptions a process may intern is bounded ([`MAX_INTERNED`]) so that a
//! server taking descriptions from users cannot be made to grow without end.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use crate::description::{self, Description, DescriptionError};
use crate::info::{Leftover, VariantInfo};

/// The most distinct descriptions one process interns.
pub const MAX_INTERNED: usize = 4096;

/// A game played from its description: the description, its engine and what front
/// ends read of it ([`VariantInfo`]).
///
/// ```
/// use mancala_core::described::DescribedGame;
/// use mancala_core::description::Description;
/// let mut d = Description::builtin("oware").unwrap();
/// d.key = "my-oware".into();
/// d.turn.must_feed = false;
/// let game = DescribedGame::intern(d.clone()).unwrap();
/// assert_eq!(game.info().key, "my-oware");
/// assert!(!game.info().must_feed);
/// // The same description gives the same handle.
/// assert_eq!(DescribedGame::intern(d).unwrap(), game);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DescribedGame(u16);

struct Entry {
    description: Description,
    info: VariantInfo,
}

impl DescribedGame {
    /// The handle of `description`, checked ([`Description::check`]) and interned.
    ///
    /// # Errors
    /// The description's own errors, or a refusal once [`MAX_INTERNED`] distinct
    /// descriptions have been interned.
    pub fn intern(description: Description) -> Result<DescribedGame, DescriptionError> {
        description.check()?;
        let text = description.to_toml();
        let registry = REGISTRY.get_or_init(Mutex::default);
        // A poisoned lock only means another thread panicked while inserting; the map
        // itself is never left half-written (insert is the last step).
        let mut map = registry
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&index) = map.get(&text) {
            return Ok(DescribedGame(index));
        }
        if map.len() >= MAX_INTERNED {
            return Err(DescriptionError::new(
                "",
                "",
                format!("this process already plays {MAX_INTERNED} different games"),
            ));
        }
        let entry: &'static Entry = Box::leak(Box::new(Entry {
            info: info_of(&description),
            description,
        }));
        let index = u16::try_from(map.len())
            .unwrap_or_else(|_| unreachable!("MAX_INTERNED fits in 16 bits"));
        // Set before the index is published in the map: whoever sees the index finds
        // the entry.
        if GAMES[usize::from(index)].set(entry).is_err() {
            unreachable!("each index is set once, under the registry's lock");
        }
        map.insert(text, index);
        LATEST
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(entry.description.key.clone(), index);
        Ok(DescribedGame(index))
    }

    /// The handle's index: `0..MAX_INTERNED`, dense, for tables kept beside this one.
    #[inline]
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The interned entry.
    #[inline]
    fn entry(self) -> &'static Entry {
        GAMES[usize::from(self.0)]
            .get()
            .unwrap_or_else(|| unreachable!("a handle is made only after its entry is set"))
    }

    /// The game with this key that this process interned last, if any: what a key
    /// that names no shipped game means in a record or a position's notation read
    /// after its description (a pickled game, a record with a `Rules` tag).
    ///
    /// ```
    /// use mancala_core::described::DescribedGame;
    /// use mancala_core::description::Description;
    /// let mut d = Description::builtin("kalah").unwrap();
    /// d.key = "kalah-by-key".into();
    /// d.turn.extra_turn = false;
    /// let game = DescribedGame::intern(d).unwrap();
    /// assert_eq!(DescribedGame::by_key("kalah-by-key"), Some(game));
    /// assert_eq!(DescribedGame::by_key("no-such-game"), None);
    /// ```
    #[must_use]
    pub fn by_key(key: &str) -> Option<DescribedGame> {
        let latest = LATEST.get_or_init(Mutex::default);
        let latest = latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        latest.get(key).map(|&index| DescribedGame(index))
    }

    /// The description.
    #[must_use]
    pub fn description(self) -> &'static Description {
        &self.entry().description
    }

    /// What front ends, records and players read of the game.
    #[must_use]
    pub fn info(self) -> &'static VariantInfo {
        &self.entry().info
    }
}

/// Every interned game's index, by its description's text.
static REGISTRY: OnceLock<Mutex<HashMap<String, u16>>> = OnceLock::new();

/// The last game interned with each key.
static LATEST: OnceLock<Mutex<HashMap<String, u16>>> = OnceLock::new();

/// The interned games, by index: each slot is set once, before its index is handed out.
static GAMES: [OnceLock<&'static Entry>; MAX_INTERNED] = [const { OnceLock::new() }; MAX_INTERNED];

impl fmt::Debug for DescribedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DescribedGame({:?})", self.entry().description.key)
    }
}

/// Leaks a copy of `s`: the entry it belongs to is leaked too, and interned once.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn info_of(d: &Description) -> VariantInfo {
    VariantInfo {
        key: leak(&d.key),
        name: leak(&d.name),
        rules: leak(&d.rules),
        tip: leak(&d.tip),
        default_houses: d.board.houses,
        default_seeds: d.board.seeds,
        max_houses: d.board.max_houses,
        max_seeds: d.board.max_seeds,
        options: &[],
        stores: d.board.stores,
        extra_turns: d.turn.extra_turn,
        repetition: d.end.repetition,
        must_feed: d.turn.must_feed,
        leftover: match d.end.leftover {
            description::Leftover::OwnRow => Leftover::OwnRow,
            description::Leftover::OwnRowUnlessDecided => Leftover::OwnRowUnlessDecided,
            description::Leftover::Nobody => Leftover::Nobody,
        },
        claims: d.claim.is_some(),
        claim_word: d.claim.as_ref().map_or("", |c| leak(&c.word)),
        bank: if d.board.stores { "store" } else { "captured" },
    }
}
