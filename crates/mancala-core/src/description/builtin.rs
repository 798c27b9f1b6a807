//! The games the suite ships, embedded from `crates/mancala-core/games/`.

use super::Description;

/// Each shipped game's file name and text.
const FILES: [(&str, &str); 4] = [
    ("kalah.toml", include_str!("../../games/kalah.toml")),
    ("oware.toml", include_str!("../../games/oware.toml")),
    (
        "oware-simplified.toml",
        include_str!("../../games/oware-simplified.toml"),
    ),
    (
        "togyzkumalak.toml",
        include_str!("../../games/togyzkumalak.toml"),
    ),
];

impl Description {
    /// Every game the suite ships, in the order of their files.
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let keys: Vec<String> = Description::builtins().into_iter().map(|d| d.key).collect();
    /// assert_eq!(keys, ["kalah", "oware", "oware-simplified", "togyzkumalak"]);
    /// ```
    #[must_use]
    pub fn builtins() -> Vec<Description> {
        FILES
            .iter()
            .map(|(file, text)| {
                Description::from_toml(text, file)
                    .unwrap_or_else(|e| unreachable!("a shipped game is checked by the tests: {e}"))
            })
            .collect()
    }

    /// The shipped game with this key, if there is one.
    #[must_use]
    pub fn builtin(key: &str) -> Option<Description> {
        Description::builtins().into_iter().find(|d| d.key == key)
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
