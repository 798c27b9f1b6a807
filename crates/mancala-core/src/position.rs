//! Positions: the board and whose turn it is, what a move did, and why a move or a
//! setup is refused. Playing them is `play.rs`'s.

use std::fmt;

use crate::{MAX_HOUSES, Move, Rules, Side, Variant};

/// What a move did besides sowing, for messages and move ordering.
///
/// ```
/// use mancala_core::{Move, Position, Rules};
/// let (_, report) = Position::new(Rules::kalah(6, 4)).play_with_report(Move::new(3).unwrap()).unwrap();
/// assert!(report.ended_in_store);
/// assert_eq!(report.captured, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveReport {
    /// Seeds captured by the move (in Kalah, the last seed and the opposite house).
    pub captured: u16,
    /// The last seed landed in the mover's own store (Kalah: the mover moves again).
    pub ended_in_store: bool,
}

/// A position: the seeds in every house and store, the player to move, and the rules.
///
/// A `Position` is a small `Copy` value with no heap data. Play a move with
/// [`Position::play`] (checked, returns a typed error) or [`Position::play_unchecked`]
/// (the fast path for search, for moves known to be legal).
///
/// The board is indexed from each player's own point of view: house 1 is where that
/// player's sowing starts, and player 1's house `i` faces player 2's house `H + 1 - i`.
///
/// ```text
///            player 2 (North)
///        6    5    4    3    2    1
///  store                              store
///  of 2  1    2    3    4    5    6   of 1
///            player 1 (South)
/// ```
///
/// ```
/// use mancala_core::{Move, Position, Rules, Side};
/// let start = Position::new(Rules::kalah(6, 4));
/// // Sowing 4 seeds from house 3 ends in the store: player 1 moves again.
/// let next = start.play(Move::new(3).unwrap()).unwrap();
/// assert_eq!(next.houses(Side::South), &[4, 4, 0, 5, 5, 5]);
/// assert_eq!(next.store(Side::South), 1);
/// assert_eq!(next.to_move(), Side::South);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Player 1's houses in `0..h`, player 2's in `h..2h`; the rest stay 0.
    pub(crate) cells: [u16; 2 * MAX_HOUSES],
    /// Seeds banked by each player: the store in Kalah, captures in Oware.
    pub(crate) stores: [u16; 2],
    /// Togyz Kumalak's tuzdyks: for each player, the house of the opponent's row it
    /// owns, as the opponent numbers it (1..=H), or 0 for none. Always `[0, 0]` in the
    /// other variants, so it costs them nothing but two bytes.
    pub(crate) tuzdyks: [u8; 2],
    /// Seeds on each player's row (a function of `cells`, cached by every constructor
    /// and every move: end tests and evaluations read it instead of summing the rows).
    pub(crate) rows: [u16; 2],
    pub(crate) rules: Rules,
    pub(crate) to_move: Side,
    /// Cached result of the variant's end test, kept up to date by every constructor
    /// and every move, so that `legal_moves` and `is_over` cost nothing in search.
    pub(crate) over: bool,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The house number is not on this board.
    #[error("there is no house {house} (houses are 1 to {houses})")]
    OutOfRange {
        /// The house asked for.
        house: u8,
        /// Houses per side.
        houses: u8,
    },
    /// The house holds no seeds.
    #[error("house {house} is empty")]
    EmptyHouse {
        /// The house asked for.
        house: u8,
    },
    /// The opponent has no seeds and this move would not give them any (Oware).
    #[error("house {house} does not give the opponent any seeds, and they have none")]
    MustFeed {
        /// The house asked for.
        house: u8,
    },
}

/// Why a position cannot be set up from the given parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A row does not have one count per house.
    #[error("{side} has {found} houses, the rules say {expected}")]
    RowLength {
        /// The row with the wrong length.
        side: Side,
        /// Houses given.
        found: usize,
        /// Houses per side in the rules.
        expected: usize,
    },
    /// The seeds on the board and in the stores do not add up to the rules' total.
    #[error("the position holds {found} seeds, the rules start with {expected}")]
    SeedsNotConserved {
        /// Seeds in the position.
        found: u32,
        /// Seeds the rules start with.
        expected: u16,
    },
    /// In simplified Oware a player with an empty row is skipped, so it cannot be their
    /// turn while the opponent has seeds.
    #[error("{0} has no seeds and would be skipped")]
    MoverSkipped(Side),
    /// A claimed house that the rules do not allow (see [`Position::with_claims`]).
    #[error("{side}'s {}: {why}", if word.is_empty() { "claimed house" } else { word })]
    Claim {
        /// The player who claimed it.
        side: Side,
        /// What the game calls a claimed house (`tuzdyk`), or empty.
        word: &'static str,
        /// Which rule it breaks.
        why: &'static str,
    },
}

impl Position {
    /// The rules of this game.
    #[inline]
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The variant (shorthand for `rules().variant()`).
    #[inline]
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.rules.variant()
    }

    /// Houses per side.
    #[inline]
    #[must_use]
    pub fn houses_per_side(&self) -> usize {
        self.rules.houses()
    }

    /// `side`'s houses, from its house 1 to house H.
    #[inline]
    #[must_use]
    pub fn houses(&self, side: Side) -> &[u16] {
        let h = self.rules.houses();
        &self.cells[side.index() * h..][..h]
    }

    /// Seeds in `side`'s house `mv`.
    ///
    /// # Panics
    /// If the house is not on this board.
    #[inline]
    #[must_use]
    pub fn seeds(&self, side: Side, mv: Move) -> u16 {
        self.houses(side)[mv.index()]
    }

    /// Seeds banked by `side`: its store in Kalah, its captures in Oware.
    #[inline]
    #[must_use]
    pub fn store(&self, side: Side) -> u16 {
        self.stores[side.index()]
    }

    /// Both stores, player 1 first.
    #[inline]
    #[must_use]
    pub fn stores(&self) -> [u16; 2] {
        self.stores
    }

    /// The house of the opponent's row that `side` owns as its tuzdyk (Togyz Kumalak),
    /// numbered as the opponent numbers it; `None` in the other variants and before
    /// `side` has claimed one.
    ///
    /// ```
    /// use mancala_core::{Move, Position, Side};
    /// let p = Position::from_notation("togyzkumalak 3x3 0,3,3/3 3,x,3/3 1").unwrap();
    /// assert_eq!(p.claimed(Side::South), Move::new(2));
    /// assert_eq!(p.claimed(Side::North), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn claimed(&self, side: Side) -> Option<Move> {
        Move::new(self.tuzdyks[side.index()])
    }

    /// Both players' claimed houses, player 1's first (see [`Position::claimed`]).
    #[inline]
    #[must_use]
    pub fn claims(&self) -> [Option<Move>; 2] {
        Side::BOTH.map(|s| self.claimed(s))
    }

    /// Seeds in `side`'s houses.
    #[inline]
    #[must_use]
    pub fn row_sum(&self, side: Side) -> u16 {
        self.rows[side.index()]
    }

    /// Seeds still on the board (in houses, not stores).
    #[inline]
    #[must_use]
    pub fn seeds_in_play(&self) -> u16 {
        self.rows[0] + self.rows[1]
    }

    /// The player whose turn it is; once the game is over, the player who would have
    /// moved next.
    #[inline]
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Whether the game has ended (by the rules of the position alone; Oware's
    /// repetition rule needs the history, see [`Game`](crate::Game)).
    #[inline]
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Stores plus each player's own row: how the seeds are shared when a game ends with
    /// seeds on the board that belong to the player on whose side they lie (as when an
    /// Oware game ends by repetition, see [`Game`](crate::Game)).
    ///
    /// ```
    /// use mancala_core::{Position, Rules, Side};
    /// let p = Position::from_parts(Rules::oware(2, 4), [&[1, 2], &[0, 4]], [3, 6], Side::South).unwrap();
    /// assert_eq!(p.stores_plus_rows(), [6, 10]);
    /// ```
    #[must_use]
    pub fn stores_plus_rows(&self) -> [u16; 2] {
        [
            self.stores[0] + self.row_sum(Side::South),
            self.stores[1] + self.row_sum(Side::North),
        ]
    }

    /// The seeds on each row, counted from the cells.
    #[inline]
    pub(crate) fn counted_rows(&self) -> [u16; 2] {
        let h = self.rules.houses();
        [
            self.cells[..h].iter().sum(),
            self.cells[h..2 * h].iter().sum(),
        ]
    }

    /// Recounts the cached row counts from the cells.
    #[inline]
    pub(crate) fn recount_rows(&mut self) {
        self.rows = self.counted_rows();
    }
}

impl fmt::Display for Position {
    /// Draws the board: player 2's row on top (house H at the left), player 1's row
    /// below, stores (or captures) at the ends.
    ///
    /// ```
    /// use mancala_core::{Position, Rules};
    /// let text = Position::new(Rules::kalah(3, 2)).to_string();
    /// let expected = "
    ///         2   2   2
    ///    0                0
    ///         2   2   2
    /// player 1 to move
    /// ";
    /// assert_eq!(text, &expected[1..]);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A tuzdyk (always empty) shows as `x`, as in the notation.
        let row = |side: Side, reversed: bool| -> String {
            let tuzdyk = self.claimed(side.opponent()).map(Move::index);
            let cells = (self.houses(side).iter().enumerate()).map(|(i, n)| {
                if tuzdyk == Some(i) {
                    format!("{:>4}", "x")
                } else {
                    format!("{n:>4}")
                }
            });
            if reversed {
                cells.rev().collect()
            } else {
                cells.collect()
            }
        };
        let width = 4 * self.rules.houses();
        writeln!(f, "     {}", row(Side::North, true))?;
        writeln!(
            f,
            "{:>4} {:width$}{:>4}",
            self.stores[1], "", self.stores[0]
        )?;
        writeln!(f, "     {}", row(Side::South, false))?;
        match self.outcome() {
            Some(o) => writeln!(f, "game over: {} to {}", o.scores[0], o.scores[1]),
            None => writeln!(f, "{} to move", self.to_move),
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("rules", &self.rules)
            .field("south", &self.houses(Side::South))
            .field("north", &self.houses(Side::North))
            .field("stores", &self.stores)
            .field("tuzdyks", &self.tuzdyks)
            .field("to_move", &self.to_move)
            .field("over", &self.over)
            .finish()
    }
}
