//! What the four Persian Chess sub-variants share: the 11x11 grid with 85 squares (the 9x9 field
//! b2..j10 and the four citadels a1, k1, a11, k11), pawns, promotion, castling and the orthodox pieces.

use crate::rules::{
    geometry::{Bitboard, Geometry},
    piece::{Movement, PieceKind, A, D, F, N, W},
    special::citadel_draw::CitadelDraw,
    variant::{CastlingSpec, PawnSpec, PieceSpec},
};

const fn persian_playable() -> Bitboard {
    let mut mask = 0u128;
    let mut rank = 1;
    while rank <= 9 {
        let mut file = 1;
        while file <= 9 {
            mask |= 1u128 << (rank * 11 + file);
            file += 1;
        }
        rank += 1;
    }
    mask |= 1u128 << 0; // a1
    mask |= 1u128 << 10; // k1
    mask |= 1u128 << 110; // a11
    mask |= 1u128 << 120; // k11
    Bitboard(mask)
}

/// The piece types of the Persian nets (one layout for the four sub-variants, so that one net
/// can be trained on all of them): the ten Persian kinds in the order the shipped nets use.
/// Never change this list: every net in `data/nets/` indexes its features by it.
pub const NET_KINDS: &[PieceKind] = &[
    PieceKind::Pawn,
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
    PieceKind::King,
    PieceKind::Princess,
    PieceKind::Fortress,
    PieceKind::Wizard,
    PieceKind::Champion,
];

/// The 11x11 grid with its 85 playable squares.
pub const GEOMETRY: Geometry = Geometry {
    width: 11,
    height: 11,
    playable: persian_playable(),
};

/// Pawns: double step from rank 3, promotion on rank 10 to Q, R, B or N, en passant.
pub const PAWNS: PawnSpec = PawnSpec {
    double_step_rank: 2,
    first_step_max: 2,
    promotion_rank: 9,
    promotion_kinds: &[PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight],
    en_passant: true,
};

/// Castling: princess side f2->i2 with j2->h2 ("long"), queen side f2->d2 with b2->e2 ("short").
pub const CASTLING: &[CastlingSpec] = &[
    CastlingSpec {
        letter: 'K',
        king_side: true,
        king_from: (5, 1),
        king_to: (8, 1),
        rook_from: (9, 1),
        rook_to: (7, 1),
        must_be_empty: &[(6, 1), (7, 1), (8, 1)],
        must_be_safe: &[(5, 1), (6, 1), (7, 1), (8, 1)],
    },
    CastlingSpec {
        letter: 'Q',
        king_side: false,
        king_from: (5, 1),
        king_to: (3, 1),
        rook_from: (1, 1),
        rook_to: (4, 1),
        must_be_empty: &[(4, 1), (3, 1), (2, 1)],
        must_be_safe: &[(5, 1), (4, 1), (3, 1)],
    },
];

/// The citadel draw: a king arriving on an opponent's citadel draws (White: a11, k11; Black: a1, k1).
pub const CITADEL_DRAW: CitadelDraw = CitadelDraw {
    white_targets: &[(0, 10), (10, 10)],
    black_targets: &[(0, 0), (10, 0)],
};

/// Pawn (moves from [`PAWNS`]).
pub const PAWN: PieceSpec = PieceSpec {
    kind: PieceKind::Pawn,
    letter: 'P',
    name: "pawn",
    movement: Movement::leaper(&[]),
};
/// Knight.
pub const KNIGHT: PieceSpec = PieceSpec {
    kind: PieceKind::Knight,
    letter: 'N',
    name: "knight",
    movement: Movement::leaper(&[N]),
};
/// Bishop.
pub const BISHOP: PieceSpec = PieceSpec {
    kind: PieceKind::Bishop,
    letter: 'B',
    name: "bishop",
    movement: Movement::slider(&[], false, true),
};
/// Rook.
pub const ROOK: PieceSpec = PieceSpec {
    kind: PieceKind::Rook,
    letter: 'R',
    name: "rook",
    movement: Movement::slider(&[], true, false),
};
/// Queen.
pub const QUEEN: PieceSpec = PieceSpec {
    kind: PieceKind::Queen,
    letter: 'Q',
    name: "queen",
    movement: Movement::slider(&[], true, true),
};
/// King.
pub const KING: PieceSpec = PieceSpec {
    kind: PieceKind::King,
    letter: 'K',
    name: "king",
    movement: Movement::leaper(&[W, F]),
};
/// Princess: bishop + knight.
pub const PRINCESS: PieceSpec = PieceSpec {
    kind: PieceKind::Princess,
    letter: 'S',
    name: "princess",
    movement: Movement::slider(&[N], false, true),
};
/// Fortress: rook + knight.
pub const FORTRESS: PieceSpec = PieceSpec {
    kind: PieceKind::Fortress,
    letter: 'F',
    name: "fortress",
    movement: Movement::slider(&[N], true, false),
};
/// Wizard: ferz + knight (a leaper with 12 targets).
pub const WIZARD: PieceSpec = PieceSpec {
    kind: PieceKind::Wizard,
    letter: 'W',
    name: "wizard",
    movement: Movement::leaper(&[F, N]),
};
/// Champion: wazir + dabbaba + alfil (a leaper with 12 targets).
pub const CHAMPION: PieceSpec = PieceSpec {
    kind: PieceKind::Champion,
    letter: 'C',
    name: "champion",
    movement: Movement::leaper(&[W, D, A]),
};

/// The piece set of Celtic Citadel, Persian Princess and Egyptian Eye.
pub const PRINCESS_PIECES: &[PieceSpec] = &[PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PRINCESS, FORTRESS];

/// Material that cannot mate a bare king outside the Egyptian Eye: none besides nothing at all.
/// A lone king can walk into its own citadel, where one minor piece mates it (with help), so
/// only K vs K is dead.
pub const DEAD_MATERIAL: &[&[PieceKind]] = &[&[]];
