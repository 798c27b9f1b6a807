//! The start screen: one line per setting (the rule options those the variant's
//! description lists), the start button, what the focused rule option does, notes on
//! the chosen players, and the keys.

use mancala_core::variants::RuleOptionInfo;
use ratatui::Frame;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use crate::fit;
use crate::layout::SetupLayout;
use crate::setup::{Field, NAME_MAX, Setup, SetupForm, number_range};
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
    // Notes keep a column to spare before the box's border, as the settings do.
    let notes_w = width.saturating_sub(1);
    if let Some(said) = form.said() {
        let style = Style::new().fg(ACCENT);
        lines.extend(fit::wrap(
            &[Span::styled(format!(" {said}"), style)],
            notes_w,
            1,
        ));
    }
    lines.extend(option_summary(form, notes_w));
    // The players' notes first: a player replaced must be said, the game's summary
    // only fills what room is left.
    lines.extend(player_notes(form, notes_w));
    lines.extend(game_summary(form, notes_w));
    frame.render_widget(Paragraph::new(lines), layout.fields);
    let keys = keys_line(usize::from(layout.keys.width));
    frame.render_widget(Paragraph::new(keys).centered(), layout.keys);
}

/// A setting's label, its value, and whether the value is text typed in (a name)
/// rather than a choice changed with the arrows.
fn field_text(s: &Setup, field: Field) -> (String, String, bool) {
    let fixed = |label: &str, value: String| (label.to_owned(), value, false);
    match field {
        Field::Variant => fixed("Game", s.variant.info().name.to_owned()),
        Field::Houses => fixed("Houses per side", s.houses.to_string()),
        Field::Seeds => fixed("Seeds per house", s.seeds.to_string()),
        Field::Option(i) => match rule_option(s, i) {
            Some(o) => (
                words(o.key, true),
                words(s.options.value(o.key).unwrap_or_default(), false),
                false,
            ),
            None => fixed("", String::new()),
        },
        Field::Player(0) => fixed("Player 1 (first)", s.players[0].clone()),
        Field::Player(i) => fixed("Player 2", s.players[i].clone()),
        Field::Name(i) => ("  name".to_owned(), s.names[i].clone(), true),
        Field::Start => fixed("", String::new()),
    }
}

/// The variant's rule option `i`, as its description gives it.
fn rule_option(s: &Setup, i: usize) -> Option<&'static RuleOptionInfo> {
    s.variant.info().options.get(i)
}

/// A key or value of the descriptions in words: `either-side-empty` is "either side
/// empty", and as a label `empty-capture` is "Empty capture".
fn words(key: &str, label: bool) -> String {
    let spaced = key.replace('-', " ");
    let mut c = spaced.chars();
    match c.next() {
        Some(first) if label => first.to_uppercase().chain(c).collect(),
        _ => spaced,
    }
}

/// What the focused rule option does, in its description's words, wrapped to
/// `width` and dimmed; nothing when the focus is elsewhere.
fn option_summary(form: &SetupForm, width: usize) -> Vec<Line<'static>> {
    let Field::Option(i) = form.focus else {
        return Vec::new();
    };
    let Some(option) = rule_option(form.setup(), i) else {
        return Vec::new();
    };
    let style = Style::new().fg(DIM).italic();
    let text = format!(" {}.", capitalized(option.summary));
    fit::wrap(&[Span::styled(text, style)], width, 1)
}

/// What the focused game is, where it is played and where its rules come from,
/// wrapped to `width` and dimmed, so that a player knows the game before starting it;
/// nothing when the focus is elsewhere.
fn game_summary(form: &SetupForm, width: usize) -> Vec<Line<'static>> {
    if form.focus != Field::Variant {
        return Vec::new();
    }
    let d = form.setup().variant.description();
    let style = Style::new().fg(DIM).italic();
    let mut lines = Vec::new();
    if let Some(words) = form.finding() {
        let find = format!(" Find: {words}▏");
        lines.extend(fit::wrap(
            &[Span::styled(find, Style::new().fg(ACCENT))],
            width,
            1,
        ));
    }
    let mut about = vec![d.summary.clone()];
    if !d.region.is_empty() {
        about.push(format!("Played in {}.", d.region.trim_end_matches('.')));
    }
    if let Some(source) = d.sources.first() {
        about.push(format!("Rules: {}.", source.cite.trim_end_matches('.')));
    }
    for text in about.into_iter().filter(|t| !t.is_empty()) {
        lines.extend(fit::wrap(
            &[Span::styled(format!(" {text}"), style)],
            width,
            1,
        ));
    }
    lines
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
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
    // While a number or a name is edited, its limits: "1-16", "5/16 columns".
    let limit = match (focused, number_range(field)) {
        (false, _) => String::new(),
        (true, Some((_, max))) => format!("  1-{max}"),
        (true, None) if typed && !value.trim().is_empty() => {
            format!("  {}/{NAME_MAX}", fit::width(&value))
        }
        (true, None) => String::new(),
    };
    let room = room.saturating_sub(fit::width(&limit));
    let limit = Span::styled(limit, Style::new().fg(DIM));
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
    spans.push(limit);
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
        (0, vec![key("/"), text(" find a game")]),
        (9, vec![key("?"), text(" help")]),
        (9, vec![key("Esc"), text(" quit")]),
    ];
    super::game::ranked_keys(keys, width)
}
