//! Drawing boards as text: the Auckland Kalah box and the Oware assignment rows.

use mancala_core::{Position, Side};

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
/// from house H, then the scores.
///
/// ```
/// use mancala_core::{Position, Rules};
/// let p = Position::new(Rules::oware(3, 4));
/// let names = ["Player A".to_string(), "Player B".to_string()];
/// assert_eq!(mancala_console::oware_board(&p, &names), "\
/// Player A:  | 4| 4| 4|
/// Player B:  | 4| 4| 4|
/// Score 0/0
/// ");
/// ```
#[must_use]
pub fn oware_board(p: &Position, names: &[String; 2]) -> String {
    let w = digits(p.rules().total_seeds().into()).max(2);
    let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) + 1;
    let row = |side: Side, cells: Vec<u16>| {
        let label = format!("{}:", names[side.index()]);
        let cells: String = cells.iter().map(|n| format!("{n:>w$}|")).collect();
        format!("{label:<name_w$}  |{cells}\n")
    };
    let a = p.houses(Side::South).to_vec();
    let b = p.houses(Side::North).iter().rev().copied().collect();
    format!(
        "{}{}Score {}/{}\n",
        row(Side::South, a),
        row(Side::North, b),
        p.store(Side::South),
        p.store(Side::North)
    )
}
