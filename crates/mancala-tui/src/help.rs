//! The help screen's text (`?` or F1): the keys, the rules of the variant being played
//! in a few lines, and what each computer player is; where it goes on the screen and how
//! far it scrolls. `ui::help` draws it; the app asks how far it may scroll, so that a
//! key past either end is not a dead press.

use mancala_core::Variant;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::style::{ACCENT, key, text};

/// The help's widest box: wider lines are harder to read.
const MAX_WIDTH: u16 = 76;

/// The keys in a game, each with what it does.
const KEYS: [(&str, &str); 7] = [
    (
        "1-9 0, letters",
        "choose a house (two digits on big boards)",
    ),
    ("←→ Enter, click", "choose a house"),
    (
        "u r h",
        "undo, redo (by turns), a hint from the expert level",
    ),
    (
        "m  PgUp PgDn",
        "the move list over the board; scroll it (or wheel)",
    ),
    ("+ -", "sowing speed; any other key skips a sowing"),
    (
        "w  v",
        "save the game (tui --load FILE); at the end, the board",
    ),
    (
        "q  Ctrl-C  Ctrl-Z",
        "quit (asks), quit now, suspend (fg resumes)",
    ),
];

/// The computer players, each in a few words.
const PLAYERS: [(&str, &str); 6] = [
    (
        "easy  medium",
        "a short Monte Carlo search; five moves ahead",
    ),
    ("hard  expert", "deeper alpha-beta searches"),
    ("master", "a second a move on two threads; solves the end"),
    (
        "perfect",
        "solves the game when it can in a second; else expert",
    ),
    (
        "greedy  robot",
        "takes the most seeds now; the classic Kalah robot",
    ),
    ("random  most", "simple bots (and fewest)"),
];

/// The rules of `variant` in a few sentences.
fn rules(variant: Variant) -> &'static str {
    match variant {
        Variant::Kalah => {
            "Kalah: sow the seeds of one of your houses anticlockwise, one per pit, your \
             store included and the opponent's skipped. A last seed in your store: move \
             again. A last seed in an empty house of yours: capture it and the seeds \
             opposite. When a player cannot move, the seeds left go to their owners; \
             most seeds wins."
        }
        Variant::Oware => {
            "Oware (Abapa): sow anticlockwise, skipping the house sown from; no stores. \
             A last seed that makes 2 or 3 in an opponent's house takes them, and the \
             houses before it with 2 or 3. Leave your opponent seeds to play if you can. \
             More than half the seeds wins."
        }
        Variant::OwareSimplified => {
            "Simplified Oware: sow anticlockwise. A last seed that turns an opponent's 1 \
             into 2 takes them. A player without seeds is skipped; the game ends when two \
             seeds or fewer are left. Most seeds taken wins."
        }
    }
}

/// The help's lines for `variant`, styled, before wrapping.
fn lines(variant: Variant) -> Vec<Line<'static>> {
    let title = Style::new().fg(ACCENT).bold();
    let mut lines = vec![Line::from(Span::styled("Keys", title))];
    lines.extend(KEYS.iter().map(|(k, what)| pair(k, what, 18)));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        rules(variant),
        Style::new().fg(Color::White),
    )));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Computer players", title)));
    lines.extend(PLAYERS.iter().map(|(k, what)| pair(k, what, 18)));
    lines
}

/// The help's text, wrapped as it is drawn.
pub fn paragraph(variant: Variant) -> Paragraph<'static> {
    Paragraph::new(lines(variant)).wrap(Wrap { trim: false })
}

/// The help's box on a screen of `full`: the whole height, at most [`MAX_WIDTH`]
/// columns, centred.
pub fn area(full: Rect) -> Rect {
    let w = full.width.min(MAX_WIDTH);
    Rect::new(full.x + (full.width - w) / 2, full.y, w, full.height)
}

/// How many lines the help for `variant` can scroll on a screen of `full` (0 when it
/// fits).
pub fn max_scroll(full: Rect, variant: Variant) -> u16 {
    scroll_room(&paragraph(variant), full)
}

/// How many lines `help` (the help's [`paragraph`]) can scroll on a screen of `full`:
/// its wrapped lines less the box's inside height.
pub fn scroll_room(help: &Paragraph, full: Rect) -> u16 {
    let area = area(full);
    let (inner_w, inner_h) = (area.width.saturating_sub(2), area.height.saturating_sub(2));
    let wrapped = help.line_count(inner_w);
    u16::try_from(wrapped)
        .unwrap_or(u16::MAX)
        .saturating_sub(inner_h)
}

fn pair(k: &str, what: &str, width: usize) -> Line<'static> {
    Line::from(vec![key(&format!(" {k:<width$}")), text(what)])
}
