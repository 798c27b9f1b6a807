//! The web game: an HTTP server with durable games, live updates, spectators, a
//! documented JSON API, and the browser UI it serves.
//!
//! ```text
//! api.rs        routes, handlers, errors -> status codes, SSE/WebSocket, static UI,
//!               rate limits, security headers, CORS                          (axum)
//! games.rs      the game service (Games): its state, reading games and their views,
//!               handing views to the live streams; lifecycle, moves, background,
//!               actions, records and lobby each add an `impl Games` of their own
//! lifecycle.rs  create (rules and opponent checked), join, rematch
//! moves.rs      a person's move: checked, charged, committed, published
//! background.rs the computer's turns, taking over turns nobody holds, following
//!               other instances' changes, expiry
//! actions.rs    resign, abort, draw offers, takebacks, claims, ending games on time
//! streams.rs    live streams here: watchers, the last view sent, stream caps; the
//!               account event streams open here, woken by their accounts' events
//! tokens.rs     seat tokens and invites: random, hashed, compared in constant time
//! row.rs        what a stored game means: rules, start, seats, names, its session
//! live.rs       the live session of each game played here
//! kept.rs       computer players kept between their moves
//! clock.rs      the service's clock (injectable), time controls, whose clock runs
//! state.rs      what a game keeps beside its moves: names, first mover, stop, offer,
//!               clocks; checked names
//! think.rs      computer players within the server's bounds: time, size, memory
//! limits.rs     every limit of the server and its default
//! client.rs     who a client is (peer address, or a trusted proxy's X-Forwarded-For)
//! body.rs       request bodies: JSON only, errors that name the field
//! body_deadline.rs  a request body must arrive within the body timeout (408)
//! listener.rs   the accept loop: header read timeout, connections per client
//! ops.rs        the operator's side around the application: health.rs (/healthz,
//!               /readyz), metrics.rs (Prometheus /metrics: requests by route,
//!               streams, computer moves, games, the database), request_id.rs
//!               (x-request-id, in every request's log line), computer_meter.rs
//!               (the computer moves' waits and thinks, counted by the thinkers)
//! view.rs       the JSON shape of a game
//! records.rs    game records: download, import, the positions of a game ply by ply
//! analysis.rs   a finished game's computer analysis: one job per game, in the
//!               thinker slots, claimed in the store, stored once computed
//! analysis_jobs.rs  the jobs running here and their progress (held by the service)
//! accounts.rs   player accounts: sign-up and log-in (argon2id), sessions and bot
//!               tokens, an account's games, profiles, the leaderboard, rating a
//!               finished rated game
//! accounts_api.rs  the account routes, the session cookie
//! caller.rs     who acts in a request: the account (Caller), a seat's holder
//! me_api.rs     an owner's routes: password change, sessions and tokens listed, ended
//! credentials.rs  password change and operator reset, sessions and tokens as listed
//! passwords.rs  what a password must be (common_passwords.txt: the common ones)
//! login_throttle.rs  log-in attempts per (username, client), per username, per client
//! same_origin.rs  the refusal of cross-site requests made with the cookie
//! ratings.rs    Glicko-2 (skillratings): a rating per pool, each game its own period
//! http.rs       what every handler shares: errors as answers, bearer tokens, clients
//! challenges.rs an account challenges another by name to a game it describes:
//!               accept (the game starts), decline, withdraw, expiry
//! events.rs     an account's events (challenges, its games starting and ending),
//!               stored with ids and announced; events_api.rs the challenge routes
//!               and the event stream (`/api/stream/event`)
//! lobby.rs      the public games: waiting for an opponent (the lobby), being played
//! catalogue.rs  what the server plays, for the browser's forms: the variants as core
//!               describes them, the computer players of the engine's catalogue
//! store/        games, hashed seat tokens and invites, one row per move: one interface
//!               (Store), SQLite (the default) or PostgreSQL (several instances, one
//!               database); migrations/ holds each backend's versioned schemas
//! static/       index.html, app.js (home and game pages), catalogue.js (the variants
//!               and players as the server describes them; the home form built from
//!               them), lobby.js (the home page's lists and import), replay.js (the
//!               replay viewer), focus.js (keyboard play keeps the focus on the
//!               board), live.js (a game followed live: WebSocket or event
//!               stream, the lost connection's banner), moves.js (the move
//!               list), account.js (the log-in dialog, "Your games" of an
//!               account, profiles, the leaderboard), challenges.js (challenges
//!               sent to the person logged in, with Accept and Decline; the profile's
//!               Challenge), style.css, icons (embedded in
//!               the binary)
//! ```
//!
//! Handlers never block the async runtime: SQLite runs on the blocking pool,
//! PostgreSQL asynchronously, and computer players on threads of their own at a lower
//! priority (at most one per core at a time, within a shared memory budget).

#![forbid(unsafe_code)]

mod accounts;
mod accounts_api;
mod actions;
mod analysis;
mod analysis_jobs;
mod api;
mod background;
mod body;
mod body_deadline;
mod caller;
mod catalogue;
mod challenges;
mod client;
mod clock;
mod computer_meter;
mod credentials;
mod error;
mod events;
mod events_api;
mod games;
mod health;
mod http;
mod kept;
mod lifecycle;
mod limits;
mod listener;
mod live;
mod live_api;
mod lobby;
mod login_throttle;
mod me_api;
mod metrics;
mod moves;
mod ops;
mod pages;
mod passwords;
mod ratings;
mod records;
mod request_id;
mod row;
mod rule_options;
mod same_origin;
mod state;
mod store;
mod streams;
mod think;
mod thinkers;
mod tokens;
mod view;

pub use accounts::{
    AccountGame, AccountGames, AccountView, LeaderView, PAGE_LIMIT, RatingView, SESSION_LIFETIME,
    Username,
};
pub use actions::OfferRequest;
pub use analysis_jobs::PendingView;
pub use api::{ApiError, BODY_LIMIT, app, app_with, serve, serve_with};
pub use background::Background;
pub use caller::SESSION_COOKIE;
pub use catalogue::{ComputerView, OptionView, PlayerList, VariantList, VariantView};
pub use challenges::{
    CHALLENGE_LIFETIME, ChallengeList, ChallengeView, OPEN_CHALLENGES, REASON_MAX_CHARS,
};
pub use client::ClientKey;
pub use clock::{CLAIM_AFTER, Clock, ManualClock, SystemClock, TimeControlRequest};
pub use credentials::{CredentialView, credential_id};
pub use error::{BodyError, GameError};
pub use events::EVENT_KEEP;
pub use games::{DEFAULT_COMPUTER_LEASE, Games};
pub use kept::KeptStats;
pub use lifecycle::{FirstMover, JoinRequest, NewGame, RULES_LIMIT, RandomWord, SeatGrant};
pub use limits::{
    AccountLimits, ConnectionLimits, Limits, Rate, RateLimits, StreamLimits, format_duration,
    parse_duration,
};
pub use lobby::{GameList, LIST_LIMIT, ListedGame};
pub use metrics::{Metrics, serve_metrics};
pub use moves::MoveRequest;
pub use ops::{MIN_TOKEN_LEN, Operations};
pub use passwords::PASSWORD_MIN_CHARS;
pub use ratings::{
    PROVISIONAL_DEVIATION, Rating, RatingChange, RatingChanges, Score, pool_of, rate_game,
};
pub use records::{ImportRequest, PositionView, PositionsView, RECORD_LIMIT, RecordQuery};
pub use state::{NAME_MAX_CHARS, Offer, OfferKind, PlayState, StoppedBy, TimeControl};
pub use store::{
    Account, Change, ComputerCommit, CredentialInfo, CredentialKind, DbLocation, Expiry, GameRow,
    Listing, NewMove, Next, Page, PairCap, PoolUse, Probe, Progress, Ranked, RematchSeat,
    RematchToken, Schema, StateChange, StateUpdate, Store, StoreError, StoreOptions,
    StoredAnalysis, now_ms,
};
pub use streams::{SentView, StreamSlot};
pub use think::ThinkLimits;
pub use thinkers::ThinkStats;
pub use tokens::SeatKey;
pub use view::{
    ClocksView, EndView, GameView, HistoryEntry, LastMove, OfferView, PlayerView, RulesView,
    SeatRatingView, StepView,
};
