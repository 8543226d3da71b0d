//! The bare-king draw of Parsi Chess ("Boorj", rules note A.8): when either side has nothing left
//! but its king (no pieces and no pawns), the game is drawn at once, king against king included;
//! a checkmate given by the same move wins instead (mate is tested first).

use crate::rules::{
    geometry::Square,
    piece::{Color, PieceKind},
    position::{DrawReason, Outcome, Position},
    tables::Tables,
    variant::Coord,
};

pub use super::BareKing;
use super::BuildHook;

impl BuildHook for BareKing {
    fn build(&self, tables: &mut Tables, _resolve: &dyn Fn(Coord) -> Square) {
        tables.rules.outcome_hooks.push(outcome);
    }
}

/// The outcome hook: a draw when a side has only its king, unless the side to move is mated.
pub(crate) fn outcome(pos: &Position) -> Option<Outcome> {
    let bare = Color::ALL
        .into_iter()
        .any(|c| (pos.color_bb(c) & !pos.pieces(c, PieceKind::King)).is_empty());
    if !bare {
        return None;
    }
    // Mate comes first: the position's own test finds it (no legal move while in check).
    if pos.in_check() && !pos.has_legal_move() {
        return None;
    }
    Some(Outcome::Draw(DrawReason::BareKing))
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::parsi::{fen, SPEC},
        DrawReason, Outcome,
    };

    /// A.8: a side left with only its king draws at once, unless it is mated by that move.
    #[test]
    fn a_bare_king_draws_unless_mated() {
        let bare = fen("k7/8/8/8/8/8/P7/4K3 b - - 0 1");
        assert_eq!(bare.immediate_outcome(), Some(Outcome::Draw(DrawReason::BareKing)));
        assert_eq!(bare.outcome(), Some(Outcome::Draw(DrawReason::BareKing)));
        // Mate of the bare king wins: two rooks on the a- and b-files.
        let mate = fen("k7/8/8/8/8/8/1R6/R3K3 b - - 0 1");
        assert!(mate.in_check());
        assert_eq!(mate.immediate_outcome(), None);
        assert_eq!(
            mate.outcome(),
            Some(Outcome::Checkmate {
                winner: crate::rules::Color::White
            })
        );
        assert_eq!(fen(SPEC.start_fen).immediate_outcome(), None);
    }
}
