//! Which game is being played: the variant, the board size and the rule options.

use std::fmt;
use std::str::FromStr;

use crate::info::{self, VariantInfo};
use crate::{MAX_HOUSES, MAX_SEEDS};

/// The rule sets this crate implements.
///
/// Parsed from and printed as the keys front ends and files use: `kalah`, `oware`,
/// `oware-simplified`, `togyzkumalak`. Everything else about a variant (its display
/// name, rules text, defaults, options, what its board has) is in [`Variant::info`].
///
/// ```
/// use mancala_core::Variant;
/// let v: Variant = "oware-simplified".parse().unwrap();
/// assert_eq!(v, Variant::OwareSimplified);
/// assert_eq!(v.to_string(), "oware-simplified");
/// assert!("chess".parse::<Variant>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Variant {
    /// Kalah: stores, extra turns, captures from an own empty house.
    Kalah,
    /// Oware under the Abapa tournament rules.
    Oware,
    /// The simplified Oware of the Bern course assignment.
    OwareSimplified,
    /// Togyz Kumalak: sowing starts in the origin house, even captures, tuzdyks.
    #[cfg_attr(feature = "serde", serde(rename = "togyzkumalak"))]
    TogyzKumalak,
}

impl Variant {
    /// Every variant, in the order front ends list them.
    pub const ALL: [Variant; 4] = [
        Variant::Kalah,
        Variant::Oware,
        Variant::OwareSimplified,
        Variant::TogyzKumalak,
    ];

    /// What the variant is: key, display name, rules text, defaults, options.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// assert_eq!(Variant::OwareSimplified.info().name, "Simplified Oware");
    /// ```
    #[must_use]
    pub const fn info(self) -> &'static VariantInfo {
        match self {
            Variant::Kalah => &info::KALAH,
            Variant::Oware => &info::OWARE,
            Variant::OwareSimplified => &info::OWARE_SIMPLIFIED,
            Variant::TogyzKumalak => &info::TOGYZ_KUMALAK,
        }
    }

    /// The key used on the command line, in the API and in files (`info().key`; the
    /// name people read is `info().name`).
    #[must_use]
    #[allow(
        clippy::misnamed_getters,
        reason = "the name of files and command lines: the key, as it always was"
    )]
    pub const fn name(self) -> &'static str {
        self.info().key
    }

    /// Whether a position coming round again since the last capture ends the game
    /// (both Oware variants; no Kalah position can come round again).
    #[must_use]
    pub const fn has_repetition_rule(self) -> bool {
        self.info().repetition
    }

    /// Whether the board has stores that seeds are sown into (Kalah only).
    #[must_use]
    pub const fn has_stores(self) -> bool {
        self.info().stores
    }

    /// The keys of every variant, for messages: `kalah, oware, oware-simplified or
    /// togyzkumalak`.
    #[must_use]
    pub fn keys_in_words() -> String {
        let keys: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        match keys.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => keys.concat(),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| RulesError::UnknownVariant(s.to_owned()))
    }
}

/// When a game of Kalah ends.
///
/// ```
/// use mancala_core::EndRule;
/// assert_eq!("either-side-empty".parse::<EndRule>().unwrap(), EndRule::EitherSideEmpty);
/// assert_eq!(EndRule::default().to_string(), "mover-cannot-move");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum EndRule {
    /// The game ends when the player to move has no seeds in their houses (the Auckland
    /// specifications).
    #[default]
    MoverCannotMove,
    /// The game ends as soon as either player's houses are all empty.
    EitherSideEmpty,
}

impl EndRule {
    /// Both end rules.
    pub const ALL: [EndRule; 2] = [EndRule::MoverCannotMove, EndRule::EitherSideEmpty];

    /// The name used on the command line and in files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EndRule::MoverCannotMove => "mover-cannot-move",
            EndRule::EitherSideEmpty => "either-side-empty",
        }
    }
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EndRule {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| RulesError::UnknownEndRule(s.to_owned()))
    }
}

/// The Kalah rule options found in the wild. Other variants ignore them (and say so in
/// [`VariantInfo::options`](crate::variants::VariantInfo)).
///
/// ```
/// use mancala_core::{EndRule, RuleOptions};
/// let o = RuleOptions { empty_capture: true, ..RuleOptions::default() };
/// assert_eq!(o.end_rule, EndRule::MoverCannotMove);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RuleOptions {
    /// When the last seed lands in an own empty house whose opposite house is empty, the
    /// seed still goes to the store (off in the Auckland specifications).
    pub empty_capture: bool,
    /// When the game ends.
    pub end_rule: EndRule,
}

/// A complete description of the game: variant, board size and options.
///
/// `Rules` is small and `Copy`; every [`Position`](crate::Position) carries its rules.
///
/// ```
/// use mancala_core::{Rules, Variant};
/// let rules = Rules::new(Variant::Oware, 6, 4).unwrap();
/// assert_eq!(rules.total_seeds(), 48);
/// assert!(Rules::new(Variant::Kalah, 0, 4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    variant: Variant,
    houses: u8,
    seeds: u8,
    options: RuleOptions,
}

impl Rules {
    /// Rules for `variant` with `houses` per side and `seeds` per house at the start, and
    /// default options.
    ///
    /// # Errors
    /// [`RulesError::Houses`] or [`RulesError::Seeds`] when a size is out of range.
    pub fn new(variant: Variant, houses: u8, seeds: u8) -> Result<Rules, RulesError> {
        let info = variant.info();
        if houses == 0 || houses > info.max_houses {
            return Err(RulesError::Houses(houses.into()));
        }
        if seeds == 0 || seeds > info.max_seeds {
            return Err(RulesError::Seeds(seeds.into()));
        }
        Ok(Rules {
            variant,
            houses,
            seeds,
            options: RuleOptions::default(),
        })
    }

    /// Kalah with default options.
    ///
    /// # Panics
    /// If a size is out of range; use [`Rules::new`] for input from users.
    #[must_use]
    pub fn kalah(houses: u8, seeds: u8) -> Rules {
        Rules::new(Variant::Kalah, houses, seeds).expect("board size in range")
    }

    /// Standard (Abapa) Oware.
    ///
    /// # Panics
    /// If a size is out of range; use [`Rules::new`] for input from users.
    #[must_use]
    pub fn oware(houses: u8, seeds: u8) -> Rules {
        Rules::new(Variant::Oware, houses, seeds).expect("board size in range")
    }

    /// The simplified Oware of the course assignment.
    ///
    /// # Panics
    /// If a size is out of range; use [`Rules::new`] for input from users.
    #[must_use]
    pub fn oware_simplified(houses: u8, seeds: u8) -> Rules {
        Rules::new(Variant::OwareSimplified, houses, seeds).expect("board size in range")
    }

    /// Togyz Kumalak (9 houses of 9 seeds in the standard game).
    ///
    /// # Panics
    /// If a size is out of range; use [`Rules::new`] for input from users.
    #[must_use]
    pub fn togyz_kumalak(houses: u8, seeds: u8) -> Rules {
        Rules::new(Variant::TogyzKumalak, houses, seeds).expect("board size in range")
    }

    /// The variant's standard board with default options.
    ///
    /// ```
    /// use mancala_core::{Rules, Variant};
    /// assert_eq!(Rules::standard(Variant::TogyzKumalak).total_seeds(), 162);
    /// ```
    #[must_use]
    pub fn standard(variant: Variant) -> Rules {
        let info = variant.info();
        Rules::new(variant, info.default_houses, info.default_seeds)
            .expect("a variant's defaults are in range")
    }

    /// The same rules with other options.
    #[must_use]
    pub const fn with_options(self, options: RuleOptions) -> Rules {
        Rules { options, ..self }
    }

    /// The variant.
    #[inline]
    #[must_use]
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// Houses per side.
    #[inline]
    #[must_use]
    pub const fn houses(&self) -> usize {
        self.houses as usize
    }

    /// Seeds per house at the start.
    #[inline]
    #[must_use]
    pub const fn seeds(&self) -> u16 {
        self.seeds as u16
    }

    /// The rule options (meaningful for Kalah).
    #[inline]
    #[must_use]
    pub const fn options(&self) -> RuleOptions {
        self.options
    }

    /// All seeds in the game.
    #[inline]
    #[must_use]
    pub const fn total_seeds(&self) -> u16 {
        2 * self.houses as u16 * self.seeds as u16
    }
}

impl fmt::Display for Rules {
    /// Writes e.g. `kalah(6,4)`, with the non-default options after it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({},{})", self.variant, self.houses, self.seeds)?;
        if self.variant.info().takes_option("empty-capture") {
            if self.options.empty_capture {
                f.write_str(" empty-capture")?;
            }
            if self.options.end_rule != EndRule::default() {
                write!(f, " {}", self.options.end_rule)?;
            }
        }
        Ok(())
    }
}

/// Why rules could not be built or parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The variant name is not known.
    #[error("unknown variant {0:?} (expected {keys})", keys = Variant::keys_in_words())]
    UnknownVariant(String),
    /// The end rule name is not known.
    #[error("unknown end rule {0:?} (expected mover-cannot-move or either-side-empty)")]
    UnknownEndRule(String),
    /// Houses per side out of range.
    #[error("houses per side must be between 1 and {MAX_HOUSES}, not {0}")]
    Houses(u32),
    /// Seeds per house out of range.
    #[error("seeds per house must be between 1 and {MAX_SEEDS}, not {0}")]
    Seeds(u32),
}
