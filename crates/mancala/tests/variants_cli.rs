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
