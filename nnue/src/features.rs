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
