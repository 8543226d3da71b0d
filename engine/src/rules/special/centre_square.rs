//! The centre-square rule of Persian Princess: only the listed kinds (pawns and princesses) may
//! end a move on f6, by step, leap or capture. Sliders pass an empty f6 and stop at an occupied one,
//! as at any square, so only the destination is restricted. A piece on f6 can therefore be
//! captured only by a pawn or a princess.

use crate::rules::{geometry::Square, piece::PieceKind, tables::Tables, variant::Coord};

use super::BuildHook;
pub use super::CentreSquare;

impl BuildHook for CentreSquare {
    fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let sq = resolve(self.square);
        for kind in PieceKind::EVERY {
            if !self.may_enter.contains(&kind) {
                tables.forbidden[kind] |= sq.bb();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::persian::{has, pos},
        IllegalUciMoveError, UciError, Variant,
    };

    #[test]
    fn centre_square_in_persian_princess() {
        let v = Variant::PersianPrincess;
        // Black princess on f6; White princess d5, knight e4, rook f3, pawn e5.
        let p = pos(v, "Kf2 Sd5 Ne4 Rf3 Pe5 kf10 sf6", 'w');
        assert!(has(&p, "d5f6"), "a princess may capture on f6");
        assert!(has(&p, "e5f6"), "a pawn may capture on f6");
        assert!(!has(&p, "e4f6"), "a knight may not enter f6");
        assert!(!has(&p, "f3f6"), "a rook may not capture on f6");
        assert!(!has(&p, "f3f7"), "an occupied f6 blocks the rook");
        assert!(matches!(
            p.parse_uci("e4f6"),
            Err(UciError::Illegal(IllegalUciMoveError::NotAMove { .. }))
        ));
        // Empty f6: sliders pass through but cannot stop there; pawns may step onto it.
        let p = pos(v, "Kf2 Qc3 Ne4 Rf3 Pf5 kb10", 'w');
        assert!(!has(&p, "c3f6") && has(&p, "c3g7"), "queen passes f6 on the diagonal");
        let p = pos(v, "Kf2 Ne4 Rf4 Pf5 kb10", 'w');
        assert!(has(&p, "f5f6"), "a pawn may step onto f6");
        let p = pos(v, "Kf2 Rf4 kb10", 'w');
        assert!(
            !has(&p, "f4f6") && has(&p, "f4f7") && has(&p, "f4f10"),
            "rook passes an empty f6"
        );
        // The king never enters f6.
        let p = pos(v, "Kf5 kb10", 'w');
        assert!(!has(&p, "f5f6") && has(&p, "f5e6"));
        // An empty f6 does not stop a check along the file.
        let checked = pos(v, "Rf2 Kb2 kf10", 'b');
        assert!(
            checked.in_check(),
            "rook on f2 checks the king on f10 through an empty f6"
        );
    }

    #[test]
    fn centre_square_is_normal_in_celtic_and_omega() {
        let p = pos(Variant::CelticCitadel, "Kf2 Ne4 Rf3 kb10", 'w');
        assert!(has(&p, "e4f6") && has(&p, "f3f6"));
        let p = pos(Variant::OrientalOmega, "Kf5 Ne4 kb10", 'w');
        assert!(has(&p, "e4f6") && has(&p, "f5f6"));
    }
}
