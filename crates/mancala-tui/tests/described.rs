//! Games the description engine plays (not the four hand-written kernels) in the
//! terminal game: the board at 80x24, the help, a person's move, and whole games
//! between computer players to their end.

mod common;

use std::time::Instant;

use common::{flowing, play_houses, press, run_until, screen, two_people};
use mancala_core::Variant;
use mancala_tui::{App, Setup};
use ratatui::crossterm::event::KeyCode;

/// Relay sowing, stores of their own rules, several laps, clockwise sowing.
const DESCRIBED: [&str; 4] = ["ayoayo", "bohnenspiel", "pallanguzhi", "woli"];

fn variant(key: &str) -> Variant {
    let v: Variant = key.parse().expect("a catalogue key");
    assert!(matches!(v, Variant::Described(_)), "{key} is described");
    v
}

#[test]
fn computer_players_finish_described_games_on_screen() {
    for key in DESCRIBED {
        let v = variant(key);
        let info = v.info();
        let setup = Setup {
            players: ["greedy".into(), "random".into()],
            ..two_people(v, info.default_houses, info.default_seeds)
        };
        let mut now = Instant::now();
        let mut app = App::new(setup, true, now);
        let first = screen(&app, 80, 24);
        assert!(first.contains(info.name), "{key}:\n{first}");
        // The game ends, then its last sowing is shown to the end.
        run_until(&mut app, &mut now, |app| {
            app.game()
                .is_some_and(|g| g.session.is_over() && g.anim.is_none())
        });
        run_until(&mut app, &mut now, |app| {
            screen(app, 80, 24).contains("Game over")
        });
        let end = screen(&app, 80, 24);
        assert!(end.contains("Game over"), "{key}:\n{end}");
    }
}

#[test]
fn a_person_moves_in_a_described_game_and_reads_its_help() {
    for key in DESCRIBED {
        let v = variant(key);
        let info = v.info();
        let now = Instant::now();
        let mut app = App::new(
            two_people(v, info.default_houses, info.default_seeds),
            true,
            now,
        );
        press(&mut app, KeyCode::Char('?'), now);
        let help = flowing(&screen(&app, 80, 24));
        assert!(help.contains(info.name), "{key}:\n{help}");
        press(&mut app, KeyCode::Esc, now);
        let legal = app.game().unwrap().session.legal_moves();
        play_houses(&mut app, &[legal[0].house()], now);
        let g = app.game().unwrap();
        assert_eq!(g.session.records().len(), 1, "{key}: the move is played");
        let s = screen(&app, 80, 24);
        assert!(
            s.contains("Bob, choose a house") || s.contains("Ann, choose a house"),
            "{key}:\n{s}"
        );
    }
}
