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

use super::BuildHook;
pub use super::SquarePromotion;

pub use crate::rules::rule_set::{SquarePromotionTables, Target};

/// At most this many kinds may be offered on one square.
pub const MAX_CHOICES: usize = 8;

impl BuildHook for SquarePromotion {
    fn build(&self, tables: &mut Tables, _resolve: &dyn Fn(Coord) -> Square) {
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

    /// The promotions of the side to move onto `targets`, each from `to - delta` (the
    /// generator's promotion hook where the variant has the rule).
    pub(crate) fn add_promotions<S: Sink>(&self, pos: &Position, sink: &mut S, targets: Bitboard, delta: i32) {
        let us = pos.turn();
        for to in targets {
            let from = Square((to.0 as i32 - delta) as u8);
            let (kinds, n) = self.kinds(pos, us, to);
            for &k in &kinds[..n] {
                if self.may_arrive(pos, k, from, to) {
                    sink.add(Move::promotion(from, to, k));
                }
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

#[cfg(test)]
mod tests {
    use crate::rules::special::test_support::{
        moves_from,
        parsi::{agrees_with_reference, attacked, fen, fen_with},
    };

    /// A.11: a pawn on b7 with both knights on the board may not go to b8, and attacks a8 and c8 only
    /// once a rook, or the bishop of c8's colour (f1's), is lost.
    #[test]
    fn promotion_needs_a_lost_piece_of_the_square() {
        let full = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RNBQKBNR w - - 0 1");
        assert!(moves_from(&full, "b7").is_empty());
        assert!(!attacked(&full, "a8") && !attacked(&full, "c8"));
        agrees_with_reference(&full);
        let rook_lost = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RNBQKBN1 w - - 0 1");
        assert_eq!(moves_from(&rook_lost, "b7"), ["b7a8r"]);
        assert!(attacked(&rook_lost, "a8") && !attacked(&rook_lost, "c8"));
        agrees_with_reference(&rook_lost);
        let light_bishop_lost = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RNBQK1NR w - - 0 1");
        assert_eq!(moves_from(&light_bishop_lost, "b7"), ["b7c8b"]);
        assert!(attacked(&light_bishop_lost, "c8"));
        // The dark bishop lost instead does not open the light c8.
        let dark_bishop_lost = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RN1QKBNR w - - 0 1");
        assert!(moves_from(&dark_bishop_lost, "b7").is_empty());
    }

    /// A capture wakes a stuck pawn: the captured piece is now a lost kind, so the pawn attacks its
    /// promotion square. The capture is illegal when that square holds the mover's king (or is where
    /// the king captures).
    #[test]
    fn a_capture_that_wakes_a_stuck_pawn_next_to_the_king_is_illegal() {
        // The pawn on d2 may not promote on e1 while Black has lost nothing, so the king is not in
        // check; taking the knight on a4 would make e1 a square where it promotes (to a knight).
        let rook_takes = fen("r1bkqbnr/ppp1pppp/8/8/n7/8/3p4/R3K3 w - - 0 1");
        assert!(!rook_takes.in_check());
        assert!(
            rook_takes.parse_uci("a1a4").is_err(),
            "Rxa4 would leave the king attacked by d2"
        );
        assert!(rook_takes.parse_uci("a1a3").is_ok());
        agrees_with_reference(&rook_takes);
        // Kxg1 takes a knight of Black's two: f2 then promotes on g1 (to a knight) and attacks it.
        let king_takes = fen("rnbkqb1r/ppppp1pp/8/8/8/8/5p1K/R5n1 w - - 0 1");
        assert!(
            king_takes.parse_uci("h2g1").is_err(),
            "the pawn on f2 wakes when the knight goes"
        );
        agrees_with_reference(&king_takes);
        // The same capture with the pawn one rank back is legal.
        let far = fen("rnbkqb1r/ppppp1pp/8/8/8/5p2/7K/R5n1 w - - 0 1");
        assert!(far.parse_uci("h2g1").is_ok());
        agrees_with_reference(&far);
        // A move from elsewhere (a hash table, a killer slot) is judged the same way: the direct
        // test of ordinary moves would miss the pawn that wakes.
        for (pos, uci, legal) in [
            (&rook_takes, "a1a4", false),
            (&king_takes, "h2g1", false),
            (&far, "h2g1", true),
        ] {
            let m = crate::rules::reference::pseudo_legal_moves(pos)
                .into_iter()
                .find(|&m| pos.uci(m) == uci)
                .expect("a pseudo-legal move");
            assert_eq!(pos.is_legal_move(m), legal, "{uci} in {}", pos.fen());
        }
    }

    /// A.11: with the vizier on the board e7-e8 is illegal, and the stuck pawn gives no check to the
    /// king on d8; with one rook and the c1 bishop lost, a pawn arriving on d8 chooses R or B.
    #[test]
    fn the_kings_square_offers_every_lost_kind() {
        let stuck = fen("3k4/4P3/8/8/8/8/P2P3P/RNBQKBNR b - - 0 1");
        assert!(!stuck.in_check(), "a pawn that cannot promote on d8 does not attack it");
        let white = fen("3k4/4P3/8/8/8/8/P2P3P/RNBQKBNR w - - 0 1");
        assert!(moves_from(&white, "e7").is_empty());
        let choice = fen("k7/3P4/8/8/8/8/P6P/RN1QKBN1 w - - 0 1");
        assert_eq!(moves_from(&choice, "d7"), ["d7d8b", "d7d8r"]);
        agrees_with_reference(&choice);
        // The king on d8 is in check once the pawn may promote there.
        let check = fen("3k4/4P3/8/8/8/8/P2P3P/RN1QKBN1 b - - 0 1");
        assert!(check.in_check());
    }

    #[test]
    fn promotion_by_own_file() {
        // White has lost its vizier: d7-d8 becomes a vizier (the d-file's own start piece); the
        // e-file (the king's) never promotes.
        let text = "k7/3P4/8/8/8/8/P6P/RNB1KBNR w - - 0 1";
        let pos = fen_with("promotion_by_own_file", text);
        assert_eq!(moves_from(&pos, "d7"), ["d7d8q"]);
        let e = fen_with("promotion_by_own_file", "k7/4P3/8/8/8/8/P6P/RNB1KBNR w - - 0 1");
        assert!(moves_from(&e, "e7").is_empty());
        agrees_with_reference(&pos);
        // By default d8 (the black king's start square) takes any lost kind: the vizier.
        assert_eq!(moves_from(&fen(text), "d7"), ["d7d8q"]);
        assert!(moves_from(&fen("k7/4P3/8/8/8/8/P6P/RNB1KBNR w - - 0 1"), "e7")
            .iter()
            .any(|m| m == "e7e8q"));
    }

    #[test]
    fn bishops_without_the_colour_test() {
        // The dark bishop lost: c8 (light) opens only without the colour test.
        let text = "r1bkq3/1P6/8/8/8/8/P2PP2P/RN1QKBNR w - - 0 1";
        assert!(moves_from(&fen(text), "b7").is_empty());
        assert_eq!(moves_from(&fen_with("bishop_colour_test=off", text), "b7"), ["b7c8b"]);
    }
}
