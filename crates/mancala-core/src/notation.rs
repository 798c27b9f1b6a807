//! Position notation: one line that names the rules, every house and store, and the
//! player to move, short enough to paste in a chat.
//!
//! ```text
//! kalah+empty-capture 6x4 4,4,0,5,5,5/1 4,4,4,4,4,4/0 1
//! ^ variant+options   ^   ^ player 1's houses 1..H     ^ player to move (1 or 2)
//!                     |     and store (or captures)
//!                     houses x seeds per house at the start
//! ```
//!
//! Five fields separated by spaces:
//!
//! 1. the variant (`kalah`, `oware`, `oware-simplified`), then Kalah's rule options
//!    each after a `+`: `empty-capture`, `either-side-empty` (and the default
//!    `mover-cannot-move`, accepted but never written);
//! 2. the board: houses per side `x` seeds per house at the start;
//! 3. player 1's houses, from their house 1 to house H in sowing order, separated by
//!    commas, then `/` and player 1's store (Kalah) or captured seeds (Oware);
//! 4. the same for player 2, from *their* house 1;
//! 5. the player to move: `1` or `2` (for a finished game, who would have moved).
//!
//! A line is accepted exactly when [`Position::from_parts`] accepts its parts: the
//! seeds must add up to the rules' total (houses × seeds × 2), and in simplified Oware
//! a player with an empty row cannot be the one to move. What the line cannot say is
//! the history: Oware's repetition rule counts from the position given.
//!
//! ```
//! use mancala_core::{Move, Position, Rules, Side};
//! let p = Position::new(Rules::kalah(6, 4)).play(Move::new(3).unwrap()).unwrap();
//! let line = p.to_notation();
//! assert_eq!(line, "kalah 6x4 4,4,0,5,5,5/1 4,4,4,4,4,4/0 1");
//! assert_eq!(Position::from_notation(&line).unwrap(), p);
//!
//! let err = Position::from_notation("kalah 6x4 4,4,4,4,x,4/0 4,4,4,4,4,4/0 1").unwrap_err();
//! assert_eq!(err.column, 19);
//! assert_eq!(
//!     err.to_string(),
//!     "column 19 (player 1's houses): expected a number of seeds, found \"x\""
//! );
//! ```

use std::fmt;

use crate::{
    EndRule, MAX_HOUSES, Move, Position, RuleOptions, Rules, RulesError, SetupError, Side, Variant,
};

/// The part of a notation line an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotationField {
    /// The variant and its rule options, e.g. `kalah+empty-capture`.
    Rules,
    /// The board size, e.g. `6x4`.
    Size,
    /// A player's houses.
    Houses(Side),
    /// A player's store (Kalah) or captured seeds (Oware).
    Store(Side),
    /// The board as a whole (the seeds do not add up).
    Board,
    /// The player to move.
    ToMove,
    /// Text after the last field.
    End,
}

impl fmt::Display for NotationField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationField::Rules => f.write_str("the rules"),
            NotationField::Size => f.write_str("the board size"),
            NotationField::Houses(side) => write!(f, "{side}'s houses"),
            NotationField::Store(side) => write!(f, "{side}'s store"),
            NotationField::Board => f.write_str("the board"),
            NotationField::ToMove => f.write_str("the player to move"),
            NotationField::End => f.write_str("the end of the line"),
        }
    }
}

/// What is wrong at the place a [`NotationError`] points to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationErrorKind {
    /// The line ends before this field.
    #[error("missing")]
    Missing,
    /// The rules field names no variant.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A rule option that does not exist.
    #[error(
        "unknown rule option {0:?} (expected empty-capture, mover-cannot-move or \
         either-side-empty)"
    )]
    UnknownOption(String),
    /// The same option (or two end rules) given twice.
    #[error("rule option {0:?} repeats or contradicts an earlier one")]
    RepeatedOption(String),
    /// A Kalah option given for another variant.
    #[error("{0} takes no rule options")]
    KalahOnlyOption(Variant),
    /// The size is not `HxS`.
    #[error("expected houses x seeds such as 6x4, found {0:?}")]
    BadSize(String),
    /// A row is not `houses/store`.
    #[error("expected the houses, a '/' and the store, such as 4,4,4/0, found {0:?}")]
    MissingStore(String),
    /// Something other than a number where seeds are counted.
    #[error("expected a number of seeds, found {0:?}")]
    NotANumber(String),
    /// A count larger than all the seeds of the game.
    #[error("{found} seeds are more than the {total} of the whole game")]
    TooManySeeds {
        /// The count as written.
        found: String,
        /// The seeds of the game.
        total: u16,
    },
    /// The player to move is not `1` or `2`.
    #[error("expected 1 or 2, found {0:?}")]
    BadSide(String),
    /// The fields read, but they are not a position: a row of the wrong length, seeds
    /// that do not add up to the rules' total, or (simplified Oware) a player to move
    /// who has no seeds. The same checks as [`Position::from_parts`], in its words.
    #[error(transparent)]
    Setup(SetupError),
    /// Text after the player to move.
    #[error("unexpected {0:?}")]
    Trailing(String),
}

/// Why a line is not a position: the field, the 1-based character column where the
/// problem starts, and what is wrong.
///
/// ```
/// use mancala_core::{NotationErrorKind, NotationField, Position};
/// let e = Position::from_notation("kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0").unwrap_err();
/// assert_eq!((e.field, e.column, e.kind), (NotationField::ToMove, 38, NotationErrorKind::Missing));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column} ({field}): {kind}")]
pub struct NotationError {
    /// The field the problem is in.
    pub field: NotationField,
    /// The 1-based character column where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub kind: NotationErrorKind,
}

impl NotationError {
    fn new(field: NotationField, column: usize, kind: impl Into<NotationErrorKind>) -> Self {
        NotationError {
            field,
            column,
            kind: kind.into(),
        }
    }
}

/// A piece of the line and the column of its first character.
#[derive(Clone, Copy, Debug)]
struct Span<'a> {
    text: &'a str,
    column: usize,
}

impl<'a> Span<'a> {
    /// The pieces of `self` between `sep`, each with its column.
    fn split(self, sep: char) -> impl Iterator<Item = Span<'a>> {
        let mut column = self.column;
        self.text.split(sep).map(move |text| {
            let piece = Span { text, column };
            column += text.chars().count() + 1;
            piece
        })
    }
}

/// The whitespace-separated fields of `line` with their columns, and the column just
/// past the end of the line.
fn fields(line: &str) -> (Vec<Span<'_>>, usize) {
    let mut out = Vec::new();
    let mut start = None;
    let mut column = 0;
    for (i, (byte, c)) in line.char_indices().enumerate() {
        column = i + 1;
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((byte, column)),
            (true, Some((from, col))) => {
                out.push(Span {
                    text: &line[from..byte],
                    column: col,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((from, col)) = start {
        out.push(Span {
            text: &line[from..],
            column: col,
        });
    }
    (out, column + 1)
}

/// The variant and options of the rules field.
fn parse_rules_field(span: Span<'_>) -> Result<(Variant, RuleOptions), NotationError> {
    let mut parts = span.split('+');
    let name = parts.next().expect("split yields at least one piece");
    let variant: Variant = name
        .text
        .parse()
        .map_err(|e: RulesError| NotationError::new(NotationField::Rules, name.column, e))?;
    let mut options = RuleOptions::default();
    let (mut capture_given, mut end_given) = (false, false);
    for opt in parts {
        let err = |kind| NotationError::new(NotationField::Rules, opt.column, kind);
        if variant.info().options.is_empty() {
            return Err(err(NotationErrorKind::KalahOnlyOption(variant)));
        }
        let given = if opt.text == "empty-capture" {
            options.empty_capture = true;
            &mut capture_given
        } else if let Ok(rule) = opt.text.parse::<EndRule>() {
            options.end_rule = rule;
            &mut end_given
        } else {
            return Err(err(NotationErrorKind::UnknownOption(opt.text.to_owned())));
        };
        if std::mem::replace(given, true) {
            return Err(err(NotationErrorKind::RepeatedOption(opt.text.to_owned())));
        }
    }
    Ok((variant, options))
}

/// The rules from the rules field and the size field.
fn parse_rules(rules: Span<'_>, size: Span<'_>) -> Result<Rules, NotationError> {
    let (variant, options) = parse_rules_field(rules)?;
    let bad_size = || {
        NotationError::new(
            NotationField::Size,
            size.column,
            NotationErrorKind::BadSize(size.text.to_owned()),
        )
    };
    let (h, s) = size.text.split_once('x').ok_or_else(bad_size)?;
    let number = |t: &str| -> Result<u8, NotationError> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad_size());
        }
        // All digits: anything past u8 is out of range all the same.
        Ok(t.parse::<u8>().unwrap_or(u8::MAX))
    };
    let (houses, seeds) = (number(h)?, number(s)?);
    let rules = Rules::new(variant, houses, seeds)
        .map_err(|e| NotationError::new(NotationField::Size, size.column, e))?;
    Ok(rules.with_options(options))
}

/// One player's houses and store from `houses,.../store`.
fn parse_row(span: Span<'_>, side: Side, rules: Rules) -> Result<Row, NotationError> {
    let Some((row, store)) = span.text.split_once('/') else {
        return Err(NotationError::new(
            NotationField::Houses(side),
            span.column,
            NotationErrorKind::MissingStore(span.text.to_owned()),
        ));
    };
    let row = Span {
        text: row,
        column: span.column,
    };
    let store = Span {
        text: store,
        column: span.column + row.text.chars().count() + 1,
    };
    let mut houses = [0; MAX_HOUSES];
    let mut tuzdyk = None;
    let mut found = 0;
    for cell in row.split(',') {
        if cell.text == "x" && rules.variant().info().claims && tuzdyk.is_none() {
            tuzdyk = Move::new(found as u8 + 1);
        } else {
            let n = seeds(cell, NotationField::Houses(side), rules)?;
            if let Some(slot) = houses.get_mut(found) {
                *slot = n;
            }
        }
        found += 1;
    }
    if found != rules.houses() {
        return Err(NotationError::new(
            NotationField::Houses(side),
            row.column,
            NotationErrorKind::Setup(SetupError::RowLength {
                side,
                found,
                expected: rules.houses(),
            }),
        ));
    }
    Ok(Row {
        houses,
        store: seeds(store, NotationField::Store(side), rules)?,
        tuzdyk,
    })
}

/// One player's side as written: houses, store, and the house marked `x` (the
/// opponent's tuzdyk), if any.
struct Row {
    houses: [u16; MAX_HOUSES],
    store: u16,
    tuzdyk: Option<Move>,
}

/// A count of seeds: digits, at most the seeds of the whole game.
fn seeds(span: Span<'_>, field: NotationField, rules: Rules) -> Result<u16, NotationError> {
    let t = span.text;
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        let kind = NotationErrorKind::NotANumber(t.to_owned());
        return Err(NotationError::new(field, span.column, kind));
    }
    match t.parse::<u16>() {
        Ok(n) if n <= rules.total_seeds() => Ok(n),
        _ => Err(NotationError::new(
            field,
            span.column,
            NotationErrorKind::TooManySeeds {
                found: t.to_owned(),
                total: rules.total_seeds(),
            },
        )),
    }
}

fn parse_side(span: Span<'_>) -> Result<Side, NotationError> {
    match span.text {
        "1" => Ok(Side::South),
        "2" => Ok(Side::North),
        other => Err(NotationError::new(
            NotationField::ToMove,
            span.column,
            NotationErrorKind::BadSide(other.to_owned()),
        )),
    }
}

impl Position {
    /// The position a notation line describes (see the [module](crate::notation)
    /// documentation for the format).
    ///
    /// # Errors
    /// A [`NotationError`] naming the field and the column of the first problem.
    ///
    /// ```
    /// use mancala_core::{Position, Side};
    /// let p = Position::from_notation("oware 6x4 0,0,0,0,1,2/20 3,0,0,0,0,0/22 2").unwrap();
    /// assert_eq!(p.houses(Side::North), &[3, 0, 0, 0, 0, 0]);
    /// assert_eq!(p.stores(), [20, 22]);
    /// assert_eq!(p.to_move(), Side::North);
    /// let e = Position::from_notation("oware+empty-capture 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1");
    /// assert_eq!(e.unwrap_err().to_string(), "column 7 (the rules): oware takes no rule options");
    /// ```
    pub fn from_notation(line: &str) -> Result<Position, NotationError> {
        let (fields, end) = fields(line);
        let field_order = [
            NotationField::Rules,
            NotationField::Size,
            NotationField::Houses(Side::South),
            NotationField::Houses(Side::North),
            NotationField::ToMove,
        ];
        if let Some(&field) = field_order.get(fields.len()) {
            return Err(NotationError::new(field, end, NotationErrorKind::Missing));
        }
        if let Some(extra) = fields.get(field_order.len()) {
            let kind = NotationErrorKind::Trailing(extra.text.to_owned());
            return Err(NotationError::new(NotationField::End, extra.column, kind));
        }
        let rules = parse_rules(fields[0], fields[1])?;
        let south = parse_row(fields[2], Side::South, rules)?;
        let north = parse_row(fields[3], Side::North, rules)?;
        let to_move = parse_side(fields[4])?;
        let h = rules.houses();
        Position::from_parts(
            rules,
            [&south.houses[..h], &north.houses[..h]],
            [south.store, north.store],
            to_move,
        )
        // A house marked `x` on one player's row is the other player's tuzdyk.
        .and_then(|p| p.with_claims([north.tuzdyk, south.tuzdyk]))
        .map_err(|e| {
            let (field, at) = match e {
                SetupError::SeedsNotConserved { .. } => (NotationField::Board, 2),
                SetupError::MoverSkipped(_) => (NotationField::ToMove, 4),
                SetupError::RowLength { side, .. } => {
                    (NotationField::Houses(side), 2 + side.index())
                }
                SetupError::Claim { side, .. } => {
                    let row = side.opponent();
                    (NotationField::Houses(row), 2 + row.index())
                }
            };
            NotationError::new(field, fields[at].column, NotationErrorKind::Setup(e))
        })
    }

    /// The position as one notation line; [`Position::from_notation`] reads it back
    /// to this very position.
    ///
    /// ```
    /// use mancala_core::{EndRule, Position, RuleOptions, Rules};
    /// let rules = Rules::kalah(4, 3).with_options(RuleOptions {
    ///     empty_capture: true,
    ///     end_rule: EndRule::EitherSideEmpty,
    /// });
    /// assert_eq!(
    ///     Position::new(rules).to_notation(),
    ///     "kalah+empty-capture+either-side-empty 4x3 3,3,3,3/0 3,3,3,3/0 1"
    /// );
    /// ```
    #[must_use]
    pub fn to_notation(&self) -> String {
        let rules = self.rules();
        let mut line = rules.variant().name().to_owned();
        if rules.variant().info().takes_option("empty-capture") {
            let options = rules.options();
            if options.empty_capture {
                line.push_str("+empty-capture");
            }
            if options.end_rule != EndRule::default() {
                line.push('+');
                line.push_str(options.end_rule.name());
            }
        }
        line.push_str(&format!(" {}x{}", rules.houses(), rules.seeds()));
        for side in Side::BOTH {
            let marked = self.claimed(side.opponent()).map(Move::index);
            let row: Vec<String> = (self.houses(side).iter().enumerate())
                .map(|(i, n)| match marked {
                    Some(t) if t == i => "x".to_owned(),
                    _ => n.to_string(),
                })
                .collect();
            line.push_str(&format!(" {}/{}", row.join(","), self.store(side)));
        }
        line.push_str(&format!(" {}", self.to_move().number()));
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: &str) -> NotationError {
        Position::from_notation(line).unwrap_err()
    }

    #[test]
    fn every_field_reports_its_own_column() {
        let e = err("chess 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1");
        assert_eq!((e.field, e.column), (NotationField::Rules, 1));
        let e = err("kalah+empty-capture+fast 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1");
        assert_eq!((e.field, e.column), (NotationField::Rules, 21));
        assert_eq!(e.kind, NotationErrorKind::UnknownOption("fast".into()));
        let e = err("kalah+either-side-empty+mover-cannot-move 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1");
        assert_eq!(e.column, 25);
        assert!(matches!(e.kind, NotationErrorKind::RepeatedOption(_)));
        let e = err("kalah 6*4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1");
        assert_eq!((e.field, e.column), (NotationField::Size, 7));
        let e = err("kalah 17x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1");
        assert_eq!(e.kind, NotationErrorKind::Rules(RulesError::Houses(17)));
        let e = err("kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4/4 1");
        assert_eq!(e.field, NotationField::Houses(Side::North));
        assert_eq!(e.column, 25);
        assert_eq!(
            e.kind,
            NotationErrorKind::Setup(SetupError::RowLength {
                side: Side::North,
                found: 5,
                expected: 6
            })
        );
        let e = err("kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/99999 1");
        assert_eq!((e.field, e.column), (NotationField::Store(Side::North), 37));
        let e = err("kalah 6x4 4,4,4,4,4,4/1 4,4,4,4,4,4/0 1");
        assert_eq!((e.field, e.column), (NotationField::Board, 11));
        let e = err("kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 3");
        assert_eq!((e.field, e.column), (NotationField::ToMove, 39));
        let e = err("kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 extra");
        assert_eq!((e.field, e.column), (NotationField::End, 41));
        let e = err("kalah 6x4 4,4,4,4,4,4 4,4,4,4,4,4/0 1");
        assert_eq!(
            e.kind,
            NotationErrorKind::MissingStore("4,4,4,4,4,4".into())
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let e = err("kalah 6x4 4,4,4,4,4,é/0 4,4,4,4,4,4/0 1");
        assert_eq!(e.column, 21);
        let e = err("kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 é");
        assert_eq!(e.column, 39);
    }

    #[test]
    fn simplified_oware_refuses_a_skipped_mover() {
        let e = err("oware-simplified 2x2 0,0/0 3,3/2 1");
        assert_eq!(
            e.kind,
            NotationErrorKind::Setup(SetupError::MoverSkipped(Side::South))
        );
        assert_eq!(e.column, 34);
    }

    #[test]
    fn the_default_end_rule_may_be_written_and_extra_spaces_are_fine() {
        let p = Position::from_notation("  kalah+mover-cannot-move  2x1 1,1/0\t1,1/0 2 ").unwrap();
        assert_eq!(p.to_notation(), "kalah 2x1 1,1/0 1,1/0 2");
    }

    #[test]
    fn an_empty_line_is_missing_its_rules() {
        let e = err("");
        assert_eq!((e.field, e.column), (NotationField::Rules, 1));
    }
}
