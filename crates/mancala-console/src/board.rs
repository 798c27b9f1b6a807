//! Drawing boards as text: the Auckland Kalah box and the Oware assignment rows.

use mancala_core::{Position, Side};
use unicode_width::UnicodeWidthStr;

/// Decimal digits of `n` (at least 1).
fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The Auckland Kalah board for any number of houses.
///
/// Player 2's houses run H..1 along the top with player 1's store at the top right;
/// player 1's houses run 1..H along the bottom with player 2's store at the bottom
/// left. Counts are right-aligned in a width that fits every seed of the game (2 for the
/// standard board, so the standard board is exactly the specifications' drawing).
///
/// ```
/// use mancala_core::{Position, Rules};
/// let text = mancala_console::kalah_board(&Position::new(Rules::kalah(2, 3)));
/// assert_eq!(text, "\
/// +----+-------+-------+----+
/// | P2 | 2[ 3] | 1[ 3] |  0 |
/// |    |-------+-------|    |
/// |  0 | 1[ 3] | 2[ 3] | P1 |
/// +----+-------+-------+----+
/// ");
/// ```
#[must_use]
pub fn kalah_board(p: &Position) -> String {
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
/// assert_eq!(mancala_console::oware_board(&p, &names), expected.join("\n") + "\n");
/// ```
#[must_use]
pub fn oware_board(p: &Position, names: &[String; 2]) -> String {
    let houses = p.houses_per_side();
    let w = digits(p.rules().total_seeds().into())
        .max(2)
        .max(1 + digits(houses));
    let name_w = names.iter().map(|n| n.width()).max().unwrap_or(0) + 1;
    let row = |side: Side, cells: &[u16]| {
        let label = format!("{}:", names[side.index()]);
        let pad = " ".repeat(name_w - label.width());
        let cells: String = cells.iter().map(|n| format!("{n:>w$}|")).collect();
        format!("{label}{pad}  |{cells}\n")
    };
    let labels = |letter: char, numbers: &mut dyn Iterator<Item = usize>| {
        let cells: Vec<String> = numbers
            .map(|h| format!("{:>w$}", format!("{letter}{h}")))
            .collect();
        format!("{}{}\n", " ".repeat(name_w + 3), cells.join(" "))
    };
    let b: Vec<u16> = p.houses(Side::North).iter().rev().copied().collect();
    format!(
        "{}{}{}{}Score: {} {}, {} {}\n",
        labels('A', &mut (1..=houses)),
        row(Side::South, p.houses(Side::South)),
        row(Side::North, &b),
        labels('B', &mut (1..=houses).rev()),
        names[0],
        p.store(Side::South),
        names[1],
        p.store(Side::North)
    )
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
        let text = super::oware_board(&p, &names);
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
