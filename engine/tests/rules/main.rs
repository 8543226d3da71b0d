//! The rules layer's integration tests in one binary (each test binary links the whole engine,
//! so they are grouped by layer, not by file):
//!
//! - `perft`: every suite of `data/perft`, recounted at low depth by the reference generator;
//! - `special_rules` (the orthodox rules on the Persian boards), `parsi_rules`, `citadel_rules`:
//!   each variant as a whole, its rules together; `bent_riders_and_royalty`: two of Citadel's
//!   needs on a variant defined in the test. Each special rule's own tests, with the negative
//!   cases, sit at the end of its module in `engine/src/rules/special/` (`cargo test -p engine
//!   --lib special::`);
//! - `legality`, `history_filter`: the legality test of hash-table moves, a filter that reads the
//!   game's history;
//! - `toy_variant`: a variant defined entirely outside the engine, the worked proof of the hooks;
//! - `architecture`: the guard rails of the design, and the docs' lists against the code.
//!
//! Run one module with `cargo test -p engine --test rules perft::` (a name filter).

mod architecture;
mod bent_riders_and_royalty;
mod citadel_rules;
mod history_filter;
mod legality;
mod parsi_rules;
mod perft;
mod special_rules;
mod toy_variant;
