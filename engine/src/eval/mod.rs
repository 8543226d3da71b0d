//! The hand-crafted evaluation: material, centralisation, pawn structure, mobility, king safety
//! and the bishop pair, tapered between middlegame and endgame.
//!
//! The evaluation reads only the position and its variant's tables; every variant is evaluated by
//! the same code with the same weights ([`params`]). Board-dependent tables (centre distance,
//! file masks, passed-pawn spans) are built once per variant from its geometry.

pub mod params;

use std::sync::OnceLock;

use params::Pair;

use crate::rules::{Bitboard, ByColor, Color, PieceKind, Position, Variant};

/// Per-variant tables of the evaluation, built from the geometry.
struct EvalTables {
    /// Steps to the centre (Chebyshev + Manhattan mix) per cell, scaled so the centre is the largest.
    centrality: [i32; 128],
    /// Cells of each file.
    files: Vec<Bitboard>,
    /// For a pawn of a colour on a cell: the cells in front of it on its file and the neighbouring files.
    passed_span: ByColor<[Bitboard; 128]>,
    /// For a cell: the cells of the neighbouring files.
    neighbour_files: [Bitboard; 128],
    /// Phase of the start position.
    full_phase: i32,
    /// The rank where pawns start, per colour (ranks from White's side).
    pawn_start_rank: ByColor<i32>,
}

fn tables(variant: Variant) -> &'static EvalTables {
    static TABLES: [OnceLock<EvalTables>; 8] = [const { OnceLock::new() }; 8];
    TABLES[variant.code() as usize & 7].get_or_init(|| build(variant))
}

fn build(variant: Variant) -> EvalTables {
    let t = variant.tables();
    let g = t.geometry;
    let (w, h) = (g.width as i32, g.height as i32);
    let mut centrality = [0; 128];
    // Centre of the playable area.
    let (mut sf, mut sr, mut n) = (0, 0, 0);
    for sq in g.playable {
        sf += g.file(sq);
        sr += g.rank(sq);
        n += 1;
    }
    let (cf2, cr2) = (2 * sf / n.max(1), 2 * sr / n.max(1));
    let mut max_d = 0;
    for sq in g.playable {
        let d = (2 * g.file(sq) - cf2).abs() + (2 * g.rank(sq) - cr2).abs();
        max_d = max_d.max(d);
    }
    for sq in g.playable {
        let d = (2 * g.file(sq) - cf2).abs() + (2 * g.rank(sq) - cr2).abs();
        centrality[sq.index()] = (max_d - d) / 2;
    }
    let files: Vec<Bitboard> = (0..w).map(|f| g.file_mask(f) & g.playable).collect();
    let mut passed_span = ByColor([[Bitboard::EMPTY; 128]; 2]);
    let mut neighbour_files = [Bitboard::EMPTY; 128];
    for sq in g.playable {
        let f = g.file(sq);
        let r = g.rank(sq);
        let mut nf = Bitboard::EMPTY;
        for df in [-1, 1] {
            if f + df >= 0 && f + df < w {
                nf |= files[(f + df) as usize];
            }
        }
        neighbour_files[sq.index()] = nf;
        for (color, ahead) in [(Color::White, (r + 1)..h), (Color::Black, 0..r)] {
            let mut span = Bitboard::EMPTY;
            for rr in ahead {
                for df in -1..=1 {
                    if let Some(s) = g.playable_square(f + df, rr) {
                        span |= s.bb();
                    }
                }
            }
            passed_span[color][sq.index()] = span;
        }
    }
    let start = Position::startpos(variant);
    let full_phase = PieceKind::ALL
        .iter()
        .map(|&k| params::phase_weight(k) * start.kind_bb(k).count() as i32)
        .sum::<i32>()
        .max(1);
    let start_rank = t.spec.pawns.double_step_rank as i32;
    EvalTables {
        centrality,
        files,
        passed_span,
        neighbour_files,
        full_phase,
        pawn_start_rank: ByColor([start_rank, h - 1 - start_rank]),
    }
}

/// The evaluation split into its terms, each from White's point of view as (middlegame, endgame).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Material.
    pub material: Pair,
    /// Piece placement (centralisation, pawn advance, king placement).
    pub placement: Pair,
    /// Pawn structure (passed, doubled, isolated pawns).
    pub pawns: Pair,
    /// Mobility.
    pub mobility: Pair,
    /// King safety (shelter and attacks on the king zone).
    pub king_safety: Pair,
    /// Bishop pair.
    pub bishop_pair: Pair,
    /// Game phase, 0 (endgame) to 256 (middlegame).
    pub phase: i32,
    /// The final score from the side to move's point of view, tempo included.
    pub total: i32,
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_impl::<false>(pos, &mut Trace::default())
}

/// Static evaluation with its terms.
pub fn trace(pos: &Position) -> Trace {
    let mut tr = Trace::default();
    tr.total = evaluate_impl::<true>(pos, &mut tr);
    tr
}

#[inline(always)]
fn sign(c: Color) -> i32 {
    if c == Color::White {
        1
    } else {
        -1
    }
}

fn evaluate_impl<const TRACE: bool>(pos: &Position, tr: &mut Trace) -> i32 {
    let t = pos.tables();
    let et = tables(pos.variant());
    let g = t.geometry;
    let occ = pos.occupied();
    let mut material = Pair::default();
    let mut placement = Pair::default();
    let mut mobility = Pair::default();
    let mut pawns_term = Pair::default();
    let mut king_safety = Pair::default();
    let mut bishop_pair = Pair::default();
    let mut phase = 0;

    // Squares attacked by pawns, per colour (mobility does not count them).
    let mut pawn_attacks = ByColor([Bitboard::EMPTY; 2]);
    for c in Color::ALL {
        for sq in pos.pieces(c, PieceKind::Pawn) {
            pawn_attacks[c] |= t.pawn_attacks[c][sq.index()];
        }
    }
    let kings = ByColor([pos.king(Color::White), pos.king(Color::Black)]);
    let king_zone = ByColor([
        t.leaps[PieceKind::King][kings[Color::White].index()] | kings[Color::White].bb(),
        t.leaps[PieceKind::King][kings[Color::Black].index()] | kings[Color::Black].bb(),
    ]);

    for c in Color::ALL {
        let s = sign(c);
        let own = pos.color_bb(c);
        let mut attack_units = 0;
        let mut attackers = 0;
        for &kind in &t.officers {
            let bb = pos.pieces(c, kind);
            if bb.is_empty() {
                continue;
            }
            let n = bb.count() as i32;
            material += params::material(kind) * (s * n);
            phase += params::phase_weight(kind) * n;
            let cw = params::centrality(kind);
            let mw = params::mobility(kind);
            let kw = params::king_attack_weight(kind);
            for sq in bb {
                placement += cw * (s * et.centrality[sq.index()]);
                let att = t.attacks(kind, sq, occ);
                let reach = att & !own & !pawn_attacks[!c] & !t.forbidden[kind];
                mobility += mw * (s * reach.count() as i32);
                let hits = (att & king_zone[!c]).count() as i32;
                if hits > 0 {
                    attack_units += kw * hits.min(3);
                    attackers += 1;
                }
            }
        }
        if pos.pieces(c, PieceKind::Bishop).more_than_one() {
            bishop_pair += params::BISHOP_PAIR * s;
        }
        if attackers >= 2 {
            let danger = params::KING_DANGER[(attack_units as usize).min(params::KING_DANGER.len() - 1)];
            king_safety += Pair(danger * s, danger * s / 4);
        }

        // Pawns.
        let my_pawns = pos.pieces(c, PieceKind::Pawn);
        let their_pawns = pos.pieces(!c, PieceKind::Pawn);
        let pn = my_pawns.count() as i32;
        material += params::material(PieceKind::Pawn) * (s * pn);
        for sq in my_pawns {
            let rank = g.rank(sq);
            let advance = if c == Color::White {
                rank - et.pawn_start_rank[c]
            } else {
                et.pawn_start_rank[c] - rank
            };
            placement += params::PAWN_ADVANCE * (s * advance);
            placement += params::centrality(PieceKind::Pawn) * (s * et.centrality[sq.index()]);
            if (et.passed_span[c][sq.index()] & their_pawns).is_empty() {
                let a = advance.max(0);
                pawns_term += params::PASSED_PAWN * (s * (a + a * a / 2));
            }
            if (et.neighbour_files[sq.index()] & my_pawns).is_empty() {
                pawns_term += params::ISOLATED_PAWN * s;
            }
        }
        for f in &et.files {
            let on_file = (*f & my_pawns).count() as i32;
            if on_file > 1 {
                pawns_term += params::DOUBLED_PAWN * (s * (on_file - 1));
            }
        }

        // King: placement and shelter.
        let k = kings[c];
        placement += params::centrality(PieceKind::King) * (s * et.centrality[k.index()]);
        let home = if c == Color::White { 1 } else { g.height as i32 - 2 };
        if (g.rank(k) - home).abs() >= 2 {
            placement += params::KING_ADVANCED * s;
        }
        let shelter = (t.leaps[PieceKind::King][k.index()] & my_pawns).count() as i32;
        king_safety += params::PAWN_SHIELD * (s * shelter.min(3));
    }
    // King danger is a penalty for the side being attacked: the sums above are "attacks by c",
    // which is good for c.

    let phase = (phase * 256 / et.full_phase).min(256);
    let total = material + placement + mobility + pawns_term + king_safety + bishop_pair;
    let white = (total.0 * phase + total.1 * (256 - phase)) / 256;
    let score = white * sign(pos.turn()) + params::TEMPO;
    if TRACE {
        tr.material = material;
        tr.placement = placement;
        tr.pawns = pawns_term;
        tr.mobility = mobility;
        tr.king_safety = king_safety;
        tr.bishop_pair = bishop_pair;
        tr.phase = phase;
    }
    score
}

/// Whether the side has material besides pawns and king (for null-move pruning).
pub fn has_non_pawn_material(pos: &Position, c: Color) -> bool {
    (pos.color_bb(c) & !pos.kind_bb(PieceKind::Pawn) & !pos.kind_bb(PieceKind::King)).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::ALL {
            let pos = Position::startpos(v);
            let tr = trace(&pos);
            assert_eq!(tr.material, Pair(0, 0), "{v}");
            assert_eq!(
                tr.total,
                params::TEMPO,
                "{v}: symmetric start must evaluate to the tempo bonus"
            );
            assert_eq!(tr.phase, 256);
        }
    }

    /// The FEN of the colour-mirrored position (ranks flipped, colours swapped).
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let board: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        format!("{} {side} - - 0 1", board.join("/"))
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let cases = [
            (
                Variant::PersianPrincess,
                "f9f/1r2k3r1/1pp3ppp1/3n7/4pp5/11/4P1N4/11/1PPP2PPPP1/1R2K2SR1/F9F w - - 0 1",
            ),
            (
                Variant::EgyptianEye,
                "11/5k1r3/2p5p2/1pQ6p1/7p3/6p4/3r2P1N2/2Q4NPP1/7P1K1/9q1/11 b - - 0 1",
            ),
            (
                Variant::OrientalOmega,
                "w9w/1rnb1kcbnr1/1pp1p1pppp1/3p1q5/5p5/11/4P6/2N3W4/1PPP1PPPPP1/1R1BQKCBNR1/10W w - - 0 1",
            ),
            (
                Variant::Chess,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            ),
        ];
        for (v, fen) in cases {
            let a = Position::from_fen(v, fen).unwrap();
            let b = Position::from_fen(v, &mirror(fen)).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{v}: {fen}");
        }
    }
}
