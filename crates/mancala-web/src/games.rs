//! The game service: creating, joining and playing games, computer turns, and live
//! updates. Handlers call it; it calls the store off the async runtime.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mancala_core::{EndRule, Game, IllegalMove, Move, RuleOptions, Rules, Side, Variant};
use mancala_engine::PlayerSpec;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::sync::{Semaphore, broadcast};

use crate::store::{GameRow, Store, StoreError};
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

/// The game service, cheap to clone (shared state behind an `Arc`).
#[derive(Clone)]
pub struct Games {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    /// One broadcast channel per game being watched; each message is a game view.
    live: Mutex<HashMap<String, broadcast::Sender<Arc<GameView>>>>,
    /// Bounds the computer players thinking at once to the machine's cores.
    thinkers: Semaphore,
}

impl Games {
    /// The service over `store`.
    #[must_use]
    pub fn new(store: Store) -> Games {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Games {
            inner: Arc::new(Inner {
                store,
                live: Mutex::new(HashMap::new()),
                thinkers: Semaphore::new(cores),
            }),
        }
    }

    /// Runs a store operation on the blocking pool.
    async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, GameError> {
        let me = self.clone();
        tokio::task::spawn_blocking(move || f(&me.inner.store))
            .await
            .expect("store task panicked")
            .map_err(GameError::from)
    }

    async fn row(&self, id: &str) -> Result<GameRow, GameError> {
        let id = id.to_owned();
        self.db(move |s| s.load(&id))
            .await?
            .ok_or(GameError::NotFound)
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
        self.db(move |s| s.create(&row)).await?;
        if let Some(old) = rematch_of {
            let (old_id, new) = (old.clone(), id.clone());
            let winner = self.db(move |s| s.set_rematch(&old_id, &new)).await?;
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
        let owned = id.to_owned();
        if !self.db(move |s| s.claim_seat_2(&owned, hash)).await? {
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
        self.commit(&row.id, game.ply(), mv).await?;
        // The stored game is the loaded one plus this move: no need to read it back.
        let mut row = row;
        row.moves.push(mv.house());
        let view = GameView::of(&row)?;
        self.publish(id, &view);
        if row.opponent != "human" {
            self.schedule_computer(id);
        }
        Ok(view)
    }

    /// Stores a move for ply `ply`; a lost race is a conflict.
    async fn commit(&self, id: &str, ply: usize, mv: Move) -> Result<(), GameError> {
        let owned = id.to_owned();
        if self
            .db(move |s| s.append_move(&owned, ply, mv.house()))
            .await?
        {
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
        let mut live = self
            .inner
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        live.retain(|_, tx| tx.receiver_count() > 0);
        live.entry(id.to_owned())
            .or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }

    /// Sends the current view of game `id` to its watchers, and returns it.
    async fn publish_id(&self, id: &str) -> Option<GameView> {
        let view = self.view(id).await.ok()?;
        self.publish(id, &view);
        Some(view)
    }

    /// Sends `view` to game `id`'s watchers, if any.
    fn publish(&self, id: &str, view: &GameView) {
        let tx = self
            .inner
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .cloned();
        if let Some(tx) = tx {
            let _ = tx.send(Arc::new(view.clone()));
        }
    }

    /// If the computer is to move in game `id`, lets it think on the blocking pool and
    /// plays its moves (several in a row after Kalah extra turns).
    pub fn schedule_computer(&self, id: &str) {
        let me = self.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            if let Err(e) = me.computer_turns(&id).await {
                tracing::error!(game = %id, error = %e, "computer turn failed");
            }
        });
    }

    async fn computer_turns(&self, id: &str) -> Result<(), GameError> {
        loop {
            let row = self.row(id).await?;
            if row.opponent == "human" {
                return Ok(());
            }
            let game = replay(&row)?;
            if game.to_move() != Some(Side::North) {
                return Ok(());
            }
            let spec: PlayerSpec =
                row.opponent
                    .parse()
                    .map_err(|e: mancala_engine::PlayerError| {
                        GameError::Unprocessable(e.to_string())
                    })?;
            let _permit = self.inner.thinkers.acquire().await.expect("semaphore open");
            let seed = game.ply() as u64
                ^ row
                    .id
                    .bytes()
                    .fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b));
            let rules = game.rules();
            let ply = game.ply();
            let mv = tokio::task::spawn_blocking(move || {
                let mut player = spec
                    .build(rules, seed)
                    .map_err(|e| GameError::Unprocessable(e.to_string()))?;
                Ok::<_, GameError>(player.choose(&game).mv)
            })
            .await
            .expect("computer player panicked")?;
            match self.commit(id, ply, mv).await {
                Ok(()) => {
                    self.publish_id(id).await;
                }
                // Another task played this ply (a restart raced with a scheduled
                // turn): look again.
                Err(GameError::Conflict(_)) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// After a restart: lets the computer move in every game where it is its turn.
    ///
    /// # Errors
    /// When the store cannot list the games.
    pub async fn resume_computers(&self) -> Result<usize, GameError> {
        let ids = self.db(Store::computer_games).await?;
        let n = ids.len();
        for id in ids {
            self.schedule_computer(&id);
        }
        Ok(n)
    }
}
