//! The citadel draw: the game is drawn the moment a king arrives on one of the opponent's
//! citadels (White: a11, k11; Black: a1, k1), whatever the material or position, even when the
//! same move gives mate. A king may enter its own citadels with no effect. Perft ignores the rule.

use crate::rules::{
    geometry::{Bitboard, Square},
    piece::Color,
    tables::Tables,
    variant::Coord,
};

/// Data of the rule.
#[derive(Clone, Copy, Debug)]
pub struct CitadelDraw {
    /// Squares where a White king arriving draws.
    pub white_targets: &'static [Coord],
    /// Squares where a Black king arriving draws.
    pub black_targets: &'static [Coord],
}

impl CitadelDraw {
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let mask = |cs: &[Coord]| cs.iter().fold(Bitboard::EMPTY, |acc, &c| acc | resolve(c).bb());
        tables.citadel_draw[Color::White] = mask(self.white_targets);
        tables.citadel_draw[Color::Black] = mask(self.black_targets);
    }
}
