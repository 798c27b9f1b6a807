//! The games the suite ships: every file of `crates/mancala-core/games/`, embedded.

use std::sync::OnceLock;

use super::{Description, Empty, EmptyFacing};
use crate::{EndRule, Rules};

// `FILES`: every `games/*.toml`, listed by the build script (`build.rs`), so that adding
// a game is adding its file.
include!(concat!(env!("OUT_DIR"), "/games.rs"));

/// The shipped games, read once.
static CATALOGUE: OnceLock<Vec<Description>> = OnceLock::new();

impl Description {
    /// Every game the suite ships, in the order of their keys.
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let keys: Vec<String> = Description::builtins().into_iter().map(|d| d.key).collect();
    /// for key in ["kalah", "oware", "oware-simplified", "togyzkumalak"] {
    ///     assert!(keys.iter().any(|k| k == key));
    /// }
    /// assert!(keys.is_sorted());
    /// ```
    #[must_use]
    pub fn builtins() -> Vec<Description> {
        Description::catalogue().to_vec()
    }

    /// The shipped game with this key, if there is one.
    #[must_use]
    pub fn builtin(key: &str) -> Option<Description> {
        Description::catalogue()
            .iter()
            .find(|d| d.key == key)
            .cloned()
    }

    /// The shipped games, parsed on first use.
    fn catalogue() -> &'static [Description] {
        CATALOGUE.get_or_init(|| {
            FILES
                .iter()
                .map(|(file, text)| {
                    Description::from_toml(text, file).unwrap_or_else(|e| {
                        unreachable!("a shipped game is checked by the tests: {e}")
                    })
                })
                .collect()
        })
    }

    /// The text of the shipped game's file with this key, comments included.
    #[must_use]
    pub fn builtin_text(key: &str) -> Option<&'static str> {
        FILES
            .iter()
            .find(|(file, _)| file.strip_suffix(".toml") == Some(key))
            .map(|(_, text)| *text)
    }
}

impl Description {
    /// The description of `rules`: the shipped game of its variant, on its board, with
    /// its rule options written into the description (Kalah's `empty-capture` and
    /// `end-rule`).
    ///
    /// ```
    /// use mancala_core::description::{Description, Empty};
    /// use mancala_core::{EndRule, RuleOptions, Rules};
    /// let options = RuleOptions { end_rule: EndRule::EitherSideEmpty, ..RuleOptions::default() };
    /// let d = Description::of_rules(Rules::kalah(4, 3).with_options(options));
    /// assert_eq!((d.board.houses, d.board.seeds), (4, 3));
    /// assert_eq!(d.end.empty, Empty::EitherSide);
    /// ```
    #[must_use]
    pub fn of_rules(rules: Rules) -> Description {
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
}
