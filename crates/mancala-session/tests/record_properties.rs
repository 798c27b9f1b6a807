//! Property tests of game records: writing a record and reading it back is the
//! identity on random games of every variant, size and rule option (with random
//! start positions, players, tags, comments and endings), in every format that can
//! hold the game; and no text makes the reader panic.

use mancala_core::{EndRule, Game, Position, RuleOptions, Rules, Side, Variant};
use mancala_session::{
    Ending, Record, RecordFormat, RecordResult, Seat, parse_records, write_records,
};
use proptest::prelude::*;
use proptest::sample::Index;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(Variant::ALL.to_vec()),
        prop_oneof![1u8..=9, 10u8..=16],
        1u8..=6,
        any::<bool>(),
        prop::sample::select(EndRule::ALL.to_vec()),
    )
        .prop_map(|(v, h, s, empty_capture, end_rule)| {
            let rules = Rules::new(v, h, s).unwrap();
            if v == Variant::Kalah {
                rules.with_options(RuleOptions {
                    empty_capture,
                    end_rule,
                })
            } else {
                rules
            }
        })
}

/// Plays the chosen legal moves from `game` until the choices run out or it ends.
fn play_random(mut game: Game, choices: &[Index]) -> Game {
    for choice in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play(*choice.get(&legal)).unwrap();
    }
    game
}

/// Everything a record holds besides its game.
#[derive(Clone, Debug)]
struct Extras {
    names: [String; 2],
    seats: [usize; 2],
    date: Option<String>,
    time_control: Option<String>,
    tags: Vec<(String, String)>,
    comments: Vec<(Index, String)>,
    ending: u8,
    loser: bool,
}

const SEATS: [&str; 4] = [
    "human",
    "greedy",
    "random:seed=3",
    "alphabeta:depth=4,ms=50",
];

fn extras_strategy() -> impl Strategy<Value = Extras> {
    let name = prop_oneof!["[ -~]{0,12}", "\\PC{0,8}"];
    (
        [name.clone(), name],
        [0..SEATS.len(), 0..SEATS.len()],
        prop::option::of("[0-9?]{4}\\.[0-9?]{2}\\.[0-9?]{2}"),
        prop::option::of("[0-9+/:]{1,8}"),
        prop::collection::vec(("[A-Za-z][A-Za-z0-9_]{0,8}", "[ -~]{0,16}"), 0..3),
        prop::collection::vec((any::<Index>(), "[^}]{0,30}"), 0..4),
        0u8..4,
        any::<bool>(),
    )
        .prop_map(
            |(names, seats, date, time_control, tags, comments, ending, loser)| Extras {
                names,
                seats,
                date,
                time_control,
                tags,
                comments,
                ending,
                loser,
            },
        )
}

/// A record of `game` dressed with `extras`; a game the rules have not ended ends as
/// `extras` say (on, resigned, lost on time or agreed drawn).
fn record_of(game: Game, extras: &Extras) -> Record {
    let plies = game.ply();
    let mut record = Record::new(game)
        .with_names(extras.names.clone())
        .with_seats(extras.seats.map(|i| Seat::computer(SEATS[i]).unwrap()));
    if let Some(date) = &extras.date {
        record = record.with_date(date);
    }
    if let Some(tc) = &extras.time_control {
        record = record.with_time_control(tc);
    }
    for (name, value) in &extras.tags {
        record = record.clone().with_tag(name, value).unwrap_or(record);
    }
    for (at, text) in &extras.comments {
        record = record.with_comment(at.index(plies + 1), text).unwrap();
    }
    if record.ending() == Ending::Unfinished {
        let side = if extras.loser {
            Side::North
        } else {
            Side::South
        };
        let ending = match extras.ending {
            0 => Ending::Unfinished,
            1 => Ending::Resigned(side),
            2 => Ending::TimeForfeit(side),
            _ => Ending::DrawAgreed,
        };
        record = record.with_ending(ending).unwrap();
    }
    record
}

/// A random record: random rules, sometimes a random start position, random moves,
/// random extras.
fn record_strategy() -> impl Strategy<Value = Record> {
    (
        rules_strategy(),
        prop::option::weighted(0.3, prop::collection::vec(any::<Index>(), 0..40)),
        prop::collection::vec(any::<Index>(), 0..160),
        extras_strategy(),
    )
        .prop_map(|(rules, opening, moves, extras)| {
            let start = match opening {
                Some(opening) => *play_random(Game::new(rules), &opening).position(),
                None => Position::new(rules),
            };
            let game = play_random(Game::from_position(start), &moves);
            record_of(game, &extras)
        })
}

/// Whether the two-digit notation can hold the record: no stores on the sowing path,
/// a digit a house.
fn oware2_fits(r: &Record) -> bool {
    !r.rules().variant().info().stores && r.rules().houses() <= 9
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Strict text read back is the record, and writes the same bytes again; so does
    /// the two-digit notation where it fits. The defaults given to the reader do not
    /// matter: the strict format names its rules.
    #[test]
    fn export_then_import_is_the_identity(record in record_strategy()) {
        let text = record.to_string();
        let back = parse_records(&text, Rules::oware(3, 3)).unwrap();
        prop_assert_eq!(&back, &vec![record.clone()], "{}", text);
        prop_assert_eq!(back[0].to_string(), text);
        let session = back[0].to_session();
        prop_assert_eq!(session.game(), record.game());
        if oware2_fits(&record) {
            let text = record.write(RecordFormat::Oware2).unwrap();
            let back = parse_records(&text, Rules::kalah(6, 4)).unwrap();
            prop_assert_eq!(&back, &vec![record.clone()], "{}", text);
        } else {
            prop_assert!(record.write(RecordFormat::Oware2).is_err());
        }
    }

    /// Bare moves keep the game (read under its rules from its start) and its result
    /// when the rules decided it.
    #[test]
    fn bare_moves_keep_the_game(record in record_strategy()) {
        prop_assume!(*record.start() == Position::new(record.rules()));
        let text = record.write(RecordFormat::Moves).unwrap();
        let back = parse_records(&text, record.rules()).unwrap();
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(back[0].game(), record.game());
        match record.ending() {
            Ending::Rules(_) => prop_assert_eq!(back[0].ending(), record.ending()),
            _ => prop_assert_eq!(back[0].result(), RecordResult::Unknown),
        }
    }

    /// Several games in one file come back in order, in every format that holds them.
    #[test]
    fn several_games_round_trip(records in prop::collection::vec(record_strategy(), 1..4)) {
        let text = write_records(&records, RecordFormat::Strict).unwrap();
        prop_assert_eq!(parse_records(&text, Rules::kalah(6, 4)).unwrap(), records.clone());
        if records.iter().all(oware2_fits) {
            let text = write_records(&records, RecordFormat::Oware2).unwrap();
            prop_assert_eq!(parse_records(&text, Rules::kalah(6, 4)).unwrap(), records);
        }
    }

    /// Any text is read or refused, never a panic; errors point into the text.
    #[test]
    fn any_text_is_read_or_refused(text in "\\PC{0,300}") {
        if let Err(e) = parse_records(&text, Rules::kalah(6, 4)) {
            prop_assert!(e.game >= 1 && e.line >= 1 && e.line <= text.split('\n').count(), "{e}");
        }
    }

    /// Text made of the record alphabet, which gets much further into the reader.
    #[test]
    fn record_like_text_is_read_or_refused(text in "([\\[\\]{}()\"\\\\0-9 .+x*/,\\n-]|Variant|Houses|oware|kalah|Position|Result){0,120}") {
        for defaults in [Rules::kalah(6, 4), Rules::oware(3, 2), Rules::oware_simplified(2, 2)] {
            let _ = parse_records(&text, defaults);
        }
    }

    /// A real record with characters deleted or inserted is read or refused.
    #[test]
    fn damaged_records_are_read_or_refused(
        record in record_strategy(),
        edits in prop::collection::vec((any::<Index>(), prop::option::of(any::<char>())), 1..6),
    ) {
        let mut chars: Vec<char> = record.to_string().chars().collect();
        for (at, insert) in edits {
            let i = at.index(chars.len() + 1);
            match insert {
                Some(c) => chars.insert(i, c),
                None if i < chars.len() => _ = chars.remove(i),
                None => {}
            }
        }
        let text: String = chars.into_iter().collect();
        let _ = parse_records(&text, Rules::kalah(6, 4));
    }
}
