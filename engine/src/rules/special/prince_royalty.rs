//! Royalty by the number of princes, as Nicholls' Citadel has it (the rules note on Parsi Chess
//! and Citadel, B.7 and B.8): each side has an elder prince (the engine's king) and a younger
//! one. A side with exactly one prince on the board has a Prince-Royal, who is a king in every
//! respect; a side with two has two High Princes, who may stand on attacked squares and be
//! captured like any other piece (that side is never in check). Opposing princes never stand on
//! adjacent squares: no move may bring a prince, by a step, a castling or a release, next to an
//! opposing one. Whether a move is legal is judged with the royalty that held before it, so a
//! release does not get a Prince-Royal out of check unless it blocks the check.
//!
//! The engine's generator does the royalty part through [`CustomRule::royals`] and the
//! adjacency through [`CustomRule::arrival_ban`].

use super::{ArrivalBan, CustomRule};
use crate::rules::{
    geometry::Bitboard,
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

    fn has_arrival_ban(&self) -> bool {
        true
    }

    /// No prince of the mover may arrive next to an opposing prince: by a step, a castling (the
    /// elder prince's arrival) or a release of the younger prince. Other moves leave the
    /// princes where they are, and opposing princes are never adjacent.
    fn arrival_ban(&self, pos: &Position) -> ArrivalBan {
        let t = pos.tables();
        let mut squares = Bitboard::EMPTY;
        for sq in self.princes(pos, !pos.turn()) {
            squares |= t.leaps[PieceKind::King][sq.index()];
        }
        ArrivalBan {
            kinds: (1 << PieceKind::King.index()) | (1 << self.younger.index()),
            squares,
        }
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
