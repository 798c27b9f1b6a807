//! The Oware solver against plain minimax over the referee's independent rules
//! (`crates/mancala-referee`), the repetition rule included: every first move's value on
//! every board small enough for plain minimax to search in a moment.

use mancala_core::{Game, Rules};
use mancala_referee::{Kind, Table, oware_move_values};
use mancala_solver::{SolveConfig, Solver};

/// Boards (houses, seeds) where minimax over the referee takes well under a second.
/// Plain minimax has no transposition table, so (2, 3) already takes 17 s and (3, 1)
/// over 100 s (docs/solver.md); the larger boards are covered by the solver's own
/// tests against the search.
const BOARDS: [(u8, u8); 6] = [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2)];

#[test]
fn oware_values_match_plain_minimax_over_the_referee() {
    for (houses, seeds) in BOARDS {
        let rules = Rules::oware(houses, seeds);
        let solution = Solver::new(SolveConfig::default())
            .solve(&Game::new(rules))
            .expect("small boards solve");
        let solver: Vec<(usize, i32)> = solution
            .move_values
            .iter()
            .map(|&(m, v)| (usize::from(m.house()), v))
            .collect();
        let referee = oware_move_values(&Table::new(Kind::Oware, houses.into(), seeds.into()));
        assert_eq!(
            solver, referee,
            "Oware({houses},{seeds}): solver against referee minimax"
        );
    }
}
