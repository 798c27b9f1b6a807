//! The review of a finished game: the move reviewed lit in the move list, a clean
//! message area, keys of its own, a legend for the board's two borders.

mod common;

use std::time::Instant;

use common::{press, run_until, screen, two_people};
use mancala_core::Variant;
use mancala_tui::App;
use ratatui::crossterm::event::KeyCode;

/// A whole game of two people on Kalah 4x3, each playing the highlighted house.
fn finished() -> (App, Instant) {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 4, 3), true, now);
    while !app.game().unwrap().finished() {
        press(&mut app, KeyCode::Enter, now);
        press(&mut app, KeyCode::Esc, now);
    }
    app.resize(80, 24);
    (app, now)
}

#[test]
fn the_review_lights_its_move_and_speaks_only_of_it() {
    let (mut app, mut now) = finished();
    let plies = app.game().unwrap().session.records().len();
    assert!(plies > 11, "a game longer than the move list: {plies}");
    press(&mut app, KeyCode::Char('a'), now);
    run_until(&mut app, &mut now, |a| {
        a.game()
            .unwrap()
            .review
            .as_ref()
            .is_some_and(|r| !r.computing())
    });
    let s = screen(&app, 80, 24);
    // Move 1 is in the list, lit, though the game's last moves were in view.
    assert!(s.contains(&format!("Review 1/{plies}")), "{s}");
    assert!(s.contains("▶ 1 "), "{s}");
    // The legend of the two borders, the review's own keys, no word of the end.
    assert!(s.contains("╔═╗ played  ┏━┓ best"), "{s}");
    assert!(s.contains("←→ step"), "{s}");
    assert!(!s.contains("u undo") && !s.contains("h hint"), "{s}");
    let end = app.game().unwrap().log.last().unwrap().text.clone();
    assert!(!s.contains(&end), "{end:?} still shown:\n{s}");
    // Stepped to the end, the last move is in view and lit.
    press(&mut app, KeyCode::End, now);
    let s = screen(&app, 80, 24);
    assert!(s.contains(&format!("▶{plies} ")), "{s}");
}

#[test]
fn h_at_game_over_points_to_the_review() {
    let (mut app, now) = finished();
    press(&mut app, KeyCode::Char('h'), now);
    let s = common::flowing(&screen(&app, 80, 24));
    assert!(
        s.contains("a reviews it, with the best move of every turn"),
        "{s}"
    );
}
