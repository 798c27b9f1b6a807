//! The storage interface on both backends, and what several instances sharing one
//! PostgreSQL database rely on: one winner per ply, one rematch per game whoever asks
//! and however often, computer turns held by exactly one instance and taken over when
//! its hold lapses, timers that fire once, expiry, and changes announced to the other
//! instances.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Backend, TestDb};
use mancala_web::{
    Change, ComputerCommit, DbLocation, Expiry, GameRow, Games, Limits, NewMove, Next, Offer,
    OfferKind, PlayState, Progress, RematchSeat, RematchToken, StateChange, StateUpdate, Store,
    StoreOptions, now_ms,
};

fn game(id: &str, opponent: &str) -> GameRow {
    GameRow {
        id: id.into(),
        rules: mancala_core::Rules::from_text("kalah(6,4) empty-capture either-side-empty")
            .unwrap(),
        opponent: opponent.into(),
        token_hashes: [Some([7; 32]), None],
        invite_hash: Some([9; 32]),
        activity_ms: 1_700_000_000_000,
        ..GameRow::default()
    }
}

/// The rematch token hashes of the player of `seat`: a function of the rematch's id.
fn tokens_of(seat: u8) -> RematchToken {
    Arc::new(move |rid: &str| {
        let mut h = [seat; 32];
        for (b, c) in h.iter_mut().zip(rid.bytes()) {
            *b ^= c;
        }
        h
    })
}

fn person_move(id: &str, ply: usize, house: u8) -> NewMove {
    NewMove {
        game: id.into(),
        ply,
        house,
        next: Next::Person,
        state: None,
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
    a_state_change_is_stored_once_per_version,
    moves_and_joins_are_activity_and_the_last_move_ends_the_game,
    a_rematch_seats_each_player_once,
    racing_rematch_requests_make_one_game,
    games_expire_by_their_state,
    the_background_deletes_expired_games_by_a_timer,
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
    let mut loaded = s.load("g1").await.unwrap().unwrap();
    assert!(
        loaded.activity_ms >= now_ms() - 60_000,
        "a move is activity"
    );
    loaded.activity_ms = g.activity_ms;
    g.version = 3;
    assert_eq!(loaded, g, "each move is a new version");
    // Every column: a finished rematch started by seat 2, a computer game.
    let full = GameRow {
        play: PlayState {
            names: [Some("Ann".into()), None],
            first: Some(2),
            clocks_ms: [1000, 2000],
            turn_started_ms: 1_700_000_000_000,
            ..PlayState::default()
        },
        version: 7,
        deadline_ms: Some(1_700_000_001_000),
        rematch: Some("g1".into()),
        rematch_by: Some(2),
        token_hashes: [Some([1; 32]), Some([2; 32])],
        finished_ms: Some(1_700_000_000_500),
        invite_hash: None,
        ..game("g2", "alphabeta:ms=500")
    };
    s.create(&full).await.unwrap();
    assert_eq!(s.load("g2").await.unwrap(), Some(full));
}

async fn a_state_change_is_stored_once_per_version(db: TestDb) {
    let s = db.store().await;
    s.create(&game("h", "human")).await.unwrap();
    assert!(s.append_move(&person_move("h", 0, 3)).await.unwrap());
    let offered = PlayState {
        offer: Some(Offer {
            kind: OfferKind::Draw,
            seat: 2,
        }),
        ..PlayState::default()
    };
    let change = |seen_version, next, keep_plies| StateChange {
        game: "h".into(),
        update: StateUpdate {
            seen_version,
            play: offered.clone(),
            deadline_ms: Some(5_000),
        },
        keep_plies,
        next,
    };
    assert!(
        !s.change_state(&change(0, Next::Person, None))
            .await
            .unwrap(),
        "decided before the move"
    );
    assert!(
        s.change_state(&change(1, Next::Person, None))
            .await
            .unwrap()
    );
    let row = s.load("h").await.unwrap().unwrap();
    assert_eq!(
        (row.version, &row.play, row.deadline_ms),
        (2, &offered, Some(5_000))
    );
    assert!(s.overdue(4_999, 10).await.unwrap().is_empty());
    assert_eq!(s.overdue(5_000, 10).await.unwrap(), ["h"]);
    // A move decided on an older version is not stored.
    let stale = NewMove {
        state: Some(StateUpdate {
            seen_version: 1,
            play: PlayState::default(),
            deadline_ms: None,
        }),
        ..person_move("h", 1, 1)
    };
    assert!(!s.append_move(&stale).await.unwrap());
    let fresh = NewMove {
        state: Some(StateUpdate {
            seen_version: 2,
            ..stale.state.clone().unwrap()
        }),
        ..stale.clone()
    };
    assert!(s.append_move(&fresh).await.unwrap());
    let row = s.load("h").await.unwrap().unwrap();
    assert_eq!(
        (row.moves.len(), row.deadline_ms, row.version),
        (2, None, 3)
    );
    // A takeback deletes moves; a stop ends the game.
    assert!(
        s.change_state(&change(3, Next::Person, Some(1)))
            .await
            .unwrap()
    );
    assert_eq!(s.load("h").await.unwrap().unwrap().moves, [3]);
    assert!(
        s.change_state(&change(4, Next::Nobody, None))
            .await
            .unwrap()
    );
    assert!(s.load("h").await.unwrap().unwrap().finished_ms.is_some());
}

async fn moves_and_joins_are_activity_and_the_last_move_ends_the_game(db: TestDb) {
    let s = db.store().await;
    s.create(&game("g", "human")).await.unwrap();
    let before = now_ms();
    assert!(s.claim_seat_2("g", [1; 32], None).await.unwrap());
    let joined = s.load("g").await.unwrap().unwrap();
    assert!(joined.activity_ms >= before, "joining is activity");
    assert_eq!(joined.finished_ms, None);
    assert!(s.append_move(&person_move("g", 0, 3)).await.unwrap());
    assert_eq!(s.load("g").await.unwrap().unwrap().finished_ms, None);
    let last = NewMove {
        next: Next::Nobody,
        ..person_move("g", 1, 2)
    };
    assert!(s.append_move(&last).await.unwrap());
    let over = s.load("g").await.unwrap().unwrap();
    assert_eq!(over.finished_ms, Some(over.activity_ms));
    assert!(over.activity_ms >= before);
    // The computer's last move ends its game too.
    s.create(&game("c", "greedy")).await.unwrap();
    let long = Duration::from_secs(60);
    assert!(
        s.append_move(&computer_next("c", 0, 1, long))
            .await
            .unwrap()
    );
    let end = NewMove {
        next: Next::Nobody,
        ..person_move("c", 1, 2)
    };
    assert_eq!(
        s.append_computer_move(&end).await.unwrap(),
        ComputerCommit::Stored
    );
    assert!(s.load("c").await.unwrap().unwrap().finished_ms.is_some());
    assert!(
        !s.renew_computer_turn("c", long).await.unwrap(),
        "no turn left"
    );
}

async fn a_rematch_seats_each_player_once(db: TestDb) {
    let s = db.store().await;
    s.create(&game("g", "human")).await.unwrap();
    let ask = |asker: u8, new: &str| {
        let (s, new) = (&s, game(new, "human"));
        async move { s.rematch("g", asker, &new, tokens_of(asker)).await.unwrap() }
    };
    let seat = |id: &str, seat, fresh| RematchSeat {
        id: id.into(),
        seat,
        fresh,
    };
    // Player 2 asks first: player 1 of the rematch; again: the same seat.
    assert_eq!(ask(2, "r1").await, seat("r1", 1, true));
    assert_eq!(ask(2, "r2").await, seat("r1", 1, false));
    assert_eq!(ask(1, "r3").await, seat("r1", 2, true));
    assert_eq!(ask(1, "r4").await, seat("r1", 2, false));
    assert_eq!(ask(2, "r5").await, seat("r1", 1, false));
    let old = s.load("g").await.unwrap().unwrap();
    assert_eq!(
        (old.rematch.as_deref(), old.rematch_by),
        (Some("r1"), Some(2))
    );
    let r1 = s.load("r1").await.unwrap().unwrap();
    assert_eq!(
        r1.token_hashes,
        [Some(tokens_of(2)("r1")), Some(tokens_of(1)("r1"))]
    );
    assert!(r1.moves.is_empty() && r1.rematch.is_none());
    for unused in ["r2", "r3", "r4", "r5"] {
        assert_eq!(s.load(unused).await.unwrap(), None, "{unused}");
    }
    assert!(
        s.rematch("nope", 1, &game("r6", "human"), tokens_of(1))
            .await
            .is_err()
    );
    // Once the rematch has expired, asking starts another.
    let all = Expiry {
        unstarted: Duration::ZERO,
        idle: Duration::ZERO,
        finished: Duration::ZERO,
    };
    s.expire(&all, now_ms() + 1_000).await.unwrap();
    s.create(&game("g", "human")).await.unwrap();
    assert_eq!(ask(1, "r7").await, seat("r7", 1, true));
}

async fn racing_rematch_requests_make_one_game(db: TestDb) {
    let s = Arc::new(db.store().await);
    s.create(&game("g", "human")).await.unwrap();
    // Both players, five requests each, all at once.
    let asks: Vec<_> = (0..10u8)
        .map(|i| {
            let s = s.clone();
            let asker = 1 + i % 2;
            tokio::spawn(async move {
                let new = game(&format!("r{i}"), "human");
                (asker, s.rematch("g", asker, &new, tokens_of(asker)).await)
            })
        })
        .collect();
    let mut seats = Vec::new();
    for a in asks {
        let (asker, seat) = a.await.unwrap();
        seats.push((asker, seat.unwrap()));
    }
    let id = &seats[0].1.id;
    assert!(seats.iter().all(|(_, seat)| &seat.id == id), "{seats:?}");
    for asker in [1, 2] {
        let mine: Vec<_> = seats.iter().filter(|(a, _)| *a == asker).collect();
        assert_eq!(mine.iter().filter(|(_, seat)| seat.fresh).count(), 1);
        assert!(mine.iter().all(|(_, seat)| seat.seat == mine[0].1.seat));
    }
    let rematch = s.load(id).await.unwrap().unwrap();
    assert!(rematch.token_hashes.iter().all(Option::is_some));
}

async fn games_expire_by_their_state(db: TestDb) {
    let s = db.store().await;
    let expiry = Expiry {
        unstarted: Duration::from_secs(100),
        idle: Duration::from_secs(1_000),
        finished: Duration::from_secs(10_000),
    };
    let now = now_ms();
    let secs = |n: i64| n * 1000;
    // Created 101 and 99 s ago, nobody moved.
    for (id, ago) in [("waiting-old", 101), ("waiting-new", 99)] {
        let row = GameRow {
            activity_ms: now - secs(ago),
            ..game(id, "human")
        };
        s.create(&row).await.unwrap();
    }
    // In progress (a move now), over (its last move now), and a computer game where
    // the computer owes a move.
    s.create(&game("playing", "human")).await.unwrap();
    assert!(s.append_move(&person_move("playing", 0, 1)).await.unwrap());
    s.create(&game("over", "human")).await.unwrap();
    let end = NewMove {
        next: Next::Nobody,
        ..person_move("over", 0, 1)
    };
    assert!(s.append_move(&end).await.unwrap());
    s.create(&game("owed", "greedy")).await.unwrap();
    let lease = Duration::from_secs(60);
    assert!(
        s.append_move(&computer_next("owed", 0, 1, lease))
            .await
            .unwrap()
    );
    s.release_computer_turns().await.unwrap();
    // A rematch of the finished game, nobody moved in it yet.
    s.rematch("over", 1, &game("again", "human"), tokens_of(1))
        .await
        .unwrap();

    let expire = |at: i64| {
        let s = &s;
        async move {
            let mut gone = s.expire(&expiry, at).await.unwrap();
            gone.sort();
            gone
        }
    };
    // Every time above is `now` or later, give or take the few seconds this takes.
    let slack = secs(10);
    assert_eq!(expire(now).await, ["waiting-old"]);
    assert_eq!(expire(now + secs(99)).await, ["waiting-new"]);
    assert_eq!(expire(now + secs(100) + slack).await, ["again"]);
    let over = s.load("over").await.unwrap().unwrap();
    assert_eq!(
        (over.rematch, over.rematch_by),
        (None, None),
        "an expired rematch is forgotten"
    );
    assert_eq!(expire(now + secs(999)).await, Vec::<String>::new());
    assert_eq!(expire(now + secs(1_000) + slack).await, ["owed", "playing"]);
    assert_eq!(
        s.claim_computer_turn(lease).await.unwrap(),
        None,
        "an expired game owes no computer move"
    );
    assert_eq!(
        s.progress(&["owed".to_owned()]).await.unwrap(),
        [("owed".to_owned(), Progress::EXPIRED)]
    );
    assert_eq!(expire(now + secs(9_999)).await, Vec::<String>::new());
    assert_eq!(expire(now + secs(10_000) + slack).await, ["over"]);
    for id in [
        "waiting-old",
        "waiting-new",
        "playing",
        "over",
        "owed",
        "again",
    ] {
        assert_eq!(s.load(id).await.unwrap(), None, "{id}");
    }
}

async fn seat_two_is_claimed_once_and_a_ply_stored_once(db: TestDb) {
    let s = Arc::new(db.store().await);
    s.create(&game("g", "human")).await.unwrap();
    assert!(s.claim_seat_2("g", [1; 32], None).await.unwrap());
    assert!(!s.claim_seat_2("g", [2; 32], None).await.unwrap());
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
    let at = |version, plies, seat_2_taken, rematch| Progress {
        expired: false,
        version,
        plies,
        seat_2_taken,
        rematch,
    };
    let mut found = s.progress(&ids(&["h", "c", "nope"])).await.unwrap();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        found,
        [
            ("c".into(), at(0, 0, true, false)),
            ("h".into(), at(0, 0, false, false)),
            ("nope".into(), Progress::EXPIRED),
        ]
    );
    assert!(s.claim_seat_2("h", [1; 32], None).await.unwrap());
    assert!(s.append_move(&person_move("h", 0, 3)).await.unwrap());
    s.rematch("h", 1, &game("h2", "human"), tokens_of(1))
        .await
        .unwrap();
    // The move and the start of the rematch each raise the version.
    assert_eq!(
        s.progress(&ids(&["h"])).await.unwrap(),
        [("h".into(), at(2, 1, true, true))]
    );
    assert!(
        at(1, 1, false, false) > at(0, 0, true, true),
        "plies count first"
    );
    assert!(
        at(2, 0, false, false) > at(1, 1, true, true),
        "a takeback is a later version with fewer plies"
    );
    assert!(
        Progress::EXPIRED > at(100, 100, true, true),
        "expiry is the last change"
    );
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
    assert!(s[0].claim_seat_2("g", [1; 32], None).await.unwrap());
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
    // The game as it was may come first (the listener's first connection resends
    // every watched game, whenever it is made).
    let view = tokio::time::timeout(Duration::from_secs(6), async {
        loop {
            let view = live.recv().await.unwrap();
            if view.ply > 0 {
                return view;
            }
        }
    })
    .await
    .expect("the live stream heard of the move");
    assert_eq!((view.ply, view.moves.clone()), (1, vec![3]));
}

/// Limits under which a game nobody joins expires after `ms` milliseconds.
fn unstarted_expiry(ms: u64) -> Limits {
    Limits {
        expiry: Expiry {
            unstarted: Duration::from_millis(ms),
            ..Expiry::default()
        },
        ..Limits::default()
    }
}

/// A new game against a friend, nobody joined; its id.
async fn waiting_game(games: &Games) -> String {
    let grant = games
        .create(serde_json::from_str(r#"{"variant":"kalah"}"#).unwrap())
        .await
        .unwrap();
    grant.id.unwrap()
}

/// Waits until `live` is closed (its game expired), at most `limit`.
async fn closes_within(
    live: &mut tokio::sync::broadcast::Receiver<Arc<mancala_web::SentView>>,
    limit: Duration,
) -> bool {
    tokio::time::timeout(limit, async {
        loop {
            if let Err(tokio::sync::broadcast::error::RecvError::Closed) = live.recv().await {
                return;
            }
        }
    })
    .await
    .is_ok()
}

/// The background work deletes expired games by itself (through the `expiry` timer,
/// which fires on one instance per period), and their live streams end.
async fn the_background_deletes_expired_games_by_a_timer(db: TestDb) {
    let games = Games::with_limits(db.store().await, unstarted_expiry(500));
    let _background = games.start_background();
    let id = waiting_game(&games).await;
    let mut live = games.subscribe(&id);
    assert!(
        closes_within(&mut live, Duration::from_secs(5)).await,
        "the live stream ended with the game"
    );
    assert!(games.view(&id).await.is_err());
    if db.location.is_some() {
        // Deleted, not only hidden: another store on the database does not find it.
        let other = db.store().await;
        assert_eq!(other.load(&id).await.unwrap(), None);
    }
}

/// A game that one instance deletes as expired ends the live streams of the others:
/// announced at once, and found by the periodic check when the announcement is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_game_ends_live_streams_on_every_instance() {
    let test = "an_expired_game_ends_live_streams_on_every_instance";
    let Some(db) = TestDb::new(Backend::Postgres, test) else {
        return;
    };
    // A deletes expired games (by hand here); B streams, and keeps games a day.
    let a = Games::with_limits(db.store().await, unstarted_expiry(300));
    let b = Games::new(db.store().await);
    let _b_background = b.start_background();
    let announced = waiting_game(&a).await;
    let mut live = b.subscribe(&announced);
    b.view(&announced).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(a.expire().await.unwrap(), 1);
    let started = Instant::now();
    assert!(closes_within(&mut live, Duration::from_secs(5)).await);
    assert!(started.elapsed() < Duration::from_secs(1), "announced");

    // Deleted without an announcement (as by an instance that died before making it).
    let silent = waiting_game(&b).await;
    let mut live = b.subscribe(&silent);
    b.view(&silent).await.unwrap();
    let Some(DbLocation::Postgres(url)) = &db.location else {
        unreachable!()
    };
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .execute("DELETE FROM games WHERE id = $1", &[&silent])
        .await
        .unwrap();
    assert!(
        closes_within(&mut live, Duration::from_secs(6)).await,
        "the periodic check found it gone"
    );
}
