//! Regressions found by the other property tests.
#![allow(clippy::wildcard_imports)]

use super::bad_fens::{with_kings, PP};
use super::*;

// ---------------------------------------------------------------------------------------------
// Regressions found by the tests above
// ---------------------------------------------------------------------------------------------

#[test]
pub(crate) fn capture_moves_include_promotions_without_capture() {
    let uci_set = |pos: &Position, moves: &[Move]| {
        let mut v = ucis(pos, moves);
        v.sort();
        v
    };
    // Persian: a pawn on c9 promotes on the empty c10, and may capture on b10.
    let v = PP;
    let pos = Position::from_fen(v, &with_kings(v, &[("c9", 'P'), ("b10", 'r')], "w - - 0 1")).expect("valid");
    let captures: Vec<Move> = pos.capture_moves().iter().copied().collect();
    let expected = [
        "c9b10b", "c9b10n", "c9b10q", "c9b10r", "c9c10b", "c9c10n", "c9c10q", "c9c10r",
    ];
    assert_eq!(uci_set(&pos, &captures), expected);
    // Chess, in check: the promotion that blocks the check is in the list too.
    let pos = Position::from_fen(Variant::Chess, "r6K/1P6/8/8/8/8/8/k7 w - - 0 1").expect("valid");
    assert!(pos.in_check());
    let captures: Vec<Move> = pos.capture_moves().iter().copied().collect();
    let expected = ["b7a8b", "b7a8n", "b7a8q", "b7a8r", "b7b8b", "b7b8n", "b7b8q", "b7b8r"];
    assert_eq!(uci_set(&pos, &captures), expected);
}

#[test]
pub(crate) fn clocks_at_their_maximum_do_not_overflow() {
    for v in Variant::ALL {
        let start = v.spec().start_fen;
        let mut fields: Vec<&str> = start.split(' ').collect();
        // Black to move, the clocks (the two numbers after the en-passant field and, in
        // Citadel, the prisoners) at their maximum.
        fields[1] = "b";
        let clocks = 4 + usize::from(v.tables().fifth_field_letters());
        fields[clocks] = "4294967295";
        fields[clocks + 1] = "4294967295";
        let text = fields.join(" ");
        let pos = Position::from_fen(v, &text).expect("the clocks are in range");
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| pos.piece_at(m.from()).map(|p| p.kind) == Some(PieceKind::Knight));
        let child = pos.after(m.expect("a knight move"));
        assert_eq!(child.halfmove_clock(), u32::MAX, "{v}");
        assert_eq!(child.fullmove_number(), u32::MAX, "{v}");
        assert_eq!(child.hash(), child.compute_hash());
        let mut null = pos.clone();
        null.play_null();
        assert_eq!((null.halfmove_clock(), null.fullmove_number()), (u32::MAX, u32::MAX));
    }
}

#[test]
pub(crate) fn san_texts() {
    let san = |v: Variant, fen_text: &str, uci: &str| -> String {
        let pos = Position::from_fen(v, fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
        let m = pos
            .parse_uci(uci)
            .unwrap_or_else(|e| panic!("{uci} in {fen_text}: {e}"));
        let text = pos.san(m);
        assert_eq!(pos.parse_san(&text), Ok(m), "{text}");
        text
    };
    let chess = Variant::Chess;
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for (uci, expected) in [
        ("e1g1", "O-O"),
        ("e1c1", "O-O-O"),
        ("e5f7", "Nxf7"),
        ("d5e6", "dxe6"),
        ("f3f6", "Qxf6"),
        ("e2a6", "Bxa6"),
        ("a2a4", "a4"),
    ] {
        assert_eq!(san(chess, kiwipete, uci), expected);
    }
    // Disambiguation by file, by rank, by both.
    assert_eq!(san(chess, "7k/8/8/8/8/8/8/R5RK w - - 0 1", "a1d1"), "Rad1");
    assert_eq!(san(chess, "7k/8/8/R7/8/8/8/R6K w - - 0 1", "a1a3"), "R1a3");
    let queens = "6k1/8/8/Q1Q5/8/8/8/Q6K w - - 0 1";
    assert_eq!(san(chess, queens, "a1c3"), "Q1c3");
    assert_eq!(san(chess, queens, "a5c3"), "Qa5c3");
    assert_eq!(san(chess, queens, "c5c3"), "Qcc3");
    // Promotions, en passant, check and mate marks.
    assert_eq!(san(chess, "8/P7/8/8/8/1k6/8/7K w - - 0 1", "a7a8q"), "a8=Q");
    assert_eq!(san(chess, "8/P7/8/8/8/1k6/8/7K w - - 0 1", "a7a8n"), "a8=N");
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(san(chess, ep, "e5f6"), "exf6");
    assert_eq!(san(chess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
    assert_eq!(san(chess, "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", "a1a8"), "Ra8#");

    // Persian Chess: the rendezvous, castling on the 11x11 board, two-digit ranks.
    assert_eq!(san(PP, PP.spec().start_fen, "g2h2"), "S~h2");
    assert_eq!(san(PP, PP.spec().start_fen, "c2d4"), "Nd4");
    assert_eq!(san(PP, PP.spec().start_fen, "b3b5"), "b5");
    let omega = Variant::OrientalOmega;
    assert_eq!(san(omega, omega.spec().start_fen, "g2h2"), "C~h2");
    let castles = with_kings(PP, &[("b2", 'R'), ("j2", 'R')], "w KQ - 0 1");
    assert_eq!(san(PP, &castles, "f2i2"), "O-O");
    assert_eq!(san(PP, &castles, "f2d2"), "O-O-O");
    let rooks = fen(PP, &[("f2", 'K'), ("c10", 'R'), ("c4", 'R'), ("i8", 'k')], "w - - 0 1");
    assert_eq!(san(PP, &rooks, "c10c7"), "R10c7");
    assert_eq!(san(PP, &rooks, "c4c7"), "R4c7");
    assert_eq!(san(PP, &rooks, "c10i10"), "Ri10+");
    let promotion = with_kings(PP, &[("c9", 'P'), ("b10", 'r')], "w - - 0 1");
    assert_eq!(san(PP, &promotion, "c9b10q"), "cxb10=Q+");
    assert_eq!(san(PP, &promotion, "c9c10r"), "c10=R+");
    // Input variants that are accepted.
    let pos = Position::from_fen(PP, &castles).expect("valid");
    let (oo, ooo) = (
        pos.parse_uci("f2i2").expect("legal"),
        pos.parse_uci("f2d2").expect("legal"),
    );
    assert_eq!(pos.parse_san("0-0"), Ok(oo));
    assert_eq!(pos.parse_san("O-O-O+!?"), Ok(ooo));
    assert_eq!(pos.parse_san("Rb2b3"), Ok(pos.parse_uci("b2b3").expect("legal")));
    assert!(pos.parse_san("Rb3b2").is_err());
}
