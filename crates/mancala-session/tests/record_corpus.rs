//! The hand-written records in `tests/records/`: every file is read, every game ends
//! as the table below says (result and reason), the games from the start of their
//! rules end the same way under the independent referee, and every game survives
//! the strict format unchanged.

use std::path::PathBuf;

use mancala_core::{EndRule, Position, Side, Variant};
use mancala_referee::{Ending as RefEnding, Kind, Referee};
use mancala_session::{Ending, Record, RecordFormat, parse_records, write_records};

/// Each file with the result and `Termination` of each of its games.
const CORPUS: &[(&str, &[(&str, &str)])] = &[
    ("kalah-auckland-full-game-1.txt", &[("1-0", "no-seeds")]),
    ("kalah-auckland-full-game-2.txt", &[("0-1", "no-seeds")]),
    ("kalah-auckland-full-game-empty.txt", &[("0-1", "no-seeds")]),
    (
        "kalah-auckland-full-game-empty-houses.txt",
        &[("1-0", "no-seeds")],
    ),
    ("kalah-auckland-full-game-store.txt", &[("0-1", "no-seeds")]),
    (
        "kalah-auckland-full-game-tie.txt",
        &[("1/2-1/2", "no-seeds")],
    ),
    ("kalah-either-side-empty.txt", &[("0-1", "side-empty")]),
    ("kalah-empty-capture.txt", &[("1-0", "no-seeds")]),
    ("kalah-draw-agreed.txt", &[("1/2-1/2", "agreement")]),
    ("kalah-resignation.txt", &[("1-0", "resignation")]),
    ("kalah-time-forfeit.txt", &[("0-1", "time-forfeit")]),
    ("kalah-unfinished.txt", &[("*", "unterminated")]),
    ("kalah-study-from-a-position.txt", &[("1-0", "no-seeds")]),
    ("kalah-ten-houses.txt", &[("1-0", "no-seeds")]),
    (
        "kalah-match-three-games.txt",
        &[
            ("1-0", "no-seeds"),
            ("0-1", "no-seeds"),
            ("1-0", "no-seeds"),
        ],
    ),
    ("oware-majority-two-digit.txt", &[("1-0", "majority")]),
    ("oware-cannot-feed-two-digit.txt", &[("1-0", "cannot-feed")]),
    ("oware-repetition-two-digit.txt", &[("1-0", "repetition")]),
    ("oware-resignation.txt", &[("0-1", "resignation")]),
    (
        "oware-small-boards.txt",
        &[
            ("1/2-1/2", "cannot-feed"),
            ("0-1", "repetition"),
            ("1-0", "majority"),
            ("1/2-1/2", "cannot-feed"),
        ],
    ),
    ("oware-half-each-study.txt", &[("1/2-1/2", "half-each")]),
    (
        "simplified-few-seeds-left.txt",
        &[("0-1", "few-seeds-left")],
    ),
    (
        "simplified-repetition.txt",
        &[("1/2-1/2", "repetition"), ("0-1", "repetition")],
    ),
    ("simplified-from-a-position.txt", &[("*", "unterminated")]),
    ("togyz-majority-two-digit.txt", &[("1-0", "majority")]),
    ("togyz-study-from-a-position.txt", &[("1-0", "majority")]),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/records")
}

fn read(name: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
    parse_records(&text, mancala_core::Rules::kalah(6, 4)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_table_lists_every_file_of_the_corpus() {
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let mut listed: Vec<String> = CORPUS.iter().map(|(f, _)| (*f).to_owned()).collect();
    listed.sort();
    assert_eq!(files, listed);
    assert!(files.len() >= 20);
}

#[test]
fn every_game_ends_as_the_table_says() {
    for (name, expected) in CORPUS {
        let games = read(name);
        let found: Vec<(String, &str)> = games
            .iter()
            .map(|r| (r.result().to_string(), r.ending().termination()))
            .collect();
        let expected: Vec<(String, &str)> =
            expected.iter().map(|&(r, t)| (r.to_owned(), t)).collect();
        assert_eq!(found, expected, "{name}");
    }
}

/// The referee's game for `record`'s rules.
fn referee_kind(record: &Record) -> Kind {
    let rules = record.rules();
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

fn referee_reason(ending: RefEnding) -> &'static str {
    match ending {
        RefEnding::NoSeedsToMove(_) => "no-seeds",
        RefEnding::SideEmpty(_) => "side-empty",
        RefEnding::MoreThanHalf(_) => "majority",
        RefEnding::HalfEach => "half-each",
        RefEnding::CannotFeed(_) => "cannot-feed",
        RefEnding::Repetition => "repetition",
        RefEnding::TwoOrFewerLeft => "few-seeds-left",
    }
}

/// Games from the start of their rules, replayed by the referee (which shares no code
/// with the rules core): the same end, reason and scores, or no end for games the
/// players ended.
#[test]
fn the_referee_ends_each_game_the_same_way() {
    let mut refereed = 0;
    for (name, _) in CORPUS {
        for (i, record) in read(name).iter().enumerate() {
            let rules = record.rules();
            if *record.start() != Position::new(rules) {
                continue;
            }
            let mut referee = Referee::new(
                referee_kind(record),
                rules.houses(),
                u32::from(rules.seeds()),
            );
            for mv in record.moves() {
                referee.play(usize::from(mv.house()));
            }
            let finish = referee.finish();
            match record.ending() {
                Ending::Rules(end) => {
                    let finish = finish.unwrap_or_else(|| panic!("{name} game {}", i + 1));
                    assert_eq!(referee_reason(finish.ending), end.reason.name(), "{name}");
                    let scores = end.outcome.scores.map(u32::from);
                    assert_eq!(finish.scores, scores, "{name} game {}", i + 1);
                    let winner = end.outcome.winner.map(Side::index);
                    assert_eq!(finish.winner(), winner, "{name}");
                }
                _ => assert_eq!(finish, None, "{name} game {}", i + 1),
            }
            refereed += 1;
        }
    }
    assert!(refereed >= 25, "{refereed} games refereed");
}

/// Written strictly and read back, every game is the same record, and the strict text
/// of a strict file is the file itself.
#[test]
fn every_game_survives_the_strict_format() {
    for (name, _) in CORPUS {
        let games = read(name);
        let text = write_records(&games, RecordFormat::Strict).unwrap();
        let back = parse_records(&text, mancala_core::Rules::oware(2, 2)).unwrap();
        assert_eq!(back, games, "{name}");
    }
    let strict = std::fs::read_to_string(dir().join("kalah-match-three-games.txt")).unwrap();
    let games = read("kalah-match-three-games.txt");
    assert_eq!(write_records(&games, RecordFormat::Strict).unwrap(), strict);
}

/// The two-digit files are the notation this crate writes, line breaks aside.
#[test]
fn the_two_digit_files_are_written_back_move_for_move() {
    for name in [
        "oware-cannot-feed-two-digit.txt",
        "oware-repetition-two-digit.txt",
        "togyz-majority-two-digit.txt",
    ] {
        let file = std::fs::read_to_string(dir().join(name)).unwrap();
        let games = read(name);
        let written = games[0].write(RecordFormat::Oware2).unwrap();
        let moves = |text: &str| -> Vec<String> {
            let movetext = text.split("\n\n").nth(1).unwrap();
            let without_comments: String = movetext
                .split('{')
                .map(|part| part.rsplit('}').next().unwrap())
                .collect();
            without_comments
                .split_whitespace()
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(moves(&written), moves(&file), "{name}");
    }
}

/// Read under the other Kalah capture rule, the empty-capture game goes wrong where
/// the rule first matters: a record is read under its own rules only.
#[test]
fn the_rule_options_of_a_record_matter() {
    let text = std::fs::read_to_string(dir().join("kalah-empty-capture.txt")).unwrap();
    let other = text.replace("[EmptyCapture \"yes\"]", "[EmptyCapture \"no\"]");
    let e = parse_records(&other, mancala_core::Rules::kalah(6, 4)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "game 1, line 15: move 6 (player 1, ply 19), \"4x\": marked 'x', but the move \
         captures nothing"
    );
}

/// Togyz Kumalak games come back from every format that holds them with their
/// tuzdyks: the study's start has one on each row (the notation's `x`), and the
/// full game claims both.
#[test]
fn togyz_kumalak_records_round_trip_with_their_tuzdyks() {
    use mancala_core::Move;
    let study = &read("togyz-study-from-a-position.txt")[0];
    assert_eq!(study.start().claims(), [Move::new(2), Move::new(3)]);
    let game = &read("togyz-majority-two-digit.txt")[0];
    assert_eq!(game.start().claims(), [None, None]);
    assert_eq!(
        game.game().position().claims(),
        [Move::new(2), Move::new(3)]
    );
    for record in [study, game] {
        for format in [RecordFormat::Strict, RecordFormat::Oware2] {
            let text = record.write(format).unwrap();
            let back = parse_records(&text, mancala_core::Rules::kalah(6, 4)).unwrap();
            assert_eq!(&back[0], record, "{text}");
        }
        // Through a session, as the terminal game saves and loads it.
        let session = record.to_session();
        let saved = Record::from_session(&session).to_string();
        let loaded: Record = saved.parse().unwrap();
        assert_eq!(loaded.to_session().game(), session.game());
        assert_eq!(
            loaded.to_session().position().claims(),
            record.game().position().claims()
        );
    }
}
