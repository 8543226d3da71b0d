//! Orthodox chess on 8x8 (FIDE rules), used to check the generic move generator against
//! well-known perft numbers.

use super::persian_common::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::rules::{
    geometry::Geometry,
    piece::PieceKind,
    variant::{CastlingSpec, PawnSpec, Variant, VariantSpec},
};

/// The spec of chess.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::Chess),
    id: "chess",
    code: 5,
    aliases: &["standard", "fromposition", "orthodox"],
    name: "Chess",
    server_key: "standard",
    pgn_name: "Standard",
    geometry: Geometry::rectangle(8, 8),
    pieces: &[PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING],
    net_kinds: &[
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ],
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    pawns: PawnSpec {
        double_step_rank: 1,
        first_step_max: 2,
        promotion_rank: 7,
        promotion_kinds: &[PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight],
        en_passant: true,
    },
    castling: &[
        CastlingSpec {
            letter: 'K',
            king_side: true,
            king_from: (4, 0),
            king_to: (6, 0),
            rook_from: (7, 0),
            rook_to: (5, 0),
            must_be_empty: &[(5, 0), (6, 0)],
            must_be_safe: &[(4, 0), (5, 0), (6, 0)],
        },
        CastlingSpec {
            letter: 'Q',
            king_side: false,
            king_from: (4, 0),
            king_to: (2, 0),
            rook_from: (0, 0),
            rook_to: (3, 0),
            must_be_empty: &[(3, 0), (2, 0), (1, 0)],
            must_be_safe: &[(4, 0), (3, 0), (2, 0)],
        },
    ],
    dead_material: &[&[], &[PieceKind::Bishop], &[PieceKind::Knight]],
    game_points: None,
    piece_values: &[],
    search_defaults: &[],
    selfplay_random_plies: 3,
    settings: None,
    rules: &[],
};
