//! `mancala variants`: the games from their descriptions, through the real binary.

mod spec;

use mancala_core::description::Description;
use serde_json::Value;

#[test]
fn variants_lists_every_shipped_game_with_its_board_and_summary() {
    let (ok, out, err) = spec::run_binary(&["variants"], "");
    assert!(ok, "{err}");
    for d in Description::builtins() {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{} ", d.key)))
            .unwrap_or_else(|| panic!("no line for {}:\n{out}", d.key));
        assert!(
            line.contains(&d.name) && line.contains(&d.summary),
            "{line}"
        );
        assert!(
            line.contains(&format!("{}x{}", d.board.houses, d.board.seeds)),
            "{line}"
        );
    }
    assert!(out.contains("mancala variants show KEY"), "{out}");
}

#[test]
fn variants_json_gives_each_game_with_its_whole_description() {
    let (ok, out, err) = spec::run_binary(&["variants", "--json"], "");
    assert!(ok, "{err}");
    let games: Vec<Value> = serde_json::from_str(&out).unwrap();
    let keys: Vec<&str> = games.iter().map(|g| g["key"].as_str().unwrap()).collect();
    let shipped: Vec<String> = Description::builtins().into_iter().map(|d| d.key).collect();
    assert_eq!(keys, shipped);
    let togyz = games.iter().find(|g| g["key"] == "togyzkumalak").unwrap();
    assert_eq!(togyz["description"]["claim"]["word"], "tuzdyk");
    assert_eq!(togyz["description"]["board"]["houses"], 9);
    assert!(togyz["sources"][0].as_str().unwrap().contains("federation"));
}

#[test]
fn variants_show_prints_the_file_that_reads_back_as_the_game() {
    for d in Description::builtins() {
        let (ok, out, err) = spec::run_binary(&["variants", "show", &d.key], "");
        assert!(ok, "{err}");
        assert_eq!(Description::from_toml(&out, "shown").unwrap(), d);
        assert!(out.starts_with('#'), "the file keeps its comments: {out}");
    }
}

#[test]
fn variants_show_of_an_unknown_game_names_the_games() {
    let (ok, out, err) = spec::run_binary(&["variants", "show", "no-such-game"], "");
    assert!(!ok && out.is_empty());
    let keys: Vec<String> = Description::builtins().into_iter().map(|d| d.key).collect();
    assert_eq!(
        err.trim(),
        format!(
            "error: there is no game \"no-such-game\"; the games are {}",
            keys.join(", ")
        )
    );
}

/// A file in a fresh temporary folder of this test.
fn temp_file(test: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-variants-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `mancala match` between two levels with a fixed seed, its records written to
/// `records`, and its output.
fn match_with(rules: &[&str], records: &std::path::Path) -> String {
    let mut args = vec![
        "match", "--p1", "easy", "--p2", "medium", "--games", "2", "--seed", "3",
    ];
    args.extend_from_slice(rules);
    let records = records.to_str().unwrap();
    args.extend_from_slice(&["--records", records]);
    let (ok, out, err) = spec::run_binary(&args, "");
    assert!(ok, "{args:?}: {err}");
    out
}

#[test]
fn a_shipped_games_file_plays_exactly_as_its_key_and_an_edited_field_is_obeyed() {
    for key in ["kalah", "oware", "togyzkumalak"] {
        let (ok, text, err) = spec::run_binary(&["variants", "show", key], "");
        assert!(ok, "{err}");
        let file = temp_file("same", &format!("{key}.toml"));
        std::fs::write(&file, &text).unwrap();
        let by_key = temp_file("same", &format!("{key}-by-key.txt"));
        let by_file = temp_file("same", &format!("{key}-by-file.txt"));
        let out_key = match_with(&["--variant", key], &by_key);
        let out_file = match_with(&["--rules", file.to_str().unwrap()], &by_file);
        assert_eq!(out_key, out_file, "{key}");
        let (a, b) = (
            std::fs::read_to_string(&by_key).unwrap(),
            std::fs::read_to_string(&by_file).unwrap(),
        );
        assert_eq!(a, b, "{key}: the records differ");
    }
    // Six seeds a house instead of four: the records say so, and the game is another.
    let (_, text, _) = spec::run_binary(&["variants", "show", "oware"], "");
    let edited = text.replacen("seeds = 4", "seeds = 6", 1);
    assert_ne!(edited, text, "the shipped file sets its seeds");
    let file = temp_file("edited", "oware6.toml");
    std::fs::write(&file, edited).unwrap();
    let records = temp_file("edited", "records.txt");
    match_with(&["--rules", file.to_str().unwrap()], &records);
    let records = std::fs::read_to_string(&records).unwrap();
    assert!(records.contains("[Seeds \"6\"]"), "{records}");
}

#[test]
fn a_game_of_ones_own_is_played_and_its_records_carry_its_description() {
    let (_, text, _) = spec::run_binary(&["variants", "show", "oware"], "");
    let own = text
        .replacen("key = \"oware\"", "key = \"oware-no-feeding\"", 1)
        .replacen("must_feed = true", "must_feed = false", 1);
    assert!(
        own.contains("oware-no-feeding") && own.contains("must_feed = false"),
        "{own}"
    );
    let file = temp_file("own", "own.toml");
    std::fs::write(&file, own).unwrap();
    let records = temp_file("own", "records.txt");
    match_with(&["--rules", file.to_str().unwrap()], &records);
    let written = std::fs::read_to_string(&records).unwrap();
    assert!(
        written.contains("[Variant \"oware-no-feeding\"]"),
        "{written}"
    );
    assert!(
        written.contains("[Rules \"{"),
        "the description travels with the record:\n{written}"
    );
    // The record replays anywhere, with no file of rules at hand.
    let (ok, out, err) = spec::run_binary(
        &[
            "replay",
            "--record",
            records.to_str().unwrap(),
            "--game",
            "1",
        ],
        "",
    );
    assert!(ok, "{err}");
    let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["over"], true, "{out}");
    let scores = &last["result"]["scores"];
    assert_eq!(
        scores[0].as_u64().unwrap() + scores[1].as_u64().unwrap(),
        48,
        "{out}"
    );
}

#[test]
fn a_broken_rules_file_exits_2_naming_the_file_and_the_field() {
    let (_, text, _) = spec::run_binary(&["variants", "show", "oware"], "");
    let file = temp_file("broken", "broken.toml");
    std::fs::write(&file, text.replacen("seeds = 4", "seeds = \"four\"", 1)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "match", "--p1", "easy", "--p2", "easy", "--games", "1", "--rules",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("broken.toml") && err.contains("board.seeds"),
        "{err}"
    );
    // A file that is no game at all, and one that cannot be read.
    std::fs::write(&file, "format = 1\nkey = \"x\"\n").unwrap();
    let (ok, _, err) = spec::run_binary(
        &["perft", "--rules", file.to_str().unwrap(), "--depth", "1"],
        "",
    );
    assert!(!ok && err.contains("broken.toml"), "{err}");
    let (ok, _, err) = spec::run_binary(
        &["perft", "--rules", "/nonexistent/x.toml", "--depth", "1"],
        "",
    );
    assert!(
        !ok && err.contains("cannot read /nonexistent/x.toml"),
        "{err}"
    );
}

#[test]
fn variants_finds_a_game_by_any_name_without_accents_and_filters_by_mechanic() {
    let (ok, out, err) = spec::run_binary(&["variants", "--find", "unee"], "");
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().filter(|l| l.contains("Ünee")).count(),
        1,
        "{out}"
    );
    assert!(!out.contains("Kalah"), "{out}");
    let (ok, out, err) =
        spec::run_binary(&["variants", "--json", "--mechanic", "relay sowing"], "");
    assert!(ok, "{err}");
    let games: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert!(games.len() >= 3, "{out}");
    for g in &games {
        let mechanics = g["mechanics"].as_array().unwrap();
        assert!(mechanics.iter().any(|m| m == "relay sowing"), "{g}");
        assert!(!g["region"].as_str().unwrap().is_empty(), "{g}");
    }
    let keys: Vec<&str> = games.iter().map(|g| g["key"].as_str().unwrap()).collect();
    assert!(
        keys.contains(&"ayoayo") && !keys.contains(&"kalah"),
        "{keys:?}"
    );
    let (ok, _, err) = spec::run_binary(&["variants", "--mechanic", "juggling"], "");
    assert!(
        !ok && err.contains("the mechanics are: extra turns"),
        "{err}"
    );
    let (ok, _, err) = spec::run_binary(&["variants", "--find", "no such game"], "");
    assert!(!ok && err.contains("no game matches"), "{err}");
}
