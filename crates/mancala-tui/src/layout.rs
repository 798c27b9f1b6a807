//! Where things go on screen: rectangles computed from the terminal's size and the
//! board's shape. No drawing and no app state, so both the drawing code and the mouse
//! handling use it, and a click lands on the house drawn under it.
//!
//! The board, for player 2 (North) on top and player 1 (South) below; sowing runs
//! anticlockwise, so player 1's row reads left to right towards player 1's store on the
//! right, and player 2's row right to left towards player 2's store on the left:
//!
//! ```text
//!            l6      k5      j4      i3      h2      g1
//!  ╭─Bob─╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─Ann─╮
//!  │     │ │  4  │ │  4  │ │  4  │ │  4  │ │  4  │ │  4  │ │     │
//!  │     │ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ │     │
//!  │  0  │                                                 │  0  │
//!  │     │ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ │     │
//!  │     │ │  4  │ │  4  │ │  4  │ │  4  │ │  4  │ │  4  │ │     │
//!  ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯
//!            a1      b2      c3      d4      e5      f6
//! ```

use mancala_core::{Rules, Side};
use ratatui::layout::{Position, Rect};
use unicode_width::UnicodeWidthStr;

/// Rows of the board inside its frame: names, labels, two rows of houses, the middle.
const BOARD_ROWS: u16 = 11;
/// Moves the move list shows at once, beside the board or over it (the height of the
/// board's frame inside its border).
pub const LIST_ROWS: u16 = BOARD_ROWS;
/// Width of the move list beside the board, with names.
pub const HISTORY_W: u16 = 27;
/// Width of the compact move list (numbers and houses), for narrower terminals.
pub const HISTORY_COMPACT_W: u16 = 18;
/// Rows of messages at least: the latest, and the one before it (so that a capture
/// stays in view when the computer moves next). On a terminal of exactly
/// [`GAME_ROWS`], the blank row under the board makes one more.
pub const LOG_ROWS: u16 = 2;
/// The lines under the board may be wider than the board, up to this many columns of
/// the terminal, so that a prompt or a message takes fewer rows.
const TEXT_W: u16 = 100;
/// Rows of messages at most, on a tall terminal.
const LOG_ROWS_MAX: u16 = 4;
/// Rows the game screen needs: title, gap, board frame, gap, status, messages, keys.
pub const GAME_ROWS: u16 = 1 + 1 + (BOARD_ROWS + 2) + 1 + 1 + LOG_ROWS + 1;
/// The size the start screen needs.
/// The size the start screen needs: no more than the game on six houses.
pub const SETUP_SIZE: (u16, u16) = (50, 20);

/// What the layout needs to know of a board: its houses per side, and the word its
/// stores show (the variant's [`bank`](mancala_core::variants::VariantInfo::bank):
/// `store`, or `captured`), which a store is made wide enough for where there is room.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_tui::BoardShape;
/// assert_eq!(BoardShape::of(Rules::togyz_kumalak(9, 9)), BoardShape { houses: 9, bank: "captured" });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardShape {
    /// Houses per side.
    pub houses: usize,
    /// The word the stores show.
    pub bank: &'static str,
}

impl BoardShape {
    /// The shape of a board of `rules`.
    #[must_use]
    pub fn of(rules: Rules) -> BoardShape {
        BoardShape {
            houses: rules.houses(),
            bank: rules.variant().info().bank,
        }
    }
}

/// Where each house and store is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// The area inside the board's frame.
    pub area: Rect,
    /// Houses per side.
    pub houses: u16,
    /// Width inside a house's border.
    pub inner: u16,
    /// Columns between two houses (0 on the widest boards).
    pub gap: u16,
    /// Width inside a store's border.
    pub store_inner: u16,
    /// Columns between a store and the houses beside it (0 on the narrowest boards).
    pub store_gap: u16,
}

/// How roomy a board is drawn: the widths of its houses and stores and the columns
/// between them, and the move list beside it (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Arrangement {
    inner: u16,
    gap: u16,
    store_inner: u16,
    store_gap: u16,
    list: u16,
}

impl Arrangement {
    /// The arrangements for `shape`, roomiest first: wide houses, a move list (with
    /// names if possible: a list without names beats wide houses), gaps; each first
    /// with stores wide enough for their word (a word cut short reads as a fault),
    /// then without it. Last, houses two columns wide for boards too wide for the
    /// smallest terminal otherwise (nine houses a side at 50 columns).
    fn all(shape: BoardShape) -> Vec<Arrangement> {
        let word = u16::try_from(shape.bank.width()).unwrap_or(u16::MAX);
        let plain = [
            (5, 1, HISTORY_W),
            (5, 1, HISTORY_COMPACT_W),
            (3, 1, HISTORY_W),
            (3, 1, HISTORY_COMPACT_W),
            (5, 1, 0),
            (3, 1, 0),
            (3, 0, 0),
        ];
        let with_store = |store_inner: fn(u16, u16) -> u16| {
            plain.map(|(inner, gap, list)| Arrangement {
                inner,
                gap,
                store_inner: store_inner(inner, word),
                store_gap: 1,
                list,
            })
        };
        let mut all = with_store(|inner, word| (inner + 2).max(word)).to_vec();
        all.extend(with_store(|inner, _| inner + 2));
        let narrowest = all.last().copied().expect("arrangements");
        if narrowest.frame_w(shape.houses) > SETUP_SIZE.0 {
            all.push(Arrangement {
                inner: 2,
                gap: 0,
                store_inner: 3,
                store_gap: 0,
                list: 0,
            });
        }
        all
    }

    /// Width of the board's content for `houses` houses.
    fn board_w(&self, houses: usize) -> u16 {
        let houses = houses as u16;
        2 * (self.store_inner + 2)
            + 2 * self.store_gap
            + houses * (self.inner + 2)
            + houses.saturating_sub(1) * self.gap
    }

    /// Width of the board's frame: a border and a blank column each side.
    fn frame_w(&self, houses: usize) -> u16 {
        self.board_w(houses) + 4
    }

    /// Width of the frame and the move list beside it.
    fn total_w(&self, houses: usize) -> u16 {
        self.frame_w(houses) + if self.list > 0 { self.list + 1 } else { 0 }
    }
}

impl BoardGeometry {
    fn cell_w(&self) -> u16 {
        self.inner + 2
    }

    fn store_w(&self) -> u16 {
        self.store_inner + 2
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement {
            inner: self.inner,
            gap: self.gap,
            store_inner: self.store_inner,
            store_gap: self.store_gap,
            list: 0,
        }
    }

    fn left(&self) -> u16 {
        let w = self.arrangement().board_w(usize::from(self.houses));
        self.area.x + (self.area.width - w) / 2
    }

    /// Column of the `i`-th house from the left (0-based); `houses` gives the column
    /// of the store on the right.
    fn column(&self, i: u16) -> u16 {
        let x = self.left() + self.store_w() + self.store_gap + i * (self.cell_w() + self.gap);
        // The gap after the last house is the store's, not the houses'.
        if i == self.houses {
            x - self.gap + self.store_gap
        } else {
            x
        }
    }

    /// The rectangle of `side`'s house `house`.
    #[must_use]
    pub fn house_rect(&self, side: Side, house: u8) -> Rect {
        let h = u16::from(house);
        let (i, y) = match side {
            Side::South => (h - 1, self.area.y + 6),
            Side::North => (self.houses - h, self.area.y + 2),
        };
        Rect::new(self.column(i), y, self.cell_w(), 3)
    }

    /// The row of `side`'s house `house`'s label: above player 2's houses, below
    /// player 1's, as wide as the house.
    #[must_use]
    pub fn label_rect(&self, side: Side, house: u8) -> Rect {
        let r = self.house_rect(side, house);
        let y = match side {
            Side::North => r.y - 1,
            Side::South => r.bottom(),
        };
        Rect::new(r.x, y, r.width, 1)
    }

    /// The rectangle of `side`'s store.
    #[must_use]
    pub fn store_rect(&self, side: Side) -> Rect {
        let x = match side {
            Side::North => self.left(),
            Side::South => self.column(self.houses),
        };
        Rect::new(x, self.area.y + 2, self.store_w(), 7)
    }

    /// The line with `side`'s name: the top row for player 2, the bottom for player 1.
    #[must_use]
    pub fn name_rect(&self, side: Side) -> Rect {
        let y = match side {
            Side::North => self.area.y,
            Side::South => self.area.bottom() - 1,
        };
        Rect::new(self.area.x, y, self.area.width, 1)
    }

    /// The line between the two rows of houses (the seeds in hand during a sowing).
    #[must_use]
    pub fn middle_rect(&self) -> Rect {
        let x = self.column(0);
        Rect::new(x, self.area.y + 5, self.column(self.houses) - 1 - x, 1)
    }

    /// The house at a screen cell, if any; a house's label counts as part of it.
    #[must_use]
    pub fn house_at(&self, x: u16, y: u16) -> Option<(Side, u8)> {
        Side::BOTH.into_iter().find_map(|side| {
            (1..=self.houses as u8).find_map(|house| {
                let hit = self
                    .house_rect(side, house)
                    .union(self.label_rect(side, house));
                hit.contains(Position { x, y }).then_some((side, house))
            })
        })
    }
}

/// Where everything on the game screen goes, for a terminal area.
///
/// ```
/// use mancala_core::{Rules, Side};
/// use mancala_tui::{BoardShape, GameLayout};
/// use ratatui::layout::Rect;
/// let kalah = BoardShape::of(Rules::kalah(6, 4));
/// let layout = GameLayout::new(Rect::new(0, 0, 100, 35), kalah).unwrap();
/// let r = layout.board.house_rect(Side::South, 2);
/// assert_eq!(layout.board.house_at(r.x + 1, r.y + 1), Some((Side::South, 2)));
/// assert!(layout.history.is_some());
/// assert!(GameLayout::new(Rect::new(0, 0, 40, 12), kalah).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLayout {
    /// The title line.
    pub title: Rect,
    /// The board's frame.
    pub frame: Rect,
    /// The houses and stores.
    pub board: BoardGeometry,
    /// The move list, when there is room: [`HISTORY_W`] wide with names, or
    /// [`HISTORY_COMPACT_W`] without.
    pub history: Option<Rect>,
    /// Whose turn, what is happening (as wide as the board, or wider, up to
    /// `TEXT_W` columns of the terminal, as are the messages and the keys).
    pub status: Rect,
    /// The messages, the latest at the bottom: [`LOG_ROWS`] rows or more.
    pub messages: Rect,
    /// The keys.
    pub keys: Rect,
}

impl GameLayout {
    /// The layout for a board of `shape` in `area`, or `None` when it does not fit.
    #[must_use]
    pub fn new(area: Rect, shape: BoardShape) -> Option<GameLayout> {
        if area.height < GAME_ROWS {
            return None;
        }
        // The roomiest arrangement that fits.
        let a = Arrangement::all(shape)
            .into_iter()
            .find(|a| a.total_w(shape.houses) <= area.width)?;
        let list = a.list;
        let total_w = a.total_w(shape.houses);
        // The blank row under the board, when there are rows to spare; without them,
        // that row is one more for the messages.
        let spare = area.height - GAME_ROWS;
        let under = u16::from(spare >= 2);
        let log_rows = (LOG_ROWS + (1 - under) + spare / 2).min(LOG_ROWS_MAX);
        let rows = GAME_ROWS - (1 - under) + log_rows - LOG_ROWS;
        let x = area.x + (area.width - total_w) / 2;
        let y = area.y + (area.height - rows) / 2;
        let frame = Rect::new(x, y + 2, a.frame_w(shape.houses), BOARD_ROWS + 2);
        let board_area = Rect::new(frame.x + 2, frame.y + 1, frame.width - 4, BOARD_ROWS);
        let line = |dy: u16| Rect::new(x, y + dy, total_w, 1);
        let text_w = total_w.max(area.width.min(TEXT_W));
        let text_x = area.x + (area.width - text_w) / 2;
        let text_line = |dy: u16, h: u16| Rect::new(text_x, y + dy, text_w, h);
        let below = 2 + BOARD_ROWS + 2 + under;
        Some(GameLayout {
            title: line(0),
            frame,
            board: BoardGeometry {
                area: board_area,
                houses: shape.houses as u16,
                inner: a.inner,
                gap: a.gap,
                store_inner: a.store_inner,
                store_gap: a.store_gap,
            },
            history: (list > 0).then(|| Rect::new(frame.right() + 1, frame.y, list, frame.height)),
            status: text_line(below, 1),
            messages: text_line(below + 1, log_rows),
            keys: text_line(rows - 1, 1),
        })
    }

    /// The smallest terminal the game screen fits for a board of `shape`.
    #[must_use]
    pub fn min_size(shape: BoardShape) -> (u16, u16) {
        let narrowest = Arrangement::all(shape)
            .iter()
            .map(|a| a.total_w(shape.houses))
            .min()
            .unwrap_or(u16::MAX);
        (narrowest, GAME_ROWS)
    }
}

/// Where the start screen goes: its box, the settings inside it and the keys line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupLayout {
    /// The bordered box, [`SETUP_SIZE`] centred in the terminal.
    pub frame: Rect,
    /// The settings, one line each, and the notes under them.
    pub fields: Rect,
    /// The keys line at the bottom of the box.
    pub keys: Rect,
}

impl SetupLayout {
    /// The layout in `area`, or `None` when [`SETUP_SIZE`] does not fit.
    #[must_use]
    pub fn new(area: Rect) -> Option<SetupLayout> {
        let (w, h) = SETUP_SIZE;
        if area.width < w || area.height < h {
            return None;
        }
        let frame = Rect::new(
            area.x + (area.width - w) / 2,
            area.y + (area.height - h) / 2,
            w,
            h,
        );
        let inner = Rect::new(frame.x + 1, frame.y + 1, w - 2, h - 2);
        Some(SetupLayout {
            frame,
            fields: Rect::new(inner.x, inner.y, inner.width, inner.height - 2),
            keys: Rect::new(inner.x, inner.bottom() - 1, inner.width, 1),
        })
    }
}

impl SetupLayout {
    /// Which of `lines` lines of the start screen (the settings, then the start
    /// button after a blank line) is drawn on row `y`, for clicks.
    #[must_use]
    pub fn line_at(&self, y: u16, lines: usize) -> Option<usize> {
        let first = self.fields.y + 1;
        let i = usize::from(y.checked_sub(first)?);
        let last = lines.checked_sub(1)?;
        match i {
            i if i < last => Some(i),
            i if i == last + 1 => Some(last),
            _ => None,
        }
    }
}

/// A box of at least `width` x `height` over the board's frame `board`, exactly
/// centred on it, for pop-ups. Its border never lies on the frame's: the box fits
/// inside the frame with room to spare, or, where it cannot, reaches past the frame
/// (within `screen`) in that direction.
#[must_use]
pub fn popup_rect(board: Rect, screen: Rect, width: u16, height: u16) -> Rect {
    let (x, w) = centred_span(board.x, board.width, screen.x, screen.width, width, true);
    let (y, h) = centred_span(
        board.y,
        board.height,
        screen.y,
        screen.height,
        height,
        false,
    );
    Rect::new(x, y, w, h)
}

/// A box of at least `width` x `height` exactly centred on `screen`, for a pop-up too
/// big to go inside the board's frame `board`; made a column (or row) bigger on each
/// side where one of its edges would lie on the frame's.
#[must_use]
pub fn screen_popup_rect(board: Rect, screen: Rect, width: u16, height: u16) -> Rect {
    let span = |lo: u16, room: u16, len: u16, edges: (u16, u16)| {
        let mut len = len.min(room);
        len += (room - len) % 2;
        let mut at = lo + (room - len) / 2;
        if (at == edges.0 || at + len == edges.1) && at > lo && len + 2 <= room {
            at -= 1;
            len += 2;
        }
        (at, len)
    };
    let (x, w) = span(screen.x, screen.width, width, (board.x, board.right()));
    let (y, h) = span(screen.y, screen.height, height, (board.y, board.bottom()));
    Rect::new(x, y, w, h)
}

/// Where a box `len` long goes over the frame's `start..start + frame`, within the
/// screen's `lo..lo + room`: inside the frame's border when it fits there, else at
/// least two longer than the frame. When `exact`, its length takes the frame's parity,
/// so that it is exactly centred (across; down, a row more would be a blank row).
fn centred_span(start: u16, frame: u16, lo: u16, room: u16, len: u16, exact: bool) -> (u16, u16) {
    let inside = frame.saturating_sub(2);
    let mut len = if len <= inside {
        len
    } else {
        len.max(frame + 2)
    };
    if exact && (frame + len) % 2 == 1 {
        len += 1;
    }
    let len = len.min(room);
    // Centred on the frame, moved back onto the screen where it would leave it.
    let centre = i32::from(start) * 2 + i32::from(frame);
    let at = ((centre - i32::from(len)) / 2).clamp(
        i32::from(lo),
        i32::from(lo) + i32::from(room) - i32::from(len),
    );
    (u16::try_from(at).unwrap_or(lo), len)
}

/// `lines` rows centred vertically in `area`, full width, down to the bottom of `area`
/// (so that text wrapped onto more lines is still shown).
#[must_use]
pub fn centred_text_rect(area: Rect, lines: u16) -> Rect {
    let h = lines.min(area.height);
    let y = area.y + area.height.saturating_sub(h) / 2;
    Rect::new(area.x, y, area.width, area.height - (y - area.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(w: u16, h: u16, houses: usize) -> Option<GameLayout> {
        let shape = BoardShape {
            houses,
            bank: "store",
        };
        GameLayout::new(Rect::new(0, 0, w, h), shape)
    }

    /// Every board (both words of the stores), roomy and at its narrowest.
    fn every_board() -> Vec<(usize, BoardGeometry)> {
        let mut boards = Vec::new();
        for houses in 1..=16 {
            for bank in ["store", "captured"] {
                let shape = BoardShape { houses, bank };
                let (min_w, min_h) = GameLayout::min_size(shape);
                for (w, h) in [(100, 35), (min_w, min_h)] {
                    let l = GameLayout::new(Rect::new(0, 0, w, h), shape).unwrap();
                    boards.push((houses, l.board));
                }
            }
        }
        boards
    }

    #[test]
    fn every_house_is_found_where_it_is_drawn_and_nowhere_else() {
        for (houses, b) in every_board() {
            for side in Side::BOTH {
                for house in 1..=houses as u8 {
                    let r = b.house_rect(side, house);
                    for (x, y) in [(r.x, r.y), (r.right() - 1, r.bottom() - 1)] {
                        assert_eq!(b.house_at(x, y), Some((side, house)), "{houses} houses");
                    }
                    let label = b.label_rect(side, house);
                    assert_eq!(b.house_at(label.x, label.y), Some((side, house)));
                }
                let store = b.store_rect(side);
                assert_eq!(b.house_at(store.x + 1, store.y + 3), None);
            }
            assert_eq!(b.house_at(b.middle_rect().x, b.middle_rect().y), None);
        }
    }

    #[test]
    fn houses_and_stores_stay_inside_the_frame_and_apart() {
        for (houses, b) in every_board() {
            let mut rects: Vec<Rect> = Side::BOTH.map(|s| b.store_rect(s)).to_vec();
            for side in Side::BOTH {
                rects.extend((1..=houses as u8).map(|h| b.house_rect(side, h)));
            }
            for (i, r) in rects.iter().enumerate() {
                assert_eq!(b.area.intersection(*r), *r, "{houses} houses: {r:?}");
                for other in &rects[i + 1..] {
                    assert!(!r.intersects(*other), "{houses} houses: {r:?} {other:?}");
                }
            }
        }
    }

    #[test]
    fn the_roomiest_arrangement_that_fits_is_chosen() {
        let wide = layout(100, 35, 6).unwrap();
        assert_eq!((wide.board.inner, wide.board.gap), (5, 1));
        assert!(wide.history.is_some());
        let narrow = layout(72, 22, 6).unwrap();
        assert!(narrow.history.is_none());
        let eighty = layout(80, 24, 6).unwrap();
        assert_eq!(eighty.history.unwrap().width, HISTORY_COMPACT_W);
        let sixteen = layout(100, 35, 16).unwrap();
        assert_eq!((sixteen.board.inner, sixteen.board.gap), (3, 0));
        // Narrower, the sixteen houses are two columns wide inside.
        let (w, _) = GameLayout::min_size(BoardShape {
            houses: 16,
            bank: "store",
        });
        assert_eq!(w, 78);
        assert_eq!(layout(w, 35, 16).unwrap().board.inner, 2);
        assert!(layout(w - 1, 35, 16).is_none());
        assert!(layout(100, GAME_ROWS - 1, 6).is_none());
        // Six houses never go below three columns: 50 is their least width, as before.
        assert_eq!(
            GameLayout::min_size(BoardShape::of(Rules::kalah(6, 4))).0,
            50
        );
    }

    #[test]
    fn stores_are_made_wide_enough_for_their_word_where_there_is_room() {
        let togyz = BoardShape::of(Rules::togyz_kumalak(9, 9));
        let at = |w, h| GameLayout::new(Rect::new(0, 0, w, h), togyz).unwrap().board;
        // 80x24: three-column houses, stores eight wide inside for "captured".
        let b = at(80, 24);
        assert_eq!((b.inner, b.gap, b.store_inner), (3, 1, 8));
        // 50x20: two-column houses touching their stores; the word does not fit.
        let b = at(50, 20);
        assert_eq!((b.inner, b.gap, b.store_inner, b.store_gap), (2, 0, 3, 0));
        assert_eq!(GameLayout::min_size(togyz), (50, GAME_ROWS));
        // Oware's six houses: the word whole, with the compact move list at 80x24.
        let oware = BoardShape::of(Rules::oware(6, 4));
        let l = GameLayout::new(Rect::new(0, 0, 80, 24), oware).unwrap();
        assert_eq!(l.board.store_inner, 8);
        assert_eq!(l.history.unwrap().width, HISTORY_COMPACT_W);
    }

    #[test]
    fn the_game_screen_is_centred_and_its_lines_do_not_overlap() {
        let l = layout(100, 35, 6).unwrap();
        let history = l.history.unwrap();
        let total = l.frame.width + 1 + history.width;
        assert_eq!(l.title.x, (100 - total) / 2);
        assert_eq!(history.right(), l.title.right());
        let ys = [
            l.title.y,
            l.frame.y,
            l.frame.bottom(),
            l.status.y,
            l.messages.y,
            l.messages.bottom(),
            l.keys.y,
        ];
        assert!(ys.windows(2).all(|w| w[0] <= w[1]), "{ys:?}");
        assert_eq!(l.keys.y, l.messages.bottom());
        assert!(
            l.messages.height > LOG_ROWS,
            "a tall terminal shows more messages"
        );
        let small = layout(60, GAME_ROWS, 6).unwrap();
        assert_eq!(
            small.status.y,
            small.frame.bottom(),
            "no blank row to spare"
        );
        assert_eq!(small.messages.height, LOG_ROWS + 1);
        assert_eq!(small.keys.y - small.title.y + 1, GAME_ROWS);
    }

    #[test]
    fn popups_are_centred_and_never_on_the_frame() {
        let screen = Rect::new(0, 0, 100, 35);
        let board = Rect::new(10, 5, 40, 13);
        // Inside the frame, exactly centred (one wider to be so).
        assert_eq!(popup_rect(board, screen, 20, 5), Rect::new(20, 9, 20, 5));
        assert_eq!(popup_rect(board, screen, 19, 4), Rect::new(20, 9, 20, 4));
        assert_eq!(popup_rect(board, screen, 38, 11), Rect::new(11, 6, 38, 11));
        // Too big for the inside: past the frame on both sides, not on it.
        assert_eq!(popup_rect(board, screen, 39, 12), Rect::new(9, 4, 42, 15));
        assert_eq!(popup_rect(board, screen, 60, 30), Rect::new(0, 0, 60, 30));
        // Too wide for the frame: centred on the screen, its edges off the frame's.
        let r = screen_popup_rect(board, screen, 44, 12);
        assert_eq!(r, Rect::new(28, 11, 44, 13));
        let r = screen_popup_rect(Rect::new(0, 3, 31, 13), Rect::new(0, 0, 50, 20), 46, 13);
        assert_eq!(r, Rect::new(2, 2, 46, 16), "a row more above and below");
        // Never off the screen.
        let small = Rect::new(0, 0, 50, 20);
        let r = popup_rect(Rect::new(0, 3, 50, 13), small, 60, 30);
        assert_eq!(small.intersection(r), r);
        assert_eq!(
            centred_text_rect(Rect::new(0, 0, 30, 10), 4),
            Rect::new(0, 3, 30, 7)
        );
        assert_eq!(
            centred_text_rect(Rect::new(0, 0, 30, 2), 4),
            Rect::new(0, 0, 30, 2)
        );
    }

    #[test]
    fn setup_layout_centres_the_box_and_finds_lines() {
        use ratatui::layout::Rect;
        let l = SetupLayout::new(Rect::new(0, 0, 100, 30)).unwrap();
        assert_eq!(
            (l.frame.x, l.frame.y, l.frame.width, l.frame.height),
            (25, 5, 50, 20)
        );
        assert_eq!(l.keys.y, l.frame.bottom() - 2);
        assert!(SetupLayout::new(Rect::new(0, 0, 49, 30)).is_none());
        // Lines of five settings and the start button (after a blank line).
        assert_eq!(l.line_at(l.fields.y + 1, 6), Some(0));
        assert_eq!(l.line_at(l.fields.y + 5, 6), Some(4));
        assert_eq!(l.line_at(l.fields.y + 6, 6), None);
        assert_eq!(l.line_at(l.fields.y + 7, 6), Some(5));
    }
}
