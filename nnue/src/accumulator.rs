//! The incrementally updated feature-transformer output of both perspectives, and the
//! evaluation from it.
//!
//! ```
//! use nnue::{Accumulator, Color, FloatNetwork, Layout, PlacedPiece};
//!
//! let layout = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
//! let net = FloatNetwork::init_random(nnue::features::num_features(&layout), 32, 1).quantise(32).unwrap();
//! let mut pieces = vec![PlacedPiece::new(Color::White, 5, 4), PlacedPiece::new(Color::Black, 5, 60)];
//! let mut acc = Accumulator::new(&net);
//! acc.refresh(&net, &layout, &pieces);
//!
//! // The white king goes e1 -> e2.
//! let (from, to) = (PlacedPiece::new(Color::White, 5, 4), PlacedPiece::new(Color::White, 5, 12));
//! acc.update(&net, &layout, &[to], &[from]);
//! pieces[0] = to;
//! assert_eq!(acc.evaluate(&net, Color::Black), net.evaluate(&layout, &pieces, Color::Black));
//! ```

use crate::{
    board::{Color, Layout, PlacedPiece},
    features::feature_index,
    network::{output_bucket, Network},
    quant::finish,
    simd::{blocks_for, Backend, Block},
};

impl Network {
    /// Evaluates a position from scratch (allocates an [`Accumulator`]; the engine keeps one and
    /// updates it instead). `pieces` must satisfy [`Layout::contains`].
    #[must_use]
    pub fn evaluate(&self, layout: &Layout, pieces: &[PlacedPiece], stm: Color) -> i32 {
        let mut accumulator = Accumulator::new(self);
        accumulator.refresh(self, layout, pieces);
        accumulator.evaluate(self, stm)
    }
}

/// Rows applied in one pass over an accumulator; longer change lists take several passes.
const BATCH: usize = 4;

/// The panic of an update that would take a king across buckets.
const CROSSED: &str = "a king changed buckets: the accumulator needs a refresh";

/// The `i16` accumulators of both perspectives (White's, then Black's) for one network.
///
/// The values are kept in 32-byte aligned blocks; no method allocates after [`Accumulator::new`].
/// Every method that takes a [`Network`] needs the one the accumulator was made for (same `H`;
/// checked, a mismatch panics) and pieces that satisfy [`Layout::contains`] (checked by
/// `debug_assert!` only).
#[derive(Clone, Debug)]
pub struct Accumulator {
    hidden: usize,
    /// Blocks per perspective.
    blocks: usize,
    /// White's blocks, then Black's.
    data: Vec<Block>,
    /// Pieces on the board (the active features per perspective), which choose the output bucket.
    pieces: usize,
    /// Per perspective, the first input of its king bucket (`bucket * F / K`; 0 for a v1 net).
    king_base: [usize; 2],
    backend: Backend,
}

impl PartialEq for Accumulator {
    /// Equal values (the backend is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.hidden == other.hidden
            && self.pieces == other.pieces
            && self.king_base == other.king_base
            && self.data == other.data
    }
}

impl Eq for Accumulator {}

impl Accumulator {
    /// A zeroed accumulator for `net`, using the fastest kernels this CPU supports.
    #[must_use]
    pub fn new(net: &Network) -> Self {
        Self::with_backend(net, Backend::best())
    }

    /// A zeroed accumulator for `net` that uses `backend`.
    #[must_use]
    pub fn with_backend(net: &Network, backend: Backend) -> Self {
        let blocks = blocks_for(net.hidden());
        Accumulator {
            hidden: net.hidden(),
            blocks,
            data: vec![Block::default(); 2 * blocks],
            pieces: 0,
            king_base: [0; 2],
            backend,
        }
    }

    /// The kernels this accumulator uses.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The hidden size `H` of the network it was made for.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The `H` accumulator values of perspective `persp`.
    pub fn values(&self, persp: Color) -> impl Iterator<Item = i16> + '_ {
        self.half(persp).iter().flat_map(|block| block.0).take(self.hidden)
    }

    /// Recomputes both perspectives from scratch: bias plus the rows of every piece.
    pub fn refresh(&mut self, net: &Network, layout: &Layout, pieces: &[PlacedPiece]) {
        self.check(net);
        self.pieces = pieces.len();
        for persp in Color::ALL {
            self.refresh_half(net, layout, persp, pieces);
        }
    }

    /// Recomputes perspective `persp` from scratch (its king bucket included).
    fn refresh_half(&mut self, net: &Network, layout: &Layout, persp: Color, pieces: &[PlacedPiece]) {
        let backend = self.backend;
        let base = net
            .king_buckets()
            .map_or(0, |kings| kings.bucket(layout, persp, pieces) * net.bucket_features());
        self.king_base[persp.index()] = base;
        let dst = self.half_mut(persp);
        dst.copy_from_slice(net.bias_blocks());
        for batch in pieces.chunks(BATCH) {
            let mut rows: [&[Block]; BATCH] = [&[]; BATCH];
            fill_rows(&mut rows, net, layout, persp, base, batch);
            backend.add_sub(dst, None, &rows[..batch.len()], &[]);
        }
    }

    /// Whether the move that adds `added` and removes `removed` takes a king into another of its
    /// buckets, or removes a king for good (feature set v2): the child's accumulator must then be
    /// computed by [`Accumulator::update_from_refreshing`] or [`Accumulator::refresh`], not by an
    /// update. Always `false` for a v1 net.
    #[must_use]
    pub fn needs_refresh(
        &self,
        net: &Network,
        layout: &Layout,
        added: &[PlacedPiece],
        removed: &[PlacedPiece],
    ) -> bool {
        Color::ALL
            .into_iter()
            .any(|persp| self.half_needs_refresh(net, layout, persp, added, removed))
    }

    /// [`Accumulator::needs_refresh`] for perspective `persp` alone: its king changes bucket.
    fn half_needs_refresh(
        &self,
        net: &Network,
        layout: &Layout,
        persp: Color,
        added: &[PlacedPiece],
        removed: &[PlacedPiece],
    ) -> bool {
        let Some(kings) = net.king_buckets() else {
            return false;
        };
        let king = kings.king_type();
        let mut kept = false;
        for p in added.iter().filter(|p| p.kind == king && p.color == persp) {
            if kings.bucket_of_cell(layout, persp, p.cell) * net.bucket_features() != self.king_base[persp.index()] {
                return true;
            }
            kept = true;
        }
        !kept && removed.iter().any(|p| p.kind == king && p.color == persp)
    }

    /// Applies a move in place: adds the features of the `added` pieces and removes those of the
    /// `removed` pieces, in both perspectives. Panics when the move takes a king into another
    /// bucket ([`Accumulator::needs_refresh`]). A normal move is one removed and one added piece,
    /// a capture removes one more, castling or a swap moves two pieces (two of each); an undo is
    /// the same call with the lists exchanged. Up to four of each are applied in one pass.
    pub fn update(&mut self, net: &Network, layout: &Layout, added: &[PlacedPiece], removed: &[PlacedPiece]) {
        self.check(net);
        assert!(!self.needs_refresh(net, layout, added, removed), "{CROSSED}");
        self.apply_unchecked(None, net, layout, added, removed);
    }

    /// Like [`Accumulator::update`], but starts from `prev` (typically the parent position's
    /// accumulator on a search stack) instead of `self`, which saves a separate copy.
    pub fn update_from(
        &mut self,
        prev: &Accumulator,
        net: &Network,
        layout: &Layout,
        added: &[PlacedPiece],
        removed: &[PlacedPiece],
    ) {
        assert!(self.try_update_from(prev, net, layout, added, removed), "{CROSSED}");
    }

    /// [`Accumulator::update_from`] when no king changes buckets, and then `true`; `false`, with
    /// `self` unchanged, when one does ([`Accumulator::needs_refresh`]): the caller then uses
    /// [`Accumulator::update_from_refreshing`]. One bucket check per move where calling
    /// `needs_refresh` before `update_from` makes two.
    #[inline]
    #[must_use]
    pub fn try_update_from(
        &mut self,
        prev: &Accumulator,
        net: &Network,
        layout: &Layout,
        added: &[PlacedPiece],
        removed: &[PlacedPiece],
    ) -> bool {
        self.check(net);
        assert_eq!(prev.hidden, self.hidden, "accumulators of different networks");
        if prev.needs_refresh(net, layout, added, removed) {
            return false;
        }
        self.king_base = prev.king_base;
        self.apply_unchecked(Some(prev), net, layout, added, removed);
        true
    }

    /// Like [`Accumulator::update_from`] for a move that may take a king into another bucket
    /// ([`Accumulator::needs_refresh`]): the perspective of that king is recomputed from `after`,
    /// the pieces after the move, and the other one is updated from `prev` as usual.
    pub fn update_from_refreshing(
        &mut self,
        prev: &Accumulator,
        net: &Network,
        layout: &Layout,
        added: &[PlacedPiece],
        removed: &[PlacedPiece],
        after: &[PlacedPiece],
    ) {
        self.check(net);
        assert_eq!(prev.hidden, self.hidden, "accumulators of different networks");
        self.king_base = prev.king_base;
        self.pieces = after.len();
        for persp in Color::ALL {
            if prev.half_needs_refresh(net, layout, persp, added, removed) {
                self.refresh_half(net, layout, persp, after);
            } else {
                self.apply_half(Some(prev), net, layout, persp, added, removed);
            }
        }
    }

    /// The number of pieces the accumulated position has (set by [`Accumulator::refresh`], kept
    /// by the updates).
    #[must_use]
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The evaluation in centipawns for `stm`, the side to move (see [`crate::network`] for the
    /// formula), through the output bucket of the position's piece count.
    #[must_use]
    pub fn evaluate(&self, net: &Network, stm: Color) -> i32 {
        self.check(net);
        let bucket = output_bucket(self.pieces, net.buckets());
        let sum = self.backend.output(
            self.half(stm),
            self.half(stm.opponent()),
            net.out_blocks(bucket),
            net.fast_output(),
        );
        finish(sum, net.out_bias(bucket), net.scale())
    }

    /// Applies a move to both perspectives (from `prev`, or in place) once the caller knows that
    /// no king changes buckets (`king_base` set).
    #[inline]
    fn apply_unchecked(
        &mut self,
        prev: Option<&Accumulator>,
        net: &Network,
        layout: &Layout,
        added: &[PlacedPiece],
        removed: &[PlacedPiece],
    ) {
        let before = prev.map_or(self.pieces, |prev| prev.pieces);
        debug_assert!(
            before + added.len() >= removed.len(),
            "more pieces removed than there are"
        );
        self.pieces = (before + added.len()).saturating_sub(removed.len());
        for persp in Color::ALL {
            self.apply_half(prev, net, layout, persp, added, removed);
        }
    }

    /// Applies a move to perspective `persp` (from `prev`'s half, or in place): one pass for up
    /// to [`BATCH`] added and removed pieces (the common case), several for more.
    #[inline]
    fn apply_half(
        &mut self,
        prev: Option<&Accumulator>,
        net: &Network,
        layout: &Layout,
        persp: Color,
        added: &[PlacedPiece],
        removed: &[PlacedPiece],
    ) {
        let (backend, blocks) = (self.backend, self.blocks);
        let base = self.king_base[persp.index()];
        let start = persp.index() * blocks;
        if added.len() <= BATCH && removed.len() <= BATCH {
            let mut rows: [&[Block]; 2 * BATCH] = [&[]; 2 * BATCH];
            for (row, &piece) in rows.iter_mut().zip(added.iter().chain(removed)) {
                *row = net.row(base + feature_index(layout, persp, piece));
            }
            let (adds, subs) = rows[..added.len() + removed.len()].split_at(added.len());
            let src = prev.map(|prev| &prev.data[start..start + blocks]);
            backend.add_sub(&mut self.data[start..start + blocks], src, adds, subs);
            return;
        }
        let mut src = prev.map(|prev| prev.half(persp));
        let dst = &mut self.data[start..start + blocks];
        let (mut adds, mut subs) = (added.chunks(BATCH), removed.chunks(BATCH));
        loop {
            let (add, sub) = (adds.next().unwrap_or(&[]), subs.next().unwrap_or(&[]));
            if add.is_empty() && sub.is_empty() {
                break;
            }
            let mut add_rows: [&[Block]; BATCH] = [&[]; BATCH];
            let mut sub_rows: [&[Block]; BATCH] = [&[]; BATCH];
            fill_rows(&mut add_rows, net, layout, persp, base, add);
            fill_rows(&mut sub_rows, net, layout, persp, base, sub);
            backend.add_sub(dst, src.take(), &add_rows[..add.len()], &sub_rows[..sub.len()]);
        }
    }

    fn check(&self, net: &Network) {
        assert_eq!(
            net.hidden(),
            self.hidden,
            "accumulator used with a network of another hidden size"
        );
    }

    fn half(&self, persp: Color) -> &[Block] {
        let start = persp.index() * self.blocks;
        &self.data[start..start + self.blocks]
    }

    fn half_mut(&mut self, persp: Color) -> &mut [Block] {
        let start = persp.index() * self.blocks;
        &mut self.data[start..start + self.blocks]
    }
}

/// Puts the weight rows of `pieces` (at most [`BATCH`]) seen from `persp`, whose king bucket
/// starts at input `base`, into `rows`.
#[inline]
fn fill_rows<'a>(
    rows: &mut [&'a [Block]; BATCH],
    net: &'a Network,
    layout: &Layout,
    persp: Color,
    base: usize,
    pieces: &[PlacedPiece],
) {
    for (row, &piece) in rows.iter_mut().zip(pieces) {
        *row = net.row(base + feature_index(layout, persp, piece));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{features, FloatNetwork};

    fn setup(hidden: usize) -> (Layout, Network) {
        let layout = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
        let net = FloatNetwork::init_random(features::num_features(&layout), hidden, 3)
            .quantise(32)
            .unwrap();
        (layout, net)
    }

    fn piece(color: Color, kind: u8, cell: u8) -> PlacedPiece {
        PlacedPiece::new(color, kind, cell)
    }

    #[test]
    fn refresh_equals_bias_plus_rows() {
        let (layout, net) = setup(20);
        let pieces = [
            piece(Color::White, 0, 8),
            piece(Color::Black, 3, 59),
            piece(Color::White, 5, 4),
        ];
        for backend in [Some(Backend::scalar()), Backend::avx2()].into_iter().flatten() {
            let mut acc = Accumulator::with_backend(&net, backend);
            acc.refresh(&net, &layout, &pieces);
            for persp in Color::ALL {
                let active = features::active_features(&layout, persp, &pieces);
                let expected: Vec<i16> = (0..20)
                    .map(|j| {
                        active
                            .iter()
                            .fold(net.ft_bias(j), |sum, &f| sum.wrapping_add(net.ft_weight(f, j)))
                    })
                    .collect();
                assert_eq!(acc.values(persp).collect::<Vec<_>>(), expected);
            }
        }
    }

    #[test]
    fn update_and_update_from_match_refresh() {
        let (layout, net) = setup(256);
        let before = [
            piece(Color::White, 1, 6),
            piece(Color::Black, 0, 52),
            piece(Color::Black, 5, 60),
        ];
        // A capture: the knight on g1 takes on e7 (legality is not the accumulator's business).
        let after = [piece(Color::White, 1, 52), piece(Color::Black, 5, 60)];
        let mut full = Accumulator::new(&net);
        full.refresh(&net, &layout, &after);
        let mut acc = Accumulator::new(&net);
        acc.refresh(&net, &layout, &before);
        let parent = acc.clone();
        acc.update(&net, &layout, &[after[0]], &[before[0], before[1]]);
        assert_eq!(acc, full);
        let mut child = Accumulator::new(&net);
        child.update_from(&parent, &net, &layout, &[after[0]], &[before[0], before[1]]);
        assert_eq!(child, full);
        child.update_from(&parent, &net, &layout, &[], &[]);
        assert_eq!(child, parent);
        acc.update(&net, &layout, &[before[0], before[1]], &[after[0]]);
        assert_eq!(acc, parent);
        assert_eq!(
            acc.evaluate(&net, Color::White),
            net.evaluate(&layout, &before, Color::White)
        );
    }

    #[test]
    #[should_panic(expected = "another hidden size")]
    fn wrong_network_panics() {
        let (layout, net) = setup(16);
        let (_, other) = setup(32);
        let mut acc = Accumulator::new(&net);
        acc.refresh(&other, &layout, &[]);
    }
}
