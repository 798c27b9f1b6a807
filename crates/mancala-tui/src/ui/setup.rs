//! The start screen: one line per setting, the start button, notes on the chosen
//! players, and the keys.

use mancala_core::{EndRule, Variant};
use ratatui::Frame;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};

use crate::layout::SetupLayout;
use crate::setup::{FALLBACK_PLAYER, Field, Setup, SetupForm};
use crate::style::{ACCENT, DIM, P1, P2, key, text};

/// Draws the start screen for `form`.
pub fn draw(frame: &mut Frame, layout: &SetupLayout, form: &SetupForm) {
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(P1))
        .title(Line::from(" Mancala · new game ".bold()).centered());
    frame.render_widget(block, layout.frame);
    let mut lines = vec![Line::from("")];
    for field in form.fields() {
        let focused = field == form.focus;
        if field == Field::Start {
            lines.push(Line::from(""));
            lines.push(start_button(focused));
        } else {
            lines.push(field_line(form.setup(), field, focused));
        }
    }
    lines.push(Line::from(""));
    lines.extend(player_notes(form));
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        layout.fields,
    );
    frame.render_widget(Paragraph::new(keys_line()), layout.keys);
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
    match v {
        Variant::Kalah => "Kalah",
        Variant::Oware => "Oware (Abapa)",
        Variant::OwareSimplified => "simplified Oware",
    }
}

fn end_rule_words(rule: EndRule) -> &'static str {
    match rule {
        EndRule::MoverCannotMove => "the mover cannot move",
        EndRule::EitherSideEmpty => "either side is empty",
    }
}

/// One setting: a marker when focused, the label, and the value between arrows (or,
/// for a name, followed by a cursor when focused).
fn field_line(s: &Setup, field: Field, focused: bool) -> Line<'static> {
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
    if typed {
        spans.push(Span::styled(value, value_style.fg(colour)));
        if focused {
            spans.push(Span::styled("▏", Style::new().fg(ACCENT)));
        }
    } else {
        let arrow =
            |a: &'static str| Span::styled(a, Style::new().fg(if focused { ACCENT } else { DIM }));
        spans.extend([
            arrow("◂ "),
            Span::styled(value, value_style.fg(colour)),
            arrow(" ▸"),
        ]);
    }
    Line::from(spans)
}

fn start_button(focused: bool) -> Line<'static> {
    let style = if focused {
        Style::new().fg(Color::Black).bg(ACCENT).bold()
    } else {
        Style::new().fg(ACCENT).bold()
    };
    Line::from(Span::styled("  Start the game  ", style)).centered()
}

/// Problems with a chosen computer player, said before the game starts. They were
/// found when the setting changed: finding out builds the player.
fn player_notes(form: &SetupForm) -> Vec<Line<'static>> {
    let seats = form.notes().iter().enumerate();
    seats
        .filter_map(|(i, note)| {
            let why = note.as_deref()?;
            Some(Line::from(Span::styled(
                format!(" ! {why}; {FALLBACK_PLAYER} plays for player {}.", i + 1),
                Style::new().fg(Color::LightRed),
            )))
        })
        .collect()
}

fn keys_line() -> Line<'static> {
    Line::from(vec![
        key("↑↓"),
        text(" field "),
        key("←→"),
        text(" change "),
        key("Enter"),
        text(" start "),
        key("?"),
        text(" help "),
        key("Esc"),
        text(" quit"),
    ])
    .centered()
}
