//! Who plays in a match: one of the suite's players (a [`PlayerSpec`]) or an external
//! engine (`ext:COMMAND`, an [`ExternalSpec`]).
//!
//! External engines come from command lines only: `mancala match`, and the terminal
//! game's `--p1`/`--p2`. Front ends that take player specs from people over a screen
//! or a network (the web API, the start screen) never start programs.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use mancala_core::{Game, Rules};

use mancala_engine::{Choice, Player, PlayerError, PlayerSpec};

use crate::{ExternalEngine, ExternalError, ExternalSpec};

/// A player of a match.
///
/// ```
/// use mancala_match::Contestant;
/// let ours: Contestant = "alphabeta:ms=100".parse().unwrap();
/// assert!(ours.spec().is_some());
/// let theirs: Contestant = "ext:./my-engine --level 3".parse().unwrap();
/// assert!(theirs.spec().is_none());
/// assert_eq!(theirs.to_string(), "ext:./my-engine --level 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contestant {
    /// One of the suite's players.
    Builtin(PlayerSpec),
    /// A program speaking the engine protocol.
    External(ExternalSpec),
}

impl Contestant {
    /// The suite's player spec, unless this is an external engine.
    #[must_use]
    pub fn spec(&self) -> Option<&PlayerSpec> {
        match self {
            Contestant::Builtin(spec) => Some(spec),
            Contestant::External(_) => None,
        }
    }

    /// Whether this names a person (who cannot play a match).
    #[must_use]
    pub fn is_human(&self) -> bool {
        self.spec().is_some_and(PlayerSpec::is_human)
    }

    /// The player for one game under `rules` (an external engine is started and
    /// greeted).
    ///
    /// # Errors
    /// A [`PlayerError`] when the player cannot be built or the engine started.
    pub fn seat(&self, rules: Rules, seed: u64) -> Result<Seated, PlayerError> {
        match self {
            Contestant::Builtin(spec) => spec.build(rules, seed).map(Seated::Builtin),
            Contestant::External(ext) => {
                let mut engine = ext.start().map_err(|e| external_error(ext, &e))?;
                engine.new_game().map_err(|e| external_error(ext, &e))?;
                Ok(Seated::External(Box::new(engine)))
            }
        }
    }
}

/// The [`PlayerError`] for an engine that failed before its game.
fn external_error(ext: &ExternalSpec, e: &ExternalError) -> PlayerError {
    PlayerError::External {
        engine: ext.to_string(),
        message: e.to_string(),
    }
}

impl From<PlayerSpec> for Contestant {
    fn from(spec: PlayerSpec) -> Contestant {
        Contestant::Builtin(spec)
    }
}

impl FromStr for Contestant {
    type Err = PlayerError;
    fn from_str(s: &str) -> Result<Contestant, PlayerError> {
        if s.trim().starts_with(ExternalSpec::PREFIX) {
            s.parse()
                .map(Contestant::External)
                .map_err(|_: ExternalError| PlayerError::External {
                    engine: s.trim().to_owned(),
                    message: "expected ext:COMMAND, a program and its arguments \
                              (quotes group words)"
                        .to_owned(),
                })
        } else {
            s.parse().map(Contestant::Builtin)
        }
    }
}

impl fmt::Display for Contestant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Builtin(spec) => spec.fmt(f),
            Contestant::External(ext) => ext.fmt(f),
        }
    }
}

/// A contestant ready to play one game.
pub enum Seated {
    /// One of the suite's players.
    Builtin(Box<dyn Player>),
    /// A running external engine.
    External(Box<ExternalEngine>),
}

impl Seated {
    /// The player's name.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Seated::Builtin(p) => p.name(),
            Seated::External(e) => e.name(),
        }
    }

    /// Waits at most `within` for what the player builds in the background (see
    /// [`Player::prepare`]); whether it is ready. An external engine is ready once
    /// greeted.
    pub fn prepare(&mut self, within: Duration) -> bool {
        match self {
            Seated::Builtin(p) => p.prepare(within),
            Seated::External(_) => true,
        }
    }

    /// A move for the side to move in `game` (which is not over).
    ///
    /// # Errors
    /// When an external engine fails to give a legal move in time.
    pub fn choose(&mut self, game: &Game) -> Result<Choice, ExternalError> {
        match self {
            Seated::Builtin(p) => Ok(p.choose(game)),
            Seated::External(e) => e.choose(game),
        }
    }
}
