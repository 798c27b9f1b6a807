//! The parallel players: alpha-beta on several threads (Lazy SMP, one shared table),
//! MCTS on several trees (root parallelism), and `master`, which uses both cores.

use std::time::Duration;

use mancala_core::{Game, Move, Rules};
use mancala_engine::{Limits, Player, PlayerSpec, Searcher, level_spec};

fn build(spec: &str, rules: Rules) -> Box<dyn Player> {
    spec.parse::<PlayerSpec>().unwrap().build(rules, 3).unwrap()
}

/// Searched to the end, two threads find the exact value one thread finds.
#[test]
fn two_threads_find_the_exact_value_of_a_small_game() {
    for rules in [Rules::kalah(3, 2), Rules::oware(3, 2), Rules::kalah(4, 2)] {
        let game = Game::new(rules);
        let one = Searcher::new(1).search(&game, Limits::depth(60));
        let two = Searcher::new(1).search_threads(&game, Limits::depth(60), 2);
        assert!(one.score.is_decisive(), "{rules}: {}", one.score);
        assert_eq!(two.score, one.score, "{rules}");
        assert!(game.legal_moves().contains(&two.best));
    }
}

/// A helper's nodes are counted, and helpers stop with the main search.
#[test]
fn a_timed_parallel_search_counts_every_threads_nodes_and_stops_in_time() {
    let game = Game::new(Rules::kalah(6, 4));
    let limits = Limits::time(Duration::from_millis(150));
    let r = Searcher::new(4).search_threads(&game, limits, 2);
    assert!(r.elapsed < Duration::from_millis(1500), "{:?}", r.elapsed);
    assert!(r.depth >= 4 && r.nodes > 0);
}

#[test]
fn mcts_on_two_trees_counts_both_trees_simulations() {
    let rules = Rules::oware(6, 4);
    let mut game = Game::new(rules);
    game.play(Move::new(2).unwrap()).unwrap();
    let choice = build("mcts:sims=500,threads=2", rules).choose(&game);
    assert!(game.legal_moves().contains(&choice.mv));
    let reason = choice.reason.unwrap();
    assert!(reason.contains("1000 simulations"), "{reason}");
    // One thread is the plain player: the same move for the same seed.
    let plain = build("mcts:sims=500", rules).choose(&game);
    let one = build("mcts:sims=500,threads=1", rules).choose(&game);
    assert_eq!(plain, one);
}

#[test]
fn master_is_a_level_with_a_budget_and_solves_small_positions() {
    assert_eq!(level_spec("master"), Some("master"));
    let rules = Rules::kalah(6, 4);
    let mut master = build("master:ms=100", rules);
    assert_eq!(master.name(), "master(ms=100,threads=2,solve=24,probe=16)");
    let game = Game::new(rules);
    let choice = master.choose(&game);
    assert!(game.legal_moves().contains(&choice.mv));
    assert!(choice.reason.unwrap().contains("search"));
    // Three houses of two seeds: the solver proves the move at once.
    let small = Game::new(Rules::kalah(3, 2));
    let reason = build("master:ms=200", small.rules())
        .choose(&small)
        .reason
        .unwrap();
    assert!(reason.contains("perfect play"), "{reason}");
    // solve=0 and probe=0: neither the solver nor the endgame table.
    let reason = build("master:ms=100,solve=0,probe=0", small.rules())
        .choose(&small)
        .reason
        .unwrap();
    assert!(!reason.contains("perfect play"), "{reason}");
    assert!(
        "master:depth=3"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(rules, 1)
            .is_err()
    );
}

#[test]
fn master_plays_from_its_endgame_table_once_it_is_built() {
    // Kalah(3,2): twelve seeds, every position in the default table. The table builds
    // in the background; until it is ready the search answers.
    let small = Game::new(Rules::kalah(3, 2));
    let start = std::time::Instant::now();
    let reason = loop {
        let reason = build("master:ms=50,solve=0", small.rules())
            .choose(&small)
            .reason
            .unwrap();
        if reason.contains("endgame table") || start.elapsed().as_secs() > 30 {
            break reason;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // The solver says the first player wins Kalah(3,2) by the same margin.
    let value = mancala_solver::Solver::new(mancala_solver::SolveConfig::default())
        .value(&small)
        .unwrap();
    assert_eq!(
        reason,
        format!(
            "is perfect play: the endgame table gives a final margin of {value:+} for the mover"
        )
    );
}
