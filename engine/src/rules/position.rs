//! A validated position: pieces, side to move, rights, clocks and hash; making moves, check
//! detection and the game outcome.

use super::{
    geometry::{Bitboard, Square},
    moves::{Move, MoveKind},
    piece::{ByColor, ByKind, Color, Piece, PieceKind, KIND_COUNT},
    special::ArrivalBan,
    tables::{Tables, MAX_LEAP_GROUPS},
    variant::Variant,
    zobrist::ZOBRIST,
};

/// Why a game ended in a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawReason {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A king stands on an opponent's citadel.
    Citadel,
    /// 100 plies without a capture or a pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A side has only its king left (Parsi Chess's "Boorj").
    BareKing,
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// `winner` checkmated the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// Citadel's Green Gem: `winner` mated with a move that took one of the other side's two
    /// High Princes (worth more game points than a checkmate). Only a [`Game`](super::game::Game)
    /// knows it (a position does not say what the last move took); a position alone calls it
    /// a checkmate.
    GreenGem {
        /// The side that gave mate.
        winner: Color,
    },
    /// A draw.
    Draw(DrawReason),
}

impl Outcome {
    /// The side that won, if one did.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } | Outcome::GreenGem { winner } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }

    /// The PGN result string.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: Color::White } | Outcome::GreenGem { winner: Color::White } => "1-0",
            Outcome::Checkmate { winner: Color::Black } | Outcome::GreenGem { winner: Color::Black } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// A short key for programs (camelCase, as JSON APIs write them): `checkmate`,
    /// `greenGem`, `stalemate`, `citadel`, `fiftyMoves`, `repetition`,
    /// `insufficientMaterial`, `bareKing`.
    pub fn key(self) -> &'static str {
        match self {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::GreenGem { .. } => "greenGem",
            Outcome::Draw(DrawReason::Stalemate) => "stalemate",
            Outcome::Draw(DrawReason::Citadel) => "citadel",
            Outcome::Draw(DrawReason::FiftyMoves) => "fiftyMoves",
            Outcome::Draw(DrawReason::Repetition) => "repetition",
            Outcome::Draw(DrawReason::InsufficientMaterial) => "insufficientMaterial",
            Outcome::Draw(DrawReason::BareKing) => "bareKing",
        }
    }

    /// A short description, e.g. "checkmate" or "draw by citadel".
    pub fn description(self) -> &'static str {
        match self {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::GreenGem { .. } => "checkmate with the Green Gem (a High Prince taken)",
            Outcome::Draw(DrawReason::Stalemate) => "draw by stalemate",
            Outcome::Draw(DrawReason::Citadel) => "draw: king on the opponent's citadel",
            Outcome::Draw(DrawReason::FiftyMoves) => "draw by the 50-move rule",
            Outcome::Draw(DrawReason::Repetition) => "draw by threefold repetition",
            Outcome::Draw(DrawReason::InsufficientMaterial) => "draw by insufficient material",
            Outcome::Draw(DrawReason::BareKing) => "draw: a side has only its king",
        }
    }
}

const EMPTY_CELL: u8 = 0xff;

/// The pieces of a position grouped by how they attack: one union per leap group and per
/// slide direction kind. Built once by [`Position::attack_classes`] for several attack tests.
#[derive(Clone, Copy, Debug)]
pub struct AttackClasses {
    /// Per leap group of the tables: the pieces of its kinds.
    pub leapers: [Bitboard; MAX_LEAP_GROUPS],
    /// Number of leap groups in use.
    pub groups: usize,
    /// Pieces that slide orthogonally.
    pub orthogonal: Bitboard,
    /// Pieces that slide diagonally.
    pub diagonal: Bitboard,
    /// Pieces with bent rides (tested one by one).
    pub bent: Bitboard,
}

/// A rule's test for a game end that the position shows at once (a king on a citadel),
/// registered in the variant's [`RuleSet`](super::rule_set::RuleSet) by the rule's build hook.
pub type OutcomeHook = fn(&Position) -> Option<Outcome>;

/// A legal position of some variant.
///
/// Build one with [`Position::startpos`] or from a FEN (`Position::from_fen`); apply moves with
/// [`Position::play_unchecked`] (for moves from the generator) or `play` (checked). The type is
/// `Clone` and small; undo is done by keeping a copy (copy-make).
#[derive(Clone)]
pub struct Position {
    pub(crate) tables: &'static Tables,
    pub(crate) board: [u8; 128],
    pub(crate) by_color: ByColor<Bitboard>,
    pub(crate) by_kind: ByKind<Bitboard>,
    pub(crate) turn: Color,
    /// The rights word: castling rights and the rights the rules keep (see
    /// [`super::tables::RIGHTS_BITS`]).
    pub(crate) rights: u32,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// Enemy pieces giving check to the side to move (kept up to date by every move).
    pub(crate) checkers: Bitboard,
    /// For each side, how many of its moves in a row, up to its last, gave check (counted
    /// from the position the game was set up in; not part of the position's identity). What
    /// a perpetual-check ban needs to know of the game.
    pub(crate) checking_run: ByColor<u16>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        std::ptr::eq(self.tables, other.tables)
            && self.board[..] == other.board[..]
            && self.turn == other.turn
            && self.rights == other.rights
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.hash == other.hash
    }
}
impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[inline(always)]
fn encode(p: Piece) -> u8 {
    (p.color as u8) * KIND_COUNT as u8 + p.kind.index() as u8
}

/// The piece of every cell code (see [`encode`]); `None` for the empty cell and unused codes.
const DECODE: [Option<Piece>; 256] = {
    let mut table = [None; 256];
    let mut code = 0;
    while code < 2 * KIND_COUNT {
        let color = if code >= KIND_COUNT { Color::Black } else { Color::White };
        table[code] = Some(Piece {
            color,
            kind: PieceKind::EVERY[code % KIND_COUNT],
        });
        code += 1;
    }
    table
};

#[inline(always)]
fn decode(code: u8) -> Option<Piece> {
    DECODE[code as usize]
}

impl Position {
    /// The start position of a variant.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_fen(variant, variant.spec().start_fen).expect("every start FEN is valid (tested)")
    }

    pub(crate) fn empty(tables: &'static Tables) -> Position {
        Position {
            tables,
            board: [EMPTY_CELL; 128],
            by_color: ByColor::default(),
            by_kind: ByKind::default(),
            turn: Color::White,
            rights: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            checkers: Bitboard::EMPTY,
            checking_run: ByColor([0; 2]),
        }
    }

    /// The registered variant of the position.
    ///
    /// Positions of specs outside the registry (a test's own variant, built with
    /// [`Position::from_fen_in`]) have none and panic here: the rules work for them, search,
    /// evaluation and the tools need a registered variant.
    #[inline(always)]
    pub fn variant(&self) -> Variant {
        match self.tables.spec.variant {
            Some(v) => v,
            None => panic!("{} is not a registered variant", self.tables.spec.id),
        }
    }

    /// The registered variant of the position, `None` for a spec outside the registry.
    #[inline(always)]
    pub fn registered_variant(&self) -> Option<Variant> {
        self.tables.spec.variant
    }

    /// The variant's tables.
    #[inline(always)]
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash (pieces, side, rights, en passant).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, starting at 1 and growing after Black's move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The en-passant square, set only when a pawn could capture there: after a longer first
    /// step (Citadel's triple step), the first square passed ([`Position::en_passant_squares`]
    /// has them all).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Castling rights as bits in the order of [`Attacks::castling`](super::tables::Attacks::castling).
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.rights as u8
    }

    /// The whole rights word: castling rights in bits `0..8`, the rules' rights above (see
    /// [`super::tables::RIGHTS_BITS`]).
    #[inline(always)]
    pub fn rights(&self) -> u32 {
        self.rights
    }

    /// Whether `color` may still make its rendezvous.
    #[inline(always)]
    pub fn has_rendezvous_right(&self, color: Color) -> bool {
        self.tables
            .rules
            .rendezvous
            .is_some_and(|r| self.rights & r.right(color) != 0)
    }

    /// The piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.board[sq.index()])
    }

    /// The piece on a square as a code: `colour * KIND_COUNT + kind`, or 255 for an empty
    /// square (for table look-ups in hot loops).
    #[inline(always)]
    pub(crate) fn code_at(&self, sq: Square) -> usize {
        self.board[sq.index()] as usize
    }

    /// All pieces of a colour.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// All pieces of a kind, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind]
    }

    /// The pieces of one colour and kind.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color] & self.by_kind[kind]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[Color::White] | self.by_color[Color::Black]
    }

    /// How many of `color`'s moves in a row, up to its last, gave check (counted from the
    /// position the game was set up in).
    #[inline]
    pub fn checking_run(&self, color: Color) -> u16 {
        self.checking_run[color]
    }

    /// The square of a side's king. Only for variants where each side has exactly one king,
    /// always (those without a royalty rule: [`RuleSet::royalty_rule`](super::rule_set::RuleSet::royalty_rule)); see [`Position::royals`].
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).lsb()
    }

    /// The royal pieces of a side: its king, or what the variant's royalty rule says
    /// ([`CustomRule::royals`](super::special::CustomRule::royals)).
    #[inline]
    pub fn royals(&self, color: Color) -> Bitboard {
        match self.tables.rules.royalty_rule {
            None => self.pieces(color, PieceKind::King),
            Some(i) => self.tables.rules.custom_rules[i as usize].royals(self, color),
        }
    }

    /// Where the side to move's pieces may not arrive, by the variant's arrival-ban rule
    /// ([`CustomRule::arrival_ban`](super::special::CustomRule::arrival_ban)); no ban without one.
    #[inline]
    pub(crate) fn arrival_ban(&self) -> ArrivalBan {
        match self.tables.rules.arrival_ban_rule {
            None => ArrivalBan::NONE,
            Some(i) => self.tables.rules.custom_rules[i as usize].arrival_ban(self),
        }
    }

    /// Puts a piece on an empty square, keeping the hash.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.board[sq.index()] == EMPTY_CELL);
        self.board[sq.index()] = encode(p);
        self.by_color[p.color] |= sq.bb();
        self.by_kind[p.kind] |= sq.bb();
        self.hash ^= ZOBRIST.piece(p.color, p.kind, sq);
    }

    /// Removes the piece on a square, keeping the hash.
    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Piece {
        let p = decode(self.board[sq.index()]).expect("remove from an occupied square");
        self.board[sq.index()] = EMPTY_CELL;
        self.by_color[p.color] ^= sq.bb();
        self.by_kind[p.kind] ^= sq.bb();
        self.hash ^= ZOBRIST.piece(p.color, p.kind, sq);
        p
    }

    /// The pieces grouped by how they attack, for several attack tests on this position (see
    /// [`Position::attackers_with`]).
    #[inline]
    pub fn attack_classes(&self) -> AttackClasses {
        let mut cl = self.slider_classes();
        self.add_leaper_classes(&mut cl);
        cl
    }

    /// The leaper unions and the bent riders of `cl` (left empty by
    /// [`Position::slider_classes`]).
    #[inline]
    pub(crate) fn add_leaper_classes(&self, cl: &mut AttackClasses) {
        let t = self.tables;
        cl.groups = t.leap_groups.len();
        for (u, g) in cl.leapers.iter_mut().zip(&t.leap_groups) {
            for &k in &g.kinds {
                *u |= self.by_kind[k];
            }
        }
        if !t.bent_riders.is_empty() {
            for &k in &t.bent_riders {
                cl.bent |= self.by_kind[k];
            }
        }
    }

    /// The classes with only the slider unions filled in (enough for pins and x-rays).
    #[inline]
    pub(crate) fn slider_classes(&self) -> AttackClasses {
        let t = self.tables;
        let mut cl = AttackClasses {
            leapers: [Bitboard::EMPTY; MAX_LEAP_GROUPS],
            groups: 0,
            orthogonal: Bitboard::EMPTY,
            diagonal: Bitboard::EMPTY,
            bent: Bitboard::EMPTY,
        };
        for &k in &t.orthogonal_sliders {
            cl.orthogonal |= self.by_kind[k];
        }
        for &k in &t.diagonal_sliders {
            cl.diagonal |= self.by_kind[k];
        }
        cl
    }

    /// The pieces of `by` that attack `sq` when the occupied squares are `occ`.
    /// The All-Seeing Eye is not a piece and is not included (see [`Position::is_attacked`]).
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        self.attackers_with(&self.attack_classes(), sq, by, occ)
    }

    /// As [`Position::attackers`], with the classes of this position computed beforehand.
    #[inline]
    pub fn attackers_with(&self, cl: &AttackClasses, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let theirs = self.by_color[by];
        self.piece_attackers(cl, sq, occ, theirs) | self.pawn_attackers(sq, by)
    }

    /// The pawns of `by` that attack `sq` (a pawn that may not promote on a square of its last
    /// rank does not attack it, where the promotion rule says so).
    #[inline(always)]
    fn pawn_attackers(&self, sq: Square, by: Color) -> Bitboard {
        let pawns = self.tables.pawn_attacks[!by][sq.index()] & self.by_kind[PieceKind::Pawn] & self.by_color[by];
        match &self.tables.rules.square_promotion {
            Some(sp) if pawns.any() && !sp.pawns_attack(self, by, sq) => Bitboard::EMPTY,
            _ => pawns,
        }
    }

    /// The cells the pawns of `by` attack (where the promotion rule says a pawn does not attack
    /// a square of its last rank, that square is left out, as in [`Position::attackers`]).
    pub fn pawn_attacked_cells(&self, by: Color) -> Bitboard {
        let mut cells = Bitboard::EMPTY;
        for p in self.pieces(by, PieceKind::Pawn) {
            cells |= self.tables.pawn_attacks[by][p.index()];
        }
        if let Some(sp) = &self.tables.rules.square_promotion {
            for sq in cells & self.tables.promotion_squares[by] {
                if !sp.pawns_attack(self, by, sq) {
                    cells &= !sq.bb();
                }
            }
        }
        cells
    }

    /// The pieces among `mask`, pawns left out, that attack `sq` when the occupied squares
    /// are `occ` (pieces not in `occ` included).
    #[inline(always)]
    fn piece_attackers(&self, cl: &AttackClasses, sq: Square, occ: Bitboard, mask: Bitboard) -> Bitboard {
        let t = self.tables;
        let i = sq.index();
        let mut att = Bitboard::EMPTY;
        for g in 0..cl.groups {
            att |= t.leap_groups[g].from[i] & cl.leapers[g];
        }
        let orthogonal = cl.orthogonal & mask;
        if (t.orthogonal_lines[i] & orthogonal).any() {
            att |= t.orthogonal_attacks(sq, occ) & orthogonal;
        }
        let diagonal = cl.diagonal & mask;
        if (t.diagonal_lines[i] & diagonal).any() {
            att |= t.diagonal_attacks(sq, occ) & diagonal;
        }
        let bent = cl.bent & mask;
        if bent.any() {
            for from in bent {
                if let Some(p) = self.piece_at(from) {
                    if t.bent_attacks(t.bent[p.kind], from, occ).has(sq) {
                        att |= from.bb();
                    }
                }
            }
        }
        att & mask
    }

    /// The pieces of both colours, pawns included, that attack `sq` when the occupied squares
    /// are `occ` (every piece of the position counts, also those not in `occ`).
    #[inline]
    pub fn all_attackers_with(&self, cl: &AttackClasses, sq: Square, occ: Bitboard) -> Bitboard {
        let t = self.tables;
        let i = sq.index();
        if t.rules.square_promotion.is_some() {
            return self.piece_attackers(cl, sq, occ, self.occupied())
                | self.pawn_attackers(sq, Color::White)
                | self.pawn_attackers(sq, Color::Black);
        }
        self.piece_attackers(cl, sq, occ, self.occupied())
            | (t.pawn_attacks[Color::Black][i] & self.pieces(Color::White, PieceKind::Pawn))
            | (t.pawn_attacks[Color::White][i] & self.pieces(Color::Black, PieceKind::Pawn))
    }

    /// Whether `by` attacks `sq` (the All-Seeing Eye counts, for both sides).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        self.tables.always_attacked.has(sq) || self.attackers(sq, by, occ).any()
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The checkers after a move from `from` to `to` that moved one piece (and may have
    /// captured on `to`): a direct check by that piece or a check discovered along a line
    /// through `from`. Equal to [`Position::update_checkers`] for such moves, and cheaper.
    #[inline]
    fn update_checkers_after(&mut self, from: Square, to: Square) {
        let t = self.tables;
        let them = self.turn;
        let us = !them;
        let king = self.king(them);
        let occ = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        if let Some(p) = self.piece_at(to) {
            let direct = if p.kind == PieceKind::Pawn {
                // A stuck pawn (promotion by arrival square) attacks nothing on its last rank.
                t.pawn_attacks[them][king.index()].has(to)
                    && (t.rules.square_promotion.is_none() || self.pawn_attackers(king, us).has(to))
            } else if t.leaps[p.kind][to.index()].has(king) {
                true
            } else {
                // A slide along the line to the king, with nothing between.
                t.slides_along(p.kind, to, king) && (t.between(to, king) & occ).is_empty()
            };
            if direct {
                checkers |= to.bb();
            }
        }
        let d = t.direction[king.index()][from.index()];
        if d != super::tables::NO_DIRECTION {
            let d = d as usize;
            let hit = t.ray_attacks(d, king, occ) & occ;
            if hit.any() {
                let sq = hit.lsb();
                if sq != to {
                    if let Some(p) = self.piece_at(sq) {
                        if p.color == us && t.slides_along(p.kind, king, sq) {
                            checkers |= sq.bb();
                        }
                    }
                }
            }
        }
        self.checkers = checkers;
    }

    /// Recomputes the checkers (after the board or the side to move changed).
    #[inline]
    pub(crate) fn update_checkers(&mut self) {
        self.checkers = self.attackers_of_royals(self.turn);
    }

    /// The pieces of the other side that attack a royal piece of `color`.
    #[inline]
    fn attackers_of_royals(&self, color: Color) -> Bitboard {
        let occ = self.occupied();
        if self.tables.rules.royalty_rule.is_none() {
            return self.attackers(self.king(color), !color, occ);
        }
        let cl = self.attack_classes();
        self.royals(color).iter().fold(Bitboard::EMPTY, |acc, sq| {
            acc | self.attackers_with(&cl, sq, !color, occ)
        })
    }

    /// Applies a move produced by this position's move generator. Passing any other move is a
    /// logic error (checked in debug builds).
    pub fn play_unchecked(&mut self, m: Move) {
        let t = self.tables;
        let us = self.turn;
        let from = m.from();
        let to = m.to();
        debug_assert!(
            self.piece_at(from).is_some_and(|p| p.color == us),
            "move from an empty square: {m:?}"
        );

        if let Some(ep) = self.ep.take() {
            self.hash ^= ZOBRIST.en_passant(t.geometry.file(ep));
        }
        self.halfmove = self.halfmove.saturating_add(1);

        match m.kind() {
            MoveKind::Normal => {
                if self.board[to.index()] != EMPTY_CELL {
                    self.remove(to);
                    self.halfmove = 0;
                }
                let p = self.remove(from);
                if p.kind == PieceKind::Pawn {
                    self.halfmove = 0;
                }
                self.put(to, p);
            }
            MoveKind::DoubleStep => {
                let p = self.remove(from);
                self.put(to, p);
                self.halfmove = 0;
                if t.en_passant {
                    // Every square passed may be taken en passant; `ep` keeps the first.
                    let push = t.pawn_push[us];
                    let first = Square((from.0 as i32 + push) as u8);
                    let their_pawns = self.pieces(!us, PieceKind::Pawn);
                    let mut sq = first;
                    while sq != to {
                        if (t.pawn_attacks[us][sq.index()] & their_pawns).any() {
                            self.ep = Some(first);
                            break;
                        }
                        sq = Square((sq.0 as i32 + push) as u8);
                    }
                }
            }
            MoveKind::EnPassant => {
                let captured = self.en_passant_victim(to);
                self.remove(captured);
                let p = self.remove(from);
                self.put(to, p);
                self.halfmove = 0;
            }
            MoveKind::Promotion => {
                if self.board[to.index()] != EMPTY_CELL {
                    self.remove(to);
                }
                self.remove(from);
                let kind = m.promotion_piece().unwrap_or(PieceKind::Queen);
                self.put(to, Piece { color: us, kind });
                self.halfmove = 0;
            }
            MoveKind::Castle => {
                let c = t
                    .castling
                    .iter()
                    .find(|c| c.color == us && c.king_from == from && c.king_to == to)
                    .copied()
                    .expect("castle move matches a castling of the variant");
                let king = self.remove(c.king_from);
                let rook = self.remove(c.rook_from);
                self.put(c.king_to, king);
                self.put(c.rook_to, rook);
            }
            MoveKind::Rendezvous => {
                if let Some(r) = &t.rules.rendezvous {
                    r.make(self, from, to);
                }
            }
            MoveKind::Rule => {
                let rule = t.rules.custom_rules[m.rule_index()];
                if rule.resets_halfmove_clock(self, m) {
                    self.halfmove = 0;
                }
                rule.make(&mut super::special::RuleEdit { pos: self }, m);
            }
        }

        let old_rights = self.rights;
        // A rule move from a square to itself moves nothing (the pass of an opening series).
        if from != to || m.kind() != MoveKind::Rule {
            self.rights &= t.rights_keep[from.index()] & t.rights_keep[to.index()];
        }
        if let (MoveKind::Promotion, Some(r)) = (m.kind(), &t.rules.releases) {
            // A release frees its prisoner once.
            self.rights &= !r.spends[us][to.index()];
        }
        if self.rights != old_rights {
            self.hash ^= ZOBRIST.rights(old_rights ^ self.rights);
        }
        if !t.rules.present_gates.is_empty() {
            self.refresh_present_rights();
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !us;
        self.hash ^= ZOBRIST.black_to_move;

        match m.kind() {
            // A promotion by arrival square changes what the mover has lost, and so which of
            // its pawns attack their promotion squares: those need the full recount.
            // In an opening series the side to move may already have stood in check before
            // the move (a check it answers later): the incremental update assumes it did not.
            MoveKind::Normal | MoveKind::DoubleStep
                if !t.rules.legal_by_playing && t.rules.opening_series.is_none() =>
            {
                self.update_checkers_after(from, to)
            }
            MoveKind::Promotion
                if !t.rules.legal_by_playing
                    && t.rules.square_promotion.is_none()
                    && t.rules.opening_series.is_none() =>
            {
                self.update_checkers_after(from, to)
            }
            _ => self.update_checkers(),
        }
        debug_assert_eq!(
            self.checkers,
            self.attackers_of_royals(self.turn),
            "incremental checkers after {m:?}"
        );
        self.checking_run[us] = if self.checkers.any() {
            self.checking_run[us].saturating_add(1)
        } else {
            0
        };
        if !t.rules.custom_after_move_rules.is_empty() {
            for &i in &t.rules.custom_after_move_rules {
                t.rules.custom_rules[i as usize].after_move(&mut super::special::RuleEdit { pos: self }, i);
            }
        }
        if let Some(ep) = self.ep {
            if self.any_legal_en_passant() {
                self.hash ^= ZOBRIST.en_passant(t.geometry.file(ep));
            } else {
                self.ep = None;
            }
        }
    }

    /// Sets the rights that follow the board ([`RuleSet::present_gates`](super::rule_set::RuleSet::present_gates)): each is on while its
    /// piece stands on its home square.
    pub(crate) fn refresh_present_rights(&mut self) {
        let old = self.rights;
        for &(sq, piece, bit) in &self.tables.rules.present_gates {
            if self.piece_at(sq) == Some(piece) {
                self.rights |= 1 << bit;
            } else {
                self.rights &= !(1 << bit);
            }
        }
        if self.rights != old {
            self.hash ^= ZOBRIST.rights(old ^ self.rights);
        }
    }

    /// Whether an opening series runs (one side moves several times, the other passes; see
    /// [`super::special::opening_series`]). False in variants without one.
    #[inline]
    pub fn in_opening_series(&self) -> bool {
        self.tables.rules.opening_series.is_some_and(|s| s.runs(self))
    }

    /// Passes the turn without moving (for null-move search). Must not be used in check.
    pub fn play_null(&mut self) {
        self.checking_run[self.turn] = 0;
        if let Some(ep) = self.ep.take() {
            self.hash ^= ZOBRIST.en_passant(self.tables.geometry.file(ep));
        }
        self.halfmove = self.halfmove.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= ZOBRIST.black_to_move;
        // The side that passed was not in check, so its opponent cannot be in check now (with a
        // king; royalty by a rule may differ).
        if self.tables.rules.royalty_rule.is_none() {
            self.checkers = Bitboard::EMPTY;
        } else {
            self.update_checkers();
        }
    }

    /// The hash the position will have after `m`, a move from the generator, without making
    /// it (to prefetch hash-table entries early). Exact for ordinary moves and promotions (but
    /// Citadel's releases, which also spend a prisoner's right); for other moves (en passant,
    /// double steps, castling, rendezvous) only close.
    #[inline]
    pub fn hash_after(&self, m: Move) -> u64 {
        let t = self.tables;
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let mut h = self.hash ^ ZOBRIST.black_to_move;
        if let Some(ep) = self.ep {
            h ^= ZOBRIST.en_passant(t.geometry.file(ep));
        }
        let Some(mover) = self.piece_at(from) else { return h };
        if m.kind() == MoveKind::Rendezvous {
            return h;
        }
        if m.kind() == MoveKind::Rule {
            return h;
        }
        if let Some(victim) = self.piece_at(to) {
            h ^= ZOBRIST.piece(victim.color, victim.kind, to);
        }
        let arriving = m.promotion_piece().unwrap_or(mover.kind);
        h ^= ZOBRIST.piece(us, mover.kind, from) ^ ZOBRIST.piece(us, arriving, to);
        let rights = self.rights & t.rights_keep[from.index()] & t.rights_keep[to.index()];
        if rights != self.rights {
            h ^= ZOBRIST.rights(self.rights ^ rights);
        }
        h
    }

    /// The position after a move from the generator (copy-make). Returned by value, the copy
    /// is usually copied once more into the caller's place, inlined or not (measured: 1.4 %
    /// more instructions in the search), so hot paths clone and call
    /// [`Position::play_unchecked`] in place instead.
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(m);
        p
    }

    /// The squares on which a pawn of `color` promotes (or releases a prisoner) now: the
    /// variant's promotion squares, less the release squares of prisoners already freed.
    #[inline(always)]
    pub fn promotion_squares(&self, color: Color) -> Bitboard {
        let squares = self.tables.promotion_squares[color];
        match &self.tables.rules.releases {
            None => squares,
            Some(r) => squares & !r.closed(color, self.rights),
        }
    }

    /// Whether the side to move has a legal en-passant capture onto one of the squares the
    /// last long step passed.
    pub(crate) fn any_legal_en_passant(&self) -> bool {
        let us = self.turn;
        let pawns = self.pieces(us, PieceKind::Pawn);
        self.en_passant_squares().iter().any(|ep| {
            let candidates = self.tables.pawn_attacks[!us][ep.index()] & pawns;
            candidates.iter().any(|from| self.en_passant_is_legal(from, ep))
        })
    }

    /// The squares the opponent's pawn passed on its long first step just played, where a pawn
    /// of the side to move may take it en passant (empty when no such capture is legal). One
    /// square after a double step; two after Citadel's triple step.
    pub fn en_passant_squares(&self) -> Bitboard {
        let Some(first) = self.ep else { return Bitboard::EMPTY };
        let push = self.tables.pawn_push[!self.turn];
        let cells = self.tables.geometry.cells() as i32;
        let mut squares = first.bb();
        let mut sq = first.0 as i32 + push;
        // The passed squares are empty; the pawn that passed them stands just beyond.
        for _ in 2..self.tables.first_step_max {
            if !(0..cells).contains(&sq) || self.board[sq as usize] != EMPTY_CELL {
                break;
            }
            squares |= Square(sq as u8).bb();
            sq += push;
        }
        squares
    }

    /// [`Position::en_passant_squares`] in the order the pawn passed them (what a FEN lists).
    pub fn en_passant_list(&self) -> Vec<Square> {
        let mut passed: Vec<Square> = self.en_passant_squares().iter().collect();
        if self.tables.pawn_push[!self.turn] < 0 {
            passed.reverse();
        }
        passed
    }

    /// The square of the pawn an en-passant capture onto `to` (a square of
    /// [`Position::en_passant_squares`]) takes: the first piece beyond `to` in the direction
    /// the opponent's pawns move.
    #[inline]
    pub(crate) fn en_passant_victim(&self, to: Square) -> Square {
        let push = self.tables.pawn_push[!self.turn];
        let cells = self.tables.geometry.cells() as i32;
        let mut sq = to.0 as i32 + push;
        for _ in 2..self.tables.first_step_max {
            if !(0..cells).contains(&sq) || self.board[sq as usize] != EMPTY_CELL {
                break;
            }
            sq += push;
        }
        Square(sq as u8)
    }

    /// Whether the en-passant capture `from` x `ep` leaves the mover's king safe.
    #[inline]
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        if self.tables.rules.legal_by_playing {
            return self.keeps_royals_safe(Move::new(from, ep, MoveKind::EnPassant));
        }
        let us = self.turn;
        let captured = self.en_passant_victim(ep);
        let occ = (self.occupied() ^ from.bb() ^ captured.bb()) | ep.bb();
        let king = self.king(us);
        (self.attackers(king, !us, occ) & !captured.bb()).is_empty()
    }

    /// Whether the pseudo-legal move `m` leaves none of the mover's royal pieces attacked: the
    /// legality test of variants that find legal moves by playing them out
    /// ([`RuleSet::legal_by_playing`](super::rule_set::RuleSet::legal_by_playing)). The pieces royal before the move are tested where they
    /// stand after it (a royal piece that moves goes from the move's from- to its to-square).
    pub(crate) fn keeps_royals_safe(&self, m: Move) -> bool {
        self.keeps_royals_safe_of(self.royals(self.turn), m)
    }

    /// As [`Position::keeps_royals_safe`], given the mover's royal pieces.
    pub(crate) fn keeps_royals_safe_of(&self, royals: Bitboard, m: Move) -> bool {
        let us = self.turn;
        if royals.is_empty() {
            return true;
        }
        let tracked = if royals.has(m.from()) {
            (royals ^ m.from().bb()) | m.to().bb()
        } else {
            royals
        };
        let after = self.after(m);
        let occ = after.occupied();
        let cl = after.attack_classes();
        tracked
            .iter()
            .all(|sq| !after.tables.always_attacked.has(sq) && after.attackers_with(&cl, sq, !us, occ).is_empty())
    }

    /// Recomputes the hash from scratch (for tests and validation).
    pub fn compute_hash(&self) -> u64 {
        let g = self.tables.geometry;
        let mut h = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                h ^= ZOBRIST.piece(p.color, p.kind, sq);
            }
        }
        if self.turn == Color::Black {
            h ^= ZOBRIST.black_to_move;
        }
        h ^= ZOBRIST.rights(self.rights);
        if let Some(ep) = self.ep {
            h ^= ZOBRIST.en_passant(g.file(ep));
        }
        h
    }

    /// A game end that the position shows at once, by a special rule of the variant (the citadel
    /// draw), without generating moves: what the search tests at every node. Mate, stalemate,
    /// the 50-move rule, dead material and repetition are not included (see
    /// [`Position::outcome`]).
    #[inline]
    pub fn immediate_outcome(&self) -> Option<Outcome> {
        let t = self.tables;
        t.rules.outcome_hooks.iter().find_map(|hook| hook(self)).or_else(|| {
            if t.rules.custom_rules.is_empty() {
                None
            } else {
                t.rules.custom_rules.iter().find_map(|r| r.outcome(self))
            }
        })
    }

    /// Whether neither side can ever mate, as the variant's dead-material list says.
    pub fn is_insufficient_material(&self) -> bool {
        let kings = self.by_kind[PieceKind::King];
        let others = self.occupied() & !kings;
        // Quick exits: pawns always can mate eventually; lots of material is never dead.
        if self.by_kind[PieceKind::Pawn].any() || others.count() > 2 {
            return false;
        }
        let white = others & self.by_color[Color::White];
        let black = others & self.by_color[Color::Black];
        let strong = match (white.any(), black.any()) {
            (true, true) => return false,
            (true, false) => white,
            (false, true) => black,
            (false, false) => Bitboard::EMPTY,
        };
        let mut material = [PieceKind::King; 2];
        let mut n = 0;
        for sq in strong {
            if let Some(p) = self.piece_at(sq) {
                material[n] = p.kind;
                n += 1;
            }
        }
        let material = &mut material[..n];
        material.sort();
        self.tables.spec.dead_material.iter().any(|d| {
            let mut d: Vec<PieceKind> = d.to_vec();
            d.sort();
            d == material
        })
    }

    /// The outcome of the position if the game is over, without repetition (which needs the
    /// game's history; see [`super::game::Game`]). The citadel draw takes precedence over mate;
    /// mate takes precedence over the 50-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.immediate_outcome() {
            return Some(o);
        }
        if !self.has_legal_move() {
            return Some(if self.in_check() {
                Outcome::Checkmate { winner: !self.turn }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.fifty_move_draw() {
            return Some(Outcome::Draw(DrawReason::FiftyMoves));
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        None
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Whether this position and `other` are the same for repetition: same pieces, side, castling
    /// and rendezvous rights, and en-passant possibility.
    #[inline]
    pub fn same_for_repetition(&self, other: &Position) -> bool {
        self.hash == other.hash
    }
}
