//! The two players.

use std::fmt;

/// One of the two players.
///
/// `South` is player 1 (row A, moves first); `North` is player 2 (row B).
///
/// ```
/// use mancala_core::Side;
/// assert_eq!(Side::South.opponent(), Side::North);
/// assert_eq!(Side::North.number(), 2);
/// assert_eq!(Side::from_number(1), Some(Side::South));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    /// Player 1, row A, who moves first.
    South = 0,
    /// Player 2, row B.
    North = 1,
}

impl Side {
    /// Both sides, player 1 first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for player 1, 1 for player 2: an index into per-side arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player number as people say it: 1 or 2.
    #[inline]
    #[must_use]
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The side of player `n` (1 or 2), or `None` for any other number.
    #[must_use]
    pub const fn from_number(n: u8) -> Option<Side> {
        match n {
            1 => Some(Side::South),
            2 => Some(Side::North),
            _ => None,
        }
    }

    /// The row letter of the Oware convention: `A` for player 1, `B` for player 2.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'A',
            Side::North => 'B',
        }
    }
}

impl fmt::Display for Side {
    /// Writes `player 1` or `player 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}
