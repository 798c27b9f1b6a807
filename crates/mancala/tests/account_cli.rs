//! `mancala account reset-password NAME`: the operator sets a forgotten password (the
//! server sends no e-mail), through the real binary, on an SQLite database.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use mancala_web::{DbLocation, Games, Store, StoreOptions};

/// Runs the binary with `input` on standard input (not a terminal: the password is
/// read as one line); returns (exit status, stdout, stderr).
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

async fn games_on(path: &Path) -> Games {
    let location = DbLocation::Sqlite(path.to_owned());
    Games::new(
        Store::open(&location, &StoreOptions::default())
            .await
            .unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_resets_a_forgotten_password() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let games = games_on(&db).await;
    let (_, session) = games.sign_up("Ann", "the old password").await.unwrap();
    drop(games);
    let db_arg = db.to_str().unwrap();

    let reset = |name: &'static str, input: &'static str| {
        let db_arg = db_arg.to_owned();
        tokio::task::spawn_blocking(move || {
            run(&["account", "reset-password", name, "--db", &db_arg], input)
        })
    };
    let (code, _, err) = reset("nobody", "a fresh start\n").await.unwrap();
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no account is named"), "{err}");
    let (code, _, err) = reset("ann", "password1\n").await.unwrap();
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("most common"), "{err}");
    let (code, _, err) = reset("ann", "").await.unwrap();
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no password"), "{err}");

    let (code, out, err) = reset("ANN", "a fresh start\n").await.unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("1 session was logged out"), "{out}");
    let games = games_on(&db).await;
    assert!(games.log_in("ann", "the old password").await.is_err());
    assert!(games.log_in("ann", "a fresh start").await.is_ok());
    assert!(
        games.account_of(&session).await.unwrap().is_none(),
        "the old session ended"
    );
}
