//! The web game: an HTTP server with durable games, live updates, spectators, a
//! documented JSON API, and the browser UI it serves.
//!
//! ```text
//! api.rs     routes, handlers, errors -> status codes, SSE, static UI   (axum)
//! games.rs   the game service: create, join, play, rematch, computer turns, live
//! view.rs    the JSON shape of a game
//! store/     games, hashed seat tokens, one row per move: one interface (GameStore),
//!            SQLite (the default) or PostgreSQL (several instances, one database)
//! static/    index.html, app.js, style.css (embedded in the binary)
//! ```
//!
//! Handlers never block the async runtime: SQLite runs on the blocking pool, and so
//! do computer players (at most one per core at a time).

#![forbid(unsafe_code)]

mod api;
mod games;
mod store;
mod view;

pub use api::{ApiError, BODY_LIMIT, app, serve};
pub use games::{
    Background, DEFAULT_COMPUTER_LEASE, GameError, Games, MoveRequest, NewGame, SeatGrant,
};
pub use store::{
    Change, ComputerCommit, DbLocation, GameRow, GameStore, NewMove, Next, PostgresStore, Progress,
    SqliteStore, Store, StoreError, StoreOptions,
};
pub use view::{GameView, HistoryEntry, LastMove, PlayerView, RulesView, StepView};
