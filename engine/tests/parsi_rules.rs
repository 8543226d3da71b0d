//! Parsi Chess's double step and the king's once-per-game knight leap (rules note A.4, A.6) on
//! a variant defined in this test with Parsi's board, pieces and start: the hand-derived perft
//! numbers of A.11, the leap's cases and its FEN letters in the fourth field.

use std::sync::OnceLock;

use engine::{
    rng::SplitMix64,
    rules::{
        geometry::Geometry,
        perft::perft,
        piece::{Movement, F, N, W},
        reference,
        special::{king_leap::KING_LEAP, unmoved_double_step::UnmovedDoubleStep},
        tables::Tables,
        variant::{PawnSpec, PieceSpec},
        FenError, MoveKind, ParseFenError, PieceKind, Position, Rule, VariantSpec,
    },
};

static SPEC: VariantSpec = VariantSpec {
    variant: None,
    id: "parsi-core",
    code: 249,
    aliases: &[],
    name: "Parsi core",
    server_key: "parsi-core",
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
    start_fen: "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh Ll 0 1",
    pawns: PawnSpec {
        double_step_rank: 1,
        promotion_rank: 7,
        promotion_kinds: &[PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight],
        en_passant: false,
    },
    castling: &[],
    dead_material: &[&[]],
    rules: &[
        Rule::UnmovedDoubleStep(UnmovedDoubleStep { files: &[0, 3, 4, 7] }),
        Rule::Custom(&KING_LEAP),
    ],
};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::build(&SPEC))
}

fn fen(text: &str) -> Position {
    Position::from_fen_in(tables(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn leaps(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::Rule)
        .map(|&m| pos.uci(m))
        .collect();
    v.sort();
    v
}

/// A.11: 8 single steps, 4 double steps, 4 knight moves and 2 king leaps (d3, f3) for White, the
/// same 18 for Black whatever White played.
#[test]
fn the_hand_derived_perft_numbers() {
    let pos = fen(SPEC.start_fen);
    assert_eq!(pos.fen(), SPEC.start_fen);
    assert_eq!(perft(&pos, 1), 18);
    assert_eq!(perft(&pos, 2), 324);
    assert_eq!(leaps(&pos), ["e1d3", "e1f3"]);
    let black = pos.after(pos.parse_uci("e1d3").expect("the leap"));
    assert_eq!(leaps(&black), ["d8c6", "d8e6"]);
}

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

/// Random games: the generator agrees with the reference generator, the hash with a recount,
/// and the FEN, UCI and SAN round-trip.
#[test]
fn random_games_agree_with_the_reference_generator() {
    let mut rng = SplitMix64::new(0xa6);
    let mut leaps_played = 0;
    for _ in 0..40 {
        let mut pos = fen(SPEC.start_fen);
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
            let m = moves.as_slice()[rng.below(moves.len())];
            assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m), "{}", pos.fen());
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{}", pos.fen());
            leaps_played += usize::from(m.kind() == MoveKind::Rule);
            pos.play_unchecked(m);
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
            assert_eq!(fen(&pos.fen()), pos, "{}", pos.fen());
        }
    }
    assert!(leaps_played > 10, "{leaps_played} leaps");
}
