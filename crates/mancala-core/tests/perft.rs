//! Frozen perft counts (`tests/data/perft.txt`), established by the referee's naive
//! rules (`crates/mancala-referee`) and checked against the crate.
//!
//! Each data line is `variant houses seeds options depth count`, with options `-` for
//! the defaults or a comma-separated list of `empty-capture` and an end rule.
//! Regenerate with `cargo test -p mancala-core --release --test perft -- --ignored
//! --nocapture regenerate` (it prints the file; the referee is slow on purpose).

use mancala_core::{EndRule, Position, RuleOptions, Rules, Variant, perft};
use mancala_referee::{Kind, Referee};

/// The referee's game at the start of `rules`.
fn referee(rules: Rules) -> Referee {
    let kind = match rules.variant() {
        Variant::Kalah => Kind::Kalah {
            empty_capture: rules.options().empty_capture,
            either_side_empty: rules.options().end_rule == EndRule::EitherSideEmpty,
        },
        Variant::Oware => Kind::Oware,
        Variant::OwareSimplified => Kind::SimplifiedOware,
        Variant::TogyzKumalak => Kind::TogyzKumalak,
        Variant::Described(_) => unreachable!("this referee plays the hand-written games"),
    };
    Referee::new(kind, rules.houses(), u32::from(rules.seeds()))
}

struct Entry {
    rules: Rules,
    depth: u32,
    count: u64,
}

fn parse_options(s: &str) -> RuleOptions {
    let mut o = RuleOptions::default();
    if s != "-" {
        for part in s.split(',') {
            match part {
                "empty-capture" => o.empty_capture = true,
                rule => o.end_rule = rule.parse::<EndRule>().expect("end rule"),
            }
        }
    }
    o
}

fn entries() -> Vec<Entry> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 6, "bad line {line:?}");
            let rules = Rules::new(
                f[0].parse::<Variant>().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
            .unwrap()
            .with_options(parse_options(f[3]));
            Entry {
                rules,
                depth: f[4].parse().unwrap(),
                count: f[5].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn crate_perft_matches_frozen_counts() {
    let entries = entries();
    assert!(entries.len() >= 40, "the data file lost its entries");
    for e in entries {
        assert_eq!(
            perft(&Position::new(e.rules), e.depth),
            e.count,
            "{} depth {}",
            e.rules,
            e.depth
        );
    }
}

#[test]
fn referee_perft_establishes_the_smaller_counts() {
    // The referee recomputes every entry small enough to run quickly in a test build.
    let mut checked = 0;
    for e in entries().into_iter().filter(|e| e.count <= 200_000) {
        let count = mancala_referee::perft(&referee(e.rules), e.depth);
        assert_eq!(count, e.count, "{} depth {}", e.rules, e.depth);
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} entries checked");
}

/// Prints the data file from the referee.
#[test]
#[ignore = "slow: regenerates tests/data/perft.txt from the referee's naive rules"]
fn regenerate() {
    let boards: &[(&str, u8, u8, &str, u32)] = &[
        ("kalah", 6, 4, "-", 9),
        ("kalah", 6, 4, "empty-capture", 9),
        ("kalah", 6, 4, "either-side-empty", 9),
        ("kalah", 6, 6, "-", 8),
        ("kalah", 4, 3, "empty-capture,either-side-empty", 10),
        ("oware", 6, 4, "-", 9),
        ("oware", 2, 2, "-", 12),
        ("oware-simplified", 6, 4, "-", 8),
        ("oware-simplified", 2, 2, "-", 10),
        ("togyzkumalak", 9, 9, "-", 6),
        ("togyzkumalak", 3, 3, "-", 10),
    ];
    println!("# variant houses seeds options depth count  (from crates/mancala-referee)");
    for &(v, h, s, opts, max_depth) in boards {
        let rules = Rules::new(v.parse().unwrap(), h, s)
            .unwrap()
            .with_options(parse_options(opts));
        let start = referee(rules);
        for d in 1..=max_depth {
            let count = mancala_referee::perft(&start, d);
            println!("{v} {h} {s} {opts} {d} {count}");
        }
    }
}
