//! Weights of the hand-crafted evaluation. Values are (middlegame, endgame) pairs in centipawns.
//! The same weights serve every variant: what differs between variants (board, pieces, holes)
//! enters through the variant's tables, not through per-variant code.

use crate::rules::PieceKind;

/// A (middlegame, endgame) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pair(pub i32, pub i32);

impl std::ops::Add for Pair {
    type Output = Pair;
    #[inline(always)]
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::Sub for Pair {
    type Output = Pair;
    #[inline(always)]
    fn sub(self, o: Pair) -> Pair {
        Pair(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::AddAssign for Pair {
    #[inline(always)]
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for Pair {
    #[inline(always)]
    fn sub_assign(&mut self, o: Pair) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Mul<i32> for Pair {
    type Output = Pair;
    #[inline(always)]
    fn mul(self, k: i32) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// Material value of a kind.
pub const fn material(kind: PieceKind) -> Pair {
    match kind {
        PieceKind::Pawn => Pair(90, 120),
        PieceKind::Knight => Pair(310, 290),
        PieceKind::Bishop => Pair(330, 350),
        PieceKind::Rook => Pair(480, 540),
        PieceKind::Queen => Pair(950, 1020),
        PieceKind::King => Pair(0, 0),
        PieceKind::Princess => Pair(780, 820),
        PieceKind::Fortress => Pair(860, 920),
        PieceKind::Wizard => Pair(430, 420),
        PieceKind::Champion => Pair(470, 510),
        // Kinds of a variant's own have no tuned value yet: valued as a knight.
        _ => Pair(310, 290),
    }
}

/// Material used for search decisions (SEE, delta pruning): the middlegame value.
pub const fn see_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 20000,
        k => material(k).0,
    }
}

/// Weight of a kind in the game phase (the phase of the start position is "full middlegame").
pub const fn phase_weight(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn | PieceKind::King => 0,
        PieceKind::Knight | PieceKind::Bishop => 1,
        PieceKind::Wizard | PieceKind::Champion => 2,
        PieceKind::Rook => 2,
        PieceKind::Princess | PieceKind::Fortress => 3,
        PieceKind::Queen => 4,
        _ => 1,
    }
}

/// Mobility: value per reachable square, per kind.
pub const fn mobility(kind: PieceKind) -> Pair {
    match kind {
        PieceKind::Knight => Pair(4, 4),
        PieceKind::Bishop => Pair(4, 5),
        PieceKind::Rook => Pair(2, 4),
        PieceKind::Queen => Pair(1, 2),
        PieceKind::Princess => Pair(3, 4),
        PieceKind::Fortress => Pair(2, 3),
        PieceKind::Wizard => Pair(4, 4),
        PieceKind::Champion => Pair(3, 4),
        PieceKind::Pawn | PieceKind::King => Pair(0, 0),
        _ => Pair(4, 4),
    }
}

/// Centralisation: value per step closer to the centre, per kind.
pub const fn centrality(kind: PieceKind) -> Pair {
    match kind {
        PieceKind::Pawn => Pair(3, 0),
        PieceKind::Knight | PieceKind::Wizard => Pair(6, 4),
        PieceKind::Champion => Pair(5, 4),
        PieceKind::Bishop | PieceKind::Princess => Pair(3, 3),
        PieceKind::Rook | PieceKind::Fortress => Pair(1, 1),
        PieceKind::Queen => Pair(1, 3),
        PieceKind::King => Pair(-6, 8),
        _ => Pair(6, 4),
    }
}

/// Pawn advance: value per rank beyond the start rank.
pub const PAWN_ADVANCE: Pair = Pair(2, 6);
/// A passed pawn, per rank beyond the start rank (squared growth is applied on top).
pub const PASSED_PAWN: Pair = Pair(4, 10);
/// Two pawns of a side on one file.
pub const DOUBLED_PAWN: Pair = Pair(-10, -20);
/// A pawn with no friendly pawn on the neighbouring files.
pub const ISOLATED_PAWN: Pair = Pair(-10, -12);
/// A prisoner still held (Citadel): a piece its side may yet bring in by a release.
pub const PRISONER_HELD: Pair = Pair(30, 40);
/// A pawn in front of (or beside) its king.
pub const PAWN_SHIELD: Pair = Pair(10, 0);
/// The king left its home rank in the middlegame.
pub const KING_ADVANCED: Pair = Pair(-12, 0);
/// Attack units on the zone around the enemy king, per attacking piece kind.
pub const fn king_attack_weight(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn | PieceKind::King => 0,
        PieceKind::Knight | PieceKind::Bishop | PieceKind::Wizard | PieceKind::Champion => 2,
        PieceKind::Rook => 3,
        PieceKind::Princess | PieceKind::Fortress => 4,
        PieceKind::Queen => 5,
        _ => 2,
    }
}
/// Penalty (middlegame) for the attack units against a king, by units (capped at the last entry).
pub const KING_DANGER: [i32; 24] = [
    0, 0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136, 153, 171, 190, 210, 231, 253,
];
/// A pawn before its promotion squares that may promote on none of them (promotion by arrival
/// square): most of its passed-pawn promise is gone until its side loses a piece.
pub const STUCK_PAWN: Pair = Pair(-40, -100);
/// A bishop pair.
pub const BISHOP_PAIR: Pair = Pair(25, 45);
/// Side to move.
pub const TEMPO: i32 = 12;

/// Driving a lone king (the defender has nothing but its royal pieces): the attacker's gain per
/// half-step of the lone king's distance from the board's centre (Chebyshev, on the grid).
pub const DRIVE_EDGE: i32 = 10;
/// Driving a lone king: the attacker's gain per step its own king is nearer the lone king than
/// the board's width.
pub const DRIVE_NEAR: i32 = 8;
/// Driving a lone king: the attacker's gain per step each of its other pieces (pawns left out)
/// is nearer the lone king than the board's width.
pub const DRIVE_HELPER: i32 = 10;
