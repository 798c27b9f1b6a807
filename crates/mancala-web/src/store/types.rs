//! What the store keeps and hands out: games, moves, changes of state, the progress
//! of a game, and how long games are kept.

use std::sync::Arc;
use std::time::Duration;

use mancala_core::Rules;

use crate::state::PlayState;

/// Everything stored about one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id (public, in links).
    pub id: String,
    /// The game's rules (stored as one value: [`Rules::to_text`]).
    pub rules: Rules,
    /// `human`, or the spec of the computer player in seat 2.
    pub opponent: String,
    /// SHA-256 of each seat's token; seat 2 is `None` until someone joins (always for a
    /// computer opponent).
    pub token_hashes: [Option<[u8; 32]>; 2],
    /// Houses played, in order.
    pub moves: Vec<u8>,
    /// The rematch of this game, once one is started.
    pub rematch: Option<String>,
    /// The seat of this game (1 or 2) that started the rematch: it sits as player 1
    /// there, the other seat as player 2.
    pub rematch_by: Option<u8>,
    /// SHA-256 of the invite secret that lets a friend take seat 2 (`None` for a
    /// computer game, a rematch, and games stored before invites).
    pub invite_hash: Option<[u8; 32]>,
    /// When the game last changed (created, joined, a move), in milliseconds since the
    /// Unix epoch. Games stored before this was recorded count from the upgrade (the
    /// migration V3).
    pub activity_ms: i64,
    /// When the game ended, in milliseconds since the Unix epoch, if it has.
    pub finished_ms: Option<i64>,
    /// Names, first mover, stop, offer and clocks (the `play` column, V4).
    pub play: PlayState,
    /// How many times the game has changed (each move, offer, answer, stop, takeback,
    /// the start of its rematch):
    /// a change decided on one version is stored only if the game is still at it.
    pub version: u64,
    /// When the running clock falls, if one runs (milliseconds since the Unix epoch).
    pub deadline_ms: Option<i64>,
    /// The account holding each seat (its key: the username in lower case), if one
    /// does (V7).
    pub accounts: [Option<String>; 2],
    /// Whether the game counts for its players' ratings (V7).
    pub rated: bool,
    /// Once a rated game has been rated: the players' ratings before and after it, as
    /// [`crate::ratings::RatingChanges`] serialises.
    pub rating: Option<String>,
}

/// How long games are kept, by their state: the server's `--expire-*` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// A game where no move has been played yet (waiting for a friend, or nobody
    /// moved): kept this long after it was created or joined.
    pub unstarted: Duration,
    /// A game in progress: kept this long after its last move.
    pub idle: Duration,
    /// A finished game: kept this long after its end.
    pub finished: Duration,
}

impl Default for Expiry {
    /// A day to start, a week between moves, thirty days once over.
    fn default() -> Self {
        const DAY: u64 = 24 * 3600;
        Expiry {
            unstarted: Duration::from_secs(DAY),
            idle: Duration::from_secs(7 * DAY),
            finished: Duration::from_secs(30 * DAY),
        }
    }
}

/// `d` in milliseconds, saturating.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Expiry {
    /// When `row` expires, in milliseconds since the Unix epoch. A finished game with
    /// an account at a seat is kept: it is part of that player's history (and, rated,
    /// of their rating's).
    #[must_use]
    pub fn deadline_ms(&self, row: &GameRow) -> i64 {
        match row.finished_ms {
            Some(_) if row.accounts.iter().any(Option::is_some) => i64::MAX,
            Some(end) => end.saturating_add(millis(self.finished)),
            None if row.moves.is_empty() => row.activity_ms.saturating_add(millis(self.unstarted)),
            None => row.activity_ms.saturating_add(millis(self.idle)),
        }
    }

    /// The latest activity (or end) that has expired at `now_ms`, for each state:
    /// `(finished, idle, unstarted)`. A game expires when its time is at or before the
    /// cutoff of its state.
    pub(super) fn cutoffs(&self, now_ms: i64) -> (i64, i64, i64) {
        let cutoff = |d| now_ms.saturating_sub(millis(d));
        (
            cutoff(self.finished),
            cutoff(self.idle),
            cutoff(self.unstarted),
        )
    }
}

/// Milliseconds since the Unix epoch, now.
#[must_use]
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, millis)
}

/// A seat of a rematch as the store hands it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RematchSeat {
    /// The rematch's id.
    pub id: String,
    /// 1 or 2.
    pub seat: u8,
    /// Whether this request created the game or took the seat (false: the same player
    /// asked before and holds the seat already).
    pub fresh: bool,
}

/// The hash of the token of a rematch seat, given the rematch's id: the same every
/// time the same player asks (see [`super::Store::rematch`]).
pub type RematchToken = Arc<dyn Fn(&str) -> [u8; 32] + Send + Sync>;

/// Who is to move once a move is stored: the store keeps the computer's turn as owed
/// work in the same transaction as the move, and the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A person.
    Person,
    /// Nobody: the move ended the game.
    Nobody,
    /// The computer: this instance takes its turn, holding it for `lease`.
    Computer {
        /// How long the turn is held unless renewed.
        lease: Duration,
    },
}

/// A move to store: house `house` as ply `ply` (0-based: the moves before it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMove {
    /// The game's id.
    pub game: String,
    /// The ply it is played at.
    pub ply: usize,
    /// The house sown.
    pub house: u8,
    /// Who moves after it.
    pub next: Next,
    /// The game's state after it (clocks, the offer it clears), stored only if the
    /// game is still at the version the move was decided on; `None` keeps the state
    /// and checks no version.
    pub state: Option<StateUpdate>,
}

/// A game's new state beside its moves, decided on version `seen_version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateUpdate {
    /// The version the change was decided on.
    pub seen_version: u64,
    /// The new state.
    pub play: PlayState,
    /// When the running clock falls after the change, if one runs.
    pub deadline_ms: Option<i64>,
}

/// A change to a game that is not a move: an offer or its answer, a stop, a takeback,
/// or the computer's first turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateChange {
    /// The game's id.
    pub game: String,
    /// The new state, and the version it was decided on.
    pub update: StateUpdate,
    /// A takeback: the moves kept (those from this ply on are deleted).
    pub keep_plies: Option<usize>,
    /// Who is to move after the change: [`Next::Nobody`] ends the game,
    /// [`Next::Computer`] owes the computer a turn (held by this instance), and both
    /// others drop any computer turn owed.
    pub next: Next,
}

/// What became of a computer's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComputerCommit {
    /// Stored.
    Stored,
    /// Not stored: the ply is already played.
    PlyTaken,
    /// Not stored: this instance no longer holds the turn (its lease lapsed and another
    /// instance took it over).
    LeaseLost,
}

/// How far a game has come: compared field by field, of two states of a game the
/// later is the greater. Every move and change of state raises the version (a
/// takeback lowers the plies but raises the version), and so does the start of a
/// rematch; the taking of seat 2 and the rematch also raise their own flags. Expiry is
/// a game's last change, later than any other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Progress {
    /// The game has expired and is deleted (its live streams end).
    pub expired: bool,
    /// The game's [`GameRow::version`]: a takeback has fewer plies than the moves it
    /// took back, and a later version.
    pub version: u64,
    /// Moves played.
    pub plies: usize,
    /// Seat 2 is taken (by a person who joined, or by the computer).
    pub seat_2_taken: bool,
    /// A rematch is recorded.
    pub rematch: bool,
}

impl Progress {
    /// A game no longer stored: games are deleted only when they expire.
    pub const EXPIRED: Progress = Progress {
        expired: true,
        version: 0,
        plies: 0,
        seat_2_taken: false,
        rematch: false,
    };
}

/// A change made by another server instance, announced through the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// This game changed (a join, a move, a rematch) or expired.
    Game(String),
    /// Announcements may have been missed (the connection that listens was lost and is
    /// back): every game watched here may have changed.
    Resync,
}

/// A game's stored analysis: its JSON document and how many moves it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// The moves of the game the analysis covers.
    pub plies: usize,
    /// The document, as `mancala_engine::Analysis` serialises.
    pub document: String,
}

/// The public games of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Waiting for a friend to take seat 2 (the lobby).
    Open,
    /// Both seats held and not over (the games to watch).
    Playing,
}

impl Listing {
    /// The condition on `games g` (joined with `listings`) of the games in the list,
    /// the same SQL for both backends.
    pub(crate) fn condition(self) -> &'static str {
        match self {
            Listing::Open => "g.opponent = 'human' AND g.token2 IS NULL AND g.finished IS NULL",
            Listing::Playing => {
                "(g.opponent <> 'human' OR g.token2 IS NOT NULL) AND g.finished IS NULL"
            }
        }
    }
}
