//! What the search, the evaluation and the front ends ask of a position, in words of no single
//! rule: whether a move captures, whether a null move is a fair probe, which pawns are stuck,
//! which pieces a side may still bring onto the board. The rules answer (the rendezvous, the
//! opening series, promotion by arrival square, Citadel's releases); the askers need not know
//! which rules a variant has.

use super::{
    geometry::{Bitboard, Square},
    moves::{Move, MoveKind},
    piece::{Color, PieceKind},
    position::Position,
};

/// A piece a side may still bring onto the board by a rule (Citadel's prisoners, freed by a
/// plainsman's arrival).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reserve {
    /// The piece's kind.
    pub kind: PieceKind,
    /// The squares on which the side's pawn arriving brings it in.
    pub arrival: Bitboard,
    /// The squares from which a pawn of the side reaches one of `arrival` in one move.
    pub approach: Bitboard,
}

impl Position {
    /// Whether `m` takes a piece: en passant, or a move onto a square an enemy piece holds (a
    /// swap with an own piece, the rendezvous, takes nothing).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.kind() == MoveKind::EnPassant || (m.kind() != MoveKind::Rendezvous && self.piece_at(m.to()).is_some())
    }

    /// Whether passing the turn is a fair probe of the position's value (null-move pruning):
    /// not while the rules prescribe the moves (Parsi's opening series).
    #[inline]
    pub fn null_move_allowed(&self) -> bool {
        !self.in_opening_series()
    }

    /// Whether the 50-move rule draws now: 100 plies without a capture or a pawn move, in a
    /// variant where the rule is in force.
    #[inline]
    pub fn fifty_move_draw(&self) -> bool {
        self.halfmove >= 100 && self.tables.rules.fifty_move_rule
    }

    /// The evaluation terms of the variant's custom rules (middle game, end game; White's
    /// view), summed over the rules with an evaluation hook
    /// ([`CustomRule::eval_terms`](super::special::CustomRule::eval_terms)).
    #[inline]
    pub fn rule_eval_terms(&self) -> (i32, i32) {
        let rules = &self.tables.rules;
        let (mut mg, mut eg) = (0, 0);
        for &i in &rules.custom_eval_rules {
            let (m, e) = rules.custom_rules[i as usize].eval_terms(self, i);
            mg += m;
            eg += e;
        }
        (mg, eg)
    }

    /// `color`'s pawns one step before their promotion squares that may promote on none of them
    /// with the material as it is (promotion by arrival square: they wait for a loss of their
    /// side). Empty in variants whose pawns always promote.
    pub fn stuck_pawns(&self, color: Color) -> Bitboard {
        let t = self.tables;
        let Some(sp) = &t.rules.square_promotion else {
            return Bitboard::EMPTY;
        };
        let candidates = self.color_bb(color) & self.kind_bb(PieceKind::Pawn) & t.promotion_approach[color];
        candidates
            .iter()
            .filter(|&sq: &Square| sp.is_stuck(self, color, sq))
            .fold(Bitboard::EMPTY, |acc, sq| acc | sq.bb())
    }

    /// Whether the variant's rules keep pieces in reserve for the sides to bring onto the board
    /// (whether or not any is left).
    pub fn has_reserves(&self) -> bool {
        self.tables.rules.releases.is_some()
    }

    /// The pieces `color` may still bring onto the board by a rule, in the rule's order (none in
    /// variants without such a rule).
    pub fn reserves(&self, color: Color) -> impl Iterator<Item = Reserve> + '_ {
        let releases = self.tables.rules.releases.as_ref();
        let gates = releases.map_or(&[][..], |r| &r.gates[color][..]);
        let feeders = releases.map_or(&[][..], |r| &r.feeders[color][..]);
        gates
            .iter()
            .zip(feeders)
            .filter(move |(&(bit, _, _), _)| self.rights & (1 << bit) != 0)
            .map(|(&(_, arrival, kind), &approach)| Reserve {
                kind,
                arrival,
                approach,
            })
    }
}
