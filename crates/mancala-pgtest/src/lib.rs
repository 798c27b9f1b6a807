//! Test-only: a throwaway PostgreSQL server for tests of the PostgreSQL backend.
//!
//! [`TempPostgres::start`] makes a new cluster in a temporary directory with Debian's
//! server binaries (`/usr/lib/postgresql/<version>/bin`), starts it on a free loopback
//! port with its socket in that directory, and creates one database; dropping it stops
//! the server and removes the directory. `initdb` refuses to run as root, and CI runs as
//! root, so as root the cluster is made and run as the unprivileged `postgres` user that
//! Debian's package creates (through `runuser`).
//!
//! Tests call [`require`]: where the server binaries are missing it fails under
//! `CI=true` (the test command installs them, so a missing server there is a defect)
//! and otherwise skips with a loud message on standard error.
//!
//! ```no_run
//! let Some(pg) = mancala_pgtest::require("store_roundtrip") else { return };
//! let url = pg.url(); // postgres://mancala@127.0.0.1:PORT/mancala
//! # let _ = url;
//! ```

#![forbid(unsafe_code)]

use std::net::TcpListener;
use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex, Weak};

/// What went wrong making or starting the cluster.
#[derive(Debug, thiserror::Error)]
pub enum PgTestError {
    /// No PostgreSQL server binaries were found.
    #[error(
        "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)"
    )]
    NotInstalled,
    /// A step failed; its command and output.
    #[error("{step} failed: {output}")]
    Step {
        /// What was being done.
        step: &'static str,
        /// What the command printed.
        output: String,
    },
    /// An I/O error around the cluster's directory or a process.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A running throwaway cluster with one database, `mancala`, owned by `mancala`.
pub struct TempPostgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// The cluster for test `test`: started, or `None` (skipped loudly) when PostgreSQL is
/// not installed outside CI.
///
/// # Panics
/// Under `CI=true` when the server cannot be found or started, and anywhere when it is
/// installed but does not start.
#[must_use]
pub fn require(test: &str) -> Option<TempPostgres> {
    match TempPostgres::start() {
        Ok(pg) => Some(pg),
        Err(PgTestError::NotInstalled) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!(
                "\n*** SKIPPED {test}: PostgreSQL is not installed here \
                 (./scripts/test.sh installs it; under CI=true this fails) ***\n"
            );
            None
        }
        Err(e) => panic!("{test}: cannot start a throwaway PostgreSQL: {e}"),
    }
}

/// A cluster for test `test` shared with the other tests of this process running at the
/// same time (each should [`TempPostgres::create_database`] its own database): the
/// first starts it and it stops when the last lets go, so a test binary with many
/// PostgreSQL tests starts few clusters. `None` as for [`require`].
///
/// # Panics
/// As [`require`].
#[must_use]
pub fn require_shared(test: &str) -> Option<Arc<TempPostgres>> {
    static SHARED: Mutex<Weak<TempPostgres>> = Mutex::new(Weak::new());
    // A test that panicked while starting the cluster left nothing half-made behind.
    let mut shared = SHARED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(pg) = shared.upgrade() {
        return Some(pg);
    }
    let pg = Arc::new(require(test)?);
    *shared = Arc::downgrade(&pg);
    Some(pg)
}

impl TempPostgres {
    /// Makes, starts and fills a new cluster.
    ///
    /// # Errors
    /// [`PgTestError::NotInstalled`] without server binaries; [`PgTestError::Step`] when
    /// `initdb`, `pg_ctl` or `createdb` fails.
    pub fn start() -> Result<TempPostgres, PgTestError> {
        let bin = server_bin().ok_or(PgTestError::NotInstalled)?;
        let as_postgres = is_root();
        let dir = tempfile::Builder::new().prefix("mancala-pg-").tempdir()?;
        if as_postgres {
            let (uid, gid) = postgres_ids()?;
            chown(dir.path(), Some(uid), Some(gid))?;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))?;
        }
        let pg = TempPostgres {
            dir,
            bin,
            port: free_port()?,
            as_postgres,
        };
        pg.initdb()?;
        pg.pg_ctl_start()?;
        pg.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &pg.port.to_string(),
                "-U",
                "mancala",
                "mancala",
            ],
        )?;
        Ok(pg)
    }

    /// The URL of the `mancala` database.
    #[must_use]
    pub fn url(&self) -> String {
        format!("postgres://mancala@127.0.0.1:{}/mancala", self.port)
    }

    /// The server's loopback port.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Creates another database and returns its URL (a fresh database per test keeps
    /// tests that share one cluster apart).
    ///
    /// # Errors
    /// When `createdb` fails.
    pub fn create_database(&self, name: &str) -> Result<String, PgTestError> {
        self.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "mancala",
                name,
            ],
        )?;
        Ok(format!("postgres://mancala@127.0.0.1:{}/{name}", self.port))
    }

    /// Stops the server (connections are closed, the data kept), as a database that
    /// went away; [`TempPostgres::start_again`] brings it back on the same port. Only
    /// for a cluster of one's own ([`require`]), never a shared one.
    ///
    /// # Errors
    /// When `pg_ctl stop` fails.
    pub fn stop(&self) -> Result<(), PgTestError> {
        let data = self.data();
        self.run("pg_ctl", &["-D", path(&data), "-m", "fast", "-w", "stop"])
            .map(drop)
    }

    /// Starts a server [`TempPostgres::stop`]ped before, on the same port.
    ///
    /// # Errors
    /// When `pg_ctl start` fails.
    pub fn start_again(&self) -> Result<(), PgTestError> {
        self.pg_ctl_start()
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn initdb(&self) -> Result<(), PgTestError> {
        let data = self.data();
        self.run(
            "initdb",
            &[
                "-D",
                path(&data),
                "-U",
                "mancala",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        )
        .map(drop)
    }

    fn pg_ctl_start(&self) -> Result<(), PgTestError> {
        // Durability is not under test here: fsync off makes the many small commits of
        // the web tests fast on a small machine.
        let options = format!(
            "-p {} -h 127.0.0.1 -k {} -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            self.port,
            path(self.dir.path())
        );
        let log = self.dir.path().join("server.log");
        let data = self.data();
        self.run(
            "pg_ctl",
            &[
                "-D",
                path(&data),
                "-l",
                path(&log),
                "-o",
                &options,
                "-w",
                "-t",
                "60",
                "start",
            ],
        )
        .map(drop)
    }

    /// Runs one of the server's programs, as `postgres` when we are root.
    fn run(&self, program: &'static str, args: &[&str]) -> Result<Output, PgTestError> {
        let exe = self.bin.join(program);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        // The programs look for their socket and write files relative to here.
        cmd.args(args).current_dir(self.dir.path());
        let out = cmd.output()?;
        if out.status.success() {
            Ok(out)
        } else {
            Err(PgTestError::Step {
                step: program,
                output: format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ),
            })
        }
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let data = self.data();
        // Immediate: the cluster is thrown away, there is nothing to flush.
        let _ = self.run(
            "pg_ctl",
            &["-D", path(&data), "-m", "immediate", "-w", "stop"],
        );
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}

/// The newest installed server's `bin` directory.
fn server_bin() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn postgres_ids() -> Result<(u32, u32), PgTestError> {
    let id = |flag: &str| -> Result<u32, PgTestError> {
        let out = Command::new("id").args([flag, "postgres"]).output()?;
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .map_err(|_| PgTestError::Step {
                step: "id postgres",
                output: "no postgres user (Debian's postgresql package makes it)".into(),
            })
    };
    Ok((id("-u")?, id("-g")?))
}

/// A loopback port nobody listens on now (the server binds it a moment later).
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_starts_answers_and_goes_away() {
        let Some(pg) = require("a_cluster_starts_answers_and_goes_away") else {
            return;
        };
        let dir = pg.dir.path().to_owned();
        let port = pg.port().to_string();
        let psql = pg.bin.join("psql");
        let out = Command::new(psql)
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "mancala",
                "-d",
                "mancala",
                "-tAc",
                "select 40 + 2",
            ])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "42", "{out:?}");
        let other = pg.create_database("second").unwrap();
        assert!(other.ends_with("/second"));
        drop(pg);
        assert!(!dir.exists(), "the cluster's directory is removed");
        assert!(
            std::net::TcpStream::connect(format!("127.0.0.1:{port}")).is_err(),
            "the server is stopped"
        );
    }

    #[test]
    fn tests_running_together_share_one_cluster() {
        let Some(a) = require_shared("tests_running_together_share_one_cluster") else {
            return;
        };
        let b = require_shared("tests_running_together_share_one_cluster").unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let port = a.port();
        drop(a);
        assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
        drop(b);
        assert!(
            std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
            "stopped when the last test lets go"
        );
    }
}
