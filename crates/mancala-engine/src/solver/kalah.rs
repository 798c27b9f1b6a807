//! The Kalah solver: negamax alpha-beta on the value still to be won, with exact
//! bounds in a shared table, driven by MTD(f) null-window tests.
//!
//! A position's *gain* is the final margin the player to move will still add to the
//! current store difference under perfect play: the stores only shift the score, so
//! the gain depends on the houses alone. With `S` seeds in play every seed ends in
//! someone's store, so the gain lies in `-S..=S` and has the parity of `S`. The board
//! is kept from the mover's point of view (their houses first), so a position and its
//! mirror image share one table entry.

use std::sync::atomic::{AtomicBool, AtomicI8, Ordering};
use std::time::Instant;

use mancala_core::{EndRule, MAX_HOUSES, Position, Rules, Side};

use super::table::{Bounds, NO_MOVE, Table};

/// The houses from the mover's point of view: the mover's in `0..h`, the opponent's in
/// `h..2h` (the opponent's house `i` at `h + i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    pub cells: [u8; 2 * MAX_HOUSES],
}

/// One move's effect: the board after it (from the next mover's side), what the mover
/// banked, and whether they move again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub board: Board,
    pub gain: i32,
    pub extra: bool,
}

/// The game-independent parts: board size, rules, position numbering.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub h: usize,
    pub empty_capture: bool,
    pub either_side_empty: bool,
    /// `comb[j * (max + 1) + p] = C(p + j, j + 1)`: the combinatorial number system
    /// over the bars between houses (see [`Shape::key`]).
    comb: Vec<u64>,
    max: usize,
}

impl Shape {
    /// The shape for `rules` and at most `max_seeds` seeds in play, or `None` when the
    /// position numbers would not fit 62 bits (or a house could overflow a byte).
    pub fn new(rules: Rules, max_seeds: usize) -> Option<Shape> {
        let h = rules.houses();
        if max_seeds > usize::from(u8::MAX) || positions_bound(2 * h, max_seeds)? >= 1 << 62 {
            return None;
        }
        let mut comb = vec![0u64; 2 * h * (max_seeds + 1)];
        for j in 0..2 * h {
            for p in 0..=max_seeds {
                comb[j * (max_seeds + 1) + p] = binomial((p + j) as u64, (j + 1) as u64)?;
            }
        }
        Some(Shape {
            h,
            empty_capture: rules.options().empty_capture,
            either_side_empty: rules.options().end_rule == EndRule::EitherSideEmpty,
            comb,
            max: max_seeds,
        })
    }

    /// Whether positions with `seeds` in play can be numbered by this shape.
    pub fn covers(&self, seeds: usize) -> bool {
        seeds <= self.max
    }

    /// The board of `pos` from the point of view of its player to move.
    pub fn board(&self, pos: &Position) -> Board {
        let me = pos.to_move();
        let mut cells = [0u8; 2 * MAX_HOUSES];
        for (i, &n) in pos.houses(me).iter().enumerate() {
            cells[i] = n as u8;
        }
        for (i, &n) in pos.houses(me.opponent()).iter().enumerate() {
            cells[self.h + i] = n as u8;
        }
        Board { cells }
    }

    /// An exact number for the board: the rank of the house counts among all boards
    /// with at most `max` seeds (bars of a stars-and-bars picture, ranked in the
    /// combinatorial number system). Distinct boards get distinct numbers.
    #[inline]
    pub fn key(&self, b: &Board) -> u64 {
        let mut prefix = 0usize;
        let mut key = 0u64;
        for (j, &c) in b.cells[..2 * self.h].iter().enumerate() {
            prefix += usize::from(c);
            key += self.comb[j * (self.max + 1) + prefix];
        }
        key
    }

    /// Plays house `i` (0-based, the mover's) on `b`.
    #[inline]
    pub fn play(&self, b: &Board, i: usize) -> Step {
        let h = self.h;
        let mut c = b.cells;
        let mut left = usize::from(c[i]);
        c[i] = 0;
        let lap = 2 * h + 1;
        let mut gain = 0i32;
        // Where the last seed lands: Some(house) on the mover's row, None elsewhere.
        let mut own_landing = Some(i);
        let mut extra = false;
        if left >= lap {
            let full = (left / lap) as u8;
            for x in &mut c[..2 * h] {
                *x += full;
            }
            gain += i32::from(full);
            left %= lap;
        }
        if left > 0 {
            let k = left.min(h - 1 - i);
            for x in &mut c[i + 1..i + 1 + k] {
                *x += 1;
            }
            left -= k;
            own_landing = Some(i + k);
            if left > 0 {
                gain += 1;
                left -= 1;
                own_landing = None;
                extra = true;
            }
            if left > 0 {
                let k = left.min(h);
                for x in &mut c[h..h + k] {
                    *x += 1;
                }
                left -= k;
                extra = false;
            }
            if left > 0 {
                for x in &mut c[..left] {
                    *x += 1;
                }
                own_landing = Some(left - 1);
            }
        }
        if let Some(j) = own_landing {
            if c[j] == 1 {
                let facing = 2 * h - 1 - j;
                if c[facing] > 0 || self.empty_capture {
                    gain += i32::from(c[facing]) + 1;
                    c[facing] = 0;
                    c[j] = 0;
                }
            }
        }
        if !extra {
            let (mine, theirs) = c.split_at_mut(h);
            mine.swap_with_slice(&mut theirs[..h]);
        }
        Step {
            board: Board { cells: c },
            gain,
            extra,
        }
    }

    /// The gain of `b` for its mover if the game is over there, else `None`.
    #[inline]
    pub fn terminal(&self, b: &Board) -> Option<i32> {
        let h = self.h;
        let mine: u32 = b.cells[..h].iter().map(|&c| u32::from(c)).sum();
        if mine == 0 || self.either_side_empty {
            let theirs: u32 = b.cells[h..2 * h].iter().map(|&c| u32::from(c)).sum();
            if mine == 0 || theirs == 0 {
                return Some(mine as i32 - theirs as i32);
            }
        }
        None
    }
}

/// `C(n, k)`, or `None` if it does not fit 64 bits.
fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
        if r > u128::from(u64::MAX) {
            return None;
        }
    }
    Some(r as u64)
}

/// How many boards of `cells` houses hold at most `seeds` seeds: `C(seeds + cells,
/// cells)`, an upper bound on the positions a solve can meet; `None` beyond 64 bits.
pub(crate) fn positions_bound(cells: usize, seeds: usize) -> Option<u64> {
    binomial((seeds + cells) as u64, cells as u64)
}

/// Exact values of every board with at most `seeds` seeds in play, filled in as the
/// search meets them (an endgame database built on demand): indexed by the same
/// position numbers as the table, which for boards of at most `seeds` seeds are
/// exactly `0..C(seeds + 2H, 2H)`.
pub(crate) struct Endgame {
    pub seeds: i32,
    values: Vec<AtomicI8>,
}

/// Enhanced transposition cut-offs are tried at nodes with at least this many seeds.
const ETC_SEEDS: i32 = 12;

/// Not computed yet.
const UNKNOWN: i8 = i8::MIN;

impl Endgame {
    /// A database for boards of `cells` houses with at most `seeds` seeds, or `None` if
    /// it would need more than `max_bytes`.
    pub fn new(cells: usize, seeds: usize, max_bytes: usize) -> Option<Endgame> {
        let n = usize::try_from(positions_bound(cells, seeds)?).ok()?;
        (n <= max_bytes && seeds <= 127).then(|| Endgame {
            seeds: seeds as i32,
            values: (0..n).map(|_| AtomicI8::new(UNKNOWN)).collect(),
        })
    }

    /// The largest seed count whose database fits `max_bytes` (at most `limit`).
    pub fn seeds_for(cells: usize, max_bytes: usize, limit: usize) -> usize {
        (0..=limit.min(127))
            .take_while(|&k| positions_bound(cells, k).is_some_and(|n| n as usize <= max_bytes))
            .last()
            .unwrap_or(0)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }
}

/// What the search shares with its caller: the table, the stop flag, the clock.
pub(crate) struct KalahSearch<'a> {
    pub shape: &'a Shape,
    pub table: &'a Table,
    pub endgame: Option<&'a Endgame>,
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    pub aborted: bool,
}

impl KalahSearch<'_> {
    /// The exact gain of `b` (not over) with `seeds` seeds in play, by MTD(f) from
    /// `guess`; `None` if stopped.
    pub fn solve(
        &mut self,
        b: &Board,
        seeds: i32,
        guess: i32,
        mut report: impl FnMut(i32, i32, u64),
    ) -> Option<i32> {
        let (mut lo, mut hi) = (-seeds, seeds);
        if let Some(e) = self.table.probe(self.shape.key(b)) {
            lo = lo.max(i32::from(e.lo));
            hi = hi.min(i32::from(e.hi));
        }
        let mut g = guess.clamp(lo, hi);
        while lo < hi {
            // Test "gain >= beta" for a beta of the right parity strictly inside (lo, hi].
            let mut beta = if g <= lo { lo + 1 } else { g };
            if (beta - seeds).rem_euclid(2) != 0 {
                beta += 1;
            }
            let beta = beta.min(hi);
            let v = self.search(b, seeds, beta - 1, beta);
            if self.aborted {
                return None;
            }
            if v >= beta {
                lo = v;
            } else {
                hi = v;
            }
            g = v;
            report(lo, hi, self.nodes);
        }
        Some(lo)
    }

    /// Fail-soft negamax alpha-beta: the gain of `b` (not over) if inside
    /// `(alpha, beta)`, else a bound on the far side of the window.
    pub fn search(&mut self, b: &Board, seeds: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xFFFF == 0 && self.should_stop() {
            self.aborted = true;
            return 0;
        }
        if let Some(db) = self.endgame {
            if seeds <= db.seeds {
                return self.exact(db, b);
            }
        }
        // Every seed still in play ends in a store: the gain is within -seeds..=seeds.
        if beta <= -seeds {
            return -seeds;
        }
        if alpha >= seeds {
            return seeds;
        }
        let shape = self.shape;
        let key = shape.key(b);
        let mut tt_move = NO_MOVE;
        let (mut lo, mut hi) = (-seeds, seeds);
        if let Some(e) = self.table.probe(key) {
            lo = lo.max(i32::from(e.lo));
            hi = hi.min(i32::from(e.hi));
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            if lo == hi {
                return lo;
            }
            tt_move = e.mv;
        }
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);
        let (alpha0, beta0) = (alpha, beta);
        let start_nodes = self.nodes;

        // Children, ordered: the table's move, extra turns (nearest the store first),
        // captures by size, then the rest from the store backwards.
        let h = shape.h;
        let mut kids: [(Step, u8, i32); MAX_HOUSES] = [(
            Step {
                board: *b,
                gain: 0,
                extra: false,
            },
            0,
            0,
        ); MAX_HOUSES];
        let mut n = 0;
        for i in (0..h).rev() {
            if b.cells[i] == 0 {
                continue;
            }
            let step = shape.play(b, i);
            let order = if i as u8 == tt_move {
                1 << 20
            } else if step.extra {
                1 << 16
            } else {
                (step.gain << 8) - i as i32
            };
            let mut k = n;
            while k > 0 && kids[k - 1].2 < order {
                kids[k] = kids[k - 1];
                k -= 1;
            }
            kids[k] = (step, i as u8, order);
            n += 1;
        }

        // Enhanced transposition cut-off: a child whose stored bound already refutes
        // the window ends the search before any child is searched.
        if seeds >= ETC_SEEDS {
            for &(step, mv, _) in &kids[..n] {
                if shape.terminal(&step.board).is_some() {
                    continue;
                }
                if let Some(e) = self.table.probe(shape.key(&step.board)) {
                    let at_least = if step.extra {
                        step.gain + i32::from(e.lo)
                    } else {
                        step.gain - i32::from(e.hi)
                    };
                    if at_least >= beta {
                        self.table.store(
                            key,
                            Bounds {
                                lo: at_least.max(lo) as i16,
                                hi: hi as i16,
                                mv,
                                work: 0,
                            },
                        );
                        return at_least;
                    }
                }
            }
        }

        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        for &(step, mv, _) in &kids[..n] {
            let v = match shape.terminal(&step.board) {
                Some(t) if step.extra => step.gain + t,
                Some(t) => step.gain - t,
                None => {
                    let rest = seeds - step.gain;
                    if step.extra {
                        step.gain
                            + self.search(&step.board, rest, alpha - step.gain, beta - step.gain)
                    } else {
                        step.gain
                            - self.search(&step.board, rest, step.gain - beta, step.gain - alpha)
                    }
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let (new_lo, new_hi) = if best <= alpha0 {
            (-seeds, best)
        } else if best >= beta0 {
            (best, seeds)
        } else {
            (best, best)
        };
        let work = (64 - (self.nodes - start_nodes).leading_zeros()) as u8;
        self.table.store(
            key,
            Bounds {
                lo: new_lo.max(lo) as i16,
                hi: new_hi.min(hi) as i16,
                mv: if best > alpha0 { best_move } else { NO_MOVE },
                work,
            },
        );
        best
    }

    /// The exact gain of `b` (not over) from the endgame database, computing it (and
    /// everything it needs) on the first visit.
    fn exact(&mut self, db: &Endgame, b: &Board) -> i32 {
        let slot = &db.values[self.shape.key(b) as usize];
        let known = slot.load(Ordering::Relaxed);
        if known != UNKNOWN {
            return i32::from(known);
        }
        self.nodes += 1;
        let shape = self.shape;
        let mut best = i32::MIN;
        for i in 0..shape.h {
            if b.cells[i] == 0 {
                continue;
            }
            let step = shape.play(b, i);
            let child = match shape.terminal(&step.board) {
                Some(t) => t,
                None => self.exact(db, &step.board),
            };
            best = best.max(if step.extra {
                step.gain + child
            } else {
                step.gain - child
            });
        }
        slot.store(best as i8, Ordering::Relaxed);
        best
    }

    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The side to move's sign: +1 for player 1, -1 for player 2.
pub(crate) fn sign(side: Side) -> i32 {
    match side {
        Side::South => 1,
        Side::North => -1,
    }
}
