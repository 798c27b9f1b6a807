//! Which game is being played: the variant, the board size and the rule options.

use std::fmt;
use std::str::FromStr;

use std::sync::OnceLock;

use crate::description::{Description, DescriptionError, Empty, EmptyFacing};
use crate::info::{self, VariantInfo};
use crate::interned::DescribedGame;
use crate::options::{EndRule, OptionError, RuleOptions};
use crate::{MAX_HOUSES, MAX_SEEDS};

/// The game being played: one of the four games with a hand-written rule set, or any
/// other game from its description.
///
/// Parsed from and printed as the keys front ends and files use: `kalah`, `oware`,
/// `oware-simplified`, `togyzkumalak`, and the key of every other game the suite ships
/// ([`Variant::catalogue`]). Everything else about a game (its display name, rules
/// text, defaults, options, what its board has) is in [`Variant::info`].
///
/// ```
/// use mancala_core::Variant;
/// let v: Variant = "oware-simplified".parse().unwrap();
/// assert_eq!(v, Variant::OwareSimplified);
/// assert_eq!(v.to_string(), "oware-simplified");
/// assert!("chess".parse::<Variant>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Kalah: stores, extra turns, captures from an own empty house.
    Kalah,
    /// Oware under the Abapa tournament rules.
    Oware,
    /// The simplified Oware of the Bern course assignment.
    OwareSimplified,
    /// Togyz Kumalak: sowing starts in the origin house, even captures, tuzdyks.
    TogyzKumalak,
    /// A game played from its description by the description engine.
    Described(DescribedGame),
}

impl Variant {
    /// The four games with a hand-written rule set (a kernel), in the order front ends
    /// list them.
    pub const ALL: [Variant; 4] = [
        Variant::Kalah,
        Variant::Oware,
        Variant::OwareSimplified,
        Variant::TogyzKumalak,
    ];

    /// Every game the suite ships: the four with kernels, then every other shipped
    /// description in the order of its files.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// let all = Variant::catalogue();
    /// assert_eq!(&all[..4], &Variant::ALL);
    /// assert!(all.iter().all(|v| v.is_catalogued()));
    /// ```
    #[must_use]
    pub fn catalogue() -> &'static [Variant] {
        static CATALOGUE: OnceLock<Vec<Variant>> = OnceLock::new();
        CATALOGUE.get_or_init(|| {
            let kernels = Variant::ALL.iter().map(|v| v.name());
            let kernels: Vec<&str> = kernels.collect();
            let described = Description::builtins()
                .into_iter()
                .filter(|d| !kernels.contains(&d.key.as_str()))
                .map(|d| {
                    DescribedGame::intern(d)
                        .unwrap_or_else(|e| unreachable!("a shipped game is checked: {e}"))
                });
            Variant::ALL
                .into_iter()
                .chain(described.map(Variant::Described))
                .collect()
        })
    }

    /// Whether this is a game the suite ships as it ships it (so that its key alone
    /// names it in records and the notation), rather than a description of a player's
    /// own.
    #[must_use]
    pub fn is_catalogued(self) -> bool {
        Variant::catalogue().contains(&self)
    }

    /// What the game is: key, display name, rules text, defaults, options.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// assert_eq!(Variant::OwareSimplified.info().name, "Simplified Oware");
    /// ```
    #[must_use]
    pub fn info(self) -> &'static VariantInfo {
        match self {
            Variant::Kalah => &info::KALAH,
            Variant::Oware => &info::OWARE,
            Variant::OwareSimplified => &info::OWARE_SIMPLIFIED,
            Variant::TogyzKumalak => &info::TOGYZ_KUMALAK,
            Variant::Described(game) => game.info(),
        }
    }

    /// The key used on the command line, in the API and in files (`info().key`; the
    /// name people read is `info().name`).
    #[must_use]
    #[allow(
        clippy::misnamed_getters,
        reason = "the name of files and command lines: the key, as it always was"
    )]
    pub fn name(self) -> &'static str {
        self.info().key
    }

    /// The game's description as it was made: the shipped file's for a game with a
    /// hand-written rule set, the interned one's for a described game (see
    /// [`Rules::description`] for the description of a board and its options).
    #[must_use]
    pub fn description(self) -> Description {
        match self {
            Variant::Described(game) => game.description().clone(),
            kernel => Description::builtin(kernel.name())
                .unwrap_or_else(|| unreachable!("every kernel has a shipped description")),
        }
    }

    /// Whether a position coming round again since the last capture ends the game
    /// (both Oware variants; no Kalah position can come round again).
    #[must_use]
    pub fn has_repetition_rule(self) -> bool {
        self.info().repetition
    }

    /// Whether the board has stores that seeds are sown into (Kalah only).
    #[must_use]
    pub fn has_stores(self) -> bool {
        self.info().stores
    }

    /// The keys of every shipped game, for messages: `kalah, oware, … or
    /// togyzkumalak`.
    #[must_use]
    pub fn keys_in_words() -> String {
        let keys: Vec<&str> = Variant::catalogue().iter().map(|v| v.name()).collect();
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
        // A shipped game first; else a game of one's own read earlier in this process.
        Variant::catalogue()
            .iter()
            .copied()
            .find(|v| v.name() == s)
            .or_else(|| DescribedGame::by_key(s).map(Variant::Described))
            .ok_or_else(|| RulesError::UnknownVariant(s.to_owned()))
    }
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

    /// The rules a description gives: the game with a hand-written rule set when the
    /// description is one of those games as the suite ships it (on any board, with any
    /// of its options), so that it plays exactly as `--variant KEY` does and as fast;
    /// otherwise the description itself, played by the description engine.
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// use mancala_core::{Rules, Variant};
    /// let mut d = Description::builtin("kalah").unwrap();
    /// d.board.seeds = 6;
    /// assert_eq!(Rules::from_description(d.clone()).unwrap(), Rules::kalah(6, 6));
    /// d.turn.extra_turn = false;
    /// let rules = Rules::from_description(d).unwrap();
    /// assert!(matches!(rules.variant(), Variant::Described(_)));
    /// assert!(!rules.variant().is_catalogued());
    /// // A game of the catalogue on another board is still that game.
    /// let mut wari = Description::builtin("awari").unwrap();
    /// wari.board.houses = 5;
    /// let rules = Rules::from_description(wari).unwrap();
    /// assert!(rules.variant().is_catalogued());
    /// assert_eq!(rules, Rules::new("awari".parse().unwrap(), 5, 4).unwrap());
    /// ```
    ///
    /// # Errors
    /// [`RulesError::Description`] when the description is refused, or the board
    /// errors of [`Rules::new`].
    pub fn from_description(description: Description) -> Result<Rules, RulesError> {
        description.check()?;
        let (houses, seeds) = (description.board.houses, description.board.seeds);
        if let Some(kernel) = Variant::ALL
            .into_iter()
            .find(|v| v.name() == description.key)
        {
            let base = Rules::new(kernel, houses, seeds)?;
            // Kalah's options are written into its description; the other kernels
            // take none, so only their defaults can match.
            let options: Vec<RuleOptions> = if kernel.info().options.is_empty() {
                vec![RuleOptions::default()]
            } else {
                [false, true]
                    .into_iter()
                    .flat_map(|empty_capture| {
                        EndRule::ALL.map(|end_rule| RuleOptions {
                            empty_capture,
                            end_rule,
                        })
                    })
                    .collect()
            };
            for candidate in options.into_iter().map(|o| base.with_options(o)) {
                if candidate.description() == description {
                    return Ok(candidate);
                }
            }
        }
        // A game of the catalogue on another board is still that game, as
        // `Rules::new(its variant, houses, seeds)` is: one key, one rating list.
        let shipped = Variant::catalogue().iter().find_map(|&v| match v {
            Variant::Described(game) if game.description().key == description.key => {
                Some((v, game.description()))
            }
            _ => None,
        });
        if let Some((variant, shipped)) = shipped {
            let mut on_its_board = description.clone();
            on_its_board.board.houses = shipped.board.houses;
            on_its_board.board.seeds = shipped.board.seeds;
            if on_its_board == *shipped {
                return Rules::new(variant, houses, seeds);
            }
        }
        Rules::new(
            Variant::Described(DescribedGame::intern(description)?),
            houses,
            seeds,
        )
    }

    /// The description of these rules: the game's own, on this board, with the rule
    /// options written into it.
    ///
    /// ```
    /// use mancala_core::Rules;
    /// let d = Rules::oware(5, 3).description();
    /// assert_eq!((d.key.as_str(), d.board.houses, d.board.seeds), ("oware", 5, 3));
    /// assert_eq!(mancala_core::Rules::from_description(d).unwrap(), Rules::oware(5, 3));
    /// ```
    #[must_use]
    pub fn description(&self) -> Description {
        match self.variant {
            Variant::Described(game) => {
                let mut d = game.description().clone();
                d.board.houses = self.houses;
                d.board.seeds = self.seeds;
                d
            }
            _ => self.kernel_description(),
        }
    }

    /// The description of a game with a hand-written rule set on these rules' board:
    /// the shipped file, with the rule options written into it (Kalah's
    /// `empty-capture` and `end-rule`).
    fn kernel_description(&self) -> Description {
        let rules = *self;
        let mut d = Description::builtin(rules.variant().name())
            .unwrap_or_else(|| unreachable!("every variant has a shipped description"));
        d.board.houses = rules.houses() as u8;
        d.board.seeds = rules.seeds() as u8;
        let options = rules.options();
        if options.empty_capture {
            for capture in &mut d.capture {
                capture.empty_facing = EmptyFacing::TakeSowingSeed;
            }
        }
        if d.board.stores {
            d.end.empty = match options.end_rule {
                EndRule::MoverCannotMove => Empty::MoverCannotMove,
                EndRule::EitherSideEmpty => Empty::EitherSide,
            };
        }
        d
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

impl Default for Rules {
    /// Kalah(6,4), the game the suite opens with.
    ///
    /// ```
    /// assert_eq!(mancala_core::Rules::default(), mancala_core::Rules::kalah(6, 4));
    /// ```
    fn default() -> Rules {
        Rules::kalah(6, 4)
    }
}

impl fmt::Display for Rules {
    /// Writes e.g. `kalah(6,4)`, with the non-default options after it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({},{})", self.variant, self.houses, self.seeds)?;
        for option in self.variant.info().options {
            let value = self.options.value(option.key).unwrap_or_default();
            match (option.is_switch(), value == option.values[0]) {
                (_, true) => {}
                (true, false) => write!(f, " {}", option.key)?,
                (false, false) => write!(f, " {value}")?,
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
    /// A rule option or its value is not known (boxed, as `Description`).
    #[error(transparent)]
    Option(Box<OptionError>),
    /// Houses per side out of range.
    #[error("houses per side must be between 1 and {MAX_HOUSES}, not {0}")]
    Houses(u32),
    /// Seeds per house out of range.
    #[error("seeds per house must be between 1 and {MAX_SEEDS}, not {0}")]
    Seeds(u32),
    /// Rules written as text in neither form of [`Rules::to_text`].
    #[error(
        "rules {0:?} are neither a game's name and board, such as kalah(6,4), nor a description in JSON"
    )]
    Text(String),
    /// A game description was refused (boxed: it carries three strings, and every
    /// result that can fail over rules would otherwise carry their size).
    #[error(transparent)]
    Description(Box<DescriptionError>),
}

impl From<OptionError> for RulesError {
    fn from(e: OptionError) -> Self {
        RulesError::Option(Box::new(e))
    }
}

impl From<DescriptionError> for RulesError {
    fn from(e: DescriptionError) -> Self {
        RulesError::Description(Box::new(e))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Variant {
    /// A variant is written as its key: a game that is not in the catalogue cannot be
    /// read back from it, so records carry such a game's whole description.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        key.parse().map_err(serde::de::Error::custom)
    }
}
