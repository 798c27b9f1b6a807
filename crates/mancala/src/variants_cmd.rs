//! `mancala variants`: the games the program plays, from their descriptions.

use std::io::Write;

use clap::{Args, Subcommand};
use mancala_core::description::{Description, Mechanic};
use serde::Serialize;

/// Arguments of `mancala variants`.
#[derive(Args, Debug)]
pub struct VariantsArgs {
    #[command(subcommand)]
    what: Option<VariantsCommand>,

    /// Print every game as JSON (key, name, aliases, region, mechanics, sources, summary
    /// and the description) instead of a table
    #[arg(long)]
    json: bool,

    /// Only the games whose key, name, other names or region hold every word of this,
    /// ignoring case and accents (e.g. "ayo", "kazakh", "unee")
    #[arg(long, value_name = "WORDS")]
    find: Option<String>,

    /// Only the games using this mechanic
    #[arg(long, value_name = "MECHANIC", value_parser = parse_mechanic)]
    mechanic: Option<Mechanic>,
}

fn parse_mechanic(text: &str) -> Result<Mechanic, String> {
    let wanted = text.trim().to_lowercase().replace('-', " ");
    Mechanic::ALL
        .into_iter()
        .find(|m| m.words() == wanted)
        .ok_or_else(|| {
            let all: Vec<&str> = Mechanic::ALL.iter().map(|m| m.words()).collect();
            format!("the mechanics are: {}", all.join(", "))
        })
}

#[derive(Subcommand, Debug)]
enum VariantsCommand {
    /// Print a game's description file (TOML), e.g. to change a rule and play it
    Show {
        /// The game's key, as listed by `mancala variants`
        key: String,
    },
}

/// One game in `--json`: what it is, with its whole description.
#[derive(Serialize)]
struct GameEntry<'a> {
    key: &'a str,
    name: &'a str,
    aliases: &'a [String],
    region: &'a str,
    mechanics: Vec<&'static str>,
    sources: Vec<&'a str>,
    summary: &'a str,
    description: &'a Description,
}

/// Prints the table, the JSON list or one game's file.
pub fn run(args: &VariantsArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let games = Description::builtins();
    if let Some(VariantsCommand::Show { key }) = &args.what {
        let Some(text) = Description::builtin_text(key) else {
            let keys: Vec<&str> = games.iter().map(|d| d.key.as_str()).collect();
            anyhow::bail!(
                "there is no game {key:?}; the games are {}",
                keys.join(", ")
            );
        };
        out.write_all(text.as_bytes())?;
        return Ok(());
    }
    let games: Vec<Description> = games
        .into_iter()
        .filter(|d| args.find.as_deref().is_none_or(|q| d.matches(q)))
        .filter(|d| args.mechanic.is_none_or(|m| d.mechanics().contains(&m)))
        .collect();
    if games.is_empty() {
        anyhow::bail!("no game matches; `mancala variants` lists them all");
    }
    if args.json {
        let entries: Vec<GameEntry> = games
            .iter()
            .map(|d| GameEntry {
                key: &d.key,
                name: &d.name,
                aliases: &d.aliases,
                region: &d.region,
                mechanics: d.mechanics().iter().map(|m| m.words()).collect(),
                sources: d.sources.iter().map(|s| s.cite.as_str()).collect(),
                summary: &d.summary,
                description: d,
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &entries)?;
        writeln!(out)?;
        return Ok(());
    }
    print_table(&games, out)
}

/// One line a game: key, name, the standard board and the summary.
fn print_table(games: &[Description], out: &mut impl Write) -> anyhow::Result<()> {
    let key_width = games.iter().map(|d| d.key.len()).max().unwrap_or(0);
    let name_width = games
        .iter()
        .map(|d| d.name.chars().count())
        .max()
        .unwrap_or(0);
    for d in games {
        let board = format!("{}x{}", d.board.houses, d.board.seeds);
        writeln!(
            out,
            "{:key_width$}  {:name_width$}  {board:>5}  {}",
            d.key, d.name, d.summary
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "`mancala variants show KEY` prints a game's description; docs/rules-format.md explains it."
    )?;
    Ok(())
}
