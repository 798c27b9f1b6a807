//! What can be wrong with a record: in its text, its tags, its moves or its result.

use std::fmt;

use mancala_core::{IllegalMove, NotationError, Side};
use mancala_engine::PlayerError;

use super::result::{ParseResultError, RecordResult};
use crate::HouseError;

/// Why a record file could not be read: the game (counting from 1), the line, and
/// what is wrong. Nothing of a file is loaded when any of its games is wrong.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_session::{RecordErrorKind, parse_records};
/// let e = parse_records("3 6 1 3", Rules::kalah(6, 4)).unwrap_err();
/// assert_eq!((e.game, e.line), (1, 1));
/// assert!(matches!(e.kind, RecordErrorKind::Move { ply: 4, .. }));
/// assert_eq!(e.to_string(), "game 1, line 1: move 2 (player 1, ply 4), \"3\": house 3 is empty");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}: {kind}")]
pub struct RecordError {
    /// The game, counting from 1.
    pub game: usize,
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong in a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordErrorKind {
    /// The text is not a record.
    #[error("column {column}: {error}")]
    Syntax {
        /// The 1-based character column.
        column: usize,
        /// What is wrong.
        error: SyntaxError,
    },
    /// A tag's value cannot be used.
    #[error("tag {name}: {problem}")]
    Tag {
        /// The tag's name.
        name: String,
        /// What is wrong with it.
        problem: TagProblem,
    },
    /// A move is not a move, or not legal where it is played.
    #[error("move {number} ({side}, ply {ply}), {text:?}: {problem}")]
    Move {
        /// The move number as the strict notation writes it.
        number: u32,
        /// Whose move it is.
        side: Side,
        /// The ply, counting from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// What is wrong.
        problem: MoveProblem,
    },
    /// The result or the reason given does not fit the moves.
    #[error(transparent)]
    Ending(#[from] EndingProblem),
    /// One game was expected.
    #[error("expected one game, found {0}")]
    GameCount(usize),
}

/// A problem in the text itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// A character that starts no token here.
    #[error("unexpected {0:?}")]
    Unexpected(char),
    /// A `{` with no `}`.
    #[error("a comment opened here is never closed")]
    UnclosedComment,
    /// Digits and dashes that are no result.
    #[error("not a result: {0:?} (expected 1-0, 0-1, 1/2-1/2 or *)")]
    BadResult(String),
    /// A `(` that is not `(digits)`.
    #[error("expected a count of captured seeds such as (20)")]
    BadCaptures,
    /// A `[` that is not `[Name "value"]` on one line.
    #[error("expected a tag such as [Variant \"kalah\"] on one line")]
    BadTag,
    /// A captured-seed count with no move before it.
    #[error("a count of captured seeds such as (20) must follow a move")]
    CapturesWithoutMove,
}

/// What is wrong with a tag's value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TagProblem {
    /// The tag is given twice in one game.
    #[error("appears twice")]
    Duplicate,
    /// Not a number where one is needed.
    #[error("expected a number, found {0:?}")]
    NotANumber(String),
    /// Not `yes` or `no`.
    #[error("expected yes or no, found {0:?}")]
    NotYesNo(String),
    /// The rules cannot be made from the tags.
    #[error(transparent)]
    Rules(#[from] crate::SetupError),
    /// The `Position` tag is not a position.
    #[error(transparent)]
    Position(#[from] NotationError),
    /// The `Variant` tag names another game than the `Rules` tag describes.
    #[error("the Rules tag describes {0}")]
    DisagreesWithRules(String),
    /// A rules tag says something else than the `Position` tag.
    #[error("the Position tag says {0}")]
    DisagreesWithPosition(String),
    /// A player kind that is neither `human` nor a computer player spec.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// Not a result.
    #[error(transparent)]
    Result(#[from] ParseResultError),
    /// A termination this format does not know.
    #[error(
        "unknown termination {0:?} (expected a rules reason such as no-seeds, or \
         resignation, time-forfeit, agreement, unterminated)"
    )]
    UnknownTermination(String),
    /// Not two scores.
    #[error("expected the final scores such as 25-23, found {0:?}")]
    BadScore(String),
}

/// What is wrong with one move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    /// Not one of the mover's houses.
    #[error(transparent)]
    House(#[from] HouseError),
    /// Not legal in the position.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// A two-digit Oware move whose last seed lands elsewhere.
    #[error("the last seed lands in house {actual}, not house {written}")]
    WrongEnd {
        /// The end house written.
        written: u8,
        /// Where the last seed lands.
        actual: u8,
    },
    /// A captured-seed count that is not the mover's after the move.
    #[error("the mover has {actual} seeds captured after the move, not {written}")]
    WrongCaptures {
        /// The count written.
        written: String,
        /// The mover's store or captures after the move.
        actual: u16,
    },
    /// A mark that says what the move does not do.
    #[error("marked {mark:?}, but {why}")]
    WrongMark {
        /// The mark.
        mark: char,
        /// What the move does instead.
        why: &'static str,
    },
    /// A mark written twice.
    #[error("mark {0:?} written twice")]
    RepeatedMark(char),
}

/// How the stated result or reason contradicts the moves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndingProblem {
    /// The `Result` tag and the result after the moves differ.
    #[error("the Result tag says {tag}, the moves are followed by {token}")]
    TagAndToken {
        /// The tag's result.
        tag: RecordResult,
        /// The result token.
        token: RecordResult,
    },
    /// The moves end the game with another result.
    #[error("the moves end the game {actual} ({how}), the record says {written}")]
    ResultDisagrees {
        /// The result written.
        written: RecordResult,
        /// The result of the moves.
        actual: RecordResult,
        /// The end in words.
        how: String,
    },
    /// The moves end the game for another reason.
    #[error("the moves end the game by {actual}, the record says {written}")]
    TerminationDisagrees {
        /// The reason written.
        written: String,
        /// The reason of the moves.
        actual: &'static str,
    },
    /// The final scores differ.
    #[error("the final score is {actual}, the record says {written}")]
    ScoreDisagrees {
        /// The scores written.
        written: String,
        /// The final scores, as `a-b`.
        actual: String,
    },
    /// A result for a game the moves do not end, with no reason.
    #[error(
        "the moves do not end the game, so result {0} needs a Termination tag \
         (resignation, time-forfeit or agreement)"
    )]
    NeedsTermination(RecordResult),
    /// A result that the reason cannot give.
    #[error("a game ended by {termination} cannot have the result {result}")]
    ResultDoesNotFit {
        /// The reason.
        termination: &'static str,
        /// The result.
        result: RecordResult,
    },
    /// A reason of the rules for a game the moves do not end.
    #[error("the moves do not end the game, so it did not end by {0}")]
    NotEndedByRules(String),
    /// A reason of the players for a game the rules have ended.
    #[error("the moves end the game by the rules ({actual}), not by {written}")]
    AlreadyOver {
        /// The reason written.
        written: &'static str,
        /// The rules' reason.
        actual: &'static str,
    },
    /// A `Score` tag for a game not ended by the rules.
    #[error("a Score tag is for games the rules ended")]
    ScoreWithoutEnd,
}

/// Why a record cannot be changed as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordEditError {
    /// A tag name with characters other than letters, digits and `_`.
    #[error("a tag name is letters, digits and _, not {0:?}")]
    BadTagName(String),
    /// A tag the record sets from its own fields.
    #[error("tag {0} is set from the game itself")]
    ReservedTag(String),
    /// A comment with a `}` in it.
    #[error("a comment cannot contain '}}'")]
    CommentBrace,
    /// A ply beyond the game.
    #[error("the game has {plies} plies; there is no place after ply {ply}")]
    NoSuchPly {
        /// The ply asked for.
        ply: usize,
        /// Plies in the game.
        plies: usize,
    },
    /// An ending that does not fit the moves.
    #[error(transparent)]
    Ending(#[from] EndingProblem),
}

/// Why a record cannot be written in a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The two-digit notation is for games that sow into no store (every move ends in
    /// a house), on boards of at most 9 houses (a digit a house).
    #[error(
        "the two-digit notation is for games that sow into no store, on boards of at most 9 \
         houses, not {0}"
    )]
    NotOware2(String),
}

/// A move's number as the strict notation writes it, and whose move it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveNumber {
    pub number: u32,
    pub side: Side,
}

/// Numbers moves the way the strict notation does: a number counts rounds, and a
/// round starts with each turn of player 1 that follows one of player 2 (a player's
/// moves in a row, after an extra turn or a skipped opponent, share the round).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Numbering {
    number: u32,
    last: Option<Side>,
}

impl Numbering {
    /// The number of the next move, played by `side`.
    pub(crate) fn next(&mut self, side: Side) -> MoveNumber {
        match (self.last, side) {
            (None, _) | (Some(Side::North), Side::South) => self.number += 1,
            _ => {}
        }
        self.last = Some(side);
        MoveNumber {
            number: self.number,
            side,
        }
    }

    /// The side of the last move numbered.
    pub(crate) fn last(&self) -> Option<Side> {
        self.last
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            Side::South => write!(f, "{}.", self.number),
            Side::North => write!(f, "{}...", self.number),
        }
    }
}
