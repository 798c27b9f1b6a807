//! Game records on the web: any game downloaded as the library's game record
//! (`docs/records.md`), a record imported as a new game to continue or to review, and
//! a game's positions ply by ply for the replay viewer.

use mancala_core::{Game, Move, Position, Rules, Side};
use mancala_session::{Record, RecordFormat, Seat, default_name, parse_records};
use serde::{Deserialize, Serialize};

use crate::client::ClientKey;
use crate::error::GameError;
use crate::games::Games;
use crate::lifecycle::{FirstMover, NewGame, SeatGrant};
use crate::row::session_of;
use crate::state::check_name;
use crate::store::{GameRow, NewMove, Next, StoreError};

/// The largest record `POST /api/games/import` takes (the rest of the API takes
/// [`crate::BODY_LIMIT`]): a few hundred moves with comments.
pub const RECORD_LIMIT: usize = 64 * 1024;

/// What `GET /api/games/{id}/record` may be asked for (`?format=`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    /// `strict` (the default), `oware2` or `moves`, as `mancala record convert` names
    /// them.
    pub format: Option<String>,
}

/// An import (`POST /api/games/import`): a record, which of its games, and who plays
/// seat 2 from there.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The record's text: any form `parse_records` reads (a strict record, a bare list
    /// of houses, the two-digit Oware notation).
    pub record: String,
    /// Which game of the text, from 1 (default 1).
    pub game: Option<usize>,
    /// Who continues as player 2: `human` (a friend joins) or a computer player
    /// (default `medium`). The importer plays seat 1.
    pub opponent: Option<String>,
    /// Which of the record's players the importer takes on: 1 (default) or 2. The web
    /// seats whoever creates a game as its player 1, so with 2 the sides are exchanged:
    /// the game's player 2 (the opponent) moves first, with the record's player 1's
    /// moves, and the importer plays on with the record's player 2's.
    pub seat: Option<u8>,
    /// Whether the game is listed in the lobby while it waits for a friend, and among
    /// the games to watch (default false).
    pub public: Option<bool>,
}

/// The opponent of an import that names none.
const DEFAULT_OPPONENT: &str = "medium";

/// One position of a game, as the replay viewer steps through them.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PositionView {
    /// Each player's houses, player 1 first, each from its house 1.
    pub houses: [Vec<u16>; 2],
    /// Seeds banked: stores in Kalah, captures in Oware.
    pub stores: [u16; 2],
    /// The claimed houses, in a variant whose players claim houses, as in the game
    /// view; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed: Option<[Option<u8>; 2]>,
    /// 1 or 2; `null` in the final position of a finished game.
    pub to_move: Option<u8>,
    /// The position notation of `docs/records.md`.
    pub notation: String,
}

/// Every position of a game (`GET /api/games/{id}/positions`): `positions[0]` is the
/// start, `positions[n]` the position after `n` moves.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PositionsView {
    /// The game's id.
    pub id: String,
    /// One more than the moves played.
    pub positions: Vec<PositionView>,
}

fn position_view(position: &Position, over: bool) -> PositionView {
    PositionView {
        houses: Side::BOTH.map(|s| position.houses(s).to_vec()),
        stores: position.stores(),
        claimed: (position.variant().info().claims)
            .then(|| position.claims().map(|t| t.map(Move::house))),
        to_move: (!over).then(|| position.to_move().number()),
        notation: position.to_notation(),
    }
}

/// The positions of the stored game, from the start.
///
/// # Errors
/// When the stored game does not replay.
pub(crate) fn positions_of(row: &GameRow) -> Result<PositionsView, GameError> {
    let session = session_of(row)?;
    let game = session.game();
    let mut position = *game.start();
    let mut positions = Vec::with_capacity(game.moves().len() + 1);
    positions.push(position_view(
        &position,
        game.moves().is_empty() && game.is_over(),
    ));
    for (ply, &mv) in game.moves().iter().enumerate() {
        position = position
            .play(mv)
            .map_err(|e| StoreError::Corrupt(format!("game {} ply {ply}: {e}", row.id)))?;
        let last = ply + 1 == game.moves().len();
        positions.push(position_view(&position, last && game.is_over()));
    }
    Ok(PositionsView {
        id: row.id.clone(),
        positions,
    })
}

/// The stored game as a record: its rules and moves, the seats (the computer by its
/// spec) and names, the date of its last move, and its end, by the rules or by its
/// players (a resignation, a loss on time, a draw agreed).
///
/// # Errors
/// When the stored game does not replay.
pub(crate) fn record_of(row: &GameRow) -> Result<Record, GameError> {
    let record = Record::from_session(&session_of(row)?).with_date(date_of(row.activity_ms));
    Ok(record)
}

/// The record's text in `format` (`strict` when `None`).
///
/// # Errors
/// [`GameError::BadRequest`] for an unknown format; [`GameError::Unprocessable`] when
/// the game cannot be written so (the two-digit notation on a Kalah game).
pub(crate) fn write_record(record: &Record, format: Option<&str>) -> Result<String, GameError> {
    let format: RecordFormat = format
        .unwrap_or("strict")
        .parse()
        .map_err(|e: mancala_session::ParseFormatError| GameError::BadRequest(e.to_string()))?;
    record
        .write(format)
        .map_err(|e| GameError::Unprocessable(e.to_string()))
}

/// `YYYY.MM.DD` (UTC) of a time in milliseconds since the Unix epoch.
fn date_of(ms: i64) -> String {
    let (year, month, day) = civil_date(ms.div_euclid(86_400_000));
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date `days` after 1970-01-01: counted in 400-year eras of
/// 146 097 days, each starting on 1 March so that the leap day ends a year.
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month as u32, day as u32)
}

/// Who moves first in the web game of an import in which the importer takes on the
/// record's player `seat`: the record's player 1, who sits as the game's player 2 when
/// the importer takes on player 2 (the web seats the importer as its player 1).
fn first_for(seat: Option<u8>) -> Result<Option<FirstMover>, GameError> {
    match seat {
        None | Some(1) => Ok(None),
        Some(2) => Ok(Some(FirstMover::Seat(2))),
        Some(other) => Err(GameError::Unprocessable(format!(
            "seat is 1 or 2 (the record's player you take on), not {other}"
        ))),
    }
}

/// The names a record gives its players, in the web game's seats (exchanged when the
/// importer takes on the record's player 2): those a player could give (a default
/// `Player 1`, or a computer's name, is left to the web game).
fn names_for(record: &Record, seat: Option<u8>) -> [Option<String>; 2] {
    let given = |side: Side| {
        let name = &record.names()[side.index()];
        let default = default_name(side, &Seat::Human);
        check_name(name).ok().filter(|n| *n != default)
    };
    let [first, second] = [given(Side::South), given(Side::North)];
    if seat == Some(2) {
        [second, first]
    } else {
        [first, second]
    }
}

/// The settings of a new game with a record's rules, private, the importer named
/// `name`: the rule options its variant takes, as its description says.
fn new_game_for(
    rules: Rules,
    opponent: String,
    first: Option<FirstMover>,
    name: Option<String>,
) -> NewGame {
    NewGame {
        variant: Some(rules.variant()),
        houses: Some(rules.houses() as u8),
        seeds: Some(rules.seeds() as u8),
        opponent: Some(opponent),
        name,
        first,
        options: crate::rule_options::shown(rules),
        ..NewGame::default()
    }
}

/// The one game of `request` to import, checked.
fn game_to_import(request: &ImportRequest) -> Result<Record, GameError> {
    let bad = |m: String| GameError::Unprocessable(m);
    // Rules tags left out of the record are the home page's defaults.
    let mut games = parse_records(&request.record, Rules::kalah(6, 4))
        .map_err(|e| bad(format!("the record does not read: {e}")))?;
    let which = request.game.unwrap_or(1);
    if which == 0 || which > games.len() {
        return Err(bad(format!(
            "game {which} asked for; the record holds {} game{}",
            games.len(),
            if games.len() == 1 { "" } else { "s" }
        )));
    }
    let record = games.swap_remove(which - 1);
    if *record.start() != Position::new(record.rules()) {
        return Err(bad(
            "the game starts from a set-up position; the web game starts from the rules' \
             start"
                .into(),
        ));
    }
    Ok(record)
}

impl Games {
    /// Creates a game from a record: the record's rules and moves, the importer in
    /// seat 1 and `opponent` in seat 2 (with `seat: 2`, the sides exchanged: see
    /// [`ImportRequest::seat`]). Against the computer, when the record leaves it to
    /// move, it moves. A finished game is there to review.
    ///
    /// Only what the rules decide comes along: a resignation or a time forfeit in the
    /// record leaves an unfinished game. The record's names name the importer and a
    /// friend's seat until someone joins (a computer is named by its level).
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for a record that does not read (the message is
    /// the library's: the game, the line, the move), a game number it does not hold, a
    /// set-up start position, a seat other than 1 or 2, or settings [`Games::create`]
    /// refuses.
    pub async fn import(
        &self,
        request: ImportRequest,
        client: ClientKey,
    ) -> Result<SeatGrant, GameError> {
        let record = game_to_import(&request)?;
        let game = record.game();
        let first = first_for(request.seat)?;
        let [name, friend] = names_for(&record, request.seat);
        let opponent = request
            .opponent
            .unwrap_or_else(|| DEFAULT_OPPONENT.to_owned());
        // Listed only once its moves are in; a computer that moves first waits for
        // them too.
        let (row, grant) = self
            .create_row(
                new_game_for(game.rules(), opponent, first, name),
                friend,
                None,
            )
            .await?;
        let next = self.append_imported_moves(&row, game).await?;
        if request.public == Some(true) {
            self.store().list_publicly(&row.id).await?;
        }
        match next {
            Next::Computer { .. } => self.schedule_computer(&row.id, client.to_string()),
            _ if game.moves().is_empty() => self.computer_first(&row).await?,
            _ => {}
        }
        Ok(grant)
    }

    /// Stores the moves of `game` in the new game `row`, one at a time; who is owed
    /// the turn after the last (a person, when there are none), as the new game's
    /// session says.
    async fn append_imported_moves(&self, row: &GameRow, game: &Game) -> Result<Next, GameError> {
        let mut played = session_of(row)?;
        let mut next = Next::Person;
        for (ply, &mv) in game.moves().iter().enumerate() {
            played
                .play(mv)
                .map_err(|e| GameError::Internal(format!("a checked record's move: {e}")))?;
            // The moves before the last are history: nobody is owed a turn after them.
            if ply + 1 == game.moves().len() {
                next = self.next_after(&played);
            }
            let new = NewMove {
                game: row.id.clone(),
                ply,
                house: mv.house(),
                next,
                state: None,
            };
            if !self.store().append_move(&new).await? {
                return Err(GameError::Internal(format!(
                    "ply {ply} of the new game {} was taken",
                    row.id
                )));
            }
        }
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_utc_calendar_days() {
        assert_eq!(date_of(0), "1970.01.01");
        assert_eq!(date_of(951_782_400_000), "2000.02.29");
        assert_eq!(date_of(1_795_651_200_000 - 1), "2026.11.25");
        assert_eq!(date_of(1_795_651_200_000), "2026.11.26");
        assert_eq!(date_of(-1), "1969.12.31");
    }
}
