//! The start screen's fields say their limits: number fields their range, refusing
//! what falls outside it with a word; names their length, the same everywhere.

mod common;

use std::time::Instant;

use common::{chars, press, screen};
use mancala_core::Side;
use mancala_tui::{App, Setup};
use ratatui::crossterm::event::KeyCode;

/// The start screen with the focus moved `ups` lines up from the start button.
fn focused_up(ups: usize) -> App {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    app.resize(50, 20);
    for _ in 0..ups {
        press(&mut app, KeyCode::Up, now);
    }
    app
}

/// Lines up from the start button to the houses field on Kalah's start screen.
const TO_HOUSES: usize = 8;

#[test]
fn number_fields_show_their_range_and_refuse_what_falls_outside_it() {
    let now = Instant::now();
    let mut app = focused_up(TO_HOUSES);
    let s = screen(&app, 50, 20);
    assert!(s.contains("◂ 6 ▸  1-16"), "the range is shown:\n{s}");
    // 2 then 0 is twenty: refused, saying so, and the 2 stays.
    chars(&mut app, "20", now);
    let s = screen(&app, 50, 20);
    assert!(s.contains("◂ 2 ▸"), "{s}");
    assert!(
        common::flowing(&s.replace('│', " "))
            .contains("Houses per side go from 1 to 16: 20 is out of range."),
        "{s}"
    );
    // 1 then 7: seventeen is refused too, not read as 7.
    press(&mut app, KeyCode::Down, now);
    press(&mut app, KeyCode::Up, now);
    chars(&mut app, "17", now);
    assert!(screen(&app, 50, 20).contains("◂ 1 ▸"));
    // A 0 typed first is no number of seeds.
    press(&mut app, KeyCode::Down, now);
    chars(&mut app, "0", now);
    let s = common::flowing(&screen(&app, 50, 20).replace('│', " "));
    assert!(s.contains("◂ 4 ▸ 1-64"), "{s}");
    assert!(
        s.contains("Seeds per house go from 1 to 64: 0 is out of range."),
        "{s}"
    );
    press(&mut app, KeyCode::Enter, now);
    let rules = app.game().unwrap().session.rules();
    assert_eq!((rules.houses(), rules.seeds()), (1, 4));
}

#[test]
fn a_name_has_one_length_everywhere_and_the_limit_shows_while_typing() {
    let now = Instant::now();
    let mut app = focused_up(3);
    let name = "Zoë 🦊 the Magnificent";
    chars(&mut app, name, now);
    let s = screen(&app, 80, 24);
    // The fox takes two columns: 16 columns hold "Zoë 🦊 the Magni".
    assert!(s.contains("Zoë 🦊 the Magni▏  16/16"), "{s}");
    assert!(s.contains("A name takes at most 16 columns."), "{s}");
    press(&mut app, KeyCode::Enter, now);
    app.resize(80, 24);
    let g = app.game().unwrap();
    assert_eq!(g.session.name(Side::South), "Zoë 🦊 the Magni");
    let s = screen(&app, 80, 24);
    assert!(
        s.contains("Zoë 🦊 the Magni ") && !s.contains("Magn…"),
        "{s}"
    );
}

#[test]
fn a_name_given_on_the_command_line_is_cut_to_the_same_length() {
    let now = Instant::now();
    let setup = Setup {
        players: ["human".into(), "human".into()],
        names: ["Zoë 🦊 the Magnificent".into(), "Bob".into()],
        ..Setup::default()
    };
    let app = App::new(setup, true, now);
    let g = app.game().unwrap();
    assert_eq!(g.session.name(Side::South), "Zoë 🦊 the Magni");
}
