//! The exact solver: the final margin under perfect play by both players.
//!
//! Values are *margins*: player 1's final score minus player 2's, when both play
//! perfectly from the position.
//!
//! ```text
//! Solver ── Kalah: endgame.rs  every board of <= N seeds, built first on all cores
//!    │              kalah.rs    MTD(f) null-window alpha-beta on the seeds still to be
//!    │                          won, each root move on its own thread (idle threads help)
//!    │              table.rs    lock-free exact bounds, keyed by the board's number
//!    │              busy.rs     the positions threads are searching, so that threads
//!    │                          on one test take different children (simplified ABDADA)
//!    │              board.rs    the board packed in a u128, moves, numbers
//!    │              huge_pages.rs  table and database memory on 2 MiB pages
//!    └─ Oware: oware.rs         every reachable position, one strongly connected set of
//!                               capture-free moves at a time, children first; alpha-beta
//!                               over paths inside a set (the repetition rule) with
//!                               bounds that hold whatever the history
//! ```
//!
//! ```
//! use mancala_core::{Game, Move, Rules};
//! use mancala_solver::{SolveConfig, Solver};
//!
//! let mut solver = Solver::new(SolveConfig::default());
//! let game = Game::new(Rules::kalah(3, 2));
//! let solution = solver.solve(&game).unwrap();
//! // The value is the best of the moves' values for player 1 (who moves first).
//! let best = solution.move_values.iter().map(|&(_, v)| v).max().unwrap();
//! assert_eq!(solution.value, best);
//! assert!(solution.best_moves.iter().all(|m| solution.value_of(*m) == Some(best)));
//! ```

mod board;
mod busy;
mod endgame;
mod huge_pages;
mod kalah;
mod oware;
mod prefetch;
mod table;

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use mancala_core::{Game, Move, Position, Rules, Side, Variant};

use board::{MAX_SOLVER_HOUSES, Shape, Step, key_bits, positions_bound};
use endgame::Endgame;

use busy::Busy;
use kalah::{KalahSearch, sign};
use table::Table;

/// Kalah problems with more boards than this (see [`Estimate::positions`]) are refused
/// unless [`SolveConfig::force`] is set: about Kalah(6,5) from the start.
pub const KALAH_MAX_POSITIONS: u64 = 20_000_000_000_000;

/// Oware positions with more seeds in play than this are refused unless forced: the
/// solver visits every position reachable, and their number grows quickly with the
/// seeds.
pub const OWARE_MAX_SEEDS: u16 = 18;

/// The deepest the Oware search goes, in positions of a path inside one strongly
/// connected set of capture-free moves; beyond it the solve stops with
/// [`SolveError::TooLarge`] rather than run out of stack.
pub const OWARE_MAX_PATH: usize = 100_000;

/// The Oware search thread's stack: room for [`OWARE_MAX_PATH`] levels of the search
/// (reserved, and used only as deep as the search goes).
const OWARE_STACK_BYTES: usize = 1 << 30;

/// The endgame database has at most `P^ENDGAME_EXPONENT` boards for a problem of `P`
/// (see `Solver::endgame_seeds`). The cap on boards per expected node below is what
/// sizes the databases of six houses; this one keeps those of fewer houses, whose
/// searches are small next to their problems, from growing past what pays: Kalah(5,4)
/// gets 16 seeds (`P^0.671`: 1.7 s against 2.4 s with 14 and 2.2 s with 18 seeds),
/// Kalah(4,5) 19 (flat from 12 to 19: 0.21–0.23 s). For the every-move search of
/// the largest boards it is what binds, and there more pays: Kalah(6,5) gets 28 seeds
/// (`P^0.738`; 26, 27 and 28 seeds took 2355, 1500 and 1186 s on 2026-11-23),
/// Kalah(5,5) 23 (14.9 s against 19.2 s with 22).
const ENDGAME_EXPONENT: f64 = 0.74;

/// The endgame database has at most this many boards per node the search is expected
/// to visit (see `Solver::endgame_seeds`). Building a board costs about half what
/// searching a node does (on both cores: 46 ns against 80–90 ns), and each seed more
/// in the database makes it about 1.5 times larger and the search about a quarter
/// smaller, so the total is least when the build takes about half the search's time:
/// fitted to Kalah(6,4), every move's value (19 seeds, about 0.6 boards per expected
/// node; 17 to 20 seeds took 22.8–24.6, 22.4–23.2, 21.5–22.4 and 23.2–24.9 s), and
/// Kalah(6,5)'s best move (26 seeds, 0.43 boards per expected node: 22, 24, 25 and 26
/// seeds took 1089, 575, 488 and 433 s on 2026-11-23). Kalah(6,3) gets 11 seeds
/// (1.15 s; 12 took 0.88 s).
const ENDGAME_BOARDS_PER_NODE: f64 = 0.6;

/// What building the endgame database costs a core per board, about (a 19-seed
/// Kalah(6,4) database on the 2-core host: 141 M boards in 6.0–6.6 s on both cores,
/// `mancala bench endgame --houses 6 --endgame-seeds 19`; 7.1 s on a busier evening
/// with the tasks split finer, 1.9 cores busy), rounded up.
const ENDGAME_SECONDS_PER_BOARD: f64 = 100e-9;

/// Table entries per expected node (see `Solver::table_bytes`).
const TABLE_ENTRIES_PER_NODE: f64 = 0.5;

/// More nodes a second than a core of the solver searches (about 5 to 8 M on the 2-core
/// EPYC host of 2026-11-23, counting database lookups): bounds the nodes a solve with a
/// time limit can visit, which sizes its table.
const MAX_NODES_PER_CORE_SEC: f64 = 2e7;

/// A Kalah solve of a problem of `P` boards (those with at most the seeds in play) is
/// expected to visit at most `P^SEARCH_EXPONENT` nodes for every move's value. Measured
/// with the default databases (2026-11-24), every move's value took `P^0.62` to
/// `P^0.75` nodes: Kalah(5,3) 0.32 M of `P` = 8.5e8, (4,4) 0.26 M of 7.7e7, (4,5)
/// 0.55 M of 3.8e8, (4,7) 1.6 M of 4.4e9, (4,8) 3.3 M of 1.1e10, (6,3) 7.4 M of 6.9e10,
/// (5,4) 11.3 M of 1.0e10, (6,4) 213 M of 1.4e12, (6,5) 8.5 G of 1.5e13. This bounds
/// the estimate from the seeds alone on narrow boards with many seeds, which it
/// overshot a thousandfold (Kalah(4,7): 4.4e9 nodes expected, so a 4 GiB table,
/// whose fresh pages took most of the 4.2–5.3 s the solve took; 0.7 s since).
/// It is above that estimate on every board the estimate was fitted on (Kalah(6,5)'s
/// 2.5e10 needs an exponent of 0.79), so their tables and databases keep their sizes;
/// where it binds, the database is already the `P^`[`ENDGAME_EXPONENT`] cap, so only
/// the table shrinks. It holds within [`KALAH_MAX_POSITIONS`]: beyond it (`--force`)
/// the nodes grow faster than any fixed power of `P` (Kalah(6,6), `P` = 1.1e14, took
/// 5.5e13 nodes in its published solve with a 34-seed database: `P^0.97`), and those
/// problems keep the estimate from the seeds, capped only at `P`.
const SEARCH_EXPONENT: f64 = 0.8;

/// The nodes a Kalah solve with `seeds` in play is expected to visit for `goal`: for
/// every move's value about tenfold every 6 seeds (Kalah(4,4), 32 seeds: 0.5 M; (5,4),
/// 40: 31 M; (6,4), 48: 263 M with a 17-seed database) but at most
/// `P^`[`SEARCH_EXPONENT`] for a problem of `P` boards within [`KALAH_MAX_POSITIONS`]
/// and never more than `P` beyond it, for a best move a quarter of that (Kalah(6,4)
/// with a 19-seed database: 60 M against 221 M).
fn expected_nodes(rules: Rules, seeds: usize, goal: Goal) -> f64 {
    let boards = positions_bound(2 * rules.houses(), seeds).unwrap_or(u64::MAX) as f64;
    let cap = if boards <= KALAH_MAX_POSITIONS as f64 {
        boards.powf(SEARCH_EXPONENT)
    } else {
        boards
    };
    let every_move = (2.5e5 * 10f64.powf((seeds as f64 - 30.0) / 6.0)).min(cap);
    match goal {
        Goal::EveryMove => every_move,
        Goal::BestMove => every_move / 4.0,
    }
}

/// What a Kalah solve proves, which sets how much it expects to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// Every legal move's exact value.
    EveryMove,
    /// The position's value and one best move.
    BestMove,
}

/// The smallest table a Kalah solve gets (unless `--hash-mb` asks for less).
const MIN_TABLE_BYTES: usize = 16 << 20;

/// The automatic endgame database holds at most this many seeds.
const MAX_ENDGAME_SEEDS: usize = 40;

/// Root moves get a first guess from the caller's [`FirstGuess`] unless they are within
/// this many seeds of the endgame database.
const GUESS_SEEDS: i32 = 6;

/// A first guess at the value of a position that is not over, for MTD(f) to start
/// from: the final margin (the mover's score minus the other player's, stores
/// included) a heuristic search expects, or `None` for no guess. A good guess saves
/// null-window tests; a bad one costs tests but never changes a value.
pub type FirstGuess = dyn Fn(&Position) -> Option<i32> + Send + Sync;

/// How a solve may use the machine.
///
/// ```
/// use mancala_solver::SolveConfig;
/// let c = SolveConfig::default().with_table_mb(64);
/// assert_eq!(c.table_bytes, 64 << 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveConfig {
    /// The most memory for the transposition table and the endgame database (Kalah,
    /// which sizes both to the problem within it) or for the positions reachable
    /// (Oware), in bytes.
    pub table_bytes: usize,
    /// Give up after this long (the answer is then [`SolveError::OutOfTime`]).
    pub time_limit: Option<Duration>,
    /// Solve even problems [`Solver::estimate`] judges too large.
    pub force: bool,
    /// Kalah: build the endgame database for boards of at most this many seeds in
    /// play (`None`: a size chosen from the problem's size and the memory).
    pub endgame_seeds: Option<usize>,
}

impl Default for SolveConfig {
    /// A 256 MiB table, no time limit.
    fn default() -> Self {
        SolveConfig {
            table_bytes: 256 << 20,
            time_limit: None,
            force: false,
            endgame_seeds: None,
        }
    }
}

impl SolveConfig {
    /// The same configuration with a table of `mb` MiB.
    #[must_use]
    pub fn with_table_mb(self, mb: usize) -> SolveConfig {
        SolveConfig {
            table_bytes: mb << 20,
            ..self
        }
    }

    /// The same configuration with a time limit.
    #[must_use]
    pub fn with_time_limit(self, limit: Duration) -> SolveConfig {
        SolveConfig {
            time_limit: Some(limit),
            ..self
        }
    }
}

/// Why a position was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The solver does not handle this variant.
    #[error("the solver does not handle {0} (it solves kalah and oware)")]
    Unsupported(Variant),
    /// The problem is too large to solve on this machine.
    #[error("{0}")]
    TooLarge(String),
    /// The endgame database file given with [`Solver::with_endgame_file`] could not
    /// be read or written.
    #[error("endgame database file {path}: {reason}")]
    EndgameFile {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// The time limit ran out (or the solve was stopped).
    #[error("the solve ran out of time")]
    OutOfTime,
}

/// How big a problem is, judged before any search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Seeds still in play.
    pub seeds_in_play: u16,
    /// Boards that hold at most that many seeds: a bound on the positions met
    /// (`u64::MAX` when it does not fit).
    pub positions: u64,
    /// The most memory the solve will hold, in bytes (the table and the endgame
    /// database, both sized to the problem within [`SolveConfig::table_bytes`]).
    pub memory_bytes: usize,
    /// Kalah: about how many nodes the search will visit (`None` for Oware).
    pub expected_nodes: Option<ExpectedNodes>,
}

/// About how many nodes a Kalah solve will visit, from the seeds in play and the size
/// of the board: a rough guide, fitted on the default rules and the databases of
/// 2026-11-23 (Kalah(6,5), every move's value: 25 G expected, 23.3 G measured with a
/// 26-seed database, 8.5 G with the 28 seeds it gets now; its best move 6.3 G
/// expected, 2.3–2.8 G measured); `--empty-capture` takes a few times fewer.
///
/// ```
/// use mancala_core::{Position, Rules};
/// use mancala_solver::{SolveConfig, Solver};
/// let e = Solver::estimate(&Position::new(Rules::kalah(6, 5)), SolveConfig::default());
/// let nodes = e.unwrap().expected_nodes.unwrap();
/// assert!(nodes.best_move < nodes.every_move);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpectedNodes {
    /// For every legal move's value.
    pub every_move: u64,
    /// For the value and one best move.
    pub best_move: u64,
}

/// The Kalah endgame database a solve used ([`Solver::endgame`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameInfo {
    /// It holds every board of at most this many seeds in play.
    pub seeds: usize,
    /// It was read from the endgame file.
    pub read: bool,
    /// It was built and written to the endgame file.
    pub written: bool,
}

/// A progress report during a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Kalah: the endgame database now holds every board of up to `seeds` seeds in
    /// play, of the `of` it is being built for.
    Database {
        /// Seed counts done.
        seeds: usize,
        /// Seed counts to do.
        of: usize,
    },
    /// A null-window test narrowed the value of a root move.
    Bounds {
        /// The root move being solved, or `None` for the position itself.
        mv: Option<Move>,
        /// The margin is proved to be at least this...
        lower: i32,
        /// ... and at most this (for player 1, like every value here).
        upper: i32,
        /// Nodes searched so far by this move's search.
        nodes: u64,
    },
    /// Oware: `solved` of the `of` positions reachable from the one solved are done
    /// (they are solved from the end of the game backwards, the position itself last).
    Positions {
        /// Positions done.
        solved: usize,
        /// Positions reachable from the one solved.
        of: usize,
    },
}

/// The speed of building a Kalah endgame database ([`bench_endgame`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameBench {
    /// The largest seed count held.
    pub seeds: usize,
    /// Boards solved (the database's size in bytes).
    pub boards: u64,
    /// Wall time.
    pub seconds: f64,
    /// Threads of the rayon pool it ran in.
    pub threads: usize,
}

impl EndgameBench {
    /// Boards solved per second.
    #[must_use]
    pub fn boards_per_sec(&self) -> f64 {
        self.boards as f64 / self.seconds.max(1e-9)
    }
}

/// Builds the Kalah endgame database of every board of `rules`' size with at most
/// `seeds` seeds in play (one byte a board, `C(seeds + 2H, 2H)` boards), in the current
/// rayon pool, and times it.
///
/// # Errors
/// [`SolveError::Unsupported`] for a variant other than Kalah, [`SolveError::TooLarge`]
/// when the boards cannot be numbered or need more than `max_bytes`.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_solver::bench_endgame;
/// let b = bench_endgame(Rules::kalah(3, 1), 6, 1 << 20).unwrap();
/// assert_eq!(b.boards, 924); // C(6 + 6, 6)
/// assert!(bench_endgame(Rules::kalah(3, 1), 6, 900).is_err());
/// ```
pub fn bench_endgame(
    rules: Rules,
    seeds: usize,
    max_bytes: usize,
) -> Result<EndgameBench, SolveError> {
    if rules.variant() != Variant::Kalah {
        return Err(SolveError::Unsupported(rules.variant()));
    }
    let too_large = || SolveError::TooLarge(format!("a database of {seeds} seeds for {rules}"));
    if rules.houses() > MAX_SOLVER_HOUSES || seeds > 127 {
        return Err(too_large());
    }
    let shape = Shape::new(rules, seeds).ok_or_else(too_large)?;
    let bytes = Endgame::bytes_for(2 * rules.houses(), seeds).ok_or_else(too_large)?;
    if bytes > max_bytes {
        return Err(SolveError::TooLarge(format!(
            "a database of {seeds} seeds for {rules} needs {} MiB, more than the {} MiB \
             allowed",
            bytes >> 20,
            max_bytes >> 20
        )));
    }
    let start = Instant::now();
    let db = Endgame::build(&shape, seeds, |_, _| {}, || false).expect("never stopped");
    Ok(EndgameBench {
        seeds,
        boards: db.bytes() as u64,
        seconds: start.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    })
}

/// The answer of [`Solver::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The margin (player 1's final score minus player 2's) under perfect play.
    pub value: i32,
    /// Each legal move with the margin after it under perfect play, in house order.
    pub move_values: Vec<(Move, i32)>,
    /// The moves that achieve [`Solution::value`], in house order.
    pub best_moves: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Memory held by the solver's table, in bytes.
    pub memory_bytes: usize,
}

impl Solution {
    /// The margin after `mv`, if it is legal.
    #[must_use]
    pub fn value_of(&self, mv: Move) -> Option<i32> {
        self.move_values
            .iter()
            .find(|&&(m, _)| m == mv)
            .map(|&(_, v)| v)
    }
}

/// One root move to solve, shared by the threads.
struct RootJob {
    mv: Move,
    step: Step,
    /// The first guess at the gain of the position after it, for its mover.
    guess: i32,
    /// The move's margin, once a thread has it.
    value: Mutex<Option<i32>>,
    /// Set when `value` is; stops the threads still searching it.
    finished: AtomicBool,
}

/// A root move of a best-move search: the bounds proved on its value (for the player
/// to move at the root), and the next null-window test to make on it.
struct RootMove {
    mv: Move,
    step: Step,
    lo: i32,
    hi: i32,
    /// Where its next MTD(f) test goes (the last result, or the first guess).
    next_test: i32,
    /// The test threads are running on it, if any.
    running: Option<RunningTest>,
}

/// A test ("is the move worth at least `t`?") in progress on one or more threads.
struct RunningTest {
    t: i32,
    /// How many threads are on it.
    threads: usize,
    /// Set by the first thread to finish it, which stops the others.
    done: Arc<AtomicBool>,
}

/// The root moves of a best-move search. The position's value is the largest of the
/// moves' values: it is known once one move's lower bound is at least every move's
/// upper bound.
struct BestRoot {
    moves: Vec<RootMove>,
}

impl BestRoot {
    /// The bounds on the position's value.
    fn bounds(&self) -> (i32, i32) {
        let lo = self.moves.iter().map(|m| m.lo).max().expect("a legal move");
        let hi = self.moves.iter().map(|m| m.hi).max().expect("a legal move");
        (lo, hi)
    }

    fn decided(&self) -> bool {
        let (lo, hi) = self.bounds();
        lo == hi
    }

    /// A move whose value reaches the position's (once decided).
    fn best(&self) -> (Move, i32) {
        let (lo, _) = self.bounds();
        let m = self
            .moves
            .iter()
            .find(|m| m.lo == lo)
            .expect("a legal move");
        (m.mv, lo)
    }

    /// The next test for an idle thread, as `(move, t, done)`: a move no thread is
    /// testing that could still beat the best lower bound, tested against ("at least
    /// `t`?") the move's MTD(f) guess, but never below what it must reach to beat the
    /// best lower bound; the move with the best guess first. When every such move is
    /// being tested, the running test with the fewest threads, to join (the threads
    /// share the work through the table and [`Busy`]). `None` if nothing is running
    /// either.
    fn next_test(&mut self, seeds: i32) -> Option<(usize, i32, Arc<AtomicBool>)> {
        let (lo, _) = self.bounds();
        let fresh = (0..self.moves.len())
            .filter(|&k| self.moves[k].running.is_none() && self.moves[k].hi > lo)
            .max_by_key(|&k| (self.moves[k].lo, self.moves[k].next_test));
        let Some(k) = fresh else {
            let (k, test) = self
                .moves
                .iter_mut()
                .enumerate()
                .filter_map(|(k, m)| Some((k, m.running.as_mut()?)))
                .min_by_key(|(_, test)| test.threads)?;
            test.threads += 1;
            return Some((k, test.t, Arc::clone(&test.done)));
        };
        let m = &mut self.moves[k];
        // At least the move's own lower bound + 1, and more than the best lower bound
        // (unless this move holds it), of the parity of the values, within (lo, hi].
        let floor = if m.lo == lo { m.lo + 1 } else { lo + 1 };
        let mut t = m.next_test.max(floor);
        if (t - seeds).rem_euclid(2) != 0 {
            t += 1;
        }
        let t = t.min(m.hi);
        let done = Arc::new(AtomicBool::new(false));
        m.running = Some(RunningTest {
            t,
            threads: 1,
            done: Arc::clone(&done),
        });
        Some((k, t, done))
    }

    /// Records the fail-soft result `v` of testing move `k` against `t`, unless another
    /// thread on the same test has already, or the test was stopped (which `done`
    /// tells). Stops the tests this makes needless: those of other moves against at
    /// most the best lower bound.
    fn record(&mut self, k: usize, t: i32, v: i32, done: &AtomicBool) {
        if done.swap(true, Ordering::Relaxed) {
            return;
        }
        let m = &mut self.moves[k];
        if v >= t {
            m.lo = m.lo.max(v);
        } else {
            m.hi = m.hi.min(v);
        }
        m.next_test = v;
        m.running = None;
        // A test on another move at or below the best lower bound now asks more than
        // is needed (to beat that bound, not to reach `t`): stop it, so that the move
        // is tested again against the bound, which is cheaper to refute. (Kalah(6,4):
        // move 6 tested against 6 ran to 28 M nodes; stopped and tested against 10, it
        // was refuted in 3.8 M.)
        let (lo, _) = self.bounds();
        for other in &mut self.moves {
            if other.lo < lo && other.running.as_ref().is_some_and(|test| test.t <= lo) {
                let test = other.running.take().expect("just checked");
                test.done.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// A thread helping with a root move another is solving starts its MTD(f) this much
/// higher (per helper), so that the two prove different bounds into the shared table.
const HELPER_GUESS_STEP: i32 = 4;

/// The Kalah solver's state kept between solves: the shape its table's keys use.
struct KalahState {
    rules: Rules,
    shape: Shape,
    table: Table,
    busy: Busy,
    endgame: Option<Endgame>,
}

impl KalahState {
    /// A first guess at the gain of the position after house `i` of `pos` (not over),
    /// for the player to move there: from `first_guess`.
    fn guess(&self, pos: &Position, i: usize, first_guess: Option<&FirstGuess>) -> i32 {
        let mut next = *pos;
        next.play_unchecked(Move::from_index(i));
        if next.is_over() {
            0
        } else {
            self.guess_gain(&next, first_guess)
        }
    }

    /// A first guess at the gain of `pos` (not over) for its player to move: the
    /// margin `first_guess` expects, less the store difference already banked. Small
    /// problems, and a solver without a first guess, start from 0.
    fn guess_gain(&self, pos: &Position, first_guess: Option<&FirstGuess>) -> i32 {
        let seeds = i32::from(pos.seeds_in_play());
        if self
            .endgame
            .as_ref()
            .is_some_and(|db| seeds <= db.seeds() + GUESS_SEEDS)
        {
            return 0;
        }
        let Some(margin) = first_guess.and_then(|guess| guess(pos)) else {
            return 0;
        };
        let me = pos.to_move();
        let banked = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        (margin - banked).clamp(-seeds, seeds)
    }

    /// A fresh search over this state's table, stopping at `deadline` or when `stop`
    /// is set.
    fn search<'a>(&'a self, deadline: Option<Instant>, stop: &'a AtomicBool) -> KalahSearch<'a> {
        KalahSearch {
            shape: &self.shape,
            table: &self.table,
            busy: &self.busy,
            endgame: self.endgame.as_ref(),
            nodes: 0,
            deadline,
            stop,
            finished: None,
            aborted: false,
        }
    }
}

/// An exact solver. For Kalah it keeps its table and endgame database between solves
/// of the same game, so the positions of a game in progress get faster to solve; an
/// Oware solve starts afresh (it visits every position reachable anyway).
///
/// ```
/// use mancala_core::{Game, Rules};
/// use mancala_solver::{SolveConfig, Solver};
/// let mut solver = Solver::new(SolveConfig::default().with_table_mb(16));
/// // Oware on one house per side: no capture is possible (it would take the whole
/// // row), so the game ends by repetition and each keeps their own row.
/// let v = solver.value(&Game::new(Rules::oware(1, 2))).unwrap();
/// assert!(v.abs() <= 4);
/// ```
pub struct Solver {
    config: SolveConfig,
    endgame_file: Option<PathBuf>,
    endgame_info: Option<EndgameInfo>,
    first_guess: Option<Arc<FirstGuess>>,
    kalah: Option<KalahState>,
    /// Memory the last Oware solve used.
    oware_bytes: usize,
    stop: Arc<AtomicBool>,
}

impl Solver {
    /// A solver with `config`; the table is allocated on the first solve.
    #[must_use]
    pub fn new(config: SolveConfig) -> Solver {
        Solver {
            config,
            endgame_file: None,
            endgame_info: None,
            first_guess: None,
            kalah: None,
            oware_bytes: 0,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The same solver keeping its Kalah endgame database in the file at `path`: a
    /// solve reads the database from there when the file holds at least the boards it
    /// needs (so later solves start warm), and otherwise builds it and writes it there.
    /// A file for other rules, or not a database at all, is an error, not overwritten.
    ///
    /// ```
    /// use mancala_core::{Game, Rules};
    /// use mancala_solver::{SolveConfig, Solver};
    /// let path = std::env::temp_dir().join(format!("kalah-3-3-{}.db", std::process::id()));
    /// let config = SolveConfig { endgame_seeds: Some(10), ..SolveConfig::default() };
    /// let game = Game::new(Rules::kalah(3, 3));
    /// let mut first = Solver::new(config).with_endgame_file(&path);
    /// let value = first.value(&game).unwrap();
    /// assert!(first.endgame().unwrap().written);
    /// let mut second = Solver::new(config).with_endgame_file(&path);
    /// assert_eq!(second.value(&game).unwrap(), value);
    /// assert!(second.endgame().unwrap().read);
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    #[must_use]
    pub fn with_endgame_file(self, path: impl Into<PathBuf>) -> Solver {
        Solver {
            endgame_file: Some(path.into()),
            ..self
        }
    }

    /// The same solver starting each Kalah root move's MTD(f) from `guess` (see
    /// [`FirstGuess`]); without one, every root move starts from a gain of 0.
    ///
    /// ```
    /// use mancala_core::{Game, Rules};
    /// use mancala_solver::{SolveConfig, Solver};
    /// let game = Game::new(Rules::kalah(4, 3));
    /// let mut plain = Solver::new(SolveConfig::default().with_table_mb(16));
    /// // Any guess, even a poor one, leaves the values exact.
    /// let mut guessing = Solver::new(SolveConfig::default().with_table_mb(16))
    ///     .with_first_guess(|_| Some(5));
    /// assert_eq!(plain.solve(&game).unwrap().move_values, guessing.solve(&game).unwrap().move_values);
    /// ```
    #[must_use]
    pub fn with_first_guess(
        self,
        guess: impl Fn(&Position) -> Option<i32> + Send + Sync + 'static,
    ) -> Solver {
        Solver {
            first_guess: Some(Arc::new(guess)),
            ..self
        }
    }

    /// The Kalah endgame database of the last solve, if it had one.
    #[must_use]
    pub fn endgame(&self) -> Option<EndgameInfo> {
        self.endgame_info
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> SolveConfig {
        self.config
    }

    /// Changes the time limit for later solves.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.config.time_limit = limit;
    }

    /// Judges the size of solving `pos` before any work: an error if the variant is
    /// not handled, or the problem is beyond the limits ([`KALAH_MAX_POSITIONS`],
    /// [`OWARE_MAX_SEEDS`]) and not forced, or cannot be numbered at all.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] or [`SolveError::TooLarge`], with a message for
    /// people.
    ///
    /// ```
    /// use mancala_core::{Position, Rules};
    /// use mancala_solver::{SolveConfig, Solver};
    /// let config = SolveConfig::default();
    /// assert!(Solver::estimate(&Position::new(Rules::kalah(6, 4)), config).is_ok());
    /// assert!(Solver::estimate(&Position::new(Rules::kalah(6, 10)), config).is_err());
    /// ```
    pub fn estimate(pos: &Position, config: SolveConfig) -> Result<Estimate, SolveError> {
        let rules = pos.rules();
        let seeds = pos.seeds_in_play();
        let cells = 2 * rules.houses();
        let positions = positions_bound(cells, usize::from(seeds)).unwrap_or(u64::MAX);
        match rules.variant() {
            Variant::Kalah => {
                if !config.force && positions > KALAH_MAX_POSITIONS {
                    return Err(SolveError::TooLarge(format!(
                        "{rules} with {seeds} seeds in play is too large to solve: up to {positions:.3e} \
                         positions, the limit is {KALAH_MAX_POSITIONS:.1e} (about Kalah(6,5)); \
                         use a smaller board or fewer seeds",
                        positions = positions as f64,
                        KALAH_MAX_POSITIONS = KALAH_MAX_POSITIONS as f64,
                    )));
                }
                if rules.houses() > MAX_SOLVER_HOUSES {
                    return Err(SolveError::TooLarge(format!(
                        "{rules} cannot be solved: the solver handles at most \
                         {MAX_SOLVER_HOUSES} houses a side"
                    )));
                }
                if let Some(n) = config.endgame_seeds {
                    let n = n.min(usize::from(seeds).saturating_sub(1));
                    let bytes = Endgame::bytes_for(cells, n).unwrap_or(usize::MAX);
                    if bytes > config.table_bytes {
                        return Err(SolveError::TooLarge(format!(
                            "an endgame database of {n} seeds for {rules} needs {} MiB, more \
                             than the {} MiB allowed; ask for fewer seeds or more memory",
                            bytes >> 20,
                            config.table_bytes >> 20
                        )));
                    }
                }
                if Shape::new(rules, usize::from(seeds)).is_none() {
                    return Err(SolveError::TooLarge(format!(
                        "{rules} with {seeds} seeds in play cannot be solved: its positions \
                         cannot be numbered in 62 bits (at most 255 seeds in play)"
                    )));
                }
                let expected = |goal| expected_nodes(rules, usize::from(seeds), goal) as u64;
                Ok(Estimate {
                    seeds_in_play: seeds,
                    positions,
                    memory_bytes: Table::bytes_for(config.table_bytes, key_bits(positions)),
                    expected_nodes: Some(ExpectedNodes {
                        every_move: expected(Goal::EveryMove),
                        best_move: expected(Goal::BestMove),
                    }),
                })
            }
            Variant::Oware => {
                if !config.force && seeds > OWARE_MAX_SEEDS {
                    return Err(SolveError::TooLarge(format!(
                        "{rules} with {seeds} seeds in play is too large to solve: the repetition \
                         rule makes Oware solvable here only with at most {OWARE_MAX_SEEDS} seeds in play"
                    )));
                }
                Ok(Estimate {
                    seeds_in_play: seeds,
                    positions,
                    memory_bytes: config.table_bytes,
                    expected_nodes: None,
                })
            }
            v @ Variant::OwareSimplified => Err(SolveError::Unsupported(v)),
        }
    }

    /// Solves `game`'s current position: its value and the value of every legal move.
    ///
    /// # Errors
    /// As [`Solver::estimate`], or [`SolveError::OutOfTime`].
    pub fn solve(&mut self, game: &Game) -> Result<Solution, SolveError> {
        self.solve_with_progress(game, |_| {})
    }

    /// Like [`Solver::solve`], calling `progress` after every null-window test.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_with_progress(
        &mut self,
        game: &Game,
        mut progress: impl FnMut(Progress) + Send,
    ) -> Result<Solution, SolveError> {
        let started = Instant::now();
        let pos = *game.position();
        if let Some(o) = game.outcome() {
            return Ok(Solution {
                value: o.margin(),
                move_values: Vec::new(),
                best_moves: Vec::new(),
                nodes: 0,
                elapsed: started.elapsed(),
                memory_bytes: 0,
            });
        }
        Solver::estimate(&pos, self.config)?;
        let deadline = self.config.time_limit.map(|t| started + t);
        let (move_values, nodes) = match pos.variant() {
            Variant::Kalah => self.kalah_moves(&pos, deadline, &mut progress)?,
            Variant::Oware => self.oware_moves(game, deadline, &mut progress)?,
            v @ Variant::OwareSimplified => return Err(SolveError::Unsupported(v)),
        };
        let value = if pos.to_move() == Side::South {
            move_values.iter().map(|&(_, v)| v).max()
        } else {
            move_values.iter().map(|&(_, v)| v).min()
        }
        .expect("a position that is not over has a legal move");
        let best_moves = move_values
            .iter()
            .filter(|&&(_, v)| v == value)
            .map(|&(m, _)| m)
            .collect();
        Ok(Solution {
            value,
            move_values,
            best_moves,
            nodes,
            elapsed: started.elapsed(),
            memory_bytes: self.memory_bytes(),
        })
    }

    /// The value of `game`'s current position only (cheaper than [`Solver::solve`]).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn value(&mut self, game: &Game) -> Result<i32, SolveError> {
        self.best_move(game).map(|(_, v)| v.value)
    }

    /// A best move of `game`'s current position and the value; `None` for the move once
    /// the game is over.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn best_move(&mut self, game: &Game) -> Result<(Option<Move>, Solution), SolveError> {
        self.best_move_with_progress(game, |_| {})
    }

    /// [`Solver::best_move`], calling `progress` as the database is built and as the
    /// bounds on the position's value narrow (`Progress::Bounds` with `mv: None`).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn best_move_with_progress(
        &mut self,
        game: &Game,
        mut progress: impl FnMut(Progress) + Send,
    ) -> Result<(Option<Move>, Solution), SolveError> {
        let started = Instant::now();
        let pos = *game.position();
        if game.is_over() {
            return self.solve(game).map(|s| (None, s));
        }
        Solver::estimate(&pos, self.config)?;
        let deadline = self.config.time_limit.map(|t| started + t);
        let (mv, value, nodes) = match pos.variant() {
            Variant::Kalah => self.kalah_best(&pos, deadline, &mut progress)?,
            Variant::Oware => {
                // Oware boards are small: solving every move costs little more.
                let s = self.solve_with_progress(game, progress)?;
                return Ok((s.best_moves.first().copied(), s));
            }
            v @ Variant::OwareSimplified => return Err(SolveError::Unsupported(v)),
        };
        Ok((
            Some(mv),
            Solution {
                value,
                move_values: vec![(mv, value)],
                best_moves: vec![mv],
                nodes,
                elapsed: started.elapsed(),
                memory_bytes: self.memory_bytes(),
            },
        ))
    }

    /// Memory held by the solver's tables, in bytes.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.kalah.as_ref().map_or(0, |k| {
            k.table.bytes() + k.endgame.as_ref().map_or(0, Endgame::bytes)
        }) + self.oware_bytes
    }

    /// The Kalah state for `pos`, rebuilt when the rules change or more seeds are in
    /// play than its numbering covers; building it builds the endgame database.
    fn kalah_state(
        &mut self,
        pos: &Position,
        goal: Goal,
        deadline: Option<Instant>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<&KalahState, SolveError> {
        let seeds = usize::from(pos.seeds_in_play());
        let rules = pos.rules();
        let fits = self
            .kalah
            .as_ref()
            .is_some_and(|k| k.rules == rules && k.shape.covers(seeds));
        if !fits {
            self.kalah = None; // free the old table first
            let shape = Shape::new(rules, seeds).expect("estimate checked the numbering");
            let db_seeds = self.endgame_seeds(rules, seeds, goal);
            let stop = &self.stop;
            let out_of_time = || {
                stop.load(std::sync::atomic::Ordering::Relaxed)
                    || deadline.is_some_and(|d| Instant::now() >= d)
            };
            let endgame = match db_seeds {
                Some(n) => {
                    let (db, info) = self.endgame_for(&shape, n, seeds, progress, out_of_time)?;
                    self.endgame_info = Some(info);
                    Some(db)
                }
                None => {
                    self.endgame_info = None;
                    None
                }
            };
            // The database takes its share first (one read from a file may be larger
            // than the one asked for).
            let table = Table::new(
                self.table_bytes(rules, seeds)
                    .saturating_sub(endgame.as_ref().map_or(0, Endgame::bytes)),
                shape.key_bits,
            );
            self.kalah = Some(KalahState {
                rules,
                shape,
                table,
                busy: Busy::default(),
                endgame,
            });
        }
        Ok(self.kalah.as_ref().expect("just built"))
    }

    /// The endgame database of at least `n` seeds for a solve with `seeds` in play:
    /// read from the endgame file when that holds at least `n` seeds (keeping the
    /// boards of fewer than `seeds`, the others are never looked up, and no more than
    /// its share of the memory allows), else built, and written to the file if there is
    /// one.
    fn endgame_for(
        &self,
        shape: &Shape,
        n: usize,
        seeds: usize,
        progress: &mut dyn FnMut(Progress),
        out_of_time: impl Fn() -> bool,
    ) -> Result<(Endgame, EndgameInfo), SolveError> {
        // A larger database in the file is welcome, up to its share of the memory.
        let fits = Endgame::seeds_for(
            2 * shape.h,
            self.endgame_bytes_allowed(),
            seeds.saturating_sub(1),
        );
        let read = match &self.endgame_file {
            Some(path) => read_endgame(path, shape, fits.max(n))?,
            None => None,
        };
        if let Some(db) = read.filter(|db| db.seeds() as usize >= n) {
            let info = EndgameInfo {
                seeds: db.seeds() as usize,
                read: true,
                written: false,
            };
            return Ok((db, info));
        }
        let db = Endgame::build(
            shape,
            n,
            |done, of| progress(Progress::Database { seeds: done, of }),
            out_of_time,
        )
        .ok_or(SolveError::OutOfTime)?;
        if let Some(path) = &self.endgame_file {
            write_endgame(path, shape, &db)?;
        }
        let info = EndgameInfo {
            seeds: n,
            read: false,
            written: self.endgame_file.is_some(),
        };
        Ok((db, info))
    }

    /// The memory for a Kalah solve with `seeds` in play: `--hash-mb`, or less when a
    /// smaller table is enough: half an entry per node the search for every move's
    /// value is expected to visit (Kalah(6,4), every move's value with a 16-seed
    /// database: 366–369 M nodes with 512 MiB, 483–487 M with 256 MiB). A best-move
    /// search gets the same: it visits fewer nodes, but needs some room (Kalah(6,4)'s
    /// best move, 16-seed database: 113–115 M nodes with 512 MiB, 115–119 M with 256
    /// MiB, 132–133 M with 128 MiB; two runs each on 2026-11-24).
    /// A table much larger than the search fills is slower, not faster: every probe is
    /// a cache and TLB miss, and on a virtual machine fresh memory costs system time.
    /// Kalah(6,3) (about 4 M nodes) takes 1.1 s with 32 MiB and 2.0 s with 1 GiB;
    /// Kalah(6,4) (about 300 M nodes) 50 s with 512 MiB, 47 s with 1 or 2 GiB, and up
    /// to 64 s with 4 GiB (34 s of it system time). With a time limit, no more than
    /// the nodes a core could search in it ([`MAX_NODES_PER_CORE_SEC`]): fresh memory
    /// can be slow to fault in on a virtual machine: `mancala solve --houses 6 --seeds 5
    /// --time-limit 1` stopped after 1.07 to 13.8 s with the 2 GiB table, nearly all
    /// of it system time, and after 1.01 to 1.03 s with 512 MiB (four alternating runs
    /// each). At least [`MIN_TABLE_BYTES`].
    fn table_bytes(&self, rules: Rules, seeds: usize) -> usize {
        let mut nodes = expected_nodes(rules, seeds, Goal::EveryMove);
        if let Some(t) = self.config.time_limit {
            let cores = rayon::current_num_threads() as f64;
            nodes = nodes.min(t.as_secs_f64() * cores * MAX_NODES_PER_CORE_SEC);
        }
        let wanted = (nodes * TABLE_ENTRIES_PER_NODE * table::ENTRY_BYTES as f64)
            .max(MIN_TABLE_BYTES as f64);
        self.config.table_bytes.min(wanted as usize)
    }

    /// The seeds of the endgame database for a Kalah solve with `seeds` in play for
    /// `goal`: as configured, or the largest database with at most
    /// [`ENDGAME_BOARDS_PER_NODE`] boards per node the search is expected to visit (a
    /// database much larger than the search costs more than it saves) and at most
    /// `P^0.74` boards when the whole problem has `P`, within its share of the memory
    /// ([`Solver::endgame_bytes_allowed`]) and, with a time limit, built in a quarter
    /// of it; `None` for no database.
    fn endgame_seeds(&self, rules: Rules, seeds: usize, goal: Goal) -> Option<usize> {
        let cells = 2 * rules.houses();
        let below = seeds.saturating_sub(1);
        let n = match self.config.endgame_seeds {
            Some(n) => n.min(below),
            None => {
                let problem = positions_bound(cells, seeds).unwrap_or(u64::MAX) as f64;
                let mut boards = problem
                    .powf(ENDGAME_EXPONENT)
                    .min(expected_nodes(rules, seeds, goal) * ENDGAME_BOARDS_PER_NODE)
                    as usize;
                if let Some(t) = self.config.time_limit {
                    // At most a quarter of the time limit for the build.
                    let cores = rayon::current_num_threads() as f64;
                    let affordable = t.as_secs_f64() / 4.0 * cores / ENDGAME_SECONDS_PER_BOARD;
                    boards = boards.min(affordable as usize);
                }
                let bytes = boards.min(self.endgame_bytes_allowed());
                Endgame::seeds_for(cells, bytes, below.min(MAX_ENDGAME_SEEDS))
            }
        };
        (n >= 1).then_some(n)
    }

    /// The most memory the endgame database may take: three quarters of what the solve
    /// may use. The table gets the rest, which is plenty: Kalah(6,5)'s every move with a
    /// 28-seed database visited 10.2 G nodes with 128 M table entries (16-byte slots,
    /// 2 GiB, on 2026-11-23) and 10.25 G with 256 M (2026-11-24).
    fn endgame_bytes_allowed(&self) -> usize {
        self.config.table_bytes / 4 * 3
    }

    fn kalah_moves(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        progress: &mut (impl FnMut(Progress) + Send),
    ) -> Result<(Vec<(Move, i32)>, u64), SolveError> {
        let stop = Arc::clone(&self.stop);
        let first_guess = self.first_guess.clone();
        let state = self.kalah_state(pos, Goal::EveryMove, deadline, progress)?;
        let shape = &state.shape;
        let me = pos.to_move();
        let sgn = sign(me);
        let base = i32::from(pos.store(Side::South)) - i32::from(pos.store(Side::North));
        let board = shape.board(pos);
        let seeds = i32::from(pos.seeds_in_play());
        let progress = Mutex::new(progress);
        let report = |mv: Move, rel_lo: i32, rel_hi: i32, nodes: u64| {
            let (a, b) = (base + sgn * rel_lo, base + sgn * rel_hi);
            let mut report = progress.lock().unwrap_or_else(|e| e.into_inner());
            report(Progress::Bounds {
                mv: Some(mv),
                lower: a.min(b),
                upper: a.max(b),
                nodes,
            });
        };
        let jobs: Vec<RootJob> = (0..shape.h)
            .filter(|&i| board.cell(i) > 0)
            .map(|i| RootJob {
                mv: Move::from_index(i),
                step: shape.play(board, i),
                guess: state.guess(pos, i, first_guess.as_deref()),
                value: Mutex::new(None),
                finished: AtomicBool::new(false),
            })
            .collect();
        let next = AtomicUsize::new(0);
        let nodes = AtomicU64::new(0);
        let failed = AtomicBool::new(false);
        // Every core takes the next root move; when none is left it helps with one
        // still being solved (sharing the table, from another first guess) until
        // either thread finishes it.
        rayon::scope(|scope| {
            for _ in 0..rayon::current_num_threads() {
                scope.spawn(|_| {
                    let mut helping = 0;
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let (job, offset) = if k < jobs.len() {
                            (&jobs[k], 0)
                        } else if let Some(job) =
                            jobs.iter().find(|j| !j.finished.load(Ordering::Relaxed))
                        {
                            helping += 1;
                            (job, HELPER_GUESS_STEP * helping)
                        } else {
                            break;
                        };
                        let mut search = state.search(deadline, &stop);
                        search.finished = Some(&job.finished);
                        let (step, mv) = (job.step, job.mv);
                        let rel = match shape.terminal(step.board) {
                            Some(t) => Some(step.gain_with(t)),
                            None => {
                                let to_rel = |child: i32| step.gain_with(child);
                                search
                                    .solve(
                                        step.board,
                                        seeds - step.gain,
                                        job.guess + offset,
                                        |lo, hi, n| {
                                            report(mv, to_rel(lo), to_rel(hi), n);
                                        },
                                    )
                                    .map(to_rel)
                            }
                        };
                        nodes.fetch_add(search.nodes, Ordering::Relaxed);
                        match rel {
                            Some(rel) => {
                                let mut value = job.value.lock().unwrap_or_else(|e| e.into_inner());
                                value.get_or_insert(base + sgn * rel);
                                job.finished.store(true, Ordering::Relaxed);
                            }
                            // Stopped because another thread finished this move: go on.
                            None if job.finished.load(Ordering::Relaxed) => {}
                            None => {
                                failed.store(true, Ordering::Relaxed);
                                break;
                            }
                        }
                    }
                });
            }
        });
        if failed.load(Ordering::Relaxed) {
            return Err(SolveError::OutOfTime);
        }
        let mut values: Vec<(Move, i32)> = jobs
            .into_iter()
            .map(|j| {
                let v = j.value.into_inner().unwrap_or_else(|e| e.into_inner());
                (
                    j.mv,
                    v.expect("every root move is solved unless the solve failed"),
                )
            })
            .collect();
        values.sort_by_key(|&(m, _)| m);
        Ok((values, nodes.into_inner()))
    }

    /// A best move and the position's value: every core tests root moves against the
    /// best value proved so far (sharing the table), so a move that cannot beat it is
    /// only refuted, never solved exactly. A core with no such test left joins one in
    /// progress, the two splitting its tree through [`Busy`], instead of waiting (the
    /// last tests of Kalah(6,4) are one long test: warm, 5.1 s before, 3.65 s after).
    /// A test that a better lower bound makes needless is stopped and made again
    /// against that bound ([`BestRoot::record`]).
    fn kalah_best(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<(Move, i32, u64), SolveError> {
        let stop = Arc::clone(&self.stop);
        let first_guess = self.first_guess.clone();
        let state = self.kalah_state(pos, Goal::BestMove, deadline, progress)?;
        let shape = &state.shape;
        let sgn = sign(pos.to_move());
        let base = i32::from(pos.store(Side::South)) - i32::from(pos.store(Side::North));
        let board = shape.board(pos);
        let seeds = i32::from(pos.seeds_in_play());
        let mut root = BestRoot {
            moves: (0..shape.h)
                .filter(|&i| board.cell(i) > 0)
                .map(|i| {
                    let step = shape.play(board, i);
                    let exact = shape.terminal(step.board).map(|t| step.gain_with(t));
                    // The guess is for the player to move after the move.
                    let guess = match exact {
                        Some(v) => v,
                        None => step.gain_with(state.guess(pos, i, first_guess.as_deref())),
                    };
                    RootMove {
                        mv: Move::from_index(i),
                        step,
                        lo: exact.unwrap_or(-seeds),
                        hi: exact.unwrap_or(seeds),
                        next_test: guess,
                        running: None,
                    }
                })
                .collect(),
        };
        let shared = Mutex::new((&mut root, progress));
        let ready = Condvar::new();
        let nodes = AtomicU64::new(0);
        let failed = AtomicBool::new(false);
        rayon::scope(|scope| {
            for _ in 0..rayon::current_num_threads() {
                scope.spawn(|_| {
                    let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        if failed.load(Ordering::Relaxed) || guard.0.decided() {
                            break;
                        }
                        let Some((k, t, done)) = guard.0.next_test(seeds) else {
                            guard = ready.wait(guard).unwrap_or_else(|e| e.into_inner());
                            continue;
                        };
                        let step = guard.0.moves[k].step;
                        drop(guard);
                        let mut search = state.search(deadline, &stop);
                        search.finished = Some(&done);
                        let rest = seeds - step.gain;
                        let v = if step.extra {
                            let need = t - step.gain;
                            step.gain + search.search(step.board, rest, need - 1, need)
                        } else {
                            let most = step.gain - t;
                            step.gain - search.search(step.board, rest, most, most + 1)
                        };
                        let searched = nodes.fetch_add(search.nodes, Ordering::Relaxed);
                        guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                        if !search.aborted {
                            guard.0.record(k, t, v, &done);
                            let (lo, hi) = guard.0.bounds();
                            let (a, b) = (base + sgn * lo, base + sgn * hi);
                            (guard.1)(Progress::Bounds {
                                mv: None,
                                lower: a.min(b),
                                upper: a.max(b),
                                nodes: searched + search.nodes,
                            });
                        } else if !done.load(Ordering::Relaxed) {
                            // Stopped, and not because another thread finished the test.
                            failed.store(true, Ordering::Relaxed);
                        }
                        ready.notify_all();
                    }
                    drop(guard);
                    ready.notify_all();
                });
            }
        });
        if failed.load(Ordering::Relaxed) {
            return Err(SolveError::OutOfTime);
        }
        let (mv, value) = root.best();
        Ok((mv, base + sgn * value, nodes.into_inner()))
    }

    /// Every legal move's value in Oware, searched on a thread of its own with a stack
    /// deep enough for the longest path the search allows ([`OWARE_MAX_PATH`]).
    fn oware_moves(
        &mut self,
        game: &Game,
        deadline: Option<Instant>,
        progress: &mut (impl FnMut(Progress) + Send),
    ) -> Result<(Vec<(Move, i32)>, u64), SolveError> {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("oware solver".into())
                .stack_size(OWARE_STACK_BYTES)
                .spawn_scoped(scope, || self.oware_moves_here(game, deadline, progress))
                .map_err(|e| SolveError::TooLarge(format!("no thread for the search: {e}")))?
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }

    fn oware_moves_here(
        &mut self,
        game: &Game,
        deadline: Option<Instant>,
        progress: &mut impl FnMut(Progress),
    ) -> Result<(Vec<(Move, i32)>, u64), SolveError> {
        let budget = oware::Budget {
            deadline,
            stop: &self.stop,
            memory_bytes: self.config.table_bytes,
        };
        let mut history = since_capture(game);
        let root = history.pop().expect("the path ends with the position");
        let solved = oware::solve(&root, &history, &budget, progress)?;
        self.oware_bytes = solved.positions * oware::BYTES_PER_POSITION;
        Ok((solved.values, solved.nodes))
    }
}

/// The endgame database in `path` for `shape`'s rules, keeping at most `max_seeds`;
/// `None` if there is no such file.
fn read_endgame(
    path: &Path,
    shape: &Shape,
    max_seeds: usize,
) -> Result<Option<Endgame>, SolveError> {
    let error = |reason: String| SolveError::EndgameFile {
        path: path.display().to_string(),
        reason,
    };
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(error(e.to_string())),
    };
    Endgame::read_from(shape, max_seeds, BufReader::new(file))
        .map(Some)
        .map_err(error)
}

/// Writes `db` to `path` (through a temporary file beside it, renamed into place, so
/// that an interrupted write never leaves a truncated database behind).
fn write_endgame(path: &Path, shape: &Shape, db: &Endgame) -> Result<(), SolveError> {
    let error = |e: io::Error| SolveError::EndgameFile {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    let written = File::create(&temporary)
        .and_then(|file| db.write_to(shape, BufWriter::new(file)))
        .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.map_err(error)
}

/// The positions of `game` since its last capture, ending with the current one.
fn since_capture(game: &Game) -> Vec<Position> {
    let mut p = *game.start();
    let mut path = vec![p];
    for &mv in game.moves() {
        let before = p.stores();
        p.play_unchecked(mv);
        if p.stores() != before {
            path.clear();
        }
        path.push(p);
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;

    fn root(bounds: &[(i32, i32, i32)]) -> BestRoot {
        BestRoot {
            moves: bounds
                .iter()
                .enumerate()
                .map(|(i, &(lo, hi, guess))| RootMove {
                    mv: Move::from_index(i),
                    step: Step {
                        board: Board(0),
                        gain: 0,
                        extra: false,
                    },
                    lo,
                    hi,
                    next_test: guess,
                    running: None,
                })
                .collect(),
        }
    }

    /// A time limit caps the table at what the search could fill in that time; a long
    /// one leaves it as it was.
    #[test]
    fn a_short_time_limit_gets_a_smaller_table() {
        // Two cores, as on the host measured.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let table = |limit: Option<u64>| {
                let config = SolveConfig {
                    time_limit: limit.map(Duration::from_secs),
                    ..SolveConfig::default().with_table_mb(8192)
                };
                Solver::new(config).table_bytes(Rules::kalah(6, 5), 60)
            };
            assert_eq!(table(None), 8192 << 20);
            assert_eq!(table(Some(24 * 3600)), table(None));
            let (one, ten) = (table(Some(1)), table(Some(10)));
            assert!(one < ten && ten < table(None), "{one} {ten}");
            // Kalah(6,4)'s table (sized to its search) is not cut by a few seconds.
            let config = SolveConfig::default().with_table_mb(8192);
            let solver = |c: SolveConfig| {
                Table::bytes_for(Solver::new(c).table_bytes(Rules::kalah(6, 4), 48), 41)
            };
            assert_eq!(
                solver(config.with_time_limit(Duration::from_secs(5))),
                solver(config)
            );
        });
    }

    /// The estimate is bounded by the problem's size: a narrow board with many seeds
    /// gets a table near what its search needs, not all the memory allowed, and the
    /// boards the estimate from the seeds in play was fitted on keep that estimate.
    #[test]
    fn estimates_are_bounded_by_the_problems_size() {
        let solver = Solver::new(SolveConfig::default().with_table_mb(8192));
        let table_mib =
            |h: u8, s: u8| solver.table_bytes(Rules::kalah(h, s), 2 * usize::from(h * s)) >> 20;
        // Every move's value visits 1.6 M nodes on Kalah(4,7), 3.3 M on Kalah(4,8):
        // they had the whole 8 GiB.
        assert!(table_mib(4, 7) <= 256, "{} MiB", table_mib(4, 7));
        assert!(table_mib(4, 8) <= 512, "{} MiB", table_mib(4, 8));
        // Tenfold every 6 seeds from 2.5e5 at 30, as fitted.
        for (h, s, every_move) in [
            (4, 4, 5.386e5),
            (5, 4, 1.160e7),
            (6, 3, 2.5e6),
            (6, 4, 2.5e8),
            (6, 5, 2.5e10),
        ] {
            let rules = Rules::kalah(h, s);
            let seeds = 2 * usize::from(h * s);
            for (goal, expected) in [
                (Goal::EveryMove, every_move),
                (Goal::BestMove, every_move / 4.0),
            ] {
                let nodes = expected_nodes(rules, seeds, goal);
                assert!(
                    (nodes / expected - 1.0).abs() < 1e-3,
                    "{rules} {goal:?}: {nodes:.4e}"
                );
            }
        }
    }

    /// The database sizes measured best: Kalah(6,5)'s every move gets 28 seeds in a
    /// third of a 24 GB machine's memory (27 in a quarter, which its database must fit),
    /// its best move 26; Kalah(6,4) 19 and 16; Kalah(5,5)'s every move 23.
    #[test]
    fn endgame_databases_are_sized_as_measured() {
        let seeds = |h: u8, s: u8, goal: Goal, mb: usize| {
            let solver = Solver::new(SolveConfig::default().with_table_mb(mb));
            solver.endgame_seeds(Rules::kalah(h, s), 2 * usize::from(h * s), goal)
        };
        let third = 24_000 / 3;
        assert_eq!(seeds(6, 5, Goal::EveryMove, third), Some(28));
        assert_eq!(seeds(6, 5, Goal::EveryMove, 24_000 / 4), Some(27));
        assert_eq!(seeds(6, 5, Goal::BestMove, third), Some(26));
        assert_eq!(seeds(6, 4, Goal::EveryMove, third), Some(19));
        assert_eq!(seeds(6, 4, Goal::BestMove, third), Some(16));
        assert_eq!(seeds(5, 5, Goal::EveryMove, third), Some(23));
        // Little memory: the database fits three quarters of it.
        let small = seeds(6, 5, Goal::EveryMove, 64).unwrap();
        let bytes = Endgame::bytes_for(12, small).unwrap();
        assert!(bytes <= 48 << 20 && Endgame::bytes_for(12, small + 1).unwrap() > 48 << 20);
    }

    /// Idle threads take fresh tests first, best guess first, then join the running
    /// test with the fewest threads; the first thread to finish a test records it, and
    /// a later result of the same test changes nothing; a better lower bound stops the
    /// tests of other moves it makes needless.
    #[test]
    fn idle_threads_start_tests_then_join_them() {
        let seeds = 10;
        let mut r = root(&[(-10, 10, 2), (-10, 10, 4), (-10, -2, -4)]);
        let (k1, t1, done1) = r.next_test(seeds).unwrap();
        assert_eq!((k1, t1), (1, 4));
        // No lower bound is proved yet, so every move could still be best.
        let (k2, t2, done2) = r.next_test(seeds).unwrap();
        assert_eq!((k2, t2), (0, 2));
        let (k3, _, _) = r.next_test(seeds).unwrap();
        assert_eq!(k3, 2);
        // Every move is being tested: join one (each has one thread), then the others.
        let (j1, tj1, join1) = r.next_test(seeds).unwrap();
        let (j2, _, _) = r.next_test(seeds).unwrap();
        assert_ne!(j1, j2);
        if j1 == k1 {
            assert_eq!(tj1, t1);
            assert!(Arc::ptr_eq(&join1, &done1));
        }

        // Move 1 is at least 6: the first result counts, the joiner's is dropped.
        r.record(k1, t1, 6, &done1);
        assert!(done1.load(Ordering::Relaxed));
        assert_eq!((r.moves[1].lo, r.moves[1].hi), (6, 10));
        r.record(k1, t1, 4, &done1);
        assert_eq!((r.moves[1].lo, r.moves[1].next_test), (6, 6));
        assert!(r.moves[1].running.is_none());
        // The tests of moves 0 (at least 2?) and 2 no longer matter: to be best, a
        // move must now beat 6. They are stopped, and a late result is dropped.
        assert!(done2.load(Ordering::Relaxed));
        assert!(r.moves.iter().all(|m| m.running.is_none()));
        r.record(k2, t2, 0, &done2);
        assert_eq!((r.moves[0].lo, r.moves[0].hi), (-10, 10));
        assert_eq!(r.bounds(), (6, 10));
        // Move 1 goes on above 6, move 0 is tested against 6 (move 2 cannot beat it).
        let (k, t, done1) = r.next_test(seeds).unwrap();
        assert_eq!((k, t), (1, 8));
        let (k, t, done0) = r.next_test(seeds).unwrap();
        assert_eq!((k, t), (0, 8));
        // Move 1 reaches 8: move 0's test against 8 is stopped too, move 1 goes on.
        r.record(1, 8, 8, &done1);
        assert!(done0.load(Ordering::Relaxed));
        let (k, t, _) = r.next_test(seeds).unwrap();
        assert_eq!((k, t), (1, 10));
    }
}
