//! The stalemate ban of Parsi Chess (rules note A.7): a move is illegal when, after it, the
//! opponent is not in check and has no legal move. The opponent's moves are judged with ordinary
//! legality, not with this ban (or any other custom filter), so the definition is not recursive.
//! ENGINE POLICY fallback: when every otherwise legal move stalemates the opponent, they are all
//! legal, and the stalemate that follows is a draw (as is a stalemate given in a FEN).

use super::CustomRule;
use crate::rules::{moves::MoveList, piece::PieceKind, position::Position};

/// The rule.
#[derive(Debug)]
pub struct NoStalemating;

/// The rule, to name in a variant's rules.
pub static NO_STALEMATING: NoStalemating = NoStalemating;

impl CustomRule for NoStalemating {
    fn name(&self) -> &'static str {
        "no stalemating"
    }

    fn has_filter(&self) -> bool {
        true
    }

    fn filter(&self, pos: &Position, _history: &[u64], moves: &mut MoveList) {
        let mut kept = MoveList::new();
        for &m in moves.iter() {
            let after = pos.after(m);
            if after.in_check() || surely_has_a_move(&after) || !after.legal_moves_unfiltered().is_empty() {
                kept.push(m);
            }
        }
        // The fallback: nothing but stalemating moves, so they stay legal.
        if !kept.is_empty() {
            *moves = kept;
        }
    }
}

/// A quick sufficient test that the side to move (not in check, with one royal piece) has a legal
/// move: one of its other pieces has a quiet move (to an empty square, no promotion) and is not
/// pinned (taking it off the board exposes the royal piece to nothing). A quiet move changes no
/// material, so it changes no attack that depends on material (stuck pawns), and a piece that is
/// not pinned cannot expose its king by moving. False says nothing.
pub fn surely_has_a_move(pos: &Position) -> bool {
    let t = pos.tables();
    let us = pos.turn();
    let royals = pos.royals(us);
    if royals.count() != 1 || pos.in_check() {
        return false;
    }
    let king = royals.lsb();
    let occ = pos.occupied();
    let empty = !occ & t.geometry.playable;
    for sq in pos.color_bb(us) & !royals {
        let Some(p) = pos.piece_at(sq) else { continue };
        let quiet = if p.kind == PieceKind::Pawn {
            t.square_ahead(us, sq).is_some_and(|ahead| {
                empty.has(ahead) && !t.promotion_squares[us].has(ahead) && !t.forbidden[PieceKind::Pawn].has(ahead)
            })
        } else {
            (t.attacks(p.kind, sq, occ) & empty & !t.forbidden[p.kind]).any()
        };
        if quiet && pos.attackers(king, !us, occ ^ sq.bb()).is_empty() {
            return true;
        }
    }
    false
}
