//! Royalty by the number of princes, as Nicholls' Citadel has it (the rules note on Parsi Chess
//! and Citadel, B.7 and B.8): each side has an elder prince (the engine's king) and a younger
//! one. A side with exactly one prince on the board has a Prince-Royal, who is a king in every
//! respect; a side with two has two High Princes, who may stand on attacked squares and be
//! captured like any other piece (that side is never in check). Opposing princes never stand on
//! adjacent squares: no move may bring a prince, by a step, a castling or a release, next to an
//! opposing one. Whether a move is legal is judged with the royalty that held before it, so a
//! release does not get a Prince-Royal out of check unless it blocks the check.
//!
//! The engine's generator does the royalty part through [`CustomRule::royals`]; the adjacency
//! is this rule's legality filter.

use super::CustomRule;
use crate::rules::{
    geometry::Bitboard,
    moves::{MoveKind, MoveList},
    piece::{Color, PieceKind},
    position::Position,
};

/// The rule, with the kind of the younger prince (the elder is [`PieceKind::King`]).
#[derive(Debug)]
pub struct PrinceRoyalty {
    /// The younger prince's kind.
    pub younger: PieceKind,
}

impl PrinceRoyalty {
    /// The princes of `color` on the board.
    #[inline]
    pub fn princes(&self, pos: &Position, color: Color) -> Bitboard {
        pos.pieces(color, PieceKind::King) | pos.pieces(color, self.younger)
    }

    fn is_prince(&self, kind: PieceKind) -> bool {
        kind == PieceKind::King || kind == self.younger
    }
}

impl CustomRule for PrinceRoyalty {
    fn name(&self) -> &'static str {
        "princes"
    }

    fn has_royalty(&self) -> bool {
        true
    }

    fn royals(&self, pos: &Position, color: Color) -> Bitboard {
        let princes = self.princes(pos, color);
        if princes.more_than_one() {
            Bitboard::EMPTY
        } else {
            princes
        }
    }

    fn has_filter(&self) -> bool {
        true
    }

    /// Removes the moves that bring a prince of the mover next to an opposing prince: prince
    /// steps, castlings (the elder prince's arrival) and releases of the younger prince.
    /// Other moves leave the princes where they are, and opposing princes are never adjacent.
    fn filter(&self, pos: &Position, _history: &[u64], moves: &mut MoveList) {
        let t = pos.tables();
        let us = pos.turn();
        let theirs = self.princes(pos, !us);
        moves.retain(|m| {
            let arriving = match m.kind() {
                MoveKind::Promotion => m.promotion_piece(),
                _ => pos.piece_at(m.from()).map(|p| p.kind),
            };
            if !arriving.is_some_and(|k| self.is_prince(k)) {
                return true;
            }
            // A prince never takes an opposing prince (they are never adjacent), but a release
            // may take another piece on its square.
            (t.leaps[PieceKind::King][m.to().index()] & theirs & !m.to().bb()).is_empty()
        });
    }

    fn check_setup(&self, pos: &Position) -> Result<(), String> {
        let t = pos.tables();
        for color in Color::ALL {
            let princes = self.princes(pos, color);
            if princes.is_empty() {
                return Err(format!("{} has no prince", color.name()));
            }
            for kind in [PieceKind::King, self.younger] {
                if pos.pieces(color, kind).more_than_one() {
                    return Err(format!("{} has more than one {}", color.name(), t.name(kind)));
                }
            }
        }
        let white = self.princes(pos, Color::White);
        let black = self.princes(pos, Color::Black);
        if white
            .iter()
            .any(|sq| (t.leaps[PieceKind::King][sq.index()] & black).any())
        {
            return Err("opposing princes stand on adjacent squares".to_string());
        }
        Ok(())
    }
}
