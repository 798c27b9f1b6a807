//! The Kalah endgame database: the exact gain of every board with at most `N` seeds in
//! play, built eagerly on all cores before the search starts.
//!
//! Boards are numbered by [`Shape::key`], which maps the boards with at most `N` seeds
//! onto exactly `0..C(N + 2H, 2H)`, so the database is a flat array of `i8` gains.
//!
//! # Order of construction
//!
//! A move either banks a seed (into the store, or by a capture), leaving fewer seeds in
//! play, or only moves seeds along the mover's own row towards their store: the last
//! seed then falls short of the store, so the move is never an extra turn. Give every
//! seed the *weight* of its house's place in its row (0 farthest from the store, `H -
//! 1` next to it) and call the sum of the weights a board's *potential*: a move that
//! banks nothing raises the potential by `k(k + 1) / 2 > 0` for the `k` seeds sown, and
//! swapping the rows for the next mover leaves it unchanged. So the boards are built
//! by seed count upwards and, within a seed count, by potential downwards: every
//! board's successors are then already known, there is no recursion, and the boards of
//! one (seeds, potential) group are independent, so a group is shared out among the
//! cores with rayon.

use std::sync::atomic::{AtomicI8, Ordering};

use rayon::prelude::*;

use super::board::{Board, Shape, positions_bound};

/// Exact gains of every board with at most [`Endgame::seeds`] seeds in play.
pub(crate) struct Endgame {
    seeds: i32,
    values: Vec<AtomicI8>,
}

impl Endgame {
    /// Boards in a database of boards of `cells` houses with at most `seeds` seeds:
    /// its size in bytes.
    pub fn bytes_for(cells: usize, seeds: usize) -> Option<usize> {
        usize::try_from(positions_bound(cells, seeds)?).ok()
    }

    /// The largest seed count (at most `limit`) whose database holds at most
    /// `max_bytes` bytes.
    pub fn seeds_for(cells: usize, max_bytes: usize, limit: usize) -> usize {
        (0..=limit.min(127))
            .take_while(|&k| Endgame::bytes_for(cells, k).is_some_and(|n| n <= max_bytes))
            .last()
            .unwrap_or(0)
    }

    /// Builds the database of every board of `shape` with at most `seeds` seeds (at
    /// most 127, and at most what `shape` numbers), calling `progress(done, seeds)`
    /// after each seed count; `None` if `stop()` says so before a seed count.
    pub fn build(
        shape: &Shape,
        seeds: usize,
        mut progress: impl FnMut(usize, usize),
        stop: impl Fn() -> bool,
    ) -> Option<Endgame> {
        assert!(
            seeds <= 127 && shape.covers(seeds),
            "endgame database too large"
        );
        let n = Endgame::bytes_for(2 * shape.h, seeds).expect("size checked by the caller");
        let db = Endgame {
            seeds: seeds as i32,
            values: (0..n).map(|_| AtomicI8::new(0)).collect(),
        };
        let h = shape.h;
        for level in 0..=seeds {
            if stop() {
                return None;
            }
            for potential in (0..=level * (h - 1)).rev() {
                // The boards of one group are independent: split them by the first
                // house's count.
                (0..=level).into_par_iter().for_each(|first| {
                    let mut group = Group {
                        shape,
                        db: &db,
                        board: Board(0).with_cell(0, first as u8),
                    };
                    group.fill(1, level - first, potential);
                });
            }
            progress(level, seeds);
        }
        Some(db)
    }

    /// The largest seed count held.
    pub fn seeds(&self) -> i32 {
        self.seeds
    }

    /// The gain of the board numbered `key` (which holds at most [`Endgame::seeds`]).
    #[inline]
    pub fn value(&self, key: u64) -> i32 {
        i32::from(self.values[key as usize].load(Ordering::Relaxed))
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }
}

/// The enumeration of one (seeds, potential) group, filling the database as it goes.
struct Group<'a> {
    shape: &'a Shape,
    db: &'a Endgame,
    board: Board,
}

impl Group<'_> {
    /// Every way to put `left` seeds with total weight `weight` into houses `j..2H`
    /// (the houses before `j` are set), each board solved.
    fn fill(&mut self, j: usize, left: usize, weight: usize) {
        let h = self.shape.h;
        let w = j % h;
        if j == 2 * h - 2 {
            // The last two houses weigh w and w + 1 (h >= 2 here): `a + b = left` and
            // `w a + (w + 1) b = weight` leave one choice, `b = weight - w left`.
            let Some(b) = weight.checked_sub(w * left).filter(|&b| b <= left) else {
                return;
            };
            let board = self.board;
            self.board = board
                .with_cell(j, (left - b) as u8)
                .with_cell(j + 1, b as u8);
            self.solve();
            self.board = board;
            return;
        }
        if j == 2 * h - 1 {
            // One house a side: the last house weighs 0.
            if weight == 0 {
                let board = self.board;
                self.board = board.with_cell(j, left as u8);
                self.solve();
                self.board = board;
            }
            return;
        }
        // The houses after `j` weigh at most `h - 1` each, and at least `w + 1` when
        // they are all on this row's far side of `j` (none from the next row start).
        let rest_max = h - 1;
        let rest_min = if j >= h { w + 1 } else { 0 };
        for c in 0..=left {
            if c * w > weight {
                break;
            }
            let (l, wt) = (left - c, weight - c * w);
            if wt > l * rest_max || wt < l * rest_min {
                continue;
            }
            let board = self.board;
            self.board = board.with_cell(j, c as u8);
            self.fill(j + 1, l, wt);
            self.board = board;
        }
    }

    /// Solves the current board from its successors, already in the database.
    fn solve(&self) {
        let shape = self.shape;
        let b = self.board;
        let value = shape.terminal(b).unwrap_or_else(|| {
            (0..shape.h)
                .filter(|&i| b.cell(i) > 0)
                .map(|i| {
                    let step = shape.play(b, i);
                    let child = self.db.value(shape.key(step.board));
                    if step.extra {
                        step.gain + child
                    } else {
                        step.gain - child
                    }
                })
                .max()
                .expect("a board that is not over has a move")
        });
        self.db.values[shape.key(b) as usize].store(value as i8, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use mancala_core::{EndRule, RuleOptions, Rules};

    use super::*;

    /// The gain of `b` by plain memoised negamax over the packed board.
    fn negamax(shape: &Shape, b: Board, memo: &mut HashMap<u128, i32>) -> i32 {
        if let Some(t) = shape.terminal(b) {
            return t;
        }
        if let Some(&v) = memo.get(&b.0) {
            return v;
        }
        let v = (0..shape.h)
            .filter(|&i| b.cell(i) > 0)
            .map(|i| {
                let step = shape.play(b, i);
                let child = negamax(shape, step.board, memo);
                if step.extra {
                    step.gain + child
                } else {
                    step.gain - child
                }
            })
            .max()
            .unwrap();
        memo.insert(b.0, v);
        v
    }

    /// Every board of `cells` houses with at most `seeds` seeds.
    fn boards(cells: usize, seeds: usize) -> Vec<Board> {
        let mut all = vec![Board(0)];
        for j in 0..cells {
            all = all
                .into_iter()
                .flat_map(|b| {
                    let used: usize = (0..j).map(|k| usize::from(b.cell(k))).sum();
                    (0..=seeds - used).map(move |c| b.with_cell(j, c as u8))
                })
                .collect();
        }
        all
    }

    #[test]
    fn every_board_has_its_negamax_value_under_every_rule_option() {
        for h in 1..=4 {
            let seeds = [12, 10, 8, 6][h - 1];
            for empty_capture in [false, true] {
                for end_rule in [EndRule::MoverCannotMove, EndRule::EitherSideEmpty] {
                    let options = RuleOptions {
                        empty_capture,
                        end_rule,
                    };
                    let rules = Rules::kalah(h as u8, 1).with_options(options);
                    let shape = Shape::new(rules, seeds).unwrap();
                    let db = Endgame::build(&shape, seeds, |_, _| {}, || false).unwrap();
                    let mut memo = HashMap::new();
                    let all = boards(2 * h, seeds);
                    assert_eq!(all.len(), db.bytes());
                    for b in all {
                        assert_eq!(
                            db.value(shape.key(b)),
                            negamax(&shape, b, &mut memo),
                            "{options:?}, board {:032x}",
                            b.0
                        );
                    }
                }
            }
        }
    }
}
