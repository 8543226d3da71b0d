//! Colours, piece kinds and movement described as data.

use std::ops::{Index, IndexMut, Not};

/// The two sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Moves first, from ranks 1..3.
    White = 0,
    /// Moves second, from the top ranks.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`, as in FEN.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The name, `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// One value per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self.0[c.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c.index()]
    }
}

/// The kinds of pieces the engine knows. Which of them a variant uses, and how each moves there,
/// is said by the variant's [`VariantSpec`](super::VariantSpec).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn (`P`).
    Pawn = 0,
    /// Knight (`N`).
    Knight = 1,
    /// Bishop (`B`).
    Bishop = 2,
    /// Rook (`R`).
    Rook = 3,
    /// Queen (`Q`).
    Queen = 4,
    /// King (`K`).
    King = 5,
    /// Princess (`S`), bishop + knight.
    Princess = 6,
    /// Fortress (`F`), rook + knight.
    Fortress = 7,
    /// Wizard (`W`), ferz + knight.
    Wizard = 8,
    /// Champion (`C`), wazir + dabbaba + alfil.
    Champion = 9,
}

/// Number of piece kinds.
pub const KIND_COUNT: usize = 10;

impl PieceKind {
    /// Every kind, in index order.
    pub const ALL: [PieceKind; KIND_COUNT] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
        PieceKind::Princess,
        PieceKind::Fortress,
        PieceKind::Wizard,
        PieceKind::Champion,
    ];

    /// Index into per-kind tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Knight => 'N',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Queen => 'Q',
            PieceKind::King => 'K',
            PieceKind::Princess => 'S',
            PieceKind::Fortress => 'F',
            PieceKind::Wizard => 'W',
            PieceKind::Champion => 'C',
        }
    }

    /// The kind of an upper- or lower-case letter.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        let up = c.to_ascii_uppercase();
        PieceKind::ALL.into_iter().find(|k| k.letter() == up)
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Knight => "knight",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Queen => "queen",
            PieceKind::King => "king",
            PieceKind::Princess => "princess",
            PieceKind::Fortress => "fortress",
            PieceKind::Wizard => "wizard",
            PieceKind::Champion => "champion",
        }
    }
}

/// One value per piece kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByKind<T>(pub [T; KIND_COUNT]);

impl<T> Index<PieceKind> for ByKind<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, k: PieceKind) -> &T {
        &self.0[k.index()]
    }
}

impl<T> IndexMut<PieceKind> for ByKind<T> {
    #[inline(always)]
    fn index_mut(&mut self, k: PieceKind) -> &mut T {
        &mut self.0[k.index()]
    }
}

/// A coloured piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
}

impl Piece {
    /// The FEN letter: upper case for White.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.kind.letter(),
            Color::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }
}

/// A move vector (file step, rank step) from White's point of view.
pub type Vector = (i8, i8);

/// Wazir: one orthogonal step.
pub const W: &[Vector] = &[(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Ferz: one diagonal step.
pub const F: &[Vector] = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jump.
pub const N: &[Vector] = &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// Dabbaba: orthogonal two-square leap.
pub const D: &[Vector] = &[(2, 0), (-2, 0), (0, 2), (0, -2)];
/// Alfil: diagonal two-square leap.
pub const A: &[Vector] = &[(2, 2), (2, -2), (-2, 2), (-2, -2)];

/// How a piece kind moves (except pawns, whose moves come from the variant's pawn data).
///
/// A piece either leaps (one of a set of vectors, nothing between matters) or slides (repeats a
/// vector until it meets a piece, a hole or the edge) or both. Slide directions must be among
/// the eight one-step directions.
#[derive(Clone, Copy, Debug)]
pub struct Movement {
    /// Leaps, as groups of vectors (e.g. `[W, F]` for a king).
    pub leaps: &'static [&'static [Vector]],
    /// Whether it slides orthogonally (rook lines).
    pub slides_orthogonally: bool,
    /// Whether it slides diagonally (bishop lines).
    pub slides_diagonally: bool,
}

impl Movement {
    /// A pure leaper.
    pub const fn leaper(leaps: &'static [&'static [Vector]]) -> Movement {
        Movement {
            leaps,
            slides_orthogonally: false,
            slides_diagonally: false,
        }
    }

    /// Whether it has any sliding direction.
    pub const fn slides(&self) -> bool {
        self.slides_orthogonally || self.slides_diagonally
    }
}
