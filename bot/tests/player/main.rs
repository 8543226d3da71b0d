//! The bot against an in-process arena: full games in every variant, its decisions (resign,
//! draw offers and answers, the first-move abort), and its event stream against a server that
//! misbehaves on purpose.
//!
//! One test binary, one module per subject; the helpers are in `tests/common/`.

#[path = "../common/mod.rs"]
mod common;

mod decisions;
mod event_stream;
mod games;
