//! The Persian Chess Lichess bot: a Bot API client that plays with the engine in-process, and a
//! local Lichess-compatible arena to test and demo it without a token or network access.
//!
//! Flow: [`events::Bot`] reads the event stream, filters challenges ([`challenge`]) and starts
//! one task per game ([`game`]), which searches with [`player::Player`] on a blocking thread
//! and posts moves through [`api::Client`]; when idle, [`matchmaking`] challenges other bots.
//! [`arena`] is the local server; [`demo`] plays a game on it.

pub mod api;
pub mod arena;
pub mod bench;
pub mod challenge;
pub mod config;
pub mod decisions;
pub mod demo;
pub mod events;
pub mod game;
pub mod load;
pub mod matchmaking;
pub mod pgn;
pub mod player;
pub mod variants;
