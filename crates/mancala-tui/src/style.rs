//! Colours and the two kinds of text span every screen uses.

use mancala_core::Side;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Span;

/// Player 1's colour.
pub const P1: Color = Color::Cyan;
/// Player 2's colour.
pub const P2: Color = Color::LightMagenta;
/// Things in the background: empty houses, labels of houses that cannot be played.
pub const DIM: Color = Color::DarkGray;
/// What asks for attention: keys, the cursor, the last seed sown.
pub const ACCENT: Color = Color::Yellow;

/// What a claimed house shows instead of its count (always 0): the mark the position
/// notation writes for it. The board draws it, the help explains it.
pub const CLAIMED: &str = "x";

/// The colour of `side`'s player.
pub fn side_colour(side: Side) -> Color {
    match side {
        Side::South => P1,
        Side::North => P2,
    }
}

/// A key to press, as shown in help lines.
pub fn key(k: &str) -> Span<'static> {
    Span::styled(k.to_owned(), Style::new().fg(ACCENT).bold())
}

/// Plain text around keys.
pub fn text(t: &str) -> Span<'static> {
    Span::styled(t.to_owned(), Style::new().fg(Color::Gray))
}
