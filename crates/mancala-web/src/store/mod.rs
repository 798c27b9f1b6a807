//! Durable storage of games: one interface, [`Store`], over SQLite or PostgreSQL.
//!
//! ```text
//! mod.rs          Store: opening, and running the logic on a connection
//! games.rs        the games: create, load, join, moves, rematches, state, expiry
//! work.rs         owed work and lists: computer turns, timers, progress, public
//!                 listings, analyses
//! account_sql.rs  accounts, credentials, seats' accounts, ratings
//! event_sql.rs    challenges between accounts, and each account's events
//! accounts.rs     the account types
//! types.rs        the game types; error.rs StoreError; location.rs DbLocation
//! sql.rs          the seam: Conn (a connection), Value and Row, Dialect (the SQL that
//!                 differs), Database (a backend)
//! sqlite.rs       SQLite (rusqlite): the embedded default, one server instance
//! postgres.rs     PostgreSQL (tokio-postgres + deadpool): several instances, one
//!                 database; pg_value.rs its values
//! probe.rs        the operator's questions: schema version, games in progress, pool use
//! migrations/{sqlite,postgres}/V<n>__<name>.sql   versioned schemas (refinery), run at
//!              start-up; V1 is the schema of the releases before migrations, V3 adds
//!              what the web hardening (invites, idempotent rematches, expiry) keeps,
//!              V4 the play state (names, first mover, stop, offer, clocks), the
//!              game's version and its clock's deadline,
//!              V5 the public games (the lobby, the games to watch),
//!              V6 the analyses of finished games and the claims of their jobs,
//!              V7 accounts, their credentials and ratings, and each seat's account,
//!              V8 when a rated game counted, and when credentials were made and used,
//!              V10 challenges between accounts and each account's events
//! ```
//!
//! Every operation is written once, as statements on a `sql::Conn` in the order a
//! transaction runs them; only what the two SQL dialects say differently (times, row
//! locks, lists as parameters, the column types) lives in the drivers and in
//! `sql::Dialect`. PostgreSQL stores a person's move in one statement rather than a
//! transaction of several (one round trip on the site's busiest path).
//!
//! A released migration is never edited (its checksum is recorded in the database, and
//! a changed one stops the server): a schema change is a new `V<n+1>` file for each
//! backend, listed in `migrations_of!`.
//!
//! Games are kept as long as [`Expiry`] says: each records when it last changed and
//! when it ended, and [`Store::expire`] deletes those past their time (run by one
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

mod account_sql;
mod accounts;
mod checkpoint;
mod error;
mod event_sql;
mod games;
mod location;
mod pg_value;
mod postgres;
mod probe;
pub(crate) mod sql;
mod sqlite;
mod types;
mod work;

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use rand::TryRngCore;
use tokio::sync::mpsc;

pub use accounts::{Account, CredentialInfo, CredentialKind, Page, PairCap, Ranked, RatedEnd};
pub use error::StoreError;
pub use event_sql::{AccountEvent, ChallengeRole, StoredChallenge};
pub use location::{DbLocation, StoreOptions};
pub use probe::{PoolUse, Probe, Schema};
pub use types::{
    Change, ComputerCommit, Expiry, GameRow, Listing, NewMove, Next, Progress, RematchSeat,
    RematchToken, StateChange, StateUpdate, StoredAnalysis, now_ms,
};

use sql::{Conn, Database};

/// The games database this server runs on, SQLite or PostgreSQL: the one interface
/// the game service speaks. Cheap to clone (a shared handle).
///
/// The owed-work methods act for this server instance ([`Store::instance`]): a turn
/// taken is held in its name.
#[derive(Clone)]
pub struct Store {
    db: Arc<dyn Database>,
}

impl Store {
    /// Opens the database at `location`, creating it (SQLite) or its tables if needed,
    /// and brings its schema up to date.
    ///
    /// # Errors
    /// When the database cannot be reached or set up, or a migration fails.
    pub async fn open(location: &DbLocation, options: &StoreOptions) -> Result<Store, StoreError> {
        let db: Arc<dyn Database> = match location {
            DbLocation::Sqlite(path) => {
                let path = path.clone();
                let db = tokio::task::spawn_blocking(move || sqlite::SqliteDb::open(&path))
                    .await
                    .map_err(|e| StoreError::Task(e.to_string()))??;
                Arc::new(db)
            }
            DbLocation::Postgres(url) => {
                Arc::new(postgres::PostgresDb::connect(url, options).await?)
            }
        };
        Ok(Store { db })
    }

    /// Opens (creating if needed) the SQLite database at `path` and migrates it,
    /// blocking: for tools and tests outside a runtime.
    ///
    /// # Errors
    /// When SQLite cannot open or set up the file, or a migration fails.
    pub fn open_sqlite(path: &Path) -> Result<Store, StoreError> {
        Ok(Store {
            db: Arc::new(sqlite::SqliteDb::open(path)?),
        })
    }

    /// A private in-memory SQLite database, for tests.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn in_memory() -> Result<Store, StoreError> {
        Ok(Store {
            db: Arc::new(sqlite::SqliteDb::in_memory()?),
        })
    }

    /// This server instance's name in the database (random per start).
    #[must_use]
    pub fn instance(&self) -> &str {
        self.db.instance()
    }

    /// Whether this instance is the only one writing to the database (SQLite: one
    /// instance per file), so that the game it last stored is the game as stored,
    /// unless its own other requests changed it since. The move path then plays on its
    /// own copy instead of reading the game again (see `moves`).
    #[must_use]
    pub fn sole_writer(&self) -> bool {
        self.db.sole_writer()
    }

    /// Changes made by other instances, for live streams; `None` where there can be no
    /// other instance (SQLite), and once taken.
    #[must_use]
    pub fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        self.db.changes()
    }

    /// A handle for the operator's questions about the database (is it there, with
    /// the schema this server needs; how busy it is), cheap to take per request.
    #[must_use]
    pub fn probe(&self) -> Probe {
        self.db.probe()
    }

    /// Runs `work` on one of the database's connections: the store's logic, written
    /// once for both databases.
    async fn run<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, Result<T, StoreError>>
            + Send
            + 'static,
    {
        let out = self
            .db
            .run(Box::new(move |conn| {
                Box::pin(async move {
                    let value = work(conn).await?;
                    Ok(Box::new(value) as Box<dyn Any + Send>)
                })
            }))
            .await?;
        out.downcast::<T>()
            .map(|value| *value)
            .map_err(|_| StoreError::Task("a database operation answered the wrong type".into()))
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

/// The migrations of the backend whose files are in `migrations/<dir>/`, in order:
/// `(name, SQL)`. A new migration is one more line here, and a file in each folder.
macro_rules! migrations_of {
    ($dir:literal) => {
        [
            (
                "V1__initial",
                include_str!(concat!("../../migrations/", $dir, "/V1__initial.sql")),
            ),
            (
                "V2__shared_work",
                include_str!(concat!("../../migrations/", $dir, "/V2__shared_work.sql")),
            ),
            (
                "V3__invites_rematches_expiry",
                include_str!(concat!(
                    "../../migrations/",
                    $dir,
                    "/V3__invites_rematches_expiry.sql"
                )),
            ),
            (
                "V4__play_state",
                include_str!(concat!("../../migrations/", $dir, "/V4__play_state.sql")),
            ),
            (
                "V5__public_games",
                include_str!(concat!("../../migrations/", $dir, "/V5__public_games.sql")),
            ),
            (
                "V6__analyses",
                include_str!(concat!("../../migrations/", $dir, "/V6__analyses.sql")),
            ),
            (
                "V7__accounts",
                include_str!(concat!("../../migrations/", $dir, "/V7__accounts.sql")),
            ),
            (
                "V8__account_trust",
                include_str!(concat!("../../migrations/", $dir, "/V8__account_trust.sql")),
            ),
            (
                "V9__rules_value",
                include_str!(concat!("../../migrations/", $dir, "/V9__rules_value.sql")),
            ),
            (
                "V10__challenges",
                include_str!(concat!("../../migrations/", $dir, "/V10__challenges.sql")),
            ),
        ]
    };
}
pub(crate) use migrations_of;

/// The migrations of one backend (see `migrations_of!`), for refinery.
fn migrations(files: &[(&str, &str)]) -> Result<Vec<refinery::Migration>, StoreError> {
    files
        .iter()
        .map(|(name, sql)| refinery::Migration::unapplied(name, sql).map_err(StoreError::from))
        .collect()
}
