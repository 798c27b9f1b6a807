//! SQLite (rusqlite): the embedded default, for one server instance.
//!
//! One connection, owned by a thread of its own (`tokio_rusqlite`): every operation is
//! short, and the requests queue to that thread. Handing each operation to tokio's
//! blocking pool instead woke an idle pool thread per operation, and the pool's
//! threads then fought over the one connection: on the 2-core host that hand-over
//! cost more CPU than the queries (docs/speed.md). The database runs in WAL mode with `synchronous=NORMAL`, which keeps every
//! committed transaction across a crash or `kill -9` of the server (only an
//! operating-system crash or power loss could lose the last ones).
//!
//! SQLite serves one instance: on opening, every computer turn held by an earlier run
//! is let go, so a restart resumes them at once, and every analysis job an earlier run
//! claimed is dropped (the next request starts it again).
//!
//! Opening migrates any database an earlier release wrote: the releases before
//! migrations (V1 finds their tables in place), and the release of the web hardening,
//! which added V3's columns by itself (see [`migrate`]).

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::mpsc;

use super::checkpoint::{self, Checkpointer};
use super::{
    Change, ComputerCommit, Expiry, GameRow, GameStore, Listing, NewMove, Next, Progress,
    RematchSeat, RematchToken, StateChange, StateUpdate, StoreError, StoredAnalysis, now_ms,
};
use crate::state::PlayState;

/// The migrations, in order (`migrations/sqlite`).
const MIGRATIONS: [(&str, &str); 8] = [
    (
        "V1__initial",
        include_str!("../../migrations/sqlite/V1__initial.sql"),
    ),
    (
        "V2__shared_work",
        include_str!("../../migrations/sqlite/V2__shared_work.sql"),
    ),
    (
        "V3__invites_rematches_expiry",
        include_str!("../../migrations/sqlite/V3__invites_rematches_expiry.sql"),
    ),
    (
        "V4__play_state",
        include_str!("../../migrations/sqlite/V4__play_state.sql"),
    ),
    (
        "V5__public_games",
        include_str!("../../migrations/sqlite/V5__public_games.sql"),
    ),
    (
        "V6__analyses",
        include_str!("../../migrations/sqlite/V6__analyses.sql"),
    ),
    (
        "V7__accounts",
        include_str!("../../migrations/sqlite/V7__accounts.sql"),
    ),
    (
        "V8__account_trust",
        include_str!("../../migrations/sqlite/V8__account_trust.sql"),
    ),
];

/// The version of the migration that adds the columns the hardening release added
/// by itself.
const V3: i32 = 3;

/// How V3 adds each of its columns to `games`, one per line.
const ADD_COLUMN: &str = "ALTER TABLE games ADD COLUMN ";

/// The SQLite store. Cheap to clone (shared state behind an `Arc`).
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// The log's checkpoints, for a database in a file; stops with the store.
    _checkpointer: Option<Checkpointer>,
    conn: tokio_rusqlite::Connection,
    instance: Arc<str>,
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
        // Checkpoints run on a thread of their own (`checkpoint`).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Every statement is compiled once and kept: compiling one took longer than
        // running it.
        conn.set_prepared_statement_cache_capacity(64);
        conn.busy_timeout(Duration::from_secs(5))?;
        migrate(&mut conn)?;
        // One instance per file: whatever an earlier run held is free now.
        conn.prepare_cached(
            "UPDATE computer_turns SET holder = NULL, expires = 0 WHERE holder IS NOT NULL",
        )?
        .execute([])?;
        conn.prepare_cached("DELETE FROM analyses WHERE document IS NULL")?
            .execute([])?;
        let checkpointer = match checkpoint::file_of(&conn) {
            Some(path) => Some(Checkpointer::start(&path)?),
            None => None,
        };
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                _checkpointer: checkpointer,
                conn: conn.into(),
                instance: super::new_instance_name().into(),
            }),
        })
    }

    /// Runs `f` with the connection on the connection's thread.
    pub(super) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection, &str) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let instance = Arc::clone(&self.inner.instance);
        let outcome = self
            .inner
            .conn
            .call(move |conn| {
                // A panic cannot leave SQLite inconsistent (every statement or
                // transaction is atomic), so the connection's thread goes on serving
                // the other requests; this one fails.
                Ok(std::panic::catch_unwind(AssertUnwindSafe(|| {
                    f(conn, &instance)
                })))
            })
            .await;
        match outcome {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(StoreError::Task("a database operation panicked".into())),
            Err(e) => Err(StoreError::Task(e.to_string())),
        }
    }
}

/// Brings the schema up to date.
///
/// The release of the web hardening (before migrations) added V3's columns to `games`
/// by `ALTER TABLE` when it opened a database, so a database it wrote may have some or
/// all of them while V3 is not recorded (whether or not an earlier release recorded
/// V1 and V2). V3 as written would fail there (SQLite has no `ADD COLUMN IF NOT
/// EXISTS`); so after V2, such a database gets V3 without the columns it has, in one
/// transaction, and V3 is then recorded as applied with its checksum as released.
/// Every other database runs V3 as written.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    use refinery::{Runner, Target};
    let migrations = super::migrations(&MIGRATIONS)?;
    Runner::new(&migrations)
        .set_target(Target::Version(V3 - 1))
        .run(conn)?;
    let v3_applied = Runner::new(&migrations)
        .get_applied_migrations(conn)?
        .iter()
        .any(|m| m.version() == V3);
    if !v3_applied {
        let present = columns(conn, "games")?;
        if v3_columns().any(|c| present.contains(&c.to_owned())) {
            let tx = conn.transaction()?;
            tx.execute_batch(&v3_without(&present))?;
            tx.commit()?;
            Runner::new(&migrations)
                .set_target(Target::FakeVersion(V3))
                .run(conn)?;
        }
    }
    Runner::new(&migrations).run(conn)?;
    Ok(())
}

/// The columns of `table`.
fn columns(conn: &Connection, table: &str) -> Result<Vec<String>, StoreError> {
    let names = conn
        .prepare("SELECT name FROM pragma_table_info(?1)")?
        .query_map([table], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(names)
}

/// The columns V3 adds to `games`.
fn v3_columns() -> impl Iterator<Item = &'static str> {
    MIGRATIONS[2].1.lines().filter_map(|line| {
        line.strip_prefix(ADD_COLUMN)
            .and_then(|rest| rest.split_whitespace().next())
    })
}

/// V3 without the lines adding a column in `present`.
fn v3_without(present: &[String]) -> String {
    MIGRATIONS[2]
        .1
        .lines()
        .filter(|line| {
            !line
                .strip_prefix(ADD_COLUMN)
                .and_then(|rest| rest.split_whitespace().next())
                .is_some_and(|column| present.iter().any(|p| p == column))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn insert_game(conn: &Connection, g: &GameRow) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule, opponent,
                            token1, token2, rematch, rematch_by, invite, activity, finished,
                            play, version, deadline, account1, account2, rated, rating)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18, ?19, ?20, ?21)",
    )?
    .execute(params![
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
        g.play.to_json(),
        i64::try_from(g.version).unwrap_or(i64::MAX),
        g.deadline_ms,
        g.accounts[0],
        g.accounts[1],
        g.rated,
        g.rating,
    ])?;
    Ok(())
}

fn load(conn: &Connection, id: &str) -> Result<Option<GameRow>, StoreError> {
    type Blobs = (Option<Vec<u8>>, Option<Vec<u8>>, Option<Vec<u8>>);
    let row = conn.prepare_cached("SELECT variant, houses, seeds, empty_capture, end_rule, opponent, rematch, token1, token2,
                    rematch_by, invite, COALESCE(activity, created * 1000), finished,
                    play, version, deadline, account1, account2, rated, rating
             FROM games WHERE id = ?1")?.query_row([id],
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
                    rematch_by: r.get(9)?,
                    invite_hash: None,
                    activity_ms: r.get(11)?,
                    finished_ms: r.get(12)?,
                    play: PlayState::default(),
                    version: r.get(14)?,
                    deadline_ms: r.get(15)?,
                    accounts: [r.get(16)?, r.get(17)?],
                    rated: r.get(18)?,
                    rating: r.get(19)?,
                };
                let blobs: Blobs = (r.get(7)?, r.get(8)?, r.get(10)?);
                Ok((game, blobs, r.get::<_, String>(13)?))
            },
        )
        .optional()?;
    let Some((mut game, (t1, t2, invite), play)) = row else {
        return Ok(None);
    };
    game.play = PlayState::from_json(&play)
        .map_err(|e| StoreError::Corrupt(format!("game {id}: play state: {e}")))?;
    game.token_hashes = [hash_from_blob(t1)?, hash_from_blob(t2)?];
    game.invite_hash = hash_from_blob(invite)?;
    let mut stmt = conn.prepare_cached("SELECT house FROM moves WHERE game = ?1 ORDER BY ply")?;
    game.moves = stmt
        .query_map([id], |r| r.get::<_, u8>(0))?
        .collect::<Result<Vec<u8>, _>>()?;
    Ok(Some(game))
}

/// Stores the move, and the game's activity (and end) with it; `false` when the ply is
/// stored already. Called inside a transaction.
fn insert_move(conn: &Connection, mv: &NewMove) -> Result<bool, StoreError> {
    let result = conn
        .prepare_cached("INSERT INTO moves (game, ply, house) VALUES (?1, ?2, ?3)")?
        .execute(params![mv.game, mv.ply as i64, mv.house]);
    match result {
        Ok(_) => {}
        Err(e) if is_constraint_violation(&e) => return Ok(false),
        Err(e) => return Err(e.into()),
    }
    let ends = mv.next == Next::Nobody;
    let updated = match &mv.state {
        None => conn
            .prepare_cached(
                "UPDATE games SET activity = ?2, finished = CASE WHEN ?3 THEN ?2 ELSE finished END,
                              version = version + 1
             WHERE id = ?1",
            )?
            .execute(params![mv.game, now_ms(), ends])?,
        Some(state) => update_state(conn, &mv.game, ends, state)?,
    };
    // Nothing updated: the game changed since the move was decided (the caller rolls
    // the move back with the transaction).
    Ok(updated == 1)
}

/// Writes game `game`'s new play state if the game is still at the version it was
/// decided on, marking it active (and finished when `ends`); the rows updated (0: the
/// game changed meanwhile). One statement for a move that brings a state and for a
/// change of state alone, so the two cannot drift apart.
fn update_state(
    conn: &Connection,
    game: &str,
    ends: bool,
    state: &StateUpdate,
) -> Result<usize, StoreError> {
    Ok(conn
        .prepare_cached(
            "UPDATE games SET activity = ?2, finished = CASE WHEN ?3 THEN ?2 ELSE finished END,
                          version = version + 1, play = ?4, deadline = ?5
         WHERE id = ?1 AND version = ?6",
        )?
        .execute(params![
            game,
            now_ms(),
            ends,
            state.play.to_json(),
            state.deadline_ms,
            i64::try_from(state.seen_version).unwrap_or(i64::MAX)
        ])?)
}

/// Stores a change of state (see [`GameStore::change_state`]).
fn change_state(
    conn: &mut Connection,
    change: &StateChange,
    instance: &str,
) -> Result<bool, StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let n = update_state(
        &tx,
        &change.game,
        change.next == Next::Nobody,
        &change.update,
    )?;
    if n != 1 {
        return Ok(false);
    }
    if let Some(keep) = change.keep_plies {
        tx.prepare_cached("DELETE FROM moves WHERE game = ?1 AND ply >= ?2")?
            .execute(params![change.game, keep as i64])?;
    }
    match change.next {
        Next::Computer { lease } => hold_turn(&tx, &change.game, instance, lease)?,
        Next::Person | Next::Nobody => {
            tx.prepare_cached("DELETE FROM computer_turns WHERE game = ?1")?
                .execute([&change.game])?;
        }
    }
    tx.commit()?;
    Ok(true)
}

/// Holds game `id`'s computer turn for `instance` until `lease` from now.
fn hold_turn(
    conn: &Connection,
    id: &str,
    instance: &str,
    lease: Duration,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO computer_turns (game, holder, expires) VALUES (?1, ?2, ?3)
         ON CONFLICT (game) DO UPDATE SET holder = excluded.holder, expires = excluded.expires",
    )?
    .execute(params![id, instance, expiry(lease)])?;
    Ok(())
}

fn append_computer_move(
    conn: &mut Connection,
    mv: &NewMove,
    instance: &str,
) -> Result<ComputerCommit, StoreError> {
    let tx = conn.transaction()?;
    let held: bool = tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM computer_turns WHERE game = ?1 AND holder = ?2)",
        )?
        .query_row(params![mv.game, instance], |r| r.get(0))?;
    if !held {
        return Ok(ComputerCommit::LeaseLost);
    }
    if !insert_move(&tx, mv)? {
        return Ok(ComputerCommit::PlyTaken);
    }
    match mv.next {
        Next::Computer { lease } => hold_turn(&tx, &mv.game, instance, lease)?,
        Next::Person | Next::Nobody => {
            tx.prepare_cached("DELETE FROM computer_turns WHERE game = ?1")?
                .execute([&mv.game])?;
        }
    }
    tx.commit()?;
    Ok(ComputerCommit::Stored)
}

fn rematch(
    conn: &mut Connection,
    id: &str,
    asker: u8,
    new: &GameRow,
    token_for: &RematchToken,
) -> Result<RematchSeat, StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let (existing, by): (Option<String>, Option<u8>) = tx
        .prepare_cached("SELECT rematch, rematch_by FROM games WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?
        .ok_or_else(|| StoreError::Corrupt(format!("rematch of {id}: no such game")))?;
    // A rematch that has expired since is started again.
    let existing = match existing {
        Some(rid) => load(&tx, &rid)?,
        None => None,
    };
    let seat = match existing {
        None => {
            let mut row = new.clone();
            row.token_hashes = [Some(token_for(&row.id)), None];
            row.activity_ms = now_ms();
            insert_game(&tx, &row)?;
            tx.execute(
                // A change of the game: its streams carry it (see GameRow::version).
                "UPDATE games SET rematch = ?2, rematch_by = ?3, version = version + 1
                 WHERE id = ?1",
                params![id, row.id, asker],
            )?;
            RematchSeat {
                id: row.id,
                seat: 1,
                fresh: true,
            }
        }
        Some(game) => {
            let mine = token_for(&game.id);
            let seat = if by == Some(asker) { 1 } else { 2 };
            let fresh = match game.token_hashes[usize::from(seat - 1)] {
                Some(held) if held == mine => false,
                None if seat == 2 => {
                    tx.prepare_cached("UPDATE games SET token2 = ?2, activity = ?3 WHERE id = ?1")?
                        .execute(params![game.id, mine.to_vec(), now_ms()])?;
                    true
                }
                _ => {
                    return Err(StoreError::Corrupt(format!(
                        "rematch {}: seat {seat} holds another token",
                        game.id
                    )));
                }
            };
            RematchSeat {
                id: game.id,
                seat,
                fresh,
            }
        }
    };
    tx.commit()?;
    Ok(seat)
}

fn expire(conn: &mut Connection, expiry: &Expiry, now_ms: i64) -> Result<Vec<String>, StoreError> {
    let (finished, idle, unstarted) = expiry.cutoffs(now_ms);
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let ids: Vec<String> = tx
        .prepare(
            "SELECT id FROM games g WHERE
               (finished IS NOT NULL AND finished <= ?1
                AND account1 IS NULL AND account2 IS NULL)
               OR (finished IS NULL AND COALESCE(activity, created * 1000) <=
                    CASE WHEN EXISTS (SELECT 1 FROM moves m WHERE m.game = g.id)
                         THEN ?2 ELSE ?3 END)",
        )?
        .query_map(params![finished, idle, unstarted], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for id in &ids {
        tx.prepare_cached("DELETE FROM computer_turns WHERE game = ?1")?
            .execute([id])?;
        tx.prepare_cached("DELETE FROM moves WHERE game = ?1")?
            .execute([id])?;
        tx.prepare_cached("DELETE FROM games WHERE id = ?1")?
            .execute([id])?;
        tx.prepare_cached("UPDATE games SET rematch = NULL, rematch_by = NULL WHERE rematch = ?1")?
            .execute([id])?;
    }
    tx.commit()?;
    Ok(ids)
}

impl GameStore for SqliteStore {
    fn instance(&self) -> &str {
        &self.inner.instance
    }

    fn sole_writer(&self) -> bool {
        true
    }

    async fn create(&self, g: &GameRow) -> Result<(), StoreError> {
        let g = g.clone();
        self.blocking(move |conn, _| insert_game(conn, &g)).await
    }

    async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, _| load(conn, &id)).await
    }

    async fn claim_seat_2(
        &self,
        id: &str,
        token_hash: [u8; 32],
        account: Option<&str>,
    ) -> Result<bool, StoreError> {
        let id = id.to_owned();
        let account = account.map(str::to_owned);
        self.blocking(move |conn, _| {
            let n = conn
                .prepare_cached(
                    "UPDATE games SET token2 = ?2, activity = ?3, account2 = ?4
                 WHERE id = ?1 AND token2 IS NULL AND opponent = 'human'
                   AND (rated = 0 OR ?4 IS NOT NULL)",
                )?
                .execute(params![id, token_hash.to_vec(), now_ms(), account])?;
            Ok(n == 1)
        })
        .await
    }

    async fn append_move(&self, mv: &NewMove) -> Result<bool, StoreError> {
        let mv = mv.clone();
        self.blocking(move |conn, instance| {
            let tx = conn.transaction()?;
            if !insert_move(&tx, &mv)? {
                return Ok(false);
            }
            if let Next::Computer { lease } = mv.next {
                hold_turn(&tx, &mv.game, instance, lease)?;
            }
            tx.commit()?;
            Ok(true)
        })
        .await
    }

    async fn rematch(
        &self,
        id: &str,
        asker: u8,
        new: &GameRow,
        token_for: RematchToken,
    ) -> Result<RematchSeat, StoreError> {
        let (id, new) = (id.to_owned(), new.clone());
        self.blocking(move |conn, _| rematch(conn, &id, asker, &new, &token_for))
            .await
    }

    async fn expire(&self, expiry: &Expiry, now_ms: i64) -> Result<Vec<String>, StoreError> {
        let expiry = *expiry;
        self.blocking(move |conn, _| expire(conn, &expiry, now_ms))
            .await
    }

    async fn claim_computer_turn(&self, lease: Duration) -> Result<Option<String>, StoreError> {
        self.blocking(move |conn, instance| {
            let now = expiry(Duration::ZERO);
            Ok(conn
                .prepare_cached(
                    "UPDATE computer_turns SET holder = ?1, expires = ?2
                     WHERE game = (SELECT game FROM computer_turns WHERE expires < ?3
                                   ORDER BY expires LIMIT 1)
                     RETURNING game",
                )?
                .query_row(params![instance, expiry(lease), now], |r| r.get(0))
                .optional()?)
        })
        .await
    }

    async fn renew_computer_turn(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, instance| {
            let n = conn
                .prepare_cached(
                    "UPDATE computer_turns SET expires = ?3 WHERE game = ?1 AND holder = ?2",
                )?
                .execute(params![id, instance, expiry(lease)])?;
            Ok(n == 1)
        })
        .await
    }

    async fn append_computer_move(&self, mv: &NewMove) -> Result<ComputerCommit, StoreError> {
        let mv = mv.clone();
        self.blocking(move |conn, instance| append_computer_move(conn, &mv, instance))
            .await
    }

    async fn change_state(&self, change: &StateChange) -> Result<bool, StoreError> {
        let change = change.clone();
        self.blocking(move |conn, instance| change_state(conn, &change, instance))
            .await
    }

    async fn overdue(&self, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.blocking(move |conn, _| {
            let ids = conn
                .prepare_cached(
                    "SELECT id FROM games WHERE deadline <= ?1 ORDER BY deadline LIMIT ?2",
                )?
                .query_map(params![now_ms, limit as i64], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn finish_computer_turn(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, instance| {
            conn.prepare_cached("DELETE FROM computer_turns WHERE game = ?1 AND holder = ?2")?
                .execute(params![id, instance])?;
            Ok(())
        })
        .await
    }

    async fn release_computer_turns(&self) -> Result<(), StoreError> {
        self.blocking(move |conn, instance| {
            conn.prepare_cached(
                "UPDATE computer_turns SET holder = NULL, expires = 0 WHERE holder = ?1",
            )?
            .execute([instance])?;
            Ok(())
        })
        .await
    }

    async fn claim_tick(&self, timer: &str, every: Duration) -> Result<bool, StoreError> {
        let timer = timer.to_owned();
        self.blocking(move |conn, _| {
            let n = conn
                .prepare_cached(
                    "INSERT INTO timers (name, due) VALUES (?1, ?2)
                 ON CONFLICT (name) DO UPDATE SET due = excluded.due WHERE timers.due <= ?3",
                )?
                .execute(params![timer, expiry(every), expiry(Duration::ZERO)])?;
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
                        g.token2 IS NOT NULL OR g.opponent <> 'human', g.rematch IS NOT NULL,
                        g.version
                 FROM games g WHERE g.id = ?1",
            )?;
            let mut found = Vec::new();
            for id in ids {
                let progress = stmt
                    .query_row([&id], |r| {
                        Ok(Progress {
                            expired: false,
                            version: r.get(3)?,
                            plies: r.get(0)?,
                            seat_2_taken: r.get(1)?,
                            rematch: r.get(2)?,
                        })
                    })
                    .optional()?;
                found.push((id, progress.unwrap_or(Progress::EXPIRED)));
            }
            Ok(found)
        })
        .await
    }

    async fn list_publicly(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, _| {
            conn.prepare_cached("INSERT INTO listings (game) VALUES (?1) ON CONFLICT DO NOTHING")?
                .execute([id])?;
            Ok(())
        })
        .await
    }

    async fn is_listed(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, _| {
            Ok(conn
                .prepare_cached("SELECT 1 FROM listings WHERE game = ?1")?
                .query_row([id], |_| Ok(()))
                .optional()?
                .is_some())
        })
        .await
    }

    async fn listed(&self, listing: Listing, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.blocking(move |conn, _| {
            let sql = format!(
                "SELECT g.id FROM listings l JOIN games g ON g.id = l.game
                 WHERE {} ORDER BY g.activity DESC LIMIT ?1",
                listing.condition()
            );
            let ids = conn
                .prepare_cached(&sql)?
                .query_map([limit], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, _| {
            let found = conn
                .prepare_cached(
                    "SELECT plies, document FROM analyses
                     WHERE game = ?1 AND document IS NOT NULL",
                )?
                .query_row([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
                .optional()?;
            Ok(found.map(|(plies, document)| StoredAnalysis {
                plies: usize::try_from(plies).unwrap_or(usize::MAX),
                document,
            }))
        })
        .await
    }

    async fn claim_analysis(
        &self,
        id: &str,
        plies: usize,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, instance| {
            // Done rows expire at 0: a stored document of other moves is replaced.
            let n = conn
                .prepare_cached(
                    "INSERT INTO analyses (game, plies, document, holder, expires)
                     VALUES (?1, ?2, NULL, ?3, ?4)
                     ON CONFLICT (game) DO UPDATE SET plies = excluded.plies, document = NULL,
                         holder = excluded.holder, expires = excluded.expires
                     WHERE analyses.expires < ?5
                       AND (analyses.document IS NULL OR analyses.plies <> excluded.plies)",
                )?
                .execute(params![
                    id,
                    plies as i64,
                    instance,
                    expiry(lease),
                    expiry(Duration::ZERO)
                ])?;
            Ok(n == 1)
        })
        .await
    }

    async fn renew_analysis(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, instance| {
            let n = conn
                .prepare_cached(
                    "UPDATE analyses SET expires = ?3
                     WHERE game = ?1 AND holder = ?2 AND document IS NULL",
                )?
                .execute(params![id, instance, expiry(lease)])?;
            Ok(n == 1)
        })
        .await
    }

    async fn store_analysis(
        &self,
        id: &str,
        analysis: &StoredAnalysis,
    ) -> Result<bool, StoreError> {
        let (id, analysis) = (id.to_owned(), analysis.clone());
        self.blocking(move |conn, instance| {
            let n = conn
                .prepare_cached(
                    "UPDATE analyses SET plies = ?3, document = ?4, holder = NULL, expires = 0
                     WHERE game = ?1 AND holder = ?2 AND document IS NULL",
                )?
                .execute(params![
                    id,
                    instance,
                    analysis.plies as i64,
                    analysis.document
                ])?;
            Ok(n == 1)
        })
        .await
    }

    async fn release_analysis(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.blocking(move |conn, instance| {
            conn.prepare_cached(
                "DELETE FROM analyses WHERE game = ?1 AND holder = ?2 AND document IS NULL",
            )?
            .execute(params![id, instance])?;
            Ok(())
        })
        .await
    }

    fn probe(&self) -> super::Probe {
        super::Probe::sqlite(self.inner.conn.clone(), &MIGRATIONS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// V3 is read line by line to leave out the columns a database of the hardening
    /// release has: each of its columns must be one `ADD COLUMN` line.
    #[test]
    fn v3_adds_the_hardening_columns_one_per_line() {
        let columns: Vec<&str> = v3_columns().collect();
        assert_eq!(columns, ["rematch_by", "invite", "activity", "finished"]);
        let present = ["invite".to_owned(), "finished".to_owned()];
        let partial = v3_without(&present);
        assert!(
            partial.contains("ADD COLUMN rematch_by") && partial.contains("ADD COLUMN activity")
        );
        assert!(!partial.contains("ADD COLUMN invite") && !partial.contains("ADD COLUMN finished"));
        assert!(partial.contains("CREATE INDEX IF NOT EXISTS games_activity"));
    }
}
