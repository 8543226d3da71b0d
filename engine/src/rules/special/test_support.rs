//! Helpers shared by the special rules' unit tests (each rule's tests sit at the end of its
//! module): positions built from piece lists or FENs on the registered variants, and the lists
//! of moves the tests compare. The tests of whole variants, of several rules together and of
//! the public API stay in the engine's integration tests (`engine/tests/rules/`).

#![cfg(test)]

use crate::rules::Position;

/// The legal moves from `from`, in UCI, sorted.
pub(crate) fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let from = pos.tables().geometry.parse_square(from).expect("a square");
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(|&m| pos.uci(m))
        .collect();
    v.sort();
    v
}

/// The Persian boards (11x11), positions given as piece lists.
pub(crate) mod persian {
    use crate::rules::{Color, IllegalUciMoveError, Piece, Position, Setup, UciError, Variant};

    /// Builds a position from a list like `"Kf2 Sg2 Bh2 kf10"` (upper case White).
    pub(crate) fn setup(
        variant: Variant,
        pieces: &str,
        turn: char,
        castling: &str,
        rendezvous: Option<(bool, bool)>,
    ) -> Setup {
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

    pub(crate) fn pos(variant: Variant, pieces: &str, turn: char) -> Position {
        Position::from_setup(variant, &setup(variant, pieces, turn, "-", None))
            .unwrap_or_else(|e| panic!("{pieces}: {e}"))
    }

    pub(crate) fn ucis(p: &Position) -> Vec<String> {
        p.legal_moves().iter().map(|&m| p.uci(m)).collect()
    }

    pub(crate) fn has(p: &Position, uci: &str) -> bool {
        ucis(p).iter().any(|m| m == uci)
    }

    pub(crate) fn illegal_here(p: &Position, uci: &str) -> bool {
        matches!(
            p.parse_uci(uci),
            Err(UciError::Illegal(IllegalUciMoveError::IllegalHere { .. }))
        )
    }
}

/// Parsi Chess, the registered variant, positions given as FENs.
pub(crate) mod parsi {
    use crate::rules::{reference, tables::Tables, MoveKind, PieceKind, Position, Variant, VariantSpec};

    /// The registered variant: these tests are its rule tests.
    pub(crate) const SPEC: &VariantSpec = Variant::Parsi.spec();

    pub(crate) fn tables() -> &'static Tables {
        Variant::Parsi.tables()
    }

    pub(crate) fn fen(text: &str) -> Position {
        Position::from_fen_in(tables(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// A position under the rule settings `settings` (`Variant::tables_with`).
    pub(crate) fn fen_with(settings: &str, text: &str) -> Position {
        let tables = Variant::Parsi.tables_with(settings).expect("settings read");
        Position::from_fen_in(tables, text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// The king's leaps among the legal moves, in UCI, sorted.
    pub(crate) fn leaps(pos: &Position) -> Vec<String> {
        let mut v: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.kind() == MoveKind::Rule && pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceKind::King))
            .map(|&m| pos.uci(m))
            .collect();
        v.sort();
        v
    }

    pub(crate) fn agrees_with_reference(pos: &Position) {
        let mut fast: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
        let mut slow: Vec<u32> = reference::legal_moves(pos).iter().map(|m| m.raw()).collect();
        fast.sort_unstable();
        slow.sort_unstable();
        assert_eq!(fast, slow, "{}", pos.fen());
    }

    /// Whether White attacks `square`, by the engine and by the reference generator alike.
    pub(crate) fn attacked(pos: &Position, square: &str) -> bool {
        let sq = pos.tables().geometry.parse_square(square).expect("a square");
        let by_fast = pos.is_attacked(sq, crate::rules::Color::White, pos.occupied());
        assert_eq!(
            by_fast,
            reference::is_attacked(pos, sq, crate::rules::Color::White),
            "{square} in {}",
            pos.fen()
        );
        by_fast
    }
}

/// Nicholls' Citadel on both boards, positions given as FENs.
pub(crate) mod citadel {
    use crate::rules::{geometry::Square, Position, Variant};

    pub(crate) const C8: Variant = Variant::Citadel8;
    pub(crate) const C9: Variant = Variant::Citadel9;

    pub(crate) fn fen(v: Variant, text: &str) -> Position {
        Position::from_fen(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    pub(crate) fn sq(pos: &Position, name: &str) -> Square {
        pos.tables().geometry.parse_square(name).unwrap()
    }

    /// The legal moves, in UCI, sorted.
    pub(crate) fn moves(pos: &Position) -> Vec<String> {
        let mut v: Vec<String> = pos.legal_moves().iter().map(|&m| pos.uci(m)).collect();
        v.sort();
        v
    }

    /// The position after `uci`, which must be legal.
    pub(crate) fn play(pos: &Position, uci: &str) -> Position {
        let mut p = pos.clone();
        p.play_uci(uci)
            .unwrap_or_else(|e| panic!("{uci} in {}: {e}", pos.fen()));
        p
    }

    pub(crate) fn is_legal(pos: &Position, uci: &str) -> bool {
        pos.parse_uci(uci).is_ok()
    }
}
