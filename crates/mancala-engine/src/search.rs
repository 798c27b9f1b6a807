//! Iterative-deepening principal-variation search (alpha-beta with null windows).
//!
//! Values are negamax values from the point of view of the player to move. Kalah's
//! extra turns mean a child position can have the same player to move as its parent:
//! then its value is taken as it is and the window is passed on unchanged; only when
//! the player to move changes is the value negated and the window flipped.
//!
//! Oware's repetition rule: positions since the last capture along the game and the
//! search line are kept, and a position repeating among them scores as the game's end
//! by repetition (each player takes their own row). Transposition-table entries do not
//! record the path, so a value stored for a position reached by another line can be
//! reused where a repetition would have cut it short (the usual graph-history
//! approximation of game-tree search).

use std::time::{Duration, Instant};

use mancala_core::{Game, Move, Position, Side, Variant};

use crate::{
    Bound, History, Score, TranspositionTable, Weights, evaluate_with, order_key, position_key,
};

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

#[derive(Clone, Copy)]
struct Child {
    pos: Position,
    mv: Move,
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
    kids: Vec<Vec<Child>>,
    /// Oware: the positions since the last capture, along the game and the line.
    path: Vec<Position>,
    cap_start: usize,
    repetition: bool,
    root_best: Option<Move>,
    weights: Option<Weights>,
    active_weights: Weights,
}

impl std::fmt::Debug for Child {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.mv)
    }
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
            kids: Vec::new(),
            path: Vec::new(),
            cap_start: 0,
            repetition: false,
            root_best: None,
            weights: None,
            active_weights: Weights { store: 4, row: 0 },
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

    /// Forgets everything learned (table and history), for reproducible searches.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Searches the current position of `game` (which must not be over), applying
    /// Oware's repetition rule to the positions since the last capture.
    ///
    /// # Panics
    /// If the game is over.
    pub fn search(&mut self, game: &Game, limits: Limits) -> SearchResult {
        assert!(!game.is_over(), "search of a finished game");
        self.path.clear();
        let mut p = *game.start();
        self.path.push(p);
        for &mv in game.moves() {
            let next = p.play(mv).expect("the game's moves are legal");
            if next.stores() != p.stores() {
                self.path.clear();
            }
            self.path.push(next);
            p = next;
        }
        self.run(game.position(), limits)
    }

    /// Searches `root` (which must not be over) with no history before it.
    ///
    /// # Panics
    /// If the position is over.
    pub fn search_position(&mut self, root: &Position, limits: Limits) -> SearchResult {
        self.path.clear();
        self.path.push(*root);
        self.run(root, limits)
    }

    fn run(&mut self, root: &Position, limits: Limits) -> SearchResult {
        let moves = root.legal_moves();
        assert!(!moves.is_empty(), "search of a finished position");
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.can_stop = false;
        self.limits = limits;
        self.cap_start = 0;
        self.repetition = root.variant() == Variant::Oware;
        self.active_weights = self
            .weights
            .unwrap_or_else(|| Weights::for_variant(root.variant()));
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
            for depth in 1..=max_depth {
                self.root_best = None;
                let v = self.node(root, depth, -inf, inf, 0);
                if self.stopped {
                    break;
                }
                result.best = self.root_best.unwrap_or(moves[0]);
                result.score = Score::from_raw(v);
                result.depth = depth;
                self.can_stop = true;
                if limits.depth.is_none() && result.score.is_decisive() {
                    break;
                }
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
        if c.to_move() == parent {
            self.node(c, depth, alpha, beta, ply)
        } else {
            -self.node(c, depth, -beta, -alpha, ply)
        }
    }

    /// Applies the repetition rule around [`Searcher::negamax`].
    #[inline]
    fn node(&mut self, pos: &Position, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.repetition || ply == 0 {
            return self.negamax(pos, depth, alpha, beta, ply);
        }
        let saved = self.cap_start;
        let last = self.path.last().expect("the root is on the path");
        if last.stores() == pos.stores() {
            if !pos.is_over() && self.path[self.cap_start..].contains(pos) {
                self.nodes += 1;
                return repetition_score(pos);
            }
        } else {
            self.cap_start = self.path.len();
        }
        self.path.push(*pos);
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
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.can_stop {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        if pos.is_over() {
            return Score::final_for(pos, pos.to_move()).raw();
        }
        if depth == 0 {
            return evaluate_with(pos, self.active_weights).raw();
        }
        let key = position_key(pos);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
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

        // The table's move first, before the other moves are even played: when it
        // cuts off, they never are.
        let tt_move = tt_move.filter(|m| legal.contains(m));
        if let Some(mv) = tt_move {
            let mut c = *pos;
            c.play_unchecked(mv);
            let v = self.child(me, &c, depth - 1, alpha, beta, ply + 1);
            if self.stopped {
                return 0;
            }
            best = v;
            best_mv = Some(mv);
            if ply == 0 {
                self.root_best = Some(mv);
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    self.history.reward(me.index(), mv, depth);
                    self.tt
                        .store(key, Score::from_raw(best), depth, Bound::Lower, best_mv);
                    return best;
                }
            }
        }

        if self.kids.len() <= ply {
            self.kids
                .resize_with(ply + 1, || Vec::with_capacity(mancala_core::MAX_HOUSES));
        }
        let mut kids = std::mem::take(&mut self.kids[ply]);
        kids.clear();
        let mut keys = [0u64; mancala_core::MAX_HOUSES];
        for mv in legal {
            if Some(mv) == tt_move {
                continue;
            }
            let mut c = *pos;
            let report = c.play_unchecked(mv);
            let k = order_key(report, false, self.history.get(me.index(), mv));
            keys[kids.len()] = k << 5 | kids.len() as u64;
            kids.push(Child { pos: c, mv });
        }
        let n = kids.len();

        for i in 0..n {
            // Pick the best remaining move: cutoffs usually come early, so a full sort
            // would be wasted.
            let mut bi = i;
            for j in i + 1..n {
                if keys[j] > keys[bi] {
                    bi = j;
                }
            }
            keys.swap(i, bi);
            let c = kids[(keys[i] & 31) as usize];
            let v = if best_mv.is_none() {
                self.child(me, &c.pos, depth - 1, alpha, beta, ply + 1)
            } else {
                let v = self.child(me, &c.pos, depth - 1, alpha, alpha + 1, ply + 1);
                if v > alpha && v < beta && !self.stopped {
                    self.child(me, &c.pos, depth - 1, alpha, beta, ply + 1)
                } else {
                    v
                }
            };
            if self.stopped {
                self.kids[ply] = kids;
                return 0;
            }
            if v > best {
                best = v;
                best_mv = Some(c.mv);
                if ply == 0 {
                    self.root_best = Some(c.mv);
                }
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.history.reward(me.index(), c.mv, depth);
                        break;
                    }
                }
            }
        }
        self.kids[ply] = kids;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, Score::from_raw(best), depth, bound, best_mv);
        best
    }
}

/// The exact value, for the player to move, of the game ending by repetition at `pos`:
/// each player takes the seeds on their own row.
#[must_use]
pub fn repetition_score(pos: &Position) -> i32 {
    let me = pos.to_move();
    let mine = i32::from(pos.store(me)) + i32::from(pos.row_sum(me));
    let theirs = i32::from(pos.store(me.opponent())) + i32::from(pos.row_sum(me.opponent()));
    Score::from_margin(mine - theirs).raw()
}
