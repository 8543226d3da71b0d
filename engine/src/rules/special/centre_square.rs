//! The centre-square rule of Persian Princess: only the listed kinds (pawns and princesses) may
//! end a move on f6, by step, leap or capture. Sliders pass an empty f6 and stop at an occupied one,
//! as at any square, so only the destination is restricted. A piece on f6 can therefore be
//! captured only by a pawn or a princess.

use crate::rules::{geometry::Square, piece::PieceKind, tables::Tables, variant::Coord};

/// Data of the rule.
#[derive(Clone, Copy, Debug)]
pub struct CentreSquare {
    /// The centre square.
    pub square: Coord,
    /// The kinds that may end a move there.
    pub may_enter: &'static [PieceKind],
}

impl CentreSquare {
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let sq = resolve(self.square);
        for kind in PieceKind::EVERY {
            if !self.may_enter.contains(&kind) {
                tables.forbidden[kind] |= sq.bb();
            }
        }
    }
}
