//! The arena's API as bots and clients use it: accounts and tokens, the Bot and Board APIs,
//! conformance with the Lichess API description, exports, faults, Lichess's response shapes, bad
//! input, the public service's limits, and the berserk suite (the official Lichess Python
//! client).
//!
//! One test binary, one module per subject; the helpers are in `tests/common/`.

#[path = "../common/mod.rs"]
mod common;
mod spec;

mod accounts;
mod bad_input;
mod berserk;
mod board_api;
mod bot_tools;
mod conformance;
mod export;
mod faults;
mod lichess_shapes;
mod protocol;
mod public_service;
