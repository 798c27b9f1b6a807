//! Time for the players: the service's clock (injected, so tests move time by hand),
//! time controls, and whose clock runs.
//!
//! A player's clock runs while it is their turn, from their second move on: the first
//! move of each side is free (and until then the game may be aborted instead), as on
//! most game sites. A computer's clock never runs; its thinking is bounded by the
//! server. With an increment, each timed move adds it; with a limit per move, each
//! move starts the next one afresh.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use mancala_core::Side;
use mancala_session::{Session, Stop};
use serde::Deserialize;

use crate::error::GameError;
use crate::row::started;
use crate::state::{OfferKind, PlayState, TimeControl};
use crate::store::GameRow;

/// Where the service reads the time: the system's clock, or a test's.
pub trait Clock: Send + Sync {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

/// The system's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        crate::store::now_ms()
    }
}

/// A clock that moves only when told to, for tests.
#[derive(Debug)]
pub struct ManualClock {
    now_ms: AtomicI64,
}

impl ManualClock {
    /// A clock showing `now_ms`.
    #[must_use]
    pub fn at(now_ms: i64) -> ManualClock {
        ManualClock {
            now_ms: AtomicI64::new(now_ms),
        }
    }

    /// Moves the clock on by `by`.
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.now_ms.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now_ms.load(Ordering::SeqCst)
    }
}

/// The most time a game may give: a week (a game with no move for that long expires).
const MOST_S: u64 = 7 * 24 * 3600;

/// A time control as `POST /api/games` takes it.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlRequest {
    /// Seconds each player starts with (with `increment_s`).
    pub initial_s: Option<u64>,
    /// Seconds added per move (with `initial_s`; default 0).
    pub increment_s: Option<u64>,
    /// Seconds per move (alone).
    pub per_move_s: Option<u64>,
}

impl TimeControlRequest {
    /// The time control asked for.
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for a mix of the two kinds, or times out of range.
    pub fn check(self) -> Result<TimeControl, GameError> {
        let bad = |m: String| Err(GameError::Unprocessable(m));
        match (self.initial_s, self.increment_s, self.per_move_s) {
            (Some(initial_s), increment_s, None) => {
                let increment_s = increment_s.unwrap_or(0);
                if !(10..=MOST_S).contains(&initial_s) || increment_s > 3600 {
                    return bad(format!(
                        "initial_s is 10 to {MOST_S} seconds and increment_s at most 3600"
                    ));
                }
                Ok(TimeControl::Increment {
                    initial_s,
                    increment_s,
                })
            }
            (None, None, Some(per_move_s)) => {
                if !(10..=MOST_S).contains(&per_move_s) {
                    return bad(format!("per_move_s is 10 to {MOST_S} seconds"));
                }
                Ok(TimeControl::PerMove { per_move_s })
            }
            _ => bad(
                "a time control is {\"initial_s\": S, \"increment_s\": S} or {\"per_move_s\": S}"
                    .into(),
            ),
        }
    }
}

/// The side whose clock runs in `session` under `state`: a person to move, who has
/// moved before, in a game with a time control.
#[must_use]
pub fn running(state: &PlayState, session: &Session) -> Option<Side> {
    state.time_control?;
    let side = session.to_move()?;
    let timed = session.seat(side).is_human() && session.records().iter().any(|r| r.side == side);
    timed.then_some(side)
}

/// When the running clock falls (milliseconds since the Unix epoch), if one runs.
#[must_use]
pub fn deadline(state: &PlayState, session: &Session) -> Option<i64> {
    running(state, session).map(|s| state.turn_started_ms + state.clocks_ms[s.index()])
}

/// Each seat's time left at `now_ms`, player 1 first (never below zero, and zero for
/// a player whose flag fell, whatever the clock held when the timer noticed).
#[must_use]
pub fn remaining(state: &PlayState, session: &Session, now_ms: i64) -> [i64; 2] {
    let mut left = state.clocks_ms;
    if let Some(side) = running(state, session) {
        left[side.index()] -= now_ms - state.turn_started_ms;
    }
    if let Some(Stop::OutOfTime(side)) = state.stop() {
        left[side.index()] = 0;
    }
    left.map(|ms| ms.max(0))
}

/// Stops the running clock of the game of `state` and `session` at `now_ms`: it keeps
/// the time left then (a game that ends shows the time each player had at its end).
pub fn stop_clock(state: &mut PlayState, session: &Session, now_ms: i64) {
    if let Some(side) = running(state, session) {
        state.clocks_ms[side.index()] = remaining(state, session, now_ms)[side.index()];
    }
}

/// The player whose time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged(pub Side);

/// Charges the move `session`'s player to move makes at `now_ms` to their clock, and
/// starts the next turn; [`Flagged`] (nothing changed) when their time ran out first.
///
/// # Errors
/// [`Flagged`] when the mover's time was up before the move.
pub fn charge_move(state: &mut PlayState, session: &Session, now_ms: i64) -> Result<(), Flagged> {
    if let (Some(tc), Some(side)) = (state.time_control, running(state, session)) {
        let left = state.clocks_ms[side.index()] - (now_ms - state.turn_started_ms);
        if left <= 0 {
            return Err(Flagged(side));
        }
        state.clocks_ms[side.index()] = tc.after_move(left);
    }
    state.turn_started_ms = now_ms;
    // A move answers the opponent's offer (no); a draw offered on one's own turn
    // stands until the opponent moves.
    let mover = session.to_move().map(Side::number);
    state.offer = state
        .offer
        .filter(|o| o.kind == OfferKind::Draw && Some(o.seat) == mover);
    Ok(())
}

/// How long the clocks' timer waits between looks for fallen flags (on one instance
/// of those sharing the database).
pub const FLAG_EVERY: Duration = Duration::from_millis(500);

/// How long a player to move in a game without a clock may stay away before the
/// opponent may claim the game.
pub const CLAIM_AFTER: Duration = Duration::from_secs(3 * 24 * 3600);

/// When the player to move in `row` may be claimed against (milliseconds since the
/// Unix epoch): in a started game without a clock, while a person is to move.
pub(crate) fn claim_at(row: &GameRow, session: &Session) -> Option<i64> {
    if row.play.time_control.is_some() || !started(row, session) {
        return None;
    }
    let side = session.to_move()?;
    session.seat(side).is_human().then(|| {
        row.play.turn_started_ms + i64::try_from(CLAIM_AFTER.as_millis()).unwrap_or(i64::MAX)
    })
}

#[cfg(test)]
mod tests {
    use mancala_core::{Move, Rules};

    use super::*;

    fn timed(tc: TimeControl) -> PlayState {
        PlayState {
            time_control: Some(tc),
            clocks_ms: [tc.initial_ms(); 2],
            ..PlayState::default()
        }
    }

    #[test]
    fn the_clock_runs_from_each_players_second_move() {
        let tc = TimeControl::Increment {
            initial_s: 60,
            increment_s: 2,
        };
        let mut state = timed(tc);
        let mut s = Session::new(Rules::oware(6, 4));
        assert_eq!(running(&state, &s), None, "the first move is free");
        charge_move(&mut state, &s, 5_000).unwrap();
        s.play(Move::new(1).unwrap()).unwrap();
        charge_move(&mut state, &s, 9_000).unwrap();
        s.play(Move::new(1).unwrap()).unwrap();
        assert_eq!(running(&state, &s), Some(Side::South));
        assert_eq!(deadline(&state, &s), Some(69_000));
        assert_eq!(remaining(&state, &s, 19_000), [50_000, 60_000]);
        charge_move(&mut state, &s, 19_000).unwrap();
        assert_eq!(state.clocks_ms, [52_000, 60_000], "10 s spent, 2 s added");
        s.play(Move::new(2).unwrap()).unwrap();
        assert_eq!(
            charge_move(&mut state, &s, 19_000 + 60_000),
            Err(Flagged(Side::North))
        );
    }

    #[test]
    fn time_controls_are_checked() {
        let tc = |i, n, p| TimeControlRequest {
            initial_s: i,
            increment_s: n,
            per_move_s: p,
        };
        assert!(tc(Some(180), Some(2), None).check().is_ok());
        assert!(tc(None, None, Some(86_400)).check().is_ok());
        assert!(tc(Some(180), None, Some(5)).check().is_err());
        assert!(tc(Some(1), None, None).check().is_err());
        assert!(tc(None, Some(2), None).check().is_err());
    }
}
