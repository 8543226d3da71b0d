//! Promotion by arrival square, as Parsi Chess has it (rules note A.5, Murray's reading): a pawn
//! reaching the last rank becomes the piece that stood on that square at the start (the
//! opponent's), if its side has lost one of that kind; on the square where the opposing king
//! started it may choose any kind it has lost. A kind bound to one square colour (the bishop) is
//! available on a square only while its side has none on squares of that colour. A pawn with no
//! kind available on a square may not move there, and does not attack it either (it gives no
//! check there). Some kinds may not give check from the promotion square on arrival (the knight).
//! The Ludii reading (`by_own_file`) takes the mover's own start piece of the pawn's file instead,
//! and the king's file never promotes.
//!
//! Availability depends on the material of the side that promotes, which the opponent's captures
//! change: whether a pawn attacks its promotion square can change by a capture elsewhere. A
//! capture only ever adds to what the opponent has lost, so it can only wake a stuck pawn. The
//! direct generator (pins and checkers worked out ahead) is therefore right in every position
//! where no pawn of the opponent stands next to a promotion square in the mover's king zone
//! (the king's square and the squares it steps to); in the other positions the generator plays
//! the moves out ([`SquarePromotionTables::king_zone_threatened`]).

use crate::rules::{
    geometry::{Bitboard, Square},
    movegen::Sink,
    moves::{Move, MoveList},
    notation::fen::parse_board,
    piece::{ByColor, ByKind, Color, PieceKind, KIND_COUNT},
    position::Position,
    tables::Tables,
    variant::Coord,
};

/// Data of the rule.
#[derive(Clone, Copy, Debug)]
pub struct SquarePromotion {
    /// Kinds bound to one square colour (bishops): available on a square only while the side
    /// has none of them on squares of that colour.
    pub colour_bound: &'static [PieceKind],
    /// Kinds that may not give check from the promotion square on arrival (Parsi's knights).
    pub no_check_on_arrival: &'static [PieceKind],
    /// The Ludii reading: by the pawn's own file (the mover's start piece of that file); the
    /// king's file never promotes.
    pub by_own_file: bool,
}

/// What a pawn becomes on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Not a promotion square, or never one (the king's file in the Ludii reading).
    Never,
    /// This kind, when available.
    Kind(PieceKind),
    /// Any available kind of the variant's promotion kinds (the opposing king's square).
    AnyLost,
}

/// The rule's tables.
#[derive(Clone, Debug)]
pub struct SquarePromotionTables {
    /// The rule's data.
    pub rule: SquarePromotion,
    /// For each side and square, what its pawn becomes there.
    pub target: Box<ByColor<[Target; 128]>>,
    /// How many of each kind each side has in the start position.
    pub start_count: ByColor<ByKind<u8>>,
    /// The light squares (a1 is dark).
    pub light: Bitboard,
}

/// At most this many kinds may be offered on one square.
pub const MAX_CHOICES: usize = 8;

impl SquarePromotion {
    pub(crate) fn build(&self, tables: &mut Tables, _resolve: &dyn Fn(Coord) -> Square) {
        let spec = tables.spec;
        let g = tables.geometry;
        let board_field = spec.start_fen.split_whitespace().next().unwrap_or("");
        let start =
            parse_board(tables, board_field).unwrap_or_else(|e| panic!("{}: the start FEN is wrong: {e}", spec.id));
        let at = |sq: Square| start.iter().find(|(s, _)| *s == sq).map(|&(_, p)| p);
        let mut start_count = ByColor([ByKind([0u8; KIND_COUNT]); 2]);
        for &(_, p) in &start {
            start_count[p.color][p.kind] += 1;
        }
        let mut target = Box::new(ByColor([[Target::Never; 128]; 2]));
        for color in Color::ALL {
            for to in tables.promotion_squares[color] {
                let source = if self.by_own_file {
                    // The mover's own start piece of the file, on its first rank.
                    let home_rank = if color == Color::White { 0 } else { g.height as i32 - 1 };
                    g.playable_square(g.file(to), home_rank).and_then(at)
                } else {
                    at(to)
                };
                target[color][to.index()] = match source {
                    Some(p) if p.kind == PieceKind::King => {
                        if self.by_own_file {
                            Target::Never
                        } else {
                            Target::AnyLost
                        }
                    }
                    Some(p) if p.kind != PieceKind::Pawn => Target::Kind(p.kind),
                    _ => Target::Never,
                };
            }
        }
        let mut light = Bitboard::EMPTY;
        for sq in g.playable {
            if (g.file(sq) + g.rank(sq)) % 2 == 1 {
                light |= sq.bb();
            }
        }
        tables.rules.square_promotion = Some(SquarePromotionTables {
            rule: *self,
            target,
            start_count,
            light,
        });
    }
}

impl SquarePromotionTables {
    /// Whether a pawn of the opponent of the side to move attacks, by its geometry alone, a
    /// promotion square of its own in the mover's king zone (the king's square and its steps).
    /// Only then can a capture by the mover (which adds to what the opponent has lost) wake a
    /// stuck pawn against the king, and the moves must be played out.
    #[inline]
    pub fn king_zone_threatened(&self, pos: &Position) -> bool {
        let t = pos.tables();
        let us = pos.turn();
        let them = !us;
        let Some(king) = pos.pieces(us, PieceKind::King).iter().next() else {
            return true;
        };
        let zone = (king.bb() | t.leaps[PieceKind::King][king.index()]) & t.promotion_squares[them];
        if zone.is_empty() {
            return false;
        }
        let pawns = pos.pieces(them, PieceKind::Pawn);
        zone.iter().any(|sq| (t.pawn_attacks[us][sq.index()] & pawns).any())
    }

    /// Whether `color` may promote to `kind` on `sq` in `pos` (it has lost one of that kind; for a
    /// colour-bound kind, it has none on squares of `sq`'s colour).
    pub fn available(&self, pos: &Position, color: Color, kind: PieceKind, sq: Square) -> bool {
        let own = pos.pieces(color, kind);
        if self.rule.colour_bound.contains(&kind) {
            let same = if self.light.has(sq) { self.light } else { !self.light };
            (own & same).is_empty()
        } else {
            own.count() < u32::from(self.start_count[color][kind])
        }
    }

    /// Whether `color`'s pawn on `from`, one step before its promotion squares, may promote on
    /// none of them (ahead or diagonally) with the material as it is: a stuck pawn, which waits
    /// for a loss of its side. False for pawns elsewhere.
    pub fn is_stuck(&self, pos: &Position, color: Color, from: Square) -> bool {
        let t = pos.tables();
        let Some(ahead) = t.square_ahead(color, from) else {
            return false;
        };
        let promo = t.promotion_squares[color];
        if !promo.has(ahead) {
            return false;
        }
        let targets = (ahead.bb() | t.pawn_attacks[color][from.index()]) & promo;
        targets.iter().all(|sq| self.kinds(pos, color, sq).1 == 0)
    }

    /// The kinds `color`'s pawn may become on `sq` (none: it may not go there).
    pub fn kinds(&self, pos: &Position, color: Color, sq: Square) -> ([PieceKind; MAX_CHOICES], usize) {
        let mut out = [PieceKind::Pawn; MAX_CHOICES];
        let mut n = 0;
        match self.target[color][sq.index()] {
            Target::Never => {}
            Target::Kind(k) => {
                if self.available(pos, color, k, sq) {
                    out[0] = k;
                    n = 1;
                }
            }
            Target::AnyLost => {
                for &k in pos.tables().promotion_kinds {
                    if n < MAX_CHOICES && self.available(pos, color, k, sq) {
                        out[n] = k;
                        n += 1;
                    }
                }
            }
        }
        (out, n)
    }

    /// Whether `color`'s pawns attack `sq` as far as this rule goes: everywhere but on their
    /// promotion squares with nothing available.
    #[inline]
    pub fn pawns_attack(&self, pos: &Position, color: Color, sq: Square) -> bool {
        !pos.tables().promotion_squares[color].has(sq) || self.kinds(pos, color, sq).1 > 0
    }

    /// Whether a piece of `kind` that arrives on `to` by the move `from`-`to` may stay there:
    /// false when the kind may not give check on arrival and would.
    pub fn may_arrive(&self, pos: &Position, kind: PieceKind, from: Square, to: Square) -> bool {
        if !self.rule.no_check_on_arrival.contains(&kind) {
            return true;
        }
        let t = pos.tables();
        let occ = (pos.occupied() ^ from.bb()) | to.bb();
        (t.attacks(kind, to, occ) & pos.royals(!pos.turn())).is_empty()
    }
}

/// The promotions of the side to move onto `targets`, each from `to - delta`.
pub(crate) fn add_promotions<S: Sink>(
    pos: &Position,
    sp: &SquarePromotionTables,
    sink: &mut S,
    targets: Bitboard,
    delta: i32,
) {
    let us = pos.turn();
    for to in targets {
        let from = Square((to.0 as i32 - delta) as u8);
        let (kinds, n) = sp.kinds(pos, us, to);
        for &k in &kinds[..n] {
            if sp.may_arrive(pos, k, from, to) {
                sink.add(Move::promotion(from, to, k));
            }
        }
    }
}

/// The promotions of the side to move with the pawn on `from` (for rules that build on them,
/// such as the bonus knight leap): every promotion move the generator would make, without the
/// mover's king safety.
pub fn promotions_from(pos: &Position, from: Square) -> MoveList {
    let mut list = MoveList::new();
    let t = pos.tables();
    let Some(sp) = &t.rules.square_promotion else {
        return list;
    };
    let us = pos.turn();
    let mut targets = Bitboard::EMPTY;
    if let Some(ahead) = t.square_ahead(us, from).filter(|&a| pos.piece_at(a).is_none()) {
        targets |= ahead.bb();
    }
    targets |= t.pawn_attacks[us][from.index()] & pos.color_bb(!us);
    targets &= t.promotion_squares[us] & !t.forbidden[PieceKind::Pawn];
    for to in targets {
        let (kinds, n) = sp.kinds(pos, us, to);
        for &k in &kinds[..n] {
            if sp.may_arrive(pos, k, from, to) {
                list.push(Move::promotion(from, to, k));
            }
        }
    }
    list
}
