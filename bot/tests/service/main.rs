//! The arena as a service: its web pages over HTTP, persistence across restarts of the `persian-
//! bot arena` process, and durability of its SQLite store.
//!
//! One test binary, one module per subject; the helpers are in `tests/common/`.

#[path = "../common/mod.rs"]
mod common;

mod durability;
mod persistence;
mod web;
