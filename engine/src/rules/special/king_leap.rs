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
    geometry::Square,
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
