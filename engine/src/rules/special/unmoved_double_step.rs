//! Pawn double steps that depend on the piece behind the pawn (Parsi Chess, rules note A.4): a
//! pawn may advance two squares from its start square only on the listed files, and only while
//! the piece that started directly behind it has never moved. One rights bit per such square and
//! side says "never moved"; it is cleared when a move leaves or enters that square (the piece
//! moves or is captured there), and the FEN writes it as the file's letter beside the castling
//! letters (`ADEHadeh` at Parsi Chess's start).

use crate::rules::{
    geometry::{Bitboard, Square},
    notation::fen::parse_board,
    piece::{ByColor, Color},
    tables::{LetterRight, RightsField, Tables},
    variant::Coord,
};

/// Data of the rule.
#[derive(Clone, Copy, Debug)]
pub struct UnmovedDoubleStep {
    /// The files (from 0) whose pawns may double-step, each while the piece behind is unmoved.
    pub files: &'static [u8],
    /// The literal reading of the Ludii description: the double step is allowed while the
    /// piece that started behind the pawn stands on its square again ("merely present"), even
    /// after it moved away and came back. The flags then follow the board after every move.
    pub while_present: bool,
}

impl UnmovedDoubleStep {
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let spec = tables.spec;
        let rank = spec.pawns.double_step_rank;
        assert!(rank >= 1, "{}: no square behind the pawns' start rank", spec.id);
        let n = self.files.len() as u32;
        let board_field = spec.start_fen.split_whitespace().next().unwrap_or("");
        let start =
            parse_board(tables, board_field).unwrap_or_else(|e| panic!("{}: the start FEN is wrong: {e}", spec.id));
        let first = tables.allocate_rights(2 * n);
        let mut from = ByColor([Bitboard::EMPTY; 2]);
        for color in Color::ALL {
            let black = color == Color::Black;
            for (i, &file) in self.files.iter().enumerate() {
                let pawn = resolve(spec.mirror((file as i8, rank), black));
                let behind = resolve(spec.mirror((file as i8, rank - 1), black));
                let bit = first + color.index() as u32 * n + i as u32;
                if self.while_present {
                    let piece = start
                        .iter()
                        .find(|(sq, _)| *sq == behind)
                        .map(|&(_, p)| p)
                        .unwrap_or_else(|| panic!("{}: no piece starts behind the pawn on file {file}", spec.id));
                    tables.rules.present_gates.push((behind, piece, bit));
                } else {
                    tables.rights_keep[behind.index()] &= !(1 << bit);
                }
                let letter = (b'A' + file) as char;
                tables.add_letter_right(LetterRight {
                    letter: if black { letter.to_ascii_lowercase() } else { letter },
                    bit,
                    field: RightsField::Castling,
                    home: Some((behind, color)),
                });
                tables.rules.double_step_gates[color].push((pawn, bit));
                tables.rules.gated_double_steps = true;
                from[color] |= pawn.bb();
            }
            tables.double_step_from[color] &= from[color];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{
        geometry::Geometry,
        piece::PieceKind,
        special::Rule,
        variant::{PawnSpec, VariantSpec},
        variants::persian_common::{KING, KNIGHT, PAWN, ROOK},
        Position,
    };
    use std::sync::OnceLock;

    static SPEC: VariantSpec = VariantSpec {
        variant: None,
        id: "unmoved",
        code: 240,
        aliases: &[],
        name: "Unmoved double steps",
        server_key: "unmoved",
        pgn_name: "unmoved",
        geometry: Geometry::rectangle(8, 8),
        pieces: &[PAWN, KNIGHT, ROOK, KING],
        net_kinds: &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Rook, PieceKind::King],
        start_fen: "rn2k1nr/pppppppp/8/8/8/8/PPPPPPPP/RN2K1NR w AEHaeh - 0 1",
        pawns: PawnSpec {
            double_step_rank: 1,
            first_step_max: 2,
            promotion_rank: 7,
            promotion_kinds: &[PieceKind::Rook],
            en_passant: false,
        },
        castling: &[],
        dead_material: &[&[]],
        game_points: None,
        piece_values: &[],
        settings: None,
        rules: &[Rule::UnmovedDoubleStep(UnmovedDoubleStep {
            files: &[0, 3, 4, 7],
            while_present: false,
        })],
    };

    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| Tables::build(&SPEC))
    }

    #[test]
    fn gates_follow_the_rights() {
        let t = tables();
        assert_eq!(t.rules.letter_rights.len(), 8);
        let sq = |s: &str| t.geometry.parse_square(s).unwrap();
        let all = u32::MAX;
        let white = t.double_step_squares(Color::White, all);
        assert_eq!(white, sq("a2").bb() | sq("d2").bb() | sq("e2").bb() | sq("h2").bb());
        // Without the right of d1 (nothing started there in this test's FEN), d2 stays.
        let d = t.rules.letter_rights.iter().find(|r| r.letter == 'D').unwrap();
        assert_eq!(d.home, Some((sq("d1"), Color::White)));
        assert!(!t.double_step_squares(Color::White, all & !(1 << d.bit)).has(sq("d2")));
        assert_eq!(t.rights_keep[sq("d1").index()] & (1 << d.bit), 0);
        let pos = Position::from_fen_in(t, SPEC.start_fen).unwrap();
        assert_eq!(pos.fen(), SPEC.start_fen);
    }
}
