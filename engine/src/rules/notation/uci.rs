//! UCI long algebraic moves: from-square, to-square, optional promotion letter, with ranks of one
//! or two digits (`e9e10q`). Castling is written with the king's squares (`f2i2`, `f2d2`; `e1g1` in
//! chess), the rendezvous with the partner's and the bishop's squares (`g2h2`), the null move `0000`.
//!
//! Text is parsed into a [`UciMove`] first (syntax only), then resolved against a position into a
//! [`Move`], with different errors for "this is not a move of the game" and "not legal here".

use std::{fmt, str::FromStr};

use crate::rules::{
    moves::{Move, MoveKind},
    piece::PieceKind,
    position::Position,
};

/// A move as written in UCI, not yet checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UciMove {
    /// A move between two squares.
    Normal {
        /// From (file, rank), counted from 0.
        from: (u8, u8),
        /// To (file, rank), counted from 0.
        to: (u8, u8),
        /// The promotion piece's letter, lower case, as written: which kind it names is up to
        /// the variant of the position the move is resolved against.
        promotion: Option<char>,
    },
    /// `0000`.
    Null,
}

/// Text that is not a UCI move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move in UCI notation (expected e.g. e3e5, e9e10q, f2i2 or 0000)")]
pub struct ParseUciMoveError(pub String);

/// A UCI move that cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalUciMoveError {
    /// A square that is not on the board.
    #[error("{mv}: {square} is not a square of this board")]
    NoSuchSquare {
        /// The move.
        mv: String,
        /// The square name.
        square: String,
    },
    /// Nothing of the side to move stands on the from-square.
    #[error("{mv}: no piece of the side to move ({side}) on {square}")]
    NoPiece {
        /// The move.
        mv: String,
        /// The side to move.
        side: &'static str,
        /// The square.
        square: String,
    },
    /// The piece cannot go there: not its way of moving, its path is blocked, the target holds
    /// a piece of its own side, or the rules bar the square for it.
    #[error("{mv}: the {piece} cannot move from {from} to {to}")]
    NotAMove {
        /// The move.
        mv: String,
        /// The piece name.
        piece: &'static str,
        /// From-square name.
        from: String,
        /// To-square name.
        to: String,
    },
    /// The move exists but is illegal here (leaves the king in check, castling through check,
    /// rendezvous already used or in check, ...).
    #[error("{mv}: illegal in this position ({reason})")]
    IllegalHere {
        /// The move.
        mv: String,
        /// Why.
        reason: &'static str,
    },
    /// The null move is not a move that can be played.
    #[error("the null move 0000 cannot be played")]
    NullMove,
}

fn parse_square(bytes: &[u8], i: &mut usize) -> Option<(u8, u8)> {
    let f = *bytes.get(*i)?;
    if !f.is_ascii_lowercase() || f > b'p' {
        return None;
    }
    *i += 1;
    let start = *i;
    while *i < bytes.len() && bytes[*i].is_ascii_digit() && *i - start < 2 {
        *i += 1;
    }
    if *i == start || bytes[start] == b'0' {
        return None;
    }
    let rank: u32 = std::str::from_utf8(&bytes[start..*i]).ok()?.parse().ok()?;
    if rank == 0 || rank > 16 {
        return None;
    }
    Some((f - b'a', (rank - 1) as u8))
}

impl FromStr for UciMove {
    type Err = ParseUciMoveError;

    fn from_str(s: &str) -> Result<UciMove, ParseUciMoveError> {
        let err = || ParseUciMoveError(s.to_string());
        if s == "0000" {
            return Ok(UciMove::Null);
        }
        let bytes = s.as_bytes();
        let mut i = 0;
        let from = parse_square(bytes, &mut i).ok_or_else(err)?;
        let to = parse_square(bytes, &mut i).ok_or_else(err)?;
        let promotion = match &bytes[i..] {
            [] => None,
            // A lower-case letter; pawns (`p`) never promote to pawns.
            [c] if c.is_ascii_lowercase() && *c != b'p' => Some(*c as char),
            _ => return Err(err()),
        };
        Ok(UciMove::Normal { from, to, promotion })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal { from, to, promotion } => {
                write!(
                    f,
                    "{}{}{}{}",
                    (b'a' + from.0) as char,
                    from.1 + 1,
                    (b'a' + to.0) as char,
                    to.1 + 1
                )?;
                if let Some(p) = promotion {
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl UciMove {
    /// The UCI form of a move of `pos`.
    pub fn from_move(pos: &Position, m: Move) -> UciMove {
        if m.is_null() {
            return UciMove::Null;
        }
        let g = pos.tables().geometry;
        let sq = |s| (g.file(s) as u8, g.rank(s) as u8);
        UciMove::Normal {
            from: sq(m.from()),
            to: sq(m.to()),
            promotion: m.promotion_piece().map(|k| pos.tables().letter(k).to_ascii_lowercase()),
        }
    }

    /// Resolves the move against a position: the legal move it denotes, or why there is none.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUciMoveError> {
        let UciMove::Normal { from, to, promotion } = *self else {
            return Err(IllegalUciMoveError::NullMove);
        };
        let mv = self.to_string();
        // A custom rule's move is found by its text (a rule writes its moves in UCI syntax).
        if !pos.tables().rules.custom_move_rules.is_empty() {
            if let Some(&m) = pos
                .legal_moves()
                .iter()
                .find(|&&m| m.kind() == MoveKind::Rule && pos.uci(m) == mv)
            {
                return Ok(m);
            }
        }
        let g = pos.tables().geometry;
        let resolve = |(f, r): (u8, u8)| {
            g.playable_square(f as i32, r as i32)
                .ok_or_else(|| IllegalUciMoveError::NoSuchSquare {
                    mv: mv.clone(),
                    square: format!("{}{}", (b'a' + f) as char, r as u32 + 1),
                })
        };
        let (from_sq, to_sq) = (resolve(from)?, resolve(to)?);
        // The promotion kind the letter names in this variant (`Err` when it names none).
        let promotion = promotion.map(|c| pos.tables().kind_of_letter(c).ok_or(c));
        let matches = |m: &Move| {
            m.kind() != MoveKind::Rule
                && m.from() == from_sq
                && m.to() == to_sq
                && m.promotion_piece().map(Ok) == promotion
        };
        if let Some(&m) = pos.legal_moves().iter().find(|m| matches(m)) {
            return Ok(m);
        }
        let piece = match pos.piece_at(from_sq) {
            Some(p) if p.color == pos.turn() => p,
            _ => {
                return Err(IllegalUciMoveError::NoPiece {
                    mv,
                    side: pos.turn().name(),
                    square: g.square_name(from_sq),
                })
            }
        };
        if pos
            .tables()
            .rules
            .rendezvous
            .is_some_and(|r| r.spent_right(pos, from_sq, to_sq))
        {
            return Err(IllegalUciMoveError::IllegalHere {
                mv,
                reason: "the rendezvous was already used",
            });
        }
        match crate::rules::reference::pseudo_legal_moves(pos)
            .into_iter()
            .find(|m| matches(m))
        {
            Some(m) => Err(IllegalUciMoveError::IllegalHere {
                mv,
                reason: match m.kind() {
                    _ if !pos.tables().rules.custom_filter_rules.is_empty()
                        && pos.legal_moves_unfiltered().contains(m) =>
                    {
                        "a rule of this variant forbids it here"
                    }
                    MoveKind::Castle => "castling out of, through or into check",
                    MoveKind::Rendezvous => "the rendezvous is not allowed while in check",
                    MoveKind::Rule => "the move of a special rule is not allowed here",
                    _ if pos.in_check() => "it does not get out of check",
                    _ => "it leaves the king in check",
                },
            }),
            None => {
                // The shape of a move of this piece that is merely blocked, or not a move at all.
                let reason = if piece.kind == PieceKind::Pawn
                    && promotion.is_none()
                    && pos.promotion_squares(pos.turn()).has(to_sq)
                {
                    Some("a pawn reaching the last rank must name its promotion piece")
                } else if promotion.is_some() && piece.kind != PieceKind::Pawn {
                    Some("only pawns promote")
                } else if matches!(promotion, Some(Err(_))) {
                    Some("no piece of this variant is written with that promotion letter")
                } else {
                    None
                };
                match reason {
                    Some(reason) => Err(IllegalUciMoveError::IllegalHere { mv, reason }),
                    None => Err(IllegalUciMoveError::NotAMove {
                        mv,
                        piece: pos.tables().name(piece.kind),
                        from: g.square_name(from_sq),
                        to: g.square_name(to_sq),
                    }),
                }
            }
        }
    }
}

impl Position {
    /// The UCI text of a move of this position.
    pub fn uci(&self, m: Move) -> String {
        if m.kind() == MoveKind::Rule {
            return self.tables().rules.custom_rules[m.rule_index()].uci(self, m);
        }
        UciMove::from_move(self, m).to_string()
    }

    /// Parses and resolves a UCI move in one step.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let m: UciMove = match text.parse() {
            Ok(m) => m,
            Err(e) => {
                // Moves of custom rules may have text of their own beyond UCI syntax (a compound
                // move's third square): a legal rule move written so is found by its text.
                if !self.tables().rules.custom_move_rules.is_empty() {
                    if let Some(&m) = self
                        .legal_moves()
                        .iter()
                        .find(|&&m| m.kind() == MoveKind::Rule && self.uci(m) == text)
                    {
                        return Ok(m);
                    }
                }
                return Err(e.into());
            }
        };
        if m == UciMove::Null && self.in_opening_series() {
            // The pass of an opening series is written as the null move.
            if let Some(&pass) = self
                .legal_moves()
                .iter()
                .find(|&&m| m.kind() == MoveKind::Rule && self.uci(m) == text)
            {
                return Ok(pass);
            }
        }
        Ok(m.to_move(self)?)
    }

    /// Reads a move in UCI text as a move of a game whose earlier positions are `history` (their
    /// hashes, oldest first): as [`Position::parse_uci`], and a move the game forbids
    /// ([`Position::is_legal_move_with_history`]; Parsi Chess's perpetual-check ban) is an error.
    pub fn parse_uci_in_game(&self, text: &str, history: &[u64]) -> Result<Move, UciError> {
        let m = self.parse_uci(text)?;
        if self.is_legal_move_with_history(m, history) {
            Ok(m)
        } else {
            Err(IllegalUciMoveError::IllegalHere {
                mv: text.to_string(),
                reason: super::FORBIDDEN_BY_HISTORY,
            }
            .into())
        }
    }

    /// Plays a move given in UCI text (checked).
    pub fn play_uci(&mut self, text: &str) -> Result<Move, UciError> {
        let m = self.parse_uci(text)?;
        self.play_unchecked(m);
        Ok(m)
    }
}

/// Either kind of UCI move error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// Not UCI syntax.
    #[error(transparent)]
    Parse(#[from] ParseUciMoveError),
    /// Not playable here.
    #[error(transparent)]
    Illegal(#[from] IllegalUciMoveError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax() {
        assert!("e9e10q".parse::<UciMove>().is_ok());
        assert_eq!("e9e10q".parse::<UciMove>().unwrap().to_string(), "e9e10q");
        assert_eq!("0000".parse::<UciMove>(), Ok(UciMove::Null));
        for bad in [
            "", "e2", "e2e", "e2e4qq", "e0e1", "e2e4K", "z1a1", "e2e4p", "e123e1", "E2E4",
        ] {
            assert!(bad.parse::<UciMove>().is_err(), "{bad}");
        }
    }
}
