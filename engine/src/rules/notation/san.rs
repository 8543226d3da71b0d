//! Standard algebraic notation (SAN) for PGN.
//!
//! - Pieces by their letters (`N B R Q K S F W C`), pawns without a letter; `x` for captures;
//!   the from-file, from-rank or whole from-square when two pieces of the same kind can reach the
//!   destination (file first, then rank, then both); `=Q` for promotions; `+` check, `#` mate.
//! - Castling: `O-O` for the king-side right (`K`: f2-i2 in Persian Chess), `O-O-O` for the
//!   queen side (`Q`: f2-d2).
//! - The rendezvous: the partner's letter, `~`, and the square it goes to: `S~h2` (Omega `C~h2`).
//!
//! Reading accepts `0-0` for `O-O`, a missing `=` before the promotion letter, and ignores
//! check marks and annotations (`+ # ! ?`).

use crate::rules::{
    moves::{Move, MoveKind},
    piece::PieceKind,
    position::Position,
};

/// SAN text that matches no legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// No legal move has this SAN.
    #[error("'{0}' is not a legal move in this position")]
    NoSuchMove(String),
    /// More than one legal move matches (missing disambiguation).
    #[error("'{0}' is ambiguous in this position")]
    Ambiguous(String),
    /// A move of the position that the game's earlier positions forbid (Parsi Chess's
    /// perpetual-check ban).
    #[error("'{0}' is not a legal move in this game ({why})", why = super::FORBIDDEN_BY_HISTORY)]
    ForbiddenInGame(String),
}

impl Position {
    /// The SAN of a legal move of this position, with its check or mate mark.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_plain(m);
        let after = self.after(m);
        if after.in_check() {
            s.push(if after.has_legal_move() { '+' } else { '#' });
        }
        s
    }

    /// The SAN without check mark.
    fn san_plain(&self, m: Move) -> String {
        let t = self.tables();
        let g = t.geometry;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castle => {
                let side = t
                    .castling
                    .iter()
                    .find(|c| c.king_from == from && c.king_to == to)
                    .is_some_and(|c| c.king_side);
                return if side { "O-O".into() } else { "O-O-O".into() };
            }
            MoveKind::Rendezvous => {
                if let Some(r) = &t.rules.rendezvous {
                    return r.san(self, from, to);
                }
            }
            MoveKind::Rule => return t.rules.custom_rules[m.rule_index()].san(self, m),
            _ => {}
        }
        let Some(piece) = self.piece_at(from) else {
            return "?".into();
        };
        let capture = self.piece_at(to).is_some() || m.kind() == MoveKind::EnPassant;
        let mut s = String::new();
        if piece.kind == PieceKind::Pawn {
            if capture {
                s.push((b'a' + g.file(from) as u8) as char);
                s.push('x');
            }
            s.push_str(&g.square_name(to));
            if let Some(p) = m.promotion_piece() {
                s.push('=');
                s.push(self.tables().letter(p));
            }
            return s;
        }
        s.push(self.tables().letter(piece.kind));
        let rivals: Vec<Move> = self
            .legal_moves()
            .iter()
            .copied()
            .filter(|o| {
                o.to() == to
                    && o.from() != from
                    && o.kind() == MoveKind::Normal
                    && self.piece_at(o.from()).is_some_and(|p| p.kind == piece.kind)
            })
            .collect();
        if !rivals.is_empty() {
            let file_unique = rivals.iter().all(|o| g.file(o.from()) != g.file(from));
            let rank_unique = rivals.iter().all(|o| g.rank(o.from()) != g.rank(from));
            let name = g.square_name(from);
            if file_unique {
                s.push_str(&name[..1]);
            } else if rank_unique {
                s.push_str(&name[1..]);
            } else {
                s.push_str(&name);
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&g.square_name(to));
        s
    }

    /// Reads a SAN move of this position.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let clean = |s: &str| -> String {
            let s = s
                .trim_end_matches(['+', '#', '!', '?'])
                .replace("0-0-0", "O-O-O")
                .replace("0-0", "O-O");
            s.replace('=', "")
        };
        let wanted = clean(text.trim());
        if wanted.is_empty() {
            return Err(SanError::NoSuchMove(text.to_string()));
        }
        let found: Vec<Move> = self
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| clean(&self.san_plain(m)) == wanted)
            .collect();
        match found.len() {
            1 => Ok(found[0]),
            0 => {
                // Accept over-disambiguated SAN (e.g. "Ngf3" where "Nf3" suffices) by trying the
                // full from-square form.
                let full: Vec<Move> = self
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| {
                        self.piece_at(m.from()).is_some_and(|p| p.kind != PieceKind::Pawn)
                            && m.kind() == MoveKind::Normal
                            && {
                                let g = self.tables().geometry;
                                let letter = self.piece_at(m.from()).map_or('?', |p| self.tables().letter(p.kind));
                                let x = if self.piece_at(m.to()).is_some() { "x" } else { "" };
                                let from = g.square_name(m.from());
                                let to = g.square_name(m.to());
                                [
                                    format!("{letter}{from}{x}{to}"),
                                    format!("{letter}{}{x}{to}", &from[..1]),
                                    format!("{letter}{}{x}{to}", &from[1..]),
                                ]
                                .contains(&wanted)
                            }
                    })
                    .collect();
                if full.len() == 1 {
                    Ok(full[0])
                } else {
                    Err(SanError::NoSuchMove(text.to_string()))
                }
            }
            _ => Err(SanError::Ambiguous(text.to_string())),
        }
    }

    /// Reads a SAN move of this position as a move of a game whose earlier positions are
    /// `history` (their hashes, oldest first): as [`Position::parse_san`], and a move the game
    /// forbids ([`Position::is_legal_move_with_history`]) is an error.
    pub fn parse_san_in_game(&self, text: &str, history: &[u64]) -> Result<Move, SanError> {
        let m = self.parse_san(text)?;
        if self.is_legal_move_with_history(m, history) {
            Ok(m)
        } else {
            Err(SanError::ForbiddenInGame(text.to_string()))
        }
    }
}
