//! The rule sets, and what each variant is: its description for everything outside
//! the rules core to ask.
//!
//! A variant is one module here: a type implementing [`RuleSet`] (how moves are played
//! and games end, reporting every sowing step from the code that plays it) with its
//! [`VariantInfo`] (key, display name, rules text, board defaults, options, what the
//! board has). Adding one means that module, one [`Variant`] case, one line in
//! [`with_rule_set!`](crate::with_rule_set) and its tests; front ends list variants
//! from [`Variant::ALL`] and read everything else from [`Variant::info`].

mod kalah;
mod oware;
mod simplified;
mod togyz;

pub use kalah::Kalah;
pub use oware::Oware;
pub use simplified::OwareSimplified;
pub use togyz::TogyzKumalak;

use crate::sowing::{NoSteps, StepSink};
use crate::{
    EndReason, MAX_HOUSES, MAX_SEEDS, Move, MoveList, MoveReport, Position, SetupError, Variant,
};

/// What a variant must answer. Implemented by [`Kalah`], [`Oware`],
/// [`OwareSimplified`] and [`TogyzKumalak`]; positions call them for their own variant.
///
/// Functions receive positions of their own variant only; `sow` and `play` receive
/// only legal moves of positions that are not over.
///
/// ```
/// use mancala_core::variants::{Kalah, RuleSet};
/// use mancala_core::{Position, Rules, Variant};
/// assert_eq!(Kalah::VARIANT, Variant::Kalah);
/// assert_eq!(Kalah::INFO.name, "Kalah");
/// let start = Position::new(Rules::kalah(4, 3));
/// assert_eq!(Kalah::legal_moves(&start).len(), 4);
/// ```
pub trait RuleSet {
    /// The variant these rules implement.
    const VARIANT: Variant;

    /// What the variant is, for front ends, records and players.
    const INFO: VariantInfo;

    /// The legal moves of a position that is not over, in house order.
    fn legal_moves(pos: &Position) -> MoveList;

    /// The legal moves of a position that is not over as bits: house `h` is bit
    /// `h - 1`. By default from [`RuleSet::legal_moves`]; a variant whose legal moves
    /// are the non-empty houses answers with one pass over the row, which batched
    /// games (the Python package's `VectorGame`) ask of every game at every step.
    #[inline]
    fn legal_bits(pos: &Position) -> u32 {
        Self::legal_moves(pos)
            .iter()
            .fold(0, |bits, mv| bits | 1 << mv.index())
    }

    /// Plays a legal move in place: sowing, captures, the next player to move and the
    /// end of the game, telling `steps` every step as it makes it. Returns what the
    /// move did.
    fn sow<S: StepSink>(pos: &mut Position, mv: Move, steps: &mut S) -> MoveReport;

    /// Plays a legal move in place without recording its steps: the path of search.
    #[inline]
    fn play(pos: &mut Position, mv: Move) -> MoveReport {
        Self::sow(pos, mv, &mut NoSteps)
    }

    /// What playing a legal move would report, without playing it where the variant
    /// can say by arithmetic on the board: search asks this of every move it orders, so
    /// a variant may answer faster than a sowing. By default the move is played on a
    /// copy. Must agree with [`RuleSet::play`].
    #[inline]
    fn predict(pos: &Position, mv: Move) -> MoveReport {
        let mut copy = *pos;
        Self::play(&mut copy, mv)
    }

    /// Whether a seed sown onto the opponent's row captures the house it lands in by
    /// making it hold `seeds`, by the count alone (Oware: 2 or 3; Togyz Kumalak: an
    /// even number; simplified Oware: 2). What else a capture asks (which seed, a grand
    /// slam, a tuzdyk's claim) is left aside: evaluations count the opponent's houses
    /// one seed from a capture. `false` (the default) where captures are made
    /// otherwise (Kalah: from an own empty house).
    ///
    /// ```
    /// use mancala_core::variants::{Kalah, Oware, RuleSet, TogyzKumalak};
    /// assert!(Oware::captures_at(3) && !Oware::captures_at(4));
    /// assert!(TogyzKumalak::captures_at(4) && !TogyzKumalak::captures_at(3));
    /// assert!(!Kalah::captures_at(2));
    /// ```
    #[inline]
    fn captures_at(seeds: u16) -> bool {
        let _ = seeds;
        false
    }

    /// Whether the game is over in this position, computed from scratch.
    fn is_over(pos: &Position) -> bool;

    /// The final scores of a finished game, player 1 first.
    fn final_scores(pos: &Position) -> [u16; 2];

    /// Why a finished game ended (by the position alone: repetition is the
    /// [`Game`](crate::Game)'s to see).
    fn end_reason(pos: &Position) -> EndReason;

    /// The final scores when the game ends because `pos` came round again since the
    /// last capture, or `None` for a variant without a repetition rule.
    fn repetition_scores(pos: &Position) -> Option<[u16; 2]>;

    /// What the variant forbids in a position set up from parts, beyond seeds adding
    /// up (checked for every variant).
    ///
    /// # Errors
    /// What is wrong.
    fn check_setup(pos: &Position) -> Result<(), SetupError> {
        let _ = pos;
        Ok(())
    }
}

/// Calls `$body` with `$R` standing for the [`RuleSet`] of `$variant`: the one place
/// that turns a variant value into its rules type. Search kernels use it to run a
/// loop specialised for one variant (`with_rule_set!(v, R => playout::<R>(pos))`).
///
/// ```
/// use mancala_core::variants::RuleSet;
/// use mancala_core::{Variant, with_rule_set};
/// let names: Vec<&str> = Variant::ALL.iter().map(|&v| with_rule_set!(v, R => R::INFO.name)).collect();
/// assert_eq!(names, ["Kalah", "Oware", "Simplified Oware", "Togyz Kumalak"]);
/// ```
#[macro_export]
macro_rules! with_rule_set {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Kalah => {
                type $R = $crate::variants::Kalah;
                $body
            }
            $crate::Variant::Oware => {
                type $R = $crate::variants::Oware;
                $body
            }
            $crate::Variant::OwareSimplified => {
                type $R = $crate::variants::OwareSimplified;
                $body
            }
            $crate::Variant::TogyzKumalak => {
                type $R = $crate::variants::TogyzKumalak;
                $body
            }
        }
    };
}

/// Everything about a variant that is not how a move is played: what front ends show,
/// what records and the command line call it, what they may set.
///
/// ```
/// use mancala_core::Variant;
/// let info = Variant::TogyzKumalak.info();
/// assert_eq!((info.key, info.name), ("togyzkumalak", "Togyz Kumalak"));
/// assert_eq!((info.default_houses, info.default_seeds), (9, 9));
/// assert!(info.tuzdyks && !info.stores && !info.extra_turns && !info.must_feed);
/// assert!(Variant::Oware.info().must_feed);
/// assert!(Variant::Kalah.info().takes_option("empty-capture"));
/// assert!(!Variant::Oware.info().takes_option("empty-capture"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The key of the command line, the API, records and the notation: `kalah`.
    pub key: &'static str,
    /// The name people read: `Kalah`, `Togyz Kumalak`.
    pub name: &'static str,
    /// The rules in a few sentences, for help screens (one paragraph; front ends wrap).
    pub rules: &'static str,
    /// A one-line hint for a player looking at the board: how to capture.
    pub tip: &'static str,
    /// Houses per side by default.
    pub default_houses: u8,
    /// Seeds per house at the start by default.
    pub default_seeds: u8,
    /// The most houses per side the rules play on.
    pub max_houses: u8,
    /// The most seeds per house at the start the rules play with.
    pub max_seeds: u8,
    /// The rule options the variant takes, each with its default.
    pub options: &'static [RuleOptionInfo],
    /// Whether seeds are sown into stores on the board (Kalah); otherwise each player
    /// keeps captured seeds beside the board.
    pub stores: bool,
    /// Whether a move can give its player another move (Kalah: ending in the store).
    pub extra_turns: bool,
    /// Whether a position coming round again since the last capture ends the game.
    pub repetition: bool,
    /// Whether a player must give seeds to an opponent who has none, when a move can
    /// (Oware); otherwise an empty row is left to the variant's end rule.
    pub must_feed: bool,
    /// What happens to the seeds left on the board at the end.
    pub leftover: Leftover,
    /// Whether players claim tuzdyks (Togyz Kumalak): state beyond houses and stores.
    pub tuzdyks: bool,
    /// What the seeds a player has banked are called: `store` or `captured`.
    pub bank: &'static str,
}

impl VariantInfo {
    /// Whether the variant takes the rule option with this key.
    #[must_use]
    pub fn takes_option(&self, key: &str) -> bool {
        self.options.iter().any(|o| o.key == key)
    }
}

/// A rule option a variant takes, as front ends offer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOptionInfo {
    /// The key on the command line (`--empty-capture`), in the API and the notation.
    pub key: &'static str,
    /// What it does, in a sentence.
    pub summary: &'static str,
    /// The values it takes, the default first; a switch is `["off", "on"]`.
    pub values: &'static [&'static str],
}

/// What happens to the seeds left on the board when a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Leftover {
    /// Each player takes the seeds on their own row (Kalah).
    OwnRow,
    /// Each player takes their own row, unless a player's captures already decided
    /// the game: then they count for nobody (Oware, Togyz Kumalak).
    OwnRowUnlessDecided,
    /// They count for nobody (simplified Oware).
    Nobody,
}

impl Leftover {
    /// The rule in words, for help screens.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Leftover::OwnRow => "each player takes the seeds left on their own row",
            Leftover::OwnRowUnlessDecided => {
                "each player takes the seeds left on their own row, unless captures \
                 already decided the game"
            }
            Leftover::Nobody => "seeds left on the board count for nobody",
        }
    }
}

/// The board limits every variant shares today (a variant may lower them).
pub(crate) const ANY_HOUSES: u8 = MAX_HOUSES as u8;
pub(crate) const ANY_SEEDS: u8 = MAX_SEEDS as u8;

/// Every non-empty house of the player to move, in house order: the legal moves of
/// Kalah, simplified Oware and Togyz Kumalak, and of Oware while the opponent has
/// seeds.
#[inline]
pub(crate) fn nonempty_houses(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    for (i, &n) in pos.houses(pos.to_move).iter().enumerate() {
        list.push_if(Move::from_index(i), n > 0);
    }
    list
}

/// [`nonempty_houses`] as bits (house `h` is bit `h - 1`), without branches.
#[inline]
pub(crate) fn nonempty_bits(pos: &Position) -> u32 {
    pos.houses(pos.to_move)
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &n)| bits | u32::from(n > 0) << i)
}

/// Whether the captures alone decide the game: a player has more than half of the
/// seeds, or each has exactly half. Then the seeds left on the board count for
/// nobody; a single player with exactly half has not won yet (Oware, Togyz Kumalak).
#[inline]
pub(crate) fn decided_by_captures(pos: &Position) -> bool {
    let total = pos.rules.total_seeds();
    let [a, b] = pos.stores;
    2 * a > total || 2 * b > total || (2 * a == total && 2 * b == total)
}

/// The end reason when the captures decided the game, `None` otherwise.
pub(crate) fn end_reason_by_captures(pos: &Position) -> Option<EndReason> {
    let total = pos.rules.total_seeds();
    if let Some(side) = crate::Side::BOTH
        .into_iter()
        .find(|s| 2 * pos.store(*s) > total)
    {
        Some(EndReason::Majority(side))
    } else if decided_by_captures(pos) {
        Some(EndReason::HalfEach)
    } else {
        None
    }
}
