//! Worked examples of the description engine's mechanics beyond the four shipped
//! games: relay sowing (from the last house and from the next), its bound, clockwise
//! sowing, captures by the row's owner and of the next house, and start patterns.
//! Each position is worked out by hand in the comments.

use mancala_core::described::Described;
use mancala_core::description::Description;
use mancala_core::{Move, MoveReport, Position, Rules, Side, SowStep};

/// A description from the TOML of its rules (the parts every game has are added).
fn game(rules: &str) -> Description {
    let text = format!("format = 1\nkey = \"test\"\nname = \"Test\"\n{rules}");
    Description::from_toml(&text, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

/// Plays house `house` of South from the rows given; the position, report and steps.
fn play(
    d: &Description,
    rules: Rules,
    rows: [&[u16]; 2],
    house: u8,
) -> (Position, MoveReport, Vec<SowStep>) {
    let mut pos = Position::from_parts(rules, rows, [0, 0], Side::South).unwrap();
    let mut steps = Vec::new();
    let report = Described::new(d).play(&mut pos, Move::new(house).unwrap(), &mut steps);
    (pos, report, steps)
}

fn lifts(steps: &[SowStep]) -> usize {
    steps
        .iter()
        .filter(|s| matches!(s, SowStep::Lift { .. }))
        .count()
}

const AYOAYO_LIKE: &str = r#"
[board]
houses = 3
seeds = 2
[sowing]
relay = "last"
max_laps = 50
[[capture]]
kind = "across"
[end]
leftover = "own-row"
repetition = true
"#;

#[test]
fn a_relay_sowing_goes_on_from_an_occupied_house_and_stops_in_an_empty_one() {
    // South 1,1,0 / North 3,3,4. House 1: its seed makes house 2 hold 2, which are
    // taken up: house 3 gets 1, North's house 1 makes 4, taken up: North 2 and 3, then
    // South 1 and 2. South's house 2 was empty: the sowing stops, and captures across
    // (itself and North's house 2, 4 seeds).
    let d = game(AYOAYO_LIKE);
    let (pos, report, steps) = play(&d, Rules::oware(3, 2), [&[1, 1, 0], &[3, 3, 4]], 1);
    assert_eq!(lifts(&steps), 3);
    assert_eq!(pos.houses(Side::South), &[1, 0, 1]);
    assert_eq!(pos.houses(Side::North), &[0, 0, 5]);
    assert_eq!(pos.stores(), [5, 0]);
    assert_eq!(report.captured, 5);
    assert_eq!(pos.to_move(), Side::North);
}

#[test]
fn a_relay_sowing_stops_in_the_store_and_the_mover_plays_again() {
    // Kalah's board with relay sowing: house 1's seed makes house 2 hold 2, taken up:
    // one into house 3, the last into the store.
    let d = game(
        r#"
[board]
houses = 3
seeds = 1
stores = true
[sowing]
own_store = true
relay = "last"
[turn]
extra_turn = true
[end]
leftover = "own-row"
"#,
    );
    let (pos, report, steps) = play(&d, Rules::kalah(3, 1), [&[1, 1, 1], &[1, 1, 1]], 1);
    assert_eq!(lifts(&steps), 2);
    assert_eq!(pos.houses(Side::South), &[0, 0, 2]);
    assert_eq!(pos.stores(), [1, 0]);
    assert!(report.ended_in_store);
    assert_eq!(pos.to_move(), Side::South);
}

#[test]
fn a_relay_sowing_stops_where_its_last_seed_captures_by_count() {
    let relay = r#"
[board]
houses = 2
seeds = 1
[sowing]
relay = "last"
max_laps = 50
[end]
leftover = "own-row"
repetition = true
"#;
    // With a capture of 2s: house 2's seed makes North's 1 into 2, captured; the end.
    let d = game(&format!(
        "{relay}\n[[capture]]\nkind = \"count\"\ncounts = [2]\n"
    ));
    let (pos, report, steps) = play(&d, Rules::oware(2, 1), [&[0, 1], &[1, 2]], 2);
    assert_eq!((lifts(&steps), report.captured), (1, 2));
    assert_eq!(pos.houses(Side::North), &[0, 2]);
    // With captures of 3s the 2 is taken up and sown on: North's 2 makes 3 (not the
    // last seed: no capture), the last makes South's empty house 1: the end.
    let d = game(&format!(
        "{relay}\n[[capture]]\nkind = \"count\"\ncounts = [3]\n"
    ));
    let (pos, report, steps) = play(&d, Rules::oware(2, 1), [&[0, 1], &[1, 2]], 2);
    assert_eq!((lifts(&steps), report.captured), (2, 0));
    assert_eq!(pos.houses(Side::South), &[1, 0]);
    assert_eq!(pos.houses(Side::North), &[0, 3]);
}

#[test]
fn an_endless_relay_sowing_stops_after_max_laps() {
    // Both rows 2,3 without stores: South's house 1 starts a relay sowing that never
    // reaches an empty house. Laps: South 1 (ends in North 1, 3 seeds), North 1 (ends
    // in South 2, 5 seeds), South 2 (ends in North 1, 2 seeds): there the bound stops it.
    let text = |laps: u16| {
        format!(
            r#"
[board]
houses = 2
start = [2, 3]
min_houses = 2
max_houses = 2
[sowing]
relay = "last"
max_laps = {laps}
[[capture]]
kind = "count"
counts = [60]
[end]
leftover = "own-row"
repetition = true
"#
        )
    };
    let rules = Rules::oware(2, 1);
    let d = game(&text(3));
    let engine = Described::new(&d);
    let mut pos = engine.start_position(rules);
    let mut steps = Vec::new();
    engine.play(&mut pos, Move::new(1).unwrap(), &mut steps);
    assert_eq!(lifts(&steps), 3);
    assert_eq!(pos.houses(Side::South), &[2, 1]);
    assert_eq!(pos.houses(Side::North), &[2, 5]);
    let d = game(&text(1000));
    let engine = Described::new(&d);
    let mut pos = engine.start_position(rules);
    let mut steps = Vec::new();
    engine.play(&mut pos, Move::new(1).unwrap(), &mut steps);
    assert_eq!(lifts(&steps), 1000, "the sowing cycles until the bound");
}

#[test]
fn a_relay_sowing_that_can_go_round_for_ever_needs_a_bound() {
    let unbounded = AYOAYO_LIKE.replace("max_laps = 50\n", "");
    let text = format!("format = 1\nkey = \"test\"\nname = \"Test\"\n{unbounded}");
    let err = Description::from_toml(&text, "ayo.toml").unwrap_err();
    assert_eq!(err.field, "sowing.max_laps");
    assert!(
        err.to_string()
            .starts_with("ayo.toml: sowing.max_laps: a relay sowing")
    );
    // A bound without relay sowing is a mistake too.
    let single = AYOAYO_LIKE.replace("relay = \"last\"\n", "");
    let text = format!("format = 1\nkey = \"test\"\nname = \"Test\"\n{single}");
    let err = Description::from_toml(&text, "ayo.toml").unwrap_err();
    assert_eq!(err.field, "sowing.max_laps");
}

#[test]
fn clockwise_sowing_goes_left_along_the_own_row_then_into_the_store() {
    let d = game(
        r#"
[board]
houses = 3
seeds = 1
stores = true
[sowing]
own_store = true
direction = "clockwise"
[turn]
extra_turn = true
[[capture]]
kind = "across"
[end]
leftover = "own-row"
"#,
    );
    // House 1 is the mover's leftmost: clockwise its seed goes into the store.
    let (pos, report, _) = play(&d, Rules::kalah(3, 1), [&[1, 1, 1], &[1, 1, 1]], 1);
    assert!(report.ended_in_store);
    assert_eq!((pos.stores(), pos.to_move()), ([1, 0], Side::South));
    // House 3's two seeds go to houses 2 and 1; house 1 was empty: it captures
    // across, itself and North's house 3 facing it.
    let (pos, report, _) = play(&d, Rules::kalah(3, 1), [&[0, 0, 2], &[2, 1, 1]], 3);
    assert_eq!(pos.houses(Side::South), &[0, 1, 0]);
    assert_eq!(pos.houses(Side::North), &[2, 1, 0]);
    assert_eq!((pos.stores(), report.captured), ([2, 0], 2));
    // Past the store the sowing goes on along the opponent's row from its house 3,
    // the one on the mover's left.
    let (pos, report, _) = play(&d, Rules::kalah(3, 1), [&[0, 3, 0], &[0, 0, 3]], 2);
    assert_eq!(pos.houses(Side::South), &[1, 0, 0]);
    assert_eq!(pos.houses(Side::North), &[0, 0, 4]);
    assert_eq!((pos.stores(), report.captured), ([1, 0], 0));
}

#[test]
fn the_owner_of_a_row_captures_every_4_made_during_the_sowing() {
    // South plays 5 seeds from house 3: North's houses 1 and 2 reach 4 as they are
    // sown, and North takes each; North's 3 makes 2, South's 1 and 2 make 1.
    let d = game(
        r#"
[board]
houses = 3
seeds = 2
[[capture]]
kind = "count"
counts = [4]
row = "either"
timing = "each-seed"
by = "owner"
[end]
leftover = "own-row"
repetition = true
"#,
    );
    let (pos, report, _) = play(&d, Rules::oware(3, 2), [&[0, 0, 5], &[3, 3, 1]], 3);
    assert_eq!(pos.houses(Side::South), &[1, 1, 0]);
    assert_eq!(pos.houses(Side::North), &[0, 0, 2]);
    assert_eq!(pos.stores(), [0, 8]);
    assert_eq!(report.captured, 0, "the mover captured nothing");
}

#[test]
fn the_house_after_an_empty_one_is_captured_with_its_facing_house() {
    // House 1's two seeds end in house 3; North's house 1 after it is empty, so
    // North's house 2 (3 seeds) is captured, with South's house 2 facing it (1).
    let d = game(
        r#"
[board]
houses = 3
seeds = 2
[[capture]]
kind = "next"
row = "either"
facing = true
[end]
leftover = "own-row"
repetition = true
"#,
    );
    let (pos, report, _) = play(&d, Rules::oware(3, 2), [&[2, 0, 0], &[0, 3, 7]], 1);
    assert_eq!(pos.houses(Side::South), &[0, 0, 1]);
    assert_eq!(pos.houses(Side::North), &[0, 0, 7]);
    assert_eq!((pos.stores(), report.captured), ([4, 0], 4));
}

#[test]
fn relay_from_the_next_house_then_a_next_capture() {
    // Russ's "Indian" laps: house 1's seed ends in house 2; house 3 after it holds 3,
    // taken up and sown into North's 1, 2, 3; South's house 1 after that is empty, so
    // South's house 2 is captured with North's house 2 facing it.
    let d = game(
        r#"
[board]
houses = 3
seeds = 2
[sowing]
relay = "next"
max_laps = 20
[[capture]]
kind = "next"
row = "either"
facing = true
[end]
leftover = "own-row"
repetition = true
"#,
    );
    let (pos, report, steps) = play(&d, Rules::oware(3, 2), [&[1, 0, 3], &[0, 0, 8]], 1);
    assert_eq!(lifts(&steps), 2);
    assert_eq!(pos.houses(Side::South), &[0, 0, 0]);
    assert_eq!(pos.houses(Side::North), &[1, 0, 9]);
    assert_eq!((pos.stores(), report.captured), ([2, 0], 2));
}

#[test]
fn a_start_pattern_sets_each_house_and_is_checked() {
    let pattern = r#"
[board]
houses = 4
start = [4, 0, 4, 0]
min_houses = 4
max_houses = 4
[[capture]]
kind = "count"
counts = [2, 3]
[end]
majority = true
leftover = "own-row"
repetition = true
"#;
    let d = game(pattern);
    let pos = Described::new(&d).start_position(Rules::oware(4, 1));
    assert_eq!(pos.houses(Side::South), &[4, 0, 4, 0]);
    assert_eq!(pos.houses(Side::North), &[4, 0, 4, 0]);
    let refused = |text: &str| {
        let text = format!("format = 1\nkey = \"test\"\nname = \"Test\"\n{text}");
        Description::from_toml(&text, "p.toml").unwrap_err().field
    };
    assert_eq!(
        refused(&pattern.replace("4, 0, 4, 0", "4, 0, 4")),
        "board.start"
    );
    assert_eq!(
        refused(&pattern.replace("start =", "seeds = 4\nstart =")),
        "board.seeds"
    );
    assert_eq!(
        refused(&pattern.replace("max_houses = 4", "max_houses = 6")),
        "board.min_houses"
    );
}

#[test]
fn a_repetition_shares_the_board_out_as_leftover_says() {
    // Without the majority rule a game goes on after the captures decided it; if it
    // then ends by repetition, `own-row-unless-decided` gives the board to nobody.
    let d = game(
        r#"
[board]
houses = 2
seeds = 2
[[capture]]
kind = "count"
counts = [2]
[end]
leftover = "own-row-unless-decided"
repetition = true
"#,
    );
    let engine = Described::new(&d);
    let rules = Rules::oware(2, 2);
    let decided = Position::from_parts(rules, [&[1, 0], &[1, 0]], [6, 0], Side::South).unwrap();
    assert_eq!(engine.repetition_scores(&decided), Some([6, 0]));
    let open = Position::from_parts(rules, [&[2, 1], &[1, 1]], [3, 0], Side::South).unwrap();
    assert_eq!(engine.repetition_scores(&open), Some([6, 2]));
}

const CROSS_KALAH_LIKE: &str = r#"
[board]
houses = 3
seeds = 1
stores = true
[sowing]
own_store = true
direction = "by-count"
[turn]
extra_turn = true
[[capture]]
kind = "across"
[end]
leftover = "own-row"
repetition = true
"#;

#[test]
fn the_count_sets_the_direction_and_the_stores_stay_at_the_right() {
    let d = game(CROSS_KALAH_LIKE);
    // Five seeds (odd) go clockwise: up to North's house 3 (top left), along North's
    // row to its house 1, into South's store at the right, then South's house 3, empty
    // before: it captures across (itself and North's house 1).
    let (pos, report, _) = play(&d, Rules::kalah(3, 1), [&[5, 0, 0], &[0, 0, 1]], 1);
    assert_eq!(pos.houses(Side::South), &[0, 0, 0]);
    assert_eq!(pos.houses(Side::North), &[0, 1, 2]);
    assert_eq!((pos.stores(), report.captured), ([3, 0], 2));
    // Two seeds (even) go anticlockwise: house 3, then the store: South moves again.
    let (pos, report, _) = play(&d, Rules::kalah(3, 1), [&[0, 2, 0], &[2, 1, 1]], 2);
    assert_eq!(pos.houses(Side::South), &[0, 0, 1]);
    assert!(report.ended_in_store);
    assert_eq!((pos.stores(), pos.to_move()), ([1, 0], Side::South));
}

#[test]
fn a_direction_set_by_the_count_needs_one_lap_and_the_repetition_rule() {
    let refused = |text: &str| {
        let text = format!("format = 1\nkey = \"test\"\nname = \"Test\"\n{text}");
        Description::from_toml(&text, "x.toml").unwrap_err().field
    };
    // A clockwise sowing reaches the own store only after the opponent's row, so seeds
    // can go round for ever.
    let no_repetition = CROSS_KALAH_LIKE.replace("repetition = true\n", "");
    assert_eq!(refused(&no_repetition), "end.repetition");
    let relay = CROSS_KALAH_LIKE.replace("direction", "relay = \"last\"\ndirection");
    assert_eq!(refused(&relay), "sowing.relay");
}
