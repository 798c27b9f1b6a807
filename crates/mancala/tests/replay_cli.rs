//! `mancala replay`, `mancala perft` and `mancala bench` through the real binary.

mod spec;

use serde_json::Value;

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn replay_prints_the_start_and_every_position_with_exactly_the_documented_keys() {
    let (ok, out, err) = spec::run_binary(&["replay", "--variant", "kalah", "3", "6"], "");
    assert!(ok, "{err}");
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        r#"{"ply":0,"to_move":1,"houses":[[4,4,4,4,4,4],[4,4,4,4,4,4]],"stores":[0,0],"over":false,"result":null}"#
    );
    let v = lines(&out);
    assert_eq!(v.len(), 3);
    // House 3 ends in the store: player 1 again; house 6 then passes the turn.
    assert_eq!(v[1]["to_move"], 1);
    assert_eq!(v[2]["to_move"], 2);
    assert_eq!(v[2]["houses"][0], serde_json::json!([4, 4, 0, 5, 5, 0]));
    assert_eq!(v[2]["stores"], serde_json::json!([2, 0]));
}

#[test]
fn replay_reports_the_result_of_a_finished_game() {
    // Kalah(2,1): 2, 1, 2 (see the console transcript test): 3 to 1 for player 1.
    let (ok, out, _) = spec::run_binary(
        &["replay", "--houses", "2", "--seeds", "1", "2", "1", "2"],
        "",
    );
    assert!(ok);
    let last = lines(&out).pop().unwrap();
    assert_eq!(last["over"], true);
    assert_eq!(last["to_move"], Value::Null);
    assert_eq!(
        last["result"],
        serde_json::json!({"winner": 1, "scores": [3, 1]})
    );
}

/// Togyz Kumalak plays on its own board by default (9 houses of 9 seeds), and every
/// line says who owns which tuzdyk: here player 1's house 1 makes player 2's house 6
/// hold 3 at the 15th ply (a random game's), claiming it.
#[test]
fn replay_togyz_kumalak_reports_the_claimed_houses() {
    let moves = "8 2 8 9 5 6 5 9 4 2 8 4 5 9 1";
    let mut args = vec!["replay", "--variant", "togyzkumalak"];
    args.extend(moves.split(' '));
    let (ok, out, err) = spec::run_binary(&args, "");
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().next().unwrap(),
        r#"{"ply":0,"to_move":1,"houses":[[9,9,9,9,9,9,9,9,9],[9,9,9,9,9,9,9,9,9]],"stores":[0,0],"claimed":[null,null],"over":false,"result":null}"#
    );
    let v = lines(&out);
    assert_eq!(v.len(), 16);
    assert!(
        v[..15]
            .iter()
            .all(|l| l["claimed"] == serde_json::json!([null, null]))
    );
    assert_eq!(
        out.lines().last().unwrap(),
        r#"{"ply":15,"to_move":2,"houses":[[1,4,13,3,2,17,4,1,4],[14,2,15,2,3,0,3,12,1]],"stores":[25,36],"claimed":[6,null],"over":false,"result":null}"#
    );
}

#[test]
fn replay_oware_banks_captures_in_stores() {
    let (ok, out, _) = spec::run_binary(
        &[
            "replay",
            "--variant",
            "oware",
            "--houses",
            "2",
            "--seeds",
            "1",
            "2",
        ],
        "",
    );
    assert!(ok);
    let last = lines(&out).pop().unwrap();
    assert_eq!(last["stores"], serde_json::json!([2, 0]));
    assert_eq!(last["houses"], serde_json::json!([[1, 0], [0, 1]]));
}

#[test]
fn illegal_moves_stop_the_replay_with_the_ply_and_reason() {
    for (moves, reason) in [
        (
            &["1", "9"][..],
            "ply 2 (move \"9\"): there is no house 9 (houses are 1 to 6)",
        ),
        (
            &["1", "0"][..],
            "ply 2 (move \"0\"): there is no house 0 (houses are 1 to 6)",
        ),
        (&["3", "3"][..], "ply 2 (move \"3\"): house 3 is empty"),
        (
            &["300"][..],
            "ply 1 (move \"300\"): there is no house 300 (houses are 1 to 6)",
        ),
        (
            &["x"][..],
            "ply 1 (move \"x\"): \"x\" is not a house number",
        ),
        (
            &["-2"][..],
            "ply 1 (move \"-2\"): \"-2\" is not a house number",
        ),
    ] {
        let mut args = vec!["replay"];
        args.extend_from_slice(moves);
        let (ok, out, err) = spec::run_binary(&args, "");
        assert!(!ok, "{moves:?}");
        assert_eq!(
            lines(&out).len(),
            moves.len(),
            "positions before the bad move: {out}"
        );
        assert!(
            err.contains(&format!("error: {reason}")),
            "{moves:?}: {err}"
        );
    }
    // A move after the end of the game.
    let (ok, _, err) = spec::run_binary(
        &[
            "replay", "--houses", "2", "--seeds", "1", "2", "1", "2", "1",
        ],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("ply 4 (move \"1\"): the game is over"),
        "{err}"
    );
}

#[test]
fn bad_arguments_exit_with_status_2_and_a_message() {
    for (args, message) in [
        (
            &["replay", "--variant", "chess"][..],
            "unknown variant \"chess\"",
        ),
        (&["replay", "--seeds", "65"][..], "65 is not in 1..=64"),
        (
            &[
                "replay",
                "--variant",
                "oware",
                "--end-rule",
                "either-side-empty",
            ][..],
            "oware takes no rule options; end-rule is a Kalah option",
        ),
        (
            &["replay", "--end-rule", "sometimes"][..],
            "possible values: mover-cannot-move, either-side-empty",
        ),
        (&["perft"][..], "--depth"),
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn perft_prints_a_line_per_depth() {
    let (ok, out, _) = spec::run_binary(&["perft", "--variant", "kalah", "--depth", "4"], "");
    assert!(ok);
    assert_eq!(out, "1 6\n2 35\n3 185\n4 942\n");
}

/// Togyz Kumalak's perft from its default board, 9 houses of 9 seeds (the figures of
/// crates/mancala-core/tests/data/perft.txt, from the referee).
#[test]
fn perft_counts_togyz_kumalak_on_its_own_board() {
    let (ok, out, err) =
        spec::run_binary(&["perft", "--variant", "togyzkumalak", "--depth", "4"], "");
    assert!(ok, "{err}");
    assert_eq!(out, "1 9\n2 73\n3 613\n4 5199\n");
}

#[test]
fn bench_prints_one_json_line_with_the_documented_keys() {
    let (ok, out, err) = spec::run_binary(
        &[
            "bench",
            "playouts",
            "--variant",
            "oware",
            "--seconds",
            "0.05",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v = lines(&out);
    assert_eq!(v.len(), 1);
    // Keys in the documented order, read off the raw line (a parsed map sorts them).
    let keys: Vec<&str> = out.split('"').skip(1).step_by(2).collect();
    assert_eq!(
        keys,
        [
            "games",
            "moves",
            "seconds",
            "games_per_sec",
            "moves_per_sec"
        ]
    );
    assert!(v[0]["games"].as_u64().unwrap() > 0);
    assert!(v[0]["moves"].as_u64().unwrap() > v[0]["games"].as_u64().unwrap());
}

/// Random games of the variants with the repetition rule end when a position comes
/// round again: on one house a side they would otherwise go round for ever (Togyz
/// Kumalak 2|2, 1|3, 2|2; simplified Oware's 4|4 from the first move).
#[test]
fn bench_playouts_end_games_that_go_round() {
    for (variant, seeds) in [
        ("togyzkumalak", "2"),
        ("oware-simplified", "4"),
        ("oware", "2"),
    ] {
        let args = [
            "bench",
            "playouts",
            "--variant",
            variant,
            "--houses",
            "1",
            "--seeds",
            seeds,
            "--seconds",
            "0.05",
        ];
        let (ok, out, err) = spec::run_binary(&args, "");
        assert!(ok, "{variant}: {err}");
        assert!(
            lines(&out)[0]["games"].as_u64().unwrap() > 0,
            "{variant}: {out}"
        );
    }
}

#[test]
fn bench_search_and_mcts_report_their_work() {
    let (ok, out, err) = spec::run_binary(&["bench", "search", "--depth", "6"], "");
    assert!(ok, "{err}");
    let v = lines(&out);
    assert_eq!(v.len(), 1);
    assert!(v[0]["nodes"].as_u64().unwrap() > 6);
    assert!((1..=6).contains(&v[0]["best_move"].as_u64().unwrap()));
    assert!(v[0]["nodes_per_sec"].as_f64().unwrap() > 0.0);

    let args = ["bench", "mcts", "--variant", "oware", "--seconds", "0.05"];
    let (ok, out, err) = spec::run_binary(&args, "");
    assert!(ok, "{err}");
    let v = lines(&out);
    assert!(v[0]["sims"].as_u64().unwrap() > 0);
    assert!(v[0]["seconds"].as_f64().unwrap() >= 0.05);

    let (ok, _, err) = spec::run_binary(&["bench", "mcts", "--seconds", "0"], "");
    assert!(!ok);
    assert!(err.contains("--seconds must be a positive number"), "{err}");
}

/// `--described` plays the same random games by the description engine: on the same
/// seed and board, a fixed number of games gives the same number of moves as the rule
/// set (both stop on the clock, so the figures are compared per game).
#[test]
fn bench_playouts_by_description_play_the_same_games() {
    for variant in ["kalah", "oware", "oware-simplified", "togyzkumalak"] {
        let run = |described: bool| {
            let mut args = vec![
                "bench",
                "playouts",
                "--variant",
                variant,
                "--houses",
                "3",
                "--seeds",
                "2",
                "--seconds",
                "0.05",
            ];
            if described {
                args.push("--described");
            }
            let (ok, out, err) = spec::run_binary(&args, "");
            assert!(ok, "{variant}: {err}");
            let v = lines(&out).remove(0);
            (v["games"].as_u64().unwrap(), v["moves"].as_u64().unwrap())
        };
        let (kernel, described) = (run(false), run(true));
        assert!(kernel.0 > 0 && described.0 > 0, "{variant}");
        // Games come 256 at a time from the same seed: the first 256 are the same
        // games under both, so equal counts of games give equal counts of moves.
        if kernel.0 == described.0 {
            assert_eq!(kernel.1, described.1, "{variant}");
        }
    }
}
