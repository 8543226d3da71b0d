//! Play and the front ends' integration tests in one binary (each test binary links the whole
//! engine, so they are grouped by layer, not by file; the rules layer is `rules`, the
//! properties over random games are `properties`):
//!
//! - `search`: forced mates of exact length, draws, reproducible fixed-node searches;
//! - `strength`: the weakened levels;
//! - `nnue_eval`: the engine with NNUE evaluation (accumulators, net checks, search and UCI);
//! - `uci`: the UCI front end end to end, through the `persian-engine` binary;
//! - `batch`: `analyse` and `eval` on files, through the binary;
//! - `match_lib`: `engine match` through the library; `match_uci`: with UCI engines run as
//!   programs;
//! - `ray_match`: the Ray match driver of `scripts/ray` on a local Ray;
//! - `spsa`: `engine spsa`, a tiny tuning run saved and resumed.
//!
//! Run one module with `cargo test -p engine --test play uci::` (a name filter).

mod batch;
mod match_lib;
mod match_uci;
mod nnue_eval;
mod ray_match;
mod search;
mod spsa;
mod strength;
mod uci;
