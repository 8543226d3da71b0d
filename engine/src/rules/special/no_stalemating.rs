//! The stalemate ban of Parsi Chess (rules note A.7): a move is illegal when, after it, the
//! opponent is not in check and has no legal move. The opponent's moves are judged with ordinary
//! legality, not with this ban (or any other custom filter), so the definition is not recursive.
//! ENGINE POLICY fallback: when every otherwise legal move stalemates the opponent, they are all
//! legal, and the stalemate that follows is a draw (as is a stalemate given in a FEN).

use super::CustomRule;
use crate::rules::{
    geometry::{Bitboard, Square},
    moves::{Move, MoveKind, MoveList},
    piece::{Color, PieceKind},
    position::{AttackClasses, Position},
    tables::{is_orthogonal, NO_DIRECTION},
};
use std::cell::Cell;

/// The rule.
#[derive(Debug)]
pub struct NoStalemating;

/// The rule, to name in a variant's rules.
pub static NO_STALEMATING: NoStalemating = NoStalemating;

impl CustomRule for NoStalemating {
    fn name(&self) -> &'static str {
        "no stalemating"
    }

    fn has_filter(&self) -> bool {
        true
    }

    /// During an opening series; or when three of the opponent's quiet moves are witnesses
    /// (see [`Witnesses`]) with pairwise disjoint danger masks: an ordinary move, like a rule's
    /// quiet king move, changes the board on two squares only, so it spoils at most two of them.
    fn filter_spares_ordinary_moves(&self, pos: &Position, _history: &[u64]) -> bool {
        pos.in_opening_series() || Witnesses::three_disjoint(pos)
    }

    fn filter_keeps(&self, pos: &Position, _history: &[u64], m: Move) -> bool {
        pos.in_opening_series() || !stalemates(pos, m)
    }

    fn filter(&self, pos: &Position, _history: &[u64], moves: &mut MoveList) {
        let kept = allowed(pos, moves);
        // The fallback: nothing but stalemating moves, so they stay legal.
        if let Some(kept) = kept.filter(|k| !k.is_empty()) {
            *moves = kept;
        }
    }

    fn filter_part(&self, pos: &Position, _history: &[u64], moves: &mut MoveList) -> bool {
        if let Some(kept) = allowed(pos, moves) {
            *moves = kept;
        }
        true
    }
}

/// The moves of `moves` that do not stalemate, or `None` when that is all of them (the usual
/// case: most lists lose nothing, so a copy is made only from the first move that stalemates).
fn allowed(pos: &Position, moves: &MoveList) -> Option<MoveList> {
    // Not during an opening series (rules note A.9).
    if pos.in_opening_series() {
        return None;
    }
    // Pawns off the king's lines are witnesses with pairwise disjoint masks, counted in bulk: a
    // move that changes fewer squares than there are such pawns keeps one of them. The other
    // witnesses are looked for only when a move needs them.
    let pawns = bulk_pawn_witnesses(pos);
    let mut witnesses = None;
    let mut stalemates = |m: Move| {
        let touched = changed_squares(pos, m);
        if touched.is_some_and(|t| t.count() < pawns) {
            return false;
        }
        let w = witnesses.get_or_insert_with(|| Witnesses::of_cached(pos));
        !w.survive(touched) && stalemates(pos, m)
    };
    let first = moves.iter().position(|&m| stalemates(m))?;
    let mut kept = MoveList::new();
    for &m in &moves.as_slice()[..first] {
        kept.push(m);
    }
    for &m in &moves.as_slice()[first + 1..] {
        if !stalemates(m) {
            kept.push(m);
        }
    }
    Some(kept)
}

/// The squares whose contents `m` changes, where the board on them is all it changes that the
/// opponent's moves depend on: an ordinary move, a double step or a promotion changes its two
/// squares (a promotion changes the mover's material, which can only make its own stuck pawns
/// attack less); a rule's move what the rule says
/// ([`CustomRule::changed_squares`](super::CustomRule::changed_squares)); `None` for the others.
fn changed_squares(pos: &Position, m: Move) -> Option<Bitboard> {
    match m.kind() {
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Promotion => Some(m.from().bb() | m.to().bb()),
        MoveKind::Rule => pos
            .tables()
            .rules
            .custom_rules
            .get(m.rule_index())
            .and_then(|r| r.changed_squares(pos, m)),
        _ => None,
    }
}

/// Whether `m` leaves the opponent out of check and without a legal move (played out).
fn stalemates(pos: &Position, m: Move) -> bool {
    let after = pos.after(m);
    !(after.in_check() || surely_has_a_move(&after) || after.has_legal_move_unfiltered())
}

/// A quick sufficient test that the side to move (not in check, with one royal piece) has a legal
/// move: one of its other pieces has a quiet move (to an empty square, no promotion) and is not
/// pinned (taking it off the board exposes the royal piece to nothing). A quiet move changes no
/// material, so it changes no attack that depends on material (stuck pawns), and a piece that is
/// not pinned cannot expose its king by moving. False says nothing.
pub fn surely_has_a_move(pos: &Position) -> bool {
    let us = pos.turn();
    let royals = pos.royals(us);
    if royals.count() != 1 || pos.in_check() {
        return false;
    }
    let king = royals.lsb();
    let occ = pos.occupied();
    (pos.color_bb(us) & !royals)
        .iter()
        .any(|sq| quiet_targets(pos, us, sq).any() && pos.attackers(king, !us, occ ^ sq.bb()).is_empty())
}

/// The squares `color`'s piece on `sq` reaches by a quiet move: an empty square, no promotion
/// (a pawn's single step, a piece's ordinary move).
fn quiet_targets(pos: &Position, color: Color, sq: Square) -> Bitboard {
    let t = pos.tables();
    let Some(p) = pos.piece_at(sq) else {
        return Bitboard::EMPTY;
    };
    let empty = !pos.occupied() & t.geometry.playable;
    if p.kind == PieceKind::Pawn {
        match t.square_ahead(color, sq) {
            Some(ahead) if !t.promotion_squares[color].has(ahead) => ahead.bb() & empty & !t.forbidden[PieceKind::Pawn],
            _ => Bitboard::EMPTY,
        }
    } else {
        t.attacks(p.kind, sq, pos.occupied()) & empty & !t.forbidden[p.kind]
    }
}

/// At most this many witnesses are kept.
const MAX_WITNESSES: usize = 3;

/// Quiet moves of the side not to move that prove, for most moves of the side to move, that the
/// opponent still has a legal move afterwards, without playing the move out (a shortcut of the
/// ban's test; the full test decides every move the shortcut does not).
///
/// A witness is a piece of the opponent, not royal, with a quiet move (to an empty square, no
/// promotion) that exposes its single royal piece to nothing now. Its danger mask holds the
/// piece's square, the target, the squares between them, and the whole line from the royal
/// piece through the piece. An ordinary move (or a double step) of the side to move that
/// neither leaves nor reaches a square of the mask keeps the witness: it cannot take the piece,
/// block the move, or pin the piece (a pin needs a straight rider on that line, and the move
/// changes the board only on its two squares). Such a move gives check (and is legal under the
/// ban) or leaves the witness's move legal. Variants with bent riders or royalty by a rule get no
/// witnesses.
#[derive(Clone, Copy)]
struct Witnesses {
    masks: [Bitboard; MAX_WITNESSES],
    len: usize,
}

/// What [`Witnesses::of_cached`] compares to find the position of its last answer: its tables
/// (the variant and its rule settings, which live as long as the program), the position's hash
/// (every piece, the side to move), the occupied squares and White's.
type WitnessKey = (usize, u64, Bitboard, Bitboard);

thread_local! {
    /// The witnesses of the last position asked for on this thread: the search asks for the
    /// same node's up to three times (its captures, its other moves, a move from the hash table
    /// or a killer slot), each its own call into the rules.
    static LAST_WITNESSES: Cell<Option<(WitnessKey, Witnesses)>> = const { Cell::new(None) };
}

impl Witnesses {
    /// The first witnesses found (at most [`MAX_WITNESSES`]).
    fn of(pos: &Position) -> Witnesses {
        Witnesses::collect(pos, false)
    }

    /// [`Witnesses::of`], remembered for the last position asked for on this thread.
    fn of_cached(pos: &Position) -> Witnesses {
        let key = (
            std::ptr::from_ref(pos.tables()) as usize,
            pos.hash(),
            pos.occupied(),
            pos.color_bb(Color::White),
        );
        LAST_WITNESSES.with(|last| match last.get() {
            Some((k, w)) if k == key => w,
            _ => {
                let w = Witnesses::of(pos);
                last.set(Some((key, w)));
                w
            }
        })
    }

    /// Whether [`MAX_WITNESSES`] witnesses with pairwise disjoint masks exist (pawns off the
    /// king's lines are counted in bulk first).
    fn three_disjoint(pos: &Position) -> bool {
        bulk_pawn_witnesses(pos) >= MAX_WITNESSES as u32 || Witnesses::collect(pos, true).len == MAX_WITNESSES
    }

    fn collect(pos: &Position, disjoint: bool) -> Witnesses {
        let mut w = Witnesses {
            masks: [Bitboard::EMPTY; MAX_WITNESSES],
            len: 0,
        };
        let t = pos.tables();
        let us = pos.turn();
        let them = !us;
        let Some(king) = witnessed_king(pos) else {
            return w;
        };
        let occ = pos.occupied();
        // A position never has the side not to move in check (setups are refused so), so only
        // a slider can pin: the pin tests need the sliders alone.
        debug_assert!(pos.attackers(king, us, occ).is_empty());
        let pieces = pos.color_bb(them) & !king.bb();
        let sliders = pos.slider_classes();
        // For disjoint masks pawns first, found in bulk: a pawn's quiet move is the square
        // ahead, so pawns on different files off the king's lines give disjoint masks at once.
        let mut pawns = Bitboard::EMPTY;
        if disjoint {
            let push = t.pawn_push[them];
            let free = !occ & t.geometry.playable & !t.promotion_squares[them] & !t.forbidden[PieceKind::Pawn];
            let behind_free = if push >= 0 {
                Bitboard(free.0 >> push)
            } else {
                Bitboard(free.0 << -push)
            };
            pawns = pieces & pos.pieces(them, PieceKind::Pawn);
            for sq in pawns & behind_free {
                let to = Square((sq.0 as i32 + push) as u8);
                let line = line_through(pos, king, sq);
                let mask = sq.bb() | to.bb() | line;
                if w.masks[..w.len].iter().any(|&m| (m & mask).any())
                    || (line.any() && pinned(pos, &sliders, king, sq, us))
                {
                    continue;
                }
                w.masks[w.len] = mask;
                w.len += 1;
                if w.len == MAX_WITNESSES {
                    return w;
                }
            }
        }
        for sq in pieces & !pawns {
            let targets = quiet_targets(pos, them, sq);
            if targets.is_empty() {
                continue;
            }
            // The nearest target keeps the mask small.
            let near = targets & t.leaps[PieceKind::King][sq.index()];
            let to = if near.any() { near.lsb() } else { targets.lsb() };
            let line = line_through(pos, king, sq);
            let mask = sq.bb() | to.bb() | t.between(sq, to) | line;
            if disjoint && w.masks[..w.len].iter().any(|&m| (m & mask).any()) {
                continue;
            }
            // Pinned: the king is not attacked (tested above), so only a piece on a line from it
            // can expose it.
            if line.any() && pinned(pos, &sliders, king, sq, us) {
                continue;
            }
            w.masks[w.len] = mask;
            w.len += 1;
            if w.len == MAX_WITNESSES {
                break;
            }
        }
        w
    }

    /// Whether one witness surely keeps its move after a move of the position that changes the
    /// board on `touched` only (its [`changed_squares`]; `None`: not known): one witness's mask
    /// avoids them.
    #[inline]
    fn survive(&self, touched: Option<Bitboard>) -> bool {
        let Some(touched) = touched else {
            return false;
        };
        self.masks[..self.len].iter().any(|&mask| (mask & touched).is_empty())
    }
}

/// The royal piece of the side not to move, where witnesses can be had: the variant has no bent
/// riders and no royalty by a rule, and that side has exactly one royal piece.
fn witnessed_king(pos: &Position) -> Option<Square> {
    let t = pos.tables();
    let royals = pos.royals(!pos.turn());
    (t.bent_riders.is_empty() && t.rules.royalty_rule.is_none() && royals.count() == 1).then(|| royals.lsb())
}

/// The number of pawn witnesses [`off_line_pawn_witnesses`] finds (0 without a
/// [`witnessed_king`]). Their masks are pairwise disjoint, so a move that changes fewer squares
/// than this keeps one of them.
fn bulk_pawn_witnesses(pos: &Position) -> u32 {
    witnessed_king(pos).map_or(0, |king| off_line_pawn_witnesses(pos, king))
}

/// The pawns of the side not to move, off every line through its `king`, whose square ahead is
/// free and not a promotion square: each is a witness whose mask is its square and the one
/// ahead (no line, no pin), so their masks never meet.
fn off_line_pawn_witnesses(pos: &Position, king: Square) -> u32 {
    let t = pos.tables();
    let them = !pos.turn();
    let push = t.pawn_push[them];
    let free = !pos.occupied() & t.geometry.playable & !t.promotion_squares[them] & !t.forbidden[PieceKind::Pawn];
    let behind_free = if push >= 0 {
        Bitboard(free.0 >> push)
    } else {
        Bitboard(free.0 << -push)
    };
    let lines = t.orthogonal_lines[king.index()] | t.diagonal_lines[king.index()];
    (pos.pieces(them, PieceKind::Pawn) & behind_free & !lines).count()
}

/// Whether the piece on `sq`, on a line from `king` (not attacked), is pinned by a slider of
/// `by`: nothing between it and the king, and the next piece beyond it on the line is such a
/// slider.
fn pinned(pos: &Position, sliders: &AttackClasses, king: Square, sq: Square, by: Color) -> bool {
    let t = pos.tables();
    let d = t.direction[king.index()][sq.index()];
    if d == NO_DIRECTION || (t.between(king, sq) & pos.occupied()).any() {
        return false;
    }
    let d = d as usize;
    let beyond = t.ray_attacks(d, sq, pos.occupied()) & pos.occupied();
    let kind = if is_orthogonal(d) {
        sliders.orthogonal
    } else {
        sliders.diagonal
    };
    (beyond & kind & pos.color_bb(by)).any()
}

/// The squares from `king` through `sq` to the edge of the board, when they are on one line.
fn line_through(pos: &Position, king: Square, sq: Square) -> Bitboard {
    let t = pos.tables();
    let d = t.direction[king.index()][sq.index()];
    if d == NO_DIRECTION {
        Bitboard::EMPTY
    } else {
        t.rays[d as usize][king.index()]
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        reference,
        special::test_support::parsi::{agrees_with_reference, fen},
        DrawReason, Move, Outcome,
    };

    /// A.7: a move that leaves the opponent without a move and not in check is illegal; a
    /// stalemate given in a FEN is a draw.
    #[test]
    fn stalemating_is_forbidden() {
        // Black's king on a8 with its pawn blocked: Qc7 would leave it no move.
        let pos = fen("k7/p7/P2Q4/8/8/8/8/4K3 w - - 0 1");
        let stalemating = reference::pseudo_legal_moves(&pos)
            .into_iter()
            .find(|&m| pos.uci(m) == "d6c7")
            .expect("the vizier reaches c7");
        assert!(pos.legal_moves_unfiltered().contains(stalemating));
        assert!(!pos.legal_moves().contains(stalemating));
        assert!(!pos.is_legal_move(stalemating));
        assert!(pos.parse_uci("d6d7").is_ok(), "Qd7 leaves b8");
        agrees_with_reference(&pos);
        // A pin stalemates too: Bc3 pins Black's only movable piece, the knight, against the king
        // stuck on h8; Be3 does not.
        let pin = fen("7k/5K2/6P1/8/3n4/8/3B4/8 w - - 0 1");
        assert!(pin.parse_uci("d2c3").is_err(), "Bc3 would pin the knight and stalemate");
        assert!(pin.parse_uci("d2e3").is_ok());
        agrees_with_reference(&pin);
        // Black to move there has no move and is not in check: a draw.
        let stalemate = fen("k7/p1Q5/P7/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(stalemate.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
    }

    /// The witnesses' shortcut is sound: in Parsi games that run to bare endings and promote
    /// (captures, promotions and pawn moves preferred), every move by the other rules that a
    /// witness survives (ordinary moves, promotions, king leaps and bonus leaps among them) does
    /// not stalemate when played out; nor does a move that changes fewer squares than there are
    /// pawn witnesses counted in bulk.
    #[test]
    fn a_surviving_witness_proves_the_move_harmless() {
        use super::{bulk_pawn_witnesses, changed_squares, stalemates, Witnesses};
        use crate::{
            rng::SplitMix64,
            rules::{MoveKind, PieceKind, Position, Variant},
        };
        let mut rng = SplitMix64::new(0x0051_a1e3_5eed);
        let (mut promotions, mut rule_moves, mut stalemating, mut judged) = (0u64, 0u64, 0u64, 0u64);
        let mut spared_in_bulk = 0u64;
        for _game in 0..200 {
            let mut pos = Position::startpos(Variant::Parsi);
            for _ply in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !pos.in_opening_series() {
                    let witnesses = Witnesses::of(&pos);
                    let pawns = bulk_pawn_witnesses(&pos);
                    for &m in pos.legal_moves_unfiltered().iter() {
                        let played = stalemates(&pos, m);
                        let after = pos.after(m);
                        assert_eq!(
                            after.has_legal_move_unfiltered(),
                            !after.legal_moves_unfiltered().is_empty(),
                            "{}",
                            after.fen()
                        );
                        stalemating += u64::from(played);
                        judged += 1;
                        if changed_squares(&pos, m).is_some_and(|t| t.count() < pawns) {
                            assert!(!played, "{} spared in bulk but stalemates in {}", pos.uci(m), pos.fen());
                            spared_in_bulk += 1;
                        }
                        if witnesses.survive(changed_squares(&pos, m)) {
                            assert!(!played, "{} spared but stalemates in {}", pos.uci(m), pos.fen());
                            match m.kind() {
                                MoveKind::Promotion => promotions += 1,
                                MoveKind::Rule => rule_moves += 1,
                                _ => {}
                            }
                        }
                    }
                }
                let pick = |keep: &dyn Fn(Move) -> bool, rng: &mut SplitMix64| {
                    let some: Vec<Move> = moves.iter().copied().filter(|&m| keep(m)).collect();
                    (!some.is_empty()).then(|| some[(rng.next_u64() % some.len() as u64) as usize])
                };
                let roll = rng.next_u64() % 10;
                let pawn = |m: Move| pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceKind::Pawn);
                let m = (roll < 5)
                    .then(|| pick(&|m| pos.is_capture_or_promotion(m), &mut rng))
                    .flatten()
                    .or_else(|| (roll < 8).then(|| pick(&pawn, &mut rng)).flatten())
                    .unwrap_or_else(|| moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
                pos.play_unchecked(m);
            }
        }
        eprintln!(
            "{judged} moves judged, {stalemating} stalemating; spared {promotions} promotions, {rule_moves} rule moves; {spared_in_bulk} spared in bulk"
        );
        assert!(judged > 100_000, "only {judged} moves judged");
        assert!(spared_in_bulk > 0, "no move spared in bulk");
        assert!(stalemating > 0, "no move stalemated");
        assert!(
            promotions > 0 && rule_moves > 0,
            "spared: {promotions} promotions, {rule_moves} rule moves"
        );
    }

    /// The staged lists the search generates (captures, then the rest) obey the ban as the whole
    /// list does: Qxd3 takes Black's last piece and stalemates, and it was the only capture, so a
    /// filter that judged the captures alone took it for "nothing else to play" and kept it.
    #[test]
    fn staged_lists_obey_the_stalemate_ban() {
        let pos = fen("5B1k/8/5N2/8/8/3n4/P5KP/R2Q2NR w - - 0 8");
        let qxd3 = *pos
            .legal_moves_unfiltered()
            .iter()
            .find(|&&m| pos.uci(m) == "d1d3")
            .expect("Qxd3 is a move by the other rules");
        assert!(pos.parse_uci("d1d3").is_err(), "the UCI reader refuses it");
        assert!(!pos.legal_moves().contains(qxd3), "Qxd3 stalemates");
        assert!(!pos.capture_moves().contains(qxd3), "nor is it a legal capture");
        let mut quiets = crate::rules::MoveList::new();
        pos.generate_quiets(&mut quiets);
        let mut staged: Vec<u32> = pos
            .capture_moves()
            .iter()
            .chain(quiets.iter())
            .map(|m| m.raw())
            .collect();
        let mut whole: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
        staged.sort_unstable();
        whole.sort_unstable();
        assert_eq!(staged, whole, "captures and the rest make the whole list");
    }
}
