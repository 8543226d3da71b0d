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

    /// The pawn's square, the promotion square (left empty, its captured piece gone) and the
    /// leap's square.
    fn changed_squares(&self, _pos: &Position, m: Move) -> Option<Bitboard> {
        Some(m.from().bb() | m.to().bb() | Square(m.rule_tag()).bb())
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

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::{
            moves_from,
            parsi::{agrees_with_reference, fen, fen_with},
        },
        MoveKind,
    };

    /// A knight may not give check on arrival; a knight promotion may be followed by one knight move
    /// in the same turn (a compound move with its own UCI and SAN).
    #[test]
    fn knight_promotions_and_the_bonus_leap() {
        let checking = fen("8/1P1k4/8/8/8/8/P2P3P/R1BQKBNR w - - 0 1");
        assert!(moves_from(&checking, "b7").is_empty(), "Nb8 would check the king on d7");
        agrees_with_reference(&checking);
        let pos = fen("8/1P2k3/8/8/8/8/P6P/R1BQKBNR w - - 0 1");
        assert_eq!(moves_from(&pos, "b7"), ["b7b8n", "b7b8na6", "b7b8nc6", "b7b8nd7"]);
        agrees_with_reference(&pos);
        let leap = pos.parse_uci("b7b8nc6").expect("the compound move reads from its text");
        assert_eq!(leap.kind(), MoveKind::Rule);
        assert!(pos.san(leap).starts_with("b8=N~c6"), "{}", pos.san(leap));
        assert_eq!(pos.parse_san(&pos.san(leap)), Ok(leap));
        let after = pos.after(leap);
        assert_eq!(after.fen(), "8/4k3/2N5/8/8/8/P6P/R1BQKBNR b - - 0 1");
        assert!(after.in_check(), "the bonus leap may give check");
        assert_eq!(after.hash(), after.compute_hash());
        let delta = pos.move_delta(leap);
        assert_eq!((delta.removed().count(), delta.added().count()), (1, 1));
    }

    #[test]
    fn knights_and_the_bonus_leap() {
        let checking = "8/1P1k4/8/8/8/8/P2P3P/R1BQKBNR w - - 0 1";
        assert_eq!(
            moves_from(&fen_with("knight_no_check_on_arrival=off", checking), "b7"),
            ["b7b8n", "b7b8na6", "b7b8nc6"]
        );
        let text = "8/1P2k3/8/8/8/8/P6P/R1BQKBNR w - - 0 1";
        assert_eq!(moves_from(&fen_with("bonus_leap=off", text), "b7"), ["b7b8n"]);
        let ludii = fen_with("ludii", text);
        assert!(ludii.parse_uci("b7b8nc6").is_err());
        agrees_with_reference(&ludii);
    }
}
