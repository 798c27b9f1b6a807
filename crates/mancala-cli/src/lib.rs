//! Command-line arguments shared by several subcommands of the `mancala` binary and its
//! benchmarks (`mancala-bench`): the rules of a game, its start (a position or a game of
//! a record), and what the system offers (memory for tables).

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use mancala_core::description::Description;
use mancala_core::{Game, MAX_HOUSES, MAX_SEEDS, NotationError, Position, Rules, Variant};
use mancala_session::{Record, RuleChoice, parse_records};

mod options;

pub use options::{OptionArgs, RULE_OPTIONS};

/// The board and rule options: `--variant` or `--rules FILE`, `--houses`, `--seeds`,
/// and a flag for each rule option ([`OptionArgs`]).
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    // These three have no doc comment: clap would read it as their help, which is made
    // from the variants instead (`variant_help`, `default_help`).
    #[allow(missing_docs)]
    #[arg(long, default_value = "kalah", value_name = "VARIANT", help = variant_help())]
    pub variant: Variant,

    /// Play the game described in this file instead of a --variant (see
    /// docs/rules-format.md; `mancala variants show KEY` prints one to start from);
    /// --houses and --seeds change its board
    #[arg(
        long = "rules",
        value_name = "FILE",
        conflicts_with_all = ["variant", RULE_OPTIONS],
    )]
    pub rules_file: Option<PathBuf>,

    #[allow(missing_docs)]
    #[arg(
        long,
        help = default_help("Houses per side", |v| v.info().default_houses),
        value_parser = clap::value_parser!(u8).range(1..=MAX_HOUSES as i64),
    )]
    pub houses: Option<u8>,

    #[allow(missing_docs)]
    #[arg(
        long,
        help = default_help("Seeds per house at the start", |v| v.info().default_seeds),
        value_parser = clap::value_parser!(u8).range(1..=MAX_SEEDS as i64),
    )]
    pub seeds: Option<u8>,

    /// The rule options given.
    #[command(flatten)]
    pub options: OptionArgs,
}

/// The help of `--variant`: every variant's key and name, from the variants themselves
/// (every subcommand that takes a variant says it so).
pub fn variant_help() -> String {
    let names: Vec<String> = Variant::catalogue()
        .iter()
        .map(|v| format!("{} ({})", v.name(), v.info().name))
        .collect();
    format!(
        "Game to play: {} (`mancala variants` lists them with their sources)",
        names.join(", ")
    )
}

/// The help of the rule option `key`: what it does and its values, from the first
/// game that takes it, then the games that take it, from the catalogue.
///
/// ```
/// let help = mancala_cli::option_help("empty-capture");
/// assert!(help.starts_with("A last seed in an own empty house captures"), "{help}");
/// assert!(help.ends_with("(taken by kalah)"), "{help}");
/// assert_eq!(mancala_cli::option_help("nonesuch"), "Rule option nonesuch (no game takes it)");
/// ```
#[must_use]
pub fn option_help(key: &str) -> String {
    let takers: Vec<&Variant> = Variant::catalogue()
        .iter()
        .filter(|v| v.info().takes_option(key))
        .collect();
    let Some(option) = takers
        .first()
        .and_then(|v| v.info().options.iter().find(|o| o.key == key))
    else {
        return format!("Rule option {key} (no game takes it)");
    };
    let keys: Vec<String> = takers.iter().map(|v| v.to_string()).collect();
    let values = if option.values == ["off", "on"] {
        String::new()
    } else {
        format!(": {}", option.values.join(" or "))
    };
    format!(
        "{}{values} (taken by {})",
        capitalised(option.summary),
        keys.join(", ")
    )
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The help of `--p1` or `--p2` (`seat` 1 or 2) where a person or one of the suite's
/// computer players may sit: the players the menus offer, from the engine's catalogue,
/// and `extra` (what else the seat takes, or its default).
pub fn player_help(seat: u8, extra: &str) -> String {
    let names: Vec<&str> = mancala_engine::PlayerInfo::ALL
        .iter()
        .filter(|p| p.in_menus)
        .map(|p| p.name)
        .collect();
    format!(
        "Player {seat}: human, or a computer player: {} (robot plays only games with extra \
         turns){extra}",
        names.join(", ")
    )
}

/// The help of a board option whose default is the variant's, e.g. "Houses per side
/// (default: 6; togyzkumalak 9)": the most common default, then the others.
pub fn default_help(what: &str, default: fn(Variant) -> u8) -> String {
    let common = Variant::ALL[0];
    let others: Vec<String> = Variant::catalogue()
        .iter()
        .filter(|&&v| default(v) != default(common))
        .map(|&v| format!("{v} {}", default(v)))
        .collect();
    if others.is_empty() {
        format!("{what} (default: {})", default(common))
    } else {
        format!(
            "{what} (default: {}; {})",
            default(common),
            others.join(", ")
        )
    }
}

impl RulesArgs {
    /// The rules these arguments describe: the board the variant plays by default
    /// unless `--houses` or `--seeds` say otherwise.
    ///
    /// # Errors
    /// When a rule option is given for a variant that does not take it.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        if let Some(path) = &self.rules_file {
            return rules_from_file(path, self.houses, self.seeds);
        }
        let info = self.variant.info();
        let houses = self.houses.unwrap_or(info.default_houses);
        let seeds = self.seeds.unwrap_or(info.default_seeds);
        let rules = self
            .options
            .apply(RuleChoice::new(self.variant, houses, seeds))
            .rules()?;
        Ok(rules)
    }
}

/// The rules of the game described in the file at `path` ("-": standard input), on
/// its own board unless `houses` or `seeds` say otherwise.
///
/// # Errors
/// When the file cannot be read, or the description is refused (the message names
/// the file, the field and why), or the board is out of the game's range.
pub fn rules_from_file(
    path: &Path,
    houses: Option<u8>,
    seeds: Option<u8>,
) -> anyhow::Result<Rules> {
    let text = read_text(path)?;
    let mut description = Description::from_toml(&text, &path.display().to_string())?;
    description.board.houses = houses.unwrap_or(description.board.houses);
    description.board.seeds = seeds.unwrap_or(description.board.seeds);
    Rules::from_description(description).with_context(|| path.display().to_string())
}

/// Where a command starts: `--position` (a position in notation), or `--record` (the
/// end of a recorded game, its moves kept as history) with `--game`; else the start
/// of the rules of [`RulesArgs`], which are also the rules of a record without tags.
#[derive(Args, Clone, Debug)]
pub struct StartArgs {
    /// Start from this position, in position notation, which names its rules (see
    /// docs/records.md), e.g. "kalah 6x4 4,4,0,5,5,5/1 4,4,4,4,4,4/0 1"
    #[arg(
        long,
        value_name = "NOTATION",
        value_parser = parse_position,
        conflicts_with_all = ["record", "variant", "houses", "seeds", RULE_OPTIONS],
    )]
    pub position: Option<Position>,

    /// Start from the end of the game in this record file ("-" for standard input);
    /// the rule options above are the rules of a record without tags
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,

    /// Which game of the record file, from 1 (needed when it holds several)
    #[arg(long, value_name = "N", requires = "record", value_parser = clap::value_parser!(u32).range(1..))]
    pub game: Option<u32>,
}

fn parse_position(text: &str) -> Result<Position, NotationError> {
    Position::from_notation(text)
}

impl StartArgs {
    /// The game to start from: the position given (no history), the recorded game
    /// (its moves played), or the start of `rules`.
    ///
    /// # Errors
    /// When the record file cannot be read, holds a bad game, or holds several games
    /// and `--game` does not choose one that is there.
    pub fn game(&self, rules: &RulesArgs) -> anyhow::Result<Game> {
        if let Some(start) = self.position {
            return Ok(Game::from_position(start));
        }
        let Some(path) = &self.record else {
            return Ok(Game::new(rules.rules()?));
        };
        let records = read_records(path, rules.rules()?)?;
        let chosen = match (self.game, records.len()) {
            (None, 1) => 1,
            (None, n) => {
                anyhow::bail!("{} holds {n} games; choose one with --game", path.display())
            }
            (Some(g), n) if g as usize > n => anyhow::bail!(
                "{} holds {n} game{}; there is no game {g}",
                path.display(),
                if n == 1 { "" } else { "s" }
            ),
            (Some(g), _) => g as usize,
        };
        Ok(records[chosen - 1].game().clone())
    }
}

/// Reads every game of a record file ("-": standard input), untagged games under
/// `defaults`.
///
/// # Errors
/// When the file cannot be read or any game in it is bad (nothing is returned then).
pub fn read_records(path: &Path, defaults: Rules) -> anyhow::Result<Vec<Record>> {
    let text = read_text(path)?;
    parse_records(&text, defaults).with_context(|| path.display().to_string())
}

/// The text of the file at `path`, or of standard input for "-".
///
/// # Errors
/// When it cannot be read, naming it.
fn read_text(path: &Path) -> anyhow::Result<String> {
    if path == Path::new("-") {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    }
}

/// Memory the system says is available (Linux `/proc/meminfo`), in bytes; `None` where
/// it does not say.
#[must_use]
pub fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}
