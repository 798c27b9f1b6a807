//! Positions and game records on the command line: `--position` and `--record` for
//! `replay`, `solve` and `match`, `match --records`, and `mancala record check` and
//! `convert`, through the real binary.

mod spec;

use std::path::Path;

use serde_json::Value;

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Runs the binary; returns (exit status, stdout, stderr).
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A child that stops before reading (bad arguments) closes the pipe: not an error.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Kalah(3,2) after player 1 sows house 1: player 2 to move.
const AFTER_ONE: &str = "kalah 3x2 0,3,3/0 2,2,2/0 2";

#[test]
fn replay_starts_from_a_position() {
    let (ok, out, err) = spec::run_binary(&["replay", "--position", AFTER_ONE, "2"], "");
    assert!(ok, "{err}");
    let v = json_lines(&out);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["to_move"], 2);
    assert_eq!(v[0]["houses"], serde_json::json!([[0, 3, 3], [2, 2, 2]]));
    // The same as replaying both moves from the start.
    let (_, from_start, _) =
        spec::run_binary(&["replay", "--houses", "3", "--seeds", "2", "1", "2"], "");
    let last = json_lines(&from_start).pop().unwrap();
    assert_eq!(v[1]["houses"], last["houses"]);
    assert_eq!(v[1]["stores"], last["stores"]);
}

#[test]
fn a_bad_position_or_a_position_with_rules_is_refused_with_status_2() {
    let (code, _, err) = run(&["replay", "--position", "kalah 3x2 0,3,3/0 2,2,x/0 2"], "");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("column 23 (player 2's houses): expected a number of seeds, found \"x\""),
        "{err}"
    );
    let (code, _, err) = run(&["replay", "--position", AFTER_ONE, "--houses", "3"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn replay_plays_a_record_then_the_moves_given() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "r.txt",
        "[Houses \"3\"]\n[Seeds \"2\"]\n1. 1 *\n",
    );
    let (ok, out, err) = spec::run_binary(&["replay", "--record", &file, "2"], "");
    assert!(ok, "{err}");
    let v = json_lines(&out);
    assert_eq!(v.len(), 3);
    assert_eq!(v[2]["ply"], 2);
    // An illegal move after the record counts its plies from the record's start.
    let (code, _, err) = run(&["replay", "--record", &file, "9"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("error: ply 2 (move \"9\")"), "{err}");
}

#[test]
fn a_record_file_of_several_games_needs_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "two.txt", "3 *\n1 2 *\n");
    let (code, _, err) = run(&["replay", "--record", &file], "");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("holds 2 games; choose one with --game"),
        "{err}"
    );
    let (ok, out, _) = spec::run_binary(&["replay", "--record", &file, "--game", "2"], "");
    assert!(ok);
    assert_eq!(json_lines(&out).len(), 3);
    let (code, _, err) = run(&["replay", "--record", &file, "--game", "3"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("there is no game 3"), "{err}");
}

#[test]
fn a_bad_record_stops_with_its_game_and_move() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "bad.txt", "3 6 1 *\n\n3 3 *\n");
    let (code, out, err) = run(&["replay", "--record", &file, "--game", "1"], "");
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert!(
        err.contains("game 2, line 3: move 1 (player 1, ply 2), \"3\": house 3 is empty"),
        "{err}"
    );
}

fn solve_json(args: &[&str]) -> Value {
    let mut all = vec!["solve", "--json", "--hash-mb", "16"];
    all.extend_from_slice(args);
    let (ok, out, err) = spec::run_binary(&all, "");
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn solve_takes_a_position_or_a_record() {
    let after_moves = solve_json(&["--houses", "3", "--seeds", "2", "--moves", "1"]);
    let from_position = solve_json(&["--position", AFTER_ONE]);
    assert_eq!(from_position["value"], after_moves["value"]);
    assert_eq!(from_position["move_values"], after_moves["move_values"]);
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "r.txt", "[Houses \"3\"]\n[Seeds \"2\"]\n1 *\n");
    let from_record = solve_json(&["--record", &file]);
    assert_eq!(from_record["move_values"], after_moves["move_values"]);
    // More moves after the record's.
    let deeper = solve_json(&["--record", &file, "--moves", "2"]);
    assert_eq!(deeper["value"], after_moves["move_values"]["2"]);
    let (ok, out, _) = spec::run_binary(&["solve", "--hash-mb", "16", "--position", AFTER_ONE], "");
    assert!(ok);
    assert!(
        out.starts_with(&format!("kalah(3,2) from {AFTER_ONE}\n")),
        "{out}"
    );
}

fn match_args<'a>(records: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--p1",
        "greedy",
        "--p2",
        "random",
        "--games",
        "4",
        "--swap",
        "--json",
        "--records",
        records,
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn match_writes_every_game_played() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.txt");
    let records = records.to_str().unwrap();
    let (ok, out, err) =
        spec::run_binary(&match_args(records, &["--houses", "3", "--seeds", "2"]), "");
    assert!(ok, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    let text = std::fs::read_to_string(records).unwrap();
    assert_eq!(text.matches("[Variant \"kalah\"]").count(), 4);
    assert!(text.contains("[Round \"4\"]"));
    // Odd games have the seats swapped.
    assert!(text.contains("[Player1 \"random\"]"));
    let (ok, checked, err) = spec::run_binary(&["record", "check", records], "");
    assert!(ok, "{err}");
    assert_eq!(checked.lines().count(), 4);
    // greedy's wins, from the records: 1-0 where greedy is player 1, 0-1 where player 2.
    let wins = text
        .split("\n\n[Variant")
        .filter(|game| {
            let greedy_first = game.contains("[Player1 \"greedy\"]");
            let result = if greedy_first {
                "[Result \"1-0\"]"
            } else {
                "[Result \"0-1\"]"
            };
            game.contains(result)
        })
        .count();
    assert_eq!(summary["p1_wins"].as_u64().unwrap(), wins as u64);
}

#[test]
fn match_starts_from_a_position_or_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.txt");
    let records = records.to_str().unwrap();
    let (ok, _, err) = spec::run_binary(&match_args(records, &["--position", AFTER_ONE]), "");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(records).unwrap();
    assert_eq!(
        text.matches(&format!("[Position \"{AFTER_ONE}\"]")).count(),
        4
    );
    assert!(text.contains("\n1... "), "player 2 moves first: {text}");

    let start = write(
        dir.path(),
        "start.txt",
        "[Houses \"3\"]\n[Seeds \"2\"]\n1. 1 {opening} *\n",
    );
    let (ok, _, err) = spec::run_binary(&match_args(records, &["--record", &start]), "");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(records).unwrap();
    // Every game keeps the recorded move (and starts from the rules' start).
    assert_eq!(text.matches("\n\n1. 1 ").count(), 4, "{text}");
    assert!(!text.contains("[Position"));
}

#[test]
fn record_check_prints_each_games_result() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "games.txt",
        "[Houses \"2\"]\n[Seeds \"1\"]\n2 1 2 1-0\n\n[Termination \"resignation\"]\n3 6 0-1\n",
    );
    let (ok, out, err) = spec::run_binary(&["record", "check", &file], "");
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "game 1: 1-0 (kalah(2,1), 3 moves) Player 1 wins 3 to 1: Player 2 has no seeds to \
         move.\n\
         game 2: 0-1 (kalah(6,4), 2 moves) Player 2 wins: Player 1 resigned\n"
    );
    // Standard input, and the defaults for games without tags.
    let (ok, out, _) = spec::run_binary(
        &[
            "record",
            "check",
            "-",
            "--variant",
            "oware-simplified",
            "--houses",
            "1",
        ],
        "1 1 1",
    );
    assert!(ok);
    assert!(
        out.starts_with("game 1: 1/2-1/2 (oware-simplified(1,4), 3 moves) A draw"),
        "{out}"
    );
}

#[test]
fn record_check_of_a_bad_file_exits_2_with_game_move_and_reason() {
    let (code, out, err) = run(&["record", "check", "-"], "3 6 1 *\n\n3 6+ *\n");
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "nothing half-loaded: {out}");
    assert_eq!(
        err,
        "error: -: game 2, line 3: move 1 (player 1, ply 2), \"6+\": marked '+', but the \
         other player moves next\n"
    );
    let (code, _, err) = run(&["record", "check", "/no/such/file"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot read /no/such/file"), "{err}");
}

#[test]
fn record_convert_writes_each_notation() {
    let oware = "[Variant \"oware\"]\n1. 64 64 2. 21 32 *\n";
    let (ok, strict, _) = spec::run_binary(&["record", "convert", "-"], oware);
    assert!(ok);
    assert!(
        strict.starts_with("[Variant \"oware\"]\n[Houses \"6\"]\n"),
        "{strict}"
    );
    assert!(strict.ends_with("\n\n1. 6 6 2. 2 3 *\n"), "{strict}");
    let (ok, two_digit, _) =
        spec::run_binary(&["record", "convert", "--to", "oware2", "-"], &strict);
    assert!(ok);
    assert!(
        two_digit.ends_with("\n\n1. 64 64 2. 21 32 *\n"),
        "{two_digit}"
    );
    let (ok, moves, _) = spec::run_binary(&["record", "convert", "--to", "moves", "-"], oware);
    assert!(ok);
    assert_eq!(moves, "6 6 2 3 *\n");
    // To a file.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let (ok, printed, _) = spec::run_binary(
        &["record", "convert", "-", "-o", out.to_str().unwrap()],
        oware,
    );
    assert!(ok && printed.is_empty());
    assert_eq!(std::fs::read_to_string(out).unwrap(), strict);
}

#[test]
fn record_convert_refuses_what_a_notation_cannot_hold() {
    let (code, _, err) = run(&["record", "convert", "--to", "oware2", "-"], "3 6 *");
    assert_eq!(code, Some(2));
    assert!(
        err.contains(
            "the two-digit notation is for games that sow into no store, on boards of at \
             most 9 houses, not kalah(6,4)"
        ),
        "{err}"
    );
    let (code, _, err) = run(&["record", "convert", "--to", "pgn", "-"], "3 *");
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown record format \"pgn\""), "{err}");
    let (ok, help, _) = spec::run_binary(&["record", "convert", "--help"], "");
    assert!(ok);
    for format in ["strict", "oware2", "moves"] {
        assert!(help.contains(&format!("  {format}  ")), "{help}");
    }
}
