//! The rendezvous of Persian Princess, Egyptian Eye (princess) and Oriental Omega (champion).
//!
//! When a side's partner (princess or champion) stands on g2 (Black: g10) and one of its bishops
//! on h2 (h10), the side is not in check and has not used its rendezvous yet, it may swap the two
//! pieces as its move. Nothing is captured; the set of occupied squares does not change, so "not
//! in check" is the whole legality test. The move is written `g2h2` (`g10h10`); the halfmove clock
//! goes up by one, castling rights stay, the right is spent.

use crate::rules::{
    geometry::Square,
    piece::{ByColor, PieceKind},
    tables::{RendezvousSquares, Tables},
    variant::Coord,
};

/// Data of the rule (White's squares; Black's are mirrored).
#[derive(Clone, Copy, Debug)]
pub struct Rendezvous {
    /// The kind that swaps with a bishop.
    pub partner: PieceKind,
    /// Where the partner stands (g2).
    pub partner_square: Coord,
    /// Where the bishop stands (h2).
    pub bishop_square: Coord,
}

impl Rendezvous {
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let spec = tables.spec;
        let right_shift = tables.allocate_rights(2);
        tables.rendezvous = Some(RendezvousSquares {
            right_shift,
            partner: self.partner,
            partner_square: ByColor([
                resolve(self.partner_square),
                resolve(spec.mirror(self.partner_square, true)),
            ]),
            bishop_square: ByColor([
                resolve(self.bishop_square),
                resolve(spec.mirror(self.bishop_square, true)),
            ]),
        });
    }
}

use crate::rules::{
    movegen::Sink,
    moves::{Move, MoveKind},
    piece::Piece,
    position::Position,
};

/// The extra-moves hook: adds the rendezvous when it is legal. Called only when the side to
/// move is not in check.
pub(crate) fn generate<S: Sink>(pos: &Position, sink: &mut S) {
    let Some(r) = pos.tables().rendezvous else { return };
    let us = pos.turn();
    if !pos.has_rendezvous_right(us) {
        return;
    }
    let (p, b) = (r.partner_square[us], r.bishop_square[us]);
    if pos.piece_at(p)
        == Some(Piece {
            color: us,
            kind: r.partner,
        })
        && pos.piece_at(b)
            == Some(Piece {
                color: us,
                kind: PieceKind::Bishop,
            })
    {
        sink.add(Move::new(p, b, MoveKind::Rendezvous));
    }
}
