//! The rule set of a variant: what its special rules put in place when its tables are built
//! (their data, the mode flags they set, the custom rules in force), beside the attack and
//! geometry tables of [`Tables`](super::tables::Tables).
//!
//! The fields are private to the rules layer. Search, evaluation and the front ends ask
//! rule-neutral questions instead: of the position (`is_capture`, `null_move_allowed`,
//! `outcome`, `rule_eval_terms`, ...) or of the rule set's own methods below.

use super::{
    geometry::{Bitboard, Square},
    piece::{ByColor, ByKind, Piece, PieceKind},
    position::OutcomeHook,
    special::{CustomRule, SquarePromotion},
    tables::{LetterRight, FIRST_RULE_RIGHT},
};

/// Where the rendezvous keeps its squares and rights ([`RuleSet`] holds them); the rule's
/// behaviour is in [`rendezvous`](super::special::rendezvous), as methods of this type that the
/// generator, the position and the notation call where the variant has the rule.
#[derive(Clone, Copy, Debug)]
pub struct RendezvousSquares {
    /// The rights bit of White's rendezvous (Black's is the next one).
    pub right_shift: u32,
    /// The kind that swaps with the bishop (princess or champion).
    pub partner: PieceKind,
    /// Where the partner must stand, per colour.
    pub partner_square: ByColor<Square>,
    /// Where the bishop must stand, per colour.
    pub bishop_square: ByColor<Square>,
}

/// What a pawn becomes on a square, under promotion by arrival square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Not a promotion square, or never one (the king's file in the Ludii reading).
    Never,
    /// This kind, when available.
    Kind(PieceKind),
    /// Any available kind of the variant's promotion kinds (the opposing king's square).
    AnyLost,
}

/// Where promotion by arrival square (Parsi Chess) keeps its tables ([`RuleSet`] holds them);
/// the rule's behaviour is in [`square_promotion`](super::special::square_promotion), as
/// methods of this type.
#[derive(Clone, Debug)]
pub struct SquarePromotionTables {
    /// The rule's data.
    pub rule: SquarePromotion,
    /// For each side and square, what its pawn becomes there.
    pub target: Box<ByColor<[Target; 128]>>,
    /// How many of each kind each side has in the start position.
    pub start_count: ByColor<ByKind<u8>>,
    /// The light squares (a1 is dark).
    pub light: Bitboard,
}

/// Where Citadel's releases keep their squares and rights ([`RuleSet`] holds them); the
/// rule's behaviour is in [`releases`](super::special::releases).
#[derive(Clone, Debug)]
pub struct ReleaseTables {
    /// What a pawn becomes on each square (`None`: it does not promote there).
    pub kind: Box<ByColor<[Option<PieceKind>; 128]>>,
    /// The rights bits a promotion onto each square spends (the prisoner's).
    pub spends: Box<ByColor<[u32; 128]>>,
    /// Per side: each prisoner's rights bit, its release squares (no promotion squares once
    /// the bit is spent) and its kind.
    pub gates: ByColor<Vec<(u32, Bitboard, PieceKind)>>,
    /// Per side, parallel to `gates`: the squares from which a pawn reaches one of the
    /// prisoner's release squares in one move (a step or a capture).
    pub feeders: ByColor<Vec<Bitboard>>,
}

/// Where a variant's opening series keeps its state (held by its [`RuleSet`]); the rule's
/// behaviour is in [`opening_series`](super::special::opening_series).
#[derive(Clone, Copy, Debug)]
pub struct SeriesTables {
    /// The rule's index among the custom rules.
    pub index: u8,
    /// The first rights bit of the counter.
    pub first_bit: u32,
    /// Moves of each side's series.
    pub moves: u8,
}

/// The rule set of one variant (see the module documentation).
pub struct RuleSet {
    /// Whether legal moves are found by playing out each pseudo-legal move and testing the
    /// mover's royal pieces, instead of from pins and checkers worked out ahead: for variants
    /// with bent riders (whose pins and check blocks do not lie on straight lines) or royalty
    /// decided by a rule ([`CustomRule::has_royalty`]), or arrivals banned by one
    /// ([`CustomRule::has_arrival_ban`]). Square promotion plays moves out only
    /// in some positions (see [`super::special::square_promotion`]).
    pub(in crate::rules) legal_by_playing: bool,
    /// The custom rule that decides which pieces are royal (an index into
    /// [`RuleSet::custom_rules`]); `None`: each side's one king.
    pub(in crate::rules) royalty_rule: Option<u8>,
    /// The custom rule that bans arrivals on some squares (an index into
    /// [`RuleSet::custom_rules`]; see
    /// [`CustomRule::arrival_ban`](super::special::CustomRule::arrival_ban)).
    pub(in crate::rules) arrival_ban_rule: Option<u8>,
    /// The next free rights bit for rules ([`Tables::allocate_rights`](super::tables::Tables::allocate_rights)).
    pub(in crate::rules) next_right: u32,
    /// The rights of rules written as letters in the FEN, in bit order.
    pub(in crate::rules) letter_rights: Vec<LetterRight>,
    /// Pawn double steps that need a rights bit (Parsi Chess: the piece behind has not moved):
    /// for each side, the pawn's start square and the bit. Double steps from squares not listed
    /// need nothing more than [`Attacks::double_step_from`](super::tables::Attacks::double_step_from).
    pub(in crate::rules) double_step_gates: ByColor<Vec<(Square, u32)>>,
    /// Double-step flags that follow the board (the "merely present" reading): the home
    /// square, the piece that must stand there, and the rights bit.
    pub(in crate::rules) present_gates: Vec<(Square, Piece, u32)>,
    /// Whether [`RuleSet::double_step_gates`] has any entry.
    pub(in crate::rules) gated_double_steps: bool,
    /// Promotion by arrival square (Parsi Chess), when the variant has it.
    pub(in crate::rules) square_promotion: Option<SquarePromotionTables>,
    /// Promotion by file and the release of prisoners, where the variant has them.
    pub(in crate::rules) releases: Option<ReleaseTables>,
    /// The rendezvous, when the variant has it.
    pub(in crate::rules) rendezvous: Option<RendezvousSquares>,
    /// Squares where a king of the colour arriving draws the game (opponent's citadels).
    pub(in crate::rules) citadel_draw: ByColor<Bitboard>,
    /// The outcome hooks of the rules in force: game ends that the position shows at once,
    /// without generating moves (see
    /// [`Position::immediate_outcome`](super::position::Position::immediate_outcome)). Registered by the rules'
    /// build hooks.
    pub(in crate::rules) outcome_hooks: Vec<OutcomeHook>,
    /// The custom rules of the variant ([`Rule::Custom`](super::special::Rule::Custom)), in
    /// the order of the spec; a [`MoveKind::Rule`](super::moves::MoveKind::Rule) move names
    /// its rule by the index in this list.
    pub(in crate::rules) custom_rules: Vec<&'static dyn CustomRule>,
    /// Indices of the custom rules that make moves of their own.
    pub(in crate::rules) custom_move_rules: Vec<u8>,
    /// The opening series rule, where the variant has it.
    pub(in crate::rules) opening_series: Option<SeriesTables>,
    /// Whether 100 plies without a capture or a pawn move draw (the 50-move rule); on unless a
    /// rule setting turns it off.
    pub(in crate::rules) fifty_move_rule: bool,
    /// The rule settings these tables were built with, as [`Variant::tables_with`] reads them
    /// (empty: the variant's defaults).
    ///
    /// [`Variant::tables_with`]: super::variant::Variant::tables_with
    pub(in crate::rules) rule_settings: String,
    /// Indices of the custom rules with evaluation terms
    /// ([`CustomRule::eval_terms`](super::special::CustomRule::eval_terms)).
    pub(in crate::rules) custom_eval_rules: Vec<u8>,
    /// Indices of the custom rules with an after-move hook
    /// ([`CustomRule::after_move`](super::special::CustomRule::after_move)).
    pub(in crate::rules) custom_after_move_rules: Vec<u8>,
    /// Indices of the custom rules that filter the legal moves.
    pub(in crate::rules) custom_filter_rules: Vec<u8>,
    /// Indices of the custom rules that keep a FEN field, in the order of their fields.
    pub(in crate::rules) custom_fen_rules: Vec<u8>,
    /// One word per custom rule for the rule's own use (set by its build hook).
    pub(in crate::rules) custom_data: Vec<u64>,
}

impl RuleSet {
    /// The rule set of a variant before its rules' build hooks run: no special rule, the
    /// 50-move rule on.
    pub(super) fn new(legal_by_playing: bool) -> RuleSet {
        RuleSet {
            legal_by_playing,
            royalty_rule: None,
            arrival_ban_rule: None,
            next_right: FIRST_RULE_RIGHT,
            letter_rights: Vec::new(),
            double_step_gates: ByColor::default(),
            present_gates: Vec::new(),
            gated_double_steps: false,
            square_promotion: None,
            releases: None,
            rendezvous: None,
            citadel_draw: ByColor::default(),
            outcome_hooks: Vec::new(),
            custom_rules: Vec::new(),
            custom_move_rules: Vec::new(),
            opening_series: None,
            fifty_move_rule: true,
            rule_settings: String::new(),
            custom_eval_rules: Vec::new(),
            custom_after_move_rules: Vec::new(),
            custom_filter_rules: Vec::new(),
            custom_fen_rules: Vec::new(),
            custom_data: Vec::new(),
        }
    }

    /// The rule settings the tables were built with, as
    /// [`Variant::tables_with`](super::variant::Variant::tables_with) reads them (empty: the
    /// variant's defaults).
    pub fn settings(&self) -> &str {
        &self.rule_settings
    }

    /// Whether the variant has the rendezvous (a FEN then carries its rights).
    pub fn has_rendezvous(&self) -> bool {
        self.rendezvous.is_some()
    }

    /// Whether each side's royal piece is its one king ([`Position::king`]); false where a rule
    /// decides royalty ([`Position::royals`]).
    ///
    /// [`Position::king`]: super::position::Position::king
    /// [`Position::royals`]: super::position::Position::royals
    #[inline]
    pub fn royals_are_kings(&self) -> bool {
        self.royalty_rule.is_none()
    }

    /// Whether a custom rule filters the legal moves ([`RuleSet::custom_filter_rules`]).
    #[inline]
    pub fn has_legality_filters(&self) -> bool {
        !self.custom_filter_rules.is_empty()
    }

    /// How many custom rules the variant has (a rule move names its rule by an index below).
    pub fn custom_rule_count(&self) -> usize {
        self.custom_rules.len()
    }

    /// The indices of the custom rules that keep a FEN field, in the order of their fields.
    pub fn custom_fen_rules(&self) -> &[u8] {
        &self.custom_fen_rules
    }

    /// The indices of the custom rules that filter the legal moves.
    pub fn custom_filter_rules(&self) -> &[u8] {
        &self.custom_filter_rules
    }

    /// Whether a custom rule makes moves of its own ([`MoveKind::Rule`](super::moves::MoveKind::Rule)).
    pub fn has_rule_moves(&self) -> bool {
        !self.custom_move_rules.is_empty()
    }

    /// The word custom rule `index` keeps for its own use (set by its build hook with
    /// [`Tables::set_custom_data`](super::tables::Tables::set_custom_data)).
    #[inline]
    pub fn custom_data(&self, index: u8) -> u64 {
        self.custom_data[index as usize]
    }

    /// Whether legal moves are found by playing out each pseudo-legal move
    /// ([`RuleSet::legal_by_playing`]).
    pub fn legal_by_playing(&self) -> bool {
        self.legal_by_playing
    }

    /// The custom rule that decides which pieces are royal, if any (its index).
    pub fn royalty_rule(&self) -> Option<u8> {
        self.royalty_rule
    }

    /// The rights of rules written as letters in the FEN, in bit order.
    pub fn letter_rights(&self) -> &[LetterRight] {
        &self.letter_rights
    }

    /// Whether some pawn double steps need a rights bit besides the start square (Parsi
    /// Chess: the piece behind has not moved).
    pub fn double_steps_need_rights(&self) -> bool {
        self.gated_double_steps
    }
}
