//! Named strength levels for people: each a spec of one of the search players.

/// The levels, weakest first, and the player spec each one stands for.
///
/// Each level scores at least 75% against the one below it (measured by
/// `scripts/ladder.sh`, results in `docs/ladder.md`).
///
/// ```
/// use mancala_engine::{level_spec, LEVELS};
/// assert_eq!(LEVELS.len(), 4);
/// assert!(level_spec("expert").unwrap().starts_with("alphabeta"));
/// assert_eq!(level_spec("grandmaster"), None);
/// ```
pub const LEVELS: [(&str, &str); 4] = [
    ("easy", "mcts:sims=300"),
    ("medium", "alphabeta:depth=4"),
    ("hard", "alphabeta:nodes=20000"),
    ("expert", "alphabeta:nodes=2000000"),
];

/// The player spec behind level `name`, if it is one.
#[must_use]
pub fn level_spec(name: &str) -> Option<&'static str> {
    LEVELS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}
