//! Named strength levels for people: each a spec of one of the search players.

/// The levels, weakest first, and the player spec each one stands for.
///
/// Each level is meant to score at least 75% against the one below it; node and
/// depth limits (not time) keep the levels up to `expert` the same on every machine.
/// `master` thinks for a time budget (1 s a move by default) on two threads, with the
/// exact solver once few seeds remain (see [`Master`](crate::Master)), so its strength
/// depends on the machine.
/// Measured by `scripts/ladder.sh` and, over every game of the catalogue,
/// `scripts/ladder-catalogue.sh`, results in `docs/ladder.md`: `easy` has 30
/// simulations (with 100 it beat `medium`'s five plies in games whose evaluation is
/// not fitted to them, such as Alıtev and Bosh) and `hard` 20,000 nodes (4,000 reached
/// no deeper than `medium` on boards of nine houses or relay sowing). `perfect` plays
/// perfectly when the exact solver finishes within its time budget (1 s by default)
/// and falls back to `expert` otherwise (see [`Perfect`](crate::Perfect)).
///
/// ```
/// use mancala_engine::{level_spec, LEVELS};
/// assert_eq!(LEVELS.len(), 6);
/// assert!(level_spec("expert").unwrap().starts_with("alphabeta"));
/// assert_eq!(level_spec("grandmaster"), None);
/// ```
pub const LEVELS: [(&str, &str); 6] = [
    ("easy", "mcts:sims=30"),
    ("medium", "alphabeta:depth=5"),
    ("hard", "alphabeta:nodes=20000"),
    ("expert", "alphabeta:nodes=400000"),
    ("master", "master"),
    ("perfect", "perfect"),
];

/// The player spec behind level `name`, if it is one.
#[must_use]
pub fn level_spec(name: &str) -> Option<&'static str> {
    LEVELS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}
