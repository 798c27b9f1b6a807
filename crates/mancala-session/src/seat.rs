//! Who sits in a seat: a person or a computer player by its spec, and why a player
//! cannot play a game.

use mancala_core::{Rules, Variant};
use mancala_engine::{PlayerError, PlayerInfo, PlayerSpec};

/// Why a seat's player cannot play a game: the engine's reason, said with the players
/// that can (see [`Seat::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatError {
    /// What the engine said.
    pub error: PlayerError,
    /// The variant of the game.
    pub variant: Variant,
}

impl std::fmt::Display for SeatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The engine's "unknown player" lists every name it knows, for every variant and
        // without `human`: the list that matters here replaces it.
        match &self.error {
            PlayerError::Unknown(name) => write!(f, "unknown player {name:?}")?,
            other => write!(f, "{other}")?,
        }
        let choices: Vec<_> = Seat::choices(self.variant).collect();
        write!(f, " (players for {}: {})", self.variant, choices.join(", "))
    }
}

impl std::error::Error for SeatError {}

/// Who plays a seat: a person at the keyboard, or a computer player named by a spec.
///
/// Written `human` or as a [`PlayerSpec`] (`random:seed=3`), on command lines, in the
/// web API and in records alike.
///
/// ```
/// use mancala_session::Seat;
/// assert!(Seat::Human.is_human());
/// let bot: Seat = "random:seed=3".parse().unwrap();
/// assert_eq!(bot.to_string(), "random:seed=3");
/// assert_eq!("Human".parse::<Seat>().unwrap(), Seat::Human);
/// assert_eq!(Seat::Human.to_string(), "human");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person.
    Human,
    /// A computer player, built by the front end from this spec.
    Computer(PlayerSpec),
}

impl Seat {
    /// How a person's seat is written.
    pub const HUMAN: &'static str = "human";

    /// The seat named by `spec`: `human`, or any [`PlayerSpec`] string.
    ///
    /// # Errors
    /// When `spec` is not a well-formed player spec. Whether the engine knows the name is
    /// only found out when the front end builds the player.
    pub fn computer(spec: &str) -> Result<Seat, PlayerError> {
        let spec: PlayerSpec = spec.parse()?;
        Ok(Seat::from(spec))
    }

    /// The players a seat can take in a game of `variant`: a person (`human`), then the
    /// computer players the engine's catalogue offers for it
    /// ([`PlayerInfo::menu_for`], in its order). Front ends offer these and list them
    /// when a name is refused; the tunable searches the menus leave out (`alphabeta`,
    /// `mcts`) are still seated by name.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_session::Seat;
    /// let oware: Vec<_> = Seat::choices(Variant::Oware).collect();
    /// assert_eq!(oware[..3], ["human", "easy", "medium"]);
    /// assert!(!oware.contains(&"robot") && !oware.contains(&"alphabeta"));
    /// assert!(Seat::choices(Variant::Kalah).any(|p| p == "robot"));
    /// ```
    pub fn choices(variant: Variant) -> impl Iterator<Item = &'static str> {
        std::iter::once(Seat::HUMAN).chain(PlayerInfo::menu_for(variant).map(|p| p.name))
    }

    /// Checks that this seat can sit at a game of `rules` by building its computer
    /// player (with `seed`), so that a front end refuses a bad player before the game
    /// starts, not in the middle of it.
    ///
    /// ```
    /// use mancala_core::Rules;
    /// use mancala_session::Seat;
    /// let robot = Seat::computer("robot").unwrap();
    /// assert!(robot.check(Rules::kalah(6, 4), 1).is_ok());
    /// let err = robot.check(Rules::oware(6, 4), 1).unwrap_err().to_string();
    /// assert!(err.starts_with("player robot does not play oware"), "{err}");
    /// assert!(err.ends_with("(players for oware: human, easy, medium, hard, expert, master, perfect, greedy, random, fewest, most)"), "{err}");
    /// let err = Seat::computer("nobody").unwrap().check(Rules::kalah(6, 4), 1).unwrap_err();
    /// assert!(err.to_string().starts_with("unknown player \"nobody\" (players for kalah: human, easy,"));
    /// ```
    ///
    /// # Errors
    /// A [`SeatError`]: the engine's reason, and the players this variant can seat.
    pub fn check(&self, rules: Rules, seed: u64) -> Result<(), SeatError> {
        match self.spec() {
            None => Ok(()),
            Some(spec) => spec
                .build(rules, seed)
                .map(drop)
                .map_err(|error| SeatError {
                    error,
                    variant: rules.variant(),
                }),
        }
    }

    /// Whether a person plays this seat.
    #[must_use]
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }

    /// The computer player's spec, if a computer plays this seat.
    #[must_use]
    pub fn spec(&self) -> Option<&PlayerSpec> {
        match self {
            Seat::Human => None,
            Seat::Computer(spec) => Some(spec),
        }
    }
}

impl From<PlayerSpec> for Seat {
    fn from(spec: PlayerSpec) -> Seat {
        if spec.name() == Seat::HUMAN {
            Seat::Human
        } else {
            Seat::Computer(spec)
        }
    }
}

impl std::str::FromStr for Seat {
    type Err = PlayerError;
    fn from_str(s: &str) -> Result<Seat, PlayerError> {
        Seat::computer(s)
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seat::Human => f.write_str(Seat::HUMAN),
            Seat::Computer(spec) => write!(f, "{spec}"),
        }
    }
}
