//! Iterative-deepening principal-variation search (alpha-beta with null windows).
//!
//! Values are negamax values from the point of view of the player to move. Extra
//! turns mean a child position can have the same player to move as its parent:
//! then its value is taken as it is and the window is passed on unchanged; only when
//! the player to move changes is the value negated and the window flipped.
//!
//! A game's repetition rule: positions since the last capture along the game
//! and the search line are kept, and a position repeating among them scores as the
//! game's end by repetition ([`Position::end_by_repetition`]). Transposition-table entries do not
//! record the path, so a value stored for a position reached by another line can be
//! reused where a repetition would have cut it short (the usual graph-history
//! approximation of game-tree search).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use mancala_core::{Game, Move, Position, Side};

use crate::endgame::PendingTable;
use crate::{
    Bound, History, Score, TranspositionTable, Weights, evaluate_with, order_key, position_key,
};

/// Nodes this deep or shallower (in plies left) neither probe nor fill the table.
const TT_MIN_DEPTH: u32 = 3;

/// The deepest iteration the search will start.
pub const MAX_DEPTH: u32 = 127;

/// When a search stops: the first limit reached. Depth 1 is always completed.
///
/// ```
/// use std::time::Duration;
/// use mancala_engine::Limits;
/// let l = Limits::depth(8).with_time(Duration::from_millis(50));
/// assert_eq!(l.depth, Some(8));
/// assert_eq!(l.nodes, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (one sowing per ply; an extra turn is a ply).
    pub depth: Option<u32>,
    /// Nodes to visit (checked every 1024 nodes).
    pub nodes: Option<u64>,
    /// Time to think.
    pub time: Option<Duration>,
}

impl Limits {
    /// Search to `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search about `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for `time`.
    #[must_use]
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// These limits and a time limit.
    #[must_use]
    pub fn with_time(self, time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..self
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move of the deepest completed iteration.
    pub best: Move,
    /// Its value for the player to move at the root.
    pub score: Score,
    /// The deepest completed iteration (0 when there was only one move to play).
    pub depth: u32,
    /// Nodes visited, over all iterations.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// The alpha-beta searcher: its transposition table and history survive between
/// searches, so a player that keeps one searcher benefits from earlier moves' work.
///
/// ```
/// use mancala_core::{Position, Rules};
/// use mancala_engine::{Limits, Searcher};
/// let mut s = Searcher::new(1);
/// let r = s.search_position(&Position::new(Rules::kalah(6, 4)), Limits::depth(6));
/// assert_eq!(r.depth, 6);
/// assert!(Position::new(Rules::kalah(6, 4)).legal_moves().contains(&r.best));
/// ```
#[derive(Clone, Debug)]
pub struct Searcher {
    tt: TranspositionTable,
    history: History,
    nodes: u64,
    stopped: bool,
    can_stop: bool,
    limits: Limits,
    start: Instant,
    /// With a repetition rule: the positions since the last capture, along the game and the line.
    /// Each with its key, so that the scan compares one word per position and whole
    /// positions only when the keys match.
    path: Vec<(u64, Position)>,
    cap_start: usize,
    repetition: bool,
    root_best: Option<Move>,
    weights: Option<Weights>,
    active_weights: Weights,
    /// Set by the main thread of a parallel search when it is done: its helpers stop.
    halt: Option<Arc<AtomicBool>>,
    /// The first depth a helper of a parallel search starts from (1 for the main
    /// search): helpers a ply ahead of the main thread fill the table with what it is
    /// about to need.
    first_depth: u32,
    /// Kalah: the endgame table to probe once it is built, and the most seeds in play
    /// of a position it holds during this search (0 while it builds, or without one).
    endgame: Option<PendingTable>,
    probe_seeds: u16,
}

impl Searcher {
    /// A searcher with a transposition table of about `tt_megabytes` MiB.
    #[must_use]
    pub fn new(tt_megabytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(tt_megabytes),
            history: History::default(),
            nodes: 0,
            stopped: false,
            can_stop: false,
            limits: Limits::default(),
            start: Instant::now(),
            path: Vec::new(),
            cap_start: 0,
            repetition: false,
            root_best: None,
            weights: None,
            active_weights: Weights::default(),
            halt: None,
            first_depth: 1,
            endgame: None,
            probe_seeds: 0,
        }
    }

    /// A helper for a parallel search: the same table (shared), weights and game path,
    /// its own history, starting `offset` plies deeper and stopping when `halt` is set.
    fn helper(&self, halt: &Arc<AtomicBool>, offset: u32) -> Searcher {
        Searcher {
            tt: self.tt.shared(),
            history: self.history.clone(),
            path: self.path.clone(),
            weights: self.weights,
            halt: Some(Arc::clone(halt)),
            first_depth: 1 + offset,
            endgame: self.endgame.clone(),
            ..Searcher::new(0)
        }
    }

    /// The same searcher evaluating with `weights` instead of
    /// [`Weights::for_variant`].
    #[must_use]
    pub fn with_weights(self, weights: Weights) -> Searcher {
        Searcher {
            weights: Some(weights),
            ..self
        }
    }

    /// The same searcher reading the exact value of every position `table` holds
    /// (once it is built) instead of searching or evaluating it.
    #[must_use]
    pub(crate) fn with_endgame(self, table: Option<PendingTable>) -> Searcher {
        Searcher {
            endgame: table,
            ..self
        }
    }

    /// Waits at most `within` for the endgame table to be built (see
    /// [`Player::prepare`](crate::Player::prepare)); whether it is, or there is none.
    pub(crate) fn prepare(&self, within: Duration) -> bool {
        self.endgame
            .as_ref()
            .is_none_or(|table| crate::endgame::wait_for(table, within))
    }

    /// Forgets everything learned (table and history), for reproducible searches.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Searches the current position of `game` (which must not be over), applying
    /// the game's repetition rule (if it has one) to the positions since the last
    /// capture.
    ///
    /// # Panics
    /// If the game is over.
    pub fn search(&mut self, game: &Game, limits: Limits) -> SearchResult {
        self.search_threads(game, limits, 1)
    }

    /// [`Searcher::search`] on `threads` threads (Lazy SMP): helpers search the same
    /// root on their own threads, sharing the transposition table, every other one a
    /// ply deeper, until this thread's search ends; the result is this thread's, the
    /// nodes those of all threads. One thread is exactly [`Searcher::search`].
    ///
    /// # Panics
    /// If the game is over.
    pub fn search_threads(&mut self, game: &Game, limits: Limits, threads: usize) -> SearchResult {
        assert!(!game.is_over(), "search of a finished game");
        self.path.clear();
        let mut p = *game.start();
        self.path.push((position_key(&p), p));
        for &mv in game.moves() {
            let next = p.play(mv).expect("the game's moves are legal");
            if next.stores() != p.stores() {
                self.path.clear();
            }
            self.path.push((position_key(&next), next));
            p = next;
        }
        if threads <= 1 {
            return self.run(game.position(), limits);
        }
        let halt = Arc::new(AtomicBool::new(false));
        let mut helpers: Vec<Searcher> = (1..threads)
            .map(|i| self.helper(&halt, (i % 2) as u32))
            .collect();
        let root = *game.position();
        // Helpers have no limits of their own: they stop with the main search.
        let helper_limits = Limits::default();
        thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|h| scope.spawn(move || h.run(&root, helper_limits).nodes))
                .collect();
            let mut result = self.run(&root, limits);
            halt.store(true, Ordering::Relaxed);
            for handle in handles {
                result.nodes += handle.join().expect("a search helper panicked");
            }
            result
        })
    }

    /// Searches `root` (which must not be over) with no history before it.
    ///
    /// # Panics
    /// If the position is over.
    pub fn search_position(&mut self, root: &Position, limits: Limits) -> SearchResult {
        self.path.clear();
        self.path.push((position_key(root), *root));
        self.run(root, limits)
    }

    fn run(&mut self, root: &Position, limits: Limits) -> SearchResult {
        let moves = root.legal_moves();
        assert!(!moves.is_empty(), "search of a finished position");
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        // A helper may stop at any node: its result is not used.
        self.can_stop = self.halt.is_some();
        self.limits = limits;
        self.cap_start = 0;
        self.repetition = root.variant().has_repetition_rule();
        self.active_weights = self
            .weights
            .unwrap_or_else(|| Weights::for_variant(root.variant()));
        self.probe_seeds = self
            .endgame
            .as_ref()
            .and_then(|t| t.get())
            .filter(|t| t.rules() == root.rules())
            .map_or(0, |t| t.seeds());
        let mut result = SearchResult {
            best: moves[0],
            score: evaluate_with(root, self.active_weights),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if moves.len() > 1 || limits.depth.is_some() {
            let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
            let inf = Score::INFINITY.raw();
            for depth in self.first_depth.min(max_depth)..=max_depth {
                self.root_best = None;
                let v = self.node(root, depth, -inf, inf, 0);
                if self.stopped {
                    break;
                }
                result.best = self.root_best.unwrap_or(moves[0]);
                result.score = Score::from_raw(v);
                result.depth = depth;
                self.can_stop = true;
                // A proven result does not stop the deepening: a proven win's margin is
                // only the least the search has seen it force (lines it cut off or
                // evaluated may win by more), and deeper searches raise it towards the
                // exact margin (`mancala bench accuracy`: 81% of moves kept the exact
                // margin when the search stopped at the first proof, 93% without).
                if limits.time.is_some_and(|t| self.start.elapsed() * 2 > t)
                    || limits.nodes.is_some_and(|n| self.nodes >= n)
                {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        result
    }

    fn check_limits(&mut self) {
        if self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
            || self
                .halt
                .as_ref()
                .is_some_and(|h| h.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
    }

    /// The value of a child for the parent's player to move.
    #[inline]
    fn child(
        &mut self,
        parent: Side,
        c: &Position,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if depth == 0 && !self.repetition {
            // A leaf: what `negamax` does at depth 0, without the call.
            let v = self.leaf(c);
            return if c.to_move() == parent { v } else { -v };
        }
        if c.to_move() == parent {
            self.node(c, depth, alpha, beta, ply)
        } else {
            -self.node(c, depth, -beta, -alpha, ply)
        }
    }

    /// Counts a node and returns its static value: the exact result if the game is
    /// over, the evaluation otherwise (0 once the search is stopped).
    #[inline]
    fn leaf(&mut self, pos: &Position) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.can_stop {
            self.check_limits();
        }
        if self.stopped {
            0
        } else if pos.is_over() {
            Score::final_for(pos, pos.to_move()).raw()
        } else if let Some(v) = self.probe(pos) {
            v
        } else {
            evaluate_with(pos, self.active_weights).raw()
        }
    }

    /// The exact value of `pos` (not over) from the endgame table, if it holds it.
    #[inline]
    fn probe(&self, pos: &Position) -> Option<i32> {
        if pos.seeds_in_play() > self.probe_seeds {
            return None;
        }
        let table = self.endgame.as_ref()?.get()?;
        Some(Score::from_margin(table.margin(pos)?).raw())
    }

    /// Applies the repetition rule around [`Searcher::negamax`].
    #[inline]
    fn node(&mut self, pos: &Position, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.repetition || ply == 0 {
            return self.negamax(pos, depth, alpha, beta, ply);
        }
        let saved = self.cap_start;
        let last = &self.path.last().expect("the root is on the path").1;
        let key = position_key(pos);
        if last.stores() == pos.stores() {
            if !pos.is_over()
                && self.path[self.cap_start..]
                    .iter()
                    .any(|(k, p)| *k == key && p == pos)
            {
                self.nodes += 1;
                return repetition_score(pos);
            }
        } else {
            self.cap_start = self.path.len();
        }
        self.path.push((key, *pos));
        let v = self.negamax(pos, depth, alpha, beta, ply);
        self.path.pop();
        self.cap_start = saved;
        v
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if depth == 0 || pos.is_over() || (ply > 0 && pos.seeds_in_play() <= self.probe_seeds) {
            return self.leaf(pos);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.can_stop {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        // Nodes one ply above the leaves skip the table: their subtrees cost less than
        // the table's cache misses.
        let use_tt = depth > TT_MIN_DEPTH;
        let key = if use_tt { position_key(pos) } else { 0 };
        let mut tt_move = None;
        let entry = if use_tt { self.tt.probe(key) } else { None };
        if let Some(e) = entry {
            tt_move = e.mv;
            if ply > 0 && u32::from(e.depth) >= depth {
                let s = e.score.raw();
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        let me = pos.to_move();
        let legal = pos.legal_moves();
        let alpha0 = alpha;
        let mut best = -Score::INFINITY.raw();
        let mut best_mv = None;

        // The table's move first, before the others are even looked at: when it cuts
        // off, they never are. Then the others by ordering key, best first: extra
        // turns, captures by size, history, from arithmetic on the board
        // (`Position::predict`), so that a move is only played when it is searched.
        // `keys[k]` is the key of `legal[k]` with `k` in its low 5 bits and the top bit
        // set, or 0 once the move has been searched (and for the table's move).
        let tt_index = tt_move.and_then(|m| legal.iter().position(|&x| x == m));
        let skip = usize::from(tt_index.is_some());
        let mut keys = [0u64; mancala_core::MAX_HOUSES];
        for step in 0..legal.len() {
            let mv = match tt_index {
                Some(t) if step == 0 => legal[t],
                _ => {
                    if step == skip {
                        for (k, &mv) in legal.iter().enumerate() {
                            if Some(k) != tt_index {
                                let report = pos.predict(mv);
                                let key =
                                    order_key(report, false, self.history.get(me.index(), mv));
                                keys[k] = 1 << 63 | key << 5 | k as u64;
                            }
                        }
                    }
                    // Pick the best remaining move: cutoffs usually come early, so a
                    // full sort would be wasted. The keys are distinct, so taking the
                    // largest needs no comparison the processor must predict.
                    let best = keys[..legal.len()].iter().copied().max().unwrap_or(0);
                    let k = (best & 31) as usize;
                    keys[k] = 0;
                    legal[k]
                }
            };
            let mut c = *pos;
            c.play_unchecked(mv);
            let v = if best_mv.is_none() {
                self.child(me, &c, depth - 1, alpha, beta, ply + 1)
            } else {
                let v = self.child(me, &c, depth - 1, alpha, alpha + 1, ply + 1);
                // A leaf's value is exact whatever the window: no re-search.
                if v > alpha && v < beta && depth > 1 && !self.stopped {
                    self.child(me, &c, depth - 1, alpha, beta, ply + 1)
                } else {
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_mv = Some(mv);
                if ply == 0 {
                    self.root_best = Some(mv);
                }
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.history.reward(me.index(), mv, depth);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_tt {
            self.tt
                .store(key, Score::from_raw(best), depth, bound, best_mv);
        }
        best
    }
}

/// The exact value, for the player to move, of the game ending by repetition at `pos`
/// (by the game's leftover rule: each player takes the seeds on their own row, or the
/// captures decide).
///
/// # Panics
/// If the variant has no repetition rule.
#[must_use]
pub fn repetition_score(pos: &Position) -> i32 {
    let end = pos
        .end_by_repetition()
        .expect("only variants with a repetition rule repeat");
    Score::from_margin(end.outcome.margin_for(pos.to_move())).raw()
}

#[cfg(test)]
mod tests {
    use mancala_core::{Game, Rules};
    use mancala_solver::{SolveConfig, Solver};

    use super::*;
    use crate::endgame::{shared_table, wait_for};

    /// With the endgame table, even a one-ply search knows every move's exact value.
    #[test]
    fn a_search_reads_exact_values_from_the_endgame_table() {
        let rules = Rules::kalah(3, 2);
        let table = shared_table(rules, 12).unwrap();
        assert!(wait_for(&table, Duration::from_secs(30)), "never built");
        let game = Game::new(rules);
        let plain = Searcher::new(1).search(&game, Limits::depth(1));
        assert!(!plain.score.is_decisive());
        let mut probing = Searcher::new(1).with_endgame(Some(table));
        let r = probing.search(&game, Limits::depth(1));
        let value = Solver::new(SolveConfig::default().with_table_mb(1))
            .value(&game)
            .unwrap();
        assert_eq!(r.score, Score::from_margin(value));
        assert_eq!(r.depth, 1);
    }

    /// A proven win does not stop the deepening while the budget lasts: the search
    /// goes on to the exact margin, not the first it proves.
    #[test]
    fn a_proven_win_is_searched_on_to_its_exact_margin() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let rules = Rules::kalah(4, 3);
        let mut solver = Solver::new(SolveConfig::default().with_table_mb(4));
        let mut rng = SmallRng::seed_from_u64(3);
        let mut proven = 0;
        for _ in 0..30 {
            // Random moves until few seeds are in play: positions of long endgames.
            let mut game = Game::new(rules);
            while !game.is_over() && game.position().seeds_in_play() > 12 {
                let moves = game.legal_moves();
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            if game.is_over() || game.legal_moves().len() < 2 {
                continue;
            }
            let value = solver.value(&game).unwrap();
            let mover = match game.position().to_move() {
                Side::South => value,
                Side::North => -value,
            };
            let r = Searcher::new(4).search(&game, Limits::nodes(200_000));
            assert_eq!(r.score, Score::from_margin(mover), "{game:?}");
            proven += usize::from(mover != 0);
        }
        assert!(proven > 10, "too few decided positions tested: {proven}");
    }
}
