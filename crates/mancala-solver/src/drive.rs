//! The solver itself: its entry points (a position's value, a best move, every move's
//! value), the Kalah state it keeps between solves, and the Oware solve's own thread.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use mancala_core::{Game, Move, Position, Side, Variant};

use crate::answer::{EndgameInfo, Progress, Solution};
use crate::board::Shape;
use crate::busy::Busy;
use crate::config::{self, Estimate, Goal, OWARE_STACK_BYTES, SolveConfig};
use crate::endgame::Endgame;
use crate::error::SolveError;
use crate::owtable::OwareTable;
use crate::probe::EndgameTable;
use crate::reach;
use crate::state::{FirstGuess, KalahState};
use crate::table::Table;
use crate::{best_move, every_move, files, oware};

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
    first_guess: Option<Box<FirstGuess>>,
    kalah: Option<KalahState>,
    shared_endgame: Option<EndgameTable>,
    /// Memory the last Oware solve used.
    oware_bytes: usize,
    oware_table: Option<Arc<OwareTable>>,
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
            shared_endgame: None,
            oware_bytes: 0,
            oware_table: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the solver solves positions of `variant` at all (a position may still
    /// be too large: see [`Solver::estimate`]). Others ask this rather than try: a
    /// solve of any other variant is refused with [`SolveError::Unsupported`].
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_solver::Solver;
    /// assert!(Solver::solves(Variant::Kalah) && Solver::solves(Variant::Oware));
    /// assert!(!Solver::solves(Variant::TogyzKumalak));
    /// ```
    #[must_use]
    pub const fn solves(variant: Variant) -> bool {
        reach::solves(variant)
    }

    /// About the most seeds in play at which the solver proves a best move of a
    /// `variant` position within a fraction of a second, for a player with a time
    /// budget deciding whether to try it: Kalah's, with its endgame database, from
    /// about 24 seeds; Oware's visits every reachable position, quick up to about 14
    /// (and refuses more than [`OWARE_MAX_SEEDS`](crate::OWARE_MAX_SEEDS)). 0 for a
    /// variant it does not solve.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_solver::Solver;
    /// assert_eq!(Solver::quick_seeds(Variant::Kalah), 24);
    /// assert_eq!(Solver::quick_seeds(Variant::TogyzKumalak), 0);
    /// ```
    #[must_use]
    pub const fn quick_seeds(variant: Variant) -> u16 {
        reach::quick_seeds(variant)
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
    /// let values = |s: &mut Solver| s.solve(&game).unwrap().move_values;
    /// assert_eq!(values(&mut plain), values(&mut guessing));
    /// ```
    #[must_use]
    pub fn with_first_guess(
        self,
        guess: impl Fn(&Position) -> Option<i32> + Send + Sync + 'static,
    ) -> Solver {
        Solver {
            first_guess: Some(Box::new(guess)),
            ..self
        }
    }

    /// The same solver giving up (with [`SolveError::OutOfTime`]) once `stop` is set,
    /// as it does at its time limit: a caller running solves on a thread of its own can
    /// end them from another.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::AtomicBool;
    /// use mancala_core::{Game, Rules};
    /// use mancala_solver::{SolveConfig, SolveError, Solver};
    /// let stop = Arc::new(AtomicBool::new(true));
    /// let mut solver = Solver::new(SolveConfig::default().with_table_mb(16)).with_stop(stop);
    /// let game = Game::new(Rules::kalah(6, 3));
    /// assert!(matches!(solver.solve(&game), Err(SolveError::OutOfTime)));
    /// ```
    #[must_use]
    pub fn with_stop(self, stop: Arc<AtomicBool>) -> Solver {
        Solver { stop, ..self }
    }

    /// Solves of positions of `table`'s rules with more seeds in play than it holds
    /// use `table` as their endgame database instead of building one, when it is at
    /// least as large as the one they would build: a caller that keeps a table for its
    /// own search ([`EndgameTable`]) saves the solver the time and memory.
    ///
    /// ```
    /// use mancala_core::{Game, Rules};
    /// use mancala_solver::{EndgameTable, SolveConfig, Solver};
    /// let rules = Rules::kalah(4, 3);
    /// let config = SolveConfig { endgame_seeds: Some(8), ..SolveConfig::default() };
    /// let mut solver = Solver::new(config);
    /// solver.set_endgame_table(EndgameTable::build(rules, 14).unwrap());
    /// let shared = solver.value(&Game::new(rules)).unwrap();
    /// assert_eq!(solver.endgame().unwrap().seeds, 14);
    /// let mut own = Solver::new(config);
    /// assert_eq!(own.value(&Game::new(rules)).unwrap(), shared);
    /// assert_eq!(own.endgame().unwrap().seeds, 8);
    /// ```
    pub fn set_endgame_table(&mut self, table: EndgameTable) {
        // A state built without it would be kept for the next solve: drop it.
        self.kalah = None;
        self.shared_endgame = Some(table);
    }

    /// The same solver reading exact values from an Oware endgame table: a position
    /// of the table's rules that it holds is not searched when reached by a capture,
    /// or when its value holds whatever the history.
    pub fn set_oware_table(&mut self, table: Arc<OwareTable>) {
        self.oware_table = Some(table);
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
    /// not handled, or the problem is beyond the limits
    /// ([`KALAH_MAX_POSITIONS`](crate::KALAH_MAX_POSITIONS),
    /// [`OWARE_MAX_SEEDS`](crate::OWARE_MAX_SEEDS)) and not forced, or cannot be
    /// numbered at all.
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
        config::estimate(pos, config)
    }

    /// Solves `game`'s current position: its value and the value of every legal move.
    ///
    /// # Errors
    /// As [`Solver::estimate`], or [`SolveError::OutOfTime`].
    ///
    /// ```
    /// use mancala_core::{Game, Move, Rules};
    /// use mancala_solver::{SolveConfig, Solver};
    ///
    /// // Kalah with two houses a side and one seed in each:
    /// //      B2 B1
    /// //   0  1  1
    /// //      1  1  0
    /// //      A1 A2
    /// let game = Game::new(Rules::kalah(2, 1));
    /// let solution = Solver::new(SolveConfig::default().with_table_mb(16))
    ///     .solve(&game)
    ///     .unwrap();
    /// assert_eq!(solution.move_values.len(), 2);
    /// // Every seed ends in a store: the margin is even, from -4 to 4.
    /// assert!(solution.value % 2 == 0 && solution.value.abs() <= 4);
    /// let best = solution.best_moves[0];
    /// assert_eq!(solution.value_of(best), Some(solution.value));
    /// assert!(solution.value_of(Move::new(3).unwrap()).is_none());
    /// ```
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
            v @ (Variant::OwareSimplified | Variant::TogyzKumalak | Variant::Described(_)) => {
                return Err(SolveError::Unsupported(v));
            }
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
            v @ (Variant::OwareSimplified | Variant::TogyzKumalak | Variant::Described(_)) => {
                return Err(SolveError::Unsupported(v));
            }
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
            k.table.bytes() + k.endgame.as_ref().map_or(0, |db| db.bytes())
        }) + self.oware_bytes
    }

    /// Makes the Kalah state ready for `pos`: rebuilt when the rules change or more
    /// seeds are in play than its numbering covers; building it builds the endgame
    /// database.
    fn prepare_kalah(
        &mut self,
        pos: &Position,
        goal: Goal,
        deadline: Option<Instant>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), SolveError> {
        let seeds = usize::from(pos.seeds_in_play());
        let rules = pos.rules();
        let fits = self
            .kalah
            .as_ref()
            .is_some_and(|k| k.rules == rules && k.shape.covers(seeds));
        if !fits {
            self.kalah = None; // free the old table first
            let shape = Shape::new(rules, seeds).expect("estimate checked the numbering");
            let db_seeds = self.config.kalah_endgame_seeds(rules, seeds, goal);
            let stop = &self.stop;
            let out_of_time = || {
                stop.load(std::sync::atomic::Ordering::Relaxed)
                    || deadline.is_some_and(|d| Instant::now() >= d)
            };
            let shared = self
                .shared_endgame
                .as_ref()
                .filter(|t| t.rules() == rules && usize::from(t.seeds()) < seeds)
                .filter(|t| db_seeds.is_none_or(|n| usize::from(t.seeds()) >= n));
            let endgame = match db_seeds {
                // The caller's table is at least as large as the one we would build,
                // and costs nothing now. Its memory is not this solver's to count.
                _ if shared.is_some() => {
                    let table = shared.expect("just checked");
                    self.endgame_info = Some(EndgameInfo {
                        seeds: usize::from(table.seeds()),
                        read: false,
                        written: false,
                    });
                    Some(Arc::clone(table.database()))
                }
                Some(n) => {
                    let (db, info) = self.endgame_for(&shape, n, seeds, progress, out_of_time)?;
                    self.endgame_info = Some(info);
                    Some(Arc::new(db))
                }
                None => {
                    self.endgame_info = None;
                    None
                }
            };
            // The database takes its share first (one read from a file may be larger
            // than the one asked for).
            let table = Table::new(
                self.config.kalah_table_bytes(rules, seeds).saturating_sub(
                    endgame
                        .as_ref()
                        .filter(|_| shared.is_none())
                        .map_or(0, |db| db.bytes()),
                ),
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
        Ok(())
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
            self.config.endgame_bytes_allowed(),
            seeds.saturating_sub(1),
        );
        let read = match &self.endgame_file {
            Some(path) => files::read_endgame(path, shape, fits.max(n))?,
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
            files::write_endgame(path, shape, &db)?;
        }
        let info = EndgameInfo {
            seeds: n,
            read: false,
            written: self.endgame_file.is_some(),
        };
        Ok((db, info))
    }

    /// Every legal move's value of `pos` (not over) in Kalah
    /// ([`every_move::solve`]).
    fn kalah_moves(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        progress: &mut (impl FnMut(Progress) + Send),
    ) -> Result<(Vec<(Move, i32)>, u64), SolveError> {
        self.prepare_kalah(pos, Goal::EveryMove, deadline, progress)?;
        let state = self.kalah.as_ref().expect("just prepared");
        let guess = self.first_guess.as_deref();
        every_move::solve(state, pos, guess, deadline, &self.stop, progress)
    }

    /// A best move of `pos` (not over) in Kalah and the position's value
    /// ([`best_move::solve`]).
    fn kalah_best(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<(Move, i32, u64), SolveError> {
        self.prepare_kalah(pos, Goal::BestMove, deadline, progress)?;
        let state = self.kalah.as_ref().expect("just prepared");
        let guess = self.first_guess.as_deref();
        best_move::solve(state, pos, guess, deadline, &self.stop, progress)
    }

    /// Every legal move's value in Oware, searched on a thread of its own with a stack
    /// deep enough for the longest path the search allows
    /// ([`OWARE_MAX_PATH`](crate::config::OWARE_MAX_PATH)).
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
            table: self
                .oware_table
                .as_deref()
                .filter(|t| t.rules() == game.rules()),
        };
        let mut history = since_capture(game);
        let root = history.pop().expect("the path ends with the position");
        let solved = oware::solve(&root, &history, &budget, progress)?;
        self.oware_bytes = solved.positions * oware::BYTES_PER_POSITION;
        Ok((solved.values, solved.nodes))
    }
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
