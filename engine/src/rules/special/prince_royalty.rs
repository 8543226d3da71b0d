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

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::citadel::{fen, is_legal, moves, play, sq, C8},
        Color, PieceKind, Position,
    };

    #[test]
    fn opposing_princes_never_stand_side_by_side() {
        let pos = fen(C8, "9/9/4k4/9/4K4/9/9/9 w - - YQyq 0 1");
        assert_eq!(moves(&pos), ["e4d3", "e4d4", "e4e3", "e4f3", "e4f4"]);
        // High Princes too: squares next to an opposing prince stay closed to them.
        let high = fen(C8, "9/9/4k4/9/4K1Y2/9/9/9 w - - Qyq 0 1");
        for m in ["e4d5", "e4e5", "e4f5", "g4f5"] {
            assert!(!is_legal(&high, m), "{m}");
        }
        assert!(is_legal(&high, "g4g5"));
        // A FEN with adjacent opposing princes is refused.
        assert!(Position::from_fen(C8, "9/9/4k4/4K4/9/9/9/9 w - - YQyq 0 1").is_err());
    }

    #[test]
    fn high_princes_stand_in_attacks_and_one_left_is_royal_again() {
        // White has both princes, High Princes: they stand and step on attacked squares.
        let white = fen(C8, "kr7/9/9/9/9/9/9/K7Y w - - Qyq 0 1");
        assert!(!white.in_check());
        assert!(
            is_legal(&white, "a1b1"),
            "a High Prince may step onto an attacked square"
        );
        // Blue's War Machine takes the younger on i1: the elder on a1 is the Prince-Royal again,
        // in check along the first rank.
        let pos = fen(C8, "k7r/9/9/9/9/9/9/K7Y b - - Qyq 0 1");
        let after = play(&pos, "i8i1");
        assert_eq!(after.royals(Color::White).count(), 1);
        assert!(after.in_check(), "the elder is the Prince-Royal again and is in check");
        assert!(!is_legal(&after, "a1b1"));
    }

    #[test]
    fn castling_is_the_elder_princes_and_tests_attacks_only_while_he_is_royal() {
        let pos = fen(C8, "r3k3r/ppp1y1ppp/9/3t5/9/5C3/PPP3PPP/R3K3R w WEwe - YQq 0 1");
        // White's Prince-Royal: d1 (crossed toward a) and g1 (the arrival toward i) are attacked.
        assert!(!is_legal(&pos, "e1c1"));
        assert!(!is_legal(&pos, "e1g1"));
        // Blue's two High Princes: f8, crossed toward i, is attacked by the Charger; castling is
        // still legal, both ways.
        let blue = play(&pos, "a2a3");
        assert!(is_legal(&blue, "e8g8"));
        assert!(is_legal(&blue, "e8c8"));
        let castled = play(&blue, "e8g8");
        let (g8, f8) = (sq(&castled, "g8"), sq(&castled, "f8"));
        assert_eq!(castled.piece_at(g8).map(|p| p.kind), Some(PieceKind::King));
        assert_eq!(castled.piece_at(f8).map(|p| p.kind), Some(PieceKind::Rook));
        assert_eq!(blue.san(blue.parse_uci("e8g8").unwrap()), "O-O");
        assert_eq!(castled.fen().split(' ').nth(2), Some("WE"));
        // The younger prince never castles, and a Charger on a1 gives no right.
        assert!(Position::from_fen(C8, "r3k3r/9/9/9/9/9/9/C3K3R w W - YQyq 0 1").is_err());
        // The landing square may not touch an opposing prince, even for a High Prince (who may
        // castle next to attacks).
        let touching = fen(C8, "9/9/9/9/9/9/1k7/R3K2Y1 w W - Qyq 0 1");
        assert!(!is_legal(&touching, "e1c1"), "c1 touches Blue's prince on b2");
        let apart = fen(C8, "3r4k/9/9/9/9/9/9/R3K2Y1 w W - Qyq 0 1");
        assert!(
            is_legal(&apart, "e1c1"),
            "d1 is attacked, but the High Prince may cross it"
        );
    }
}
