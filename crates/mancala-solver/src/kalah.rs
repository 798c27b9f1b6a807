//! The Kalah solver: negamax alpha-beta on the value still to be won, with exact
//! bounds in a shared table, driven by MTD(f) null-window tests.
//!
//! A position's *gain* is the final margin the player to move will still add to the
//! current store difference under perfect play: the stores only shift the score, so
//! the gain depends on the houses alone. With `S` seeds in play every seed ends in
//! someone's store, so the gain lies in `-S..=S` and has the parity of `S`. The board
//! is kept from the mover's point of view (their houses first), so a position and its
//! mirror image share one table entry.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mancala_core::Side;

use crate::board::{Board, MAX_SOLVER_HOUSES, Shape, Step};
use crate::busy::Busy;
use crate::endgame::Endgame;
use crate::table::{Bounds, NO_MOVE, Table};

/// Positions with fewer than this many seeds more than the endgame database holds are
/// neither looked up in the table nor stored there. Most nodes lie just above the
/// database, and a table probe there is a miss to main memory that costs more than
/// searching the position again (its banking moves are database lookups). 1
/// (everything tabled) searched the fewest nodes but took the longest; 2 and 3 took
/// the same time, 3 with a quarter more nodes (docs/solver.md).
const TABLE_ABOVE_DATABASE: i32 = 2;

/// A child of a searched position, in the order it is tried.
#[derive(Clone, Copy)]
struct Kid {
    step: Step,
    /// The house played.
    mv: u8,
    /// Higher first: the table's move, extra turns, then the seeds banked.
    order: i32,
    known: Known,
}

/// The passes of a search over a position's children.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// The children whose gain is known without a search.
    Known,
    /// The others, but for those another thread is searching...
    Search,
    /// ... which come last.
    Deferred,
}

/// Not a position number: marks a child the table does not hold.
const NOT_TABLED: u64 = u64::MAX;

/// Whether a child's gain is known without searching it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    /// The game is over: this is the gain.
    Over(i32),
    /// The endgame database holds the board under this number.
    Database(u64),
    /// It must be searched.
    No,
}

/// What the search shares with its caller: the table, the stop flag, the clock.
pub(crate) struct KalahSearch<'a> {
    pub shape: &'a Shape,
    pub table: &'a Table,
    /// The positions threads are searching now (shared, like the table).
    pub busy: &'a Busy,
    pub endgame: Option<&'a Endgame>,
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    /// A second reason to stop: another thread has finished the same problem.
    pub finished: Option<&'a AtomicBool>,
    pub aborted: bool,
}

impl KalahSearch<'_> {
    /// The exact gain of `b` (not over) with `seeds` seeds in play, by MTD(f) from
    /// `guess`; `None` if stopped.
    pub fn solve(
        &mut self,
        b: Board,
        seeds: i32,
        guess: i32,
        mut report: impl FnMut(i32, i32, u64),
    ) -> Option<i32> {
        let (mut lo, mut hi) = (-seeds, seeds);
        let mut g = guess;
        while lo < hi {
            // What the table knows, including what another thread has proved meanwhile.
            if let Some(e) = self.table.probe(self.shape.key(b)) {
                lo = lo.max(i32::from(e.lo));
                hi = hi.min(i32::from(e.hi));
                if lo >= hi {
                    break;
                }
            }
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
    pub fn search(&mut self, b: Board, seeds: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xFFFF == 0 && self.should_stop() {
            self.aborted = true;
            return 0;
        }
        if let Some(v) = self.database_value(b, seeds) {
            return v;
        }
        // Every seed still in play ends in a store: the gain is within -seeds..=seeds.
        if beta <= -seeds {
            return -seeds;
        }
        if alpha >= seeds {
            return seeds;
        }
        let shape = self.shape;
        let mut tt_move = NO_MOVE;
        let (mut lo, mut hi) = (-seeds, seeds);
        let db_seeds = self.endgame.map_or(0, Endgame::seeds);
        // The position's number, only for a position the table holds.
        let tabled = |seeds: i32| seeds >= db_seeds + TABLE_ABOVE_DATABASE;
        let key = tabled(seeds).then(|| shape.key(b));
        if let Some(key) = key {
            self.table.prefetch(key);
        }

        // The children, generated while the table entry is on its way.
        let h = shape.h;
        let empty = Kid {
            step: Step {
                board: b,
                gain: 0,
                extra: false,
            },
            mv: NO_MOVE,
            order: 0,
            known: Known::No,
        };
        let mut kids = [empty; MAX_SOLVER_HOUSES];
        let mut n = 0;
        for i in (0..h).rev() {
            if b.cell(i) == 0 {
                continue;
            }
            let step = shape.play(b, i);
            kids[n] = Kid {
                step,
                mv: i as u8,
                order: if step.extra { i32::MAX - 1 } else { step.gain },
                known: self.known(step.board, seeds - step.gain),
            };
            n += 1;
        }

        if let Some(e) = key.and_then(|key| self.table.probe(key)) {
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

        // Children, ordered: the table's move, extra turns, captures by size, then the
        // rest; ties nearest the store first (the order generated, which the stable
        // insertion sort keeps). (Farthest first, as this once did by mistake, takes
        // several times the nodes; docs/solver.md, "Move ordering".)
        let kids = &mut kids[..n];
        if let Some(kid) = kids.iter_mut().find(|kid| kid.mv == tt_move) {
            kid.order = i32::MAX;
        }
        for k in 1..n {
            let mut j = k;
            while j > 0 && kids[j - 1].order < kids[j].order {
                kids.swap(j - 1, j);
                j -= 1;
            }
        }
        // The first child to be searched is probed right after the database lookups:
        // start loading its table entry now, so that they overlap.
        if let Some(first) = kids.iter().find(|kid| kid.known == Known::No) {
            if tabled(seeds - first.step.gain) {
                self.table.prefetch(shape.key(first.step.board));
            }
        }
        if let Some(key) = key {
            self.busy.enter(key);
        }

        // Three passes over the children in that order: first those whose value is
        // known exactly (the game is over, or the board is in the database), a lookup
        // each, any of which may cut before anything is searched; then the others,
        // except that once the first child searched has failed to cut, a child another
        // thread is searching is left for the third pass.
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        // The numbers of the children after the first searched, once it failed to cut
        // (`NOT_TABLED` for a child the table does not hold).
        let mut later_keys: Option<[u64; MAX_SOLVER_HOUSES]> = None;
        let mut deferred = 0u32;
        'passes: for pass in [Pass::Known, Pass::Search, Pass::Deferred] {
            for (k, kid) in kids.iter().enumerate() {
                let step = kid.step;
                let v = match (pass, kid.known) {
                    (Pass::Known, Known::Over(child)) => step.gain_with(child),
                    (Pass::Known, Known::Database(key)) => {
                        self.nodes += 1;
                        let db = self.endgame.expect("a database child has a database");
                        step.gain_with(db.value(key))
                    }
                    (Pass::Search | Pass::Deferred, Known::No) => {
                        if pass == Pass::Deferred && deferred & 1 << k == 0 {
                            continue;
                        }
                        if pass == Pass::Search
                            && later_keys.is_some_and(|keys| {
                                keys[k] != NOT_TABLED && self.busy.contains(keys[k])
                            })
                        {
                            deferred |= 1 << k;
                            continue;
                        }
                        let rest = seeds - step.gain;
                        let v = if step.extra {
                            step.gain
                                + self.search(step.board, rest, alpha - step.gain, beta - step.gain)
                        } else {
                            step.gain
                                - self.search(step.board, rest, step.gain - beta, step.gain - alpha)
                        };
                        if self.aborted {
                            break 'passes;
                        }
                        if later_keys.is_none() && v <= alpha {
                            // The first child searched did not cut: likely every child
                            // will be searched, so start loading their entries now.
                            let mut keys = [NOT_TABLED; MAX_SOLVER_HOUSES];
                            for (j, later) in kids.iter().enumerate().skip(k + 1) {
                                if later.known == Known::No && tabled(seeds - later.step.gain) {
                                    keys[j] = shape.key(later.step.board);
                                    self.table.prefetch(keys[j]);
                                }
                            }
                            later_keys = Some(keys);
                        }
                        v
                    }
                    _ => continue,
                };
                if v > best {
                    best = v;
                    best_move = kid.mv;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break 'passes;
                        }
                    }
                }
            }
        }
        if let Some(key) = key {
            self.busy.leave(key);
        }
        if self.aborted {
            return 0;
        }

        let (new_lo, new_hi) = if best <= alpha0 {
            (-seeds, best)
        } else if best >= beta0 {
            (best, seeds)
        } else {
            (best, best)
        };
        if let Some(key) = key {
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
        }
        best
    }

    /// Whether the gain of `b` (with `seeds` in play) is known without a search: the
    /// game is over, or the board is in the endgame database, whose value is then
    /// requested from memory.
    #[inline]
    fn known(&self, b: Board, seeds: i32) -> Known {
        if let Some(t) = self.shape.terminal(b) {
            return Known::Over(t);
        }
        match self.database(seeds) {
            Some(db) => {
                let key = self.shape.key(b);
                db.prefetch(key);
                Known::Database(key)
            }
            None => Known::No,
        }
    }

    /// The endgame database, if it holds boards of `seeds` seeds.
    #[inline]
    fn database(&self, seeds: i32) -> Option<&Endgame> {
        self.endgame.filter(|db| seeds <= db.seeds())
    }

    /// The gain of `b` from the endgame database, if it holds boards of `seeds` seeds.
    #[inline]
    fn database_value(&self, b: Board, seeds: i32) -> Option<i32> {
        Some(self.database(seeds)?.value(self.shape.key(b)))
    }

    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.finished.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The side to move's sign: +1 for player 1, -1 for player 2.
pub(crate) fn sign(side: Side) -> i32 {
    match side {
        Side::South => 1,
        Side::North => -1,
    }
}
