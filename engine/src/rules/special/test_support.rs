//! Helpers shared by the special rules' unit tests (each rule's tests sit at the end of its
//! module): positions built from piece lists or FENs on the registered variants, and the lists
//! of moves the tests compare. The tests of whole variants, of several rules together and of
//! the public API stay in the engine's integration tests (`engine/tests/rules/`).

#![cfg(test)]

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
