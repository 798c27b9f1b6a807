//! Game records: a game with its players, tags, comments and result, written in a
//! PGN-like text format and read back, several games to a file.
//!
//! ```text
//! [Variant "kalah"]
//! [Houses "6"]
//! [Seeds "4"]
//! [EmptyCapture "no"]
//! [EndRule "mover-cannot-move"]
//! [Player1 "Ann"]
//! [Player1Kind "human"]
//! [Player2 "Robo"]
//! [Player2Kind "greedy"]
//! [Result "*"]
//! [Termination "unterminated"]
//!
//! 1. 3+ 6 6 2. 1x {a capture} *
//! ```
//!
//! [`Record`]'s `Display` writes the strict format (the same game always gives the
//! same bytes); [`parse_records`] reads it and laxer forms as well: a bare list of
//! house numbers, the two-digit Oware notation of Wikimanqala (`1. 64 64 2. 21 32`),
//! with or without tags. Every move is checked against the rules and the result
//! against the moves. `docs/records.md` describes the format in full.
//!
//! ```
//! use mancala_core::{Move, Rules, Side};
//! use mancala_session::{Record, Seat, Session};
//!
//! let mut s = Session::new(Rules::kalah(6, 4))
//!     .with_seat(Side::North, Seat::computer("greedy").unwrap())
//!     .with_names(["Ann", "Robo"]);
//! for h in [3, 6, 6, 1] {
//!     s.play(Move::new(h).unwrap()).unwrap();
//! }
//! let record = Record::from_session(&s).with_comment(4, "a capture").unwrap();
//! let text = record.to_string();
//! assert!(text.ends_with("\n\n1. 3+ 6 6 2. 1x {a capture} *\n"));
//! let back: Record = text.parse().unwrap();
//! assert_eq!(back, record);
//! assert_eq!(back.to_session().game(), s.game());
//! ```

mod error;
mod import;
mod lexer;
mod result;
mod tags;
mod write;

use std::collections::BTreeMap;
use std::str::FromStr;

use mancala_core::{Game, Move, Position, Rules, Side};

pub use error::{
    EndingProblem, ExportError, MoveProblem, RecordEditError, RecordError, RecordErrorKind,
    SyntaxError, TagProblem,
};
pub use import::parse_records;
pub use result::{
    AGREEMENT, Ending, ParseResultError, RESIGNATION, RecordResult, TIME_FORFEIT, UNTERMINATED,
};
pub use write::{ParseFormatError, RecordFormat, write_records};

use crate::{Seat, Session, Stop, default_name};
use lexer::normalize_space;

/// A recorded game: the game itself (start position and moves), the players, the
/// date and time control, other tags, comments, and how the game ended.
///
/// A `Record` always holds a legal game: it is made from a [`Game`] or a
/// [`Session`], or read by [`parse_records`], which checks every move.
///
/// ```
/// use mancala_core::{Game, Move, Rules, Side};
/// use mancala_session::{Ending, Record, RecordResult};
/// let mut game = Game::new(Rules::oware(6, 4));
/// game.play(Move::new(6).unwrap()).unwrap();
/// let record = Record::new(game)
///     .with_names(["Ann", "Bob"])
///     .with_ending(Ending::Resigned(Side::North))
///     .unwrap();
/// assert_eq!(record.result(), RecordResult::Win(Side::South));
/// assert!(record.to_string().contains("[Termination \"resignation\"]"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    game: Game,
    names: [String; 2],
    seats: [Seat; 2],
    date: Option<String>,
    time_control: Option<String>,
    /// Other tags, in the order given.
    tags: Vec<(String, String)>,
    /// Comments by the number of moves before them (0: before the first move).
    comments: BTreeMap<usize, String>,
    ending: Ending,
}

/// The ending a game has by the rules alone: its end, or unfinished.
fn rules_ending(game: &Game) -> Ending {
    game.end().map_or(Ending::Unfinished, Ending::Rules)
}

/// A tag value on one line: control characters become spaces.
fn one_line(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl Record {
    /// A record of `game`, people named "Player 1" and "Player 2" in both seats, ending
    /// as the rules end it (or unfinished).
    #[must_use]
    pub fn new(game: Game) -> Record {
        let ending = rules_ending(&game);
        Record {
            game,
            names: [
                default_name(Side::South, &Seat::Human),
                default_name(Side::North, &Seat::Human),
            ],
            seats: [Seat::Human, Seat::Human],
            date: None,
            time_control: None,
            tags: Vec::new(),
            comments: BTreeMap::new(),
            ending,
        }
    }

    /// A record of a session's game, with its names and seats, and the way its
    /// players stopped it if they did (a resignation, a loss on time, a draw agreed).
    ///
    /// ```
    /// use mancala_core::{Rules, Side};
    /// use mancala_session::{Ending, Record, Session, Stop};
    /// let mut s = Session::new(Rules::kalah(6, 4)).with_names(["Ann", "Bob"]);
    /// assert_eq!(Record::from_session(&s).names(), &["Ann", "Bob"]);
    /// s.stop(Stop::Resigned(Side::North)).unwrap();
    /// assert_eq!(Record::from_session(&s).ending(), Ending::Resigned(Side::North));
    /// ```
    #[must_use]
    pub fn from_session(session: &Session) -> Record {
        let record = Record::new(session.game().clone())
            .with_names(session.names().clone())
            .with_seats(session.seats().clone());
        let ending = match session.stopped() {
            None | Some(Stop::Aborted) => return record,
            Some(Stop::Resigned(side)) => Ending::Resigned(side),
            // A win claimed against a player who left a game without a clock is a
            // loss on time by the server's waiting limit: records have no other word.
            Some(Stop::OutOfTime(side) | Stop::Abandoned(side)) => Ending::TimeForfeit(side),
            Some(Stop::DrawAgreed) => Ending::DrawAgreed,
        };
        // A session stops only a game the rules have not ended, which is what an
        // ending other than the rules' needs.
        record.clone().with_ending(ending).unwrap_or(record)
    }

    /// A session at the end of the recorded game, with its names and seats; undo
    /// steps back through the recorded moves.
    #[must_use]
    pub fn to_session(&self) -> Session {
        let mut session = Session::from_position(*self.game.start())
            .with_seats(self.seats.clone())
            .with_names(self.names.clone());
        for &mv in self.game.moves() {
            session.play(mv).expect("a record holds legal moves only");
        }
        session
    }

    /// The same record with these names, player 1 first (on one line each).
    #[must_use]
    pub fn with_names(mut self, names: [impl AsRef<str>; 2]) -> Record {
        self.names = names.map(|n| one_line(n.as_ref()));
        self
    }

    /// The same record with these seats, player 1 first.
    #[must_use]
    pub fn with_seats(mut self, seats: [Seat; 2]) -> Record {
        self.seats = seats;
        self
    }

    /// The same record with a date, conventionally `YYYY.MM.DD`.
    #[must_use]
    pub fn with_date(mut self, date: impl AsRef<str>) -> Record {
        self.date = Some(one_line(date.as_ref()));
        self
    }

    /// The same record with a time control, such as `300+5`.
    #[must_use]
    pub fn with_time_control(mut self, time_control: impl AsRef<str>) -> Record {
        self.time_control = Some(one_line(time_control.as_ref()));
        self
    }

    /// The same record with one more tag (or a new value for a tag it has).
    ///
    /// # Errors
    /// [`RecordEditError::BadTagName`] for a name that is not letters, digits and `_`;
    /// [`RecordEditError::ReservedTag`] for a tag the record writes from its own
    /// fields (`Variant`, `Player1`, `Result`, ...): use their methods.
    ///
    /// ```
    /// use mancala_core::{Game, Rules};
    /// use mancala_session::Record;
    /// let r = Record::new(Game::new(Rules::kalah(6, 4))).with_tag("Event", "Club night").unwrap();
    /// assert_eq!(r.tags(), &[("Event".to_owned(), "Club night".to_owned())]);
    /// assert!(Record::new(Game::new(Rules::kalah(6, 4))).with_tag("Result", "1-0").is_err());
    /// ```
    pub fn with_tag(
        mut self,
        name: impl AsRef<str>,
        value: impl AsRef<str>,
    ) -> Result<Record, RecordEditError> {
        let name = name.as_ref();
        tags::check_extra_name(name)?;
        let value = one_line(value.as_ref());
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_owned(), value)),
        }
        Ok(self)
    }

    /// The same record with a comment after `ply` moves (0: before the first move),
    /// whitespace runs made single spaces; an empty comment removes the one there.
    ///
    /// # Errors
    /// [`RecordEditError::CommentBrace`] for a comment with `}`;
    /// [`RecordEditError::NoSuchPly`] for a place beyond the game.
    pub fn with_comment(mut self, ply: usize, text: &str) -> Result<Record, RecordEditError> {
        if text.contains('}') {
            return Err(RecordEditError::CommentBrace);
        }
        let plies = self.game.ply();
        if ply > plies {
            return Err(RecordEditError::NoSuchPly { ply, plies });
        }
        let text = normalize_space(text);
        if text.is_empty() {
            self.comments.remove(&ply);
        } else {
            self.comments.insert(ply, text);
        }
        Ok(self)
    }

    /// The same record ending as `ending` says.
    ///
    /// # Errors
    /// An [`EndingProblem`] when the ending does not fit the moves: a game the rules
    /// have ended can only end that way, and one they have not cannot end by them.
    ///
    /// ```
    /// use mancala_core::{Game, Rules, Side};
    /// use mancala_session::{Ending, Record};
    /// let r = Record::new(Game::new(Rules::kalah(6, 4)));
    /// assert!(r.clone().with_ending(Ending::DrawAgreed).is_ok());
    /// let over = Record::new(Game::new(Rules::oware_simplified(1, 1)));
    /// assert!(over.with_ending(Ending::Resigned(Side::South)).is_err());
    /// ```
    pub fn with_ending(mut self, ending: Ending) -> Result<Record, RecordEditError> {
        self.ending = import::check_ending(&self.game, ending)?;
        Ok(self)
    }

    /// The game: start position and moves.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Position {
        self.game.start()
    }

    /// The moves.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The players' names, player 1 first.
    #[must_use]
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// Who played each seat, player 1 first.
    #[must_use]
    pub fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }

    /// The date, if recorded.
    #[must_use]
    pub fn date(&self) -> Option<&str> {
        self.date.as_deref()
    }

    /// The time control, if recorded.
    #[must_use]
    pub fn time_control(&self) -> Option<&str> {
        self.time_control.as_deref()
    }

    /// The other tags, in order.
    #[must_use]
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The comment after `ply` moves, if any.
    #[must_use]
    pub fn comment(&self, ply: usize) -> Option<&str> {
        self.comments.get(&ply).map(String::as_str)
    }

    /// How the game ended.
    #[must_use]
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// The result.
    #[must_use]
    pub fn result(&self) -> RecordResult {
        self.ending.result()
    }

    /// The ending in words, with the players' names.
    ///
    /// ```
    /// use mancala_core::{Game, Rules};
    /// use mancala_session::Record;
    /// let r = Record::new(Game::new(Rules::oware_simplified(1, 1))).with_names(["Ann", "Bob"]);
    /// assert_eq!(
    ///     r.describe_ending(),
    ///     "A draw, 0 to 0: two seeds or fewer are left; the 2 seeds left on the board count for nobody."
    /// );
    /// ```
    #[must_use]
    pub fn describe_ending(&self) -> String {
        let names = [self.names[0].as_str(), self.names[1].as_str()];
        self.ending.describe(names)
    }
}

impl std::fmt::Display for Record {
    /// Writes the strict format: the tags, a blank line, the moves and the result.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write::strict(self))
    }
}

impl FromStr for Record {
    type Err = RecordError;

    /// Reads exactly one game; a record without rules tags is Kalah(6,4).
    fn from_str(text: &str) -> Result<Record, RecordError> {
        let mut games = parse_records(text, Rules::kalah(6, 4))?;
        if games.len() != 1 {
            // The game missing, or the first one too many.
            return Err(RecordError {
                game: if games.is_empty() { 1 } else { 2 },
                line: 1,
                kind: RecordErrorKind::GameCount(games.len()),
            });
        }
        Ok(games.pop().expect("one game"))
    }
}
