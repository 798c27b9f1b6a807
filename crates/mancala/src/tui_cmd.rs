//! `mancala tui` (and `mancala` with no subcommand): the full-screen terminal game.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use mancala_core::{MAX_HOUSES, MAX_SEEDS, Rules, Variant};
use mancala_match::Contestant;
use mancala_session::{Record, RuleChoice, Seat};
use mancala_tui::{App, Ended, Setup, default_name};

use mancala_cli::{
    OptionArgs, RULE_OPTIONS, default_help, player_help, read_records, rules_from_file,
    variant_help,
};

/// Arguments of `mancala tui`. Any of them skips the start screen; the others keep
/// their defaults (Kalah on the variant's board, a person against `medium`; see
/// `--p2`).
#[derive(Args, Debug, Default)]
pub struct TuiArgs {
    #[arg(long, value_name = "VARIANT", help = variant_help())]
    variant: Option<Variant>,

    /// Play the game described in this file instead of a --variant (see
    /// docs/rules-format.md; `mancala variants show KEY` prints one to start from)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", RULE_OPTIONS])]
    rules: Option<PathBuf>,

    #[arg(
        long,
        value_parser = clap::value_parser!(u8).range(1..=MAX_HOUSES as i64),
        help = default_help("Houses per side", |v| v.info().default_houses),
    )]
    houses: Option<u8>,

    #[arg(
        long,
        value_parser = clap::value_parser!(u8).range(1..=MAX_SEEDS as i64),
        help = default_help("Seeds per house at the start", |v| v.info().default_seeds),
    )]
    seeds: Option<u8>,

    #[command(flatten)]
    options: OptionArgs,

    #[arg(long, value_name = "PLAYER", help = player_help(1, EXT_HELP))]
    p1: Option<Contestant>,

    #[arg(long, value_name = "PLAYER", help = player_help(2, P2_HELP))]
    p2: Option<Contestant>,

    /// Player 1's name (empty: "Player 1", or the computer player's name)
    #[arg(long)]
    name1: Option<String>,

    /// Player 2's name (empty: "Player 2", or the computer player's name)
    #[arg(long)]
    name2: Option<String>,

    /// Seed for the computer players' random choices [default: from the clock, so that
    /// each game differs: `--seed 1` plays as the console does by default]
    #[arg(long)]
    seed: Option<u64>,

    /// Go on with (or, if it is over, review) the game in this record file, as saved
    /// by `w` in the game; its players and names come with it
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["variant", "rules", "houses", "seeds", RULE_OPTIONS, "p1", "p2", "name1", "name2"],
    )]
    load: Option<PathBuf>,

    /// Which game of the record file, from 1 (needed when it holds several)
    #[arg(long, value_name = "N", requires = "load", value_parser = clap::value_parser!(u32).range(1..))]
    game: Option<u32>,
}

impl TuiArgs {
    /// Whether any game setting was given, so the start screen is skipped.
    fn any_setting(&self) -> bool {
        self.variant.is_some()
            || self.rules.is_some()
            || self.houses.is_some()
            || self.seeds.is_some()
            || !self.options.is_empty()
            || self.p1.is_some()
            || self.p2.is_some()
            || self.name1.is_some()
            || self.name2.is_some()
    }

    fn setup(&self) -> anyhow::Result<Setup> {
        let variant = match &self.rules {
            Some(path) => Some(rules_from_file(path, self.houses, self.seeds)?.variant()),
            None => self.variant,
        };
        let mut s = variant.map_or_else(Setup::default, Setup::for_variant);
        s.houses = self.houses.unwrap_or(s.houses);
        s.seeds = self.seeds.unwrap_or(s.seeds);
        // The rule options go through the session's one check, which says which
        // variants take an option given for one that does not.
        let rules = self
            .options
            .apply(RuleChoice::new(s.variant, s.houses, s.seeds))
            .rules()?;
        s.options = rules.options();
        // Someone plays at the board: when player 1 is a computer, or player 2 is
        // given a name, player 2 is the person, unless --p2 says otherwise.
        let p1_computer = self.p1.as_ref().is_some_and(|p| !p.is_human());
        if self.p2.is_none() && (p1_computer || self.name2.is_some()) {
            s.players[1] = Seat::HUMAN.to_owned();
        }
        for (i, (spec, name)) in [(&self.p1, &self.name1), (&self.p2, &self.name2)]
            .into_iter()
            .enumerate()
        {
            if let Some(spec) = spec {
                s.players[i] = spec.to_string();
            }
            // An empty name becomes the default one when the game starts.
            s.names[i] = match name {
                Some(n) => n.clone(),
                None => default_name(i, &s.players[i]),
            };
        }
        s.seed = self.seed();
        check_players(&s, s.rules()?)?;
        Ok(s)
    }

    fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        })
    }

    /// The game of `--load`, checked: the file read, the game chosen, its players
    /// ones this build can seat.
    fn loaded(&self, path: &Path) -> anyhow::Result<Record> {
        let mut records = read_records(path, Rules::kalah(6, 4))?;
        let n = records.len();
        let chosen = match (self.game, n) {
            (_, 0) => anyhow::bail!("{} holds no game to load", path.display()),
            (None, 1) => 1,
            (None, _) => {
                anyhow::bail!("{} holds {n} games; choose one with --game", path.display())
            }
            (Some(g), _) if g as usize > n => anyhow::bail!(
                "{} holds {n} game{}; there is no game {g}",
                path.display(),
                if n == 1 { "" } else { "s" }
            ),
            (Some(g), _) => g as usize,
        };
        let record = records.swap_remove(chosen - 1);
        let mut setup = Setup::of_record(&record, 0);
        // A seat an external engine played is saved as `ext` (a record has no place for
        // its command): the game goes on with the fallback player, which the game says.
        for spec in &mut setup.players {
            if spec == mancala_tui::EXTERNAL_SEAT {
                mancala_tui::FALLBACK_PLAYER.clone_into(spec);
            }
        }
        check_players(&setup, record.rules())?;
        Ok(record)
    }
}

/// Refuses a player named on the command line that cannot play `rules`, as the
/// console does: a game against a stand-in nobody asked for is worse than a clear
/// error. (The start screen offers only players it can build, and says when one
/// cannot play the chosen variant.)
///
/// An external engine (`ext:COMMAND`) is started and greeted once here, so that one
/// that cannot start is an error before the terminal is taken, not a stand-in; the
/// game starts it again (a fresh engine for every game, as in `mancala match`).
fn check_players(s: &Setup, rules: Rules) -> anyhow::Result<()> {
    for (i, spec) in s.players.iter().enumerate() {
        let flag = i + 1;
        if mancala_tui::is_external(spec) {
            let contestant: Contestant = spec
                .parse()
                .map_err(|e| anyhow::anyhow!("--p{flag}: {e}"))?;
            contestant
                .seat(rules, s.seed)
                .map_err(|e| anyhow::anyhow!("--p{flag}: {e}"))?;
            continue;
        }
        let seat = Seat::computer(spec).map_err(|e| anyhow::anyhow!("--p{flag}: {e}"))?;
        // The session's message lists the players these rules can seat, as the start
        // screen offers them and the console lists them.
        seat.check(rules, s.seed)
            .map_err(|e| anyhow::anyhow!("--p{flag}: {e}"))?;
    }
    Ok(())
}

/// What the terminal game starts with.
enum Start {
    /// The start screen, or a game with these settings.
    Setup(Setup),
    /// A recorded game.
    Load(Box<Record>),
}

/// Runs `mancala tui`.
///
/// Bad settings are refused first, with or without a terminal, so the message is
/// the same wherever the command is tried.
pub fn run(args: &TuiArgs) -> ExitCode {
    let start = match &args.load {
        Some(path) => args.loaded(path).map(|r| Start::Load(Box::new(r))),
        None => args.setup().map(Start::Setup),
    };
    let start = match start {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e:#}");
            return ExitCode::from(2);
        }
    };
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        return no_terminal();
    }
    let seed = args.seed();
    let ended = match start {
        Start::Setup(setup) => mancala_tui::run(setup, args.any_setting()),
        Start::Load(record) => mancala_tui::run_app(|now| App::load(&record, seed, now)),
    };
    match ended {
        Ok(Ended::Quit) => {
            println!("Thanks for playing!");
            ExitCode::SUCCESS
        }
        Ok(ended) => ExitCode::from(ended.exit_status()),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

const PIPES: &str = "\
For a game over pipes or files use the line console, which reads moves from standard input:
  printf '3\\n6\\nq\\n' | mancala console
  mancala console --p2 robot < moves.txt
See `mancala console --help`.";

/// `mancala` with no subcommand: the terminal game on a terminal, otherwise a note on
/// how to play over pipes.
pub fn run_default() -> ExitCode {
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        return run(&TuiArgs::default());
    }
    no_terminal()
}

/// Without a terminal, `mancala` and `mancala tui` say the same: why the game cannot
/// start, and how to play over pipes instead.
fn no_terminal() -> ExitCode {
    eprintln!(
        "error: the full-screen game needs a terminal: standard input or output is not a \
         terminal."
    );
    eprintln!("{PIPES}");
    ExitCode::from(2)
}

/// What `--p1` of the terminal game takes besides the suite's players.
const EXT_HELP: &str =
    ", or 'ext:COMMAND' for a program speaking the engine protocol (docs/engine-protocol.md)";

/// What `--p2` takes besides the suite's players, and its default.
const P2_HELP: &str = ", or 'ext:COMMAND'. Without it: a person when --p1 names a computer or \
                       --name2 names player 2, else medium";
