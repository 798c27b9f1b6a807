//! Property tests of the position notation: random positions of every variant, size
//! and rule option round-trip exactly, and no line makes the parser panic.

use mancala_core::{
    EndRule, NotationErrorKind, NotationField, Position, RuleOptions, Rules, SetupError, Side,
    Variant,
};
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(Variant::ALL.to_vec()),
        1u8..=16,
        1u8..=64,
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

/// A random position of `rules`: the seeds cut into `2H + 2` heaps at random points,
/// so every house and store can hold anything from none to all of them.
fn position_strategy() -> impl Strategy<Value = Position> {
    rules_strategy()
        .prop_flat_map(|rules| {
            let total = rules.total_seeds();
            let cuts = prop::collection::vec(0..=total, 2 * rules.houses() + 1);
            (Just(rules), cuts, any::<bool>())
        })
        .prop_filter_map(
            "simplified Oware skips a mover with no seeds",
            |(rules, mut cuts, north)| {
                let h = rules.houses();
                cuts.sort_unstable();
                let mut heaps = Vec::with_capacity(2 * h + 2);
                let mut last = 0;
                for c in cuts.iter().copied().chain([rules.total_seeds()]) {
                    heaps.push(c - last);
                    last = c;
                }
                let side = if north { Side::North } else { Side::South };
                Position::from_parts(
                    rules,
                    [&heaps[..h], &heaps[h..2 * h]],
                    [heaps[2 * h], heaps[2 * h + 1]],
                    side,
                )
                .ok()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Writing a position and reading it back gives the very same position, and the
    /// line has no spaces but the four between its fields.
    #[test]
    fn positions_round_trip(p in position_strategy()) {
        let line = p.to_notation();
        prop_assert_eq!(line.matches(' ').count(), 4, "{}", line);
        prop_assert_eq!(Position::from_notation(&line), Ok(p), "{}", line);
    }

    /// Any text is read or refused with a column inside the line (or just past it).
    #[test]
    fn any_text_is_read_or_refused_without_panic(line in "\\PC{0,80}") {
        if let Err(e) = Position::from_notation(&line) {
            prop_assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "{e}");
        }
    }

    /// Lines close to real ones (the alphabet of the notation) as well.
    #[test]
    fn near_misses_are_refused_without_panic(line in "[a-z+ 0-9x,/-]{0,60}") {
        if let Err(e) = Position::from_notation(&line) {
            prop_assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "{e}");
        }
    }

    /// One seed added anywhere is refused as not adding up, at player 1's row.
    #[test]
    fn an_extra_seed_is_refused(p in position_strategy(), at in 0usize..34) {
        let h = p.houses_per_side();
        let mut south = p.houses(Side::South).to_vec();
        let mut north = p.houses(Side::North).to_vec();
        let mut stores = p.stores();
        let cell = match at % (2 * h + 2) {
            i if i < h => &mut south[i],
            i if i < 2 * h => &mut north[i - h],
            i => &mut stores[i - 2 * h],
        };
        *cell += 1;
        // A heap of every seed plus one is refused where it stands instead.
        prop_assume!(*cell <= p.rules().total_seeds());
        let row = |r: &[u16]| r.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
        let rules_field = p.to_notation().split(' ').next().unwrap().to_owned();
        let line = format!(
            "{rules_field} {}x{} {}/{} {}/{} {}",
            h, p.rules().seeds(), row(&south), stores[0], row(&north), stores[1], p.to_move().number()
        );
        let e = Position::from_notation(&line).unwrap_err();
        prop_assert_eq!(e.field, NotationField::Board);
        prop_assert_eq!(e.column, rules_field.chars().count() + 2 + format!("{h}x{}", p.rules().seeds()).len() + 1);
        let total = u32::from(p.rules().total_seeds());
        prop_assert_eq!(e.kind, NotationErrorKind::Setup(SetupError::SeedsNotConserved { found: total + 1, expected: p.rules().total_seeds() }));
    }
}
