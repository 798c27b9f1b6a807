//! House labels: each house has a number, 1..H for each player in sowing order, and a
//! letter, player 1's houses a, b, c, ... and player 2's continuing the alphabet (a..f
//! and g..l on six houses, as in the classic homework). Keys, messages and the board
//! all use these.

use mancala_core::Side;

/// The letter of `side`'s house `house` on a board of `houses` per side; `None` past z.
///
/// ```
/// use mancala_core::Side;
/// use mancala_tui::house_letter;
/// assert_eq!(house_letter(Side::South, 1, 6), Some('a'));
/// assert_eq!(house_letter(Side::North, 6, 6), Some('l'));
/// assert_eq!(house_letter(Side::North, 16, 16), None);
/// ```
#[must_use]
pub fn house_letter(side: Side, house: u8, houses: usize) -> Option<char> {
    let i = side.index() * houses + usize::from(house) - 1;
    (i < 26).then(|| char::from(b'a' + i as u8))
}

/// A house's letter and number, e.g. `c3` (just the number past z).
///
/// ```
/// use mancala_core::Side;
/// use mancala_tui::house_label;
/// assert_eq!(house_label(Side::North, 2, 6), "h2");
/// assert_eq!(house_label(Side::North, 16, 16), "16");
/// ```
#[must_use]
pub fn house_label(side: Side, house: u8, houses: usize) -> String {
    match house_letter(side, house, houses) {
        Some(c) => format!("{c}{house}"),
        None => house.to_string(),
    }
}

/// The house whose letter is `c` (either case), on a board of `houses` per side.
pub(crate) fn house_of_letter(c: char, houses: usize) -> Option<(Side, u8)> {
    let c = c.to_ascii_lowercase();
    if !c.is_ascii_lowercase() {
        return None;
    }
    let i = usize::from(c as u8 - b'a');
    if i >= 2 * houses {
        return None;
    }
    let side = if i < houses { Side::South } else { Side::North };
    Some((side, (i % houses) as u8 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_names_the_house_it_labels() {
        for houses in 1..=16 {
            for side in Side::BOTH {
                for house in 1..=houses as u8 {
                    if let Some(c) = house_letter(side, house, houses) {
                        assert_eq!(house_of_letter(c, houses), Some((side, house)));
                        assert_eq!(
                            house_of_letter(c.to_ascii_uppercase(), houses),
                            Some((side, house))
                        );
                    }
                }
            }
            let past = char::from(b'a' + (2 * houses).min(25) as u8);
            if 2 * houses < 26 {
                assert_eq!(house_of_letter(past, houses), None);
            }
        }
        assert_eq!(house_of_letter('1', 6), None);
    }
}
