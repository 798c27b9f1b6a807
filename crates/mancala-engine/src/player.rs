//! What a computer player is: the [`Player`] trait every player implements and the
//! [`Choice`] it makes. Building a player from its name is `spec.rs`'s, which knows
//! every player; this module knows none, so each player depends on it alone.

use std::time::Duration;

use mancala_core::{Game, Move};

/// A move chosen by a computer player, with its reason when the player gives one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move; always legal in the game it was chosen for.
    pub mv: Move,
    /// Why, in words that complete "chooses house #n because it ...".
    pub reason: Option<String>,
}

impl Choice {
    /// A choice without a reason.
    #[must_use]
    pub fn new(mv: Move) -> Choice {
        Choice { mv, reason: None }
    }
}

/// A computer player: anything that picks a legal move in a game in progress.
///
/// Players may keep state between moves (a random generator, a search tree) and may
/// be moved to another thread, so front ends can think off their UI thread.
pub trait Player: Send {
    /// A short name for tables and logs, e.g. `robot` or `random(seed=7)`.
    fn name(&self) -> String;

    /// Chooses a move for the player to move.
    ///
    /// `game` is not over; the move returned is one of `game.legal_moves()`.
    fn choose(&mut self, game: &Game) -> Choice;

    /// Waits at most `within` for what the player builds in the background when it is
    /// made (the Kalah endgame table of `master` and `alphabeta:probe=N`, a few seconds
    /// on first use in a process); whether it is ready. A player plays at once without
    /// this, weaker until then: matches and benchmarks call it first so that they
    /// measure the player it becomes. Players that build nothing are always ready.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mancala_core::{Game, Rules};
    /// use mancala_engine::PlayerSpec;
    /// let spec: PlayerSpec = "master:ms=50".parse().unwrap();
    /// let mut master = spec.build(Rules::kalah(3, 3), 1).unwrap();
    /// assert!(master.prepare(Duration::from_secs(60)));
    /// // Its table holds every position of Kalah(3,3), so it plays them perfectly.
    /// let choice = master.choose(&Game::new(Rules::kalah(3, 3)));
    /// assert!(choice.reason.unwrap().contains("endgame table"));
    /// ```
    fn prepare(&mut self, within: Duration) -> bool {
        let _ = within;
        true
    }
}
