//! The Oware solver: every position reachable from the root, solved from the end of
//! the game backwards one strongly connected set of capture-free moves at a time.
//!
//! Oware's repetition rule ends the game when a position (board and player to move)
//! comes round again since the last capture, each player taking the seeds on their
//! own row. So a position's value depends on the positions before it, but only on the
//! ones it can reach again: those of its strongly connected set (its *set*) in the
//! graph of moves that neither capture nor end the game. A capture, or a move out of
//! the set, leaves everything before behind for good. Every position therefore has a
//! *fresh* value, its value when reached that way, and the sets are solved children
//! first (the order petgraph's `kosaraju_scc`, which needs no deep stack, gives them
//! in): a move that leaves a set leads to a fresh value already known.
//!
//! Inside a set the value of a position reached from outside is found by alpha-beta
//! over paths, marking the positions on the path: a move to one of them ends the game.
//! What makes that fast are bounds that hold whatever the history ([`SetBounds`]):
//! Oware(3,3)'s largest set has 21,808 positions and paths through it hundreds of
//! moves long, yet the bounds cut those paths short (docs/solver.md, "Oware (3,3):
//! solved"). Where the bounds are loose the paths are still searched afresh, which is
//! why Oware(5,1), with a set of 155,386 positions, is out of reach.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use indexmap::IndexSet;
use mancala_core::{Move, Outcome, Position, Side};
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use crate::answer::Progress;
use crate::config::OWARE_MAX_PATH;
use crate::error::SolveError;
use crate::owtable::OwareTable;

/// Memory one reachable position takes while solving, about: the position and its
/// hash, its moves, its value and set, and the graph petgraph numbers the sets of.
pub(crate) const BYTES_PER_POSITION: usize = size_of::<Position>() + 120;

/// The margin for player 1 of `p`, over.
fn final_margin(p: &Position) -> i32 {
    p.outcome().expect("the game is over").margin()
}

/// The margin for player 1 when the game ends by repetition at `p`: each player takes
/// the seeds on their own row.
fn repetition_margin(p: &Position) -> i32 {
    Outcome::from_scores(p.stores_plus_rows()).margin()
}

/// Why a solve stopped early.
enum Stopped {
    OutOfTime,
    TooDeep,
}

/// When to give up: the deadline and the stop flag.
pub(crate) struct Budget<'a> {
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    /// The most memory the solve may use.
    pub memory_bytes: usize,
    /// Exact values of positions with few seeds on the board: a position it holds is
    /// not explored further when it is reached by a capture (its fresh value) or its
    /// value holds whatever the history.
    pub table: Option<&'a OwareTable>,
}

impl Budget<'_> {
    /// The most positions the root may reach.
    fn max_positions(&self) -> usize {
        self.memory_bytes / BYTES_PER_POSITION
    }

    fn expired(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The positions reachable from a root and their moves, numbered from 0 (the root).
struct Reachable {
    /// The positions, each with its number: its place in the set.
    positions: IndexSet<Position>,
    /// The children of position `v` are `children[first[v]..first[v + 1]]`, in the
    /// order of its legal moves.
    first: Vec<u32>,
    children: Vec<u32>,
    /// Values read from the table ([`Budget::table`]): such a position has no children.
    known: Vec<Option<i32>>,
}

impl Reachable {
    fn explore(
        root: &Position,
        history: &[Position],
        limits: &Budget,
    ) -> Result<Reachable, SolveError> {
        Reachable::explore_with(root, history, limits, true)
    }

    /// Every position reachable from `root`, taking the table's fresh values for the
    /// positions reached by a capture if `fresh_leaves` (tried first, and given up if
    /// one of them is also reached without a capture).
    fn explore_with(
        root: &Position,
        history: &[Position],
        limits: &Budget,
        fresh_leaves: bool,
    ) -> Result<Reachable, SolveError> {
        let mut by_fresh = vec![false];
        let mut r = Reachable {
            positions: IndexSet::from([*root]),
            first: vec![0],
            children: Vec::new(),
            known: vec![None],
        };
        let mut v = 0;
        while v < r.positions.len() {
            if v % 4096 == 0 && limits.expired() {
                return Err(SolveError::OutOfTime);
            }
            let p = r.positions[v];
            if !p.is_over() && r.known[v].is_none() {
                for mv in p.legal_moves() {
                    let mut child = p;
                    child.play_unchecked(mv);
                    let (id, new) = r.positions.insert_full(child);
                    let capture = child.stores() != p.stores();
                    if new {
                        let table = limits.table;
                        let settled = table
                            .filter(|_| !history.contains(&child) && child != *root)
                            .and_then(|t| t.settled_margin(&child));
                        let fresh = table
                            .filter(|_| capture && fresh_leaves && settled.is_none())
                            .and_then(|t| t.fresh_margin(&child));
                        r.known.push(settled.or(fresh));
                        by_fresh.push(fresh.is_some());
                    } else if !capture && by_fresh[id] {
                        // Reached without a capture too: its value is not the fresh one.
                        return Reachable::explore_with(root, history, limits, false);
                    }
                    if new && id >= limits.max_positions() {
                        return Err(SolveError::TooLarge(format!(
                            "this Oware position reaches more than {} positions, more than \
                             the {} MiB allowed hold; allow more memory or solve a position \
                             with fewer seeds in play",
                            limits.max_positions(),
                            limits.memory_bytes >> 20
                        )));
                    }
                    r.children.push(id as u32);
                }
            }
            r.first.push(r.children.len() as u32);
            v += 1;
        }
        Ok(r)
    }

    fn children(&self, v: usize) -> &[u32] {
        &self.children[self.first[v] as usize..self.first[v + 1] as usize]
    }

    /// The strongly connected sets, children first, and each position's set.
    fn sets(&self) -> (Vec<Vec<u32>>, Vec<u32>) {
        let n = self.positions.len();
        let mut graph = DiGraph::<(), ()>::with_capacity(n, self.children.len());
        for _ in 0..n {
            graph.add_node(());
        }
        for v in 0..n {
            for &c in self.children(v) {
                graph.add_edge(NodeIndex::new(v), NodeIndex::new(c as usize), ());
            }
        }
        let sets: Vec<Vec<u32>> = kosaraju_scc(&graph)
            .into_iter()
            .map(|set| set.into_iter().map(|v| v.index() as u32).collect())
            .collect();
        let mut set_of = vec![0; n];
        for (k, set) in sets.iter().enumerate() {
            for &v in set {
                set_of[v as usize] = k as u32;
            }
        }
        (sets, set_of)
    }
}

/// One strongly connected set, ready to search: its positions numbered locally, the
/// moves that stay inside it, and the best move out of it for the player to move.
struct SetSearch<'a> {
    /// The local number of each position of the set, by its number in [`Reachable`].
    local: HashMap<u32, u32>,
    /// Player 1 is to move.
    south: Vec<bool>,
    /// The moves that stay in the set: `inner[first[v]..first[v + 1]]`, best first by
    /// the bounds.
    first: Vec<u32>,
    inner: Vec<u32>,
    /// The best value for the player to move among the moves that leave the set (a
    /// capture, the end of the game, or another set), if any.
    exit: Vec<Option<i32>>,
    /// The value if the game ends by repetition on arriving at the position.
    repetition: Vec<i32>,
    /// Bounds on the value that hold whatever the history ([`SetBounds`]).
    lower: Vec<i32>,
    upper: Vec<i32>,
    /// On the path.
    on_path: Vec<bool>,
    /// The move that cut last time, tried first.
    hint: Vec<u8>,
    depth: usize,
    nodes: u64,
    limits: &'a Budget<'a>,
    stopped: Option<Stopped>,
}

impl<'a> SetSearch<'a> {
    /// The set `set` of `r`, whose moves out lead to positions of known fresh value.
    fn new(
        r: &Reachable,
        set: &[u32],
        set_of: &[u32],
        fresh: &[i32],
        limits: &'a Budget<'a>,
    ) -> Self {
        let id = set_of[set[0] as usize];
        let local: HashMap<u32, u32> = set
            .iter()
            .enumerate()
            .map(|(k, &v)| (v, k as u32))
            .collect();
        let m = set.len();
        let mut s = SetSearch {
            local,
            south: Vec::with_capacity(m),
            first: vec![0],
            inner: Vec::new(),
            exit: Vec::with_capacity(m),
            repetition: Vec::with_capacity(m),
            lower: Vec::new(),
            upper: Vec::new(),
            on_path: vec![false; m],
            hint: vec![0; m],
            depth: 0,
            nodes: 0,
            limits,
            stopped: None,
        };
        for &v in set {
            let p = &r.positions[v as usize];
            let south = p.to_move() == Side::South;
            let mut exit: Option<i32> = None;
            for &c in r.children(v as usize) {
                if set_of[c as usize] == id {
                    s.inner.push(s.local[&c]);
                } else {
                    let x = fresh[c as usize];
                    exit = Some(exit.map_or(x, |e| if south { e.max(x) } else { e.min(x) }));
                }
            }
            s.first.push(s.inner.len() as u32);
            s.south.push(south);
            s.exit.push(exit);
            s.repetition.push(repetition_margin(p));
        }
        let bounds = SetBounds::new(&s);
        s.lower = bounds.lower;
        s.upper = bounds.upper;
        // Best first: by the middle of the child's bounds, for the player to move.
        let (lower, upper) = (&s.lower, &s.upper);
        for v in 0..m {
            let middle = |u: &u32| {
                let mid = lower[*u as usize] + upper[*u as usize];
                if s.south[v] { -mid } else { mid }
            };
            s.inner[s.first[v] as usize..s.first[v + 1] as usize].sort_by_key(middle);
        }
        s
    }

    fn inner(&self, v: usize) -> std::ops::Range<usize> {
        self.first[v] as usize..self.first[v + 1] as usize
    }

    /// The value for player 1 of a move to `u`, a position of the set: the end by
    /// repetition if `u` is on the path, else [`SetSearch::search`].
    fn arrive(&mut self, u: usize, alpha: i32, beta: i32) -> i32 {
        if self.on_path[u] {
            self.repetition[u]
        } else {
            self.search(u, alpha, beta)
        }
    }

    /// The value for player 1 of `v`, reached by a move from the end of the path
    /// (which does not hold `v`): fail-soft alpha-beta.
    fn search(&mut self, v: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xFFFF == 0 && self.limits.expired() {
            self.stopped = Some(Stopped::OutOfTime);
            return 0;
        }
        let (lower, upper) = (self.lower[v], self.upper[v]);
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        if self.depth >= OWARE_MAX_PATH {
            self.stopped = Some(Stopped::TooDeep);
            return 0;
        }
        let south = self.south[v];
        let mut best = if south { i32::MIN } else { i32::MAX };
        let mut take = |x: i32, alpha: &mut i32, beta: &mut i32| {
            if south {
                best = best.max(x);
                *alpha = (*alpha).max(x);
            } else {
                best = best.min(x);
                *beta = (*beta).min(x);
            }
            *alpha >= *beta
        };
        let mut cut = self.exit[v].is_some_and(|x| take(x, &mut alpha, &mut beta));
        if !cut {
            self.on_path[v] = true;
            self.depth += 1;
            let range = self.inner(v);
            let start = range.start;
            let hint = start + usize::from(self.hint[v]);
            let first = Some(hint).filter(|h| range.contains(h));
            for k in first.into_iter().chain(range.filter(|&k| k != hint)) {
                let x = self.arrive(self.inner[k] as usize, alpha, beta);
                if self.stopped.is_some() {
                    break;
                }
                cut = take(x, &mut alpha, &mut beta);
                if cut {
                    self.hint[v] = (k - start) as u8;
                    break;
                }
            }
            self.depth -= 1;
            self.on_path[v] = false;
        }
        best.clamp(lower, upper)
    }
}

/// Bounds on the value of every position of a set that hold whatever the positions
/// before it: `lower[v] <= value <= upper[v]` for every history.
///
/// For a threshold `t`, player 1 can make sure of at least `t` from every position of
/// the largest set `X` in which player 1, to move, has a move out worth at least `t`
/// or a move to a position of `X` worth at least `t` if the game ended there by
/// repetition, and player 2, to move, has only such moves. Keeping to those moves, the
/// game either leaves the set at a value of at least `t` or ends by repetition on
/// arriving at a position worth at least `t`, whichever position it is; and it ends,
/// as every game does. The same holds for player 2 and at most `t`. `X` is found by
/// removing the positions that fail until none does.
struct SetBounds {
    lower: Vec<i32>,
    upper: Vec<i32>,
}

impl SetBounds {
    fn new(s: &SetSearch) -> SetBounds {
        let m = s.south.len();
        let values = s.exit.iter().flatten().chain(&s.repetition);
        let (lo, hi) = values.fold((i32::MAX, i32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        let mut bounds = SetBounds {
            lower: vec![lo; m],
            upper: vec![hi; m],
        };
        let mut parents = vec![Vec::new(); m];
        for v in 0..m {
            for &u in &s.inner[s.inner(v)] {
                parents[u as usize].push(v as u32);
            }
        }
        // Each threshold's set lies within the last one's: stop once it is empty.
        for t in lo + 1..=hi {
            let safe = Self::safe(s, &parents, |x| x >= t, true);
            if !safe.contains(&true) {
                break;
            }
            for (bound, _) in bounds.lower.iter_mut().zip(safe).filter(|(_, safe)| *safe) {
                *bound = t;
            }
        }
        for t in (lo..hi).rev() {
            let safe = Self::safe(s, &parents, |x| x <= t, false);
            if !safe.contains(&true) {
                break;
            }
            for (bound, _) in bounds.upper.iter_mut().zip(safe).filter(|(_, safe)| *safe) {
                *bound = t;
            }
        }
        bounds
    }

    /// The largest set from which the player (`south`: player 1) keeps the game to
    /// values that are `good`.
    fn safe(
        s: &SetSearch,
        parents: &[Vec<u32>],
        good: impl Fn(i32) -> bool,
        south: bool,
    ) -> Vec<bool> {
        let m = s.south.len();
        let mut safe = vec![true; m];
        // For the player's positions: how many good moves are left.
        let mut options = vec![0u32; m];
        let mut removed = Vec::new();
        for v in 0..m {
            let moves = &s.inner[s.inner(v)];
            let keeps = if s.south[v] == south {
                let good_moves = moves
                    .iter()
                    .filter(|&&u| good(s.repetition[u as usize]))
                    .count();
                options[v] = good_moves as u32 + u32::from(s.exit[v].is_some_and(&good));
                options[v] > 0
            } else {
                s.exit[v].is_none_or(&good) && moves.iter().all(|&u| good(s.repetition[u as usize]))
            };
            if !keeps {
                safe[v] = false;
                removed.push(v);
            }
        }
        while let Some(u) = removed.pop() {
            if !good(s.repetition[u]) {
                continue; // no parent counted the move to it
            }
            for &p in &parents[u] {
                let p = p as usize;
                if !safe[p] {
                    continue;
                }
                if s.south[p] == south {
                    options[p] -= 1;
                    if options[p] > 0 {
                        continue;
                    }
                }
                safe[p] = false;
                removed.push(p);
            }
        }
        safe
    }
}

/// What [`solve`] found.
#[derive(Debug)]
pub(crate) struct Solved {
    /// Every legal move's value, for player 1.
    pub values: Vec<(Move, i32)>,
    /// Positions searched inside sets.
    pub nodes: u64,
    /// Positions reachable from the root.
    pub positions: usize,
}

/// Solves `root`, whose positions since the last capture, before it, are `history`.
pub(crate) fn solve(
    root: &Position,
    history: &[Position],
    limits: &Budget,
    progress: &mut impl FnMut(Progress),
) -> Result<Solved, SolveError> {
    let r = Reachable::explore(root, history, limits)?;
    let (sets, set_of) = r.sets();
    let n = r.positions.len();
    progress(Progress::Positions { solved: 0, of: n });
    let mut solving = Solving {
        entered: r.entered(&set_of),
        fresh: vec![0i32; n],
        r,
        set_of,
        limits,
        nodes: 0,
    };
    let mut solved = 0;
    // Children first: the root's set, which reaches every other, comes last.
    let (root_set, others) = sets.split_last().expect("the root is in a set");
    debug_assert_eq!(solving.set_of[0] as usize, others.len());
    for set in others {
        solving.solve_set(set)?;
        solved += set.len();
        progress(Progress::Positions { solved, of: n });
    }
    let values = solving.root_values(root, history, root_set, progress)?;
    Ok(Solved {
        values,
        nodes: solving.nodes,
        positions: n,
    })
}

/// The error for a search stopped early.
fn stopped(s: Stopped) -> SolveError {
    match s {
        Stopped::OutOfTime => SolveError::OutOfTime,
        Stopped::TooDeep => SolveError::TooLarge(format!(
            "the search went more than {OWARE_MAX_PATH} positions deep"
        )),
    }
}

impl Reachable {
    /// Which positions can be reached from outside their set: only they need a value.
    fn entered(&self, set_of: &[u32]) -> Vec<bool> {
        let mut entered = vec![false; self.positions.len()];
        for v in 0..self.positions.len() {
            for &c in self.children(v) {
                if set_of[c as usize] != set_of[v] {
                    entered[c as usize] = true;
                }
            }
        }
        entered
    }
}

/// A solve in progress: the positions reachable, their sets, and the fresh values of
/// the sets solved so far.
struct Solving<'a> {
    r: Reachable,
    set_of: Vec<u32>,
    /// Reached from outside its set ([`Reachable::entered`]).
    entered: Vec<bool>,
    fresh: Vec<i32>,
    limits: &'a Budget<'a>,
    /// Positions searched inside sets so far.
    nodes: u64,
}

impl Solving<'_> {
    /// The fresh values of the positions of `set` (not the root's) entered from
    /// outside it; the sets it reaches are solved.
    fn solve_set(&mut self, set: &[u32]) -> Result<(), SolveError> {
        let (r, fresh) = (&self.r, &mut self.fresh);
        if let &[v] = set {
            // A set of one position (no move comes back to it): plain minimax.
            let (v, p) = (v as usize, &r.positions[v as usize]);
            let children = r.children(v).iter().map(|&c| fresh[c as usize]);
            fresh[v] = if let Some(known) = r.known[v] {
                known
            } else if p.is_over() {
                final_margin(p)
            } else if p.to_move() == Side::South {
                children.max().expect("a position not over has a move")
            } else {
                children.min().expect("a position not over has a move")
            };
            return Ok(());
        }
        let mut search = SetSearch::new(r, set, &self.set_of, fresh, self.limits);
        for (k, &v) in set.iter().enumerate() {
            if search.stopped.is_some() {
                break;
            }
            if self.entered[v as usize] {
                fresh[v as usize] = search.search(k, i32::MIN, i32::MAX);
            }
        }
        self.nodes += search.nodes;
        search.stopped.map_or(Ok(()), |s| Err(stopped(s)))
    }

    /// Every legal move of `root` with its value, searched in the root's own set
    /// `root_set` (every other set solved) with the history that can come round again.
    fn root_values(
        &mut self,
        root: &Position,
        history: &[Position],
        root_set: &[u32],
        progress: &mut impl FnMut(Progress),
    ) -> Result<Vec<(Move, i32)>, SolveError> {
        let (r, set_of, fresh) = (&self.r, &self.set_of, &self.fresh);
        let mut search = SetSearch::new(r, root_set, set_of, fresh, self.limits);
        // History from before the root's set cannot be reached again: not in the set.
        for p in history.iter().chain([root]) {
            if let Some(k) = r
                .positions
                .get_index_of(p)
                .and_then(|v| search.local.get(&(v as u32)))
            {
                search.on_path[*k as usize] = true;
            }
        }
        let mut values = Vec::new();
        for (mv, &c) in root.legal_moves().iter().zip(r.children(0)) {
            let c = c as usize;
            let value = if set_of[c] != set_of[0] {
                fresh[c]
            } else {
                let k = search.local[&(c as u32)] as usize;
                search.arrive(k, i32::MIN, i32::MAX)
            };
            if let Some(s) = search.stopped.take() {
                return Err(stopped(s));
            }
            values.push((*mv, value));
            progress(Progress::Bounds {
                mv: Some(*mv),
                lower: value,
                upper: value,
                nodes: self.nodes + search.nodes,
            });
        }
        self.nodes += search.nodes;
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::Rules;

    use super::*;

    fn budget(stop: &AtomicBool, memory_bytes: usize) -> Budget<'_> {
        Budget {
            deadline: None,
            stop,
            memory_bytes,
            table: None,
        }
    }

    /// A small deterministic generator for the histories below.
    fn next(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *seed >> 33
    }

    /// The value of position `k` of the set, on the path already, by full-width search.
    fn value_on_path(s: &mut SetSearch, k: usize) -> i32 {
        let mut values: Vec<i32> = s.exit[k].into_iter().collect();
        for i in s.inner(k) {
            values.push(s.arrive(s.inner[i] as usize, i32::MIN, i32::MAX));
        }
        let best = if s.south[k] {
            values.iter().max()
        } else {
            values.iter().min()
        };
        *best.expect("a position that is not over has a move")
    }

    #[test]
    fn the_bounds_hold_whatever_the_history() {
        let stop = AtomicBool::new(false);
        let budget = budget(&stop, 1 << 30);
        let mut seed = 7;
        let (mut checked, mut decided) = (0, 0);
        for rules in [
            Rules::oware(2, 2),
            Rules::oware(2, 3),
            Rules::oware(3, 1),
            Rules::oware(3, 2),
        ] {
            let r = Reachable::explore(&Position::new(rules), &[], &budget).unwrap();
            let (sets, set_of) = r.sets();
            let mut fresh = vec![0; r.positions.len()];
            for set in &sets {
                let p = r.positions[set[0] as usize];
                if p.is_over() {
                    fresh[set[0] as usize] = final_margin(&p);
                    continue;
                }
                let bounded = SetSearch::new(&r, set, &set_of, &fresh, &budget);
                let mut plain = SetSearch::new(&r, set, &set_of, &fresh, &budget);
                plain.lower.fill(i32::MIN);
                plain.upper.fill(i32::MAX);
                let mut values = Vec::new();
                for k in 0..set.len() {
                    // No history, then any positions of the set before this one.
                    for history in 0..5 {
                        for on in &mut plain.on_path {
                            *on = history > 0 && next(&mut seed) % 4 == 0;
                        }
                        plain.on_path[k] = true;
                        let value = value_on_path(&mut plain, k);
                        if history == 0 {
                            values.push(value);
                        }
                        let (lower, upper) = (bounded.lower[k], bounded.upper[k]);
                        assert!(lower <= value && value <= upper, "{rules} {p:?}");
                        checked += 1;
                        decided += usize::from(lower == upper);
                    }
                }
                // Fresh values by the search without bounds, for the sets before.
                for (k, &v) in set.iter().enumerate() {
                    fresh[v as usize] = values[k];
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        assert!(decided > 0, "the bounds decide some positions outright");
    }

    #[test]
    fn too_many_positions_is_an_error_not_a_crash() {
        let stop = AtomicBool::new(false);
        let start = Position::new(Rules::oware(3, 3));
        let memory = 1000 * BYTES_PER_POSITION;
        match solve(&start, &[], &budget(&stop, memory), &mut |_| {}) {
            Err(SolveError::TooLarge(msg)) => {
                assert!(msg.contains("more than 1000 positions"), "{msg}")
            }
            other => panic!("{other:?}"),
        }
    }
}
