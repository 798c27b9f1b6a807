//! What game to play: the settings the start screen edits and the command line fills in.

use std::path::Path;

use mancala_core::{RuleOptions, Rules, Side, Variant};
use mancala_engine::{Player, PlayerError, PlayerSpec};
use mancala_match::{Contestant, ExternalSpec, Seated};
use mancala_session::{Record, RuleChoice, Seat, SetupError};

use crate::fit;

mod form;
pub use form::{Field, SetupForm, number_range};

/// The computer player used when a seat's spec cannot be built for the rules.
pub const FALLBACK_PLAYER: &str = "greedy";

/// The seat an external engine (`ext:COMMAND`, given on the command line) has in the
/// session and in a saved record: a computer seat of this name, since a record has no
/// place for a command (a game loaded from it seats [`FALLBACK_PLAYER`] instead, and
/// says so).
pub const EXTERNAL_SEAT: &str = "ext";

/// Whether `spec` names an external engine, `ext:COMMAND`: a program speaking the
/// engine protocol (docs/engine-protocol.md), as `mancala match` plays them. Only the
/// command line seats one; the start screen offers the suite's players.
#[must_use]
pub fn is_external(spec: &str) -> bool {
    spec.trim_start().starts_with(ExternalSpec::PREFIX)
}

/// The settings of a game: rules, who plays each seat, and names.
///
/// ```
/// use mancala_core::Variant;
/// use mancala_tui::Setup;
/// let setup = Setup { variant: Variant::Oware, ..Setup::default() };
/// let rules = setup.rules().unwrap();
/// assert_eq!(rules.total_seeds(), 48);
/// assert_eq!(setup.players[0], "human");
/// assert_eq!(Setup::for_variant(Variant::TogyzKumalak).rules().unwrap().total_seeds(), 162);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// Houses per side.
    pub houses: u8,
    /// Seeds per house at the start.
    pub seeds: u8,
    /// The rule options, kept for every variant: a game takes those its variant takes
    /// ([`VariantInfo::options`](mancala_core::variants::VariantInfo::options)).
    pub options: RuleOptions,
    /// Player specs, player 1 first: `human` or a computer player such as `medium`.
    pub players: [String; 2],
    /// Names, player 1 first.
    pub names: [String; 2],
    /// Seed for computer players that use randomness.
    pub seed: u64,
}

impl Default for Setup {
    /// The first variant of [`Variant::ALL`] on its own board, a person against
    /// `medium`.
    fn default() -> Setup {
        Setup::for_variant(Variant::ALL[0])
    }
}

impl Setup {
    /// `variant` on its default board with its default options, a person against
    /// `medium`.
    #[must_use]
    pub fn for_variant(variant: Variant) -> Setup {
        let info = variant.info();
        Setup {
            variant,
            houses: info.default_houses,
            seeds: info.default_seeds,
            options: RuleOptions::default(),
            players: [Seat::Human.to_string(), "medium".to_owned()],
            names: ["Player 1".to_owned(), "Medium bot".to_owned()],
            seed: 1,
        }
    }

    /// The rules these settings describe: the options the variant takes, checked by
    /// the session as every front end's are.
    ///
    /// # Errors
    /// When the board size is out of range.
    pub fn rules(&self) -> Result<Rules, SetupError> {
        RuleChoice::new(self.variant, self.houses, self.seeds)
            .options_taken(self.options)
            .rules()
    }

    /// The settings of a recorded game: its rules, its players' kinds and names, and
    /// `seed` for the randomness of computer players.
    #[must_use]
    pub fn of_record(record: &Record, seed: u64) -> Setup {
        let rules = record.rules();
        Setup {
            variant: rules.variant(),
            houses: u8::try_from(rules.houses()).unwrap_or(u8::MAX),
            seeds: u8::try_from(rules.seeds()).unwrap_or(u8::MAX),
            options: rules.options(),
            players: record.seats().clone().map(|s| s.to_string()),
            names: record.names().clone(),
            seed,
        }
    }

    /// Who plays seat `i` (0 or 1), or why its spec is not a player spec at all.
    ///
    /// # Errors
    /// When `players[i]` is not `human` or a well-formed player spec.
    pub fn seat(&self, i: usize) -> Result<Seat, PlayerError> {
        if is_external(&self.players[i]) {
            return Seat::computer(EXTERNAL_SEAT);
        }
        Seat::computer(&self.players[i])
    }

    /// The same settings with the names the game is played under: each as given,
    /// trimmed, or when empty the seat's default name (`Player 2`, `Medium bot`), as
    /// the start screen shows while a name is empty, cut to [`NAME_MAX`] columns (as
    /// the start screen lets one type them). Two players of one name (two
    /// `master` bots) are told apart by their seat: `Master bot 1`, `Master bot 2`.
    ///
    /// ```
    /// use mancala_tui::Setup;
    /// let bots = Setup { players: ["master".into(), "master".into()], ..Setup::default() };
    /// let named = Setup { names: [String::new(), String::new()], ..bots }.named();
    /// assert_eq!(named.names, ["Master bot 1", "Master bot 2"]);
    /// ```
    #[must_use]
    pub fn named(mut self) -> Setup {
        for (i, side) in Side::BOTH.into_iter().enumerate() {
            let seat = self.seat(i).unwrap_or(Seat::Human);
            let name = mancala_session::name_or_default(&self.names[i], side, &seat);
            self.names[i] = fit::truncate(&name, NAME_MAX).trim_end().to_owned();
        }
        if self.names[0] == self.names[1] {
            let name = fit::truncate(&self.names[0], NAME_MAX - 2);
            self.names = [1, 2].map(|n| format!("{} {n}", name.trim_end()));
        }
        self
    }

    /// Whether seat `i` (0 or 1) is played by a person.
    #[must_use]
    pub fn is_human(&self, i: usize) -> bool {
        self.seat(i).is_ok_and(|seat| seat.is_human())
    }
}

/// Builds the computer player named `spec` for `rules`, falling back to
/// [`FALLBACK_PLAYER`] (then `random`) when it cannot be built. Returns the player, the
/// spec actually used, and the reason for a fallback.
pub fn build_player(
    spec: &str,
    rules: Rules,
    seed: u64,
) -> (Box<dyn Player>, String, Option<String>) {
    let first = try_build(spec, rules, seed);
    match first {
        Ok(p) => (p, spec.trim().to_owned(), None),
        Err(e) => {
            let why = e.to_string();
            for fallback in [FALLBACK_PLAYER, "random"] {
                if let Ok(p) = try_build(fallback, rules, seed) {
                    return (p, fallback.to_owned(), Some(why));
                }
            }
            unreachable!("the random player plays every variant")
        }
    }
}

/// Seats the computer player named `spec` for `rules`: one of the suite's players as
/// [`build_player`] builds it, or for `ext:COMMAND` the engine started and greeted,
/// its standard error appended to `stderr_log` (so that it never writes over the
/// screen), falling back as `build_player` does (with the engine's failure as the
/// reason) when it cannot be. Returns the player, the spec actually used, and the
/// reason for a fallback.
pub fn build_seated(
    spec: &str,
    rules: Rules,
    seed: u64,
    stderr_log: &Path,
) -> (Seated, String, Option<String>) {
    if spec.trim() == EXTERNAL_SEAT {
        // The seat of an external engine in a saved game, which keeps no command.
        let (player, used, _) = build_player(FALLBACK_PLAYER, rules, seed);
        let why = "the saved game does not say how to start its external engine";
        return (Seated::Builtin(player), used, Some(why.to_owned()));
    }
    if !is_external(spec) {
        let (player, used, why) = build_player(spec, rules, seed);
        return (Seated::Builtin(player), used, why);
    }
    let logged = |c: Contestant| match c {
        Contestant::External(ext) => Contestant::External(ext.with_stderr_log(stderr_log)),
        builtin @ Contestant::Builtin(_) => builtin,
    };
    match spec
        .parse::<Contestant>()
        .and_then(|c| logged(c).seat(rules, seed))
    {
        Ok(seated) => (seated, spec.trim().to_owned(), None),
        Err(e) => {
            let (player, used, _) = build_player(FALLBACK_PLAYER, rules, seed);
            (Seated::Builtin(player), used, Some(e.to_string()))
        }
    }
}

/// Every computer player the crate builds is built here, so a test can count them.
fn try_build(spec: &str, rules: Rules, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
    #[cfg(test)]
    build_count::add_one();
    spec.parse::<PlayerSpec>()?.build(rules, seed)
}

/// Why `spec` cannot be built for `rules`, if it cannot. Finding out builds the
/// player, which can be expensive (a `medium` player allocates a 16 MiB table).
fn seat_problem(spec: &str, rules: Rules) -> Option<PlayerError> {
    if is_external(spec) {
        // Started when the game starts (the command line has checked it once).
        return None;
    }
    match Seat::computer(spec) {
        Ok(Seat::Human) => None,
        Ok(Seat::Computer(_)) => try_build(spec, rules, 0).err(),
        Err(e) => Some(e),
    }
}

/// What the start screen says about a seat whose player cannot play `rules`: the
/// engine's reason, or for a name it does not know, that this build lacks it.
fn seat_note(spec: &str, rules: Rules) -> Option<String> {
    seat_problem(spec, rules).map(|e| match e {
        PlayerError::Unknown(_) => format!("{spec} is not available in this build"),
        other => other.to_string(),
    })
}

#[cfg(test)]
pub(crate) mod build_count {
    //! A count of the computer players built on this thread. Thread-local, so that
    //! tests running in parallel do not see each other's players.

    use std::cell::Cell;

    thread_local! {
        static BUILT: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn add_one() {
        BUILT.with(|n| n.set(n.get() + 1));
    }

    /// Players built on this thread so far.
    pub(crate) fn get() -> usize {
        BUILT.with(Cell::get)
    }
}

/// The most columns a name takes (a wide character, CJK or an emoji, counts two):
/// the start screen accepts no more, names given on the command line are cut to it,
/// and the board shows every name whole.
pub const NAME_MAX: usize = 16;

/// name otherwise.
///
/// ```
/// use mancala_tui::default_name;
/// assert_eq!(default_name(1, "human"), "Player 2");
/// assert_eq!(default_name(1, "random:seed=4"), "Random bot");
/// ```
#[must_use]
pub fn default_name(seat: usize, player: &str) -> String {
    let side = if seat == 0 { Side::South } else { Side::North };
    match Seat::computer(player) {
        Ok(s) => mancala_session::default_name(side, &s),
        // A spec that does not parse is refused before a game starts; until then the
        // start screen names it after the player's name as typed.
        Err(_) => {
            let typed = player.split(':').next().unwrap_or(player);
            match typed.parse::<Seat>() {
                Ok(seat) => mancala_session::default_name(side, &seat),
                Err(_) => "Computer".to_owned(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_read_as_the_session_reads_them() {
        let s = Setup {
            players: ["Human".into(), "random:seed".into()],
            ..Setup::default()
        };
        assert!(s.is_human(0));
        assert!(!s.is_human(1));
        assert!(s.seat(1).is_err());
        assert_eq!(default_name(0, "Human"), "Player 1");
        assert_eq!(default_name(1, "random:seed"), "Random bot");
    }

    #[test]
    fn build_player_falls_back_and_says_why() {
        use mancala_core::Rules;
        let (_, used, why) = build_player("no-such-bot", Rules::kalah(6, 4), 1);
        assert_eq!(used, "greedy");
        assert!(why.unwrap().contains("no-such-bot"));
        let (_, used, why) = build_player("random", Rules::kalah(6, 4), 1);
        assert_eq!((used.as_str(), why), ("random", None));
    }
}
