//! An unvalidated position ([`Setup`]) and its validation into a [`Position`].

use super::{
    geometry::{Bitboard, Square},
    piece::{Color, Piece, PieceKind},
    position::Position,
    tables::Tables,
    variant::Variant,
};

/// What a FEN says, before it is checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces by cell number of the variant's grid.
    pub board: Vec<(Square, Piece)>,
    /// Side to move.
    pub turn: Color,
    /// Castling rights as FEN letters (`K`, `Q`, `k`, `q`), then the letters of rules' rights
    /// (from the castling field, or from the fourth field in variants that keep rights there).
    pub castling: Vec<char>,
    /// The en-passant squares given: none, the square a double step passed, or the squares a
    /// longer first step passed (Citadel's triple step), in the order the pawn passed them.
    pub ep: Vec<Square>,
    /// Halfmove clock.
    pub halfmove: u32,
    /// Fullmove number.
    pub fullmove: u32,
    /// Rendezvous rights (White, Black); `None` when the FEN does not say (both are then assumed).
    pub rendezvous: Option<(bool, bool)>,
    /// The FEN fields of the variant's custom rules that write one, in the order of the rules
    /// (see [`CustomRule::fen_field`](super::special::CustomRule::fen_field)); missing ones
    /// read as absent.
    pub rule_fields: Vec<String>,
}

/// Why a setup is not a legal position of its variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A piece on a cell that does not exist.
    #[error("piece '{piece}' on {square}, which is not a square of this board")]
    PieceOnHole {
        /// The piece letter.
        piece: char,
        /// The cell name.
        square: String,
    },
    /// A piece on a square nobody may occupy (the All-Seeing Eye's f6).
    #[error("piece '{piece}' on {square}, where no piece may stand in this variant")]
    PieceOnBlockedSquare {
        /// The piece letter.
        piece: char,
        /// The square name.
        square: String,
    },
    /// A piece kind the variant does not use.
    #[error("piece '{piece}' on {square}: the {kind} is not a piece of {variant}")]
    PieceNotInVariant {
        /// The piece letter.
        piece: char,
        /// The square name.
        square: String,
        /// The kind name.
        kind: &'static str,
        /// The variant name.
        variant: &'static str,
    },
    /// Not exactly one king.
    #[error("{color} has {count} kings, expected exactly one")]
    KingCount {
        /// Which side.
        color: &'static str,
        /// How many.
        count: u32,
    },
    /// A pawn where no pawn can be (behind its start rank, or on a square where it promotes).
    #[error("{color} pawn on {square}: pawns cannot stand there (behind their start rank, or where they promote)")]
    PawnOnImpossibleRank {
        /// Which side.
        color: &'static str,
        /// The square name.
        square: String,
    },
    /// A castling right whose king is not on its home square.
    #[error("castling right '{0}' but the king is not on its home square")]
    CastlingWithoutKing(char),
    /// A castling right whose rook is not on its home square.
    #[error("castling right '{0}' but there is no rook on its home square")]
    CastlingWithoutRook(char),
    /// A castling letter the variant does not have.
    #[error("castling right '{0}' does not exist in this variant")]
    UnknownCastlingRight(char),
    /// A right of a rule whose piece is not on its square.
    #[error("right '{letter}' but no piece of its side on {square}")]
    RightWithoutPiece {
        /// The right's letter.
        letter: char,
        /// The square its piece must stand on.
        square: String,
    },
    /// A prisoner listed as held while a piece of its kind stands on the board.
    #[error("prisoner '{piece}' is listed as held, but one stands on {square}")]
    PrisonerOnBoard {
        /// The prisoner's letter.
        piece: char,
        /// Where its kind stands.
        square: String,
    },
    /// A castling letter given twice.
    #[error("castling right '{0}' given twice")]
    DuplicateCastlingRight(char),
    /// An impossible en-passant square.
    #[error("en-passant square {square} is impossible: {reason}")]
    ImpossibleEnPassant {
        /// The square name (names, comma-separated, where several were given).
        square: String,
        /// Why.
        reason: &'static str,
    },
    /// A custom rule refused its FEN field.
    #[error("{rule}: {reason}")]
    RuleField {
        /// The rule's name.
        rule: &'static str,
        /// Why.
        reason: String,
    },
    /// A custom rule does not allow the position.
    #[error("{rule}: {reason}")]
    RuleSetup {
        /// The rule's name.
        rule: &'static str,
        /// Why.
        reason: String,
    },
    /// Rendezvous rights given for a variant without the rendezvous.
    #[error("rendezvous rights given, but {0} has no rendezvous")]
    NoRendezvousInVariant(&'static str),
    /// The side that just moved is in check.
    #[error("the side not to move ({0}) is in check")]
    OpponentInCheck(&'static str),
    /// A king on a square the All-Seeing Eye attacks.
    #[error("{color} king on {square}, a square the All-Seeing Eye attacks")]
    KingOnSeenSquare {
        /// Which side.
        color: &'static str,
        /// The square name.
        square: String,
    },
}

impl Position {
    /// Validates a setup as a position of `variant`.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Position, PositionError> {
        Position::from_setup_in(variant.tables(), setup)
    }

    /// Validates a setup as a position of the variant whose tables are given (a registered
    /// variant's [`Variant::tables`], or tables built from a spec of one's own, as tests do).
    pub fn from_setup_in(tables: &'static Tables, setup: &Setup) -> Result<Position, PositionError> {
        let spec = tables.spec;
        let g = tables.geometry;
        let mut pos = Position::empty(tables);
        let name = |sq: Square| g.square_name(sq);

        for &(sq, piece) in &setup.board {
            if !g.is_playable(sq) {
                return Err(PositionError::PieceOnHole {
                    piece: tables.piece_char(piece),
                    square: name(sq),
                });
            }
            if tables.blocked.has(sq) {
                return Err(PositionError::PieceOnBlockedSquare {
                    piece: tables.piece_char(piece),
                    square: name(sq),
                });
            }
            if !tables.kinds.contains(&piece.kind) {
                return Err(PositionError::PieceNotInVariant {
                    piece: tables.piece_char(piece),
                    square: name(sq),
                    kind: piece.kind.name(),
                    variant: spec.name,
                });
            }
            if piece.kind == PieceKind::Pawn {
                let rank = g.rank(sq);
                let rel = if piece.color == Color::White {
                    rank
                } else {
                    g.height as i32 - 1 - rank
                };
                if rel < spec.pawns.double_step_rank as i32 || rel >= spec.pawns.promotion_rank as i32 {
                    return Err(PositionError::PawnOnImpossibleRank {
                        color: piece.color.name(),
                        square: name(sq),
                    });
                }
            }
            if pos.piece_at(sq).is_none() {
                pos.put(sq, piece);
            }
        }
        for c in Color::ALL {
            let count = pos.pieces(c, PieceKind::King).count();
            // With royalty by a rule, the rule says which kings a side may have.
            if count != 1 && tables.rules.royalty_rule.is_none() {
                return Err(PositionError::KingCount { color: c.name(), count });
            }
            for k in pos.pieces(c, PieceKind::King) {
                if tables.always_attacked.has(k) {
                    return Err(PositionError::KingOnSeenSquare {
                        color: c.name(),
                        square: name(k),
                    });
                }
            }
        }

        pos.turn = setup.turn;
        for &letter in &setup.castling {
            if let Some(r) = tables.rules.letter_rights.iter().find(|r| r.letter == letter) {
                if pos.rights & (1 << r.bit) != 0 {
                    return Err(PositionError::DuplicateCastlingRight(letter));
                }
                if let Some((sq, color)) = r.home {
                    if pos.piece_at(sq).is_none_or(|p| p.color != color) {
                        return Err(PositionError::RightWithoutPiece {
                            letter,
                            square: name(sq),
                        });
                    }
                }
                pos.rights |= 1 << r.bit;
                continue;
            }
            let Some(i) = tables.castling.iter().position(|c| c.letter == letter) else {
                return Err(PositionError::UnknownCastlingRight(letter));
            };
            if pos.rights & (1 << i) != 0 {
                return Err(PositionError::DuplicateCastlingRight(letter));
            }
            let c = tables.castling[i];
            if pos.piece_at(c.king_from)
                != Some(Piece {
                    color: c.color,
                    kind: PieceKind::King,
                })
            {
                return Err(PositionError::CastlingWithoutKing(letter));
            }
            if pos.piece_at(c.rook_from)
                != Some(Piece {
                    color: c.color,
                    kind: PieceKind::Rook,
                })
            {
                return Err(PositionError::CastlingWithoutRook(letter));
            }
            pos.rights |= 1 << i;
        }

        // Rights that follow the board are set from it, whatever the FEN said.
        if !tables.rules.present_gates.is_empty() {
            pos.refresh_present_rights();
        }
        pos.rights |= match (setup.rendezvous, tables.rules.rendezvous) {
            (Some((w, b)), None) if w || b => return Err(PositionError::NoRendezvousInVariant(tables.spec.name)),
            (_, None) => 0,
            (given, Some(r)) => r.setup_rights(given),
        };
        for (k, &i) in tables.rules.custom_fen_rules.iter().enumerate() {
            let rule = tables.rules.custom_rules[i as usize];
            pos.rights |= rule
                .parse_fen_field(tables, i, setup.rule_fields.get(k).map(String::as_str))
                .map_err(|reason| PositionError::RuleField {
                    rule: rule.name(),
                    reason,
                })?;
        }

        pos.halfmove = setup.halfmove;
        pos.fullmove = setup.fullmove.max(1);

        // A prisoner still held is off the board: it enters only by its release, once.
        if let Some(r) = &tables.rules.releases {
            for c in Color::ALL {
                for kind in r.held(c, pos.rights) {
                    if let Some(sq) = pos.pieces(c, kind).iter().next() {
                        return Err(PositionError::PrisonerOnBoard {
                            piece: tables.piece_char(Piece { color: c, kind }),
                            square: name(sq),
                        });
                    }
                }
            }
        }
        // A pawn never stays on a square where it promotes (where a release square's prisoner
        // is still held, say).
        for c in Color::ALL {
            if let Some(sq) = (pos.pieces(c, PieceKind::Pawn) & pos.promotion_squares(c))
                .iter()
                .next()
            {
                return Err(PositionError::PawnOnImpossibleRank {
                    color: c.name(),
                    square: name(sq),
                });
            }
        }

        for &rule in &tables.rules.custom_rules {
            rule.check_setup(&pos).map_err(|reason| PositionError::RuleSetup {
                rule: rule.name(),
                reason,
            })?;
        }

        let us = pos.turn;
        let occ = pos.occupied();
        let may_be_in_check = tables
            .rules
            .custom_rules
            .iter()
            .any(|r| r.side_not_to_move_may_be_in_check(&pos));
        if !may_be_in_check && pos.royals(!us).iter().any(|k| pos.attackers(k, us, occ).any()) {
            return Err(PositionError::OpponentInCheck((!us).name()));
        }

        if let Some(&given) = setup.ep.first() {
            let names: Vec<String> = setup.ep.iter().map(|&sq| name(sq)).collect();
            let err = |reason| {
                Err(PositionError::ImpossibleEnPassant {
                    square: names.join(","),
                    reason,
                })
            };
            if !tables.en_passant {
                return err("this variant has no en passant");
            }
            if setup.ep.iter().any(|&sq| !g.is_playable(sq)) {
                return err("not on the squares a pawn's first step passes");
            }
            let them = !us;
            // The pawn of `them` left its start square, passed the listed squares (the first
            // of them next to its start) and stands on the square beyond the last (their push).
            let push = tables.pawn_push[them];
            let first = if push > 0 {
                setup.ep.iter().copied().min()
            } else {
                setup.ep.iter().copied().max()
            }
            .unwrap_or(given);
            let start = first.0 as i32 - push;
            let start_ok = (0..128).contains(&start) && tables.double_step_from[them].has(Square(start as u8));
            if !g.is_playable(first) || !start_ok {
                return err("not on the squares a pawn's first step passes");
            }
            if pos.piece_at(Square(start as u8)).is_some() || setup.ep.iter().any(|&sq| pos.piece_at(sq).is_some()) {
                return err("a square passed or the pawn's start square is not empty");
            }
            let mut passed = Bitboard::EMPTY;
            let mut sq = first.0 as i32;
            let landed = loop {
                if !(0..g.cells() as i32).contains(&sq) || !g.is_playable(Square(sq as u8)) {
                    return err("no pawn that just made a long first step");
                }
                let here = Square(sq as u8);
                match pos.piece_at(here) {
                    None => passed |= here.bb(),
                    Some(_) => break here,
                }
                sq += push;
            };
            if pos.piece_at(landed)
                != Some(Piece {
                    color: them,
                    kind: PieceKind::Pawn,
                })
                || passed.count() as u8 >= tables.first_step_max
            {
                return err("no pawn that just made a long first step");
            }
            let listed = setup.ep.iter().fold(Bitboard::EMPTY, |acc, sq| acc | sq.bb());
            if listed != passed || setup.ep.len() != passed.count() as usize {
                return err("the squares given are not every square the last first step passed");
            }
            pos.ep = Some(first);
            if !pos.any_legal_en_passant() {
                pos.ep = None;
            }
        }

        pos.update_checkers();
        pos.hash = pos.compute_hash();
        debug_assert_eq!(pos.hash, pos.compute_hash());
        Ok(pos)
    }

    /// The setup of this position (what a FEN of it says).
    pub fn to_setup(&self) -> Setup {
        let t = self.tables;
        Setup {
            board: self
                .occupied()
                .iter()
                .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
                .collect(),
            turn: self.turn,
            castling: t
                .castling
                .iter()
                .enumerate()
                .filter(|(i, _)| self.rights & (1 << i) != 0)
                .map(|(_, c)| c.letter)
                .chain(
                    t.rules
                        .letter_rights
                        .iter()
                        .filter(|r| self.rights & (1 << r.bit) != 0)
                        .map(|r| r.letter),
                )
                .collect(),
            ep: self.en_passant_list(),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            rendezvous: t.rules.rendezvous.map(|_| {
                (
                    self.has_rendezvous_right(Color::White),
                    self.has_rendezvous_right(Color::Black),
                )
            }),
            rule_fields: t
                .rules
                .custom_fen_rules
                .iter()
                .filter_map(|&i| t.rules.custom_rules[i as usize].fen_field(self, i))
                .collect(),
        }
    }
}
