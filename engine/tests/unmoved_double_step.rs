//! Parsi Chess's double-step rule (rules note A.4) on a variant defined in this test: Parsi's
//! board, pieces and start, with no rule besides the double step. Pawns double-step only on the
//! rook's, vizier's and king's files, and only while the piece that started behind has never
//! moved; the FEN keeps those flags as letters beside the castling letters.

use std::sync::OnceLock;

use engine::{
    rng::SplitMix64,
    rules::{
        geometry::Geometry,
        perft::perft,
        piece::{Movement, F, N, W},
        reference,
        special::unmoved_double_step::UnmovedDoubleStep,
        tables::Tables,
        variant::{PawnSpec, PieceSpec},
        FenError, PieceKind, Position, PositionError, Rule, VariantSpec,
    },
};

static SPEC: VariantSpec = VariantSpec {
    variant: None,
    id: "parsi-pawns",
    code: 254,
    aliases: &[],
    name: "Parsi pawns",
    server_key: "parsi-pawns",
    geometry: Geometry::rectangle(8, 8),
    pieces: &[
        PieceSpec {
            kind: PieceKind::Pawn,
            letter: 'P',
            name: "pawn",
            movement: Movement::leaper(&[]),
        },
        PieceSpec {
            kind: PieceKind::Knight,
            letter: 'N',
            name: "horse",
            movement: Movement::leaper(&[N]),
        },
        PieceSpec {
            kind: PieceKind::Bishop,
            letter: 'B',
            name: "camel",
            movement: Movement::slider(&[], false, true),
        },
        PieceSpec {
            kind: PieceKind::Rook,
            letter: 'R',
            name: "rook",
            movement: Movement::slider(&[], true, false),
        },
        PieceSpec {
            kind: PieceKind::Queen,
            letter: 'Q',
            name: "vizier",
            movement: Movement::slider(&[], true, true),
        },
        PieceSpec {
            kind: PieceKind::King,
            letter: 'K',
            name: "king",
            movement: Movement::leaper(&[W, F]),
        },
    ],
    net_kinds: &[
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ],
    start_fen: "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh - 0 1",
    pawns: PawnSpec {
        double_step_rank: 1,
        promotion_rank: 7,
        promotion_kinds: &[PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight],
        en_passant: false,
    },
    castling: &[],
    dead_material: &[&[]],
    rules: &[Rule::UnmovedDoubleStep(UnmovedDoubleStep { files: &[0, 3, 4, 7] })],
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
        .filter(|m| m.kind() == engine::rules::MoveKind::DoubleStep)
        .map(|&m| pos.uci(m))
        .collect();
    doubles.sort();
    assert_eq!(doubles, ["a2a4", "d2d4", "e2e4", "h2h4"]);
    assert_eq!(perft(&pos, 3), reference_perft(&pos, 3));
}

fn reference_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    reference::legal_moves(pos)
        .into_iter()
        .map(|m| reference_perft(&pos.after(m), depth - 1))
        .sum()
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
            doubles += usize::from(m.kind() == engine::rules::MoveKind::DoubleStep);
            pos.play_unchecked(m);
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
            assert_eq!(fen(&pos.fen()).expect("FEN round trip"), pos, "{}", pos.fen());
        }
    }
    assert!(doubles > 20, "{doubles} double steps");
}
