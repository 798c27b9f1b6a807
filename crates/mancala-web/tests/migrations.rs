//! Upgrading: a database written by the release before schema migrations
//! (`fixtures/sqlite-v0.sqlite`, made by `fixtures/make-sqlite-v0.py` with that
//! release's binary) opens, keeps every game as that release served it, still takes
//! its seat tokens, and the move the computer owed when that server was killed is
//! played.

use std::path::Path;
use std::time::{Duration, Instant};

use mancala_web::{Background, DbLocation, Games, MoveRequest, Store, StoreOptions};
use serde_json::Value;

/// The keys of the game JSON that release served.
const KEYS: [&str; 17] = [
    "id",
    "variant",
    "houses",
    "stores",
    "to_move",
    "ply",
    "over",
    "result",
    "moves",
    "history",
    "players",
    "rules",
    "legal_moves",
    "last_move",
    "repetition",
    "end",
    "rematch",
];

fn fixture() -> (tempfile::TempDir, DbLocation, Value) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("games.sqlite");
    std::fs::copy(dir.join("sqlite-v0.sqlite"), &db).unwrap();
    let record = std::fs::read_to_string(dir.join("sqlite-v0.json")).unwrap();
    (
        tmp,
        DbLocation::Sqlite(db),
        serde_json::from_str(&record).unwrap(),
    )
}

async fn open(location: &DbLocation) -> (Games, Background) {
    let games = Games::new(
        Store::open(location, &StoreOptions::default())
            .await
            .unwrap(),
    );
    let background = games.start_background();
    (games, background)
}

async fn view(games: &Games, id: &str) -> Value {
    serde_json::to_value(games.view(id).await.unwrap()).unwrap()
}

fn games_of(record: &Value) -> impl Iterator<Item = (&String, &Value)> {
    record.as_object().unwrap().iter()
}

/// Every game as recorded, but the one where the computer owed a move, which has it.
async fn every_game_is_intact(games: &Games, record: &Value) {
    for (name, game) in games_of(record) {
        let before = &game["view"];
        let after = view(games, before["id"].as_str().unwrap()).await;
        let keys: &[&str] = if name == "computer-to-move" {
            // Its settings and seats; the move it owed may be played already.
            &["id", "variant", "rules", "players"]
        } else {
            &KEYS
        };
        for &key in keys {
            assert_eq!(after[key], before[key], "{name}: {key}");
        }
    }
}

/// Waits until the computer has moved in the game that owed a move; its view then.
async fn computer_has_moved(games: &Games, record: &Value) -> Value {
    let before = &record["computer-to-move"]["view"];
    let id = before["id"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let after = view(games, id).await;
        if after["ply"].as_u64() > before["ply"].as_u64() {
            assert_eq!(after["moves"][0], before["moves"][0]);
            assert_eq!(after["history"][1]["seat"], 2, "{after}");
            return after;
        }
        assert!(
            Instant::now() < deadline,
            "the owed computer move never came"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_migrations_keeps_every_game() {
    let (_tmp, location, record) = fixture();
    let (games, background) = open(&location).await;
    every_game_is_intact(&games, &record).await;
    let played = computer_has_moved(&games, &record).await;

    // The recorded tokens still play: the seat to move in the unfinished game.
    let oware = &record["oware-in-progress"];
    let v = &oware["view"];
    let seat = v["to_move"].as_u64().unwrap() as usize;
    let token = oware["tokens"][seat - 1].as_str().unwrap();
    let request = MoveRequest {
        house: v["legal_moves"][0].as_u64().unwrap(),
        ply: v["ply"].as_u64().unwrap(),
    };
    let id = v["id"].as_str().unwrap();
    let after = games.play(id, Some(token), Ok(request)).await.unwrap();
    assert_eq!(after.ply, v["ply"].as_u64().unwrap() as usize + 1);
    drop((games, background));

    // Opened again (migrations already applied): the same games, the new move kept.
    let (games, _background) = open(&location).await;
    assert_eq!(view(&games, id).await["ply"], after.ply);
    let again = view(&games, played["id"].as_str().unwrap()).await;
    assert_eq!(again["moves"], played["moves"]);
    for (name, game) in games_of(&record) {
        if name != "oware-in-progress" && name != "computer-to-move" {
            let id = game["view"]["id"].as_str().unwrap();
            assert_eq!(
                view(&games, id).await["moves"],
                game["view"]["moves"],
                "{name}"
            );
        }
    }
}

#[test]
fn the_fixture_is_the_schema_before_migrations() {
    let (_tmp, location, record) = fixture();
    let DbLocation::Sqlite(path) = location else {
        unreachable!()
    };
    let conn = rusqlite::Connection::open(path).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(tables, ["games", "moves"]);
    assert_eq!(record.as_object().unwrap().len(), 8);
}

/// A database migrated by a later release (a migration this one does not know) is
/// refused rather than served with a schema this release does not understand.
#[tokio::test]
async fn a_database_from_a_later_release_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let location = DbLocation::Sqlite(tmp.path().join("games.sqlite"));
    drop(
        Store::open(&location, &StoreOptions::default())
            .await
            .unwrap(),
    );
    let DbLocation::Sqlite(path) = &location else {
        unreachable!()
    };
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
         VALUES (99, 'later', '2027-01-01T00:00:00Z', '1')",
        [],
    )
    .unwrap();
    drop(conn);
    let Err(e) = Store::open(&location, &StoreOptions::default()).await else {
        panic!("opened a database from a later release");
    };
    assert!(e.to_string().contains("missing"), "{e}");
}
