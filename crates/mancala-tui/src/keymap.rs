//! The keys of a game, in one table: what each key does in each part of a game, and
//! how the help lists it. The app dispatches a key by looking it up here
//! ([`action`]) and the help screen lists the same table ([`ROWS`]), so a key cannot do
//! one thing and be documented as another. (The start screen's keys edit a form and
//! are said on the form itself.)

use ratatui::crossterm::event::KeyCode;

/// The part of a game a key is pressed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The game goes on.
    Play,
    /// The game is over, its result shown.
    End,
    /// A finished game is reviewed move by move.
    Review,
}

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Sow faster.
    Faster,
    /// Sow slower.
    Slower,
    /// Ask whether to quit.
    AskQuit,
    /// Show or hide the move list over the board.
    ToggleMoves,
    /// Scroll the move list back.
    ScrollBack,
    /// Scroll the move list on.
    ScrollOn,
    /// Take back the last turn.
    Undo,
    /// Replay a turn taken back.
    Redo,
    /// Ask for a hint.
    Hint,
    /// Save the game to a file.
    Save,
    /// Move the highlight along the row (the key says which way).
    Cursor,
    /// Sow the highlighted house.
    SowCursor,
    /// Space, which only skips a sowing: say so.
    SpaceNote,
    /// Forget the first digit of a two-digit house.
    ForgetDigit,
    /// Choose a house by its number or letter.
    House,
    /// Another game with the same players.
    NextGame,
    /// Swap the seats for the next game.
    SwapSeats,
    /// Back to the start screen.
    NewSetup,
    /// Quit at once.
    Quit,
    /// Put the result box away, or back, to see the final board.
    ToggleResult,
    /// At the end, `h`: say that the review shows the best moves.
    EndHint,
    /// Review the finished game.
    StartReview,
    /// The next move of the review.
    ReviewNext,
    /// The move before, in the review.
    ReviewBack,
    /// Ten moves on, in the review.
    ReviewTenOn,
    /// Ten moves back, in the review.
    ReviewTenBack,
    /// The review's first move.
    ReviewFirst,
    /// The review's last move.
    ReviewLast,
    /// Leave the review.
    LeaveReview,
}

impl Action {
    /// Whether the action is taken while seeds are being sown; any other key skips the
    /// sowing instead.
    #[must_use]
    pub fn during_sowing(self) -> bool {
        matches!(
            self,
            Action::Faster
                | Action::Slower
                | Action::AskQuit
                | Action::ToggleMoves
                | Action::ScrollBack
                | Action::ScrollOn
        )
    }
}

/// One row of the table: keys with their actions, and the line the help shows for them
/// (`label`, what they do).
#[derive(Debug)]
pub struct Row {
    /// The keys as the help writes them.
    pub label: &'static str,
    /// What they do, as the help says it; empty for a row the help leaves out (shown
    /// where it acts instead).
    pub help: &'static str,
    /// Each key, the part of the game where it acts, and what it does there.
    pub keys: &'static [(Mode, Keys, Action)],
}

/// The keys a binding answers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// One key.
    Key(KeyCode),
    /// A digit or a letter not bound otherwise: a house.
    Houses,
}

use Action as A;
use KeyCode as K;
use Keys::Key;
use Mode::{End, Play, Review};

const fn ch(c: char) -> Keys {
    Key(K::Char(c))
}

/// Every key of a game, in the order of the help.
pub const ROWS: &[Row] = &[
    Row {
        label: "1-9 0, letters",
        help: "choose a house (two digits on big boards)",
        keys: &[
            (Play, Keys::Houses, A::House),
            (Play, Key(K::Esc), A::ForgetDigit),
        ],
    },
    Row {
        label: "←→ Enter, click",
        help: "choose a house",
        keys: &[
            (Play, Key(K::Left), A::Cursor),
            (Play, Key(K::Right), A::Cursor),
            (Play, Key(K::Home), A::Cursor),
            (Play, Key(K::End), A::Cursor),
            (Play, Key(K::Enter), A::SowCursor),
            (Play, ch(' '), A::SpaceNote),
        ],
    },
    Row {
        label: "u r h",
        help: "undo, redo (by turns), a hint (the solver, else master)",
        keys: &[
            (Play, ch('u'), A::Undo),
            (End, ch('u'), A::Undo),
            (Play, ch('r'), A::Redo),
            (Play, ch('h'), A::Hint),
            (End, ch('h'), A::EndHint),
        ],
    },
    Row {
        label: "m  PgUp PgDn",
        help: "the move list over the board; scroll it (or wheel)",
        keys: &[
            (Play, ch('m'), A::ToggleMoves),
            (End, ch('m'), A::ToggleMoves),
            (Play, Key(K::PageUp), A::ScrollBack),
            (End, Key(K::PageUp), A::ScrollBack),
            (Play, Key(K::PageDown), A::ScrollOn),
            (End, Key(K::PageDown), A::ScrollOn),
        ],
    },
    Row {
        label: "+ -",
        help: "sowing speed; any other key skips a sowing",
        keys: &[
            (Play, ch('+'), A::Faster),
            (Play, ch('='), A::Faster),
            (Play, ch('-'), A::Slower),
            (Play, ch('_'), A::Slower),
        ],
    },
    Row {
        label: "w  v",
        help: "save the game (tui --load FILE); at the end, the board",
        keys: &[
            (Play, ch('w'), A::Save),
            (End, ch('w'), A::Save),
            (End, ch('v'), A::ToggleResult),
            (End, ch('V'), A::ToggleResult),
            (End, Key(K::Tab), A::ToggleResult),
        ],
    },
    // The result box lists these on its own keys line; the help leaves them out.
    Row {
        label: "y f s",
        help: "",
        keys: &[
            (End, ch('y'), A::NextGame),
            (End, ch('Y'), A::NextGame),
            (End, ch('f'), A::SwapSeats),
            (End, ch('F'), A::SwapSeats),
            (End, ch('s'), A::NewSetup),
            (End, ch('S'), A::NewSetup),
        ],
    },
    Row {
        label: "a  ←→",
        help: "at the end: review each move (its label, the best)",
        keys: &[
            (End, ch('a'), A::StartReview),
            (End, ch('A'), A::StartReview),
            (Review, Key(K::Right), A::ReviewNext),
            (Review, Key(K::Down), A::ReviewNext),
            (Review, Key(K::Enter), A::ReviewNext),
            (Review, ch(' '), A::ReviewNext),
            (Review, Key(K::Left), A::ReviewBack),
            (Review, Key(K::Up), A::ReviewBack),
            (Review, Key(K::Backspace), A::ReviewBack),
            (Review, Key(K::PageDown), A::ReviewTenOn),
            (Review, Key(K::PageUp), A::ReviewTenBack),
            (Review, Key(K::Home), A::ReviewFirst),
            (Review, Key(K::End), A::ReviewLast),
            (Review, ch('a'), A::LeaveReview),
            (Review, ch('A'), A::LeaveReview),
            (Review, ch('q'), A::LeaveReview),
            (Review, ch('Q'), A::LeaveReview),
            (Review, Key(K::Esc), A::LeaveReview),
        ],
    },
    Row {
        label: "q  Ctrl-C  Ctrl-Z",
        help: "quit (asks), quit now, suspend (fg resumes)",
        keys: &[
            (Play, ch('q'), A::AskQuit),
            (End, ch('q'), A::Quit),
            (End, ch('Q'), A::Quit),
            (End, ch('n'), A::Quit),
            (End, ch('N'), A::Quit),
            (End, Key(K::Esc), A::Quit),
        ],
    },
];

/// What `code` does in `mode`, if anything: a key of its own, else (in play) a digit
/// or letter chooses a house.
#[must_use]
pub fn action(mode: Mode, code: KeyCode) -> Option<Action> {
    let bindings = || ROWS.iter().flat_map(|row| row.keys.iter());
    let bound = bindings().find(|&&(m, keys, _)| m == mode && keys == Key(code));
    if let Some(&(_, _, action)) = bound {
        return Some(action);
    }
    let house_key = matches!(code, K::Char(c) if c.is_ascii_alphanumeric());
    bindings()
        .find(|&&(m, keys, _)| m == mode && keys == Keys::Houses && house_key)
        .map(|&(_, _, action)| action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_does_one_thing_in_each_part_of_a_game() {
        let all: Vec<_> = ROWS.iter().flat_map(|row| row.keys.iter()).collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(
                    !(a.0 == b.0 && a.1 == b.1),
                    "{:?} {:?} is bound twice: {:?} and {:?}",
                    a.0,
                    a.1,
                    a.2,
                    b.2
                );
            }
        }
    }

    #[test]
    fn keys_of_their_own_come_before_houses_and_space_never_sows() {
        assert_eq!(action(Play, K::Char('u')), Some(A::Undo));
        assert_eq!(action(Play, K::Char('c')), Some(A::House));
        assert_eq!(action(Play, K::Char('7')), Some(A::House));
        assert_eq!(action(Play, K::Char(' ')), Some(A::SpaceNote));
        assert_eq!(action(End, K::Char('c')), None);
        assert_eq!(action(Review, K::Char('q')), Some(A::LeaveReview));
        assert_eq!(action(End, K::Char('q')), Some(A::Quit));
        assert_eq!(action(Play, K::Char('q')), Some(A::AskQuit));
    }
}
