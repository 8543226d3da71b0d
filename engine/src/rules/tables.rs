//! Attack and ray tables generated once per variant from its spec, read-only afterwards.
//!
//! Slider rays stop at holes and at the grid edge here, at build time, so move generation never
//! has to look at the geometry again.

use super::{
    geometry::{Bitboard, Geometry, Square},
    piece::{Bent, ByColor, ByKind, Color, Piece, PieceKind, Vector, KIND_COUNT},
    variant::{Coord, VariantSpec},
};

/// The eight slide directions: N, E, NE, NW (cell number grows) then S, W, SW, SE (it shrinks).
/// The opposite of direction `d` is `d ^ 4`.
pub const DIRECTIONS: [Vector; 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];
/// Orthogonal direction indices.
pub const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
/// Diagonal direction indices.
pub const DIAGONAL: [usize; 4] = [2, 3, 6, 7];
const _: () = {
    let mut i = 0;
    while i < 4 {
        assert!(is_orthogonal(ORTHOGONAL[i]) && !is_orthogonal(DIAGONAL[i]));
        i += 1;
    }
};
/// Whether a direction index (not [`NO_DIRECTION`]) is orthogonal.
#[inline(always)]
pub const fn is_orthogonal(d: usize) -> bool {
    d & 2 == 0
}
/// Marks "no direction" in [`Attacks::direction`].
pub const NO_DIRECTION: u8 = 0xff;

/// The index of a direction vector in [`DIRECTIONS`].
const fn direction_index(v: Vector) -> usize {
    let mut d = 0;
    while d < 8 {
        if DIRECTIONS[d].0 == v.0 && DIRECTIONS[d].1 == v.1 {
            return d;
        }
        d += 1;
    }
    panic!("not a one-step direction");
}

/// For each first-step direction of a bent rider, the two directions of its slides after the
/// first square: 45 degrees either side, outward (for an orthogonal step `(0, 1)` the diagonals
/// `(1, 1)` and `(-1, 1)`; for a diagonal step `(1, 1)` the lines `(1, 0)` and `(0, 1)`).
pub const BENT_OUTWARD: [[usize; 2]; 8] = {
    let mut out = [[0; 2]; 8];
    let mut d = 0;
    while d < 8 {
        let (x, y) = DIRECTIONS[d];
        out[d] = if x == 0 || y == 0 {
            // Orthogonal: add the perpendicular unit either way.
            [direction_index((x + y, y + x)), direction_index((x - y, y - x))]
        } else {
            [direction_index((x, 0)), direction_index((0, y))]
        };
        d += 1;
    }
    out
};

/// A castling move resolved to squares.
#[derive(Clone, Copy, Debug)]
pub struct Castling {
    /// Whose castling it is.
    pub color: Color,
    /// The FEN letter (upper case for White).
    pub letter: char,
    /// King side (`O-O`) or queen side (`O-O-O`).
    pub king_side: bool,
    /// King start.
    pub king_from: Square,
    /// King destination.
    pub king_to: Square,
    /// Rook start.
    pub rook_from: Square,
    /// Rook destination.
    pub rook_to: Square,
    /// Squares that must be empty.
    pub must_be_empty: Bitboard,
    /// Squares the opponent must not attack.
    pub must_be_safe: Bitboard,
}

/// The FEN field a rule's letter rights are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RightsField {
    /// Beside the castling letters (Parsi Chess's unmoved flags).
    Castling,
    /// The fourth field, that of en passant in variants without en passant (Parsi Chess's
    /// king-leap flags).
    Fourth,
    /// A field of their own after the en-passant field, before the clocks (Citadel's
    /// prisoners): the FEN then has seven standard fields.
    Fifth,
}

/// A rights bit of a rule written as a letter in the FEN (Parsi Chess's unmoved flags `ADEHadeh`
/// beside the castling letters, its king-leap flags `Ll` in the en-passant field, Citadel's
/// prisoners `YQyq` in a field of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LetterRight {
    /// The FEN letter (unique among the variant's castling and letter rights).
    pub letter: char,
    /// The rights bit (from [`Tables::allocate_rights`]).
    pub bit: u32,
    /// The field it is written in.
    pub field: RightsField,
    /// A square that must hold a piece of this colour while the right is held (the piece the
    /// right belongs to), if any.
    pub home: Option<(Square, Color)>,
}

/// Leapers that share a group of vectors: attack detection looks each group up once.
#[derive(Clone, Debug)]
pub struct LeapGroup {
    /// The kinds that have this group among their leaps.
    pub kinds: Vec<PieceKind>,
    /// For each square, the squares from which such a leaper attacks it.
    pub from: Box<[Bitboard; 128]>,
}

/// The net type of a kind that is not in a variant's NNUE layout.
pub const NO_NET_TYPE: u8 = u8::MAX;

/// The NNUE type index of every kind of `spec` (see [`VariantSpec::net_kinds`]).
fn net_types(spec: &VariantSpec) -> ByKind<u8> {
    let mut types = ByKind([NO_NET_TYPE; KIND_COUNT]);
    for (i, &kind) in spec.net_kinds.iter().enumerate() {
        assert!(types[kind] == NO_NET_TYPE, "{}: {kind:?} twice in net_kinds", spec.id);
        types[kind] = i as u8;
    }
    for p in spec.pieces {
        assert!(
            types[p.kind] != NO_NET_TYPE,
            "{}: {:?} is in play but not in net_kinds",
            spec.id,
            p.kind
        );
    }
    types
}

/// Most leap groups a variant may have (distinct sets of kinds sharing leaps).
pub const MAX_LEAP_GROUPS: usize = 8;

/// Bits of the rights word of a position
/// ([`Position::rights`](super::position::Position::rights)): bits `0..8` are the castling
/// rights (in the order of [`Attacks::castling`]); the bits above are handed out to the rules
/// that keep rights of their own (the rendezvous) by [`Tables::allocate_rights`].
pub const RIGHTS_BITS: u32 = 32;

/// The first rights bit handed out to rules.
pub const FIRST_RULE_RIGHT: u32 = 8;

pub use super::rule_set::RuleSet;

/// The tables of one variant: its [`Attacks`] and its [`RuleSet`].
///
/// `Tables` dereferences to its attack tables, so that move generation, search and
/// evaluation read `t.rays` or call `t.attacks(kind, sq, occ)` directly; the rule set is
/// `t.rules`, whose fields only the rules layer reads.
pub struct Tables {
    /// The attack, move and geometry tables and the piece letters.
    pub attacks: Attacks,
    /// The variant's rule set: what its special rules built (their data, the mode flags they
    /// set, the custom rules in force). Read inside the rules layer only; other code asks
    /// [`Position`](super::position::Position) or [`RuleSet`] rule-neutral questions.
    pub rules: RuleSet,
}

impl std::ops::Deref for Tables {
    type Target = Attacks;

    #[inline(always)]
    fn deref(&self) -> &Attacks {
        &self.attacks
    }
}

impl std::ops::DerefMut for Tables {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Attacks {
        &mut self.attacks
    }
}

/// What move generation, search and evaluation need of a variant, whatever its special rules:
/// the board, attack and move tables of each kind, pawn geometry, castling, the squares some
/// kinds may not enter, piece letters and names, and the NNUE type of each kind. Built from the
/// spec, then adjusted by the rules' build hooks (the centre square's bans, the Eye's blocked
/// square), read-only afterwards.
pub struct Attacks {
    /// The spec the tables were built from.
    pub spec: &'static VariantSpec,
    /// The board.
    pub geometry: Geometry,
    /// `rays[d][sq]`: the squares from `sq` in direction `d` on an empty board.
    pub rays: Box<[[Bitboard; 128]; 8]>,
    /// `direction[a][b]`: the direction from `a` to `b` when they share a line, else [`NO_DIRECTION`].
    pub direction: Box<[[u8; 128]; 128]>,
    /// Leap targets of each kind from each square (its slides not included).
    pub leaps: Box<ByKind<[Bitboard; 128]>>,
    /// Distinct leap groups for attack detection.
    pub leap_groups: Vec<LeapGroup>,
    /// For each kind: (slides orthogonally, slides diagonally).
    pub slides: ByKind<(bool, bool)>,
    /// Kinds that slide orthogonally.
    pub orthogonal_sliders: Vec<PieceKind>,
    /// Kinds that slide diagonally.
    pub diagonal_sliders: Vec<PieceKind>,
    /// The bent rides of each kind ([`Bent`]).
    pub bent: ByKind<Bent>,
    /// Kinds with bent rides.
    pub bent_riders: Vec<PieceKind>,
    /// `orthogonal_lines[sq]`: the four orthogonal rays from `sq` together (empty board).
    pub orthogonal_lines: Box<[Bitboard; 128]>,
    /// `diagonal_lines[sq]`: the four diagonal rays from `sq` together (empty board).
    pub diagonal_lines: Box<[Bitboard; 128]>,
    /// Kinds in play, pawns and king included.
    pub kinds: Vec<PieceKind>,
    /// The upper-case letter of each kind in play ([`PieceSpec::letter`](super::variant::PieceSpec::letter)),
    /// `'\0'` for the others.
    pub letters: ByKind<char>,
    /// The name of each kind in play, `""` for the others.
    pub names: ByKind<&'static str>,
    /// Kinds in play other than pawn and king.
    pub officers: Vec<PieceKind>,
    /// Squares a pawn of the given colour on a square attacks.
    pub pawn_attacks: Box<ByColor<[Bitboard; 128]>>,
    /// Cell-number step of a pawn's single push.
    pub pawn_push: ByColor<i32>,
    /// Squares from which a pawn may double-step.
    pub double_step_from: ByColor<Bitboard>,
    /// The longest first step of a pawn, in squares ([`PawnSpec::first_step_max`](super::variant::PawnSpec::first_step_max)).
    pub first_step_max: u8,
    /// Squares on which a pawn promotes.
    pub promotion_squares: ByColor<Bitboard>,
    /// Squares whose square ahead is a promotion square (a pawn there promotes by its next
    /// push).
    pub promotion_approach: ByColor<Bitboard>,
    /// The kinds a pawn promotes to.
    pub promotion_kinds: &'static [PieceKind],
    /// Whether en passant exists.
    pub en_passant: bool,
    /// Squares not on the first file (pawn captures towards lower files start there).
    pub not_first_file: Bitboard,
    /// Squares not on the last file.
    pub not_last_file: Bitboard,
    /// Squares where a kind may not end a move (the centre-square rules).
    pub forbidden: ByKind<Bitboard>,
    /// Squares attacked for both sides by something that is not a piece (the All-Seeing Eye).
    pub always_attacked: Bitboard,
    /// Squares that can never hold a piece although they exist (the All-Seeing Eye's own square).
    pub blocked: Bitboard,
    /// The castling moves, in rights-bit order.
    pub castling: Vec<Castling>,
    /// For each square, the rights bits that survive a move from or to it (castling rights
    /// end when the king or the rook moves or is captured; other rights are kept).
    pub rights_keep: Box<[u32; 128]>,
    /// For each kind, its type index in the variant's NNUE layout ([`VariantSpec::net_kinds`]);
    /// [`NO_NET_TYPE`] for kinds not in play.
    pub net_type: ByKind<u8>,
}

impl Tables {
    /// Builds the tables of a spec. Specs are compile-time data, so an inconsistent spec is a
    /// programming error and panics here; a test builds every variant.
    pub fn build(spec: &'static VariantSpec) -> Tables {
        let g = spec.geometry;
        let n = g.cells();
        assert!(n <= 128, "{}: board has more than 128 cells", spec.id);
        let squares = || (0..n as u8).map(Square).filter(move |&s| g.is_playable(s));

        let mut rays = Box::new([[Bitboard::EMPTY; 128]; 8]);
        for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            for sq in squares() {
                let mut bb = Bitboard::EMPTY;
                let mut cur = sq;
                while let Some(next) = g.offset(cur, df as i32, dr as i32) {
                    bb |= next.bb();
                    cur = next;
                }
                rays[d][sq.index()] = bb;
            }
        }
        // The sentinel bit in ray attacks towards lower cells (bit 0) needs these to be empty.
        for ray in &rays[4..] {
            assert!(ray[0].is_empty());
        }

        let mut direction = Box::new([[NO_DIRECTION; 128]; 128]);
        for a in squares() {
            for (d, ray) in rays.iter().enumerate() {
                for b in ray[a.index()] {
                    direction[a.index()][b.index()] = d as u8;
                }
            }
        }

        let leap_set = |sq: Square, vectors: &[Vector], sign: i32| {
            let mut bb = Bitboard::EMPTY;
            for &(df, dr) in vectors {
                if let Some(t) = g.offset(sq, sign * df as i32, sign * dr as i32) {
                    bb |= t.bb();
                }
            }
            bb
        };

        let mut leaps = Box::new(ByKind([[Bitboard::EMPTY; 128]; KIND_COUNT]));
        let mut groups: Vec<(&'static [Vector], Vec<PieceKind>)> = Vec::new();
        let mut slides = ByKind::default();
        let mut orthogonal_sliders = Vec::new();
        let mut diagonal_sliders = Vec::new();
        let mut bent = ByKind([Bent::None; KIND_COUNT]);
        let mut bent_riders = Vec::new();
        let mut kinds = Vec::new();
        let mut officers = Vec::new();
        let mut letters = ByKind(['\0'; KIND_COUNT]);
        let mut names = ByKind([""; KIND_COUNT]);
        for p in spec.pieces {
            assert!(!kinds.contains(&p.kind), "{}: {:?} listed twice", spec.id, p.kind);
            assert!(
                p.letter.is_ascii_uppercase() && !kinds.iter().any(|&k| letters[k] == p.letter),
                "{}: the letter '{}' of {:?} is not a unique upper-case letter",
                spec.id,
                p.letter,
                p.kind
            );
            kinds.push(p.kind);
            letters[p.kind] = p.letter;
            names[p.kind] = p.name;
            if p.kind == PieceKind::Pawn {
                continue;
            }
            if p.kind != PieceKind::King {
                officers.push(p.kind);
            }
            for group in p.movement.leaps {
                for sq in squares() {
                    leaps[p.kind][sq.index()] |= leap_set(sq, group, 1);
                }
                match groups.iter_mut().find(|(v, _)| *v == *group) {
                    Some((_, ks)) => ks.push(p.kind),
                    None => groups.push((group, vec![p.kind])),
                }
            }
            slides[p.kind] = (p.movement.slides_orthogonally, p.movement.slides_diagonally);
            if p.movement.slides_orthogonally {
                orthogonal_sliders.push(p.kind);
            }
            if p.movement.slides_diagonally {
                diagonal_sliders.push(p.kind);
            }
            if p.movement.bent != Bent::None {
                bent[p.kind] = p.movement.bent;
                bent_riders.push(p.kind);
            }
        }
        assert!(kinds.contains(&PieceKind::Pawn), "{}: no pawn", spec.id);
        // One table per distinct set of kinds: groups used by exactly the same kinds (the king's
        // W and F steps, the champion's D and A leaps) are merged, so attack detection makes one
        // lookup per set.
        let mut leap_groups: Vec<LeapGroup> = Vec::new();
        let mut orthogonal_lines = Box::new([Bitboard::EMPTY; 128]);
        let mut diagonal_lines = Box::new([Bitboard::EMPTY; 128]);
        for sq in 0..128 {
            for d in ORTHOGONAL {
                orthogonal_lines[sq] |= rays[d][sq];
            }
            for d in DIAGONAL {
                diagonal_lines[sq] |= rays[d][sq];
            }
        }
        for (vectors, kinds) in groups {
            let mut from = Box::new([Bitboard::EMPTY; 128]);
            for sq in squares() {
                from[sq.index()] = leap_set(sq, vectors, -1);
            }
            match leap_groups.iter_mut().find(|g| g.kinds == kinds) {
                Some(g) => {
                    for (a, b) in g.from.iter_mut().zip(from.iter()) {
                        *a |= *b;
                    }
                }
                None => leap_groups.push(LeapGroup { kinds, from }),
            }
        }
        assert!(
            leap_groups.len() <= MAX_LEAP_GROUPS,
            "{}: more than {MAX_LEAP_GROUPS} leap groups",
            spec.id
        );

        let mut pawn_attacks = Box::new(ByColor([[Bitboard::EMPTY; 128]; 2]));
        for sq in squares() {
            pawn_attacks[Color::White][sq.index()] = leap_set(sq, &[(1, 1), (-1, 1)], 1);
            pawn_attacks[Color::Black][sq.index()] = leap_set(sq, &[(1, -1), (-1, -1)], 1);
        }
        let w = g.width as i32;
        let h = g.height as i32;
        let pawn_push = ByColor([w, -w]);
        let double_step_from = ByColor([
            g.rank_mask(spec.pawns.double_step_rank as i32) & g.playable,
            g.rank_mask(h - 1 - spec.pawns.double_step_rank as i32) & g.playable,
        ]);
        let promotion_squares = ByColor([
            g.rank_mask(spec.pawns.promotion_rank as i32) & g.playable,
            g.rank_mask(h - 1 - spec.pawns.promotion_rank as i32) & g.playable,
        ]);
        for k in spec.pawns.promotion_kinds {
            assert!(kinds.contains(k), "{}: promotion to a kind not in play", spec.id);
        }
        let mut promotion_approach = ByColor([Bitboard::EMPTY; 2]);
        for sq in g.playable {
            for (color, forward) in [(Color::White, 1), (Color::Black, -1)] {
                if g.offset(sq, 0, forward)
                    .is_some_and(|a| promotion_squares[color].has(a))
                {
                    promotion_approach[color] |= sq.bb();
                }
            }
        }

        let resolve = |c: Coord| -> Square {
            g.playable_square(c.0 as i32, c.1 as i32)
                .unwrap_or_else(|| panic!("{}: square {:?} is not on the board", spec.id, c))
        };
        let mask = |cs: &[Coord], black: bool| -> Bitboard {
            cs.iter()
                .fold(Bitboard::EMPTY, |acc, &c| acc | resolve(spec.mirror(c, black)).bb())
        };

        let mut castling = Vec::new();
        for color in Color::ALL {
            let black = color == Color::Black;
            for c in spec.castling {
                castling.push(Castling {
                    color,
                    letter: if black { c.letter.to_ascii_lowercase() } else { c.letter },
                    king_side: c.king_side,
                    king_from: resolve(spec.mirror(c.king_from, black)),
                    king_to: resolve(spec.mirror(c.king_to, black)),
                    rook_from: resolve(spec.mirror(c.rook_from, black)),
                    rook_to: resolve(spec.mirror(c.rook_to, black)),
                    must_be_empty: mask(c.must_be_empty, black),
                    must_be_safe: mask(c.must_be_safe, black),
                });
            }
        }
        assert!(castling.len() <= 8, "{}: at most 8 castling moves", spec.id);
        let mut rights_keep = Box::new([u32::MAX; 128]);
        for (i, c) in castling.iter().enumerate() {
            rights_keep[c.king_from.index()] &= !(1 << i);
            rights_keep[c.rook_from.index()] &= !(1 << i);
        }

        let first_file = g.file_mask(0);
        let last_file = g.file_mask(w - 1);
        let legal_by_playing = !bent_riders.is_empty();
        let mut tables = Tables {
            attacks: Attacks {
                spec,
                geometry: g,
                rays,
                direction,
                leaps,
                leap_groups,
                slides,
                orthogonal_sliders,
                diagonal_sliders,
                bent,
                bent_riders,
                orthogonal_lines,
                diagonal_lines,
                kinds,
                letters,
                names,
                officers,
                pawn_attacks,
                pawn_push,
                double_step_from,
                first_step_max: spec.pawns.first_step_max,
                promotion_squares,
                promotion_approach,
                promotion_kinds: spec.pawns.promotion_kinds,
                en_passant: spec.pawns.en_passant,
                not_first_file: g.playable & !first_file,
                not_last_file: g.playable & !last_file,
                forbidden: ByKind::default(),
                always_attacked: Bitboard::EMPTY,
                blocked: Bitboard::EMPTY,
                castling,
                rights_keep,
                net_type: net_types(spec),
            },
            rules: RuleSet::new(legal_by_playing),
        };
        for rule in spec.rules {
            rule.build(&mut tables, &resolve);
        }
        assert!(
            tables.kinds.contains(&PieceKind::King) || tables.rules.royalty_rule.is_some(),
            "{}: no king and no royalty rule",
            spec.id
        );
        tables
    }

    /// Hands out `n` consecutive rights bits to a rule (from its build hook) and returns the
    /// first. Rights bits are part of the position's hash and equality.
    pub fn allocate_rights(&mut self, n: u32) -> u32 {
        let first = self.rules.next_right;
        assert!(
            first + n <= RIGHTS_BITS,
            "{}: more than {RIGHTS_BITS} rights bits",
            self.spec.id
        );
        self.rules.next_right += n;
        first
    }

    /// Sets the word custom rule `index` keeps for its own use (from the rule's build hook;
    /// read back with [`RuleSet::custom_data`]).
    pub fn set_custom_data(&mut self, index: u8, word: u64) {
        self.rules.custom_data[index as usize] = word;
    }

    /// Adds a rights bit written as a letter in the FEN (from a rule's build hook).
    pub fn add_letter_right(&mut self, right: LetterRight) {
        assert!(
            right.letter.is_ascii_alphabetic()
                && !self.castling.iter().any(|c| c.letter == right.letter)
                && !self.rules.letter_rights.iter().any(|r| r.letter == right.letter),
            "{}: the rights letter '{}' is not a unique letter",
            self.spec.id,
            right.letter
        );
        assert!(
            right.field != RightsField::Fourth || !self.en_passant,
            "{}: the fourth FEN field is taken by en passant",
            self.spec.id
        );
        self.rules.letter_rights.push(right);
    }

    /// Whether the fourth FEN field holds letter rights instead of an en-passant square.
    #[inline]
    pub fn fourth_field_letters(&self) -> bool {
        self.rules.letter_rights.iter().any(|r| r.field == RightsField::Fourth)
    }

    /// Whether the FEN has a fifth field of letter rights before the clocks.
    #[inline]
    pub fn fifth_field_letters(&self) -> bool {
        self.rules.letter_rights.iter().any(|r| r.field == RightsField::Fifth)
    }

    /// The squares `color`'s pawns may double-step from in a position with these `rights`.
    #[inline(always)]
    pub fn double_step_squares(&self, color: Color, rights: u32) -> Bitboard {
        let from = self.double_step_from[color];
        if self.rules.gated_double_steps {
            self.gated_double_step_squares(from, color, rights)
        } else {
            from
        }
    }

    #[cold]
    fn gated_double_step_squares(&self, mut from: Bitboard, color: Color, rights: u32) -> Bitboard {
        for &(sq, bit) in &self.rules.double_step_gates[color] {
            if rights & (1 << bit) == 0 {
                from &= !sq.bb();
            }
        }
        from
    }
}

impl Attacks {
    /// Whether a piece of `kind` may end a move on `sq` by capturing there, as the special rules
    /// say: the squares a kind may not enter (the centre square, the All-Seeing Eye's square)
    /// and, for kings, the squares attacked by something that is not a piece (the Eye's
    /// diagonals). What the static exchange evaluation must know of the rules.
    #[inline(always)]
    pub fn may_capture_on(&self, kind: PieceKind, sq: Square) -> bool {
        !(self.forbidden[kind].has(sq) || kind == PieceKind::King && self.always_attacked.has(sq))
    }

    /// The upper-case letter of a kind in this variant (`'?'` for a kind not in play).
    #[inline]
    pub fn letter(&self, kind: PieceKind) -> char {
        match self.letters[kind] {
            '\0' => '?',
            c => c,
        }
    }

    /// The name of a kind in this variant (`"piece"` for a kind not in play).
    pub fn name(&self, kind: PieceKind) -> &'static str {
        match self.names[kind] {
            "" => "piece",
            n => n,
        }
    }

    /// The kind in play written with an upper- or lower-case letter in this variant.
    pub fn kind_of_letter(&self, c: char) -> Option<PieceKind> {
        let up = c.to_ascii_uppercase();
        self.kinds.iter().copied().find(|&k| self.letters[k] == up)
    }

    /// The FEN character of a piece: its kind's letter, in lower case for Black.
    pub fn piece_char(&self, piece: Piece) -> char {
        match piece.color {
            Color::White => self.letter(piece.kind),
            Color::Black => self.letter(piece.kind).to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN character in this variant (upper case: White).
    pub fn piece_of_char(&self, c: char) -> Option<Piece> {
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let kind = self.kind_of_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// The square one pawn step ahead of `sq` for `color`, if it is on the board.
    #[inline]
    pub fn square_ahead(&self, color: Color, sq: Square) -> Option<Square> {
        let forward = if color == Color::White { 1 } else { -1 };
        self.geometry.offset(sq, 0, forward)
    }

    /// The squares from `sq` in direction `d` up to and including the first piece of `occ`.
    #[inline(always)]
    pub fn ray_attacks(&self, d: usize, sq: Square, occ: Bitboard) -> Bitboard {
        let ray = self.rays[d][sq.index()];
        if d < 4 {
            // Cell numbers grow along the ray: `o ^ (o - 1)` keeps the bits up to and including
            // the lowest blocker (all bits when there is none).
            let o = ray.0 & occ.0;
            Bitboard(ray.0 & (o ^ o.wrapping_sub(1)))
        } else {
            let blocker = 127 - ((ray.0 & occ.0) | 1).leading_zeros() as usize;
            Bitboard(ray.0 ^ self.rays[d][blocker].0)
        }
    }

    /// Rook-line attacks from `sq` with the given occupancy.
    #[inline(always)]
    pub fn orthogonal_attacks(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.ray_attacks(0, sq, occ)
            | self.ray_attacks(1, sq, occ)
            | self.ray_attacks(4, sq, occ)
            | self.ray_attacks(5, sq, occ)
    }

    /// Bishop-line attacks from `sq` with the given occupancy.
    #[inline(always)]
    pub fn diagonal_attacks(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.ray_attacks(2, sq, occ)
            | self.ray_attacks(3, sq, occ)
            | self.ray_attacks(6, sq, occ)
            | self.ray_attacks(7, sq, occ)
    }

    /// Rook-line squares from `sq` on an empty board.
    #[inline(always)]
    pub fn orthogonal_rays(&self, sq: Square) -> Bitboard {
        self.orthogonal_lines[sq.index()]
    }

    /// Bishop-line squares from `sq` on an empty board.
    #[inline(always)]
    pub fn diagonal_rays(&self, sq: Square) -> Bitboard {
        self.diagonal_lines[sq.index()]
    }

    /// The squares strictly between `a` and `b` when they share a line, else empty.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        let d = self.direction[a.index()][b.index()];
        if d == NO_DIRECTION {
            Bitboard::EMPTY
        } else {
            self.rays[d as usize][a.index()] & self.rays[(d ^ 4) as usize][b.index()]
        }
    }

    /// Whether a piece of `kind` slides along the line through `a` and `b` (false when the two
    /// squares share no line).
    #[inline(always)]
    pub fn slides_along(&self, kind: PieceKind, a: Square, b: Square) -> bool {
        let d = self.direction[a.index()][b.index()];
        let (orthogonal, diagonal) = self.slides[kind];
        d != NO_DIRECTION
            && if is_orthogonal(d as usize) {
                orthogonal
            } else {
                diagonal
            }
    }

    /// Whether the kind slides orthogonally in this variant.
    pub fn slides_orthogonally(&self, kind: PieceKind) -> bool {
        self.orthogonal_sliders.contains(&kind)
    }

    /// Whether the kind slides diagonally in this variant.
    pub fn slides_diagonally(&self, kind: PieceKind) -> bool {
        self.diagonal_sliders.contains(&kind)
    }

    /// Squares a piece of `kind` on `sq` attacks with the given occupancy (not for pawns).
    #[inline(always)]
    pub fn attacks(&self, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
        let bb = self.straight_attacks(kind, sq, occ);
        if self.bent[kind] != Bent::None {
            bb | self.bent_attacks(self.bent[kind], sq, occ)
        } else {
            bb
        }
    }

    /// As [`Attacks::attacks`] without bent rides: leaps and straight slides only. What the
    /// direct move generator uses (variants with bent riders find moves another way,
    /// [`RuleSet::legal_by_playing`]).
    #[inline(always)]
    pub(crate) fn straight_attacks(&self, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
        let mut bb = self.leaps[kind][sq.index()];
        let (orthogonal, diagonal) = self.slides[kind];
        if orthogonal {
            bb |= self.orthogonal_attacks(sq, occ);
        }
        if diagonal {
            bb |= self.diagonal_attacks(sq, occ);
        }
        bb
    }

    /// The squares a bent ride from `sq` reaches with the given occupancy: each first square
    /// (empty or not), and from each empty one the two outward slides.
    pub fn bent_attacks(&self, bent: Bent, sq: Square, occ: Bitboard) -> Bitboard {
        let firsts = match bent {
            Bent::None => return Bitboard::EMPTY,
            Bent::AfterOrthogonalStep => ORTHOGONAL,
            Bent::AfterDiagonalStep => DIAGONAL,
        };
        let mut bb = Bitboard::EMPTY;
        for d in firsts {
            let ray = self.rays[d][sq.index()];
            if ray.is_empty() {
                continue;
            }
            // The nearest square of the ray: the lowest cell on rays that grow, else the highest.
            let first = if d < 4 { ray.lsb() } else { ray.msb() };
            bb |= first.bb();
            if occ.has(first) {
                continue;
            }
            let [a, b] = BENT_OUTWARD[d];
            bb |= self.ray_attacks(a, first, occ) | self.ray_attacks(b, first, occ);
        }
        bb
    }
}

impl std::fmt::Debug for Tables {
    /// The variant and its rule settings (the tables themselves are large and derived).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("variant", &self.spec.id)
            .field("rule_settings", &self.rules.rule_settings)
            .finish_non_exhaustive()
    }
}
