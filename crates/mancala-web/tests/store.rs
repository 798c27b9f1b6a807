//! The storage interface on both backends, and what several instances sharing one
//! PostgreSQL database rely on: one winner per ply, computer turns held by exactly one
//! instance and taken over when its hold lapses, timers that fire once, and changes
//! announced to the other instances.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Backend, TestDb};
use mancala_web::{
    Change, ComputerCommit, DbLocation, GameRow, GameStore, Games, NewMove, Next, Progress, Store,
    StoreOptions,
};

fn game(id: &str, opponent: &str) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "kalah".into(),
        houses: 6,
        seeds: 4,
        empty_capture: true,
        end_rule: "either-side-empty".into(),
        opponent: opponent.into(),
        token_hashes: [Some([7; 32]), None],
        moves: Vec::new(),
        rematch: None,
    }
}

fn person_move(id: &str, ply: usize, house: u8) -> NewMove {
    NewMove {
        game: id.into(),
        ply,
        house,
        next: Next::Person,
    }
}

fn computer_next(id: &str, ply: usize, house: u8, lease: Duration) -> NewMove {
    NewMove {
        next: Next::Computer { lease },
        ..person_move(id, ply, house)
    }
}

const LONG: Duration = Duration::from_secs(60);

on_both_backends!(
    a_game_round_trips,
    seat_two_is_claimed_once_and_a_ply_stored_once,
    a_computer_turn_is_held_played_and_finished,
    a_lapsed_computer_turn_is_taken_over,
    a_timer_fires_once_per_period,
    progress_says_how_far_games_have_come,
);

async fn a_game_round_trips(db: TestDb) {
    let s = db.store().await;
    let mut g = game("g1", "human");
    s.create(&g).await.unwrap();
    assert_eq!(s.load("g1").await.unwrap(), Some(g.clone()));
    assert_eq!(s.load("nope").await.unwrap(), None);
    assert!(s.create(&g).await.is_err(), "ids are unique");
    for (ply, house) in [3, 1, 6].into_iter().enumerate() {
        assert!(s.append_move(&person_move("g1", ply, house)).await.unwrap());
    }
    g.moves = vec![3, 1, 6];
    assert_eq!(s.load("g1").await.unwrap(), Some(g.clone()));
    s.create(&game("g2", "human")).await.unwrap();
    assert_eq!(s.set_rematch("g1", "g2").await.unwrap(), "g2");
    assert_eq!(
        s.set_rematch("g1", "g3").await.unwrap(),
        "g2",
        "the first stays"
    );
    assert_eq!(
        s.load("g1").await.unwrap().unwrap().rematch.as_deref(),
        Some("g2")
    );
}

async fn seat_two_is_claimed_once_and_a_ply_stored_once(db: TestDb) {
    let s = Arc::new(db.store().await);
    s.create(&game("g", "human")).await.unwrap();
    assert!(s.claim_seat_2("g", [1; 32]).await.unwrap());
    assert!(!s.claim_seat_2("g", [2; 32]).await.unwrap());
    assert_eq!(
        s.load("g").await.unwrap().unwrap().token_hashes[1],
        Some([1; 32])
    );
    // Twenty requests race for ply 0 with different houses: one is stored.
    let tasks: Vec<_> = (0..20u8)
        .map(|i| {
            let s = s.clone();
            tokio::spawn(async move { s.append_move(&person_move("g", 0, 1 + i % 6)).await })
        })
        .collect();
    let mut stored = 0;
    for t in tasks {
        stored += usize::from(t.await.unwrap().unwrap());
    }
    assert_eq!(stored, 1);
    assert_eq!(s.load("g").await.unwrap().unwrap().moves.len(), 1);
}

async fn a_computer_turn_is_held_played_and_finished(db: TestDb) {
    let s = db.store().await;
    s.create(&game("c", "greedy")).await.unwrap();
    // A person's move hands the turn to the computer: this instance holds it.
    assert!(
        s.append_move(&computer_next("c", 0, 1, LONG))
            .await
            .unwrap()
    );
    assert_eq!(s.claim_computer_turn(LONG).await.unwrap(), None, "held");
    assert!(s.renew_computer_turn("c", LONG).await.unwrap());
    // An extra turn keeps it; the next move ends it.
    let again = computer_next("c", 1, 2, LONG);
    assert_eq!(
        s.append_computer_move(&again).await.unwrap(),
        ComputerCommit::Stored
    );
    assert_eq!(
        s.append_computer_move(&again).await.unwrap(),
        ComputerCommit::PlyTaken
    );
    let last = person_move("c", 2, 3);
    assert_eq!(
        s.append_computer_move(&last).await.unwrap(),
        ComputerCommit::Stored
    );
    assert!(!s.renew_computer_turn("c", LONG).await.unwrap(), "finished");
    assert_eq!(
        s.append_computer_move(&person_move("c", 3, 4))
            .await
            .unwrap(),
        ComputerCommit::LeaseLost,
        "no turn is held: nothing is stored"
    );
    assert_eq!(s.load("c").await.unwrap().unwrap().moves, vec![1, 2, 3]);
    // A turn found not owed is finished without a move.
    assert!(
        s.append_move(&computer_next("c", 3, 4, LONG))
            .await
            .unwrap()
    );
    s.finish_computer_turn("c").await.unwrap();
    assert!(!s.renew_computer_turn("c", LONG).await.unwrap());
    assert_eq!(s.claim_computer_turn(LONG).await.unwrap(), None);
}

async fn a_lapsed_computer_turn_is_taken_over(db: TestDb) {
    let s = db.store().await;
    s.create(&game("c", "greedy")).await.unwrap();
    let short = Duration::from_millis(200);
    assert!(
        s.append_move(&computer_next("c", 0, 1, short))
            .await
            .unwrap()
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        s.claim_computer_turn(LONG).await.unwrap().as_deref(),
        Some("c")
    );
    assert_eq!(s.claim_computer_turn(LONG).await.unwrap(), None);
    // On shutdown an instance lets go of its turns: they can be taken at once.
    s.release_computer_turns().await.unwrap();
    assert_eq!(
        s.claim_computer_turn(LONG).await.unwrap().as_deref(),
        Some("c")
    );
}

async fn a_timer_fires_once_per_period(db: TestDb) {
    let s = db.store().await;
    let every = Duration::from_millis(300);
    assert!(s.claim_tick("expiry", every).await.unwrap());
    assert!(!s.claim_tick("expiry", every).await.unwrap());
    assert!(
        s.claim_tick("other", every).await.unwrap(),
        "timers are apart"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(s.claim_tick("expiry", every).await.unwrap());
    assert!(!s.claim_tick("expiry", every).await.unwrap());
}

async fn progress_says_how_far_games_have_come(db: TestDb) {
    let s = db.store().await;
    s.create(&game("h", "human")).await.unwrap();
    s.create(&game("c", "greedy")).await.unwrap();
    let ids = |v: &[&str]| v.iter().map(|&i| i.to_owned()).collect::<Vec<_>>();
    let at = |plies, seat_2_taken, rematch| Progress {
        plies,
        seat_2_taken,
        rematch,
    };
    let mut found = s.progress(&ids(&["h", "c", "nope"])).await.unwrap();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        found,
        [
            ("c".into(), at(0, true, false)),
            ("h".into(), at(0, false, false))
        ]
    );
    assert!(s.claim_seat_2("h", [1; 32]).await.unwrap());
    assert!(s.append_move(&person_move("h", 0, 3)).await.unwrap());
    s.create(&game("h2", "human")).await.unwrap();
    s.set_rematch("h", "h2").await.unwrap();
    assert_eq!(
        s.progress(&ids(&["h"])).await.unwrap(),
        [("h".into(), at(1, true, true))]
    );
    assert!(at(1, false, false) > at(0, true, true), "plies count first");
}

/// Several stores on one PostgreSQL database, as several instances run them.
async fn instances(test: &str, n: usize) -> Option<(TestDb, Vec<Arc<Store>>)> {
    let db = TestDb::new(Backend::Postgres, test)?;
    let location = db.location.clone().unwrap();
    // They start together: migrations take turns.
    let opening: Vec<_> = (0..n)
        .map(|_| {
            let location = location.clone();
            tokio::spawn(async move { Store::open(&location, &StoreOptions::default()).await })
        })
        .collect();
    let mut stores = Vec::new();
    for o in opening {
        stores.push(Arc::new(o.await.unwrap().unwrap()));
    }
    Some((db, stores))
}

#[tokio::test]
async fn instances_share_one_computer_turn() {
    let Some((_db, s)) = instances("instances_share_one_computer_turn", 3).await else {
        return;
    };
    assert_ne!(s[0].instance(), s[1].instance());
    s[0].create(&game("c", "greedy")).await.unwrap();
    let short = Duration::from_millis(300);
    assert!(
        s[0].append_move(&computer_next("c", 0, 1, short))
            .await
            .unwrap()
    );
    assert_eq!(s[1].claim_computer_turn(LONG).await.unwrap(), None, "held");
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Lapsed: all three reach for it at once; one gets it.
    let claims: Vec<_> = s
        .iter()
        .map(|s| {
            let s = s.clone();
            tokio::spawn(async move { s.claim_computer_turn(LONG).await.unwrap() })
        })
        .collect();
    let mut winners = Vec::new();
    for (i, c) in claims.into_iter().enumerate() {
        if c.await.unwrap().is_some() {
            winners.push(i);
        }
    }
    assert_eq!(winners.len(), 1, "{winners:?}");
    let (winner, loser) = (&s[winners[0]], &s[(winners[0] + 1) % 3]);
    // The others can neither renew it nor store a move.
    assert!(!loser.renew_computer_turn("c", LONG).await.unwrap());
    assert_eq!(
        loser
            .append_computer_move(&person_move("c", 1, 2))
            .await
            .unwrap(),
        ComputerCommit::LeaseLost
    );
    assert_eq!(
        winner
            .append_computer_move(&person_move("c", 1, 2))
            .await
            .unwrap(),
        ComputerCommit::Stored
    );
    assert_eq!(s[2].load("c").await.unwrap().unwrap().moves, vec![1, 2]);
}

#[tokio::test]
async fn instances_share_timers() {
    let Some((_db, s)) = instances("instances_share_timers", 2).await else {
        return;
    };
    let every = Duration::from_secs(1);
    let claims: Vec<_> = (0..10)
        .map(|i| {
            let s = s[i % 2].clone();
            tokio::spawn(async move { s.claim_tick("expiry", every).await.unwrap() })
        })
        .collect();
    let mut fired = 0;
    for c in claims {
        fired += usize::from(c.await.unwrap());
    }
    assert_eq!(fired, 1);
}

/// Waits for the next change announced to `changes`, at most `limit`.
async fn next_change(
    changes: &mut tokio::sync::mpsc::UnboundedReceiver<Change>,
    limit: Duration,
) -> Option<Change> {
    tokio::time::timeout(limit, changes.recv())
        .await
        .ok()
        .flatten()
}

#[tokio::test]
async fn instances_hear_of_each_others_changes() {
    let Some((_db, s)) = instances("instances_hear_of_each_others_changes", 2).await else {
        return;
    };
    let mut heard = [s[0].changes().unwrap(), s[1].changes().unwrap()];
    assert!(s[0].changes().is_none(), "taken once");
    for h in &mut heard {
        assert_eq!(
            next_change(h, Duration::from_secs(5)).await,
            Some(Change::Resync)
        );
    }
    s[0].create(&game("g", "human")).await.unwrap();
    let started = Instant::now();
    assert!(s[0].claim_seat_2("g", [1; 32]).await.unwrap());
    assert_eq!(
        next_change(&mut heard[1], Duration::from_secs(5)).await,
        Some(Change::Game("g".into()))
    );
    assert!(s[1].append_move(&person_move("g", 0, 3)).await.unwrap());
    assert_eq!(
        next_change(&mut heard[0], Duration::from_secs(5)).await,
        Some(Change::Game("g".into()))
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // An instance does not hear of its own changes, nor of refused ones.
    assert!(!s[0].append_move(&person_move("g", 0, 4)).await.unwrap());
    assert_eq!(
        next_change(&mut heard[0], Duration::from_millis(300)).await,
        None
    );
    assert_eq!(
        next_change(&mut heard[1], Duration::from_millis(300)).await,
        None
    );
    assert_eq!(s[0].changes().map(|_| ()), None);
    let sqlite = Store::in_memory().unwrap();
    assert!(
        sqlite.changes().is_none(),
        "one instance: nobody to hear of"
    );
}

#[test]
fn db_locations() {
    let parse = |s: &str| s.parse::<DbLocation>();
    assert_eq!(
        parse("games.sqlite").unwrap(),
        DbLocation::Sqlite("games.sqlite".into())
    );
    assert_eq!(
        parse("/var/lib/x:y.db").unwrap(),
        DbLocation::Sqlite("/var/lib/x:y.db".into())
    );
    for (url, path) in [
        ("sqlite:games.db", "games.db"),
        ("sqlite://games.db", "games.db"),
        ("sqlite:///srv/games.db", "/srv/games.db"),
    ] {
        assert_eq!(
            parse(url).unwrap(),
            DbLocation::Sqlite(path.into()),
            "{url}"
        );
    }
    for url in [
        "postgres://u@h/d",
        "postgresql://u:p@h:5433/d?sslmode=disable",
    ] {
        assert_eq!(parse(url).unwrap(), DbLocation::Postgres(url.into()));
    }
    for bad in [
        "mysql://u@h/d",
        "postgress://u@h/d",
        "http://x",
        "sqlite:",
        "",
    ] {
        let e = parse(bad).unwrap_err().to_string();
        assert!(!e.is_empty(), "{bad}");
    }
    assert!(
        parse("mysql://u@h/d")
            .unwrap_err()
            .to_string()
            .contains("unknown database URL scheme mysql://")
    );
    assert_eq!(
        DbLocation::Postgres("postgres://ann:secret@db/m".into()).to_string(),
        "PostgreSQL postgres://ann:***@db/m"
    );
}

/// The client has no TLS: a URL that requires it is refused, not sent in the clear.
#[tokio::test]
async fn a_url_requiring_tls_is_refused() {
    let Some(db) = TestDb::new(Backend::Postgres, "a_url_requiring_tls_is_refused") else {
        return;
    };
    let Some(DbLocation::Postgres(url)) = &db.location else {
        unreachable!()
    };
    let location = DbLocation::Postgres(format!("{url}?sslmode=require"));
    assert!(
        Store::open(&location, &StoreOptions::default())
            .await
            .is_err()
    );
    let location = DbLocation::Postgres(format!("{url}?sslmode=disable"));
    assert!(
        Store::open(&location, &StoreOptions::default())
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_bad_postgres_url_is_an_error() {
    let location = DbLocation::Postgres("postgres://u@127.0.0.1:1/d?connect_timeout=2".into());
    let e = Store::open(&location, &StoreOptions::default()).await;
    assert!(e.is_err());
    let location = DbLocation::Postgres("postgres://u@h/d?nonsense=1".into());
    assert!(
        Store::open(&location, &StoreOptions::default())
            .await
            .is_err()
    );
}

/// A change whose announcement was lost (the instance that made it died between the
/// commit and the announcement) still reaches the live streams of the others: each
/// checks the games it streams every couple of seconds.
#[tokio::test]
async fn a_change_nobody_announced_still_reaches_live_streams() {
    let test = "a_change_nobody_announced_still_reaches_live_streams";
    let Some(db) = TestDb::new(Backend::Postgres, test) else {
        return;
    };
    let games = Games::new(db.store().await);
    let _background = games.start_background();
    let grant = games
        .create(serde_json::from_str(r#"{"variant":"kalah"}"#).unwrap())
        .await
        .unwrap();
    let id = grant.id.unwrap();
    let mut live = games.subscribe(&id);
    let Some(DbLocation::Postgres(url)) = &db.location else {
        unreachable!()
    };
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .execute(
            "INSERT INTO moves (game, ply, house) VALUES ($1, 0, 3)",
            &[&id],
        )
        .await
        .unwrap();
    let view = tokio::time::timeout(Duration::from_secs(6), live.recv())
        .await
        .expect("the live stream heard of the move")
        .unwrap();
    assert_eq!((view.ply, view.moves.clone()), (1, vec![3]));
}
