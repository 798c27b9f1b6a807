//! Several games in a row: the running score, and who moves first in the next game
//! (the players swap seats by default, so each moves first in turn).

use std::time::Instant;

use mancala_core::{Position, Side};
use mancala_session::Session;

use super::game::{GameState, NAME_SHOWN};
use super::{App, Screen};
use crate::fit;
use crate::setup::{Setup, SetupForm};

/// The running score of the games played in a row, by the players' names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Each player's name and games won, in the order they first played.
    pub wins: Vec<(String, u32)>,
    /// Games drawn.
    pub draws: u32,
    /// Games counted.
    pub games: u32,
}

impl Score {
    /// This score with the game `g` counted, if it has ended (with the result it had
    /// when it last ended).
    #[must_use]
    pub fn with(&self, g: &GameState) -> Score {
        let mut score = self.clone();
        for side in Side::BOTH {
            let name = g.session.name(side);
            if !score.wins.iter().any(|(n, _)| n == name) {
                score.wins.push((name.to_owned(), 0));
            }
        }
        let Some(outcome) = g.result else {
            return score;
        };
        score.games += 1;
        match outcome.winner {
            Some(side) => {
                let name = g.session.name(side);
                if let Some((_, w)) = score.wins.iter_mut().find(|(n, _)| n == name) {
                    *w += 1;
                }
            }
            None => score.draws += 1,
        }
        score
    }

    /// "Ann 2 · Bob 1 · 1 draw", the names cut to [`NAME_SHOWN`] columns.
    #[must_use]
    pub fn words(&self) -> String {
        let mut parts: Vec<String> = self
            .wins
            .iter()
            .map(|(n, w)| format!("{} {w}", fit::shorten(n, NAME_SHOWN)))
            .collect();
        if self.draws > 0 {
            let s = if self.draws == 1 { "" } else { "s" };
            parts.push(format!("{} draw{s}", self.draws));
        }
        parts.join(" · ")
    }
}

impl App {
    /// The score so far, the game on screen counted once it has ended.
    #[must_use]
    pub fn score(&self) -> Score {
        match &self.screen {
            Screen::Game(g) => self.score.with(g),
            Screen::Setup(_) => self.score.clone(),
        }
    }

    /// `y` after a game: counts it and starts the next with the same players, who
    /// swap seats unless `f` kept the order, from where this one started (a game loaded
    /// from a record may have started from a position of its own).
    pub(crate) fn next_game(&mut self, now: Instant) {
        let Screen::Game(g) = &self.screen else {
            return;
        };
        self.score = self.score.with(g);
        let setup = next_setup(g);
        let start = *g.session.game().start();
        if start == Position::new(start.rules()) {
            self.start_game(setup, now);
        } else {
            let mover = fit::shorten(&setup.names[start.to_move().index()], NAME_SHOWN);
            let hello = format!("Again from the same start: {mover} to move.");
            self.begin(setup, Session::from_position(start), Some(hello), now);
        }
    }

    /// `s` after a game: counts it and goes to the start screen, filled in for the
    /// next game as the end box announced it (who moves first included).
    pub(crate) fn new_setup(&mut self) {
        let Screen::Game(g) = &self.screen else {
            return;
        };
        self.score = self.score.with(g);
        self.screen = Screen::Setup(Box::new(SetupForm::new(next_setup(g))));
    }
}

/// The settings of the game after `g`: the same, the players swapped when `g` says
/// so (`f` at the end keeps them).
fn next_setup(g: &GameState) -> Setup {
    let mut setup = g.setup.clone();
    if g.swap_next {
        setup.players.swap(0, 1);
        setup.names.swap(0, 1);
    }
    setup
}
