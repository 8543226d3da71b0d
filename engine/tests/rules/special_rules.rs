//! One test per special rule, with the negative cases (shared rules document, sections 4-10).

#![allow(clippy::unwrap_used)]

use engine::rules::{
    Color, DrawReason, IllegalUciMoveError, MoveKind, Outcome, Piece, PieceKind, Position, PositionError, Setup,
    UciError, Variant,
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

// ---- Rendezvous -------------------------------------------------------------------------------

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

// ---- Centre square f6 -------------------------------------------------------------------------

#[test]
fn centre_square_in_persian_princess() {
    let v = Variant::PersianPrincess;
    // Black princess on f6; White princess d5, knight e4, rook f3, pawn e5.
    let p = pos(v, "Kf2 Sd5 Ne4 Rf3 Pe5 kf10 sf6", 'w');
    assert!(has(&p, "d5f6"), "a princess may capture on f6");
    assert!(has(&p, "e5f6"), "a pawn may capture on f6");
    assert!(!has(&p, "e4f6"), "a knight may not enter f6");
    assert!(!has(&p, "f3f6"), "a rook may not capture on f6");
    assert!(!has(&p, "f3f7"), "an occupied f6 blocks the rook");
    assert!(matches!(
        p.parse_uci("e4f6"),
        Err(UciError::Illegal(IllegalUciMoveError::NotAMove { .. }))
    ));
    // Empty f6: sliders pass through but cannot stop there; pawns may step onto it.
    let p = pos(v, "Kf2 Qc3 Ne4 Rf3 Pf5 kb10", 'w');
    assert!(!has(&p, "c3f6") && has(&p, "c3g7"), "queen passes f6 on the diagonal");
    let p = pos(v, "Kf2 Ne4 Rf4 Pf5 kb10", 'w');
    assert!(has(&p, "f5f6"), "a pawn may step onto f6");
    let p = pos(v, "Kf2 Rf4 kb10", 'w');
    assert!(
        !has(&p, "f4f6") && has(&p, "f4f7") && has(&p, "f4f10"),
        "rook passes an empty f6"
    );
    // The king never enters f6.
    let p = pos(v, "Kf5 kb10", 'w');
    assert!(!has(&p, "f5f6") && has(&p, "f5e6"));
    // An empty f6 does not stop a check along the file.
    let checked = pos(v, "Rf2 Kb2 kf10", 'b');
    assert!(
        checked.in_check(),
        "rook on f2 checks the king on f10 through an empty f6"
    );
}

#[test]
fn centre_square_in_egyptian_eye() {
    let v = Variant::EgyptianEye;
    let p = pos(v, "Kf2 Sd4 Ne4 Rf3 Pe5 Pf5 kc10 pg7", 'w');
    assert!(
        !ucis(&p).iter().any(|m| m.ends_with("f6")),
        "nobody enters f6: {:?}",
        ucis(&p)
    );
    assert!(!has(&p, "f5f6"), "a pawn on f5 cannot advance");
    let p = pos(v, "Kf2 Rf4 kc10", 'w');
    assert!(has(&p, "f4f7") && has(&p, "f4f10"), "sliders pass the Eye");
    // A piece on f6 is refused.
    let err = Position::from_setup(v, &setup(v, "Kf2 kb10 nf6", 'w', "-", None)).unwrap_err();
    assert!(matches!(err, PositionError::PieceOnBlockedSquare { .. }));
}

#[test]
fn centre_square_is_normal_in_celtic_and_omega() {
    let p = pos(Variant::CelticCitadel, "Kf2 Ne4 Rf3 kb10", 'w');
    assert!(has(&p, "e4f6") && has(&p, "f3f6"));
    let p = pos(Variant::OrientalOmega, "Kf5 Ne4 kb10", 'w');
    assert!(has(&p, "e4f6") && has(&p, "f5f6"));
}

// ---- All-Seeing Eye ---------------------------------------------------------------------------

#[test]
fn kings_are_barred_from_eye_squares() {
    let v = Variant::EgyptianEye;
    let p = pos(v, "Kf2 kf5", 'b');
    let mut moves = ucis(&p);
    moves.sort();
    assert_eq!(moves, ["f5e4", "f5e6", "f5f4", "f5g4", "f5g6"]);
    // A white knight on an Eye square next to the black king cannot be taken by the king.
    let p = pos(v, "Kc2 Ne5 kf5", 'b');
    assert!(!has(&p, "f5e5"));
    let p = pos(Variant::PersianPrincess, "Kb2 Ne5 kf5", 'b');
    assert!(has(&p, "f5e5"));
    // No king may enter a citadel in the Eye: they are all Eye squares.
    let p = pos(v, "Kc2 kf10", 'w');
    assert!(!has(&p, "c2b2") && !has(&p, "c2c3") && has(&p, "c2d2"));
    let p = pos(Variant::PersianPrincess, "Kb2 kf10", 'w');
    assert!(has(&p, "b2a1"), "outside the Eye a king may enter its citadel");
    // A king on an Eye square is refused.
    let err = Position::from_setup(v, &setup(v, "Kd4 kf10", 'w', "-", None)).unwrap_err();
    assert!(matches!(err, PositionError::KingOnSeenSquare { .. }));
}

#[test]
fn eye_attacks_through_pieces_official_mate() {
    let fen = "11/5k1r3/2p5p2/1pQ6p1/7p3/6p4/3r2P1N2/2Q4NPP1/7P1K1/9q1/11 w - - 0 1";
    let eye = Position::from_fen(Variant::EgyptianEye, fen).unwrap();
    assert!(eye.in_check());
    assert_eq!(eye.legal_moves().len(), 0);
    assert_eq!(eye.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
    // The same position in Persian Princess: the king takes on j2.
    let princess = Position::from_fen(Variant::PersianPrincess, fen).unwrap();
    assert_eq!(ucis(&princess), ["j3j2"]);
    assert_eq!(princess.outcome(), None);
}

// ---- Citadel draw -----------------------------------------------------------------------------

#[test]
fn citadel_draw() {
    let v = Variant::PersianPrincess;
    let mut p = pos(v, "Kb10 kf2", 'w');
    assert!(has(&p, "b10a11"));
    p.play_uci("b10a11").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
    // Entering one's own citadel has no effect.
    let mut p = pos(v, "Kb2 kf10 Rj5", 'w');
    p.play_uci("b2a1").unwrap();
    assert_eq!(p.outcome(), None);
    // Black's king on White's citadel draws too.
    let mut p = pos(v, "Kf10 kj2", 'b');
    p.play_uci("j2k1").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
    // The draw takes precedence over mate: Black is mated (rook ladder) but White's king is on a11.
    let p = pos(v, "Ka11 Rb10 Rc9 ke10", 'b');
    assert!(p.in_check() && p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
    // The move into the citadel must be legal (the square not attacked).
    let p = pos(v, "Kb10 kf2 nb9", 'w');
    assert!(!has(&p, "b10a11"));
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
