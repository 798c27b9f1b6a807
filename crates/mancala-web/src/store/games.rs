//! The games, written once for both databases: a game's row and how it maps, its
//! creation and loading, the taking of seat 2, the moves, changes of state, rematches
//! and expiry.

use super::account_sql::rate;
use super::sql::{Conn, Dialect, Row, Value, values};
use super::{
    ComputerCommit, Expiry, GameRow, NewMove, Next, RatedEnd, RematchSeat, RematchToken,
    StateChange, StateUpdate, Store, StoreError, now_ms,
};
use mancala_core::Rules;

use crate::state::PlayState;

/// The columns of a game's rules. `rules` is the one value this release reads
/// ([`Rules::to_text`]: the name and board of a game of the catalogue, the whole
/// description of a game of one's own), so that no rule option of one game needs a
/// column; the five after it are the columns of the releases before, still written so
/// that their instances keep running beside this one during a rolling upgrade (they read
/// these), and read here only for a game such an instance stored (`rules` NULL). A later
/// release drops them.
const RULES_COLUMNS: &str = "rules, variant, houses, seeds, empty_capture, end_rule";

/// How many columns [`RULES_COLUMNS`] names.
const RULES_WIDTH: usize = 6;

/// The values of [`RULES_COLUMNS`] for `rules`.
fn rules_values(rules: Rules) -> [Value; RULES_WIDTH] {
    let options = rules.options();
    values![
        rules.to_text(),
        rules.variant().to_string(),
        rules.houses() as u8,
        rules.seeds() as u8,
        options.empty_capture,
        options.end_rule.to_string()
    ]
}

/// Reads [`RULES_COLUMNS`] from `r`, from column 0.
fn read_rules(r: &mut Row) -> Result<Rules, StoreError> {
    let text: Option<String> = r.get(0)?;
    let text = match text {
        Some(text) => text,
        // Stored by an instance of the release before: its columns, written as
        // `V9__rules_value.sql` writes them.
        None => {
            let (variant, houses, seeds): (String, u8, u8) = (r.get(1)?, r.get(2)?, r.get(3)?);
            let (empty_capture, end_rule): (bool, String) = (r.get(4)?, r.get(5)?);
            let kalah = variant == "kalah";
            let mut text = format!("{variant}({houses},{seeds})");
            if kalah && empty_capture {
                text.push_str(" empty-capture");
            }
            if kalah && end_rule != mancala_core::EndRule::default().name() {
                text = format!("{text} {end_rule}");
            }
            text
        }
    };
    Rules::from_text(&text).map_err(|e| StoreError::Corrupt(format!("rules {text:?}: {e}")))
}

/// The columns of `games` after the rules that [`row_to_game`] reads, in its order.
const GAME_COLUMNS: &str = "opponent, rematch, token1, token2, rematch_by, invite, activity, \
                            finished, play, version, deadline, account1, account2, rated, rating";

/// The game `id` in `r`: [`RULES_COLUMNS`], [`GAME_COLUMNS`], then its moves.
fn row_to_game(id: &str, mut r: Row) -> Result<GameRow, StoreError> {
    let corrupt = |e: StoreError| StoreError::Corrupt(format!("game {id}: {e}"));
    let mut g = GameRow {
        id: id.to_owned(),
        rules: read_rules(&mut r).map_err(corrupt)?,
        ..GameRow::default()
    };
    let mut rest = || -> Result<(), StoreError> {
        g.opponent = r.get(6)?;
        g.rematch = r.get(7)?;
        g.token_hashes = [r.get(8)?, r.get(9)?];
        g.rematch_by = r.get(10)?;
        g.invite_hash = r.get(11)?;
        g.activity_ms = r.get(12)?;
        g.finished_ms = r.get(13)?;
        let play: String = r.get(14)?;
        g.play = PlayState::from_json(&play)
            .map_err(|e| StoreError::Corrupt(format!("play state: {e}")))?;
        g.version = r.get(15)?;
        g.deadline_ms = r.get(16)?;
        g.accounts = [r.get(17)?, r.get(18)?];
        g.rated = r.get(19)?;
        g.rating = r.get(20)?;
        g.moves = r.small_ints(21)?;
        Ok(())
    };
    rest().map_err(corrupt)?;
    Ok(g)
}

/// Stores a new game (inside a transaction or not).
pub(super) async fn insert_game(c: &mut dyn Conn, g: &GameRow) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO games ({RULES_COLUMNS}, id, opponent, token1, token2, rematch, rematch_by,
                            invite, activity, finished, play, version, deadline, account1,
                            account2, rated, rating)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18, $19, $20, $21, $22)"
    );
    let [r1, r2, r3, r4, r5, r6] = rules_values(g.rules);
    let params = [
        r1,
        r2,
        r3,
        r4,
        r5,
        r6,
        Value::from(&g.id),
        Value::from(&g.opponent),
        Value::from(g.token_hashes[0]),
        Value::from(g.token_hashes[1]),
        Value::from(g.rematch.as_ref()),
        Value::from(g.rematch_by),
        Value::from(g.invite_hash),
        Value::from(g.activity_ms),
        Value::from(g.finished_ms),
        Value::from(g.play.to_json()),
        Value::from(g.version),
        Value::from(g.deadline_ms),
        Value::from(g.accounts[0].as_ref()),
        Value::from(g.accounts[1].as_ref()),
        Value::from(g.rated),
        Value::from(g.rating.as_ref()),
    ];
    c.execute(&sql, &params).await?;
    Ok(())
}

/// Loads a game and its moves (inside a transaction or not): one query.
pub(super) async fn load_game(c: &mut dyn Conn, id: &str) -> Result<Option<GameRow>, StoreError> {
    let sql = format!(
        "SELECT {RULES_COLUMNS}, {GAME_COLUMNS}, {} FROM games WHERE id = $1",
        c.dialect().moves_of("$1")
    );
    c.query_opt(&sql, &values![id])
        .await?
        .map(|r| row_to_game(id, r))
        .transpose()
}

/// Writes game `game`'s new play state if the game is still at the version it was
/// decided on, marking it active (and finished when `ends`); the rows updated (0: the
/// game changed meanwhile). One statement for a move that brings a state and for a
/// change of state alone, so the two cannot drift apart.
async fn update_state(
    c: &mut dyn Conn,
    game: &str,
    ends: bool,
    state: &StateUpdate,
) -> Result<u64, StoreError> {
    c.execute(
        "UPDATE games SET activity = $2, finished = CASE WHEN $3 THEN $2 ELSE finished END,
                          version = version + 1, play = $4, deadline = $5
         WHERE id = $1 AND version = $6",
        &values![
            game,
            now_ms(),
            ends,
            state.play.to_json(),
            state.deadline_ms,
            state.seen_version
        ],
    )
    .await
}

/// Stores the move, and the game's activity (and end) with it; `false` when the ply is
/// stored already or the game changed since the move was decided. Inside a
/// transaction, which the caller then rolls back.
async fn insert_move(c: &mut dyn Conn, mv: &NewMove) -> Result<bool, StoreError> {
    let inserted = c
        .execute(
            "INSERT INTO moves (game, ply, house) VALUES ($1, $2, $3)",
            &values![&mv.game, mv.ply, mv.house],
        )
        .await;
    match inserted {
        Ok(_) => {}
        Err(e) if e.is_constraint_violation() => return Ok(false),
        Err(e) => return Err(e),
    }
    let ends = mv.next == Next::Nobody;
    let updated = match &mv.state {
        None => {
            c.execute(
                "UPDATE games SET activity = $2,
                                  finished = CASE WHEN $3 THEN $2 ELSE finished END,
                                  version = version + 1
                 WHERE id = $1",
                &values![&mv.game, now_ms(), ends],
            )
            .await?
        }
        Some(state) => update_state(c, &mv.game, ends, state).await?,
    };
    Ok(updated == 1)
}

/// Holds game `id`'s computer turn for this instance until `lease` from now.
pub(super) async fn hold_turn(
    c: &mut dyn Conn,
    id: &str,
    lease: std::time::Duration,
) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO computer_turns (game, holder, expires) VALUES ($1, $2, {})
         ON CONFLICT (game) DO UPDATE SET holder = excluded.holder, expires = excluded.expires",
        c.dialect().later("$3")
    );
    let instance = c.instance().to_owned();
    c.execute(&sql, &values![id, instance, lease.as_secs_f64()])
        .await?;
    Ok(())
}

/// Keeps game `id`'s computer turn for this instance when the computer is `next`,
/// drops it otherwise.
pub(super) async fn settle_turn(c: &mut dyn Conn, id: &str, next: Next) -> Result<(), StoreError> {
    match next {
        Next::Computer { lease } => hold_turn(c, id, lease).await,
        Next::Person | Next::Nobody => {
            c.execute("DELETE FROM computer_turns WHERE game = $1", &values![id])
                .await?;
            Ok(())
        }
    }
}

/// A person's move as one transaction of several statements (see [`Store::append_move`]).
async fn append_move_in_transaction(c: &mut dyn Conn, mv: &NewMove) -> Result<bool, StoreError> {
    c.begin().await?;
    if !insert_move(c, mv).await? {
        return Ok(false);
    }
    if let Next::Computer { lease } = mv.next {
        hold_turn(c, &mv.game, lease).await?;
    }
    c.commit().await?;
    Ok(true)
}

/// A person's move as one PostgreSQL statement: one round trip, one transaction. The
/// game's row first (its version checked, its activity, end and state set), the move
/// only if that row was updated, and the computer's turn if it is next.
async fn append_move_in_one_statement(c: &mut dyn Conn, mv: &NewMove) -> Result<bool, StoreError> {
    const GAME_THEN_MOVE: &str = "WITH g AS (
            UPDATE games SET activity = $4, finished = CASE WHEN $5 THEN $4 ELSE finished END,
                             version = version + 1,
                             play = CASE WHEN $9 THEN $6 ELSE play END,
                             deadline = CASE WHEN $9 THEN $7 ELSE deadline END
            WHERE id = $1 AND (NOT $9 OR version = $8) RETURNING id)";
    let state = mv.state.as_ref();
    let mut params = values![
        &mv.game,
        mv.ply,
        mv.house,
        now_ms(),
        mv.next == Next::Nobody,
        state.map(|s| s.play.to_json()),
        state.and_then(|s| s.deadline_ms),
        state.map(|s| s.seen_version),
        state.is_some(),
    ]
    .to_vec();
    let sql = match mv.next {
        Next::Person | Next::Nobody => format!(
            "{GAME_THEN_MOVE}
             INSERT INTO moves (game, ply, house) SELECT id, $2, $3 FROM g"
        ),
        Next::Computer { lease } => {
            params.extend(values![c.instance(), lease.as_secs_f64()]);
            format!(
                "{GAME_THEN_MOVE},
                 m AS (INSERT INTO moves (game, ply, house) SELECT id, $2, $3 FROM g
                       RETURNING game)
                 INSERT INTO computer_turns (game, holder, expires)
                 SELECT game, $10, {} FROM m
                 ON CONFLICT (game) DO UPDATE SET holder = excluded.holder,
                                                  expires = excluded.expires",
                Dialect::Postgres.later("$11")
            )
        }
    };
    match c.execute(&sql, &params).await {
        Ok(1) => Ok(true),
        // The game changed since the move was decided.
        Ok(_) => Ok(false),
        Err(e) if e.is_constraint_violation() => Ok(false),
        Err(e) => Err(e),
    }
}

/// The rematch of game `id`, in the caller's transaction: what [`Store::rematch`]
/// does.
async fn rematch(
    c: &mut dyn Conn,
    id: &str,
    asker: u8,
    new: &GameRow,
    token_for: &RematchToken,
) -> Result<RematchSeat, StoreError> {
    let sql = format!(
        "SELECT rematch, rematch_by FROM games WHERE id = $1{}",
        c.dialect().for_update()
    );
    let mut row = c
        .query_opt(&sql, &values![id])
        .await?
        .ok_or_else(|| StoreError::Corrupt(format!("rematch of {id}: no such game")))?;
    let (existing, by): (Option<String>, Option<u8>) = (row.get(0)?, row.get(1)?);
    // A rematch that has expired since is started again.
    let existing = match existing {
        Some(rid) => load_game(c, &rid).await?,
        None => None,
    };
    let Some(game) = existing else {
        let mut row = new.clone();
        row.token_hashes = [Some(token_for(&row.id)), None];
        row.activity_ms = now_ms();
        insert_game(c, &row).await?;
        c.execute(
            // A change of the game: its streams carry it (see GameRow::version).
            "UPDATE games SET rematch = $2, rematch_by = $3, version = version + 1
             WHERE id = $1",
            &values![id, &row.id, asker],
        )
        .await?;
        return Ok(RematchSeat {
            id: row.id,
            seat: 1,
            fresh: true,
        });
    };
    let mine = token_for(&game.id);
    let seat: u8 = if by == Some(asker) { 1 } else { 2 };
    let fresh = match game.token_hashes[usize::from(seat - 1)] {
        Some(held) if held == mine => false,
        // Taken once: a second request of the other player finds it held.
        None if seat == 2 => {
            c.execute(
                "UPDATE games SET token2 = $2, activity = $3 WHERE id = $1 AND token2 IS NULL",
                &values![&game.id, mine, now_ms()],
            )
            .await?
                == 1
        }
        _ => {
            return Err(StoreError::Corrupt(format!(
                "rematch {}: seat {seat} holds another token",
                game.id
            )));
        }
    };
    Ok(RematchSeat {
        id: game.id,
        seat,
        fresh,
    })
}

/// Deletes the games past their expiry at `now_ms`, in one transaction, and announces
/// them: what [`Store::expire`] does.
async fn expire(c: &mut dyn Conn, expiry: Expiry, now_ms: i64) -> Result<Vec<String>, StoreError> {
    let (finished, idle, unstarted) = expiry.cutoffs(now_ms);
    let d = c.dialect();
    c.begin().await?;
    // Locked, so that no move or join lands in a game while it is deleted.
    let sql = format!(
        "SELECT id FROM games g WHERE
           (finished IS NOT NULL AND finished <= CAST($1 AS BIGINT)
            AND account1 IS NULL AND account2 IS NULL)
           OR (finished IS NULL AND activity <=
                CASE WHEN EXISTS (SELECT 1 FROM moves m WHERE m.game = g.id)
                     THEN CAST($2 AS BIGINT) ELSE CAST($3 AS BIGINT) END){}",
        d.skip_locked()
    );
    let ids: Vec<String> = c.column(&sql, &values![finished, idle, unstarted]).await?;
    if ids.is_empty() {
        return Ok(ids);
    }
    let any = d.any_of("$1");
    let list = values![ids.clone()];
    for statement in [
        format!("DELETE FROM computer_turns WHERE game {any}"),
        format!("DELETE FROM moves WHERE game {any}"),
        format!("UPDATE games SET rematch = NULL, rematch_by = NULL WHERE rematch {any}"),
        format!("DELETE FROM games WHERE id {any}"),
    ] {
        c.execute(&statement, &list).await?;
    }
    c.commit().await?;
    for id in &ids {
        c.announce(id).await;
    }
    Ok(ids)
}

/// Stores a change of state that is not a move, in one transaction: what
/// [`Store::change_state`] does; a rated game it ends is rated in it.
async fn change_state(
    c: &mut dyn Conn,
    change: &StateChange,
    rated: Option<&RatedEnd>,
) -> Result<bool, StoreError> {
    c.begin().await?;
    let ends = change.next == Next::Nobody;
    if update_state(c, &change.game, ends, &change.update).await? != 1 {
        return Ok(false);
    }
    if let Some(keep) = change.keep_plies {
        c.execute(
            "DELETE FROM moves WHERE game = $1 AND ply >= $2",
            &values![&change.game, keep],
        )
        .await?;
    }
    settle_turn(c, &change.game, change.next).await?;
    if let Some(r) = rated {
        rate(c, &change.game, &r.pool, r.score, r.cap, false).await?;
    }
    c.commit().await?;
    c.announce(&change.game).await;
    Ok(true)
}

impl Store {
    /// Stores a new game with no moves.
    ///
    /// # Errors
    /// When the database fails (an id taken among them).
    pub async fn create(&self, game: &GameRow) -> Result<(), StoreError> {
        let game = game.clone();
        self.run(move |c| Box::pin(async move { insert_game(c, &game).await }))
            .await
    }

    /// The game with this id and its moves, if it exists.
    ///
    /// # Errors
    /// When the database fails or holds a row it cannot read.
    pub async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let id = id.to_owned();
        self.run(move |c| Box::pin(async move { load_game(c, &id).await }))
            .await
    }

    /// Gives seat 2 to the holder of `token_hash` (playing for `account`, if given) if
    /// it is free (the game's activity is now); `false` if taken, or if the game is
    /// rated and no account was given. Whether the joiner brought the invite is the
    /// caller's check, against [`GameRow::invite_hash`].
    ///
    /// # Errors
    /// When the database fails.
    pub async fn claim_seat_2(
        &self,
        id: &str,
        token_hash: [u8; 32],
        account: Option<&str>,
    ) -> Result<bool, StoreError> {
        let (id, account) = (id.to_owned(), account.map(str::to_owned));
        self.run(move |c| {
            Box::pin(async move {
                let n = c
                    .execute(
                        "UPDATE games SET token2 = $2, activity = $3, account2 = $4
                         WHERE id = $1 AND token2 IS NULL AND opponent = 'human'
                           AND (NOT rated OR CAST($4 AS TEXT) IS NOT NULL)",
                        &values![&id, token_hash, now_ms(), account],
                    )
                    .await?;
                if n == 1 {
                    c.announce(&id).await;
                }
                Ok(n == 1)
            })
        })
        .await
    }

    /// Stores a person's move (the game's activity is now, and its end if
    /// [`Next::Nobody`]), and the computer's turn after it if [`Next::Computer`] (taken
    /// by this instance). `false` when the ply is already stored (another request got
    /// there first), or the move brings a state and the game is no longer at the
    /// version it was decided on.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn append_move(&self, mv: &NewMove) -> Result<bool, StoreError> {
        let mv = mv.clone();
        self.run(move |c| {
            Box::pin(async move {
                let stored = match c.dialect() {
                    Dialect::Postgres => append_move_in_one_statement(c, &mv).await?,
                    Dialect::Sqlite => append_move_in_transaction(c, &mv).await?,
                };
                if stored {
                    c.announce(&mv.game).await;
                }
                Ok(stored)
            })
        })
        .await
    }

    /// Seats the player of seat `asker` of game `id` in its rematch, in one
    /// transaction: the first to ask creates `new` (its seat 1 played by
    /// `token_for(new id)`), the other player takes seat 2 of it, and a player who asks
    /// again gets the seat they hold. `token_for` gives the hash of the asker's token
    /// for a rematch id, the same every time they ask. A rematch that has expired is
    /// started again.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when the game does not exist or the asker's seat holds
    /// another token (which the derivation rules out); when the database fails.
    pub async fn rematch(
        &self,
        id: &str,
        asker: u8,
        new: &GameRow,
        token_for: RematchToken,
    ) -> Result<RematchSeat, StoreError> {
        let (id, new) = (id.to_owned(), new.clone());
        self.run(move |c| {
            Box::pin(async move {
                c.begin().await?;
                let seat = rematch(c, &id, asker, &new, &token_for).await?;
                c.commit().await?;
                if seat.fresh {
                    // Seat 1: the old game now has a rematch; seat 2: the rematch starts.
                    let changed = if seat.seat == 1 { &id } else { &seat.id };
                    c.announce(changed).await;
                }
                Ok(seat)
            })
        })
        .await
    }

    /// Deletes the games past their expiry at `now_ms` (with their moves and owed
    /// computer turns; a rematch pointing at one is forgotten), and announces them;
    /// returns their ids.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn expire(&self, expiry: &Expiry, now_ms: i64) -> Result<Vec<String>, StoreError> {
        let expiry = *expiry;
        self.run(move |c| Box::pin(expire(c, expiry, now_ms))).await
    }

    /// Stores a change of state that is not a move (see [`StateChange`]), if the game
    /// is still at the version it was decided on; `false` otherwise.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn change_state(&self, change: &StateChange) -> Result<bool, StoreError> {
        let change = change.clone();
        self.run(move |c| Box::pin(async move { change_state(c, &change, None).await }))
            .await
    }

    /// Stores a change of state that ends a rated game as [`Store::change_state`]
    /// does, and rates the game in the same transaction (see [`Store::rate`]), so that
    /// the end and the ratings are one change of the game.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn change_state_rated(
        &self,
        change: &StateChange,
        rated: &RatedEnd,
    ) -> Result<bool, StoreError> {
        let (change, rated) = (change.clone(), rated.clone());
        self.run(move |c| Box::pin(async move { change_state(c, &change, Some(&rated)).await }))
            .await
    }

    /// Stores a person's move that ends a rated game as [`Store::append_move`] does,
    /// and rates the game in the same transaction (see [`Store::rate`]): the view that
    /// first says the game is over carries both players' rating changes.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn append_move_rated(
        &self,
        mv: &NewMove,
        rated: &RatedEnd,
    ) -> Result<bool, StoreError> {
        let (mv, rated) = (mv.clone(), rated.clone());
        self.run(move |c| {
            Box::pin(async move {
                c.begin().await?;
                if !insert_move(c, &mv).await? {
                    return Ok(false);
                }
                settle_turn(c, &mv.game, mv.next).await?;
                rate(c, &mv.game, &rated.pool, rated.score, rated.cap, false).await?;
                c.commit().await?;
                c.announce(&mv.game).await;
                Ok(true)
            })
        })
        .await
    }

    /// Stores the computer's move in a turn this instance holds (the game's activity is
    /// now, and its end if [`Next::Nobody`]): with the turn kept (renewed) when
    /// [`Next::Computer`], finished otherwise.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn append_computer_move(&self, mv: &NewMove) -> Result<ComputerCommit, StoreError> {
        let mv = mv.clone();
        self.run(move |c| {
            Box::pin(async move {
                c.begin().await?;
                let sql = format!(
                    "SELECT 1 FROM computer_turns WHERE game = $1 AND holder = $2{}",
                    c.dialect().for_update()
                );
                let instance = c.instance().to_owned();
                if c.query_opt(&sql, &values![&mv.game, instance])
                    .await?
                    .is_none()
                {
                    return Ok(ComputerCommit::LeaseLost);
                }
                // Taken, or the game changed since the move was decided: look again.
                if !insert_move(c, &mv).await? {
                    return Ok(ComputerCommit::PlyTaken);
                }
                settle_turn(c, &mv.game, mv.next).await?;
                c.commit().await?;
                c.announce(&mv.game).await;
                Ok(ComputerCommit::Stored)
            })
        })
        .await
    }
}
