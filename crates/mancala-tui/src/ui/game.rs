//! The game screen: the title, the board in its frame, the move list, the status and
//! message lines, the keys, and the pop-ups over the board.

use mancala_core::{Rules, Side};
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use super::{board, history, popup};
use crate::app::{
    Animation, App, GameState, Message, MessageKind, Review, SPEEDS_MS, letter_keys,
    short_letter_note,
};
use crate::fit;
use crate::layout::GameLayout;
use crate::style::{ACCENT, DIM, key, side_colour, text};

/// The thinking spinner's frames.
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Draws the game `g` in `layout`.
pub fn draw(frame: &mut Frame, app: &App, g: &GameState, layout: &GameLayout) {
    frame.render_widget(
        Paragraph::new(fit::shorten_line(
            title_line(g.session.rules()),
            usize::from(layout.title.width),
        ))
        .alignment(Alignment::Center),
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
    // Over the board only where it is not beside it already.
    let list_over = g.moves_shown && layout.history.is_none();
    if list_over {
        history::draw(frame, g, layout.frame);
    }
    talk(frame, app, g, layout.status.union(layout.messages));
    let width = usize::from(layout.keys.width);
    let keys = if g.review.is_some() {
        review_keys(width)
    } else {
        keys_line(app.speed, layout.history.is_none(), width)
    };
    frame.render_widget(Paragraph::new(keys).centered(), layout.keys);
    if g.confirm_quit {
        popup::quit(frame, g, layout.frame, frame.area());
    } else if g.finished() && !g.result_hidden && !list_over && g.review.is_none() {
        let screen = frame.area();
        popup::game_over(frame, g, &app.score(), layout.frame, screen);
    }
}

/// "s" after a count other than one.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "MANCALA  Kalah · 6 houses × 4 seeds", with the rule options the variant takes
/// where they are not their defaults: a switch by its name ("empty capture"), another
/// option by its value ("either side empty").
fn title_line(rules: Rules) -> Line<'static> {
    let info = rules.variant().info();
    let (houses, seeds) = (rules.houses(), rules.seeds());
    let mut title = format!(
        " {} · {houses} house{} × {seeds} seed{} ",
        info.name,
        plural(houses),
        plural(usize::from(seeds))
    );
    for option in info.options {
        let value = rules.options().value(option.key).unwrap_or_default();
        match option.values {
            [default, ..] if *default == value => {}
            ["off", "on"] => title.push_str(&format!("· {} ", option.key.replace('-', " "))),
            _ => title.push_str(&format!("· {} ", value.replace('-', " "))),
        }
    }
    Line::from(vec![
        Span::styled(" MANCALA ", Style::new().fg(Color::Black).bg(ACCENT).bold()),
        Span::styled(title, Style::new().fg(Color::White).bold()),
    ])
}

/// What is happening: a sowing, the end, a computer thinking, or whose choice it is
/// (`compact`: in fewer words, for a narrow terminal).
fn status_line(app: &App, g: &GameState, compact: bool) -> Line<'static> {
    if let Some(review) = &g.review {
        review_status(g, review)
    } else if let Some(a) = &g.anim {
        sowing_status(g, a)
    } else if g.finished() {
        over_status(g)
    } else if let Some(side) = g.thinking() {
        let spinner = SPINNER[app.spinner % SPINNER.len()];
        Line::from(vec![
            Span::styled(format!("{spinner} "), Style::new().fg(ACCENT)),
            name_span(g, side),
            text(" is thinking..."),
        ])
    } else if let Some(side) = g.session.to_move() {
        if compact {
            compact_choose_status(g, side)
        } else {
            choose_status(g, side)
        }
    } else {
        Line::from("")
    }
}

/// After the game: the result, and the keys that matter now (the box with the
/// reason may be put away to see the board).
fn over_status(g: &GameState) -> Line<'static> {
    let headline = g
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

/// Under review: which move is shown, what the board's two borders mean (the house
/// played, the best houses), and the accuracy once known.
fn review_status(g: &GameState, review: &Review) -> Line<'static> {
    let mut spans = vec![
        Span::styled(
            format!("Review {}/{}  ", review.ply + 1, review.plies),
            Style::new().fg(ACCENT).bold(),
        ),
        Span::styled("╔═╗", Style::new().fg(Color::White)),
        text(" played  "),
        Span::styled("┏━┓", Style::new().fg(ACCENT)),
        text(" best  "),
    ];
    if let Some(a) = &review.analysis {
        spans.push(text(&format!(
            "accuracy {} {:.0} · {} {:.0}",
            fit::shorten(g.name(Side::South), 10),
            a.accuracy[0],
            fit::shorten(g.name(Side::North), 10),
            a.accuracy[1]
        )));
    }
    Line::from(spans)
}

/// The keys of the review, in at most `width` columns.
fn review_keys(width: usize) -> Line<'static> {
    let keys = vec![
        (8, vec![key("←→"), text(" step")]),
        (2, vec![key("PgUp PgDn"), text(" by ten")]),
        (1, vec![key("Home End"), text(" first, last")]),
        (9, vec![key("a"), text(" back to the result")]),
        (7, vec![key("?"), text(" help")]),
    ];
    ranked_keys(keys, width)
}

fn name_span(g: &GameState, side: Side) -> Span<'static> {
    Span::styled(
        g.name(side).to_owned(),
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

/// [`choose_status`] in fewer words, for a terminal where it does not fit its rows.
fn compact_choose_status(g: &GameState, side: Side) -> Line<'static> {
    let houses = g.session.rules().houses();
    let (letters, _) = letter_keys(side, houses);
    let mut spans = vec![
        name_span(g, side),
        text(": "),
        key("←→"),
        text(" "),
        key("Enter"),
        text(", "),
        key(&format!("1-{houses}")),
        text(", "),
        key(&letters),
        text(", click"),
    ];
    if let Some(note) = short_letter_note(side, houses) {
        spans.push(text(&format!(" ({note})")));
    }
    if g.hint_pending {
        spans.push(text(" (hint...)"));
    }
    Line::from(spans)
}

/// The status line and the messages under it, fitted to the rows of `area`: the
/// status's first row; the latest message at the bottom, wrapped (a command in it on a
/// row of its own, whole); the status's second row, when it wraps; then the messages
/// before, dimmed, in the rows left above the latest. What has no room left is
/// shortened with "…".
fn talk(frame: &mut Frame, app: &App, g: &GameState, area: Rect) {
    let (w, rows) = (usize::from(area.width), usize::from(area.height));
    let room = rows.saturating_sub(1);
    let latest = message_rows(&g.message, message_style(g.message.kind), w, room);
    let status_rows = (rows - latest.len()).clamp(1, 2);
    let mut status = fit::wrap(&status_line(app, g, false).spans, w, 0);
    if status.len() > status_rows {
        status = fit::wrap(&status_line(app, g, true).spans, w, 0);
    }
    let status = fit::at_most(status, status_rows, w);
    let mut left = rows.saturating_sub(status.len() + latest.len());
    let mut earlier: Vec<Line<'static>> = Vec::new();
    // Under review only the move reviewed is spoken of: no message of the game's end.
    let shown = if g.review.is_some() { 0 } else { g.log.len() };
    let before = g.log[..shown].iter().rev().skip_while(|m| **m == g.message);
    for m in before.filter(|m| !m.text.is_empty()) {
        if left == 0 {
            break;
        }
        let mut lines = message_rows(m, Style::new().fg(DIM), w, left);
        left -= lines.len();
        lines.append(&mut earlier);
        earlier = lines;
    }
    let mut lines = status;
    lines.extend(std::iter::repeat_n(Line::from(""), left));
    lines.extend(earlier);
    lines.extend(latest);
    frame.render_widget(Paragraph::new(lines).centered(), area);
}

/// `m` in at most `rows` rows of `width`: its text wrapped, then its command whole on
/// rows of its own; the text is shortened first when rows are few.
fn message_rows(m: &Message, style: Style, width: usize, rows: usize) -> Vec<Line<'static>> {
    let command = m.command.as_ref().map_or_else(Vec::new, |c| {
        fit::wrap(&[Span::styled(c.clone(), style)], width, 0)
    });
    if command.len() >= rows {
        return fit::at_most(command, rows, width);
    }
    let text = if m.text.is_empty() {
        Vec::new()
    } else {
        fit::wrap(&[Span::styled(m.text.clone(), style)], width, 0)
    };
    let mut lines = fit::at_most(text, rows - command.len(), width);
    lines.extend(command);
    lines
}

fn message_style(kind: MessageKind) -> Style {
    match kind {
        MessageKind::Info => Style::new().fg(Color::White),
        MessageKind::Good => Style::new().fg(Color::LightGreen).bold(),
        MessageKind::Capture => Style::new().fg(ACCENT).bold(),
        MessageKind::Warning => Style::new().fg(Color::LightRed),
    }
}

/// The keys, with the sowing speed as a gauge, in at most `width` columns: the keys
/// that matter least go first, `?` help and `q` quit last. `m` is offered only when
/// the move list is not beside the board (`list_key`).
fn keys_line(speed: usize, list_key: bool, width: usize) -> Line<'static> {
    let gauge: String = (0..SPEEDS_MS.len())
        .map(|i| if i <= speed { '▮' } else { '▯' })
        .collect();
    // Each key with its rank: the lower, the sooner it goes when room is short.
    let mut keys = vec![
        (3, vec![key("u"), text(" undo")]),
        (1, vec![key("r"), text(" redo")]),
        (4, vec![key("h"), text(" hint")]),
    ];
    if list_key {
        keys.push((2, vec![key("m"), text(" moves")]));
    }
    keys.extend([
        (
            0,
            vec![
                key("+-"),
                text(" speed "),
                Span::styled(gauge, Style::new().fg(ACCENT)),
            ],
        ),
        (9, vec![key("?"), text(" help")]),
        (9, vec![key("q"), text(" quit")]),
    ]);
    ranked_keys(keys, width)
}

/// `keys` joined by spaces in at most `width` columns, the lowest ranked dropped
/// first while they do not fit.
pub(super) fn ranked_keys(mut keys: Vec<(u8, Vec<Span<'static>>)>, width: usize) -> Line<'static> {
    let joined = |keys: &[(u8, Vec<Span<'static>>)]| {
        let mut spans = Vec::new();
        for (i, (_, k)) in keys.iter().enumerate() {
            if i > 0 {
                spans.push(text(" "));
            }
            spans.extend(k.iter().cloned());
        }
        Line::from(spans)
    };
    while joined(&keys).width() > width && keys.len() > 1 {
        let lowest = keys.iter().map(|(rank, _)| *rank).min().unwrap_or(0);
        if let Some(i) = keys.iter().position(|(rank, _)| *rank == lowest) {
            keys.remove(i);
        }
    }
    fit::shorten_line(joined(&keys), width)
}
