//! What each key and click does, on the start screen and in a game.

use std::time::Instant;

use mancala_core::Side;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use super::game::plural;
use super::thinker::{self, Job};
use super::view::Message;
use super::{App, Review, SPEEDS_MS, Screen};
use crate::help;
use crate::keymap::{self, Action, Mode};
use crate::layout::{BoardShape, GameLayout, SetupLayout};
use crate::setup::{Field, SetupForm};
use mancala_session::house_of_letter;

/// Lines a turn of the mouse wheel scrolls.
const WHEEL_LINES: i16 = 3;

impl App {
    /// Handles a key press.
    ///
    /// Control keys never act as their letter (Ctrl-D is not house d): Ctrl-C quits,
    /// Ctrl-Z suspends, Ctrl-L draws the screen anew, Ctrl-U, Ctrl-W and Ctrl-H edit a
    /// name, the others do nothing.
    /// On a terminal too small for the screen only quitting works: `q` or Esc quits at
    /// once, since a question asked there could not be seen.
    pub fn handle_key(&mut self, key: KeyEvent, now: Instant) {
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return self.control_key(key.code);
        }
        if !self.fits() {
            if matches!(key.code, KeyCode::Char('q' | 'Q') | KeyCode::Esc) {
                self.quit = true;
            }
            return;
        }
        if self.help {
            return self.help_key(key.code);
        }
        let typing = matches!(&self.screen, Screen::Setup(f) if matches!(f.focus, Field::Name(_)));
        if key.code == KeyCode::F(1) || (key.code == KeyCode::Char('?') && !typing) {
            self.help = true;
            self.help_scroll = 0;
            return;
        }
        match &mut self.screen {
            Screen::Setup(form) => {
                if setup_key(form, key, &mut self.quit) {
                    let setup = form.setup().clone();
                    self.start_game(setup, now);
                }
            }
            Screen::Game(_) => self.game_key(key, now),
        }
    }

    /// The mouse wheel, `lines` up (positive) or down: scrolls the help when it is up,
    /// else the move list, as the arrows and PgUp/PgDn do.
    fn wheel(&mut self, lines: i16) {
        if self.help {
            let key = if lines > 0 {
                KeyCode::Up
            } else {
                KeyCode::Down
            };
            for _ in 0..lines.unsigned_abs() {
                self.help_key(key);
            }
        } else if let Screen::Game(g) = &mut self.screen {
            g.scroll_moves(isize::from(lines));
        }
    }

    /// A key on the help screen: the arrows, PgUp/PgDn, Home/End scroll it (within its
    /// length on this terminal), any other key closes it.
    fn help_key(&mut self, code: KeyCode) {
        let full = Rect::new(0, 0, self.size.0, self.size.1);
        let most = help::max_scroll(full, self.variant());
        let page = self.size.1.saturating_sub(3).max(1);
        let at = self.help_scroll.min(most);
        self.help_scroll = match code {
            KeyCode::Up => at.saturating_sub(1),
            KeyCode::Down => at.saturating_add(1).min(most),
            KeyCode::PageUp => at.saturating_sub(page),
            KeyCode::PageDown => at.saturating_add(page).min(most),
            KeyCode::Home => 0,
            KeyCode::End => most,
            _ => {
                self.help = false;
                0
            }
        };
    }

    fn control_key(&mut self, code: KeyCode) {
        let KeyCode::Char(c) = code else {
            return;
        };
        match c.to_ascii_lowercase() {
            'c' => self.quit = true,
            'z' => self.suspend = true,
            'l' => self.repaint = true,
            'u' | 'w' | 'h' => {
                if let Screen::Setup(form) = &mut self.screen {
                    match c.to_ascii_lowercase() {
                        'u' => form.clear_name(),
                        'w' => form.delete_word(),
                        _ => form.backspace(),
                    }
                }
            }
            _ => {}
        }
    }

    /// A key in a game: the save prompt and the quit question take keys of their own;
    /// the others are looked up in the key table (`keymap`) for the part of the game
    /// it is in. During a sowing only the keys the table lets act then act; any other
    /// key skips the sowing.
    fn game_key(&mut self, key: KeyEvent, now: Instant) {
        let step = self.step_time();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if g.save_to.is_some() {
            return self.save_to_key(key.code);
        }
        if g.confirm_quit {
            return self.quit_answer(key);
        }
        let mode = if g.review.is_some() {
            Mode::Review
        } else if g.finished() {
            Mode::End
        } else {
            Mode::Play
        };
        let action = keymap::action(mode, key.code);
        if mode == Mode::Play && g.anim.is_some() && !action.is_some_and(Action::during_sowing) {
            return g.finish_animation(now, step);
        }
        match action {
            Some(action) => self.act(action, key, now),
            None if mode == Mode::Play => self.unbound_key(key.code),
            None => {}
        }
    }

    /// A key that does nothing in play: said so, with the keys that do something.
    fn unbound_key(&mut self, code: KeyCode) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if let KeyCode::Char(c) = code {
            let help = g.key_help();
            g.message = Message::warning(format!("The key {c:?} does nothing here; {help}"));
        }
    }

    /// Does what the key table says `key` does.
    fn act(&mut self, action: Action, key: KeyEvent, now: Instant) {
        match action {
            Action::Faster => self.change_speed(1),
            Action::Slower => self.change_speed(-1),
            Action::ToggleMoves => {
                self.toggle_moves();
                // At the end the list and the result box take turns over the board.
                if let Screen::Game(g) = &mut self.screen
                    && g.finished()
                {
                    g.result_hidden = g.moves_shown;
                }
            }
            Action::Undo => self.undo(now),
            Action::Redo => self.redo(now),
            Action::Hint => self.hint(),
            Action::Save => self.save_game(),
            Action::House => self.house_key(key.code, now),
            Action::NextGame => self.next_game(now),
            Action::NewSetup => self.new_setup(),
            Action::Quit => self.quit = true,
            _ => self.act_on_game(action, key, now),
        }
    }

    /// The actions that change only the game on screen.
    fn act_on_game(&mut self, action: Action, key: KeyEvent, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        match action {
            Action::AskQuit => g.confirm_quit = true,
            Action::ScrollBack => g.scroll_moves(5),
            Action::ScrollOn => g.scroll_moves(-5),
            Action::Cursor => g.move_cursor(key.code),
            Action::SowCursor => {
                let house = g.cursor;
                self.try_house(None, house, now);
            }
            Action::SpaceNote => {
                let side = g.session.to_move().unwrap_or(Side::South);
                let house = g.label(side, g.cursor);
                g.message = Message::info(format!(
                    "Space only skips a sowing: Enter sows the highlighted house {house}."
                ));
            }
            Action::ForgetDigit => g.digit = None,
            Action::SwapSeats => g.swap_next = !g.swap_next,
            Action::ToggleResult => g.result_hidden = !g.result_hidden,
            Action::EndHint => {
                g.message = Message::info(
                    "The game is over: a reviews it, with the best move of every turn.",
                );
            }
            Action::StartReview => {
                g.review = Some(Review::start(g.session.game()));
                g.moves_shown = false;
                g.show_review();
            }
            _ => self.review_action(action),
        }
    }

    /// The actions of the review: stepping through the moves, and leaving it (which
    /// stops its analysis if it is still computed).
    fn review_action(&mut self, action: Action) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let Some(review) = &mut g.review else {
            return;
        };
        match action {
            Action::ReviewNext => review.step(1),
            Action::ReviewBack => review.step(-1),
            Action::ReviewTenOn => review.step(10),
            Action::ReviewTenBack => review.step(-10),
            Action::ReviewFirst => review.jump(false),
            Action::ReviewLast => review.jump(true),
            Action::LeaveReview => {
                g.review = None;
                g.message = g.log.last().cloned().unwrap_or_else(|| Message::info(""));
                return;
            }
            _ => return,
        }
        g.show_review();
    }

    /// The answer to "Quit the game? (y/n)".
    fn quit_answer(&mut self, key: KeyEvent) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        match key.code {
            KeyCode::Char('y' | 'Y') => self.quit = true,
            KeyCode::Char('n' | 'N' | 'q') | KeyCode::Esc => {
                g.confirm_quit = false;
                g.message = Message::info("Back to the game.");
            }
            _ => {}
        }
    }

    /// A digit or a letter in play: a house by its number, or by its letter.
    fn house_key(&mut self, code: KeyCode, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let KeyCode::Char(c) = code else {
            return;
        };
        if c.is_ascii_digit() {
            return self.digit_key(c, now);
        }
        match house_of_letter(c, g.session.rules().houses()) {
            Some((side, house)) => self.try_house(Some(side), house, now),
            None => {
                let help = g.key_help();
                g.message = Message::warning(format!("No house is lettered {c:?}; {help}"));
            }
        }
    }

    /// A digit: a house number, or on boards of ten or more houses possibly the first
    /// of two digits.
    fn digit_key(&mut self, c: char, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let d = c as u8 - b'0';
        let houses = g.session.rules().houses() as u8;
        if let Some(first) = g.digit.take() {
            let house = first * 10 + d;
            return self.try_house(None, house, now);
        }
        if houses >= 10 && d >= 1 && d * 10 <= houses {
            g.digit = Some(d);
            g.message = Message::info(format!(
                "House {d}_: type a second digit, or Enter for house {d}."
            ));
            g.cursor = d;
            return;
        }
        let house = if d == 0 { 10 } else { d };
        self.try_house(None, house, now);
    }

    /// Plays `house` for the person to move, if they may; `side` is the row the key
    /// named (letters name a row, numbers the mover's).
    fn try_house(&mut self, side: Option<Side>, house: u8, now: Instant) {
        let step = self.step_time();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        g.digit = None;
        let Some(mover) = g.session.to_move() else {
            return;
        };
        match g.human_move(mover, side, house) {
            Ok(mv) => {
                g.cursor = house;
                g.play(mv, now, step);
            }
            Err(why) => g.message = Message::warning(why),
        }
    }

    /// `m`: the move list over the board and back, where it has no room beside the
    /// board; where it has, a second list over the board would only repeat it.
    fn toggle_moves(&mut self) {
        let beside = self.list_beside();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if beside {
            g.moves_shown = false;
            g.message = Message::info("The move list is beside the board: PgUp/PgDn scroll it.");
        } else {
            g.moves_shown = !g.moves_shown;
        }
    }

    fn change_speed(&mut self, delta: isize) {
        let new = (self.speed as isize + delta).clamp(0, SPEEDS_MS.len() as isize - 1) as usize;
        self.speed = new;
        if let Screen::Game(g) = &mut self.screen {
            g.message = Message::info(format!("Sowing speed {} of {}.", new + 1, SPEEDS_MS.len()));
        }
    }

    fn undo(&mut self, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if !g.any_human() {
            g.message = Message::warning("Undo is for games with a person.");
            return;
        }
        let n = g.session.undo();
        if n == 0 {
            g.message = Message::warning("Nothing to take back.");
            return;
        }
        g.after_jump(now);
        let who = g.session.to_move().map_or("", |s| g.name(s)).to_owned();
        g.message = Message::info(format!(
            "Took back {n} move{}: {who} to move. (r: redo)",
            plural(n)
        ));
    }

    fn redo(&mut self, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if !g.any_human() {
            g.message = Message::warning("Redo is for games with a person.");
            return;
        }
        let n = g.session.redo();
        if n == 0 {
            g.message = Message::warning("Nothing to redo.");
            return;
        }
        g.after_jump(now);
        g.message = Message::info(format!("Replayed {n} move{}.", plural(n)));
    }

    fn hint(&mut self) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if !g.awaiting_human() {
            return;
        }
        if g.hint_pending {
            g.message = Message::info("Still looking for a hint...");
            return;
        }
        let rules = g.session.rules();
        let hinter = g
            .hinter
            .take()
            .unwrap_or_else(|| super::hint::hinter(rules, g.setup.seed));
        g.hint_pending = true;
        g.message = Message::info("Looking for a hint...");
        thinker::ask(
            &self.tx,
            Job::Hint,
            g,
            mancala_match::Seated::Builtin(hinter),
        );
    }

    /// Handles a mouse event: a left click on a house plays it, any click during a
    /// sowing shows the rest of it, and the wheel scrolls the help or the move list.
    pub fn handle_mouse(&mut self, ev: MouseEvent, now: Instant) {
        match ev.kind {
            MouseEventKind::ScrollUp => return self.wheel(WHEEL_LINES),
            MouseEventKind::ScrollDown => return self.wheel(-WHEEL_LINES),
            _ => {}
        }
        if ev.kind != MouseEventKind::Down(MouseButton::Left) || self.help {
            return;
        }
        let size = self.size;
        let step = self.step_time();
        if let Screen::Setup(form) = &mut self.screen {
            if setup_click(form, size, ev.row) {
                let setup = form.setup().clone();
                self.start_game(setup, now);
            }
            return;
        }
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if g.confirm_quit || g.finished() {
            return;
        }
        if g.anim.is_some() {
            g.finish_animation(now, step);
            return;
        }
        // The layout the screen was drawn with, so the click finds the house under it.
        let area = Rect::new(0, 0, size.0, size.1);
        let Some(layout) = GameLayout::new(area, BoardShape::of(g.session.rules())) else {
            return;
        };
        if let Some((side, house)) = layout.board.house_at(ev.column, ev.row) {
            self.try_house(Some(side), house, now);
        }
    }
}

/// A click on the start screen's row `y` in a terminal of `size`: focuses the line
/// under it, and a second click on a choice changes it; returns whether the start
/// button was clicked.
fn setup_click(form: &mut SetupForm, size: (u16, u16), y: u16) -> bool {
    let Some(layout) = SetupLayout::new(Rect::new(0, 0, size.0, size.1)) else {
        return false;
    };
    let fields = form.fields();
    let Some(field) = layout.line_at(y, fields.len()).map(|i| fields[i]) else {
        return false;
    };
    if field == Field::Start {
        return true;
    }
    if field == form.focus {
        form.change(1);
    } else {
        form.focus_on(field);
    }
    false
}

/// Start-screen keys while finding a game by name (after `/`): typing finds, Enter
/// keeps the game found, Esc goes back; never starts the game.
fn finding_key(form: &mut SetupForm, key: KeyEvent) -> bool {
    match key.code {
        KeyCode::Enter => form.end_finding(true),
        KeyCode::Esc => form.end_finding(false),
        KeyCode::Backspace => form.find(None),
        KeyCode::Char(c) => form.find(Some(c)),
        KeyCode::Up | KeyCode::Down | KeyCode::Tab | KeyCode::BackTab => {
            form.end_finding(true);
            let delta = if matches!(key.code, KeyCode::Up | KeyCode::BackTab) {
                -1
            } else {
                1
            };
            form.move_focus(delta);
        }
        _ => {}
    }
    false
}

/// Start-screen keys; returns whether to start the game.
fn setup_key(form: &mut SetupForm, key: KeyEvent, quit: &mut bool) -> bool {
    if form.finding().is_some() {
        return finding_key(form, key);
    }
    let on_name = matches!(form.focus, Field::Name(_));
    match key.code {
        KeyCode::Char('/') if !on_name => form.start_finding(),
        KeyCode::Enter => return true,
        KeyCode::Esc => *quit = true,
        KeyCode::Up | KeyCode::BackTab => form.move_focus(-1),
        KeyCode::Down | KeyCode::Tab => form.move_focus(1),
        KeyCode::Left => form.change(-1),
        KeyCode::Right => form.change(1),
        KeyCode::Backspace => form.backspace(),
        KeyCode::Char(c) if on_name => form.type_char(c),
        KeyCode::Char(c @ '0'..='9') => form.type_digit(c as u8 - b'0'),
        KeyCode::Char(' ') if form.focus == Field::Start => return true,
        KeyCode::Char(' ') => form.change(1),
        KeyCode::Char('q') => *quit = true,
        _ => {}
    }
    false
}
