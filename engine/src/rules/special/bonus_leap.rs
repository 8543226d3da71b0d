//! The bonus knight leap of Parsi Chess (rules note A.5, rule 4): a pawn that promotes to a
//! knight may, in the same turn, make one knight move with the new knight. The move list keeps
//! the plain promotion and adds one compound move per leap: a rule move from the pawn's square to
//! the promotion square with the leap's square in its tag. ENGINE POLICY (the sources are
//! silent): the leap may capture and may give check; the mover's king safety is judged on the
//! final position. Written `b7b8nc6` in UCI (the promotion, then the leap's square) and
//! `b8=N~c6` in SAN (`~x` for a capture by the leap).
//!
//! Needs promotion by arrival square ([`super::square_promotion`]) in the same variant: the
//! promotions it builds on are that rule's.

use super::{square_promotion::promotions_from, CustomRule, RuleEdit};
use crate::rules::{
    geometry::{Bitboard, Square},
    moves::{Move, MoveList},
    piece::{Piece, PieceKind},
    position::Position,
};

/// The rule.
#[derive(Debug)]
pub struct BonusKnightLeap;

/// The rule, to name in a variant's rules.
pub static BONUS_KNIGHT_LEAP: BonusKnightLeap = BonusKnightLeap;

impl CustomRule for BonusKnightLeap {
    fn name(&self) -> &'static str {
        "bonus knight leap"
    }

    fn has_moves(&self) -> bool {
        true
    }

    fn extra_moves(&self, pos: &Position, index: u8, moves: &mut MoveList) {
        let t = pos.tables();
        let us = pos.turn();
        // Pawns one step from their last rank (found in bulk first: most positions have none).
        let last = t.promotion_squares[us];
        let push = t.pawn_push[us];
        let before_last = if push >= 0 {
            Bitboard(last.0 >> push)
        } else {
            Bitboard(last.0 << -push)
        };
        let candidates = (pos.pieces(us, PieceKind::Pawn) & before_last)
            .iter()
            .filter(|&from| t.square_ahead(us, from).is_some_and(|ahead| last.has(ahead)));
        for from in candidates {
            for promotion in promotions_from(pos, from).iter() {
                if promotion.promotion_piece() != Some(PieceKind::Knight) {
                    continue;
                }
                let to = promotion.to();
                let occ = (pos.occupied() ^ from.bb()) | to.bb();
                let own = (pos.color_bb(us) ^ from.bb()) | to.bb();
                for leap in t.attacks(PieceKind::Knight, to, occ) & !own & !pos.pieces(!us, PieceKind::King) {
                    moves.push(Move::rule(from, to, index, leap.0));
                }
            }
        }
    }

    fn make(&self, edit: &mut RuleEdit<'_>, m: Move) {
        let us = edit.position().turn();
        let knight = Piece {
            color: us,
            kind: PieceKind::Knight,
        };
        edit.remove(m.from());
        edit.put(m.to(), knight);
        edit.remove(m.to());
        edit.put(Square(m.rule_tag()), knight);
    }

    fn resets_halfmove_clock(&self, _pos: &Position, _m: Move) -> bool {
        true
    }

    /// Always: it promotes.
    fn is_tactical(&self, _pos: &Position, _m: Move) -> bool {
        true
    }

    fn uci(&self, pos: &Position, m: Move) -> String {
        let t = pos.tables();
        let g = t.geometry;
        format!(
            "{}{}{}{}",
            g.square_name(m.from()),
            g.square_name(m.to()),
            t.letter(PieceKind::Knight).to_ascii_lowercase(),
            g.square_name(Square(m.rule_tag()))
        )
    }

    fn san(&self, pos: &Position, m: Move) -> String {
        let t = pos.tables();
        let g = t.geometry;
        let leap = Square(m.rule_tag());
        let pawn = if pos.piece_at(m.to()).is_some() {
            format!("{}x", g.square_name(m.from()).chars().next().unwrap_or('?'))
        } else {
            String::new()
        };
        let take = if pos.piece_at(leap).is_some() { "x" } else { "" };
        format!(
            "{pawn}{}={}~{take}{}",
            g.square_name(m.to()),
            t.letter(PieceKind::Knight),
            g.square_name(leap)
        )
    }
}
