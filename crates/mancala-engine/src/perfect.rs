//! The `perfect` player: a best move when the solver (`mancala-solver`) proves one in
//! time, the strongest search otherwise; and the first guesses the solver starts from.

use std::time::Duration;

use mancala_core::{Game, Position, Side};
use mancala_solver::{SolveConfig, SolveError, Solver};

use crate::{Choice, Limits, Player, Score, Searcher};

/// The first guess searches this many nodes...
const GUESS_NODES: u64 = 300_000;

/// ... with a table of this many MiB.
const GUESS_TABLE_MB: usize = 8;

/// A first guess at `pos`'s value for the exact solver's MTD(f) (a
/// [`mancala_solver::FirstGuess`]): the final margin for the player to move that a
/// short heuristic alpha-beta search expects (a win by N when it sees one, else its
/// evaluation rounded to seeds). Give it to [`Solver::with_first_guess`].
///
/// ```
/// use mancala_core::{Position, Rules};
/// use mancala_engine::first_guess;
/// // Kalah(2,1) from the start: the search sees the whole game.
/// let guess = first_guess(&Position::new(Rules::kalah(2, 1))).unwrap();
/// assert!(guess.abs() <= 4);
/// ```
#[must_use]
pub fn first_guess(pos: &Position) -> Option<i32> {
    let result = Searcher::new(GUESS_TABLE_MB).search_position(pos, Limits::nodes(GUESS_NODES));
    let margin = result
        .score
        .margin()
        .unwrap_or_else(|| (result.score.raw() as f64 / f64::from(Score::SEED)).round() as i32);
    Some(margin)
}

/// Plays perfectly whenever the position can be solved within its time budget (spec
/// `perfect:ms=1000,hash=64`), and otherwise plays the move of a fallback player (the
/// `expert` level when built from a spec), saying so in [`Choice::reason`].
///
/// The solver's table is kept from move to move, so the later a game, the faster (and
/// the more certain) the solve.
///
/// ```
/// use std::time::Duration;
/// use mancala_core::{Game, Rules};
/// use mancala_engine::{Perfect, Player, PlayerSpec};
///
/// let rules = Rules::kalah(4, 2);
/// let fallback = "greedy".parse::<PlayerSpec>().unwrap().build(rules, 1).unwrap();
/// let mut p = Perfect::new(Duration::from_secs(5), 16, fallback);
/// let choice = p.choose(&Game::new(rules));
/// assert!(choice.reason.unwrap().contains("perfect play"));
/// ```
pub struct Perfect {
    solver: Solver,
    budget: Duration,
    fallback: Box<dyn Player>,
}

impl Perfect {
    /// A perfect player solving for at most `budget` per move with a table of
    /// `table_mb` MiB, and playing like `fallback` when that is not enough.
    #[must_use]
    pub fn new(budget: Duration, table_mb: usize, fallback: Box<dyn Player>) -> Perfect {
        let config = SolveConfig::default()
            .with_table_mb(table_mb)
            .with_time_limit(budget);
        Perfect {
            solver: Solver::new(config).with_first_guess(first_guess),
            budget,
            fallback,
        }
    }
}

impl Player for Perfect {
    fn name(&self) -> String {
        format!("perfect(ms={})", self.budget.as_millis())
    }

    fn choose(&mut self, game: &Game) -> Choice {
        let me = game.position().to_move();
        match self.solver.best_move(game) {
            Ok((Some(mv), solution)) => {
                let mine = if me == Side::South {
                    solution.value
                } else {
                    -solution.value
                };
                let outlook = match mine {
                    0 => "a draw".to_owned(),
                    m if m > 0 => format!("a win by {m}"),
                    m => format!("a loss by {}", -m),
                };
                Choice {
                    mv,
                    reason: Some(format!(
                        "is perfect play: it leads to {outlook} for the mover"
                    )),
                }
            }
            Ok((None, _)) => unreachable!("the game is not over when a player is asked"),
            Err(e) => {
                let why = match e {
                    SolveError::OutOfTime => format!(
                        "the position could not be solved in {} ms",
                        self.budget.as_millis()
                    ),
                    other => other.to_string(),
                };
                let mut choice = self.fallback.choose(game);
                let said = choice.reason.take().unwrap_or_else(|| "was chosen".into());
                choice.reason = Some(format!(
                    "{said} (not perfect play: {why}, so the {} player chose)",
                    self.fallback.name()
                ));
                choice
            }
        }
    }
}
