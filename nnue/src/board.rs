//! The neutral board view the crate works on: a [`Layout`] (grid size, playable cells, number of
//! piece types), a [`Color`] and a [`PlacedPiece`].
//!
//! Cells are numbered `rank * width + file` on a grid of at most 128 cells. Only playable cells
//! carry features and training data; they are numbered `0..N` in ascending cell order (the
//! *playable index*). The playable set must be symmetric under the vertical mirror (rank flip),
//! because the Black perspective sees the board mirrored.

use thiserror::Error;

/// Most cells a grid may have (cells are numbered `0..128`, one bit each in a `u128`).
pub const MAX_CELLS: usize = 128;

/// Most piece types a layout may have (the training record stores a type in 4 bits).
pub const MAX_PIECE_TYPES: usize = 16;

/// Marks a cell that is not playable in the per-cell tables.
const NOT_PLAYABLE: u8 = u8::MAX;

/// A side. White is 0 and Black is 1 everywhere in this crate (feature indices, files, records).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player (code 0).
    #[default]
    White = 0,
    /// The second player (code 1).
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The colour's code: 0 for White, 1 for Black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour for a code: 0 is White, 1 is Black, anything else is `None`.
    #[must_use]
    pub const fn from_index(code: u8) -> Option<Color> {
        match code {
            0 => Some(Color::White),
            1 => Some(Color::Black),
            _ => None,
        }
    }

    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A piece on a cell: its colour, its type (`0..P`, the meaning of each type is the caller's)
/// and its grid cell (`rank * width + file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlacedPiece {
    /// The piece's colour.
    pub color: Color,
    /// The piece type, `0..P` where `P` is [`Layout::piece_types`].
    pub kind: u8,
    /// The grid cell the piece stands on; it must be playable.
    pub cell: u8,
}

impl PlacedPiece {
    /// A piece of `color` and type `kind` on grid cell `cell`.
    #[must_use]
    pub const fn new(color: Color, kind: u8, cell: u8) -> Self {
        PlacedPiece { color, kind, cell }
    }
}

/// Why a [`Layout`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LayoutError {
    /// Width or height is zero, or the grid has more than [`MAX_CELLS`] cells.
    #[error(
        "grid {width}x{height} is not allowed: each side must be at least 1 and the grid at most {MAX_CELLS} cells"
    )]
    GridSize {
        /// The width given.
        width: u8,
        /// The height given.
        height: u8,
    },
    /// The playable mask has a bit at or beyond `width * height`.
    #[error("playable mask has cell {cell} set, beyond the {cells}-cell grid")]
    MaskBeyondGrid {
        /// The lowest offending cell.
        cell: u32,
        /// The number of grid cells.
        cells: usize,
    },
    /// No cell is playable.
    #[error("playable mask is empty")]
    EmptyMask,
    /// The number of piece types is 0 or above [`MAX_PIECE_TYPES`].
    #[error("{0} piece types given, expected 1..={MAX_PIECE_TYPES}")]
    PieceTypes(u8),
    /// A playable cell's rank mirror is not playable.
    #[error("playable set is not symmetric under the rank flip: cell {cell} is playable, its mirror {mirror} is not")]
    Asymmetric {
        /// The playable cell.
        cell: u8,
        /// Its mirror cell, which is not playable.
        mirror: u8,
    },
}

/// Grid geometry and piece count of a variant, with the tables derived from them.
///
/// ```
/// use nnue::{Color, Layout};
///
/// // A full 8x8 board with 6 piece types.
/// let layout = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
/// assert_eq!(layout.num_playable(), 64);
/// assert_eq!(layout.mirror_cell(0), Some(56)); // a1 <-> a8
/// assert_eq!(layout.relative_index(Color::Black, 0), Some(56));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    width: u8,
    height: u8,
    playable: u128,
    piece_types: u8,
    /// Playable index -> grid cell.
    cells: Vec<u8>,
    /// Per perspective, grid cell -> playable index of the cell as that perspective sees it
    /// (the cell itself for White, its rank mirror for Black); `NOT_PLAYABLE` for holes.
    relative: [[u8; MAX_CELLS]; 2],
}

impl Layout {
    /// Builds a layout from the grid size, the playable-cell mask (bit `c` = cell `c`) and the
    /// number of piece types `P`.
    ///
    /// # Errors
    /// See [`LayoutError`]: bad grid size, mask bits outside the grid, empty mask, `P` outside
    /// `1..=16`, or a playable set that is not symmetric under the rank flip.
    pub fn new(width: u8, height: u8, playable: u128, piece_types: u8) -> Result<Self, LayoutError> {
        let cells_total = usize::from(width) * usize::from(height);
        if width == 0 || height == 0 || cells_total > MAX_CELLS {
            return Err(LayoutError::GridSize { width, height });
        }
        if cells_total < MAX_CELLS && playable >> cells_total != 0 {
            let cell = (playable >> cells_total).trailing_zeros() + cells_total as u32;
            return Err(LayoutError::MaskBeyondGrid {
                cell,
                cells: cells_total,
            });
        }
        if playable == 0 {
            return Err(LayoutError::EmptyMask);
        }
        if piece_types == 0 || usize::from(piece_types) > MAX_PIECE_TYPES {
            return Err(LayoutError::PieceTypes(piece_types));
        }
        let mirror = |cell: u8| -> u8 {
            let (rank, file) = (cell / width, cell % width);
            (height - 1 - rank) * width + file
        };
        let cells: Vec<u8> = (0..cells_total as u8).filter(|&c| playable >> c & 1 == 1).collect();
        let mut relative = [[NOT_PLAYABLE; MAX_CELLS]; 2];
        for (index, &cell) in cells.iter().enumerate() {
            relative[Color::White.index()][usize::from(cell)] = index as u8;
        }
        for &cell in &cells {
            let mirrored = mirror(cell);
            let index = relative[Color::White.index()][usize::from(mirrored)];
            if index == NOT_PLAYABLE {
                return Err(LayoutError::Asymmetric { cell, mirror: mirrored });
            }
            relative[Color::Black.index()][usize::from(cell)] = index;
        }
        Ok(Layout {
            width,
            height,
            playable,
            piece_types,
            cells,
            relative,
        })
    }

    /// Grid width (files).
    #[must_use]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Grid height (ranks).
    #[must_use]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The playable-cell mask (bit `c` = grid cell `c`).
    #[must_use]
    pub fn playable_mask(&self) -> u128 {
        self.playable
    }

    /// Number of piece types `P`.
    #[must_use]
    pub fn piece_types(&self) -> usize {
        usize::from(self.piece_types)
    }

    /// Number of playable cells `N`.
    #[must_use]
    pub fn num_playable(&self) -> usize {
        self.cells.len()
    }

    /// The playable cells in ascending order: element `i` is the grid cell of playable index `i`.
    #[must_use]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Whether grid cell `cell` is playable.
    #[must_use]
    pub fn is_playable(&self, cell: u8) -> bool {
        usize::from(cell) < MAX_CELLS && self.playable >> cell & 1 == 1
    }

    /// The playable index of grid cell `cell`, or `None` for a hole or a cell outside the grid.
    #[must_use]
    pub fn playable_index(&self, cell: u8) -> Option<usize> {
        self.relative_index(Color::White, cell)
    }

    /// The playable index of `cell` as perspective `persp` sees it: the cell itself for White,
    /// its rank mirror for Black. `None` for a cell that is not playable.
    #[must_use]
    pub fn relative_index(&self, persp: Color, cell: u8) -> Option<usize> {
        match self.relative[persp.index()].get(usize::from(cell)) {
            Some(&index) if index != NOT_PLAYABLE => Some(usize::from(index)),
            _ => None,
        }
    }

    /// The same as [`Layout::relative_index`] for a cell known to be playable (hot path).
    /// A cell that is not playable gives an index `>= N` (a debug build panics).
    #[inline]
    #[must_use]
    pub(crate) fn relative_index_unchecked(&self, persp: Color, cell: u8) -> usize {
        let index = self.relative[persp.index()][usize::from(cell) % MAX_CELLS];
        debug_assert!(index != NOT_PLAYABLE, "cell {cell} is not playable");
        usize::from(index)
    }

    /// The rank mirror of grid cell `cell` (same file, rank `height - 1 - rank`), or `None` for a
    /// cell that is not playable.
    #[must_use]
    pub fn mirror_cell(&self, cell: u8) -> Option<u8> {
        self.relative_index(Color::Black, cell).map(|index| self.cells[index])
    }

    /// Whether `piece` has a type below `P` and stands on a playable cell.
    #[must_use]
    pub fn contains(&self, piece: PlacedPiece) -> bool {
        piece.kind < self.piece_types && self.is_playable(piece.cell)
    }

    /// A stable 64-bit hash of the layout for net headers: FNV-1a 64 over the bytes
    /// `width (u8), height (u8), playable mask (u128 LE, 16 bytes), P (u8)`.
    #[must_use]
    pub fn layout_hash(&self) -> u64 {
        let mut hash = crate::hash::Fnv64::new();
        hash.write(&[self.width, self.height]);
        hash.write(&self.playable.to_le_bytes());
        hash.write(&[self.piece_types]);
        hash.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn persian() -> Layout {
        let mut mask = 0u128;
        for rank in 1..10 {
            for file in 1..10 {
                mask |= 1 << (rank * 11 + file);
            }
        }
        for cell in [0, 10, 110, 120] {
            mask |= 1 << cell;
        }
        Layout::new(11, 11, mask, 10).unwrap()
    }

    #[test]
    fn persian_layout_tables() {
        let layout = persian();
        assert_eq!(layout.num_playable(), 85);
        assert_eq!(layout.cells()[0], 0);
        assert_eq!(layout.cells()[1], 10);
        assert_eq!(layout.cells()[2], 12); // b2
        assert_eq!(layout.cells()[84], 120);
        assert_eq!(layout.mirror_cell(0), Some(110));
        assert_eq!(layout.mirror_cell(12), Some(100)); // b2 <-> b10
        assert_eq!(layout.mirror_cell(60), Some(60)); // f6 is its own mirror
        assert_eq!(layout.mirror_cell(1), None);
        for (index, &cell) in layout.cells().iter().enumerate() {
            assert_eq!(layout.playable_index(cell), Some(index));
            let mirror = layout.mirror_cell(cell).unwrap();
            assert_eq!(layout.mirror_cell(mirror), Some(cell));
            assert_eq!(layout.relative_index(Color::Black, cell), layout.playable_index(mirror));
        }
    }

    #[test]
    fn layout_errors() {
        assert_eq!(
            Layout::new(0, 8, 1, 6),
            Err(LayoutError::GridSize { width: 0, height: 8 })
        );
        assert_eq!(
            Layout::new(12, 11, 1, 6),
            Err(LayoutError::GridSize { width: 12, height: 11 })
        );
        assert_eq!(
            Layout::new(3, 3, 1 << 9 | 1, 6),
            Err(LayoutError::MaskBeyondGrid { cell: 9, cells: 9 })
        );
        assert_eq!(Layout::new(3, 3, 0, 6), Err(LayoutError::EmptyMask));
        assert_eq!(Layout::new(3, 3, 0b111, 0), Err(LayoutError::PieceTypes(0)));
        assert_eq!(Layout::new(3, 3, 0b111, 17), Err(LayoutError::PieceTypes(17)));
        assert_eq!(
            Layout::new(3, 3, 0b1, 6),
            Err(LayoutError::Asymmetric { cell: 0, mirror: 6 })
        );
        assert!(Layout::new(16, 8, u128::MAX, 16).is_ok());
    }

    #[test]
    fn hash_is_stable_and_sensitive() {
        let a = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
        let b = Layout::new(8, 8, u128::from(u64::MAX), 7).unwrap();
        assert_ne!(a.layout_hash(), b.layout_hash());
        assert_eq!(
            a.layout_hash(),
            Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap().layout_hash()
        );
        assert_ne!(persian().layout_hash(), a.layout_hash());
    }
}
