//! The Kalah endgame database opened to other searches: a heuristic search that reaches
//! a position with few enough seeds in play reads its exact value instead of
//! evaluating it.

use std::sync::Arc;

use mancala_core::{Position, Rules, Variant};

use crate::board::{MAX_SOLVER_HOUSES, Shape};
use crate::endgame::Endgame;
use crate::error::SolveError;

/// The exact value of every Kalah position with at most [`EndgameTable::seeds`] seeds
/// in play, for one set of rules, built once on all cores (one byte a board:
/// `C(seeds + 2H, 2H)` bytes, 30 MiB for 16 seeds on six houses a side).
///
/// ```
/// use mancala_core::{Position, Rules};
/// use mancala_solver::{EndgameTable, SolveConfig, Solver};
/// let rules = Rules::kalah(3, 1);
/// let table = EndgameTable::build(rules, 6).unwrap();
/// let start = Position::new(rules);
/// // Six seeds in play: the table holds the start, and agrees with the solver.
/// let margin = table.margin(&start).unwrap();
/// let mut solver = Solver::new(SolveConfig::default().with_table_mb(1));
/// assert_eq!(margin, solver.value(&mancala_core::Game::new(rules)).unwrap());
/// // Eight seeds in play: beyond the table.
/// assert_eq!(table.margin(&Position::new(Rules::kalah(4, 2))), None);
/// ```
#[derive(Clone)]
pub struct EndgameTable {
    rules: Rules,
    shape: Shape,
    db: Arc<Endgame>,
}

impl std::fmt::Debug for EndgameTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndgameTable")
            .field("rules", &self.rules)
            .field("seeds", &self.seeds())
            .finish_non_exhaustive()
    }
}

impl EndgameTable {
    /// Whether tables can be built for `rules`: Kalah's, whatever its options.
    ///
    /// ```
    /// use mancala_core::Rules;
    /// use mancala_solver::EndgameTable;
    /// assert!(EndgameTable::supports(Rules::kalah(6, 4)));
    /// assert!(!EndgameTable::supports(Rules::togyz_kumalak(9, 9)));
    /// ```
    #[must_use]
    pub fn supports(rules: Rules) -> bool {
        rules.variant() == Variant::Kalah
    }

    /// Builds the table of every position of `rules` with at most `seeds` seeds in play.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] for a variant other than Kalah,
    /// [`SolveError::TooLarge`] when the boards cannot be numbered (more than
    /// 127 seeds, or too many houses).
    pub fn build(rules: Rules, seeds: u16) -> Result<EndgameTable, SolveError> {
        if !EndgameTable::supports(rules) {
            return Err(SolveError::Unsupported(rules.variant()));
        }
        let seeds = usize::from(seeds);
        let too_large = || SolveError::TooLarge(format!("a database of {seeds} seeds for {rules}"));
        if rules.houses() > MAX_SOLVER_HOUSES || seeds > 127 {
            return Err(too_large());
        }
        let shape = Shape::new(rules, seeds).ok_or_else(too_large)?;
        Endgame::bytes_for(2 * rules.houses(), seeds).ok_or_else(too_large)?;
        let db = Endgame::build(&shape, seeds, |_, _| {}, || false).expect("never stopped");
        Ok(EndgameTable {
            rules,
            shape,
            db: Arc::new(db),
        })
    }

    /// The database itself, for the solver.
    pub(crate) fn database(&self) -> &Arc<Endgame> {
        &self.db
    }

    /// The rules whose positions the table holds.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The most seeds in play of a position the table holds.
    #[must_use]
    pub fn seeds(&self) -> u16 {
        self.db.seeds() as u16
    }

    /// Bytes held.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.db.bytes()
    }

    /// The final margin (the mover's score less the other player's, stores included)
    /// under perfect play from `pos`, a position of the table's rules that is not over,
    /// if it has at most [`EndgameTable::seeds`] seeds in play.
    #[inline]
    #[must_use]
    pub fn margin(&self, pos: &Position) -> Option<i32> {
        if pos.seeds_in_play() > self.seeds() || pos.rules() != self.rules {
            return None;
        }
        let me = pos.to_move();
        let banked = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        Some(banked + self.db.value(self.shape.key(self.shape.board(pos))))
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::{Game, RuleOptions};
    use proptest::prelude::*;

    use super::*;
    use crate::{SolveConfig, Solver};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Wherever a random game goes, the table's value is the solver's.
        #[test]
        fn the_table_agrees_with_the_solver(
            empty_capture in any::<bool>(),
            choices in proptest::collection::vec(0usize..6, 0..12),
        ) {
            let options = RuleOptions { empty_capture, ..RuleOptions::default() };
            let rules = Rules::kalah(4, 2).with_options(options);
            let table = EndgameTable::build(rules, 16).unwrap();
            let mut game = Game::new(rules);
            for c in choices {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play(moves[c % moves.len()]).unwrap();
            }
            prop_assume!(!game.is_over());
            let mut solver = Solver::new(SolveConfig::default().with_table_mb(1));
            let value = solver.value(&game).unwrap();
            let me = game.position().to_move();
            let mover = if me == mancala_core::Side::South { value } else { -value };
            prop_assert_eq!(table.margin(game.position()), Some(mover));
        }
    }

    #[test]
    fn other_rules_and_oware_are_refused() {
        let rules = Rules::kalah(3, 1);
        let table = EndgameTable::build(rules, 6).unwrap();
        let options = RuleOptions {
            empty_capture: !rules.options().empty_capture,
            ..rules.options()
        };
        let other = Position::new(rules.with_options(options));
        assert!(table.margin(&Position::new(rules)).is_some());
        assert_eq!(table.margin(&other), None);
        assert!(matches!(
            EndgameTable::build(Rules::oware(6, 4), 6),
            Err(SolveError::Unsupported(_))
        ));
    }
}
