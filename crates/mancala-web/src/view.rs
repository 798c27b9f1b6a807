//! The JSON shape of a game as the API serves it.

use mancala_core::{GameEnd, Move, Pit, Position, ResultView, Rules, Side, SowStep, StateView};
use mancala_session::{EndText, Session};
use serde::Serialize;

use crate::catalogue::VariantView;
use crate::clock::{claim_at, remaining, running};
use crate::error::GameError;
use crate::ratings::{RatingChange, RatingChanges};
use crate::row::{session_of, started};
use crate::state::TimeControl;
use crate::store::{Expiry, GameRow};

/// A game as `GET /api/games/{id}` and the live stream show it: the keys of
/// `mancala replay` (`houses`, `stores`, `to_move`, `ply`, `over`, `result`) plus the
/// id, settings, moves, players, legal moves and the last move seed by seed.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The variant's key (`kalah`, `togyzkumalak`): its description is
    /// `GET /api/variants`'s entry with this key.
    pub variant: String,
    /// A game of one's own rules (made with `rules` in `POST /api/games`): its entry
    /// as `GET /api/variants` would give it, which no list has; absent for a game of
    /// the catalogue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<VariantView>,
    /// Each player's houses, player 1 first, each from its house 1.
    pub houses: [Vec<u16>; 2],
    /// Seeds banked: stores in Kalah, captures in Oware.
    pub stores: [u16; 2],
    /// The claimed houses, in a variant whose players claim houses (its `claim_word`
    /// names them; absent otherwise): for each player, player 1 first, the house of the
    /// opponent's row it owns, as the opponent numbers it, or `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed: Option<[Option<u8>; 2]>,
    /// 1 or 2; `null` once the game is over.
    pub to_move: Option<u8>,
    /// Plies played: the `ply` to send with the next move.
    pub ply: usize,
    /// Whether the game is over.
    pub over: bool,
    /// `{"winner":1|2|null,"scores":[a,b]}` once over.
    pub result: Option<ResultView>,
    /// Houses played, in order.
    pub moves: Vec<u8>,
    /// Who played each move: `{"seat":1,"house":3}` per ply.
    pub history: Vec<HistoryEntry>,
    /// The two seats.
    pub players: [PlayerView; 2],
    /// The rules in force.
    pub rules: RulesView,
    /// Houses the player to move may sow (none before the game has started).
    pub legal_moves: Vec<u8>,
    /// The last move, for animating it; `null` before the first.
    pub last_move: Option<LastMove>,
    /// Whether the game ended because a position repeated (the Oware variants; the
    /// same as `end.reason == "repetition"`, kept for older clients).
    pub repetition: bool,
    /// How the game ended, once over: the reason, the final sweep and the words.
    pub end: Option<EndView>,
    /// The id of the rematch, once someone starts one.
    pub rematch: Option<String>,
    /// The seat (1 or 2) of this game whose player started the rematch (they sit as
    /// player 1 there); the other player joins it by asking for a rematch too.
    pub rematch_by: Option<u8>,
    /// Whether both seats are held so that moves may be played: at once against the
    /// computer, when the friend joins otherwise. Until then `legal_moves` is empty.
    pub started: bool,
    /// When the server will delete the game unless it changes, in seconds since the
    /// Unix epoch (each move, and the join, push it back).
    pub expires_at: i64,
    /// How many times the game has changed: of two views of a game, the one with the
    /// higher version is the later (a takeback has fewer plies, and a later version).
    pub version: u64,
    /// The seat that moved first (1 or 2).
    pub first: u8,
    /// An offer waiting for an answer: `{"kind":"draw"|"takeback","seat":1}`.
    pub offer: Option<OfferView>,
    /// The time control, as created: `{"initial_s":180,"increment_s":2}` or
    /// `{"per_move_s":86400}`; `null` for none.
    pub time_control: Option<TimeControl>,
    /// The clocks, with a time control: each seat's time left now, and whose runs.
    pub clocks: Option<ClocksView>,
    /// Without a time control: when the player to move may be claimed against for
    /// having left (seconds since the Unix epoch), while a person is to move.
    pub claim_at: Option<i64>,
    /// Whether the game counts for its players' ratings (both seats held by accounts).
    pub rated: bool,
}

/// An offer waiting for the other player's answer.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct OfferView {
    /// `draw` or `takeback`.
    pub kind: &'static str,
    /// The seat that made it.
    pub seat: u8,
}

/// The clocks: `{"remaining_ms":[175000,180000],"running":1}`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ClocksView {
    /// Each seat's time left when the view was made, player 1 first, in milliseconds.
    pub remaining_ms: [i64; 2],
    /// The seat whose clock runs (a person to move, from their second move on), or
    /// `null`.
    pub running: Option<u8>,
}

/// How a game ended: `{"reason":"cannot-feed","player":2,"sweep":[0,1],"unclaimed":0,
/// "headline":"A draw, 6 to 6","text":"Player 2 cannot give Player 1 any seeds, ..."}`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EndView {
    /// By the rules: `no-seeds`, `side-empty`, `majority`, `half-each`,
    /// `cannot-feed`, `repetition` or `few-seeds-left`; by the players or a clock:
    /// `resigned`, `out-of-time`, `abandoned`, `draw-agreed` or `aborted`.
    pub reason: &'static str,
    /// The seat the reason names (who had no seeds, could not feed, won by captures,
    /// resigned, ran out of time or left).
    pub player: Option<u8>,
    /// Seeds each seat took from its own houses at the end.
    pub sweep: [u16; 2],
    /// Seeds left on the board that count for nobody.
    pub unclaimed: u16,
    /// The result in words.
    pub headline: String,
    /// Why the game ended and where the seeds left went, as a sentence.
    pub text: String,
}

impl EndView {
    fn of(end: &GameEnd, names: [&str; 2]) -> EndView {
        let words = EndText::new(end, names);
        EndView {
            reason: end.reason.name(),
            player: end.player().map(Side::number),
            sweep: end.sweep,
            unclaimed: end.unclaimed,
            headline: words.headline.clone(),
            text: sentence(&words, names),
        }
    }
}

/// The reason of `words` as a sentence of its own, its first letter made a capital
/// unless it begins with a player's name (a name is written as its owner gave it:
/// "ann_r has no seeds to move.").
fn sentence(words: &EndText, names: [&str; 2]) -> String {
    if names
        .iter()
        .any(|n| !n.is_empty() && words.reason.starts_with(n))
    {
        format!("{}.", words.reason)
    } else {
        words.reason_sentence()
    }
}

/// One ply of the history, with the marks of the record notation (`docs/records.md`).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The seat that moved.
    pub seat: u8,
    /// The house it sowed.
    pub house: u8,
    /// Seeds the move captured (the record's `x` when above 0).
    pub captured: u16,
    /// The same seat moves next (the record's `+`: Kalah's extra turn, or in simplified
    /// Oware an opponent with no seeds skipped). False for the move that ends the game.
    pub again: bool,
    /// The house of the opponent's row (as the opponent numbers it) that the move
    /// claimed for the mover; absent for every other move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<u8>,
}

/// A seat: a person (who may not have joined yet) or a computer player.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerView {
    /// 1 or 2.
    pub seat: u8,
    /// `human` or `computer`.
    pub kind: &'static str,
    /// Whether someone holds the seat (always true for a computer).
    pub joined: bool,
    /// The player's name: as they gave it (plain text: show it escaped), or
    /// `Player 1`/`Player 2`; a computer is named by its level (`Medium bot`).
    pub name: String,
    /// The computer player's spec, for a computer seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<String>,
    /// The account holding the seat (the username in lower case; its profile is
    /// `/@/{account}`), if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// Once a rated game has been rated: the seat's rating before and after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<SeatRatingView>,
}

/// What a rated game did to one seat's rating:
/// `{"before":1500,"after":1662,"change":162,"provisional":true}`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct SeatRatingView {
    /// The rating before the game, rounded.
    pub before: i64,
    /// The rating after it, rounded.
    pub after: i64,
    /// `after - before`.
    pub change: i64,
    /// Whether the rating after the game is provisional (shown `1662?`).
    pub provisional: bool,
    /// Whether the game counted: `false` past the day's number of rated games between
    /// the same two accounts (then `change` is 0).
    pub counted: bool,
}

impl SeatRatingView {
    fn of(change: &RatingChange, counted: bool) -> SeatRatingView {
        SeatRatingView {
            before: change.before.rounded(),
            after: change.after.rounded(),
            change: change.difference(),
            provisional: change.after.provisional(),
            counted,
        }
    }
}

/// The rules of a game.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RulesView {
    /// Houses per side.
    pub houses: u8,
    /// Seeds per house at the start.
    pub seeds: u8,
    /// The options the game takes, each under its field as `POST /api/games` takes
    /// it (`"empty_capture": false`); none for a game without options.
    #[serde(flatten)]
    pub options: serde_json::Map<String, serde_json::Value>,
}

impl RulesView {
    /// The view of `rules`.
    fn of(rules: Rules) -> RulesView {
        RulesView {
            houses: rules.houses() as u8,
            seeds: rules.seeds() as u8,
            options: crate::rule_options::shown(rules),
        }
    }
}

/// The last move played, with its sowing seed by seed.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LastMove {
    /// The seat that moved.
    pub seat: u8,
    /// The house sown.
    pub house: u8,
    /// Seeds captured by the move.
    pub captured: u16,
    /// The mover moves again (Kalah: the last seed reached the store).
    pub again: bool,
    /// The house the move claimed for the mover, as in [`HistoryEntry::claim`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<u8>,
    /// The steps: `{"op":"lift"|"drop"|"capture","pit":"h1-3"|"s2","seeds":n}`; pits are
    /// `h<seat>-<house>` and `s<seat>` (store or captures); captured seeds go to the
    /// mover's `s<seat>`. A seed sown into a claimed house is a drop into its owner's
    /// `s<seat>`, which may be the other player's.
    pub steps: Vec<StepView>,
}

/// One step of a sowing.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct StepView {
    /// `lift`, `drop` or `capture`.
    pub op: &'static str,
    /// The pit, as `h<seat>-<house>` or `s<seat>`.
    pub pit: String,
    /// Seeds lifted or captured (1 for a drop).
    pub seeds: u16,
}

/// The house `side` claimed by the move from `before` to `after`.
fn claimed_house(before: &Position, after: &Position, side: Side) -> Option<u8> {
    let claimed = after.claimed(side)?;
    (before.claimed(side) != Some(claimed)).then(|| claimed.house())
}

fn pit_id(pit: Pit) -> String {
    match pit {
        Pit::House { side, house } => format!("h{}-{house}", side.number()),
        Pit::Store(side) => format!("s{}", side.number()),
    }
}

/// The last move, from the position it was played in.
fn last_move(before: &Position, mv: Move) -> Option<LastMove> {
    let (after, report) = before.play_with_report(mv).ok()?;
    let steps = before
        .sowing(mv)
        .ok()?
        .into_iter()
        .map(|s| match s {
            SowStep::Lift { pit, seeds } => StepView {
                op: "lift",
                pit: pit_id(pit),
                seeds,
            },
            SowStep::Drop(pit) => StepView {
                op: "drop",
                pit: pit_id(pit),
                seeds: 1,
            },
            SowStep::Capture { pit, seeds } => StepView {
                op: "capture",
                pit: pit_id(pit),
                seeds,
            },
        })
        .collect();
    Some(LastMove {
        seat: before.to_move().number(),
        house: mv.house(),
        captured: report.captured,
        again: !after.is_over() && after.to_move() == before.to_move(),
        claim: claimed_house(before, &after, before.to_move()),
        steps,
    })
}

impl GameView {
    /// The view of a stored game at `now_ms`, kept as `expiry` says.
    ///
    /// # Errors
    /// When the stored game does not replay.
    pub fn of(row: &GameRow, expiry: &Expiry, now_ms: i64) -> Result<GameView, GameError> {
        Ok(GameView::of_session(row, &session_of(row)?, expiry, now_ms))
    }

    /// The view of the stored game `row` whose session (up to date with it) is
    /// `session`: no replay needed.
    pub(crate) fn of_session(
        row: &GameRow,
        session: &Session,
        expiry: &Expiry,
        now_ms: i64,
    ) -> GameView {
        let game = session.game();
        let history = session
            .records()
            .iter()
            .map(|r| HistoryEntry {
                seat: r.side.number(),
                house: r.mv.house(),
                captured: r.report.captured,
                again: !r.after.is_over() && r.after.to_move() == r.side,
                claim: claimed_house(&r.before, &r.after, r.side),
            })
            .collect();
        let state = StateView::of(game);
        let started = started(row, session);
        let stop = session.stopped();
        GameView {
            id: row.id.clone(),
            variant: row.rules.variant().to_string(),
            game: (!row.rules.variant().is_catalogued())
                .then(|| VariantView::of(row.rules.variant())),
            houses: state.houses,
            stores: state.stores,
            claimed: state.claimed,
            to_move: session.to_move().map(Side::number),
            ply: state.ply,
            over: session.is_over(),
            result: session.outcome().map(|o| ResultView {
                winner: o.winner.map(Side::number),
                scores: o.scores,
            }),
            moves: row.moves.clone(),
            history,
            players: players(row, session),
            rules: RulesView::of(row.rules),
            legal_moves: if started && stop.is_none() {
                game.legal_moves().iter().map(|m| m.house()).collect()
            } else {
                Vec::new()
            },
            last_move: session
                .records()
                .last()
                .and_then(|r| last_move(&r.before, r.mv)),
            repetition: stop.is_none() && game.ended_by_repetition(),
            end: end_view(session),
            rematch: row.rematch.clone(),
            rematch_by: row.rematch.as_ref().and(row.rematch_by),
            started,
            expires_at: expiry.deadline_ms(row).div_euclid(1000),
            version: row.version,
            first: row.play.first_side().number(),
            offer: row
                .play
                .offer
                .filter(|_| stop.is_none())
                .map(|o| OfferView {
                    kind: o.kind.name(),
                    seat: o.seat,
                }),
            time_control: row.play.time_control,
            clocks: row.play.time_control.map(|_| ClocksView {
                remaining_ms: remaining(&row.play, session, now_ms),
                running: running(&row.play, session).map(Side::number),
            }),
            claim_at: claim_at(row, session).map(|ms| ms.div_euclid(1000)),
            rated: row.rated,
        }
    }
}

/// The two seats with their names, as the game's session seats them.
fn players(row: &GameRow, session: &Session) -> [PlayerView; 2] {
    // A stored change that does not read is left out of the view (and logged): the
    // ratings themselves are in their own table.
    let rated = row.rating.as_deref().and_then(|json| {
        serde_json::from_str::<RatingChanges>(json)
            .inspect_err(|e| tracing::warn!(game = %row.id, error = %e, "unreadable rating"))
            .ok()
    });
    Side::BOTH.map(|side| {
        let spec = session.seat(side).spec();
        PlayerView {
            seat: side.number(),
            kind: if spec.is_some() { "computer" } else { "human" },
            // Seat 1 is its creator's from the start; a person's seat 2 is held once
            // they join.
            joined: side == Side::South
                || spec.is_some()
                || row.token_hashes[side.index()].is_some(),
            name: session.name(side).to_owned(),
            computer: spec.map(ToString::to_string),
            account: row.accounts[side.index()].clone(),
            rating: rated
                .as_ref()
                .map(|r| SeatRatingView::of(&r.seats[side.index()], r.counted)),
        }
    })
}

/// How the game ended, by the rules or stopped by its players.
fn end_view(session: &Session) -> Option<EndView> {
    let names = session.names();
    let names = [names[0].as_str(), names[1].as_str()];
    if let Some(stop) = session.stopped() {
        let words = EndText::stopped(stop, names);
        return Some(EndView {
            reason: stop.name(),
            player: stop.player().map(Side::number),
            sweep: [0, 0],
            unclaimed: 0,
            headline: words.headline.clone(),
            text: sentence(&words, names),
        });
    }
    session.end().map(|end| EndView::of(&end, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_keeps_a_name_as_written() {
        let named = EndText {
            headline: String::new(),
            reason: "ann_r has no seeds to move".into(),
        };
        assert_eq!(
            sentence(&named, ["ann_r", "Bob"]),
            "ann_r has no seeds to move."
        );
        let other = EndText {
            headline: String::new(),
            reason: "two seeds or fewer are left".into(),
        };
        assert_eq!(
            sentence(&other, ["ann_r", "Bob"]),
            "Two seeds or fewer are left."
        );
    }
}
