//! SQLite (rusqlite): the embedded default, for one server instance.
//!
//! One connection behind a mutex: every operation is short, and runs on the blocking
//! pool. The database runs in WAL mode with `synchronous=NORMAL`, which keeps every
//! committed transaction across a crash or `kill -9` of the server (only an
//! operating-system crash or power loss could lose the last ones).
//!
//! SQLite serves one instance: on opening, every computer turn held by an earlier run
//! is let go, so a restart resumes them at once.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::mpsc;

use super::{Change, ComputerCommit, GameRow, GameStore, NewMove, Next, Progress, StoreError};

/// The migrations, in order (`migrations/sqlite`).
const MIGRATIONS: [(&str, &str); 2] = [
    (
        "V1__initial",
        include_str!("../../migrations/sqlite/V1__initial.sql"),
    ),
    (
        "V2__shared_work",
        include_str!("../../migrations/sqlite/V2__shared_work.sql"),
    ),
];

/// The SQLite store. Cheap to clone (shared state behind an `Arc`).
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    conn: Mutex<Connection>,
    instance: String,
}

fn hash_from_blob(blob: Option<Vec<u8>>) -> Result<Option<[u8; 32]>, StoreError> {
    blob.map(|b| {
        <[u8; 32]>::try_from(b.as_slice()).map_err(|_| StoreError::Corrupt("token hash".into()))
    })
    .transpose()
}

/// Milliseconds since the Unix epoch, `lease` from now.
fn expiry(lease: Duration) -> i64 {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from((now + lease).as_millis()).unwrap_or(i64::MAX)
}

fn is_constraint_violation(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if f.code == rusqlite::ErrorCode::ConstraintViolation)
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// # Errors
    /// When SQLite cannot open or set up the file, or a migration fails.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::setup(Connection::open(path)?)
    }

    /// A private in-memory database, for tests.
    ///
    /// # Errors
    /// When SQLite fails.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        refinery::Runner::new(&super::migrations(&MIGRATIONS)?).run(&mut conn)?;
        // One instance per file: whatever an earlier run held is free now.
        conn.execute(
            "UPDATE computer_turns SET holder = NULL, expires = 0 WHERE holder IS NOT NULL",
            [],
        )?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                conn: Mutex::new(conn),
                instance: super::new_instance_name(),
            }),
        })
    }

    /// Runs `f` with the connection on the blocking pool.
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection, &str) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            // A panic while holding the lock cannot leave SQLite inconsistent (every
            // statement or transaction is atomic), so a poisoned lock is still usable.
            let mut conn: MutexGuard<'_, Connection> = inner
                .conn
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            f(&mut conn, &inner.instance)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }
}

fn load(conn: &Connection, id: &str) -> Result<Option<GameRow>, StoreError> {
    type Tokens = (Option<Vec<u8>>, Option<Vec<u8>>);
    let row = conn
        .query_row(
            "SELECT variant, houses, seeds, empty_capture, end_rule, opponent, rematch, token1, token2
             FROM games WHERE id = ?1",
            [id],
            |r| {
                let game = GameRow {
                    id: id.to_owned(),
                    variant: r.get(0)?,
                    houses: r.get(1)?,
                    seeds: r.get(2)?,
                    empty_capture: r.get(3)?,
                    end_rule: r.get(4)?,
                    opponent: r.get(5)?,
                    token_hashes: [None, None],
                    moves: Vec::new(),
                    rematch: r.get(6)?,
                };
                let tokens: Tokens = (r.get(7)?, r.get(8)?);
                Ok((game, tokens))
            },
        )
        .optional()?;
    let Some((mut game, (t1, t2))) = row else {
        return Ok(None);
    };
    game.token_hashes = [hash_from_blob(t1)?, hash_from_blob(t2)?];
    let mut stmt = conn.prepare_cached("SELECT house FROM moves WHERE game = ?1 ORDER BY ply")?;
    game.moves = stmt
        .query_map([id], |r| r.get::<_, u8>(0))?
        .collect::<Result<Vec<u8>, _>>()?;
    Ok(Some(game))
}

fn insert_move(conn: &Connection, mv: &NewMove) -> Result<bool, StoreError> {
    let result = conn.execute(
        "INSERT INTO moves (game, ply, house) VALUES (?1, ?2, ?3)",
        params![mv.game, mv.ply as i64, mv.house],
    );
    match result {
        Ok(_) => Ok(true),
        Err(e) if is_constraint_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Holds game `id`'s computer turn for `instance` until `lease` from now.
fn hold_turn(
    conn: &Connection,
    id: &str,
    instance: &str,
    lease: Duration,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO computer_turns (game, holder, expires) VALUES (?1, ?2, ?3)
         ON CONFLICT (game) DO UPDATE SET holder = excluded.holder, expires = excluded.expires",
        params![id, instance, expiry(lease)],
    )?;
    Ok(())
}

fn append_computer_move(
    conn: &mut Connection,
    mv: &NewMove,
    instance: &str,
) -> Result<ComputerCommit, StoreError> {
    let tx = conn.transaction()?;
    let held: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM computer_turns WHERE game = ?1 AND holder = ?2)",
        params![mv.game, instance],
        |r| r.get(0),
    )?;
    if !held {
        return Ok(ComputerCommit::LeaseLost);
    }
    if !insert_move(&tx, mv)? {
        return Ok(ComputerCommit::PlyTaken);
    }
    match mv.next {
        Next::Computer { lease } => hold_turn(&tx, &mv.game, instance, lease)?,
        Next::Person => {
            tx.execute("DELETE FROM computer_turns WHERE game = ?1", [&mv.game])?;
        }
    }
    tx.commit()?;
    Ok(ComputerCommit::Stored)
}

impl GameStore for SqliteStore {
    fn instance(&self) -> &str {
        &self.inner.instance
    }

    async fn create(&self, g: &GameRow) -> Result<(), StoreError> {
        let g = g.clone();
        self.blocking(move |conn, _| {
            conn.execute(
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
        })
        .await
    }

    async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, _| load(conn, &id)).await
    }

    async fn claim_seat_2(&self, id: &str, token_hash: [u8; 32]) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, _| {
            let n = conn.execute(
                "UPDATE games SET token2 = ?2 WHERE id = ?1 AND token2 IS NULL AND opponent = 'human'",
                params![id, token_hash.to_vec()],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn append_move(&self, mv: &NewMove) -> Result<bool, StoreError> {
        let mv = mv.clone();
        self.blocking(move |conn, instance| match mv.next {
            Next::Person => insert_move(conn, &mv),
            Next::Computer { lease } => {
                let tx = conn.transaction()?;
                if !insert_move(&tx, &mv)? {
                    return Ok(false);
                }
                hold_turn(&tx, &mv.game, instance, lease)?;
                tx.commit()?;
                Ok(true)
            }
        })
        .await
    }

    async fn set_rematch(&self, id: &str, new_id: &str) -> Result<String, StoreError> {
        let (id, new_id) = (id.to_owned(), new_id.to_owned());
        self.blocking(move |conn, _| {
            conn.execute(
                "UPDATE games SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
                params![id, new_id],
            )?;
            Ok(
                conn.query_row("SELECT rematch FROM games WHERE id = ?1", [id], |r| {
                    r.get(0)
                })?,
            )
        })
        .await
    }

    async fn claim_computer_turn(&self, lease: Duration) -> Result<Option<String>, StoreError> {
        self.blocking(move |conn, instance| {
            let now = expiry(Duration::ZERO);
            Ok(conn
                .query_row(
                    "UPDATE computer_turns SET holder = ?1, expires = ?2
                     WHERE game = (SELECT game FROM computer_turns WHERE expires < ?3
                                   ORDER BY expires LIMIT 1)
                     RETURNING game",
                    params![instance, expiry(lease), now],
                    |r| r.get(0),
                )
                .optional()?)
        })
        .await
    }

    async fn renew_computer_turn(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, instance| {
            let n = conn.execute(
                "UPDATE computer_turns SET expires = ?3 WHERE game = ?1 AND holder = ?2",
                params![id, instance, expiry(lease)],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn append_computer_move(&self, mv: &NewMove) -> Result<ComputerCommit, StoreError> {
        let mv = mv.clone();
        self.blocking(move |conn, instance| append_computer_move(conn, &mv, instance))
            .await
    }

    async fn finish_computer_turn(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, instance| {
            conn.execute(
                "DELETE FROM computer_turns WHERE game = ?1 AND holder = ?2",
                params![id, instance],
            )?;
            Ok(())
        })
        .await
    }

    async fn release_computer_turns(&self) -> Result<(), StoreError> {
        self.blocking(move |conn, instance| {
            conn.execute(
                "UPDATE computer_turns SET holder = NULL, expires = 0 WHERE holder = ?1",
                [instance],
            )?;
            Ok(())
        })
        .await
    }

    async fn claim_tick(&self, timer: &str, every: Duration) -> Result<bool, StoreError> {
        let timer = timer.to_owned();
        self.blocking(move |conn, _| {
            let n = conn.execute(
                "INSERT INTO timers (name, due) VALUES (?1, ?2)
                 ON CONFLICT (name) DO UPDATE SET due = excluded.due WHERE timers.due <= ?3",
                params![timer, expiry(every), expiry(Duration::ZERO)],
            )?;
            Ok(n == 1)
        })
        .await
    }

    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        None
    }

    async fn progress(&self, ids: &[String]) -> Result<Vec<(String, Progress)>, StoreError> {
        let ids = ids.to_vec();
        self.blocking(move |conn, _| {
            let mut stmt = conn.prepare_cached(
                "SELECT (SELECT count(*) FROM moves m WHERE m.game = g.id),
                        g.token2 IS NOT NULL OR g.opponent <> 'human', g.rematch IS NOT NULL
                 FROM games g WHERE g.id = ?1",
            )?;
            let mut found = Vec::new();
            for id in ids {
                let progress = stmt
                    .query_row([&id], |r| {
                        Ok(Progress {
                            plies: r.get(0)?,
                            seat_2_taken: r.get(1)?,
                            rematch: r.get(2)?,
                        })
                    })
                    .optional()?;
                if let Some(p) = progress {
                    found.push((id, p));
                }
            }
            Ok(found)
        })
        .await
    }
}
