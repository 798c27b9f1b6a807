//! The game screen: the title, the board in its frame, the move list, the status and
//! message lines, the keys, and the pop-ups over the board.

use mancala_core::{EndRule, Rules, Side, Variant};
use ratatui::Frame;
use ratatui::layout::Alignment;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use super::{board, history, popup};
use crate::app::{Animation, App, GameState, MessageKind, SPEEDS_MS, letter_keys};
use crate::layout::GameLayout;
use crate::style::{ACCENT, DIM, key, side_colour, text};

/// The thinking spinner's frames.
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Draws the game `g` in `layout`.
pub fn draw(frame: &mut Frame, app: &App, g: &GameState, layout: &GameLayout) {
    frame.render_widget(
        Paragraph::new(title_line(g.session.rules())).alignment(Alignment::Center),
        layout.title,
    );
    // The frame takes the colour of the side to move.
    let frame_colour = g.session.to_move().map_or(DIM, side_colour);
    frame.render_widget(
        Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(Style::new().fg(frame_colour)),
        layout.frame,
    );
    board::draw(frame, g, &layout.board);
    if let Some(h) = layout.history {
        history::draw(frame, g, h);
    }
    if g.moves_shown {
        history::draw(frame, g, layout.frame);
    }
    frame.render_widget(
        Paragraph::new(status_line(app, g)).centered(),
        layout.status,
    );
    frame.render_widget(
        Paragraph::new(message_lines(g, layout.messages.height)).centered(),
        layout.messages,
    );
    frame.render_widget(Paragraph::new(keys_line(app.speed)).centered(), layout.keys);
    if g.confirm_quit {
        popup::quit(frame, layout.frame);
    } else if g.finished() && !g.result_hidden && !g.moves_shown {
        popup::game_over(frame, g, &app.score(), layout.frame);
    }
}

/// "MANCALA  Kalah · 6 houses × 4 seeds", with Kalah's rule options when not the
/// defaults.
fn title_line(rules: Rules) -> Line<'static> {
    let variant = match rules.variant() {
        Variant::Kalah => "Kalah",
        Variant::Oware => "Oware",
        Variant::OwareSimplified => "Simplified Oware",
    };
    let mut title = format!(
        " {variant} · {} houses × {} seeds ",
        rules.houses(),
        rules.seeds()
    );
    if rules.variant() == Variant::Kalah {
        let o = rules.options();
        if o.empty_capture {
            title.push_str("· empty capture ");
        }
        if o.end_rule != EndRule::default() {
            title.push_str("· ends when either side is empty ");
        }
    }
    Line::from(vec![
        Span::styled(" MANCALA ", Style::new().fg(Color::Black).bg(ACCENT).bold()),
        Span::styled(title, Style::new().fg(Color::White).bold()),
    ])
}

/// What is happening: a sowing, the end, a computer thinking, or whose choice it is.
fn status_line(app: &App, g: &GameState) -> Line<'static> {
    if let Some(a) = &g.anim {
        sowing_status(g, a)
    } else if g.finished() {
        over_status(g)
    } else if let Some(side) = g.thinking() {
        let spinner = SPINNER[(app.ticks / 2) as usize % SPINNER.len()];
        Line::from(vec![
            Span::styled(format!("{spinner} "), Style::new().fg(ACCENT)),
            name_span(g, side),
            text(" is thinking..."),
        ])
    } else if let Some(side) = g.session.to_move() {
        choose_status(g, side)
    } else {
        Line::from("")
    }
}

/// After the game: the result, and the keys that matter now (the box with the
/// reason may be put away to see the board).
fn over_status(g: &GameState) -> Line<'static> {
    let headline = g
        .session
        .end_text()
        .map_or_else(|| "Game over".to_owned(), |t| t.headline);
    let toggle = if g.result_hidden {
        " result  "
    } else {
        " board  "
    };
    Line::from(vec![
        Span::styled(format!("{headline}.  "), Style::new().fg(ACCENT).bold()),
        key("v"),
        text(toggle),
        key("y"),
        text(" again  "),
        key("n"),
        text(" quit"),
    ])
}

fn name_span(g: &GameState, side: Side) -> Span<'static> {
    Span::styled(
        g.session.name(side).to_owned(),
        Style::new().fg(side_colour(side)).bold(),
    )
}

fn sowing_status(g: &GameState, a: &Animation) -> Line<'static> {
    let house = g.label(a.record.side, a.record.mv.house());
    Line::from(vec![
        name_span(g, a.record.side),
        text(&format!(" sows house {house}")),
        text("   ("),
        key("space"),
        text(" skips)"),
    ])
}

/// The ways `side`'s player can choose a house: arrows, numbers, letters, a click.
fn choose_status(g: &GameState, side: Side) -> Line<'static> {
    let houses = g.session.rules().houses();
    let mut spans = vec![
        name_span(g, side),
        text(", choose a house: "),
        key("←→"),
        text(" + "),
        key("Enter"),
        text(", "),
        key(&format!("1-{houses}")),
    ];
    let (letters, note) = letter_keys(side, houses);
    spans.push(text(", "));
    spans.push(key(&letters));
    spans.push(text(" or click"));
    if let Some(note) = note {
        spans.push(text(&format!(" ({note})")));
    }
    if g.hint_pending {
        spans.push(text("  (looking for a hint...)"));
    }
    Line::from(spans)
}

/// The latest message at the bottom, and above it the messages before it from the
/// log (dimmed), to fill `rows`.
fn message_lines(g: &GameState, rows: u16) -> Vec<Line<'static>> {
    let earlier = g
        .log
        .iter()
        .rev()
        .skip_while(|m| **m == g.message)
        .filter(|m| !m.text.is_empty())
        .take(usize::from(rows.saturating_sub(1)));
    let mut lines: Vec<Line> = earlier
        .map(|m| Line::from(Span::styled(m.text.clone(), Style::new().fg(DIM))))
        .collect();
    lines.reverse();
    while lines.len() + 1 < usize::from(rows) {
        lines.insert(0, Line::from(""));
    }
    lines.push(message_line(g));
    lines
}

fn message_line(g: &GameState) -> Line<'static> {
    let style = match g.message.kind {
        MessageKind::Info => Style::new().fg(Color::White),
        MessageKind::Good => Style::new().fg(Color::LightGreen).bold(),
        MessageKind::Capture => Style::new().fg(ACCENT).bold(),
        MessageKind::Warning => Style::new().fg(Color::LightRed),
    };
    Line::from(Span::styled(g.message.text.clone(), style))
}

/// The keys, with the sowing speed as a gauge.
fn keys_line(speed: usize) -> Line<'static> {
    let gauge: String = (0..SPEEDS_MS.len())
        .map(|i| if i <= speed { '▮' } else { '▯' })
        .collect();
    Line::from(vec![
        key("u"),
        text(" undo "),
        key("r"),
        text(" redo "),
        key("h"),
        text(" hint "),
        key("m"),
        text(" moves "),
        key("+-"),
        text(" speed "),
        Span::styled(gauge, Style::new().fg(ACCENT)),
        text(" "),
        key("?"),
        text(" help "),
        key("q"),
        text(" quit"),
    ])
}
