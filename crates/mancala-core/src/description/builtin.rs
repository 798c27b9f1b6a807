//! The games the suite ships: every file of `crates/mancala-core/games/`, embedded.

use std::sync::OnceLock;

use super::Description;

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
