//! The web game: an HTTP server with durable games, live updates, spectators, a
//! documented JSON API, and the browser UI it serves.
//!
//! ```text
//! api.rs     routes, handlers, errors -> status codes, SSE, static UI   (axum)
//! games.rs   the game service: create, join, play, rematch, computer turns, live
//! view.rs    the JSON shape of a game
//! store.rs   SQLite: games, hashed seat tokens, one row per move
//! static/    index.html, app.js, style.css (embedded in the binary)
//! ```
//!
//! Handlers never block the async runtime: storage runs on the blocking pool, and so
//! do computer players (at most one per core at a time).

#![forbid(unsafe_code)]

mod api;
mod games;
mod store;
mod view;

pub use api::{ApiError, BODY_LIMIT, app, serve};
pub use games::{GameError, Games, MoveRequest, NewGame, SeatGrant};
pub use store::{GameRow, Store, StoreError};
pub use view::{GameView, HistoryEntry, LastMove, PlayerView, RulesView, StepView};
