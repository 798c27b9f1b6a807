//! The help screen's text (`?` or F1): the keys (from the key table, `keymap`, which
//! the app dispatches them by), the rules of the variant being played
//! as its description words them (with its tip, what the boxes at the ends hold and,
//! in a game whose captures claim houses, what the `x` on the board is), and what each computer player that
//! plays it is, from the engine's catalogue; where it goes on the screen and how far it
//! scrolls. `ui::help` draws it; the app asks how far it may scroll, so that a key past
//! either end is not a dead press.

use mancala_core::Variant;
use mancala_engine::PlayerInfo;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};

use crate::fit;
use crate::keymap;
use crate::style::{ACCENT, CLAIMED, key, text};

/// The help's widest box: wider lines are harder to read.
const MAX_WIDTH: u16 = 78;

/// What the board shows of `variant` beyond seeds: the boxes at its ends (by the
/// variant's word for them) and a claimed house's mark (by the variant's word for it).
fn board_words(variant: Variant) -> Vec<String> {
    let info = variant.info();
    let mut words = vec![if info.stores {
        format!("Your {} is the box on your right.", info.bank)
    } else {
        format!(
            "The boxes at the ends count the seeds each player has {}.",
            info.bank
        )
    }];
    if info.claims {
        words.push(format!(
            "{CLAIMED} in a house, in its owner's colour: a {}. Seeds sown there go to its \
             owner.",
            mancala_session::claim_word(info.claim_word)
        ));
    }
    words
}

/// Columns of the keys and of the players' names, before what they do.
const KEY_W: usize = 18;

/// The help's lines for `variant`, styled and wrapped to `width` columns: the text of
/// a key or a player wraps under its own column.
fn lines(variant: Variant, width: usize) -> Vec<Line<'static>> {
    let title = Style::new().fg(ACCENT).bold();
    let key_w = KEY_W.min(width / 2);
    let mut lines = vec![Line::from(Span::styled("Keys", title))];
    for row in keymap::ROWS.iter().filter(|row| !row.help.is_empty()) {
        lines.extend(pair(row.label, row.help, key_w, width));
    }
    lines.push(Line::from(""));
    let info = variant.info();
    lines.push(Line::from(Span::styled(info.name, title)));
    let white = Style::new().fg(Color::White);
    lines.extend(fit::wrap(&[Span::styled(info.rules, white)], width, 0));
    let tip = [text("Tip: "), Span::styled(format!("{}.", info.tip), white)];
    lines.extend(fit::wrap(&tip, width, 0));
    for words in board_words(variant) {
        lines.extend(fit::wrap(&[Span::styled(words, white)], width, 0));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Computer players", title)));
    // Names are short: their column is narrower than the keys'.
    let players = || PlayerInfo::menu_for(variant);
    let name_w = players().map(|p| fit::width(p.name) + 2).max().unwrap_or(0);
    for p in players() {
        lines.extend(pair(p.name, p.summary, name_w.min(key_w), width));
    }
    lines
}

/// The help's box on a screen of `full` at its tallest: the whole height, at most [`MAX_WIDTH`]
/// columns, centred.
pub fn area(full: Rect) -> Rect {
    let w = full.width.min(MAX_WIDTH);
    Rect::new(full.x + (full.width - w) / 2, full.y, w, full.height)
}

/// Where the help's text goes in its box: inside the border, a column from it on
/// each side.
pub fn text_area(full: Rect) -> Rect {
    let a = area(full);
    Rect::new(
        a.x + 2,
        a.y + 1,
        a.width.saturating_sub(4),
        a.height.saturating_sub(2),
    )
}

/// The help for `variant` on a screen of `full`, wrapped to its box.
pub fn wrapped(full: Rect, variant: Variant) -> Vec<Line<'static>> {
    lines(variant, usize::from(text_area(full).width))
}

/// How many lines the help for `variant` can scroll on a screen of `full` (0 when it
/// fits).
pub fn max_scroll(full: Rect, variant: Variant) -> u16 {
    scroll_room(&wrapped(full, variant), full)
}

/// How many lines `help` (the help's [`wrapped`] text) can scroll on a screen of `full`: its
/// lines less the box's inside height.
pub fn scroll_room(help: &[Line], full: Rect) -> u16 {
    u16::try_from(help.len())
        .unwrap_or(u16::MAX)
        .saturating_sub(text_area(full).height)
}

/// The help box's title for a box `width` columns wide, when the text is scrolled
/// (`up`: there is more above; `down`: more below): the longest that fits.
pub fn title(width: u16, up: bool, down: bool) -> &'static str {
    let tries: &[&str] = match (up, down) {
        (false, false) => &[" Help · any key closes ", " Help "],
        (false, true) => &[
            " Help · ↓ PgDn more · any other key closes ",
            " Help · ↓ more · other keys close ",
            " Help ↓ ",
        ],
        (true, true) => &[
            " Help · ↑↓ PgUp PgDn scroll · any other key closes ",
            " Help · ↑↓ scroll · other keys close ",
            " Help ↑↓ ",
        ],
        (true, false) => &[
            " Help · ↑ PgUp back · any other key closes ",
            " Help · ↑ back · other keys close ",
            " Help ↑ ",
        ],
    };
    // The border's corners and a column of it on each side stay.
    let room = usize::from(width).saturating_sub(4);
    tries
        .iter()
        .copied()
        .find(|t| fit::width(t) <= room)
        .unwrap_or("")
}

/// A key (or a player) in its column and what it does, wrapped under that.
fn pair(k: &str, what: &str, key_w: usize, width: usize) -> Vec<Line<'static>> {
    let k = fit::shorten(k, key_w.saturating_sub(1));
    let spans = [key(&format!("{k:<key_w$}")), text(what)];
    fit::wrap(&spans, width, key_w)
}
