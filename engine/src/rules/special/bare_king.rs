//! The bare-king draw of Parsi Chess ("Boorj", rules note A.8): when either side has nothing left
//! but its king (no pieces and no pawns), the game is drawn at once, king against king included;
//! a checkmate given by the same move wins instead (mate is tested first).

use crate::rules::{
    piece::{Color, PieceKind},
    position::{DrawReason, Outcome, Position},
    tables::Tables,
};

/// Data of the rule (none).
#[derive(Clone, Copy, Debug)]
pub struct BareKing;

impl BareKing {
    pub(crate) fn build(&self, tables: &mut Tables) {
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
