//! The `master` player: a time budget, the exact solver once few enough seeds remain,
//! and alpha-beta on several threads otherwise.

use std::time::{Duration, Instant};

use mancala_core::{Game, Move, Position, Rules, Side, Variant};
use mancala_solver::{SolveConfig, Solver};

use crate::endgame::{PendingOwareTable, PendingTable, shared_oware_table, shared_table};
use crate::{AlphaBeta, Choice, Limits, Player, Score, Searcher};

/// The solver's first guesses search this many nodes (fewer than `perfect`'s: they
/// come out of a move's time budget).
const GUESS_NODES: u64 = 20_000;

/// Plays within a time budget a move (spec `master:ms=1000,threads=2,solve=S,probe=P`):
/// - Kalah: a table of the exact value of every position with at most `P` seeds in play
///   is built in the background (16 seeds on six houses, see
///   [`default_probe_seeds`](crate::default_probe_seeds)); once it is ready, positions
///   it holds are played perfectly from it at once, its values replace the search's
///   evaluation wherever the search reaches them, and the solver uses it as its
///   endgame database.
/// - Oware: once the game nears the solver's reach, the Oware endgame table of every
///   position with at most `P` seeds on the board (9 on six houses) is read from the
///   user's cache directory, or built there in the background the first time; the
///   solver then stops at the positions it holds (see `mancala_solver::OwareTable`).
/// - Once at most `S` seeds are in play it gives the exact solver half the budget, and
///   plays perfectly if the solver proves a best move in it.
/// - Otherwise (or at once with more seeds) an alpha-beta search on `threads` threads
///   (Lazy SMP, a shared table) takes the time left.
///
/// ```
/// use std::time::Duration;
/// use mancala_core::{Game, Rules};
/// use mancala_engine::{Master, Player};
/// let mut m = Master::new(Duration::from_millis(50), 2, 12);
/// let game = Game::new(Rules::kalah(6, 4));
/// assert!(game.legal_moves().contains(&m.choose(&game).mv));
/// // Few seeds: the solver answers.
/// let small = Game::new(Rules::kalah(3, 1));
/// assert!(m.choose(&small).reason.unwrap().contains("perfect play"));
/// ```
pub struct Master {
    budget: Duration,
    threads: usize,
    solve_seeds: u16,
    probe_seeds: u16,
    table: Option<PendingTable>,
    /// The Oware table's rules and seeds, until it is asked for (once few enough
    /// seeds are in play), then the table while it is being read or built.
    oware_wanted: Option<(Rules, u16)>,
    oware_table: Option<PendingOwareTable>,
    solver_has_table: bool,
    solver: Solver,
    search: AlphaBeta,
}

impl Master {
    /// A master with `budget` a move, `threads` search threads, trying the solver at
    /// most `solve_seeds` seeds in play (0: never).
    #[must_use]
    pub fn new(budget: Duration, threads: usize, solve_seeds: u16) -> Master {
        let config = SolveConfig::default()
            .with_table_mb(64)
            .with_time_limit(budget / 2);
        Master {
            budget,
            threads,
            solve_seeds,
            probe_seeds: 0,
            table: None,
            oware_wanted: None,
            oware_table: None,
            solver_has_table: false,
            solver: Solver::new(config).with_first_guess(quick_guess),
            search: AlphaBeta::new(Limits::time(budget), 32).with_threads(threads),
        }
    }

    /// The most seeds in play at which `variant`'s positions are given to the solver,
    /// by default: where the solver says it proves a best move within a fraction of a
    /// second ([`Solver::quick_seeds`]), and 0 (never) for a variant it does not solve,
    /// which the search then plays to the end.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_engine::Master;
    /// assert_eq!(Master::default_solve_seeds(Variant::Kalah), 24);
    /// assert_eq!(Master::default_solve_seeds(Variant::TogyzKumalak), 0);
    /// ```
    #[must_use]
    pub const fn default_solve_seeds(variant: Variant) -> u16 {
        Solver::quick_seeds(variant)
    }

    /// The same master probing a Kalah endgame table of every position with at most
    /// `seeds` seeds in play in its search (see [`AlphaBeta::with_endgame`]).
    /// In Oware, the Oware table of `seeds` seeds on the board instead, read from the
    /// user's cache directory or built there in the background, which the solver reads
    /// once it is ready.
    #[must_use]
    pub fn with_endgame(self, rules: Rules, seeds: u16) -> Master {
        let table = shared_table(rules, seeds);
        Master {
            oware_wanted: Some((rules, seeds)),
            search: self.search.with_table(table.clone(), seeds),
            probe_seeds: seeds,
            table,
            ..self
        }
    }

    /// Perfect play read from the endgame table, once it is built, when it holds every
    /// position the move can lead to; and the table handed to the solver, once, for
    /// the positions just above it.
    fn read_table(&mut self, game: &Game) -> Option<Choice> {
        let table = self.table.as_ref()?.get()?;
        if !self.solver_has_table {
            self.solver.set_endgame_table(table.clone());
            self.solver_has_table = true;
        }
        let pos = game.position();
        if pos.seeds_in_play() > table.seeds() || pos.rules() != table.rules() {
            return None;
        }
        let me = pos.to_move();
        let mut best: Option<(Move, i32)> = None;
        for mv in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(mv);
            let margin = if next.is_over() {
                let [a, b] = next.final_scores();
                let south = i32::from(a) - i32::from(b);
                if me == Side::South { south } else { -south }
            } else {
                let theirs = table.margin(&next)?;
                if next.to_move() == me {
                    theirs
                } else {
                    -theirs
                }
            };
            if best.is_none_or(|(_, m)| margin > m) {
                best = Some((mv, margin));
            }
        }
        let (mv, margin) = best?;
        Some(Choice {
            mv,
            reason: Some(format!(
                "is perfect play: the endgame table gives a final margin of {margin:+} for \
                 the mover"
            )),
        })
    }

    fn solve(&mut self, game: &Game) -> Option<Choice> {
        let seeds = game.position().seeds_in_play();
        // Asked for as the game nears the solver's reach, so that a game (or a test)
        // that never gets there builds nothing.
        if let Some((rules, table_seeds)) = self.oware_wanted
            && seeds <= self.solve_seeds.saturating_add(OWARE_TABLE_AHEAD)
        {
            self.oware_table = shared_oware_table(rules, table_seeds);
            self.oware_wanted = None;
        }
        if let Some(table) = self.oware_table.as_ref().and_then(|t| t.get()) {
            self.solver.set_oware_table(std::sync::Arc::clone(table));
            self.oware_table = None;
        }
        let pos = game.position();
        if pos.seeds_in_play() > self.solve_seeds || !Solver::solves(pos.variant()) {
            return None;
        }
        let (Some(mv), solution) = self.solver.best_move(game).ok()? else {
            return None;
        };
        let mine = if pos.to_move() == Side::South {
            solution.value
        } else {
            -solution.value
        };
        Some(Choice {
            mv,
            reason: Some(format!(
                "is perfect play: the solver proves a final margin of {mine:+} for the mover"
            )),
        })
    }
}

/// How many seeds above the solver's the Oware table is asked for: a build (about a
/// minute on six houses, once) has the rest of the game to finish in.
const OWARE_TABLE_AHEAD: u16 = 12;

/// A first guess for the solver from a short search (see [`crate::first_guess`]).
fn quick_guess(pos: &Position) -> Option<i32> {
    let r = Searcher::new(1).search_position(pos, Limits::nodes(GUESS_NODES));
    Some(
        r.score
            .margin()
            .unwrap_or_else(|| (r.score.raw() as f64 / f64::from(Score::SEED)).round() as i32),
    )
}

impl Player for Master {
    fn name(&self) -> String {
        format!(
            "master(ms={},threads={},solve={},probe={})",
            self.budget.as_millis(),
            self.threads,
            self.solve_seeds,
            self.probe_seeds
        )
    }

    fn prepare(&mut self, within: Duration) -> bool {
        // Its search holds the same table.
        self.search.prepare(within)
    }

    fn choose(&mut self, game: &Game) -> Choice {
        let start = Instant::now();
        if let Some(choice) = self.read_table(game) {
            return choice;
        }
        if let Some(choice) = self.solve(game) {
            return choice;
        }
        // The solver's failed try came out of the budget; the search gets the rest,
        // and at least a tenth of it.
        let left = self
            .budget
            .saturating_sub(start.elapsed())
            .max(self.budget / 10);
        self.search.set_limits(Limits::time(left));
        self.search.choose(game)
    }
}
