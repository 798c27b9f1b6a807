//! Game analysis against exact references: brute-force minimax on small Kalah boards,
//! the solver itself on Oware.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mancala_core::{Game, Move, Position, Rules, Side};
use mancala_engine::{Analysis, AnalysisError, AnalysisSettings, Label, analyse};
use mancala_solver::{SolveConfig, Solver};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A game of random moves from the start of `rules`, played to the end.
fn random_game(rules: Rules, rng: &mut SmallRng) -> Game {
    let mut game = Game::new(rules);
    while !game.is_over() {
        let moves = game.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        game.play(mv).unwrap();
    }
    game
}

/// The value of `pos` for player 1 by plain minimax (Kalah: no position comes round
/// again, so values can be remembered by position).
fn minimax(pos: &Position, memo: &mut HashMap<Position, i32>) -> i32 {
    if let Some(o) = pos.outcome() {
        return o.margin();
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let moves = pos.legal_moves();
    let values = moves.iter().map(|&mv| {
        let mut next = *pos;
        next.play_unchecked(mv);
        minimax(&next, memo)
    });
    let v = if pos.to_move() == Side::South {
        values.max()
    } else {
        values.min()
    }
    .unwrap();
    memo.insert(*pos, v);
    v
}

fn settings() -> AnalysisSettings {
    AnalysisSettings {
        search_time: Duration::from_millis(50),
        solve_time: Duration::from_secs(60),
        threads: 1,
        hash_mb: 32,
    }
}

fn run(game: &Game) -> Analysis {
    let stop = Arc::new(AtomicBool::new(false));
    analyse(game, &settings(), |_| {}, &stop).unwrap()
}

#[test]
fn small_kalah_games_are_exact_and_match_minimax() {
    let mut rng = SmallRng::seed_from_u64(40);
    let mut memo = HashMap::new();
    let mut plies = 0;
    for rules in [Rules::kalah(3, 2), Rules::kalah(3, 3), Rules::kalah(4, 2)] {
        for _ in 0..4 {
            let game = random_game(rules, &mut rng);
            let analysis = run(&game);
            assert_eq!(analysis.plies.len(), game.ply());
            let mut pos = *game.start();
            for (entry, &mv) in analysis.plies.iter().zip(game.moves()) {
                let sign = if pos.to_move() == Side::South { 1 } else { -1 };
                let value_of = |m: Move, memo: &mut HashMap<Position, i32>| {
                    let mut next = pos;
                    next.play_unchecked(m);
                    sign * minimax(&next, memo)
                };
                let best_value = sign * minimax(&pos, &mut memo);
                let best: Vec<u8> = pos
                    .legal_moves()
                    .iter()
                    .filter(|&&m| value_of(m, &mut memo) == best_value)
                    .map(|m| m.house())
                    .collect();
                assert!(entry.exact, "{rules} ply {}", entry.ply);
                assert_eq!(entry.mover, if sign == 1 { 1 } else { 2 });
                assert_eq!(entry.played, mv.house());
                assert_eq!(entry.value_best, best_value, "{rules} ply {}", entry.ply);
                assert_eq!(entry.value_played, value_of(mv, &mut memo));
                assert_eq!(entry.best, best);
                assert_eq!(entry.label, Label::judge(best_value, entry.value_played));
                pos.play_unchecked(mv);
                plies += 1;
            }
        }
    }
    assert!(plies > 50, "{plies}");
}

#[test]
fn labels_agree_with_the_loss() {
    let mut rng = SmallRng::seed_from_u64(7);
    let game = random_game(Rules::kalah(4, 3), &mut rng);
    let analysis = run(&game);
    let mut losses = [0usize; 5];
    for p in &analysis.plies {
        let loss = p.value_best - p.value_played;
        assert!(loss >= 0, "{p:?}");
        assert_eq!(p.label == Label::Best, loss == 0, "{p:?}");
        assert_eq!(p.label == Label::Best, p.best.contains(&p.played), "{p:?}");
        losses[p.label as usize] += 1;
    }
    // Random moves are not all best.
    assert!(losses[0] < analysis.plies.len(), "{losses:?}");
    let [p1, p2] = analysis.accuracy;
    assert!((0.0..=100.0).contains(&p1) && (0.0..=100.0).contains(&p2));
    assert_eq!(analysis.accuracy, Analysis::accuracy_of(&analysis.plies));
}

#[test]
fn oware_positions_the_solver_proves_have_its_values_with_their_history() {
    let mut rng = SmallRng::seed_from_u64(3);
    let rules = Rules::oware(3, 2);
    let mut solver = Solver::new(SolveConfig::default().with_table_mb(64));
    for _ in 0..3 {
        let game = random_game(rules, &mut rng);
        let analysis = run(&game);
        let mut prefix = Game::new(rules);
        for (entry, &mv) in analysis.plies.iter().zip(game.moves()) {
            let solution = solver.solve(&prefix).unwrap();
            let sign = if prefix.position().to_move() == Side::South {
                1
            } else {
                -1
            };
            assert!(entry.exact);
            assert_eq!(entry.value_best, sign * solution.value);
            assert_eq!(
                entry.value_played,
                sign * solution.value_of(mv).unwrap(),
                "ply {}",
                entry.ply
            );
            let best: Vec<u8> = solution.best_moves.iter().map(|m| m.house()).collect();
            assert_eq!(entry.best, best);
            prefix.play(mv).unwrap();
        }
    }
}

#[test]
fn a_game_too_large_to_solve_is_estimated_and_marked() {
    // Oware with every seed in play: far beyond the solver.
    let mut game = Game::new(Rules::oware(6, 4));
    for house in [3, 1, 2] {
        game.play(Move::new(house).unwrap()).unwrap();
    }
    let settings = AnalysisSettings {
        solve_time: Duration::from_millis(100),
        ..settings()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let analysis = analyse(&game, &settings, |_| {}, &stop).unwrap();
    assert_eq!(analysis.plies.len(), 3);
    for p in &analysis.plies {
        assert!(!p.exact, "{p:?}");
        assert!(p.value_played <= p.value_best);
        assert!(!p.best.is_empty());
    }
}

#[test]
fn a_stopped_analysis_says_so() {
    let mut rng = SmallRng::seed_from_u64(1);
    let game = random_game(Rules::kalah(6, 3), &mut rng);
    let stop = Arc::new(AtomicBool::new(true));
    assert_eq!(
        analyse(&game, &settings(), |_| {}, &stop),
        Err(AnalysisError::Stopped)
    );
}

#[test]
fn the_document_has_the_documented_keys() {
    let mut game = Game::new(Rules::kalah(3, 2));
    game.play(Move::new(3).unwrap()).unwrap();
    let json = serde_json::to_value(run(&game)).unwrap();
    let ply = &json["plies"][0];
    for key in [
        "ply",
        "mover",
        "played",
        "best",
        "value_best",
        "value_played",
        "exact",
        "label",
    ] {
        assert!(!ply[key].is_null(), "{key}: {json}");
    }
    assert!(
        ["best", "good", "inaccuracy", "mistake", "blunder"]
            .contains(&ply["label"].as_str().unwrap())
    );
    assert_eq!(json["accuracy"].as_array().unwrap().len(), 2);
}
