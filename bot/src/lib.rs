//! The Persian Chess Lichess bot: a Bot API client that plays with the engine in-process. The
//! Lichess API types and client are the `lichess-api` crate, the local Lichess-compatible arena
//! (to test and demo the bot without a token or network access) is the `arena` crate; both are
//! re-exported here as [`api`] and [`arena`].
//!
//! Flow: [`events::Bot`] reads the event stream, filters challenges ([`challenge`]) and starts
//! one task per game ([`game`]), which searches with [`player::Player`] on a blocking thread
//! and posts moves through [`api::Client`]; when idle, [`matchmaking`] challenges other bots.
//! [`arena`] is the local server; [`demo`] plays a game on it.

#[cfg(feature = "arena")]
pub use arena;
pub use lichess_api as api;
pub use lichess_api::{pgn, variants};

#[cfg(feature = "arena")]
pub mod bench;
pub mod challenge;
pub mod config;
pub mod decisions;
#[cfg(feature = "arena")]
pub mod demo;
pub mod events;
pub mod game;
#[cfg(feature = "arena")]
pub mod load;
pub mod matchmaking;
pub mod player;
