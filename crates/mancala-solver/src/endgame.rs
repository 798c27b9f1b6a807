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

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicI8, Ordering};

use rayon::prelude::*;

use crate::board::{Board, MAX_SOLVER_HOUSES, Shape, positions_bound};
use crate::huge_pages;
use crate::prefetch::prefetch;

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
            values: huge_pages::vec_zeroed(n),
        };
        let h = shape.h;
        for level in 0..=seeds {
            if stop() {
                return None;
            }
            for potential in (0..=level * (h - 1)).rev() {
                // The boards of one group are independent: split them by the counts
                // of the first two houses (of the first alone with one house a side),
                // each a task of its own. The counts hold very different numbers of
                // boards (in a 14-seed group, 43%, 28%, 16%, 8%, ... for the counts 0,
                // 1, 2, 3, ... of one house): rayon, left to split the range evenly by
                // count, gave one core nearly all of them; with one house's count a
                // task, the last of a group still often kept one core busy alone (1.72
                // of the 2 cores busy; with two houses' counts 1.9, and 16 and 19 seeds
                // built 15-20% faster). With one house a side the second house is the
                // last, which the enumeration places itself.
                let split = h.min(2);
                tasks(level, potential, split)
                    .into_par_iter()
                    .with_max_len(1)
                    .for_each(|(board, left, weight)| {
                        let mut group = Group::new(shape, &db, board);
                        group.fill(split, left, weight);
                        group.flush();
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

    /// Starts loading the value of the board numbered `key` into the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.values[key as usize]);
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    /// Writes the database for `shape`'s rules: [`FILE_MAGIC`], the houses a side,
    /// the two rule options and the seeds (a byte each), the number of boards (8
    /// bytes, little-endian), then a byte a board.
    pub fn write_to(&self, shape: &Shape, mut w: impl Write) -> io::Result<()> {
        w.write_all(FILE_MAGIC)?;
        w.write_all(&file_rules(shape))?;
        w.write_all(&[self.seeds as u8])?;
        w.write_all(&(self.values.len() as u64).to_le_bytes())?;
        for chunk in self.values.chunks(1 << 16) {
            let bytes: Vec<u8> = chunk
                .iter()
                .map(|v| v.load(Ordering::Relaxed) as u8)
                .collect();
            w.write_all(&bytes)?;
        }
        w.flush()
    }

    /// Reads a database written by [`Endgame::write_to`] for the rules of `shape`,
    /// keeping the boards of at most `max_seeds` seeds; the message says what is
    /// wrong with a file that is not one.
    pub fn read_from(shape: &Shape, max_seeds: usize, mut r: impl Read) -> Result<Endgame, String> {
        let mut head = [0u8; FILE_MAGIC.len() + 4 + 8];
        r.read_exact(&mut head)
            .map_err(|_| "too short to be an endgame database".to_string())?;
        let (magic, rest) = head.split_at(FILE_MAGIC.len());
        if magic != FILE_MAGIC {
            return Err("not an endgame database of this program".into());
        }
        let (rules, rest) = rest.split_at(3);
        if rules != file_rules(shape) {
            return Err(format!(
                "it holds the boards of another game ({} houses a side{}{}), not of the \
                 rules being solved",
                rules[0],
                if rules[1] == 1 {
                    ", --empty-capture"
                } else {
                    ""
                },
                if rules[2] == 1 {
                    ", --end-rule either-side-empty"
                } else {
                    ""
                },
            ));
        }
        let seeds = usize::from(rest[0]);
        let boards = u64::from_le_bytes(rest[1..].try_into().expect("8 bytes"));
        let expected = Endgame::bytes_for(2 * shape.h, seeds);
        if expected.map(|n| n as u64) != Some(boards) {
            return Err(format!("its size does not match {seeds} seeds"));
        }
        let keep = seeds.min(max_seeds);
        let n = Endgame::bytes_for(2 * shape.h, keep).expect("smaller than the file's");
        // Read a piece at a time into the values, not into one buffer as large.
        let mut values = huge_pages::vec_with_capacity(n);
        let mut piece = vec![0u8; 1 << 20];
        while values.len() < n {
            let piece = &mut piece[..(n - values.len()).min(1 << 20)];
            r.read_exact(piece)
                .map_err(|_| "it is cut short".to_string())?;
            values.extend(piece.iter().map(|&b| AtomicI8::new(b as i8)));
        }
        // The rest of the file (boards of more seeds than kept) must be there too.
        let rest = io::copy(&mut r.take(boards - n as u64 + 1), &mut io::sink())
            .map_err(|e| e.to_string())?;
        if rest != boards - n as u64 {
            return Err("it is cut short, or longer than it says".into());
        }
        Ok(Endgame {
            seeds: keep as i32,
            values,
        })
    }
}

/// The first bytes of an endgame database file.
const FILE_MAGIC: &[u8; 8] = b"MKALAHDB";

/// The rules a database file is for: houses a side, capture into an empty house,
/// either side empty ends the game.
fn file_rules(shape: &Shape) -> [u8; 3] {
    [
        shape.h as u8,
        u8::from(shape.empty_capture),
        u8::from(shape.either_side_empty),
    ]
}

/// The tasks of the (`level` seeds, `potential`) group: every way to fill the first
/// `split` (1 or 2) houses, as the board so far, the seeds left and the weight left.
fn tasks(level: usize, potential: usize, split: usize) -> Vec<(Board, usize, usize)> {
    let mut tasks = Vec::new();
    for first in 0..=level {
        // The first house weighs 0.
        let board = Board(0).with_cell(0, first as u8);
        if split == 1 {
            tasks.push((board, level - first, potential));
            continue;
        }
        // The second house weighs 1.
        for second in 0..=(level - first).min(potential) {
            tasks.push((
                board.with_cell(1, second as u8),
                level - first - second,
                potential - second,
            ));
        }
    }
    tasks
}

/// Boards solved together. Their successors' numbers are computed first and their
/// values then loaded in one tight loop, so the misses to memory overlap instead of
/// each waiting for the one before.
const BATCH: usize = 64;

/// The enumeration of one (seeds, potential) group, filling the database as it goes,
/// [`BATCH`] boards at a time (the boards of a group do not depend on one another).
struct Group<'a> {
    shape: &'a Shape,
    db: &'a Endgame,
    board: Board,
    /// Boards enumerated and not yet solved.
    boards: [Board; BATCH],
    pending: usize,
    /// Their successors, board after board: the number, the mover's gain, whether the
    /// mover moves again.
    keys: [u64; BATCH * MAX_SOLVER_HOUSES],
    steps: [(i8, bool); BATCH * MAX_SOLVER_HOUSES],
    values: [i8; BATCH * MAX_SOLVER_HOUSES],
}

impl<'a> Group<'a> {
    fn new(shape: &'a Shape, db: &'a Endgame, board: Board) -> Group<'a> {
        Group {
            shape,
            db,
            board,
            boards: [Board(0); BATCH],
            pending: 0,
            keys: [0; BATCH * MAX_SOLVER_HOUSES],
            steps: [(0, false); BATCH * MAX_SOLVER_HOUSES],
            values: [0; BATCH * MAX_SOLVER_HOUSES],
        }
    }

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

    /// Queues the current board, solving the queue when it is full.
    fn solve(&mut self) {
        self.boards[self.pending] = self.board;
        self.pending += 1;
        if self.pending == BATCH {
            self.flush();
        }
    }

    /// Solves the queued boards from their successors, already in the database.
    fn flush(&mut self) {
        let shape = self.shape;
        let boards = &self.boards[..self.pending];
        // Every successor's number; board `n`'s successors are `first[n]..first[n + 1]`
        // (none for a board that is over, whose value is known).
        let mut over = [None; BATCH];
        let mut first = [0; BATCH + 1];
        let mut m = 0;
        for (n, &b) in boards.iter().enumerate() {
            over[n] = shape.terminal(b);
            if over[n].is_none() {
                for i in (0..shape.h).filter(|&i| b.cell(i) > 0) {
                    let step = shape.play(b, i);
                    let key = shape.key(step.board);
                    self.db.prefetch(key);
                    self.keys[m] = key;
                    self.steps[m] = (step.gain as i8, step.extra);
                    m += 1;
                }
            }
            first[n + 1] = m;
        }
        // Their values, loads that do not wait for one another.
        for (value, &key) in self.values[..m].iter_mut().zip(&self.keys[..m]) {
            *value = self.db.value(key) as i8;
        }
        // Each board's best move.
        for (n, &b) in boards.iter().enumerate() {
            let value = over[n].unwrap_or_else(|| {
                (first[n]..first[n + 1])
                    .map(|j| {
                        let (gain, extra) = self.steps[j];
                        let (gain, child) = (i32::from(gain), i32::from(self.values[j]));
                        if extra { gain + child } else { gain - child }
                    })
                    .max()
                    .expect("a board that is not over has a move")
            });
            self.db.values[shape.key(b) as usize].store(value as i8, Ordering::Relaxed);
        }
        self.pending = 0;
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
                step.gain_with(negamax(shape, step.board, memo))
            })
            .max()
            .unwrap();
        memo.insert(b.0, v);
        v
    }

    /// A database read back from its file has every value, and a file for other rules,
    /// or cut short, or too long, is refused.
    #[test]
    fn files_round_trip_and_are_checked() {
        let rules = Rules::kalah(3, 3);
        let shape = Shape::new(rules, 18).unwrap();
        let db = Endgame::build(&shape, 8, |_, _| {}, || false).unwrap();
        let mut file = Vec::new();
        db.write_to(&shape, &mut file).unwrap();
        assert_eq!(file.len(), 20 + db.bytes());

        let read = Endgame::read_from(&shape, 18, &file[..]).unwrap();
        assert_eq!(read.seeds(), 8);
        assert!((0..db.bytes() as u64).all(|k| read.value(k) == db.value(k)));
        // Fewer seeds kept: the first boards.
        let small = Endgame::read_from(&shape, 5, &file[..]).unwrap();
        assert_eq!(small.seeds(), 5);
        assert_eq!(small.bytes(), Endgame::bytes_for(6, 5).unwrap());
        assert!((0..small.bytes() as u64).all(|k| small.value(k) == db.value(k)));

        let other = Shape::new(
            rules.with_options(RuleOptions {
                empty_capture: true,
                end_rule: EndRule::MoverCannotMove,
            }),
            18,
        )
        .unwrap();
        let err = Endgame::read_from(&other, 18, &file[..]).err().unwrap();
        assert!(err.contains("another game (3 houses a side)"), "{err}");
        let err = Endgame::read_from(&shape, 18, &file[..file.len() - 1])
            .err()
            .unwrap();
        assert!(err.contains("cut short"), "{err}");
        let mut longer = file.clone();
        longer.push(0);
        assert!(Endgame::read_from(&shape, 18, &longer[..]).is_err());
        let err = Endgame::read_from(&shape, 18, &b"hello"[..]).err().unwrap();
        assert!(err.contains("too short"), "{err}");
        file[0] = b'X';
        let err = Endgame::read_from(&shape, 18, &file[..]).err().unwrap();
        assert!(err.contains("not an endgame database"), "{err}");
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
