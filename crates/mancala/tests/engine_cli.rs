//! The engine line protocol through the real binary: `mancala engine` answering it,
//! and `mancala match` playing external engines (`ext:COMMAND`), including engines
//! that misbehave: each failure loses its game, and no match hangs.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

/// Runs the binary with `input`; returns (exit status, stdout, stderr).
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A match of `games` games, `p1` against greedy, as its JSON summary and stderr.
fn match_json(p1: &str, games: &str, extra: &[&str]) -> (Value, String) {
    let mut args = vec![
        "match", "--p1", p1, "--p2", "greedy", "--games", games, "--swap", "--json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args, "");
    assert_eq!(code, Some(0), "{err}");
    (serde_json::from_str(&out).unwrap(), err)
}

/// A shell script engine: answers the greeting, then `on_go` for every `go`.
fn script(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let text = format!(
        "while read -r line; do case \"$line\" in protocol*) echo ready;; go*) {on_go};; esac; done\n"
    );
    std::fs::write(&path, text).unwrap();
    format!("ext:sh {}", path.display())
}

#[test]
fn the_engine_answers_the_protocol() {
    let input = "protocol 1\n\
                 position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 3\n\
                 go ms 50\n\
                 jump\n\
                 position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 3 3\n\
                 go ms 50\n\
                 quit\n\
                 go ms 50\n";
    let (code, out, err) = run(&["engine", "--player", "alphabeta:depth=4"], input);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "id name mancala alphabeta:depth=4");
    assert_eq!(lines[1], "ready");
    // After house 3 player 1 moves again: any house but the empty third.
    let mv: u8 = lines[2].strip_prefix("bestmove ").unwrap().parse().unwrap();
    assert!((1..=6).contains(&mv) && mv != 3, "{out}");
    assert!(lines[3].starts_with("error") && lines[3].contains("unknown command"));
    assert!(lines[4].starts_with("error") && lines[4].contains("illegal"));
    assert!(lines[5].starts_with("error") && lines[5].contains("no position"));
    // Nothing after quit.
    assert_eq!(lines.len(), 6, "{out}");
}

#[test]
fn a_match_against_our_own_engine_process() {
    let ext = format!("ext:{BIN} engine --player alphabeta:depth=6");
    let (v, err) = match_json(&ext, "4", &["--ext-ms", "100", "--jobs", "2"]);
    assert_eq!(v["games"], 4);
    assert_eq!(v["forfeits"], 0, "{err}");
    assert!(v["p1_score_rate"].as_f64().unwrap() >= 0.75, "{v}");
    // The same player built in: the same games, so the same result.
    let (inside, _) = match_json("alphabeta:depth=6", "4", &[]);
    assert_eq!(v["p1_score_rate"], inside["p1_score_rate"]);
}

/// Togyz Kumalak through the protocol: a tuzdyk travels in the position notation
/// (player 2's house 6 marked `x`: player 1's tuzdyk, empty, not a move), and the
/// engine's default player (master, whom the solver cannot help here) answers at
/// once; whole games against our own engine process, tuzdyks made on the way and
/// rebuilt by the engine from the moves, come out as when the player is built in.
#[test]
fn togyz_kumalak_through_the_protocol() {
    let input = "protocol 1\n\
                 position togyzkumalak 9x9 1,4,13,3,2,17,4,1,4/25 14,2,15,2,3,x,3,12,1/36 2\n\
                 go ms 50\n\
                 quit\n";
    let started = Instant::now();
    let (code, out, err) = run(&["engine"], input);
    assert_eq!(code, Some(0), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let mv: u8 = lines[2].strip_prefix("bestmove ").unwrap().parse().unwrap();
    assert!((1..=9).contains(&mv) && mv != 6, "{out}");

    let ext = format!("ext:{BIN} engine --player alphabeta:depth=4");
    let togyz = ["--variant", "togyzkumalak", "--ext-ms", "100"];
    let (v, err) = match_json(&ext, "2", &togyz);
    assert_eq!(
        (v["games"].as_u64(), v["forfeits"].as_u64()),
        (Some(2), Some(0)),
        "{err}"
    );
    let (inside, _) = match_json("alphabeta:depth=4", "2", &togyz);
    assert_eq!(v["p1_score_rate"], inside["p1_score_rate"]);
    assert_eq!(v["p1_wins"], inside["p1_wins"]);
}

#[test]
fn misbehaving_engines_lose_their_games_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            script(dir.path(), "garbled.sh", "echo 'I think house 3'"),
            "garbled",
        ),
        (
            script(dir.path(), "illegal.sh", "echo 'bestmove 7'"),
            "illegal move 7",
        ),
        (
            script(dir.path(), "slow.sh", "sleep 3"),
            "no bestmove within 300 ms",
        ),
        (script(dir.path(), "quits.sh", "exit 0"), "stopped talking"),
        (
            script(dir.path(), "refuses.sh", "echo 'error out of memory'"),
            "out of memory",
        ),
    ];
    for (ext, why) in &cases {
        let started = Instant::now();
        let (v, err) = match_json(ext, "2", &["--ext-ms", "100", "--ext-grace-ms", "200"]);
        assert!(started.elapsed() < Duration::from_secs(20), "{ext}");
        assert_eq!(v["games"], 2, "{ext}");
        assert_eq!(v["forfeits"], 2, "{ext}: {err}");
        assert_eq!(v["p1_score_rate"], 0.0, "{ext}");
        assert!(
            err.contains("forfeits") && err.contains(why),
            "{ext}: {err}"
        );
    }
}

#[test]
fn an_engine_that_cannot_start_is_an_error_before_any_game() {
    let (code, _, err) = run(
        &[
            "match",
            "--p1",
            "ext:/no/such/engine",
            "--p2",
            "greedy",
            "--games",
            "2",
        ],
        "",
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("cannot start") && err.contains("/no/such/engine"),
        "{err}"
    );
    let (code, _, err) = run(
        &["match", "--p1", "ext:", "--p2", "greedy", "--games", "2"],
        "",
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("ext:COMMAND"), "{err}");
}

#[test]
fn the_accuracy_bench_finds_perfect_play_exact_and_random_play_not() {
    let (code, out, err) = run(
        &[
            "bench",
            "accuracy",
            "--houses",
            "4",
            "--seeds",
            "2",
            "--positions",
            "30",
            "--max-seeds",
            "10",
            "perfect:ms=5000",
            "random",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["player"], "perfect:ms=5000");
    assert_eq!(rows[0]["positions"], 30);
    assert_eq!(rows[0]["share"], 1.0, "{out}");
    assert_eq!(rows[0]["result_share"], 1.0, "{out}");
    assert!(rows[1]["share"].as_f64().unwrap() < 1.0, "{out}");
    // Keeping the result is easier than keeping the margin, and random play does not
    // always manage either.
    let (exact, kept) = (rows[1]["exact"].as_u64(), rows[1]["result_kept"].as_u64());
    assert!(exact <= kept && kept < Some(30), "{out}");
}

/// The tuner's fit explains the results of its own self-play games better than the
/// store term alone, and puts its weights on the scale asked for.
#[test]
fn the_tune_bench_fits_weights_that_predict_results_better_than_the_store_alone() {
    let args = [
        "bench",
        "tune",
        "--variant",
        "oware",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--games",
        "200",
        "--depth",
        "2",
        "--store",
        "16",
    ];
    let (code, out, err) = run(&args, "");
    assert_eq!(code, Some(0), "{err}");
    let fit: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(fit["games"], 200);
    assert!(fit["positions"].as_u64().unwrap() > 1000, "{out}");
    assert_eq!(fit["weights"][0], serde_json::json!(["store", 16]), "{out}");
    let spec = fit["spec"].as_str().unwrap();
    assert!(spec.starts_with("store=16,row="), "{spec}");
    // The spec is a valid set of alphabeta options.
    let player = format!("alphabeta:depth=2,{spec}");
    let (code, _, err) = run(
        &[
            "match",
            "--variant",
            "oware",
            "--p1",
            &player,
            "--p2",
            "greedy",
            "--games",
            "2",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        fit["log_loss"].as_f64() < fit["log_loss_store_only"].as_f64(),
        "{out}"
    );
}

/// Games the description engine plays through the protocol: the start position in
/// the notation (by the game's key) gets a legal move back, and whole games against
/// our own engine process come out as when the player is built in.
#[test]
fn described_games_through_the_protocol() {
    use mancala_core::{Position, Rules, Variant};
    for key in ["ayoayo", "woli"] {
        let variant: Variant = key.parse().unwrap();
        let info = variant.info();
        let rules = Rules::new(variant, info.default_houses, info.default_seeds).unwrap();
        let start = Position::new(rules);
        let input = format!(
            "protocol 1\nposition {}\ngo ms 50\nquit\n",
            start.to_notation()
        );
        let (code, out, err) = run(&["engine", "--player", "alphabeta:depth=3"], &input);
        assert_eq!(code, Some(0), "{key}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{key}: {out}");
        let mv: u8 = lines[2]
            .strip_prefix("bestmove ")
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("{key}: {out}"));
        assert!(
            start.legal_moves().iter().any(|m| m.house() == mv),
            "{key}: {out}"
        );

        let ext = format!("ext:{BIN} engine --player alphabeta:depth=3");
        let args = ["--variant", key, "--ext-ms", "100"];
        let (v, err) = match_json(&ext, "2", &args);
        assert_eq!(
            (v["games"].as_u64(), v["forfeits"].as_u64()),
            (Some(2), Some(0)),
            "{key}: {err}"
        );
        let (inside, _) = match_json("alphabeta:depth=3", "2", &args);
        assert_eq!(v["p1_wins"], inside["p1_wins"], "{key}");
    }
}

/// A game of one's own through the protocol: the engine knows it from `--rules FILE`
/// (a position names a game by its key, which no other process knows), answers a
/// legal move, and plays a match against the built-in player as the built-in player
/// does; without the file it says the key is unknown; a broken file exits 2 naming it.
#[test]
fn a_game_of_ones_own_through_the_protocol() {
    use mancala_core::Position;
    use mancala_core::description::Description;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wari-of-three.toml");
    let mut d = Description::builtin("micro-wari").unwrap();
    d.key = "wari-of-three".into();
    d.name = "Wari of three".into();
    d.board.houses = 3;
    std::fs::write(&file, d.to_toml()).unwrap();
    let file = file.to_str().unwrap();
    let start = Position::new(mancala_core::Rules::from_description(d).unwrap());
    let input = format!(
        "protocol 1\nposition {}\ngo ms 50\nquit\n",
        start.to_notation()
    );

    let (code, out, err) = run(&["engine", "--player", "alphabeta:depth=3"], &input);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("error") && out.contains("wari-of-three"),
        "{out}"
    );

    let args = ["engine", "--player", "alphabeta:depth=3", "--rules", file];
    let (code, out, err) = run(&args, &input);
    assert_eq!(code, Some(0), "{err}");
    let mv: u8 = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(start.legal_moves().iter().any(|m| m.house() == mv), "{out}");

    let ext = format!("ext:{BIN} engine --player alphabeta:depth=3 --rules {file}");
    let extra = ["--rules", file, "--ext-ms", "100"];
    let (v, err) = match_json(&ext, "2", &extra);
    assert_eq!(
        (v["games"].as_u64(), v["forfeits"].as_u64()),
        (Some(2), Some(0)),
        "{err}"
    );
    let (inside, _) = match_json("alphabeta:depth=3", "2", &extra);
    assert_eq!(v["p1_wins"], inside["p1_wins"]);

    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "format = 1\nkey = \"x\"\n").unwrap();
    let (code, _, err) = run(&["engine", "--rules", broken.to_str().unwrap()], "quit\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("broken.toml"), "{err}");
}
