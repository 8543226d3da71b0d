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

/// Data of the rule, given for White (Black's squares are mirrored across the middle rank).
#[derive(Clone, Copy, Debug)]
pub struct Releases {
    /// Squares on which a pawn becomes this kind, always.
    pub fixed: &'static [(Coord, PieceKind)],
    /// The prisoners: each with its kind, its FEN letter (White's; Black's is the lower case)
    /// and the squares on which a pawn releases it.
    pub prisoners: &'static [Prisoner],
}

/// One prisoner of each side.
#[derive(Clone, Copy, Debug)]
pub struct Prisoner {
    /// The kind released.
    pub kind: PieceKind,
    /// White's FEN letter of the right (Black's is the lower case).
    pub letter: char,
    /// The squares of its release.
    pub squares: &'static [Coord],
}

impl Releases {
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
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
