//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side capturing with its least valuable piece that may legally end its move there.

use crate::{
    eval::{exchange_values, ExchangeValues},
    rules::{tables::NO_DIRECTION, AttackClasses, Move, MoveKind, PieceKind, Position},
};

/// Whether the exchange started by `m` gains at least `threshold` centipawns.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    Exchanges::new(pos).see_ge(m, threshold)
}

/// The exchange value of a move (0 for quiet non-promotion moves).
pub fn see(pos: &Position, m: Move) -> i32 {
    Exchanges::new(pos).see(m)
}

/// Exchange evaluation of several moves of one position: the position's pieces are grouped by
/// how they attack ([`AttackClasses`]) once, at the first move that needs it.
pub struct Exchanges<'a> {
    pos: &'a Position,
    classes: Option<AttackClasses>,
    values: &'static ExchangeValues,
}

impl<'a> Exchanges<'a> {
    /// For the moves of `pos`.
    #[inline]
    pub fn new(pos: &'a Position) -> Exchanges<'a> {
        Exchanges {
            pos,
            classes: None,
            values: exchange_values(pos.tables()),
        }
    }

    /// Whether the exchange started by `m` gains at least `threshold` centipawns.
    #[inline]
    pub fn see_ge(&mut self, m: Move, threshold: i32) -> bool {
        self.surely_ge(m, threshold) || self.see(m) >= threshold
    }

    /// The quick part of [`Exchanges::see_ge`]: true when the move gains at least `threshold`
    /// whatever the recaptures (what it takes, nothing for a quiet move, less the mover's own
    /// value, which is the most the recaptures can cost: the mover's side may stop after any
    /// of them); false says nothing.
    #[inline]
    pub fn surely_ge(&self, m: Move, threshold: i32) -> bool {
        let pos = self.pos;
        if threshold <= 0 && m.kind() == MoveKind::Normal {
            if let Some(mover) = pos.piece_at(m.from()) {
                let taken = pos.piece_at(m.to()).map_or(0, |victim| self.values.of(victim.kind));
                return mover.kind != PieceKind::King && taken - self.values.of(mover.kind) >= threshold;
            }
        }
        false
    }

    /// The exchange value of a move (0 for quiet non-promotion moves).
    pub fn see(&mut self, m: Move) -> i32 {
        let pos = self.pos;
        let cl = self.classes.get_or_insert_with(|| pos.attack_classes());
        exchange(pos, cl, self.values, m)
    }
}

fn exchange(pos: &Position, cl: &AttackClasses, values: &ExchangeValues, m: Move) -> i32 {
    let see_value = |k: PieceKind| values.of(k);
    match m.kind() {
        MoveKind::Castle | MoveKind::Rendezvous | MoveKind::Rule => return 0,
        MoveKind::EnPassant => return 0,
        _ => {}
    }
    let t = pos.tables();
    let to = m.to();
    let from = m.from();
    let Some(mover) = pos.piece_at(from) else { return 0 };
    let mut gain = [0i32; 40];
    gain[0] = pos.piece_at(to).map_or(0, |p| see_value(p.kind));
    let mut on_square = mover.kind;
    if let Some(k) = m.promotion_piece() {
        gain[0] += see_value(k) - see_value(PieceKind::Pawn);
        on_square = k;
    }
    let mut occ = pos.occupied() ^ from.bb();
    // Every piece attacking `to` through the current occupancy, both sides; pieces that have
    // captured are taken out of `occ` and out of this set, and sliders behind them come in.
    let mut attackers = pos.all_attackers_with(cl, to, occ) & occ;
    let sliders = cl.orthogonal | cl.diagonal;
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let ours = attackers & pos.color_bb(side);
        if ours.is_empty() {
            break;
        }
        // The least valuable attacker that may end its move on `to` (lowest square first).
        let mut capturer = None;
        for kind in values.by_value {
            let bb = ours & pos.kind_bb(kind);
            if bb.is_empty() || !t.may_capture_on(kind, to) {
                continue;
            }
            capturer = Some((bb.lsb(), kind));
            break;
        }
        let Some((sq, kind)) = capturer else { break };
        let after = occ ^ sq.bb();
        let mut next = attackers ^ sq.bb();
        // Sliders behind the capturer come in; bent rides may open anywhere, so with bent
        // riders on the board the attackers are found again.
        if cl.bent.any() || (sliders & after).any() && t.direction[to.index()][sq.index()] != NO_DIRECTION {
            next = pos.all_attackers_with(cl, to, after) & after;
        }
        // A king may capture only if the other side has no attacker left.
        if kind == PieceKind::King && (next & pos.color_bb(!side)).any() {
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = see_value(on_square) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        on_square = kind;
        occ = after;
        attackers = next;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        eval::params::see_value,
        rules::{Bitboard, Square, Variant},
    };

    /// The exchange by the definition, step by step: at each capture all attackers of the side
    /// are found again and the least valuable one that may end its move on the square takes.
    fn see_by_definition(pos: &Position, m: Move) -> i32 {
        let values = exchange_values(pos.tables());
        let see_value = |k: PieceKind| values.of(k);
        if matches!(
            m.kind(),
            MoveKind::Castle | MoveKind::Rendezvous | MoveKind::EnPassant | MoveKind::Rule
        ) {
            return 0;
        }
        let t = pos.tables();
        let (from, to) = (m.from(), m.to());
        let least_valuable = |attackers: Bitboard| -> Option<(Square, PieceKind)> {
            let mut best: Option<(Square, PieceKind)> = None;
            for sq in attackers {
                let p = pos.piece_at(sq).unwrap();
                if !t.may_capture_on(p.kind, to) {
                    continue;
                }
                if best.is_none_or(|b| see_value(p.kind) < see_value(b.1)) {
                    best = Some((sq, p.kind));
                }
            }
            best
        };
        let mut gain = vec![pos.piece_at(to).map_or(0, |p| see_value(p.kind))];
        let mut on_square = pos.piece_at(from).unwrap().kind;
        if let Some(k) = m.promotion_piece() {
            gain[0] += see_value(k) - see_value(PieceKind::Pawn);
            on_square = k;
        }
        let mut occ = pos.occupied() ^ from.bb();
        let mut side = !pos.turn();
        while let Some((sq, kind)) = least_valuable(pos.attackers(to, side, occ) & occ) {
            if kind == PieceKind::King && (pos.attackers(to, !side, occ ^ sq.bb()) & occ & !sq.bb()).any() {
                break;
            }
            let last = *gain.last().unwrap();
            gain.push(see_value(on_square) - last);
            if (-last).max(see_value(on_square) - last) < 0 {
                break;
            }
            on_square = kind;
            occ ^= sq.bb();
            side = !side;
        }
        while gain.len() > 1 {
            let g = gain.pop().unwrap();
            let last = gain.last_mut().unwrap();
            *last = -(-*last).max(g);
        }
        gain[0]
    }

    #[test]
    fn exchanges_match_the_definition_in_random_games() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for v in Variant::ALL {
            for _ in 0..40 {
                let mut pos = Position::startpos(v);
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.immediate_outcome().is_some() {
                        break;
                    }
                    let mut exchanges = Exchanges::new(&pos);
                    for &m in moves.iter() {
                        // Quiet moves too: the quick test's bound (the mover's value) holds for them.
                        let quiet = pos.piece_at(m.to()).is_none() && m.promotion_piece().is_none();
                        if quiet && m.kind() == MoveKind::Normal {
                            let expected = see_by_definition(&pos, m);
                            for threshold in [-1000, -500, -300, -100, -1, 0] {
                                assert_eq!(exchanges.see_ge(m, threshold), expected >= threshold);
                                if exchanges.surely_ge(m, threshold) {
                                    assert!(expected >= threshold, "{v}: {} {}", pos.fen(), pos.uci(m));
                                }
                            }
                        }
                        if pos.piece_at(m.to()).is_some() || m.promotion_piece().is_some() {
                            let expected = see_by_definition(&pos, m);
                            assert_eq!(see(&pos, m), expected, "{v}: {} {}", pos.fen(), pos.uci(m));
                            assert_eq!(exchanges.see(m), expected);
                            for threshold in [-300, -90, 0, 1, 200] {
                                assert_eq!(exchanges.see_ge(m, threshold), expected >= threshold);
                                if exchanges.surely_ge(m, threshold) {
                                    assert!(expected >= threshold);
                                }
                            }
                            checked += 1;
                        }
                    }
                    // Prefer captures, so that the boards empty and long exchanges come up.
                    let captures = pos.capture_moves();
                    let pick = if !captures.is_empty() && random() % 3 != 0 {
                        captures.as_slice()[(random() % captures.len() as u64) as usize]
                    } else {
                        moves.as_slice()[(random() % moves.len() as u64) as usize]
                    };
                    pos.play_unchecked(pick);
                }
            }
        }
        assert!(checked > 10_000, "only {checked} exchanges checked");
    }

    #[test]
    fn simple_exchanges() {
        let v = Variant::Chess;
        // Pawn takes defended knight: +knight.
        let p = Position::from_fen(v, "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1").unwrap();
        let m = p.parse_uci("e4d5").unwrap();
        assert_eq!(see(&p, m), see_value(PieceKind::Knight) - see_value(PieceKind::Pawn));
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        let p = Position::from_fen(v, "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let m = p.parse_uci("d2d5").unwrap();
        assert_eq!(see(&p, m), see_value(PieceKind::Pawn) - see_value(PieceKind::Queen));
        // Rook takes an undefended rook.
        let p = Position::from_fen(v, "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let m = p.parse_uci("d2d5").unwrap();
        assert_eq!(see(&p, m), see_value(PieceKind::Rook));
    }

    #[test]
    fn centre_square_rule_limits_recaptures() {
        // Persian Princess: a white pawn takes a black princess on f6 defended only by a rook,
        // which may not recapture on f6.
        let v = Variant::PersianPrincess;
        let p = Position::from_fen(v, "11/5k5/5r5/11/11/5s5/4P6/11/11/5K5/11 w - - 0 1 -").unwrap();
        let m = p.parse_uci("e5f6").unwrap();
        assert_eq!(see(&p, m), see_value(PieceKind::Princess));
    }

    #[test]
    fn a_variants_own_values_count_in_exchanges() {
        // Citadel: a War Machine takes a Blue Tiger-Rider that a plainsman defends; the rider is
        // worth 820 there (the built-in value of a kind of one's own would be a knight's, and
        // the capture would look like a loss).
        let p = Position::from_fen(Variant::Citadel8, "4k4/3p5/4t4/9/9/9/9/4R2K1 w - - YQyq 0 1").unwrap();
        let m = p.parse_uci("e1e6").unwrap();
        assert_eq!(see(&p, m), 820 - 480);
        assert_eq!(see(&p, m), see_by_definition(&p, m));
        assert!(see_ge(&p, m, 300));
    }
}
