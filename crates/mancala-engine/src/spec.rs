//! Players named on a command line or in a request ([`PlayerSpec`]) and the factory
//! that builds each of them, the one place that knows every player.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use std::time::Duration;

use mancala_core::{Rules, Variant};

use crate::player::Player;
use crate::simple::{Fewest, Greedy, Most, RandomPlayer, Robot};
use crate::{
    AlphaBeta, Limits, Master, Mcts, MctsLimits, Perfect, PlayerInfo, Weights, default_probe_seeds,
    level_spec,
};

/// A player named on a command line or in a request: a name and `key=value` options,
/// written `name` or `name:key=value,key=value`.
///
/// ```
/// use mancala_engine::PlayerSpec;
/// let spec: PlayerSpec = "random:seed=5".parse().unwrap();
/// assert_eq!(spec.name(), "random");
/// assert_eq!(spec.option("seed"), Some("5"));
/// assert_eq!(spec.to_string(), "random:seed=5");
/// assert!("random:seed".parse::<PlayerSpec>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    name: String,
    options: BTreeMap<String, String>,
}

/// Why a player could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// No player has this name.
    #[error("unknown player {0:?} (known: {known})", known = PlayerSpec::KNOWN.join(", "))]
    Unknown(String),
    /// The spec is not `name[:key=value,...]`.
    #[error("bad player spec {0:?}: expected name or name:key=value,...")]
    Syntax(String),
    /// An option the player does not take, or a value it cannot use.
    #[error("player {player}: {message}")]
    Option {
        /// The player's name.
        player: String,
        /// What is wrong.
        message: String,
    },
    /// The player does not play this variant.
    #[error("player {player} does not play {variant}: {why}")]
    Variant {
        /// The player's name.
        player: String,
        /// The variant asked for.
        variant: Variant,
        /// Why not.
        why: &'static str,
    },
    /// An external engine could not be started or did not answer its greeting.
    #[error("external engine {engine}: {message}")]
    External {
        /// The engine, as `ext:COMMAND`.
        engine: String,
        /// What went wrong.
        message: String,
    },
}

impl PlayerSpec {
    /// The names [`PlayerSpec::build`] knows: those of [`PlayerInfo::ALL`].
    pub const KNOWN: &'static [&'static str] = &{
        let mut names = [""; PlayerInfo::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = PlayerInfo::ALL[i].name;
            i += 1;
        }
        names
    };

    /// Why the player named `name` does not play `variant`, or `None` when it does (or
    /// when no player has that name: [`PlayerSpec::build`] says so).
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_engine::PlayerSpec;
    /// assert!(PlayerSpec::cannot_play("robot", Variant::Oware).is_some());
    /// assert!(PlayerSpec::cannot_play("robot", Variant::Kalah).is_none());
    /// ```
    #[must_use]
    pub fn cannot_play(name: &str, variant: Variant) -> Option<&'static str> {
        PlayerInfo::find(name).and_then(|p| p.cannot_play(variant))
    }

    /// The names of [`PlayerSpec::KNOWN`] that play `variant`, in that order.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_engine::PlayerSpec;
    /// let oware: Vec<_> = PlayerSpec::known_for(Variant::Oware).collect();
    /// assert!(oware.contains(&"greedy") && !oware.contains(&"robot"));
    /// assert!(PlayerSpec::known_for(Variant::Kalah).any(|n| n == "robot"));
    /// ```
    pub fn known_for(variant: Variant) -> impl Iterator<Item = &'static str> {
        PlayerInfo::ALL
            .iter()
            .filter(move |p| p.plays(variant))
            .map(|p| p.name)
    }

    /// The player's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value of option `key`, if given.
    #[must_use]
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options.get(key).map(String::as_str)
    }

    /// The same spec with option `key` set to `value` (replacing any value given).
    ///
    /// ```
    /// use mancala_engine::PlayerSpec;
    /// let spec: PlayerSpec = "alphabeta:depth=9,ms=50".parse().unwrap();
    /// assert_eq!(spec.with_option("ms", "200").to_string(), "alphabeta:depth=9,ms=200");
    /// ```
    #[must_use]
    pub fn with_option(mut self, key: &str, value: &str) -> PlayerSpec {
        self.options.insert(key.to_owned(), value.to_owned());
        self
    }

    /// Whether this spec names a person rather than a computer player.
    #[must_use]
    pub fn is_human(&self) -> bool {
        self.name == "human"
    }

    /// Option `key` parsed as a `T`, or `default` when absent.
    ///
    /// # Errors
    /// [`PlayerError::Option`] when the value does not parse.
    pub fn parsed_option<T: FromStr>(&self, key: &str, default: T) -> Result<T, PlayerError> {
        match self.option(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| PlayerError::Option {
                player: self.name.clone(),
                message: format!("bad value {v:?} for {key}"),
            }),
        }
    }

    /// Option `key` as a number above 0, or `None` when absent.
    ///
    /// # Errors
    /// [`PlayerError::Option`] when the value is not a positive number.
    pub fn positive_option<T: FromStr + Default + PartialOrd>(
        &self,
        key: &str,
    ) -> Result<Option<T>, PlayerError> {
        match self.option(key) {
            None => Ok(None),
            Some(v) => match v.parse::<T>() {
                Ok(n) if n > T::default() => Ok(Some(n)),
                _ => Err(PlayerError::Option {
                    player: self.name.clone(),
                    message: format!("{key} must be a positive number, not {v:?}"),
                }),
            },
        }
    }

    /// Fails unless every option given is one of `allowed`.
    ///
    /// # Errors
    /// [`PlayerError::Option`] naming the first unknown option.
    pub fn expect_options(&self, allowed: &[&str]) -> Result<(), PlayerError> {
        match self.options.keys().find(|k| !allowed.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(PlayerError::Option {
                player: self.name.clone(),
                message: if allowed.is_empty() {
                    format!("takes no options, got {k:?}")
                } else {
                    format!("unknown option {k:?} (takes {})", allowed.join(", "))
                },
            }),
        }
    }

    /// Builds the player for games under `rules`. `seed` seeds any randomness the player
    /// uses unless the spec gives its own `seed` option, so games can be reproduced.
    ///
    /// # Errors
    /// A [`PlayerError`] for an unknown name, a bad option, or a variant the player does
    /// not play.
    pub fn build(&self, rules: Rules, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        let seed = self.parsed_option("seed", seed)?;
        let player: Box<dyn Player> = match self.name.as_str() {
            "random" => {
                self.expect_options(&["seed"])?;
                Box::new(RandomPlayer::new(seed))
            }
            "fewest" => {
                self.expect_options(&["seed"])?;
                Box::new(Fewest::new(seed))
            }
            "most" => {
                self.expect_options(&["seed"])?;
                Box::new(Most::new(seed))
            }
            "robot" => {
                self.expect_options(&[])?;
                if let Some(why) = Self::cannot_play(&self.name, rules.variant()) {
                    return Err(PlayerError::Variant {
                        player: self.name.clone(),
                        variant: rules.variant(),
                        why,
                    });
                }
                Box::new(Robot)
            }
            "greedy" => {
                self.expect_options(&[])?;
                Box::new(Greedy)
            }
            "alphabeta" => self.build_alphabeta(rules)?,
            "mcts" => self.build_mcts(seed)?,
            "master" => self.build_master(rules)?,
            "perfect" => self.build_perfect(rules, seed)?,
            level if level_spec(level).is_some() => {
                self.expect_options(&["seed"])?;
                let spec: PlayerSpec = level_spec(level)
                    .expect("a level")
                    .parse()
                    .expect("level specs parse");
                return spec.build(rules, seed);
            }
            _ => return Err(PlayerError::Unknown(self.name.clone())),
        };
        Ok(player)
    }

    /// The `alphabeta` player: its limits (half a second when none is given), table, weights
    /// and threads.
    fn build_alphabeta(&self, rules: Rules) -> Result<Box<dyn Player>, PlayerError> {
        self.expect_options(&[
            "depth", "nodes", "ms", "hash", "store", "row", "mobility", "reach", "threat", "claim",
            "threads", "probe",
        ])?;
        let mut limits = Limits {
            depth: self.positive_option("depth")?,
            nodes: self.positive_option("nodes")?,
            time: self.positive_option("ms")?.map(Duration::from_millis),
        };
        if limits == Limits::default() {
            limits = Limits::time(Duration::from_millis(500));
        }
        let hash = self.parsed_option("hash", 16usize)?;
        let default = Weights::for_variant(rules.variant());
        let weights = Weights {
            store: self.parsed_option("store", default.store)?,
            row: self.parsed_option("row", default.row)?,
            mobility: self.parsed_option("mobility", default.mobility)?,
            reach: self.parsed_option("reach", default.reach)?,
            threat: self.parsed_option("threat", default.threat)?,
            claim: self.parsed_option("claim", default.claim)?,
        };
        let threads = self.positive_option("threads")?.unwrap_or(1usize);
        let probe = self.parsed_option("probe", 0u16)?;
        Ok(Box::new(
            AlphaBeta::new(limits, hash)
                .with_weights(weights)
                .with_threads(threads)
                .with_endgame(rules, probe),
        ))
    }

    /// The `mcts` player: its limits (10,000 simulations when none is given), exploration
    /// constant and threads.
    fn build_mcts(&self, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        self.expect_options(&["sims", "ms", "seed", "c", "threads"])?;
        let mut limits = MctsLimits {
            sims: self.positive_option("sims")?,
            time: self.positive_option("ms")?.map(Duration::from_millis),
        };
        if limits == MctsLimits::default() {
            limits.sims = Some(10_000);
        }
        let c = self.parsed_option("c", 1.0f32)?;
        let threads = self.positive_option("threads")?.unwrap_or(1usize);
        Ok(Box::new(
            Mcts::new(limits, seed)
                .with_exploration(c)
                .with_threads(threads),
        ))
    }

    /// The `master` player: its time a move, threads and the seeds in play below which it
    /// asks the solver first.
    fn build_master(&self, rules: Rules) -> Result<Box<dyn Player>, PlayerError> {
        self.expect_options(&["ms", "threads", "solve", "probe", "seed"])?;
        let ms = self.positive_option("ms")?.unwrap_or(1000u64);
        let threads = self.positive_option("threads")?.unwrap_or(2usize);
        let solve = self.parsed_option("solve", Master::default_solve_seeds(rules.variant()))?;
        let probe = self.parsed_option("probe", default_probe_seeds(rules))?;
        Ok(Box::new(
            Master::new(Duration::from_millis(ms), threads, solve).with_endgame(rules, probe),
        ))
    }

    /// The `perfect` player, with the `expert` level to fall back on when a position cannot
    /// be solved in time.
    fn build_perfect(&self, rules: Rules, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        self.expect_options(&["ms", "hash", "seed"])?;
        let ms = self.positive_option("ms")?.unwrap_or(1000u64);
        let hash = self.positive_option("hash")?.unwrap_or(64usize);
        let expert: PlayerSpec = level_spec("expert")
            .expect("the expert level")
            .parse()
            .expect("level specs parse");
        let fallback = expert.build(rules, seed)?;
        Ok(Box::new(Perfect::new(
            Duration::from_millis(ms),
            hash,
            fallback,
        )))
    }
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let (name, rest) = match s.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (s, None),
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid_name {
            return Err(PlayerError::Syntax(s.to_owned()));
        }
        let mut options = BTreeMap::new();
        for pair in rest.into_iter().flat_map(|r| r.split(',')) {
            match pair.split_once('=') {
                Some((k, v)) if !k.is_empty() && !v.is_empty() => {
                    options.insert(k.to_owned(), v.to_owned());
                }
                _ => return Err(PlayerError::Syntax(s.to_owned())),
            }
        }
        Ok(PlayerSpec {
            name: name.to_ascii_lowercase(),
            options,
        })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}
