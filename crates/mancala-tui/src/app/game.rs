//! A game on screen: the session with its computer players, the sowing shown, the
//! cursor and the message line, and what playing a move does to them.

use std::time::{Duration, Instant};

use mancala_core::{IllegalMove, Move, Outcome, Pit, Side, SowStep};
use mancala_engine::{AnalysisProgress, Choice, Label, Player};
use mancala_match::Seated;
use mancala_session::{EndText, MoveRecord, Seat, Session};
use ratatui::crossterm::event::KeyCode;

use super::review::Verdict;
use super::view::{Animation, BoardView, Message, MessageKind};
use crate::setup::Setup;
use mancala_session::{house_label, house_letter};

/// Names are shown in at most this many columns, cut with "…" beyond: as many as the
/// start screen lets a name have characters, so a name typed there in Latin letters
/// shows whole. (The move list, in columns, shows ten.)
pub const NAME_SHOWN: usize = 16;

/// The computer players of both seats, player 1's first (the suite's players or
/// external engines): `None` for a person, and while the player is away thinking.
pub(crate) type Players = [Option<Seated>; 2];

/// A game on screen: the session, its computer players, and what is shown.
pub struct GameState {
    /// The settings it was started with.
    pub setup: Setup,
    /// The game itself.
    pub session: Session,
    /// The players' names as shown: cut to [`NAME_SHOWN`] columns.
    pub(crate) shown_names: [String; 2],
    /// The result of the game the last time it ended, counted in the running score
    /// from then on (an undo after the end does not take it back).
    pub(crate) result: Option<Outcome>,
    /// The computer players.
    pub(crate) players: Players,
    /// The player that suggests moves (`None` until the first hint, and while it is
    /// thinking): built when first asked, since its solver keeps a table.
    pub(crate) hinter: Option<Box<dyn Player>>,
    /// Which game this is, so that replies for an earlier game are dropped.
    pub(crate) game_id: u64,
    /// Changes on every undo and redo, so that replies for a position left are dropped.
    pub(crate) epoch: u64,
    /// The computer's move, chosen and waiting for the animation before it to end.
    pub(crate) choice: Option<(u64, usize, Choice)>,
    /// What to say about the computer's move of this ply beyond what it did: that
    /// `perfect` could not solve the position and another player chose.
    pub(crate) played_note: Option<(usize, String)>,
    /// A hint asked for and not answered yet.
    pub hint_pending: bool,
    /// Not before this time does the computer play (a pause after each move).
    pub(crate) computer_at: Instant,
    /// The house the arrow keys select, for the person to move.
    pub cursor: u8,
    /// The sowing on screen, if any.
    pub anim: Option<Animation>,
    /// The latest message: what the last move did, or the answer to the last key.
    pub message: Message,
    /// What the moves did and how the game ended, oldest first: the lines above the
    /// latest message, so one player's capture stays in view after the other moves.
    pub log: Vec<Message>,
    /// The move list is shown over the board (`m`), for terminals without room beside.
    pub moves_shown: bool,
    /// How many lines the move list is scrolled back from the latest move.
    pub moves_scroll: usize,
    /// The quit question is open.
    pub confirm_quit: bool,
    /// The end-of-game box is put away, so the whole final board shows.
    pub result_hidden: bool,
    /// The players swap seats for the next game (`f` at the end changes it), so the
    /// other one moves first.
    pub swap_next: bool,
    /// A first digit typed on a board of ten or more houses.
    pub digit: Option<u8>,
    /// The finished game under review (`a` at the end), with its analysis.
    pub review: Option<super::Review>,
    /// An external engine's forfeit that came while a sowing was shown: the seat is
    /// handed over once the sowing ends.
    pub(crate) pending_forfeit: Option<(Side, String)>,
    /// A save failed: the directory to save in is being typed.
    pub save_to: Option<super::records::SaveTo>,
    /// The moves the game had when it was last saved (`None`: never saved).
    pub saved_plies: Option<usize>,
}

impl GameState {
    /// The board as drawn now: a moment of the sowing on screen, the final board with
    /// the last seeds swept into the stores (so they show the score), or the position.
    #[must_use]
    pub fn board(&self) -> BoardView {
        if let Some(review) = &self.review {
            return self.review_board(review);
        }
        match (&self.anim, self.session.end()) {
            (Some(a), _) => a.board(),
            (None, Some(end)) => BoardView::finished(self.session.position(), &end),
            (None, None) => BoardView::of(self.session.position()),
        }
    }

    /// Under review: the position before the move shown, the house played marked as
    /// where a sowing starts, and the best houses once the analysis is done.
    fn review_board(&self, review: &super::Review) -> BoardView {
        let Some(record) = self.session.records().get(review.ply) else {
            return BoardView::of(self.session.position());
        };
        let mut b = BoardView::of(&record.before);
        b.origin = Some(Pit::House {
            side: record.side,
            house: record.mv.house(),
        });
        if let Some(entry) = review.entry() {
            b.best = entry
                .best
                .iter()
                .map(|&house| Pit::House {
                    side: record.side,
                    house,
                })
                .collect();
        }
        b
    }

    /// Puts what the review knows of the move shown on the message line: the analysis's
    /// progress while it is computed, then the move's label and the best move.
    pub(crate) fn show_review(&mut self) {
        let Some(review) = &self.review else {
            return;
        };
        let Some(record) = self.session.records().get(review.ply) else {
            return;
        };
        let (side, of) = (record.side, review.plies);
        let Some(entry) = review.entry() else {
            let text = match review.progress {
                Some(AnalysisProgress::Positions { done, of, exact }) => format!(
                    "Analysing the game: {done} of {of} positions valued, {exact} exactly..."
                ),
                _ => "Analysing the game (building the endgame table first)...".to_owned(),
            };
            self.message = Message::info(text);
            return;
        };
        let others: Vec<String> = (entry.best.iter())
            .filter(|&&h| h != entry.played)
            .map(|&h| self.label(side, h))
            .collect();
        let about = if entry.exact { "" } else { "about " };
        let head = format!(
            "Move {} of {of}: {} played {}",
            review.ply + 1,
            self.name(side),
            self.label(side, entry.played)
        );
        let verdict = Verdict::of(entry);
        let word = match verdict {
            Verdict::Label(label) => label.name(),
            Verdict::Unclear => "unclear",
        };
        let text = match (verdict, others.is_empty()) {
            (Verdict::Label(Label::Best), true) => {
                format!("{head}, the best: {about}{:+}.", entry.value_best)
            }
            (Verdict::Label(Label::Best), false) => format!(
                "{head}, a best move: {about}{:+}, as {} too.",
                entry.value_best,
                others.join(" or ")
            ),
            (Verdict::Unclear, _) => format!(
                "{head}, unclear: {about}{:+} where {} keeps {about}{:+}, within what \
                 estimates may be off by.",
                entry.value_played,
                others.join(" or "),
                entry.value_best
            ),
            _ => format!(
                "{head}, {word}: {about}{:+} where {} keeps {about}{:+}.",
                entry.value_played,
                others.join(" or "),
                entry.value_best
            ),
        };
        let kind = match verdict {
            Verdict::Label(Label::Best | Label::Good) => MessageKind::Good,
            Verdict::Label(Label::Inaccuracy) | Verdict::Unclear => MessageKind::Info,
            Verdict::Label(Label::Mistake | Label::Blunder) => MessageKind::Warning,
        };
        self.message = Message::new(kind, text);
    }

    /// Whether the game is over and its last sowing has been shown.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.session.is_over() && self.anim.is_none()
    }

    /// Whether a computer player is choosing a move (and nothing is being sown).
    #[must_use]
    pub fn thinking(&self) -> Option<Side> {
        if self.anim.is_some() {
            return None;
        }
        self.session.computer_to_move().map(|(side, _)| side)
    }

    /// Whether a person is to move and may move now.
    #[must_use]
    pub fn awaiting_human(&self) -> bool {
        self.anim.is_none() && self.session.human_to_move()
    }

    /// The letter and number of `side`'s house `house`, e.g. `c3`.
    #[must_use]
    pub fn label(&self, side: Side, house: u8) -> String {
        house_label(side, house, self.session.rules().houses())
    }

    /// `side`'s name as shown: cut to [`NAME_SHOWN`] columns with "…".
    pub(crate) fn name(&self, side: Side) -> &str {
        &self.shown_names[side.index()]
    }

    /// How the game ended, in the session's words, with the names as shown.
    #[must_use]
    pub fn end_text(&self) -> Option<EndText> {
        let names = [self.name(Side::South), self.name(Side::North)];
        match self.session.stopped() {
            Some(stop) => Some(EndText::stopped(stop, names)),
            None => self.session.end().map(|end| EndText::new(&end, names)),
        }
    }

    pub(crate) fn any_human(&self) -> bool {
        self.session.seats().iter().any(Seat::is_human)
    }

    /// Puts the cursor on a legal house of the person to move, keeping it if it is one.
    pub(crate) fn fix_cursor(&mut self) {
        let legal = self.session.legal_moves();
        if !legal.iter().any(|m| m.house() == self.cursor) {
            if let Some(first) = legal.first() {
                self.cursor = first.house();
            }
        }
    }

    /// The move `house` names for the person to move, or what to tell them instead.
    /// `side` is the row the key named (letters name a row, numbers the mover's).
    pub(crate) fn human_move(
        &self,
        mover: Side,
        side: Option<Side>,
        house: u8,
    ) -> Result<Move, String> {
        if !self.session.human_to_move() {
            return Err(format!("Wait for {}: it is their turn.", self.name(mover)));
        }
        let houses = self.session.rules().houses();
        if let Some(side) = side.filter(|&s| s != mover) {
            let (lo, hi) = (
                house_label(mover, 1, houses),
                house_label(mover, houses as u8, houses),
            );
            return Err(format!(
                "House {} is {}'s. {}, choose one of yours ({lo} to {hi}).",
                house_label(side, house, houses),
                self.name(side),
                self.name(mover)
            ));
        }
        let mv = mancala_session::house_number(u64::from(house), houses)
            .map_err(|e| sentence(&e.to_string()))?;
        self.session
            .position()
            .check(mv)
            .map(|()| mv)
            .map_err(|e| self.illegal_text(mover, house, e))
    }

    fn illegal_text(&self, mover: Side, house: u8, e: IllegalMove) -> String {
        let label = self.label(mover, house);
        match e {
            IllegalMove::EmptyHouse { .. } => {
                format!("House {label} is empty: choose a house with seeds.")
            }
            IllegalMove::MustFeed { .. } => format!(
                "House {label} gives {} no seeds, and they have none: feed them.",
                self.name(mover.opponent())
            ),
            other => other.to_string(),
        }
    }

    /// How to choose a house, for messages.
    pub(crate) fn key_help(&self) -> String {
        let houses = self.session.rules().houses();
        let side = self.session.to_move().unwrap_or(Side::South);
        let (letters, note) = letter_keys(side, houses);
        let note = note.map(|n| format!(" ({n})")).unwrap_or_default();
        format!(
            "choose a house with the arrows and Enter, 1-{houses}, {letters}{note}, or a click."
        )
    }

    /// Scrolls the move list `delta` lines back (negative: towards the latest move).
    pub(crate) fn scroll_moves(&mut self, delta: isize) {
        let shown = usize::from(crate::layout::LIST_ROWS);
        let most = self.session.records().len().saturating_sub(shown);
        self.moves_scroll = self.moves_scroll.saturating_add_signed(delta).min(most);
    }

    /// After undo or redo: no sowing on screen, replies for the old position dropped,
    /// and no message left that describes a move taken back.
    pub(crate) fn after_jump(&mut self, now: Instant) {
        self.log.clear();
        self.anim = None;
        self.epoch += 1;
        self.choice = None;
        self.digit = None;
        self.computer_at = now;
        self.result_hidden = false;
        self.fix_cursor();
        if let Some((side, why)) = self.pending_forfeit.take() {
            super::thinker::hand_over(self, side, &why);
        }
    }

    /// Moves the cursor along the mover's legal houses as the row runs on screen.
    pub(crate) fn move_cursor(&mut self, code: KeyCode) {
        let Some(side) = self.session.to_move() else {
            return;
        };
        let legal: Vec<u8> = self
            .session
            .legal_moves()
            .iter()
            .map(|m| m.house())
            .collect();
        let (Some(&first), Some(&last)) = (legal.first(), legal.last()) else {
            return;
        };
        // Player 1's row runs left to right on screen, player 2's right to left.
        let rightwards_up = side == Side::South;
        let (leftmost, rightmost) = if rightwards_up {
            (first, last)
        } else {
            (last, first)
        };
        let cursor = self.cursor;
        let next = match code {
            KeyCode::Right | KeyCode::Left if (code == KeyCode::Right) == rightwards_up => {
                legal.iter().copied().find(|&h| h > cursor)
            }
            KeyCode::Right | KeyCode::Left => legal.iter().copied().rev().find(|&h| h < cursor),
            KeyCode::End => Some(rightmost),
            _ => Some(leftmost),
        };
        if let Some(h) = next {
            self.cursor = h;
        }
    }

    /// Plays `mv` and starts showing its sowing.
    pub(crate) fn play(&mut self, mv: Move, now: Instant, step: Duration) {
        let record = match self.session.play(mv) {
            Ok(r) => r.clone(),
            Err(e) => {
                self.message = Message::warning(e.to_string());
                return;
            }
        };
        // The status line says who sows; the message line waits for what the move did.
        self.message = Message::info("");
        self.choice = None;
        self.anim = Some(Animation {
            record,
            shown: 0,
            next_at: now + step,
        });
    }

    /// Shows the sowing's steps that are due by `now`, ending it when all are shown;
    /// returns whether it showed anything new.
    pub(crate) fn advance_animation(&mut self, now: Instant, step: Duration) -> bool {
        let Some(a) = &mut self.anim else {
            return false;
        };
        let mut changed = false;
        while now >= a.next_at {
            changed = true;
            if a.shown < a.record.sowing.len() {
                a.shown += 1;
                a.next_at += step;
            } else {
                self.finish_animation(now, step);
                break;
            }
        }
        changed
    }

    /// Ends the sowing on screen and announces what the move did.
    pub(crate) fn finish_animation(&mut self, now: Instant, step: Duration) {
        let Some(anim) = self.anim.take() else {
            return;
        };
        self.message = self.announce(&anim.record);
        self.log.push(self.message.clone());
        if let Some(words) = self.end_text() {
            self.message = Message::new(MessageKind::Good, words.reason_sentence());
            self.log.push(self.message.clone());
        }
        // The game counts in the running score as soon as it ends.
        if let Some(outcome) = self.session.outcome() {
            self.result = Some(outcome);
        }
        self.computer_at = now + step * 3;
        self.fix_cursor();
        if let Some((side, why)) = self.pending_forfeit.take() {
            super::thinker::hand_over(self, side, &why);
        }
    }

    /// What the move `r` did, in words: captures (and a house claimed), an extra
    /// turn, or just the house sown; the seeds claimed houses took; and a repetition that
    /// ended the game.
    fn announce(&self, r: &MoveRecord) -> Message {
        let name = self.name(r.side);
        let mut text = Vec::new();
        let mut kind = MessageKind::Info;
        if r.report.captured > 0 {
            kind = MessageKind::Capture;
            text.push(self.capture_text(r));
        }
        let over = self.session.is_over() && r.ply + 1 == self.session.records().len();
        if r.report.ended_in_store && !over {
            if kind != MessageKind::Capture {
                kind = MessageKind::Good;
            }
            text.push(format!("{name} gets an extra turn!"));
        }
        if text.is_empty() {
            text.push(format!(
                "{name} sowed house {}.",
                self.label(r.side, r.mv.house())
            ));
        }
        for owner in [r.side, r.side.opponent()] {
            let n = r.claim_seeds(owner);
            if n > 0 {
                let owner = self.name(owner);
                text.push(format!(
                    "{n} seed{} fell into {owner}'s {}.",
                    plural(n.into()),
                    r.claim_word()
                ));
            }
        }
        if let Some((_, note)) = self.played_note.as_ref().filter(|(ply, _)| *ply == r.ply) {
            text.push(note.clone());
        }
        if self.session.game().ended_by_repetition() {
            text.push("The position came round again: the game is over.".to_owned());
        }
        Message::new(kind, text.join(" "))
    }

    fn capture_text(&self, r: &MoveRecord) -> String {
        let name = self.name(r.side);
        let n = r.report.captured;
        let mut pits: Vec<String> = r
            .sowing
            .iter()
            .filter_map(|s| match *s {
                SowStep::Capture { pit, .. } => Some(self.pit_label(pit)),
                _ => None,
            })
            .collect();
        if r.before.variant().info().stores {
            // As the classic homework of games with stores says it: the opponent's
            // house first.
            pits.reverse();
            format!(
                "{name} captured the contents of houses {}: {n} seeds!",
                pits.join(" and ")
            )
        } else if let Some(t) = r.claimed_house() {
            let house = self.label(r.side.opponent(), t.house());
            let word = r.claim_word();
            format!("{name} captured {n} seeds from house {house}: {name}'s {word} now!")
        } else {
            format!(
                "{name} captured {n} seeds from house{} {}!",
                plural(pits.len()),
                pits.join(", ")
            )
        }
    }

    fn pit_label(&self, pit: Pit) -> String {
        match pit {
            Pit::House { side, house } => self.label(side, house),
            Pit::Store(_) => "store".to_owned(),
        }
    }
}

/// Letters that are keys of their own in a game (hint, the move list, quit, redo,
/// undo, save), so they cannot name a house by themselves.
pub const COMMAND_LETTERS: [(char, &str); 6] = [
    ('h', "hint"),
    ('m', "moves"),
    ('q', "quit"),
    ('r', "redo"),
    ('u', "undo"),
    ('w', "save"),
];

/// The letters of `side`'s houses as ranges ("g-l", or "q-z, A-F" on big boards), and
/// a note on how to choose the houses whose letters are commands ("h is hint: type H
/// or 2 for h2"), if any are.
#[must_use]
pub fn letter_keys(side: Side, houses: usize) -> (String, Option<String>) {
    let labelled: Vec<(u8, char)> = (1..=houses as u8)
        .filter_map(|h| house_letter(side, h, houses).map(|c| (h, c)))
        .collect();
    let mut runs: Vec<(char, char)> = Vec::new();
    for &(_, c) in &labelled {
        match runs.last_mut() {
            Some((_, last)) if u32::from(*last) + 1 == u32::from(c) => *last = c,
            _ => runs.push((c, c)),
        }
    }
    let ranges: Vec<String> = runs
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let taken: Vec<(u8, char, &str)> = labelled
        .iter()
        .filter_map(|&(h, c)| {
            let command = COMMAND_LETTERS.iter().find(|(k, _)| *k == c)?;
            Some((h, c, command.1))
        })
        .collect();
    // Capitals name the same houses as small letters on boards of up to 13 houses a
    // side; on bigger ones they are letters of their own, and only numbers are left.
    let capitals = 2 * houses <= 26;
    let note = match taken.as_slice() {
        [] => None,
        [(h, c, what)] if capitals => Some(format!(
            "{c} is {what}: type {} or {h} for {c}{h}",
            c.to_ascii_uppercase()
        )),
        [(h, c, what)] => Some(format!("{c} is {what}: type {h} for {c}{h}")),
        more => {
            let letters: Vec<String> = more.iter().map(|(_, c, _)| c.to_string()).collect();
            let how = if capitals {
                "capitals or numbers"
            } else {
                "the numbers"
            };
            Some(format!("{} are commands: type {how}", letters.join(", ")))
        }
    };
    (ranges.join(", "), note)
}

/// The short form of [`letter_keys`]'s note, for a narrow terminal: how to choose
/// the houses whose letters are commands ("H for h", "M Q R for m q r", or on big
/// boards "numbers for m q r"), if any are.
///
/// ```
/// use mancala_core::Side;
/// use mancala_tui::short_letter_note;
/// assert_eq!(short_letter_note(Side::North, 9).as_deref(), Some("M Q R for m q r"));
/// assert_eq!(short_letter_note(Side::South, 6), None);
/// ```
#[must_use]
pub fn short_letter_note(side: Side, houses: usize) -> Option<String> {
    let taken: Vec<char> = (1..=houses as u8)
        .filter_map(|h| house_letter(side, h, houses))
        .filter(|c| COMMAND_LETTERS.iter().any(|(k, _)| k == c))
        .collect();
    if taken.is_empty() {
        return None;
    }
    let join =
        |cs: &mut dyn Iterator<Item = char>| cs.map(String::from).collect::<Vec<_>>().join(" ");
    let small = join(&mut taken.iter().copied());
    // As in `letter_keys`: capitals name houses on boards of up to 13 a side.
    if 2 * houses <= 26 {
        let capitals = join(&mut taken.iter().map(char::to_ascii_uppercase));
        Some(format!("{capitals} for {small}"))
    } else {
        Some(format!("numbers for {small}"))
    }
}

/// What to tell players about a computer's choice, from its reason: only a fallback
/// (`perfect` could not solve the position, so the `expert` level chose), since a
/// player that plays worse than its name says should say so. Short, to fit the
/// message line beside the move.
#[must_use]
pub fn fallback_note(reason: &str) -> Option<String> {
    reason
        .contains("(not perfect play")
        .then(|| "(Perfect could not solve this position: expert play instead.)".to_owned())
}

/// "s" after a count other than one.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `text` as a sentence: a capital first letter and a full stop.
fn sentence(text: &str) -> String {
    let mut c = text.chars();
    let first = c.next().map(|f| f.to_uppercase().collect::<String>());
    format!("{}{}.", first.unwrap_or_default(), c.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_keys_give_ranges_and_the_way_around_commands() {
        use mancala_core::Side;
        assert_eq!(letter_keys(Side::South, 6), ("a-f".to_owned(), None));
        let (letters, note) = letter_keys(Side::North, 6);
        assert_eq!(letters, "g-l");
        assert_eq!(note.as_deref(), Some("h is hint: type H or 2 for h2"));
        assert_eq!(letter_keys(Side::North, 16).0, "q-z, A-F");
    }

    #[test]
    fn fallback_note_only_for_a_fallback() {
        let why = "captures 3 (not perfect play: the position could not be solved in 10 ms, so the alphabeta player chose)";
        assert_eq!(
            fallback_note(why).unwrap(),
            "(Perfect could not solve this position: expert play instead.)"
        );
        assert_eq!(fallback_note("is perfect play: it leads to a draw"), None);
    }
}
