//! Plain minimax over the referee's rules, the Oware repetition rule included: the
//! yardstick for the exact solver on boards small enough to search this way.

use std::collections::HashMap;

use crate::{Kind, Table};

/// The value of `start` for player 1 (their final score minus player 2's) when both
/// play perfectly, with no history before `start`: every line is searched, and a line
/// that comes back to a position seen since its last capture ends there by repetition.
///
/// Only positions reached by a capture (and `start`) are remembered between lines:
/// the value of any other position depends on the path to it.
///
/// ```
/// use mancala_referee::{Kind, Table, oware_value};
/// // One house each, one seed each. Player 1 sows into player 2's house, making it 2:
/// // that would take player 2's whole row, a grand slam, so nothing is captured.
/// // Player 2 sows both back (a long sowing skips its origin), the same grand slam,
/// // and player 1's reply repeats the position after the first move: the game ends,
/// // each takes their own row, and player 2 holds both seeds.
/// let value = oware_value(&Table::new(Kind::Oware, 1, 1));
/// assert_eq!(value, -2);
/// ```
///
/// # Panics
/// If `start` is not an Oware position.
#[must_use]
pub fn oware_value(start: &Table) -> i32 {
    assert_eq!(start.kind, Kind::Oware, "oware_value takes Oware positions");
    let mut fresh = HashMap::new();
    fresh_value(start, &mut fresh)
}

/// The value of each first move from `start` for player 1 (as [`oware_value`]), with
/// `start` as the first position of the game: a line that comes back to `start` before
/// any capture ends there by repetition.
///
/// ```
/// use mancala_referee::{Kind, Table, oware_move_values};
/// // One house each, one seed each: the only move is house 1, worth -2 (see oware_value).
/// assert_eq!(oware_move_values(&Table::new(Kind::Oware, 1, 1)), vec![(1, -2)]);
/// ```
///
/// # Panics
/// If `start` is not an Oware position.
#[must_use]
pub fn oware_move_values(start: &Table) -> Vec<(usize, i32)> {
    assert_eq!(
        start.kind,
        Kind::Oware,
        "oware_move_values takes Oware positions"
    );
    let mut fresh = HashMap::new();
    let mut path = vec![start.clone()];
    start
        .moves()
        .into_iter()
        .map(|k| (k, child_value(start, k, &mut path, &mut fresh)))
        .collect()
}

/// The value of a position with no history before it.
fn fresh_value(table: &Table, fresh: &mut HashMap<Table, i32>) -> i32 {
    if let Some(&v) = fresh.get(table) {
        return v;
    }
    let v = value(table, &mut vec![table.clone()], fresh);
    fresh.insert(table.clone(), v);
    v
}

/// The value of `table`, the last position of `path` (the positions since the last
/// capture).
fn value(table: &Table, path: &mut Vec<Table>, fresh: &mut HashMap<Table, i32>) -> i32 {
    if let Some(finish) = table.finish() {
        return margin(finish.scores);
    }
    let values: Vec<i32> = table
        .moves()
        .into_iter()
        .map(|k| child_value(table, k, path, fresh))
        .collect();
    if table.to_move == 0 {
        values
            .into_iter()
            .max()
            .expect("a position in play has a move")
    } else {
        values
            .into_iter()
            .min()
            .expect("a position in play has a move")
    }
}

/// The value after playing house `k` from `table`, the last position of `path`.
fn child_value(
    table: &Table,
    k: usize,
    path: &mut Vec<Table>,
    fresh: &mut HashMap<Table, i32>,
) -> i32 {
    let mut child = table.clone();
    child.play(k);
    if let Some(finish) = child.finish() {
        margin(finish.scores)
    } else if child.banked != table.banked {
        fresh_value(&child, fresh)
    } else if path.contains(&child) {
        margin(child.repetition().scores)
    } else {
        path.push(child.clone());
        let v = value(&child, path, fresh);
        path.pop();
        v
    }
}

fn margin(scores: [u32; 2]) -> i32 {
    scores[0] as i32 - scores[1] as i32
}
