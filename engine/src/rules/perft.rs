//! Perft: the number of leaf nodes of the legal-move tree to a depth. The last ply is counted
//! without playing the moves (bulk counting). Draw rules (citadel, 50 moves, repetition,
//! material) are ignored, as in the reference numbers; a legality rule that looks at the game
//! (Parsi's perpetual-check ban) is not: each node lists the moves the game allows there, given
//! the game's positions before the root (none for a position set up on its own) and the tree's
//! path.

use std::sync::{
    atomic::{AtomicBool, AtomicUsize, Ordering},
    Mutex,
};

use super::{
    moves::{Move, MoveList},
    position::Position,
    reference,
};

/// The deepest perft the front ends run (`engine perft`, UCI `go perft`): deeper counts take
/// days even on the small boards.
pub const MAX_DEPTH: u32 = 12;

/// A perft depth beyond [`MAX_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("depth {0} is too deep for perft (at most {MAX_DEPTH})")]
pub struct TooDeepError(pub u32);

/// `depth` itself when the front ends run perft that deep, else why not.
pub fn check_depth(depth: u32) -> Result<u32, TooDeepError> {
    if depth > MAX_DEPTH {
        Err(TooDeepError(depth))
    } else {
        Ok(depth)
    }
}

/// The hashes of the positions before a node, oldest first: the game's before the root, then
/// the tree's path. Kept only where the rules' moves depend on them
/// ([`Position::moves_depend_on_history`]: Parsi's perpetual-check ban); elsewhere it stays
/// empty and costs nothing.
struct Path {
    hashes: Vec<u64>,
    kept: bool,
}

impl Path {
    fn new(root: &Position, history: &[u64]) -> Path {
        let kept = root.moves_depend_on_history();
        Path {
            hashes: if kept { history.to_vec() } else { Vec::new() },
            kept,
        }
    }

    fn moves(&self, pos: &Position) -> MoveList {
        pos.legal_moves_with_history(&self.hashes)
    }

    fn count(&self, pos: &Position) -> u64 {
        pos.count_legal_moves_with_history(&self.hashes)
    }

    /// Steps from `pos` to one of its children.
    fn enter(&mut self, pos: &Position) {
        if self.kept {
            self.hashes.push(pos.hash());
        }
    }

    fn leave(&mut self) {
        if self.kept {
            self.hashes.pop();
        }
    }
}

/// Leaf nodes at `depth` from a position set up on its own (no earlier positions).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_after(pos, depth, &[])
}

/// Leaf nodes at `depth` from a game's position, `history` the hashes of the positions before
/// it (oldest first). Each node lists the moves the game allows there: the legality rules that
/// look at the game (Parsi's perpetual-check ban) see the game's positions and the tree's path
/// to the node.
pub fn perft_after(pos: &Position, depth: u32, history: &[u64]) -> u64 {
    perft_path(pos, depth, &mut Path::new(pos, history))
}

fn perft_path(pos: &Position, depth: u32, path: &mut Path) -> u64 {
    match depth {
        0 => 1,
        1 => path.count(pos),
        _ => {
            let mut nodes = 0;
            let moves = path.moves(pos);
            path.enter(pos);
            for &m in moves.iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                nodes += perft_path(&child, depth - 1, path);
            }
            path.leave();
            nodes
        }
    }
}

/// Leaf nodes at `depth` by the slow reference generator ([`reference`], written directly from
/// the spec, cell by cell): the independent recount of [`perft`]'s numbers.
pub fn reference_perft(pos: &Position, depth: u32) -> u64 {
    reference_path(pos, depth, &mut Path::new(pos, &[]))
}

fn reference_path(pos: &Position, depth: u32, path: &mut Path) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = reference::legal_moves_with_history(pos, &path.hashes);
    if depth == 1 {
        return moves.len() as u64;
    }
    path.enter(pos);
    let nodes = moves
        .into_iter()
        .map(|m| reference_path(&pos.after(m), depth - 1, path))
        .sum();
    path.leave();
    nodes
}

/// [`reference_perft`] below each root move of a game's position (`history` as in
/// [`perft_after`]), in the reference generator's order, the root moves shared among `threads`
/// threads (the reference is slow; deep recounts want every core).
pub fn reference_divide(pos: &Position, depth: u32, history: &[u64], threads: usize) -> Vec<(Move, u64)> {
    let root = Path::new(pos, history);
    let moves = reference::legal_moves_with_history(pos, &root.hashes);
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(vec![0u64; moves.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, moves.len().max(1)) {
            s.spawn(|| {
                let mut path = Path {
                    hashes: root.hashes.clone(),
                    kept: root.kept,
                };
                path.enter(pos);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&m) = moves.get(i) else { break };
                    let n = if depth <= 1 {
                        1
                    } else {
                        reference_path(&pos.after(m), depth - 1, &mut path)
                    };
                    counts.lock().unwrap_or_else(|e| e.into_inner())[i] = n;
                }
            });
        }
    });
    let counts = counts.into_inner().unwrap_or_else(|e| e.into_inner());
    moves.into_iter().zip(counts).collect()
}

/// Leaf nodes below each root move of a game's position (`history` as in [`perft_after`]).
pub fn divide(pos: &Position, depth: u32, history: &[u64]) -> Vec<(Move, u64)> {
    let mut path = Path::new(pos, history);
    let moves = path.moves(pos);
    path.enter(pos);
    moves
        .iter()
        .map(|&m| {
            let n = if depth <= 1 {
                1
            } else {
                perft_path(&pos.after(m), depth - 1, &mut path)
            };
            (m, n)
        })
        .collect()
}

/// How [`divide_until`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivideOutcome {
    /// Leaf nodes counted (below the root moves that were counted to the end).
    pub nodes: u64,
    /// Root moves counted to the end.
    pub counted: usize,
    /// Root moves in all.
    pub moves: usize,
    /// Whether `stop` ended the count before every root move was counted.
    pub stopped: bool,
}

/// [`divide`] that can be interrupted: `each` gets every root move with its count as soon as it
/// is known, and the count ends early, leaving the current root move out, once `stop` is set
/// (it is looked at before each move of every node two or more plies above the leaves, so the
/// count ends within a few milliseconds). Depth 0 counts the position itself, with no moves.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    history: &[u64],
    stop: &AtomicBool,
    each: &mut dyn FnMut(Move, u64),
) -> DivideOutcome {
    if depth == 0 {
        return DivideOutcome {
            nodes: 1,
            counted: 0,
            moves: 0,
            stopped: false,
        };
    }
    let mut path = Path::new(pos, history);
    let moves = path.moves(pos);
    path.enter(pos);
    let mut outcome = DivideOutcome {
        nodes: 0,
        counted: 0,
        moves: moves.len(),
        stopped: false,
    };
    for &m in moves.iter() {
        let n = if stop.load(Ordering::Relaxed) {
            None
        } else if depth == 1 {
            Some(1)
        } else {
            perft_until(&pos.after(m), depth - 1, &mut path, stop)
        };
        // A count cut short is not a count: the move is left out.
        let Some(n) = n else {
            outcome.stopped = true;
            return outcome;
        };
        each(m, n);
        outcome.nodes += n;
        outcome.counted += 1;
    }
    outcome
}

/// [`perft`], or `None` once `stop` is set. The last two plies are counted by [`perft`] without
/// looking at the flag: that is a few thousand moves at most.
fn perft_until(pos: &Position, depth: u32, path: &mut Path, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft_path(pos, depth, path));
    }
    let mut nodes = 0;
    let moves = path.moves(pos);
    path.enter(pos);
    for &m in moves.iter() {
        if stop.load(Ordering::Relaxed) {
            path.leave();
            return None;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        let Some(n) = perft_until(&child, depth - 1, path, stop) else {
            path.leave();
            return None;
        };
        nodes += n;
    }
    path.leave();
    Some(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn divide_until_agrees_with_divide_when_not_stopped() {
        let pos = Position::startpos(Variant::PersianPrincess);
        let stop = AtomicBool::new(false);
        for depth in 0..=3 {
            let mut seen = Vec::new();
            let outcome = divide_until(&pos, depth, &[], &stop, &mut |m, n| seen.push((m, n)));
            let expected = if depth == 0 {
                Vec::new()
            } else {
                divide(&pos, depth, &[])
            };
            assert_eq!(seen, expected, "depth {depth}");
            assert_eq!(outcome.nodes, perft(&pos, depth), "depth {depth}");
            assert_eq!(outcome.counted, expected.len());
            assert_eq!(outcome.moves, expected.len());
            assert!(!outcome.stopped);
        }
    }

    #[test]
    fn divide_until_ends_at_once_when_stopped() {
        // Depth 12 would take days: with the flag set the count ends before the first move.
        let pos = Position::startpos(Variant::PersianPrincess);
        let stop = AtomicBool::new(true);
        let mut seen = 0;
        let outcome = divide_until(&pos, MAX_DEPTH, &[], &stop, &mut |_, _| seen += 1);
        assert_eq!(seen, 0);
        assert!(outcome.stopped);
        assert_eq!((outcome.nodes, outcome.counted), (0, 0));
        assert_eq!(outcome.moves, pos.legal_moves().len());
    }
}
