//! Parsi Chess, the Bombay game of 1814 as Murray describes it (the project's rules note on
//! Parsi Chess and Citadel, Part A): orthodox moves on 8x8 with the vizier left of the king, no
//! castling and no en passant, double steps only on the rook's, vizier's and king's files while
//! the piece behind has not moved, promotion by arrival square, the king's one knight leap, the
//! bonus knight leap, no stalemating, no perpetual check, a bare king draws. See docs/rules.md.

use crate::rules::{
    geometry::Geometry,
    piece::{Movement, PieceKind, F, N, W},
    special::{
        bare_king::BareKing, bonus_leap::BONUS_KNIGHT_LEAP, king_leap::KING_LEAP, no_stalemating::NO_STALEMATING,
        perpetual_check::NO_PERPETUAL_CHECK, square_promotion::SquarePromotion,
        unmoved_double_step::UnmovedDoubleStep, Rule,
    },
    variant::{PawnSpec, PieceSpec, Variant, VariantSpec},
};

/// The spec of Parsi Chess.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::Parsi),
    id: "parsi",
    code: 6,
    aliases: &["parsi-chess"],
    name: "Parsi Chess",
    server_key: "parsi",
    pgn_name: "Parsi",
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
    // A bare king draws by its own rule; no other material is dead.
    dead_material: &[&[]],
    rules: &[
        Rule::UnmovedDoubleStep(UnmovedDoubleStep { files: &[0, 3, 4, 7] }),
        Rule::Custom(&KING_LEAP),
        Rule::SquarePromotion(SquarePromotion {
            colour_bound: &[PieceKind::Bishop],
            no_check_on_arrival: &[PieceKind::Knight],
            by_own_file: false,
        }),
        Rule::Custom(&BONUS_KNIGHT_LEAP),
        Rule::Custom(&NO_STALEMATING),
        Rule::Custom(&NO_PERPETUAL_CHECK),
        Rule::BareKing(BareKing),
    ],
};
