//! The rule options on the command line: one flag for each option some game of the
//! catalogue takes (a switch such as `--empty-capture`, or `--end-rule VALUE`), made
//! from the games' own lists of options, so that no command names an option and a
//! game that brings a new option brings its flag.

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgGroup, ArgMatches, Args, Command, FromArgMatches};
use mancala_core::RuleOptions;
use mancala_session::RuleChoice;

use crate::option_help;

/// The id of the group of every rule option's flag: what `conflicts_with` names to
/// refuse the options beside an argument that sets the rules another way.
pub const RULE_OPTIONS: &str = "rule-options";

/// The rule options given on the command line, by key and value.
///
/// ```
/// use clap::Parser;
/// use mancala_cli::OptionArgs;
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     options: OptionArgs,
/// }
/// let cli = Cli::parse_from(["x", "--empty-capture", "--end-rule", "either-side-empty"]);
/// assert_eq!(
///     cli.options.given,
///     [("empty-capture", "on".to_owned()), ("end-rule", "either-side-empty".to_owned())]
/// );
/// assert!(Cli::try_parse_from(["x", "--end-rule", "never"]).is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionArgs {
    /// The options given, by key and value (a switch given is `on`), in the order of
    /// [`RuleOptions::all`].
    pub given: Vec<(&'static str, String)>,
}

impl OptionArgs {
    /// Whether no rule option was given.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
    }

    /// `choice` with the options given: [`RuleChoice::rules`] then refuses an option
    /// the game does not take, saying which games take it.
    #[must_use]
    pub fn apply(&self, choice: RuleChoice) -> RuleChoice {
        self.given
            .iter()
            .fold(choice, |choice, (key, value)| choice.option(key, value))
    }
}

impl FromArgMatches for OptionArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for option in RuleOptions::all() {
            if option.is_switch() {
                if matches.get_flag(option.key) {
                    given.push((option.key, "on".to_owned()));
                }
            } else if let Some(value) = matches.get_one::<String>(option.key) {
                given.push((option.key, value.clone()));
            }
        }
        Ok(OptionArgs { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = OptionArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for OptionArgs {
    fn augment_args(cmd: Command) -> Command {
        let all = RuleOptions::all();
        let cmd = all.iter().fold(cmd, |cmd, option| {
            let arg = Arg::new(option.key)
                .long(option.key)
                .help(option_help(option.key));
            cmd.arg(if option.is_switch() {
                arg.action(ArgAction::SetTrue)
            } else {
                // The help lists the values already (`option_help`).
                arg.action(ArgAction::Set)
                    .value_name("VALUE")
                    .value_parser(PossibleValuesParser::new(option.values.iter().copied()))
                    .hide_possible_values(true)
            })
        });
        cmd.group(
            ArgGroup::new(RULE_OPTIONS)
                .args(all.iter().map(|o| o.key))
                .multiple(true),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        OptionArgs::augment_args(cmd)
    }
}
