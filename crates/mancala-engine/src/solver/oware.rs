//! The Oware solver: alpha-beta over whole positions with the path since the last
//! capture, so that the repetition rule is applied exactly.
//!
//! A position's value depends on the positions seen since the last capture (one of
//! them coming round again ends the game), but only on those it can reach again: the
//! ones in its strongly connected set of the capture-free move graph ([`Components`]).
//! A path that leaves such a set never comes back to it, so the positions before are
//! history that no longer matters. A table entry is therefore sound for a position
//! with none of its own set behind it on the path: one just reached by a capture or
//! by leaving a set, or the root of a solve. The table keeps exactly those; the path
//! inside one set is searched afresh, which is what limits this solver to small
//! boards.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mancala_core::{MAX_HOUSES, Move, Position, Side};

use super::OWARE_MAX_PATH;
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// The strongly connected sets of Oware's capture-free move graph, found as the search
/// reaches them: positions are joined by a move that neither captures nor ends the
/// game. Such moves keep the stores, so a set is a property of the board and the
/// player to move alone.
///
/// Once a capture-free graph proves too large to explore, the sets are given up for
/// good: every position then counts as possibly in the same set as the next, which
/// is sound (the whole history since the last capture is kept) and only slower.
pub(crate) struct Components {
    ids: HashMap<u128, u32>,
    next: u32,
    given_up: bool,
    /// Most positions one exploration may visit.
    limit: usize,
}

impl Default for Components {
    fn default() -> Components {
        Components {
            ids: HashMap::new(),
            next: 0,
            given_up: false,
            limit: MAX_EXPLORED,
        }
    }
}

/// Most positions one exploration of the capture-free graph may visit (about 100 MiB
/// while it runs).
const MAX_EXPLORED: usize = 1 << 20;

impl Components {
    /// The set of `p` (not over), or `None` when it is not known: the board does not
    /// fit the key, or a capture-free graph was too large to explore.
    pub fn of(&mut self, p: &Position) -> Option<u32> {
        if self.given_up {
            return None;
        }
        let key = board_key(p)?;
        match self.ids.get(&key) {
            Some(&id) => Some(id),
            None => self.explore(p, key),
        }
    }

    /// Memory held, about: a key, a number and the hash map's overhead a position.
    pub fn bytes(&self) -> usize {
        self.ids.capacity() * 32
    }

    /// Explores the capture-free graph from `start` (up to the positions whose set is
    /// already known: everything they reach is known too) and numbers its sets; `None`
    /// (and the sets given up) if it is too large.
    fn explore(&mut self, start: &Position, start_key: u128) -> Option<u32> {
        let mut graph = DiGraph::<u128, ()>::new();
        let mut index: HashMap<u128, NodeIndex> = HashMap::new();
        let mut todo = vec![(*start, graph.add_node(start_key))];
        index.insert(start_key, todo[0].1);
        while let Some((p, from)) = todo.pop() {
            for mv in p.legal_moves() {
                let mut child = p;
                let report = child.play_unchecked(mv);
                if report.captured > 0 || child.is_over() {
                    continue;
                }
                let Some(key) = board_key(&child) else {
                    continue;
                };
                if self.ids.contains_key(&key) {
                    continue;
                }
                let to = match index.entry(key) {
                    Entry::Occupied(e) => *e.get(),
                    Entry::Vacant(e) => {
                        if graph.node_count() >= self.limit {
                            self.given_up = true;
                            self.ids = HashMap::new();
                            return None;
                        }
                        let to = *e.insert(graph.add_node(key));
                        todo.push((child, to));
                        to
                    }
                };
                graph.add_edge(from, to, ());
            }
        }
        for set in tarjan_scc(&graph) {
            for node in set {
                self.ids.insert(graph[node], self.next);
            }
            self.next += 1;
        }
        Some(self.ids[&start_key])
    }
}

/// The board and the player to move in one number (a byte a house), if it fits.
fn board_key(p: &Position) -> Option<u128> {
    let h = p.houses_per_side();
    if 16 * h + 1 > 128 {
        return None;
    }
    let mut key = p.to_move().index() as u128;
    for side in [Side::South, Side::North] {
        for &c in p.houses(side) {
            key = key << 8 | u128::from(u8::try_from(c).ok()?);
        }
    }
    Some(key)
}

/// Search state for one solve.
pub(crate) struct OwareSearch<'a> {
    pub table: HashMap<Position, (i32, i32)>,
    pub components: &'a mut Components,
    pub max_entries: usize,
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    pub aborted: bool,
    /// Set (with `aborted`) when the path grew past [`OWARE_MAX_PATH`].
    pub too_deep: bool,
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
    /// Fail-soft negamax: `pos` is not over, is `path[path.len() - 1]` and is in the
    /// strongly connected set `set` (`None`: not known); the positions since the last
    /// capture in that set are `path[seg..]`.
    pub fn search(
        &mut self,
        pos: &Position,
        set: Option<u32>,
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
        if path.len() > OWARE_MAX_PATH {
            self.aborted = true;
            self.too_deep = true;
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
        // Captures first, the largest first: on Oware(3,1) this takes the solve from
        // 16 M nodes to 2 thousand, and it is what makes (3,2) solvable.
        let legal = pos.legal_moves();
        let mut moves = [(Move::from_index(0), 0u16); MAX_HOUSES];
        for (k, &mv) in legal.iter().enumerate() {
            let captured = { *pos }.play_unchecked(mv).captured;
            let mut j = k;
            while j > 0 && moves[j - 1].1 < captured {
                moves[j] = moves[j - 1];
                j -= 1;
            }
            moves[j] = (mv, captured);
        }
        for &(mv, _) in &moves[..legal.len()] {
            let v = self.child_value(pos, set, mv, path, seg, alpha, beta);
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

    /// The value of playing `mv` in `pos` (in the set `set`), for `pos`'s player to
    /// move.
    #[allow(clippy::too_many_arguments)]
    pub fn child_value(
        &mut self,
        pos: &Position,
        set: Option<u32>,
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
        let child_set = self.components.of(&child);
        let seg = if report.captured > 0 || !may_share(set, child_set) {
            path.len()
        } else if path[seg..].contains(&child) {
            return margin_for(rows_scores(&child), me);
        } else {
            seg
        };
        path.push(child);
        let v = -self.search(&child, child_set, path, seg, -beta, -alpha);
        path.pop();
        v
    }

    /// Whether `a` and `b` (neither over) may be in the same strongly connected set:
    /// `false` only when they are known not to be.
    pub fn same_set(&mut self, a: &Position, b: &Position) -> bool {
        may_share(self.components.of(a), self.components.of(b))
    }
}

/// Whether positions of the sets `a` and `b` (`None`: not known) may be in one set.
fn may_share(a: Option<u32>, b: Option<u32>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use mancala_core::Rules;

    use super::*;

    /// The positions reachable from `p` by moves that neither capture nor end the game.
    fn capture_free_reach(p: &Position) -> HashSet<Position> {
        let mut seen = HashSet::from([*p]);
        let mut todo = vec![*p];
        while let Some(q) = todo.pop() {
            for mv in q.legal_moves() {
                let mut c = q;
                if c.play_unchecked(mv).captured == 0 && !c.is_over() && seen.insert(c) {
                    todo.push(c);
                }
            }
        }
        seen
    }

    #[test]
    fn a_move_stays_in_a_set_exactly_when_it_can_come_back() {
        for rules in [Rules::oware(2, 3), Rules::oware(3, 1), Rules::oware(3, 2)] {
            let mut sets = Components::default();
            let mut p = Position::new(rules);
            for k in 0..40 {
                if p.is_over() {
                    break;
                }
                let set = sets.of(&p).expect("small boards are explored");
                for mv in p.legal_moves() {
                    let mut c = p;
                    if c.play_unchecked(mv).captured > 0 || c.is_over() {
                        continue;
                    }
                    let back = capture_free_reach(&c).contains(&p);
                    assert_eq!(sets.of(&c) == Some(set), back, "{rules} {p:?} {mv}");
                }
                let moves = p.legal_moves();
                p.play_unchecked(moves[k * 5 % moves.len()]);
            }
        }
    }

    #[test]
    fn a_graph_too_large_gives_the_sets_up_for_good() {
        let mut sets = Components {
            limit: 10,
            ..Components::default()
        };
        let start = Position::new(Rules::oware(3, 3));
        assert_eq!(sets.of(&start), None);
        let small = Position::new(Rules::oware(1, 1));
        assert_eq!(sets.of(&small), None, "given up, even for a small graph");
        assert!(Components::default().of(&small).is_some());
    }
}
