//! Whatever arrives on standard input, the console never panics and never fails.

use mancala_console::{Console, Ending, Seat};
use mancala_core::{Rules, Side, Variant};
use mancala_engine::{Greedy, RandomPlayer};
use proptest::prelude::*;

fn console(variant: Variant, houses: u8, seeds: u8, menu: bool, computer: Option<bool>) -> Console {
    let rules = Rules::new(variant, houses, seeds).unwrap();
    let c = Console::new(rules).menu(menu && variant == Variant::Kalah);
    match computer {
        None => c,
        Some(true) => c.seat(Side::North, Seat::Computer(Box::new(Greedy))),
        Some(false) => c.seat(Side::South, Seat::Computer(Box::new(RandomPlayer::new(3)))),
    }
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
