//! Perft: the number of leaf nodes of the legal-move tree to a depth. The last ply is counted
//! without playing the moves (bulk counting). Draw rules (citadel, 50 moves, repetition,
//! material) are ignored, as in the reference numbers.

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Mutex,
};

use super::{moves::Move, position::Position, reference};

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

/// Leaf nodes at `depth` by the slow reference generator ([`reference`], written directly from
/// the spec, cell by cell): the independent recount of [`perft`]'s numbers.
pub fn reference_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = reference::legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| reference_perft(&pos.after(m), depth - 1))
        .sum()
}

/// [`reference_perft`] below each root move, in the reference generator's order, the root
/// moves shared among `threads` threads (the reference is slow; deep recounts want every core).
pub fn reference_divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = reference::legal_moves(pos);
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(vec![0u64; moves.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, moves.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = moves.get(i) else { break };
                let n = if depth <= 1 {
                    1
                } else {
                    reference_perft(&pos.after(m), depth - 1)
                };
                counts.lock().unwrap_or_else(|e| e.into_inner())[i] = n;
            });
        }
    });
    let counts = counts.into_inner().unwrap_or_else(|e| e.into_inner());
    moves.into_iter().zip(counts).collect()
}

/// Leaf nodes below each root move.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| (m, if depth <= 1 { 1 } else { perft(&pos.after(m), depth - 1) }))
        .collect()
}
