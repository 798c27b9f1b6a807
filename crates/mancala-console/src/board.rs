//! Drawing boards as text: the Auckland Kalah box and the Oware assignment rows.

use mancala_core::{Position, Side};
use unicode_width::UnicodeWidthStr;

/// Decimal digits of `n` (at least 1).
fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// A board with stores, drawn as the Auckland Kalah transcripts draw it, for any number
/// of houses.
///
/// Player 2's houses run H..1 along the top with player 1's store at the top right;
/// player 1's houses run 1..H along the bottom with player 2's store at the bottom
/// left. Counts are right-aligned in a width that fits every seed of the game (2 for the
/// standard board, so the standard board is exactly the specifications' drawing).
///
/// ```
/// use mancala_core::{Position, Rules};
/// let text = mancala_console::store_board(&Position::new(Rules::kalah(2, 3)));
/// assert_eq!(text, "\
/// +----+-------+-------+----+
/// | P2 | 2[ 3] | 1[ 3] |  0 |
/// |    |-------+-------|    |
/// |  0 | 1[ 3] | 2[ 3] | P1 |
/// +----+-------+-------+----+
/// ");
/// ```
#[must_use]
pub fn store_board(p: &Position) -> String {
    let h = p.houses_per_side();
    let count_w = digits(p.rules().total_seeds().into()).max(2);
    let label_w = digits(h);
    let store_w = count_w;
    let cell_w = label_w + count_w + 4;
    let cell = |label: usize, n: u16| format!(" {label:>label_w$}[{n:>count_w$}] ");
    let dashes = |n: usize| "-".repeat(n);

    let store_edge = dashes(store_w + 2);
    let border = format!(
        "+{store_edge}+{}+{store_edge}+\n",
        vec![dashes(cell_w); h].join("+")
    );
    let north: Vec<String> = (1..=h)
        .rev()
        .map(|i| cell(i, p.houses(Side::North)[i - 1]))
        .collect();
    let south: Vec<String> = (1..=h)
        .map(|i| cell(i, p.houses(Side::South)[i - 1]))
        .collect();
    let blank = " ".repeat(store_w + 2);
    let mut s = border.clone();
    s += &format!(
        "| {:<store_w$} |{}| {:>store_w$} |\n",
        "P2",
        north.join("|"),
        p.store(Side::South)
    );
    s += &format!("|{blank}|{}|{blank}|\n", vec![dashes(cell_w); h].join("+"));
    s += &format!(
        "| {:>store_w$} |{}| {:<store_w$} |\n",
        p.store(Side::North),
        south.join("|"),
        "P1"
    );
    s += &border;
    s
}

/// The Oware assignment's rows: row A (player 1) from house 1, row B (player 2) reversed
/// from house H, so that facing houses sit one above the other, with each house's label
/// (A1.., B1..) beside its row, then both scores with their names.
///
/// A claimed house is drawn `x`, as the position notation writes it, and a line under
/// the scores says whose each one is (a claimed house is a house of the other row),
/// by the game's word for it.
///
/// Names are padded by their width on screen, so wide (CJK) names keep the columns.
///
/// ```
/// use mancala_core::{Position, Rules};
/// let p = Position::new(Rules::oware(3, 4));
/// let names = ["Ann".to_string(), "Bob".to_string()];
/// let expected = [
///     "       A1 A2 A3",
///     "Ann:  | 4| 4| 4|",
///     "Bob:  | 4| 4| 4|",
///     "       B3 B2 B1",
///     "Score: Ann 0, Bob 0",
/// ];
/// assert_eq!(mancala_console::row_board(&p, &names), expected.join("\n") + "\n");
///
/// let p = Position::from_notation("togyzkumalak 3x2 2,2,1/3 x,2,2/0 2").unwrap();
/// let expected = [
///     "       A1 A2 A3",
///     "Ann:  | 2| 2| 1|",
///     "Bob:  | 2| 2| x|",
///     "       B3 B2 B1",
///     "Score: Ann 3, Bob 0",
///     "x: Ann's tuzdyk B1 (seeds sown into it go to Ann)",
/// ];
/// assert_eq!(mancala_console::row_board(&p, &names), expected.join("\n") + "\n");
/// ```
#[must_use]
pub fn row_board(p: &Position, names: &[String; 2]) -> String {
    let houses = p.houses_per_side();
    let w = digits(p.rules().total_seeds().into())
        .max(2)
        .max(1 + digits(houses));
    let name_w = names.iter().map(|n| n.width()).max().unwrap_or(0) + 1;
    // The house of `side`'s row that the other player has claimed, if any.
    let claimed = |side: Side| p.claimed(side.opponent()).map(|m| m.index());
    let row = |side: Side, cells: &[(usize, u16)]| {
        let label = format!("{}:", names[side.index()]);
        let pad = " ".repeat(name_w - label.width());
        let cells: String = cells
            .iter()
            .map(|&(i, n)| {
                let n = if claimed(side) == Some(i) {
                    "x".to_owned()
                } else {
                    n.to_string()
                };
                format!("{n:>w$}|")
            })
            .collect();
        format!("{label}{pad}  |{cells}\n")
    };
    let labels = |letter: char, numbers: &mut dyn Iterator<Item = usize>| {
        let cells: Vec<String> = numbers
            .map(|h| format!("{:>w$}", format!("{letter}{h}")))
            .collect();
        format!("{}{}\n", " ".repeat(name_w + 3), cells.join(" "))
    };
    let a: Vec<(usize, u16)> = p.houses(Side::South).iter().copied().enumerate().collect();
    let b: Vec<(usize, u16)> = p
        .houses(Side::North)
        .iter()
        .copied()
        .enumerate()
        .rev()
        .collect();
    format!(
        "{}{}{}{}Score: {} {}, {} {}\n{}",
        labels('A', &mut (1..=houses)),
        row(Side::South, &a),
        row(Side::North, &b),
        labels('B', &mut (1..=houses).rev()),
        names[0],
        p.store(Side::South),
        names[1],
        p.store(Side::North),
        claim_line(p, names)
    )
}

/// "x: Ann's tuzdyk B1 (seeds sown into it go to Ann)", naming each claimed house by
/// the game's word and its label on the board; empty when there is none.
fn claim_line(p: &Position, names: &[String; 2]) -> String {
    let word = mancala_session::claim_word(p.variant().info().claim_word);
    let owned: Vec<(Side, String)> = Side::BOTH
        .into_iter()
        .filter_map(|owner| {
            let row = if owner == Side::South { 'B' } else { 'A' };
            p.claimed(owner)
                .map(|m| (owner, format!("{}'s {word} {row}{m}", names[owner.index()])))
        })
        .collect();
    match owned.as_slice() {
        [] => String::new(),
        [(owner, one)] => format!(
            "x: {one} (seeds sown into it go to {})\n",
            names[owner.index()]
        ),
        [(_, a), (_, b)] => format!("x: {a}, {b} (seeds sown into one go to its owner)\n"),
        _ => unreachable!("two players"),
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::{Position, Rules};
    use unicode_width::UnicodeWidthStr;

    /// The rows' first bar sits in the same screen column whatever the names' widths.
    #[test]
    fn wide_names_keep_the_columns() {
        let p = Position::new(Rules::oware(6, 4));
        let names = ["王小明".to_string(), "Bob".to_string()];
        let text = super::row_board(&p, &names);
        let bars: Vec<usize> = text
            .lines()
            .filter(|l| l.contains('|'))
            .map(|l| l[..l.find('|').unwrap()].width())
            .collect();
        assert_eq!(bars.len(), 2, "{text}");
        assert_eq!(bars[0], bars[1], "{text}");
        let labels = text.lines().next().unwrap();
        assert_eq!(labels.find('A').unwrap(), bars[0] + 1, "{text}");
    }
}
