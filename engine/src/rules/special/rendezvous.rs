//! The rendezvous of Persian Princess, Egyptian Eye (princess) and Oriental Omega (champion).
//!
//! When a side's partner (princess or champion) stands on g2 (Black: g10) and one of its bishops
//! on h2 (h10), the side is not in check and has not used its rendezvous yet, it may swap the two
//! pieces as its move. Nothing is captured; the set of occupied squares does not change, so "not
//! in check" is the whole legality test. The move is written `g2h2` (`g10h10`); the halfmove clock
//! goes up by one, castling rights stay, the right is spent.
//!
//! The rule's behaviour is here: its squares (build hook), its two rights bits, the move
//! (extra-moves hook), playing it (make hook), the pieces it moves for incremental evaluation,
//! its SAN (`S~h2`), the FEN field of the rights (`Rr`, `R`, `r` or `-`, this project's 7th
//! field), and why a rendezvous given in UCI is refused. Its data ([`Rendezvous`]) and the
//! type of its squares ([`RendezvousSquares`], held by the rule set) belong to the rules
//! interface; the hooks are methods of the latter, which the generator, the position and the
//! notation call where the variant has the rule.

use crate::rules::{
    delta::MoveDelta,
    geometry::Square,
    notation::fen::ParseFenError,
    piece::{ByColor, Color, PieceKind},
    tables::Tables,
    variant::Coord,
    zobrist::ZOBRIST,
};

use super::BuildHook;
pub use super::Rendezvous;

pub use crate::rules::rule_set::RendezvousSquares;

impl BuildHook for Rendezvous {
    fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let spec = tables.spec;
        let right_shift = tables.allocate_rights(2);
        tables.rules.rendezvous = Some(RendezvousSquares {
            right_shift,
            partner: self.partner,
            partner_square: ByColor([
                resolve(self.partner_square),
                resolve(spec.mirror(self.partner_square, true)),
            ]),
            bishop_square: ByColor([
                resolve(self.bishop_square),
                resolve(spec.mirror(self.bishop_square, true)),
            ]),
        });
    }
}

use crate::rules::{
    movegen::Sink,
    moves::{Move, MoveKind},
    piece::Piece,
    position::Position,
};

impl RendezvousSquares {
    /// The rights bit of `color`'s rendezvous.
    #[inline(always)]
    pub fn right(&self, color: Color) -> u32 {
        1 << (self.right_shift + color.index() as u32)
    }

    /// The make hook: swaps the partner on `from` and the bishop on `to` and spends the right.
    pub(crate) fn make(&self, pos: &mut Position, from: Square, to: Square) {
        let partner = pos.remove(from);
        let bishop = pos.remove(to);
        pos.put(to, partner);
        pos.put(from, bishop);
        let right = self.right(pos.turn());
        pos.rights &= !right;
        pos.hash ^= ZOBRIST.rights(right);
    }

    /// The pieces a rendezvous removes and adds (for incremental evaluation).
    pub(crate) fn delta(&self, pos: &Position, from: Square, to: Square, mover: Piece, d: &mut MoveDelta) {
        if let Some(bishop) = pos.piece_at(to) {
            d.remove(from, mover);
            d.remove(to, bishop);
            d.add(to, mover);
            d.add(from, bishop);
        }
    }

    /// The SAN of a rendezvous: the partner's letter, `~` and the bishop's square (`S~h2`).
    pub(crate) fn san(&self, pos: &Position, from: Square, to: Square) -> String {
        let letter = pos.piece_at(from).map_or('?', |p| pos.tables().letter(p.kind));
        format!("{letter}~{}", pos.tables().geometry.square_name(to))
    }

    /// Reads the FEN field of the rendezvous rights: `Rr`, `R`, `r` or `-` (White, Black).
    pub(crate) fn parse_fen_field(s: &str) -> Result<(bool, bool), ParseFenError> {
        if s == "-" {
            return Ok((false, false));
        }
        let ok = !s.is_empty() && s.chars().all(|c| c == 'R' || c == 'r') && s.len() <= 2;
        let (w, b) = (s.contains('R'), s.contains('r'));
        if !ok || (s.len() == 2 && !(w && b)) {
            return Err(ParseFenError::BadRendezvous(s.to_string()));
        }
        Ok((w, b))
    }

    /// The FEN field of the rendezvous rights.
    pub(crate) fn fen_field(&self, pos: &Position) -> String {
        let (w, b) = (
            pos.has_rendezvous_right(Color::White),
            pos.has_rendezvous_right(Color::Black),
        );
        match (w, b) {
            (true, true) => "Rr".into(),
            (true, false) => "R".into(),
            (false, true) => "r".into(),
            (false, false) => "-".into(),
        }
    }

    /// The rights bits of the rights a setup gives (White's, Black's; both when it does not
    /// say).
    pub(crate) fn setup_rights(&self, given: Option<(bool, bool)>) -> u32 {
        let (w, b) = given.unwrap_or((true, true));
        (u32::from(w) | u32::from(b) << 1) << self.right_shift
    }

    /// Whether a move from `from` to `to` is this side's rendezvous, with the pieces in place,
    /// refused only because the right is spent (the UCI resolver then says so).
    pub(crate) fn spent_right(&self, pos: &Position, from: Square, to: Square) -> bool {
        let us = pos.turn();
        from == self.partner_square[us]
            && to == self.bishop_square[us]
            && pos
                .piece_at(from)
                .is_some_and(|p| p.color == us && p.kind == self.partner)
            && pos
                .piece_at(to)
                .is_some_and(|p| p.color == us && p.kind == PieceKind::Bishop)
            && !pos.has_rendezvous_right(us)
    }

    /// The extra-moves hook: adds the rendezvous when it is legal. Called only when the side to
    /// move is not in check.
    pub(crate) fn generate<S: Sink>(&self, pos: &Position, sink: &mut S) {
        let us = pos.turn();
        if !pos.has_rendezvous_right(us) {
            return;
        }
        let (p, b) = (self.partner_square[us], self.bishop_square[us]);
        if pos.piece_at(p)
            == Some(Piece {
                color: us,
                kind: self.partner,
            })
            && pos.piece_at(b)
                == Some(Piece {
                    color: us,
                    kind: PieceKind::Bishop,
                })
        {
            sink.add(Move::new(p, b, MoveKind::Rendezvous));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::persian::{has, illegal_here, pos, setup},
        Color, MoveKind, PieceKind, Position, PositionError, Variant,
    };

    #[test]
    fn rendezvous_in_the_start_position_swaps_princess_and_bishop() {
        for v in [Variant::PersianPrincess, Variant::EgyptianEye] {
            let mut p = Position::startpos(v);
            let m = p.parse_uci("g2h2").unwrap();
            assert_eq!(m.kind(), MoveKind::Rendezvous);
            let before_castling = p.castling_rights();
            p.play_unchecked(m);
            let g = v.spec().geometry;
            assert_eq!(
                p.piece_at(g.parse_square("h2").unwrap()).unwrap().kind,
                PieceKind::Princess
            );
            assert_eq!(
                p.piece_at(g.parse_square("g2").unwrap()).unwrap().kind,
                PieceKind::Bishop
            );
            assert!(!p.has_rendezvous_right(Color::White));
            assert!(p.has_rendezvous_right(Color::Black));
            assert_eq!(p.castling_rights(), before_castling, "castling rights untouched");
            assert_eq!(p.halfmove_clock(), 1, "the clock goes up");
            assert!(p.fen().ends_with(" r"), "{}", p.fen());
            assert_eq!(p.hash(), p.compute_hash());
            assert!(has(&p, "g10h10"));
        }
    }

    #[test]
    fn second_rendezvous_is_not_allowed() {
        let v = Variant::PersianPrincess;
        let spent = Position::from_setup(v, &setup(v, "Kf2 Sg2 Bh2 kf10", 'w', "-", Some((false, true)))).unwrap();
        assert!(!has(&spent, "g2h2"));
        assert!(illegal_here(&spent, "g2h2"), "{:?}", spent.parse_uci("g2h2"));
        let fresh = Position::from_setup(v, &setup(v, "Kf2 Sg2 Bh2 Bd4 kf10", 'w', "-", Some((true, true)))).unwrap();
        assert!(has(&fresh, "g2h2"));
        // After the swap, the princess goes back to g2 and the other dark bishop comes to h2 (the
        // first bishop now stands on light squares): the right is gone.
        let mut p = fresh.clone();
        let moves = [
            "g2h2", "f10e10", "g2f3", "e10f10", "h2f4", "f10e10", "f4g2", "e10f10", "d4e5", "f10e10", "e5h2",
        ];
        for m in moves {
            if let Err(e) = p.play_uci(m) {
                panic!("{m}: {e} in {}", p.fen());
            }
        }
        assert_eq!(
            p.piece_at(v.spec().geometry.parse_square("g2").unwrap()).unwrap().kind,
            PieceKind::Princess
        );
        assert_eq!(
            p.piece_at(v.spec().geometry.parse_square("h2").unwrap()).unwrap().kind,
            PieceKind::Bishop
        );
        p.play_uci("e10f10").unwrap();
        assert!(!has(&p, "g2h2"), "second rendezvous generated in {}", p.fen());
    }

    #[test]
    fn rendezvous_is_not_allowed_in_check() {
        let v = Variant::PersianPrincess;
        let p = pos(v, "Kf2 Sg2 Bh2 kb10 rf9", 'w');
        assert!(p.in_check());
        assert!(!has(&p, "g2h2"));
        assert!(illegal_here(&p, "g2h2"));
        let quiet = pos(v, "Kf2 Sg2 Bh2 kb10 re9", 'w');
        assert!(has(&quiet, "g2h2"));
    }

    #[test]
    fn no_rendezvous_in_celtic_citadel() {
        let v = Variant::CelticCitadel;
        let p = Position::from_setup(v, &setup(v, "Kf2 Sg2 Bh2 kf10", 'w', "-", None)).unwrap();
        assert!(!has(&p, "g2h2"));
        assert!(!p.legal_moves().iter().any(|m| m.kind() == MoveKind::Rendezvous));
        // A FEN that gives rendezvous rights in Celtic Citadel is refused.
        let err = Position::from_setup(v, &setup(v, "Kf2 Sg2 Bh2 kf10", 'w', "-", Some((true, false)))).unwrap_err();
        assert!(matches!(err, PositionError::NoRendezvousInVariant(_)));
        assert_eq!(Position::startpos(v).legal_moves().len(), 24);
    }

    #[test]
    fn champion_rendezvous_in_oriental_omega() {
        let v = Variant::OrientalOmega;
        let mut p = Position::startpos(v);
        assert_eq!(p.legal_moves().len(), 26);
        p.play_uci("g2h2").unwrap();
        let g = v.spec().geometry;
        assert_eq!(
            p.piece_at(g.parse_square("h2").unwrap()).unwrap().kind,
            PieceKind::Champion
        );
        assert_eq!(
            p.piece_at(g.parse_square("g2").unwrap()).unwrap().kind,
            PieceKind::Bishop
        );
        // A princess-like piece does not make the Omega rendezvous: only the champion.
        let no_champion = pos(v, "Kf2 Wg2 Bh2 kf10", 'w');
        assert!(!has(&no_champion, "g2h2"));
    }
}
