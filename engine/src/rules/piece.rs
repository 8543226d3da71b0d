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

/// A kind of piece: an index below [`KIND_COUNT`] into per-kind tables.
///
/// The kinds of the Persian sub-variants and chess have names here (`PieceKind::Rook`, ...) and
/// default letters; a variant may use any other index for kinds of its own. What a kind is called
/// and how it is written in a variant (its FEN letter, its name) and how it moves there is said
/// by the variant's [`PieceSpec`](super::variant::PieceSpec)s and read through the variant's
/// tables ([`Attacks::letter`](super::tables::Attacks::letter)); the same index may be another
/// piece, with another letter, in another variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(u8);

#[allow(non_upper_case_globals)]
impl PieceKind {
    /// Pawn (`P`).
    pub const Pawn: PieceKind = PieceKind(0);
    /// Knight (`N`).
    pub const Knight: PieceKind = PieceKind(1);
    /// Bishop (`B`).
    pub const Bishop: PieceKind = PieceKind(2);
    /// Rook (`R`).
    pub const Rook: PieceKind = PieceKind(3);
    /// Queen (`Q`).
    pub const Queen: PieceKind = PieceKind(4);
    /// King (`K`).
    pub const King: PieceKind = PieceKind(5);
    /// Princess (`S`), bishop + knight.
    pub const Princess: PieceKind = PieceKind(6);
    /// Fortress (`F`), rook + knight.
    pub const Fortress: PieceKind = PieceKind(7);
    /// Wizard (`W`), ferz + knight.
    pub const Wizard: PieceKind = PieceKind(8);
    /// Champion (`C`), wazir + dabbaba + alfil.
    pub const Champion: PieceKind = PieceKind(9);
}

/// Number of kinds with a built-in name ([`PieceKind::ALL`]).
pub const NAMED_KINDS: usize = 10;

/// Number of piece kinds: the size of every per-kind table. Kinds `NAMED_KINDS..KIND_COUNT`
/// are free for variants that bring pieces of their own.
pub const KIND_COUNT: usize = 16;

impl PieceKind {
    /// The kinds with a built-in name, in index order.
    pub const ALL: [PieceKind; NAMED_KINDS] = [
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

    /// Every kind index, named or not.
    pub const EVERY: [PieceKind; KIND_COUNT] = {
        let mut all = [PieceKind(0); KIND_COUNT];
        let mut i = 0;
        while i < KIND_COUNT {
            all[i] = PieceKind(i as u8);
            i += 1;
        }
        all
    };

    /// The kind with index `i`; `None` at or above [`KIND_COUNT`].
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < KIND_COUNT {
            Some(PieceKind(i as u8))
        } else {
            None
        }
    }

    /// A kind of a variant's own (an index from [`NAMED_KINDS`] up); panics at compile time in
    /// a spec (or at run time) when the index is not below [`KIND_COUNT`].
    pub const fn custom(i: usize) -> PieceKind {
        assert!(i < KIND_COUNT, "piece kind index out of range");
        PieceKind(i as u8)
    }

    /// Index into per-kind tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The built-in upper-case letter of a named kind, `?` for other kinds. Positions write the
    /// letter of their variant ([`Attacks::letter`](super::tables::Attacks::letter)), which may differ.
    pub const fn letter(self) -> char {
        const LETTERS: [char; NAMED_KINDS] = ['P', 'N', 'B', 'R', 'Q', 'K', 'S', 'F', 'W', 'C'];
        if self.index() < NAMED_KINDS {
            LETTERS[self.index()]
        } else {
            '?'
        }
    }

    /// The named kind of a built-in upper- or lower-case letter. Text of a position is read with
    /// its variant's letters instead ([`Attacks::kind_of_letter`](super::tables::Attacks::kind_of_letter)).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        let up = c.to_ascii_uppercase();
        PieceKind::ALL.into_iter().find(|k| k.letter() == up)
    }

    /// The built-in English name of a named kind, `piece` for other kinds (a variant's own
    /// names are in its tables, [`Attacks::name`](super::tables::Attacks::name)).
    pub const fn name(self) -> &'static str {
        const NAMES: [&str; NAMED_KINDS] = [
            "pawn", "knight", "bishop", "rook", "queen", "king", "princess", "fortress", "wizard", "champion",
        ];
        if self.index() < NAMED_KINDS {
            NAMES[self.index()]
        } else {
            "piece"
        }
    }
}

impl std::fmt::Debug for PieceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const NAMES: [&str; NAMED_KINDS] = [
            "Pawn", "Knight", "Bishop", "Rook", "Queen", "King", "Princess", "Fortress", "Wizard", "Champion",
        ];
        match NAMES.get(self.index()) {
            Some(name) => f.write_str(name),
            None => write!(f, "Kind{}", self.0),
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

/// A bent rider's moves: one step, then slides that turn 45 degrees outward at the first square.
///
/// From the first square `s1` (one step in a prime direction `d`), the piece slides on along
/// the two directions 45 degrees either side of `d`, away from its start. The first square
/// itself is a move too; when it is occupied the piece may capture there and goes no further
/// that way (a bent rider never jumps). The slide straight on along `d` is not part of the
/// bend: a piece that has it also slides along those lines (Citadel's Tiger-Riders are a rook
/// or a bishop with a bend; see the rules note on Citadel, B.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bent {
    /// No bent moves.
    None,
    /// First an orthogonal step, then diagonal slides outward (the aanca).
    AfterOrthogonalStep,
    /// First a diagonal step, then orthogonal slides outward (the griffon).
    AfterDiagonalStep,
}

/// How a piece kind moves (except pawns, whose moves come from the variant's pawn data).
///
/// A piece leaps (one of a set of vectors, nothing between matters), slides (repeats a vector
/// until it meets a piece, a hole or the edge), rides a bent line ([`Bent`]) or any mix of
/// these. Slide directions must be among the eight one-step directions.
#[derive(Clone, Copy, Debug)]
pub struct Movement {
    /// Leaps, as groups of vectors (e.g. `[W, F]` for a king).
    pub leaps: &'static [&'static [Vector]],
    /// Whether it slides orthogonally (rook lines).
    pub slides_orthogonally: bool,
    /// Whether it slides diagonally (bishop lines).
    pub slides_diagonally: bool,
    /// Its bent rides, if any. Variants with bent riders generate moves by playing them out
    /// (pins and check blocks along bent lines are not computed ahead).
    pub bent: Bent,
}

impl Movement {
    /// A pure leaper.
    pub const fn leaper(leaps: &'static [&'static [Vector]]) -> Movement {
        Movement {
            leaps,
            slides_orthogonally: false,
            slides_diagonally: false,
            bent: Bent::None,
        }
    }

    /// A slider along orthogonal and/or diagonal lines, with leaps of its own.
    pub const fn slider(leaps: &'static [&'static [Vector]], orthogonal: bool, diagonal: bool) -> Movement {
        Movement {
            leaps,
            slides_orthogonally: orthogonal,
            slides_diagonally: diagonal,
            bent: Bent::None,
        }
    }

    /// Whether it has any sliding direction.
    pub const fn slides(&self) -> bool {
        self.slides_orthogonally || self.slides_diagonally
    }
}
