//! Keys and messages around a turn: Space never plays, undo clears what it took back,
//! computer players of one level are told apart, the move list is drawn once.

mod common;

use std::time::Instant;

use common::{against, play_houses, press, screen, two_people};
use mancala_core::Variant;
use mancala_tui::{App, Setup};
use ratatui::crossterm::event::KeyCode;

#[test]
fn space_on_ones_own_turn_plays_nothing_and_says_what_enter_does() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    press(&mut app, KeyCode::Char(' '), now);
    let g = app.game().unwrap();
    assert!(g.session.records().is_empty(), "Space played a move");
    assert!(g.anim.is_none());
    let s = screen(&app, 80, 24);
    assert!(
        s.contains("Space only skips a sowing: Enter sows the highlighted house a1."),
        "{s}"
    );
    // Space skips a sowing, and once more after it still plays nothing.
    press(&mut app, KeyCode::Char('3'), now);
    press(&mut app, KeyCode::Char(' '), now);
    press(&mut app, KeyCode::Char(' '), now);
    let g = app.game().unwrap();
    assert_eq!(g.session.records().len(), 1);
    assert!(g.anim.is_none());
}
