//! Perft: the number of leaf nodes of the legal-move tree to a depth. The last ply is counted
//! without playing the moves (bulk counting). Draw rules (citadel, 50 moves, repetition,
//! material) are ignored, as in the reference numbers.

use super::{moves::Move, position::Position};

/// Leaf nodes at `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for &m in pos.legal_moves().iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// Leaf nodes below each root move.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| (m, if depth <= 1 { 1 } else { perft(&pos.after(m), depth - 1) }))
        .collect()
}
