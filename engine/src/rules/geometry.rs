//! Board geometry: any rectangular grid of at most 128 cells, some of which may be holes.
//!
//! Cells are numbered `rank * width + file`, files and ranks counted from 0 at White's lower left.
//! This module is the only place that converts between cell numbers and (file, rank) pairs or
//! square names such as `e10`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A cell of the grid. The number is `rank * width + file` for the geometry in use.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Square(pub u8);

impl Square {
    /// The cell number as an index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The one-cell bitboard of this square.
    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u128 << self.0)
    }
}

/// A set of cells as a 128-bit mask (bit `i` is cell `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// True when no cell is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one cell is set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of cells set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.0) & 1 != 0
    }

    /// The lowest cell in the set; the set must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any(), "lsb of an empty bitboard");
        Square(self.0.trailing_zeros() as u8)
    }

    /// The highest cell in the set; the set must not be empty.
    #[inline(always)]
    pub fn msb(self) -> Square {
        debug_assert!(self.any(), "msb of an empty bitboard");
        Square(127 - self.0.leading_zeros() as u8)
    }

    /// Whether more than one cell is set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Iterates the cells from the lowest.
    #[inline(always)]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterator over the cells of a [`Bitboard`].
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(sq))
        }
    }
}

macro_rules! bb_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bb_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bb_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bb_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

/// The shape of a board: width, height and which cells exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of files (columns), at most 16.
    pub width: u8,
    /// Number of ranks (rows), at most 16.
    pub height: u8,
    /// The cells that exist; every other cell of the grid is a hole.
    pub playable: Bitboard,
}

/// Letters of the files, from the left.
const FILE_LETTERS: &[u8; 16] = b"abcdefghijklmnop";

impl Geometry {
    /// A full rectangle without holes.
    pub const fn rectangle(width: u8, height: u8) -> Geometry {
        assert!((width as u32) * (height as u32) <= 128, "a board has at most 128 cells");
        assert!(width <= 16 && height <= 16);
        let cells = width as u32 * height as u32;
        let playable = if cells == 128 { u128::MAX } else { (1u128 << cells) - 1 };
        Geometry {
            width,
            height,
            playable: Bitboard(playable),
        }
    }

    /// Number of grid cells (holes included).
    #[inline(always)]
    pub const fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The square at `file`, `rank` (counted from 0), if it is on the grid.
    #[inline(always)]
    pub const fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.width as i32 || rank >= self.height as i32 {
            None
        } else {
            Some(Square((rank * self.width as i32 + file) as u8))
        }
    }

    /// The playable square at `file`, `rank`, if it exists (not off the grid, not a hole).
    #[inline(always)]
    pub const fn playable_square(&self, file: i32, rank: i32) -> Option<Square> {
        match self.square(file, rank) {
            Some(sq) if self.playable.has(sq) => Some(sq),
            _ => None,
        }
    }

    /// File of a square, counted from 0.
    #[inline(always)]
    pub const fn file(&self, sq: Square) -> i32 {
        sq.0 as i32 % self.width as i32
    }

    /// Rank of a square, counted from 0.
    #[inline(always)]
    pub const fn rank(&self, sq: Square) -> i32 {
        sq.0 as i32 / self.width as i32
    }

    /// Whether the square exists on this board.
    #[inline(always)]
    pub const fn is_playable(&self, sq: Square) -> bool {
        (sq.0 as usize) < self.cells() && self.playable.has(sq)
    }

    /// The square reached from `sq` by the vector `(df, dr)`, if it exists on the board.
    #[inline]
    pub const fn offset(&self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        self.playable_square(self.file(sq) + df, self.rank(sq) + dr)
    }

    /// All cells of one rank (holes included).
    pub fn rank_mask(&self, rank: i32) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for f in 0..self.width as i32 {
            if let Some(sq) = self.square(f, rank) {
                bb |= sq.bb();
            }
        }
        bb
    }

    /// All cells of one file (holes included).
    pub fn file_mask(&self, file: i32) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for r in 0..self.height as i32 {
            if let Some(sq) = self.square(file, r) {
                bb |= sq.bb();
            }
        }
        bb
    }

    /// Whether a square is dark, as on a chessboard: a1 is dark.
    pub const fn is_dark(&self, sq: Square) -> bool {
        (self.file(sq) + self.rank(sq)) % 2 == 0
    }

    /// Writes the name of a square, e.g. `e10`.
    pub fn square_name(&self, sq: Square) -> String {
        let f = self.file(sq) as usize;
        format!("{}{}", FILE_LETTERS[f] as char, self.rank(sq) + 1)
    }

    /// Reads a square name such as `e10`; the square must be on the grid (it may be a hole).
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return None;
        }
        let file = FILE_LETTERS.iter().position(|&c| c == bytes[0])? as i32;
        let digits = &text[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        let rank: i32 = digits.parse().ok()?;
        self.square(file, rank - 1)
    }

    /// Reads a square name at the start of `text`, returning the square and the number of bytes read.
    /// Ranks of two digits are taken when the grid has such a rank.
    pub fn parse_square_prefix(&self, text: &[u8]) -> Option<(Square, usize)> {
        let file = FILE_LETTERS.iter().position(|&c| Some(&c) == text.first())? as i32;
        let d1 = *text.get(1)?;
        if !d1.is_ascii_digit() || d1 == b'0' {
            return None;
        }
        let mut rank = (d1 - b'0') as i32;
        let mut len = 2;
        if let Some(&d2) = text.get(2) {
            if d2.is_ascii_digit() && rank * 10 + (d2 - b'0') as i32 <= self.height as i32 {
                rank = rank * 10 + (d2 - b'0') as i32;
                len = 3;
            }
        }
        self.square(file, rank - 1).map(|sq| (sq, len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let g = Geometry::rectangle(11, 11);
        for i in 0..121u8 {
            let sq = Square(i);
            assert_eq!(g.parse_square(&g.square_name(sq)), Some(sq));
        }
        assert_eq!(g.parse_square("k11"), Some(Square(120)));
        assert_eq!(g.parse_square("l1"), None);
        assert_eq!(g.parse_square("a12"), None);
        assert_eq!(g.parse_square("a0"), None);
        assert_eq!(g.parse_square("a01"), None);
    }

    #[test]
    fn prefix_takes_two_digit_ranks() {
        let g = Geometry::rectangle(11, 11);
        assert_eq!(
            g.parse_square_prefix(b"e10q"),
            Some((g.parse_square("e10").unwrap(), 3))
        );
        assert_eq!(g.parse_square_prefix(b"e1e2"), Some((g.parse_square("e1").unwrap(), 2)));
        let chess = Geometry::rectangle(8, 8);
        assert_eq!(chess.parse_square_prefix(b"e1"), Some((Square(4), 2)));
        assert_eq!(chess.parse_square_prefix(b"e12"), Some((Square(4), 2)));
    }

    #[test]
    fn bitboard_basics() {
        let b = Square(3).bb() | Square(127).bb();
        assert_eq!(b.count(), 2);
        assert_eq!(b.lsb(), Square(3));
        assert_eq!(b.msb(), Square(127));
        assert!(b.more_than_one());
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![Square(3), Square(127)]);
    }
}
