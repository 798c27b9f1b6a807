//! Property tests of the invariants over random games of every variant, size and rule
//! option. (The rules themselves are checked against an independent model in
//! `tests/referee.rs`.)

use mancala_core::{
    EndRule, Game, IllegalMove, LeanGame, Move, Position, RepetitionTracker, RuleOptions, Rules,
    Side, Variant,
};
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(Variant::ALL.to_vec()),
        1u8..=12,
        1u8..=12,
        any::<bool>(),
        prop::sample::select(EndRule::ALL.to_vec()),
    )
        .prop_map(|(v, h, s, empty_capture, end_rule)| {
            Rules::new(v, h, s).unwrap().with_options(RuleOptions {
                empty_capture,
                end_rule,
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Once [`Position::decided_winner`] names a winner, it keeps naming them and the
    /// game ends with them winning.
    #[test]
    fn decided_winner_wins(rules in rules_strategy(), choices in prop::collection::vec(any::<prop::sample::Index>(), 0..400)) {
        let mut p = Position::new(rules);
        let mut decided = None;
        for choice in choices {
            if decided.is_some() {
                prop_assert_eq!(p.decided_winner(), decided, "{}", p);
            }
            decided = p.decided_winner();
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            p = p.play(*choice.get(&legal)).unwrap();
        }
        if let (Some(winner), Some(outcome)) = (p.decided_winner(), p.outcome()) {
            prop_assert_eq!(outcome.winner, Some(winner), "{}", p);
        }
    }

    /// Seeds are conserved, the legal-move list agrees with checked play, and a finished
    /// game has no legal moves.
    #[test]
    fn invariants(rules in rules_strategy(), choices in prop::collection::vec(any::<prop::sample::Index>(), 0..200)) {
        let mut p = Position::new(rules);
        for choice in choices {
            let total = u32::from(p.seeds_in_play()) + p.stores().iter().map(|&s| u32::from(s)).sum::<u32>();
            prop_assert_eq!(total, u32::from(rules.total_seeds()));
            let legal = p.legal_moves();
            for side in Side::BOTH {
                prop_assert_eq!(p.row_sum(side), p.houses(side).iter().sum::<u16>());
            }
            for house in 1..=16u8 {
                let mv = Move::new(house).unwrap();
                prop_assert_eq!(p.play(mv).is_ok(), legal.contains(&mv), "house {} in\n{}", house, p);
            }
            if p.is_over() {
                prop_assert!(legal.is_empty());
                prop_assert_eq!(p.play(Move::new(1).unwrap()), Err(IllegalMove::GameOver));
                let o = p.outcome().unwrap();
                prop_assert!(u32::from(o.scores[0]) + u32::from(o.scores[1]) <= u32::from(rules.total_seeds()));
                break;
            }
            prop_assert!(!legal.is_empty(), "a game in progress has a move\n{}", p);
            p = p.play(*choice.get(&legal)).unwrap();
        }
    }

    /// [`Position::predict`] (move ordering without playing) says what playing says.
    #[test]
    fn predict_agrees_with_play(rules in rules_strategy(), choices in prop::collection::vec(any::<prop::sample::Index>(), 0..200)) {
        let mut p = Position::new(rules);
        for choice in choices {
            let legal = p.legal_moves();
            for &mv in &legal {
                let (_, report) = p.play_with_report(mv).unwrap();
                prop_assert_eq!(p.predict(mv), report, "house {} in\n{}", mv, p);
            }
            if legal.is_empty() {
                break;
            }
            p = p.play(*choice.get(&legal)).unwrap();
        }
    }

    /// Undo restores the exact game, and a game replays to the same position.
    #[test]
    fn undo_restores(rules in rules_strategy(), choices in prop::collection::vec(any::<prop::sample::Index>(), 1..60)) {
        let mut game = Game::new(rules);
        let mut snapshots = vec![game.clone()];
        for choice in choices {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            game.play(*choice.get(&legal)).unwrap();
            snapshots.push(game.clone());
        }
        snapshots.pop();
        while let Some(before) = snapshots.pop() {
            prop_assert!(game.undo());
            prop_assert_eq!(&game, &before);
        }
        prop_assert!(!game.undo());
    }

    /// Setting up a position from its parts (and its tuzdyks) gives back the same
    /// position.
    #[test]
    fn from_parts_round_trips(rules in rules_strategy(), choices in prop::collection::vec(any::<prop::sample::Index>(), 0..80)) {
        let mut p = Position::new(rules);
        for choice in choices {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            p = p.play(*choice.get(&legal)).unwrap();
        }
        let q = Position::from_parts(rules, [p.houses(Side::South), p.houses(Side::North)], p.stores(), p.to_move())
            .and_then(|q| q.with_claims(p.claims()))
            .unwrap();
        prop_assert_eq!(p, q);
    }
}

/// Replays a sowing trace on the board as a front end would animate it.
fn apply_trace(p: &Position, steps: &[mancala_core::SowStep]) -> ([Vec<u16>; 2], [u16; 2]) {
    use mancala_core::{Pit, SowStep};
    let mut houses = Side::BOTH.map(|s| p.houses(s).to_vec());
    let mut stores = p.stores();
    let me = p.to_move();
    let mut slot = |pit: Pit, f: &mut dyn FnMut(&mut u16)| match pit {
        Pit::House { side, house } => f(&mut houses[side.index()][house as usize - 1]),
        Pit::Store(side) => f(&mut stores[side.index()]),
    };
    for step in steps {
        match *step {
            SowStep::Lift { pit, seeds } => slot(pit, &mut |c| {
                assert_eq!(*c, seeds);
                *c = 0;
            }),
            SowStep::Drop(pit) => slot(pit, &mut |c| *c += 1),
            SowStep::Capture { pit, seeds } => {
                slot(pit, &mut |c| {
                    assert!(*c >= seeds);
                    *c -= seeds;
                });
                slot(Pit::Store(me), &mut |c| *c += seeds);
            }
        }
    }
    (houses, stores)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The sowing trace animates exactly the move that `play` makes.
    #[test]
    fn sowing_trace_matches_play(rules in rules_strategy(), choices in prop::collection::vec(any::<prop::sample::Index>(), 1..150)) {
        let mut p = Position::new(rules);
        for choice in choices {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = *choice.get(&legal);
            let next = p.play(mv).unwrap();
            let (houses, stores) = apply_trace(&p, &p.sowing(mv).unwrap());
            prop_assert_eq!(&houses[0][..], next.houses(Side::South), "{}\nmove {}", p, mv);
            prop_assert_eq!(&houses[1][..], next.houses(Side::North), "{}\nmove {}", p, mv);
            prop_assert_eq!(stores, next.stores(), "{}\nmove {}", p, mv);
            p = next;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The lean game of batches (legal moves as bits, no move list) plays exactly as
    /// [`Game`]: the same positions, legal moves, refusals, ends (repetition
    /// included) and outcomes, on random games of every variant, size and rule option
    /// (both of Kalah's capture settings and end rules among them).
    #[test]
    fn lean_game_plays_as_game(rules in rules_strategy(), choices in prop::collection::vec(any::<prop::sample::Index>(), 0..600)) {
        let mut game = Game::new(rules);
        let mut lean = LeanGame::new(*game.position());
        for choice in choices {
            prop_assert_eq!(lean.position(), game.position());
            let legal = game.legal_moves();
            let bits = legal.iter().fold(0u32, |b, mv| b | 1 << mv.index());
            prop_assert_eq!(lean.legal_bits(), bits, "{}", game.position());
            prop_assert_eq!(lean.is_over(), game.is_over());
            if !game.is_over() {
                prop_assert_eq!(game.position().legal_bits(), bits);
            }
            for house in 1..=16u8 {
                let mv = Move::new(house).unwrap();
                prop_assert_eq!(lean.is_legal(mv), legal.contains(&mv));
                if !legal.contains(&mv) {
                    let mut copy = lean.clone();
                    prop_assert_eq!(copy.play(mv).err(), game.clone().play(mv).err());
                    prop_assert_eq!(&copy, &lean, "a refused move plays nothing");
                }
            }
            if game.is_over() {
                break;
            }
            let mv = *choice.get(&legal);
            game.play(mv).unwrap();
            let ended = lean.play(mv).unwrap();
            prop_assert_eq!(ended, game.outcome());
        }
        // What a pickled batch saves rebuilds the game exactly, repetition run and all.
        let (from, moves) = lean.since_capture();
        let mut rebuilt = LeanGame::new(from);
        for &mv in moves {
            rebuilt.play(mv).unwrap();
        }
        prop_assert_eq!(rebuilt.position(), lean.position());
        prop_assert_eq!(rebuilt.legal_bits(), lean.legal_bits());
        if rules.variant().has_repetition_rule() {
            prop_assert_eq!(&rebuilt, &lean);
        }
        let start = Position::new(rules);
        lean.restart(&start);
        prop_assert_eq!(lean, LeanGame::new(start));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The repetition tracker (a scan of fingerprints, and a set of them once a run
    /// since the last capture is long) says exactly what a naive list of the positions
    /// since the last capture says, on long random games of the Oware variants, where
    /// runs without a capture go on for hundreds of moves.
    #[test]
    fn repetition_tracker_is_exact(
        variant in prop::sample::select(vec![Variant::Oware, Variant::OwareSimplified]),
        houses in 2u8..=8,
        seeds in 1u8..=6,
        choices in prop::collection::vec(any::<prop::sample::Index>(), 0..3000),
    ) {
        let rules = Rules::new(variant, houses, seeds).unwrap();
        let mut p = Position::new(rules);
        let mut tracker = RepetitionTracker::new(&p);
        let mut naive = vec![p];
        for choice in choices {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let next = p.play(*choice.get(&legal)).unwrap();
            if next.stores() != p.stores() {
                naive.clear();
            }
            let expected = !next.is_over() && naive.contains(&next);
            naive.push(next);
            prop_assert_eq!(tracker.record(&p, &next), expected, "{}", next);
            if expected {
                break;
            }
            p = next;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The lean game keeps the repetition rule with the moves since the last capture
    /// (replayed on a fingerprint seen before) and still ends exactly where [`Game`]
    /// does, over long random games of the Oware variants whose runs without a capture
    /// go on for hundreds of moves.
    #[test]
    fn lean_game_ends_by_repetition_as_game_does_in_long_games(
        variant in prop::sample::select(vec![Variant::Oware, Variant::OwareSimplified, Variant::TogyzKumalak]),
        houses in 2u8..=8,
        seeds in 1u8..=6,
        choices in prop::collection::vec(any::<prop::sample::Index>(), 0..3000),
    ) {
        let rules = Rules::new(variant, houses, seeds).unwrap();
        let mut game = Game::new(rules);
        let mut lean = LeanGame::new(*game.position());
        for choice in choices {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = *choice.get(&legal);
            game.play(mv).unwrap();
            prop_assert_eq!(lean.play(mv).unwrap(), game.outcome());
            prop_assert_eq!(lean.position(), game.position());
            prop_assert_eq!(lean.is_over(), game.is_over());
        }
    }
}
