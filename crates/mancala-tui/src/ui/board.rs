//! The board: the names at top and bottom, the two rows of houses with their labels,
//! the stores (in a game with stores) or seeds captured (the others) at the ends, and
//! the middle line.
//!
//! Player 1's row reads left to right towards their store on the right, player 2's
//! right to left towards theirs on the left (see [`crate::layout`]). A claimed house
//! is drawn [`CLAIMED`] in its owner's colour, as the position notation writes it; the
//! help says what it is, by the game's word for it.

use mancala_core::{Pit, Side};
use ratatui::Frame;
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use crate::app::{BoardView, GameState, NAME_SHOWN};
use crate::fit;
use crate::layout::BoardGeometry;
use crate::style::{ACCENT, CLAIMED, DIM, side_colour, text};
use mancala_session::house_label;

/// More seeds in hand than this are shown as this many and an ellipsis.
const HAND_MAX: usize = 20;

/// Draws `g`'s board, as it is now or at the current step of a sowing.
pub fn draw(frame: &mut Frame, g: &GameState, geo: &BoardGeometry) {
    let board = g.board();
    for side in Side::BOTH {
        let r = geo.name_rect(side);
        frame.render_widget(
            Paragraph::new(name_line(g, side, usize::from(r.width))).centered(),
            r,
        );
    }
    let houses = g.session.rules().houses() as u8;
    for side in Side::BOTH {
        for house in 1..=houses {
            draw_house(frame, g, geo, &board, side, house);
        }
    }
    for side in Side::BOTH {
        draw_store(frame, g, geo, &board, side);
    }
    let middle = geo.middle_rect();
    frame.render_widget(
        Paragraph::new(middle_line(g, &board, usize::from(middle.width)).centered()),
        middle,
    );
}

/// `side`'s name, highlighted while they move or sow; who they are (player number,
/// computer player) when the name does not say; an arrow to their store; all in
/// `width` columns: who they are goes first where room is short, then the name is cut.
fn name_line(g: &GameState, side: Side, width: usize) -> Line<'static> {
    let to_move = g.session.to_move() == Some(side) && g.anim.is_none();
    let sowing = g.anim.as_ref().is_some_and(|a| a.record.side == side);
    let name = g.name(side);
    let number = format!("player {}", side.number());
    let colour = side_colour(side);
    let name_style = if to_move || sowing {
        Style::new().fg(Color::Black).bg(colour).bold()
    } else {
        Style::new().fg(colour).bold()
    };
    let (before, after) = if side == Side::North {
        ("◀ ", "")
    } else {
        ("", " ▶")
    };
    let mark = if to_move && !g.finished() {
        "  ● to move"
    } else {
        ""
    };
    let mut whos = Vec::new();
    if let Some(spec) = g.session.seat(side).spec() {
        whos.push(format!(" {number} · {spec}"));
    }
    if !name.eq_ignore_ascii_case(&number) {
        whos.push(format!(" {number}"));
    }
    whos.push(String::new());
    let fixed = fit::width(before) + fit::width(after) + fit::width(mark) + 2;
    let who = whos
        .into_iter()
        .find(|who| fixed + fit::width(name) + fit::width(who) <= width)
        .unwrap_or_default();
    let name = fit::shorten(name, width.saturating_sub(fixed + fit::width(&who)));
    Line::from(vec![
        Span::styled(before, Style::new().fg(colour)),
        Span::styled(format!(" {name} "), name_style),
        Span::styled(who, Style::new().fg(DIM)),
        Span::styled(after, Style::new().fg(colour)),
        Span::styled(mark, Style::new().fg(ACCENT).bold()),
    ])
}

/// How a house is drawn: its border, the style of its count and of its label.
struct HouseLook {
    border: Style,
    border_type: BorderType,
    count: Style,
    label: Style,
}

/// The look of `side`'s house `house`: outlined in the mover's colour when it may be
/// played, thick and accented under the cursor, double from where a sowing started,
/// accented where the last seed fell, red when captured (later rules win).
fn house_look(g: &GameState, board: &BoardView, side: Side, house: u8) -> HouseLook {
    let pit = Pit::House { side, house };
    let choosing = g.awaiting_human() && !g.confirm_quit;
    let legal = choosing
        && g.session.to_move() == Some(side)
        && g.session.legal_moves().iter().any(|m| m.house() == house);
    let cursor = legal && g.cursor == house;
    let colour = side_colour(side);
    let mut look = HouseLook {
        border: Style::new().fg(if legal { colour } else { DIM }),
        border_type: BorderType::Rounded,
        count: if board.count(pit) == 0 {
            Style::new().fg(DIM)
        } else {
            Style::new().fg(Color::White).bold()
        },
        label: match (cursor, legal) {
            (true, _) => Style::new().fg(ACCENT).bold(),
            (false, true) => Style::new().fg(colour),
            (false, false) => Style::new().fg(DIM),
        },
    };
    if cursor {
        look.border = Style::new().fg(ACCENT).bold();
        look.border_type = BorderType::Thick;
        look.count = Style::new().fg(Color::Black).bg(ACCENT).bold();
    }
    // Under review, the best houses as the cursor, then the house played.
    if board.best.contains(&pit) {
        look.border = Style::new().fg(ACCENT).bold();
        look.border_type = BorderType::Thick;
        look.label = Style::new().fg(ACCENT).bold();
    }
    if board.origin == Some(pit) {
        look.border = Style::new().fg(colour).bold();
        look.border_type = BorderType::Double;
    }
    if board.last_drop == Some(pit) {
        look.border = Style::new().fg(ACCENT).bold();
        look.count = Style::new().fg(Color::Black).bg(ACCENT).bold();
    }
    if board.swept.contains(&pit) {
        look.border = Style::new().fg(colour).add_modifier(Modifier::DIM);
        look.border_type = BorderType::Plain;
    }
    if board.captured.contains(&pit) {
        look.border = Style::new().fg(Color::LightRed).bold();
        look.count = Style::new().fg(Color::White).bg(Color::Red).bold();
    }
    // A claimed house in its owner's colours; lit while a seed falls into it.
    if let Some(owner) = board.claim_owner(pit) {
        let colour = side_colour(owner);
        let lit = board.last_drop == Some(pit);
        look.border = Style::new().fg(if lit { ACCENT } else { colour }).bold();
        look.border_type = BorderType::Double;
        look.count = Style::new().fg(Color::Black).bg(colour).bold();
        look.label = Style::new().fg(colour);
    }
    look
}

fn draw_house(
    frame: &mut Frame,
    g: &GameState,
    geo: &BoardGeometry,
    board: &BoardView,
    side: Side,
    house: u8,
) {
    let look = house_look(g, board, side, house);
    let pit = Pit::House { side, house };
    let count = match board.claim_owner(pit) {
        Some(_) => CLAIMED.to_owned(),
        None => fit(board.count(pit), geo.inner),
    };
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(count, look.count)).centered()).block(
            Block::bordered()
                .border_type(look.border_type)
                .border_style(look.border),
        ),
        geo.house_rect(side, house),
    );
    let houses = g.session.rules().houses();
    frame.render_widget(
        Paragraph::new(
            Line::from(Span::styled(house_label(side, house, houses), look.label)).centered(),
        ),
        geo.label_rect(side, house),
    );
}

/// A store (in a game with stores) or the seeds captured (the others), in its player's
/// colour, with the variant's word for it where it fits; lit where the last seed went
/// (into the store, or through its owner's claimed house).
fn draw_store(
    frame: &mut Frame,
    g: &GameState,
    geo: &BoardGeometry,
    board: &BoardView,
    side: Side,
) {
    let pit = Pit::Store(side);
    let colour = side_colour(side);
    let (count, border) = if board.last_drop == Some(pit) || board.banked == Some(side) {
        (
            Style::new().fg(Color::Black).bg(ACCENT).bold(),
            Style::new().fg(ACCENT).bold(),
        )
    } else {
        (Style::new().fg(colour).bold(), Style::new().fg(colour))
    };
    let word = g.session.rules().variant().info().bank;
    // A word cut short reads as a fault: without room, the count alone.
    let word = if fit::width(word) <= usize::from(geo.store_inner) {
        word
    } else {
        ""
    };
    let lines = vec![
        Line::from(""),
        Line::from(Span::styled(word, Style::new().fg(DIM))).centered(),
        Line::from(Span::styled(fit(board.count(pit), geo.store_inner), count)).centered(),
    ];
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .border_type(BorderType::Rounded)
                .border_style(border),
        ),
        geo.store_rect(side),
    );
}

/// The seeds in hand during a sowing; otherwise a tip on the variant's capture or extra
/// turn, when it fits in `width`.
fn middle_line(g: &GameState, board: &BoardView, width: usize) -> Line<'static> {
    if board.in_hand > 0 {
        let seeds = "●".repeat(usize::from(board.in_hand).min(HAND_MAX));
        let more = if usize::from(board.in_hand) > HAND_MAX {
            "…"
        } else {
            ""
        };
        let colour = g
            .anim
            .as_ref()
            .map_or(ACCENT, |a| side_colour(a.record.side));
        return Line::from(vec![
            text("in hand "),
            Span::styled(format!("{seeds}{more}"), Style::new().fg(colour)),
            text(&format!(" {}", board.in_hand)),
        ]);
    }
    // Under review the board is a position before the end: no sweep to tell.
    if g.finished() && g.review.is_none() {
        return Line::from(Span::styled(
            sweep_words(g, width),
            Style::new().fg(ACCENT).add_modifier(Modifier::ITALIC),
        ));
    }
    let tip = format!("⟲ {}", g.session.rules().variant().info().tip);
    // On a board too narrow for the tip, nothing: a lone arrow would say nothing.
    let shown = if tip.chars().count() <= width {
        tip
    } else {
        String::new()
    };
    Line::from(Span::styled(
        shown,
        Style::new().fg(DIM).add_modifier(Modifier::ITALIC),
    ))
}

/// Where the seeds left at the end went, in a few words and at most `width` columns:
/// "to the stores: Bob +36", or "5 left for nobody"; empty when none were left. Where
/// that is too long, "stores:" says it, then the names are cut.
fn sweep_words(g: &GameState, width: usize) -> String {
    let Some(end) = g.session.end() else {
        return String::new();
    };
    let words = |lead: &str, name_w: usize| {
        let mut parts: Vec<String> = Side::BOTH
            .into_iter()
            .filter(|s| end.sweep[s.index()] > 0)
            .map(|s| {
                let name = fit::shorten(g.name(s), name_w);
                format!("{name} +{}", end.sweep[s.index()])
            })
            .collect();
        if !parts.is_empty() {
            parts[0] = format!("{lead}{}", parts[0]);
        }
        if end.unclaimed > 0 {
            parts.push(format!("{} left for nobody", end.unclaimed));
        }
        parts.join(" · ")
    };
    let tries = [
        ("to the stores: ", NAME_SHOWN),
        ("stores: ", NAME_SHOWN),
        ("stores: ", 8),
        ("", 5),
    ];
    tries
        .iter()
        .map(|&(lead, name_w)| words(lead, name_w))
        .find(|w| fit::width(w) <= width)
        .unwrap_or_else(|| fit::shorten(&words("", 5), width))
}

/// A count in `width` columns: `+` signs when it does not fit.
fn fit(count: u16, width: u16) -> String {
    let s = count.to_string();
    if s.len() as u16 <= width {
        s
    } else {
        "+".repeat(usize::from(width))
    }
}
