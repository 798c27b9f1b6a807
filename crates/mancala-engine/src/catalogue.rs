//! The computer players as front ends offer them: described once here, listed by the
//! console, the terminal game, the web (`GET /api/players`) and the Python package.

use std::fmt;

use mancala_core::Variant;

/// A computer player people can pick by name.
///
/// ```
/// use mancala_core::Variant;
/// use mancala_engine::PlayerInfo;
/// let robot = PlayerInfo::find("robot").unwrap();
/// assert!(robot.plays(Variant::Kalah) && !robot.plays(Variant::Oware));
/// assert!(PlayerInfo::find("expert").unwrap().plays(Variant::TogyzKumalak));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The name a spec starts with: `expert`, `random`.
    pub name: &'static str,
    /// What it does, in a few words.
    pub summary: &'static str,
    /// Which variants it plays.
    pub plays: Plays,
    /// Roughly how long it thinks a move with its default options.
    pub cost: Cost,
    /// Whether menus offer it (the tunable searches are for the command line).
    pub in_menus: bool,
}

/// Which variants a player plays, by what the variant is rather than its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plays {
    /// Every variant.
    Every,
    /// Variants where a move can give its player another (it reasons about them).
    WithExtraTurns,
}

/// Roughly how long a player thinks a move with its default options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cost {
    /// No search: a move at once.
    Instant,
    /// A bounded search: a fraction of a second.
    Fraction,
    /// About a second a move (and two threads for `master`).
    Second,
}

impl Cost {
    /// The cost in a word for APIs: `instant`, `fraction` or `second`.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Cost::Instant => "instant",
            Cost::Fraction => "fraction",
            Cost::Second => "second",
        }
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

const fn menu(name: &'static str, summary: &'static str, cost: Cost) -> PlayerInfo {
    PlayerInfo {
        name,
        summary,
        plays: Plays::Every,
        cost,
        in_menus: true,
    }
}

impl PlayerInfo {
    /// Every computer player, in the order menus list them: the levels weakest
    /// first, the simple bots, then the tunable searches.
    pub const ALL: &'static [PlayerInfo] = &[
        menu("easy", "a short Monte Carlo search", Cost::Fraction),
        menu("medium", "looks five moves ahead", Cost::Fraction),
        menu("hard", "a deeper alpha-beta search", Cost::Fraction),
        menu("expert", "the deepest search of the levels", Cost::Fraction),
        menu(
            "master",
            "a second a move on two threads; solves the end",
            Cost::Second,
        ),
        menu(
            "perfect",
            "exact when it can solve the game in a second; else expert",
            Cost::Second,
        ),
        menu("greedy", "takes the most seeds now", Cost::Instant),
        PlayerInfo {
            name: "robot",
            summary: "the classic Kalah robot: extra moves first, then captures",
            plays: Plays::WithExtraTurns,
            cost: Cost::Instant,
            in_menus: true,
        },
        menu("random", "any legal move", Cost::Instant),
        menu("fewest", "the house with the fewest seeds", Cost::Instant),
        menu("most", "the house with the most seeds", Cost::Instant),
        PlayerInfo {
            name: "alphabeta",
            summary: "alpha-beta search (depth, nodes, ms, threads, weights)",
            in_menus: false,
            ..menu("", "", Cost::Fraction)
        },
        PlayerInfo {
            name: "mcts",
            summary: "Monte Carlo tree search (sims, ms, threads)",
            in_menus: false,
            ..menu("", "", Cost::Fraction)
        },
    ];

    /// The player called `name`.
    #[must_use]
    pub fn find(name: &str) -> Option<&'static PlayerInfo> {
        PlayerInfo::ALL.iter().find(|p| p.name == name)
    }

    /// Whether it plays `variant`.
    #[must_use]
    pub fn plays(&self, variant: Variant) -> bool {
        match self.plays {
            Plays::Every => true,
            Plays::WithExtraTurns => variant.info().extra_turns,
        }
    }

    /// Why it does not play `variant`, or `None` when it does.
    #[must_use]
    pub fn cannot_play(&self, variant: Variant) -> Option<&'static str> {
        match self.plays {
            _ if self.plays(variant) => None,
            Plays::WithExtraTurns => Some("it reasons about extra moves, which this game has not"),
            Plays::Every => None,
        }
    }

    /// The players menus offer for `variant`, in menu order.
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_engine::PlayerInfo;
    /// let togyz: Vec<&str> = PlayerInfo::menu_for(Variant::TogyzKumalak).map(|p| p.name).collect();
    /// assert_eq!(togyz[..4], ["easy", "medium", "hard", "expert"]);
    /// assert!(!togyz.contains(&"robot") && !togyz.contains(&"alphabeta"));
    /// ```
    pub fn menu_for(variant: Variant) -> impl Iterator<Item = &'static PlayerInfo> {
        PlayerInfo::ALL
            .iter()
            .filter(move |p| p.in_menus && p.plays(variant))
    }
}
