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

use super::BuildHook;
pub use super::UnmovedDoubleStep;

impl BuildHook for UnmovedDoubleStep {
    fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
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
        search_defaults: &[],
        selfplay_random_plies: 3,
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

    /// The rule on the registered Parsi Chess, under its settings (A.12).
    mod parsi_settings {
        use crate::rules::{
            perft::{perft, reference_perft},
            special::test_support::parsi::{agrees_with_reference, fen_with, SPEC},
        };

        /// A.11: after 1.Nc3 Nc6 2.Rb1 Nb8 3.Ra1 Nc6 the rook is back on a1: a2-a4 is illegal by
        /// default (it moved), legal when the piece merely has to stand there.
        #[test]
        fn the_double_step_while_the_piece_is_present() {
            let moves = ["b1c3", "b8c6", "a1b1", "c6b8", "b1a1", "b8c6"];
            let play = |settings: &str| {
                let mut pos = fen_with(settings, SPEC.start_fen);
                for m in moves {
                    pos.play_uci(m).expect("legal");
                }
                pos
            };
            let default = play("");
            assert!(default.parse_uci("a2a4").is_err());
            assert!(default.parse_uci("a2a3").is_ok());
            let present = play("double_step_while_present");
            assert!(present.parse_uci("a2a4").is_ok());
            assert!(present.fen().contains(" ADEHadeh "), "{}", present.fen());
            assert_eq!(present.hash(), present.compute_hash());
            agrees_with_reference(&present);
            // Away from its square, the rook takes the right with it; a FEN cannot give it back.
            let mut away = fen_with("double_step_while_present", SPEC.start_fen);
            for m in ["b1c3", "b8c6", "a1b1"] {
                away.play_uci(m).expect("legal");
            }
            assert!(away.fen().contains(" DEHadeh "), "{}", away.fen());
            let start = fen_with("double_step_while_present", SPEC.start_fen);
            assert_eq!(perft(&start, 4), reference_perft(&start, 4));
            let long = fen_with(
                "double_step_while_present",
                "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - Ll 0 1",
            );
            assert!(
                long.fen().contains(" ADEHadeh "),
                "rights follow the board: {}",
                long.fen()
            );
        }
    }

    /// The double step alone (no leap, no other rule), as A.11 counts it without the leaps.
    mod double_step_alone {
        use crate::{
            rng::SplitMix64,
            rules::{
                geometry::Geometry,
                perft::{perft, reference_perft},
                reference,
                special::{unmoved_double_step::UnmovedDoubleStep, Rule},
                tables::Tables,
                variant::{PawnSpec, PieceSpec},
                variants::persian_common::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK},
                FenError, PieceKind, Position, PositionError, VariantSpec,
            },
        };
        use std::sync::OnceLock;

        /// Parsi's pieces move as the orthodox ones (vizier = queen, camel = bishop, horse = knight).
        const PIECES: &[PieceSpec] = &[PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING];
        const NET_KINDS: &[PieceKind] = &[
            PieceKind::Pawn,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
            PieceKind::King,
        ];

        static SPEC: VariantSpec = VariantSpec {
            variant: None,
            id: "parsi-pawns",
            code: 254,
            aliases: &[],
            name: "Parsi pawns",
            server_key: "parsi-pawns",
            pgn_name: "parsi-pawns",
            geometry: Geometry::rectangle(8, 8),
            pieces: PIECES,
            net_kinds: NET_KINDS,
            start_fen: "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh - 0 1",
            pawns: PawnSpec {
                double_step_rank: 1,
                first_step_max: 2,
                promotion_rank: 7,
                promotion_kinds: &[PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight],
                en_passant: false,
            },
            castling: &[],
            dead_material: &[&[]],
            game_points: None,
            piece_values: &[],
            search_defaults: &[],
            selfplay_random_plies: 3,
            settings: None,
            rules: &[Rule::UnmovedDoubleStep(UnmovedDoubleStep {
                files: &[0, 3, 4, 7],
                while_present: false,
            })],
        };

        fn tables() -> &'static Tables {
            static TABLES: OnceLock<Tables> = OnceLock::new();
            TABLES.get_or_init(|| Tables::build(&SPEC))
        }

        fn fen(text: &str) -> Result<Position, FenError> {
            Position::from_fen_in(tables(), text)
        }

        fn start() -> Position {
            fen(SPEC.start_fen).expect("start FEN")
        }

        /// A.11 without the king's leap: 8 single steps, 4 double steps (a, d, e, h), 4 knight moves;
        /// no first move of one side changes the other's 16.
        #[test]
        fn start_perft() {
            let pos = start();
            assert_eq!(pos.fen(), SPEC.start_fen);
            assert_eq!(perft(&pos, 1), 16);
            assert_eq!(perft(&pos, 2), 256);
            let mut doubles: Vec<String> = pos
                .legal_moves()
                .iter()
                .filter(|m| m.kind() == crate::rules::MoveKind::DoubleStep)
                .map(|&m| pos.uci(m))
                .collect();
            doubles.sort();
            assert_eq!(doubles, ["a2a4", "d2d4", "e2e4", "h2h4"]);
            assert_eq!(perft(&pos, 3), reference_perft(&pos, 3));
        }

        /// A.11: after 1.Nc3 Nc6 2.Rb1 Nb8 3.Ra1 Nc6 the rook is back on a1 but has moved, so a2-a4 is
        /// illegal and a2-a3 legal; the FEN has lost White's `A`.
        #[test]
        fn a_piece_that_moved_and_came_back_no_longer_allows_the_double_step() {
            let mut pos = start();
            for m in ["b1c3", "b8c6", "a1b1", "c6b8", "b1a1", "b8c6"] {
                pos.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            }
            assert!(pos.parse_uci("a2a4").is_err());
            assert!(pos.parse_uci("a2a3").is_ok());
            assert!(pos.parse_uci("h2h4").is_ok());
            assert_eq!(
                pos.fen(),
                "r1bkqbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w DEHadeh - 6 4"
            );
            // The king's first step ends the e-pawn's double step too, for good.
            pos.play_uci("e2e3").unwrap();
            pos.play_uci("c6b4").unwrap();
            pos.play_uci("e1e2").unwrap();
            pos.play_uci("b4c6").unwrap();
            pos.play_uci("e2e1").unwrap();
            pos.play_uci("c6b4").unwrap();
            assert!(pos.fen().contains(" DHadeh "), "{}", pos.fen());
            assert!(pos.parse_uci("d2d4").is_ok());
        }

        /// The piece behind a pawn leaving its square ends that pawn's double step, and so does its
        /// capture there (the same rights mask covers moves from and to the square).
        #[test]
        fn a_captured_piece_ends_the_right() {
            let mut pos = fen("rnbkqbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR b ADEHadeh - 0 1").expect("no a2 pawn");
            // A black knight checks from c2 and the vizier takes it.
            for m in ["b8c6", "g2g3", "c6b4", "g3g4", "b4c2", "d1c2"] {
                pos.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            }
            // The vizier left d1 (it took the knight on c2): White's D is gone.
            assert!(pos.fen().contains(" AEHadeh "), "{}", pos.fen());
            // A knight takes the rook on a1: White's A is gone.
            let mut pos = fen("rnbkqb1r/pppppppp/8/8/8/1n6/PPPPPPPP/RNBQKBNR b ADEHadeh - 0 1").expect("knight on b3");
            pos.play_uci("b3a1").expect("Nxa1");
            assert!(pos.fen().contains(" DEHadeh "), "{}", pos.fen());
            assert!(pos.parse_uci("a2a4").is_err());
        }

        #[test]
        fn fen_rights_are_checked() {
            // No rook on a1, but the A flag.
            let e = fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w ADEHadeh - 0 1").unwrap_err();
            assert!(
                matches!(
                    e,
                    FenError::Position(PositionError::RightWithoutPiece { letter: 'A', .. })
                ),
                "{e}"
            );
            assert!(e.to_string().contains("a1"), "{e}");
            // A letter that is no right here.
            assert!(fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ABDEHadeh - 0 1").is_err());
            // Twice the same letter.
            assert!(matches!(
                fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AADEHadeh - 0 1"),
                Err(FenError::Position(PositionError::DuplicateCastlingRight('A')))
            ));
            // Fewer rights than pieces is fine: those pawns step once.
            let few = fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Ea - 0 1").unwrap();
            assert_eq!(perft(&few, 1), 13);
            assert_eq!(few.fen(), "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Ea - 0 1");
        }

        /// Random games: the generator agrees with the reference generator, the hash with a recount,
        /// and the FEN round-trips.
        #[test]
        fn random_games_agree_with_the_reference_generator() {
            let mut rng = SplitMix64::new(0xa4);
            let mut doubles = 0;
            for _ in 0..40 {
                let mut pos = start();
                for _ in 0..60 {
                    let mut fast: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
                    let mut slow: Vec<u32> = reference::legal_moves(&pos).iter().map(|m| m.raw()).collect();
                    fast.sort_unstable();
                    slow.sort_unstable();
                    assert_eq!(fast, slow, "{}", pos.fen());
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        assert!(pos.is_legal_move(m), "{} in {}", pos.uci(m), pos.fen());
                    }
                    let m = moves.as_slice()[rng.below(moves.len())];
                    doubles += usize::from(m.kind() == crate::rules::MoveKind::DoubleStep);
                    pos.play_unchecked(m);
                    assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
                    assert_eq!(fen(&pos.fen()).expect("FEN round trip"), pos, "{}", pos.fen());
                }
            }
            assert!(doubles > 20, "{doubles} double steps");
        }
    }
}
