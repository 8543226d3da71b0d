//! NNUE for the Persian Chess engine: the feature set, the quantised network and its
//! incrementally updated accumulators, the `.nnue` file format and the training-record format.
//!
//! **What this crate owns.** Everything both the engine and the trainer must agree on, in one
//! place: [`features::feature_index`] (the one feature-index function), the network arithmetic
//! ([`network`]: quantised inference, the float reference forward pass and the quantiser), the
//! net file format ([`mod@format`], documented in `docs/nnue-format.md`) and the training-record
//! format ([`data`], documented in `docs/training-data.md`). Inference runs on a scalar reference
//! path and an AVX2 path chosen at run time that gives bit-identical results ([`Backend`]).
//!
//! **What it does not own.** Rules and positions: the crate does not depend on `engine` and never
//! sees a `Position`. A caller describes its board with a neutral [`Layout`] (grid size,
//! playable cells, number of piece types) and its pieces as [`PlacedPiece`]s (colour, type index,
//! grid cell); turning a move into added and removed pieces is the engine's job, and training
//! (optimiser, loss, data generation) is the trainer's.
//!
//! ```
//! use nnue::{features, format, Accumulator, Color, FloatNetwork, Layout, PlacedPiece};
//!
//! // An 8x8 board with 6 piece types, and a small random net for it.
//! let layout = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
//! let float = FloatNetwork::init_random(features::num_features(&layout), 64, 42);
//! let net = float.quantise(32).unwrap();
//!
//! // Save and load it.
//! let bytes = format::to_bytes(&format::NetHeader::new(0, "chess", &layout, "example"), &net).unwrap();
//! let net = format::read(&bytes, &format::Expected::new(0, "chess", &layout)).unwrap().network;
//!
//! // Evaluate: refresh once, then update per move.
//! let white_king = PlacedPiece::new(Color::White, 5, 4);
//! let black_king = PlacedPiece::new(Color::Black, 5, 60);
//! let mut acc = Accumulator::new(&net);
//! acc.refresh(&net, &layout, &[white_king, black_king]);
//! let moved = PlacedPiece::new(Color::White, 5, 5);
//! acc.update(&net, &layout, &[moved], &[white_king]);
//! let cp = acc.evaluate(&net, Color::Black);
//!
//! // The float reference forward pass of the same (quantised) weights agrees within 1.1 cp.
//! let reference = FloatNetwork::dequantise(&net).evaluate(&layout, &[moved, black_king], Color::Black);
//! assert!((cp as f32 - reference).abs() <= 1.1);
//! ```
#![deny(missing_docs)]

pub mod accumulator;
pub mod board;
pub mod data;
pub mod features;
pub mod format;
pub mod hash;
pub mod network;
mod quant;
pub mod rng;
mod simd;

pub use accumulator::Accumulator;
pub use board::{Color, Layout, LayoutError, PlacedPiece};
pub use format::LoadNetError;
pub use network::{FloatNetwork, Network, NetworkError};
pub use simd::{Backend, MAX_FAST_OUTPUT_WEIGHT};
