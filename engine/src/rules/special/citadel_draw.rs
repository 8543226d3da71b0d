//! The citadel draw: the game is drawn the moment a king arrives on one of the opponent's
//! citadels (White: a11, k11; Black: a1, k1), whatever the material or position, even when the
//! same move gives mate. A king may enter its own citadels with no effect. Perft ignores the rule.

use crate::rules::{
    geometry::{Bitboard, Square},
    piece::{Color, PieceKind},
    position::{DrawReason, Outcome, Position},
    tables::Tables,
    variant::Coord,
};

use super::BuildHook;
pub use super::CitadelDraw;

impl BuildHook for CitadelDraw {
    fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let mask = |cs: &[Coord]| cs.iter().fold(Bitboard::EMPTY, |acc, &c| acc | resolve(c).bb());
        tables.rules.citadel_draw[Color::White] = mask(self.white_targets);
        tables.rules.citadel_draw[Color::Black] = mask(self.black_targets);
        tables.rules.outcome_hooks.push(outcome);
    }
}

impl Position {
    /// Whether a king stands on an opponent's citadel (the citadel draw).
    pub fn is_citadel_draw(&self) -> bool {
        is_draw(self)
    }
}

/// The outcome hook: a draw when a king stands on one of the opponent's citadels.
pub(crate) fn outcome(pos: &Position) -> Option<Outcome> {
    is_draw(pos).then_some(Outcome::Draw(DrawReason::Citadel))
}

/// Whether a king stands on one of the opponent's citadels.
#[inline]
pub(crate) fn is_draw(pos: &Position) -> bool {
    let t = pos.tables();
    Color::ALL
        .into_iter()
        .any(|c| (t.rules.citadel_draw[c] & pos.pieces(c, PieceKind::King)).any())
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::persian::{has, pos},
        DrawReason, Outcome, Position, Variant,
    };

    #[test]
    fn a_king_on_the_opponents_citadel_draws_at_once() {
        // In the Egyptian Eye the All-Seeing Eye guards the four corners: no king gets there.
        for v in Variant::PERSIAN
            .into_iter()
            .filter(|v| v.tables().always_attacked.is_empty())
        {
            // White's king on a11 (Black's citadel) draws; on its own citadel a1 it does not.
            let fen = |rows: &str, side: &str| {
                Position::from_fen(v, &format!("{rows} {side} - - 0 1")).unwrap_or_else(|e| panic!("{v}: {e}"))
            };
            let on_enemy = fen("K10/11/11/11/11/11/4k6/11/11/11/11", "b");
            let on_own = fen("11/11/11/11/11/11/4k6/11/11/11/K10", "b");
            let black_on_enemy = fen("11/11/11/11/11/11/4K6/11/11/11/10k", "w");
            let citadel = Some(Outcome::Draw(DrawReason::Citadel));
            assert_eq!(on_enemy.immediate_outcome(), citadel, "{v}");
            assert_eq!(black_on_enemy.immediate_outcome(), citadel, "{v}");
            assert_eq!(on_own.immediate_outcome(), None, "{v}");
            assert_eq!(Position::startpos(v).immediate_outcome(), None, "{v}");
        }
        let chess = Position::startpos(Variant::Chess);
        assert_eq!(chess.immediate_outcome(), None);
        assert!(chess.tables().rules.outcome_hooks.is_empty());
    }

    #[test]
    fn citadel_draw() {
        let v = Variant::PersianPrincess;
        let mut p = pos(v, "Kb10 kf2", 'w');
        assert!(has(&p, "b10a11"));
        p.play_uci("b10a11").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
        // Entering one's own citadel has no effect.
        let mut p = pos(v, "Kb2 kf10 Rj5", 'w');
        p.play_uci("b2a1").unwrap();
        assert_eq!(p.outcome(), None);
        // Black's king on White's citadel draws too.
        let mut p = pos(v, "Kf10 kj2", 'b');
        p.play_uci("j2k1").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
        // The draw takes precedence over mate: Black is mated (rook ladder) but White's king is on a11.
        let p = pos(v, "Ka11 Rb10 Rc9 ke10", 'b');
        assert!(p.in_check() && p.legal_moves().is_empty());
        assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
        // The move into the citadel must be legal (the square not attacked).
        let p = pos(v, "Kb10 kf2 nb9", 'w');
        assert!(!has(&p, "b10a11"));
    }
}
