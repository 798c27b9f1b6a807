//! Text that fits its width, as gitui and helix fit theirs: wrapped at spaces onto
//! more lines, or shortened with "…" where there are no more lines to take. Widths
//! are display columns as the terminal shows them (a CJK character or an emoji takes
//! two), measured per grapheme as ratatui draws them, never bytes or `char`s.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// A space where [`wrap`] never breaks a line (a no-break space), shown as a space.
pub const NO_BREAK: &str = "\u{a0}";

/// The ellipsis that marks text cut short.
pub const ELLIPSIS: &str = "…";

/// The columns `s` takes on screen.
pub fn width(s: &str) -> usize {
    s.width()
}

/// `s` in at most `max` columns: whole when it fits, else cut and ended with "…"
/// ("Bartholomew" in 6 columns is "Barth…", "李小龍🎉Ann" is "李小…").
pub fn shorten(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_owned();
    }
    let line = shorten_line(Line::from(s.to_owned()), max);
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// The start of `s` that fits `max` columns, cut between graphemes without a mark
/// (for a name longer than names may be: the name is what is kept, not a shortening
/// of it).
pub fn truncate(s: &str, max: usize) -> String {
    let mut kept = String::new();
    let mut used = 0;
    for g in Span::raw(s).styled_graphemes(Style::new()) {
        let w = width(g.symbol);
        if used + w > max {
            break;
        }
        used += w;
        kept.push_str(g.symbol);
    }
    kept
}

/// `s` in at most `max` columns, keeping its end: "…" and the last characters when
/// it does not fit (for text being typed, whose end is where the cursor is).
pub fn shorten_start(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_owned();
    }
    let mut kept: Vec<&str> = Vec::new();
    let mut used = width(ELLIPSIS);
    let span = Span::raw(s);
    let graphemes: Vec<_> = span.styled_graphemes(Style::new()).collect();
    for g in graphemes.iter().rev() {
        let w = width(g.symbol);
        if used + w > max {
            break;
        }
        used += w;
        kept.push(g.symbol);
    }
    kept.reverse();
    format!("{ELLIPSIS}{}", kept.concat())
}

/// `line` in at most `max` columns: whole when it fits, else cut and ended with "…"
/// (in the style of the text cut).
pub fn shorten_line(line: Line<'static>, max: usize) -> Line<'static> {
    if line.width() <= max {
        return line;
    }
    cut_line(&line, max)
}

/// `line` cut to end with "…" in at most `max` columns, even when it would fit.
fn cut_line(line: &Line<'static>, max: usize) -> Line<'static> {
    let mut cells: Vec<(String, Style)> = Vec::new();
    let mut used = 0;
    let room = max.saturating_sub(width(ELLIPSIS));
    let mut last_style = Style::new();
    for g in line.styled_graphemes(Style::new()) {
        let w = width(g.symbol);
        last_style = g.style;
        if used + w > room {
            break;
        }
        used += w;
        cells.push((g.symbol.to_owned(), g.style));
    }
    // "Ann of…", not "Ann of …": the ellipsis follows the last word kept.
    while cells.last().is_some_and(|(s, _)| s.trim().is_empty()) {
        cells.pop();
    }
    if max > 0 {
        cells.push((ELLIPSIS.to_owned(), last_style));
    }
    let mut cut = Line::from(spans_of(cells));
    cut.alignment = line.alignment;
    cut
}

/// `spans` wrapped at spaces into lines of at most `max` columns; lines after the
/// first start with `indent` spaces, so wrapped text stays in its column. A word
/// longer than a line is broken where the line ends; `\n` breaks a line; a
/// [`NO_BREAK`] space never does.
pub fn wrap(spans: &[Span<'static>], max: usize, indent: usize) -> Vec<Line<'static>> {
    let mut wrapper = Wrapper {
        max: max.max(1),
        indent: indent.min(max.saturating_sub(1)),
        lines: Vec::new(),
        line: Vec::new(),
        used: 0,
    };
    let mut word: Vec<(String, Style)> = Vec::new();
    for span in spans {
        // ratatui's graphemes leave line breaks out: split at them first.
        for (i, part) in span.content.split('\n').enumerate() {
            if i > 0 {
                wrapper.add_word(std::mem::take(&mut word));
                wrapper.break_line();
            }
            let part = Span::styled(part, span.style);
            for g in part.styled_graphemes(Style::new()) {
                if g.symbol == " " {
                    wrapper.add_word(std::mem::take(&mut word));
                    wrapper.add_space(g.style);
                } else if g.symbol == NO_BREAK {
                    word.push((" ".to_owned(), g.style));
                } else {
                    word.push((g.symbol.to_owned(), g.style));
                }
            }
        }
    }
    wrapper.add_word(word);
    wrapper.finish()
}

/// Plain `text` wrapped as [`wrap`] wraps spans.
#[cfg(test)]
pub fn wrap_text(text: &str, max: usize) -> Vec<String> {
    wrap(&[Span::raw(text.to_owned())], max, 0)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// `lines` (from [`wrap`]) in at most `rows` lines: the last one kept ends with "…"
/// when some were left out.
pub fn at_most(mut lines: Vec<Line<'static>>, rows: usize, max: usize) -> Vec<Line<'static>> {
    if lines.len() <= rows {
        return lines;
    }
    lines.truncate(rows);
    if let Some(last) = lines.pop() {
        // Room for the ellipsis even when the line is full.
        let room = max.saturating_sub(width(ELLIPSIS));
        let mut cut = last;
        if cut.width() > room {
            cut = cut_line(&cut, max);
        } else {
            let style = cut.spans.last().map_or(Style::new(), |s| s.style);
            cut.spans.push(Span::styled(ELLIPSIS, style));
        }
        lines.push(cut);
    }
    lines
}

/// Fills lines word by word.
struct Wrapper {
    max: usize,
    indent: usize,
    lines: Vec<Line<'static>>,
    line: Vec<(String, Style)>,
    used: usize,
}

impl Wrapper {
    fn break_line(&mut self) {
        // Spaces where a line breaks are not shown.
        while self.line.last().is_some_and(|(s, _)| s == " ") {
            self.line.pop();
        }
        self.lines
            .push(Line::from(spans_of(std::mem::take(&mut self.line))));
        self.line.extend(std::iter::repeat_n(
            (" ".to_owned(), Style::new()),
            self.indent,
        ));
        self.used = self.indent;
    }

    fn add_space(&mut self, style: Style) {
        if self.used < self.max {
            self.line.push((" ".to_owned(), style));
            self.used += 1;
        }
    }

    fn add_word(&mut self, word: Vec<(String, Style)>) {
        if word.is_empty() {
            return;
        }
        let w: usize = word.iter().map(|(s, _)| width(s)).sum();
        if self.used + w > self.max && self.used > self.indent {
            self.break_line();
        }
        for (symbol, style) in word {
            let gw = width(&symbol);
            if self.used + gw > self.max && self.used > self.indent {
                self.break_line();
            }
            self.used += gw;
            self.line.push((symbol, style));
        }
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        let pending = self.line.iter().any(|(s, _)| s != " ");
        if pending || self.lines.is_empty() {
            self.break_line();
        }
        self.lines
    }
}

/// Cells merged into spans, one per run of the same style.
fn spans_of(cells: Vec<(String, Style)>) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    for (symbol, style) in cells {
        match spans.last_mut() {
            Some(last) if last.style == style => last.content.to_mut().push_str(&symbol),
            _ => spans.push(Span::styled(symbol, style)),
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Stylize;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn shorten_counts_columns_not_characters() {
        assert_eq!(shorten("Ann", 3), "Ann");
        assert_eq!(shorten("Bartholomew", 6), "Barth…");
        assert_eq!(shorten("李小龍🎉Ann", 6), "李小…");
        assert_eq!(width(&shorten("李小龍🎉Ann", 7)), 7);
        assert_eq!(shorten("李小龍🎉Ann", 7), "李小龍…");
        assert_eq!(shorten_start("Bartholomew", 6), "…lomew");
        assert_eq!(shorten_start("李小龍🎉Ann", 6), "…🎉Ann");
    }

    #[test]
    fn wrap_breaks_at_spaces_indents_and_keeps_styles() {
        let spans = [Span::raw("a bb "), "ccc".bold(), Span::raw(" dddd")];
        let lines = wrap(&spans, 6, 2);
        assert_eq!(texts(&lines), ["a bb", "  ccc", "  dddd"]);
        assert_eq!(lines[1].spans[1].style, Style::new().bold());
        assert_eq!(
            texts(&wrap(&[Span::raw("abcdefgh")], 3, 0)),
            ["abc", "def", "gh"]
        );
        assert_eq!(
            texts(&wrap(&[Span::raw("one\ntwo three")], 20, 0)),
            ["one", "two three"]
        );
        assert_eq!(wrap_text("", 5), [""]);
        assert_eq!(wrap_text("a b\u{a0}c", 4), ["a", "b c"]);
        assert_eq!(wrap_text("李小龍 🎉Ann", 5), ["李小", "龍", "🎉Ann"]);
        for line in wrap(
            &[Span::raw("李小龍🎉Ann 李小龍🎉Ann, choose a house")],
            7,
            1,
        ) {
            assert!(line.width() <= 7, "{line}");
        }
    }

    #[test]
    fn at_most_ends_what_it_cuts_with_an_ellipsis() {
        let lines = wrap(&[Span::raw("one two three four")], 9, 0);
        assert_eq!(texts(&at_most(lines.clone(), 2, 9)), ["one two", "three…"]);
        assert_eq!(texts(&at_most(lines, 5, 9)), ["one two", "three", "four"]);
        let full = wrap(&[Span::raw("abcdef ghi")], 6, 0);
        assert_eq!(texts(&at_most(full, 1, 6)), ["abcde…"]);
    }
}
