//! The Lichess Bot API as the bot and the arena share it: HTTP client, endpoint table, message
//! types, NDJSON reading, the variant keys of the server <-> engine variants ([`variants`]) and
//! the PGN of a finished game in Lichess's terms ([`pgn`]). No server code: the arena is the
//! `arena` crate, the bot the `bot` crate.

pub mod client;
pub mod endpoints;
pub mod error;
pub mod ndjson;
pub mod pgn;
pub mod types;
pub mod variants;

pub use client::{Client, ClientOptions, RetryPolicy, Token};
pub use error::ApiError;
