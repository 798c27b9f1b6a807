//! `mancala tui` refuses bad settings before it takes the screen, with exit status 2
//! and a message naming the players it knows, as `mancala console` does. No terminal
//! is needed: settings are checked first.

use std::process::{Command, Stdio};

/// Runs `mancala <args>` with no terminal; returns the exit status and standard error.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_unknown_player_is_refused_with_the_known_ones() {
    let (code, out, err) = run(&["tui", "--p2", "bogus"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--p2: unknown player \"bogus\" (players for kalah: human, easy"),
        "{err}"
    );
    for known in ["greedy", "medium", "perfect", "robot"] {
        assert!(err.contains(known), "{known} missing from {err}");
    }
    assert!(!err.contains("needs a terminal"), "{err}");
}

#[test]
fn a_player_that_cannot_play_the_variant_is_refused() {
    let (code, _, err) = run(&["tui", "--variant", "oware", "--p2", "robot"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--p2: player robot does not play oware"),
        "{err}"
    );
    assert!(err.contains("(players for oware: human, easy"), "{err}");
    let players = err.split("(players for oware: ").nth(1).unwrap_or_default();
    assert!(
        players.contains("greedy") && !players.contains("robot"),
        "only the players of oware are listed: {err}"
    );
    let (code, _, err) = run(&["tui", "--p1", "random:depth=3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--p1: player random"), "{err}");
}

#[test]
fn good_settings_get_as_far_as_the_terminal_check() {
    let (code, _, err) = run(&["tui", "--variant", "oware", "--p2", "greedy"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs a terminal"), "{err}");
    let (code, _, err) = run(&["tui", "--variant", "togyzkumalak", "--p2", "expert"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs a terminal"), "{err}");
}

/// A rule option for a variant that does not take it is refused in the session's
/// words, the same as the console's and every other front end's.
#[test]
fn a_rule_option_the_variant_does_not_take_is_refused_as_everywhere() {
    let (code, _, err) = run(&["tui", "--variant", "togyzkumalak", "--empty-capture"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        "error: togyzkumalak takes no rule options; empty-capture is a Kalah option\n"
    );
    let (code, _, err) = run(&[
        "tui",
        "--variant",
        "oware",
        "--end-rule",
        "either-side-empty",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("oware takes no rule options; end-rule is a Kalah option"),
        "{err}"
    );
    let (code, _, err) = run(&["tui", "--variant", "togyzkumalak", "--p2", "robot"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--p2: player robot does not play togyzkumalak"),
        "{err}"
    );
}

#[test]
fn a_load_file_that_is_missing_or_bad_is_refused() {
    let (code, _, err) = run(&["tui", "--load", "/nonexistent/game.txt"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot read /nonexistent/game.txt"), "{err}");
    let dir = std::env::temp_dir().join(format!("mancala-tui-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "1. 3 3 *\n").unwrap();
    let (code, _, err) = run(&["tui", "--load", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("empty"), "an illegal move is reported: {err}");
    let (code, _, err) = run(&["tui", "--load", bad.to_str().unwrap(), "--variant", "oware"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_external_engine_is_started_once_before_the_terminal_is_taken() {
    let (code, out, err) = run(&["tui", "--p2", "ext:/nonexistent/engine --level 3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--p2: external engine ext:/nonexistent/engine --level 3: cannot start"),
        "{err}"
    );
    assert!(!err.contains("needs a terminal"), "{err}");
    let (code, _, err) = run(&["tui", "--p1", "ext:"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("expected ext:COMMAND"), "{err}");
    // An engine that greets is accepted; then the terminal is needed.
    let engine =
        "ext:sh -c 'while read -r l; do case \"$l\" in protocol*) echo ready;; esac; done'";
    let (code, _, err) = run(&["tui", "--p2", engine]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn a_saved_game_with_an_external_engine_loads_with_the_fallback_player() {
    let dir = std::env::temp_dir().join(format!("mancala-tui-ext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(
        &file,
        "[Variant \"kalah\"]\n[Player1 \"Ann\"]\n[Player1Kind \"human\"]\n\
         [Player2 \"Ext bot\"]\n[Player2Kind \"ext\"]\n[Result \"*\"]\n\n1. 1 6 *\n",
    )
    .unwrap();
    let (code, _, err) = run(&["tui", "--load", file.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("needs a terminal"),
        "accepted, then the terminal: {err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_without_a_game_says_so_rather_than_asking_to_choose() {
    let dir = std::env::temp_dir().join(format!("mancala-empty-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let (code, _, err) = run(&["tui", "--load", empty.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("holds no game to load"), "{err}");
    assert!(!err.contains("--game"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_help_texts_agree_across_subcommands() {
    let help = |args: &[&str]| run(args).1;
    let top = help(&["--help"]);
    assert!(top.contains("Togyz Kumalak"), "{top}");
    let (tui, console) = (help(&["tui", "--help"]), help(&["console", "--help"]));
    // --variant and the players are listed the same way, from one place.
    let line = |text: &str, start: &str| {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let at = flat
            .find(start)
            .unwrap_or_else(|| panic!("{start} in {text}"));
        let text = flat[at..].split(" --").next().unwrap();
        text.split(" [default").next().unwrap().to_owned()
    };
    assert_eq!(line(&tui, "Game to play:"), line(&console, "Game to play:"));
    let players = "human, or a computer player: easy, medium, hard, expert, master, perfect";
    assert!(line(&tui, "Player 1:").contains(players), "{tui}");
    assert!(line(&console, "Player 1:").contains(players), "{console}");
    // Both no-terminal errors are one.
    let (_, _, plain) = run(&[]);
    let (_, _, tui_err) = run(&["tui"]);
    assert_eq!(plain, tui_err);
}
