//! Egyptian Eye: Persian Princess's setup and rendezvous, with the All-Seeing Eye on f6: nobody
//! may enter f6, sliders pass it, and it attacks the 20 other squares of the long diagonals
//! for both sides (kings may never stand there).

use super::{persian_common::*, persian_princess::PRINCESS_RENDEZVOUS};
use crate::rules::{
    piece::PieceKind,
    special::{all_seeing_eye::AllSeeingEye, Rule},
    variant::{Variant, VariantSpec},
};

/// The spec of Egyptian Eye.
pub const SPEC: VariantSpec = VariantSpec {
    variant: Some(Variant::EgyptianEye),
    id: "egyptian-eye",
    code: 3,
    aliases: &["eye", "egyptian", "pyramid", "ase", "egyptianeye"],
    name: "Egyptian Eye",
    server_key: "egyptian-eye",
    pgn_name: "egyptian-eye",
    geometry: GEOMETRY,
    pieces: PRINCESS_PIECES,
    net_kinds: NET_KINDS,
    start_fen: "f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w KQkq - 0 1 Rr",
    pawns: PAWNS,
    castling: CASTLING,
    // In the Eye a bare king cannot reach a corner (all citadels are Eye squares); K+B vs K has no
    // mate position at all (checked exhaustively), so it is dead too.
    dead_material: &[&[], &[PieceKind::Bishop]],
    game_points: None,
    piece_values: &[],
    // `fl_move=1`: +32.6 at 60,000 nodes (docs/strength.md, "The eighth series").
    search_defaults: &[("fl_move", 1)],
    // With 3 its openings repeat up to about 1 % of a million games (6 pairs in 24,000, the
    // bound just over the goal): one more, as for Celtic Citadel (docs/training.md).
    selfplay_random_plies: 4,
    settings: None,
    rules: &[
        Rule::CitadelDraw(CITADEL_DRAW),
        Rule::Rendezvous(PRINCESS_RENDEZVOUS),
        Rule::AllSeeingEye(AllSeeingEye { square: (5, 5) }),
    ],
};
