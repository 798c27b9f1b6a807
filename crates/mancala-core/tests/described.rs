//! The description engine (`Described`) against the hand-tuned rule sets: for each
//! shipped game, on random boards with every rule option, random games with moves
//! chosen to reach long sowings, captures, claims and every ending. Every legal move
//! list, every move's position, report and sowing steps, the end, its reason, the
//! final scores and the repetition scores must agree.

use mancala_core::described::Described;

use mancala_core::{EndRule, Move, Position, RuleOptions, Rules, SowStep, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Random rules of `variant`: 1 to 8 houses, 1 to 10 seeds (up to 20 for long
/// sowings), and each option either way.
fn random_rules(variant: Variant, rng: &mut SmallRng) -> Rules {
    let houses = rng.random_range(1..=8);
    let seeds = if rng.random_ratio(1, 5) {
        rng.random_range(11..=20)
    } else {
        rng.random_range(1..=10)
    };
    let rules = Rules::new(variant, houses, seeds).unwrap();
    if variant.has_stores() {
        let end_rule = if rng.random_bool(0.5) {
            EndRule::MoverCannotMove
        } else {
            EndRule::EitherSideEmpty
        };
        let options = RuleOptions {
            empty_capture: rng.random_bool(0.5),
            end_rule,
        };
        return rules.with_options(options);
    }
    rules
}

/// A move of `pos`: mostly random, sometimes the fullest house (long sowings) or the
/// biggest capture.
fn choose(pos: &Position, rng: &mut SmallRng) -> Move {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let any = moves[rng.random_range(0..moves.len())];
    match rng.random_range(0..4) {
        0 => *moves
            .iter()
            .max_by_key(|&&m| pos.seeds(pos.to_move(), m))
            .unwrap(),
        1 => *moves
            .iter()
            .max_by_key(|&&m| pos.predict(m).captured)
            .unwrap(),
        _ => any,
    }
}

/// Plays one random game under both, comparing every step; the plies played.
fn compare_game(rules: Rules, rng: &mut SmallRng) -> usize {
    let described = Described::new(&rules.description());
    let mut pos = Position::new(rules);
    let context = |pos: &Position| format!("{rules:?} at {}", pos.to_notation());
    assert_eq!(described.is_over(&pos), pos.is_over(), "{}", context(&pos));
    let mut plies = 0;
    while !pos.is_over() && plies < 400 {
        let kernel_moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let moves: Vec<Move> = described.legal_moves(&pos).iter().copied().collect();
        assert_eq!(moves, kernel_moves, "legal moves, {}", context(&pos));
        assert_eq!(
            described.repetition_scores(&pos),
            repetition(&pos),
            "{}",
            context(&pos)
        );
        let mv = choose(&pos, rng);
        let (next, report, steps) = pos.play_with_steps(mv).unwrap();
        let mut mine = pos;
        let mut my_steps: Vec<SowStep> = Vec::new();
        let my_report = described.play(&mut mine, mv, &mut my_steps);
        let what = format!("{mv} from {}", context(&pos));
        assert_eq!(mine, next, "position after {what}");
        assert_eq!(my_report, report, "report of {what}");
        assert_eq!(my_steps, steps, "steps of {what}");
        pos = next;
        plies += 1;
    }
    if pos.is_over() {
        let end = pos.end().unwrap();
        assert_eq!(
            described.final_scores(&pos),
            pos.final_scores(),
            "{}",
            context(&pos)
        );
        assert_eq!(described.end_reason(&pos), end.reason, "{}", context(&pos));
    }
    plies
}

/// The kernel's repetition scores, through the game's end by repetition.
fn repetition(pos: &Position) -> Option<[u16; 2]> {
    pos.end_by_repetition().map(|end| end.outcome.scores)
}

#[test]
fn the_description_engine_plays_every_shipped_game_as_its_kernel_does() {
    let mut rng = SmallRng::seed_from_u64(51);
    for variant in Variant::ALL {
        let mut plies = 0;
        for _ in 0..300 {
            let rules = random_rules(variant, &mut rng);
            plies += compare_game(rules, &mut rng);
        }
        assert!(plies > 3000, "{variant}: only {plies} plies compared");
    }
}

#[test]
fn the_standard_games_agree_from_their_start() {
    let mut rng = SmallRng::seed_from_u64(7);
    for variant in Variant::ALL {
        for _ in 0..40 {
            compare_game(Rules::standard(variant), &mut rng);
        }
    }
}
