//! Starts the real `mancala serve` on a free loopback port for end-to-end tests, on an
//! SQLite file or on a database of a throwaway PostgreSQL cluster.

#![allow(dead_code)]

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use mancala_pgtest::TempPostgres;

/// A database for one test: what `--db` is given.
pub enum TestDb {
    /// A file in a temporary directory.
    Sqlite(tempfile::TempDir),
    /// A fresh database in a throwaway cluster (kept running as long as this).
    Postgres(Arc<TempPostgres>, String),
}

impl TestDb {
    /// A new SQLite file.
    pub fn sqlite() -> TestDb {
        TestDb::Sqlite(tempfile::tempdir().unwrap())
    }

    /// A new PostgreSQL database for test `test`, or `None` (skipped loudly) where
    /// PostgreSQL is not installed outside CI.
    pub fn postgres(test: &str) -> Option<TestDb> {
        let pg = mancala_pgtest::require_shared(test)?;
        let url = pg.create_database(test).expect("create a database");
        Some(TestDb::Postgres(pg, url))
    }

    /// The `--db` argument.
    pub fn arg(&self) -> OsString {
        match self {
            TestDb::Sqlite(dir) => dir.path().join("games.sqlite").into(),
            TestDb::Postgres(_, url) => url.into(),
        }
    }
}

/// Defines, for each `fn NAME(db: TestDb)` listed, the tests `sqlite::NAME` and
/// `postgres::NAME`.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    super::$name(super::server::TestDb::sqlite());
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $name() {
                    if let Some(db) = super::server::TestDb::postgres(stringify!($name)) {
                        super::$name(db);
                    }
                }
            )*
        }
    };
}

/// The same for async tests: for each `async fn NAME(db: TestDb)` listed, the tokio
/// tests `sqlite::NAME` and `postgres::NAME`.
#[macro_export]
macro_rules! on_both_backends_async {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::server::TestDb::sqlite()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(db) = super::server::TestDb::postgres(stringify!($name)) {
                        super::$name(db).await;
                    }
                }
            )*
        }
    };
}

/// A running server, killed (SIGKILL) when dropped.
pub struct Server {
    child: Mutex<Child>,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts the binary on port 0 with the database `db` and waits for its address.
    pub fn start(db: &TestDb) -> Server {
        Server::start_with(db, &[])
    }

    /// Starts the binary with more arguments to `mancala serve`.
    pub fn start_with(db: &TestDb, args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
        command.arg("serve").arg("--db").arg(db.arg()).args(args);
        command.env_remove("DATABASE_URL");
        Server::spawn(command, "127.0.0.1:0")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.lock().unwrap().id()
    }

    /// Starts the binary again on the address of `gone` (a server killed before), with
    /// the database `db`: as a restarted service comes back where its pages left it.
    pub fn restart(db: &TestDb, gone: &Server) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
        command.arg("serve").arg("--db").arg(db.arg());
        command.env_remove("DATABASE_URL");
        Server::spawn(command, gone.base.trim_start_matches("http://"))
    }

    /// Starts the binary with the database in `DATABASE_URL` rather than `--db`.
    pub fn start_from_env(db: &TestDb, args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
        command
            .arg("serve")
            .args(args)
            .env("DATABASE_URL", db.arg());
        Server::spawn(command, "127.0.0.1:0")
    }

    /// Starts the binary logging what `filter` (`RUST_LOG`) lets through.
    pub fn start_logging(db: &TestDb, filter: &str) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
        command.arg("serve").arg("--db").arg(db.arg());
        command.env_remove("DATABASE_URL");
        Server::spawn_logging(command, "127.0.0.1:0", filter)
    }

    fn spawn(command: Command, addr: &str) -> Server {
        Server::spawn_logging(command, addr, "info")
    }

    fn spawn_logging(mut command: Command, addr: &str, filter: &str) -> Server {
        let mut child = command
            .args(["--addr", addr])
            .env("RUST_LOG", filter)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mancala serve");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        // Keep draining the log so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("serving on http://").nth(1) {
                    let addr = rest.split('/').next().unwrap_or_default().to_owned();
                    let _ = tx.send(addr);
                }
                lines.lock().unwrap().push(line);
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!(
                    "the server did not report its address: {:?}",
                    log.lock().unwrap()
                )
            });
        Server {
            child: Mutex::new(child),
            base: format!("http://{addr}"),
            log,
        }
    }

    /// Kills the server at once, as `kill -9` would (while other threads may be
    /// calling it).
    pub fn kill(&self) {
        let mut child = self.child.lock().unwrap();
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Asks the server to stop (SIGTERM), as a service manager would.
    pub fn terminate(&self) {
        let pid = self.child.lock().unwrap().id();
        let status = Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// The lines the server logged so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// `GET`/`POST` JSON, returning (status, body); errors are statuses, not panics.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<serde_json::Value>,
    ) -> (u16, serde_json::Value) {
        self.try_call(method, path, token, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// As [`Server::call`], but a failed connection is an `Err` (a killed server).
    pub fn try_call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<serde_json::Value>,
    ) -> Result<(u16, serde_json::Value), String> {
        let mut req =
            ureq::request(method, &format!("{}{path}", self.base)).timeout(Duration::from_secs(20));
        if let Some(t) = token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        let result = match body {
            Some(b) => req.send_json(b),
            None => req.call(),
        };
        match result {
            Ok(r) => Ok((r.status(), r.into_json().unwrap_or(serde_json::Value::Null))),
            Err(ureq::Error::Status(code, r)) => {
                Ok((code, r.into_json().unwrap_or(serde_json::Value::Null)))
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// Follows game `id`'s live stream: each game view with the moment it arrived.
    pub fn follow(&self, id: &str) -> mpsc::Receiver<(Instant, serde_json::Value)> {
        let response = ureq::get(&format!("{}/api/games/{id}/live", self.base))
            .call()
            .expect("open the live stream");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let reader = BufReader::new(response.into_reader());
            for line in reader.lines().map_while(Result::ok) {
                if let Some(data) = line.strip_prefix("data:") {
                    let view = serde_json::from_str(data.trim()).expect("a game view");
                    if tx.send((Instant::now(), view)).is_err() {
                        return;
                    }
                }
            }
        });
        rx
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}
