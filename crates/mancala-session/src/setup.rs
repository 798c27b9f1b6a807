//! Choosing a game: the board and rule options as a person gives them, checked once for
//! every front end, and the names players get when they give none.

use mancala_core::{EndRule, RuleOptions, Rules, RulesError, Side, Variant};

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

/// The key of the rule option "capture when the opposite house is empty", as the
/// variants' descriptions ([`VariantInfo::options`]) name it: a switch, `off` or `on`.
///
/// [`VariantInfo::options`]: mancala_core::variants::VariantInfo::options
pub const EMPTY_CAPTURE: &str = "empty-capture";

/// The key of the rule option "when the game ends", as the variants' descriptions name
/// it: `mover-cannot-move` or `either-side-empty` (an [`EndRule`]).
pub const END_RULE: &str = "end-rule";

/// The value of the rule option `key` in `options`, as the variants' descriptions write
/// it (`on`, `either-side-empty`); `None` for a key that names no rule option. Forms
/// that list a variant's [`VariantInfo::options`] show the values with it.
///
/// [`VariantInfo::options`]: mancala_core::variants::VariantInfo::options
///
/// ```
/// use mancala_core::{EndRule, RuleOptions};
/// use mancala_session::{EMPTY_CAPTURE, END_RULE, option_value};
/// let o = RuleOptions { end_rule: EndRule::EitherSideEmpty, ..RuleOptions::default() };
/// assert_eq!(option_value(o, EMPTY_CAPTURE), Some("off"));
/// assert_eq!(option_value(o, END_RULE), Some("either-side-empty"));
/// assert_eq!(option_value(o, "sowing"), None);
/// ```
#[must_use]
pub fn option_value(options: RuleOptions, key: &str) -> Option<&'static str> {
    match key {
        EMPTY_CAPTURE => Some(if options.empty_capture { "on" } else { "off" }),
        END_RULE => Some(options.end_rule.name()),
        _ => None,
    }
}

/// `options` with the rule option `key` set to `value` (as [`option_value`] writes
/// it), or `None` when either names nothing.
///
/// ```
/// use mancala_core::{EndRule, RuleOptions};
/// use mancala_session::{END_RULE, with_option};
/// let o = with_option(RuleOptions::default(), END_RULE, "either-side-empty").unwrap();
/// assert_eq!(o.end_rule, EndRule::EitherSideEmpty);
/// assert_eq!(with_option(o, END_RULE, "never"), None);
/// ```
#[must_use]
pub fn with_option(mut options: RuleOptions, key: &str, value: &str) -> Option<RuleOptions> {
    match (key, value) {
        (EMPTY_CAPTURE, "off" | "on") => options.empty_capture = value == "on",
        (END_RULE, _) => options.end_rule = value.parse().ok()?,
        _ => return None,
    }
    Some(options)
}

/// "oware takes no rule options; empty-capture is a Kalah option": what the variant
/// takes, then who takes each option given, all from the variants' descriptions.
fn not_taken_message(variant: Variant, options: &[&str]) -> String {
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
    for &key in options {
        if said.contains(&key) {
            continue;
        }
        let who = takers(key);
        let keys: Vec<&str> = options
            .iter()
            .copied()
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
    /// [`VariantInfo::options`]), by their keys ([`EMPTY_CAPTURE`], [`END_RULE`]).
    ///
    /// [`VariantInfo::options`]: mancala_core::variants::VariantInfo::options
    #[error("{}", not_taken_message(*variant, options))]
    OptionNotTaken {
        /// The variant chosen.
        variant: Variant,
        /// The options given that it does not take, in the order of [`RuleChoice`].
        options: Vec<&'static str>,
    },
    /// The board is out of range.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// A board and rule options as a person chooses them: options left out take their
/// defaults, and an option may only be given for a variant that takes it (as its
/// [`VariantInfo::options`] say). Every front end checks its choices here, so a
/// refused option reads the same everywhere.
///
/// [`VariantInfo::options`]: mancala_core::variants::VariantInfo::options
///
/// ```
/// use mancala_core::{EndRule, Variant};
/// use mancala_session::{END_RULE, RuleChoice, SetupError};
/// let kalah = RuleChoice::new(Variant::Kalah, 4, 3).empty_capture(Some(true));
/// assert!(kalah.rules().unwrap().options().empty_capture);
///
/// let oware = RuleChoice::new(Variant::Oware, 6, 4).end_rule(Some(EndRule::EitherSideEmpty));
/// let err = oware.rules().unwrap_err();
/// assert_eq!(err, SetupError::OptionNotTaken { variant: Variant::Oware, options: vec![END_RULE] });
/// assert_eq!(err.to_string(), "oware takes no rule options; end-rule is a Kalah option");
/// assert!(RuleChoice::new(Variant::Kalah, 0, 4).rules().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleChoice {
    variant: Variant,
    houses: u8,
    seeds: u8,
    empty_capture: Option<bool>,
    end_rule: Option<EndRule>,
}

impl RuleChoice {
    /// `variant` on `houses` houses a side with `seeds` seeds each, default options.
    #[must_use]
    pub fn new(variant: Variant, houses: u8, seeds: u8) -> RuleChoice {
        RuleChoice {
            variant,
            houses,
            seeds,
            empty_capture: None,
            end_rule: None,
        }
    }

    /// Whether an empty opposite house still captures ([`EMPTY_CAPTURE`]; `None`: not
    /// given).
    #[must_use]
    pub fn empty_capture(mut self, on: Option<bool>) -> RuleChoice {
        self.empty_capture = on;
        self
    }

    /// When the game ends ([`END_RULE`]; `None`: not given).
    #[must_use]
    pub fn end_rule(mut self, rule: Option<EndRule>) -> RuleChoice {
        self.end_rule = rule;
        self
    }

    /// The values of `options` for the rule options the variant takes, the others
    /// left out: for a form that keeps every option's value while the variant changes
    /// and offers only the chosen variant's.
    ///
    /// ```
    /// use mancala_core::{RuleOptions, Variant};
    /// use mancala_session::RuleChoice;
    /// let kept = RuleOptions { empty_capture: true, ..RuleOptions::default() };
    /// let oware = RuleChoice::new(Variant::Oware, 6, 4).options_taken(kept).rules().unwrap();
    /// assert!(!oware.options().empty_capture);
    /// let kalah = RuleChoice::new(Variant::Kalah, 6, 4).options_taken(kept).rules().unwrap();
    /// assert!(kalah.options().empty_capture);
    /// ```
    #[must_use]
    pub fn options_taken(self, options: RuleOptions) -> RuleChoice {
        let info = self.variant.info();
        let taken = |key| info.takes_option(key);
        self.empty_capture(taken(EMPTY_CAPTURE).then_some(options.empty_capture))
            .end_rule(taken(END_RULE).then_some(options.end_rule))
    }

    /// The keys of the options given, in this order: [`EMPTY_CAPTURE`], [`END_RULE`].
    fn given(&self) -> Vec<&'static str> {
        let mut keys = Vec::new();
        if self.empty_capture.is_some() {
            keys.push(EMPTY_CAPTURE);
        }
        if self.end_rule.is_some() {
            keys.push(END_RULE);
        }
        keys
    }

    /// The rules chosen.
    ///
    /// # Errors
    /// [`SetupError::OptionNotTaken`] when an option is given for a variant that does
    /// not take it; [`SetupError::Rules`] when the board is out of range.
    pub fn rules(&self) -> Result<Rules, SetupError> {
        let info = self.variant.info();
        let refused: Vec<&'static str> = self
            .given()
            .into_iter()
            .filter(|key| !info.takes_option(key))
            .collect();
        if !refused.is_empty() {
            return Err(SetupError::OptionNotTaken {
                variant: self.variant,
                options: refused,
            });
        }
        let rules = Rules::new(self.variant, self.houses, self.seeds)?;
        Ok(rules.with_options(RuleOptions {
            empty_capture: self.empty_capture.unwrap_or(false),
            end_rule: self.end_rule.unwrap_or_default(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_option_says_who_takes_it() {
        let choice = RuleChoice::new(Variant::TogyzKumalak, 9, 9);
        let both = choice
            .empty_capture(Some(false))
            .end_rule(Some(EndRule::MoverCannotMove));
        assert_eq!(
            both.rules().unwrap_err().to_string(),
            "togyzkumalak takes no rule options; empty-capture and end-rule are Kalah options"
        );
        let one = choice.empty_capture(Some(true));
        assert_eq!(
            one.rules().unwrap_err().to_string(),
            "togyzkumalak takes no rule options; empty-capture is a Kalah option"
        );
        // Worded for variants that take some options and options nobody takes too.
        assert_eq!(
            not_taken_message(Variant::Kalah, &["sowing", "x"]),
            "kalah takes only the rule options empty-capture and end-rule; sowing and x \
             are no variant's rule options"
        );
    }

    #[test]
    fn every_option_of_every_variant_has_a_value_here() {
        for v in Variant::ALL {
            for option in v.info().options {
                assert_eq!(
                    option_value(RuleOptions::default(), option.key),
                    Some(option.values[0])
                );
                for value in option.values {
                    let set = with_option(RuleOptions::default(), option.key, value).unwrap();
                    assert_eq!(option_value(set, option.key), Some(*value));
                }
            }
        }
    }
}
