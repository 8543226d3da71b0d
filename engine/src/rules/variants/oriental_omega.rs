//! Oriental Omega: wizards (FN) in the corners and a champion (WAD) instead of the princess;
//! the champion (g2) may make the rendezvous with a bishop (h2). No centre-square rule.

use super::persian_common::*;
use crate::rules::{
    piece::PieceKind,
    special::{rendezvous::Rendezvous, Rule},
    variant::{PieceSpec, Variant, VariantSpec},
};

const PIECES: &[PieceSpec] = &[PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, WIZARD, CHAMPION];

/// The spec of Oriental Omega.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::OrientalOmega),
    id: "oriental-omega",
    code: 4,
    aliases: &["omega", "oriental", "orientalomega"],
    name: "Oriental Omega",
    server_key: "oriental-omega",
    pgn_name: "oriental-omega",
    geometry: GEOMETRY,
    pieces: PIECES,
    net_kinds: NET_KINDS,
    start_fen: "w9w/1rnbqkcbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKCBNR1/W9W w KQkq - 0 1 Rr",
    pawns: PAWNS,
    castling: CASTLING,
    dead_material: DEAD_MATERIAL,
    game_points: None,
    piece_values: &[],
    search_defaults: &[],
    selfplay_random_plies: 3,
    settings: None,
    rules: &[
        Rule::CitadelDraw(CITADEL_DRAW),
        Rule::Rendezvous(Rendezvous {
            partner: PieceKind::Champion,
            partner_square: (6, 1),
            bishop_square: (7, 1),
        }),
    ],
};
