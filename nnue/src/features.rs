//! THE feature-index function, shared by inference (the engine) and training (the trainer).
//!
//! Feature set v1, "PS-2xPxN" (id [`FEATURE_SET_V1`]): colour-relative piece-square features seen
//! from two perspectives. For perspective `persp` and a piece `(color, type, cell)`:
//!
//! ```text
//! index = side * P*N + type * N + relative_index(persp, cell)
//! side  = 0 if color == persp ("own piece") else 1 ("enemy piece")
//! relative_index(White, cell) = playable index of cell
//! relative_index(Black, cell) = playable index of the rank mirror of cell
//! F     = 2 * P * N
//! ```
//!
//! where `N` is the number of playable cells and `P` the number of piece types of the
//! [`Layout`]. Every piece is active in both perspectives, so a position has as many active
//! features per perspective as it has pieces, and a move changes at most a handful of them.
//!
//! Feature set v2, "KB-PS-2xPxN" (id [`FEATURE_SET_KB`]): the same features once per bucket of
//! the perspective's own king ([`KingBuckets`]). Perspective `persp` whose king stands on a cell
//! of bucket `b` (bucket 0 when it has no king) activates
//!
//! ```text
//! index = b * F1 + (the v1 index above),   F1 = 2 * P * N,   F = K * F1
//! ```
//!
//! so each of the `K` buckets has its own piece-square weights: where the own king stands changes
//! what every other piece is worth. A move of a king into another of its buckets changes every
//! feature of that perspective, so the accumulator refreshes it
//! ([`crate::Accumulator::needs_refresh`]).
//!
//! ```
//! use nnue::{features, Color, Layout, PlacedPiece};
//!
//! let layout = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
//! let white_pawn_e2 = PlacedPiece::new(Color::White, 0, 12);
//! assert_eq!(features::num_features(&layout), 768);
//! assert_eq!(features::feature_index(&layout, Color::White, white_pawn_e2), 12);
//! // Black sees it as an enemy pawn on e7.
//! assert_eq!(features::feature_index(&layout, Color::Black, white_pawn_e2), 384 + 52);
//! ```

use crate::board::{Color, Layout, PlacedPiece};

/// Id of feature set v1, "PS-2xPxN", as stored in `.nnue` headers.
pub const FEATURE_SET_V1: u32 = 1;

/// Name of feature set v1.
pub const FEATURE_SET_V1_NAME: &str = "PS-2xPxN";

/// Id of feature set v2, "KB-PS-2xPxN" (v1 once per king bucket), as stored in `.nnue` headers.
pub const FEATURE_SET_KB: u32 = 2;

/// Name of feature set v2.
pub const FEATURE_SET_KB_NAME: &str = "KB-PS-2xPxN";

/// The most king buckets a net may have.
pub const MAX_KING_BUCKETS: usize = 8;

/// The king buckets of feature set v2: which piece type is the king, and the bucket of every
/// cell as the king's own side sees it (indexed by [`Layout::relative_index`], so White and Black
/// kings on mirrored cells share a bucket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    king_type: u8,
    count: u8,
    /// Relative playable index -> bucket.
    map: Vec<u8>,
}

/// Why a king-bucket map was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KingBucketsError {
    /// The king's type is not a type of the layout.
    #[error("king type {king_type} is not one of the layout's {types} piece types")]
    KingType {
        /// The type given.
        king_type: u8,
        /// The layout's number of types.
        types: usize,
    },
    /// The map does not have one entry per playable cell.
    #[error("a king-bucket map needs one bucket per playable cell ({cells}), it has {found}")]
    MapLength {
        /// Playable cells.
        cells: usize,
        /// Entries given.
        found: usize,
    },
    /// The buckets are not numbered `0..K` with every bucket used, or `K` is out of range.
    #[error("king buckets must be numbered 0..K with each used and K in 1..={max}, found {found:?}")]
    Numbering {
        /// The largest count allowed.
        max: usize,
        /// The distinct buckets found, in order.
        found: Vec<u8>,
    },
}

impl KingBuckets {
    /// King buckets from a map of one bucket per playable cell (relative index, as the king's
    /// own side sees the board). The buckets must be `0..K` for some `K` in
    /// `1..=MAX_KING_BUCKETS`, each used.
    ///
    /// # Errors
    /// See [`KingBucketsError`].
    pub fn new(layout: &Layout, king_type: u8, map: Vec<u8>) -> Result<Self, KingBucketsError> {
        if usize::from(king_type) >= layout.piece_types() {
            return Err(KingBucketsError::KingType {
                king_type,
                types: layout.piece_types(),
            });
        }
        if map.len() != layout.num_playable() {
            return Err(KingBucketsError::MapLength {
                cells: layout.num_playable(),
                found: map.len(),
            });
        }
        KingBuckets::numbered(king_type, map)
    }

    /// King buckets as a net file stores them, checked for their numbering only (the file's
    /// reader checks the rest against the caller's layout).
    ///
    /// # Errors
    /// [`KingBucketsError::Numbering`].
    pub fn numbered(king_type: u8, map: Vec<u8>) -> Result<Self, KingBucketsError> {
        let mut used: Vec<u8> = map.clone();
        used.sort_unstable();
        used.dedup();
        let count = used.len();
        if count > MAX_KING_BUCKETS || used.iter().enumerate().any(|(i, &b)| usize::from(b) != i) {
            return Err(KingBucketsError::Numbering {
                max: MAX_KING_BUCKETS,
                found: used,
            });
        }
        Ok(KingBuckets {
            king_type,
            count: count as u8,
            map,
        })
    }

    /// The standard map of `count` buckets (1, 2 or 4; `None` otherwise): 2 splits the board
    /// into the king's back rank and the rest; 4 splits each of those again into the left files
    /// and the right files (the middle file of an odd width goes right).
    #[must_use]
    pub fn standard(layout: &Layout, king_type: u8, count: usize) -> Option<Self> {
        if !matches!(count, 1 | 2 | 4) {
            return None;
        }
        let width = layout.width();
        let map = layout
            .cells()
            .iter()
            .map(|&cell| {
                let (rank, file) = (cell / width, cell % width);
                let back = u8::from(rank != 0);
                match count {
                    1 => 0,
                    2 => back,
                    _ => 2 * back + u8::from(file >= width / 2),
                }
            })
            .collect();
        KingBuckets::new(layout, king_type, map).ok()
    }

    /// The king's piece type.
    #[must_use]
    pub fn king_type(&self) -> u8 {
        self.king_type
    }

    /// The number of buckets `K`.
    #[must_use]
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// The bucket of every playable cell, by relative index.
    #[must_use]
    pub fn map(&self) -> &[u8] {
        &self.map
    }

    /// The bucket of perspective `persp` whose king stands on `cell` (a playable cell).
    #[inline]
    #[must_use]
    pub fn bucket_of_cell(&self, layout: &Layout, persp: Color, cell: u8) -> usize {
        usize::from(self.map[layout.relative_index_unchecked(persp, cell)])
    }

    /// The bucket of perspective `persp` in the position `pieces`: that of its king's cell, 0
    /// when it has none (the first king found counts).
    #[must_use]
    pub fn bucket(&self, layout: &Layout, persp: Color, pieces: &[PlacedPiece]) -> usize {
        pieces
            .iter()
            .find(|p| p.kind == self.king_type && p.color == persp)
            .map_or(0, |p| self.bucket_of_cell(layout, persp, p.cell))
    }
}

/// Number of inputs of feature set v2 with `kings` on `layout` (`K * F1`), or of v1 without.
#[must_use]
pub fn num_features_with(layout: &Layout, kings: Option<&KingBuckets>) -> usize {
    kings.map_or(1, KingBuckets::count) * num_features(layout)
}

/// The active features of `pieces` from perspective `persp` in feature set v2 with `kings` (v1
/// without), in the order of `pieces`.
#[must_use]
pub fn active_features_with(
    layout: &Layout,
    kings: Option<&KingBuckets>,
    persp: Color,
    pieces: &[PlacedPiece],
) -> Vec<usize> {
    let base = kings.map_or(0, |k| k.bucket(layout, persp, pieces) * num_features(layout));
    pieces
        .iter()
        .map(|&piece| base + feature_index(layout, persp, piece))
        .collect()
}

/// Number of inputs `F = 2 * P * N` of feature set v1 on `layout`.
#[must_use]
pub fn num_features(layout: &Layout) -> usize {
    2 * layout.piece_types() * layout.num_playable()
}

/// The index (`0..F`) of `piece` seen from perspective `persp`: see the module docs.
///
/// Precondition: `layout.contains(piece)` (type below `P`, playable cell); checked by
/// `debug_assert!` only, because this runs on every accumulator update. Use
/// [`try_feature_index`] for pieces from outside.
#[inline]
#[must_use]
pub fn feature_index(layout: &Layout, persp: Color, piece: PlacedPiece) -> usize {
    debug_assert!(layout.contains(piece), "{piece:?} is not a piece of this layout");
    let n = layout.num_playable();
    let side = usize::from(piece.color != persp);
    (side * layout.piece_types() + usize::from(piece.kind)) * n + layout.relative_index_unchecked(persp, piece.cell)
}

/// [`feature_index`] for a piece that may be invalid: `None` if its type is `P` or more or its
/// cell is not playable.
#[must_use]
pub fn try_feature_index(layout: &Layout, persp: Color, piece: PlacedPiece) -> Option<usize> {
    layout.contains(piece).then(|| feature_index(layout, persp, piece))
}

/// Appends the active features of `pieces` from perspective `persp` to `out`, in the order of
/// `pieces` (same precondition as [`feature_index`]).
pub fn active_features_into(layout: &Layout, persp: Color, pieces: &[PlacedPiece], out: &mut Vec<usize>) {
    out.extend(pieces.iter().map(|&piece| feature_index(layout, persp, piece)));
}

/// The active features of `pieces` from perspective `persp`, in the order of `pieces`.
#[must_use]
pub fn active_features(layout: &Layout, persp: Color, pieces: &[PlacedPiece]) -> Vec<usize> {
    let mut out = Vec::with_capacity(pieces.len());
    active_features_into(layout, persp, pieces, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Layout {
        Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap()
    }

    #[test]
    fn indices_cover_range_without_collisions() {
        let layout = chess();
        for persp in Color::ALL {
            let mut seen = vec![false; num_features(&layout)];
            for color in Color::ALL {
                for kind in 0..6 {
                    for &cell in layout.cells() {
                        let index = feature_index(&layout, persp, PlacedPiece::new(color, kind, cell));
                        assert!(!seen[index], "collision at {index}");
                        seen[index] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn perspectives_are_mirror_images() {
        let layout = chess();
        // A black knight on g8 seen by Black equals a white knight on g1 seen by White.
        let black_knight_g8 = PlacedPiece::new(Color::Black, 1, 62);
        let white_knight_g1 = PlacedPiece::new(Color::White, 1, 6);
        assert_eq!(
            feature_index(&layout, Color::Black, black_knight_g8),
            feature_index(&layout, Color::White, white_knight_g1)
        );
        assert_eq!(feature_index(&layout, Color::White, white_knight_g1), 64 + 6);
        assert_eq!(feature_index(&layout, Color::White, black_knight_g8), 384 + 64 + 62);
    }

    #[test]
    fn holes_are_rejected_by_the_checked_form() {
        let layout = Layout::new(3, 3, 0b101_000_101, 2).unwrap();
        assert_eq!(num_features(&layout), 16);
        assert_eq!(
            try_feature_index(&layout, Color::White, PlacedPiece::new(Color::White, 0, 1)),
            None
        );
        assert_eq!(
            try_feature_index(&layout, Color::White, PlacedPiece::new(Color::White, 2, 0)),
            None
        );
        assert_eq!(
            try_feature_index(&layout, Color::White, PlacedPiece::new(Color::Black, 1, 8)),
            Some(8 + 4 + 3)
        );
        assert_eq!(
            try_feature_index(&layout, Color::Black, PlacedPiece::new(Color::Black, 1, 8)),
            Some(4 + 1)
        );
        let pieces = [
            PlacedPiece::new(Color::White, 0, 0),
            PlacedPiece::new(Color::Black, 1, 6),
        ];
        assert_eq!(active_features(&layout, Color::White, &pieces), vec![0, 8 + 4 + 2]);
        assert_eq!(active_features(&layout, Color::Black, &pieces), vec![8 + 2, 4]);
    }
}
