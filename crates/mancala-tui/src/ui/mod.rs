//! Drawing: a pure function of the [`App`] state onto a ratatui frame. Each screen and
//! each part of the game screen has a module; where things go comes from
//! [`crate::layout`], which the mouse handling shares.
//!
//! Drawing reads the state and computes nothing expensive: what takes time to find out
//! (whether a chosen computer player can play, for instance) is worked out when the
//! state changes and kept in it.

mod board;
mod game;
mod help;
mod history;
mod popup;
mod setup;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::{App, Screen};
use crate::layout::{BoardShape, GameLayout, SETUP_SIZE, SetupLayout, centred_text_rect};
use crate::style::ACCENT;

/// Draws the app: the start screen or the game, or a note that the terminal is too small.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if app.help {
        return help::draw(frame, area, app.variant(), app.help_scroll);
    }
    match &app.screen {
        Screen::Setup(form) => match SetupLayout::new(area) {
            Some(layout) => setup::draw(frame, &layout, form),
            None => too_small(frame, area, SETUP_SIZE),
        },
        Screen::Game(g) => {
            let shape = BoardShape::of(g.session.rules());
            match GameLayout::new(area, shape) {
                Some(layout) => game::draw(frame, app, g, &layout),
                None => too_small(frame, area, GameLayout::min_size(shape)),
            }
        }
    }
}

fn too_small(frame: &mut Frame, area: Rect, need: (u16, u16)) {
    let text = vec![
        Line::from("The terminal is too small for mancala.".bold()),
        Line::from(""),
        Line::from(format!(
            "It is {}x{}; this screen needs at least {}x{}.",
            area.width, area.height, need.0, need.1
        )),
        Line::from("Enlarge the window, or press q to quit."),
    ];
    let r = centred_text_rect(area, text.len() as u16);
    frame.render_widget(
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .style(Style::new().fg(ACCENT)),
        r,
    );
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use mancala_core::Variant;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyCode, KeyEvent};

    use super::draw;
    use crate::app::App;
    use crate::setup::{Setup, build_count};

    /// Draws `app` as the terminal loop does, frame after frame; returns the last screen.
    fn draw_frames(app: &App, frames: usize) -> String {
        let mut terminal = Terminal::new(TestBackend::new(100, 35)).unwrap();
        for _ in 0..frames {
            terminal.draw(|f| draw(f, app)).unwrap();
        }
        format!("{:?}", terminal.backend().buffer())
    }

    #[test]
    fn drawing_builds_no_computer_player() {
        let now = Instant::now();
        let setup = Setup {
            variant: Variant::Oware,
            players: ["medium".into(), "robot".into()],
            ..Setup::default()
        };
        let mut app = App::new(setup, false, now);
        let built = build_count::get();
        assert!(
            built >= 2,
            "the form checks both chosen players when it is made"
        );
        let screen = draw_frames(&app, 20);
        assert!(screen.contains("robot does not play Oware"), "{screen}");
        assert_eq!(build_count::get(), built, "drawing the start screen");

        // Changing player 2 checks the players again, once; drawing still builds none.
        for code in [KeyCode::Up, KeyCode::Up, KeyCode::Right] {
            app.handle_key(KeyEvent::from(code), now);
        }
        let built_again = build_count::get();
        assert!(built_again > built, "a change of player is checked");
        let screen = draw_frames(&app, 20);
        assert!(!screen.contains("does not play"), "{screen}");
        assert_eq!(build_count::get(), built_again, "drawing the start screen");

        app.handle_key(KeyEvent::from(KeyCode::Enter), now);
        let started = build_count::get();
        let screen = draw_frames(&app, 20);
        assert!(screen.contains("Oware · 6 houses"), "{screen}");
        assert_eq!(build_count::get(), started, "drawing the game screen");
    }
}
