//! The stalemate ban of Parsi Chess (rules note A.7): a move is illegal when, after it, the
//! opponent is not in check and has no legal move. The opponent's moves are judged with ordinary
//! legality, not with this ban (or any other custom filter), so the definition is not recursive.
//! ENGINE POLICY fallback: when every otherwise legal move stalemates the opponent, they are all
//! legal, and the stalemate that follows is a draw (as is a stalemate given in a FEN).

use super::CustomRule;
use crate::rules::{moves::MoveList, position::Position};

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
            if after.in_check() || !after.legal_moves_unfiltered().is_empty() {
                kept.push(m);
            }
        }
        // The fallback: nothing but stalemating moves, so they stay legal.
        if !kept.is_empty() {
            *moves = kept;
        }
    }
}
