//! Whatever arrives on standard input, the console never panics and never fails.

use mancala_console::{Console, Ending};
use mancala_core::{Rules, Side, Variant};
use mancala_session::{Seat, Session};
use proptest::prelude::*;

fn console(variant: Variant, houses: u8, seeds: u8, menu: bool, computer: Option<bool>) -> Console {
    let rules = Rules::new(variant, houses, seeds).unwrap();
    let session = Session::new(rules);
    let session = match computer {
        None => session,
        Some(true) => session.with_seat(Side::North, Seat::computer("greedy").unwrap()),
        Some(false) => session.with_seat(Side::South, Seat::computer("random:seed=3").unwrap()),
    };
    Console::new(session, 1)
        .unwrap()
        .menu(menu && variant == Variant::Kalah)
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u32..20).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec!["q", "n", "s", "l", "N", "S", "L", "", " 3 ", "-1", "1e3", "\u{fffd}", "99999999999999999999999"]).prop_map(String::from),
        1 => "[ -~]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_break_the_console(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        houses in 1u8..=8, seeds in 1u8..=6, menu in any::<bool>(),
        computer in prop::option::of(any::<bool>()),
        bytes in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        let mut out = Vec::new();
        let ending = console(variant, houses, seeds, menu, computer).run(&bytes[..], &mut out);
        prop_assert!(ending.is_ok());
    }

    #[test]
    fn random_commands_never_break_the_console(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        houses in 1u8..=8, seeds in 1u8..=6, menu in any::<bool>(),
        computer in prop::option::of(any::<bool>()),
        tokens in prop::collection::vec(token(), 0..300),
    ) {
        let input = tokens.join("\n");
        let mut out = Vec::new();
        let ending = console(variant, houses, seeds, menu, computer).run(input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // Every game ends with a finished game or a quit (q or end of input), and says so.
        prop_assert!(text.contains("Game over"), "{}", text);
        if let Ending::Finished(o) = ending {
            prop_assert!(u32::from(o.scores[0]) + u32::from(o.scores[1]) <= u32::from(Rules::new(variant, houses, seeds).unwrap().total_seeds()));
        }
    }
}
