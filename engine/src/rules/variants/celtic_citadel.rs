//! Celtic Citadel: the basic Persian Chess rules only (no rendezvous, no centre-square rule).

use super::persian_common::*;
use crate::rules::{
    special::Rule,
    variant::{Variant, VariantSpec},
};

/// The spec of Celtic Citadel.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::CelticCitadel),
    id: "celtic-citadel",
    code: 1,
    aliases: &["celtic", "citadel", "celticcitadel"],
    name: "Celtic Citadel",
    server_key: "celtic-citadel",
    pgn_name: "celtic-citadel",
    geometry: GEOMETRY,
    pieces: PRINCESS_PIECES,
    net_kinds: NET_KINDS,
    start_fen: "f9f/1rnbqkbsnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKBSNR1/F9F w KQkq - 0 1",
    pawns: PAWNS,
    castling: CASTLING,
    dead_material: DEAD_MATERIAL,
    game_points: None,
    piece_values: &[],
    // `fl_move=1`: +23.2 at 60,000 nodes (docs/strength.md, "The eighth series").
    search_defaults: &[("fl_move", 1)],
    // With 3 its openings repeat up to about 2 % of a million games (12 pairs in 24,000), with 4
    // none in 24,000 (docs/training.md, "Openings of a run").
    selfplay_random_plies: 4,
    settings: None,
    rules: &[Rule::CitadelDraw(CITADEL_DRAW)],
};
