//! Persian Princess: basic rules plus the princess-bishop rendezvous and the f6 centre square
//! (only pawns and princesses may end a move there).

use super::persian_common::*;
use crate::rules::{
    piece::PieceKind,
    special::{centre_square::CentreSquare, rendezvous::Rendezvous, Rule},
    variant::{Variant, VariantSpec},
};

/// The rendezvous of the princess (g2) with a bishop (h2).
pub const PRINCESS_RENDEZVOUS: Rendezvous = Rendezvous {
    partner: PieceKind::Princess,
    partner_square: (6, 1),
    bishop_square: (7, 1),
};

/// The spec of Persian Princess.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::PersianPrincess),
    id: "persian-princess",
    code: 2,
    aliases: &["princess", "persian", "persianchess"],
    name: "Persian Princess",
    server_key: "persian-princess",
    pgn_name: "persian-princess",
    geometry: GEOMETRY,
    pieces: PRINCESS_PIECES,
    net_kinds: NET_KINDS,
    start_fen: "f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w KQkq - 0 1 Rr",
    pawns: PAWNS,
    castling: CASTLING,
    dead_material: DEAD_MATERIAL,
    game_points: None,
    piece_values: &[],
    // `fl_move=1`: +19.7 at 60,000 nodes (docs/strength.md, "The eighth series").
    search_defaults: &[("fl_move", 1)],
    selfplay_random_plies: 3,
    settings: None,
    rules: &[
        Rule::CitadelDraw(CITADEL_DRAW),
        Rule::Rendezvous(PRINCESS_RENDEZVOUS),
        Rule::CentreSquare(CentreSquare {
            square: (5, 5),
            may_enter: &[PieceKind::Pawn, PieceKind::Princess],
        }),
    ],
};
