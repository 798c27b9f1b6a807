//! Property tests of the description engine over random descriptions: every
//! description the check accepts plays without a panic, keeps every seed, always
//! offers the player to move a legal move until the game is over, and every game ends
//! (by its end rules or, where it has one, by the repetition rule).

use std::collections::HashSet;

use mancala_core::described::Described;
use mancala_core::description::{
    Board, Capture, CaptureKind, Claim, Description, Direction, Empty, EmptyFacing, End, First,
    GrandSlam, Leftover, NoMove, Relay, Row, Sowing, Taker, Timing, Turn,
};
use mancala_core::{Move, Position, Rules, Variant};
use proptest::prelude::*;

fn capture_strategy() -> impl Strategy<Value = Capture> {
    (
        (
            prop::sample::select(vec![
                CaptureKind::Count,
                CaptureKind::Across,
                CaptureKind::Next,
            ]),
            any::<bool>(),
            any::<bool>(),
        ),
        prop::collection::btree_set(1u16..=4, 0..3),
        any::<bool>(),
        prop::sample::select(vec![Row::Opponent, Row::Own, Row::Either]),
        prop::sample::select(vec![Timing::Last, Timing::EachSeed]),
        any::<bool>(),
        prop::sample::select(vec![GrandSlam::Captures, GrandSlam::NoCapture]),
        prop::sample::select(vec![EmptyFacing::NoCapture, EmptyFacing::TakeSowingSeed]),
    )
        .prop_map(
            |(
                (kind, by_owner, facing),
                counts,
                even,
                row,
                timing,
                run,
                grand_slam,
                empty_facing,
            )| {
                if kind == CaptureKind::Next {
                    Capture {
                        kind,
                        counts: Vec::new(),
                        even: false,
                        row,
                        timing: Timing::Last,
                        run: false,
                        grand_slam: GrandSlam::Captures,
                        empty_facing: EmptyFacing::NoCapture,
                        by: Taker::Mover,
                        facing,
                    }
                } else if kind == CaptureKind::Across {
                    Capture {
                        kind: CaptureKind::Across,
                        counts: Vec::new(),
                        even: false,
                        row: Row::Own,
                        timing: Timing::Last,
                        run: false,
                        grand_slam: GrandSlam::Captures,
                        empty_facing,
                        by: Taker::Mover,
                        facing: false,
                    }
                } else {
                    Capture {
                        kind: CaptureKind::Count,
                        // Without counts it needs even (else refused: not worth drawing).
                        even: even || counts.is_empty(),
                        counts: counts.into_iter().collect(),
                        row,
                        timing,
                        run,
                        grand_slam,
                        empty_facing: EmptyFacing::NoCapture,
                        by: if by_owner { Taker::Owner } else { Taker::Mover },
                        facing: false,
                    }
                }
            },
        )
}

fn end_strategy() -> impl Strategy<Value = End> {
    (
        any::<bool>(),
        prop::sample::select(vec![Empty::MoverCannotMove, Empty::EitherSide]),
        0u16..=3,
        prop::sample::select(vec![
            Leftover::OwnRow,
            Leftover::OwnRowUnlessDecided,
            Leftover::Nobody,
        ]),
        any::<bool>(),
    )
        .prop_map(|(majority, empty, seeds_left, leftover, repetition)| End {
            majority,
            empty,
            seeds_left,
            leftover,
            repetition,
        })
}

prop_compose! {
    fn description_strategy()(
        houses in 1u8..=6,
        seeds in 1u8..=5,
        stores in any::<bool>(),
        own_store in any::<bool>(),
        extra_turn in any::<bool>(),
        origin_first in any::<bool>(),
        skip_origin in any::<bool>(),
        must_feed in any::<bool>(),
        pass in any::<bool>(),
        capture in prop::collection::vec(capture_strategy(), 0..3),
        direction in prop::sample::select(vec![
            Direction::Anticlockwise,
            Direction::Clockwise,
            Direction::ByCount,
        ]),
        relay in prop::sample::select(vec![Relay::None, Relay::Last, Relay::Next]),
        max_laps in 1u16..=20,
        unbounded in any::<bool>(),
        start in prop::option::of(prop::collection::vec(0u8..=5, 6)),
        claim in prop::option::of((1u16..=4, any::<bool>(), any::<bool>())),
        end in end_strategy(),
    ) -> Description {
        // A relay game whose captures are rare wanders through so many positions that
        // its repetition may take millions of plies: its boards are kept small.
        let (houses, seeds) = if relay == Relay::None {
            (houses, seeds)
        } else {
            (houses.min(4), seeds.min(3))
        };
        let mut d = Description::builtin("oware").unwrap();
        d.key = "random".into();
        d.board = Board { houses, seeds, start: Vec::new(), min_houses: 1, max_houses: 16, max_seeds: 64, stores };
        if let Some(mut start) = start {
            start.truncate(houses.into());
            start[0] = start[0].max(1);
            (d.board.seeds, d.board.start) = (0, start);
            (d.board.min_houses, d.board.max_houses) = (houses, houses);
        }
        d.sowing = Sowing {
            first: if origin_first { First::Origin } else { First::Next },
            skip_origin,
            own_store: stores && own_store,
            direction,
            relay,
            // A relay sowing into the own store needs no bound; any other does.
            max_laps: if relay == Relay::None || (stores && own_store && unbounded) {
                0
            } else {
                max_laps
            },
        };
        d.turn = Turn {
            extra_turn: stores && own_store && extra_turn,
            must_feed,
            no_move: if pass { NoMove::Pass } else { NoMove::Ends },
        };
        d.capture = capture;
        d.claim = claim.filter(|_| !stores).map(|(count, not_last_house, not_mirror)| Claim {
            word: "claim".into(),
            count,
            not_last_house,
            not_mirror,
        });
        d.end = end;
        // Refused otherwise (tested by the check's own tests): not worth drawing.
        d.end.repetition |= !d.sowing.own_store || d.sowing.direction == Direction::ByCount;
        d
    }
}

/// Plays a random game of `d` (moves picked by `choices`, round and round); the number
/// of plies, or why it broke an invariant.
fn play_random_game(d: &Description, choices: &[usize]) -> Result<usize, String> {
    let engine = Described::new(d);
    let rules = Rules::new(Variant::Oware, d.board.houses, d.board.seeds.max(1)).unwrap();
    let mut pos = engine.start_position(rules);
    let total = seeds_of(&pos);
    let mut seen: HashSet<Position> = HashSet::new();
    for ply in 0..100_000 {
        if engine.is_over(&pos) {
            return Ok(ply);
        }
        if d.end.repetition && !seen.insert(pos) {
            return Ok(ply);
        }
        let moves: Vec<Move> = engine.legal_moves(&pos).iter().copied().collect();
        if moves.is_empty() {
            return Err(format!(
                "no legal move in a game not over: {}",
                pos.to_notation()
            ));
        }
        let stores = pos.stores();
        let mv = moves[choices[ply % choices.len()] % moves.len()];
        engine.play(&mut pos, mv, &mut Vec::new());
        let kept = seeds_of(&pos);
        if kept != total {
            return Err(format!(
                "{kept} seeds of {total} after {mv}: {}",
                pos.to_notation()
            ));
        }
        if pos.stores() != stores {
            seen.clear();
        }
    }
    Err("no end in 100,000 plies".into())
}

/// Every seed of `pos`: on the board and in the stores.
fn seeds_of(pos: &Position) -> u16 {
    let on_board: u16 = pos.houses(mancala_core::Side::South).iter().sum::<u16>()
        + pos.houses(mancala_core::Side::North).iter().sum::<u16>();
    on_board + pos.stores()[0] + pos.stores()[1]
}

proptest! {
    #![proptest_config(ProptestConfig {
        max_global_rejects: 1_000_000,
        ..ProptestConfig::with_cases(600)
    })]

    #[test]
    fn accepted_descriptions_play_keep_their_seeds_and_end(
        d in description_strategy(),
        choices in prop::collection::vec(0usize..16, 1..64),
    ) {
        prop_assume!(d.check().is_ok());
        // Written out and read back, it is the same description.
        let text = d.to_toml();
        prop_assert_eq!(Description::from_toml(&text, "random.toml"), Ok(d.clone()), "{}", text);
        let played = play_random_game(&d, &choices);
        prop_assert!(played.is_ok(), "{}\n{}", played.unwrap_err(), d.to_toml());
    }
}

/// Every game of the catalogue (`crates/mancala-core/games/`) under the same properties:
/// random games of each, with moves picked by a seeded generator so that every game is
/// played every run, play without a panic, keep every seed and end.
#[test]
fn every_catalogue_game_plays_keeps_its_seeds_and_ends() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    for (i, d) in Description::builtins().iter().enumerate() {
        let mut rng = SmallRng::seed_from_u64(i as u64);
        for _ in 0..40 {
            let choices: Vec<usize> = (0..rng.random_range(1..64))
                .map(|_| rng.random_range(0..16))
                .collect();
            if let Err(why) = play_random_game(d, &choices) {
                panic!("{}: {why} (moves picked by {choices:?})", d.key);
            }
        }
    }
}
