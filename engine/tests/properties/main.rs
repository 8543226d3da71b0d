//! Property tests of the rules layer, through the public API only.
//!
//! - Random playouts in every variant, from the start position, from hand-made open positions
//!   and from random legal setups. At every ply: the incremental hash equals the recomputed one;
//!   copy-make leaves the parent untouched; the FEN reads back in both conventions; the fast
//!   generator equals the reference generator; counting, capture generation and the UCI and SAN
//!   round trips agree with the move list; `Game` counts repetitions like a naive count. The
//!   playouts are biased towards special moves, captures, checks, pawn advances and king walks,
//!   and the special moves seen are counted: each rule of a variant must actually occur.
//! - Threefold repetition in [`Game`] on constructed examples.
//! - Fuzzing: random text, mutated FENs and random setups fed to the FEN, setup, UCI and SAN
//!   readers, which must return (Ok or Err) and never panic.
//! - A corpus of bad FENs, each rejected with its specific error.
//! - Regressions found by the tests above.
//!
//! One test binary, one module per topic; `common` holds the generator and helpers.

use engine::{
    rng::SplitMix64,
    rules::{
        game::Game, notation::fen::parse_setup, reference, tables::RightsField, Color, Convention, DrawReason,
        FenError, Move, MoveKind, Outcome, ParseFenError, Piece, PieceKind, Position, PositionError, Rule, Setup,
        Square, UciMove, Variant,
    },
};

mod bad_fens;
mod common;
mod fuzz;
mod playouts;
mod regressions;
mod repetition;

use common::*;
