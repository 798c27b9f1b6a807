//! A game in progress: who sits in each seat, their names, a record of every move, and
//! undo/redo that understands playing against the computer.
//!
//! Front ends (the terminal game, the web server) keep one [`Session`] per game. The
//! session never runs a computer player itself: it says whose seat is to move
//! ([`Session::computer_to_move`]) and the front end asks the engine, on whatever thread
//! suits it, then calls [`Session::play`].
//!
//! ```
//! use mancala_core::{Move, Rules, Side};
//! use mancala_session::{Seat, Session};
//!
//! let mut s = Session::new(Rules::kalah(6, 4))
//!     .with_seat(Side::North, Seat::computer("greedy").unwrap())
//!     .with_names(["Ann", "Robo"]);
//! // Ann sows house 3: the last seed lands in her store, so she moves again.
//! let record = s.play(Move::new(3).unwrap()).unwrap();
//! assert!(record.report.ended_in_store);
//! assert_eq!(s.name(Side::South), "Ann");
//! assert!(s.computer_to_move().is_none());
//! ```
//!
//! A game is saved, shared and loaded as a [`Record`]: [`Record::from_session`], its
//! strict text by `Display`, [`parse_records`] for files of one or more games (strict,
//! bare house numbers, the two-digit Oware notation), and [`Record::to_session`].
//! `docs/records.md` describes the formats.

#![forbid(unsafe_code)]

mod end;
mod house;
mod record;
mod seat;
mod session;
mod setup;
mod words;

pub use end::{EndText, Stop};
pub use house::{
    HouseError, house_label, house_letter, house_number, house_of_letter, parse_house,
    parse_house_number,
};
pub use record::{
    AGREEMENT, Ending, EndingProblem, ExportError, MoveProblem, ParseFormatError, ParseResultError,
    RESIGNATION, Record, RecordEditError, RecordError, RecordErrorKind, RecordFormat, RecordResult,
    SyntaxError, TIME_FORFEIT, TagProblem, UNTERMINATED, parse_records, write_records,
};
pub use seat::{Seat, SeatError};
pub use session::{MoveRecord, ReplayError, Session};
pub use setup::{
    RuleChoice, SetupError, default_name, is_computer_name, is_reserved_name, name_or_default,
};
pub use words::claim_word;

/// The examples of `docs/records.md` (the position notation and game records), run as
/// doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/records.md")]
pub struct RecordsDoc;
