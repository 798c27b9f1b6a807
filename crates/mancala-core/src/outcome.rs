//! How a finished game ended.

use crate::Side;

/// The result of a finished game: final scores and the winner.
///
/// ```
/// use mancala_core::{Outcome, Side};
/// let o = Outcome::from_scores([38, 10]);
/// assert_eq!(o.winner, Some(Side::South));
/// assert_eq!(o.margin(), 28);
/// assert_eq!(Outcome::from_scores([24, 24]).winner, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Final scores, player 1 first.
    pub scores: [u16; 2],
}

impl Outcome {
    /// The outcome with these final scores (player 1 first): the higher score wins.
    #[must_use]
    pub fn from_scores(scores: [u16; 2]) -> Outcome {
        let winner = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        Outcome { winner, scores }
    }

    /// Player 1's score minus player 2's.
    #[must_use]
    pub fn margin(&self) -> i32 {
        i32::from(self.scores[0]) - i32::from(self.scores[1])
    }

    /// `side`'s score minus its opponent's.
    #[must_use]
    pub fn margin_for(&self, side: Side) -> i32 {
        match side {
            Side::South => self.margin(),
            Side::North => -self.margin(),
        }
    }
}
