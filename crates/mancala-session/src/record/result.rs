//! How a recorded game ended: the result token and the reason.

use std::fmt;
use std::str::FromStr;

use mancala_core::{GameEnd, Side};

use crate::EndText;

/// A result as records write it: `1-0` (player 1 won), `0-1` (player 2 won), `1/2-1/2`
/// (a draw) or `*` (not finished, or not known).
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::RecordResult;
/// assert_eq!("0-1".parse::<RecordResult>().unwrap(), RecordResult::Win(Side::North));
/// assert_eq!(RecordResult::Draw.to_string(), "1/2-1/2");
/// assert!("2-0".parse::<RecordResult>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// This player won.
    Win(Side),
    /// A draw.
    Draw,
    /// The game has not ended, or its result is not known.
    Unknown,
}

impl RecordResult {
    /// The result of a game with this winner (`None`: a draw).
    #[must_use]
    pub fn of_winner(winner: Option<Side>) -> RecordResult {
        winner.map_or(RecordResult::Draw, RecordResult::Win)
    }

    /// The token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            RecordResult::Win(Side::South) => "1-0",
            RecordResult::Win(Side::North) => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unknown => "*",
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Why a string is not a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a result: {0:?} (expected 1-0, 0-1, 1/2-1/2 or *)")]
pub struct ParseResultError(pub String);

impl FromStr for RecordResult {
    type Err = ParseResultError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [
            RecordResult::Win(Side::South),
            RecordResult::Win(Side::North),
            RecordResult::Draw,
            RecordResult::Unknown,
        ]
        .into_iter()
        .find(|r| r.token() == s)
        .ok_or_else(|| ParseResultError(s.to_owned()))
    }
}

/// How a recorded game ended: by the rules, or by the players.
///
/// Each ending has a `Termination` tag value: the rules' reason
/// ([`EndReason::name`](mancala_core::EndReason::name)), or `resignation`,
/// `time-forfeit`, `agreement` or `unterminated`.
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::{Ending, RecordResult};
/// let e = Ending::Resigned(Side::North);
/// assert_eq!(e.result(), RecordResult::Win(Side::South));
/// assert_eq!(e.termination(), "resignation");
/// assert_eq!(e.describe(["Ann", "Bob"]), "Ann wins: Bob resigned");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The game goes on, or stopped without a result (`*`).
    Unfinished,
    /// The rules ended the game.
    Rules(GameEnd),
    /// This player resigned.
    Resigned(Side),
    /// This player ran out of time.
    TimeForfeit(Side),
    /// The players agreed a draw.
    DrawAgreed,
}

/// The `Termination` value of a resignation.
pub const RESIGNATION: &str = "resignation";
/// The `Termination` value of a loss on time.
pub const TIME_FORFEIT: &str = "time-forfeit";
/// The `Termination` value of a draw by agreement.
pub const AGREEMENT: &str = "agreement";
/// The `Termination` value of a game without a result.
pub const UNTERMINATED: &str = "unterminated";

impl Ending {
    /// The result this ending gives.
    #[must_use]
    pub fn result(&self) -> RecordResult {
        match self {
            Ending::Unfinished => RecordResult::Unknown,
            Ending::Rules(end) => RecordResult::of_winner(end.outcome.winner),
            Ending::Resigned(side) | Ending::TimeForfeit(side) => {
                RecordResult::Win(side.opponent())
            }
            Ending::DrawAgreed => RecordResult::Draw,
        }
    }

    /// The value of the `Termination` tag.
    #[must_use]
    pub fn termination(&self) -> &'static str {
        match self {
            Ending::Unfinished => UNTERMINATED,
            Ending::Rules(end) => end.reason.name(),
            Ending::Resigned(_) => RESIGNATION,
            Ending::TimeForfeit(_) => TIME_FORFEIT,
            Ending::DrawAgreed => AGREEMENT,
        }
    }

    /// The ending in words, with the players' names (player 1 first): the same
    /// sentence as [`EndText`] for an end by the rules.
    #[must_use]
    pub fn describe(&self, names: [&str; 2]) -> String {
        let name = |s: Side| names[s.index()];
        match self {
            Ending::Unfinished => "unfinished".to_owned(),
            Ending::Rules(end) => EndText::new(end, names).to_string(),
            Ending::Resigned(s) => format!("{} wins: {} resigned", name(s.opponent()), name(*s)),
            Ending::TimeForfeit(s) => {
                format!("{} wins: {} ran out of time", name(s.opponent()), name(*s))
            }
            Ending::DrawAgreed => "A draw by agreement".to_owned(),
        }
    }
}
