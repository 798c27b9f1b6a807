//! Boxes drawn over the board: the quit question and the end of the game.

use mancala_core::Side;
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};

use crate::app::{GameState, Score};
use crate::fit;
use crate::layout::{popup_rect, screen_popup_rect};
use crate::style::{ACCENT, P1, P2, key, side_colour, text};

/// The widest line of text in a box: wrapped, the box stays compact over the board
/// instead of as wide as the sentence.
const TEXT_MAX: usize = 44;
/// The widest sliver of the board a pop-up leaves showing beside it, both sides
/// together, before it is made as wide as the board's content.
const SLIVER: usize = 4;

/// Lines of a box ranked this low or lower are left out before the box is made taller
/// than the board's frame.
const OPTIONAL: u8 = 2;

/// The narrowest the text in a box is wrapped to over the board: on a narrower board
/// the box goes over the whole screen instead.
const TEXT_MIN: usize = 36;

/// The quit question, over the board's frame `board` on `screen`; it says when the
/// game has moves not saved, and how to save them.
pub fn quit(frame: &mut Frame, g: &GameState, board: Rect, screen: Rect) {
    let state = if g.unsaved() {
        vec![
            text("The game is not saved ("),
            key("n"),
            text(", then "),
            key("w"),
            text(" saves it)."),
        ]
    } else {
        vec![text("A game is in progress.")]
    };
    let lines = vec![
        (1, state),
        (
            2,
            vec![
                text("Quit the game? ("),
                key("y"),
                text("/"),
                key("n"),
                text(")"),
            ],
        ),
    ];
    popup(frame, (board, screen), " Quit? ", lines, ACCENT);
}

/// The end of the game, over the board's frame `board` on `screen`: who won and the
/// score, why the game ended and where the seeds left on the board went, the running
/// score, who moves first next, and what the keys do now. Where rows are short, the
/// least needed lines are left out (the running score and who moves next before the
/// keys, which alone say that the game can be reviewed), the result and the question
/// last.
pub fn game_over(frame: &mut Frame, g: &GameState, score: &Score, board: Rect, screen: Rect) {
    let (Some(outcome), Some(words)) = (g.session.outcome(), g.end_text()) else {
        return;
    };
    let [a, b] = outcome.scores;
    let colour = outcome.winner.map_or(ACCENT, side_colour);
    let white = Style::new().fg(Color::White).bold();
    let first = if g.swap_next {
        Side::North
    } else {
        Side::South
    };
    let lines = vec![
        (
            9,
            vec![Span::styled(
                format!("{}.", words.headline),
                Style::new().fg(colour).bold(),
            )],
        ),
        (
            7,
            // Each name stays with its score when the line wraps.
            vec![
                Span::styled(unbreakable(g.name(Side::South)), Style::new().fg(P1)),
                text(&format!("{nb}{a}  ·  {b}{nb}", nb = fit::NO_BREAK)),
                Span::styled(unbreakable(g.name(Side::North)), Style::new().fg(P2)),
            ],
        ),
        (6, vec![text(&words.reason_sentence())]),
        (1, vec![]),
        (
            3,
            vec![text(&format!("Games: {}", unbroken(&score.words())))],
        ),
        (
            4,
            vec![
                text(&format!("Next: {} moves first  ", g.name(first))),
                key("f"),
                text(&format!("{}changes", fit::NO_BREAK)),
            ],
        ),
        (
            8,
            vec![
                Span::styled("Play again? (", white),
                key("y"),
                Span::styled("/", white),
                key("n"),
                Span::styled(")", white),
            ],
        ),
        // The keys outrank the running score and who moves next, and are never left
        // out before the box reaches over the frame: the box is the only place that
        // says a finished game can be reviewed.
        (
            5,
            vec![
                key("s"),
                text(" setup  "),
                key("u"),
                text(" undo  "),
                key("v"),
                text(" board  "),
                key("a"),
                text(" review"),
            ],
        ),
    ];
    popup(frame, (board, screen), " Game over ", lines, colour);
}

/// "Ann 2 · Bob 1" with each player's name and count kept on one line when wrapped.
fn unbroken(score: &str) -> String {
    let parts: Vec<String> = score.split(" · ").map(unbreakable).collect();
    parts.join(" · ")
}

/// `text` kept on one line when wrapped.
fn unbreakable(text: &str) -> String {
    text.replace(' ', fit::NO_BREAK)
}

/// A double-bordered box of `lines`, each wrapped to fit, centred over the board's
/// frame (never on it) within the screen, as `(board, screen)`. Lines come with a
/// rank: where the box would be taller than the frame's inside, the lowest ranked go
/// first.
fn popup(
    frame: &mut Frame,
    (board, screen): (Rect, Rect),
    title: &str,
    lines: Vec<(u8, Vec<Span<'static>>)>,
    colour: Color,
) {
    // Inside the frame, a column apart from its border on each side; where the
    // board is too narrow to wrap the text there readably, over the whole screen.
    let inside = usize::from(board.width).saturating_sub(8);
    let widest = lines
        .iter()
        .map(|(_, l)| Line::from(l.clone()).width())
        .max();
    let over_board = widest.unwrap_or(0) <= inside || inside >= TEXT_MIN;
    let (text_w, most) = if over_board {
        (inside.min(TEXT_MAX), board.height.saturating_sub(4))
    } else {
        // Room for the box to grow by a column on each side off the frame's edges.
        let w = usize::from(screen.width).saturating_sub(8);
        (w.min(TEXT_MAX), screen.height.saturating_sub(4))
    };
    let mut wrapped: Vec<(u8, Vec<Line<'static>>)> = lines
        .into_iter()
        .map(|(rank, spans)| (rank, fit::wrap(&spans, text_w, 0)))
        .collect();
    let rows = |w: &[(u8, Vec<Line>)]| w.iter().map(|(_, l)| l.len()).sum::<usize>();
    let drop_lowest = |w: &mut Vec<(u8, Vec<Line>)>, most: usize, up_to: u8| {
        while rows(w) > most && w.len() > 2 {
            let lowest = w.iter().map(|(rank, _)| *rank).min().unwrap_or(0);
            if lowest > up_to {
                break;
            }
            w.retain(|(rank, _)| *rank != lowest);
        }
    };
    // The lines that may go go first; then, still too tall for the frame (long names
    // wrap), the box reaches over the frame, up to the screen's height, and more
    // lines go only where the screen has no more rows.
    let inside_rows = usize::from(most).max(2);
    drop_lowest(&mut wrapped, inside_rows, OPTIONAL);
    let most = if rows(&wrapped) <= inside_rows {
        inside_rows
    } else {
        inside_rows.max(usize::from(screen.height.saturating_sub(4)))
    };
    drop_lowest(&mut wrapped, most, u8::MAX);
    let lines: Vec<Line<'static>> = wrapped.into_iter().flat_map(|(_, l)| l).collect();
    let widest = lines.iter().map(Line::width).max().unwrap_or(10);
    let mut w = widest.max(fit::width(title)) + 4;
    // A box a few columns short of the board's content (inside the frame's blank
    // margin) would leave slivers of houses and stores beside it, their borders
    // against its own: it covers the content instead.
    let content = usize::from(board.width).saturating_sub(4);
    if over_board && w < content && content - w <= SLIVER {
        w = content;
    }
    let h = lines.len() + 2;
    let (w, h) = (
        u16::try_from(w).unwrap_or(u16::MAX),
        u16::try_from(h).unwrap_or(u16::MAX),
    );
    let r = if over_board {
        popup_rect(board, screen, w, h)
    } else {
        screen_popup_rect(board, screen, w, h)
    };
    // A box made taller to stay off the frame's edges keeps its text in the middle.
    let above = usize::from(r.height.saturating_sub(h)) / 2;
    let lines: Vec<Line<'static>> = std::iter::repeat_n(Line::from(""), above)
        .chain(lines)
        .collect();
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
