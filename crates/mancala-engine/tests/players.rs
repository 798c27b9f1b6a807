//! Behaviour of the computer players on random positions of every variant.

use std::time::{Duration, Instant};

use mancala_core::{Game, Position, Rules, Side, Variant};
use mancala_engine::{
    AlphaBeta, Bound, Entry, Limits, PlayerSpec, Score, Searcher, evaluate, repetition_score,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A game after `plies` random moves (fewer if it ends), never over.
fn random_game(rules: Rules, plies: usize, rng: &mut SmallRng) -> Option<Game> {
    let mut game = Game::new(rules);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let before = game.clone();
        game.play(mv).unwrap();
        if game.is_over() {
            return Some(before);
        }
    }
    (!game.is_over()).then_some(game)
}

fn all_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for variant in Variant::ALL {
        for (h, s) in [(1, 3), (2, 2), (3, 3), (6, 4), (8, 3), (16, 2)] {
            v.push(Rules::new(variant, h, s).unwrap());
        }
    }
    v
}

#[test]
fn every_player_plays_legal_moves() {
    let mut rng = SmallRng::seed_from_u64(11);
    let specs = [
        "random",
        "fewest",
        "most",
        "greedy",
        "alphabeta:depth=5",
        "alphabeta:nodes=3000",
        "alphabeta:ms=5",
        "mcts:sims=200",
        "mcts:ms=3",
        "easy",
        "medium",
        "hard",
    ];
    for rules in all_rules() {
        for spec in specs
            .iter()
            .copied()
            .chain((rules.variant() == Variant::Kalah).then_some("robot"))
        {
            let spec: PlayerSpec = spec.parse().unwrap();
            let mut player = spec.build(rules, 5).unwrap();
            for _ in 0..3 {
                let plies = rng.random_range(0..40);
                let Some(game) = random_game(rules, plies, &mut rng) else {
                    continue;
                };
                let choice = player.choose(&game);
                assert!(
                    game.legal_moves().contains(&choice.mv),
                    "{spec} played {} in {rules} at\n{}",
                    choice.mv,
                    game.position()
                );
            }
        }
    }
}

#[test]
fn expert_is_built_and_levels_are_known() {
    for level in ["easy", "medium", "hard", "expert"] {
        assert!(PlayerSpec::KNOWN.contains(&level));
        let spec: PlayerSpec = level.parse().unwrap();
        assert!(spec.build(Rules::oware(6, 4), 1).is_ok());
        assert!(spec.build(Rules::kalah(6, 4), 1).is_ok());
    }
    let bad: PlayerSpec = "alphabeta:depth=0".parse().unwrap();
    assert!(bad.build(Rules::kalah(6, 4), 1).is_err());
    let bad: PlayerSpec = "mcts:depth=3".parse().unwrap();
    assert!(bad.build(Rules::kalah(6, 4), 1).is_err());
}

/// Plain minimax to `depth` plies over bare positions (values for the player to move;
/// the same evaluation at the horizon and exact scores at the end).
fn minimax(pos: &Position, depth: u32) -> Score {
    if pos.is_over() || depth == 0 {
        return evaluate(pos);
    }
    let me = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut c = *pos;
            c.play_unchecked(mv);
            let v = minimax(&c, depth - 1);
            if c.to_move() == me { v } else { -v }
        })
        .max()
        .unwrap()
}

/// Plain minimax with Oware's repetition rule along the line (`path`: positions since
/// the last capture, the current one last).
fn minimax_rep(pos: &Position, depth: u32, path: &mut Vec<Position>) -> Score {
    if pos.is_over() || depth == 0 {
        return evaluate(pos);
    }
    let me = pos.to_move();
    let mut best = -Score::INFINITY;
    for mv in pos.legal_moves() {
        let mut c = *pos;
        c.play_unchecked(mv);
        let v = if c.stores() == pos.stores() && !c.is_over() && path.contains(&c) {
            Score::from_raw(repetition_score(&c))
        } else if c.stores() == pos.stores() {
            path.push(c);
            let v = minimax_rep(&c, depth - 1, path);
            path.pop();
            v
        } else {
            minimax_rep(&c, depth - 1, &mut vec![c])
        };
        best = best.max(if c.to_move() == me { v } else { -v });
    }
    best
}

#[test]
fn alphabeta_agrees_with_minimax() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut checked = 0;
    for rules in all_rules() {
        if rules.houses() > 8 {
            continue;
        }
        for _ in 0..6 {
            let plies = rng.random_range(0..30);
            let Some(game) = random_game(rules, plies, &mut rng) else {
                continue;
            };
            let pos = *game.position();
            for depth in 1..=4 {
                // A fresh searcher: no table entries from other positions' lines.
                let mut s = Searcher::new(1);
                let r = s.search_position(&pos, Limits::depth(depth));
                let expected = if rules.variant() == Variant::Oware {
                    minimax_rep(&pos, depth, &mut vec![pos])
                } else {
                    minimax(&pos, depth)
                };
                assert_eq!(r.score, expected, "{rules} depth {depth} at\n{pos}");
                // The move it reports achieves that value.
                let mut c = pos;
                c.play_unchecked(r.best);
                let v = if c.is_over() || depth == 1 {
                    evaluate(&c)
                } else {
                    minimax(&c, depth - 1)
                };
                if rules.variant() != Variant::Oware {
                    let v = if c.to_move() == pos.to_move() { v } else { -v };
                    assert_eq!(v, expected, "{rules} depth {depth} move {}", r.best);
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} searches checked");
}

#[test]
fn kalah_extra_turns_keep_the_same_side() {
    // Player 1 to move in Kalah(2,1) with [1,1] / [1,1]: house 2 ends in the store,
    // then house 1 lands in the empty house 2 and captures. Found by search at depth 2.
    let rules = Rules::kalah(2, 1);
    let pos = Position::from_parts(rules, [&[1, 1], &[1, 1]], [0, 0], Side::South).unwrap();
    let r = Searcher::new(1).search_position(&pos, Limits::depth(2));
    assert_eq!(r.best.house(), 2);
    assert_eq!(r.score, minimax(&pos, 2));
}

#[test]
fn exact_scores_for_solved_small_games() {
    // Kalah(2,1) is over within 40 plies on every line: the search solves it and
    // gives the exact value plain minimax does.
    let pos = Position::new(Rules::kalah(2, 1));
    let r = Searcher::new(1).search_position(&pos, Limits::depth(40));
    assert!(r.score.margin().is_some() || r.score == Score::DRAW);
    assert_eq!(r.score, minimax(&pos, 40));
}

#[test]
fn tt_entries_round_trip() {
    let mut rng = SmallRng::seed_from_u64(8);
    for _ in 0..10_000 {
        let margin = rng.random_range(-2048..=2048);
        let score = if rng.random_bool(0.5) {
            Score::from_margin(margin)
        } else {
            Score::heuristic(rng.random_range(-20_000..=20_000))
        };
        let e = Entry {
            check: rng.random(),
            score,
            depth: rng.random(),
            bound: [Bound::Upper, Bound::Lower, Bound::Exact][rng.random_range(0..3)],
            mv: mancala_core::Move::new(rng.random_range(0..=16)),
        };
        assert_ne!(e.pack(), 0);
        assert_eq!(Entry::unpack(e.pack()), Some(e));
    }
}

#[test]
fn time_limits_are_respected_loosely() {
    // Not a timing test: a 30 ms search must come back well within a second.
    let game = Game::new(Rules::kalah(12, 6));
    let mut ab = AlphaBeta::new(Limits::time(Duration::from_millis(30)), 1);
    let t = Instant::now();
    let _ = mancala_engine::Player::choose(&mut ab, &game);
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "took {:?}",
        t.elapsed()
    );

    let spec: PlayerSpec = "mcts:ms=30".parse().unwrap();
    let mut mcts = spec.build(Rules::oware(12, 6), 1).unwrap();
    let t = Instant::now();
    let _ = mcts.choose(&Game::new(Rules::oware(12, 6)));
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "took {:?}",
        t.elapsed()
    );
}

#[test]
fn node_limits_stop_the_search() {
    let pos = Position::new(Rules::kalah(6, 4));
    let r = Searcher::new(1).search_position(&pos, Limits::nodes(20_000));
    assert!(r.nodes < 20_000 + 2048 || r.depth == 1, "{} nodes", r.nodes);
    assert!(r.depth >= 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn search_moves_are_legal_and_seeded_mcts_is_reproducible(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        houses in 1u8..=16,
        seeds in 1u8..=6,
        plies in 0usize..60,
        seed in any::<u64>(),
    ) {
        let rules = Rules::new(variant, houses, seeds).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        if let Some(game) = random_game(rules, plies, &mut rng) {
            let spec: PlayerSpec = "alphabeta:depth=3".parse().unwrap();
            let mv = spec.build(rules, seed).unwrap().choose(&game).mv;
            prop_assert!(game.legal_moves().contains(&mv));
            let spec: PlayerSpec = "mcts:sims=50".parse().unwrap();
            let a = spec.build(rules, seed).unwrap().choose(&game);
            let b = spec.build(rules, seed).unwrap().choose(&game);
            prop_assert_eq!(a.clone(), b);
            prop_assert!(game.legal_moves().contains(&a.mv));
        }
    }

    #[test]
    fn scores_order_wins_above_heuristics(margin in 1i32..2048, h in -29_999i32..30_000) {
        prop_assert!(Score::from_margin(margin) > Score::heuristic(h));
        prop_assert!(Score::from_margin(-margin) < Score::heuristic(h));
        prop_assert_eq!(Score::from_margin(margin).margin(), Some(margin));
        prop_assert_eq!(-Score::from_margin(margin), Score::from_margin(-margin));
    }
}

#[test]
fn predicted_reports_match_played_moves() {
    // `Position::predict` (move ordering without playing) says exactly what playing says, on
    // random positions of every variant, size and Kalah rule option.
    let mut rng = SmallRng::seed_from_u64(21);
    let mut checked = 0;
    let mut nonzero = 0;
    for base in all_rules() {
        for empty_capture in [false, true] {
            let rules = base.with_options(mancala_core::RuleOptions {
                empty_capture,
                ..mancala_core::RuleOptions::default()
            });
            for _ in 0..40 {
                let plies = rng.random_range(0..60);
                let Some(game) = random_game(rules, plies, &mut rng) else {
                    continue;
                };
                let pos = *game.position();
                for mv in pos.legal_moves() {
                    let (_, report) = pos.play_with_report(mv).unwrap();
                    assert_eq!(pos.predict(mv), report, "{rules} move {mv} at\n{pos}");
                    checked += 1;
                    nonzero += usize::from(report != mancala_core::MoveReport::default());
                }
            }
        }
    }
    assert!(
        checked > 2000 && nonzero > 200,
        "{checked} moves, {nonzero} with a report"
    );
}
