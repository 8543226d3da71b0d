//! Moves as produced by the move generator, and a fixed-capacity move list.

use std::mem::MaybeUninit;

use super::{geometry::Square, piece::PieceKind};

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A piece moves (and may capture what stands on the destination).
    Normal = 0,
    /// A pawn's two-square advance.
    DoubleStep = 1,
    /// A pawn captures en passant.
    EnPassant = 2,
    /// A pawn promotes (and may capture).
    Promotion = 3,
    /// Castling, written with the king's squares.
    Castle = 4,
    /// The rendezvous swap, written with the partner's and the bishop's squares.
    Rendezvous = 5,
    /// A move of a rule outside the engine's built-in list (a
    /// [`CustomRule`](super::special::CustomRule)): the rule's index among the variant's custom
    /// rules and a 7-bit tag of the rule's choosing (a third square, an option) travel with it.
    Rule = 6,
}

/// A move: from-square, to-square, kind and promotion piece, packed in 32 bits.
///
/// Bits 0..7 from, 7..14 to, 14..17 kind, 17..21 promotion kind; for [`MoveKind::Rule`] moves
/// bits 21..28 hold the rule's tag (a third square of a compound move, say) and 28..32 the
/// rule's index. The low 21 bits of the built-in kinds are the values stored in books and
/// training records, so they never change.
///
/// `Move` values come from the move generator of a position; text is turned into a `Move` only by
/// resolving it against a position (see `notation::uci`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    /// The null move (no move); `0000` in UCI.
    pub const NULL: Move = Move(0);

    /// A move of the given kind.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 7 | (kind as u32) << 14)
    }

    /// A promotion.
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceKind) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 7 | (MoveKind::Promotion as u32) << 14 | (piece.index() as u32) << 17)
    }

    /// A move of the custom rule with index `rule` (below 16) among the variant's custom
    /// rules, with a tag below 128 of the rule's choosing.
    #[inline(always)]
    pub const fn rule(from: Square, to: Square, rule: u8, tag: u8) -> Move {
        Move(
            from.0 as u32
                | (to.0 as u32) << 7
                | (MoveKind::Rule as u32) << 14
                | ((tag & 0x7f) as u32) << 21
                | ((rule & 0xf) as u32) << 28,
        )
    }

    /// The index of the custom rule of a [`MoveKind::Rule`] move.
    #[inline(always)]
    pub const fn rule_index(self) -> usize {
        (self.0 >> 28) as usize
    }

    /// The tag of a [`MoveKind::Rule`] move.
    #[inline(always)]
    pub const fn rule_tag(self) -> u8 {
        ((self.0 >> 21) & 0x7f) as u8
    }

    /// Start square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 7) & 0x7f) as u8)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match (self.0 >> 14) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Promotion,
            4 => MoveKind::Castle,
            5 => MoveKind::Rendezvous,
            _ => MoveKind::Rule,
        }
    }

    /// The piece a pawn promotes to.
    #[inline(always)]
    pub fn promotion_piece(self) -> Option<PieceKind> {
        if self.kind() == MoveKind::Promotion {
            PieceKind::from_index(((self.0 >> 17) & 0xf) as usize)
        } else {
            None
        }
    }

    /// Whether this is the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 32-bit value (for hashing and tables).
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// A move from its raw value. Not validated: such a move may only be compared with moves
    /// from the generator (as a hash-table move is), never played directly.
    pub const fn from_raw(raw: u32) -> Move {
        Move(raw)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Move({}->{} {:?}", self.from().0, self.to().0, self.kind())?;
        if let Some(p) = self.promotion_piece() {
            write!(f, " ={}", p.letter())?;
        }
        write!(f, ")")
    }
}

/// Upper bound on the number of legal moves in any position the engine supports.
pub const MAX_MOVES: usize = 512;

/// A list of moves with fixed capacity (no allocation).
///
/// The storage is left uninitialised: a list is made at every node of a search and of perft,
/// and zeroing its 2 KB cost 9 % of the search's instructions and 30 % of Parsi perft's. Only
/// the first `len` entries are ever read; every entry below `len` was written by `push` (or
/// moved down by `retain`) before `len` grew past it.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    #[inline(always)]
    #[allow(unsafe_code)]
    fn default() -> Self {
        // Built in place with only `len` written: a struct literal with an uninitialised array
        // was still zeroed whole (the compiler merged it with the store of `len` into one
        // 2 KB memset).
        let mut list = MaybeUninit::<MoveList>::uninit();
        // SAFETY: `len` is written before the value is used, and an array of `MaybeUninit`
        // needs no initialisation.
        unsafe {
            std::ptr::addr_of_mut!((*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn as_slice(&self) -> &[Move] {
        let written = &self.moves[..self.len];
        // SAFETY: the entries below `len` are initialised (see the type's comment), and
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(written.as_ptr().cast::<Move>(), written.len()) }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let written = &mut self.moves[..self.len];
        // SAFETY: as in `as_slice`; the slice borrows the list mutably, and writes through it
        // keep the entries initialised.
        unsafe { std::slice::from_raw_parts_mut(written.as_mut_ptr().cast::<Move>(), written.len()) }
    }

    /// Iterates the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps the moves for which `keep` holds, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.moves[n] = MaybeUninit::new(m);
                n += 1;
            }
        }
        self.len = n;
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
