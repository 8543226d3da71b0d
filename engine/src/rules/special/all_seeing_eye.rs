//! The Egyptian Eye's All-Seeing Eye (ASE): a neutral, immovable, uncapturable piece on f6 that is
//! not written in FEN.
//!
//! - Nobody may end a move on f6; sliders pass over it as over an empty square.
//! - It attacks, for both sides, the 20 other squares of the two long diagonals, through any
//!   pieces between. So no king may ever stand on, step to or capture onto those squares, and a
//!   piece standing there is safe from the enemy king. It never gives check.

use crate::rules::{
    geometry::{Bitboard, Square},
    piece::PieceKind,
    tables::{Tables, DIAGONAL},
    variant::Coord,
};

pub use super::AllSeeingEye;
use super::BuildHook;

impl BuildHook for AllSeeingEye {
    fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let sq = resolve(self.square);
        for kind in PieceKind::EVERY {
            tables.forbidden[kind] |= sq.bb();
        }
        tables.blocked |= sq.bb();
        let seen = DIAGONAL
            .iter()
            .fold(Bitboard::EMPTY, |acc, &d| acc | tables.rays[d][sq.index()]);
        tables.always_attacked |= seen;
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::persian::{has, pos, setup, ucis},
        Color, Outcome, Position, PositionError, Variant,
    };

    #[test]
    fn centre_square_in_egyptian_eye() {
        let v = Variant::EgyptianEye;
        let p = pos(v, "Kf2 Sd4 Ne4 Rf3 Pe5 Pf5 kc10 pg7", 'w');
        assert!(
            !ucis(&p).iter().any(|m| m.ends_with("f6")),
            "nobody enters f6: {:?}",
            ucis(&p)
        );
        assert!(!has(&p, "f5f6"), "a pawn on f5 cannot advance");
        let p = pos(v, "Kf2 Rf4 kc10", 'w');
        assert!(has(&p, "f4f7") && has(&p, "f4f10"), "sliders pass the Eye");
        // A piece on f6 is refused.
        let err = Position::from_setup(v, &setup(v, "Kf2 kb10 nf6", 'w', "-", None)).unwrap_err();
        assert!(matches!(err, PositionError::PieceOnBlockedSquare { .. }));
    }

    #[test]
    fn kings_are_barred_from_eye_squares() {
        let v = Variant::EgyptianEye;
        let p = pos(v, "Kf2 kf5", 'b');
        let mut moves = ucis(&p);
        moves.sort();
        assert_eq!(moves, ["f5e4", "f5e6", "f5f4", "f5g4", "f5g6"]);
        // A white knight on an Eye square next to the black king cannot be taken by the king.
        let p = pos(v, "Kc2 Ne5 kf5", 'b');
        assert!(!has(&p, "f5e5"));
        let p = pos(Variant::PersianPrincess, "Kb2 Ne5 kf5", 'b');
        assert!(has(&p, "f5e5"));
        // No king may enter a citadel in the Eye: they are all Eye squares.
        let p = pos(v, "Kc2 kf10", 'w');
        assert!(!has(&p, "c2b2") && !has(&p, "c2c3") && has(&p, "c2d2"));
        let p = pos(Variant::PersianPrincess, "Kb2 kf10", 'w');
        assert!(has(&p, "b2a1"), "outside the Eye a king may enter its citadel");
        // A king on an Eye square is refused.
        let err = Position::from_setup(v, &setup(v, "Kd4 kf10", 'w', "-", None)).unwrap_err();
        assert!(matches!(err, PositionError::KingOnSeenSquare { .. }));
    }

    #[test]
    fn eye_attacks_through_pieces_official_mate() {
        let fen = "11/5k1r3/2p5p2/1pQ6p1/7p3/6p4/3r2P1N2/2Q4NPP1/7P1K1/9q1/11 w - - 0 1";
        let eye = Position::from_fen(Variant::EgyptianEye, fen).unwrap();
        assert!(eye.in_check());
        assert_eq!(eye.legal_moves().len(), 0);
        assert_eq!(eye.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
        // The same position in Persian Princess: the king takes on j2.
        let princess = Position::from_fen(Variant::PersianPrincess, fen).unwrap();
        assert_eq!(ucis(&princess), ["j3j2"]);
        assert_eq!(princess.outcome(), None);
    }
}
