//! `mancala solve` through the real binary.

mod spec;

use serde_json::Value;

fn solve_json(args: &[&str]) -> Value {
    let mut all = vec!["solve", "--json", "--hash-mb", "16"];
    all.extend_from_slice(args);
    let (ok, out, err) = spec::run_binary(&all, "");
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1, "one JSON object: {out}");
    serde_json::from_str(&out).expect("JSON")
}

#[test]
fn json_has_the_documented_keys_in_order_and_consistent_values() {
    let (ok, out, err) =
        spec::run_binary(&["solve", "--houses", "3", "--seeds", "2", "--json"], "");
    assert!(ok, "{err}");
    let keys = [
        "\"value\":",
        "\"best_moves\":",
        "\"move_values\":",
        "\"nodes\":",
        "\"seconds\":",
    ];
    let at: Vec<usize> = keys.iter().map(|k| out.find(k).expect(k)).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let values = v["move_values"].as_object().unwrap();
    assert_eq!(values.len(), 3);
    let best = values.values().map(|x| x.as_i64().unwrap()).max().unwrap();
    assert_eq!(v["value"].as_i64().unwrap(), best);
    for m in v["best_moves"].as_array().unwrap() {
        assert_eq!(values[&m.to_string()].as_i64().unwrap(), best);
    }
}

#[test]
fn the_value_after_a_move_is_that_moves_value() {
    let start = solve_json(&["--houses", "4", "--seeds", "2", "--empty-capture"]);
    for (mv, value) in start["move_values"].as_object().unwrap() {
        let after = solve_json(&[
            "--houses",
            "4",
            "--seeds",
            "2",
            "--empty-capture",
            "--moves",
            mv,
        ]);
        assert_eq!(&after["value"], value, "after move {mv}");
    }
}

#[test]
fn text_output_names_the_value_moves_and_costs() {
    let (ok, out, err) = spec::run_binary(
        &[
            "solve",
            "--variant",
            "oware",
            "--houses",
            "2",
            "--seeds",
            "2",
            "--hash-mb",
            "16",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.starts_with("oware(2,2) from the start\nvalue: "),
        "{out}"
    );
    for word in [
        "best move(s):",
        "move values: 1: ",
        "nodes: ",
        "time: ",
        "memory: ",
    ] {
        assert!(out.contains(word), "{word} in {out}");
    }
}

#[test]
fn bad_problems_are_refused_with_a_message_before_any_work() {
    for (args, expected) in [
        (
            &["solve", "--houses", "6", "--seeds", "8"][..],
            "too large to solve",
        ),
        (&["solve", "--variant", "oware"][..], "too large to solve"),
        (
            &["solve", "--variant", "oware-simplified"][..],
            "does not handle",
        ),
        (
            &[
                "solve",
                "--variant",
                "togyzkumalak",
                "--houses",
                "2",
                "--seeds",
                "1",
            ][..],
            "the solver does not handle togyzkumalak (it solves kalah and oware)",
        ),
        (&["solve", "--hash-mb", "100000"][..], "--hash-mb"),
        (&["solve", "--houses", "3", "--moves", "4"][..], "move 1"),
    ] {
        let (ok, out, err) = spec::run_binary(args, "");
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Kalah(6,4)'s every move takes many seconds: half a second is not enough, and the
/// message says so, with what was proved by then.
#[test]
fn a_solve_out_of_time_says_so_and_what_it_had_proved() {
    let (ok, out, err) = spec::run_binary(
        &["solve", "--hash-mb", "64", "--time-limit", "0.5", "--json"],
        "",
    );
    assert!(!ok, "finished within half a second: {out}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("ran out of time after") && err.contains("s (--time-limit); "),
        "{err}"
    );
    assert!(
        err.contains("proved so far: ") || err.contains("nothing was proved yet"),
        "{err}"
    );
}

#[test]
fn the_endgame_database_size_does_not_change_the_answer() {
    let args = [
        "--houses",
        "3",
        "--seeds",
        "3",
        "--end-rule",
        "either-side-empty",
    ];
    let plain = solve_json(&[&args[..], &["--endgame-seeds", "0"]].concat());
    for n in ["4", "9", "17"] {
        let with = solve_json(&[&args[..], &["--endgame-seeds", n]].concat());
        assert_eq!(with["move_values"], plain["move_values"], "{n} seeds");
    }
    // With every board after the start in the database, each root move's null-window
    // tests are answered at once: a few nodes each.
    let full = solve_json(&[&args[..], &["--endgame-seeds", "17"]].concat());
    let nodes = full["nodes"].as_u64().unwrap();
    assert!(nodes <= 12, "{full}");
    assert!(plain["nodes"].as_u64().unwrap() > 10 * nodes, "{plain}");
    // A database larger than the memory allowed is refused before any work.
    let (ok, _, err) = spec::run_binary(
        &[
            "solve",
            "--houses",
            "6",
            "--seeds",
            "4",
            "--hash-mb",
            "64",
            "--endgame-seeds",
            "30",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("endgame database of 30 seeds"), "{err}");
}

#[test]
fn bench_endgame_counts_every_board() {
    let (ok, out, err) = spec::run_binary(
        &[
            "bench",
            "endgame",
            "--houses",
            "3",
            "--endgame-seeds",
            "10",
            "--threads",
            "2",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON line");
    // C(10 + 6, 6) boards of three houses a side with at most ten seeds.
    assert_eq!(v["boards"], 8008);
    assert_eq!(v["seeds"], 10);
    assert_eq!(v["threads"], 2);
    assert!(v["boards_per_sec"].as_f64().unwrap() > 0.0);
}

#[test]
fn moves_may_be_followed_by_other_options() {
    let (ok, out, err) = spec::run_binary(
        &[
            "solve", "--houses", "4", "--seeds", "2", "--moves", "1", "2", "--json",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["value"].is_i64(), "{out}");
}

#[test]
fn the_endgame_file_is_written_once_then_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kalah-4-3.db");
    let path = path.to_str().unwrap();
    let args = [
        "--houses",
        "4",
        "--seeds",
        "3",
        "--endgame-seeds",
        "8",
        "--endgame-file",
        path,
    ];
    let first = solve_json(&args);
    assert_eq!(first["endgame"]["seeds"], 8);
    assert_eq!(first["endgame"]["written_to_file"], true, "{first}");
    // Header (8 + 3 + 1 + 8 bytes) and a byte for each of the C(16, 8) boards.
    let len = std::fs::metadata(path).unwrap().len();
    assert_eq!(len, 20 + 12_870);

    let second = solve_json(&args);
    assert_eq!(second["endgame"]["read_from_file"], true, "{second}");
    assert_eq!(second["endgame"]["written_to_file"], false, "{second}");
    assert_eq!(second["move_values"], first["move_values"]);
    // A later position of the same game is solved with the same file.
    let smaller = solve_json(&[&args[..], &["--moves", "2"]].concat());
    assert_eq!(smaller["endgame"]["read_from_file"], true, "{smaller}");
    assert_eq!(
        smaller["value"], first["move_values"]["2"],
        "the value after move 2 is move 2's value"
    );

    // The text output says where the database came from.
    let (ok, out, err) = spec::run_binary(&[&["solve"][..], &args[..]].concat(), "");
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!(
            "endgame database: every board of up to 8 seeds, read from {path}"
        )),
        "{out}"
    );

    // Other rules: refused, and the file is left alone.
    let (ok, _, err) =
        spec::run_binary(&[&["solve", "--empty-capture"][..], &args[..]].concat(), "");
    assert!(!ok);
    assert!(err.contains("another game (4 houses a side)"), "{err}");
    assert_eq!(std::fs::metadata(path).unwrap().len(), len);
}

#[test]
fn an_endgame_file_larger_than_the_memory_allowed_is_read_in_part() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kalah-4-4.db");
    let path = path.to_str().unwrap();
    let rules = ["--houses", "4", "--seeds", "4", "--endgame-file", path];
    // 20 seeds: C(28, 8) = 3,108,105 boards, 3 MiB.
    let built = solve_json(&[&rules[..], &["--endgame-seeds", "20"]].concat());
    assert_eq!(built["endgame"]["written_to_file"], true, "{built}");
    // With 1 MiB allowed, the database's three quarters of it hold the boards of up
    // to 16 seeds (C(24, 8) = 735,471; 17 seeds would be 1,081,575).
    let (ok, out, err) = spec::run_binary(
        &[&["solve", "--json", "--hash-mb", "1"][..], &rules[..]].concat(),
        "",
    );
    assert!(ok, "{err}");
    let small: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(small["endgame"]["read_from_file"], true, "{small}");
    assert_eq!(small["endgame"]["seeds"], 16, "{small}");
    assert_eq!(small["move_values"], built["move_values"]);
}

#[test]
fn best_only_proves_the_value_and_one_best_move() {
    for board in [
        &["--houses", "4", "--seeds", "3"][..],
        &["--houses", "5", "--seeds", "2", "--empty-capture"],
        &["--houses", "4", "--seeds", "3", "--moves", "2"],
    ] {
        let full = solve_json(board);
        let mut args = board.to_vec();
        args.push("--best-only");
        let quick = solve_json(&args);
        assert_eq!(quick["value"], full["value"], "{board:?}");
        let best = quick["best_moves"].as_array().unwrap();
        assert_eq!(best.len(), 1, "{quick}");
        assert!(full["best_moves"].as_array().unwrap().contains(&best[0]));
        let values = quick["move_values"].as_object().unwrap();
        assert_eq!(values.len(), 1, "{quick}");
        assert_eq!(values[&best[0].to_string()], full["value"]);
    }
    let (ok, out, err) = spec::run_binary(
        &["solve", "--houses", "4", "--seeds", "3", "--best-only"],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("player 1 to move; a best move: "), "{out}");
    assert!(
        out.contains("(only the best move's; drop --best-only for every move)"),
        "{out}"
    );
}
