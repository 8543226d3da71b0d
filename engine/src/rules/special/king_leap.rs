//! The king's knight leap of Parsi Chess (rules note A.6): once per game each king may move like a
//! knight instead of a step, after it has moved, out of check and, by default, with a capture. It
//! may not land on an attacked square (the generator keeps only moves that leave the king safe).
//! ENGINE POLICY (the note is silent): the leap is a move, not an attack, as castling is: it gives
//! no check, guards no square, and never takes a king.
//! One rights bit per side holds the leap; the FEN writes them as `Ll` in the fourth field
//! (Parsi Chess has no en passant). The leap is a custom rule: its moves are rule moves written
//! with the king's from- and to-square in UCI and as `Kd3` (`Kxd3`) in SAN, which no step of a
//! king can be.

use super::{CustomRule, RuleEdit};
use crate::rules::{
    geometry::{Bitboard, Square},
    moves::{Move, MoveList},
    piece::{Color, PieceKind, N},
    position::Position,
    tables::{LetterRight, RightsField, Tables},
    variant::Coord,
};

/// The rule, with its options.
#[derive(Debug)]
pub struct KingLeap {
    /// Whether the leap may capture (the default reading); `false`: only onto an empty square
    /// (the Ludii reading, `leap_no_capture`).
    pub captures: bool,
    /// Whether the right is lost the first time the side's king is in check, so that the leap
    /// never escapes a check (the Ludii reading, `leap_lost_when_checked`); `false`: checks
    /// do not touch it (the default reading).
    pub lost_when_checked: bool,
}

/// The leap as the rules note's default reading has it.
pub static KING_LEAP: KingLeap = KingLeap {
    captures: true,
    lost_when_checked: false,
};
/// The leap onto empty squares only.
pub static KING_LEAP_NO_CAPTURE: KingLeap = KingLeap {
    captures: false,
    lost_when_checked: false,
};
/// The leap, lost when the king is first checked.
pub static KING_LEAP_LOST_WHEN_CHECKED: KingLeap = KingLeap {
    captures: true,
    lost_when_checked: true,
};
/// The Ludii reading: onto empty squares only, lost when the king is first checked.
pub static KING_LEAP_LUDII: KingLeap = KingLeap {
    captures: false,
    lost_when_checked: true,
};

/// What the leap right is worth to the hand-crafted evaluation in the middlegame, centipawns.
const LEAP_RIGHT_VALUE: i32 = 15;

impl KingLeap {
    /// The rule with the given options.
    pub fn with(captures: bool, lost_when_checked: bool) -> &'static KingLeap {
        match (captures, lost_when_checked) {
            (true, false) => &KING_LEAP,
            (false, false) => &KING_LEAP_NO_CAPTURE,
            (true, true) => &KING_LEAP_LOST_WHEN_CHECKED,
            (false, true) => &KING_LEAP_LUDII,
        }
    }
}

impl KingLeap {
    fn bit(tables: &Tables, index: u8, color: Color) -> u32 {
        tables.rules.custom_data[index as usize] as u32 + color.index() as u32
    }
}

impl CustomRule for KingLeap {
    fn name(&self) -> &'static str {
        "king's leap"
    }

    fn build(&self, tables: &mut Tables, _resolve: &dyn Fn(Coord) -> Square, index: u8) {
        let first = tables.allocate_rights(2);
        tables.set_custom_data(index, u64::from(first));
        for (color, letter) in [(Color::White, 'L'), (Color::Black, 'l')] {
            tables.add_letter_right(LetterRight {
                letter,
                bit: first + color.index() as u32,
                field: RightsField::Fourth,
                home: None,
            });
        }
    }

    fn has_moves(&self) -> bool {
        true
    }

    fn extra_moves(&self, pos: &Position, index: u8, moves: &mut MoveList) {
        let t = pos.tables();
        let us = pos.turn();
        // Lost when checked: never out of check either (a FEN may give the right in check).
        if pos.rights() & (1 << Self::bit(t, index, us)) == 0 || (self.lost_when_checked && pos.in_check()) {
            return;
        }
        let g = t.geometry;
        for king in pos.pieces(us, PieceKind::King) {
            for &(df, dr) in N {
                let Some(to) = g.offset(king, df as i32, dr as i32) else {
                    continue;
                };
                let target = pos.piece_at(to);
                // The leap is a move, not an attack (like castling): it gives no check, guards
                // nothing, and never takes a king (ENGINE POLICY; the rules note is silent).
                let blocked = target.is_some_and(|p| p.color == us || !self.captures || p.kind == PieceKind::King);
                if blocked || t.forbidden[PieceKind::King].has(to) {
                    continue;
                }
                moves.push(Move::rule(king, to, index, 0));
            }
        }
    }

    fn make(&self, edit: &mut RuleEdit<'_>, m: Move) {
        let pos = edit.position();
        let bit = Self::bit(pos.tables(), m.rule_index() as u8, pos.turn());
        let king = edit.remove(m.from()).expect("the king stands on the from-square");
        edit.put(m.to(), king);
        edit.clear_rights(1 << bit);
    }

    fn is_quiet_king_move(&self, pos: &Position, m: Move) -> bool {
        pos.piece_at(m.to()).is_none()
    }

    /// The king leaves its square and lands on the other (capturing there or not); the right it
    /// spends is its own side's.
    fn changed_squares(&self, _pos: &Position, m: Move) -> Option<Bitboard> {
        Some(m.from().bb() | m.to().bb())
    }

    fn has_eval_terms(&self) -> bool {
        true
    }

    /// The leap is an escape square more for a king in trouble: worth something while the
    /// pieces are on the board.
    fn eval_terms(&self, pos: &Position, index: u8) -> (i32, i32) {
        let t = pos.tables();
        let has = |c: Color| i32::from(pos.rights() & (1 << Self::bit(t, index, c)) != 0);
        (LEAP_RIGHT_VALUE * (has(Color::White) - has(Color::Black)), 0)
    }

    fn has_after_move(&self) -> bool {
        self.lost_when_checked
    }

    fn after_move(&self, edit: &mut RuleEdit<'_>, index: u8) {
        let pos = edit.position();
        if pos.in_check() {
            let bit = Self::bit(pos.tables(), index, pos.turn());
            if pos.rights() & (1 << bit) != 0 {
                edit.clear_rights(1 << bit);
            }
        }
    }

    fn resets_halfmove_clock(&self, pos: &Position, m: Move) -> bool {
        pos.piece_at(m.to()).is_some()
    }

    fn san(&self, pos: &Position, m: Move) -> String {
        let capture = if pos.piece_at(m.to()).is_some() { "x" } else { "" };
        format!(
            "{}{capture}{}",
            pos.tables().letter(PieceKind::King),
            pos.tables().geometry.square_name(m.to())
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::parsi::{fen, fen_with, leaps, tables, SPEC},
        FenError, MoveKind, ParseFenError, Position,
    };

    #[test]
    fn the_leap_is_once_per_game_and_written_in_the_fourth_field() {
        let mut pos = fen(SPEC.start_fen);
        let leap = pos.parse_uci("e1f3").expect("the leap");
        assert_eq!(leap.kind(), MoveKind::Rule);
        assert_eq!(pos.san(leap), "Kf3");
        assert_eq!(pos.parse_san("Kf3"), Ok(leap));
        pos.play_unchecked(leap);
        // The king left e1: White's E flag goes with the leap right.
        assert_eq!(
            pos.fen(),
            "rnbkqbnr/pppppppp/8/8/8/5K2/PPPPPPPP/RNBQ1BNR b ADHadeh l 1 1"
        );
        assert_eq!(pos.hash(), pos.compute_hash());
        pos.play_uci("d8c6").expect("Black's leap");
        assert!(pos.fen().contains(" ADHaeh - "), "{}", pos.fen());
        assert!(leaps(&pos).is_empty());
        // Given back in the FEN, it is there again.
        let again = fen("rnbkqbnr/pppppppp/8/8/8/5K2/PPPPPPPP/RNBQ1BNR w ADHadeh L 2 2");
        assert_eq!(leaps(&again), ["f3d4", "f3e1", "f3e5", "f3g5", "f3h4"]);
    }

    #[test]
    fn the_leap_captures_escapes_check_and_avoids_attacked_squares() {
        // The white king on e1 is checked by the rook on e8; it may leap away, also onto the knight
        // on d3 (a capture), but not onto f3, which the black bishop on h5 attacks.
        let pos = fen("3kr3/8/8/7b/8/3n4/8/4K3 w - Ll 0 1");
        assert!(pos.in_check());
        assert_eq!(leaps(&pos), ["e1c2", "e1d3", "e1g2"]);
        let take = pos.parse_uci("e1d3").expect("the leap takes");
        assert_eq!(pos.san(take), "Kxd3");
        assert_eq!(pos.after(take).halfmove_clock(), 0);
        // The leap never takes a king, nor counts as an attack: kings a leap apart are legal.
        let kings = fen("8/8/8/8/8/3k4/8/4K3 w - Ll 0 1");
        assert!(!kings.in_check());
        assert!(!leaps(&kings).contains(&"e1d3".to_string()));
        // Without the right, only steps.
        assert!(leaps(&fen("3kr3/8/8/7b/8/3n4/8/4K3 w - l 0 1")).is_empty());
    }

    #[test]
    fn the_fourth_field_takes_only_leap_letters() {
        for bad in ["e3", "Lx", "K"] {
            let text = format!("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh {bad} 0 1");
            let e = Position::from_fen_in(tables(), &text).unwrap_err();
            assert!(
                matches!(e, FenError::Parse(ParseFenError::BadRightsField(_))),
                "{bad}: {e}"
            );
        }
        // The leap letters do not belong in the castling field.
        assert!(Position::from_fen_in(
            tables(),
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadehL - 0 1"
        )
        .is_err());
        assert_eq!(
            fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1").fen(),
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
    }

    #[test]
    fn the_leap_without_capture() {
        let text = "3kr3/8/8/7b/8/3n4/8/4K3 w - Ll 0 1";
        assert_eq!(leaps(&fen_with("leap_no_capture", text)), ["e1c2", "e1g2"]);
        assert_eq!(leaps(&fen_with("", text)), ["e1c2", "e1d3", "e1g2"]);
    }

    #[test]
    fn the_leap_lost_when_checked() {
        // Re2+ checks the king on e1 along the rank.
        let pos = fen_with("leap_lost_when_checked", "3k4/8/8/8/8/8/r7/4K3 b - Ll 0 1");
        let checked = pos.after(pos.parse_uci("a2e2").expect("Re2+"));
        assert!(checked.in_check());
        assert!(leaps(&checked).is_empty(), "the leap never escapes a check");
        assert!(
            checked.fen().contains(" - l "),
            "White's right is gone: {}",
            checked.fen()
        );
        assert_eq!(checked.hash(), checked.compute_hash());
        // A FEN that gives the right in check still has no leap.
        let given = fen_with("leap_lost_when_checked", "3k4/8/8/8/8/8/4r3/4K3 w - Ll 0 1");
        assert!(leaps(&given).is_empty());
        // By default the right stays.
        let default = fen("3k4/8/8/8/8/8/r7/4K3 b - Ll 0 1");
        let checked = default.after(default.parse_uci("a2e2").expect("Re2+"));
        assert!(!leaps(&checked).is_empty());
        assert!(checked.fen().contains(" - Ll "), "{}", checked.fen());
    }
}
