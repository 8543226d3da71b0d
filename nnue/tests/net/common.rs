//! Shared helpers for the integration tests: layouts, a small RNG and a random "move" generator.
#![allow(dead_code)]
#![allow(clippy::unwrap_used)] // Test code: a failed unwrap is a failed test.

use nnue::{rng::SplitMix64, Color, FloatNetwork, Layout, PlacedPiece};

/// `float` with `buckets` output buckets that differ: bucket `b`'s output weights are bucket 0's
/// times `1 - 0.2 b` (so some change sign) and its bias is shifted by `0.05 b`.
pub fn bucketed(float: &FloatNetwork, buckets: usize) -> FloatNetwork {
    let mut net = float.with_buckets(buckets).unwrap();
    let width = 2 * net.hidden;
    for (b, head) in net.out_weights.chunks_mut(width).enumerate() {
        for w in head {
            *w *= 1.0 - 0.2 * b as f32;
        }
    }
    for (b, bias) in net.out_bias.iter_mut().enumerate() {
        *bias += 0.05 * b as f32;
    }
    net
}

/// The crate's SplitMix64 with the helpers these tests use.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    pub fn color(&mut self) -> Color {
        if self.chance(2) {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// The Persian-like layout: 11x11 grid, b2..j10 plus the four corner cells, 10 piece types.
pub fn persian() -> Layout {
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

/// A chess-like layout: full 8x8, 6 piece types.
pub fn chess() -> Layout {
    Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap()
}

/// A board: which piece stands on each cell.
#[derive(Clone)]
pub struct Board {
    pub layout: Layout,
    cells: Vec<Option<(Color, u8)>>,
}

/// The pieces a move removes and adds.
#[derive(Clone, Debug, Default)]
pub struct Change {
    pub added: Vec<PlacedPiece>,
    pub removed: Vec<PlacedPiece>,
}

impl Board {
    pub fn empty(layout: &Layout) -> Self {
        Board {
            layout: layout.clone(),
            cells: vec![None; 128],
        }
    }

    /// A random position with `count` pieces.
    pub fn random(layout: &Layout, count: usize, rng: &mut Rng) -> Self {
        let mut board = Board::empty(layout);
        while board.pieces().len() < count {
            let cell = board.random_empty(rng);
            board.cells[usize::from(cell)] = Some((rng.color(), rng.below(layout.piece_types()) as u8));
        }
        board
    }

    /// The pieces in ascending cell order.
    pub fn pieces(&self) -> Vec<PlacedPiece> {
        (0..128u8)
            .filter_map(|cell| self.cells[usize::from(cell)].map(|(color, kind)| PlacedPiece::new(color, kind, cell)))
            .collect()
    }

    fn random_empty(&self, rng: &mut Rng) -> u8 {
        loop {
            let cells = self.layout.cells();
            let cell = cells[rng.below(cells.len())];
            if self.cells[usize::from(cell)].is_none() {
                return cell;
            }
        }
    }

    fn random_occupied(&self, rng: &mut Rng, except: &[u8]) -> PlacedPiece {
        let pieces: Vec<PlacedPiece> = self
            .pieces()
            .into_iter()
            .filter(|p| !except.contains(&p.cell))
            .collect();
        pieces[rng.below(pieces.len())]
    }

    fn kind(&self, rng: &mut Rng) -> u8 {
        rng.below(self.layout.piece_types()) as u8
    }

    /// Applies `change` to the board.
    pub fn apply(&mut self, change: &Change) {
        for p in &change.removed {
            assert_eq!(
                self.cells[usize::from(p.cell)],
                Some((p.color, p.kind)),
                "removing a missing piece"
            );
            self.cells[usize::from(p.cell)] = None;
        }
        for p in &change.added {
            assert_eq!(self.cells[usize::from(p.cell)], None, "adding onto an occupied cell");
            self.cells[usize::from(p.cell)] = Some((p.color, p.kind));
        }
    }

    /// A random move-like change (quiet move, capture, promotion, castling, swap, en passant,
    /// a drop, or a large batch), kept between 2 and `max_pieces` pieces. Does not apply it.
    pub fn random_change(&self, rng: &mut Rng, max_pieces: usize) -> Change {
        let count = self.pieces().len();
        let empty = self.layout.num_playable() - count;
        let mut change = Change::default();
        let choice = rng.below(100);
        if count < 4 || (choice < 5 && count < max_pieces) {
            // A drop.
            change
                .added
                .push(PlacedPiece::new(rng.color(), self.kind(rng), self.random_empty(rng)));
        } else if choice < 40 || empty < 3 {
            // Quiet move, maybe with promotion.
            let p = self.random_occupied(rng, &[]);
            let to = if empty == 0 { p.cell } else { self.random_empty(rng) };
            let kind = if rng.chance(8) { self.kind(rng) } else { p.kind };
            change.removed.push(p);
            change.added.push(PlacedPiece::new(p.color, kind, to));
        } else if choice < 70 {
            // Capture, maybe with promotion.
            let p = self.random_occupied(rng, &[]);
            let q = self.random_occupied(rng, &[p.cell]);
            let kind = if rng.chance(8) { self.kind(rng) } else { p.kind };
            change.removed.extend([p, q]);
            change.added.push(PlacedPiece::new(p.color, kind, q.cell));
        } else if choice < 78 {
            // En passant: the captured piece is not on the target cell.
            let p = self.random_occupied(rng, &[]);
            let q = self.random_occupied(rng, &[p.cell]);
            change.removed.extend([p, q]);
            change
                .added
                .push(PlacedPiece::new(p.color, p.kind, self.random_empty(rng)));
        } else if choice < 86 {
            // Castling: two pieces move to two empty cells.
            let p = self.random_occupied(rng, &[]);
            let q = self.random_occupied(rng, &[p.cell]);
            let a = self.random_empty(rng);
            let mut b = self.random_empty(rng);
            while b == a {
                b = self.random_empty(rng);
            }
            change.removed.extend([p, q]);
            change.added.extend([
                PlacedPiece::new(p.color, p.kind, a),
                PlacedPiece::new(q.color, q.kind, b),
            ]);
        } else if choice < 96 {
            // Swap of two pieces.
            let p = self.random_occupied(rng, &[]);
            let q = self.random_occupied(rng, &[p.cell]);
            change.removed.extend([p, q]);
            change.added.extend([
                PlacedPiece::new(p.color, p.kind, q.cell),
                PlacedPiece::new(q.color, q.kind, p.cell),
            ]);
        } else {
            // A large batch: every piece of a few cells changes type (more than 4 rows each way).
            let mut seen = Vec::new();
            for _ in 0..count.min(6) {
                let p = self.random_occupied(rng, &seen);
                seen.push(p.cell);
                change.removed.push(p);
                change.added.push(PlacedPiece::new(p.color, self.kind(rng), p.cell));
            }
        }
        change
    }
}
