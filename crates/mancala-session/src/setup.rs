//! Choosing a game: the board and rule options as a person gives them, checked once for
//! every front end, and the names players get when they give none.

use mancala_core::{RuleOptions, Rules, RulesError, Side, Variant};

use mancala_engine::PlayerSpec;

use crate::Seat;

/// The name of the player in `seat` on `side` when they give none: `Player 1` or
/// `Player 2` for a person, the computer player's name for a computer (`Medium bot`,
/// `Random bot`; the robot is just `Robot`).
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::{Seat, default_name};
/// assert_eq!(default_name(Side::North, &Seat::Human), "Player 2");
/// assert_eq!(default_name(Side::South, &"random:seed=4".parse().unwrap()), "Random bot");
/// assert_eq!(default_name(Side::South, &"robot".parse().unwrap()), "Robot");
/// ```
#[must_use]
pub fn default_name(side: Side, seat: &Seat) -> String {
    let Some(spec) = seat.spec() else {
        return format!("Player {}", side.number());
    };
    let mut chars = spec.name().chars();
    let Some(first) = chars.next() else {
        return COMPUTER.to_owned();
    };
    let name = format!("{}{}", first.to_uppercase(), chars.as_str());
    if spec.name() == "robot" {
        name
    } else {
        format!("{name} bot")
    }
}

/// The name a player goes by when `given` is what they gave: trimmed, control
/// characters (a line break, an escape) made spaces; when nothing is left, the seat's
/// [`default_name`]. An empty name would leave messages with a hole where the name
/// goes (", choose a house").
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::{Seat, name_or_default};
/// assert_eq!(name_or_default("  Ann ", Side::South, &Seat::Human), "Ann");
/// assert_eq!(name_or_default("", Side::North, &Seat::Human), "Player 2");
/// assert_eq!(name_or_default(" \t", Side::North, &"medium".parse().unwrap()), "Medium bot");
/// assert_eq!(name_or_default("A\x1b[31mB", Side::South, &Seat::Human), "A [31mB");
/// ```
#[must_use]
pub fn name_or_default(given: &str, side: Side, seat: &Seat) -> String {
    let one_line: String = given
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match one_line.trim() {
        "" => default_name(side, seat),
        name => name.to_owned(),
    }
}

/// Whether `name` is a computer player's name ([`default_name`] of a computer seat:
/// `Medium bot`, `Robot`, ...), whatever its case and spacing. A person may not take
/// one: they would look like the computer.
///
/// ```
/// use mancala_session::is_computer_name;
/// assert!(is_computer_name("Medium bot"));
/// assert!(is_computer_name("  medium   BOT "));
/// assert!(is_computer_name("Robot"));
/// assert!(!is_computer_name("Ann"));
/// assert!(!is_computer_name("Medium"));
/// ```
#[must_use]
pub fn is_computer_name(name: &str) -> bool {
    let plain = |n: &str| {
        n.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let name = plain(name);
    name == plain(COMPUTER)
        || PlayerSpec::KNOWN
            .iter()
            .filter_map(|known| known.parse::<PlayerSpec>().ok())
            .any(|spec| plain(&default_name(Side::North, &Seat::Computer(spec))) == name)
}

/// Whether `name` is reserved for the program itself, whatever its case: a computer
/// player's name ([`is_computer_name`]), or a word that names a seat on a command line
/// or in a request (`human`, or a computer player of the engine's catalogue, such as
/// `greedy` or `master`). Accounts may not be named so.
///
/// ```
/// use mancala_session::is_reserved_name;
/// assert!(is_reserved_name("Human") && is_reserved_name("MASTER"));
/// assert!(is_reserved_name("Medium bot"));
/// assert!(!is_reserved_name("Ann"));
/// ```
#[must_use]
pub fn is_reserved_name(name: &str) -> bool {
    let word = name.trim().to_lowercase();
    is_computer_name(name)
        || word == Seat::HUMAN
        || mancala_engine::PlayerInfo::ALL
            .iter()
            .any(|p| p.name == word)
}

/// The name of a computer player whose spec has no name.
const COMPUTER: &str = "Computer";

/// "oware takes no rule options; empty-capture is a Kalah option": what the variant
/// takes, then who takes each option given, all from the variants' descriptions.
fn not_taken_message(variant: Variant, options: &[String]) -> String {
    let info = variant.info();
    let own: Vec<&str> = info.options.iter().map(|o| o.key).collect();
    let mut clauses = vec![match own.as_slice() {
        [] => format!("{variant} takes no rule options"),
        [one] => format!("{variant} takes only the rule option {one}"),
        many => format!(
            "{variant} takes only the rule options {}",
            in_words(many, "and")
        ),
    }];
    // Options taken by the same variants are said together.
    let takers = |key: &str| -> Vec<&'static str> {
        Variant::catalogue()
            .iter()
            .filter(|v| v.info().takes_option(key))
            .map(|v| v.info().name)
            .collect()
    };
    let mut said: Vec<&str> = Vec::new();
    for key in options.iter().map(String::as_str) {
        if said.contains(&key) {
            continue;
        }
        let who = takers(key);
        let keys: Vec<&str> = options
            .iter()
            .map(String::as_str)
            .filter(|k| !said.contains(k) && takers(k) == who)
            .collect();
        said.extend(&keys);
        let many = keys.len() > 1;
        let keys = in_words(&keys, "and");
        clauses.push(match (who.is_empty(), many) {
            (true, false) => format!("{keys} is no variant's rule option"),
            (true, true) => format!("{keys} are no variant's rule options"),
            (false, false) => format!("{keys} is a {} option", in_words(&who, "or")),
            (false, true) => format!("{keys} are {} options", in_words(&who, "or")),
        });
    }
    clauses.join("; ")
}

/// "a", "a and b", "a, b and c" (or with "or").
fn in_words(items: &[&str], and: &str) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} {and} {last}", init.join(", ")),
    }
}

/// Why a chosen board and options make no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Rule options given for a variant that does not take them (see
    /// [`VariantInfo::options`]), by their keys.
    ///
    /// [`VariantInfo::options`]: mancala_core::variants::VariantInfo::options
    #[error("{}", not_taken_message(*variant, options))]
    OptionNotTaken {
        /// The variant chosen.
        variant: Variant,
        /// The options given that it does not take, in the order given.
        options: Vec<String>,
    },
    /// The board is out of range.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// A board and rule options as a person chooses them: options left out take their
/// defaults, and an option may only be given for a variant that takes it (as its
/// [`VariantInfo::options`] say). Every front end checks its choices here, so a
/// refused option reads the same everywhere. Options are named by their keys and
/// values: no front end knows a game's options.
///
/// [`VariantInfo::options`]: mancala_core::variants::VariantInfo::options
///
/// ```
/// use mancala_core::Variant;
/// use mancala_session::{RuleChoice, SetupError};
/// let kalah = RuleChoice::new(Variant::Kalah, 4, 3).option("empty-capture", "on");
/// assert_eq!(kalah.rules().unwrap().options().value("empty-capture"), Some("on"));
///
/// let oware = RuleChoice::new(Variant::Oware, 6, 4).option("end-rule", "either-side-empty");
/// let err = oware.rules().unwrap_err();
/// let options = vec!["end-rule".to_owned()];
/// assert_eq!(err, SetupError::OptionNotTaken { variant: Variant::Oware, options });
/// assert_eq!(err.to_string(), "oware takes no rule options; end-rule is a Kalah option");
/// assert!(RuleChoice::new(Variant::Kalah, 0, 4).rules().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleChoice {
    variant: Variant,
    houses: u8,
    seeds: u8,
    /// The options given, by key and value, in the order given.
    options: Vec<(String, String)>,
}

impl RuleChoice {
    /// `variant` on `houses` houses a side with `seeds` seeds each, default options.
    #[must_use]
    pub fn new(variant: Variant, houses: u8, seeds: u8) -> RuleChoice {
        RuleChoice {
            variant,
            houses,
            seeds,
            options: Vec::new(),
        }
    }

    /// The rule option `key` set to `value` (as [`RuleOptions::value`] writes it: a
    /// switch is `off` or `on`); checked by [`RuleChoice::rules`]. A key given twice
    /// takes the later value.
    #[must_use]
    pub fn option(mut self, key: &str, value: &str) -> RuleChoice {
        self.options.retain(|(k, _)| k != key);
        self.options.push((key.to_owned(), value.to_owned()));
        self
    }

    /// The values of `options` for the rule options the variant takes, the others
    /// left out: for a form that keeps every option's value while the variant changes
    /// and offers only the chosen variant's.
    ///
    /// ```
    /// use mancala_core::{RuleOptions, Variant};
    /// use mancala_session::RuleChoice;
    /// let kept = RuleOptions::default().with("empty-capture", "on").unwrap();
    /// let oware = RuleChoice::new(Variant::Oware, 6, 4).options_taken(kept).rules().unwrap();
    /// assert_eq!(oware.options(), RuleOptions::default());
    /// let kalah = RuleChoice::new(Variant::Kalah, 6, 4).options_taken(kept).rules().unwrap();
    /// assert_eq!(kalah.options().value("empty-capture"), Some("on"));
    /// ```
    #[must_use]
    pub fn options_taken(self, options: RuleOptions) -> RuleChoice {
        self.variant.info().options.iter().fold(self, |choice, o| {
            choice.option(o.key, options.value(o.key).unwrap_or(o.values[0]))
        })
    }

    /// The rules chosen.
    ///
    /// # Errors
    /// [`SetupError::OptionNotTaken`] when an option is given for a variant that does
    /// not take it; [`SetupError::Rules`] when the board is out of range or an option
    /// has a value it does not take.
    pub fn rules(&self) -> Result<Rules, SetupError> {
        let info = self.variant.info();
        let refused: Vec<String> = self
            .options
            .iter()
            .map(|(key, _)| key)
            .filter(|key| !info.takes_option(key))
            .cloned()
            .collect();
        if !refused.is_empty() {
            return Err(SetupError::OptionNotTaken {
                variant: self.variant,
                options: refused,
            });
        }
        let rules = Rules::new(self.variant, self.houses, self.seeds)?;
        let mut options = RuleOptions::default();
        for (key, value) in &self.options {
            options = options.with(key, value).map_err(RulesError::from)?;
        }
        Ok(rules.with_options(options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_option_says_who_takes_it() {
        let choice = RuleChoice::new(Variant::TogyzKumalak, 9, 9);
        let both = choice
            .clone()
            .option("empty-capture", "off")
            .option("end-rule", "mover-cannot-move");
        assert_eq!(
            both.rules().unwrap_err().to_string(),
            "togyzkumalak takes no rule options; empty-capture and end-rule are Kalah options"
        );
        let one = choice.option("empty-capture", "on");
        assert_eq!(
            one.rules().unwrap_err().to_string(),
            "togyzkumalak takes no rule options; empty-capture is a Kalah option"
        );
        // Worded for variants that take some options and options nobody takes too.
        assert_eq!(
            not_taken_message(Variant::Kalah, &["sowing".into(), "x".into()]),
            "kalah takes only the rule options empty-capture and end-rule; sowing and x \
             are no variant's rule options"
        );
    }

    #[test]
    fn a_value_an_option_does_not_take_is_refused_with_the_values() {
        let err = RuleChoice::new(Variant::Kalah, 6, 4)
            .option("end-rule", "never")
            .rules()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown end-rule \"never\" (expected mover-cannot-move or either-side-empty)"
        );
        // A key given twice takes the later value.
        let rules = RuleChoice::new(Variant::Kalah, 6, 4)
            .option("empty-capture", "on")
            .option("empty-capture", "off")
            .rules()
            .unwrap();
        assert_eq!(rules.options(), RuleOptions::default());
    }
}
