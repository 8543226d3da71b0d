//! What a move changes on the board, as pieces removed and added: the input of incremental
//! evaluation (NNUE accumulators). A built-in move touches at most two pieces on each side of
//! the ledger: a capture removes the victim and moves the capturer, castling moves king and
//! rook, the rendezvous swaps two pieces, a promotion replaces the pawn. A rule's compound move
//! may touch up to [`MAX_DELTA`] (Parsi's promotion with a bonus leap that captures).

use super::{
    geometry::Square,
    moves::{Move, MoveKind},
    piece::{Piece, PieceKind},
    position::Position,
};

/// Most pieces a move may remove, and most it may add (two for the built-in moves; custom
/// rules' compound moves may use more).
pub const MAX_DELTA: usize = 4;

/// Pieces a move removes and adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveDelta {
    /// Removed pieces with their squares (the first `removed_len` entries are used).
    pub removed: [(Square, Option<Piece>); MAX_DELTA],
    /// Number of removed pieces.
    pub removed_len: usize,
    /// Added pieces with their squares.
    pub added: [(Square, Option<Piece>); MAX_DELTA],
    /// Number of added pieces.
    pub added_len: usize,
}

impl MoveDelta {
    pub(crate) fn remove(&mut self, sq: Square, p: Piece) {
        self.removed[self.removed_len] = (sq, Some(p));
        self.removed_len += 1;
    }

    pub(crate) fn add(&mut self, sq: Square, p: Piece) {
        self.added[self.added_len] = (sq, Some(p));
        self.added_len += 1;
    }

    /// The removed pieces.
    pub fn removed(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.removed[..self.removed_len]
            .iter()
            .filter_map(|&(s, p)| p.map(|p| (s, p)))
    }

    /// The added pieces.
    pub fn added(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.added[..self.added_len]
            .iter()
            .filter_map(|&(s, p)| p.map(|p| (s, p)))
    }
}

impl Position {
    /// The pieces `m` (a legal move of this position) removes and adds.
    pub fn move_delta(&self, m: Move) -> MoveDelta {
        let mut d = MoveDelta::default();
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else { return d };
        match m.kind() {
            MoveKind::Normal | MoveKind::DoubleStep => {
                if let Some(victim) = self.piece_at(to) {
                    d.remove(to, victim);
                }
                d.remove(from, mover);
                d.add(to, mover);
            }
            MoveKind::EnPassant => {
                let captured = self.en_passant_victim(to);
                if let Some(victim) = self.piece_at(captured) {
                    d.remove(captured, victim);
                }
                d.remove(from, mover);
                d.add(to, mover);
            }
            MoveKind::Promotion => {
                if let Some(victim) = self.piece_at(to) {
                    d.remove(to, victim);
                }
                d.remove(from, mover);
                let kind = m.promotion_piece().unwrap_or(PieceKind::Queen);
                d.add(
                    to,
                    Piece {
                        color: mover.color,
                        kind,
                    },
                );
            }
            MoveKind::Castle => {
                if let Some(c) = self
                    .tables()
                    .castling
                    .iter()
                    .find(|c| c.color == mover.color && c.king_from == from && c.king_to == to)
                {
                    if let Some(rook) = self.piece_at(c.rook_from) {
                        d.remove(c.king_from, mover);
                        d.remove(c.rook_from, rook);
                        d.add(c.king_to, mover);
                        d.add(c.rook_to, rook);
                    }
                }
            }
            MoveKind::Rendezvous => {
                if let Some(r) = &self.tables().rules.rendezvous {
                    r.delta(self, from, to, mover, &mut d);
                }
            }
            MoveKind::Rule => {
                d = custom_delta(self, &self.after(m)).unwrap_or_else(|| {
                    panic!(
                        "{}: a move of a custom rule changes more than {MAX_DELTA} pieces",
                        self.tables().spec.id
                    )
                })
            }
        }
        d
    }
}

/// The diff of the board before and after a custom move, as incremental evaluation wants it
/// (at most [`MAX_DELTA`] pieces removed and as many added; `None` beyond).
fn custom_delta(before: &Position, after: &Position) -> Option<MoveDelta> {
    let mut d = MoveDelta::default();
    let changed = (before.occupied() | after.occupied())
        .iter()
        .filter(|&sq| before.piece_at(sq) != after.piece_at(sq));
    for sq in changed {
        if let Some(p) = before.piece_at(sq) {
            if d.removed_len == MAX_DELTA {
                return None;
            }
            d.remove(sq, p);
        }
        if let Some(p) = after.piece_at(sq) {
            if d.added_len == MAX_DELTA {
                return None;
            }
            d.add(sq, p);
        }
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// Applying the delta to the board of the position gives the board after the move.
    #[test]
    fn delta_describes_the_move() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for v in Variant::ALL {
            for _game in 0..30 {
                let mut pos = Position::startpos(v);
                for _ply in 0..100 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in moves.iter() {
                        let d = pos.move_delta(m);
                        // Built-in moves change at most two pieces each way; rule moves (Parsi's
                        // promotion with a bonus leap takes up to two pieces) up to MAX_DELTA.
                        let most = if m.kind() == crate::rules::MoveKind::Rule {
                            MAX_DELTA
                        } else {
                            2
                        };
                        assert!(d.removed_len <= most && d.added_len <= most, "{v}: {m:?}");
                        let after = pos.after(m);
                        let mut board: Vec<(Square, Piece)> = pos
                            .occupied()
                            .iter()
                            .filter_map(|s| pos.piece_at(s).map(|p| (s, p)))
                            .collect();
                        for r in d.removed() {
                            let i = board.iter().position(|x| *x == r).expect("removed piece was there");
                            board.remove(i);
                        }
                        board.extend(d.added());
                        board.sort_by_key(|x| x.0);
                        let expected: Vec<(Square, Piece)> = after
                            .occupied()
                            .iter()
                            .filter_map(|s| after.piece_at(s).map(|p| (s, p)))
                            .collect();
                        assert_eq!(board, expected, "{v}: {} in {}", pos.uci(m), pos.fen());
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    pos.play_unchecked(moves.as_slice()[(state % moves.len() as u64) as usize]);
                }
            }
        }
    }
}
