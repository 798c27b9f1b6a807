//! `mancala analyse` through the real binary.

mod spec;

use serde_json::Value;

const RECORD: &str = "[Variant \"kalah\"]\n[Houses \"3\"]\n[Seeds \"2\"]\n\n\
                      1. 3 2 2. 1 3 3. 2 *\n\n\
                      [Variant \"kalah\"]\n[Houses \"3\"]\n[Seeds \"2\"]\n\n1. 1 *\n";

fn record_file() -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut f, RECORD.as_bytes()).unwrap();
    f
}

#[test]
fn json_is_one_document_with_a_ply_per_move_and_the_accuracy() {
    let (ok, out, err) = spec::run_binary(
        &[
            "analyse", "--houses", "3", "--seeds", "2", "--moves", "3", "1", "2", "--json",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 3);
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["ply"].as_u64().unwrap(), i as u64 + 1);
        assert!(p["exact"].as_bool().unwrap(), "{p}");
        let (best, played) = (p["value_best"].as_i64(), p["value_played"].as_i64());
        assert!(played <= best, "{p}");
        assert_eq!(p["label"] == "best", played == best, "{p}");
    }
    assert_eq!(plies[0]["played"], 3);
    assert_eq!(plies[0]["mover"], 1);
    assert_eq!(v["accuracy"].as_array().unwrap().len(), 2);
}

#[test]
fn a_record_game_is_analysed_from_its_start_and_printed_as_a_table() {
    let f = record_file();
    let path = f.path().to_str().unwrap();
    let (ok, out, err) = spec::run_binary(&["analyse", "--record", path, "--game", "1"], "");
    assert!(ok, "{err}");
    assert!(out.starts_with("kalah(3,2), 5 moves."), "{out}");
    assert_eq!(out.lines().count(), 2 + 5 + 1, "{out}");
    assert!(out.contains("accuracy: player 1 "), "{out}");
    assert!(out.contains("5 of 5 moves exact"), "{out}");
}

#[test]
fn bad_input_gets_a_clear_error() {
    let f = record_file();
    let path = f.path().to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["analyse"], "there are no moves to analyse"),
        (
            &["analyse", "--record", path],
            "holds 2 games; choose one with --game",
        ),
        (&["analyse", "--moves", "9"], "move 1 (\"9\")"),
        (
            &["analyse", "--record", "/nonexistent/x.rec"],
            "cannot read",
        ),
    ];
    for (args, expected) in cases {
        let (ok, _, err) = spec::run_binary(args, "");
        assert!(!ok, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
