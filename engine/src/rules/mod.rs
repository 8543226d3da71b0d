//! Everything a game needs, and nothing about search: geometry, pieces, variants as data,
//! special rules as named modules, one move generator, notation, perft.
#![deny(missing_docs)]

pub mod delta;
pub mod display;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod questions;
pub mod reference;
pub mod rule_set;
pub mod settings;
pub mod setup;
pub mod special;
pub mod tables;
pub mod variant;
pub mod variants;
pub mod zobrist;

pub use display::SquareMark;
pub use geometry::{Bitboard, Geometry, Square};
pub use moves::{Move, MoveKind, MoveList};
pub use notation::{
    fen::{Convention, FenError, ParseFenError},
    san::SanError,
    uci::{IllegalUciMoveError, ParseUciMoveError, UciError, UciMove},
};
pub use piece::{ByColor, ByKind, Color, Piece, PieceKind};
pub use position::{AttackClasses, DrawReason, Outcome, Position};
pub use questions::Reserve;
pub use setup::{PositionError, Setup};
pub use special::Rule;
pub use variant::{RuleSettingsError, UnknownVariantError, Variant, VariantSpec};
