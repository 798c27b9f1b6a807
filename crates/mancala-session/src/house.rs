//! Houses as people name them: a number (`3`, in the mover's sowing order), a letter
//! (`c`: player 1's houses are a, b, c, ... and player 2's continue the alphabet), or
//! both (`c3`). One parser and one set of messages for every front end.

use std::fmt;

use mancala_core::{Move, Side};

/// Why a typed house is not one the player to move may name.
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::{HouseError, parse_house};
/// let e = parse_house("9", Side::South, 6).unwrap_err();
/// assert_eq!(e, HouseError::NoSuchHouse { house: "9".into(), houses: 6 });
/// assert_eq!(e.to_string(), "there is no house 9 (houses are 1 to 6)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HouseError {
    /// Nothing that names a house: neither a number nor a house letter.
    NotAHouse(String),
    /// A number outside 1 to `houses`, as typed (however large).
    NoSuchHouse {
        /// The number typed.
        house: String,
        /// Houses per side.
        houses: usize,
    },
    /// A letter (or label) naming the opponent's house.
    NotYours {
        /// The house's label, such as `h2`.
        label: String,
        /// Whose house it is.
        owner: Side,
    },
}

impl fmt::Display for HouseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HouseError::NotAHouse(text) => write!(f, "{} is not a house number", quoted(text)),
            HouseError::NoSuchHouse { house, houses } => {
                let house = shortened(house);
                write!(f, "there is no house {house} (houses are 1 to {houses})")
            }
            HouseError::NotYours { label, owner } => {
                write!(f, "house {label} is player {}'s", owner.number())
            }
        }
    }
}

impl std::error::Error for HouseError {}

/// How much of what someone typed a message quotes: enough to recognise it, while a
/// pasted page or a line of 100,000 digits is not sent back whole.
const QUOTED_CHARS: usize = 40;

/// `text` cut to [`QUOTED_CHARS`] characters, with "…" when it was longer.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// `text` in quotes, as `{:?}` writes it, cut to [`QUOTED_CHARS`] characters.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{:?}…", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// The letter of `side`'s house `house` on a board of `houses` per side: player 1's
/// houses are a, b, c, ... and player 2's continue the alphabet (a..f and g..l on six
/// houses, as in the classic homework). Past z the capitals go on (`A`, `B`, ...), so
/// every house of every board up to 26 a side has a letter of its own.
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::house_letter;
/// assert_eq!(house_letter(Side::South, 1, 6), Some('a'));
/// assert_eq!(house_letter(Side::North, 6, 6), Some('l'));
/// assert_eq!(house_letter(Side::North, 10, 16), Some('z'));
/// assert_eq!(house_letter(Side::North, 16, 16), Some('F'));
/// ```
#[must_use]
pub fn house_letter(side: Side, house: u8, houses: usize) -> Option<char> {
    let i = side.index() * houses + usize::from(house).checked_sub(1)?;
    let i = u8::try_from(i).ok()?;
    match i {
        0..26 => Some(char::from(b'a' + i)),
        26..52 => Some(char::from(b'A' + i - 26)),
        _ => None,
    }
}

/// A house's letter and number, e.g. `c3` or `B14` (just the number if it had no
/// letter, on boards of more than 26 houses a side).
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::house_label;
/// assert_eq!(house_label(Side::North, 2, 6), "h2");
/// assert_eq!(house_label(Side::North, 14, 14), "B14");
/// ```
#[must_use]
pub fn house_label(side: Side, house: u8, houses: usize) -> String {
    match house_letter(side, house, houses) {
        Some(c) => format!("{c}{house}"),
        None => house.to_string(),
    }
}

/// Whether a board of `houses` a side needs capitals for its letters: then `A` is not
/// `a`. On smaller boards letters are read in either case.
fn capitals_count(houses: usize) -> bool {
    2 * houses > 26
}

/// The house whose letter is `c`, on a board of `houses` per side. Either case on
/// boards of up to 13 houses a side; on bigger ones the capitals are the letters after
/// z ([`house_letter`]).
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::house_of_letter;
/// assert_eq!(house_of_letter('H', 6), Some((Side::North, 2)));
/// assert_eq!(house_of_letter('m', 6), None);
/// assert_eq!(house_of_letter('z', 16), Some((Side::North, 10)));
/// assert_eq!(house_of_letter('A', 16), Some((Side::North, 11)));
/// assert_eq!(house_of_letter('G', 16), None);
/// ```
#[must_use]
pub fn house_of_letter(c: char, houses: usize) -> Option<(Side, u8)> {
    if !c.is_ascii_alphabetic() {
        return None;
    }
    let i = if c.is_ascii_uppercase() && capitals_count(houses) {
        26 + usize::from(c as u8 - b'A')
    } else {
        usize::from(c.to_ascii_lowercase() as u8 - b'a')
    };
    if i >= 2 * houses {
        return None;
    }
    let side = if i < houses { Side::South } else { Side::North };
    u8::try_from(i % houses + 1).ok().map(|h| (side, h))
}

/// A house number typed by a person, checked against the board size: `1..=houses`.
///
/// ```
/// use mancala_session::{HouseError, parse_house_number};
/// assert_eq!(parse_house_number(" 3\n", 6).unwrap().house(), 3);
/// assert!(matches!(parse_house_number("x", 6), Err(HouseError::NotAHouse(_))));
/// assert_eq!(
///     parse_house_number("300", 6).unwrap_err().to_string(),
///     "there is no house 300 (houses are 1 to 6)"
/// );
/// ```
///
/// # Errors
/// [`HouseError::NotAHouse`] for anything but digits, [`HouseError::NoSuchHouse`] for a
/// number off the board.
pub fn parse_house_number(text: &str, houses: usize) -> Result<Move, HouseError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HouseError::NotAHouse(t.to_owned()));
    }
    // All digits: a number too large for u64 is off the board all the same.
    match t.parse::<u64>() {
        Ok(n) => house_number(n, houses),
        Err(_) => Err(HouseError::NoSuchHouse {
            house: t.to_owned(),
            houses,
        }),
    }
}

/// The move for house number `n` on a board of `houses` per side.
///
/// ```
/// use mancala_session::house_number;
/// assert_eq!(house_number(6, 6).unwrap().house(), 6);
/// assert!(house_number(0, 6).is_err());
/// assert!(house_number(256, 6).is_err());
/// ```
///
/// # Errors
/// [`HouseError::NoSuchHouse`] unless `1 <= n <= houses`.
pub fn house_number(n: u64, houses: usize) -> Result<Move, HouseError> {
    u8::try_from(n)
        .ok()
        .filter(|&h| usize::from(h) <= houses)
        .and_then(Move::new)
        .ok_or_else(|| HouseError::NoSuchHouse {
            house: n.to_string(),
            houses,
        })
}

/// A house typed by `mover`: a number (`3`), a letter (`c`) or a label (`c3`).
///
/// A letter must name one of the mover's own houses; a label's number must agree with
/// its letter.
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::{HouseError, parse_house};
/// assert_eq!(parse_house("c", Side::South, 6).unwrap().house(), 3);
/// assert_eq!(parse_house("H2", Side::North, 6).unwrap().house(), 2);
/// assert_eq!(parse_house("4", Side::North, 6).unwrap().house(), 4);
/// assert_eq!(
///     parse_house("h", Side::South, 6),
///     Err(HouseError::NotYours { label: "h2".into(), owner: Side::North })
/// );
/// assert!(matches!(parse_house("c4", Side::South, 6), Err(HouseError::NotAHouse(_))));
/// ```
///
/// # Errors
/// Why the text does not name one of the mover's houses.
pub fn parse_house(text: &str, mover: Side, houses: usize) -> Result<Move, HouseError> {
    let t = text.trim();
    let mut chars = t.chars();
    let Some(first) = chars.next().filter(char::is_ascii_alphabetic) else {
        return parse_house_number(t, houses);
    };
    let not_a_house = || HouseError::NotAHouse(t.to_owned());
    let (side, house) = house_of_letter(first, houses).ok_or_else(not_a_house)?;
    let digits = chars.as_str();
    if !digits.is_empty() && digits.parse::<u8>().ok() != Some(house) {
        return Err(not_a_house());
    }
    if side != mover {
        let label = house_label(side, house, houses);
        return Err(HouseError::NotYours { label, owner: side });
    }
    house_number(u64::from(house), houses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every house's label (and its letter alone) parses back to that house for its
        /// owner, and is refused for the opponent.
        #[test]
        fn labels_round_trip(houses in 1usize..=16, house in 1u8..=16, north: bool) {
            prop_assume!(usize::from(house) <= houses);
            let side = if north { Side::North } else { Side::South };
            let label = house_label(side, house, houses);
            prop_assert_eq!(parse_house(&label, side, houses).unwrap().house(), house);
            prop_assert_eq!(parse_house(&label[..1], side, houses).unwrap().house(), house);
            prop_assert!(parse_house(&label, side.opponent(), houses).is_err());
        }

        /// No two houses of a board share a label.
        #[test]
        fn labels_are_unique(houses in 1usize..=16) {
            let mut labels: Vec<String> = Side::BOTH
                .into_iter()
                .flat_map(|s| (1..=houses as u8).map(move |h| house_label(s, h, houses)))
                .collect();
            prop_assert!(labels.iter().all(|l| l.starts_with(|c: char| c.is_ascii_alphabetic())));
            labels.sort();
            labels.dedup();
            prop_assert_eq!(labels.len(), 2 * houses);
        }

        /// Numbers parse exactly when they are on the board.
        #[test]
        fn numbers_parse_when_on_the_board(n in 0u64..1000, houses in 1usize..=16) {
            let ok = (1..=houses as u64).contains(&n);
            prop_assert_eq!(parse_house_number(&n.to_string(), houses).is_ok(), ok);
        }
    }

    #[test]
    fn huge_numbers_are_reported_as_typed() {
        let e = parse_house_number("99999999999999999999999", 6).unwrap_err();
        assert_eq!(
            e.to_string(),
            "there is no house 99999999999999999999999 (houses are 1 to 6)"
        );
        assert_eq!(
            house_number(256, 6).unwrap_err().to_string(),
            "there is no house 256 (houses are 1 to 6)"
        );
    }

    /// A junk line is quoted in part: a line of 100,000 digits or letters gets a
    /// message of a few dozen characters back, not the line.
    #[test]
    fn long_junk_is_quoted_in_part() {
        let digits = "7".repeat(100_000);
        let e = parse_house_number(&digits, 6).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("there is no house {}… (houses are 1 to 6)", "7".repeat(40))
        );
        let words = "é".repeat(50);
        let e = parse_house_number(&words, 6).unwrap_err().to_string();
        assert_eq!(e, format!("\"{}\"… is not a house number", "é".repeat(40)));
        let forty = "x".repeat(40);
        let e = parse_house_number(&forty, 6).unwrap_err().to_string();
        assert_eq!(e, format!("\"{forty}\" is not a house number"));
    }

    #[test]
    fn signs_and_words_are_not_houses() {
        for t in ["-1", "+2", "three", "", "1.5", "3 4"] {
            assert!(matches!(
                parse_house_number(t, 6),
                Err(HouseError::NotAHouse(_))
            ));
        }
    }
}
