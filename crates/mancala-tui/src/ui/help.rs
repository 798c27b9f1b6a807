//! Draws the help screen (`?` or F1), its text from [`crate::help`], scrolled as far as
//! the app says. Fixed text, cheap to draw.

use mancala_core::Variant;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};

use crate::help;
use crate::style::ACCENT;

/// Draws the help for `variant` on a screen of `full`, `scroll` lines down (no further
/// than its end).
pub fn draw(frame: &mut Frame, full: Rect, variant: Variant, scroll: u16) {
    let area = help::area(full);
    // Built once a frame: measured for the scroll, then drawn.
    let text = help::wrapped(full, variant);
    let most = help::scroll_room(&text, full);
    let scroll = scroll.min(most);
    // Says how to see the rest when it does not all fit.
    let title = help::title(area.width, scroll > 0, scroll < most);
    // No taller than its text, centred: a tall terminal shows no empty box.
    let h = u16::try_from(text.len() + 2).map_or(area.height, |h| h.min(area.height));
    let dy = (area.height - h) / 2;
    let area = Rect::new(area.x, area.y + dy, area.width, h);
    let inside = help::text_area(full);
    let inside = Rect::new(inside.x, inside.y + dy, inside.width, h.saturating_sub(2));
    frame.render_widget(Clear, area);
    frame.render_widget(
        Block::bordered()
            .border_type(BorderType::Double)
            .border_style(Style::new().fg(ACCENT))
            .title(Line::from(title.bold()).centered()),
        area,
    );
    frame.render_widget(Paragraph::new(text).scroll((scroll, 0)), inside);
}
