//! Deterministic randomness and helpers shared by the property tests.
#![allow(clippy::wildcard_imports)]

use super::*;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------

/// The workspace's SplitMix64 with the helpers these tests use (`below` by modulo, as the
/// random games of these tests were first drawn).
pub(crate) struct Rng(SplitMix64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(
            seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x9E37_79B9_7F4A_7C15,
        ))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub(crate) fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    pub(crate) fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

pub(crate) fn has_rule(v: Variant, f: fn(&Rule) -> bool) -> bool {
    v.spec().rules.iter().any(f)
}

pub(crate) fn has_rendezvous(v: Variant) -> bool {
    has_rule(v, |r| matches!(r, Rule::Rendezvous(_)))
}

pub(crate) fn has_citadel_draw(v: Variant) -> bool {
    has_rule(v, |r| matches!(r, Rule::CitadelDraw(_)))
}

pub(crate) fn has_eye(v: Variant) -> bool {
    has_rule(v, |r| matches!(r, Rule::AllSeeingEye(_)))
}

pub(crate) fn square(v: Variant, name: &str) -> Square {
    v.spec()
        .geometry
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is a square name"))
}

pub(crate) fn name(v: Variant, s: Square) -> String {
    v.spec().geometry.square_name(s)
}

pub(crate) fn file_rank(v: Variant, s: Square) -> (i32, i32) {
    let g = v.spec().geometry;
    (g.file(s), g.rank(s))
}

/// Whether `s` is a corner square that exists (the citadels of Persian Chess).
pub(crate) fn is_citadel(v: Variant, s: Square) -> bool {
    let g = v.spec().geometry;
    let (f, r) = file_rank(v, s);
    Variant::PERSIAN.contains(&v)
        && (f == 0 || f == g.width as i32 - 1)
        && (r == 0 || r == g.height as i32 - 1)
        && g.is_playable(s)
}

/// Chebyshev distance to the nearest corner of the grid.
pub(crate) fn corner_distance(v: Variant, s: Square) -> i32 {
    let g = v.spec().geometry;
    let (f, r) = file_rank(v, s);
    let df = f.min(g.width as i32 - 1 - f);
    let dr = r.min(g.height as i32 - 1 - r);
    df.max(dr)
}

/// A pawn's rank counted from its own side (0 = its first rank).
pub(crate) fn relative_rank(v: Variant, s: Square, color: Color) -> i32 {
    let g = v.spec().geometry;
    let r = g.rank(s);
    match color {
        Color::White => r,
        Color::Black => g.height as i32 - 1 - r,
    }
}

/// Whether a legal move captures (an enemy piece on the destination, or en passant).
pub(crate) fn is_capture(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || (m.kind() != MoveKind::Rendezvous
            && m.kind() != MoveKind::Castle
            && pos.piece_at(m.to()).is_some_and(|p| p.color != pos.turn()))
}

pub(crate) fn moved_kind(pos: &Position, m: Move) -> Option<PieceKind> {
    pos.piece_at(m.from()).map(|p| p.kind)
}

/// The board part of a FEN (multi-digit convention) with the given pieces.
pub(crate) fn board_fen(v: Variant, pieces: &[(Square, char)]) -> String {
    let g = v.spec().geometry;
    let (w, h) = (g.width as usize, g.height as usize);
    let mut cells = vec![None; w * h];
    for &(s, c) in pieces {
        cells[s.index()] = Some(c);
    }
    let mut out = String::new();
    for rank in (0..h).rev() {
        let mut empty = 0;
        for cell in &cells[rank * w..(rank + 1) * w] {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// A FEN from named squares, e.g. `fen(v, &[("f2", 'K'), ("f10", 'k')], "w - - 0 1")`.
pub(crate) fn fen(v: Variant, pieces: &[(&str, char)], rest: &str) -> String {
    let list: Vec<(Square, char)> = pieces.iter().map(|&(n, c)| (square(v, n), c)).collect();
    format!("{} {rest}", board_fen(v, &list))
}

pub(crate) fn ucis(pos: &Position, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|&m| pos.uci(m)).collect()
}

pub(crate) fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| m.raw());
    moves
}

/// Panics with the FEN and the differing moves when two move sets differ.
pub(crate) fn assert_same_moves(pos: &Position, what: &str, got: &[Move], expected: &[Move]) {
    if got != expected {
        let missing: Vec<Move> = expected.iter().copied().filter(|m| !got.contains(m)).collect();
        let extra: Vec<Move> = got.iter().copied().filter(|m| !expected.contains(m)).collect();
        panic!(
            "{what} differ in {} position {}\n  missing: {:?}\n  extra:   {:?}\n  (got {} moves, expected {})",
            pos.variant(),
            pos.fen(),
            ucis(pos, &missing),
            ucis(pos, &extra),
            got.len(),
            expected.len()
        );
    }
}

/// The FEN fields that make a position the same for repetition (pieces, side, castling,
/// en passant, rendezvous rights): everything but the two clocks.
pub(crate) fn repetition_key(pos: &Position) -> String {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    // Everything but the clocks (which follow Citadel's prisoner field there).
    let clocks = 4 + usize::from(pos.tables().fifth_field_letters());
    let mut key: Vec<&str> = fields[..clocks].to_vec();
    key.extend(fields.iter().skip(clocks + 2));
    key.join(" ")
}
