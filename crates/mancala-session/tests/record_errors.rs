//! What the record reader says about bad records: every kind of problem, with its
//! game, line and move number, and nothing loaded from a file with a bad game.
// `RecordError` is large since core's description errors are (see `parse_records`).
#![allow(clippy::result_large_err)]

use mancala_core::{IllegalMove, Rules, Side};
use mancala_session::{
    Ending, EndingProblem, MoveProblem, Record, RecordError, RecordErrorKind, RecordResult,
    SyntaxError, TagProblem, parse_records,
};

fn kalah(text: &str) -> Result<Vec<Record>, RecordError> {
    parse_records(text, Rules::kalah(6, 4))
}

fn error(text: &str) -> RecordError {
    kalah(text).unwrap_err()
}

#[test]
fn an_illegal_move_is_reported_with_its_game_line_and_number() {
    let text = "[Variant \"kalah\"]\n1. 3+ 6 1 *\n\n[Variant \"kalah\"]\n\n1. 3+ 6 1\n2. 3 *\n";
    let e = error(text);
    assert_eq!((e.game, e.line), (2, 7));
    assert_eq!(
        e.kind,
        RecordErrorKind::Move {
            number: 2,
            side: Side::South,
            ply: 4,
            text: "3".into(),
            problem: MoveProblem::Illegal(IllegalMove::EmptyHouse { house: 3 }),
        }
    );
    assert_eq!(
        e.to_string(),
        "game 2, line 7: move 2 (player 1, ply 4), \"3\": house 3 is empty"
    );
}

#[test]
fn a_house_off_the_board_and_moves_after_the_end() {
    let e = error("3 7");
    assert_eq!(
        e.to_string(),
        "game 1, line 1: move 1 (player 1, ply 2), \"7\": there is no house 7 (houses are 1 to 6)"
    );
    // Simplified Oware on one house of one seed is over from the start.
    let e = parse_records("1", Rules::oware_simplified(1, 1)).unwrap_err();
    assert!(matches!(
        e.kind,
        RecordErrorKind::Move {
            problem: MoveProblem::Illegal(IllegalMove::GameOver),
            ..
        }
    ));
}

#[test]
fn marks_are_checked_when_given() {
    let e = error("3 6+");
    assert_eq!(
        e.to_string(),
        "game 1, line 1: move 1 (player 1, ply 2), \"6+\": marked '+', but the other player \
         moves next"
    );
    let e = error("3x");
    assert!(matches!(
        e.kind,
        RecordErrorKind::Move {
            problem: MoveProblem::WrongMark { mark: 'x', .. },
            ..
        }
    ));
    let e = error("3++");
    assert!(matches!(
        e.kind,
        RecordErrorKind::Move {
            problem: MoveProblem::RepeatedMark('+'),
            ..
        }
    ));
    // Left out, they are not needed: 3 ends in the store, 6 6 1 captures.
    assert_eq!(kalah("3 6 6 1").unwrap()[0].moves().len(), 4);
}

#[test]
fn two_digit_oware_moves_check_the_end_house_and_the_captures() {
    let oware = "[Variant \"oware\"]\n";
    let e = error(&format!("{oware}1. 64 63 *"));
    assert_eq!(
        e.to_string(),
        "game 1, line 2: move 1 (player 2, ply 2), \"63\": the last seed lands in house 4, \
         not house 3"
    );
    // Oware(3,2): 2 2 3 3 3 2 2 3 3 (see EndText): the first move's last seed makes
    // player 2's house 1 three seeds, which player 1 takes.
    let small = "[Variant \"oware\"]\n[Houses \"3\"]\n[Seeds \"2\"]\n";
    let ok = format!("{small}1. 21 (3) 21 (3) 2. 33 31 3. 31 (6) 23 4. 23 31 (5) 5. 31 1/2-1/2");
    assert_eq!(kalah(&ok).unwrap()[0].moves().len(), 9);
    let e = error(&format!("{small}1. 21 (4) *"));
    assert_eq!(
        e.kind,
        RecordErrorKind::Move {
            number: 1,
            side: Side::South,
            ply: 1,
            text: "21".into(),
            problem: MoveProblem::WrongCaptures {
                written: "4".into(),
                actual: 3
            },
        }
    );
    let e = error("(3) 1");
    assert_eq!(
        e.kind,
        RecordErrorKind::Syntax {
            column: 1,
            error: SyntaxError::CapturesWithoutMove
        }
    );
}

#[test]
fn results_must_fit_the_moves() {
    // Kalah(2,1): 2 1 2 ends 3 to 1 for player 1 (see the replay test).
    let tags = "[Houses \"2\"]\n[Seeds \"1\"]\n";
    let r = &kalah(&format!("{tags}2 1 2 1-0")).unwrap()[0];
    assert!(matches!(r.ending(), Ending::Rules(_)));
    assert_eq!(r.result(), RecordResult::Win(Side::South));
    // `*` is a result not known, and the moves tell it.
    assert_eq!(
        kalah(&format!("{tags}2 1 2 *")).unwrap()[0].result(),
        RecordResult::Win(Side::South)
    );
    let e = error(&format!("{tags}2 1 2 0-1"));
    assert_eq!(
        e.to_string(),
        "game 1, line 3: the moves end the game 1-0 (player 1 wins 3 to 1), the record says 0-1"
    );
    let e = error(&format!("{tags}[Result \"1-0\"]\n2 1 2 1/2-1/2"));
    assert_eq!(
        e.kind,
        RecordErrorKind::Ending(EndingProblem::TagAndToken {
            tag: RecordResult::Win(Side::South),
            token: RecordResult::Draw
        })
    );
    let e = error(&format!("{tags}[Termination \"majority\"]\n2 1 2 1-0"));
    assert!(matches!(
        e.kind,
        RecordErrorKind::Ending(EndingProblem::TerminationDisagrees { .. })
    ));
    let e = error(&format!("{tags}[Score \"3-2\"]\n2 1 2 1-0"));
    assert_eq!(
        e.to_string(),
        "game 1, line 3: the final score is 3-1, the record says 3-2"
    );
    let e = error(&format!("{tags}[Termination \"resignation\"]\n2 1 2 1-0"));
    assert_eq!(
        e.to_string(),
        "game 1, line 3: the moves end the game by the rules (no-seeds), not by resignation"
    );
}

#[test]
fn a_game_the_moves_do_not_end_needs_a_reason_for_its_result() {
    let e = error("3 6 1-0");
    assert_eq!(
        e.to_string(),
        "game 1, line 1: the moves do not end the game, so result 1-0 needs a Termination \
         tag (resignation, time-forfeit or agreement)"
    );
    let resigned = kalah("[Termination \"resignation\"]\n3 6 1-0").unwrap();
    assert_eq!(resigned[0].ending(), Ending::Resigned(Side::North));
    let flagged = kalah("[Termination \"time-forfeit\"]\n3 6 0-1").unwrap();
    assert_eq!(flagged[0].ending(), Ending::TimeForfeit(Side::South));
    let agreed = kalah("[Termination \"agreement\"]\n3 6 1/2-1/2").unwrap();
    assert_eq!(agreed[0].ending(), Ending::DrawAgreed);
    let e = error("[Termination \"resignation\"]\n3 6 1/2-1/2");
    assert_eq!(
        e.kind,
        RecordErrorKind::Ending(EndingProblem::ResultDoesNotFit {
            termination: "resignation",
            result: RecordResult::Draw
        })
    );
    let e = error("[Termination \"cannot-feed\"]\n3 6 *");
    assert_eq!(
        e.kind,
        RecordErrorKind::Ending(EndingProblem::NotEndedByRules("cannot-feed".into()))
    );
    let e = error("[Score \"1-2\"]\n3 6 *");
    assert_eq!(
        e.kind,
        RecordErrorKind::Ending(EndingProblem::ScoreWithoutEnd)
    );
}

#[test]
fn tags_are_checked() {
    let e = error("[Houses \"6\"]\n[Houses \"6\"]\n*");
    assert_eq!(e.to_string(), "game 1, line 2: tag Houses: appears twice");
    let e = error("[Variant \"oware\"]\n[EmptyCapture \"yes\"]\n*");
    assert_eq!(
        e.to_string(),
        "game 1, line 2: tag EmptyCapture: oware takes no rule options; empty-capture is a \
         Kalah option"
    );
    let e = error("[Houses \"300\"]\n*");
    assert_eq!(
        e.to_string(),
        "game 1, line 1: tag Houses: houses per side must be between 1 and 16, not 300"
    );
    let e = error("[Houses \"4\"]\n[Position \"kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1\"]\n*");
    assert_eq!(
        e.to_string(),
        "game 1, line 1: tag Houses: the Position tag says 6"
    );
    let e = error("[Position \"kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/1 1\"]\n*");
    assert!(matches!(
        e.kind,
        RecordErrorKind::Tag {
            problem: TagProblem::Position(_),
            ..
        }
    ));
    let e = error("[Player2Kind \"no such spec!\"]\n*");
    assert!(matches!(
        e.kind,
        RecordErrorKind::Tag {
            problem: TagProblem::Player(_),
            ..
        }
    ));
    let e = error("[Termination \"boredom\"]\n*");
    assert!(
        e.to_string().contains("unknown termination \"boredom\""),
        "{e}"
    );
}

#[test]
fn nothing_is_loaded_from_a_file_with_one_bad_game() {
    let text = "3 6 1 *\n3 6 1 *\n3 3 *\n3 6 1 *\n";
    let e = error(text);
    assert_eq!(e.game, 3);
}

#[test]
fn syntax_errors_say_the_line_and_column() {
    let e = error("[Variant \"kalah\"]\n\n1. 3+ 6 1 q *");
    assert_eq!(e.to_string(), "game 1, line 3: column 11: unexpected 'q'");
    let e = error("1. 3 {never closed");
    assert_eq!(
        e.to_string(),
        "game 1, line 1: column 6: a comment opened here is never closed"
    );
    let e = error("[Variant kalah]");
    assert!(matches!(
        e.kind,
        RecordErrorKind::Syntax {
            error: SyntaxError::BadTag,
            ..
        }
    ));
}

#[test]
fn lax_forms_are_read() {
    // Commas, glued numbers, comments anywhere, an empty file.
    let games = kalah("1.3,6 {one} {two} 1, 2.\n1 *").unwrap();
    assert_eq!(games[0].moves().len(), 4);
    assert_eq!(games[0].comment(2), Some("one two"));
    assert!(kalah("").unwrap().is_empty());
    assert!(kalah("  \n\n ").unwrap().is_empty());
    // A record of tags alone is a game of no moves.
    let games = kalah("[Variant \"oware\"]").unwrap();
    assert_eq!((games.len(), games[0].moves().len()), (1, 0));
    // A comment before the tags belongs to the game after it.
    let games = kalah("{From the club.}\n[Variant \"oware\"]\n1. 6 *").unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].comment(0), Some("From the club."));
}

#[test]
fn one_game_is_expected_where_one_is_read() {
    let e = "3 * 6 *".parse::<Record>().unwrap_err();
    assert_eq!(e.kind, RecordErrorKind::GameCount(2));
    assert!("3 *".parse::<Record>().is_ok());
}

#[test]
fn bare_lists_take_the_defaults_and_tags_override_them() {
    let games = parse_records("1 1 *", Rules::oware_simplified(1, 4)).unwrap();
    assert_eq!(games[0].rules(), Rules::oware_simplified(1, 4));
    let games = parse_records("[Variant \"kalah\"]\n3 *", Rules::oware(5, 3)).unwrap();
    // Kalah with the default's board but not Oware's options (it has none).
    assert_eq!(games[0].rules(), Rules::kalah(5, 3));
}
