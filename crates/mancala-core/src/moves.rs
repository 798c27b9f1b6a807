//! Moves and fixed-capacity move lists.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use crate::MAX_HOUSES;

/// A move: the house to sow from, numbered `1..=houses` as the mover sees it, in sowing
/// order.
///
/// A `Move` is only a number; whether it is legal depends on the position.
///
/// ```
/// use mancala_core::Move;
/// let mv: Move = "3".parse().unwrap();
/// assert_eq!(mv.house(), 3);
/// assert_eq!(mv.index(), 2);
/// assert!("0".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Move(u8);

impl Move {
    /// The move that sows from `house` (1-based). Returns `None` for 0 or a house beyond
    /// [`MAX_HOUSES`].
    #[must_use]
    pub const fn new(house: u8) -> Option<Move> {
        if house >= 1 && house as usize <= MAX_HOUSES {
            Some(Move(house))
        } else {
            None
        }
    }

    /// The move sowing from the house with 0-based index `index`.
    ///
    /// # Panics
    /// If `index >= MAX_HOUSES`.
    #[must_use]
    pub const fn from_index(index: usize) -> Move {
        assert!(index < MAX_HOUSES, "house index out of range");
        Move(index as u8 + 1)
    }

    /// The house number, 1-based.
    #[inline]
    #[must_use]
    pub const fn house(self) -> u8 {
        self.0
    }

    /// The house index, 0-based.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a string is not a [`Move`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a house number: {0:?} (expected 1 to {max})", max = MAX_HOUSES)]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Move::new)
            .ok_or_else(|| ParseMoveError(s.to_owned()))
    }
}

/// The legal moves of a position, in house order, without allocating.
///
/// Dereferences to `[Move]`.
///
/// ```
/// use mancala_core::{Position, Rules};
/// let moves = Position::new(Rules::kalah(6, 4)).legal_moves();
/// assert_eq!(moves.len(), 6);
/// assert_eq!(moves[0].house(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveList {
    moves: [Move; MAX_HOUSES],
    len: u8,
}

impl MoveList {
    /// An empty list.
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(1); MAX_HOUSES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_HOUSES`] moves.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// Appends `mv` if `keep` holds, without a branch: move generation over random
    /// boards mispredicts a branch per house otherwise.
    ///
    /// # Panics
    /// If the list is full.
    #[inline]
    pub fn push_if(&mut self, mv: Move, keep: bool) {
        self.moves[self.len as usize] = mv;
        self.len += u8::from(keep);
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::iter::Take<std::array::IntoIter<Move, MAX_HOUSES>>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter().take(self.len as usize)
    }
}
