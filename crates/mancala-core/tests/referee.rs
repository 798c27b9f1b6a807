//! The rules core against the referee (`crates/mancala-referee`), an independent naive
//! model of the rules (every variant): thousands of random games on boards of 1 to 8 houses and 1 to 8
//! seeds, with the moves chosen to reach the rare endings (long games, many-lap
//! sowings, grand slams, feeding, repetitions, exact halves). Every position, the end,
//! its reason, the winner and the final scores must agree.

use std::collections::BTreeMap;

use mancala_core::{EndReason, EndRule, Game, Move, RuleOptions, Rules, Side, Variant};
use mancala_referee::{Ending, Kind, Referee};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// How a game's moves are chosen, to steer games into the rarer endings.
#[derive(Clone, Copy, Debug)]
enum Style {
    /// Any legal move.
    Uniform,
    /// Moves that capture nothing: long games, feeding and repetitions.
    Quiet,
    /// The fullest house: many-lap sowings.
    Laps,
    /// Grand slams first, then the biggest capture: exact halves and captured rows.
    Greedy,
    /// A style drawn afresh for every move.
    Mixed,
}

const STYLES: [Style; 5] = [
    Style::Uniform,
    Style::Quiet,
    Style::Laps,
    Style::Greedy,
    Style::Mixed,
];

fn choose(referee: &Referee, style: Style, rng: &mut SmallRng) -> usize {
    let moves = referee.moves();
    let any = moves[rng.random_range(0..moves.len())];
    // One move in ten is random whatever the style, so that no game is fully scripted.
    if rng.random_ratio(1, 10) {
        return any;
    }
    let table = referee.table();
    let effects: Vec<_> = moves.iter().map(|&k| (k, table.effect(k))).collect();
    let pick = |key: &dyn Fn(&mancala_referee::Effect) -> i64| {
        effects
            .iter()
            .max_by_key(|(k, e)| (key(e), *k))
            .map(|&(k, _)| k)
            .unwrap()
    };
    match style {
        Style::Uniform => any,
        Style::Quiet => {
            let quiet: Vec<usize> = effects
                .iter()
                .filter(|(_, e)| e.captured == 0)
                .map(|&(k, _)| k)
                .collect();
            if quiet.is_empty() {
                any
            } else {
                quiet[rng.random_range(0..quiet.len())]
            }
        }
        Style::Laps => pick(&|e| i64::from(e.sown)),
        Style::Greedy => pick(&|e| i64::from(e.grand_slam) * 1000 + i64::from(e.captured)),
        Style::Mixed => choose(referee, STYLES[rng.random_range(0..4)], rng),
    }
}

fn kind_of(rules: Rules) -> Kind {
    match rules.variant() {
        Variant::Kalah => Kind::Kalah {
            empty_capture: rules.options().empty_capture,
            either_side_empty: rules.options().end_rule == EndRule::EitherSideEmpty,
        },
        Variant::Oware => Kind::Oware,
        Variant::OwareSimplified => Kind::SimplifiedOware,
        Variant::TogyzKumalak => Kind::TogyzKumalak,
        Variant::Described(_) => unreachable!("this referee plays the hand-written games"),
    }
}

/// Plays one game in both models and checks them against each other at every ply;
/// returns the referee's ending, for the tally.
fn play_both(rules: Rules, style: Style, rng: &mut SmallRng) -> String {
    let mut game = Game::new(rules);
    let seeds = u32::from(rules.seeds());
    let mut referee = Referee::new(kind_of(rules), rules.houses(), seeds);
    let mut moves = Vec::new();
    loop {
        let context = || format!("{rules} after moves {moves:?}\n{}", game.position());
        compare(&game, &referee, &context);
        if let Some(finish) = referee.finish() {
            let t = referee.table();
            let half = (t.banked[0] + t.banked[1] + t.row_total(0) + t.row_total(1)) / 2;
            let one_half = finish.ending != Ending::HalfEach && t.banked.contains(&half);
            let note = if one_half {
                ", one player at exactly half"
            } else {
                ""
            };
            return format!("{:?} {:?}{note}", rules.variant(), finish.ending);
        }
        assert!(moves.len() < 20_000, "no end in sight: {}", context());
        let k = choose(&referee, style, rng);
        referee.play(k);
        if let Err(e) = game.play(Move::new(k as u8).unwrap()) {
            panic!(
                "core refuses house {k} after {moves:?}: {e}\n{}",
                game.position()
            );
        }
        moves.push(k);
    }
}

fn compare(game: &Game, referee: &Referee, context: &dyn Fn() -> String) {
    let p = game.position();
    let t = referee.table();
    for side in Side::BOTH {
        let row: Vec<u32> = p.houses(side).iter().map(|&c| u32::from(c)).collect();
        assert_eq!(row, t.rows[side.index()], "{side}'s row: {}", context());
    }
    let stores = p.stores().map(u32::from);
    assert_eq!(stores, t.banked, "stores or captures: {}", context());
    let tuzdyks = p.claims().map(|t| t.map(|m| m.index() + 1));
    assert_eq!(tuzdyks, referee.tuzdyks(), "tuzdyks: {}", context());
    assert_eq!(
        game.is_over(),
        referee.finish().is_some(),
        "over: {}",
        context()
    );
    let legal: Vec<usize> = game.legal_moves().iter().map(|m| m.index() + 1).collect();
    assert_eq!(legal, referee.moves(), "legal moves: {}", context());
    match referee.finish() {
        None => assert_eq!(p.to_move().index(), t.to_move, "to move: {}", context()),
        Some(finish) => {
            let outcome = game.outcome().expect("a finished game has an outcome");
            let scores = outcome.scores.map(u32::from);
            assert_eq!(scores, finish.scores, "final scores: {}", context());
            let winner = outcome.winner.map(Side::index);
            assert_eq!(winner, finish.winner(), "winner: {}", context());
            let end = game.end().expect("a finished game has an end");
            assert_eq!(end.outcome, outcome, "end and outcome: {}", context());
            assert_eq!(end.reason, reason(finish.ending), "reason: {}", context());
            let sweep = end.sweep.map(u32::from);
            assert_eq!(sweep, finish.taken_from_rows, "sweep: {}", context());
            let unclaimed = u32::from(end.unclaimed);
            assert_eq!(unclaimed, finish.left_to_nobody, "unclaimed: {}", context());
        }
    }
}

/// The core's name for the referee's ending.
fn reason(ending: Ending) -> EndReason {
    let side = |p: usize| Side::BOTH[p];
    match ending {
        Ending::NoSeedsToMove(p) => EndReason::NoSeeds(side(p)),
        Ending::SideEmpty(p) => EndReason::SideEmpty(side(p)),
        Ending::MoreThanHalf(p) => EndReason::Majority(side(p)),
        Ending::HalfEach => EndReason::HalfEach,
        Ending::CannotFeed(p) => EndReason::CannotFeed(side(p)),
        Ending::Repetition => EndReason::Repetition,
        Ending::TwoOrFewerLeft => EndReason::FewSeedsLeft,
    }
}

fn rules(variant: Variant, houses: u8, seeds: u8, options: RuleOptions) -> Rules {
    Rules::new(variant, houses, seeds)
        .unwrap()
        .with_options(options)
}

/// Every variant and option on every board of 1 to 8 houses and 1 to 8 seeds, several
/// games each in every style, from fixed seeds so that a failure reproduces.
#[test]
fn core_agrees_with_the_referee() {
    let mut rng = SmallRng::seed_from_u64(22);
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut games = 0;
    for houses in 1..=8 {
        for seeds in 1..=8 {
            for (variant, options) in variants() {
                let rules = rules(variant, houses, seeds, options);
                for style in STYLES.into_iter().cycle().take(GAMES_PER_BOARD) {
                    *tally.entry(play_both(rules, style, &mut rng)).or_default() += 1;
                    games += 1;
                }
            }
        }
    }
    println!("{games} games; endings reached: {tally:#?}");
    // The move choice must keep reaching every way a game can end from the start. Two
    // Oware endings cannot come from the start, so tests/rules.rs sets them up: a
    // player to move with no seeds (the opponent had to feed them), and half each
    // (that needs an empty board, but a capture never takes the opponent's whole row).
    for ending in [
        "Kalah NoSeedsToMove(0)",
        "Kalah NoSeedsToMove(1)",
        "Kalah SideEmpty(0)",
        "Kalah SideEmpty(1)",
        "Oware MoreThanHalf(0)",
        "Oware MoreThanHalf(1)",
        "Oware CannotFeed(0)",
        "Oware CannotFeed(1)",
        "Oware CannotFeed(0), one player at exactly half",
        "Oware CannotFeed(1), one player at exactly half",
        "Oware Repetition",
        "Oware Repetition, one player at exactly half",
        "OwareSimplified TwoOrFewerLeft",
        "OwareSimplified Repetition",
        "TogyzKumalak MoreThanHalf(0)",
        "TogyzKumalak MoreThanHalf(1)",
        "TogyzKumalak NoSeedsToMove(0)",
        "TogyzKumalak NoSeedsToMove(1)",
        "TogyzKumalak Repetition",
    ] {
        let n = tally.get(ending).copied().unwrap_or(0);
        assert!(
            n >= 3,
            "only {n} games ended by {ending}: the move choice needs a look"
        );
    }
}

/// Games on each board, variant and rule option, the styles taken in turn.
const GAMES_PER_BOARD: usize = 40;

fn variants() -> Vec<(Variant, RuleOptions)> {
    let mut v = vec![
        (Variant::Oware, RuleOptions::default()),
        (Variant::OwareSimplified, RuleOptions::default()),
        (Variant::TogyzKumalak, RuleOptions::default()),
    ];
    for empty_capture in [false, true] {
        for end_rule in EndRule::ALL {
            v.push((
                Variant::Kalah,
                RuleOptions {
                    empty_capture,
                    end_rule,
                },
            ));
        }
    }
    v
}

/// Togyz Kumalak on its standard board (the boards above stop at 8 houses of 8), and
/// on a few larger ones the rules generalise to.
#[test]
fn togyz_kumalak_agrees_with_the_referee_on_the_standard_board() {
    let mut rng = SmallRng::seed_from_u64(9);
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for (houses, seeds, games) in [(9, 9, 400), (12, 5, 60), (16, 3, 60)] {
        let rules = rules(Variant::TogyzKumalak, houses, seeds, RuleOptions::default());
        for style in STYLES.into_iter().cycle().take(games) {
            *tally.entry(play_both(rules, style, &mut rng)).or_default() += 1;
        }
    }
    println!("endings reached: {tally:#?}");
    for ending in [
        "TogyzKumalak MoreThanHalf(0)",
        "TogyzKumalak MoreThanHalf(1)",
    ] {
        let n = tally.get(ending).copied().unwrap_or(0);
        assert!(n >= 3, "only {n} games ended by {ending}");
    }
}
