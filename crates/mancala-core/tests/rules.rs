//! One test per rule of `docs/rules.md`, written from the sources it cites (the Auckland
//! Kalah specifications, the Bern course's `BoardTest`, the Abapa rules of Oware).

use mancala_core::{
    EndRule, Game, IllegalMove, Move, Position, RuleOptions, Rules, SetupError, Side, Variant,
};

fn mv(h: u8) -> Move {
    Move::new(h).unwrap()
}

fn play_all(mut p: Position, moves: &[u8]) -> Position {
    for &h in moves {
        p = p
            .play(mv(h))
            .unwrap_or_else(|e| panic!("move {h}: {e}\n{p}"));
    }
    p
}

/// A position with these rows and player 1's store; player 2's store holds the rest.
fn setup(rules: Rules, south: &[u16], north: &[u16], south_store: u16, to_move: Side) -> Position {
    let on_board: u16 = south.iter().chain(north).sum();
    let north_store = rules.total_seeds() - on_board - south_store;
    Position::from_parts(rules, [south, north], [south_store, north_store], to_move).unwrap()
}

// ---------------------------------------------------------------- Kalah

#[test]
fn kalah_plain_move_passes_the_turn() {
    let p = play_all(Position::new(Rules::kalah(6, 4)), &[1]);
    assert_eq!(p.houses(Side::South), &[0, 5, 5, 5, 5, 4]);
    assert_eq!(p.to_move(), Side::North);
}

#[test]
fn kalah_last_seed_in_store_gives_another_turn() {
    let p = play_all(Position::new(Rules::kalah(6, 4)), &[3]);
    assert_eq!(p.store(Side::South), 1);
    assert_eq!(p.to_move(), Side::South);
}

#[test]
fn kalah_sowing_skips_the_opponents_store() {
    // North has 8 seeds in house 6: store, south 1..6, then north house 1 (not south's store).
    let rules = Rules::kalah(6, 4);
    let p = setup(
        rules,
        &[4, 4, 4, 4, 4, 4],
        &[4, 0, 0, 0, 0, 8],
        12,
        Side::North,
    );
    let p = p.play(mv(6)).unwrap();
    assert_eq!(p.store(Side::North), 1);
    assert_eq!(p.store(Side::South), 12);
    assert_eq!(p.houses(Side::South), &[5, 5, 5, 5, 5, 5]);
    assert_eq!(p.houses(Side::North), &[5, 0, 0, 0, 0, 0]);
}

#[test]
fn kalah_capture_takes_the_opposite_house() {
    // Player 1's house 1 is empty; house 5's 9 seeds go round and land in it.
    let rules = Rules::kalah(6, 4);
    let p = setup(
        rules,
        &[0, 4, 4, 4, 9, 3],
        &[4, 4, 4, 4, 4, 0],
        0,
        Side::South,
    );
    let p = p.play(mv(5)).unwrap();
    // 9 seeds: house 6, store, north 1..6, house 1 (last) -> captures north 6 (4 + 1 = 5).
    assert_eq!(p.houses(Side::South), &[0, 4, 4, 4, 0, 4]);
    assert_eq!(p.houses(Side::North), &[5, 5, 5, 5, 5, 0]);
    // One seed sown into the store, then the capture: the last seed and north 6's one.
    assert_eq!(p.store(Side::South), 1 + 2);
    assert_eq!(p.to_move(), Side::North);
}

#[test]
fn kalah_no_capture_when_opposite_is_empty_unless_option() {
    // Player 1 house 2 holds 1 seed, sows into empty house 3; opposite (north 4) empty.
    let south = [4, 1, 0, 4, 4, 4];
    let north = [4, 4, 4, 0, 4, 5];
    let plain = setup(Rules::kalah(6, 4), &south, &north, 0, Side::South);
    let p = plain.play(mv(2)).unwrap();
    assert_eq!(p.houses(Side::South), &[4, 0, 1, 4, 4, 4]);
    assert_eq!(p.store(Side::South), 0);

    let opts = RuleOptions {
        empty_capture: true,
        ..RuleOptions::default()
    };
    let rules = Rules::kalah(6, 4).with_options(opts);
    let p = setup(rules, &south, &north, 0, Side::South)
        .play(mv(2))
        .unwrap();
    assert_eq!(p.houses(Side::South), &[4, 0, 0, 4, 4, 4]);
    assert_eq!(p.store(Side::South), 1);
}

#[test]
fn kalah_origin_is_refilled_on_a_lap_and_exact_lap_captures() {
    // 13 seeds on a 6-house board: one per house of the lap, origin included, last seed
    // in the emptied origin -> capture of the opposite house (which got one seed).
    let rules = Rules::kalah(6, 4);
    let p = setup(
        rules,
        &[13, 1, 1, 1, 1, 1],
        &[1, 1, 1, 1, 1, 0],
        12,
        Side::South,
    );
    let p = p.play(mv(1)).unwrap();
    // North house 6 faces south house 1: had 0, got 1 -> captured with the origin seed.
    assert_eq!(p.houses(Side::South), &[0, 2, 2, 2, 2, 2]);
    assert_eq!(p.houses(Side::North), &[2, 2, 2, 2, 2, 0]);
    assert_eq!(p.store(Side::South), 12 + 1 + 2);
}

#[test]
fn kalah_long_sowing_lands_in_a_refilled_house_without_capture() {
    // 23 seeds from house 6 of a 6-house board: laps once (13) then 10 more: store,
    // north 1..6, south 1..3. House 1..3 are non-empty by then: no capture.
    let rules = Rules::kalah(6, 4);
    let p = setup(
        rules,
        &[0, 0, 0, 0, 1, 23],
        &[0, 0, 0, 0, 0, 0],
        12,
        Side::South,
    );
    let p = p.play(mv(6)).unwrap();
    assert_eq!(p.houses(Side::South), &[2, 2, 2, 1, 2, 1]);
    assert_eq!(p.houses(Side::North), &[2, 2, 2, 2, 2, 2]);
    assert_eq!(p.store(Side::South), 14);
}

#[test]
fn kalah_game_ends_when_mover_has_no_seeds() {
    let rules = Rules::kalah(3, 1);
    // South sows its last seed into the store: South to move again with nothing -> over.
    let p = setup(rules, &[0, 0, 1], &[1, 1, 1], 0, Side::South)
        .play(mv(3))
        .unwrap();
    assert!(p.is_over());
    // Player 2 keeps the seeds in its houses: 2 in its store + 3.
    assert_eq!(p.outcome().unwrap().scores, [1, 5]);
    assert_eq!(p.outcome().unwrap().winner, Some(Side::North));
}

#[test]
fn kalah_empty_side_does_not_end_the_game_when_the_other_player_moves() {
    let rules = Rules::kalah(3, 1);
    // South's only seeds (2 in house 3) go to its store and north's house 1: south is
    // empty, but it is north's turn and north has seeds.
    let p = setup(rules, &[0, 0, 2], &[0, 1, 1], 1, Side::South)
        .play(mv(3))
        .unwrap();
    assert_eq!(p.row_sum(Side::South), 0);
    assert!(!p.is_over(), "north still moves\n{p}");
    assert_eq!(p.to_move(), Side::North);

    let either = rules.with_options(RuleOptions {
        end_rule: EndRule::EitherSideEmpty,
        ..RuleOptions::default()
    });
    let p = setup(either, &[0, 0, 2], &[0, 1, 1], 1, Side::South)
        .play(mv(3))
        .unwrap();
    assert!(p.is_over());
    // Seeds left in houses count for their owner.
    assert_eq!(p.outcome().unwrap().scores, [2, 4]);
}

// ---------------------------------------------------------------- Oware

fn oware(h: u8, s: u8) -> Rules {
    Rules::oware(h, s)
}

#[test]
fn oware_captures_two_or_three_and_runs_backwards() {
    // South house 6 has 3 seeds: north 1, 2, 3 get one each -> 2, 3, 2; all captured? No:
    // the capture starts from the last house (north 3) and runs backwards while 2 or 3.
    let p = setup(
        oware(6, 4),
        &[4, 4, 4, 4, 4, 3],
        &[1, 2, 1, 4, 4, 5],
        0,
        Side::South,
    );
    let p = p.play(mv(6)).unwrap();
    assert_eq!(p.houses(Side::North), &[0, 0, 0, 4, 4, 5]);
    assert_eq!(p.store(Side::South), 2 + 3 + 2);
}

#[test]
fn oware_capture_stops_at_a_house_not_holding_two_or_three() {
    let p = setup(
        oware(6, 4),
        &[4, 4, 4, 4, 4, 3],
        &[1, 5, 1, 4, 4, 3],
        0,
        Side::South,
    );
    let p = p.play(mv(6)).unwrap();
    assert_eq!(p.houses(Side::North), &[2, 6, 0, 4, 4, 3]);
    assert_eq!(p.store(Side::South), 2);
}

#[test]
fn oware_no_capture_on_own_row() {
    let p = setup(
        oware(6, 4),
        &[4, 4, 4, 1, 1, 5],
        &[4, 4, 4, 4, 4, 4],
        0,
        Side::South,
    );
    let p = p.play(mv(4)).unwrap();
    assert_eq!(p.houses(Side::South), &[4, 4, 4, 0, 2, 5]);
    assert_eq!(p.store(Side::South), 0);
}

#[test]
fn oware_grand_slam_captures_nothing() {
    // Every seed on north's row would be captured: legal, but nothing is taken.
    let p = setup(oware(3, 4), &[4, 4, 2], &[1, 1, 0], 0, Side::South);
    let p = p.play(mv(3)).unwrap();
    assert_eq!(p.houses(Side::North), &[2, 2, 0]);
    assert_eq!(p.stores(), [0, 12]);
}

#[test]
fn oware_long_sowing_skips_the_origin() {
    // 12 seeds on a 6-house board (2H): 11 other houses get one, the 12th goes to the
    // house after the origin.
    let p = setup(
        oware(6, 4),
        &[12, 0, 0, 0, 0, 0],
        &[6, 6, 6, 6, 6, 6],
        0,
        Side::South,
    );
    let p = p.play(mv(1)).unwrap();
    assert_eq!(p.houses(Side::South), &[0, 2, 1, 1, 1, 1]);
    assert_eq!(p.houses(Side::North), &[7, 7, 7, 7, 7, 7]);
}

#[test]
fn oware_must_feed_an_empty_opponent() {
    let p = setup(oware(3, 4), &[5, 1, 0], &[0, 0, 0], 10, Side::South);
    let moves: Vec<u8> = p.legal_moves().iter().map(|m| m.house()).collect();
    assert_eq!(moves, vec![1]);
    assert_eq!(p.play(mv(2)), Err(IllegalMove::MustFeed { house: 2 }));
}

#[test]
fn oware_game_ends_when_an_empty_opponent_cannot_be_fed() {
    let p = setup(oware(3, 4), &[1, 1, 0], &[0, 0, 0], 11, Side::South);
    assert!(p.is_over());
    // Each player takes the seeds on their own row.
    assert_eq!(p.outcome().unwrap().scores, [13, 11]);
}

#[test]
fn oware_game_ends_with_a_majority() {
    // South captures 2 to reach 13 of 24: over, seeds left on the board belong to nobody.
    let p = setup(oware(3, 4), &[1, 1, 1], &[1, 1, 2], 11, Side::South);
    let p = p.play(mv(3)).unwrap();
    assert_eq!(p.stores(), [13, 6]);
    assert!(p.is_over());
    assert_eq!(p.outcome().unwrap().scores, [13, 6]);
}

#[test]
fn oware_game_ends_drawn_at_half_each() {
    let p = setup(oware(1, 1), &[0], &[0], 1, Side::South);
    assert!(p.is_over());
    assert_eq!(p.outcome().unwrap().winner, None);
}

#[test]
fn oware_repetition_ends_the_game_and_each_takes_their_row() {
    // Two seeds chase each other round a 2-house board: south 1 -> south 2 -> north 1 ...
    // With one seed each and no capture possible (a house only reaches 2 on its own row),
    // the position repeats after four plies.
    let rules = oware(2, 4);
    let start = setup(rules, &[1, 0], &[1, 0], 7, Side::South);
    let mut game = Game::from_position(start);
    for h in [1, 1, 2, 2] {
        assert!(!game.is_over());
        game.play(mv(h)).unwrap();
    }
    assert_eq!(game.position(), &start);
    assert!(game.ended_by_repetition());
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.play(mv(1)), Err(IllegalMove::GameOver));
    assert_eq!(game.outcome().unwrap().scores, [8, 8]);
    assert_eq!(game.to_move(), None);
}

// ---------------------------------------------------------------- simplified Oware

/// One step of the Bern course's `BoardTest` tables (see `docs/rules.md`, Sources).
struct Step {
    play: Option<(usize, u8)>,
    row1: &'static [u16],
    row2: &'static [u16],
    scores: [u16; 2],
    has_moves: [bool; 2],
    over: bool,
}

/// Plays the table as the Java test does: `play(row, pit)` for whichever row the test
/// names, checking every asserted value after each step.
fn run_board_test(size: u8, seeds: u8, steps: &[Step]) {
    let rules = Rules::oware_simplified(size, seeds);
    let mut p = Position::new(rules);
    assert_eq!(rules.houses(), size as usize);
    assert_eq!(rules.seeds(), u16::from(seeds));
    for (i, step) in steps.iter().enumerate() {
        if let Some((row, pit)) = step.play {
            assert_eq!(
                p.to_move().index() + 1,
                row,
                "step {i}: the test plays the row to move"
            );
            p = p.play(mv(pit)).unwrap();
        }
        assert_eq!(p.houses(Side::South), step.row1, "step {i} row 1");
        assert_eq!(p.houses(Side::North), step.row2, "step {i} row 2");
        assert_eq!(p.stores(), step.scores, "step {i} scores");
        for side in Side::BOTH {
            // hasMoves(row): the row has a non-empty pit (it ignores game over).
            assert_eq!(
                p.row_sum(side) > 0,
                step.has_moves[side.index()],
                "step {i} hasMoves"
            );
        }
        assert_eq!(p.is_over(), step.over, "step {i} gameOver");
    }
}

#[test]
fn simplified_test_example_from_git() {
    let t = true;
    run_board_test(
        6,
        4,
        &[
            Step {
                play: None,
                row1: &[4, 4, 4, 4, 4, 4],
                row2: &[4, 4, 4, 4, 4, 4],
                scores: [0, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((1, 5)),
                row1: &[4, 4, 4, 4, 0, 5],
                row2: &[5, 5, 5, 4, 4, 4],
                scores: [0, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((2, 6)),
                row1: &[5, 5, 5, 5, 0, 5],
                row2: &[5, 5, 5, 4, 4, 0],
                scores: [0, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((1, 4)),
                row1: &[5, 5, 5, 0, 1, 6],
                row2: &[6, 6, 6, 4, 4, 0],
                scores: [0, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((2, 4)),
                row1: &[6, 6, 5, 0, 1, 6],
                row2: &[6, 6, 6, 0, 5, 1],
                scores: [0, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((1, 6)),
                row1: &[6, 6, 5, 0, 1, 0],
                row2: &[7, 7, 7, 1, 6, 0],
                scores: [2, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((2, 5)),
                row1: &[7, 7, 6, 1, 0, 0],
                row2: &[7, 7, 7, 1, 0, 1],
                scores: [2, 2],
                has_moves: [t, t],
                over: false,
            },
        ],
    );
}

#[test]
fn simplified_test_example_from_git_get_moves() {
    let p = play_all(
        Position::new(Rules::oware_simplified(6, 4)),
        &[5, 6, 4, 4, 6],
    );
    // After step 5 player B is to move: r2 ⊇ {1,2,3,4,5}, r2 ∌ 6.
    let moves: Vec<u8> = p.legal_moves().iter().map(|m| m.house()).collect();
    assert_eq!(moves, vec![1, 2, 3, 4, 5]);
}

#[test]
fn simplified_test_one_one() {
    run_board_test(
        1,
        1,
        &[Step {
            play: None,
            row1: &[1],
            row2: &[1],
            scores: [0, 0],
            has_moves: [true, true],
            over: true,
        }],
    );
}

#[test]
fn simplified_test_one_two() {
    let t = true;
    run_board_test(
        1,
        2,
        &[
            Step {
                play: None,
                row1: &[2],
                row2: &[2],
                scores: [0, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((1, 1)),
                row1: &[1],
                row2: &[3],
                scores: [0, 0],
                has_moves: [t, t],
                over: false,
            },
            Step {
                play: Some((2, 1)),
                row1: &[1],
                row2: &[1],
                scores: [0, 2],
                has_moves: [t, t],
                over: true,
            },
        ],
    );
}

#[test]
fn simplified_player_with_empty_row_is_skipped() {
    let rules = Rules::oware_simplified(2, 2);
    let p = setup(rules, &[3, 1], &[0, 0], 0, Side::South);
    // House 2 (1 seed) goes to north 1: north has seeds, north to move.
    assert_eq!(p.play(mv(2)).unwrap().to_move(), Side::North);
    // South sows within its own row only: north still has nothing and is skipped.
    let p = setup(rules, &[1, 3], &[0, 0], 0, Side::South);
    let q = p.play(mv(1)).unwrap();
    assert_eq!(q.houses(Side::South), &[0, 4]);
    assert_eq!(
        q.to_move(),
        Side::South,
        "north has no seeds and is skipped"
    );
    assert_eq!(
        Position::from_parts(rules, [&[0, 4], &[0, 0]], [0, 4], Side::North),
        Err(SetupError::MoverSkipped(Side::North))
    );
}

// ---------------------------------------------------------------- rules and setup

#[test]
fn sizes_are_validated() {
    assert!(Rules::new(Variant::Kalah, 0, 4).is_err());
    assert!(Rules::new(Variant::Kalah, 17, 4).is_err());
    assert!(Rules::new(Variant::Oware, 6, 0).is_err());
    assert!(Rules::new(Variant::Oware, 16, 64).is_ok());
    assert!(Rules::new(Variant::Oware, 16, 65).is_err());
}

#[test]
fn setup_checks_row_lengths() {
    let r = Position::from_parts(
        Rules::kalah(3, 1),
        [&[1, 1], &[1, 1, 1]],
        [1, 0],
        Side::South,
    );
    assert!(matches!(
        r,
        Err(SetupError::RowLength {
            side: Side::South,
            found: 2,
            expected: 3
        })
    ));
}

#[test]
fn biggest_boards_hold_every_seed_in_one_house() {
    // 16 houses x 64 seeds = 2048 seeds; one house can hold them all without overflow.
    let rules = Rules::kalah(16, 64);
    let mut south = [0u16; 16];
    south[0] = 2048 - 1;
    let mut north = [0u16; 16];
    north[15] = 1;
    let p = setup(rules, &south, &north, 0, Side::South);
    let q = p.play(mv(1)).unwrap();
    assert_eq!(q.seeds_in_play() + q.stores().iter().sum::<u16>(), 2048);
}
