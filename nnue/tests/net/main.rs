//! The crate's integration tests in one binary (each test binary links the whole crate):
//!
//! - `accumulator`: incremental updates against a full refresh, SIMD kernels against scalar;
//! - `format`: the `.nnue` reader, its errors and its robustness against damaged input;
//! - `parity`: the float reference forward pass against the quantised inference;
//! - `king_buckets`: feature set v2, the accumulator's refreshes and the format's king section;
//! - `data`: training records, their streaming and their decode errors;
//! - `common`: the helpers they share (layouts, a small RNG, random piece changes).
//!
//! Run one module with `cargo test -p nnue --test net format::` (a name filter).

mod accumulator;
mod common;
mod data;
mod format;
mod king_buckets;
mod parity;
