//! A game's seats over its life: creating it (its rules and opponent checked), a
//! friend joining it, and the rematch of a finished one. Moves are `moves`'s.
//!
//! The web seats the creator (or the first to ask for a rematch) as player 1 and the
//! opponent, a friend or a computer, as player 2; from then on the game's session
//! says who is a computer and whether one is to move.

use std::sync::Arc;

use mancala_core::description::Description;
use mancala_core::{Rules, Side, Variant};
use mancala_session::{RuleChoice, Seat};
use rand::TryRngCore;
use serde_json::{Map, Value};

use crate::accounts::Username;
use crate::background::resumed;
use crate::clock::TimeControlRequest;
use crate::error::GameError;
use crate::games::Games;
use crate::row::session_of;
use crate::state::{PlayState, check_name};
use crate::store::Account;
use crate::store::{GameRow, Next, RematchToken, StateChange, StateUpdate, now_ms};
use crate::tokens::{hash_token, matches, new_token, random_hex, rematch_token, seat_of};

/// What a client asks for when creating a game (`POST /api/games`).
///
/// Fields it does not name are the rule options ([`NewGame::options`]): a field that
/// names none is refused as an unknown field.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct NewGame {
    /// A game's key, as `GET /api/variants` lists them (`kalah`, `oware`, ...); or
    /// none with `rules`.
    pub variant: Option<Variant>,
    /// A game of one's own rules: the text of a rules file (TOML, as
    /// docs/rules-format.md describes it), at most [`RULES_LIMIT`] bytes, in place of
    /// `variant`, `houses`, `seeds` and the options; unrated.
    pub rules: Option<String>,
    /// Houses per side (default: the variant's, 6 or 9 for Togyz Kumalak).
    pub houses: Option<u8>,
    /// Seeds per house (default: the variant's, 4 or 9 for Togyz Kumalak).
    pub seeds: Option<u8>,
    /// `human` (default: a friend joins) or any computer player or level.
    pub opponent: Option<String>,
    /// Listed in the lobby while it waits for an opponent (who may then join without
    /// the invite), and among the games to watch once it is played (default false: the
    /// links only).
    pub public: Option<bool>,
    /// The creator's name (default `Player 1`).
    pub name: Option<String>,
    /// Who moves first: `1` (the creator, the default), `2` (the opponent) or
    /// `"random"`.
    pub first: Option<FirstMover>,
    /// `{"initial_s": 180, "increment_s": 2}` or `{"per_move_s": 86400}`; none by
    /// default.
    pub time_control: Option<TimeControlRequest>,
    /// Counts for both players' ratings (default false): only between two accounts,
    /// so it takes a logged-in creator and a friend who joins logged in.
    pub rated: Option<bool>,
    /// The rule options, each under its field: the option's key with `_` for `-`
    /// (`GET /api/variants` lists each game's), a switch `true` or `false`, any other
    /// option one of its values. Every field the other fields do not name lands here.
    #[serde(flatten)]
    pub options: Map<String, Value>,
}

impl NewGame {
    /// The fields of a new game besides the rule options, as an unknown field's
    /// refusal lists them.
    const FIELDS: [&str; 10] = [
        "variant",
        "rules",
        "houses",
        "seeds",
        "opponent",
        "public",
        "name",
        "first",
        "time_control",
        "rated",
    ];

    /// The rule options given, by key and value.
    ///
    /// # Errors
    /// 400 for a field that names no option of any game, or of the wrong type.
    pub(crate) fn given_options(&self) -> Result<Vec<(&'static str, String)>, GameError> {
        crate::rule_options::given(&self.options, &Self::FIELDS)
    }
}

/// Who moves first, as `POST /api/games` takes it: a seat number or `"random"`.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(untagged, expecting = "must be 1, 2 or \"random\"")]
pub enum FirstMover {
    /// Seat 1 or 2.
    Seat(u8),
    /// Chosen at random.
    Random(RandomWord),
}

/// The word `random`.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RandomWord {
    /// `random`.
    Random,
}

impl FirstMover {
    /// The seat that moves first.
    pub(crate) fn seat(self) -> Result<u8, GameError> {
        match self {
            FirstMover::Seat(seat @ (1 | 2)) => Ok(seat),
            FirstMover::Seat(other) => Err(GameError::Unprocessable(format!(
                "first is 1, 2 or \"random\", not {other}"
            ))),
            FirstMover::Random(_) => {
                let mut byte = [0u8; 1];
                rand::rngs::OsRng
                    .try_fill_bytes(&mut byte)
                    .expect("the operating system provides randomness");
                Ok(1 + (byte[0] & 1))
            }
        }
    }
}

/// A join request (`POST /api/games/{id}/join`): the invite secret of the game.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The secret from the invite link.
    pub invite: Option<String>,
    /// The joiner's name (default `Player 2`).
    pub name: Option<String>,
}

/// A seat handed to a client: which seat and the secret token that plays it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SeatGrant {
    /// The game's id (in create and rematch answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 1 or 2.
    pub seat: u8,
    /// The bearer token for this seat: show it to nobody else.
    pub token: String,
    /// A new game against a friend: the secret of the invite link, which lets one
    /// person take seat 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

impl Games {
    /// A name an anonymous player gave, checked (422 otherwise): an account's name, in
    /// any case, is its owner's alone, so that "Alice" in a list is Alice's account.
    async fn given_name(&self, name: Option<&str>) -> Result<Option<String>, GameError> {
        let Some(name) = name else {
            return Ok(None);
        };
        let name = check_name(name).map_err(|e| GameError::Unprocessable(e.to_string()))?;
        let taken = match Username::parse(&name) {
            Ok(username) => self.store().account(&username.key()).await?.is_some(),
            Err(_) => false,
        };
        if taken {
            return Err(GameError::Unprocessable(format!(
                "name: {name:?} is an account's name: log in to play as it, or choose another"
            )));
        }
        Ok(Some(name))
    }
}

/// A new game's row: no seats taken, no moves; `opponent` sits in seat 2.
fn new_row(rules: Rules, opponent: &Seat) -> GameRow {
    GameRow {
        id: random_hex::<9>(),
        rules,
        opponent: opponent.to_string(),
        activity_ms: now_ms(),
        ..GameRow::default()
    }
}

/// The largest description `POST /api/games` takes in `rules`, in bytes: the longest
/// file of the catalogue, its sources and examples included, is under 3 KiB.
pub const RULES_LIMIT: usize = 12 * 1024;

/// The rules of a game of the catalogue as a new game asks for them. The session
/// checks the board and the options a variant takes, in the words every front end
/// uses.
fn chosen_rules(variant: Variant, req: &NewGame) -> Result<Rules, GameError> {
    let info = variant.info();
    let houses = req.houses.unwrap_or(info.default_houses);
    let seeds = req.seeds.unwrap_or(info.default_seeds);
    req.given_options()?
        .iter()
        .fold(
            RuleChoice::new(variant, houses, seeds),
            |choice, (key, value)| choice.option(key, value),
        )
        .rules()
        .map_err(|e| GameError::Unprocessable(e.to_string()))
}

/// The rules of a game of one's own, from the text of its description: size-limited,
/// unrated, its board and options its own, and its key not one of the catalogue's
/// (the lobby and the records name a game by its key).
fn own_rules(text: &str, req: &NewGame) -> Result<Rules, GameError> {
    let bad = |e: String| GameError::Unprocessable(e);
    if text.len() > RULES_LIMIT {
        return Err(bad(format!(
            "rules: a description is at most {RULES_LIMIT} bytes, not {}",
            text.len()
        )));
    }
    if req.rated == Some(true) {
        return Err(bad("rated: a game of one's own rules is not rated".into()));
    }
    // A field of no option is an unknown field (400) before the options are refused.
    req.given_options()?;
    let mut given = vec![
        ("houses", req.houses.is_some()),
        ("seeds", req.seeds.is_some()),
    ];
    given.extend(req.options.keys().map(|f| (f.as_str(), true)));
    if let Some((field, _)) = given.iter().find(|(_, given)| *given) {
        return Err(bad(format!(
            "{field}: a description gives its own board and rules: write them in it"
        )));
    }
    let description = Description::from_toml(text, "rules").map_err(|e| bad(e.to_string()))?;
    if let Some(shipped) = Variant::catalogue()
        .iter()
        .find(|v| v.name() == description.key)
    {
        let rules = Rules::from_description(description).map_err(|e| bad(e.to_string()))?;
        if rules.variant() == *shipped {
            return Ok(rules);
        }
        return Err(bad(format!(
            "rules: key: {shipped:?} is a game of the catalogue and these rules differ from \
             it: give your game a key of its own"
        )));
    }
    Rules::from_description(description).map_err(|e| bad(e.to_string()))
}

impl Games {
    /// Creates a game; the creator sits as player 1. A game against a friend comes
    /// with an invite secret for the friend. When the computer moves first, its turn
    /// starts at once.
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for settings outside the rules, an unknown
    /// opponent, one past the server's bounds (the message names the bound), a bad
    /// name, first mover or time control.
    pub async fn create(&self, req: NewGame) -> Result<SeatGrant, GameError> {
        self.create_as(req, None).await
    }

    /// Creates a game as [`Games::create`] does, for `account` if given: its seat is
    /// the account's, named by it, and the game may be rated.
    ///
    /// # Errors
    /// As [`Games::create`]; [`GameError::NotLoggedIn`] for a rated game without an
    /// account, [`GameError::Unprocessable`] for a rated game against the computer.
    pub async fn create_as(
        &self,
        req: NewGame,
        account: Option<&Account>,
    ) -> Result<SeatGrant, GameError> {
        let (row, grant) = self.create_row(req, None, account).await?;
        self.computer_first(&row).await?;
        Ok(grant)
    }

    /// Creates a game as [`Games::create`] does, but leaves a computer that moves
    /// first waiting (an import appends the record's moves first); a friend's seat is
    /// named `friend` until someone joins (an import's record names them).
    pub(crate) async fn create_row(
        &self,
        req: NewGame,
        friend: Option<String>,
        account: Option<&Account>,
    ) -> Result<(GameRow, SeatGrant), GameError> {
        let (rules, seat) = self.checked_setup(&req)?;
        let rated = req.rated == Some(true);
        if rated && account.is_none() {
            return Err(GameError::NotLoggedIn(
                "rated: a rated game is played between accounts: log in (or send a personal \
                 API token) to create one"
                    .into(),
            ));
        }
        if rated && !seat.is_human() {
            return Err(GameError::Unprocessable(
                "rated: a rated game is played against a person with an account".into(),
            ));
        }
        let time_control = req
            .time_control
            .map(TimeControlRequest::check)
            .transpose()?;
        let play = PlayState {
            names: [
                match account {
                    // An account's seat carries its name, whatever the form said.
                    Some(a) => Some(a.name.clone()),
                    None => self.given_name(req.name.as_deref()).await?,
                },
                friend.filter(|_| seat.is_human()),
            ],
            first: req
                .first
                .map(FirstMover::seat)
                .transpose()?
                .filter(|&f| f == 2),
            time_control,
            clocks_ms: [time_control.map_or(0, |tc| tc.initial_ms()); 2],
            turn_started_ms: self.now_ms(),
            ..PlayState::default()
        };
        let (token, hash) = new_token();
        let invite = seat.is_human().then(random_hex::<32>);
        let row = GameRow {
            token_hashes: [Some(hash), None],
            invite_hash: invite.as_deref().map(hash_token),
            play,
            accounts: [account.map(|a| a.key.clone()), None],
            rated,
            ..new_row(rules, &seat)
        };
        let id = row.id.clone();
        self.store().create(&row).await?;
        if req.public == Some(true) {
            self.store().list_publicly(&id).await?;
        }
        let grant = SeatGrant {
            id: Some(id),
            seat: 1,
            token,
            invite,
        };
        Ok((row, grant))
    }

    /// The rules and the opponent a new game asks for, within the rules and the
    /// server's bounds.
    pub(crate) fn checked_setup(&self, req: &NewGame) -> Result<(Rules, Seat), GameError> {
        let bad = |e: &dyn std::fmt::Display| GameError::Unprocessable(e.to_string());
        let rules = match (req.variant, &req.rules) {
            (Some(variant), None) => chosen_rules(variant, req)?,
            (None, Some(text)) => own_rules(text, req)?,
            (Some(_), Some(_)) => {
                return Err(bad(&"variant: give a game's key or its rules, not both"));
            }
            // A missing key, as serde's own refusals of a body are: 400.
            (None, None) => {
                return Err(GameError::BadRequest(
                    "variant: missing: give a game's key (GET /api/variants lists them) or its \
                     rules"
                        .into(),
                ));
            }
        };
        let seat: Seat = match &req.opponent {
            Some(text) => text.parse().map_err(|e| bad(&e))?,
            None => Seat::Human,
        };
        if let Some(spec) = seat.spec() {
            // Within the bounds first: building a player allocates its tables.
            self.limits()
                .think
                .check(spec, rules)
                .map_err(GameError::Unprocessable)?;
            spec.build(rules, 0).map_err(|e| bad(&e))?;
        }
        Ok((rules, seat))
    }

    /// Starts the computer's turn in the new game `row` if, as its session says, a
    /// computer moves first.
    pub(crate) async fn computer_first(&self, row: &GameRow) -> Result<(), GameError> {
        if session_of(row)?.computer_to_move().is_none() {
            return Ok(());
        }
        let change = StateChange {
            game: row.id.clone(),
            update: StateUpdate {
                seen_version: row.version,
                play: row.play.clone(),
                deadline_ms: None,
            },
            keep_plies: None,
            next: Next::Computer {
                lease: self.lease(),
            },
        };
        if self.store().change_state(&change).await? {
            self.schedule_computer(&row.id, resumed(&row.id));
        }
        Ok(())
    }

    /// Takes seat 2 of a game against a friend, for the holder of its invite.
    ///
    /// Checks, in order: the game exists (404), the request body (400), the seat is
    /// free (409), the invite (403; a public game needs none).
    ///
    /// # Errors
    /// [`GameError::NotFound`]; [`GameError::BadRequest`]; [`GameError::Conflict`] when the opponent is a
    /// computer or the seat is taken; [`GameError::Forbidden`] without the invite.
    pub async fn join(
        &self,
        id: &str,
        request: Result<JoinRequest, GameError>,
    ) -> Result<SeatGrant, GameError> {
        self.join_as(id, request, None).await
    }

    /// Takes seat 2 as [`Games::join`] does, for `account` if given: the seat is the
    /// account's and named by it.
    ///
    /// # Errors
    /// As [`Games::join`]; [`GameError::Forbidden`] for a rated game without an
    /// account, [`GameError::Conflict`] for a rated game against one's own account.
    pub async fn join_as(
        &self,
        id: &str,
        request: Result<JoinRequest, GameError>,
        account: Option<&Account>,
    ) -> Result<SeatGrant, GameError> {
        let row = self.row(id).await?;
        let JoinRequest { invite, name } = request?;
        // Both seats of a game are not one account's (an account plays the seat it
        // holds): joining one's own unrated game, from another tab, joins anonymously.
        let own = account.is_some_and(|a| row.accounts[0].as_deref() == Some(a.key.as_str()));
        let account = account.filter(|_| !own || row.rated);
        let name = match account {
            Some(a) => Some(a.name.clone()),
            None => self.given_name(name.as_deref()).await?,
        };
        if row.rated {
            let Some(account) = account else {
                return Err(GameError::Forbidden(
                    "a rated game is played between accounts: log in to join it".into(),
                ));
            };
            if row.accounts[0].as_deref() == Some(account.key.as_str()) {
                return Err(GameError::Conflict(
                    "a rated game is against somebody else".into(),
                ));
            }
        }
        if let Some(spec) = self.session(&row).await?.seat(Side::North).spec() {
            return Err(GameError::Conflict(format!(
                "player 2 is the computer ({spec})"
            )));
        }
        if row.token_hashes[1].is_some() {
            return Err(GameError::Conflict("seat 2 is taken".into()));
        }
        if row.play.stop().is_some() {
            return Err(GameError::Conflict("the game was called off".into()));
        }
        let invited = invite
            .as_deref()
            .is_some_and(|i| matches(row.invite_hash, i));
        // A public game's seat is open to anyone (the lobby lists it).
        if !invited && !self.store().is_listed(id).await? {
            return Err(GameError::Forbidden(
                "joining takes the invite link's secret (the watch link only watches)".into(),
            ));
        }
        let (token, hash) = new_token();
        let key = account.map(|a| a.key.as_str());
        if !self.store().claim_seat_2(id, hash, key).await? {
            return Err(GameError::Conflict("seat 2 is taken".into()));
        }
        self.seat_2_taken(id, name).await?;
        if let Some(view) = self.publish_id(id).await {
            // The accounts seated hear of it on their event streams.
            self.game_started(&view).await;
        }
        Ok(SeatGrant {
            id: None,
            seat: 2,
            token,
            invite: None,
        })
    }

    /// Records what joining changes beside the seat: the joiner's name, and the start
    /// of the first turn (from which a player who leaves can be claimed against).
    async fn seat_2_taken(&self, id: &str, name: Option<String>) -> Result<(), GameError> {
        // Nobody can move before the join is stored, so a retry or two settles a race
        // with an abort.
        for _ in 0..3 {
            let row = self.row(id).await?;
            let mut play = row.play.clone();
            play.names[1] = name.clone();
            play.turn_started_ms = self.now_ms();
            let change = StateChange {
                game: id.to_owned(),
                update: StateUpdate {
                    seen_version: row.version,
                    play,
                    deadline_ms: row.deadline_ms,
                },
                keep_plies: None,
                next: Next::Person,
            };
            if self.store().change_state(&change).await? {
                return Ok(());
            }
        }
        Err(GameError::Conflict(
            "the game changed while you joined".into(),
        ))
    }

    /// Seats the holder of `token` in the rematch of a finished game, with the same
    /// settings and seats: the first player to ask sits as player 1 of a new game, the
    /// other as player 2. Asking again gives the same seat and token; the second value
    /// says whether this request took the seat (`false`: it was taken before).
    ///
    /// # Errors
    /// [`GameError::NotFound`], [`GameError::Unauthorized`], or a conflict when the game
    /// is not over.
    pub async fn rematch(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(SeatGrant, bool), GameError> {
        let row = self.row(id).await?;
        let seat = seat_of(&row, token.into())?;
        let token = token.expect("checked by seat_of").to_owned();
        let game = session_of(&row)?;
        if !game.is_over() {
            return Err(GameError::Conflict("the game is not over".into()));
        }
        let new = GameRow {
            play: self.rematch_state(&row.play, seat),
            accounts: [
                row.accounts[seat.index()].clone(),
                row.accounts[seat.opponent().index()].clone(),
            ],
            rated: row.rated,
            ..new_row(game.rules(), game.seat(Side::North))
        };
        let secret = token.clone();
        let token_for: RematchToken = Arc::new(move |rid| hash_token(&rematch_token(&secret, rid)));
        let taken = self
            .store()
            .rematch(&row.id, seat.number(), &new, token_for)
            .await?;
        if taken.fresh && taken.seat == 1 {
            self.computer_first(&new).await?;
        }
        if taken.fresh {
            // Seat 1: the old game's watchers hear of the offer; seat 2: the new game's
            // players hear that it starts.
            let changed = if taken.seat == 1 { id } else { &taken.id };
            self.publish_id(changed).await;
        }
        Ok((
            SeatGrant {
                token: rematch_token(&token, &taken.id),
                id: Some(taken.id),
                seat: taken.seat,
                invite: None,
            },
            taken.fresh,
        ))
    }

    /// The state a rematch asked for by `asker` starts with: the asker sits as
    /// player 1, the players keep their names and the time control, and whoever moved
    /// first moves second.
    fn rematch_state(&self, old: &PlayState, asker: Side) -> PlayState {
        let other = asker.opponent();
        let asker_was_first = old.first_side() == asker;
        PlayState {
            names: [
                old.names[asker.index()].clone(),
                old.names[other.index()].clone(),
            ],
            first: asker_was_first.then_some(2),
            time_control: old.time_control,
            clocks_ms: [old.time_control.map_or(0, |tc| tc.initial_ms()); 2],
            turn_started_ms: self.now_ms(),
            ..PlayState::default()
        }
    }
}
