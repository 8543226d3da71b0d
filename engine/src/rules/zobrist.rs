//! Zobrist keys, generated at compile time from a fixed seed (the same in every build).

use super::{
    geometry::Square,
    piece::{Color, PieceKind, KIND_COUNT},
};
use crate::rng::splitmix64 as splitmix;

/// The keys.
pub struct Zobrist {
    pieces: [[[u64; 128]; KIND_COUNT]; 2],
    /// Key of Black to move.
    pub black_to_move: u64,
    castling: [u64; 8],
    en_passant: [u64; 16],
    rendezvous: [u64; 2],
}

const fn build() -> Zobrist {
    let mut s = 0x5045_5253_4941_4e21u64;
    let mut z = Zobrist {
        pieces: [[[0; 128]; KIND_COUNT]; 2],
        black_to_move: 0,
        castling: [0; 8],
        en_passant: [0; 16],
        rendezvous: [0; 2],
    };
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < KIND_COUNT {
            let mut sq = 0;
            while sq < 128 {
                z.pieces[c][k][sq] = splitmix(&mut s);
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    z.black_to_move = splitmix(&mut s);
    let mut i = 0;
    while i < 8 {
        z.castling[i] = splitmix(&mut s);
        i += 1;
    }
    let mut i = 0;
    while i < 16 {
        z.en_passant[i] = splitmix(&mut s);
        i += 1;
    }
    z.rendezvous[0] = splitmix(&mut s);
    z.rendezvous[1] = splitmix(&mut s);
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

    /// Key of a set of castling rights (bit i = castling move i).
    #[inline(always)]
    pub fn castling(&self, rights: u8) -> u64 {
        let mut key = 0;
        let mut r = rights;
        while r != 0 {
            key ^= self.castling[r.trailing_zeros() as usize];
            r &= r - 1;
        }
        key
    }

    /// Key of an en-passant file.
    #[inline(always)]
    pub fn en_passant(&self, file: i32) -> u64 {
        self.en_passant[file as usize & 15]
    }

    /// Key of a set of rendezvous rights (bit 0 White, bit 1 Black).
    #[inline(always)]
    pub fn rendezvous(&self, rights: u8) -> u64 {
        (if rights & 1 != 0 { self.rendezvous[0] } else { 0 }) ^ (if rights & 2 != 0 { self.rendezvous[1] } else { 0 })
    }
}
