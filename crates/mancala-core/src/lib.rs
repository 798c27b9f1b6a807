//! The rules of Kalah, Oware and Togyz Kumalak: positions, moves, rule sets, outcomes
//! and perft.
//!
//! This crate is pure: no I/O, no threads, no allocation on the hot paths. Everything
//! else in the mancala suite (computer players, the consoles, the terminal and web
//! games) is built on it.
//!
//! ```text
//! mancala-core  <-  mancala-engine  <-  mancala-session  <-  front ends  <-  mancala
//! ```
//!
//! # Example
//!
//! ```
//! use mancala_core::{Game, Move, Rules, Side};
//!
//! let mut game = Game::new(Rules::kalah(6, 4));
//! // Player 1 sows house 3: its last seed lands in the store, so player 1 moves again.
//! game.play(Move::new(3).unwrap()).unwrap();
//! assert_eq!(game.to_move(), Some(Side::South));
//! game.play(Move::new(6).unwrap()).unwrap();
//! assert_eq!(game.to_move(), Some(Side::North));
//! assert_eq!(game.position().stores(), [2, 0]);
//! ```
//!
//! # Variants
//!
//! - [`Variant::Kalah`]: rules of the Auckland specifications, with the options in
//!   [`RuleOptions`]. See [`variants::Kalah`].
//! - [`Variant::Oware`]: Abapa tournament rules. See [`variants::Oware`].
//! - [`Variant::OwareSimplified`]: the Bern course assignment. See
//!   [`variants::OwareSimplified`].
//! - [`Variant::TogyzKumalak`]: the federation's rules, with tuzdyks. See
//!   [`variants::TogyzKumalak`].
//!
//! What each variant *is* beyond its moves (display name, rules text, defaults,
//! options) is [`Variant::info`]; front ends ask it instead of matching on variants.
//!
//! # Notation
//!
//! A position written on one line, [`Position::to_notation`] and
//! [`Position::from_notation`]: see [`notation`].
//!
//! ```
//! use mancala_core::Position;
//! let p = Position::from_notation("oware 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1").unwrap();
//! assert_eq!(p.to_notation(), "oware 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1");
//! ```

#![forbid(unsafe_code)]

pub mod described;
pub mod description;
mod dispatch;
mod end;
mod game;
mod info;
mod interned;
mod lean;
mod moves;
pub mod notation;
mod options;
mod outcome;
mod perft;
mod play;
mod position;
mod rules;
mod rules_text;
mod side;
mod sowing;
pub mod variants;
mod view;

pub use end::{EndReason, GameEnd};
pub use game::{Game, RepetitionTracker};
pub use lean::LeanGame;
pub use moves::{Move, MoveList, ParseMoveError};
pub use notation::{NotationError, NotationErrorKind, NotationField};
pub use options::{EndRule, OptionError, RuleOptions};
pub use outcome::Outcome;
pub use perft::perft;
pub use position::{IllegalMove, MoveReport, Position, SetupError};
pub use rules::{Rules, RulesError, Variant};
pub use side::Side;
pub use sowing::{NoSteps, Pit, SowStep, StepSink};
pub use view::{ResultView, StateView};

/// The most houses per side any variant supports.
pub const MAX_HOUSES: usize = 16;

/// The most seeds per house at the start any variant supports.
pub const MAX_SEEDS: usize = 64;
