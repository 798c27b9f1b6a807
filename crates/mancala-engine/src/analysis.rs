//! Game analysis: every move of a game set against the best move of its position.
//!
//! Each position of the game gets a value: the final margin (the mover's final score
//! minus the opponent's, stores included, in seeds) under best play from there. Where
//! the exact solver ([`Solver::solves`]) proves every move's value within the budget,
//! the values are exact; elsewhere they are `master`'s search estimate (alpha-beta on
//! several threads, probing the Kalah endgame table), in the evaluation's seeds and
//! marked `exact: false`. Positions are taken in the order of the game, so the
//! solver's table and endgame database, built for the first position it proves, serve
//! every later one (seeds in play never grow in the games the solver supports).
//!
//! The labels and the accuracy are defined by [`Label::judge`] and
//! [`Analysis::accuracy_of`]; docs/analysis.md says what the numbers mean.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mancala_core::{Game, Move, Position, Side};
use mancala_solver::{OWARE_MAX_SEEDS, SolveConfig, Solver};
use serde::{Deserialize, Serialize};

use crate::endgame::{PendingTable, shared_oware_table, shared_table, wait_for};
use crate::{Limits, Score, Searcher, default_probe_seeds, first_guess};

/// How one move compares with the best, from [`Label::judge`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// The move keeps the best value.
    Best,
    /// It loses at most 2 seeds and keeps the result.
    Good,
    /// It loses 3 to 5 seeds and keeps the result.
    Inaccuracy,
    /// It loses 6 to 9 seeds and keeps the result, or turns a win into a draw or a
    /// draw into a loss at a cost of fewer than 8 seeds.
    Mistake,
    /// It loses 10 seeds or more, turns a win into a loss, or turns a win into a draw
    /// (or a draw into a loss) at a cost of 8 seeds or more.
    Blunder,
}

/// The loss (in seeds) from which a move that keeps the result is an inaccuracy, a
/// mistake and a blunder.
const INACCURACY_LOSS: i32 = 3;
const MISTAKE_LOSS: i32 = 6;
const BLUNDER_LOSS: i32 = 10;
/// A move that worsens the result by one step (win to draw, draw to loss) is a
/// blunder from this loss on, else a mistake.
const RESULT_BLUNDER_LOSS: i32 = 8;

impl Label {
    /// The label of a move worth `value_played` where the best is worth `value_best`
    /// (both for the mover, in seeds): `Best` exactly when nothing is lost; otherwise
    /// by the loss and by whether the result (win, draw, loss: the sign of the value)
    /// got worse.
    ///
    /// ```
    /// use mancala_engine::Label;
    /// assert_eq!(Label::judge(4, 4), Label::Best);
    /// assert_eq!(Label::judge(12, 10), Label::Good);
    /// assert_eq!(Label::judge(12, 8), Label::Inaccuracy);
    /// assert_eq!(Label::judge(2, 0), Label::Mistake); // a win thrown to a draw
    /// assert_eq!(Label::judge(2, -2), Label::Blunder); // a win thrown to a loss
    /// assert_eq!(Label::judge(-2, -14), Label::Blunder);
    /// ```
    #[must_use]
    pub fn judge(value_best: i32, value_played: i32) -> Label {
        let loss = value_best - value_played;
        if loss <= 0 {
            return Label::Best;
        }
        match value_best.signum() - value_played.signum() {
            2 => Label::Blunder,
            1 if loss >= RESULT_BLUNDER_LOSS => Label::Blunder,
            1 => Label::Mistake,
            _ if loss >= BLUNDER_LOSS => Label::Blunder,
            _ if loss >= MISTAKE_LOSS => Label::Mistake,
            _ if loss >= INACCURACY_LOSS => Label::Inaccuracy,
            _ => Label::Good,
        }
    }

    /// The label's word, as in the JSON document: `best`, `good`, ...
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// Which move of the game, from 1.
    pub ply: usize,
    /// Who played it: 1 or 2.
    pub mover: u8,
    /// The house played, as the mover numbers them.
    pub played: u8,
    /// The best houses (every one when exact; the search's choice, or the move played
    /// when it did at least as well, when not).
    pub best: Vec<u8>,
    /// The mover's final margin under best play from the position before the move.
    pub value_best: i32,
    /// The mover's final margin under best play after the move played.
    pub value_played: i32,
    /// Both values are proven (the solver or the end of the game); otherwise
    /// `value_best` at least is a search estimate.
    pub exact: bool,
    /// How the move compares with the best ([`Label::judge`]).
    pub label: Label,
}

/// A game's analysis: every move judged, and each player's accuracy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// One entry per move, in the order played.
    pub plies: Vec<PlyAnalysis>,
    /// Player 1's and player 2's accuracy, 0 to 100 ([`Analysis::accuracy_of`]).
    pub accuracy: [f64; 2],
}

/// A move losing this many seeds counts half in the accuracy.
const HALF_ACCURACY_LOSS: f64 = 4.0;

impl Analysis {
    /// Each player's accuracy over `plies`: the mean of `100 * 2^(-loss / 4)` over
    /// their moves, where `loss` is `value_best - value_played` in seeds (a best move
    /// scores 100, one losing 4 seeds 50, one losing 8 seeds 25), to one decimal; 100
    /// for a player without a move.
    ///
    /// ```
    /// use mancala_engine::{Analysis, Label, PlyAnalysis};
    /// let ply = |ply, mover, value_played| PlyAnalysis {
    ///     ply, mover, played: 1, best: vec![1], value_best: 6, value_played,
    ///     exact: true, label: Label::judge(6, value_played),
    /// };
    /// let plies = [ply(1, 1, 6), ply(2, 2, 2), ply(3, 1, 2)];
    /// assert_eq!(Analysis::accuracy_of(&plies), [75.0, 50.0]);
    /// ```
    #[must_use]
    pub fn accuracy_of(plies: &[PlyAnalysis]) -> [f64; 2] {
        [1, 2].map(|mover| {
            let scores: Vec<f64> = plies
                .iter()
                .filter(|p| p.mover == mover)
                .map(|p| {
                    let loss = f64::from((p.value_best - p.value_played).max(0));
                    100.0 * (-loss / HALF_ACCURACY_LOSS).exp2()
                })
                .collect();
            if scores.is_empty() {
                100.0
            } else {
                (scores.iter().sum::<f64>() / scores.len() as f64 * 10.0).round() / 10.0
            }
        })
    }
}

/// How much work an analysis may do.
///
/// ```
/// use mancala_engine::AnalysisSettings;
/// let s = AnalysisSettings::default();
/// assert_eq!(s.threads, 2);
/// assert!(s.search_time < s.solve_time);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisSettings {
    /// The search's time for a position the solver does not prove.
    pub search_time: Duration,
    /// The most time the solver is given for one position.
    pub solve_time: Duration,
    /// Threads for the search (the solver uses every core).
    pub threads: usize,
    /// The solver's memory, in MiB (Kalah: its table; Oware: the positions it reaches).
    pub hash_mb: usize,
}

impl Default for AnalysisSettings {
    /// 0.5 s of search or 2 s of solving a position on two threads, with 512 MiB: a
    /// Kalah(6,4) game of 60 plies in well under a minute (docs/analysis.md).
    fn default() -> Self {
        AnalysisSettings {
            search_time: Duration::from_millis(500),
            solve_time: Duration::from_secs(2),
            threads: 2,
            hash_mb: 512,
        }
    }
}

/// How far an analysis has got, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisProgress {
    /// Waiting for the Kalah endgame table to be built (once a process), or for the
    /// Oware table to be read from the user's cache directory or built there.
    Table,
    /// `done` of the `of` positions (the moves and the final position) are valued,
    /// `exact` of them proven.
    Positions {
        /// Positions valued.
        done: usize,
        /// Positions in all.
        of: usize,
        /// Positions valued exactly.
        exact: usize,
    },
}

/// Why an analysis gave no answer.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AnalysisError {
    /// The stop flag was set.
    #[error("the analysis was stopped")]
    Stopped,
}

/// Analyses every move of `game` (from its start position) within `settings`, calling
/// `progress` as it goes; gives up with [`AnalysisError::Stopped`] soon after `stop`
/// is set (from another thread).
///
/// # Errors
/// [`AnalysisError::Stopped`] only.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::AtomicBool;
/// use mancala_core::{Game, Move, Rules};
/// use mancala_engine::{AnalysisSettings, Label, analyse};
/// let mut game = Game::new(Rules::kalah(3, 2));
/// for house in [3, 1, 2] {
///     game.play(Move::new(house).unwrap()).unwrap();
/// }
/// let stop = Arc::new(AtomicBool::new(false));
/// let analysis = analyse(&game, &AnalysisSettings::default(), |_| {}, &stop).unwrap();
/// assert_eq!(analysis.plies.len(), 3);
/// let first = &analysis.plies[0];
/// assert!(first.exact && first.mover == 1 && first.played == 3);
/// assert_eq!(first.label == Label::Best, first.value_played == first.value_best);
/// ```
pub fn analyse(
    game: &Game,
    settings: &AnalysisSettings,
    mut progress: impl FnMut(AnalysisProgress),
    stop: &Arc<AtomicBool>,
) -> Result<Analysis, AnalysisError> {
    let mut analyser = Analyser::new(game, settings, stop, &mut progress)?;
    let of = game.ply() + 1;
    let mut known = Vec::with_capacity(of);
    let mut prefix = Game::from_position(*game.start());
    for k in 0..of {
        let here = analyser.know(&prefix);
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Stopped);
        }
        known.push(here);
        let exact = known.iter().filter(|k| k.exact).count();
        progress(AnalysisProgress::Positions {
            done: k + 1,
            of,
            exact,
        });
        if let Some(&mv) = game.moves().get(k) {
            prefix.play(mv).expect("the game's moves are legal");
        }
    }
    let mut position = *game.start();
    let mut plies = Vec::with_capacity(game.ply());
    for (k, &mv) in game.moves().iter().enumerate() {
        plies.push(judge(
            k + 1,
            position.to_move(),
            mv,
            &known[k],
            &known[k + 1],
        ));
        position.play_unchecked(mv);
    }
    let accuracy = Analysis::accuracy_of(&plies);
    Ok(Analysis { plies, accuracy })
}

/// What is known of one position of the game.
#[derive(Clone, Debug)]
struct Known {
    /// Its value for player 1.
    value: i32,
    /// The best moves (empty once the game is over).
    best: Vec<Move>,
    /// The moves whose values are known, for player 1 (every legal move when exact).
    moves: Vec<(Move, i32)>,
    /// Proven.
    exact: bool,
}

/// The entry of the move `played` by `mover` at ply `ply`, from what is known of the
/// positions before and after it.
fn judge(ply: usize, mover: Side, played: Move, here: &Known, next: &Known) -> PlyAnalysis {
    let sign = if mover == Side::South { 1 } else { -1 };
    let mut value_best = sign * here.value;
    let value_played = match here.moves.iter().find(|&&(m, _)| m == played) {
        Some(&(_, v)) => sign * v,
        None if here.best.contains(&played) => value_best,
        None => sign * next.value,
    };
    let mut best: Vec<u8> = here.best.iter().map(|m| m.house()).collect();
    // Only an estimate can rate the move played above the best: the search after it
    // saw further. The move played is then the best known.
    if value_played > value_best {
        value_best = value_played;
        best = vec![played.house()];
    } else if value_played == value_best && !best.contains(&played.house()) {
        best.push(played.house());
        best.sort_unstable();
    }
    PlyAnalysis {
        ply,
        mover: if mover == Side::South { 1 } else { 2 },
        played: played.house(),
        best,
        value_best,
        value_played,
        exact: here.exact,
        label: Label::judge(value_best, value_played),
    }
}

/// The searches of one analysis: the solver where it can, the search elsewhere.
struct Analyser<'a> {
    settings: &'a AnalysisSettings,
    /// `None` for a variant the solver does not solve.
    solver: Option<Solver>,
    searcher: Searcher,
    /// The seeds in play of the last position the solver failed on: it is not tried
    /// again until fewer are.
    failed_at: Option<u16>,
}

/// The longest wait for the endgame table (16 seeds on six houses take a few seconds).
const TABLE_WAIT: Duration = Duration::from_secs(120);

/// The longest an analysis waits for the Oware table: built once (about a minute on two
/// cores for Oware(6,4)), then read from the user's cache directory in a second.
const OWARE_TABLE_WAIT: Duration = Duration::from_secs(300);

/// A solve is tried only when the estimate of its nodes is at most this many times
/// what the solver visits in its time (the estimate errs high: docs/solver.md).
const ESTIMATE_SLACK: f64 = 4.0;

/// About the nodes a second the solver visits on two cores (docs/solver.md).
const SOLVER_NODES_PER_SEC: f64 = 1e7;

impl<'a> Analyser<'a> {
    fn new(
        game: &Game,
        settings: &'a AnalysisSettings,
        stop: &Arc<AtomicBool>,
        progress: &mut impl FnMut(AnalysisProgress),
    ) -> Result<Analyser<'a>, AnalysisError> {
        let rules = game.rules();
        let table = Self::endgame_table(rules, stop, progress)?;
        let built = table.as_ref().and_then(|t| t.get());
        let config = SolveConfig {
            // The table is the solver's database: no solve spends its time on another.
            endgame_seeds: built.map(|t| usize::from(t.seeds())),
            ..SolveConfig::default()
                .with_table_mb(settings.hash_mb)
                .with_time_limit(settings.solve_time)
        };
        let mut solver = Solver::solves(rules.variant()).then(|| {
            Solver::new(config)
                .with_first_guess(first_guess)
                .with_stop(Arc::clone(stop))
        });
        if let (Some(solver), Some(built)) = (&mut solver, built) {
            solver.set_endgame_table(built.clone());
        }
        // The solver is tried on Oware positions of at most OWARE_MAX_SEEDS seeds in
        // play, and seeds in play never grow: a game that ends with more never needs
        // the table (nor waits for its build).
        let solved_somewhere = game.position().seeds_in_play() <= OWARE_MAX_SEEDS;
        if let Some(solver) = &mut solver
            && solved_somewhere
            && let Some(oware) = Self::oware_table(rules, stop, progress)?
        {
            solver.set_oware_table(oware);
        }
        Ok(Analyser {
            settings,
            solver,
            searcher: Searcher::new(64).with_endgame(table),
            failed_at: None,
        })
    }

    /// The Kalah endgame table `master` probes (shared with every player of the
    /// process), waited for: the solver uses it as its database, so that no solve
    /// builds its own.
    fn endgame_table(
        rules: mancala_core::Rules,
        stop: &AtomicBool,
        progress: &mut impl FnMut(AnalysisProgress),
    ) -> Result<Option<PendingTable>, AnalysisError> {
        let Some(table) = shared_table(rules, default_probe_seeds(rules)) else {
            return Ok(None);
        };
        if table.get().is_none() {
            progress(AnalysisProgress::Table);
        }
        let started = Instant::now();
        // A build that failed never sets the table: analyse without it then.
        while !wait_for(&table, Duration::from_millis(100)) && started.elapsed() < TABLE_WAIT {
            if stop.load(Ordering::Relaxed) {
                return Err(AnalysisError::Stopped);
            }
        }
        Ok(Some(table))
    }

    /// The Oware table `master` reads (shared with every player of the process, read
    /// from the user's cache directory or built there), waited for.
    fn oware_table(
        rules: mancala_core::Rules,
        stop: &AtomicBool,
        progress: &mut impl FnMut(AnalysisProgress),
    ) -> Result<Option<Arc<mancala_solver::OwareTable>>, AnalysisError> {
        let Some(table) = shared_oware_table(rules, default_probe_seeds(rules)) else {
            return Ok(None);
        };
        if table.get().is_none() {
            progress(AnalysisProgress::Table);
        }
        let started = Instant::now();
        while !wait_for(&table, Duration::from_millis(100)) && started.elapsed() < OWARE_TABLE_WAIT
        {
            if stop.load(Ordering::Relaxed) {
                return Err(AnalysisError::Stopped);
            }
        }
        Ok(table.get().cloned())
    }

    /// What is known of `game`'s current position.
    fn know(&mut self, game: &Game) -> Known {
        if let Some(outcome) = game.outcome() {
            return Known {
                value: outcome.margin(),
                best: Vec::new(),
                moves: Vec::new(),
                exact: true,
            };
        }
        if let Some(known) = self.solve(game) {
            return known;
        }
        let moves = game.legal_moves();
        if let [only] = &moves[..] {
            // A forced move: its position's value is the value after it.
            let mut next = game.clone();
            next.play(*only).expect("a legal move");
            let after = self.know(&next);
            return Known {
                value: after.value,
                best: vec![*only],
                moves: vec![(*only, after.value)],
                exact: after.exact,
            };
        }
        self.estimate(game)
    }

    /// Every move's exact value, if the solver proves them within its time.
    fn solve(&mut self, game: &Game) -> Option<Known> {
        let solver = self.solver.as_mut()?;
        let pos = game.position();
        let seeds = pos.seeds_in_play();
        if self.failed_at.is_some_and(|failed| seeds >= failed) || !worth_trying(pos, solver) {
            return None;
        }
        match solver.solve(game) {
            Ok(s) => Some(Known {
                value: s.value,
                best: s.best_moves,
                moves: s.move_values,
                exact: true,
            }),
            Err(_) => {
                self.failed_at = Some(seeds);
                None
            }
        }
    }

    /// The search's best move and its value.
    fn estimate(&mut self, game: &Game) -> Known {
        let limits = Limits::time(self.settings.search_time);
        let r = self
            .searcher
            .search_threads(game, limits, self.settings.threads);
        let mine = r
            .score
            .margin()
            .unwrap_or_else(|| (f64::from(r.score.raw()) / f64::from(Score::SEED)).round() as i32);
        let value = if game.position().to_move() == Side::South {
            mine
        } else {
            -mine
        };
        Known {
            value,
            best: vec![r.best],
            moves: Vec::new(),
            exact: false,
        }
    }
}

/// Whether the solver can be expected to prove `pos` within its time: it solves the
/// variant, the position is within its limits, and (Kalah) the nodes it is expected
/// to visit fit the time with room to spare.
fn worth_trying(pos: &Position, solver: &Solver) -> bool {
    let config = solver.config();
    let Ok(estimate) = Solver::estimate(pos, config) else {
        return false;
    };
    let seconds = config.time_limit.map_or(f64::INFINITY, |t| t.as_secs_f64());
    estimate.expected_nodes.is_none_or(|nodes| {
        nodes.every_move as f64 <= SOLVER_NODES_PER_SEC * seconds * ESTIMATE_SLACK
    })
}
