//! The hand-crafted evaluation: material, centralisation, pawn structure, mobility, king safety
//! and the bishop pair, tapered between middlegame and endgame.
//!
//! The evaluation reads only the position and its variant's tables; every variant is evaluated by
//! the same code with the same weights ([`params`]). Board-dependent tables (centre distance,
//! file masks, passed-pawn spans) are built once per variant from its geometry.

pub mod nnue;
pub mod params;
pub mod wdl;

use std::sync::OnceLock;

use params::Pair;

use crate::rules::{piece::KIND_COUNT, tables::Tables, Bitboard, ByColor, Color, PieceKind, Position, Square};

/// Per-variant tables of the evaluation, built from the geometry.
struct EvalTables {
    /// For a pawn of a colour on a cell: the cells in front of it on its file and the neighbouring files.
    passed_span: ByColor<[Bitboard; 128]>,
    /// For a cell: the cells of the neighbouring files.
    neighbour_files: [Bitboard; 128],
    /// Phase of the start position.
    full_phase: i32,
    /// For a pawn of a colour on a cell: ranks advanced beyond its start rank.
    advance: ByColor<[i32; 128]>,
    /// File of each cell, counted from 0.
    file_of: [u8; 128],
    /// Material plus placement of a piece on a cell, signed (positive for White), by piece code
    /// (`colour * KIND_COUNT + kind`, as [`Position::code_at`] gives it).
    psq: Box<[[Pair; 128]; 2 * KIND_COUNT]>,
    /// Material of each kind in this variant (the built-in values, or the spec's own).
    material: [Pair; KIND_COUNT],
    /// What exchanges and move ordering count in this variant.
    exchange: ExchangeValues,
    /// Per piece code: its kind, its phase weight, and its mobility weight signed for its colour.
    by_code: [CodeTerms; 2 * KIND_COUNT],
}

/// The terms of a piece that depend only on its code.
#[derive(Clone, Copy)]
struct CodeTerms {
    kind: PieceKind,
    phase: i32,
    mobility: Pair,
    king_attack: i32,
}

/// The evaluation tables of a position's variant, built at first use and kept per variant code
/// (variant codes are unique; a spec outside the registry, such as a test's, has its own code).
fn tables(t: &'static Tables) -> &'static EvalTables {
    static TABLES: [OnceLock<(&str, EvalTables)>; 256] = [const { OnceLock::new() }; 256];
    let (id, et) = TABLES[t.spec.code as usize].get_or_init(|| (t.spec.id, build(t)));
    debug_assert_eq!(*id, t.spec.id, "two variants with the code {}", t.spec.code);
    et
}

/// The piece values static exchange evaluation and move ordering use in a variant: the
/// middlegame material of each kind (the variant's own figures where its spec gives them; the
/// built-in [`params::see_value`] otherwise), the king 20,000.
#[derive(Clone, Copy, Debug)]
pub struct ExchangeValues {
    /// By kind index.
    pub value: [i32; KIND_COUNT],
    /// The kinds from the least to the most valuable (equal values in index order).
    pub by_value: [PieceKind; KIND_COUNT],
}

impl ExchangeValues {
    /// The value of `kind`.
    #[inline(always)]
    pub fn of(&self, kind: PieceKind) -> i32 {
        self.value[kind.index()]
    }
}

/// The exchange values of the variant whose tables are given (built with the evaluation's
/// tables, at first use).
#[inline]
pub fn exchange_values(t: &'static Tables) -> &'static ExchangeValues {
    &tables(t).exchange
}

/// The evaluation's figures for a kind in a variant.
struct Figures {
    material: Pair,
    phase: i32,
    mobility: Pair,
    king_attack: i32,
}

/// The built-in figures of `kind`, or the variant's own where its spec gives them
/// ([`VariantSpec::piece_values`](crate::rules::VariantSpec::piece_values)).
fn figures(t: &Tables, kind: PieceKind) -> Figures {
    match t.spec.piece_values.iter().find(|v| v.kind == kind) {
        Some(v) => Figures {
            material: Pair(v.material.0, v.material.1),
            phase: v.phase,
            mobility: Pair(v.mobility.0, v.mobility.1),
            king_attack: v.king_attack,
        },
        None => Figures {
            material: params::material(kind),
            phase: params::phase_weight(kind),
            mobility: params::mobility(kind),
            king_attack: params::king_attack_weight(kind),
        },
    }
}

fn build(t: &'static Tables) -> EvalTables {
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
    let start = Position::from_fen_in(t, t.spec.start_fen)
        .unwrap_or_else(|e| panic!("{}: the start FEN is wrong: {e}", t.spec.id));
    let full_phase = PieceKind::EVERY
        .iter()
        .map(|&k| figures(t, k).phase * start.kind_bb(k).count() as i32)
        .sum::<i32>()
        .max(1);
    let start_rank = t.spec.pawns.double_step_rank as i32;
    let mut advance = ByColor([[0; 128]; 2]);
    let mut file_of = [0u8; 128];
    let mut king_advanced = ByColor([Bitboard::EMPTY; 2]);
    for sq in g.playable {
        let r = g.rank(sq);
        advance[Color::White][sq.index()] = r - start_rank;
        advance[Color::Black][sq.index()] = (h - 1 - start_rank) - r;
        file_of[sq.index()] = g.file(sq) as u8;
        if (r - 1).abs() >= 2 {
            king_advanced[Color::White] |= sq.bb();
        }
        if (r - (h - 2)).abs() >= 2 {
            king_advanced[Color::Black] |= sq.bb();
        }
    }
    let _ = &files;
    let mut psq = Box::new([[Pair::default(); 128]; 2 * KIND_COUNT]);
    let mut by_code = [CodeTerms {
        kind: PieceKind::Pawn,
        phase: 0,
        mobility: Pair::default(),
        king_attack: 0,
    }; 2 * KIND_COUNT];
    for c in Color::ALL {
        let s = sign(c);
        for kind in PieceKind::EVERY {
            let code = c.index() * KIND_COUNT + kind.index();
            let f = figures(t, kind);
            by_code[code] = CodeTerms {
                kind,
                phase: f.phase,
                mobility: f.mobility * s,
                king_attack: f.king_attack,
            };
            for sq in g.playable {
                let i = sq.index();
                let mut v = f.material + params::centrality(kind) * centrality[i];
                if kind == PieceKind::Pawn {
                    v += params::PAWN_ADVANCE * advance[c][i];
                }
                if kind == PieceKind::King && king_advanced[c].has(sq) {
                    v += params::KING_ADVANCED;
                }
                psq[code][i] = v * s;
            }
        }
    }
    let mut material = [Pair::default(); KIND_COUNT];
    for kind in PieceKind::EVERY {
        material[kind.index()] = figures(t, kind).material;
    }
    let mut exchange = ExchangeValues {
        value: [0; KIND_COUNT],
        by_value: PieceKind::EVERY,
    };
    for kind in PieceKind::EVERY {
        exchange.value[kind.index()] = if kind == PieceKind::King {
            params::see_value(kind)
        } else {
            material[kind.index()].0
        };
    }
    // Stable: kinds of equal value keep their index order.
    exchange.by_value.sort_by_key(|k| exchange.value[k.index()]);
    EvalTables {
        material,
        exchange,
        passed_span,
        neighbour_files,
        full_phase,
        advance,
        file_of,
        psq,
        by_code,
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
    /// Terms of the variant's rules (stuck pawns of promotion by arrival square, rights that
    /// custom rules value).
    pub rules: Pair,
    /// Game phase, 0 (endgame) to 256 (middlegame).
    pub phase: i32,
    /// The final score from the side to move's point of view, tempo included.
    pub total: i32,
}

/// The pawn terms of a position: they depend on the pawns alone (and the variant), so a
/// search keeps them in a [`PawnCache`].
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    white: u128,
    black: u128,
    variant: u8,
    /// Placement of the pawns (both sides, White's view).
    psq: Pair,
    /// Passed, isolated and doubled pawns (White's view).
    structure: Pair,
    /// Squares each side's pawns attack.
    attacks: [Bitboard; 2],
}

/// A small cache of pawn terms, keyed by the two sides' pawn sets.
pub struct PawnCache {
    entries: Box<[PawnEntry]>,
}

const PAWN_CACHE_SIZE: usize = 1 << 12;

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache {
            entries: vec![
                PawnEntry {
                    variant: u8::MAX,
                    ..PawnEntry::default()
                };
                PAWN_CACHE_SIZE
            ]
            .into_boxed_slice(),
        }
    }
}

impl PawnCache {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry {
            variant: u8::MAX,
            ..PawnEntry::default()
        });
    }

    fn get(&mut self, pos: &Position) -> PawnEntry {
        let pawns = pos.kind_bb(PieceKind::Pawn);
        let (white, black) = (
            (pawns & pos.color_bb(Color::White)).0,
            (pawns & pos.color_bb(Color::Black)).0,
        );
        let variant = pos.tables().spec.code;
        let mix = (white ^ black.rotate_left(61)).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
        let slot = &mut self.entries[(mix >> 116) as usize & (PAWN_CACHE_SIZE - 1)];
        if slot.white != white || slot.black != black || slot.variant != variant {
            *slot = pawn_terms(pos);
            slot.white = white;
            slot.black = black;
            slot.variant = variant;
        }
        *slot
    }
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_impl::<false, false>(pos, &mut Trace::default(), 0, 0, None)
}

/// As [`evaluate`], with the pawn terms through `cache`.
#[inline]
pub fn evaluate_cached(pos: &Position, cache: &mut PawnCache) -> i32 {
    evaluate_impl::<false, false>(pos, &mut Trace::default(), 0, 0, Some(cache))
}

/// Static evaluation with its terms.
pub fn trace(pos: &Position) -> Trace {
    let mut tr = Trace::default();
    tr.total = evaluate_impl::<true, false>(pos, &mut tr, 0, 0, None);
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

/// How far the cheap terms (material, placement, pawns) may be from the final score: when they
/// are further than this outside the search window, [`evaluate_lazy`] returns them alone.
pub const LAZY_MARGIN: i32 = 450;

/// Static evaluation for a search window: when the cheap terms alone are far outside
/// `alpha..beta`, mobility and king safety are not computed. Returns the score and whether it
/// is the full evaluation (false: only the cheap terms, good enough to decide a cutoff).
#[inline]
pub fn evaluate_lazy(pos: &Position, alpha: i32, beta: i32, cache: &mut PawnCache) -> (i32, bool) {
    let mut tr = Trace::default();
    let score = evaluate_impl::<false, true>(pos, &mut tr, alpha, beta, Some(cache));
    (score, tr.phase >= 0)
}

/// Placement and structure of the pawns, and their attacks.
fn pawn_terms(pos: &Position) -> PawnEntry {
    let t = pos.tables();
    let et = tables(pos.tables());
    let pawns = pos.kind_bb(PieceKind::Pawn);
    let mut e = PawnEntry::default();
    for c in Color::ALL {
        let s = sign(c);
        let own = pos.color_bb(c);
        let my_pawns = own & pawns;
        let their_pawns = pawns & !own;
        let pawn_table = &et.psq[c.index() * KIND_COUNT + PieceKind::Pawn.index()];
        let mut files_seen = 0u32;
        let mut passed = 0;
        let mut isolated = 0;
        for sq in my_pawns {
            let i = sq.index();
            e.psq += pawn_table[i];
            e.attacks[c.index()] |= t.pawn_attacks[c][i];
            files_seen |= 1 << et.file_of[i];
            if (et.passed_span[c][i] & their_pawns).is_empty() {
                let a = et.advance[c][i].max(0);
                passed += a + a * a / 2;
            }
            if (et.neighbour_files[i] & my_pawns).is_empty() {
                isolated += 1;
            }
        }
        let doubled = my_pawns.count() as i32 - files_seen.count_ones() as i32;
        e.structure +=
            (params::PASSED_PAWN * passed + params::ISOLATED_PAWN * isolated + params::DOUBLED_PAWN * doubled) * s;
    }
    e
}

fn evaluate_impl<const TRACE: bool, const LAZY: bool>(
    pos: &Position,
    tr: &mut Trace,
    alpha: i32,
    beta: i32,
    cache: Option<&mut PawnCache>,
) -> i32 {
    let t = pos.tables();
    let et = tables(pos.tables());
    let pawns = pos.kind_bb(PieceKind::Pawn);
    let kings = pos.kind_bb(PieceKind::King);
    let pawn_entry = match cache {
        Some(cache) => cache.get(pos),
        None => pawn_terms(pos),
    };
    let mut psq = pawn_entry.psq;
    let pawns_term = pawn_entry.structure;
    let mut king_safety = Pair::default();
    let mut bishop_pair = Pair::default();
    let mut phase = 0;

    // Cheap terms: material and placement (one table per piece), pawn structure (cached),
    // bishop pair, pawn shelter.
    let pawn_attacks = ByColor(pawn_entry.attacks);
    let occ = pos.occupied();
    for sq in occ & !pawns {
        let code = pos.code_at(sq);
        psq += et.psq[code][sq.index()];
        phase += et.by_code[code].phase;
    }
    for c in Color::ALL {
        let s = sign(c);
        let own = pos.color_bb(c);
        if pos.pieces(c, PieceKind::Bishop).more_than_one() {
            bishop_pair += params::BISHOP_PAIR * s;
        }
        let my_pawns = own & pawns;
        // The king, or the royal piece a royalty rule names: Citadel's lone Prince-Royal gets
        // a shelter, its two High Princes none (they are not kings). A side may have none.
        let own_kings = royal_pieces(pos, c, kings);
        if own_kings.any() {
            let k = own_kings.lsb();
            let shelter = (t.leaps[PieceKind::King][k.index()] & my_pawns).count() as i32;
            king_safety += params::PAWN_SHIELD * (s * shelter.min(3));
        }
    }
    // Terms of the variant's rules: stuck pawns (promotion by arrival square), rights that
    // custom rules value.
    let mut rule_terms = Pair::default();
    for c in Color::ALL {
        rule_terms += params::STUCK_PAWN * (sign(c) * pos.stuck_pawns(c).count() as i32);
    }
    let (mg, eg) = pos.rule_eval_terms();
    rule_terms += Pair(mg, eg);
    rule_terms += reserve_terms(pos, et);
    let phase = (phase * 256 / et.full_phase).min(256);
    let taper = |p: Pair| (p.0 * phase + p.1 * (256 - phase)) / 256;
    let stm = sign(pos.turn());

    if LAZY {
        let cheap = taper(psq + pawns_term + bishop_pair + king_safety + rule_terms) * stm + params::TEMPO;
        if cheap - LAZY_MARGIN >= beta || cheap + LAZY_MARGIN <= alpha {
            tr.phase = -1;
            return cheap;
        }
    }

    // Mobility and attacks on the enemy king zone.
    let mut mobility = Pair::default();
    for c in Color::ALL {
        let s = sign(c);
        let own = pos.color_bb(c);
        let enemy_kings = royal_pieces(pos, !c, kings);
        let zone = if enemy_kings.any() {
            let k = enemy_kings.lsb();
            t.leaps[PieceKind::King][k.index()] | k.bb()
        } else {
            Bitboard::EMPTY
        };
        let allowed = !own & !pawn_attacks[!c];
        let mut attack_units = 0;
        let mut attackers = 0;
        for sq in own & !pawns & !kings {
            let terms = &et.by_code[pos.code_at(sq)];
            let att = t.attacks(terms.kind, sq, occ);
            mobility += terms.mobility * (att & allowed & !t.forbidden[terms.kind]).count() as i32;
            let hits = (att & zone).count() as i32;
            if hits > 0 {
                attack_units += terms.king_attack * hits.min(3);
                attackers += 1;
            }
        }
        if attackers >= 2 {
            let danger = params::KING_DANGER[(attack_units as usize).min(params::KING_DANGER.len() - 1)];
            king_safety += Pair(danger * s, danger * s / 4);
        }
    }

    let total = psq + mobility + pawns_term + king_safety + bishop_pair + rule_terms;
    let score = taper(total) * stm + params::TEMPO;
    if TRACE {
        let mut material = Pair::default();
        for c in Color::ALL {
            for kind in PieceKind::EVERY {
                material += et.material[kind.index()] * (sign(c) * pos.pieces(c, kind).count() as i32);
            }
        }
        tr.material = material;
        tr.placement = psq - material;
        tr.pawns = pawns_term;
        tr.mobility = mobility;
        tr.king_safety = king_safety;
        tr.bishop_pair = bishop_pair;
        tr.rules = rule_terms;
        tr.phase = phase;
    }
    score
}

/// Where one side has nothing left but its royal pieces (no pawn, no other piece) and the other
/// still has a piece besides pawns and royals, the attacker's gain for driving the lone king to
/// the board's edge and bringing its own king and pieces near it, from the side to move's view;
/// else 0.
///
/// Neither evaluation knows these endings well: a net learns from search scores that are all
/// "won" there and say nothing of how, and the hand-crafted placement tables favour the centre
/// for every king alike. Without the drive, matches at a few thousand nodes ended such endings
/// (K + two Shieldsmen + a Horseman against K, say) by the 50-move rule or the ply limit. Added
/// on top of either evaluation by the search. Parsi's bare king is a draw by rule, so a
/// position with one never reaches the evaluation there.
pub fn lone_king_drive(pos: &Position) -> i32 {
    let kings = pos.kind_bb(PieceKind::King);
    let white_only_kings = !(pos.color_bb(Color::White) & !kings).any();
    let black_only_kings = !(pos.color_bb(Color::Black) & !kings).any();
    // The common case, both sides with material beside their kings, leaves at once.
    if white_only_kings == black_only_kings {
        return 0;
    }
    let lone = if white_only_kings { Color::White } else { Color::Black };
    let strong = !lone;
    let lone_royals = royal_pieces(pos, lone, kings);
    let strong_royals = royal_pieces(pos, strong, kings);
    let helpers = pos.color_bb(strong) & !strong_royals & !pos.kind_bb(PieceKind::Pawn);
    if !lone_royals.any() || !helpers.any() {
        return 0;
    }
    let g = &pos.tables().geometry;
    let k = lone_royals.lsb();
    let (w, h) = (g.width as i32, g.height as i32);
    let from_centre = (2 * g.file(k) - (w - 1)).abs().max((2 * g.rank(k) - (h - 1)).abs());
    let mut gain = params::DRIVE_EDGE * from_centre;
    let near = |sq: Square| (w.max(h) - (g.file(sq) - g.file(k)).abs().max((g.rank(sq) - g.rank(k)).abs())).max(0);
    if strong_royals.any() {
        gain += params::DRIVE_NEAR * near(strong_royals.lsb());
    }
    for sq in helpers {
        gain += params::DRIVE_HELPER * near(sq);
    }
    if pos.turn() == strong {
        gain
    } else {
        -gain
    }
}

/// The royal pieces of `color`: its king (one of `kings`), or what the variant's royalty rule says.
#[inline]
fn royal_pieces(pos: &Position, color: Color, kings: Bitboard) -> Bitboard {
    if pos.tables().rules.royals_are_kings() {
        pos.color_bb(color) & kings
    } else {
        pos.royals(color)
    }
}

/// Pieces a side may still bring onto the board (Citadel's prisoners; White's view): each is a
/// piece to come, worth a little; a pawn one move from its arrival square (a step or a capture
/// away) brings it near, worth a third of the piece.
fn reserve_terms(pos: &Position, et: &EvalTables) -> Pair {
    let mut terms = Pair::default();
    for c in Color::ALL {
        let s = sign(c);
        let my_pawns = pos.pieces(c, PieceKind::Pawn);
        for r in pos.reserves(c) {
            terms += params::PRISONER_HELD * s;
            if (r.approach & my_pawns).any() {
                let m = et.material[r.kind.index()];
                terms += Pair(m.0 / 3, m.1 / 3) * s;
            }
        }
    }
    terms
}

/// Whether the side has material besides pawns and king (for null-move pruning).
pub fn has_non_pawn_material(pos: &Position, c: Color) -> bool {
    (pos.color_bb(c) & !pos.kind_bb(PieceKind::Pawn) & !pos.kind_bb(PieceKind::King)).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::ALL {
            let pos = Position::startpos(v);
            // Citadel's armies differ by design (White's Plains-General and White Tiger-Rider
            // against Blue's Plains-Marshall and Blue Tiger-Rider): only armies alike balance.
            let army = |c| {
                let mut kinds: Vec<_> = pos
                    .color_bb(c)
                    .iter()
                    .filter_map(|sq| pos.piece_at(sq))
                    .map(|p| p.kind)
                    .collect();
                kinds.sort();
                kinds
            };
            if army(Color::White) != army(Color::Black) {
                continue;
            }
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

    #[test]
    fn parsi_rule_terms() {
        let v = Variant::Parsi;
        // b7 may promote on none of a8, b8, c8 while White has all its pieces: stuck.
        let stuck = Position::from_fen(v, "rnbk4/1P6/8/8/8/8/P2P3P/RNBQKBNR w ADEH Ll 0 1").unwrap();
        assert_eq!(trace(&stuck).rules, params::STUCK_PAWN);
        // With the b1 knight lost, b8 opens: not stuck.
        let free = Position::from_fen(v, "rnbk4/1P6/8/8/8/8/P2P3P/R1BQKBNR w ADEH Ll 0 1").unwrap();
        assert_eq!(trace(&free).rules, Pair(0, 0));
        // Only White keeps the king's leap.
        let leap = Position::from_fen(v, "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh L 0 1").unwrap();
        assert!(trace(&leap).rules.0 > 0 && trace(&leap).rules.1 == 0);
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
                "f9f/1r2k4r1/1pp3pppp1/3n7/4pp5/11/4P1N4/11/1PPP2PPPP1/1R2K3SR1/F9F w - - 0 1",
            ),
            (
                Variant::EgyptianEye,
                "11/5k1r3/2p5p2/1pQ6p1/7p3/6p4/3r2P1N2/2Q4NPP1/7P1K1/9q1/11 w - - 0 1",
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

    #[test]
    fn citadel_terms_follow_its_rules() {
        let v = Variant::Citadel8;
        let at = |fen: &str| trace(&Position::from_fen(v, fen).unwrap());
        // The Citadel's own piece values: White's Plains-General and White Tiger-Rider against
        // Blue's Plains-Marshall and Blue Tiger-Rider.
        let start = trace(&Position::startpos(v));
        assert_eq!(start.material, Pair(780 + 800 - 860 - 820, 820 + 880 - 920 - 900));
        // A lone Prince-Royal gets its pawn shelter; two High Princes are not kings and get none.
        let royal = at("4k4/9/9/9/9/9/3PPP3/4K4 w - - Qyq 0 1");
        let high = at("4k4/9/9/9/9/9/3PPP3/Y3K4 w - - Qyq 0 1");
        assert_eq!(royal.king_safety.0 - high.king_safety.0, 3 * params::PAWN_SHIELD.0);
        // Prisoners still held count, and a plainsman one step from a release square more.
        let none = at("4k4/9/9/9/9/9/9/4K4 w - - yq 0 1");
        let held = at("4k4/9/9/9/9/9/9/4K4 w - - YQyq 0 1");
        assert_eq!(held.rules - none.rules, params::PRISONER_HELD * 2);
        let far = at("k8/9/9/9/9/9/3P5/4K4 w - - Qyq 0 1");
        let near = at("k8/3P5/9/9/9/9/9/4K4 w - - Qyq 0 1");
        let q = params::material(PieceKind::Queen);
        assert_eq!(near.rules - far.rules, Pair(q.0 / 3, q.1 / 3));
    }

    #[test]
    fn lone_king_drive_pushes_to_the_edge_and_brings_the_attackers_near() {
        let drive = |v: Variant, fen: &str| lone_king_drive(&Position::from_fen(v, fen).unwrap());
        let c9 = Variant::Citadel9;
        // Material on both sides (pawns count): no drive.
        assert_eq!(drive(c9, "9/9/9/4k4/9/4p4/9/9/1S2K4 w - - YQyq 0 1"), 0);
        // A lone king against pawns only: no drive (pushing the pawns is the plan).
        assert_eq!(drive(c9, "9/9/9/4k4/9/9/4P4/9/4K4 w - - YQyq 0 1"), 0);
        // White to move drives; Black to move sees the same amount against it.
        let centre = drive(c9, "9/9/9/9/4k4/9/9/9/1S2K4 w - - YQyq 0 1");
        assert!(centre > 0, "{centre}");
        assert_eq!(drive(c9, "9/9/9/9/4k4/9/9/9/1S2K4 b - - YQyq 0 1"), -centre);
        // The lone king on the edge, with the same distances to the attackers: more for White.
        let edge = drive(c9, "9/9/9/9/k8/9/9/9/1S2K4 w - - YQyq 0 1");
        assert!(edge > centre, "edge {edge}, centre {centre}");
        // The attacking king nearer: more.
        let near = drive(c9, "9/9/9/9/k8/9/2K6/9/1S7 w - - YQyq 0 1");
        assert!(near > edge, "near {near}, edge {edge}");
        // Colour symmetric.
        for (v, fen, mirrored) in [
            (
                c9,
                "9/9/9/9/k8/9/2K6/9/1S7 w - - YQyq 0 1",
                "1s7/9/2k6/9/K8/9/9/9/9 b - - YQyq 0 1",
            ),
            (
                Variant::PersianPrincess,
                "11/11/11/4k6/11/11/11/11/2N8/1R3K5/11 b - - 0 1",
                &mirror("11/11/11/4k6/11/11/11/11/2N8/1R3K5/11 b - - 0 1"),
            ),
        ] {
            let a = drive(v, fen);
            let b = drive(v, mirrored);
            assert_ne!(a, 0, "{v}: {fen}");
            assert_eq!(a, b, "{v}: {fen}");
        }
    }
}
