//! Helpers shared by the test files that drive the [`App`] without a terminal:
//! scripted keys, a fake clock, and the screen as text.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use mancala_core::Variant;
use mancala_tui::{App, Setup, draw};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// The screen of `app` in a `w` x `h` terminal as text, one line per row, trailing
/// spaces cut; a wide character is followed by nothing, as a terminal shows it.
pub fn screen(app: &App, w: u16, h: u16) -> String {
    use unicode_width::UnicodeWidthStr;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| draw(f, app)).unwrap();
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        let mut x = 0;
        while x < w {
            let symbol = buf[(x, y)].symbol();
            line.push_str(symbol);
            x += u16::try_from(symbol.width().max(1)).unwrap();
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The screen's text with every run of spaces made one, so wrapped text reads on.
pub fn flowing(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Presses `code`.
pub fn press(app: &mut App, code: KeyCode, now: Instant) {
    app.handle_key(KeyEvent::from(code), now);
}

/// Types each character of `s`.
pub fn chars(app: &mut App, s: &str, now: Instant) {
    for c in s.chars() {
        press(app, KeyCode::Char(c), now);
    }
}

/// Two people, Ann and Bob, on `variant` with `houses` of `seeds`.
pub fn two_people(variant: Variant, houses: u8, seeds: u8) -> Setup {
    Setup {
        variant,
        houses,
        seeds,
        players: ["human".into(), "human".into()],
        names: ["Ann".into(), "Bob".into()],
        ..Setup::default()
    }
}

/// Ann against the computer player `bot`, on Kalah with `houses` of `seeds`.
pub fn against(bot: &str, houses: u8, seeds: u8) -> Setup {
    Setup {
        houses,
        seeds,
        players: ["human".into(), bot.into()],
        names: ["Ann".into(), "Robo".into()],
        ..Setup::default()
    }
}

/// Ticks a fake clock (and lets the thinker threads run) until `done`.
pub fn run_until(app: &mut App, now: &mut Instant, done: impl Fn(&App) -> bool) {
    for _ in 0..5000 {
        if done(app) {
            return;
        }
        *now += Duration::from_millis(50);
        app.tick(*now);
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("timed out; screen:\n{}", screen(app, 100, 35));
}

/// Plays `moves` (house numbers of the mover), each sowing skipped.
pub fn play_houses(app: &mut App, moves: &[u8], now: Instant) {
    for &m in moves {
        press(app, KeyCode::Char(char::from(b'0' + m)), now);
        press(app, KeyCode::Esc, now);
    }
}
