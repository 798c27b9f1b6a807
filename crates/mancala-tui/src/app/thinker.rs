//! Computer players think on threads of their own, so the screen stays live: a player
//! is moved to a thread with a copy of the game and comes back with its choice.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use mancala_core::{Game, Side};
use mancala_engine::Choice;
use mancala_match::Seated;
use mancala_session::Seat;

use super::THINKER_THREAD;
use super::game::GameState;
use super::view::{Message, MessageKind};
use crate::fit;

/// What a computer was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Job {
    Move(Side),
    Hint,
}

/// A thinker thread's answer: the player comes back with its choice.
pub(crate) struct Reply {
    job: Job,
    game_id: u64,
    epoch: u64,
    ply: usize,
    player: Seated,
    choice: Result<Choice, Failure>,
}

/// Why a computer player gave no move.
enum Failure {
    /// One of the suite's players panicked: a bug, which ends the program with its
    /// message.
    Panicked(String),
    /// An external engine failed (stopped, timed out, answered an illegal move or
    /// garbage): its forfeit, after which the person at the keyboard plays its seat.
    Forfeit(String),
}

/// Sends `player` off to choose a move in `g`'s current position.
pub(crate) fn ask(tx: &Sender<Reply>, job: Job, g: &GameState, player: Seated) {
    spawn_thinker(
        tx,
        job,
        g.game_id,
        g.epoch,
        g.session.game().clone(),
        player,
    );
}

fn spawn_thinker(
    tx: &Sender<Reply>,
    job: Job,
    game_id: u64,
    epoch: u64,
    game: Game,
    mut player: Seated,
) {
    let tx = tx.clone();
    let ply = game.ply();
    let spawned = std::thread::Builder::new()
        .name(THINKER_THREAD.to_owned())
        .spawn(move || {
            let choice = match catch_unwind(AssertUnwindSafe(|| player.choose(&game))) {
                Ok(Ok(choice)) => Ok(choice),
                Ok(Err(e)) => Err(Failure::Forfeit(format!("{} forfeits: {e}", player.name()))),
                Err(_) => Err(Failure::Panicked(format!(
                    "the computer player {} stopped (panicked)",
                    player.name()
                ))),
            };
            // The app may be gone; then nobody needs the answer.
            let _ = tx.send(Reply {
                job,
                game_id,
                epoch,
                ply,
                player,
                choice,
            });
        });
    if let Err(e) = spawned {
        panic!("cannot start a thread for the computer player: {e}");
    }
}

/// The computer's part of a tick: plays its chosen move once the sowing before it is
/// shown and the pause after it is over, or sends its player off to choose one.
/// Returns whether it played.
///
/// # Errors
/// When the computer chose an illegal move.
pub(crate) fn computer_turn(
    g: &mut GameState,
    tx: &Sender<Reply>,
    now: Instant,
    step: Duration,
) -> Result<bool, String> {
    let Some((side, _)) = g.session.computer_to_move() else {
        return Ok(false);
    };
    let ply = g.session.records().len();
    match &g.choice {
        Some((epoch, at, choice)) if *epoch == g.epoch && *at == ply => {
            if g.anim.is_none() && now >= g.computer_at {
                let mv = choice.mv;
                let note = choice
                    .reason
                    .as_deref()
                    .and_then(super::game::fallback_note);
                g.choice = None;
                if g.session.position().check(mv).is_err() {
                    return Err(format!("computer chose an illegal move {mv}"));
                }
                g.played_note = note.map(|n| (ply, n));
                g.play(mv, now, step);
                return Ok(true);
            }
        }
        _ => {
            g.choice = None;
            if let Some(player) = g.players[side.index()].take() {
                ask(tx, Job::Move(side), g, player);
            }
        }
    }
    Ok(false)
}

/// Takes a thinker's answer: the player goes back to its seat (or to hinting), and a
/// choice still about the current position is kept or shown.
///
/// # Errors
/// When the player failed (panicked) instead of choosing.
pub(crate) fn take_reply(g: &mut GameState, reply: Reply) -> Result<(), String> {
    if reply.game_id != g.game_id {
        return Ok(());
    }
    let current = reply.epoch == g.epoch && reply.ply == g.session.records().len();
    let choice = match (reply.choice, reply.job) {
        (Ok(choice), _) => choice,
        (Err(Failure::Panicked(why)), _) => return Err(why),
        (Err(Failure::Forfeit(why)), Job::Move(side)) => {
            // Said once the sowing on screen is shown, or its announcement would
            // push the forfeit off the message line.
            if g.anim.is_some() {
                g.pending_forfeit = Some((side, why));
            } else {
                hand_over(g, side, &why);
            }
            return Ok(());
        }
        // Hints come from the suite's players, which do not forfeit.
        (Err(Failure::Forfeit(why)), Job::Hint) => return Err(why),
    };
    match reply.job {
        Job::Move(side) => {
            g.players[side.index()] = Some(reply.player);
            if current {
                g.choice = Some((reply.epoch, reply.ply, choice));
            }
        }
        Job::Hint => {
            if let Seated::Builtin(hinter) = reply.player {
                g.hinter = Some(hinter);
            }
            g.hint_pending = false;
            if current && g.session.human_to_move() {
                super::hint::show(g, &choice);
            }
        }
    }
    Ok(())
}

/// The most columns of an engine's last error line the message quotes.
const LAST_LINE_MAX: usize = 120;

/// After an external engine's forfeit: the engine is let go (and so stopped), its seat
/// goes to the person at the keyboard, and the message says so. The game goes on where
/// it was: nothing played is lost, and `w` still saves it.
pub(crate) fn hand_over(g: &mut GameState, side: Side, why: &str) {
    g.players[side.index()] = None;
    g.choice = None;
    g.session = g.session.clone().with_seat(side, Seat::Human);
    g.fix_cursor();
    let name = g.shown_names[side.index()].clone();
    let text = format!("{why}. You play {name}'s moves from here.");
    // What the engine wrote on its standard error went to its log, off the screen:
    // its last line is most often the error, and the file has the rest.
    let log = super::engine_log(side.index());
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let text = match said.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(last) => format!(
            "{text} Its last error line: {} (all it wrote is in {}).",
            fit::shorten(last.trim(), LAST_LINE_MAX),
            log.display()
        ),
        None => text,
    };
    g.message = Message::new(MessageKind::Warning, text);
    g.log.push(g.message.clone());
}
