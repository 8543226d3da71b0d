//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side capturing with its least valuable piece that may legally end its move there.

use crate::{
    eval::params::see_value,
    rules::{Bitboard, Move, MoveKind, PieceKind, Position, Square},
};

fn least_valuable(pos: &Position, attackers: Bitboard, to: Square) -> Option<(Square, PieceKind)> {
    let t = pos.tables();
    let mut best: Option<(Square, PieceKind, i32)> = None;
    for sq in attackers {
        let Some(p) = pos.piece_at(sq) else { continue };
        if t.forbidden[p.kind].has(to) || (p.kind == PieceKind::King && t.always_attacked.has(to)) {
            continue;
        }
        let v = see_value(p.kind);
        if best.is_none_or(|b| v < b.2) {
            best = Some((sq, p.kind, v));
        }
    }
    best.map(|(s, k, _)| (s, k))
}

/// Whether the exchange started by `m` gains at least `threshold` centipawns.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    // Quick answer: taking a piece worth at least the capturer's value (plus the threshold)
    // cannot lose, whatever the recaptures.
    if threshold <= 0 && m.kind() == MoveKind::Normal {
        if let (Some(victim), Some(attacker)) = (pos.piece_at(m.to()), pos.piece_at(m.from())) {
            if attacker.kind != PieceKind::King && see_value(victim.kind) - see_value(attacker.kind) >= threshold {
                return true;
            }
        }
    }
    see(pos, m) >= threshold
}

/// The exchange value of a move (0 for quiet non-promotion moves).
pub fn see(pos: &Position, m: Move) -> i32 {
    match m.kind() {
        MoveKind::Castle | MoveKind::Rendezvous => return 0,
        MoveKind::EnPassant => return 0,
        _ => {}
    }
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
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let attackers = pos.attackers(to, side, occ) & occ;
        let Some((sq, kind)) = least_valuable(pos, attackers, to) else {
            break;
        };
        // A king may capture only if the other side has no attacker left.
        if kind == PieceKind::King && (pos.attackers(to, !side, occ ^ sq.bb()) & occ & !sq.bb()).any() {
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
        occ ^= sq.bb();
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
    use crate::rules::Variant;

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
}
