//! The start screen: one line per setting, the start button, notes on the chosen
//! players, and the keys.

use mancala_core::{EndRule, Variant};
use ratatui::Frame;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use crate::fit;
use crate::layout::SetupLayout;
use crate::setup::{Field, Setup, SetupForm};
use crate::style::{ACCENT, DIM, P1, P2, key, text};

/// Draws the start screen for `form`.
pub fn draw(frame: &mut Frame, layout: &SetupLayout, form: &SetupForm) {
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(P1))
        .title(Line::from(" Mancala · new game ".bold()).centered());
    frame.render_widget(block, layout.frame);
    let width = usize::from(layout.fields.width);
    let mut lines = vec![Line::from("")];
    for field in form.fields() {
        let focused = field == form.focus;
        if field == Field::Start {
            lines.push(Line::from(""));
            lines.push(start_button(focused));
        } else {
            lines.push(field_line(form.setup(), field, focused, width));
        }
    }
    lines.push(Line::from(""));
    lines.extend(player_notes(form, width));
    frame.render_widget(Paragraph::new(lines), layout.fields);
    let keys = keys_line(usize::from(layout.keys.width));
    frame.render_widget(Paragraph::new(keys).centered(), layout.keys);
}

/// A setting's label, its value, and whether the value is text typed in (a name)
/// rather than a choice changed with the arrows.
fn field_text(s: &Setup, field: Field) -> (&'static str, String, bool) {
    match field {
        Field::Variant => ("Game", variant_name(s.variant).to_owned(), false),
        Field::Houses => ("Houses per side", s.houses.to_string(), false),
        Field::Seeds => ("Seeds per house", s.seeds.to_string(), false),
        Field::EmptyCapture => (
            "Empty capture",
            if s.empty_capture { "on" } else { "off" }.to_owned(),
            false,
        ),
        Field::EndRule => (
            "Game ends when",
            end_rule_words(s.end_rule).to_owned(),
            false,
        ),
        Field::Player(0) => ("Player 1 (first)", s.players[0].clone(), false),
        Field::Player(i) => ("Player 2", s.players[i].clone(), false),
        Field::Name(i) => ("  name", s.names[i].clone(), true),
        Field::Start => ("", String::new(), false),
    }
}

fn variant_name(v: Variant) -> &'static str {
    v.info().name
}

fn end_rule_words(rule: EndRule) -> &'static str {
    match rule {
        EndRule::MoverCannotMove => "the mover cannot move",
        EndRule::EitherSideEmpty => "either side is empty",
    }
}

/// Columns of a setting's line before its value: the focus marker and the label.
const LABEL_W: usize = 20;

/// One setting in `width` columns: a marker when focused, the label, and the value
/// between arrows (or, for a name, followed by a cursor when focused; an empty name
/// shows, dimmed, the default name the game will use).
fn field_line(s: &Setup, field: Field, focused: bool, width: usize) -> Line<'static> {
    let (label, value, typed) = field_text(s, field);
    let label_style = if focused {
        Style::new().fg(ACCENT).bold()
    } else {
        Style::new().fg(Color::Gray)
    };
    let value_style = if focused {
        Style::new().fg(Color::White).bold()
    } else {
        Style::new().fg(Color::White)
    };
    let colour = match field {
        Field::Player(0) | Field::Name(0) => P1,
        Field::Player(_) | Field::Name(_) => P2,
        _ => Color::White,
    };
    let mut spans = vec![
        Span::styled(if focused { " ▸ " } else { "   " }, label_style),
        Span::styled(format!("{label:<17}"), label_style),
    ];
    // A column to spare before the box's border.
    let room = width.saturating_sub(LABEL_W + 1);
    if typed {
        let cursor = if focused { "▏" } else { "" };
        let room = room.saturating_sub(fit::width(cursor));
        if focused {
            spans.push(Span::styled(cursor, Style::new().fg(ACCENT)));
        }
        if value.trim().is_empty() {
            // What the game will call this player: the seat's default name.
            let default = s.clone().named().names[field_seat(field)].clone();
            spans.push(Span::styled(
                fit::shorten(&format!("{default} (no name given)"), room),
                Style::new().fg(DIM).italic(),
            ));
        } else if focused {
            // The end, where the typing goes on, stays in view.
            let shown = fit::shorten_start(&value, room);
            spans.insert(2, Span::styled(shown, value_style.fg(colour)));
        } else {
            spans.push(Span::styled(
                fit::shorten(&value, room),
                value_style.fg(colour),
            ));
        }
    } else {
        let arrow =
            |a: &'static str| Span::styled(a, Style::new().fg(if focused { ACCENT } else { DIM }));
        spans.extend([
            arrow("◂ "),
            Span::styled(
                fit::shorten(&value, room.saturating_sub(4)),
                value_style.fg(colour),
            ),
            arrow(" ▸"),
        ]);
    }
    Line::from(spans)
}

/// The seat a player or name line is about.
fn field_seat(field: Field) -> usize {
    match field {
        Field::Player(i) | Field::Name(i) => i,
        _ => 0,
    }
}

fn start_button(focused: bool) -> Line<'static> {
    let style = if focused {
        Style::new().fg(Color::Black).bg(ACCENT).bold()
    } else {
        Style::new().fg(ACCENT).bold()
    };
    Line::from(Span::styled("  Start the game  ", style)).centered()
}

/// What the start screen says about the players, before the game starts: a player
/// put in place of one that does not play the variant, or one that cannot play these
/// rules. Found when the setting changed (finding out builds the player); wrapped to
/// `width` with the lines after the first indented under the text.
fn player_notes(form: &SetupForm, width: usize) -> Vec<Line<'static>> {
    let style = Style::new().fg(Color::LightRed);
    form.notes()
        .into_iter()
        .flatten()
        .flat_map(|why| fit::wrap(&[Span::styled(format!(" ! {why}."), style)], width, 3))
        .collect()
}

/// The keys, in at most `width` columns: `?` help and Esc quit the last to go.
fn keys_line(width: usize) -> Line<'static> {
    let keys = vec![
        (2, vec![key("↑↓"), text(" field")]),
        (1, vec![key("←→"), text(" change")]),
        (3, vec![key("Enter"), text(" start")]),
        (9, vec![key("?"), text(" help")]),
        (9, vec![key("Esc"), text(" quit")]),
    ];
    super::game::ranked_keys(keys, width)
}
