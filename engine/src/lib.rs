//! The Persian Chess engine: rules, search, evaluation and UCI for the four sub-variants of
//! Anooshiravan Ahmadi's 9x9 citadel chess (Celtic Citadel, Persian Princess, Egyptian Eye,
//! Oriental Omega), Parsi Chess, Glenn Nicholls' Citadel on its 9x8 and 9x9 boards, and
//! orthodox chess (the generic move generator's yardstick). `Variant::ALL` lists them.
//!
//! Where to start reading: `docs/overview.md` (the crates and how they connect),
//! `docs/design.md` (the rules layer).
//!
//! ```
//! use engine::rules::{perft::perft, Position, Variant};
//!
//! let pos = Position::startpos(Variant::PersianPrincess);
//! assert_eq!(perft(&pos, 2), 625);
//! ```

pub mod batch;
pub mod bench;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod input_file;
pub mod opening_tree;
pub mod play;
pub mod rules;
pub mod search;
pub mod skill;
pub mod tournament;
pub mod uci;

/// The workspace's one FNV-1a and one CRC-32, from the `nnue` crate.
pub use nnue::hash;
/// The workspace's one pseudo-random number generator (SplitMix64), from the `nnue` crate.
pub use nnue::rng;
