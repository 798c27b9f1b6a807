//! The game service: creating, joining and playing games, computer turns, live updates,
//! and keeping games only as long as they are wanted. Handlers call it; it calls the
//! store ([`GameStore`]), which several server instances may share: computer turns are
//! leased to one instance at a time, changes made through other instances reach the
//! live streams here, and periodic work fires on one instance per period.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mancala_core::{EndRule, Game, Move, RuleOptions, Rules, Side, Variant};
use mancala_engine::PlayerSpec;
use mancala_session::{Seat, Session};
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::sync::broadcast;

use crate::client::ClientKey;
use crate::clock::{Clock, SystemClock, TimeControlRequest, charge_move, deadline};
use crate::limits::Limits;
use crate::live::{LIVE_SESSIONS, LiveSessions};
use crate::row::{GameError, against_computer, session_of, started};
use crate::state::{PlayState, check_name};
use crate::store::{
    Change, ComputerCommit, GameRow, GameStore, NewMove, Next, Progress, RematchToken, StateChange,
    StateUpdate, Store, now_ms,
};
use crate::think::{ThinkStats, Thinkers};
use crate::view::GameView;

/// What a client asks for when creating a game (`POST /api/games`).
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `kalah`, `oware` or `oware-simplified`.
    pub variant: Variant,
    /// Houses per side (default 6).
    pub houses: Option<u8>,
    /// Seeds per house (default 4).
    pub seeds: Option<u8>,
    /// Kalah: capture from an empty opposite house (default false).
    pub empty_capture: Option<bool>,
    /// Kalah: `mover-cannot-move` (default) or `either-side-empty`.
    pub end_rule: Option<EndRule>,
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
    fn seat(self) -> Result<u8, GameError> {
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

/// A player's name as given, checked (422 otherwise).
fn given_name(name: Option<&str>) -> Result<Option<String>, GameError> {
    name.map(|n| check_name(n).map_err(|e| GameError::Unprocessable(e.to_string())))
        .transpose()
}

/// A move request (`POST /api/games/{id}/moves`): the house, and the ply the client
/// believes is current (for safe retries and races).
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The house to sow, 1..=H as the mover sees it (any size is read, so that the
    /// answer names the house as sent).
    #[serde(deserialize_with = "crate::body::any_whole_number")]
    pub house: u128,
    /// The game's current ply.
    pub ply: u64,
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

fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system provides randomness");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random 256-bit token (hex) and its SHA-256, which is all the store keeps.
fn new_token() -> (String, [u8; 32]) {
    let token = random_hex::<32>();
    let hash = hash_token(&token);
    (token, hash)
}

fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The token of the rematch seat of the holder of `token`: derived from it, so asking
/// again gives the same token, and only the holder of `token` can know it.
fn rematch_token(token: &str, rematch_id: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"mancala rematch seat\0");
    h.update(rematch_id.as_bytes());
    h.update(b"\0");
    h.update(token.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `secret` hashes to `stored`, in constant time.
fn matches(stored: Option<[u8; 32]>, secret: &str) -> bool {
    stored.is_some_and(|s| bool::from(s.ct_eq(&hash_token(secret))))
}

/// The move sowing `house` (the number as sent, whatever its size) on a board of
/// `houses`: the session's one parser of houses.
fn house_move(house: u128, houses: usize) -> Result<Move, GameError> {
    u64::try_from(house)
        .map_or_else(
            |_| {
                Err(mancala_session::HouseError::NoSuchHouse {
                    house: house.to_string(),
                    houses,
                })
            },
            |h| mancala_session::house_number(h, houses),
        )
        .map_err(|e| GameError::Unprocessable(e.to_string()))
}

/// How long an instance holds a computer turn unless it renews the hold (it renews
/// every third of this while thinking): after a crash, another instance takes the turn
/// over within this time.
pub const DEFAULT_COMPUTER_LEASE: Duration = Duration::from_secs(10);

/// How often each instance looks for computer turns nobody holds.
const SWEEP_EVERY: Duration = Duration::from_millis(500);

/// How often an instance that can share its database checks that the games it streams
/// live have not changed without its hearing of it (an announcement lost with the
/// instance that made the change).
const CHECK_WATCHED_EVERY: Duration = Duration::from_secs(2);

/// The game service, cheap to clone (shared state behind an `Arc`).
#[derive(Clone)]
pub struct Games {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    limits: Limits,
    /// The watchers of each game being watched here.
    live: Mutex<HashMap<String, Watchers>>,
    /// Open live streams, in all and per client.
    streams: Mutex<StreamCount>,
    /// Computer players: thinker slots, memory budget, one move at a time per client.
    thinkers: Thinkers,
    /// Games whose computer turn runs on this instance now, each with whether it was
    /// scheduled again meanwhile (and so must look again before it ends).
    thinking: Mutex<HashMap<String, bool>>,
    /// How long a computer turn is held unless renewed.
    lease: Duration,
    /// The live session of each game played here lately.
    sessions: LiveSessions,
    /// The time for the players' clocks and claims.
    clock: Arc<dyn Clock>,
}

/// The background work of [`Games::start_background`]; dropping this stops it.
pub struct Background(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Background {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

/// One game's watchers here, and how far the last view sent to them had come.
struct Watchers {
    tx: broadcast::Sender<Arc<GameView>>,
    sent: Option<Progress>,
}

/// How far the game in `view` has come. A view that is not ahead of the last one sent
/// to a game's watchers is old news, e.g. a reload that lost a race with a later move.
fn progress(view: &GameView) -> Progress {
    Progress {
        expired: false,
        version: view.version,
        plies: view.ply,
        seat_2_taken: view.players[1].joined,
        rematch: view.rematch.is_some(),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section here leaves the data consistent, so a poisoned lock is
    // still usable.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The thinking queue of a computer turn taken over from the store (after a restart,
/// or from an instance that died): its own, as no client is waiting on it here.
fn resumed(id: &str) -> String {
    format!("resumed game {id}")
}

#[derive(Default)]
struct StreamCount {
    total: usize,
    per_client: HashMap<ClientKey, usize>,
}

/// A place among the open live streams, given back when dropped.
pub struct StreamSlot {
    games: Games,
    client: ClientKey,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut s = self.games.streams();
        s.total = s.total.saturating_sub(1);
        if let Some(n) = s.per_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                s.per_client.remove(&self.client);
            }
        }
    }
}

impl Games {
    /// The service over `store`, with the default [`Limits`].
    #[must_use]
    pub fn new(store: Store) -> Games {
        Games::with_limits(store, Limits::default())
    }

    /// The service over `store` within `limits`.
    #[must_use]
    pub fn with_limits(store: Store, limits: Limits) -> Games {
        Games::with_computer_lease(store, limits, DEFAULT_COMPUTER_LEASE)
    }

    /// The service over `store` within `limits`, holding computer turns for `lease` at
    /// a time.
    #[must_use]
    pub fn with_computer_lease(store: Store, limits: Limits, lease: Duration) -> Games {
        Games {
            inner: Arc::new(Inner {
                store,
                thinkers: Thinkers::new(limits.think),
                limits,
                live: Mutex::new(HashMap::new()),
                streams: Mutex::new(StreamCount::default()),
                thinking: Mutex::new(HashMap::new()),
                lease,
                sessions: LiveSessions::new(LIVE_SESSIONS),
                clock: Arc::new(SystemClock),
            }),
        }
    }

    /// The same service reading the time for clocks and claims from `clock` (a test's
    /// [`crate::ManualClock`]).
    ///
    /// # Panics
    /// When the service has been cloned already: set the clock first.
    #[must_use]
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Games {
        Arc::get_mut(&mut self.inner)
            .expect("the clock is set before the service is shared")
            .clock = clock;
        self
    }

    pub(crate) fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The limits the service enforces.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// What the computer players use now, and the most they used at once.
    #[must_use]
    pub fn think_stats(&self) -> ThinkStats {
        self.inner.thinkers.stats()
    }

    /// Live streams open now.
    #[must_use]
    pub fn open_streams(&self) -> usize {
        self.streams().total
    }

    fn streams(&self) -> MutexGuard<'_, StreamCount> {
        lock(&self.inner.streams)
    }

    /// A copy of the live session of the stored game `row`.
    pub(crate) async fn session(&self, row: &GameRow) -> Result<Session, GameError> {
        Ok(self.inner.sessions.of(row).await?.clone())
    }

    /// Stops thinking about game `id`'s computer moves (it is over).
    pub(crate) fn forget_thinking(&self, id: &str) {
        self.inner.thinkers.forget(id);
    }

    /// Reads game `id` again after a change, and sends it to its watchers.
    pub(crate) async fn republish(&self, id: &str) -> Result<GameView, GameError> {
        let view = self.view(id).await?;
        self.publish(id, &view);
        Ok(view)
    }

    /// The stored game, unless it does not exist or has expired.
    pub(crate) async fn row(&self, id: &str) -> Result<GameRow, GameError> {
        let row = self.store().load(id).await?;
        match row {
            Some(row) if self.inner.limits.expiry.deadline_ms(&row) > now_ms() => Ok(row),
            _ => Err(GameError::NotFound),
        }
    }

    pub(crate) fn view_of(&self, row: &GameRow) -> Result<GameView, GameError> {
        GameView::of(row, &self.inner.limits.expiry, self.now_ms())
    }

    /// The time by the service's clock, in milliseconds since the Unix epoch.
    pub(crate) fn now_ms(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// The current view of a game, for anyone.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown or expired id.
    pub async fn view(&self, id: &str) -> Result<GameView, GameError> {
        let row = self.row(id).await?;
        self.view_of(&row)
    }

    /// Whether game `id` exists (and has not expired).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn exists(&self, id: &str) -> Result<bool, GameError> {
        match self.row(id).await {
            Ok(_) => Ok(true),
            Err(GameError::NotFound) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Creates a game; the creator sits as player 1. A game against a friend comes
    /// with an invite secret for the friend. When the computer moves first, its turn
    /// starts at once.
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for settings outside the rules, an unknown
    /// opponent, one past the server's bounds (the message names the bound), a bad
    /// name, first mover or time control.
    pub async fn create(&self, req: NewGame) -> Result<SeatGrant, GameError> {
        let (row, grant) = self.create_row(req, None).await?;
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
    ) -> Result<(GameRow, SeatGrant), GameError> {
        let (rules, seat) = self.checked_setup(&req)?;
        let time_control = req
            .time_control
            .map(TimeControlRequest::check)
            .transpose()?;
        let play = PlayState {
            names: [
                given_name(req.name.as_deref())?,
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
            ..Games::new_row(rules, seat.to_string())
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
    fn checked_setup(&self, req: &NewGame) -> Result<(Rules, Seat), GameError> {
        let bad = |e: &dyn std::fmt::Display| GameError::Unprocessable(e.to_string());
        let rules = Rules::new(req.variant, req.houses.unwrap_or(6), req.seeds.unwrap_or(4))
            .map_err(|e| bad(&e))?;
        if req.variant != Variant::Kalah && (req.empty_capture.is_some() || req.end_rule.is_some())
        {
            return Err(GameError::Unprocessable(format!(
                "empty_capture and end_rule are Kalah options; {} does not take them",
                req.variant
            )));
        }
        let rules = rules.with_options(RuleOptions {
            empty_capture: req.empty_capture.unwrap_or(false),
            end_rule: req.end_rule.unwrap_or_default(),
        });
        let seat: Seat = match &req.opponent {
            Some(text) => text.parse().map_err(|e| bad(&e))?,
            None => Seat::Human,
        };
        if let Seat::Computer(spec) = &seat {
            // Within the bounds first: building a player allocates its tables.
            self.inner
                .limits
                .think
                .check(spec, rules)
                .map_err(GameError::Unprocessable)?;
            spec.build(rules, 0).map_err(|e| bad(&e))?;
        }
        Ok((rules, seat))
    }

    /// Starts the computer's turn in the new game `row` if the computer moves first.
    pub(crate) async fn computer_first(&self, row: &GameRow) -> Result<(), GameError> {
        if !against_computer(row) || row.play.first_side() != Side::North {
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
                lease: self.inner.lease,
            },
        };
        if self.store().change_state(&change).await? {
            self.schedule_computer(&row.id, resumed(&row.id));
        }
        Ok(())
    }

    /// A new game's row: no seats, no moves.
    fn new_row(rules: Rules, opponent: String) -> GameRow {
        let opts = rules.options();
        GameRow {
            id: random_hex::<9>(),
            variant: rules.variant().to_string(),
            houses: rules.houses() as u8,
            seeds: rules.seeds() as u8,
            empty_capture: opts.empty_capture,
            end_rule: opts.end_rule.to_string(),
            opponent,
            activity_ms: now_ms(),
            ..GameRow::default()
        }
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
        let row = self.row(id).await?;
        let JoinRequest { invite, name } = request?;
        let invite = invite.as_deref();
        let name = given_name(name.as_deref())?;
        if against_computer(&row) {
            return Err(GameError::Conflict(format!(
                "player 2 is the computer ({})",
                row.opponent
            )));
        }
        if row.token_hashes[1].is_some() {
            return Err(GameError::Conflict("seat 2 is taken".into()));
        }
        if row.play.stop().is_some() {
            return Err(GameError::Conflict("the game was called off".into()));
        }
        let invited = invite.is_some_and(|i| matches(row.invite_hash, i));
        // A public game's seat is open to anyone (the lobby lists it).
        if !invited && !self.store().is_listed(id).await? {
            return Err(GameError::Forbidden(
                "joining takes the invite link's secret (the watch link only watches)".into(),
            ));
        }
        let (token, hash) = new_token();
        if !self.store().claim_seat_2(id, hash).await? {
            return Err(GameError::Conflict("seat 2 is taken".into()));
        }
        self.seat_2_taken(id, name).await?;
        self.publish_id(id).await;
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

    /// The seat that `token` plays in this game.
    pub(crate) fn seat_of(row: &GameRow, token: Option<&str>) -> Result<Side, GameError> {
        let presented = hash_token(token.ok_or(GameError::Unauthorized)?);
        let mut found = None;
        for side in Side::BOTH {
            if let Some(stored) = row.token_hashes[side.index()] {
                // Compare every seat in constant time, whatever matches.
                if bool::from(stored.ct_eq(&presented)) {
                    found = Some(side);
                }
            }
        }
        found.ok_or(GameError::Unauthorized)
    }

    /// Plays `house` for the holder of `token`, if `ply` is the game's current ply.
    /// A computer reply is thought on behalf of `client`, after that client's earlier
    /// computer moves.
    ///
    /// Checks, in order: the game exists (404), the token (401), the request body
    /// (400), the ply (409), both seats taken (409), the turn (403), the rules (422).
    /// The move is committed before this returns.
    ///
    /// # Errors
    /// The [`GameError`] for the first check that fails; nothing is changed then.
    pub async fn play(
        &self,
        id: &str,
        token: Option<&str>,
        request: Result<MoveRequest, GameError>,
        client: ClientKey,
    ) -> Result<GameView, GameError> {
        let row = self.row(id).await?;
        let seat = Games::seat_of(&row, token)?;
        let MoveRequest { house, ply } = request?;
        let mut session = self.inner.sessions.of(&row).await?;
        let game = session.game();
        if ply != game.ply() as u64 {
            return Err(GameError::Conflict(format!(
                "ply {ply} is not the current ply {}",
                game.ply()
            )));
        }
        if !started(&row) {
            return Err(GameError::Conflict(
                "the game starts when player 2 joins: wait for your friend".into(),
            ));
        }
        if session.to_move().is_some_and(|to_move| to_move != seat) {
            return Err(GameError::NotYourTurn);
        }
        if session.is_over() {
            return Err(GameError::Unprocessable(
                mancala_core::IllegalMove::GameOver.to_string(),
            ));
        }
        let mv = house_move(house, game.rules().houses())?;
        let mut play = row.play.clone();
        if charge_move(&mut play, &session, self.now_ms()).is_err() {
            drop(session);
            self.flag(id).await?;
            return Err(GameError::Conflict("your time ran out".into()));
        }
        session
            .play(mv)
            .map_err(|e| GameError::Unprocessable(e.to_string()))?;
        let next = self.next_after(&row, session.game());
        let update = StateUpdate {
            seen_version: row.version,
            deadline_ms: deadline(&play, &session),
            play,
        };
        if let Err(e) = self.commit(&row.id, ply as usize, mv, next, &update).await {
            // Not stored, so not played: the session goes back to the stored game.
            session.undo_move();
            return Err(e);
        }
        // The stored game is the loaded one plus this move, and the session is that
        // game: no need to read it back or replay it.
        let mut row = row;
        row.moves.push(mv.house());
        row.activity_ms = now_ms();
        row.version += 1;
        row.deadline_ms = update.deadline_ms;
        row.play = update.play;
        if session.is_over() {
            row.finished_ms = Some(row.activity_ms);
        }
        let view = GameView::of_session(&row, &session, &self.inner.limits.expiry, self.now_ms());
        drop(session);
        self.publish(id, &view);
        match next {
            Next::Computer { .. } => self.schedule_computer(id, client.to_string()),
            Next::Nobody => self.inner.thinkers.forget(id),
            Next::Person => {}
        }
        Ok(view)
    }

    /// Who moves in `after`, the game of `row` after a move: the computer's turn is
    /// held by this instance.
    pub(crate) fn next_after(&self, row: &GameRow, after: &Game) -> Next {
        if after.is_over() {
            Next::Nobody
        } else if against_computer(row) && after.to_move() == Some(Side::North) {
            Next::Computer {
                lease: self.inner.lease,
            }
        } else {
            Next::Person
        }
    }

    /// Stores a person's move for ply `ply`, with the game's state after it; a lost
    /// race is a conflict.
    async fn commit(
        &self,
        id: &str,
        ply: usize,
        mv: Move,
        next: Next,
        update: &StateUpdate,
    ) -> Result<(), GameError> {
        let new = NewMove {
            game: id.to_owned(),
            ply,
            house: mv.house(),
            next,
            state: Some(update.clone()),
        };
        if self.store().append_move(&new).await? {
            Ok(())
        } else {
            Err(GameError::Conflict(format!(
                "ply {ply} was played by another request, or the game changed meanwhile"
            )))
        }
    }

    /// Seats the holder of `token` in the rematch of a finished game, with the same
    /// settings: the first player to ask sits as player 1 of a new game, the other as
    /// player 2. Asking again gives the same seat and token; the second value says
    /// whether this request took the seat (`false`: it was taken before).
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
        let seat = Games::seat_of(&row, token)?;
        let token = token.expect("checked by seat_of").to_owned();
        let game = session_of(&row)?;
        if !game.is_over() {
            return Err(GameError::Conflict("the game is not over".into()));
        }
        let new = GameRow {
            play: self.rematch_state(&row.play, seat),
            ..Games::new_row(game.rules(), row.opponent.clone())
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

    /// A place among the open live streams for `client`, held until the slot is
    /// dropped.
    ///
    /// # Errors
    /// [`GameError::TooMany`] when the client has as many open as it may,
    /// [`GameError::Busy`] when the server has.
    pub fn open_stream(&self, client: ClientKey) -> Result<StreamSlot, GameError> {
        let limits = self.inner.limits.streams;
        let mut s = self.streams();
        let mine = s.per_client.get(&client).copied().unwrap_or(0);
        if mine >= limits.per_client {
            return Err(GameError::TooMany {
                message: format!(
                    "too many live streams: at most {} open at once from one client; close \
                     some (a finished game's stream ends by itself)",
                    limits.per_client
                ),
                retry_after: 10,
            });
        }
        if s.total >= limits.total {
            return Err(GameError::Busy {
                message: format!(
                    "the server follows as many live games as it can ({}); try again soon",
                    limits.total
                ),
                retry_after: 10,
            });
        }
        s.total += 1;
        *s.per_client.entry(client).or_insert(0) += 1;
        drop(s);
        Ok(StreamSlot {
            games: self.clone(),
            client,
        })
    }

    /// Subscribes to game `id`'s updates (full views after every change). The channel
    /// closes when the game expires.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<GameView>> {
        let mut live = lock(&self.inner.live);
        live.retain(|_, w| w.tx.receiver_count() > 0);
        live.entry(id.to_owned())
            .or_insert_with(|| Watchers {
                tx: broadcast::channel(16).0,
                sent: None,
            })
            .tx
            .subscribe()
    }

    /// Sends the current view of game `id` to its watchers, and returns it; ends their
    /// streams if the game has expired.
    async fn publish_id(&self, id: &str) -> Option<GameView> {
        match self.view(id).await {
            Ok(view) => {
                self.publish(id, &view);
                Some(view)
            }
            Err(GameError::NotFound) => {
                // Dropping the sender closes every subscriber's stream.
                lock(&self.inner.live).remove(id);
                None
            }
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "could not read a game to publish");
                None
            }
        }
    }

    /// Sends `view` to game `id`'s watchers, if any, unless they have seen it or a
    /// later one.
    fn publish(&self, id: &str, view: &GameView) {
        let mut live = lock(&self.inner.live);
        let Some(watchers) = live.get_mut(id) else {
            return;
        };
        let now = progress(view);
        if watchers.sent.is_some_and(|sent| sent >= now) {
            return;
        }
        watchers.sent = Some(now);
        let _ = watchers.tx.send(Arc::new(view.clone()));
    }

    /// The games watched on this instance now.
    fn watched(&self) -> Vec<String> {
        lock(&self.inner.live)
            .iter()
            .filter(|(_, w)| w.tx.receiver_count() > 0)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Starts the work every instance does in the background: taking over computer
    /// turns that nobody holds (after a restart, or when the instance thinking died),
    /// deleting expired games (on one instance per period), and passing changes made
    /// through other instances to live streams here. It stops when the returned
    /// [`Background`] is dropped.
    #[must_use = "the background work stops when this is dropped"]
    pub fn start_background(&self) -> Background {
        let mut tasks = vec![
            tokio::spawn(self.clone().sweep()),
            tokio::spawn(self.clone().expire_periodically()),
            tokio::spawn(self.clone().flag_periodically()),
        ];
        if let Some(changes) = self.store().changes() {
            tasks.push(tokio::spawn(self.clone().follow(changes)));
        }
        Background(tasks)
    }

    /// Lets go of the computer turns this instance holds, so that another instance
    /// takes them over at once (on shutdown).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn release_computer_turns(&self) -> Result<(), GameError> {
        Ok(self.store().release_computer_turns().await?)
    }

    /// Passes changes made through other instances to the live streams here, and
    /// checks now and then that none went unheard.
    async fn follow(self, mut changes: tokio::sync::mpsc::UnboundedReceiver<Change>) {
        let mut check = tokio::time::interval(CHECK_WATCHED_EVERY);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let ids = tokio::select! {
                change = changes.recv() => match change {
                    Some(Change::Game(id)) => vec![id],
                    Some(Change::Resync) => self.watched(),
                    None => return,
                },
                _ = check.tick() => self.behind().await,
            };
            for id in ids {
                if lock(&self.inner.live).contains_key(&id) {
                    let me = self.clone();
                    tokio::spawn(async move { me.publish_id(&id).await });
                }
            }
        }
    }

    /// The watched games whose watchers have not been sent their latest state (an
    /// expired game's included: its streams are to end).
    async fn behind(&self) -> Vec<String> {
        let watched = self.watched();
        if watched.is_empty() {
            return watched;
        }
        let stored = match self.store().progress(&watched).await {
            Ok(stored) => stored,
            Err(e) => {
                tracing::warn!(error = %e, "checking the watched games failed");
                return Vec::new();
            }
        };
        let live = lock(&self.inner.live);
        stored
            .into_iter()
            .filter(|(id, now)| {
                live.get(id)
                    .is_some_and(|w| w.sent.is_none_or(|sent| sent < *now))
            })
            .map(|(id, _)| id)
            .collect()
    }

    async fn sweep(self) {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            // Take no more turns than there are thinkers free to play them.
            for _ in 0..self.inner.thinkers.free() {
                match self.store().claim_computer_turn(self.inner.lease).await {
                    Ok(Some(id)) => self.schedule_computer(&id, resumed(&id)),
                    Ok(None) => break,
                    Err(e) => {
                        tracing::error!(error = %e, "looking for computer turns failed");
                        break;
                    }
                }
            }
        }
    }

    /// Plays the computer's turn in game `id`, which this instance holds: it thinks
    /// (within the server's bounds, after `client`'s earlier computer moves) and plays
    /// its moves (several in a row after Kalah extra turns), renewing its hold
    /// meanwhile. If the turn already runs here, it looks again before it ends (the
    /// person may have moved just as it finished).
    pub(crate) fn schedule_computer(&self, id: &str, client: String) {
        match lock(&self.inner.thinking).entry(id.to_owned()) {
            Entry::Occupied(mut running) => {
                *running.get_mut() = true;
                return;
            }
            Entry::Vacant(free) => {
                free.insert(false);
            }
        }
        let me = self.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            loop {
                let result = tokio::select! {
                    r = me.computer_turns(&id, &client) => r,
                    r = me.keep_turn(&id) => r,
                };
                if let Err(e) = result {
                    tracing::error!(game = %id, error = %e, "computer turn failed");
                }
                let mut thinking = lock(&me.inner.thinking);
                if thinking.get(&id) == Some(&true) {
                    thinking.insert(id.clone(), false);
                } else {
                    thinking.remove(&id);
                    return;
                }
            }
        });
    }

    /// Renews this instance's hold on game `id`'s computer turn until it is lost.
    async fn keep_turn(&self, id: &str) -> Result<(), GameError> {
        loop {
            tokio::time::sleep(self.inner.lease / 3).await;
            if !self
                .store()
                .renew_computer_turn(id, self.inner.lease)
                .await?
            {
                tracing::warn!(game = %id, "computer turn taken over by another instance");
                return Ok(());
            }
        }
    }

    async fn computer_turns(&self, id: &str, client: &str) -> Result<(), GameError> {
        loop {
            let row = match self.row(id).await {
                Ok(row) => row,
                Err(GameError::NotFound) => {
                    // Expired meanwhile: nothing is owed.
                    self.store().finish_computer_turn(id).await?;
                    return Ok(());
                }
                Err(e) => return Err(e),
            };
            // The game as it is now, not held while the computer thinks: the person's
            // requests meanwhile are answered at once.
            let session = self.inner.sessions.of(&row).await?.clone();
            if !against_computer(&row) || session.to_move() != Some(Side::North) {
                self.store().finish_computer_turn(id).await?;
                return Ok(());
            }
            let game = session.game();
            let mv = match self.think(&row, game, client).await {
                Ok(mv) => mv,
                Err(e) => {
                    // A player that cannot be built or fails never will do better on
                    // this position: stop asking.
                    self.store().finish_computer_turn(id).await?;
                    return Err(e);
                }
            };
            let mut play = row.play.clone();
            // The computer's clock never runs: this only starts the person's turn.
            let _ = charge_move(&mut play, &session, self.now_ms());
            let mut after = session.clone();
            after
                .play(mv)
                .map_err(|e| GameError::Internal(format!("the computer's move: {e}")))?;
            let next = self.next_after(&row, after.game());
            let new = NewMove {
                game: id.to_owned(),
                ply: game.ply(),
                house: mv.house(),
                next,
                state: Some(StateUpdate {
                    seen_version: row.version,
                    deadline_ms: deadline(&play, &after),
                    play,
                }),
            };
            match self.store().append_computer_move(&new).await? {
                ComputerCommit::Stored => {
                    tracing::info!(game = %id, ply = new.ply, house = new.house, "computer moved");
                    self.publish_id(id).await;
                    if matches!(next, Next::Nobody) {
                        self.inner.thinkers.forget(id);
                    }
                    if !matches!(next, Next::Computer { .. }) {
                        return Ok(());
                    }
                }
                // Someone else played this ply, or the game changed: look again.
                ComputerCommit::PlyTaken => {}
                ComputerCommit::LeaseLost => return Ok(()),
            }
        }
    }

    /// The computer's choice in `game`, thought within the server's bounds by one of
    /// the thinkers, after `client`'s earlier computer moves.
    async fn think(&self, row: &GameRow, game: &Game, client: &str) -> Result<Move, GameError> {
        let spec: PlayerSpec = row
            .opponent
            .parse()
            .map_err(|e: mancala_engine::PlayerError| GameError::Internal(e.to_string()))?;
        // A game stored under laxer bounds thinks within today's.
        let plan = self.inner.thinkers.limits().plan(&spec, game.rules());
        let seed = game.ply() as u64
            ^ row
                .id
                .bytes()
                .fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b));
        tracing::info!(game = %row.id, ply = game.ply(), "computer thinking");
        self.inner
            .thinkers
            .think(client, &row.id, plan, game.clone(), seed)
            .await
            .map_err(GameError::Internal)
    }

    /// Deletes the games past their expiry now, and ends their live streams here
    /// (other instances hear of it through the store); returns how many.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn expire(&self) -> Result<usize, GameError> {
        let ids = self
            .store()
            .expire(&self.inner.limits.expiry, now_ms())
            .await?;
        let mut live = lock(&self.inner.live);
        for id in &ids {
            // Dropping the sender closes every subscriber's stream.
            live.remove(id);
            self.inner.thinkers.forget(id);
            self.inner.sessions.forget(id);
        }
        Ok(ids.len())
    }

    /// How often expired games are deleted: a fifth of the shortest expiry, between
    /// 80 ms and 48 s. Each instance looks four times as often whether the `expiry`
    /// timer is due, so that one of them deletes the expired games within a quarter of
    /// the shortest expiry (at most a minute) of their time.
    fn expiry_period(&self) -> Duration {
        let e = self.inner.limits.expiry;
        (e.unstarted.min(e.idle).min(e.finished) / 5)
            .clamp(Duration::from_millis(80), Duration::from_secs(48))
    }

    /// Runs [`Games::expire`] once per [`Games::expiry_period`], on one instance of
    /// those sharing the database.
    async fn expire_periodically(self) {
        let period = self.expiry_period();
        let mut tick = tokio::time::interval(period / 4);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match self.store().claim_tick("expiry", period).await {
                Ok(true) => match self.expire().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(games = n, "expired games deleted"),
                    Err(e) => tracing::error!(error = %e, "expiring games failed"),
                },
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "the expiry timer failed"),
            }
        }
    }
}
