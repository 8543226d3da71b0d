//! Promotion by file and the release of prisoners, as Nicholls' Citadel has them (the rules
//! note on Parsi Chess and Citadel, B.6): a pawn (plainsman) arriving on some squares becomes a
//! kind fixed by the square, at once and without choice (on the penultimate rank outside the
//! citadel: Charger on the a/i files, Horseman on b/h, Shieldsman on c/g); arriving on a
//! release square of the last rank it frees one of its side's prisoners, who takes its place
//! (the younger prince on c/e/g, the Chief Commander on d/f), once per prisoner. Where nothing
//! is left to free, the pawn stays on that square as an ordinary pawn with no move (a stuck
//! plainsman): the square is then no promotion square.
//!
//! A prisoner still held is a rights bit, written as a letter in a FEN field of its own after
//! the en-passant field (`YQyq`); a release is a promotion to the prisoner's kind
//! ([`MoveKind::Promotion`](crate::rules::moves::MoveKind::Promotion)) that spends the bit.
//! Whatever else limits a release (a prince may not arrive next to an opposing one) is the
//! business of the rules that say so.

use super::ArrivalBan;
use crate::rules::{
    geometry::{Bitboard, Square},
    movegen::Sink,
    moves::Move,
    piece::{ByColor, Color, PieceKind},
    position::Position,
    rule_set::ReleaseTables,
    tables::{LetterRight, RightsField, Tables},
    variant::Coord,
};

use super::BuildHook;
pub use super::{Prisoner, Releases};

impl BuildHook for Releases {
    fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        let spec = tables.spec;
        let mut kind = Box::new(ByColor([[None; 128]; 2]));
        let mut spends = Box::new(ByColor([[0u32; 128]; 2]));
        let mut gates = ByColor([Vec::new(), Vec::new()]);
        for color in Color::ALL {
            let black = color == Color::Black;
            let at = |c: Coord| resolve(spec.mirror(c, black));
            for &(c, k) in self.fixed {
                assert!(
                    tables.kinds.contains(&k),
                    "{}: promotion to a kind not in play",
                    spec.id
                );
                let sq = at(c);
                kind[color][sq.index()] = Some(k);
                tables.promotion_squares[color] |= sq.bb();
            }
            for p in self.prisoners {
                assert!(tables.kinds.contains(&p.kind), "{}: a prisoner not in play", spec.id);
                let bit = tables.allocate_rights(1);
                tables.add_letter_right(LetterRight {
                    letter: if black { p.letter.to_ascii_lowercase() } else { p.letter },
                    bit,
                    field: RightsField::Fifth,
                    home: None,
                });
                let mut squares = Bitboard::EMPTY;
                for &c in p.squares {
                    let sq = at(c);
                    kind[color][sq.index()] = Some(p.kind);
                    spends[color][sq.index()] |= 1 << bit;
                    squares |= sq.bb();
                }
                tables.promotion_squares[color] |= squares;
                gates[color].push((bit, squares, p.kind));
            }
        }
        let mut approach = ByColor([Bitboard::EMPTY; 2]);
        for color in Color::ALL {
            for sq in tables.geometry.playable {
                if tables
                    .square_ahead(color, sq)
                    .is_some_and(|a| tables.promotion_squares[color].has(a))
                {
                    approach[color] |= sq.bb();
                }
            }
        }
        tables.promotion_approach = approach;
        let mut feeders = ByColor([Vec::new(), Vec::new()]);
        for color in Color::ALL {
            for &(_, squares, _) in &gates[color] {
                let mut from = Bitboard::EMPTY;
                for sq in squares {
                    from |= tables.pawn_attacks[!color][sq.index()];
                    let behind = sq.0 as i32 - tables.pawn_push[color];
                    if (0..tables.geometry.cells() as i32).contains(&behind) {
                        from |= Square(behind as u8).bb();
                    }
                }
                feeders[color].push(from);
            }
        }
        tables.rules.releases = Some(ReleaseTables {
            kind,
            spends,
            gates,
            feeders,
        });
    }
}

impl ReleaseTables {
    /// The release squares of `color` whose prisoner is no longer held under `rights`: squares
    /// where its pawns arrive as pawns. (Out of line: it keeps the other variants' pawn
    /// generator small.)
    #[inline(never)]
    pub fn closed(&self, color: Color, rights: u32) -> Bitboard {
        self.gates[color]
            .iter()
            .filter(|&&(bit, _, _)| rights & (1 << bit) == 0)
            .fold(Bitboard::EMPTY, |acc, &(_, squares, _)| acc | squares)
    }

    /// The kinds of `color`'s prisoners still held under `rights`.
    pub fn held(&self, color: Color, rights: u32) -> impl Iterator<Item = PieceKind> + '_ {
        self.gates[color]
            .iter()
            .filter(move |&&(bit, _, _)| rights & (1 << bit) != 0)
            .map(|&(_, _, kind)| kind)
    }
}

impl ReleaseTables {
    /// The promotions onto `targets` (promotion squares of the side to move, each reached from
    /// `to - delta`): one move each, to the square's kind, unless the arrival ban forbids it.
    pub(crate) fn add_promotions<S: Sink>(
        &self,
        pos: &Position,
        sink: &mut S,
        targets: Bitboard,
        delta: i32,
        ban: &ArrivalBan,
    ) {
        let us = pos.turn();
        for to in targets {
            if let Some(kind) = self.kind[us][to.index()] {
                if ban.squares_for(kind).has(to) {
                    continue;
                }
                let from = Square((to.0 as i32 - delta) as u8);
                sink.add(Move::promotion(from, to, kind));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        special::test_support::{
            citadel::{fen, moves, play, sq, C8, C9},
            moves_from,
        },
        Color, FenError, PieceKind, Position, PositionError,
    };

    #[test]
    fn plainsmen_promote_by_file_before_the_last_rank_outside_the_citadel() {
        // 8 ranks: the penultimate rank is 7; a/i give a Charger, b/h a Horseman, c/g a
        // Shieldsman; d/e/f lie in the citadel and stay plainsmen.
        let pos = fen(C8, "k8/9/P1P1P1P1P/9/9/9/9/8K w - - YQyq 0 1");
        let ms = moves(&pos);
        for m in ["a6a7c", "c6c7s", "g6g7s", "i6i7c", "e6e7"] {
            assert!(ms.contains(&m.to_string()), "{m} in {ms:?}");
        }
        for m in ["a6a7", "a6a7n", "c6c7q", "e6e7q"] {
            assert!(!ms.contains(&m.to_string()), "{m} in {ms:?}");
        }
        let h = fen(C8, "k8/9/7P1/9/9/9/9/K8 w - - YQyq 0 1");
        assert!(moves(&h).contains(&"h6h7n".to_string()));
        // 9 ranks: the penultimate rank is 8.
        let nine = fen(C9, "k8/9/P8/9/9/9/9/9/8K w - - YQyq 0 1");
        assert!(moves(&nine).contains(&"a7a8c".to_string()));
        // SAN names the new piece.
        let p = fen(C8, "k8/9/2P6/9/9/9/9/8K w - - YQyq 0 1");
        let m = p.parse_uci("c6c7s").unwrap();
        assert_eq!(p.san(m), "c7=S");
        // A plainsman never stands on a square where it promotes.
        assert!(matches!(
            Position::from_fen(C8, "k8/P8/9/9/9/9/9/8K w - - YQyq 0 1"),
            Err(FenError::Position(PositionError::PawnOnImpossibleRank { .. }))
        ));
    }

    #[test]
    fn releases_free_each_prisoner_once_and_then_plainsmen_stick() {
        // B.11: White plainsman on e7, prisoners YQyq, e8 empty, no Blue prince next to it.
        let pos = fen(C8, "k2r5/4PP3/9/9/9/9/9/4K4 w - - YQyq 0 1");
        assert_eq!(moves_from(&pos, "e7"), ["e7d8q", "e7e8y"]);
        assert_eq!(moves_from(&pos, "f7"), ["f7f8q"]);
        let released = play(&pos, "e7e8y");
        assert_eq!(released.fen(), "k2rY4/5P3/9/9/9/9/9/4K4 b - - Qyq 0 1");
        let m = pos.parse_uci("e7e8y").unwrap();
        assert_eq!(pos.san(m), "e8=Y");
        // Two High Princes now: White is never in check, whatever attacks them.
        assert_eq!(released.royals(Color::White).count(), 0);
        // The Commander is released by a capture onto d8 as well.
        let taken = play(&pos, "e7d8q");
        assert_eq!(taken.fen(), "k2Q5/5P3/9/9/9/9/9/4K4 b - - Yyq 0 1");
        assert!(taken.in_check());
        // A second plainsman reaching a release square of a prisoner already freed stays there:
        // f7-f8 after the Commander's release is a plain move, and the plainsman has no moves.
        let after = play(&play(&taken, "a8b7"), "f7f8");
        let f8 = sq(&after, "f8");
        assert_eq!(after.piece_at(f8).map(|p| p.kind), Some(PieceKind::Pawn));
        let after = play(&after, "b7a7");
        assert!(moves_from(&after, "f8").is_empty());
        // A stuck plainsman attacks nothing.
        let stuck = fen(C8, "k3Pr3/9/9/9/9/9/9/4K4 b - - Qyq 0 1");
        let e8 = sq(&stuck, "e8");
        for target in ["d8", "f8"] {
            let t = sq(&stuck, target);
            assert!(!stuck.is_attacked(t, Color::White, stuck.occupied()), "{target}");
        }
        assert!(stuck.piece_at(e8).is_some());
        // A prisoner listed as held cannot be on the board.
        assert!(matches!(
            Position::from_fen(C8, "k3Y4/9/9/9/9/9/9/4K4 b - - YQyq 0 1"),
            Err(FenError::Position(PositionError::PrisonerOnBoard { piece: 'Y', .. }))
        ));
    }

    #[test]
    fn the_prisoners_field_reads_and_writes() {
        let start = Position::startpos(C8);
        assert_eq!(start.fen().split(' ').nth(4), Some("YQyq"));
        for field in ["-", "Y", "q", "Qy", "YQyq"] {
            let text = format!("k8/9/9/9/9/9/9/8K w - - {field} 0 1");
            let pos = fen(C8, &text);
            let written = pos.fen();
            let back = written.split(' ').nth(4).unwrap();
            let mut a: Vec<char> = back.chars().filter(|&c| c != '-').collect();
            let mut b: Vec<char> = field.chars().filter(|&c| c != '-').collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{text} -> {written}");
        }
        for bad in ["YY", "Z", "K", "1"] {
            let text = format!("k8/9/9/9/9/9/9/8K w - - {bad} 0 1");
            assert!(Position::from_fen(C8, &text).is_err(), "{bad}");
        }
        // The prisoners are part of the position: the same board with other prisoners differs.
        let a = fen(C8, "k8/9/9/9/9/9/9/8K w - - YQyq 0 1");
        let b = fen(C8, "k8/9/9/9/9/9/9/8K w - - Qyq 0 1");
        assert_ne!(a.hash(), b.hash());
    }
}
