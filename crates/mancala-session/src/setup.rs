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

/// Which of Kalah's rule options someone gave, so that an error names what they gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KalahOption {
    /// Capturing when the opposite house is empty.
    EmptyCapture,
    /// When the game ends.
    EndRule,
    /// Both of them.
    Both,
}

impl KalahOption {
    /// The option (or options) given, `None` when neither was.
    ///
    /// ```
    /// use mancala_session::KalahOption;
    /// assert_eq!(KalahOption::given(false, true), Some(KalahOption::EndRule));
    /// assert_eq!(KalahOption::given(false, false), None);
    /// ```
    #[must_use]
    pub fn given(empty_capture: bool, end_rule: bool) -> Option<KalahOption> {
        match (empty_capture, end_rule) {
            (true, true) => Some(KalahOption::Both),
            (true, false) => Some(KalahOption::EmptyCapture),
            (false, true) => Some(KalahOption::EndRule),
            (false, false) => None,
        }
    }
}

/// "empty capture is a Kalah rule option; Oware does not take it", naming only what was
/// given (a user who gave only the end rule should not read about empty capture).
fn kalah_only_message(option: KalahOption, variant: Variant) -> String {
    match option {
        KalahOption::EmptyCapture => {
            format!("empty capture is a Kalah rule option; {variant} does not take it")
        }
        KalahOption::EndRule => {
            format!("the end rule is a Kalah rule option; {variant} does not take it")
        }
        KalahOption::Both => format!(
            "empty capture and the end rule are Kalah rule options; {variant} does not take them"
        ),
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

/// The name of a computer player whose spec has no name.
const COMPUTER: &str = "Computer";

/// Why a chosen board and options make no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A Kalah rule option was given for another variant.
    #[error("{}", kalah_only_message(*.1, *.0))]
    KalahOnlyOption(Variant, KalahOption),
    /// The board is out of range.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// A board and rule options as a person chooses them: options left out take their
/// defaults, and Kalah's options may only be given for Kalah.
///
/// ```
/// use mancala_core::{EndRule, Variant};
/// use mancala_session::{KalahOption, RuleChoice, SetupError};
/// let kalah = RuleChoice::new(Variant::Kalah, 4, 3).empty_capture(Some(true));
/// assert!(kalah.rules().unwrap().options().empty_capture);
///
/// let oware = RuleChoice::new(Variant::Oware, 6, 4).end_rule(Some(EndRule::EitherSideEmpty));
/// let err = oware.rules().unwrap_err();
/// assert_eq!(err, SetupError::KalahOnlyOption(Variant::Oware, KalahOption::EndRule));
/// assert_eq!(
///     err.to_string(),
///     "the end rule is a Kalah rule option; oware does not take it"
/// );
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
        let given = KalahOption::given(self.empty_capture.is_some(), self.end_rule.is_some());
        if let Some(option) = given.filter(|_| self.variant != Variant::Kalah) {
            return Err(SetupError::KalahOnlyOption(self.variant, option));
        }
        let rules = Rules::new(self.variant, self.houses, self.seeds)?;
        Ok(rules.with_options(RuleOptions {
            empty_capture: self.empty_capture.unwrap_or(false),
            end_rule: self.end_rule.unwrap_or_default(),
        }))
    }
}
