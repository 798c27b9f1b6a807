//! Boxes drawn over the board: the quit question and the end of the game.

use mancala_core::Side;
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};

use crate::app::{GameState, Score};
use crate::layout::popup_rect;
use crate::style::{ACCENT, P1, P2, key, side_colour, text};

/// The widest line of the reason the game ended: wrapped, the box stays compact over
/// the board instead of as wide as the sentence.
const REASON_WIDTH: usize = 44;

/// The quit question, over `over`.
pub fn quit(frame: &mut Frame, over: Rect) {
    let lines = vec![
        Line::from("A game is in progress."),
        Line::from(vec![
            text("Quit the game? ("),
            key("y"),
            text("/"),
            key("n"),
            text(")"),
        ]),
    ];
    popup(frame, over, " Quit? ", lines, ACCENT);
}

/// The end of the game, over `over`: who won and the score, why the game ended and
/// where the seeds left on the board went, and what the keys do now.
pub fn game_over(frame: &mut Frame, g: &GameState, score: &Score, over: Rect) {
    let (Some(outcome), Some(words)) = (g.session.outcome(), g.session.end_text()) else {
        return;
    };
    let [a, b] = outcome.scores;
    let colour = outcome.winner.map_or(ACCENT, side_colour);
    let white = Style::new().fg(Color::White).bold();
    let mut lines = vec![
        Line::from(Span::styled(
            format!("{}.", words.headline),
            Style::new().fg(colour).bold(),
        )),
        Line::from(vec![
            Span::styled(g.session.name(Side::South).to_owned(), Style::new().fg(P1)),
            text(&format!(" {a}  ·  {b} ")),
            Span::styled(g.session.name(Side::North).to_owned(), Style::new().fg(P2)),
        ]),
    ];
    lines.extend(
        wrap(&words.reason_sentence(), REASON_WIDTH)
            .into_iter()
            .map(Line::from),
    );
    let first = if g.swap_next {
        Side::North
    } else {
        Side::South
    };
    lines.extend([
        Line::from(""),
        Line::from(vec![text(&format!("Games: {}", score.words()))]),
        Line::from(vec![
            text(&format!("Next: {} moves first  ", g.session.name(first))),
            key("f"),
            text(" changes"),
        ]),
        Line::from(vec![
            Span::styled("Play again? (", white),
            key("y"),
            Span::styled("/", white),
            key("n"),
            Span::styled(")", white),
        ]),
        Line::from(vec![
            key("s"),
            text(" new setup  "),
            key("u"),
            text(" undo  "),
            key("v"),
            text(" see the board"),
        ]),
    ]);
    popup(frame, over, " Game over ", lines, colour);
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

/// A double-bordered box with centred `lines`, sized to them, centred over `over`.
fn popup(frame: &mut Frame, over: Rect, title: &str, lines: Vec<Line>, colour: Color) {
    let widest = lines.iter().map(Line::width).max().unwrap_or(10);
    let w = widest.max(title.len()) as u16 + 6;
    let r = popup_rect(over, w, lines.len() as u16 + 2);
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

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wrap_breaks_at_spaces_and_keeps_long_words_whole() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdef g", 3), ["abcdef", "g"]);
        assert_eq!(wrap("", 5), [""]);
    }
}
