//! Durable storage of games in SQLite: settings, seat tokens (hashed) and moves.
//!
//! A move is one row keyed by `(game, ply)`, so two requests racing for the same ply
//! cannot both be stored: the primary key lets exactly one in. Every write is its own
//! committed transaction before the server acknowledges it; the database runs in WAL
//! mode with `synchronous=NORMAL`, which keeps every committed transaction across a
//! crash or `kill -9` of the server (only an operating-system crash or power loss could
//! lose the last ones).

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored row could not be understood.
    #[error("database holds a bad row: {0}")]
    Corrupt(String),
}

/// Everything stored about one game.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// The game started as a rematch of this one, if any.
    pub rematch: Option<String>,
}

/// The SQLite store. One connection behind a mutex: every operation is short, and
/// callers run it off the async runtime.
pub struct Store {
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    variant       TEXT NOT NULL,
    houses        INTEGER NOT NULL,
    seeds         INTEGER NOT NULL,
    empty_capture INTEGER NOT NULL,
    end_rule      TEXT NOT NULL,
    opponent      TEXT NOT NULL,
    token1        BLOB NOT NULL,
    token2        BLOB,
    rematch       TEXT,
    created       INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE TABLE IF NOT EXISTS moves (
    game  TEXT NOT NULL REFERENCES games(id),
    ply   INTEGER NOT NULL,
    house INTEGER NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
";

fn hash_from_blob(blob: Option<Vec<u8>>) -> Result<Option<[u8; 32]>, StoreError> {
    blob.map(|b| {
        <[u8; 32]>::try_from(b.as_slice()).map_err(|_| StoreError::Corrupt("token hash".into()))
    })
    .transpose()
}

impl Store {
    /// Opens (creating if needed) the database at `path`.
    ///
    /// # Errors
    /// When SQLite cannot open or set up the file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::setup(Connection::open(path)?)
    }

    /// A private in-memory database, for tests.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<Store, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent (every
        // statement is atomic), so a poisoned lock is still usable.
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Stores a new game with no moves.
    ///
    /// # Errors
    /// When SQLite fails (a duplicate id included).
    pub fn create(&self, g: &GameRow) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule, opponent, token1, token2, rematch)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                g.id,
                g.variant,
                g.houses,
                g.seeds,
                g.empty_capture,
                g.end_rule,
                g.opponent,
                g.token_hashes[0].map(|h| h.to_vec()),
                g.token_hashes[1].map(|h| h.to_vec()),
                g.rematch,
            ],
        )?;
        Ok(())
    }

    /// The game with this id and its moves, if it exists.
    ///
    /// # Errors
    /// When SQLite fails or a row is malformed.
    pub fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT variant, houses, seeds, empty_capture, end_rule, opponent, token1, token2, rematch
                 FROM games WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, u8>(1)?,
                        r.get::<_, u8>(2)?,
                        r.get::<_, bool>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, Option<Vec<u8>>>(6)?,
                        r.get::<_, Option<Vec<u8>>>(7)?,
                        r.get::<_, Option<String>>(8)?,
                    ))
                },
            )
            .optional()?;
        let Some((variant, houses, seeds, empty_capture, end_rule, opponent, t1, t2, rematch)) =
            row
        else {
            return Ok(None);
        };
        let mut stmt =
            conn.prepare_cached("SELECT house FROM moves WHERE game = ?1 ORDER BY ply")?;
        let moves = stmt
            .query_map([id], |r| r.get::<_, u8>(0))?
            .collect::<Result<Vec<u8>, _>>()?;
        Ok(Some(GameRow {
            id: id.to_owned(),
            variant,
            houses,
            seeds,
            empty_capture,
            end_rule,
            opponent,
            token_hashes: [hash_from_blob(t1)?, hash_from_blob(t2)?],
            moves,
            rematch,
        }))
    }

    /// Gives seat 2 to the holder of `token_hash` if it is free; `false` if taken.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn claim_seat_2(&self, id: &str, token_hash: [u8; 32]) -> Result<bool, StoreError> {
        let n = self.conn().execute(
            "UPDATE games SET token2 = ?2 WHERE id = ?1 AND token2 IS NULL AND opponent = 'human'",
            params![id, token_hash.to_vec()],
        )?;
        Ok(n == 1)
    }

    /// Stores `house` as ply `ply` (0-based: the number of moves before it). `false`
    /// when that ply is already stored: another request got there first.
    ///
    /// # Errors
    /// When SQLite fails for another reason.
    pub fn append_move(&self, id: &str, ply: usize, house: u8) -> Result<bool, StoreError> {
        let result = self.conn().execute(
            "INSERT INTO moves (game, ply, house) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, house],
        );
        match result {
            Ok(_) => Ok(true),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Records that `new_id` is the rematch of `id`, unless one is recorded already;
    /// returns the rematch's id either way.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn set_rematch(&self, id: &str, new_id: &str) -> Result<String, StoreError> {
        let conn = self.conn();
        conn.execute(
            "UPDATE games SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
            params![id, new_id],
        )?;
        Ok(
            conn.query_row("SELECT rematch FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })?,
        )
    }

    /// Ids of games against a computer, for resuming computer turns after a restart.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn computer_games(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT id FROM games WHERE opponent <> 'human'")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }
}
