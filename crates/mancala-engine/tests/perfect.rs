//! The `perfect` player over the exact solver: it plays a best move (checked against
//! a fresh solve) while the solver finishes in time, and says when it falls back.

use mancala_core::{Game, Rules};
use mancala_engine::PlayerSpec;
use mancala_solver::{SolveConfig, Solver};

fn small_config() -> SolveConfig {
    SolveConfig::default().with_table_mb(16)
}

#[test]
fn the_perfect_player_plays_a_best_move_or_says_it_fell_back() {
    let rules = Rules::kalah(4, 2);
    let mut perfect = "perfect:ms=5000,hash=8"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(rules, 1)
        .unwrap();
    let mut game = Game::new(rules);
    while !game.is_over() {
        let choice = perfect.choose(&game);
        let solution = Solver::new(small_config()).solve(&game).unwrap();
        assert!(solution.best_moves.contains(&choice.mv), "{:?}", choice);
        assert!(choice.reason.unwrap().contains("perfect play"));
        game.play(choice.mv).unwrap();
    }
    // Too large to solve: the expert search moves instead, and the reason says so.
    let rules = Rules::kalah(6, 6);
    let mut perfect = "perfect:ms=50"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(rules, 1)
        .unwrap();
    let game = Game::new(rules);
    let choice = perfect.choose(&game);
    assert!(game.legal_moves().contains(&choice.mv));
    let reason = choice.reason.unwrap();
    assert!(
        reason.contains("not perfect play") && reason.contains("too large"),
        "{reason}"
    );
    // Out of time: the same.
    let rules = Rules::kalah(6, 4);
    let mut perfect = "perfect:ms=20"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(rules, 1)
        .unwrap();
    let reason = perfect.choose(&Game::new(rules)).reason.unwrap();
    assert!(reason.contains("could not be solved in 20 ms"), "{reason}");
    assert!(
        "perfect"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(rules, 1)
            .is_ok()
    );
    assert!(
        "perfect:depth=3"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(rules, 1)
            .is_err()
    );
}
