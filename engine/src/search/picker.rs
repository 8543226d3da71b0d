//! Staged move picking: the moves of one node in the order the search tries them, generated
//! stage by stage so that a cutoff spares the later stages (see [`Picker`]).

use super::{mvv_lva, see, Searcher};
use crate::rules::{moves::MAX_MOVES, Move, MoveList, PieceKind, Position};

pub(super) const SCORE_TT: i32 = 4_000_000;
pub(super) const SCORE_GOOD_CAPTURE: i32 = 2_000_000;
pub(super) const SCORE_PROMOTION: i32 = 1_900_000;
pub(super) const SCORE_KILLER: i32 = 1_000_000;
pub(super) const SCORE_COUNTER: i32 = 900_000;
pub(super) const SCORE_BAD_CAPTURE: i32 = -2_000_000;

/// Move list and ordering scores of one ply, reused from search to search.
///
/// Moves come in stages, each generated only when the earlier ones did not cut off: the table
/// move (tried before any stage), captures and promotions (those that lose material by
/// SEE are put aside), the killers and the countermove, the quiet moves by history, and last
/// the captures put aside. The order is the one a full list scored at once would have.
pub(super) struct Picker {
    pub(super) moves: MoveList,
    pub(super) scores: [i32; MAX_MOVES],
    /// Moves still to pick, packed as (score, index) for sorting.
    pub(super) keys: [u64; MAX_MOVES],
    pub(super) next: usize,
    pub(super) sorted: bool,
    /// Where staged picking is.
    pub(super) stage: Stage,
    /// The table move (tried before any stage; skipped in all of them).
    pub(super) tt_move: Move,
    /// Killers and countermove with their ordering scores; null once tried or when unusable.
    pub(super) refutations: [(Move, i32); 3],
    /// The refutations that were returned (skipped among the quiet moves).
    pub(super) tried_refutations: [Move; 3],
    /// Captures that lose material, and under-promotions: (order score, move, exchange value
    /// when known), tried last.
    pub(super) bad: Vec<(i32, Move, Option<i32>)>,
    /// The exchange value of the move just returned, when picking computed it.
    pub(super) exchange: Option<i32>,
    /// Quiet moves searched at this node (their history is lowered after a cutoff).
    pub(super) quiets: MoveList,
    /// The captures searched at the node so far (for the capture history, `cap_hist`).
    pub(super) captures: MoveList,
    /// Set by the search when every remaining quiet move would be pruned: the quiet stages
    /// are skipped (not generated, or not picked further).
    pub(super) skip_quiets: bool,
}

/// The stages of staged move picking.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stage {
    GenerateCaptures,
    Captures,
    Refutations,
    GenerateQuiets,
    Quiets,
    Bad,
    Done,
}

impl Picker {
    pub(super) fn new() -> Picker {
        Picker {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            keys: [0; MAX_MOVES],
            next: 0,
            sorted: false,
            stage: Stage::Done,
            tt_move: Move::NULL,
            refutations: [(Move::NULL, 0); 3],
            tried_refutations: [Move::NULL; 3],
            bad: Vec::with_capacity(64),
            quiets: MoveList::new(),
            captures: MoveList::new(),
            skip_quiets: false,
            exchange: None,
        }
    }

    /// Moves on to the stage of the captures put aside, best first.
    pub(super) fn start_bad(&mut self) {
        // Kept worst first and taken from the end; equal scores in the order they were put aside.
        self.bad.sort_by_key(|&(score, _, _)| std::cmp::Reverse(score));
        self.bad.reverse();
        self.stage = Stage::Bad;
    }

    /// Prepares picking after the scores are set.
    pub(super) fn start(&mut self) {
        self.next = 0;
        self.sorted = false;
        for i in 0..self.moves.len() {
            self.keys[i] = ((self.scores[i] as u32 ^ 0x8000_0000) as u64) << 32 | i as u64;
        }
    }

    /// The best remaining move: selection for the first pick (a cutoff often comes at once),
    /// then one sort of the rest (measured cheaper than selecting the first three or six).
    pub(super) fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if !self.sorted {
            if self.next < 1 {
                let mut best = self.next;
                for i in self.next + 1..n {
                    if self.keys[i] > self.keys[best] {
                        best = i;
                    }
                }
                self.keys.swap(self.next, best);
            } else {
                self.keys[self.next..n].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = true;
            }
        }
        let i = (self.keys[self.next] & 0xffff_ffff) as usize;
        self.next += 1;
        Some((self.moves.as_slice()[i], self.scores[i]))
    }
}

impl Searcher {
    pub(super) fn take_picker(&mut self, slot: usize) -> Box<Picker> {
        self.pickers[slot].take().unwrap_or_else(|| Box::new(Picker::new()))
    }

    /// Prepares staged picking at a node (see [`Picker`]).
    pub(super) fn start_stages(&self, picker: &mut Picker, tt_move: Move, ply: usize) {
        picker.stage = Stage::GenerateCaptures;
        picker.tt_move = tt_move;
        picker.bad.clear();
        let prev = self.prev_move[ply];
        let counter = if prev.is_null() {
            Move::NULL
        } else {
            self.counter[prev.from().index()][prev.to().index()]
        };
        let [k0, k1] = self.killers[ply];
        picker.refutations = [(k0, SCORE_KILLER + 1), (k1, SCORE_KILLER), (counter, SCORE_COUNTER)];
        picker.tried_refutations = [Move::NULL; 3];
        picker.skip_quiets = false;
        picker.exchange = None;
    }

    /// The next move of staged picking at `ply` with its ordering score, or `None` when all are
    /// done.
    pub(super) fn next_staged(
        &self,
        pos: &Position,
        picker: &mut Picker,
        exchanges: &mut see::Exchanges,
        ply: usize,
    ) -> Option<(Move, i32)> {
        picker.exchange = None;
        loop {
            match picker.stage {
                Stage::GenerateCaptures => {
                    pos.generate_captures_with_history(&mut picker.moves, self.earlier_positions());
                    let values = crate::eval::exchange_values(pos.tables());
                    let see_value = |k: PieceKind| values.of(k);
                    for (i, &m) in picker.moves.as_slice().iter().enumerate() {
                        let promotion = m.promotion_piece();
                        picker.scores[i] = if pos.is_capture(m) {
                            // Tried before anything else: fetch their children's entries now.
                            self.prefetch_child(pos, m);
                            // Positive: the victim is worth more than a sixteenth of the capturer.
                            let score = mvv_lva(pos, m) + promotion.map_or(0, see_value);
                            if self.params.cap_hist == 0 {
                                score
                            } else {
                                // The capture history shifts it (a capture stays positive).
                                (score + self.cap_bonus(pos, m)).max(1)
                            }
                        } else if promotion == Some(PieceKind::Queen) {
                            0
                        } else {
                            if let Some(p) = promotion {
                                picker.bad.push((SCORE_BAD_CAPTURE - 1000 + see_value(p), m, None));
                            }
                            -1
                        };
                    }
                    picker.start();
                    picker.stage = Stage::Captures;
                }
                Stage::Captures => {
                    while let Some((m, score)) = picker.next() {
                        if m == picker.tt_move || score < 0 {
                            continue;
                        }
                        if score == 0 {
                            return Some((m, SCORE_PROMOTION));
                        }
                        if exchanges.surely_ge(m, 0) {
                            return Some((m, SCORE_GOOD_CAPTURE + score));
                        }
                        let value = exchanges.see(m);
                        if value >= 0 {
                            return Some((m, SCORE_GOOD_CAPTURE + score));
                        }
                        picker.bad.push((SCORE_BAD_CAPTURE + score, m, Some(value)));
                    }
                    picker.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    for i in 0..3 {
                        let (m, score) = picker.refutations[i];
                        picker.refutations[i].0 = Move::NULL;
                        if m.is_null()
                            || m == picker.tt_move
                            || picker.tried_refutations[..i].contains(&m)
                            || m.promotion_piece().is_some()
                            || pos.is_capture(m)
                            || !pos.is_legal_move_with_history(m, self.earlier_positions())
                        {
                            continue;
                        }
                        picker.tried_refutations[i] = m;
                        return Some((m, score));
                    }
                    picker.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets | Stage::Quiets if picker.skip_quiets => picker.start_bad(),
                Stage::GenerateQuiets => {
                    pos.generate_quiets_with_history(&mut picker.moves, self.earlier_positions());
                    let us = pos.turn().index();
                    for (i, &m) in picker.moves.as_slice().iter().enumerate() {
                        picker.scores[i] = self.history[us][m.from().index()][m.to().index()];
                    }
                    if self.params.cont_hist != 0 {
                        // `cont_hist`: the continuation history of the moves one and two plies
                        // before is added.
                        let rows = self.cont_rows(pos, ply);
                        for (i, &m) in picker.moves.as_slice().iter().enumerate() {
                            picker.scores[i] += self.cont_bonus(pos, &rows, m);
                        }
                    }
                    if self.params.pawn_hist != 0 {
                        // `pawn_hist`: the pawn history of the position's pawns is added.
                        let row = Self::pawn_row(pos);
                        for (i, &m) in picker.moves.as_slice().iter().enumerate() {
                            picker.scores[i] += self.pawn_bonus(pos, row, m);
                        }
                    }
                    let threat = self.params.quiet_threat;
                    if threat != 0 {
                        // `quiet_threat`: a piece (not a pawn) that leaves a cell an enemy pawn
                        // attacks gains, one that steps onto such a cell loses.
                        let hit = pos.pawn_attacked_cells(!pos.turn());
                        if hit.any() {
                            let pawns = pos.pieces(pos.turn(), PieceKind::Pawn);
                            for (i, &m) in picker.moves.as_slice().iter().enumerate() {
                                if pawns.has(m.from()) {
                                    continue;
                                }
                                if hit.has(m.from()) {
                                    picker.scores[i] += threat;
                                }
                                if hit.has(m.to()) {
                                    picker.scores[i] -= threat;
                                }
                            }
                        }
                    }
                    picker.start();
                    picker.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    while let Some((m, score)) = picker.next() {
                        if m == picker.tt_move || picker.tried_refutations.contains(&m) {
                            continue;
                        }
                        return Some((m, score));
                    }
                    picker.start_bad();
                }
                Stage::Bad => match picker.bad.pop() {
                    // A non-capture under-promotion goes here without a look at the table
                    // move: it was tried first (or is the excluded move of a singular test).
                    Some((_, m, _)) if m == picker.tt_move => {}
                    Some((score, m, value)) => {
                        picker.exchange = value;
                        return Some((m, score));
                    }
                    None => picker.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}
