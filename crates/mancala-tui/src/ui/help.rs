//! The help screen (`?` or F1): the keys, the rules of the variant being played in a
//! few lines, and what each computer player is. Fixed text, cheap to draw.

use mancala_core::Variant;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use super::style::{ACCENT, key, text};

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
    ("m  PgUp PgDn", "the move list over the board; scroll it"),
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

/// Draws the help for `variant` over `area`.
pub fn draw(frame: &mut Frame, area: Rect, variant: Variant) {
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
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::bordered()
                .border_type(BorderType::Double)
                .border_style(Style::new().fg(ACCENT))
                .title(Line::from(" Help · any key closes ".bold()).centered()),
        ),
        area,
    );
}

fn pair(k: &str, what: &str, width: usize) -> Line<'static> {
    Line::from(vec![key(&format!(" {k:<width$}")), text(what)])
}
