//! Checkpoints of the SQLite write-ahead log, off the request path.
//!
//! SQLite's own checkpoints run inside the commit that fills the log past a
//! thousand pages: that commit copies the log back into the database file and syncs
//! it, and every request queued behind it on the one connection waits. Under load
//! that was most of the 99th-percentile latency of a move (docs/speed.md). So the
//! store's connection never checkpoints, and this thread does on a connection of its
//! own: a passive checkpoint, which never blocks the writer, four times a second;
//! and, when the log has grown past [`RESTART_FRAMES`] all the same (a writer that
//! never pauses leaves no moment at which the whole log is copied, so SQLite cannot
//! start the log over), a restarting one, which holds the writer back while it copies
//! what the passive ones left, so that the next commit writes the log from its start
//! again. The file keeps its size, so that the writer overwrites it rather than
//! growing it anew; it is at most about [`RESTART_FRAMES`] pages plus what a quarter
//! of a second adds.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

use rusqlite::Connection;

use super::StoreError;

/// How often the log is checkpointed.
const EVERY: Duration = Duration::from_millis(250);

/// Frames (pages of 4 KiB) in the log past which it is started over: 256 MiB, some
/// seconds of the load benchmark's writes, so that restarts, which hold the writer
/// back, are rare even then.
pub(crate) const RESTART_FRAMES: i64 = 65_536;

/// The checkpointing thread of one database file; it stops when this is dropped.
pub(crate) struct Checkpointer {
    /// Dropping it tells the thread to stop.
    _stop: Sender<()>,
}

impl Checkpointer {
    /// Starts checkpointing the database at `path` (in WAL mode, whose connections
    /// have automatic checkpoints off).
    ///
    /// # Errors
    /// When the thread or its connection cannot be started.
    pub(crate) fn start(path: &Path) -> Result<Checkpointer, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let (stop, stopped) = mpsc::channel::<()>();
        let path = path.to_owned();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                // Until the store is dropped; the last connection to close then
                // checkpoints the rest, as SQLite always does.
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(EVERY) {
                    if let Err(e) = checkpoint(&conn) {
                        tracing::warn!(db = %path.display(), error = %e, "checkpoint failed");
                    }
                }
            })
            .map_err(|e| StoreError::Task(format!("starting the checkpoint thread: {e}")))?;
        Ok(Checkpointer { _stop: stop })
    }
}

/// One round: a passive checkpoint, and a restarting one if the log is too long.
fn checkpoint(conn: &Connection) -> rusqlite::Result<()> {
    let frames = wal_checkpoint(conn, "PASSIVE")?;
    if frames > RESTART_FRAMES {
        wal_checkpoint(conn, "RESTART")?;
    }
    Ok(())
}

/// Runs `PRAGMA wal_checkpoint(MODE)`; the frames in the log.
pub(crate) fn wal_checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<i64> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| r.get(1))
}

/// The database file of `conn`'s main schema, if it has one (not in memory).
pub(crate) fn file_of(conn: &Connection) -> Option<PathBuf> {
    conn.path().filter(|p| !p.is_empty()).map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// The rows in the database file itself, not counting its write-ahead log.
    fn rows_in_the_file(path: &Path, table: &str) -> i64 {
        let uri = format!("file:{}?immutable=1", path.display());
        let conn = Connection::open_with_flags(
            uri,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
        )
        .unwrap();
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn commits_reach_the_database_file_while_the_store_is_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        let store = Store::open_sqlite(&path).unwrap();
        let writer = Connection::open(&path).unwrap();
        writer.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        writer
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3);")
            .unwrap();
        // The commit is in the log; the store's thread copies it into the file.
        let until = std::time::Instant::now() + Duration::from_secs(10);
        while rows_in_the_file(&path, "sqlite_master WHERE name = 't'") == 0
            || rows_in_the_file(&path, "t") < 3
        {
            assert!(std::time::Instant::now() < until, "never checkpointed");
            std::thread::sleep(Duration::from_millis(50));
        }
        drop(store);
    }

    #[test]
    fn a_database_in_memory_has_no_file() {
        assert_eq!(file_of(&Connection::open_in_memory().unwrap()), None);
    }
}
