//! What the console says about computer players and unfinished games: a thinking
//! player says so before its move, move lines name the player as asked and fit 80
//! columns, long names are cut, the end of input is an ending of its own.

use mancala_console::{Console, Ending, NAME_MAX};
use mancala_core::{Rules, Side};
use mancala_session::{Seat, Session};

fn run(session: Session, input: &str) -> (Ending, String) {
    let mut out = Vec::new();
    let ending = Console::new(session, 1)
        .unwrap()
        .run(input.as_bytes(), &mut out)
        .unwrap();
    (ending, String::from_utf8(out).unwrap())
}

#[test]
fn a_thinking_player_says_so_and_its_lines_fit_80_columns_without_settings() {
    let session = Session::new(Rules::kalah(4, 3))
        .with_seat(Side::South, Seat::computer("hard").unwrap())
        .with_seat(Side::North, Seat::computer("perfect:ms=200").unwrap());
    let (_, out) = run(session, "");
    let thinking = out.find("Player P1 (hard) is thinking...\n").expect(&out);
    let chose = out.find("Player P1 (hard) chooses house #").expect(&out);
    assert!(thinking < chose, "{out}");
    assert!(out.contains("Player P2 (perfect) chooses house #"), "{out}");
    assert!(
        !out.contains("ms="),
        "no settings in the move lines:\n{out}"
    );
    for line in out.lines() {
        assert!(
            line.chars().count() <= 80,
            "{line:?} is wider than 80 columns"
        );
    }
}

#[test]
fn an_instant_player_says_nothing_before_its_move() {
    let session =
        Session::new(Rules::kalah(6, 4)).with_seat(Side::North, Seat::computer("robot").unwrap());
    let (_, out) = run(session, "1\nq\n");
    assert!(!out.contains("thinking"), "{out}");
    assert!(out.contains("Player P2 (Robot) chooses house #"), "{out}");
}

#[test]
fn a_long_name_is_cut_and_the_oware_board_stays_within_80_columns() {
    let long = "A".repeat(65);
    let session = Session::new(Rules::oware(6, 4)).with_names([long.clone(), "Bob".into()]);
    let (_, out) = run(session, "q\n");
    assert!(out.contains(&format!("{}:", "A".repeat(NAME_MAX))), "{out}");
    assert!(!out.contains(&"A".repeat(NAME_MAX + 1)), "{out}");
    // A prompt's line goes on with what is printed after the input (not echoed here).
    for line in out.lines().flat_map(|l| l.split("=> ")) {
        assert!(
            line.chars().count() <= 80,
            "{line:?} is wider than 80 columns"
        );
    }
}

#[test]
fn the_end_of_the_input_is_an_ending_of_its_own() {
    let (ending, out) = run(Session::new(Rules::kalah(6, 4)), "1\n");
    assert_eq!(ending, Ending::InputEnded);
    assert!(out.contains("Game over\n"), "{out}");
    let (ending, _) = run(Session::new(Rules::kalah(6, 4)), "q\n");
    assert_eq!(ending, Ending::Quit);
}
