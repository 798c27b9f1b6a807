//! The Oware solver: alpha-beta over whole positions with the path since the last
//! capture, so that the repetition rule is applied exactly.
//!
//! A position's value depends on the positions seen since the last capture (one of
//! them coming round again ends the game), so a table entry is only sound for a
//! position with no such history: one just reached by a capture, or the root of a
//! solve. The table keeps exactly those; everything between captures is searched
//! afresh, which is what limits this solver to small boards.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mancala_core::{Move, Position, Side};

/// Search state for one solve.
pub(crate) struct OwareSearch<'a> {
    pub table: HashMap<Position, (i32, i32)>,
    pub max_entries: usize,
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    pub aborted: bool,
}

/// Final margin for `side` from final scores.
pub(crate) fn margin_for(scores: [u16; 2], side: Side) -> i32 {
    let m = i32::from(scores[0]) - i32::from(scores[1]);
    if side == Side::South { m } else { -m }
}

/// Each player takes the seeds on their own row (the end by repetition).
pub(crate) fn rows_scores(p: &Position) -> [u16; 2] {
    let [a, b] = p.stores();
    [a + p.row_sum(Side::South), b + p.row_sum(Side::North)]
}

impl OwareSearch<'_> {
    /// Fail-soft negamax: `pos` is not over and is `path[path.len() - 1]`; the
    /// positions since the last capture are `path[seg..]`.
    pub fn search(
        &mut self,
        pos: &Position,
        path: &mut Vec<Position>,
        seg: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xFFFF == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
            return 0;
        }
        let me = pos.to_move();
        let diff = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        let s = i32::from(pos.seeds_in_play());
        let (mut lo, mut hi) = (diff - s, diff + s);
        let fresh = seg + 1 == path.len();
        if fresh {
            if let Some(&(l, h)) = self.table.get(pos) {
                lo = lo.max(l);
                hi = hi.min(h);
            }
        }
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let alpha0 = alpha;
        let mut best = i32::MIN;
        for mv in pos.legal_moves() {
            let v = self.child_value(pos, mv, path, seg, alpha, beta);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        if fresh && self.table.len() < self.max_entries {
            let (l, h) = if best <= alpha0 {
                (lo, best.min(hi))
            } else if best >= beta {
                (best.max(lo), hi)
            } else {
                (best, best)
            };
            self.table.insert(*pos, (l, h));
        }
        best
    }

    /// The value of playing `mv` in `pos`, for `pos`'s player to move.
    pub fn child_value(
        &mut self,
        pos: &Position,
        mv: Move,
        path: &mut Vec<Position>,
        seg: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let me = pos.to_move();
        let mut child = *pos;
        let report = child.play_unchecked(mv);
        if child.is_over() {
            return margin_for(child.final_scores(), me);
        }
        let seg = if report.captured > 0 {
            path.len()
        } else if path[seg..].contains(&child) {
            return margin_for(rows_scores(&child), me);
        } else {
            seg
        };
        path.push(child);
        let v = -self.search(&child, path, seg, -beta, -alpha);
        path.pop();
        v
    }
}
