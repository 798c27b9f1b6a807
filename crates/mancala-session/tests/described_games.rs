//! Games played by the description engine, not by a hand-written kernel, through a
//! session: whole games between computer players, every move put in words, the end
//! told, and the record written in every format it fits and read back to the same game.

use mancala_core::{Rules, Side, Variant};
use mancala_session::{RecordFormat, Seat, Session, parse_records};

/// Catalogue games the description engine plays: relay sowing, a game with stores and
/// rounds of sowing laps, one with stores of its own rules, and one sown clockwise.
const DESCRIBED: [&str; 4] = ["ayoayo", "pallanguzhi", "bohnenspiel", "woli"];

fn described(key: &str) -> Rules {
    let variant: Variant = key.parse().expect("a catalogue key");
    assert!(
        matches!(variant, Variant::Described(_)),
        "{key} is played by the description engine"
    );
    let info = variant.info();
    Rules::new(variant, info.default_houses, info.default_seeds).expect("its default board")
}

/// Plays `rules` to the end with the computer seats of `session`, each move chosen by
/// the seat's player; the records of the moves.
fn play_out(mut session: Session, seed: u64) -> Session {
    let rules = session.rules();
    let mut players = Side::BOTH.map(|side| {
        let Seat::Computer(spec) = session.seat(side).clone() else {
            panic!("both seats are computers")
        };
        spec.build(rules, seed + side.index() as u64)
            .expect("the player plays described games")
    });
    let mut plies = 0;
    while let Some((side, _)) = session.computer_to_move() {
        let mv = players[side.index()].choose(session.game()).mv;
        let names = session.names().clone();
        let record = session.play(mv).expect("a computer player's move is legal");
        // Every move is put in words without a panic, whatever it did.
        let _ = record.describe([&names[0], &names[1]]);
        plies += 1;
        assert!(
            plies < 5_000,
            "{}: the game ends",
            rules.variant().info().key
        );
    }
    session
}

#[test]
fn computer_players_play_whole_described_games_through_a_session() {
    for key in DESCRIBED {
        for (seed, specs) in [(1, ["random", "greedy"]), (2, ["easy", "medium"])] {
            let rules = described(key);
            let seats = specs.map(|s| Seat::computer(s).unwrap());
            let session = Session::new(rules)
                .with_seats(seats)
                .with_names(["Ann", "Bob"]);
            let s = play_out(session, seed);
            assert!(s.is_over(), "{key} with {specs:?}");
            let end = s.end_text().expect("the end is told").to_string();
            assert!(!end.is_empty(), "{key}: {end}");
            let total: u32 = Side::BOTH
                .iter()
                .map(|&side| {
                    u32::from(s.position().store(side)) + u32::from(s.position().row_sum(side))
                })
                .sum();
            assert_eq!(
                total,
                u32::from(rules.total_seeds()),
                "{key}: seeds are kept"
            );
        }
    }
}

#[test]
fn records_of_described_games_read_back_to_the_same_game() {
    for key in DESCRIBED {
        let rules = described(key);
        let seats = ["random:seed=3", "random:seed=4"].map(|s| Seat::computer(s).unwrap());
        let s = play_out(Session::new(rules).with_seats(seats), 3);
        let record = mancala_session::Record::from_session(&s);
        for format in RecordFormat::ALL {
            let Ok(text) = record.write(format) else {
                continue; // A format that does not fit the game says so.
            };
            let back = parse_records(&text, rules)
                .unwrap_or_else(|e| panic!("{key} {format:?}: {e}\n{text}"));
            assert_eq!(back.len(), 1, "{key} {format:?}");
            assert_eq!(back[0].moves(), record.moves(), "{key} {format:?}");
            assert_eq!(back[0].game().position(), s.position(), "{key} {format:?}");
        }
    }
}
