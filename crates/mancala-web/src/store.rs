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
    /// Unix epoch.
    pub activity_ms: i64,
    /// When the game ended, in milliseconds since the Unix epoch, if it has.
    pub finished_ms: Option<i64>,
}

/// How long games are kept, by their state: the server's `--expire-*` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// A game where no move has been played yet (waiting for a friend, or nobody
    /// moved): kept this long after it was created or joined.
    pub unstarted: std::time::Duration,
    /// A game in progress: kept this long after its last move.
    pub idle: std::time::Duration,
    /// A finished game: kept this long after its end.
    pub finished: std::time::Duration,
}

impl Default for Expiry {
    /// A day to start, a week between moves, thirty days once over.
    fn default() -> Self {
        const DAY: u64 = 24 * 3600;
        Expiry {
            unstarted: std::time::Duration::from_secs(DAY),
            idle: std::time::Duration::from_secs(7 * DAY),
            finished: std::time::Duration::from_secs(30 * DAY),
        }
    }
}

impl Expiry {
    /// When `row` expires, in milliseconds since the Unix epoch.
    #[must_use]
    pub fn deadline_ms(&self, row: &GameRow) -> i64 {
        let ms = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        match row.finished_ms {
            Some(end) => end.saturating_add(ms(self.finished)),
            None if row.moves.is_empty() => row.activity_ms.saturating_add(ms(self.unstarted)),
            None => row.activity_ms.saturating_add(ms(self.idle)),
        }
    }
}

/// Milliseconds since the Unix epoch, now.
#[must_use]
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
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

/// Columns added since the first schema, with their types: added to older databases
/// when opened.
const ADDED_COLUMNS: [(&str, &str); 4] = [
    ("rematch_by", "INTEGER"),
    ("invite", "BLOB"),
    ("activity", "INTEGER"),
    ("finished", "INTEGER"),
];

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
        let present: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('games')")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for (name, kind) in ADDED_COLUMNS {
            if !present.iter().any(|p| p == name) {
                conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {name} {kind}"))?;
            }
        }
        conn.execute_batch(
            "CREATE INDEX IF NOT EXISTS games_activity ON games(activity);
             CREATE INDEX IF NOT EXISTS games_finished ON games(finished);",
        )?;
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
        Store::insert(&self.conn(), g)
    }

    fn insert(conn: &Connection, g: &GameRow) -> Result<(), StoreError> {
        conn.execute(
            "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule, opponent,
                                token1, token2, rematch, rematch_by, invite, activity, finished)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
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
                g.rematch_by,
                g.invite_hash.map(|h| h.to_vec()),
                g.activity_ms,
                g.finished_ms,
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
        Store::load_with(&conn, id)
    }

    fn load_with(conn: &Connection, id: &str) -> Result<Option<GameRow>, StoreError> {
        type Raw = (GameRow, Option<Vec<u8>>, Option<Vec<u8>>, Option<Vec<u8>>);
        let row: Option<Raw> = conn
            .query_row(
                "SELECT variant, houses, seeds, empty_capture, end_rule, opponent, token1, token2,
                        rematch, rematch_by, invite, COALESCE(activity, created * 1000), finished
                 FROM games WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        GameRow {
                            id: id.to_owned(),
                            variant: r.get(0)?,
                            houses: r.get(1)?,
                            seeds: r.get(2)?,
                            empty_capture: r.get(3)?,
                            end_rule: r.get(4)?,
                            opponent: r.get(5)?,
                            token_hashes: [None, None],
                            moves: Vec::new(),
                            rematch: r.get(8)?,
                            rematch_by: r.get(9)?,
                            invite_hash: None,
                            activity_ms: r.get(11)?,
                            finished_ms: r.get(12)?,
                        },
                        r.get(6)?,
                        r.get(7)?,
                        r.get(10)?,
                    ))
                },
            )
            .optional()?;
        let Some((mut game, t1, t2, invite)) = row else {
            return Ok(None);
        };
        game.token_hashes = [hash_from_blob(t1)?, hash_from_blob(t2)?];
        game.invite_hash = hash_from_blob(invite)?;
        let mut stmt =
            conn.prepare_cached("SELECT house FROM moves WHERE game = ?1 ORDER BY ply")?;
        game.moves = stmt
            .query_map([id], |r| r.get::<_, u8>(0))?
            .collect::<Result<Vec<u8>, _>>()?;
        Ok(Some(game))
    }

    /// Gives seat 2 to the holder of `token_hash` if it is free; `false` if taken.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn claim_seat_2(&self, id: &str, token_hash: [u8; 32]) -> Result<bool, StoreError> {
        let n = self.conn().execute(
            "UPDATE games SET token2 = ?2, activity = ?3
             WHERE id = ?1 AND token2 IS NULL AND opponent = 'human'",
            params![id, token_hash.to_vec(), now_ms()],
        )?;
        Ok(n == 1)
    }

    /// Stores `house` as ply `ply` (0-based: the number of moves before it), and
    /// whether it ended the game. `false` when that ply is already stored: another
    /// request got there first.
    ///
    /// # Errors
    /// When SQLite fails for another reason.
    pub fn append_move(
        &self,
        id: &str,
        ply: usize,
        house: u8,
        ends_game: bool,
    ) -> Result<bool, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let result = tx.execute(
            "INSERT INTO moves (game, ply, house) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, house],
        );
        match result {
            Ok(_) => {}
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        }
        let now = now_ms();
        tx.execute(
            "UPDATE games SET activity = ?2, finished = CASE WHEN ?3 THEN ?2 ELSE finished END
             WHERE id = ?1",
            params![id, now, ends_game],
        )?;
        tx.commit()?;
        Ok(true)
    }

    /// Seats the player of seat `asker` of game `id` in its rematch, in one
    /// transaction: the first to ask creates `new` (its seat 1 played by
    /// `token_for(new id)`), the other player takes seat 2 of it, and a player who asks
    /// again gets the seat they hold. `token_for` gives the hash of the asker's token
    /// for a rematch id, the same every time they ask.
    ///
    /// # Errors
    /// When SQLite fails, or [`StoreError::Corrupt`] when the game does not exist or
    /// the asker's seat holds another token (which the derivation rules out).
    pub fn rematch(
        &self,
        id: &str,
        asker: u8,
        new: &GameRow,
        token_for: &dyn Fn(&str) -> [u8; 32],
    ) -> Result<RematchSeat, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let (existing, by): (Option<String>, Option<u8>) = tx.query_row(
            "SELECT rematch, rematch_by FROM games WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        // A rematch that has expired since is started again.
        let existing = match existing {
            Some(rid) if Store::load_with(&tx, &rid)?.is_some() => Some(rid),
            _ => None,
        };
        let seat = match existing {
            None => {
                let mut row = new.clone();
                row.token_hashes = [Some(token_for(&row.id)), None];
                row.activity_ms = now_ms();
                Store::insert(&tx, &row)?;
                tx.execute(
                    "UPDATE games SET rematch = ?2, rematch_by = ?3 WHERE id = ?1",
                    params![id, row.id, asker],
                )?;
                RematchSeat {
                    id: row.id,
                    seat: 1,
                    fresh: true,
                }
            }
            Some(rid) => {
                let mine = token_for(&rid);
                let game = Store::load_with(&tx, &rid)?.expect("checked above");
                let seat = if by == Some(asker) { 1 } else { 2 };
                let held = game.token_hashes[usize::from(seat - 1)];
                let fresh = match held {
                    Some(h) if h == mine => false,
                    None if seat == 2 => {
                        tx.execute(
                            "UPDATE games SET token2 = ?2, activity = ?3 WHERE id = ?1",
                            params![rid, mine.to_vec(), now_ms()],
                        )?;
                        true
                    }
                    _ => {
                        return Err(StoreError::Corrupt(format!(
                            "rematch {rid}: seat {seat} holds another token"
                        )));
                    }
                };
                RematchSeat {
                    id: rid,
                    seat,
                    fresh,
                }
            }
        };
        tx.commit()?;
        Ok(seat)
    }

    /// Deletes the games past their expiry at `now_ms`; returns their ids.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn expire(&self, expiry: &Expiry, now_ms: i64) -> Result<Vec<String>, StoreError> {
        let ms = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        let cutoff = |d| now_ms.saturating_sub(ms(d));
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let ids: Vec<String> = {
            let mut stmt = tx.prepare(
                "SELECT id FROM games g WHERE
                   (finished IS NOT NULL AND finished <= ?1)
                   OR (finished IS NULL AND COALESCE(activity, created * 1000) <=
                        CASE WHEN EXISTS (SELECT 1 FROM moves m WHERE m.game = g.id)
                             THEN ?2 ELSE ?3 END)",
            )?;
            stmt.query_map(
                params![
                    cutoff(expiry.finished),
                    cutoff(expiry.idle),
                    cutoff(expiry.unstarted)
                ],
                |r| r.get(0),
            )?
            .collect::<Result<_, _>>()?
        };
        for id in &ids {
            tx.execute("DELETE FROM moves WHERE game = ?1", [id])?;
            tx.execute("DELETE FROM games WHERE id = ?1", [id])?;
            tx.execute(
                "UPDATE games SET rematch = NULL, rematch_by = NULL WHERE rematch = ?1",
                [id],
            )?;
        }
        tx.commit()?;
        Ok(ids)
    }

    /// Ids of games against a computer, for resuming computer turns after a restart.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn computer_games(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT id FROM games WHERE opponent <> 'human' AND finished IS NULL")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }
}
