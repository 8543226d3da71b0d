//! Zobrist keys, generated at compile time from a fixed seed (the same in every build).

use super::{
    geometry::Square,
    piece::{Color, PieceKind, KIND_COUNT, NAMED_KINDS},
};
use crate::rng::splitmix64 as splitmix;

/// The keys.
pub struct Zobrist {
    pieces: [[[u64; 128]; KIND_COUNT]; 2],
    /// Key of Black to move.
    pub black_to_move: u64,
    /// Per bit of the rights word (see [`super::tables::RIGHTS_BITS`]).
    rights: [u64; 32],
    en_passant: [u64; 16],
}

/// Draws the piece keys of kinds `first..end`, both colours, White's first, square by square.
const fn fill_pieces(pieces: &mut [[[u64; 128]; KIND_COUNT]; 2], s: &mut u64, first: usize, end: usize) {
    let mut c = 0;
    while c < 2 {
        let mut k = first;
        while k < end {
            let mut sq = 0;
            while sq < 128 {
                pieces[c][k][sq] = splitmix(s);
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
}

const fn build() -> Zobrist {
    let mut s = 0x5045_5253_4941_4e21u64;
    let mut z = Zobrist {
        pieces: [[[0; 128]; KIND_COUNT]; 2],
        black_to_move: 0,
        rights: [0; 32],
        en_passant: [0; 16],
    };
    fill_pieces(&mut z.pieces, &mut s, 0, NAMED_KINDS);
    z.black_to_move = splitmix(&mut s);
    // The keys come in the order in which they were first defined (castling rights, en-passant
    // files, the two rendezvous rights, then the other rights bits), so that positions hash as
    // they always did.
    let mut i = 0;
    while i < 8 {
        z.rights[i] = splitmix(&mut s);
        i += 1;
    }
    let mut i = 0;
    while i < 16 {
        z.en_passant[i] = splitmix(&mut s);
        i += 1;
    }
    let mut i = 8;
    while i < 32 {
        z.rights[i] = splitmix(&mut s);
        i += 1;
    }
    // Kinds without a built-in name came last, so the named kinds' keys stay as they were.
    fill_pieces(&mut z.pieces, &mut s, NAMED_KINDS, KIND_COUNT);
    z
}

/// The one set of keys.
pub static ZOBRIST: Zobrist = build();

impl Zobrist {
    /// Key of a piece on a square.
    #[inline(always)]
    pub fn piece(&self, color: Color, kind: PieceKind, sq: Square) -> u64 {
        self.pieces[color.index()][kind.index()][sq.index()]
    }

    /// Key of a set of rights bits (the XOR of the keys of its bits).
    #[inline(always)]
    pub fn rights(&self, rights: u32) -> u64 {
        let mut key = 0;
        let mut r = rights;
        while r != 0 {
            key ^= self.rights[r.trailing_zeros() as usize];
            r &= r - 1;
        }
        key
    }

    /// Key of an en-passant file.
    #[inline(always)]
    pub fn en_passant(&self, file: i32) -> u64 {
        self.en_passant[file as usize & 15]
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{Position, Variant};

    /// The hashes of the start positions, pinned: keys must not move when the rights word or the
    /// piece set grows (repetition tables, books and search all depend on them).
    #[test]
    fn start_position_hashes_are_stable() {
        let expected = [
            ("celtic-citadel", 0xeaa4_4ec1_f131_b866),
            ("persian-princess", 0xecb4_2c90_ed1c_9fc9),
            ("egyptian-eye", 0xecb4_2c90_ed1c_9fc9),
            ("oriental-omega", 0xa7a7_ca42_7a1f_7e37),
            ("chess", 0x3d71_e37f_5aad_03d0u64),
        ];
        for (id, hash) in expected {
            let v: Variant = id.parse().expect("a known id");
            let p = Position::startpos(v);
            assert_eq!(p.hash(), hash, "{id}");
            assert_eq!(p.compute_hash(), hash, "{id}");
        }
    }

    #[test]
    fn rules_get_their_rights_bits_above_castling() {
        for v in Variant::ALL {
            let t = v.tables();
            match t.rules.rendezvous {
                Some(r) => {
                    assert_eq!(r.right_shift, super::super::tables::FIRST_RULE_RIGHT, "{v}");
                    let p = Position::startpos(v);
                    assert_eq!(
                        p.rights() >> r.right_shift & 3,
                        3,
                        "{v}: both rendezvous rights at the start"
                    );
                    assert_eq!(u32::from(p.castling_rights()), p.rights() & 0xff, "{v}");
                }
                None => {
                    // Only the rights the rules write as letters (Parsi's unmoved flags and
                    // leaps), all held at the start.
                    let letters = t.rules.letter_rights.iter().fold(0u32, |acc, r| acc | 1 << r.bit);
                    assert_eq!(letters & 0xff, 0, "{v}: letter rights above castling");
                    assert_eq!(Position::startpos(v).rights() >> 8 << 8, letters, "{v}");
                }
            }
        }
    }
}
