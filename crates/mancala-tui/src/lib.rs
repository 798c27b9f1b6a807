//! The full-screen terminal game: a start screen, the board drawn as a board, sowing
//! animated seed by seed, computer players thinking on their own thread.
//!
//! Built the ratatui way: one [`App`] state struct; [`App::handle_key`],
//! [`App::handle_mouse`] and [`App::tick`] change it; [`draw`] renders it as a pure
//! function of the state; [`run`] owns the real terminal. Everything but `run` is
//! tested on ratatui's `TestBackend`, with a fake clock, and the main screens are
//! pinned by snapshots (`tests/snapshots/`).
//!
//! The screen is drawn only when something on it changed: a key, a click, a resize,
//! or a tick that showed a sowing step, played the computer's move or turned the
//! spinner ([`App::tick`] says so), so a game waiting for a key writes nothing to the
//! terminal. Drawing stays cheap even so: whatever takes time to find out is worked out
//! when the state changes and kept in it. The start screen, for one, checks
//! whether each chosen computer player can play the rules (which builds the player)
//! when a setting changes, and draws from what it found.
//!
//! ```
//! use std::time::Instant;
//! use mancala_tui::{App, Setup, draw};
//! use ratatui::{Terminal, backend::TestBackend};
//!
//! let app = App::new(Setup::default(), false, Instant::now());
//! let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
//! terminal.draw(|frame| draw(frame, &app)).unwrap();
//! let screen = format!("{:?}", terminal.backend().buffer());
//! assert!(screen.contains("Mancala · new game"));
//! ```
//!
//! Keys in a game: arrows and Enter, a house number, or a house letter (player 1's
//! houses are a, b, c, ... and player 2's continue the alphabet, then capitals), or a
//! click; `u` undo, `r` redo, `h` hint, `m` the move list (PgUp/PgDn or the mouse
//! wheel scroll it), `w` save, `+`/`-` sowing speed, `?`/F1 help, any key skips a
//! sowing, `q` quits (asking first), Ctrl-C quits at once, Ctrl-Z suspends, Ctrl-L draws
//! the screen anew. At the end:
//! `y`/`n`, `f` who moves first next, `v` the result box away and back, `a` review the
//! game (its analysis on a thread of its own, then the arrows step through the moves,
//! each with its label and the best house lit). docs/terminal.md has
//! the full table.

#![forbid(unsafe_code)]
#![warn(clippy::too_many_lines)]

// Modules depend one way (tests/module_deps.rs checks it): `terminal` on `app` and
// `ui`; `ui` on `app`, `help`, `style`, `setup` and `layout`; `app` on `help`, `setup`
// and `layout`; `help` (the help's text) on `style`; `style`, `setup` and `layout` on
// none of the others. Any of them may use `fit` (text fitted to a width), which uses
// none. House labels come from mancala-session.
mod app;
mod fit;
mod help;
mod keymap;
mod layout;
mod setup;
mod style;
mod terminal;
mod ui;

pub use app::{
    App, ESTIMATE_MARGIN, Message, NAME_SHOWN, Score, Verdict, engine_log, short_letter_note,
};
pub use layout::{BoardShape, GameLayout};
pub use setup::{EXTERNAL_SEAT, FALLBACK_PLAYER, Setup, default_name, is_external};
pub use terminal::{Ended, run, run_app};
pub use ui::draw;
