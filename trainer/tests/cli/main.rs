//! The trainer's integration tests in one binary (each test binary links the engine and the
//! net crate; most tests run the `persian-trainer` binary that cargo builds for the run):
//!
//! - `selfplay`: `trainer selfplay`, tiny runs of the real binary;
//! - `data`: `trainer data` (convert, shuffle, validate, stats);
//! - `train`: `trainer train` (the files of a run, the net the engine loads, exact resume);
//! - `openings`: `trainer openings` against the golden files of `tests/golden/openings`;
//! - `pipeline`: `trainer pipeline` end to end at a toy scale, through `scripts/pipeline.sh`
//!   (slow; it needs the engine binary too, which `cargo test --workspace` builds);
//! - `ray`: the Ray self-play driver of `scripts/ray` on a local Ray (slow);
//! - `common`: the helpers they share.
//!
//! Run one module with `cargo test -p trainer --test cli openings::` (a name filter); leave the
//! slow ones out with `-- --skip pipeline:: --skip ray::`.

mod common;
mod data;
mod openings;
mod pipeline;
mod ray;
mod selfplay;
mod train;
