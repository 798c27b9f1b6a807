//! Game descriptions: a two-row mancala game's rules as data, read from TOML.
//!
//! A [`Description`] says what a game is (its key, names, where it is played, its
//! sources) and how it is played: the board, the sowing, the turn, the captures, the
//! claimed houses and the end. Every field is described in `docs/rules-format.md`; the
//! games the suite ships are files in `crates/mancala-core/games/`, embedded in the
//! binary ([`Description::builtin`]). [`Described`](crate::described::Described) plays
//! any description that [`Description::check`] accepts.
//!
//! ```
//! use mancala_core::description::Description;
//! let oware = Description::builtin("oware").unwrap();
//! assert_eq!(oware.name, "Oware");
//! assert_eq!(oware.capture[0].counts, [2, 3]);
//! let text = oware.to_toml();
//! assert_eq!(Description::from_toml(&text, "oware.toml").unwrap(), oware);
//! ```

mod builtin;
mod check;
mod find;
mod json;
mod parse;

use serde::{Deserialize, Serialize};

pub use check::DescriptionError;
pub use find::Mechanic;

/// The format version this build reads and writes.
pub const FORMAT: u32 = 1;

/// A game's rules and what it is, as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    /// The format version of the file: [`FORMAT`].
    pub format: u32,
    /// The key on command lines, in records and the API: lower case letters, digits and
    /// `-`, e.g. `oware`.
    pub key: String,
    /// The name shown to people, e.g. `Oware`.
    pub name: String,
    /// Other names the game is known by.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Where it is played, e.g. `West Africa`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub region: String,
    /// Where its rules come from, each a citation with what it supports.
    #[serde(default, rename = "source", skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<Source>,
    /// One line saying what the game is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub summary: String,
    /// The rules in words, for help screens.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rules: String,
    /// A short hint about captures, for help screens.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tip: String,
    /// The board.
    pub board: Board,
    /// How seeds are sown.
    #[serde(default)]
    pub sowing: Sowing,
    /// What a turn may and must do.
    #[serde(default)]
    pub turn: Turn,
    /// The capture rules, tried in order after a sowing (or during it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capture: Vec<Capture>,
    /// Houses a player may claim (Togyz Kumalak's tuzdyk), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claim>,
    /// When and how the game ends.
    pub end: End,
}

/// A source of a game's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The work: author, title, publisher, year, pages.
    pub cite: String,
    /// What it supports, or how the game reads it where sources disagree.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// The board: two rows of houses, and stores or none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Houses a side in the standard game.
    pub houses: u8,
    /// Seeds a house at the start of the standard game (0 where `start` gives the
    /// pattern).
    #[serde(default)]
    pub seeds: u8,
    /// A start pattern: the seeds of houses 1, 2, ... of each player's row, where the
    /// houses do not all start alike (empty: every house starts with `seeds`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start: Vec<u8>,
    /// The fewest houses a side a player may choose (default 1).
    #[serde(default = "one")]
    pub min_houses: u8,
    /// The most houses a side a player may choose (default and at most 16).
    #[serde(default = "max_houses")]
    pub max_houses: u8,
    /// The most seeds a house a player may choose at the start (default and at most 64).
    #[serde(default = "max_seeds")]
    pub max_seeds: u8,
    /// Whether each player has a store on the board that sowing may pass through.
    #[serde(default)]
    pub stores: bool,
}

/// How a move sows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sowing {
    /// Where the first seed goes.
    #[serde(default)]
    pub first: First,
    /// Whether a lap round the board skips the house the seeds came from.
    #[serde(default)]
    pub skip_origin: bool,
    /// Whether the sowing drops a seed into the mover's own store when it passes it.
    #[serde(default)]
    pub own_store: bool,
    /// The way round the board every sowing goes.
    #[serde(default, skip_serializing_if = "is_default")]
    pub direction: Direction,
    /// Whether a sowing goes on in further laps, and from where.
    #[serde(default, skip_serializing_if = "is_default")]
    pub relay: Relay,
    /// The most laps one move sows (0: no bound). Needed by a relay sowing that does
    /// not sow into the mover's store, which could otherwise go round for ever.
    #[serde(default, skip_serializing_if = "is_default")]
    pub max_laps: u16,
}

/// The way round the board a sowing goes, seen from above with player 1 at the bottom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Along the mover's row to the right, then along the opponent's row (most games).
    #[default]
    Anticlockwise,
    /// Along the mover's row to the left, then along the opponent's row (many games of
    /// East and South Africa and of India).
    Clockwise,
    /// Set by the count sown: an odd number clockwise, an even number anticlockwise,
    /// each player's store staying at their right (Cross-Kalah).
    ByCount,
}

/// Whether a sowing goes on after its last seed (multi-lap or relay sowing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relay {
    /// One lap: the sowing ends with its last seed.
    #[default]
    None,
    /// When the last seed lands in a house that held seeds, all of that house's seeds
    /// are taken up and sown on from the next house (Ayoayo, Dakon, Sungka).
    Last,
    /// When the house after the last one holds seeds, they are taken up and sown on
    /// from the house after it (Russ's "Indian" laps: Pallanguzhi).
    Next,
}

/// Where the first seed of a sowing goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum First {
    /// Into the next house (anticlockwise).
    #[default]
    Next,
    /// Back into the house the seeds came from, unless it held one seed, which moves on
    /// (Togyz Kumalak).
    Origin,
}

/// What a turn may and must do.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// Whether a sowing that ends in the mover's store gives another turn.
    #[serde(default)]
    pub extra_turn: bool,
    /// Whether a player must, if they can, give seeds to an opponent with none.
    #[serde(default)]
    pub must_feed: bool,
    /// What happens when the next player has no move.
    #[serde(default)]
    pub no_move: NoMove,
}

/// What happens when the player who would move next has no legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoMove {
    /// The game ends (by the end rules).
    #[default]
    Ends,
    /// The turn passes back: the player who just moved moves again.
    Pass,
}

/// One capture rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capture {
    /// What is captured.
    pub kind: CaptureKind,
    /// `count`: the counts a house must reach to be captured, e.g. `[2, 3]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<u16>,
    /// `count`: whether any even count captures.
    #[serde(default, skip_serializing_if = "is_false")]
    pub even: bool,
    /// `count`: whose houses may be captured.
    #[serde(default)]
    pub row: Row,
    /// When the rule is tried: after the last seed, or after every seed.
    #[serde(default)]
    pub timing: Timing,
    /// `count`: whether the houses before the captured one (on the same row, going
    /// back) are captured too while they hold a capturing count.
    #[serde(default, skip_serializing_if = "is_false")]
    pub run: bool,
    /// `count`: what happens when a capture would take every seed of the opponent's
    /// row.
    #[serde(default)]
    pub grand_slam: GrandSlam,
    /// `across`: what happens when the facing house is empty.
    #[serde(default)]
    pub empty_facing: EmptyFacing,
    /// `count`: who takes the captured seeds.
    #[serde(default, skip_serializing_if = "is_default")]
    pub by: Taker,
    /// `next`: whether the house facing the captured one is captured with it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub facing: bool,
}

/// Who takes the seeds a capture rule captures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Taker {
    /// The player who moved.
    #[default]
    Mover,
    /// The player whose row the house is on, whoever moved (Pallanguzhi's 4s).
    Owner,
}

/// What a capture rule takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureKind {
    /// The house the seed landed in, when its count is one of the capturing counts.
    Count,
    /// The seeds of the house facing the mover's own house where the last seed landed,
    /// when that house was empty, with the sowing seed (Kalah).
    Across,
    /// The house after the house that follows the last one, when that following house
    /// is empty (Pallanguzhi, and Russ's capture by "next house").
    Next,
}

/// Whose houses a capture may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Row {
    /// The opponent's.
    #[default]
    Opponent,
    /// The mover's own.
    Own,
    /// Either.
    Either,
}

/// When a capture rule is tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// Where the last seed lands.
    #[default]
    Last,
    /// Wherever each seed lands, as it is sown.
    EachSeed,
}

/// A capture that would take every seed of the opponent's row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GrandSlam {
    /// It captures.
    #[default]
    Captures,
    /// The move is played and captures nothing (Oware, Abapa).
    NoCapture,
}

/// An `across` capture whose facing house is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyFacing {
    /// Nothing is captured.
    #[default]
    NoCapture,
    /// The sowing seed alone is captured (Kalah's `empty-capture` option).
    TakeSowingSeed,
}

/// A house a player may claim for the rest of the game: seeds sown into it are the
/// claimer's (Togyz Kumalak's tuzdyk).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// What players call it, e.g. `tuzdyk`.
    pub word: String,
    /// The count the last seed must make in an opponent's house to claim it.
    pub count: u16,
    /// Whether the opponent's last house may never be claimed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub not_last_house: bool,
    /// Whether a house may not be claimed when the opponent has claimed the house of
    /// the same number.
    #[serde(default, skip_serializing_if = "is_false")]
    pub not_mirror: bool,
}

/// When and how the game ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// Whether the game ends when a player has captured more than half of the seeds, or
    /// each exactly half.
    #[serde(default, skip_serializing_if = "is_false")]
    pub majority: bool,
    /// When a lack of seeds ends the game.
    #[serde(default)]
    pub empty: Empty,
    /// The game ends when this many seeds or fewer are left on the board (0: never by
    /// this rule).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seeds_left: u16,
    /// Where the seeds left on the board go when the game ends.
    pub leftover: Leftover,
    /// Whether a position that comes round again since the last capture ends the game.
    #[serde(default, skip_serializing_if = "is_false")]
    pub repetition: bool,
}

/// When a lack of seeds ends the game. (Where a player with no move is passed over,
/// `turn.no_move = "pass"`, the player to move lacks a move only when neither has one.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Empty {
    /// When the player to move has no legal move.
    #[default]
    MoverCannotMove,
    /// As soon as either player's houses are all empty.
    EitherSide,
}

/// Where the seeds left on the board go when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Leftover {
    /// Each player takes the seeds on their own row.
    OwnRow,
    /// Each player takes their own row, unless the captures already decided the game.
    OwnRowUnlessDecided,
    /// They count for nobody.
    Nobody,
}

fn one() -> u8 {
    1
}

fn max_houses() -> u8 {
    crate::MAX_HOUSES as u8
}

fn max_seeds() -> u8 {
    crate::MAX_SEEDS as u8
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}
