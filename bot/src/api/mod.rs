//! The Lichess Bot API: HTTP client, endpoint table, message types, NDJSON reading.

pub mod client;
pub mod endpoints;
pub mod error;
pub mod ndjson;
pub mod types;

pub use client::{Client, ClientOptions, RetryPolicy, Token};
pub use error::ApiError;
