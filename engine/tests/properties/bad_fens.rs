//! A corpus of bad FENs, each rejected with its specific error.
#![allow(clippy::wildcard_imports)]

use super::*;

// ---------------------------------------------------------------------------------------------
// Bad FENs
// ---------------------------------------------------------------------------------------------

pub(crate) fn error_of(v: Variant, text: &str) -> FenError {
    match Position::from_fen(v, text) {
        Ok(pos) => panic!("{v}: '{text}' was accepted as {}", pos.fen()),
        Err(e) => e,
    }
}

pub(crate) fn parse_error(v: Variant, text: &str) -> ParseFenError {
    match error_of(v, text) {
        FenError::Parse(e) => e,
        FenError::Position(e) => panic!("{v}: '{text}': expected a parse error, got {e:?}"),
    }
}

pub(crate) fn position_error(v: Variant, text: &str) -> PositionError {
    match error_of(v, text) {
        FenError::Position(e) => e,
        FenError::Parse(e) => panic!("{v}: '{text}': expected a position error, got {e:?}"),
    }
}

/// The start FEN of a Persian variant with one rank (1 = bottom) replaced and other trailing fields.
pub(crate) fn start_with(v: Variant, rank: usize, text: &str, rest: &str) -> String {
    let start = v.spec().start_fen;
    let board = start.split(' ').next().unwrap_or("");
    let mut ranks: Vec<&str> = board.split('/').collect();
    let n = ranks.len();
    ranks[n - rank] = text;
    format!("{} {rest}", ranks.join("/"))
}

pub(crate) const PP: Variant = Variant::PersianPrincess;
pub(crate) const KINGS: [(&str, char); 2] = [("f2", 'K'), ("f10", 'k')];

pub(crate) fn with_kings(v: Variant, extra: &[(&str, char)], rest: &str) -> String {
    let mut pieces = KINGS.to_vec();
    pieces.extend_from_slice(extra);
    fen(v, &pieces, rest)
}

#[test]
pub(crate) fn bad_fens_give_their_specific_errors() {
    // Pieces on holes, in both conventions.
    for (rank, text, piece, sq) in [
        (1, "FN8F", 'N', "b1"),
        (5, "N10", 'N', "a5"),
        (7, "10n", 'n', "k7"),
        (11, "f8Rf", 'R', "j11"),
    ] {
        let e = position_error(PP, &start_with(PP, rank, text, "w KQkq - 0 1"));
        assert_eq!(
            e,
            PositionError::PieceOnHole {
                piece,
                square: sq.to_string()
            }
        );
    }
    let one_per_cell = Position::startpos(PP).fen_with(Convention::OnePerCell);
    let bad = one_per_cell.replacen("F111111111F", "FN11111111F", 1);
    assert_ne!(bad, one_per_cell);
    assert_eq!(
        position_error(PP, &bad),
        PositionError::PieceOnHole {
            piece: 'N',
            square: "b1".into()
        }
    );

    // f6 in the Egyptian Eye.
    let eye = Variant::EgyptianEye;
    for piece in ['N', 'p', 'Q', 's'] {
        let text = start_with(eye, 6, &format!("5{piece}5"), "w KQkq - 0 1");
        assert_eq!(
            position_error(eye, &text),
            PositionError::PieceOnBlockedSquare {
                piece,
                square: "f6".into()
            }
        );
    }
    // A king on a square the Eye sees.
    for sq in ["e5", "b2", "j10", "c9"] {
        let text = fen(eye, &[(sq, 'K'), ("f10", 'k')], "w - - 0 1");
        assert_eq!(
            position_error(eye, &text),
            PositionError::KingOnSeenSquare {
                color: "white",
                square: sq.into()
            }
        );
    }
    let text = fen(eye, &[("f2", 'K'), ("k11", 'k')], "w - - 0 1");
    assert!(matches!(
        position_error(eye, &text),
        PositionError::KingOnSeenSquare { color: "black", .. }
    ));

    // Pieces the variant does not have.
    for (v, text) in [
        (PP, with_kings(PP, &[("a1", 'W')], "w - - 0 1")),
        (
            Variant::CelticCitadel,
            with_kings(Variant::CelticCitadel, &[("e4", 'c')], "w - - 0 1"),
        ),
        (
            Variant::OrientalOmega,
            with_kings(Variant::OrientalOmega, &[("e4", 'S')], "w - - 0 1"),
        ),
        (Variant::Chess, "4k3/8/8/8/8/8/8/F3K3 w - - 0 1".to_string()),
    ] {
        assert!(
            matches!(position_error(v, &text), PositionError::PieceNotInVariant { .. }),
            "{v}: {text}"
        );
    }

    // Not exactly one king per side.
    let e = position_error(PP, &start_with(PP, 2, "1RNBQ1SBNR1", "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "white",
            count: 0
        }
    );
    let e = position_error(PP, &start_with(PP, 8, "5k5", "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "black",
            count: 2
        }
    );
    let e = position_error(PP, &fen(PP, &[("f2", 'K')], "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "black",
            count: 0
        }
    );
    let e = position_error(PP, &with_kings(PP, &[("a1", 'K')], "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "white",
            count: 2
        }
    );
    let e = position_error(Variant::Chess, "4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "white",
            count: 0
        }
    );

    // Castling rights without their rook or king.
    let e = position_error(PP, &start_with(PP, 2, "1RNBQKSBN2", "w K - 0 1"));
    assert_eq!(e, PositionError::CastlingWithoutRook('K'));
    let e = position_error(PP, &start_with(PP, 10, "2nbqksbnr1", "w Qq - 0 1"));
    assert_eq!(e, PositionError::CastlingWithoutRook('q'));
    let e = position_error(
        PP,
        &start_with(PP, 2, "1RNBQ1SBNR1", "w KQkq - 0 1").replace("/11/11/11/1P", "/11/11/5K5/1P"),
    );
    assert_eq!(e, PositionError::CastlingWithoutKing('K'));
    let text = fen(PP, &[("e2", 'K'), ("b2", 'R'), ("f10", 'k')], "w Q - 0 1");
    assert_eq!(position_error(PP, &text), PositionError::CastlingWithoutKing('Q'));
    let text = fen(PP, &[("f2", 'K'), ("j10", 'r'), ("f9", 'k')], "b k - 0 1");
    assert_eq!(position_error(PP, &text), PositionError::CastlingWithoutKing('k'));
    let e = position_error(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1");
    assert_eq!(e, PositionError::CastlingWithoutRook('K'));
    let e = position_error(PP, &start_with(PP, 1, "F9F", "w KK - 0 1"));
    assert_eq!(e, PositionError::DuplicateCastlingRight('K'));
    // A castling letter the variant does not have can only come from a hand-made setup.
    let mut setup = Position::startpos(PP).to_setup();
    setup.castling = vec!['X'];
    assert_eq!(
        Position::from_setup(PP, &setup),
        Err(PositionError::UnknownCastlingRight('X'))
    );

    // Impossible en-passant squares.
    let impossible = |v: Variant, text: &str, why: &str| match position_error(v, text) {
        PositionError::ImpossibleEnPassant { reason, .. } => assert!(reason.contains(why), "{text}: {reason}"),
        e => panic!("{v}: '{text}': expected ImpossibleEnPassant, got {e:?}"),
    };
    let start = |ep: &str, side: &str| start_with(PP, 1, "F9F", &format!("{side} KQkq {ep} 0 1"));
    impossible(PP, &start("e6", "w"), "first step passes"); // wrong rank
    impossible(PP, &start("e4", "w"), "first step passes"); // White's own side
    impossible(PP, &start("e8", "b"), "first step passes"); // Black's own side
    impossible(PP, &start("a4", "b"), "first step passes"); // a hole
    impossible(PP, &start("k8", "w"), "first step passes"); // a hole
    impossible(PP, &start("e4", "b"), "not empty"); // the start square e3 is occupied
                                                    // After e3e5: the passed square e4 is occupied.
    let after_double = |e4: &str| {
        let text = start_with(PP, 3, "1PPP1PPPPP1", "b KQkq e4 0 1");
        let text = text.replacen("/11/11/1PPP1", &format!("/4P6/{e4}/1PPP1"), 1);
        text
    };
    impossible(PP, &after_double("4N6"), "not empty");
    // No pawn in front of the passed square.
    impossible(PP, &start_with(PP, 3, "1PPP1PPPPP1", "b KQkq e4 0 1"), "no pawn");
    let e = position_error(
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    );
    assert!(matches!(e, PositionError::ImpossibleEnPassant { .. }));
    // A possible ep square is accepted, and kept only when a capture is legal.
    let pos = Position::from_fen(PP, &after_double("11")).expect("a legal double step");
    assert_eq!(pos.ep_square(), None, "no black pawn can capture");
    let text = after_double("11").replacen("/4P6/", "/4Pp5/", 1);
    let pos = Position::from_fen(PP, &text).expect("a legal double step");
    assert_eq!(pos.ep_square(), Some(square(PP, "e4")), "{text}");

    // Rank widths in both conventions, and the rank count.
    let e = parse_error(PP, &start_with(PP, 8, "12", "w KQkq - 0 1"));
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 8,
            found: 12,
            expected: 11
        }
    );
    let e = parse_error(PP, &start_with(PP, 3, "1PPPPPPPPP", "w KQkq - 0 1"));
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 3,
            found: 10,
            expected: 11
        }
    );
    let e = parse_error(PP, &start_with(PP, 10, "1rnbqksbnr1p", "w KQkq - 0 1"));
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 10,
            found: 12,
            expected: 11
        }
    );
    // One per cell: a rank one cell short or long makes the board unreadable in either convention.
    for (from, to) in [("11111111111", "1111111111"), ("11111111111", "111111111111")] {
        let bad = one_per_cell.replacen(from, to, 1);
        assert_ne!(bad, one_per_cell);
        assert!(
            matches!(parse_error(PP, &bad), ParseFenError::RankWidth { expected: 11, .. }),
            "{bad}"
        );
    }
    let bad = one_per_cell.replacen("1PPPPPPPPP1", "1PPPPPPPPP", 1);
    assert!(matches!(
        parse_error(PP, &bad),
        ParseFenError::RankWidth { expected: 11, .. }
    ));
    let e = parse_error(
        Variant::Chess,
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 6,
            found: 9,
            expected: 8
        }
    );
    let e = parse_error(
        Variant::Chess,
        "rnbqkbnr/pppppppp/1111111/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(matches!(e, ParseFenError::RankWidth { rank: 6, .. }));
    let start_fen = PP.spec().start_fen;
    let e = parse_error(PP, &format!("11/{start_fen}"));
    assert_eq!(
        e,
        ParseFenError::RankCount {
            found: 12,
            expected: 11
        }
    );
    let e = parse_error(PP, start_fen.replacen("11/", "", 1).as_str());
    assert_eq!(
        e,
        ParseFenError::RankCount {
            found: 10,
            expected: 11
        }
    );
    let e = parse_error(Variant::Chess, "8/8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(e, ParseFenError::RankCount { found: 9, expected: 8 });
    // Huge runs of empty cells are a width error, not an overflow.
    for run in [
        "99999999999999999999999",
        "18446744073709551616",
        "18446744073709551615",
    ] {
        for text in [run.to_string(), format!("{run}P"), format!("P{run}")] {
            let e = parse_error(PP, &start_with(PP, 5, &text, "w KQkq - 0 1"));
            assert!(matches!(e, ParseFenError::RankWidth { rank: 5, .. }), "{text}: {e:?}");
        }
    }

    // Pawns on ranks where no pawn can stand.
    for (v, sq, piece, color) in [
        (PP, "c2", 'P', "white"),
        (PP, "c10", 'P', "white"),
        (PP, "a1", 'P', "white"),
        (PP, "k11", 'P', "white"),
        (PP, "c10", 'p', "black"),
        (PP, "c2", 'p', "black"),
        (PP, "a11", 'p', "black"),
        (Variant::OrientalOmega, "j2", 'p', "black"),
    ] {
        let text = with_kings(v, &[(sq, piece)], "w - - 0 1");
        assert_eq!(
            position_error(v, &text),
            PositionError::PawnOnImpossibleRank {
                color,
                square: sq.into()
            },
            "{text}"
        );
    }
    for (text, sq) in [
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a1"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a8"),
    ] {
        assert_eq!(
            position_error(Variant::Chess, text),
            PositionError::PawnOnImpossibleRank {
                color: "white",
                square: sq.into()
            }
        );
    }

    // The side not to move is in check.
    let text = with_kings(PP, &[("f5", 'R')], "w - - 0 1"); // through the empty f6
    assert_eq!(position_error(PP, &text), PositionError::OpponentInCheck("black"));
    let text = with_kings(PP, &[("b6", 'q')], "b - - 0 1");
    assert_eq!(position_error(PP, &text), PositionError::OpponentInCheck("white"));
    let text = with_kings(Variant::OrientalOmega, &[("f4", 'c')], "b - - 0 1"); // champion's D leap
    assert_eq!(
        position_error(Variant::OrientalOmega, &text),
        PositionError::OpponentInCheck("white")
    );
    let e = position_error(Variant::Chess, "4k2R/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(e, PositionError::OpponentInCheck("black"));

    // Unknown characters on the board.
    for (rank, text, ch) in [
        (5, "5X5", 'X'),
        (5, "5é5", 'é'),
        (7, "5!5", '!'),
        (5, "5P0P3", '0'),
        (6, "0", '0'),
    ] {
        let e = parse_error(PP, &start_with(PP, rank, text, "w KQkq - 0 1"));
        assert_eq!(e, ParseFenError::BadBoardChar { rank, ch }, "{text}");
    }
    let e = parse_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w - - 0 1");
    assert_eq!(e, ParseFenError::BadBoardChar { rank: 1, ch: 'Z' });

    // The fields after the board.
    let fields = |rest: &str| start_with(PP, 1, "F9F", rest);
    for side in ["x", "W", "white", "-", "é"] {
        assert_eq!(parse_error(PP, &fields(side)), ParseFenError::BadSide(side.into()));
    }
    for castling in ["KQkqX", "abc", "1", "KQ-"] {
        let e = parse_error(PP, &fields(&format!("w {castling} - 0 1")));
        assert_eq!(e, ParseFenError::BadCastling(castling.into()));
    }
    for ep in ["e", "z5", "e0", "e05", "e12", "l5", "5e", "E3", "e3e"] {
        let e = parse_error(PP, &fields(&format!("w KQkq {ep} 0 1")));
        assert_eq!(e, ParseFenError::BadEnPassant(ep.into()));
    }
    assert_eq!(
        parse_error(Variant::Chess, "8/8/8/8/8/8/8/K6k w - e9 0 1"),
        ParseFenError::BadEnPassant("e9".into())
    );
    for half in ["-1", "x", "4294967296", "1.5", "99999999999999999999"] {
        let e = parse_error(PP, &fields(&format!("w KQkq - {half} 1")));
        assert_eq!(e, ParseFenError::BadHalfmove(half.into()));
    }
    for full in ["0", "-1", "abc", "4294967296", "1.0"] {
        let e = parse_error(PP, &fields(&format!("w KQkq - 0 {full}")));
        assert_eq!(e, ParseFenError::BadFullmove(full.into()));
    }
    for rdv in ["RR", "rr", "Rx", "RrR", "x", "R-", "1"] {
        let e = parse_error(PP, &fields(&format!("w KQkq - 0 1 {rdv}")));
        assert_eq!(e, ParseFenError::BadRendezvous(rdv.into()));
    }
    assert_eq!(
        parse_error(PP, &fields("w KQkq - 0 1 Rr extra")),
        ParseFenError::TooManyFields(8)
    );
    assert_eq!(
        parse_error(PP, start_fen.split(' ').next().unwrap_or("")),
        ParseFenError::MissingSide
    );
    assert_eq!(parse_error(PP, ""), ParseFenError::Empty);
    assert_eq!(parse_error(PP, " \t\n "), ParseFenError::Empty);

    // Rendezvous rights where there is no rendezvous.
    let celtic = Variant::CelticCitadel;
    for rdv in ["Rr", "R", "r"] {
        let text = format!("{} {rdv}", celtic.spec().start_fen);
        assert_eq!(
            position_error(celtic, &text),
            PositionError::NoRendezvousInVariant("Celtic Citadel")
        );
        let text = format!("{} {rdv}", Variant::Chess.spec().start_fen);
        assert!(matches!(
            position_error(Variant::Chess, &text),
            PositionError::NoRendezvousInVariant(_)
        ));
    }
    // "-" (no rights) is fine anywhere, and absent rights mean both where the rule exists.
    let pos = Position::from_fen(celtic, &format!("{} -", celtic.spec().start_fen)).expect("'-' is accepted");
    assert_eq!(pos, Position::startpos(celtic));
    let pos = Position::from_fen(PP, start_fen.trim_end_matches(" Rr")).expect("defaults");
    assert!(pos.has_rendezvous_right(Color::White) && pos.has_rendezvous_right(Color::Black));
    let pos = Position::from_fen(PP, &fields("b")).expect("only side given");
    assert_eq!(
        (pos.halfmove_clock(), pos.fullmove_number(), pos.castling_rights()),
        (0, 1, 0)
    );
}
