//! The move list: numbered moves with who moved (when there is room for names), the
//! house, and what the move did (`×n` a capture, `↻` an extra turn). It shows the
//! latest moves that fit, or earlier ones when scrolled back (PgUp/PgDn); beside the
//! board, or over it (`m`) where there is no room beside.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use mancala_session::MoveRecord;

use crate::app::GameState;
use crate::layout::HISTORY_W;
use crate::style::{ACCENT, DIM, side_colour};
use mancala_session::house_label;

/// Names wider than this many columns are cut with an ellipsis, to keep the columns
/// straight.
const NAME_W: usize = 10;

/// Draws the move list of `g` in `r`, over whatever was drawn there.
pub fn draw(frame: &mut Frame, g: &GameState, r: Rect) {
    let records = g.session.records();
    let inner_h = usize::from(r.height.saturating_sub(2));
    // Under review, the move reviewed is in view and lit; else the latest moves, or
    // earlier ones when scrolled back.
    let reviewed = g.review.as_ref().map(|review| review.ply);
    let last = match reviewed {
        Some(ply) => (ply.saturating_sub(inner_h / 2) + inner_h)
            .max(ply + 1)
            .min(records.len()),
        None => records
            .len()
            .saturating_sub(g.moves_scroll.min(records.len().saturating_sub(inner_h))),
    };
    let first = last.saturating_sub(inner_h);
    let title = if last < records.len() {
        format!(" Moves {}-{} ", first + 1, last)
    } else {
        " Moves ".to_owned()
    };
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(DIM))
        .title(Line::from(title.bold()).centered());
    let inner = block.inner(r);
    frame.render_widget(Clear, r);
    frame.render_widget(block, r);
    let names = r.width >= HISTORY_W;
    let lines: Vec<Line> = if records.is_empty() {
        vec![Line::from(Span::styled(
            " no moves yet",
            Style::new().fg(DIM).add_modifier(Modifier::ITALIC),
        ))]
    } else {
        records[first..last]
            .iter()
            .map(|r| {
                let line = move_line(g, r, names);
                if reviewed == Some(r.ply) {
                    lit(line)
                } else {
                    line
                }
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines), inner);
}

/// `line` lit as the move under review: reversed, with a marker in place of the
/// space before its number.
fn lit(line: Line<'static>) -> Line<'static> {
    let mut spans = line.spans;
    if let Some(number) = spans.first_mut() {
        if let Some(rest) = number.content.strip_prefix(' ') {
            number.content = format!("▶{rest}").into();
        }
    }
    Line::from(spans).style(Style::new().add_modifier(Modifier::REVERSED))
}

/// One move; a move still being sown is listed (it has been played) but its marks
/// wait for the sowing to reach them.
fn move_line(g: &GameState, r: &MoveRecord, names: bool) -> Line<'static> {
    let houses = g.session.rules().houses();
    let sowing = g.anim.as_ref().is_some_and(|a| a.record.ply == r.ply);
    let mut spans = vec![Span::styled(
        format!("{:>3} ", r.ply + 1),
        Style::new().fg(DIM),
    )];
    if names {
        spans.push(Span::styled(
            format!("{} ", fit_name(g.session.name(r.side))),
            Style::new().fg(side_colour(r.side)),
        ));
    }
    let label_style = if names {
        Style::new().fg(Color::White).bold()
    } else {
        Style::new().fg(side_colour(r.side)).bold()
    };
    spans.push(Span::styled(
        format!("{:<4}", house_label(r.side, r.mv.house(), houses)),
        label_style,
    ));
    if !sowing {
        spans.push(Span::styled(note(r), Style::new().fg(ACCENT)));
    }
    Line::from(spans)
}

/// `name` in exactly [`NAME_W`] columns: cut with an ellipsis, or padded, by display
/// width (a CJK character takes two columns).
fn fit_name(name: &str) -> String {
    let mut out = String::new();
    let mut width = 0;
    if name.width() > NAME_W {
        for c in name.chars() {
            let w = c.width().unwrap_or(0);
            if width + w > NAME_W - 1 {
                break;
            }
            out.push(c);
            width += w;
        }
        out.push('…');
        width += 1;
    } else {
        out.push_str(name);
        width = name.width();
    }
    out.extend(std::iter::repeat_n(' ', NAME_W.saturating_sub(width)));
    out
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

#[cfg(test)]
mod tests {
    use super::fit_name;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn names_take_ten_columns_whatever_their_script() {
        for name in ["Ann", "山田太郎", "山田太郎山田太郎", "Bartholomew", ""] {
            assert_eq!(fit_name(name).width(), 10, "{name}");
        }
        assert_eq!(fit_name("山田太郎山田太郎"), "山田太郎… ");
    }
}
