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

/// A game of Ann against `name2` played to its end on Kalah 6x4.
fn finished_against(name2: &str) -> App {
    let now = Instant::now();
    let setup = Setup {
        names: ["Ann".into(), name2.into()],
        ..two_people(Variant::Kalah, 6, 4)
    };
    let mut app = App::new(setup, true, now);
    play_houses(&mut app, &[1, 1, 2, 3, 1, 4, 1, 5, 1, 6, 1], now);
    assert!(app.game().unwrap().finished());
    app
}

#[test]
fn the_game_over_box_keeps_its_keys_with_a_long_name() {
    for (w, h) in [(80, 24), (50, 20)] {
        let mut app = finished_against("Bartholomew Jones");
        app.resize(w, h);
        let s = screen(&app, w, h);
        assert!(s.contains("Play again? (y/n)"), "{w}x{h}:\n{s}");
        assert!(
            s.contains("a review"),
            "{w}x{h}: the keys line is gone:\n{s}"
        );
    }
}

#[test]
fn m_draws_no_second_move_list_where_one_is_beside_the_board() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    play_houses(&mut app, &[3, 1], now);
    app.resize(80, 24);
    assert!(app.list_beside());
    press(&mut app, KeyCode::Char('m'), now);
    let s = screen(&app, 80, 24);
    assert_eq!(s.matches("Moves").count(), 1, "{s}");
    assert!(s.contains("The move list is beside the board"), "{s}");
    assert!(!s.contains("m moves"), "the keys offer no m:\n{s}");
    // At 50x20 there is no room beside: m puts the list over the board.
    app.resize(50, 20);
    assert!(!app.list_beside());
    press(&mut app, KeyCode::Char('m'), now);
    let s = screen(&app, 50, 20);
    assert_eq!(s.matches("Moves").count(), 1, "{s}");
    assert!(s.contains("m moves"), "{s}");
}

#[test]
fn two_computers_of_one_level_are_told_apart() {
    let now = Instant::now();
    let setup = Setup {
        players: ["greedy".into(), "greedy".into()],
        names: [String::new(), String::new()],
        ..Setup::default()
    };
    let app = App::new(setup, true, now);
    let s = common::flowing(&screen(&app, 100, 35));
    assert!(
        s.contains("Greedy bot 1 against Greedy bot 2: Greedy bot 1 moves first."),
        "{s}"
    );
}

#[test]
fn after_undo_no_message_describes_a_move_taken_back() {
    let now = Instant::now();
    let mut app = App::new(against("greedy", 6, 4), true, now);
    let mut clock = now;
    // Ann's a1, then the computer's reply, shown to its end.
    play_houses(&mut app, &[1], clock);
    common::run_until(&mut app, &mut clock, |a| {
        let g = a.game().unwrap();
        g.session.records().len() >= 2 && g.awaiting_human()
    });
    let s = screen(&app, 80, 24);
    assert!(s.contains("Ann sowed house a1."), "{s}");
    press(&mut app, KeyCode::Char('u'), clock);
    let s = screen(&app, 80, 24);
    assert!(s.contains("Ann to move. (r: redo)"), "{s}");
    for said in ["sowed house", "Robo gets", "Robo captured"] {
        assert!(!s.contains(said), "a move taken back is described:\n{s}");
    }
}

#[test]
fn player_twos_prompt_in_togyz_kumalak_is_whole_at_50x20() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::TogyzKumalak, 9, 9), true, now);
    play_houses(&mut app, &[1], now);
    for (w, h) in [(50, 20), (80, 24)] {
        app.resize(w, h);
        let s = screen(&app, w, h);
        let flowing = common::flowing(&s);
        assert!(flowing.contains("Bob"), "{s}");
        assert!(
            flowing.contains("(M Q R for m q r)")
                || flowing.contains("(m, q, r are commands: type capitals or numbers)"),
            "{w}x{h}: the prompt is cut:\n{s}"
        );
    }
}
