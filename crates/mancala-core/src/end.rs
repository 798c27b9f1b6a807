//! Why a game ended and where the seeds left on the board went.

use crate::{Outcome, Position, Side};

/// Why a game ended.
///
/// ```
/// use mancala_core::{EndReason, Position, Rules, Side};
/// // Kalah: player 2 is to move with nothing in their houses.
/// let rules = Rules::kalah(2, 2);
/// let p = Position::from_parts(rules, [&[1, 0], &[0, 0]], [3, 4], Side::North).unwrap();
/// assert_eq!(p.end().unwrap().reason, EndReason::NoSeeds(Side::North));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "kebab-case", tag = "kind", content = "player")
)]
pub enum EndReason {
    /// The player to move has no seeds in their houses (Kalah's default end rule; in
    /// Oware only from a position set up that way).
    NoSeeds(Side),
    /// Kalah with the `either-side-empty` end rule: this player's houses are empty.
    SideEmpty(Side),
    /// Oware: this player has captured more than half of the seeds.
    Majority(Side),
    /// Oware: each player has captured exactly half of the seeds.
    HalfEach,
    /// Oware: this player, to move, has no move that gives the opponent (whose row is
    /// empty) any seeds.
    CannotFeed(Side),
    /// Oware and simplified Oware: a position (board and player to move) came round
    /// again since the last capture.
    Repetition,
    /// Simplified Oware: two seeds or fewer are left on the board.
    FewSeedsLeft,
}

impl EndReason {
    /// A short stable name for files and APIs: `no-seeds`, `side-empty`, `majority`,
    /// `half-each`, `cannot-feed`, `repetition` or `few-seeds-left`.
    ///
    /// ```
    /// use mancala_core::{EndReason, Side};
    /// assert_eq!(EndReason::CannotFeed(Side::North).name(), "cannot-feed");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::NoSeeds(_) => "no-seeds",
            EndReason::SideEmpty(_) => "side-empty",
            EndReason::Majority(_) => "majority",
            EndReason::HalfEach => "half-each",
            EndReason::CannotFeed(_) => "cannot-feed",
            EndReason::Repetition => "repetition",
            EndReason::FewSeedsLeft => "few-seeds-left",
        }
    }
}

/// The end of a game as a value: why it ended, where the seeds left on the board went,
/// and the result.
///
/// Always `outcome.scores[i] == stores[i] + sweep[i]` for each player `i`, and the
/// sweep plus the unclaimed seeds are the seeds that were left on the board.
///
/// ```
/// use mancala_core::{EndReason, Position, Rules, Side};
/// // Oware on three houses: player 1 has captured exactly half (6 of 12) and has
/// // nothing left; player 2, to move, cannot reach player 1's row from house 1, so
/// // the game ends and each player takes the seeds on their own row: a 6-6 draw.
/// let rules = Rules::oware(3, 2);
/// let p = Position::from_parts(rules, [&[0, 0, 0], &[1, 0, 0]], [6, 5], Side::North).unwrap();
/// let end = p.end().unwrap();
/// assert_eq!(end.reason, EndReason::CannotFeed(Side::North));
/// assert_eq!(end.sweep, [0, 1]);
/// assert_eq!(end.outcome.scores, [6, 6]);
/// assert_eq!(end.outcome.winner, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// Why the game ended.
    pub reason: EndReason,
    /// Seeds each player took from their own houses at the end, player 1 first (Kalah:
    /// all that were left; Oware: all of them when no move was possible or by
    /// repetition).
    pub sweep: [u16; 2],
    /// Seeds left on the board that count for nobody (Oware after a win by captures;
    /// simplified Oware).
    pub unclaimed: u16,
    /// The final scores and the winner.
    pub outcome: Outcome,
}

impl GameEnd {
    /// The end of a game that stopped at `pos` for `reason` with these final scores.
    pub(crate) fn new(pos: &Position, reason: EndReason, scores: [u16; 2]) -> GameEnd {
        let stores = pos.stores();
        let sweep = [scores[0] - stores[0], scores[1] - stores[1]];
        GameEnd {
            reason,
            sweep,
            unclaimed: pos.seeds_in_play() - sweep[0] - sweep[1],
            outcome: Outcome::from_scores(scores),
        }
    }

    /// The player the reason names, if any (who had no seeds, could not feed, ...).
    #[must_use]
    pub fn player(&self) -> Option<Side> {
        match self.reason {
            EndReason::NoSeeds(s)
            | EndReason::SideEmpty(s)
            | EndReason::Majority(s)
            | EndReason::CannotFeed(s) => Some(s),
            EndReason::HalfEach | EndReason::Repetition | EndReason::FewSeedsLeft => None,
        }
    }
}
