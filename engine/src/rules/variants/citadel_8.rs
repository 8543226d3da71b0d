//! Nicholls' Citadel on the 9x8 board. See [`citadel_common`](super::citadel_common): the
//! start position is a reconstruction.

use super::citadel_common::*;
use crate::rules::{
    geometry::Geometry,
    special::Rule,
    
    variant::{PawnSpec, Variant, VariantSpec, RuleSettings},
};

/// How the board reads its rule settings (the set-up).
const RULE_SETTINGS: RuleSettings = rule_settings(Variant::Citadel8);

/// The spec of Citadel on 9x8.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::Citadel8),
    id: "citadel-8",
    code: 7,
    aliases: &["citadel-9x8", "nicholls-citadel-8"],
    name: "Citadel 9x8 (reconstructed set-up)",
    server_key: "citadel-8",
    pgn_name: "Citadel 8",
    geometry: Geometry::rectangle(9, 8),
    pieces: PIECES,
    net_kinds: NET_KINDS,
    start_fen: "rnsmktsnr/ppppppppp/9/9/9/9/PPPPPPPPP/RNSGKXSNR w WEwe - YQyq 0 1",
    pawns: PawnSpec {
        double_step_rank: 1,
        first_step_max: 2,
        // Plainsmen promote only where the releases rule says.
        promotion_rank: 8,
        promotion_kinds: &[],
        en_passant: true,
    },
    castling: CASTLING,
    // No insufficient-material rule (B.9).
    dead_material: &[],
    game_points: Some(GAME_POINTS),
    piece_values: PIECE_VALUES,
    search_defaults: &[],
    selfplay_random_plies: 4,
    settings: Some(&RULE_SETTINGS),
    rules: &[Rule::Releases(RELEASES_8), Rule::Custom(&PRINCES)],
};
