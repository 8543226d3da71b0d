//! The Egyptian Eye's All-Seeing Eye (ASE): a neutral, immovable, uncapturable piece on f6 that is
//! not written in FEN.
//!
//! - Nobody may end a move on f6; sliders pass over it as over an empty square.
//! - It attacks, for both sides, the 20 other squares of the two long diagonals, through any
//!   pieces between. So no king may ever stand on, step to or capture onto those squares, and a
//!   piece standing there is safe from the enemy king. It never gives check.

use crate::rules::{
    geometry::{Bitboard, Square},
    piece::PieceKind,
    tables::{Tables, DIAGONAL},
    variant::Coord,
};

/// Data of the rule.
#[derive(Clone, Copy, Debug)]
pub struct AllSeeingEye {
    /// Where the Eye stands.
    pub square: Coord,
}

impl AllSeeingEye {
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let sq = resolve(self.square);
        for kind in PieceKind::EVERY {
            tables.forbidden[kind] |= sq.bb();
        }
        tables.blocked |= sq.bb();
        let seen = DIAGONAL
            .iter()
            .fold(Bitboard::EMPTY, |acc, &d| acc | tables.rays[d][sq.index()]);
        tables.always_attacked |= seen;
    }
}
