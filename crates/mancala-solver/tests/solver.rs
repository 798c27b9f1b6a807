//! The exact solver against plain minimax written here, independently of the solver:
//! Kalah by minimax over whole positions (memoised on the full position, stores
//! included, no pruning), Oware by minimax and by alpha-beta with the whole game's
//! history (no table at all), both through the public rules API only.

use std::collections::HashMap;
use std::time::Duration;

use mancala_core::{EndRule, Game, Move, Position, RuleOptions, Rules, Side};
use mancala_solver::{SolveConfig, SolveError, Solver};
use proptest::prelude::*;

/// Player 1's final score minus player 2's.
fn margin(scores: [u16; 2]) -> i32 {
    i32::from(scores[0]) - i32::from(scores[1])
}

/// Kalah: the margin under perfect play, by minimax on positions (player 1 maximises,
/// player 2 minimises, whoever is to move after an extra turn).
fn kalah_minimax(p: &Position, memo: &mut HashMap<Position, i32>) -> i32 {
    if let Some(o) = p.outcome() {
        return margin(o.scores);
    }
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let values: Vec<i32> = p
        .legal_moves()
        .iter()
        .map(|&mv| kalah_minimax(&p.play(mv).unwrap(), memo))
        .collect();
    let values = values.into_iter();
    let v = if p.to_move() == Side::South {
        values.max()
    } else {
        values.min()
    }
    .unwrap();
    memo.insert(*p, v);
    v
}

/// Oware: the margin under perfect play by plain minimax through `Game`, which applies
/// the repetition rule from the whole history.
fn oware_minimax(game: &mut Game) -> i32 {
    if let Some(o) = game.outcome() {
        return margin(o.scores);
    }
    let south = game.position().to_move() == Side::South;
    let mut best = if south { i32::MIN } else { i32::MAX };
    for mv in game.legal_moves() {
        let mut next = game.clone();
        next.play(mv).unwrap();
        let v = oware_minimax(&mut next);
        best = if south { best.max(v) } else { best.min(v) };
    }
    best
}

/// Oware: the same margin as [`oware_minimax`] by alpha-beta (player 1 maximises,
/// player 2 minimises) through `Game`, captures first, still without any table: it
/// reaches the boards the plain minimax cannot.
fn oware_alphabeta(game: &Game, mut alpha: i32, mut beta: i32) -> i32 {
    if let Some(o) = game.outcome() {
        return margin(o.scores);
    }
    let banked = |g: &Game| g.position().stores().iter().sum::<u16>();
    let mut children: Vec<(u16, Game)> = game
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut next = game.clone();
            next.play(mv).unwrap();
            (banked(&next) - banked(game), next)
        })
        .collect();
    children.sort_by_key(|&(captured, _)| std::cmp::Reverse(captured));
    let south = game.position().to_move() == Side::South;
    let mut best = if south { i32::MIN } else { i32::MAX };
    for (_, next) in &children {
        let v = oware_alphabeta(next, alpha, beta);
        if south {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

fn oware_alphabeta_reference(game: &Game) -> i32 {
    let bound = 2 * i32::from(game.rules().total_seeds());
    oware_alphabeta(game, -bound, bound)
}

fn kalah_rules(h: u8, s: u8) -> Vec<Rules> {
    let mut v = Vec::new();
    for empty_capture in [false, true] {
        for end_rule in EndRule::ALL {
            v.push(Rules::kalah(h, s).with_options(RuleOptions {
                empty_capture,
                end_rule,
            }));
        }
    }
    v
}

fn small_config() -> SolveConfig {
    SolveConfig::default().with_table_mb(16)
}

/// The checks every solution must pass, against an independent value function.
fn check_solution(game: &Game, solver: &mut Solver, mut reference: impl FnMut(&Game) -> i32) {
    let s = solver.solve(game).unwrap();
    let expected = reference(game);
    assert_eq!(
        s.value,
        expected,
        "{} after {:?}",
        game.rules(),
        game.moves()
    );
    // Every legal move has a value, and it is the value of the position after it.
    let legal: Vec<Move> = game.legal_moves().to_vec();
    assert_eq!(
        s.move_values.iter().map(|&(m, _)| m).collect::<Vec<_>>(),
        legal
    );
    for &(mv, v) in &s.move_values {
        let mut next = game.clone();
        next.play(mv).unwrap();
        assert_eq!(
            v,
            reference(&next),
            "{} after {:?} then {mv}",
            game.rules(),
            game.moves()
        );
    }
    // The value is the mover's best move value: max for player 1, min for player 2
    // (after an extra turn the same player chooses again).
    let values = s.move_values.iter().map(|&(_, v)| v);
    let best = if game.position().to_move() == Side::South {
        values.max()
    } else {
        values.min()
    };
    assert_eq!(Some(s.value), best);
    for &mv in &s.best_moves {
        assert_eq!(s.value_of(mv), Some(s.value));
    }
    // The cheaper best-move query agrees.
    let (mv, quick) = solver.best_move(game).unwrap();
    assert_eq!(quick.value, s.value);
    assert!(s.best_moves.contains(&mv.unwrap()));
}

/// The Kalah reference with a memo shared by all its calls.
fn kalah_reference() -> impl FnMut(&Game) -> i32 {
    let mut memo = HashMap::new();
    move |game: &Game| kalah_minimax(game.position(), &mut memo)
}

fn oware_reference(game: &Game) -> i32 {
    oware_minimax(&mut game.clone())
}

/// Kalah boards small enough for the minimax here in a test build; the larger ones of
/// H <= 6, S <= 3 are solved (and cross-checked move by move) in the next test.
const KALAH_MINIMAX_BOARDS: &[(u8, u8)] = &[
    (1, 1),
    (1, 2),
    (1, 3),
    (2, 1),
    (2, 2),
    (2, 3),
    (3, 1),
    (3, 2),
    (3, 3),
    (4, 1),
    (4, 2),
    (5, 1),
    (6, 1),
];

#[test]
fn kalah_start_values_match_minimax_under_every_rule_option() {
    for &(h, s) in KALAH_MINIMAX_BOARDS {
        for rules in kalah_rules(h, s) {
            let mut solver = Solver::new(small_config());
            check_solution(&Game::new(rules), &mut solver, kalah_reference());
        }
    }
}

#[test]
fn kalah_larger_boards_are_consistent_under_every_rule_option() {
    // Too large for the minimax above in a test build: each move's value is checked
    // against a fresh solve of the position after it, by a solver with an empty table.
    for (h, s) in [(4, 3), (5, 2), (5, 3), (6, 2)] {
        for rules in kalah_rules(h, s) {
            let game = Game::new(rules);
            let s = Solver::new(small_config()).solve(&game).unwrap();
            for &(mv, v) in &s.move_values {
                let mut next = game.clone();
                next.play(mv).unwrap();
                assert_eq!(
                    Solver::new(small_config()).value(&next).unwrap(),
                    v,
                    "{rules} {mv}"
                );
            }
        }
    }
}

/// Oware boards for the path-history minimax here, which has no table and grows
/// exponentially with the cycles the repetition rule allows; (2,2), (2,3), (3,1) and
/// (3,2) are checked against the alpha-beta reference below.
const OWARE_MINIMAX_BOARDS: &[(u8, u8)] = &[(1, 1), (1, 2), (1, 3), (2, 1)];

#[test]
fn oware_start_values_match_minimax_with_the_repetition_rule() {
    for &(h, s) in OWARE_MINIMAX_BOARDS {
        let mut solver = Solver::new(small_config());
        check_solution(&Game::new(Rules::oware(h, s)), &mut solver, oware_reference);
    }
}

#[test]
fn oware_alphabeta_reference_matches_minimax() {
    for &(h, s) in OWARE_MINIMAX_BOARDS {
        let game = Game::new(Rules::oware(h, s));
        assert_eq!(oware_alphabeta_reference(&game), oware_reference(&game));
    }
}

#[test]
fn oware_larger_start_values_match_alphabeta_with_the_repetition_rule() {
    for (h, s) in [(2, 2), (2, 3), (3, 1), (3, 2)] {
        let mut solver = Solver::new(small_config());
        check_solution(
            &Game::new(Rules::oware(h, s)),
            &mut solver,
            oware_alphabeta_reference,
        );
    }
}

#[test]
fn oware_positions_with_history_use_the_repetition_rule() {
    // Every position along a game, with its history since the last capture: against
    // minimax on Oware(2,1), against alpha-beta on (2,2), (2,3) and (3,1).
    for (h, s) in [(2, 1), (2, 2), (2, 3), (3, 1)] {
        let mut game = Game::new(Rules::oware(h, s));
        let mut solver = Solver::new(small_config());
        let mut k = 0usize;
        while !game.is_over() && k < 30 {
            if h * s <= 2 {
                check_solution(&game, &mut solver, oware_reference);
            } else {
                check_solution(&game, &mut solver, oware_alphabeta_reference);
            }
            let moves = game.legal_moves();
            game.play(moves[k * 7 % moves.len()]).unwrap();
            k += 1;
        }
    }
}

fn random_game(rules: Rules, choices: &[usize]) -> Game {
    let mut game = Game::new(rules);
    for &c in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let before = game.clone();
        game.play(moves[c % moves.len()]).unwrap();
        if game.is_over() {
            return before;
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn kalah_random_positions_match_minimax(
        h in 1u8..=5,
        s in 1u8..=3,
        options in 0usize..4,
        choices in proptest::collection::vec(0usize..16, 0..12),
    ) {
        prop_assume!(u32::from(h) * u32::from(s) <= 8);
        let rules = kalah_rules(h, s)[options];
        let game = random_game(rules, &choices);
        let mut solver = Solver::new(small_config());
        check_solution(&game, &mut solver, kalah_reference());
    }

    /// Positions with a history since the last capture, where tabling a value that
    /// depends on that history would be wrong (a solver that ignores the history fails
    /// here, on (3,1) after moves 2, 1, 3 for one).
    #[test]
    fn oware_random_positions_with_history_match_alphabeta(
        board in 0usize..3,
        choices in proptest::collection::vec(0usize..16, 0..14),
    ) {
        let (h, s) = [(2, 2), (2, 3), (3, 1)][board];
        let game = random_game(Rules::oware(h, s), &choices);
        let mut solver = Solver::new(small_config());
        check_solution(&game, &mut solver, oware_alphabeta_reference);
    }

    #[test]
    fn oware_random_positions_match_minimax(
        h in 1u8..=2,
        s in 1u8..=3,
        choices in proptest::collection::vec(0usize..16, 0..12),
    ) {
        prop_assume!(h == 1 || s == 1);
        let game = random_game(Rules::oware(h, s), &choices);
        let mut solver = Solver::new(small_config());
        check_solution(&game, &mut solver, oware_reference);
    }
}

#[test]
fn a_finished_game_is_its_outcome() {
    let mut game = Game::new(Rules::kalah(2, 1));
    for h in [2, 1, 2] {
        game.play(Move::new(h).unwrap()).unwrap();
    }
    assert!(game.is_over());
    let s = Solver::new(small_config()).solve(&game).unwrap();
    assert_eq!(s.value, margin(game.outcome().unwrap().scores));
    assert!(s.move_values.is_empty() && s.best_moves.is_empty());
}

#[test]
fn too_large_problems_are_refused_before_any_work() {
    let config = SolveConfig::default();
    let big = Position::new(Rules::kalah(6, 6));
    assert!(matches!(
        Solver::estimate(&big, config),
        Err(SolveError::TooLarge(_))
    ));
    let oware = Position::new(Rules::oware(6, 4));
    assert!(matches!(
        Solver::estimate(&oware, config),
        Err(SolveError::TooLarge(_))
    ));
    let simplified = Position::new(Rules::oware_simplified(3, 2));
    assert!(matches!(
        Solver::estimate(&simplified, config),
        Err(SolveError::Unsupported(_))
    ));
    // Nine houses a side do not fit the solver's packed board, even when forced.
    let wide = Position::new(Rules::kalah(9, 1));
    let forced = SolveConfig {
        force: true,
        ..config
    };
    match Solver::estimate(&wide, forced) {
        Err(SolveError::TooLarge(msg)) => assert!(msg.contains("at most 8 houses"), "{msg}"),
        other => panic!("{other:?}"),
    }
    // Refused by `solve` too, at once.
    let err = Solver::new(config)
        .solve(&Game::new(Rules::kalah(6, 6)))
        .unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
}

#[test]
fn a_time_limit_stops_a_solve() {
    let config = small_config().with_time_limit(Duration::from_millis(20));
    let err = Solver::new(config)
        .solve(&Game::new(Rules::kalah(6, 4)))
        .unwrap_err();
    assert_eq!(err, SolveError::OutOfTime);
}

/// Oware(3,3), the largest board the solver is asked for, is beyond the references
/// from the start. Each start move's value must be the value of the position after it
/// (solved afresh, with its history), and along games that capture whenever they can
/// every position with at most 12 seeds in play must match alpha-beta.
#[test]
fn oware_3_3_moves_are_consistent_and_its_endgames_match_alphabeta() {
    let config = SolveConfig::default().with_table_mb(128);
    let start = Game::new(Rules::oware(3, 3));
    let s = Solver::new(config).solve(&start).unwrap();
    for &(mv, v) in &s.move_values {
        let mut next = start.clone();
        next.play(mv).unwrap();
        assert_eq!(Solver::new(config).value(&next).unwrap(), v, "{mv}");
    }
    let banked = |g: &Game| g.position().stores().iter().sum::<u16>();
    let mut checked = 0;
    for game_number in 0..3 {
        let mut game = start.clone();
        let mut solver = Solver::new(config);
        for k in 0.. {
            if game.is_over() {
                break;
            }
            if game.position().seeds_in_play() <= 12 {
                check_solution(&game, &mut solver, oware_alphabeta_reference);
                checked += 1;
            }
            let mv = game
                .legal_moves()
                .iter()
                .copied()
                .max_by_key(|&mv| {
                    let mut next = game.clone();
                    next.play(mv).unwrap();
                    (banked(&next), (mv.index() + k + game_number) % 3)
                })
                .unwrap();
            game.play(mv).unwrap();
        }
    }
    assert!(checked >= 20, "only {checked} positions checked");
}
