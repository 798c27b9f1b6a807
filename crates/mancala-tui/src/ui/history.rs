//! The move list beside the board: the latest moves that fit, numbered, with who
//! moved, the house, and what the move did (`×n` a capture, `↻` an extra turn).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph};

use mancala_session::MoveRecord;

use super::style::{ACCENT, DIM, side_colour};
use crate::app::GameState;
use mancala_session::house_label;

/// Names longer than this are cut with an ellipsis, to keep the columns straight.
const NAME_W: usize = 10;

/// Draws the move list of `g` in `r`.
pub fn draw(frame: &mut Frame, g: &GameState, r: Rect) {
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(DIM))
        .title(Line::from(" Moves ".bold()).centered());
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let records = g.session.records();
    let shown = records.len().min(usize::from(inner.height));
    // A move being sown is listed already: it has been played.
    let lines: Vec<Line> = if records.is_empty() {
        vec![Line::from(Span::styled(
            " no moves yet",
            Style::new().fg(DIM).add_modifier(Modifier::ITALIC),
        ))]
    } else {
        records[records.len() - shown..]
            .iter()
            .map(|r| move_line(g, r))
            .collect()
    };
    frame.render_widget(Paragraph::new(lines), inner);
}

fn move_line(g: &GameState, r: &MoveRecord) -> Line<'static> {
    let full = g.session.name(r.side);
    let name: String = if full.chars().count() > NAME_W {
        full.chars().take(NAME_W - 1).chain(['…']).collect()
    } else {
        full.to_owned()
    };
    let houses = g.session.rules().houses();
    Line::from(vec![
        Span::styled(format!("{:>3} ", r.ply + 1), Style::new().fg(DIM)),
        Span::styled(
            format!("{name:<NAME_W$} "),
            Style::new().fg(side_colour(r.side)),
        ),
        Span::styled(
            format!("{:<4}", house_label(r.side, r.mv.house(), houses)),
            Style::new().fg(Color::White).bold(),
        ),
        Span::styled(note(r), Style::new().fg(ACCENT)),
    ])
}

/// `×n` for a capture, `↻` for an extra turn (not for a move that ended the game).
fn note(r: &MoveRecord) -> String {
    let mut note = String::new();
    if r.report.captured > 0 {
        note.push_str(&format!("×{}", r.report.captured));
    }
    if r.report.ended_in_store && !r.after.is_over() {
        if !note.is_empty() {
            note.push(' ');
        }
        note.push('↻');
    }
    note
}
