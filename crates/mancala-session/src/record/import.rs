//! Reading record files: games split from the tokens, every move checked against the
//! rules, and the result against the moves.

use std::collections::BTreeMap;

use mancala_core::{Game, Move, Position, Rules, Side};

use super::Record;
use super::error::{
    EndingProblem, MoveProblem, Numbering, RecordError, RecordErrorKind, SyntaxError,
};
use super::lexer::{Lexer, Tok, Token};
use super::result::{Ending, RecordResult};
use super::tags::{Header, Located, RawTag, Termination, parse_score, read_header};
use super::write::{last_house, two_digit_notation};
use crate::{house_number, parse_house_number};

/// Reads every game of a record file.
///
/// Games are separated by their result (`1-0`, `0-1`, `1/2-1/2`, `*`) or by the tags
/// of the next game. A game without rules tags is played under `defaults` (Kalah's
/// options only when both are Kalah); so is a bare list of house numbers. On boards
/// of at most 9 houses, a two-digit move in either Oware variant is the Wikimanqala
/// notation: the house sown and the house the last seed lands in. Marks (`+`, `x`),
/// captured-seed counts (`(20)`) and tags that are given are checked; those left out
/// are not needed.
///
/// # Errors
/// The first problem, with its game, line and what is wrong; nothing is returned of
/// a file with any bad game.
///
/// ```
/// use mancala_core::{Rules, Side};
/// use mancala_session::{RecordResult, parse_records};
/// let text = "3 6 1 *\n\n[Variant \"oware\"]\n1. 64 64 2. 21 32 *\n";
/// let games = parse_records(text, Rules::kalah(6, 4)).unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].moves().len(), 3);
/// assert_eq!(games[1].rules(), Rules::oware(6, 4));
/// assert_eq!(games[1].game().position().houses(Side::South), &[6, 1, 6, 6, 5, 1]);
/// ```
// The error names the game, line and move at fault and what is wrong, by value so that
// callers match on it; reading a file is no hot path, so its size costs nothing.
pub fn parse_records(text: &str, defaults: Rules) -> Result<Vec<Record>, RecordError> {
    let mut lexer = Lexer::new(text);
    let mut games = Vec::new();
    let mut raw = RawGame::default();
    loop {
        let number = games.len() + 1;
        let token = lexer
            .next_token()
            .map_err(|(line, column, error)| RecordError {
                game: number,
                line,
                kind: RecordErrorKind::Syntax { column, error },
            })?;
        let Some(token) = token else { break };
        // Tags after moves start the next game (comments before tags stay with them).
        let starts_new = matches!(token.tok, Tok::Tag { .. })
            && raw.items.iter().any(|t| !matches!(t.tok, Tok::Comment(_)));
        if starts_new {
            games.push(std::mem::take(&mut raw).build(defaults, number)?);
        }
        let number = games.len() + 1;
        match token.tok {
            Tok::Tag { name, value } => raw.tags.push(RawTag {
                name,
                value,
                line: token.line,
            }),
            Tok::Result(result) => {
                raw.result = Some((result, token.line));
                games.push(std::mem::take(&mut raw).build(defaults, number)?);
            }
            tok => raw.items.push(Token { tok, ..token }),
        }
    }
    if !raw.tags.is_empty() || !raw.items.is_empty() {
        let number = games.len() + 1;
        games.push(raw.build(defaults, number)?);
    }
    Ok(games)
}

/// One game's tokens, before any rule is applied.
#[derive(Debug, Default)]
struct RawGame {
    tags: Vec<RawTag>,
    items: Vec<Token>,
    result: Option<(RecordResult, usize)>,
}

/// The move just played, for a captured-seed count after it.
struct Played {
    side: Side,
    context: MoveContext,
}

/// What an error about a move says about it.
#[derive(Clone)]
struct MoveContext {
    line: usize,
    number: u32,
    side: Side,
    ply: usize,
    text: String,
}

impl MoveContext {
    fn error(&self, problem: impl Into<MoveProblem>) -> Located {
        let kind = RecordErrorKind::Move {
            number: self.number,
            side: self.side,
            ply: self.ply,
            text: self.text.clone(),
            problem: problem.into(),
        };
        (self.line, kind)
    }
}

impl RawGame {
    /// The record, or the first problem in it.
    fn build(self, defaults: Rules, number: usize) -> Result<Record, RecordError> {
        let last_line = self
            .items
            .last()
            .map(|t| t.line)
            .max(self.result.map(|(_, l)| l))
            .max(self.tags.last().map(|t| t.line))
            .unwrap_or(1);
        self.build_located(defaults, last_line)
            .map_err(|(line, kind)| RecordError {
                game: number,
                line,
                kind,
            })
    }

    fn build_located(self, defaults: Rules, last_line: usize) -> Result<Record, Located> {
        let header = read_header(&self.tags, defaults)?;
        let (game, comments) = play_moves(header.start, &self.items)?;
        let result = match (header.result, self.result) {
            (Some((tag, _)), Some((token, line))) if tag != token => {
                return Err((line, EndingProblem::TagAndToken { tag, token }.into()));
            }
            (tag, token) => tag.or(token),
        };
        let ending = resolve_ending(&game, &header, result, last_line)?;
        let Header {
            names,
            seats,
            date,
            time_control,
            tags,
            ..
        } = header;
        Ok(Record {
            game,
            names,
            seats,
            date,
            time_control,
            tags,
            comments,
            ending,
        })
    }
}

/// Plays the moves of the movetext from `start`, collecting the comments.
fn play_moves(
    start: Position,
    items: &[Token],
) -> Result<(Game, BTreeMap<usize, String>), Located> {
    let mut game = Game::from_position(start);
    let mut comments: BTreeMap<usize, String> = BTreeMap::new();
    let mut numbering = Numbering::default();
    let mut just_played: Option<Played> = None;
    for item in items {
        let played = just_played.take();
        match &item.tok {
            Tok::Number | Tok::Tag { .. } | Tok::Result(_) => {}
            Tok::Comment(text) if text.is_empty() => {}
            Tok::Comment(text) => {
                comments
                    .entry(game.ply())
                    .and_modify(|c| {
                        c.push(' ');
                        c.push_str(text);
                    })
                    .or_insert_with(|| text.clone());
            }
            Tok::Move { digits, marks } => {
                just_played = Some(play_one(
                    &mut game,
                    &mut numbering,
                    digits,
                    marks,
                    item.line,
                )?);
            }
            Tok::Captures(written) => {
                let Some(played) = played else {
                    let kind = RecordErrorKind::Syntax {
                        column: item.column,
                        error: SyntaxError::CapturesWithoutMove,
                    };
                    return Err((item.line, kind));
                };
                let actual = game.position().store(played.side);
                if written.parse::<u16>().ok() != Some(actual) {
                    let written = written.clone();
                    return Err(played
                        .context
                        .error(MoveProblem::WrongCaptures { written, actual }));
                }
            }
        }
    }
    Ok((game, comments))
}

/// The move `digits` names, and the end house a two-digit Oware move gives.
fn read_move(digits: &str, pos: &Position) -> Result<(Move, Option<u8>), crate::HouseError> {
    let houses = pos.houses_per_side();
    let bytes = digits.as_bytes();
    if two_digit_notation(pos.rules()) && bytes.len() == 2 {
        let mv = house_number(u64::from(bytes[0] - b'0'), houses)?;
        return Ok((mv, Some(bytes[1] - b'0')));
    }
    Ok((parse_house_number(digits, houses)?, None))
}

/// Plays one move of the movetext, checking its end house and marks.
fn play_one(
    game: &mut Game,
    numbering: &mut Numbering,
    digits: &str,
    marks: &str,
    line: usize,
) -> Result<Played, Located> {
    let before = *game.position();
    let side = before.to_move();
    let context = MoveContext {
        line,
        number: numbering.next(side).number,
        side,
        ply: game.ply() + 1,
        text: format!("{digits}{marks}"),
    };
    let (mv, end) = read_move(digits, &before).map_err(|e| context.error(e))?;
    game.play(mv).map_err(|e| context.error(e))?;
    if let Some(written) = end {
        let actual = last_house(&before, mv);
        if actual != written {
            return Err(context.error(MoveProblem::WrongEnd { written, actual }));
        }
    }
    let (_, report) = before
        .play_with_report(mv)
        .expect("the game has just played it");
    let captured = report.captured > 0;
    let again = !game.is_over() && game.position().to_move() == side;
    for (i, mark) in marks.char_indices() {
        if marks[..i].contains(mark) {
            return Err(context.error(MoveProblem::RepeatedMark(mark)));
        }
        let why = match mark {
            'x' if !captured => "the move captures nothing",
            '+' if game.is_over() => "the game is over after it",
            '+' if !again => "the other player moves next",
            _ => continue,
        };
        return Err(context.error(MoveProblem::WrongMark { mark, why }));
    }
    Ok(Played { side, context })
}

/// The ending the tags and result give, checked against the moves.
fn resolve_ending(
    game: &Game,
    header: &Header,
    result: Option<(RecordResult, usize)>,
    last_line: usize,
) -> Result<Ending, Located> {
    let line_of = |at: Option<usize>| at.unwrap_or(last_line);
    let termination = header.termination;
    let Some(end) = game.end() else {
        if let Some((_, line)) = header.score {
            return Err((line, EndingProblem::ScoreWithoutEnd.into()));
        }
        let line = line_of(termination.map(|(_, l)| l).or(result.map(|(_, l)| l)));
        let result = result.map_or(RecordResult::Unknown, |(r, _)| r);
        return players_ending(termination.map(|(t, _)| t), result).map_err(|p| (line, p.into()));
    };
    if let Some((t, line)) = termination {
        let actual = end.reason.name();
        match t {
            Termination::Rules(name) if name == actual => {}
            Termination::Rules(written) => {
                let written = written.to_owned();
                let problem = EndingProblem::TerminationDisagrees { written, actual };
                return Err((line, problem.into()));
            }
            other => {
                let written = termination_name(other);
                return Err((line, EndingProblem::AlreadyOver { written, actual }.into()));
            }
        }
    }
    let actual = RecordResult::of_winner(end.outcome.winner);
    if let Some((written, line)) =
        result.filter(|&(r, _)| r != RecordResult::Unknown && r != actual)
    {
        let how = crate::EndText::new(&end, ["player 1", "player 2"]).headline;
        let problem = EndingProblem::ResultDisagrees {
            written,
            actual,
            how,
        };
        return Err((line, problem.into()));
    }
    if let Some((written, line)) = &header.score {
        if parse_score(written) != Some(end.outcome.scores) {
            let [a, b] = end.outcome.scores;
            let problem = EndingProblem::ScoreDisagrees {
                written: written.clone(),
                actual: format!("{a}-{b}"),
            };
            return Err((*line, problem.into()));
        }
    }
    Ok(Ending::Rules(end))
}

fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Rules(name) => name,
        Termination::Resignation => super::RESIGNATION,
        Termination::TimeForfeit => super::TIME_FORFEIT,
        Termination::Agreement => super::AGREEMENT,
        Termination::Unterminated => super::UNTERMINATED,
    }
}

/// The ending of a game the rules have not ended, from its termination and result.
fn players_ending(
    termination: Option<Termination>,
    result: RecordResult,
) -> Result<Ending, EndingProblem> {
    let does_not_fit = |t| EndingProblem::ResultDoesNotFit {
        termination: termination_name(t),
        result,
    };
    match (termination, result) {
        (None | Some(Termination::Unterminated), RecordResult::Unknown) => Ok(Ending::Unfinished),
        (None, result) => Err(EndingProblem::NeedsTermination(result)),
        (Some(Termination::Rules(name)), _) => Err(EndingProblem::NotEndedByRules(name.to_owned())),
        (Some(Termination::Resignation), RecordResult::Win(w)) => {
            Ok(Ending::Resigned(w.opponent()))
        }
        (Some(Termination::TimeForfeit), RecordResult::Win(w)) => {
            Ok(Ending::TimeForfeit(w.opponent()))
        }
        (Some(Termination::Agreement), RecordResult::Draw) => Ok(Ending::DrawAgreed),
        (Some(t), _) => Err(does_not_fit(t)),
    }
}

/// Checks an ending given for `game`: a game the rules have ended ends that way only.
pub(crate) fn check_ending(game: &Game, ending: Ending) -> Result<Ending, EndingProblem> {
    match (game.end(), ending) {
        (Some(end), Ending::Rules(e)) if e == end => Ok(ending),
        (Some(end), other) => Err(EndingProblem::AlreadyOver {
            written: other.termination(),
            actual: end.reason.name(),
        }),
        (None, Ending::Rules(e)) => Err(EndingProblem::NotEndedByRules(e.reason.name().to_owned())),
        (None, other) => Ok(other),
    }
}
