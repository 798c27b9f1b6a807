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

/// The name of a computer player whose spec has no name.
const COMPUTER: &str = "Computer";

/// Why a chosen board and options make no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A Kalah rule option was given for another variant.
    #[error("empty capture and the end rule are Kalah rule options; {0} does not take them")]
    KalahOnlyOption(Variant),
    /// The board is out of range.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// A board and rule options as a person chooses them: options left out take their
/// defaults, and Kalah's options may only be given for Kalah.
///
/// ```
/// use mancala_core::{EndRule, Variant};
/// use mancala_session::{RuleChoice, SetupError};
/// let kalah = RuleChoice::new(Variant::Kalah, 4, 3).empty_capture(Some(true));
/// assert!(kalah.rules().unwrap().options().empty_capture);
///
/// let oware = RuleChoice::new(Variant::Oware, 6, 4).end_rule(Some(EndRule::EitherSideEmpty));
/// assert_eq!(oware.rules(), Err(SetupError::KalahOnlyOption(Variant::Oware)));
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

    /// Kalah: whether an empty opposite house still captures (`None`: not given).
    #[must_use]
    pub fn empty_capture(mut self, on: Option<bool>) -> RuleChoice {
        self.empty_capture = on;
        self
    }

    /// Kalah: when the game ends (`None`: not given).
    #[must_use]
    pub fn end_rule(mut self, rule: Option<EndRule>) -> RuleChoice {
        self.end_rule = rule;
        self
    }

    /// The rules chosen.
    ///
    /// # Errors
    /// [`SetupError::KalahOnlyOption`] when a Kalah option is given for another
    /// variant; [`SetupError::Rules`] when the board is out of range.
    pub fn rules(&self) -> Result<Rules, SetupError> {
        let kalah_option = self.empty_capture.is_some() || self.end_rule.is_some();
        if self.variant != Variant::Kalah && kalah_option {
            return Err(SetupError::KalahOnlyOption(self.variant));
        }
        let rules = Rules::new(self.variant, self.houses, self.seeds)?;
        Ok(rules.with_options(RuleOptions {
            empty_capture: self.empty_capture.unwrap_or(false),
            end_rule: self.end_rule.unwrap_or_default(),
        }))
    }
}
