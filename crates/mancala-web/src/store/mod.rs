//! Durable storage of games: one interface, [`GameStore`], with two implementations.
//!
//! ```text
//! mod.rs       the interface, the shared types, and Store (whichever backend runs)
//! sqlite.rs    SQLite (rusqlite): the embedded default, one server instance
//! postgres.rs  PostgreSQL (tokio-postgres + deadpool): several instances, one database
//! accounts.rs  accounts, their credentials and ratings: AccountStore, implemented in
//!              sqlite_accounts.rs and postgres_accounts.rs
//! probe.rs     the operator's questions: schema version, games in progress, pool use
//! migrations/{sqlite,postgres}/V<n>__<name>.sql   versioned schemas (refinery), run at
//!              start-up; V1 is the schema of the releases before migrations, V3 adds
//!              what the web hardening (invites, idempotent rematches, expiry) keeps,
//!              V4 the play state (names, first mover, stop, offer, clocks), the
//!              game's version and its clock's deadline,
//!              V5 the public games (the lobby, the games to watch),
//!              V6 the analyses of finished games and the claims of their jobs,
//!              V7 accounts, their credentials and ratings, and each seat's account
//! ```
//!
//! A released migration is never edited (its checksum is recorded in the database, and
//! a changed one stops the server): a schema change is a new `V<n+1>` file for each
//! backend, listed in that backend's `MIGRATIONS`.
//!
//! Games are kept as long as [`Expiry`] says: each records when it last changed and
//! when it ended, and [`GameStore::expire`] deletes those past their time (run by one
//! instance per period, through the `expiry` timer).
//!
//! A move is one row keyed by `(game, ply)`, so two requests racing for the same ply
//! cannot both be stored, whichever instance takes them: the database lets exactly one
//! in. Every write is committed before the server acknowledges it.
//!
//! Every change to a game is announced to the other instances (PostgreSQL: NOTIFY right
//! after the change commits), so that their live streams follow.
//!
//! Work that exactly one instance must do is coordinated through the database too: a
//! computer's move is owed while its game has a row in `computer_turns`, and the
//! instance that thinks holds that row's lease (renewed while it thinks, taken over by
//! another instance once it lapses); periodic jobs fire through the `timers` table.

mod accounts;
mod checkpoint;
mod postgres;
mod postgres_accounts;
mod probe;
mod sqlite;
mod sqlite_accounts;

use std::future::Future;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use rand::TryRngCore;
use tokio::sync::mpsc;

pub use accounts::{Account, AccountStore, CredentialInfo, CredentialKind, Page, PairCap, Ranked};
pub use postgres::PostgresStore;
pub use probe::{PoolUse, Probe, Schema};
pub use sqlite::SqliteStore;

use crate::ratings::{Rating, RatingChanges, Score};
use crate::state::PlayState;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL said no, or the connection failed.
    #[error("database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// No connection could be taken from the pool.
    #[error("database connection pool: {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    /// A schema migration failed.
    #[error("database migration: {0}")]
    Migration(#[from] refinery::Error),
    /// `--db` names no database this server can use.
    #[error("{0}")]
    Location(String),
    /// A stored row could not be understood.
    #[error("database holds a bad row: {0}")]
    Corrupt(String),
    /// A blocking database task panicked.
    #[error("database task failed: {0}")]
    Task(String),
}

impl StoreError {
    /// Whether the database cannot be reached at the moment (a connection refused,
    /// lost or not to be had from the pool, a server shutting down or starting, a
    /// database locked), as opposed to a request it refused or a fault: the request
    /// may be made again in a moment, and nothing of it was stored.
    ///
    /// ```
    /// use mancala_web::StoreError;
    /// assert!(!StoreError::Corrupt("a bad row".into()).is_unavailable());
    /// ```
    #[must_use]
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Pool(deadpool_postgres::PoolError::Backend(e))
            | StoreError::Postgres(e) => postgres_unavailable(e),
            StoreError::Pool(_) => true,
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ),
            _ => false,
        }
    }
}

/// A PostgreSQL error that says the server is not there: the connection is closed or
/// failed (no error from the server itself), or the server is shutting down or not
/// yet accepting connections (SQLSTATE class 57P: operator intervention; 08:
/// connection exception).
fn postgres_unavailable(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        Some(code) => {
            let code = code.code();
            code.starts_with("57P") || code.starts_with("08")
        }
        None => e.as_db_error().is_none(),
    }
}

/// Everything stored about one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id (public, in links).
    pub id: String,
    /// Variant name, as `Variant`'s `Display`.
    pub variant: String,
    /// Houses per side.
    pub houses: u8,
    /// Seeds per house.
    pub seeds: u8,
    /// Kalah: capture from an empty opposite house.
    pub empty_capture: bool,
    /// Kalah end rule name.
    pub end_rule: String,
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
    fn cutoffs(&self, now_ms: i64) -> (i64, i64, i64) {
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
/// time the same player asks (see [`GameStore::rematch`]).
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

/// Where the games live, as `--db` or `DATABASE_URL` names it: a path or a `sqlite:`
/// URL for SQLite, a `postgres://` or `postgresql://` URL for PostgreSQL. Any other
/// `scheme://` is an error rather than a file name.
///
/// ```
/// use mancala_web::DbLocation;
/// let pg: DbLocation = "postgres://mancala@db.internal/mancala".parse().unwrap();
/// assert!(matches!(pg, DbLocation::Postgres(_)));
/// let file: DbLocation = "sqlite:///var/lib/mancala/games.sqlite".parse().unwrap();
/// assert_eq!(file, DbLocation::Sqlite("/var/lib/mancala/games.sqlite".into()));
/// assert!("mysql://db/mancala".parse::<DbLocation>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbLocation {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL.
    Postgres(String),
}

impl FromStr for DbLocation {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<DbLocation, StoreError> {
        if let Some(rest) = s.strip_prefix("sqlite:") {
            let path = rest.strip_prefix("//").unwrap_or(rest);
            if path.is_empty() {
                return Err(StoreError::Location(format!("{s}: no file named")));
            }
            return Ok(DbLocation::Sqlite(path.into()));
        }
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            return Ok(DbLocation::Postgres(s.to_owned()));
        }
        if let Some((scheme, _)) = s.split_once("://") {
            let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
            if is_scheme {
                return Err(StoreError::Location(format!(
                    "{s}: unknown database URL scheme {scheme}:// \
                     (a file path, sqlite:PATH or postgres://USER@HOST/DB)"
                )));
            }
        }
        if s.is_empty() {
            return Err(StoreError::Location("an empty database path".into()));
        }
        Ok(DbLocation::Sqlite(s.into()))
    }
}

impl std::fmt::Display for DbLocation {
    /// The location for logs: a PostgreSQL URL without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbLocation::Sqlite(path) => write!(f, "SQLite {}", path.display()),
            DbLocation::Postgres(url) => write!(f, "PostgreSQL {}", postgres::redacted(url)),
        }
    }
}

/// Settings of a store that are not part of its location.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// PostgreSQL: connections in this instance's pool.
    pub max_connections: usize,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            max_connections: 16,
        }
    }
}

/// What a games database does, whichever it is. The game service speaks only this.
///
/// The owed-work methods act for this server instance ([`GameStore::instance`]): a turn
/// taken is held in its name.
pub trait GameStore: Send + Sync {
    /// This server instance's name in the database (random per start).
    fn instance(&self) -> &str;

    /// Whether this instance is the only one writing to the database (SQLite: one
    /// instance per file), so that the game it last stored is the game as stored,
    /// unless its own other requests changed it since. The move path then plays on its
    /// own copy instead of reading the game again (see `moves`).
    fn sole_writer(&self) -> bool {
        false
    }

    /// Stores a new game with no moves.
    fn create(&self, game: &GameRow) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The game with this id and its moves, if it exists.
    fn load(&self, id: &str) -> impl Future<Output = Result<Option<GameRow>, StoreError>> + Send;

    /// Gives seat 2 to the holder of `token_hash` (playing for `account`, if given) if
    /// it is free (the game's activity is now); `false` if taken, or if the game is
    /// rated and no account was given. Whether the joiner brought the invite is the
    /// caller's check, against [`GameRow::invite_hash`].
    fn claim_seat_2(
        &self,
        id: &str,
        token_hash: [u8; 32],
        account: Option<&str>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Stores a person's move (the game's activity is now, and its end if
    /// [`Next::Nobody`]), and the computer's turn after it if [`Next::Computer`] (taken
    /// by this instance). `false` when the ply is already stored: another request got
    /// there first.
    fn append_move(&self, mv: &NewMove) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Seats the player of seat `asker` of game `id` in its rematch, in one
    /// transaction: the first to ask creates `new` (its seat 1 played by
    /// `token_for(new id)`), the other player takes seat 2 of it, and a player who asks
    /// again gets the seat they hold. `token_for` gives the hash of the asker's token
    /// for a rematch id, the same every time they ask. A rematch that has expired is
    /// started again.
    ///
    /// Fails with [`StoreError::Corrupt`] when the game does not exist or the asker's
    /// seat holds another token (which the derivation rules out).
    fn rematch(
        &self,
        id: &str,
        asker: u8,
        new: &GameRow,
        token_for: RematchToken,
    ) -> impl Future<Output = Result<RematchSeat, StoreError>> + Send;

    /// Deletes the games past their expiry at `now_ms` (with their moves and owed
    /// computer turns; a rematch pointing at one is forgotten), and announces them;
    /// returns their ids.
    fn expire(
        &self,
        expiry: &Expiry,
        now_ms: i64,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;

    /// Takes one computer turn that nobody holds (or whose holder's lease lapsed) for
    /// `lease`; its game's id, or `None` when there is none.
    fn claim_computer_turn(
        &self,
        lease: Duration,
    ) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    /// Extends this instance's hold on game `id`'s computer turn; `false` when it no
    /// longer holds it.
    fn renew_computer_turn(
        &self,
        id: &str,
        lease: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Stores the computer's move in a turn this instance holds (the game's activity is
    /// now, and its end if [`Next::Nobody`]): with the turn kept (renewed) when
    /// [`Next::Computer`], finished otherwise.
    fn append_computer_move(
        &self,
        mv: &NewMove,
    ) -> impl Future<Output = Result<ComputerCommit, StoreError>> + Send;

    /// Stores a change of state that is not a move (see [`StateChange`]), if the game
    /// is still at the version it was decided on; `false` otherwise.
    fn change_state(
        &self,
        change: &StateChange,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The games whose running clock has fallen by `now_ms` (at most `limit`).
    fn overdue(
        &self,
        now_ms: i64,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;

    /// Finishes a computer turn this instance holds without a move (the computer is
    /// not to move after all).
    fn finish_computer_turn(&self, id: &str)
    -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Lets go of every turn this instance holds, so another may take them at once
    /// (on shutdown).
    fn release_computer_turns(&self) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Whether periodic job `timer` is due now and this instance runs it: `true` for
    /// exactly one caller per `every`, however many instances ask.
    fn claim_tick(
        &self,
        timer: &str,
        every: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Changes made by other instances, for live streams; `None` where there can be no
    /// other instance (SQLite), and once taken.
    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>>;

    /// How far each of these games has come (a game no longer stored has
    /// [`Progress::EXPIRED`]): one cheap question for many games, to catch a change
    /// whose announcement was lost.
    fn progress(
        &self,
        ids: &[String],
    ) -> impl Future<Output = Result<Vec<(String, Progress)>, StoreError>> + Send;

    /// Lists game `id` publicly: in the lobby while it waits for an opponent, among the
    /// games to watch while it is played.
    fn list_publicly(&self, id: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Whether game `id` is listed publicly.
    fn is_listed(&self, id: &str) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The ids of up to `limit` public games of a [`Listing`], the most recently
    /// active first (expired games not yet deleted among them).
    fn listed(
        &self,
        listing: Listing,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;

    /// Game `id`'s stored analysis, if one is stored.
    fn analysis(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<StoredAnalysis>, StoreError>> + Send;

    /// Takes the job of analysing game `id` (`plies` moves) for `lease`: `true` unless
    /// an analysis of those moves is stored, or another holder's lease has not lapsed
    /// (then it computes it).
    fn claim_analysis(
        &self,
        id: &str,
        plies: usize,
        lease: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Extends this instance's hold on game `id`'s analysis job; `false` when it no
    /// longer holds it.
    fn renew_analysis(
        &self,
        id: &str,
        lease: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Stores the analysis of a job this instance holds, ending the job; `false` when
    /// it no longer holds it (nothing is stored).
    fn store_analysis(
        &self,
        id: &str,
        analysis: &StoredAnalysis,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Gives up a job this instance holds without a document (it failed or stopped),
    /// so that the next request starts it again at once.
    fn release_analysis(&self, id: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// A handle for the operator's questions about the database (is it there, with
    /// the schema this server needs; how busy it is), cheap to take per request.
    fn probe(&self) -> Probe;
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

/// The store this server runs on: SQLite or PostgreSQL.
pub enum Store {
    /// The embedded default.
    Sqlite(SqliteStore),
    /// Shared by several instances.
    Postgres(Box<PostgresStore>),
}

impl Store {
    /// Opens the database at `location`, creating it (SQLite) or its tables if needed,
    /// and brings its schema up to date.
    ///
    /// # Errors
    /// When the database cannot be reached or set up, or a migration fails.
    pub async fn open(location: &DbLocation, options: &StoreOptions) -> Result<Store, StoreError> {
        match location {
            DbLocation::Sqlite(path) => {
                let path = path.clone();
                let store = tokio::task::spawn_blocking(move || SqliteStore::open(&path))
                    .await
                    .map_err(|e| StoreError::Task(e.to_string()))??;
                Ok(Store::Sqlite(store))
            }
            DbLocation::Postgres(url) => Ok(Store::Postgres(Box::new(
                PostgresStore::connect(url, options).await?,
            ))),
        }
    }

    /// A private in-memory SQLite database, for tests.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn in_memory() -> Result<Store, StoreError> {
        Ok(Store::Sqlite(SqliteStore::in_memory()?))
    }
}

/// Forwards a [`GameStore`] method to whichever backend runs.
macro_rules! both {
    ($self:ident, $s:ident => $call:expr) => {
        match $self {
            Store::Sqlite($s) => $call,
            Store::Postgres($s) => $call,
        }
    };
}

impl GameStore for Store {
    fn instance(&self) -> &str {
        both!(self, s => s.instance())
    }

    fn sole_writer(&self) -> bool {
        both!(self, s => s.sole_writer())
    }

    async fn create(&self, game: &GameRow) -> Result<(), StoreError> {
        both!(self, s => s.create(game).await)
    }

    async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        both!(self, s => s.load(id).await)
    }

    async fn claim_seat_2(
        &self,
        id: &str,
        token_hash: [u8; 32],
        account: Option<&str>,
    ) -> Result<bool, StoreError> {
        both!(self, s => s.claim_seat_2(id, token_hash, account).await)
    }

    async fn append_move(&self, mv: &NewMove) -> Result<bool, StoreError> {
        both!(self, s => s.append_move(mv).await)
    }

    async fn rematch(
        &self,
        id: &str,
        asker: u8,
        new: &GameRow,
        token_for: RematchToken,
    ) -> Result<RematchSeat, StoreError> {
        both!(self, s => s.rematch(id, asker, new, token_for).await)
    }

    async fn expire(&self, expiry: &Expiry, now_ms: i64) -> Result<Vec<String>, StoreError> {
        both!(self, s => s.expire(expiry, now_ms).await)
    }

    async fn claim_computer_turn(&self, lease: Duration) -> Result<Option<String>, StoreError> {
        both!(self, s => s.claim_computer_turn(lease).await)
    }

    async fn renew_computer_turn(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        both!(self, s => s.renew_computer_turn(id, lease).await)
    }

    async fn append_computer_move(&self, mv: &NewMove) -> Result<ComputerCommit, StoreError> {
        both!(self, s => s.append_computer_move(mv).await)
    }

    async fn change_state(&self, change: &StateChange) -> Result<bool, StoreError> {
        both!(self, s => s.change_state(change).await)
    }

    async fn overdue(&self, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        both!(self, s => s.overdue(now_ms, limit).await)
    }

    async fn finish_computer_turn(&self, id: &str) -> Result<(), StoreError> {
        both!(self, s => s.finish_computer_turn(id).await)
    }

    async fn release_computer_turns(&self) -> Result<(), StoreError> {
        both!(self, s => s.release_computer_turns().await)
    }

    async fn claim_tick(&self, timer: &str, every: Duration) -> Result<bool, StoreError> {
        both!(self, s => s.claim_tick(timer, every).await)
    }

    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        both!(self, s => s.changes())
    }

    async fn progress(&self, ids: &[String]) -> Result<Vec<(String, Progress)>, StoreError> {
        both!(self, s => s.progress(ids).await)
    }

    async fn list_publicly(&self, id: &str) -> Result<(), StoreError> {
        both!(self, s => s.list_publicly(id).await)
    }

    async fn is_listed(&self, id: &str) -> Result<bool, StoreError> {
        both!(self, s => s.is_listed(id).await)
    }

    async fn listed(&self, listing: Listing, limit: usize) -> Result<Vec<String>, StoreError> {
        both!(self, s => s.listed(listing, limit).await)
    }

    async fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        both!(self, s => s.analysis(id).await)
    }

    async fn claim_analysis(
        &self,
        id: &str,
        plies: usize,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        both!(self, s => s.claim_analysis(id, plies, lease).await)
    }

    async fn renew_analysis(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        both!(self, s => s.renew_analysis(id, lease).await)
    }

    async fn store_analysis(
        &self,
        id: &str,
        analysis: &StoredAnalysis,
    ) -> Result<bool, StoreError> {
        both!(self, s => s.store_analysis(id, analysis).await)
    }

    async fn release_analysis(&self, id: &str) -> Result<(), StoreError> {
        both!(self, s => s.release_analysis(id).await)
    }

    fn probe(&self) -> Probe {
        both!(self, s => s.probe())
    }
}

/// A fresh name for this server instance: `mancala-` and 48 random bits in hex (short
/// enough for PostgreSQL's `application_name`).
fn new_instance_name() -> String {
    let mut bytes = [0u8; 6];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system provides randomness");
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("mancala-{hex}")
}

/// The migrations of one backend, from `migrations/<backend>/`, in order.
fn migrations(files: &[(&str, &str)]) -> Result<Vec<refinery::Migration>, StoreError> {
    files
        .iter()
        .map(|(name, sql)| refinery::Migration::unapplied(name, sql).map_err(StoreError::from))
        .collect()
}

impl AccountStore for Store {
    async fn create_account(&self, account: &Account) -> Result<bool, StoreError> {
        both!(self, s => s.create_account(account).await)
    }

    async fn account(&self, key: &str) -> Result<Option<Account>, StoreError> {
        both!(self, s => s.account(key).await)
    }

    async fn make_bot(&self, key: &str) -> Result<bool, StoreError> {
        both!(self, s => s.make_bot(key).await)
    }

    async fn set_password(&self, key: &str, password_hash: &str) -> Result<bool, StoreError> {
        both!(self, s => s.set_password(key, password_hash).await)
    }

    async fn add_credential(
        &self,
        token_hash: [u8; 32],
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
        expires_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        both!(self, s => s.add_credential(token_hash, account, kind, now_ms, expires_ms).await)
    }

    async fn credentials_of(
        &self,
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
    ) -> Result<Vec<CredentialInfo>, StoreError> {
        both!(self, s => s.credentials_of(account, kind, now_ms).await)
    }

    async fn remove_credentials(
        &self,
        account: &str,
        kind: CredentialKind,
        keep: Option<[u8; 32]>,
    ) -> Result<u64, StoreError> {
        both!(self, s => s.remove_credentials(account, kind, keep).await)
    }

    async fn credential(
        &self,
        token_hash: [u8; 32],
        now_ms: i64,
    ) -> Result<Option<(Account, CredentialKind)>, StoreError> {
        both!(self, s => s.credential(token_hash, now_ms).await)
    }

    async fn remove_credential(&self, token_hash: [u8; 32]) -> Result<(), StoreError> {
        both!(self, s => s.remove_credential(token_hash).await)
    }

    async fn seat_account(&self, id: &str, seat: u8, account: &str) -> Result<bool, StoreError> {
        both!(self, s => s.seat_account(id, seat, account).await)
    }

    async fn games_of(&self, account: &str, page: Page) -> Result<Vec<String>, StoreError> {
        both!(self, s => s.games_of(account, page).await)
    }

    async fn ratings(&self, account: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        both!(self, s => s.ratings(account).await)
    }

    async fn leaderboard(&self, pool: &str, limit: usize) -> Result<Vec<Ranked>, StoreError> {
        both!(self, s => s.leaderboard(pool, limit).await)
    }

    async fn rate(
        &self,
        id: &str,
        pool: &str,
        score: Score,
        cap: PairCap,
    ) -> Result<Option<RatingChanges>, StoreError> {
        both!(self, s => s.rate(id, pool, score, cap).await)
    }
}
