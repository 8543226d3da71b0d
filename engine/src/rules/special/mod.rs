//! The special rules, and this file is their interface: the [`Rule`] a variant names in
//! `VariantSpec::rules` with each built-in rule's data type, and the hook types. The built-in
//! rules each live in their own module with their hooks and their tests; they import the
//! position and this interface, and nothing here or in the core names them. Rules of one's own
//! come in through [`Rule::Custom`] and the [`CustomRule`] trait, without a change to the
//! generator, the position or the notation code.
//!
//! Hooks a built-in rule may use (called only where the variant has the rule):
//! - **build** (`BuildHook`): adjust the variant's tables once (squares a kind may not enter,
//!   squares attacked by a neutral piece, the squares of a special move, rights bits) and put
//!   the rule's state in the rule set (a type of `rule_set.rs`, held in an `Option`);
//! - **extra moves**, **make**, **delta**, **promotions**, **FEN field**, **SAN**: methods of
//!   that state, written in the rule's module, which the generator, the position and the
//!   notation call through the rule set's `Option` (the rendezvous, promotion by square, the
//!   releases);
//! - **outcome**: game-ending conditions (the citadel draw, the bare king), registered by the
//!   build hook.
//!
//! [`CustomRule`] has these and more: legality filters over the whole list (with the game's
//! history), the text of its moves in UCI and SAN, a FEN field, the halfmove clock; its moves are
//! [`MoveKind::Rule`](super::moves::MoveKind::Rule) moves with a tag for a third square.

pub mod all_seeing_eye;
pub mod bare_king;
pub mod bonus_leap;
pub mod centre_square;
pub mod citadel_draw;
pub mod king_leap;
pub mod no_stalemating;
pub mod opening_series;
pub mod perpetual_check;
pub mod prince_royalty;
pub mod releases;
pub mod rendezvous;
pub mod square_promotion;
pub mod unmoved_double_step;

use super::{
    geometry::{Bitboard, Square},
    moves::{Move, MoveList},
    piece::{Color, Piece, PieceKind},
    position::{Outcome, Position},
    tables::Tables,
    variant::Coord,
};

/// Most custom rules a variant may have (a rule move carries its rule's index in 4 bits).
pub const MAX_CUSTOM_RULES: usize = 16;

/// A special rule in force in a variant, with its data.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// Once per game per side, a princess (or champion) on g2 swaps with a bishop on h2.
    Rendezvous(Rendezvous),
    /// Only some kinds may end a move on the centre square; sliders pass it when it is empty.
    CentreSquare(CentreSquare),
    /// The Egyptian Eye's All-Seeing Eye: a neutral piece on the centre square that attacks its
    /// diagonals through pieces and cannot be entered.
    AllSeeingEye(AllSeeingEye),
    /// A king arriving on an opponent's citadel draws at once.
    CitadelDraw(CitadelDraw),
    /// Pawns double-step only on some files, while the piece behind has never moved (Parsi Chess).
    UnmovedDoubleStep(UnmovedDoubleStep),
    /// A pawn becomes what started on its arrival square, when its side has lost one (Parsi Chess).
    SquarePromotion(SquarePromotion),
    /// A side left with only its king draws the game at once, unless it is mated (Parsi Chess).
    BareKing(BareKing),
    /// Pawns become a kind fixed by the square, or free a prisoner of their side (Citadel).
    Releases(Releases),
    /// A rule of a variant of one's own, with its hooks behind a trait (see [`CustomRule`]).
    Custom(&'static dyn CustomRule),
}

/// Data of the rendezvous, White's squares (Black's are mirrored); the rule's behaviour is
/// in [`rendezvous`].
#[derive(Clone, Copy, Debug)]
pub struct Rendezvous {
    /// The kind that swaps with a bishop.
    pub partner: PieceKind,
    /// Where the partner stands (g2).
    pub partner_square: Coord,
    /// Where the bishop stands (h2).
    pub bishop_square: Coord,
}

/// Data of the centre-square rule; its behaviour is in [`centre_square`].
#[derive(Clone, Copy, Debug)]
pub struct CentreSquare {
    /// The centre square.
    pub square: Coord,
    /// The kinds that may end a move there.
    pub may_enter: &'static [PieceKind],
}

/// Data of the All-Seeing Eye; its behaviour is in [`all_seeing_eye`].
#[derive(Clone, Copy, Debug)]
pub struct AllSeeingEye {
    /// Where the Eye stands.
    pub square: Coord,
}

/// Data of the citadel draw; its behaviour is in [`citadel_draw`].
#[derive(Clone, Copy, Debug)]
pub struct CitadelDraw {
    /// Squares where a White king arriving draws.
    pub white_targets: &'static [Coord],
    /// Squares where a Black king arriving draws.
    pub black_targets: &'static [Coord],
}

/// Data of the unmoved double step; its behaviour is in [`unmoved_double_step`].
#[derive(Clone, Copy, Debug)]
pub struct UnmovedDoubleStep {
    /// The files (from 0) whose pawns may double-step, each while the piece behind is unmoved.
    pub files: &'static [u8],
    /// The literal reading of the Ludii description: the double step is allowed while the
    /// piece that started behind the pawn stands on its square again ("merely present"), even
    /// after it moved away and came back. The flags then follow the board after every move.
    pub while_present: bool,
}

/// Data of promotion by arrival square; its behaviour is in [`square_promotion`].
#[derive(Clone, Copy, Debug)]
pub struct SquarePromotion {
    /// Kinds bound to one square colour (bishops): available on a square only while the side
    /// has none of them on squares of that colour.
    pub colour_bound: &'static [PieceKind],
    /// Kinds that may not give check from the promotion square on arrival (Parsi's knights).
    pub no_check_on_arrival: &'static [PieceKind],
    /// The Ludii reading: by the pawn's own file (the mover's start piece of that file); the
    /// king's file never promotes.
    pub by_own_file: bool,
}

/// Data of the bare-king draw (none); its behaviour is in [`bare_king`].
#[derive(Clone, Copy, Debug)]
pub struct BareKing;

/// Data of the releases, given for White (Black's squares are mirrored across the middle
/// rank); the rule's behaviour is in [`releases`].
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

/// The build hook of a built-in rule, implemented by the rule's data type in the rule's module
/// ([`Rule::build`] calls it while the variant's tables are built): it adjusts the tables and
/// puts the rule's state and hooks in the rule set.
pub(crate) trait BuildHook {
    /// Adjusts the tables of the variant; `resolve` turns the spec's coordinates into squares.
    fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square);
}

/// The hooks of a rule that is not in the engine's built-in list: a variant (or a test) brings
/// its own rule without touching the move generator, the position or the notation code.
///
/// Every hook has a default that does nothing, so a rule implements only what it needs. The
/// engine calls the hooks only for variants that name the rule, so variants without custom
/// rules pay nothing. A rule's moves are [`Move::rule`] moves carrying the rule's index (given
/// to the hooks; below 16) and a 7-bit tag of the rule's choosing; the engine keeps only those
/// that leave the mover's royal pieces unattacked, and sends them back to the rule to be played,
/// written, and described for incremental evaluation.
pub trait CustomRule: Sync + std::fmt::Debug {
    /// The rule's name (in messages).
    fn name(&self) -> &'static str;

    /// Build hook: adjust the variant's tables once (squares a kind may not enter, rights bits
    /// with [`Tables::allocate_rights`], ...). `index` is the rule's index among the variant's
    /// custom rules; [`Tables::set_custom_data`] sets the rule's own word in the tables (the
    /// first of the rights bits it allocated, say), [`RuleSet::custom_data`] reads it back.
    ///
    /// [`RuleSet::custom_data`]: super::rule_set::RuleSet::custom_data
    fn build(&self, _tables: &mut Tables, _resolve: &dyn Fn(Coord) -> Square, _index: u8) {}

    /// Whether the rule makes moves of its own ([`CustomRule::extra_moves`]).
    fn has_moves(&self) -> bool {
        false
    }

    /// Extra-moves hook: the rule's pseudo-legal moves in `pos`, made with [`Move::rule`] and
    /// this `index`, pushed onto `moves`.
    fn extra_moves(&self, _pos: &Position, _index: u8, _moves: &mut MoveList) {}

    /// Make hook: plays one of the rule's moves with the editing methods of [`RuleEdit`]
    /// (the engine then updates the side to move, clocks, rights kept by square and checks).
    fn make(&self, _pos: &mut RuleEdit<'_>, _m: Move) {}

    /// Whether one of the rule's moves captures or promotes: such moves go with the captures
    /// (the search's capture list and quiescence), the others with the quiet moves. Default:
    /// it ends on an enemy piece.
    fn is_tactical(&self, pos: &Position, m: Move) -> bool {
        pos.piece_at(m.to()).is_some_and(|p| p.color != pos.turn())
    }

    /// Whether one of the rule's moves resets the halfmove clock (a capture, a pawn move).
    fn resets_halfmove_clock(&self, _pos: &Position, _m: Move) -> bool {
        false
    }

    /// The UCI text of one of the rule's moves (default: from- and to-square).
    fn uci(&self, pos: &Position, m: Move) -> String {
        let g = pos.tables().geometry;
        format!("{}{}", g.square_name(m.from()), g.square_name(m.to()))
    }

    /// The SAN of one of the rule's moves (default: the UCI text).
    fn san(&self, pos: &Position, m: Move) -> String {
        self.uci(pos, m)
    }

    /// Legality-filter hook: removes from `moves` (the legal moves of `pos` by the other rules)
    /// the moves this rule forbids. `history` holds the hashes of the game's earlier positions,
    /// oldest first, where the caller has them (a [`Game`](super::game::Game) does; a bare
    /// position passes none).
    /// Use [`Position::legal_moves_unfiltered`] to look ahead without running the filters again.
    fn filter(&self, _pos: &Position, _history: &[u64], _moves: &mut MoveList) {}

    /// The filter over a part of the legal list (the captures, or the other moves, as the search
    /// generates them in stages): removes the moves the rule forbids, with no fallback for a
    /// part where it forbids every move, and adds none. Returns false where the rule cannot
    /// judge a part alone (the default): the engine then filters the whole list and keeps
    /// its part.
    fn filter_part(&self, _pos: &Position, _history: &[u64], _moves: &mut MoveList) -> bool {
        false
    }

    /// Whether the rule has a legality filter ([`CustomRule::filter`]).
    fn has_filter(&self) -> bool {
        false
    }

    /// Whether the filter looks at the game's earlier positions (the `history` it is given):
    /// then a count of the legal-move tree (perft) keeps the hashes of the path to each node.
    fn reads_history(&self) -> bool {
        false
    }

    /// Counting hook of a filter: true when, in `pos` after `history`, the filter surely removes
    /// no ordinary move (kind [`Normal`](super::moves::MoveKind::Normal) or
    /// [`DoubleStep`](super::moves::MoveKind::DoubleStep), or a rule move
    /// that its rule calls a quiet king move, [`CustomRule::is_quiet_king_move`]) and, while one
    /// ordinary move is legal, judges each other move on its own, by
    /// [`CustomRule::filter_keeps`]. Then [`Position::count_legal_moves`] counts the ordinary
    /// moves without listing them (perft's last ply). False (the default) says nothing.
    fn filter_spares_ordinary_moves(&self, _pos: &Position, _history: &[u64]) -> bool {
        false
    }

    /// The filter's judgement of one move that is not ordinary, where
    /// [`CustomRule::filter_spares_ordinary_moves`] holds and an ordinary move is legal.
    fn filter_keeps(&self, _pos: &Position, _history: &[u64], _m: Move) -> bool {
        true
    }

    /// Terms of the hand-crafted evaluation that the rule adds (middlegame, endgame), in
    /// centipawns from White's point of view: the value of rights the rule gives.
    fn eval_terms(&self, _pos: &Position, _index: u8) -> (i32, i32) {
        (0, 0)
    }

    /// Whether the rule move `m` (pseudo-legal here) only moves the mover's king from its
    /// from- to its to-square, onto an empty square, and changes nothing else (no capture, no
    /// rights that matter to legality): its legality is then an attack test on the to-square,
    /// without playing it out.
    fn is_quiet_king_move(&self, _pos: &Position, _m: Move) -> bool {
        false
    }

    /// The squares whose contents the rule move `m` (pseudo-legal in `pos`) changes, where the
    /// board on them is all it changes that the other side's moves can depend on (the mover's
    /// own rights aside). Parsi's stalemate ban then proves the move harmless without playing it
    /// out when a quiet move of the opponent stays clear of them. `None` (the default): the rule
    /// does not say, and the move is played out.
    fn changed_squares(&self, _pos: &Position, _m: Move) -> Option<Bitboard> {
        None
    }

    /// Whether the rule has [`CustomRule::eval_terms`].
    fn has_eval_terms(&self) -> bool {
        false
    }

    /// Runs after every move (not after a null move), once the side to move and its checkers
    /// are set: for state that changes by what the move did to the other side (a right lost
    /// when the king is checked). It may change rights only, not the board.
    fn after_move(&self, _pos: &mut RuleEdit<'_>, _index: u8) {}

    /// Whether the side not to move may stand in check in `pos` (a check it answers later,
    /// during an opening series); a FEN of such a position is then accepted.
    fn side_not_to_move_may_be_in_check(&self, _pos: &Position) -> bool {
        false
    }

    /// Whether the rule has an [`CustomRule::after_move`] hook.
    fn has_after_move(&self) -> bool {
        false
    }

    /// Outcome hook: a game end the position shows at once.
    fn outcome(&self, _pos: &Position) -> Option<Outcome> {
        None
    }

    /// Whether the rule keeps a FEN field of its own ([`CustomRule::fen_field`]). The fields of
    /// such rules follow the standard six (and the rendezvous field, in variants with the
    /// rendezvous), in the order of the rules.
    fn has_fen_field(&self) -> bool {
        false
    }

    /// FEN-field hook: the text of the rule's field in `pos` (for rules with a field).
    fn fen_field(&self, _pos: &Position, _index: u8) -> Option<String> {
        None
    }

    /// Reads the rule's FEN field into the rights bits it sets (`None`: the field was absent);
    /// `Err` names what is wrong. Only called for rules with a field.
    fn parse_fen_field(&self, _tables: &Tables, _index: u8, _field: Option<&str>) -> Result<u32, String> {
        Ok(0)
    }

    /// Whether the rule decides which pieces are royal ([`CustomRule::royals`]); at most one
    /// rule of a variant may. Without such a rule each side has exactly one king
    /// ([`PieceKind::King`]), and it is royal.
    fn has_royalty(&self) -> bool {
        false
    }

    /// Royalty hook (for rules with [`CustomRule::has_royalty`]): the royal pieces of `color`
    /// in `pos`. A move is legal when none of the mover's pieces that were royal before it is
    /// attacked after it (a royal piece that moves is followed from the move's from-square to
    /// its to-square); a side whose royal pieces are attacked is in check, and mated when it
    /// has no legal move. A side with no royal piece is never in check (it can still be
    /// stalemated). Castling tests its squares for attacks only when the castling piece is royal.
    fn royals(&self, pos: &Position, color: Color) -> Bitboard {
        pos.pieces(color, PieceKind::King)
    }

    /// Whether the rule bans pieces of some kinds from some squares
    /// ([`CustomRule::arrival_ban`]); at most one rule of a variant may.
    fn has_arrival_ban(&self) -> bool {
        false
    }

    /// Arrival-ban hook (for rules with [`CustomRule::has_arrival_ban`]): the squares where a
    /// piece of the side to move may not arrive, by its kind after the move (a promoted or
    /// released piece by its new kind, a castling king on its castling square). Unlike a
    /// filter, the ban is applied by the move generator itself, so moves are still counted
    /// without being listed (perft's last ply). A variant with such a rule finds its legal
    /// moves with the generator that plays moves out
    /// ([`RuleSet::legal_by_playing`](super::rule_set::RuleSet::legal_by_playing)).
    fn arrival_ban(&self, _pos: &Position) -> ArrivalBan {
        ArrivalBan::NONE
    }

    /// Setup hook: whether a position read from outside (a FEN) is one the rule allows, after
    /// its board, rights and fields are read; `Err` says what is wrong.
    fn check_setup(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}

/// Squares where pieces of some kinds of the side to move may not arrive (a rule's
/// [`CustomRule::arrival_ban`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrivalBan {
    /// The kinds concerned, one bit each (`1 << kind.index()`).
    pub kinds: u32,
    /// The squares they may not arrive on.
    pub squares: Bitboard,
}

impl ArrivalBan {
    /// No ban.
    pub const NONE: ArrivalBan = ArrivalBan {
        kinds: 0,
        squares: Bitboard::EMPTY,
    };

    /// The squares a piece of `kind` may not arrive on.
    #[inline(always)]
    pub fn squares_for(&self, kind: PieceKind) -> Bitboard {
        if self.kinds & (1 << kind.index()) != 0 {
            self.squares
        } else {
            Bitboard::EMPTY
        }
    }
}

/// What a [`CustomRule`]'s make hook may do to a position: move pieces and spend rights, with
/// the hash kept up to date. The engine does the rest of the move (side to move, clocks, the
/// rights kept by square, checks).
pub struct RuleEdit<'a> {
    pub(crate) pos: &'a mut Position,
}

impl RuleEdit<'_> {
    /// The position as it is now, part-way through the move.
    pub fn position(&self) -> &Position {
        self.pos
    }

    /// Removes and returns the piece on `sq` (`None` when it is empty).
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        self.pos.piece_at(sq)?;
        Some(self.pos.remove(sq))
    }

    /// Puts `piece` on the empty square `sq` (a piece already there is removed first).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        if self.pos.piece_at(sq).is_some() {
            self.pos.remove(sq);
        }
        self.pos.put(sq, piece);
    }

    /// Sets the rights bits of `mask` (those the rule allocated) to `value`'s.
    pub fn set_rights(&mut self, mask: u32, value: u32) {
        let old = self.pos.rights;
        self.pos.rights = (old & !mask) | (value & mask);
        self.pos.hash ^= crate::rules::zobrist::ZOBRIST.rights(old ^ self.pos.rights);
    }

    /// Clears rights bits (those the rule allocated).
    pub fn clear_rights(&mut self, bits: u32) {
        let old = self.pos.rights;
        self.pos.rights &= !bits;
        self.pos.hash ^= crate::rules::zobrist::ZOBRIST.rights(old ^ self.pos.rights);
    }
}

impl Rule {
    /// The build hook: adjusts the tables of the variant.
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        match self {
            Rule::Rendezvous(r) => r.build(tables, resolve),
            Rule::CentreSquare(r) => r.build(tables, resolve),
            Rule::AllSeeingEye(r) => r.build(tables, resolve),
            Rule::CitadelDraw(r) => r.build(tables, resolve),
            Rule::UnmovedDoubleStep(r) => r.build(tables, resolve),
            Rule::SquarePromotion(r) => r.build(tables, resolve),
            Rule::BareKing(r) => r.build(tables, resolve),
            Rule::Releases(r) => r.build(tables, resolve),
            Rule::Custom(r) => {
                let index = tables.rules.custom_rules.len();
                assert!(
                    index < MAX_CUSTOM_RULES,
                    "{}: more than {MAX_CUSTOM_RULES} custom rules",
                    tables.spec.id
                );
                tables.rules.custom_rules.push(*r);
                tables.rules.custom_data.push(0);
                if r.has_moves() {
                    tables.rules.custom_move_rules.push(index as u8);
                }
                if r.has_filter() {
                    tables.rules.custom_filter_rules.push(index as u8);
                }
                if r.has_eval_terms() {
                    tables.rules.custom_eval_rules.push(index as u8);
                }
                if r.has_after_move() {
                    tables.rules.custom_after_move_rules.push(index as u8);
                }
                if r.has_fen_field() {
                    tables.rules.custom_fen_rules.push(index as u8);
                }
                if r.has_arrival_ban() {
                    assert!(
                        tables.rules.arrival_ban_rule.is_none(),
                        "{}: more than one rule bans arrivals",
                        tables.spec.id
                    );
                    tables.rules.arrival_ban_rule = Some(index as u8);
                    tables.rules.legal_by_playing = true;
                }
                if r.has_royalty() {
                    assert!(
                        tables.rules.royalty_rule.is_none(),
                        "{}: more than one rule decides royalty",
                        tables.spec.id
                    );
                    tables.rules.royalty_rule = Some(index as u8);
                    tables.rules.legal_by_playing = true;
                }
                r.build(tables, resolve, index as u8);
            }
        }
    }
}

/// Helpers shared by the rules' unit tests.
#[cfg(test)]
mod test_support;
