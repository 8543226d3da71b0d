//! FEN in both conventions used for Persian Chess.
//!
//! Accepted: `<board> <side> [<castling> [<ep> [<halfmove> [<fullmove> [<rendezvous>]]]]]`.
//! - **Board**: one rank string per rank, top rank first, separated by `/`. Holes are written as
//!   empty cells. Two conventions exist for empty cells:
//!   - *one digit per cell* (the inventor's engine): every empty cell is a `1`, so a rank of the
//!     11x11 grid is exactly 11 characters;
//!   - *multi-digit* (the usual FEN style for large boards): a run of empty cells is one decimal
//!     number, so a whole empty rank is `11`.
//!
//!   The board is read in the one-per-cell convention when every rank string holds only piece
//!   letters and `1`s and is exactly as wide as the board under that reading; otherwise in the
//!   multi-digit convention. A rank whose empty runs are all single cells means the same in both.
//! - **Side**: `w` or `b`.
//! - **Castling**: `-` or a subset of `KQkq`.
//! - **En passant**: `-` or the square a double step passed (kept only when a capture is legal).
//! - **Clocks**: halfmove clock and fullmove number (default `0 1`).
//! - **Rendezvous rights** (this project's extension, variants with the rendezvous only):
//!   `Rr`, `R`, `r` or `-`, the sides that may still make their rendezvous; both when absent.
//! - **Fields of custom rules**: then one field per custom rule that keeps one
//!   ([`CustomRule::has_fen_field`](crate::rules::special::CustomRule::has_fen_field)), in the
//!   order of the rules, read and written by the rule.
//! - **Piece letters** are the variant's ([`PieceSpec::letter`](crate::rules::variant::PieceSpec::letter)).
//!
//! The writer uses the multi-digit convention and writes all fields, the rendezvous field only
//! for variants that have the rendezvous. [`Position::fen_with`] also writes the one-per-cell form.

use crate::rules::{
    geometry::Square,
    piece::{Color, Piece},
    position::Position,
    rule_set::RendezvousSquares,
    setup::{PositionError, Setup},
    tables::{RightsField, Tables},
    variant::Variant,
};

/// How empty cells are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Convention {
    /// A run of empty cells is one decimal number (`11` = eleven empty cells).
    MultiDigit,
    /// Every empty cell is a `1` (the inventor's engine).
    OnePerCell,
}

/// A FEN that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// Nothing given.
    #[error("empty FEN")]
    Empty,
    /// More fields than the format has.
    #[error(
        "FEN has {0} fields, more than this variant has (board, side, castling, en passant, halfmove, fullmove, then its rules' fields: the rendezvous rights where the variant has them, 7 fields in all for the variants of today)"
    )]
    TooManyFields(usize),
    /// The side field is missing.
    #[error("FEN has no side-to-move field")]
    MissingSide,
    /// Wrong number of ranks.
    #[error("board part of FEN has {found} ranks, expected {expected}")]
    RankCount {
        /// Ranks found.
        found: usize,
        /// Ranks of the board.
        expected: usize,
    },
    /// A rank of the wrong width.
    #[error("rank {rank} of the board part has {found} cells, expected {expected}")]
    RankWidth {
        /// Rank number (1 = bottom).
        rank: usize,
        /// Cells found.
        found: usize,
        /// Width of the board.
        expected: usize,
    },
    /// A character that is neither a piece letter nor a digit.
    #[error("rank {rank} of the board part has an invalid character '{ch}'")]
    BadBoardChar {
        /// Rank number (1 = bottom).
        rank: usize,
        /// The character.
        ch: char,
    },
    /// Bad side field.
    #[error("side to move '{0}' is not 'w' or 'b'")]
    BadSide(String),
    /// Bad castling field.
    #[error("castling field '{0}' is not '-' or a set of the letters KQkq")]
    BadCastling(String),
    /// Bad en-passant field.
    #[error("en-passant field '{0}' is not '-', a square of the board or squares separated by commas")]
    BadEnPassant(String),
    /// Letters in the fourth field that are not rights of this variant (variants that keep
    /// rights there).
    #[error("rights field '{0}' has letters that are not rights of this variant")]
    BadRightsField(String),
    /// Bad halfmove clock.
    #[error("halfmove clock '{0}' is not a number")]
    BadHalfmove(String),
    /// Bad fullmove number.
    #[error("fullmove number '{0}' is not a positive number")]
    BadFullmove(String),
    /// Bad rendezvous field.
    #[error("rendezvous field '{0}' is not '-' or a set of the letters Rr")]
    BadRendezvous(String),
}

/// A FEN that cannot be read or does not describe a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is malformed.
    #[error("malformed FEN: {0}")]
    Parse(#[from] ParseFenError),
    /// The position is impossible.
    #[error("impossible position: {0}")]
    Position(#[from] PositionError),
}

pub(crate) fn parse_board(tables: &Tables, board: &str) -> Result<Vec<(Square, Piece)>, ParseFenError> {
    let g = tables.geometry;
    let (w, h) = (g.width as usize, g.height as usize);
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != h {
        return Err(ParseFenError::RankCount {
            found: ranks.len(),
            expected: h,
        });
    }
    let one_per_cell = ranks
        .iter()
        .all(|r| r.chars().all(|c| c == '1' || c.is_ascii_alphabetic()) && r.chars().count() == w);
    let mut pieces = Vec::new();
    for (i, text) in ranks.iter().enumerate() {
        let rank = h - 1 - i;
        let mut file = 0usize;
        let mut run = 0usize;
        let mut in_run = false;
        for ch in text.chars() {
            if ch.is_ascii_digit() {
                if one_per_cell {
                    file += 1;
                } else {
                    run = run.saturating_mul(10).saturating_add(ch as usize - '0' as usize);
                    in_run = true;
                }
                continue;
            }
            if in_run {
                if run == 0 {
                    return Err(ParseFenError::BadBoardChar {
                        rank: rank + 1,
                        ch: '0',
                    });
                }
                file = file.saturating_add(run);
                run = 0;
                in_run = false;
            }
            // The variant's letters first; a letter of a kind the variant does not have is read
            // as that kind, so that the position check can say which piece is not in the variant.
            let piece = tables
                .piece_of_char(ch)
                .or_else(|| Piece::from_char(ch))
                .ok_or(ParseFenError::BadBoardChar { rank: rank + 1, ch })?;
            if file < w {
                pieces.push((Square((rank * w + file) as u8), piece));
            }
            file = file.saturating_add(1);
        }
        if in_run {
            if run == 0 {
                return Err(ParseFenError::BadBoardChar {
                    rank: rank + 1,
                    ch: '0',
                });
            }
            file = file.saturating_add(run);
        }
        if file != w {
            return Err(ParseFenError::RankWidth {
                rank: rank + 1,
                found: file,
                expected: w,
            });
        }
    }
    Ok(pieces)
}

/// Reads the text of a FEN into a [`Setup`] of `variant`'s board (no legality checks).
pub fn parse_setup(variant: Variant, fen: &str) -> Result<Setup, ParseFenError> {
    parse_setup_in(variant.tables(), fen)
}

/// Reads the text of a FEN into a [`Setup`] for the variant whose tables are given.
pub fn parse_setup_in(tables: &Tables, fen: &str) -> Result<Setup, ParseFenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(ParseFenError::Empty);
    }
    // After the standard six: the rendezvous field (in variants with the rendezvous, and in
    // variants without fields of their own, where it may only say "-"), then the fields of the
    // custom rules.
    let custom_fields = tables.rules.custom_fen_rules.len();
    let rendezvous_field = tables.rules.rendezvous.is_some() || custom_fields == 0;
    let max_fields = 6 + usize::from(tables.fifth_field_letters()) + usize::from(rendezvous_field) + custom_fields;
    if fields.len() > max_fields {
        return Err(ParseFenError::TooManyFields(fields.len()));
    }
    let g = tables.geometry;
    let board = parse_board(tables, fields[0])?;
    let turn = match fields.get(1) {
        Some(&"w") => Color::White,
        Some(&"b") => Color::Black,
        Some(s) => return Err(ParseFenError::BadSide(s.to_string())),
        None => return Err(ParseFenError::MissingSide),
    };
    // The castling field: castling letters and the letters of rules' rights (Parsi Chess's
    // unmoved flags). Castling letters are judged by the setup against the variant's castlings.
    let letter_right = |c: char, field: RightsField| {
        tables
            .rules
            .letter_rights
            .iter()
            .any(|r| r.letter == c && r.field == field)
    };
    let mut castling: Vec<char> = match fields.get(2) {
        None | Some(&"-") => Vec::new(),
        Some(s) => {
            if s.chars().all(|c| {
                "KQkq".contains(c)
                    || tables.castling.iter().any(|k| k.letter == c)
                    || letter_right(c, RightsField::Castling)
            }) {
                s.chars().collect()
            } else {
                return Err(ParseFenError::BadCastling(s.to_string()));
            }
        }
    };
    // The fourth field: the en-passant square, or letters of rights in variants that keep
    // rights there (they have no en passant).
    let ep = match fields.get(3) {
        None | Some(&"-") => Vec::new(),
        Some(s) if tables.fourth_field_letters() => {
            if !s.chars().all(|c| letter_right(c, RightsField::Fourth)) {
                return Err(ParseFenError::BadRightsField(s.to_string()));
            }
            castling.extend(s.chars());
            Vec::new()
        }
        // One square, or the squares a longer first step passed, separated by commas.
        Some(s) => s
            .split(',')
            .map(|name| g.parse_square(name))
            .collect::<Option<Vec<Square>>>()
            .filter(|squares| squares.len() <= 8)
            .ok_or_else(|| ParseFenError::BadEnPassant(s.to_string()))?,
    };
    // The fifth field, in variants that keep rights there (Citadel's prisoners); the clocks
    // and the fields after them come one later.
    let fifth = usize::from(tables.fifth_field_letters());
    if fifth == 1 {
        match fields.get(4) {
            None | Some(&"-") => {}
            Some(s) if s.chars().all(|c| letter_right(c, RightsField::Fifth)) => castling.extend(s.chars()),
            Some(s) => return Err(ParseFenError::BadRightsField(s.to_string())),
        }
    }
    let halfmove = match fields.get(4 + fifth) {
        None => 0,
        Some(s) => s
            .parse::<u32>()
            .map_err(|_| ParseFenError::BadHalfmove(s.to_string()))?,
    };
    let fullmove = match fields.get(5 + fifth) {
        None => 1,
        Some(s) => match s.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(ParseFenError::BadFullmove(s.to_string())),
        },
    };
    let rendezvous = if rendezvous_field {
        fields
            .get(6 + fifth)
            .map(|s| RendezvousSquares::parse_fen_field(s))
            .transpose()?
    } else {
        None
    };
    let rule_fields = fields
        .iter()
        .skip(6 + fifth + usize::from(rendezvous_field))
        .map(|s| s.to_string())
        .collect();
    Ok(Setup {
        board,
        turn,
        castling,
        ep,
        halfmove,
        fullmove,
        rendezvous,
        rule_fields,
    })
}

impl Position {
    /// Reads a FEN of `variant` in either convention and validates it.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        Position::from_fen_in(variant.tables(), fen)
    }

    /// Reads a FEN of the variant whose tables are given (see [`Position::from_setup_in`]).
    pub fn from_fen_in(tables: &'static Tables, fen: &str) -> Result<Position, FenError> {
        let setup = parse_setup_in(tables, fen)?;
        Ok(Position::from_setup_in(tables, &setup)?)
    }

    /// The FEN in the multi-digit convention.
    pub fn fen(&self) -> String {
        self.fen_with(Convention::MultiDigit)
    }

    /// The FEN in the given convention.
    pub fn fen_with(&self, convention: Convention) -> String {
        let t = self.tables();
        let g = t.geometry;
        let mut s = String::new();
        for rank in (0..g.height as i32).rev() {
            let mut empty = 0;
            for file in 0..g.width as i32 {
                let sq = Square((rank * g.width as i32 + file) as u8);
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(t.piece_char(p));
                    }
                    None if convention == Convention::OnePerCell => s.push('1'),
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn().char());
        s.push(' ');
        let letters = |field: RightsField| -> String {
            t.rules
                .letter_rights
                .iter()
                .filter(|r| r.field == field && self.rights() & (1 << r.bit) != 0)
                .map(|r| r.letter)
                .collect()
        };
        let castling: String = t
            .castling
            .iter()
            .enumerate()
            .filter(|(i, _)| self.castling_rights() & (1 << i) != 0)
            .map(|(_, c)| c.letter)
            .chain(letters(RightsField::Castling).chars())
            .collect();
        s.push_str(if castling.is_empty() { "-" } else { &castling });
        s.push(' ');
        if t.fourth_field_letters() {
            let field = letters(RightsField::Fourth);
            s.push_str(if field.is_empty() { "-" } else { &field });
        } else {
            let passed = self.en_passant_list();
            if passed.is_empty() {
                s.push('-');
            } else {
                let names: Vec<String> = passed.iter().map(|&sq| g.square_name(sq)).collect();
                s.push_str(&names.join(","));
            }
        }
        if t.fifth_field_letters() {
            let field = letters(RightsField::Fifth);
            s.push(' ');
            s.push_str(if field.is_empty() { "-" } else { &field });
        }
        s.push_str(&format!(" {} {}", self.halfmove_clock(), self.fullmove_number()));
        if let Some(field) = t.rules.rendezvous.map(|r| r.fen_field(self)) {
            s.push(' ');
            s.push_str(&field);
        }
        for &i in &t.rules.custom_fen_rules {
            if let Some(field) = t.rules.custom_rules[i as usize].fen_field(self, i) {
                s.push(' ');
                s.push_str(&field);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_read_in_both_conventions() {
        for v in Variant::ALL {
            let pos = Position::startpos(v);
            let one = pos.fen_with(Convention::OnePerCell);
            let again = Position::from_fen(v, &one).expect("one-per-cell FEN reads back");
            assert_eq!(pos, again, "{v}");
            assert_eq!(pos.fen(), v.spec().start_fen, "{v}");
        }
    }

    #[test]
    fn inventor_engine_start_fen() {
        let fen = "f111111111f/1rnbqksbnr1/1ppppppppp1/11111111111/11111111111/11111111111/11111111111/11111111111/1PPPPPPPPP1/1RNBQKSBNR1/F111111111F w KQkq - 0 1";
        let pos = Position::from_fen(Variant::PersianPrincess, fen).unwrap();
        assert_eq!(pos, Position::startpos(Variant::PersianPrincess));
    }

    #[test]
    fn errors_name_the_field() {
        let v = Variant::PersianPrincess;
        let e = |fen: &str| Position::from_fen(v, fen).unwrap_err();
        assert!(matches!(e(""), FenError::Parse(ParseFenError::Empty)));
        assert!(matches!(
            e("f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1 w"),
            FenError::Parse(ParseFenError::RankCount {
                found: 10,
                expected: 11
            })
        ));
        assert!(matches!(
            e("f9f/1rnbqksbnr1/1ppppppppp1/12/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w"),
            FenError::Parse(ParseFenError::RankWidth {
                rank: 8,
                found: 12,
                expected: 11
            })
        ));
        assert!(matches!(
            e("f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F x"),
            FenError::Parse(ParseFenError::BadSide(_))
        ));
        assert!(matches!(
            e("f9fX/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w"),
            FenError::Parse(ParseFenError::BadBoardChar { rank: 11, ch: 'X' })
        ));
        // A piece on a hole (b1).
        assert!(matches!(
            e("f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/FN8F w"),
            FenError::Position(PositionError::PieceOnHole { .. })
        ));
        // No white king.
        assert!(matches!(
            e("f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQ1SBNR1/F9F w"),
            FenError::Position(PositionError::KingCount { count: 0, .. })
        ));
        // Castling right without its rook.
        assert!(matches!(
            e("f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBN2/F9F w K"),
            FenError::Position(PositionError::CastlingWithoutRook('K'))
        ));
        // Impossible en-passant square.
        assert!(matches!(
            e("f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w KQkq e6"),
            FenError::Position(PositionError::ImpossibleEnPassant { .. })
        ));
        // A wizard in Persian Princess.
        assert!(matches!(
            e("w9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w"),
            FenError::Position(PositionError::PieceNotInVariant { .. })
        ));
    }
}
