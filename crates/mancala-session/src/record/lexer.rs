//! The tokens of a record file, each with its line and column.

use std::iter::Peekable;
use std::str::Chars;

use super::error::SyntaxError;
use super::result::RecordResult;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `[Name "value"]`.
    Tag { name: String, value: String },
    /// `{text}`, whitespace runs made single spaces.
    Comment(String),
    /// A move number such as `12.` or `12...`; its value is not checked.
    Number,
    /// A move: its digits and the marks after them (`+`, `x`).
    Move { digits: String, marks: String },
    /// `(20)`: the mover's captured seeds after the move (the two-digit Oware notation).
    Captures(String),
    /// `1-0`, `0-1`, `1/2-1/2` or `*`: the end of a game's moves.
    Result(RecordResult),
}

/// A token and where it starts (1-based line and character column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub column: usize,
}

/// Reads tokens from a record file.
pub(crate) struct Lexer<'a> {
    chars: Peekable<Chars<'a>>,
    line: usize,
    column: usize,
}

/// A syntax error with its line and column.
pub(crate) type LexError = (usize, usize, SyntaxError);

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn err(&self, e: SyntaxError) -> LexError {
        (self.line, self.column, e)
    }

    /// Skips whitespace and the commas of bare move lists.
    fn skip_separators(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace() || c == ',') {
            self.bump();
        }
    }

    /// The next token, `None` at the end of the text.
    pub(crate) fn next_token(&mut self) -> Result<Option<Token>, LexError> {
        self.skip_separators();
        let (line, column) = (self.line, self.column);
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let tok = match c {
            '[' => self.tag()?,
            '{' => self.comment()?,
            '(' => Tok::Captures(self.captures()?),
            '*' => {
                self.bump();
                Tok::Result(RecordResult::Unknown)
            }
            '0'..='9' => self.digits_token()?,
            other => return Err(self.err(SyntaxError::Unexpected(other))),
        };
        // Brackets close themselves and a move number may touch its move (`1.3`);
        // anything else must be followed by a separator.
        if matches!(tok, Tok::Move { .. } | Tok::Captures(_) | Tok::Result(_)) {
            self.end_of_token()?;
        }
        Ok(Some(Token { tok, line, column }))
    }

    /// A token must be followed by a separator or by a token that opens with its own
    /// bracket.
    fn end_of_token(&mut self) -> Result<(), LexError> {
        match self.peek() {
            None => Ok(()),
            Some(c) if c.is_whitespace() || matches!(c, ',' | '{' | '(' | '[') => Ok(()),
            Some(c) => Err(self.err(SyntaxError::Unexpected(c))),
        }
    }

    fn take_digits(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            s.push(c);
            self.bump();
        }
        s
    }

    /// A move, a move number or a result: they all start with digits.
    fn digits_token(&mut self) -> Result<Tok, LexError> {
        let digits = self.take_digits();
        match self.peek() {
            Some('.') => {
                while self.peek() == Some('.') {
                    self.bump();
                }
                return Ok(Tok::Number);
            }
            Some('-' | '/') => return self.result(digits),
            _ => {}
        }
        let mut marks = String::new();
        while let Some(c) = self.peek().filter(|c| matches!(c, '+' | 'x')) {
            marks.push(c);
            self.bump();
        }
        Ok(Tok::Move { digits, marks })
    }

    /// `1-0`, `0-1` or `1/2-1/2`, whose first digits are read.
    fn result(&mut self, digits: String) -> Result<Tok, LexError> {
        let mut text = digits;
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_digit() || matches!(c, '-' | '/'))
        {
            text.push(c);
            self.bump();
        }
        text.parse::<RecordResult>()
            .map(Tok::Result)
            .map_err(|_| self.err(SyntaxError::BadResult(text)))
    }

    /// `(digits)`.
    fn captures(&mut self) -> Result<String, LexError> {
        self.bump();
        let digits = self.take_digits();
        if digits.is_empty() || self.peek() != Some(')') {
            return Err(self.err(SyntaxError::BadCaptures));
        }
        self.bump();
        Ok(digits)
    }

    /// `{text}`, which may span lines.
    fn comment(&mut self) -> Result<Tok, LexError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('}') => break,
                Some(c) => text.push(c),
                None => return Err((line, column, SyntaxError::UnclosedComment)),
            }
        }
        Ok(Tok::Comment(normalize_space(&text)))
    }

    /// `[Name "value"]` on one line; `\"` and `\\` escape in the value.
    fn tag(&mut self) -> Result<Tok, LexError> {
        self.bump();
        self.skip_blanks();
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.err(SyntaxError::BadTag));
        }
        self.skip_blanks();
        if self.bump() != Some('"') {
            return Err(self.err(SyntaxError::BadTag));
        }
        let value = self.tag_value()?;
        self.skip_blanks();
        if self.bump() != Some(']') {
            return Err(self.err(SyntaxError::BadTag));
        }
        Ok(Tok::Tag { name, value })
    }

    fn tag_value(&mut self) -> Result<String, LexError> {
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => return Ok(value),
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    _ => return Err(self.err(SyntaxError::BadTag)),
                },
                Some(c) if !c.is_control() => value.push(c),
                _ => return Err(self.err(SyntaxError::BadTag)),
            }
        }
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }
}

/// `text` with every run of whitespace made one space, and none at the ends.
pub(crate) fn normalize_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token().unwrap() {
            out.push(t.tok);
        }
        out
    }

    fn mv(digits: &str, marks: &str) -> Tok {
        Tok::Move {
            digits: digits.into(),
            marks: marks.into(),
        }
    }

    #[test]
    fn tokens_of_each_kind() {
        assert_eq!(
            toks("[Player1 \"A \\\"B\\\"\"]\n1. 3+ 6x {a\n  b} 2...4,5 53(20) 1/2-1/2 *"),
            [
                Tok::Tag {
                    name: "Player1".into(),
                    value: "A \"B\"".into()
                },
                Tok::Number,
                mv("3", "+"),
                mv("6", "x"),
                Tok::Comment("a b".into()),
                Tok::Number,
                mv("4", ""),
                mv("5", ""),
                mv("53", ""),
                Tok::Captures("20".into()),
                Tok::Result(RecordResult::Draw),
                Tok::Result(RecordResult::Unknown),
            ]
        );
    }

    #[test]
    fn errors_say_where() {
        let mut lexer = Lexer::new("1. 3\n  4q");
        lexer.next_token().unwrap();
        lexer.next_token().unwrap();
        assert_eq!(
            lexer.next_token(),
            Err((2, 4, SyntaxError::Unexpected('q')))
        );
        let mut lexer = Lexer::new("\n {open");
        assert_eq!(
            lexer.next_token(),
            Err((2, 2, SyntaxError::UnclosedComment))
        );
        let mut lexer = Lexer::new("1-2");
        assert_eq!(
            lexer.next_token(),
            Err((1, 4, SyntaxError::BadResult("1-2".into())))
        );
    }
}
