//! Building the Oware table: one seed count (a *layer*) at a time, upwards.
//!
//! Within a layer, the graph of capture-free moves is the same for every split of the
//! captures, so it is built once, with its strongly connected sets (children first),
//! and the splits are then solved side by side on all cores, each set after the sets
//! it reaches. A set's values are bounded from both sides by [`guarantee`] (bounds
//! that hold whatever the history); a position whose bounds meet is exact whatever the
//! history, and the others get a path search for their fresh value, cut off after a
//! number of nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mancala_core::{Position, Rules, Side};
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use rayon::prelude::*;

use super::limit::{Arena, limit_guarantee, parents_of};
use super::{Numbering, UNKNOWN, encode};

/// A move of the layer graph: the child's number (in its own layer) and the seeds the
/// move captured (0: a move within the layer).
#[derive(Clone, Copy, Debug)]
struct Edge {
    child: u32,
    captured: u8,
}

/// The moves of every position of one layer and its strongly connected sets.
pub(super) struct LayerGraph {
    pub s: usize,
    /// Position `id = 2 * board + (1 if player 2 is to move)`.
    positions: usize,
    /// Player 1's row minus player 2's: the sweep at a repetition, or at an end.
    sweep: Vec<i8>,
    /// No legal move: the game is over (each takes their own row).
    terminal: Vec<bool>,
    first: Vec<u32>,
    edges: Vec<Edge>,
    /// The sets of more than one position, children first, in order with `singles`:
    /// `order` lists them as `Ok(set)` or `Err(position)`.
    order: Vec<Result<SetGraph, u32>>,
    /// The set of each position in a set of more than one (its place in `order`), or
    /// `u32::MAX`.
    set_of: Vec<u32>,
}

/// One strongly connected set: its positions (global numbers), the moves inside it by
/// local number, and each local position's parents inside it.
pub(super) struct SetGraph {
    id: u32,
    nodes: Vec<u32>,
    first: Vec<u32>,
    inner: Vec<u32>,
    pfirst: Vec<u32>,
    parents: Vec<u32>,
}

/// The positions of one layer as core positions: captures chosen so that the game is
/// not over by captures (player 2 at exactly half).
fn core_position(rules: Rules, numbering: &Numbering, s: usize, id: usize) -> Position {
    let h = rules.houses();
    let mut cells = [0u16; 32];
    numbering.unrank(s, id / 2, &mut cells[..2 * h]);
    // Player 2 at exactly half, or with every seed off the board when fewer.
    let total = rules.total_seeds();
    let c2 = (total / 2).min(total - s as u16);
    let side = if id % 2 == 0 {
        Side::South
    } else {
        Side::North
    };
    Position::from_parts(
        rules,
        [&cells[..h], &cells[h..2 * h]],
        [total - s as u16 - c2, c2],
        side,
    )
    .expect("a position of the layer")
}

impl LayerGraph {
    pub fn build(rules: Rules, numbering: &Numbering, s: usize) -> LayerGraph {
        let positions = 2 * numbering.count(s);
        let h = rules.houses();
        let per: Vec<(i8, bool, Vec<Edge>)> = (0..positions)
            .into_par_iter()
            .with_min_len(1024)
            .map(|id| {
                let p = core_position(rules, numbering, s, id);
                let sweep = p.row_sum(Side::South) as i8 - p.row_sum(Side::North) as i8;
                let mut edges = Vec::new();
                for mv in p.legal_moves() {
                    let mut c = p;
                    let report = c.play_unchecked(mv);
                    let k = usize::from(report.captured);
                    let mut cells = [0u16; 32];
                    cells[..h].copy_from_slice(c.houses(Side::South));
                    cells[h..2 * h].copy_from_slice(c.houses(Side::North));
                    let board = numbering.rank(&cells[..2 * h]);
                    let side = usize::from(c.to_move() == Side::North);
                    edges.push(Edge {
                        child: (2 * board + side) as u32,
                        captured: k as u8,
                    });
                }
                (sweep, p.is_over(), edges)
            })
            .collect();
        let mut g = LayerGraph {
            s,
            positions,
            sweep: Vec::with_capacity(positions),
            terminal: Vec::with_capacity(positions),
            first: vec![0],
            edges: Vec::new(),
            order: Vec::new(),
            set_of: Vec::new(),
        };
        for (sweep, terminal, edges) in per {
            g.sweep.push(sweep);
            g.terminal.push(terminal);
            g.edges.extend(edges);
            g.first.push(g.edges.len() as u32);
        }
        (g.order, g.set_of) = g.sets();
        g
    }

    fn moves(&self, v: usize) -> &[Edge] {
        &self.edges[self.first[v] as usize..self.first[v + 1] as usize]
    }

    /// The strongly connected sets of the capture-free moves, children first.
    #[allow(clippy::type_complexity)]
    fn sets(&self) -> (Vec<Result<SetGraph, u32>>, Vec<u32>) {
        let n = self.positions;
        let mut graph = DiGraph::<(), ()>::with_capacity(n, self.edges.len());
        for _ in 0..n {
            graph.add_node(());
        }
        for v in 0..n {
            for e in self.moves(v).iter().filter(|e| e.captured == 0) {
                graph.add_edge(NodeIndex::new(v), NodeIndex::new(e.child as usize), ());
            }
        }
        let sets = kosaraju_scc(&graph);
        drop(graph);
        let mut local = vec![u32::MAX; n];
        let mut set_of = vec![u32::MAX; n];
        let order = sets
            .into_iter()
            .enumerate()
            .map(|(k, set)| {
                if let [v] = set[..] {
                    return Err(v.index() as u32);
                }
                let nodes: Vec<u32> = set.iter().map(|v| v.index() as u32).collect();
                for (i, &v) in nodes.iter().enumerate() {
                    local[v as usize] = i as u32;
                    set_of[v as usize] = k as u32;
                }
                let mut sg = SetGraph {
                    id: k as u32,
                    first: vec![0],
                    inner: Vec::new(),
                    pfirst: Vec::new(),
                    parents: Vec::new(),
                    nodes,
                };
                for &v in &sg.nodes {
                    for e in self.moves(v as usize) {
                        let c = e.child as usize;
                        if e.captured == 0 && set_of[c] == k as u32 {
                            sg.inner.push(local[c]);
                        }
                    }
                    sg.first.push(sg.inner.len() as u32);
                }
                sg.parents_from_inner();
                Ok(sg)
            })
            .collect();
        (order, set_of)
    }
}

impl SetGraph {
    fn parents_from_inner(&mut self) {
        (self.pfirst, self.parents) = parents_of(&self.first, &self.inner);
    }

    fn inner(&self, v: usize) -> &[u32] {
        &self.inner[self.first[v] as usize..self.first[v + 1] as usize]
    }

    fn arena(&self) -> Arena<'_> {
        Arena {
            first: &self.first,
            inner: &self.inner,
            pfirst: &self.pfirst,
            parents: &self.parents,
        }
    }

    fn parents(&self, u: usize) -> &[u32] {
        &self.parents[self.pfirst[u] as usize..self.pfirst[u + 1] as usize]
    }
}

/// For every position of a set, the most the maximiser (`maxer[v]`: the maximiser is
/// to move at `v`) can be sure of whatever the positions before it: the greatest
/// fixed point of "a maximiser's position is worth the best of its exit and, for each
/// move inside the set to `u`, the lesser of `rep[u]` (the game ends by repetition on
/// arriving at `u`) and `u`'s own worth; a minimiser's the least of the same".
///
/// Keeping to the moves that make a value at least `t`, the game leaves the set at
/// `t` or more or ends by repetition on arriving at a position worth `t` or more,
/// whichever position that is. Computed for every threshold at once: raising the
/// threshold only removes positions, and every move is given up at most once.
pub(super) fn guarantee(
    g: &SetGraph,
    maxer: &[bool],
    exit: &[Option<i32>],
    rep: &[i32],
) -> Vec<i32> {
    let m = g.nodes.len();
    let mut levels: Vec<i32> = exit.iter().flatten().chain(rep).copied().collect();
    levels.sort_unstable();
    levels.dedup();
    let level = |x: i32| levels.binary_search(&x).expect("a level");
    let k = levels.len();
    let mut by_rep = vec![Vec::new(); k];
    let mut by_exit = vec![Vec::new(); k];
    let mut options = vec![0u32; m];
    for v in 0..m {
        by_rep[level(rep[v])].push(v as u32);
        if let Some(x) = exit[v] {
            by_exit[level(x)].push(v as u32);
        }
        options[v] = g.inner(v).len() as u32 + u32::from(exit[v].is_some());
    }
    let mut worth = vec![levels[k - 1]; m];
    let mut safe = vec![true; m];
    let mut gone = vec![false; m];
    let mut left = m;
    let mut removed: Vec<u32> = Vec::new();
    for j in 1..k {
        // The threshold is now levels[j]: what was worth levels[j - 1] is not enough.
        let was = levels[j - 1];
        let mut hit = |p: usize, removed: &mut Vec<u32>, safe: &mut Vec<bool>| {
            if !safe[p] {
                return;
            }
            if maxer[p] {
                options[p] -= 1;
                if options[p] > 0 {
                    return;
                }
            }
            safe[p] = false;
            worth[p] = was;
            removed.push(p as u32);
        };
        // A move to `u` is given up once: when `rep[u]` falls short or `u` goes.
        for &u in &by_rep[j - 1] {
            if !gone[u as usize] {
                gone[u as usize] = true;
                for &p in g.parents(u as usize) {
                    hit(p as usize, &mut removed, &mut safe);
                }
            }
        }
        for &v in &by_exit[j - 1] {
            hit(v as usize, &mut removed, &mut safe);
        }
        while let Some(u) = removed.pop() {
            left -= 1;
            if !gone[u as usize] {
                gone[u as usize] = true;
                for &p in g.parents(u as usize) {
                    hit(p as usize, &mut removed, &mut safe);
                }
            }
        }
        if left == 0 {
            break;
        }
    }
    worth
}

/// The values of one split of one layer, and where to read the layers below.
pub(super) struct SplitSolve<'a> {
    pub rules: Rules,
    pub g: &'a LayerGraph,
    pub a: usize,
    /// The layers below, by seeds: `lower[s'][a']` the fresh bounds by position.
    pub below: &'a [Vec<Bounds>],
    pub node_cap: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
}

/// Fresh bounds of every position of one split of a layer, and whether they hold
/// whatever the history.
#[derive(Clone, Debug, Default)]
pub(super) struct Bounds {
    pub lo: Vec<i8>,
    pub hi: Vec<i8>,
    pub settled: Vec<bool>,
}

impl Bounds {
    /// The bytes a table keeps: the exact value, flagged when it holds whatever the
    /// history, or [`UNKNOWN`].
    pub fn encoded(&self) -> Vec<i8> {
        (0..self.lo.len())
            .map(|v| {
                if self.lo[v] == self.hi[v] {
                    encode(i32::from(self.lo[v]), self.settled[v])
                } else {
                    UNKNOWN
                }
            })
            .collect()
    }
}

impl SplitSolve<'_> {
    /// Player 1's and player 2's captures.
    fn captures(&self) -> (i32, i32) {
        let half = i32::from(self.rules.total_seeds()) / 2;
        let (s, a) = (self.g.s as i32, self.a as i32);
        (half - s + a, half - a)
    }

    /// The bounds of a move that captures (`e.captured > 0`), by the mover.
    fn capture_bounds(&self, e: Edge, south: bool) -> (i32, i32) {
        let half = i32::from(self.rules.total_seeds()) / 2;
        let (mut c1, mut c2) = self.captures();
        let k = i32::from(e.captured);
        if south {
            c1 += k;
        } else {
            c2 += k;
        }
        let s2 = self.g.s - usize::from(e.captured);
        if c1 > half || c2 > half || s2 == 0 {
            return (c1 - c2, c1 - c2);
        }
        let a2 = (c1 - (half - s2 as i32)) as usize;
        let b = &self.below[s2][a2];
        let c = e.child as usize;
        (i32::from(b.lo[c]), i32::from(b.hi[c]))
    }

    pub fn solve(&self) -> Bounds {
        let n = self.g.positions;
        let mut out = Bounds {
            lo: vec![0; n],
            hi: vec![0; n],
            settled: vec![false; n],
        };
        for item in &self.g.order {
            match item {
                Err(v) => self.single(*v as usize, &mut out),
                Ok(set) => self.set(set, &mut out),
            }
        }
        out
    }

    /// The best exit of `v` for the player to move, lower and upper: captures, moves
    /// to other sets (already solved, in `out`), `None` without one. `inside` says
    /// whether a capture-free move's child is in `v`'s own set.
    fn exits(&self, v: usize, out: &Bounds, inside: impl Fn(usize) -> bool) -> Option<(i32, i32)> {
        let south = v % 2 == 0;
        let mut best: Option<(i32, i32)> = None;
        for &e in self.g.moves(v) {
            let c = e.child as usize;
            let (lo, hi) = if e.captured > 0 {
                self.capture_bounds(e, south)
            } else if inside(c) {
                continue;
            } else {
                (i32::from(out.lo[c]), i32::from(out.hi[c]))
            };
            best = Some(match best {
                None => (lo, hi),
                Some((a, b)) if south => (a.max(lo), b.max(hi)),
                Some((a, b)) => (a.min(lo), b.min(hi)),
            });
        }
        best
    }

    fn margin_base(&self) -> i32 {
        let (c1, c2) = self.captures();
        c1 - c2
    }

    /// A position in no cycle: the best of its moves, or its end.
    fn single(&self, v: usize, out: &mut Bounds) {
        let (lo, hi) = if self.g.terminal[v] {
            let x = self.margin_base() + i32::from(self.g.sweep[v]);
            (x, x)
        } else {
            self.exits(v, out, |_| false)
                .expect("a position not over has a move")
        };
        out.lo[v] = lo as i8;
        out.hi[v] = hi as i8;
        out.settled[v] = lo == hi;
    }

    fn set(&self, set: &SetGraph, out: &mut Bounds) {
        let m = set.nodes.len();
        let base = self.margin_base();
        let inside = |c: usize| self.g.set_of[c] == set.id;
        let south: Vec<bool> = set.nodes.iter().map(|&v| v % 2 == 0).collect();
        let north: Vec<bool> = south.iter().map(|s| !s).collect();
        let ex: Vec<Option<(i32, i32)>> = set
            .nodes
            .iter()
            .map(|&v| self.exits(v as usize, out, inside))
            .collect();
        let exit_lo: Vec<Option<i32>> = ex.iter().map(|e| e.map(|e| e.0)).collect();
        let exit_hi: Vec<Option<i32>> = ex.iter().map(|e| e.map(|e| e.1)).collect();
        let rep: Vec<i32> = set
            .nodes
            .iter()
            .map(|&v| base + i32::from(self.g.sweep[v as usize]))
            .collect();
        let lower = guarantee(set, &south, &exit_lo, &rep);
        let neg = |x: &Option<i32>| x.map(|x| -x);
        let upper: Vec<i32> = guarantee(
            set,
            &north,
            &exit_hi.iter().map(neg).collect::<Vec<_>>(),
            &rep.iter().map(|x| -x).collect::<Vec<_>>(),
        )
        .into_iter()
        .map(|x| -x)
        .collect();
        let negated = |x: &[Option<i32>]| x.iter().map(|x| x.map(|x| -x)).collect::<Vec<_>>();
        let minus_rep: Vec<i32> = rep.iter().map(|x| -x).collect();
        let limit_lower = limit_guarantee(set.arena(), &south, &exit_lo, &rep);
        let limit_upper: Vec<i32> =
            limit_guarantee(set.arena(), &north, &negated(&exit_hi), &minus_rep)
                .into_iter()
                .map(|x| -x)
                .collect();
        let mut search = PathSearch {
            set,
            south: &south,
            exit: &exit_lo,
            rep: &rep,
            lower: &lower,
            upper: &upper,
            limit_lower: &limit_lower,
            limit_upper: &limit_upper,
            on_path: vec![false; m],
            nodes: 0,
            cap: 0,
            cut_off: false,
        };
        for (i, &v) in set.nodes.iter().enumerate() {
            let v = v as usize;
            out.settled[v] = lower[i] == upper[i];
            let (mut lo, mut hi) = search.bounds(i, i32::MAX, i32::MIN);
            if lo < hi && !self.expired() {
                (lo, hi) = search.fresh(i, self.node_cap, &exit_lo, &exit_hi);
            }
            out.lo[v] = lo as i8;
            out.hi[v] = hi as i8;
        }
    }

    fn expired(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Alpha-beta over the paths inside one set, for the fresh value of a position.
struct PathSearch<'a> {
    set: &'a SetGraph,
    south: &'a [bool],
    exit: &'a [Option<i32>],
    rep: &'a [i32],
    lower: &'a [i32],
    upper: &'a [i32],
    /// Bounds from positional strategies (see `limit.rs`): with the least and the
    /// most `rep` on the path, they bound a position's value after that path.
    limit_lower: &'a [i32],
    limit_upper: &'a [i32],
    on_path: Vec<bool>,
    nodes: u64,
    cap: u64,
    cut_off: bool,
}

impl<'a> PathSearch<'a> {
    /// Bounds on the value of `v` after a path whose positions' `rep` are within
    /// `least..=most` (`i32::MAX..=i32::MIN` for no path).
    fn bounds(&self, v: usize, least: i32, most: i32) -> (i32, i32) {
        let lo = self.lower[v].max(self.limit_lower[v].min(least));
        let hi = self.upper[v].min(self.limit_upper[v].max(most));
        (lo, hi.max(lo))
    }

    /// The fresh bounds of local position `v`: searched with the exits' lower bounds
    /// and with their upper bounds, within `cap` nodes each; the whatever-the-history
    /// bounds where a search is cut off.
    fn fresh(
        &mut self,
        v: usize,
        cap: u64,
        exit_lo: &'a [Option<i32>],
        exit_hi: &'a [Option<i32>],
    ) -> (i32, i32) {
        let (mut lo, mut hi) = self.bounds(v, i32::MAX, i32::MIN);
        for (k, exit) in [exit_lo, exit_hi].into_iter().enumerate() {
            self.exit = exit;
            self.nodes = 0;
            self.cap = cap;
            self.cut_off = false;
            let x = self.at_root(v, lo, hi);
            if self.cut_off {
                continue;
            }
            if k == 0 {
                lo = lo.max(x);
            } else {
                hi = hi.min(x);
            }
            if lo >= hi {
                break;
            }
        }
        (lo, hi.max(lo))
    }

    /// The value of `v` with nothing before it on the path, within `[alpha, beta]`.
    fn at_root(&mut self, v: usize, alpha: i32, beta: i32) -> i32 {
        self.search(v, alpha - 1, beta + 1, i32::MAX, i32::MIN)
    }

    /// The value for player 1 of `v`, reached from the end of the path (which does not
    /// hold `v`): fail-soft alpha-beta, bounded by the set's bounds.
    fn search(&mut self, v: usize, mut alpha: i32, mut beta: i32, least: i32, most: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.cap {
            self.cut_off = true;
            return 0;
        }
        let (lower, upper) = self.bounds(v, least, most);
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
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
        if self.exit[v].is_some_and(|x| take(x, &mut alpha, &mut beta)) {
            return best.clamp(lower, upper);
        }
        self.on_path[v] = true;
        let (least, most) = (least.min(self.rep[v]), most.max(self.rep[v]));
        let mut children: Vec<u32> = self.set.inner(v).to_vec();
        let (lw, up) = (self.lower, self.upper);
        children.sort_by_key(|&u| {
            let mid = lw[u as usize] + up[u as usize];
            if south { -mid } else { mid }
        });
        for u in children {
            let u = u as usize;
            let x = if self.on_path[u] {
                self.rep[u]
            } else {
                self.search(u, alpha, beta, least, most)
            };
            if self.cut_off {
                break;
            }
            if take(x, &mut alpha, &mut beta) {
                break;
            }
        }
        self.on_path[v] = false;
        best.clamp(lower, upper)
    }
}
