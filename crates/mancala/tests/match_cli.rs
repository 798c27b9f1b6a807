//! `mancala match` through the real binary: what its table and its warnings say about
//! small and repetitive matches.

use std::process::Command;

/// Runs `mancala match` with `args`; its standard output and error.
fn run_match(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("match")
        .args(args)
        .output()
        .expect("run mancala match");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The value of the table's row `key`.
fn row<'a>(table: &'a str, key: &str) -> &'a str {
    table
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no row {key:?} in\n{table}"))
        .trim()
}

/// Three wins in three games do not prove a 100% score: the interval is Wilson's, and
/// an odd number of swapped games says how the seats were shared.
#[test]
fn a_short_swapped_match_reports_an_honest_interval_and_seats() {
    let args = ["--p1", "greedy", "--p2", "random", "--games", "3", "--swap"];
    let (table, _) = run_match(&args);
    assert_eq!(row(&table, "p1 wins"), "3", "{table}");
    assert_eq!(row(&table, "95% interval"), "43.8% to 100.0%", "{table}");
    assert_eq!(
        row(&table, "games"),
        "3 (p1 as player 1 in 2, as player 2 in 1)",
        "{table}"
    );
}

/// Deterministic players from the same start play one game over and over; the match
/// says so and suggests random openings, which cure it.
#[test]
fn repeated_games_are_pointed_out() {
    let args = ["--p1", "greedy", "--p2", "greedy", "--games", "4", "--json"];
    let (json, warning) = run_match(&args);
    let summary: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(summary["repeated"], 3, "{json}");
    assert!(
        warning.contains("warning: 3 of 4 games repeat an earlier game move for move"),
        "{warning}"
    );
    assert!(warning.contains("--opening-plies"), "{warning}");

    let varied = [
        "--p1",
        "greedy",
        "--p2",
        "greedy",
        "--games",
        "4",
        "--opening-plies",
        "6",
    ];
    let (table, warning) = run_match(&varied);
    assert!(!warning.contains("repeat"), "{warning}");
    assert!(table.contains("95% interval"), "{table}");
}

/// A player unknown, or one that does not play the variant, is refused naming its
/// flag, as `console` and `tui` do.
#[test]
fn a_bad_player_is_refused_naming_its_flag() {
    for (args, want) in [
        (
            &["--p1", "bogus", "--p2", "greedy"][..],
            "--p1: unknown player \"bogus\"",
        ),
        (
            &["--variant", "oware", "--p1", "greedy", "--p2", "robot"][..],
            "--p2: ",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .arg("match")
            .args(args)
            .args(["--games", "1"])
            .output()
            .expect("run mancala match");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
