//! `docs/games.md` is generated from the catalogue (`crates/mancala-core/games/`): this
//! test fails when the page is not what the catalogue gives, and writes it afresh when
//! run with `UPDATE_GAMES_DOC=1`:
//!
//! ```text
//! UPDATE_GAMES_DOC=1 cargo test -p mancala-core --test games_doc
//! ```

use std::fmt::Write as _;
use std::path::PathBuf;

use mancala_core::description::{
    Capture, CaptureKind, Description, Direction, First, GrandSlam, Leftover, NoMove, Relay, Row,
    Taker, Timing,
};

fn page_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/games.md")
}

/// The whole page.
fn page(games: &[Description]) -> String {
    let mut out = String::from(
        "# The games\n\n\
         <!-- Generated from crates/mancala-core/games/*.toml by \
         crates/mancala-core/tests/games_doc.rs: do not edit by hand. -->\n\n\
         Every game the suite ships, one description file each in \
         [`crates/mancala-core/games/`](../crates/mancala-core/games/) (the format: \
         [rules-format.md](rules-format.md)). `mancala variants` lists them and \
         `mancala variants show KEY` prints a game's file (`--find` and `--mechanic` find \
         one). Every front end plays every game here, by `--variant KEY` (the terminal \
         game's start screen finds one with `/`), the web's new-game form and the Python \
         package's `Game(KEY)`; four also have a hand-tuned rule set (Kalah, Oware, \
         simplified Oware, Togyz Kumalak), the others are played by the description engine \
         (`Described`). Each has a worked example of its source's rules \
         (`crates/mancala-core/tests/catalogue/`) and random games checked against the \
         referee's separate reading of the same file (`tests/described_referee.rs`). This \
         page is generated from the \
         files; after changing or adding one, regenerate it with\n\n\
         ```sh\nUPDATE_GAMES_DOC=1 cargo test -p mancala-core --test games_doc\n```\n\n\
         Each game says where its rules come from. A book page is given only where the \
         page that was read gives it (\"as cited by\"), and a note says which reading the \
         file takes where the sources disagree or the format cannot say what a source \
         says.\n\n",
    );
    let _ = writeln!(out, "| key | name | where | board |\n|---|---|---|---|");
    for d in games {
        let _ = writeln!(
            out,
            "| [`{}`](#{}) | {} | {} | {}x{} |",
            d.key, d.key, d.name, d.region, d.board.houses, d.board.seeds
        );
    }
    for d in games {
        out.push('\n');
        section(&mut out, d);
    }
    out
}

/// One game's section: names, region, summary, start diagram, rules at a glance, the
/// rules in words and the sources.
fn section(out: &mut String, d: &Description) {
    let _ = writeln!(
        out,
        "<a id=\"{}\"></a>\n## {} (`{}`)\n",
        d.key, d.name, d.key
    );
    if !d.aliases.is_empty() {
        let _ = writeln!(out, "Also called: {}.  ", d.aliases.join(", "));
    }
    let _ = writeln!(out, "Where: {}.\n\n{}\n", d.region, d.summary);
    let _ = writeln!(out, "```text\n{}```\n", start_diagram(d));
    let _ = writeln!(out, "At a glance: {}\n", glance(d));
    let _ = writeln!(out, "{}\n", d.rules.trim());
    let _ = writeln!(out, "Sources:\n");
    for source in &d.sources {
        if source.note.is_empty() {
            let _ = writeln!(out, "- {}", source.cite);
        } else {
            let _ = writeln!(out, "- {}. {}", source.cite, source.note);
        }
    }
}

/// The board at the start: player 2's row on top (their house 1 at the right), player
/// 1's row below, and the stores at the ends where the game has them.
fn start_diagram(d: &Description) -> String {
    let houses = usize::from(d.board.houses);
    let counts: Vec<u8> = if d.board.start.is_empty() {
        vec![d.board.seeds; houses]
    } else {
        d.board.start.clone()
    };
    let south: String = counts.iter().map(|n| format!("{n:>4}")).collect();
    let north: String = counts.iter().rev().map(|n| format!("{n:>4}")).collect();
    let store = if d.board.stores { "   0" } else { "    " };
    let middle = format!("{store}{}{store}", " ".repeat(4 * houses + 2));
    format!(
        "      {north}   player 2\n{}\n      {south}   player 1\n",
        middle.trim_end()
    )
}

/// The description's rules in a line: board, sowing, turn, captures and end.
fn glance(d: &Description) -> String {
    let seeds = if d.board.start.is_empty() {
        let plural = if d.board.seeds == 1 { "" } else { "s" };
        format!("{} seed{plural}", d.board.seeds)
    } else {
        "the seeds shown".into()
    };
    let mut parts = vec![format!(
        "{} houses a side of {seeds}{}",
        d.board.houses,
        if d.board.stores { ", two stores" } else { "" }
    )];
    parts.push(sowing_words(d));
    if d.turn.extra_turn {
        parts.push("ending in the store moves again".into());
    }
    if d.turn.must_feed {
        parts.push("an opponent with no seeds must be fed".into());
    }
    if d.turn.no_move == NoMove::Pass {
        parts.push("a player with no move is passed over".into());
    }
    parts.extend(d.capture.iter().map(capture_words));
    if let Some(claim) = &d.claim {
        parts.push(format!(
            "a house made {} is claimed ({})",
            claim.count, claim.word
        ));
    }
    if d.end.majority {
        parts.push("more than half of the seeds wins".into());
    }
    parts.push(
        match d.end.leftover {
            Leftover::OwnRow => "seeds left go to the row's owner",
            Leftover::OwnRowUnlessDecided => "seeds left go to the row's owner unless decided",
            Leftover::Nobody => "seeds left count for nobody",
        }
        .into(),
    );
    if d.end.repetition {
        parts.push("a repeated position ends the game".into());
    }
    parts.join("; ") + "."
}

/// The sowing in words: direction, laps and where it starts and passes.
fn sowing_words(d: &Description) -> String {
    let direction = match d.sowing.direction {
        Direction::Anticlockwise => "anticlockwise",
        Direction::Clockwise => "clockwise",
        Direction::ByCount => "in the direction its count sets (odd clockwise, even anticlockwise)",
    };
    let mut words = match d.sowing.relay {
        Relay::None => format!("single-lap sowing {direction}"),
        Relay::Last => {
            format!("relay sowing {direction}, on from a house the last seed found full")
        }
        Relay::Next => format!("relay sowing {direction}, on from the house after the last"),
    };
    if d.sowing.first == First::Origin {
        words.push_str(", starting in the emptied house");
    }
    if d.sowing.skip_origin {
        words.push_str(", passing over the emptied house");
    }
    if d.sowing.own_store {
        words.push_str(", through the mover's store");
    }
    if d.sowing.max_laps > 0 {
        words.push_str(&format!(", at most {} laps a move", d.sowing.max_laps));
    }
    words
}

fn capture_words(c: &Capture) -> String {
    match c.kind {
        CaptureKind::Across => return "a last seed in an own empty house captures across".into(),
        CaptureKind::Next => {
            let facing = if c.facing {
                " and the house facing it"
            } else {
                ""
            };
            return format!(
                "a last seed before an empty house captures the house after it{facing}"
            );
        }
        CaptureKind::Count => {}
    }
    let mut counts: Vec<String> = c.counts.iter().map(u16::to_string).collect();
    if c.even {
        counts.push("any even count".into());
    }
    let row = match c.row {
        Row::Opponent => "the opponent's row",
        Row::Own => "the mover's row",
        Row::Either => "either row",
    };
    let when = match c.timing {
        Timing::Last => "the last seed",
        Timing::EachSeed => "each seed",
    };
    let mut words = format!("{when} making {} on {row} captures", or_list(&counts));
    if c.run {
        words.push_str(", with the run before it");
    }
    if c.grand_slam == GrandSlam::NoCapture {
        words.push_str(" (but a capture of a whole row takes nothing)");
    }
    if c.by == Taker::Owner {
        words.push_str(" for the row's owner");
    }
    words
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[test]
fn the_games_page_is_generated_from_the_catalogue() {
    let expected = page(&Description::builtins());
    let path = page_path();
    if std::env::var_os("UPDATE_GAMES_DOC").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == expected,
        "docs/games.md is stale: regenerate it with \
         UPDATE_GAMES_DOC=1 cargo test -p mancala-core --test games_doc"
    );
}
