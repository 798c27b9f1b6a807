//! Drawing: a pure function of the [`App`] state onto a ratatui frame.
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

use mancala_core::{Pit, Side, Variant};
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};

use crate::app::{App, BoardView, GameState, MessageKind, SPEEDS_MS, Screen, house_label};
use crate::setup::{FALLBACK_PLAYER, Field, SetupForm};

/// Player 1's colour.
pub const P1: Color = Color::Cyan;
/// Player 2's colour.
pub const P2: Color = Color::LightMagenta;
const DIM: Color = Color::DarkGray;
const ACCENT: Color = Color::Yellow;

fn side_colour(side: Side) -> Color {
    match side {
        Side::South => P1,
        Side::North => P2,
    }
}

/// Rows of the board inside its frame: names, labels, two rows of houses, the middle.
const BOARD_ROWS: u16 = 11;
/// Width of the move history panel.
const HISTORY_W: u16 = 27;
/// Rows the game screen needs: title, gap, board frame, gap, status, message, gap, keys.
pub const GAME_ROWS: u16 = 1 + 1 + (BOARD_ROWS + 2) + 1 + 1 + 1 + 1 + 1;
/// The size the start screen needs.
pub const SETUP_SIZE: (u16, u16) = (62, 22);

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
}

impl BoardGeometry {
    fn cell_w(&self) -> u16 {
        self.inner + 2
    }

    fn store_w(&self) -> u16 {
        self.inner + 4
    }

    /// Width of the board's content for `houses` houses with `inner`-wide cells `gap`
    /// columns apart.
    fn width(houses: u16, inner: u16, gap: u16) -> u16 {
        2 * (inner + 4) + 2 + houses * (inner + 2) + houses.saturating_sub(1) * gap
    }

    fn left(&self) -> u16 {
        self.area.x + (self.area.width - Self::width(self.houses, self.inner, self.gap)) / 2
    }

    /// Column of the `i`-th house from the left (0-based); `houses` gives the column
    /// of the store on the right.
    fn column(&self, i: u16) -> u16 {
        let x = self.left() + self.store_w() + 1 + i * (self.cell_w() + self.gap);
        if i == self.houses && self.gap == 0 {
            x + 1
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

    /// The rectangle of `side`'s store.
    #[must_use]
    pub fn store_rect(&self, side: Side) -> Rect {
        let x = match side {
            Side::North => self.left(),
            Side::South => self.column(self.houses),
        };
        Rect::new(x, self.area.y + 2, self.store_w(), 7)
    }

    /// The house at a screen cell, if any.
    #[must_use]
    pub fn house_at(&self, x: u16, y: u16) -> Option<(Side, u8)> {
        for side in Side::BOTH {
            for house in 1..=self.houses as u8 {
                let r = self.house_rect(side, house);
                // The label row above or below counts as part of the house.
                let r = match side {
                    Side::North => Rect::new(r.x, r.y - 1, r.width, r.height + 1),
                    Side::South => Rect::new(r.x, r.y, r.width, r.height + 1),
                };
                if r.contains(ratatui::layout::Position { x, y }) {
                    return Some((side, house));
                }
            }
        }
        None
    }
}

/// Where everything on the game screen goes, for a terminal area. Drawing and mouse
/// clicks use the same layout, so a click lands on the house drawn under it.
///
/// ```
/// use mancala_core::Side;
/// use mancala_tui::GameLayout;
/// use ratatui::layout::Rect;
/// let layout = GameLayout::new(Rect::new(0, 0, 100, 35), 6).unwrap();
/// let r = layout.board.house_rect(Side::South, 2);
/// assert_eq!(layout.board.house_at(r.x + 1, r.y + 1), Some((Side::South, 2)));
/// assert!(layout.history.is_some());
/// assert!(GameLayout::new(Rect::new(0, 0, 40, 12), 6).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLayout {
    /// The title line.
    pub title: Rect,
    /// The board's frame.
    pub frame: Rect,
    /// The houses and stores.
    pub board: BoardGeometry,
    /// The move list, when there is room.
    pub history: Option<Rect>,
    /// Whose turn, what is happening.
    pub status: Rect,
    /// The message line.
    pub message: Rect,
    /// The keys.
    pub keys: Rect,
}

impl GameLayout {
    /// The layout for `houses` per side in `area`, or `None` when it does not fit.
    #[must_use]
    pub fn new(area: Rect, houses: usize) -> Option<GameLayout> {
        let houses = houses as u16;
        if area.height < GAME_ROWS {
            return None;
        }
        let frame_w = |inner, gap| BoardGeometry::width(houses, inner, gap) + 4;
        // The roomiest arrangement that fits: wide houses, the move list, gaps.
        let (inner, gap, history) = [
            (5, 1, true),
            (5, 1, false),
            (3, 1, true),
            (3, 1, false),
            (3, 0, false),
        ]
        .into_iter()
        .find(|&(inner, gap, history)| {
            frame_w(inner, gap) + if history { HISTORY_W + 1 } else { 0 } <= area.width
        })?;
        let total_w = frame_w(inner, gap) + if history { HISTORY_W + 1 } else { 0 };
        let x = area.x + (area.width - total_w) / 2;
        let y = area.y + (area.height - GAME_ROWS) / 2;
        let frame = Rect::new(x, y + 2, frame_w(inner, gap), BOARD_ROWS + 2);
        let board_area = Rect::new(frame.x + 2, frame.y + 1, frame.width - 4, BOARD_ROWS);
        let line = |dy: u16| Rect::new(x, y + dy, total_w, 1);
        Some(GameLayout {
            title: line(0),
            frame,
            board: BoardGeometry {
                area: board_area,
                houses,
                inner,
                gap,
            },
            history: history
                .then(|| Rect::new(frame.right() + 1, frame.y, HISTORY_W, frame.height)),
            status: line(2 + BOARD_ROWS + 2 + 1),
            message: line(2 + BOARD_ROWS + 2 + 2),
            keys: line(GAME_ROWS - 1),
        })
    }
}

/// Draws the app: the start screen or the game, or a note that the terminal is too small.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    match &app.screen {
        Screen::Setup(form) => {
            if area.width < SETUP_SIZE.0 || area.height < SETUP_SIZE.1 {
                too_small(frame, area, SETUP_SIZE);
            } else {
                draw_setup(frame, area, form);
            }
        }
        Screen::Game(g) => {
            let houses = g.session.rules().houses();
            match GameLayout::new(area, houses) {
                Some(layout) => draw_game(frame, app, g, &layout),
                None => {
                    let need = (BoardGeometry::width(houses as u16, 3, 0) + 4, GAME_ROWS);
                    too_small(frame, area, need);
                }
            }
        }
    }
}

fn too_small(frame: &mut Frame, area: Rect, need: (u16, u16)) {
    let text = vec![
        Line::from("The terminal is too small for mancala.".bold()),
        Line::from(""),
        Line::from(format!(
            "It is {}x{}; this screen needs at least {}x{}.",
            area.width, area.height, need.0, need.1
        )),
        Line::from("Enlarge the window, or press q to quit."),
    ];
    let h = (text.len() as u16).min(area.height);
    let y = area.y + area.height.saturating_sub(h) / 2;
    frame.render_widget(
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(ratatui::widgets::Wrap { trim: true })
            .style(Style::new().fg(ACCENT)),
        Rect::new(area.x, y, area.width, area.height - (y - area.y)),
    );
}

fn key(k: &str) -> Span<'static> {
    Span::styled(k.to_owned(), Style::new().fg(ACCENT).bold())
}

fn text(t: &str) -> Span<'static> {
    Span::styled(t.to_owned(), Style::new().fg(Color::Gray))
}

fn draw_setup(frame: &mut Frame, area: Rect, form: &SetupForm) {
    let (w, h) = SETUP_SIZE;
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(P1))
        .title(Line::from(" Mancala · new game ".bold()).centered());
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let s = form.setup();
    let mut lines = vec![Line::from("")];
    for field in form.fields() {
        let focused = field == form.focus;
        let (label, value, editable_text) = match field {
            Field::Variant => (
                "Game",
                match s.variant {
                    Variant::Kalah => "Kalah".to_owned(),
                    Variant::Oware => "Oware (Abapa)".to_owned(),
                    Variant::OwareSimplified => "simplified Oware".to_owned(),
                },
                false,
            ),
            Field::Houses => ("Houses per side", s.houses.to_string(), false),
            Field::Seeds => ("Seeds per house", s.seeds.to_string(), false),
            Field::EmptyCapture => (
                "Empty capture",
                if s.empty_capture { "on" } else { "off" }.to_owned(),
                false,
            ),
            Field::EndRule => (
                "Game ends when",
                match s.end_rule {
                    mancala_core::EndRule::MoverCannotMove => "the mover cannot move",
                    mancala_core::EndRule::EitherSideEmpty => "either side is empty",
                }
                .to_owned(),
                false,
            ),
            Field::Player(i) => (
                if i == 0 {
                    "Player 1 (moves first)"
                } else {
                    "Player 2"
                },
                s.players[i].clone(),
                false,
            ),
            Field::Name(i) => ("  name", s.names[i].clone(), true),
            Field::Start => ("", String::new(), false),
        };
        if field == Field::Start {
            lines.push(Line::from(""));
            let style = if focused {
                Style::new().fg(Color::Black).bg(ACCENT).bold()
            } else {
                Style::new().fg(ACCENT).bold()
            };
            lines.push(Line::from(Span::styled("  Start the game  ", style)).centered());
            continue;
        }
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
            Span::styled(format!("{label:<24}"), label_style),
        ];
        if editable_text {
            spans.push(Span::styled(value, value_style.fg(colour)));
            if focused {
                spans.push(Span::styled("▏", Style::new().fg(ACCENT)));
            }
        } else {
            let arrow = |a: &'static str| {
                Span::styled(a, Style::new().fg(if focused { ACCENT } else { DIM }))
            };
            spans.push(arrow("◂ "));
            spans.push(Span::styled(
                value,
                value_style.fg(if colour == Color::White {
                    Color::White
                } else {
                    colour
                }),
            ));
            spans.push(arrow(" ▸"));
        }
        lines.push(Line::from(spans));
    }
    // Problems with a chosen computer player, said before the game starts. They were
    // found when the setting changed: finding out builds the player.
    lines.push(Line::from(""));
    for (i, note) in form.notes().iter().enumerate() {
        if let Some(why) = note {
            lines.push(Line::from(Span::styled(
                format!(
                    " ! player {}: {why}; {FALLBACK_PLAYER} plays instead.",
                    i + 1
                ),
                Style::new().fg(Color::LightRed),
            )));
        }
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }),
        Rect::new(inner.x, inner.y, inner.width, inner.height - 2),
    );
    let help = Line::from(vec![
        key("↑↓"),
        text(" choose  "),
        key("←→"),
        text(" change  "),
        text("type a name  "),
        key("Enter"),
        text(" start  "),
        key("Esc"),
        text(" quit"),
    ])
    .centered();
    frame.render_widget(
        Paragraph::new(help),
        Rect::new(inner.x, inner.bottom() - 1, inner.width, 1),
    );
}

fn draw_game(frame: &mut Frame, app: &App, g: &GameState, layout: &GameLayout) {
    let rules = g.session.rules();
    // Title.
    let mut title = format!(
        " {} · {} houses × {} seeds ",
        match rules.variant() {
            Variant::Kalah => "Kalah",
            Variant::Oware => "Oware",
            Variant::OwareSimplified => "Simplified Oware",
        },
        rules.houses(),
        rules.seeds()
    );
    if rules.variant() == Variant::Kalah {
        let o = rules.options();
        if o.empty_capture {
            title.push_str("· empty capture ");
        }
        if o.end_rule != mancala_core::EndRule::default() {
            title.push_str("· ends when either side is empty ");
        }
    }
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(" MANCALA ", Style::new().fg(Color::Black).bg(ACCENT).bold()),
            Span::styled(title, Style::new().fg(Color::White).bold()),
        ]))
        .alignment(Alignment::Center),
        layout.title,
    );

    // The board's frame.
    let mover = g.session.to_move();
    let frame_colour = mover.map_or(DIM, side_colour);
    frame.render_widget(
        Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(Style::new().fg(frame_colour)),
        layout.frame,
    );
    draw_board(frame, app, g, &layout.board);

    if let Some(h) = layout.history {
        draw_history(frame, g, h);
    }

    // Status line.
    let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
    let status: Line = if let Some(a) = &g.anim {
        Line::from(vec![
            Span::styled(
                g.session.name(a.record.side).to_owned(),
                Style::new().fg(side_colour(a.record.side)).bold(),
            ),
            text(
                format!(
                    " sows house {}",
                    g.label(a.record.side, a.record.mv.house())
                )
                .as_str(),
            ),
            text("   ("),
            key("space"),
            text(" skips)"),
        ])
    } else if g.finished() {
        Line::from(Span::styled("Game over", Style::new().fg(ACCENT).bold()))
    } else if let Some(side) = g.thinking() {
        Line::from(vec![
            Span::styled(
                format!("{} ", spinner[(app.ticks / 2) as usize % spinner.len()]),
                Style::new().fg(ACCENT),
            ),
            Span::styled(
                g.session.name(side).to_owned(),
                Style::new().fg(side_colour(side)).bold(),
            ),
            text(" is thinking..."),
        ])
    } else if let Some(side) = mover {
        let houses = rules.houses();
        let mut spans = vec![
            Span::styled(
                g.session.name(side).to_owned(),
                Style::new().fg(side_colour(side)).bold(),
            ),
            text(", choose a house: "),
            key("←→"),
            text(" + "),
            key("Enter"),
            text(", "),
            key(&format!("1-{houses}")),
        ];
        if let (Some(a), Some(b)) = (
            crate::app::house_letter(side, 1, houses),
            crate::app::house_letter(side, houses as u8, houses),
        ) {
            spans.push(text(", "));
            spans.push(key(&format!("{a}-{b}")));
        }
        spans.push(text(" or click"));
        if g.hint_pending {
            spans.push(text("  (looking for a hint...)"));
        }
        Line::from(spans)
    } else {
        Line::from("")
    };
    frame.render_widget(Paragraph::new(status).centered(), layout.status);

    // Message line.
    let style = match g.message.kind {
        MessageKind::Info => Style::new().fg(Color::White),
        MessageKind::Good => Style::new().fg(Color::LightGreen).bold(),
        MessageKind::Capture => Style::new().fg(ACCENT).bold(),
        MessageKind::Warning => Style::new().fg(Color::LightRed),
    };
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(g.message.text.clone(), style))).centered(),
        layout.message,
    );

    // Keys.
    let speed: String = (0..SPEEDS_MS.len())
        .map(|i| if i <= app.speed { '▮' } else { '▯' })
        .collect();
    let keys = Line::from(vec![
        key("u"),
        text(" undo  "),
        key("r"),
        text(" redo  "),
        key("h"),
        text(" hint  "),
        key("+/-"),
        text(" speed "),
        Span::styled(speed, Style::new().fg(ACCENT)),
        text("  "),
        key("q"),
        text(" quit"),
    ]);
    frame.render_widget(Paragraph::new(keys).centered(), layout.keys);

    if g.confirm_quit {
        popup(
            frame,
            layout.frame,
            " Quit? ",
            vec![
                Line::from("A game is in progress."),
                Line::from(vec![
                    text("Quit the game? ("),
                    key("y"),
                    text("/"),
                    key("n"),
                    text(")"),
                ]),
            ],
            ACCENT,
        );
    } else if g.finished() {
        let outcome = g.session.outcome().expect("the game is over");
        let [a, b] = outcome.scores;
        let words = g.session.end_text().expect("the game is over");
        let headline = Span::styled(
            format!("{}.", words.headline),
            Style::new()
                .fg(outcome.winner.map_or(ACCENT, side_colour))
                .bold(),
        );
        let reason = wrap(&words.reason_sentence(), 44);
        let colour = outcome.winner.map_or(ACCENT, side_colour);
        popup(
            frame,
            layout.frame,
            " Game over ",
            [
                Line::from(headline),
                Line::from(vec![
                    Span::styled(g.session.name(Side::South).to_owned(), Style::new().fg(P1)),
                    text(format!(" {a}  ·  {b} ").as_str()),
                    Span::styled(g.session.name(Side::North).to_owned(), Style::new().fg(P2)),
                ]),
            ]
            .into_iter()
            .chain(reason.into_iter().map(Line::from))
            .chain([
                Line::from(""),
                Line::from(vec![
                    Span::styled("Play again? (", Style::new().fg(Color::White).bold()),
                    key("y"),
                    Span::styled("/", Style::new().fg(Color::White).bold()),
                    key("n"),
                    Span::styled(")", Style::new().fg(Color::White).bold()),
                ]),
                Line::from(vec![
                    key("s"),
                    text(" new setup  "),
                    key("u"),
                    text(" undo"),
                ]),
            ])
            .collect(),
            colour,
        );
    }
}

/// `s` broken at spaces into lines of at most `width` characters (a longer word gets a
/// line of its own).
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

fn popup(frame: &mut Frame, over: Rect, title: &str, lines: Vec<Line>, colour: Color) {
    let w = lines
        .iter()
        .map(Line::width)
        .max()
        .unwrap_or(10)
        .max(title.len()) as u16
        + 6;
    let h = lines.len() as u16 + 2;
    let w = w.min(over.width);
    let r = Rect::new(
        over.x + (over.width - w) / 2,
        over.y + over.height.saturating_sub(h) / 2,
        w,
        h.min(over.height),
    );
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).alignment(Alignment::Center).block(
            Block::bordered()
                .border_type(BorderType::Double)
                .border_style(Style::new().fg(colour))
                .title(Line::from(title.to_owned().bold()).centered()),
        ),
        r,
    );
}

fn draw_board(frame: &mut Frame, app: &App, g: &GameState, geo: &BoardGeometry) {
    let _ = app;
    let board: BoardView = g.board();
    let rules = g.session.rules();
    let houses = rules.houses();
    let mover = g.session.to_move();
    let legal = g.session.legal_moves();
    let choosing = g.awaiting_human() && !g.confirm_quit;
    let area = geo.area;

    // Names, with the side to move marked.
    for side in Side::BOTH {
        let y = match side {
            Side::North => area.y,
            Side::South => area.bottom() - 1,
        };
        let to_move = mover == Some(side) && g.anim.is_none();
        let sowing = g.anim.as_ref().is_some_and(|a| a.record.side == side);
        let name = g.session.name(side);
        let seat = g.session.seat(side);
        let number = format!("player {}", side.number());
        let who = match seat.spec() {
            Some(spec) => format!(" {number} · {spec}"),
            None if name.eq_ignore_ascii_case(&number) => String::new(),
            None => format!(" {number}"),
        };
        let colour = side_colour(side);
        let mut spans = Vec::new();
        let arrow = match side {
            Side::North => "◀ ",
            Side::South => "",
        };
        spans.push(Span::styled(arrow, Style::new().fg(colour)));
        let name_style = if to_move || sowing {
            Style::new().fg(Color::Black).bg(colour).bold()
        } else {
            Style::new().fg(colour).bold()
        };
        spans.push(Span::styled(format!(" {name} "), name_style));
        spans.push(Span::styled(who, Style::new().fg(DIM)));
        if side == Side::South {
            spans.push(Span::styled(" ▶", Style::new().fg(colour)));
        }
        if to_move && !g.finished() {
            spans.push(Span::styled("  ● to move", Style::new().fg(ACCENT).bold()));
        }
        frame.render_widget(
            Paragraph::new(Line::from(spans)).centered(),
            Rect::new(area.x, y, area.width, 1),
        );
    }

    // Houses, labelled above (player 2) or below (player 1).
    for side in Side::BOTH {
        for house in 1..=houses as u8 {
            let pit = Pit::House { side, house };
            let r = geo.house_rect(side, house);
            let count = board.count(pit);
            let is_legal =
                choosing && mover == Some(side) && legal.iter().any(|m| m.house() == house);
            let is_cursor = is_legal && g.cursor == house;
            let colour = side_colour(side);
            let mut border = Style::new().fg(DIM);
            let mut number = if count == 0 {
                Style::new().fg(DIM)
            } else {
                Style::new().fg(Color::White).bold()
            };
            let mut border_type = BorderType::Rounded;
            if is_legal {
                border = Style::new().fg(colour);
            }
            if is_cursor {
                border = Style::new().fg(ACCENT).bold();
                border_type = BorderType::Thick;
                number = Style::new().fg(Color::Black).bg(ACCENT).bold();
            }
            if board.origin == Some(pit) {
                border = Style::new().fg(colour).bold();
                border_type = BorderType::Double;
            }
            if board.last_drop == Some(pit) {
                border = Style::new().fg(ACCENT).bold();
                number = Style::new().fg(Color::Black).bg(ACCENT).bold();
            }
            if board.captured.contains(&pit) {
                border = Style::new().fg(Color::LightRed).bold();
                number = Style::new().fg(Color::White).bg(Color::Red).bold();
            }
            let shown = fit(count, geo.inner);
            frame.render_widget(
                Paragraph::new(Line::from(Span::styled(shown, number)).centered()).block(
                    Block::bordered()
                        .border_type(border_type)
                        .border_style(border),
                ),
                r,
            );
            let label_y = match side {
                Side::North => r.y - 1,
                Side::South => r.bottom(),
            };
            let label = house_label(side, house, houses);
            let label_style = if is_cursor {
                Style::new().fg(ACCENT).bold()
            } else if is_legal {
                Style::new().fg(colour)
            } else {
                Style::new().fg(DIM)
            };
            frame.render_widget(
                Paragraph::new(Line::from(Span::styled(label, label_style)).centered()),
                Rect::new(r.x, label_y, r.width, 1),
            );
        }
    }

    // Stores (Kalah) or the seeds taken (Oware), at the ends.
    let word = if rules.variant() == Variant::Kalah {
        "store"
    } else {
        "taken"
    };
    for side in Side::BOTH {
        let r = geo.store_rect(side);
        let pit = Pit::Store(side);
        let colour = side_colour(side);
        let mut number = Style::new().fg(colour).bold();
        let mut border = Style::new().fg(colour);
        if board.last_drop == Some(pit) {
            number = Style::new().fg(Color::Black).bg(ACCENT).bold();
            border = Style::new().fg(ACCENT).bold();
        }
        let lines = vec![
            Line::from(""),
            Line::from(Span::styled(word, Style::new().fg(DIM))).centered(),
            Line::from(Span::styled(fit(board.count(pit), geo.inner + 2), number)).centered(),
        ];
        frame.render_widget(
            Paragraph::new(lines).block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .border_style(border),
            ),
            r,
        );
    }

    // The middle row: the seeds in hand during a sowing.
    let middle = Rect::new(
        geo.column(0),
        area.y + 5,
        geo.column(geo.houses) - 1 - geo.column(0),
        1,
    );
    let centre = if board.in_hand > 0 {
        let seeds: String = "●".repeat(usize::from(board.in_hand).min(20));
        let more = if board.in_hand > 20 { "…" } else { "" };
        Line::from(vec![
            text("in hand "),
            Span::styled(
                format!("{seeds}{more}"),
                Style::new().fg(g
                    .anim
                    .as_ref()
                    .map_or(ACCENT, |a| side_colour(a.record.side))),
            ),
            text(&format!(" {}", board.in_hand)),
        ])
    } else {
        let tip = match rules.variant() {
            Variant::Kalah => "⟲ end in your store to move again",
            Variant::Oware => "⟲ make 2 or 3 over there to capture",
            Variant::OwareSimplified => "⟲ turn their 1 into 2 to capture",
        };
        let dir = if tip.chars().count() <= usize::from(middle.width) {
            tip
        } else {
            "⟲"
        };
        Line::from(Span::styled(
            dir,
            Style::new().fg(DIM).add_modifier(Modifier::ITALIC),
        ))
    };
    frame.render_widget(Paragraph::new(centre.centered()), middle);
}

/// A count in `width` columns: `999+` style when it does not fit.
fn fit(count: u16, width: u16) -> String {
    let s = count.to_string();
    if s.len() as u16 <= width {
        s
    } else {
        "+".repeat(usize::from(width))
    }
}

fn draw_history(frame: &mut Frame, g: &GameState, r: Rect) {
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(DIM))
        .title(Line::from(" Moves ".bold()).centered());
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let houses = g.session.rules().houses();
    let records = g.session.records();
    let shown = records.len().min(usize::from(inner.height));
    // While a move is sown, it is listed already (it has been played).
    let lines: Vec<Line> = if records.is_empty() {
        vec![Line::from(Span::styled(
            " no moves yet",
            Style::new().fg(DIM).add_modifier(Modifier::ITALIC),
        ))]
    } else {
        records[records.len() - shown..]
            .iter()
            .map(|r| {
                let colour = side_colour(r.side);
                let full = g.session.name(r.side);
                let name: String = if full.chars().count() > 10 {
                    full.chars().take(9).chain(['…']).collect()
                } else {
                    full.to_owned()
                };
                let mut note = String::new();
                if r.report.captured > 0 {
                    note.push_str(&format!("×{}", r.report.captured));
                }
                if r.report.ended_in_store && !(r.after.is_over()) {
                    if !note.is_empty() {
                        note.push(' ');
                    }
                    note.push('↻');
                }
                Line::from(vec![
                    Span::styled(format!("{:>3} ", r.ply + 1), Style::new().fg(DIM)),
                    Span::styled(format!("{name:<10} "), Style::new().fg(colour)),
                    Span::styled(
                        format!("{:<4}", house_label(r.side, r.mv.house(), houses)),
                        Style::new().fg(Color::White).bold(),
                    ),
                    Span::styled(note, Style::new().fg(ACCENT)),
                ])
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use mancala_core::Variant;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyCode, KeyEvent};

    use super::draw;
    use crate::app::App;
    use crate::setup::{Setup, build_count};

    /// Draws `app` as the terminal loop does, frame after frame; returns the last screen.
    fn draw_frames(app: &App, frames: usize) -> String {
        let mut terminal = Terminal::new(TestBackend::new(100, 35)).unwrap();
        for _ in 0..frames {
            terminal.draw(|f| draw(f, app)).unwrap();
        }
        format!("{:?}", terminal.backend().buffer())
    }

    #[test]
    fn drawing_builds_no_computer_player() {
        let now = Instant::now();
        let setup = Setup {
            variant: Variant::Oware,
            players: ["medium".into(), "robot".into()],
            ..Setup::default()
        };
        let mut app = App::new(setup, false, now);
        let built = build_count::get();
        assert!(
            built >= 2,
            "the form checks both chosen players when it is made"
        );
        let screen = draw_frames(&app, 20);
        assert!(
            screen.contains("player robot does not play oware"),
            "{screen}"
        );
        assert_eq!(build_count::get(), built, "drawing the start screen");

        // Changing player 2 checks the players again, once; drawing still builds none.
        for code in [KeyCode::Up, KeyCode::Up, KeyCode::Right] {
            app.handle_key(KeyEvent::from(code), now);
        }
        let built_again = build_count::get();
        assert!(built_again > built, "a change of player is checked");
        let screen = draw_frames(&app, 20);
        assert!(!screen.contains("does not play"), "{screen}");
        assert_eq!(build_count::get(), built_again, "drawing the start screen");

        app.handle_key(KeyEvent::from(KeyCode::Enter), now);
        let started = build_count::get();
        let screen = draw_frames(&app, 20);
        assert!(screen.contains("Oware · 6 houses"), "{screen}");
        assert_eq!(build_count::get(), started, "drawing the game screen");
    }
}
