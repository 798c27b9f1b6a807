//! The `perfect` player: a best move when the solver proves one in time, the strongest
//! search otherwise.

use std::time::Duration;

use mancala_core::{Game, Side};

use super::{SolveConfig, SolveError, Solver};
use crate::{Choice, Player};

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
            solver: Solver::new(config),
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
