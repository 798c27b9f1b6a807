//! What each variant is, apart from how its moves are played: names, rules texts, board
//! limits and defaults, options. Front ends, records and the rules' own checks read it
//! through [`Variant::info`](crate::Variant::info); it depends on no rule set, so the
//! rules (`rules.rs`) can answer it without reaching into the rule sets.

use crate::{MAX_HOUSES, MAX_SEEDS};

/// Everything about a variant that is not how a move is played: what front ends show,
/// what records and the command line call it, what they may set.
///
/// ```
/// use mancala_core::Variant;
/// let info = Variant::TogyzKumalak.info();
/// assert_eq!((info.key, info.name), ("togyzkumalak", "Togyz Kumalak"));
/// assert_eq!((info.default_houses, info.default_seeds), (9, 9));
/// assert!(info.claims && !info.stores && !info.extra_turns && !info.must_feed);
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
    /// Whether players claim houses of the opponent's row (Togyz Kumalak's tuzdyks):
    /// state beyond houses and stores.
    pub claims: bool,
    /// What a claimed house is called (`tuzdyk`), or empty for a game without claims.
    pub claim_word: &'static str,
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

impl RuleOptionInfo {
    /// Whether the option is a switch, `off` by default or `on`.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// let [empty, end] = Variant::Kalah.info().options else { panic!() };
    /// assert!(empty.is_switch() && !end.is_switch());
    /// ```
    #[must_use]
    pub fn is_switch(&self) -> bool {
        self.values == ["off", "on"]
    }
}

/// The key of Kalah's option "an empty opposite house still captures".
pub(crate) const EMPTY_CAPTURE: &str = "empty-capture";
/// The key of Kalah's option "when the game ends".
pub(crate) const END_RULE: &str = "end-rule";

/// Every rule option a game takes, as [`RuleOptions`](crate::RuleOptions) holds them
/// (Kalah's).
pub(crate) const RULE_OPTIONS: [RuleOptionInfo; 2] = [
    RuleOptionInfo {
        key: EMPTY_CAPTURE,
        summary: "a last seed in an own empty house captures even when the \
                  opposite house is empty",
        values: &["off", "on"],
    },
    RuleOptionInfo {
        key: END_RULE,
        summary: "when the game ends: the player to move has no seeds, or either \
                  row is empty",
        values: &["mover-cannot-move", "either-side-empty"],
    },
];

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

/// What kalah is (its rule set's `INFO`).
pub(crate) const KALAH: VariantInfo = VariantInfo {
    key: "kalah",
    name: "Kalah",
    rules: "Pick one of your houses: its seeds are sown anticlockwise, one per house, \
            into your own store but not your opponent's. If the last seed lands in your \
            store, you move again. If it lands in one of your empty houses, it captures \
            itself and the seeds of the opposite house into your store. The game ends \
            when the player to move has no seeds; each player then takes the seeds on \
            their own row, and the fuller store wins.",
    tip: "end in your store to move again",
    default_houses: 6,
    default_seeds: 4,
    max_houses: ANY_HOUSES,
    max_seeds: ANY_SEEDS,
    options: &RULE_OPTIONS,
    stores: true,
    extra_turns: true,
    repetition: false,
    must_feed: false,
    leftover: Leftover::OwnRow,
    claims: false,
    claim_word: "",
    bank: "store",
};

/// What oware is (its rule set's `INFO`).
pub(crate) const OWARE: VariantInfo = VariantInfo {
    key: "oware",
    name: "Oware",
    rules: "Oware under the Abapa tournament rules. Pick one of your houses: its seeds \
            are sown anticlockwise, one per house, skipping the house they came from. If \
            the last seed makes a house on your opponent's row hold 2 or 3, you capture \
            them, and the houses before it while they hold 2 or 3 (but a move that would \
            take every seed your opponent has captures nothing). If your opponent has no \
            seeds you must give them some. More than half of the seeds wins; when no \
            move is possible, or a position comes round again since the last capture, \
            each player takes the seeds on their own row.",
    tip: "make 2 or 3 over there to capture",
    default_houses: 6,
    default_seeds: 4,
    max_houses: ANY_HOUSES,
    max_seeds: ANY_SEEDS,
    options: &[],
    stores: false,
    extra_turns: false,
    repetition: true,
    must_feed: true,
    leftover: Leftover::OwnRowUnlessDecided,
    claims: false,
    claim_word: "",
    bank: "captured",
};

/// What simplified is (its rule set's `INFO`).
pub(crate) const OWARE_SIMPLIFIED: VariantInfo = VariantInfo {
    key: "oware-simplified",
    name: "Simplified Oware",
    rules: "The simplified Oware of a course assignment. Pick one of your houses: its \
            seeds are sown anticlockwise, one per house. Every seed that turns a house \
            on your opponent's row from 1 into 2 captures both at once, so one move can \
            capture several times. A player with no seeds is skipped. The game ends \
            when at most two seeds are left on the board, or when a position comes \
            round again since the last capture; seeds left on the board count for \
            nobody, and the captures decide.",
    tip: "turn their 1 into 2 to capture",
    default_houses: 6,
    default_seeds: 4,
    max_houses: ANY_HOUSES,
    max_seeds: ANY_SEEDS,
    options: &[],
    stores: false,
    extra_turns: false,
    repetition: true,
    must_feed: false,
    leftover: Leftover::Nobody,
    claims: false,
    claim_word: "",
    bank: "captured",
};

/// What togyz is (its rule set's `INFO`).
pub(crate) const TOGYZ_KUMALAK: VariantInfo = VariantInfo {
    key: "togyzkumalak",
    name: "Togyz Kumalak",
    rules: "Kazakhstan's national mancala game. Pick one of your houses: its seeds are \
            sown anticlockwise starting in that same house (a single seed moves to the \
            next house). If the last seed makes a house on your opponent's row even, \
            you capture it. If it makes it exactly 3, it becomes your tuzdyk and you \
            take the 3: once a game, never your opponent's last house, and never the \
            house numbered like your opponent's tuzdyk. Every seed sown into a tuzdyk \
            goes to its owner. More than half of the seeds wins; a player to move with \
            no seeds, or a position coming round again since the last capture, ends \
            the game, and each player takes the seeds on their row.",
    tip: "make it even over there to capture, 3 for a tuzdyk",
    default_houses: 9,
    default_seeds: 9,
    max_houses: ANY_HOUSES,
    max_seeds: ANY_SEEDS,
    options: &[],
    stores: false,
    extra_turns: false,
    repetition: true,
    must_feed: false,
    leftover: Leftover::OwnRowUnlessDecided,
    claims: true,
    claim_word: "tuzdyk",
    bank: "captured",
};
