//! Writing records: the strict format, the two-digit Oware notation and bare moves.

use std::fmt;
use std::str::FromStr;

use mancala_core::{Game, Move, Pit, Position, Rules, Side, SowStep};

use super::error::{ExportError, Numbering};
use super::result::{Ending, RecordResult};
use super::{Record, tags};

/// The most characters on a line of moves (a longer word gets a line of its own).
const LINE_WIDTH: usize = 79;

/// The formats a record can be written in.
///
/// - `strict`: the tags, a blank line, the numbered moves with their marks (`+` the
///   same player moves next, `x` a capture), comments and the result. The same game
///   always gives the same bytes.
/// - `oware2`: the same, with the moves in the two-digit notation of Wikimanqala:
///   the house sown and the house where the last seed lands, and after a capture the
///   mover's captured seeds so far, as `53 (20)`. For games that sow into no store
///   (Oware, Togyz Kumalak, whose notation it comes from) on at most 9 houses.
/// - `moves`: one line a game: the house numbers and the result (`*` unless the
///   rules ended the game). No tags: the rules, the start position and the players
///   are left out.
///
/// ```
/// use mancala_session::RecordFormat;
/// assert_eq!("oware2".parse::<RecordFormat>().unwrap(), RecordFormat::Oware2);
/// assert_eq!(RecordFormat::Moves.to_string(), "moves");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// The full record, moves as house numbers with marks.
    #[default]
    Strict,
    /// The full record, moves in the two-digit Oware notation.
    Oware2,
    /// House numbers only.
    Moves,
}

impl RecordFormat {
    /// Every format.
    pub const ALL: [RecordFormat; 3] = [
        RecordFormat::Strict,
        RecordFormat::Oware2,
        RecordFormat::Moves,
    ];

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RecordFormat::Strict => "strict",
            RecordFormat::Oware2 => "oware2",
            RecordFormat::Moves => "moves",
        }
    }
}

impl fmt::Display for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a string names no format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown record format {0:?} (expected strict, oware2 or moves)")]
pub struct ParseFormatError(pub String);

impl FromStr for RecordFormat {
    type Err = ParseFormatError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RecordFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| ParseFormatError(s.to_owned()))
    }
}

/// Writes every record, games one after the other (a blank line between full
/// records).
///
/// # Errors
/// [`ExportError::NotOware2`] when `oware2` is asked for a game it cannot write.
///
/// ```
/// use mancala_core::{Game, Move, Rules};
/// use mancala_session::{Record, RecordFormat, write_records};
/// let mut game = Game::new(Rules::kalah(6, 4));
/// game.play(Move::new(3).unwrap()).unwrap();
/// let records = [Record::new(game.clone()), Record::new(game)];
/// assert_eq!(write_records(&records, RecordFormat::Moves).unwrap(), "3 *\n3 *\n");
/// ```
pub fn write_records(records: &[Record], format: RecordFormat) -> Result<String, ExportError> {
    let texts = records
        .iter()
        .map(|r| r.write(format))
        .collect::<Result<Vec<_>, _>>()?;
    let separator = if format == RecordFormat::Moves {
        ""
    } else {
        "\n"
    };
    Ok(texts.join(separator))
}

impl Record {
    /// The record in `format`, ending with a newline.
    ///
    /// # Errors
    /// [`ExportError::NotOware2`] for `oware2` and a game that sows into stores
    /// (Kalah) or a board of more than 9 houses.
    ///
    /// ```
    /// use mancala_core::{Game, Move, Rules};
    /// use mancala_session::{Record, RecordFormat};
    /// let mut game = Game::new(Rules::oware(6, 4));
    /// for h in [6, 6, 2, 3] {
    ///     game.play(Move::new(h).unwrap()).unwrap();
    /// }
    /// let text = Record::new(game).write(RecordFormat::Oware2).unwrap();
    /// assert!(text.ends_with("\n\n1. 64 64 2. 21 32 *\n"));
    /// ```
    pub fn write(&self, format: RecordFormat) -> Result<String, ExportError> {
        match format {
            RecordFormat::Strict => Ok(strict(self)),
            RecordFormat::Oware2 => {
                let rules = self.rules();
                if !two_digit_notation(rules) {
                    return Err(ExportError::NotOware2(rules.to_string()));
                }
                Ok(full(self, Style::Oware2))
            }
            RecordFormat::Moves => {
                let mut words: Vec<String> = self.moves().iter().map(ToString::to_string).collect();
                let result = match self.ending() {
                    Ending::Rules(_) => self.result(),
                    _ => RecordResult::Unknown,
                };
                words.push(result.token().to_owned());
                Ok(words.join(" ") + "\n")
            }
        }
    }
}

/// How moves are written in a full record.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Strict,
    Oware2,
}

/// The strict format.
pub(crate) fn strict(record: &Record) -> String {
    full(record, Style::Strict)
}

/// Tags, a blank line, and the moves wrapped at [`LINE_WIDTH`].
fn full(record: &Record, style: Style) -> String {
    let mut out = String::new();
    tags::write_header(record, &mut out);
    out.push('\n');
    let mut line = String::new();
    for word in movetext(record, style) {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The words of the movetext, which lines break between: moves (with their number,
/// if any), captured-seed counts, the words of comments, and the result.
fn movetext(record: &Record, style: Style) -> Vec<String> {
    let mut words = Vec::new();
    let comment = |ply: usize, words: &mut Vec<String>| match record.comment(ply) {
        Some(text) => {
            let text = format!("{{{text}}}");
            words.extend(text.split(' ').map(str::to_owned));
            true
        }
        None => false,
    };
    let mut after_comment = comment(0, &mut words);
    let mut game = Game::from_position(*record.start());
    let mut numbering = Numbering::default();
    for (i, &mv) in record.moves().iter().enumerate() {
        let before = *game.position();
        let side = before.to_move();
        let previous = numbering.last();
        let number = numbering.next(side);
        let new_round = side == Side::South && previous != Some(Side::South);
        // A number stays on the line of its move.
        let mut word = if previous.is_none() || after_comment || new_round {
            format!("{number} {mv}")
        } else {
            mv.to_string()
        };
        let (_, report) = before
            .play_with_report(mv)
            .expect("a record holds legal moves");
        game.play(mv).expect("a record holds legal moves");
        let again = !game.is_over() && game.position().to_move() == side;
        if style == Style::Oware2 {
            word.push(char::from(b'0' + last_house(&before, mv)));
        } else if report.captured > 0 {
            word.push('x');
        }
        if again {
            word.push('+');
        }
        words.push(word);
        if style == Style::Oware2 && report.captured > 0 {
            words.push(format!("({})", game.position().store(side)));
        }
        after_comment = comment(i + 1, &mut words);
    }
    words.push(record.result().token().to_owned());
    words
}

/// The house (in its owner's numbering) where the last seed of a legal move lands,
/// in a game that sows into no store ([`two_digit_notation`]): always a house. A seed
/// sown into a claimed house is reported as dropped into its owner's store; it landed
/// in the claimed house, a house of the other row.
pub(crate) fn last_house(pos: &Position, mv: Move) -> u8 {
    let steps = pos.sowing(mv).expect("a record holds legal moves");
    let last = steps
        .iter()
        .rev()
        .find_map(|s| match s {
            SowStep::Drop(pit) => Some(*pit),
            _ => None,
        })
        .expect("a sowing drops a seed");
    match last {
        Pit::House { house, .. } => house,
        Pit::Store(owner) => pos
            .claimed(owner)
            .expect("a game without stores drops into a store only through a claimed house")
            .house(),
    }
}

/// Whether games of `rules` can be written in the two-digit notation: every move ends
/// in a house (no stores on the sowing path), and a house is one digit.
pub(crate) fn two_digit_notation(rules: Rules) -> bool {
    !rules.variant().info().stores && rules.houses() <= 9
}
