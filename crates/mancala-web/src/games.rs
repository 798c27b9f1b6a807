//! The game service: creating, joining and playing games, computer turns, and live
//! updates. Handlers call it; it calls the store off the async runtime.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mancala_core::{EndRule, Game, IllegalMove, Move, RuleOptions, Rules, Side, Variant};
use mancala_engine::PlayerSpec;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::sync::{Semaphore, broadcast};

use crate::store::{
    Change, ComputerCommit, GameRow, GameStore, NewMove, Next, Progress, Store, StoreError,
};
use crate::view::GameView;

/// Why a request about a game failed; each maps to one HTTP status.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// 404: no game with this id.
    #[error("no such game")]
    NotFound,
    /// 401: no token, or not a token of this game.
    #[error("a valid token for this game is required")]
    Unauthorized,
    /// 403: it is not this seat's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// 400: the request body is not the expected JSON.
    #[error("{0}")]
    BadRequest(String),
    /// 413: the request body is too large.
    #[error("request body too large")]
    TooLarge,
    /// 409: the request conflicts with the game's state.
    #[error("{0}")]
    Conflict(String),
    /// 422: the move or settings break the rules.
    #[error("{0}")]
    Unprocessable(String),
    /// 500: storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

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
}

/// A move request (`POST /api/games/{id}/moves`): the house, and the ply the client
/// believes is current (for safe retries and races).
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The house to sow, 1..=H as the mover sees it.
    pub house: u64,
    /// The game's current ply.
    pub ply: u64,
}

/// A seat handed to a client: which seat and the secret token that plays it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SeatGrant {
    /// The game's id (in create and rematch answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 1 or 2.
    pub seat: u8,
    /// The bearer token for this seat: show it to nobody else.
    pub token: String,
}

/// A random 256-bit token (hex) and its SHA-256, which is all the store keeps.
fn new_token() -> (String, [u8; 32]) {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system provides randomness");
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let hash = hash_token(&token);
    (token, hash)
}

fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

fn new_id() -> String {
    let mut bytes = [0u8; 9];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system provides randomness");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The rules stored with a game.
pub(crate) fn rules_of(row: &GameRow) -> Result<Rules, GameError> {
    let corrupt = |what: &str| StoreError::Corrupt(format!("game {}: {what}", row.id));
    let variant: Variant = row.variant.parse().map_err(|_| corrupt("variant"))?;
    let end_rule: EndRule = row.end_rule.parse().map_err(|_| corrupt("end rule"))?;
    Ok(Rules::new(variant, row.houses, row.seeds)
        .map_err(|_| corrupt("board size"))?
        .with_options(RuleOptions {
            empty_capture: row.empty_capture,
            end_rule,
        }))
}

/// The game replayed from its stored moves.
pub(crate) fn replay(row: &GameRow) -> Result<Game, GameError> {
    let mut game = Game::new(rules_of(row)?);
    for (ply, &h) in row.moves.iter().enumerate() {
        let mv = Move::new(h)
            .ok_or_else(|| StoreError::Corrupt(format!("game {} ply {ply}", row.id)))?;
        game.play(mv)
            .map_err(|e| StoreError::Corrupt(format!("game {} ply {ply}: {e}", row.id)))?;
    }
    Ok(game)
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
    /// The watchers of each game being watched here.
    live: Mutex<HashMap<String, Watchers>>,
    /// Bounds the computer players thinking at once to the machine's cores.
    thinkers: Semaphore,
    /// Games whose computer turn runs on this instance now, each with whether it was
    /// scheduled again meanwhile (and so must look again before it ends).
    thinking: Mutex<HashMap<String, bool>>,
    /// How long a computer turn is held unless renewed.
    lease: Duration,
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

impl Games {
    /// The service over `store`.
    #[must_use]
    pub fn new(store: Store) -> Games {
        Games::with_computer_lease(store, DEFAULT_COMPUTER_LEASE)
    }

    /// The service over `store`, holding computer turns for `lease` at a time.
    #[must_use]
    pub fn with_computer_lease(store: Store, lease: Duration) -> Games {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Games {
            inner: Arc::new(Inner {
                store,
                live: Mutex::new(HashMap::new()),
                thinkers: Semaphore::new(cores),
                thinking: Mutex::new(HashMap::new()),
                lease,
            }),
        }
    }

    fn store(&self) -> &Store {
        &self.inner.store
    }

    async fn row(&self, id: &str) -> Result<GameRow, GameError> {
        self.store().load(id).await?.ok_or(GameError::NotFound)
    }

    /// The current view of a game, for anyone.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown id.
    pub async fn view(&self, id: &str) -> Result<GameView, GameError> {
        let row = self.row(id).await?;
        GameView::of(&row)
    }

    /// Creates a game; the creator sits as player 1.
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for settings outside the rules or an unknown opponent.
    pub async fn create(&self, req: NewGame) -> Result<SeatGrant, GameError> {
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
        let opponent = req.opponent.unwrap_or_else(|| "human".into());
        let spec: PlayerSpec = opponent.parse().map_err(|e| bad(&e))?;
        if !spec.is_human() {
            spec.build(rules, 0).map_err(|e| bad(&e))?;
        }
        self.create_with(rules, spec.to_string(), None).await
    }

    async fn create_with(
        &self,
        rules: Rules,
        opponent: String,
        rematch_of: Option<String>,
    ) -> Result<SeatGrant, GameError> {
        let (token, hash) = new_token();
        let id = new_id();
        let opts = rules.options();
        let row = GameRow {
            id: id.clone(),
            variant: rules.variant().to_string(),
            houses: rules.houses() as u8,
            seeds: rules.seeds() as u8,
            empty_capture: opts.empty_capture,
            end_rule: opts.end_rule.to_string(),
            opponent,
            token_hashes: [Some(hash), None],
            moves: Vec::new(),
            rematch: None,
        };
        self.store().create(&row).await?;
        if let Some(old) = rematch_of {
            let winner = self.store().set_rematch(&old, &id).await?;
            if winner != id {
                // Someone else asked first: join their rematch instead.
                return self.join(&winner).await.map(|g| SeatGrant {
                    id: Some(winner),
                    ..g
                });
            }
            // Tell the old game's watchers, so the other player can follow.
            self.publish_id(&old).await;
        }
        Ok(SeatGrant {
            id: Some(id),
            seat: 1,
            token,
        })
    }

    /// Takes seat 2 of a game against a friend.
    ///
    /// # Errors
    /// [`GameError::NotFound`], or [`GameError::Conflict`] when the seat is taken or
    /// the opponent is a computer.
    pub async fn join(&self, id: &str) -> Result<SeatGrant, GameError> {
        let row = self.row(id).await?;
        if row.opponent != "human" {
            return Err(GameError::Conflict(format!(
                "player 2 is the computer ({})",
                row.opponent
            )));
        }
        let (token, hash) = new_token();
        if !self.store().claim_seat_2(id, hash).await? {
            return Err(GameError::Conflict("seat 2 is taken".into()));
        }
        self.publish_id(id).await;
        Ok(SeatGrant {
            id: None,
            seat: 2,
            token,
        })
    }

    /// The seat that `token` plays in this game.
    fn seat_of(row: &GameRow, token: Option<&str>) -> Result<Side, GameError> {
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
    ///
    /// Checks, in order: the game exists (404), the token (401), the request body
    /// (400), the ply (409), the turn (403), the rules (422). The move is committed
    /// before this returns.
    ///
    /// # Errors
    /// The [`GameError`] for the first check that fails; nothing is changed then.
    pub async fn play(
        &self,
        id: &str,
        token: Option<&str>,
        request: Result<MoveRequest, GameError>,
    ) -> Result<GameView, GameError> {
        let row = self.row(id).await?;
        let seat = Games::seat_of(&row, token)?;
        let MoveRequest { house, ply } = request?;
        let game = replay(&row)?;
        if ply != game.ply() as u64 {
            return Err(GameError::Conflict(format!(
                "ply {ply} is not the current ply {}",
                game.ply()
            )));
        }
        if let Some(to_move) = game.to_move() {
            if to_move != seat {
                return Err(GameError::NotYourTurn);
            }
        }
        if game.is_over() {
            return Err(GameError::Unprocessable(IllegalMove::GameOver.to_string()));
        }
        let mv = u8::try_from(house)
            .ok()
            .and_then(Move::new)
            .ok_or(IllegalMove::OutOfRange {
                house: u8::try_from(house).unwrap_or(u8::MAX),
                houses: game.rules().houses() as u8,
            })
            .and_then(|mv| game.position().check(mv).map(|()| mv))
            .map_err(|e| GameError::Unprocessable(e.to_string()))?;
        let next = self.next_after(&row, &game, mv);
        self.commit(&row.id, game.ply(), mv, next).await?;
        // The stored game is the loaded one plus this move: no need to read it back.
        let mut row = row;
        row.moves.push(mv.house());
        let view = GameView::of(&row)?;
        self.publish(id, &view);
        if next != Next::Person {
            self.schedule_computer(id);
        }
        Ok(view)
    }

    /// Who moves after `mv` in `game`: the computer's turn is held by this instance.
    fn next_after(&self, row: &GameRow, game: &Game, mv: Move) -> Next {
        let computer_next = row.opponent != "human" && {
            let mut after = game.clone();
            after.play(mv).is_ok() && after.to_move() == Some(Side::North)
        };
        if computer_next {
            Next::Computer {
                lease: self.inner.lease,
            }
        } else {
            Next::Person
        }
    }

    /// Stores a person's move for ply `ply`; a lost race is a conflict.
    async fn commit(&self, id: &str, ply: usize, mv: Move, next: Next) -> Result<(), GameError> {
        let new = NewMove {
            game: id.to_owned(),
            ply,
            house: mv.house(),
            next,
        };
        if self.store().append_move(&new).await? {
            Ok(())
        } else {
            Err(GameError::Conflict(format!(
                "ply {ply} was played by another request"
            )))
        }
    }

    /// Starts a rematch with the same settings: the requester sits as player 1 of the
    /// new game, or joins the rematch the other player already started.
    ///
    /// # Errors
    /// [`GameError::NotFound`], [`GameError::Unauthorized`], or a conflict when the game
    /// is not over.
    pub async fn rematch(&self, id: &str, token: Option<&str>) -> Result<SeatGrant, GameError> {
        let row = self.row(id).await?;
        Games::seat_of(&row, token)?;
        let game = replay(&row)?;
        if !game.is_over() {
            return Err(GameError::Conflict("the game is not over".into()));
        }
        if let Some(existing) = &row.rematch {
            return self.join(existing).await.map(|g| SeatGrant {
                id: Some(existing.clone()),
                ..g
            });
        }
        self.create_with(game.rules(), row.opponent.clone(), Some(row.id.clone()))
            .await
    }

    /// Subscribes to game `id`'s updates (full views after every change).
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

    /// Sends the current view of game `id` to its watchers, and returns it.
    async fn publish_id(&self, id: &str) -> Option<GameView> {
        let view = self.view(id).await.ok()?;
        self.publish(id, &view);
        Some(view)
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
    /// and passing changes made through other instances to live streams here.
    /// It stops when the returned [`Background`] is dropped.
    #[must_use = "the background work stops when this is dropped"]
    pub fn start_background(&self) -> Background {
        let mut tasks = vec![tokio::spawn(self.clone().sweep())];
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

    /// The watched games whose watchers have not been sent their latest state.
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
            for _ in 0..self.inner.thinkers.available_permits() {
                match self.store().claim_computer_turn(self.inner.lease).await {
                    Ok(Some(id)) => self.schedule_computer(&id),
                    Ok(None) => break,
                    Err(e) => {
                        tracing::error!(error = %e, "looking for computer turns failed");
                        break;
                    }
                }
            }
        }
    }

    /// Plays the computer's turn in game `id`, which this instance holds: it thinks on
    /// the blocking pool and plays its moves (several in a row after Kalah extra turns),
    /// renewing its hold meanwhile. If the turn already runs here, it looks again
    /// before it ends (the person may have moved just as it finished).
    fn schedule_computer(&self, id: &str) {
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
                    r = me.computer_turns(&id) => r,
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

    async fn computer_turns(&self, id: &str) -> Result<(), GameError> {
        loop {
            let row = self.row(id).await?;
            let game = replay(&row)?;
            if row.opponent == "human" || game.to_move() != Some(Side::North) {
                self.store().finish_computer_turn(id).await?;
                return Ok(());
            }
            let mv = match self.think(&row, &game).await {
                Ok(mv) => mv,
                Err(e) => {
                    // A player that cannot be built never will be: stop asking.
                    self.store().finish_computer_turn(id).await?;
                    return Err(e);
                }
            };
            let next = self.next_after(&row, &game, mv);
            let new = NewMove {
                game: id.to_owned(),
                ply: game.ply(),
                house: mv.house(),
                next,
            };
            match self.store().append_computer_move(&new).await? {
                ComputerCommit::Stored => {
                    tracing::info!(game = %id, ply = new.ply, house = new.house, "computer moved");
                    self.publish_id(id).await;
                    if next == Next::Person {
                        return Ok(());
                    }
                }
                // Someone else played this ply: look again.
                ComputerCommit::PlyTaken => {}
                ComputerCommit::LeaseLost => return Ok(()),
            }
        }
    }

    /// The computer's choice in `game`, computed on the blocking pool by one of the
    /// bounded thinkers.
    async fn think(&self, row: &GameRow, game: &Game) -> Result<Move, GameError> {
        let spec: PlayerSpec = row
            .opponent
            .parse()
            .map_err(|e: mancala_engine::PlayerError| GameError::Unprocessable(e.to_string()))?;
        let _permit = self.inner.thinkers.acquire().await.expect("semaphore open");
        let seed = game.ply() as u64
            ^ row
                .id
                .bytes()
                .fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b));
        tracing::info!(game = %row.id, ply = game.ply(), "computer thinking");
        let game = game.clone();
        tokio::task::spawn_blocking(move || {
            let mut player = spec
                .build(game.rules(), seed)
                .map_err(|e| GameError::Unprocessable(e.to_string()))?;
            Ok::<_, GameError>(player.choose(&game).mv)
        })
        .await
        .expect("computer player panicked")
    }
}
