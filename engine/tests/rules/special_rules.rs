//! The orthodox rules on the Persian boards, with the negative cases (shared rules document,
//! sections 4-10): castling, en passant, promotion and the ends of a game. Each special rule's
//! own tests (the rendezvous, the centre square, the All-Seeing Eye, the citadel draw, ...) sit
//! beside the rule, at the end of its module in `engine/src/rules/special/`.

#![allow(clippy::unwrap_used)]

use engine::rules::{
    Color, DrawReason, IllegalUciMoveError, MoveKind, Outcome, Piece, PieceKind, Position, Setup, UciError, Variant,
};

/// Builds a position from a list like `"Kf2 Sg2 Bh2 kf10"` (upper case White).
fn setup(variant: Variant, pieces: &str, turn: char, castling: &str, rendezvous: Option<(bool, bool)>) -> Setup {
    let g = variant.spec().geometry;
    let board = pieces
        .split_whitespace()
        .map(|t| {
            let piece = Piece::from_char(t.chars().next().unwrap()).unwrap();
            let sq = g.parse_square(&t[1..]).unwrap_or_else(|| panic!("bad square in {t}"));
            (sq, piece)
        })
        .collect();
    Setup {
        board,
        turn: if turn == 'w' { Color::White } else { Color::Black },
        castling: castling.chars().filter(|&c| c != '-').collect(),
        ep: Vec::new(),
        halfmove: 0,
        fullmove: 1,
        rendezvous,
        rule_fields: Vec::new(),
    }
}

fn pos(variant: Variant, pieces: &str, turn: char) -> Position {
    Position::from_setup(variant, &setup(variant, pieces, turn, "-", None)).unwrap_or_else(|e| panic!("{pieces}: {e}"))
}

fn ucis(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.uci(m)).collect()
}

fn has(p: &Position, uci: &str) -> bool {
    ucis(p).iter().any(|m| m == uci)
}

fn illegal_here(p: &Position, uci: &str) -> bool {
    matches!(
        p.parse_uci(uci),
        Err(UciError::Illegal(IllegalUciMoveError::IllegalHere { .. }))
    )
}

// ---- Castling ---------------------------------------------------------------------------------

fn castle_pos(extra: &str) -> Position {
    let v = Variant::PersianPrincess;
    Position::from_setup(
        v,
        &setup(v, &format!("Kf2 Rb2 Rj2 kf10 {extra}"), 'w', "KQ", Some((false, false))),
    )
    .unwrap()
}

#[test]
fn castling_both_sides() {
    let mut p = castle_pos("");
    assert!(has(&p, "f2i2") && has(&p, "f2d2"));
    let mut q = p.clone();
    p.play_uci("f2i2").unwrap();
    let g = Variant::PersianPrincess.spec().geometry;
    assert_eq!(p.piece_at(g.parse_square("i2").unwrap()).unwrap().kind, PieceKind::King);
    assert_eq!(p.piece_at(g.parse_square("h2").unwrap()).unwrap().kind, PieceKind::Rook);
    assert_eq!(p.castling_rights(), 0);
    q.play_uci("f2d2").unwrap();
    assert_eq!(q.piece_at(g.parse_square("d2").unwrap()).unwrap().kind, PieceKind::King);
    assert_eq!(q.piece_at(g.parse_square("e2").unwrap()).unwrap().kind, PieceKind::Rook);
}

#[test]
fn castling_through_attacked_squares_is_illegal() {
    // h2 attacked: no king-side castling; the queen side is still possible.
    let p = castle_pos("rh9");
    assert!(!has(&p, "f2i2") && has(&p, "f2d2"));
    assert!(illegal_here(&p, "f2i2"));
    // i2 (destination) attacked.
    let p = castle_pos("ri9");
    assert!(!has(&p, "f2i2"));
    // g2 attacked.
    let p = castle_pos("rg9");
    assert!(!has(&p, "f2i2"));
    // d2 attacked: no queen-side castling.
    let p = castle_pos("rd9");
    assert!(!has(&p, "f2d2") && has(&p, "f2i2"));
    // c2 may be attacked on the queen side (the king does not pass it).
    let p = castle_pos("rc9");
    assert!(has(&p, "f2d2"));
    // A knight covering g2 and i2.
    let p = castle_pos("nh4");
    assert!(!has(&p, "f2i2") && has(&p, "f2d2"));
    // Not out of check.
    let p = castle_pos("rf9");
    assert!(p.in_check() && !has(&p, "f2d2") && !has(&p, "f2i2"));
    // Blocked squares.
    let p = castle_pos("Nc2");
    assert!(!has(&p, "f2d2"));
}

#[test]
fn castling_rights_are_lost_by_moves_to_and_from_home_squares() {
    let mut p = castle_pos("");
    p.play_uci("j2j5").unwrap();
    p.play_uci("f10e10").unwrap();
    assert!(!has(&p, "f2i2") && has(&p, "f2d2"));
    let mut p = castle_pos("nc4");
    p.play_uci("f2g2").unwrap();
    assert_eq!(p.castling_rights(), 0);
    // A rook captured on its home square.
    let v = Variant::PersianPrincess;
    let mut p = Position::from_setup(v, &setup(v, "Kf2 Rb2 Rj2 kf10 rj9", 'b', "KQ", Some((false, false)))).unwrap();
    p.play_uci("j9j2").unwrap();
    assert!(p.fen().contains(" Q "), "{}", p.fen());
}

// ---- En passant -------------------------------------------------------------------------------

#[test]
fn en_passant_capture_and_pin_on_the_rank() {
    let v = Variant::PersianPrincess;
    // Black double-steps d9-d7 beside a white pawn on e7.
    let mut p = pos(v, "Kb2 Pe7 kf10 pd9", 'b');
    p.play_uci("d9d7").unwrap();
    assert_eq!(p.ep_square(), v.spec().geometry.parse_square("d8"));
    let m = p.parse_uci("e7d8").unwrap();
    assert_eq!(m.kind(), MoveKind::EnPassant);
    let after = p.after(m);
    assert!(
        after.piece_at(v.spec().geometry.parse_square("d7").unwrap()).is_none(),
        "the passed pawn is removed"
    );
    // The same with the white king and a black rook on rank 7: the capture would uncover check.
    let mut p = pos(v, "Kb7 Pe7 kf10 pd9 ri7", 'b');
    p.play_uci("d9d7").unwrap();
    assert!(!has(&p, "e7d8"));
    assert_eq!(
        p.ep_square(),
        None,
        "no legal capture, so no en-passant square in the position or FEN"
    );
    // Only on the very next move.
    let mut p = pos(v, "Kb2 Pe7 kf10 pd9", 'b');
    p.play_uci("d9d7").unwrap();
    p.play_uci("b2b3").unwrap();
    p.play_uci("f10f9").unwrap();
    assert!(!has(&p, "e7d8"));
}

// ---- Promotion --------------------------------------------------------------------------------

#[test]
fn all_four_promotions() {
    for v in Variant::PERSIAN {
        let p = pos(v, "Kc2 Pe9 kh10 nd10", 'w');
        let promos: Vec<String> = ucis(&p).into_iter().filter(|m| m.starts_with("e9")).collect();
        let mut sorted = promos.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            ["e9d10b", "e9d10n", "e9d10q", "e9d10r", "e9e10b", "e9e10n", "e9e10q", "e9e10r"],
            "{v}"
        );
        for (letter, kind) in [
            ('q', PieceKind::Queen),
            ('r', PieceKind::Rook),
            ('b', PieceKind::Bishop),
            ('n', PieceKind::Knight),
        ] {
            let after = p.after(p.parse_uci(&format!("e9e10{letter}")).unwrap());
            let sq = v.spec().geometry.parse_square("e10").unwrap();
            assert_eq!(
                after.piece_at(sq),
                Some(Piece {
                    color: Color::White,
                    kind
                })
            );
            assert_eq!(after.halfmove_clock(), 0);
        }
        assert!(p.parse_uci("e9e10s").is_err(), "no promotion to a princess");
        assert!(p.parse_uci("e9e10").is_err(), "a promotion must name its piece");
        // Black promotes on rank 2.
        let p = pos(v, "Kh10 pe3 kc10", 'b');
        assert_eq!(ucis(&p).iter().filter(|m| m.starts_with("e3e2")).count(), 4);
    }
}

// ---- Game end ---------------------------------------------------------------------------------

#[test]
fn fifty_move_rule_and_mate_on_the_hundredth_ply() {
    let v = Variant::PersianPrincess;
    let mut s = setup(v, "Kb2 Rj5 kf10", 'w', "-", Some((false, false)));
    s.halfmove = 99;
    let mut p = Position::from_setup(v, &s).unwrap();
    p.play_uci("j5j6").unwrap();
    assert_eq!(p.halfmove_clock(), 100);
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
    // Mate delivered on the 100th ply wins.
    let mut s = setup(v, "Kf8 Rb5 kf10", 'w', "-", Some((false, false)));
    s.halfmove = 99;
    let mut p = Position::from_setup(v, &s).unwrap();
    p.play_uci("b5b10").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
}

#[test]
fn stalemate() {
    // Black king in its corner a11 (White's citadel is a1/k1, so this is Black's own citadel).
    let p = pos(Variant::PersianPrincess, "Kf2 Qb5 ka11", 'b');
    assert!(!p.in_check());
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
}

#[test]
fn insufficient_material() {
    let kk = pos(Variant::PersianPrincess, "Kf2 kf10", 'w');
    assert_eq!(kk.outcome(), Some(Outcome::Draw(DrawReason::InsufficientMaterial)));
    // K+B vs K can mate in a citadel outside the Eye, so it is not dead there.
    let kbk = pos(Variant::PersianPrincess, "Kf2 Bc3 kf10", 'w');
    assert_eq!(kbk.outcome(), None);
    // The official example: Black king a11, White bishop c9 is mate.
    let mated = pos(Variant::PersianPrincess, "Kf2 Bc9 ka11", 'b');
    assert_eq!(mated.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    let eye_kbk = pos(Variant::EgyptianEye, "Kf2 Bc4 kf10", 'w');
    assert_eq!(eye_kbk.outcome(), Some(Outcome::Draw(DrawReason::InsufficientMaterial)));
    // K+N vs K has mates in the Eye's pockets: not dead. Example: black K c2, white K e2, N d4.
    let eye_knk = pos(Variant::EgyptianEye, "Ke2 Nd4 kc2", 'b');
    assert_eq!(eye_knk.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    let eye_kn = pos(Variant::EgyptianEye, "Ke2 Nf4 kc7", 'b');
    assert_eq!(eye_kn.outcome(), None);
    // Chess: K+N vs K is dead.
    let chess = pos(Variant::Chess, "Ke1 Nb1 ke8", 'w');
    assert_eq!(chess.outcome(), Some(Outcome::Draw(DrawReason::InsufficientMaterial)));
}
