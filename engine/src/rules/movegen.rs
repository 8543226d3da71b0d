//! The one move generator: legal moves of any variant, driven by the variant's tables and the
//! hooks of its special rules.
//!
//! Moves are generated legal directly: the checkers and the pinned pieces are found first, king
//! moves are tested square by square, en passant is tested by playing it out on the occupancy.
//! The generator writes into a `Sink`, so perft can count moves without listing them.

use super::{
    geometry::{Bitboard, Square},
    moves::{Move, MoveKind, MoveList},
    piece::{Color, PieceKind},
    position::{AttackClasses, Position},
    special::ArrivalBan,
    tables::{is_orthogonal, NO_DIRECTION},
};

/// Receives generated moves.
pub(crate) trait Sink {
    /// One move.
    fn add(&mut self, m: Move);

    /// Whether the sink takes `m` at all (default: every move). A generator that tests moves
    /// one by one before passing them on (by playing them out) skips the test of a move the
    /// sink does not want.
    #[inline(always)]
    fn wants(&self, _m: Move) -> bool {
        true
    }

    /// Ordinary moves from one square to each of `targets` (default: one [`Sink::add`] each).
    #[inline(always)]
    fn add_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.add(Move::new(from, to, MoveKind::Normal));
        }
    }

    /// Pawn moves of a kind to each of `targets`, each from `to - delta`.
    #[inline(always)]
    fn add_pawn_moves(&mut self, targets: Bitboard, delta: i32, kind: MoveKind) {
        for to in targets {
            self.add(Move::new(Square((to.0 as i32 - delta) as u8), to, kind));
        }
    }

    /// Promotions to each of `targets` (one move per promotion kind), each from `to - delta`.
    #[inline(always)]
    fn add_promotions(&mut self, targets: Bitboard, delta: i32, kinds: &[PieceKind]) {
        for to in targets {
            let from = Square((to.0 as i32 - delta) as u8);
            for &k in kinds {
                self.add(Move::promotion(from, to, k));
            }
        }
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn add_targets(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn add_pawn_moves(&mut self, targets: Bitboard, _: i32, _: MoveKind) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn add_promotions(&mut self, targets: Bitboard, _: i32, kinds: &[PieceKind]) {
        self.0 += (targets.count() as usize * kinds.len()) as u64;
    }
}

/// Passes on to another sink the moves a test keeps, one by one (a sink of the generator
/// that plays moves out; no list is built).
struct Kept<'a, S, F> {
    sink: &'a mut S,
    keep: F,
}

impl<S: Sink, F: FnMut(Move) -> bool> Sink for Kept<'_, S, F> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if self.sink.wants(m) && (self.keep)(m) {
            self.sink.add(m);
        }
    }

    #[inline(always)]
    fn wants(&self, m: Move) -> bool {
        self.sink.wants(m)
    }
}

/// Looks for one move among the generated ones: the generator's tests of the other moves are
/// skipped where it tests moves one by one ([`Sink::wants`]).
struct Finder {
    wanted: Move,
    found: bool,
}

impl Sink for Finder {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.found |= m == self.wanted;
    }

    #[inline(always)]
    fn wants(&self, m: Move) -> bool {
        m == self.wanted
    }

    #[inline(always)]
    fn add_targets(&mut self, from: Square, targets: Bitboard) {
        let w = self.wanted;
        self.found |= w.kind() == MoveKind::Normal
            && w.from() == from
            && targets.has(w.to())
            && w == Move::new(from, w.to(), MoveKind::Normal);
    }
}

/// Notes whether any move is generated, and wants no more once one is.
struct AnyMove(bool);

impl Sink for AnyMove {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 = true;
    }

    #[inline(always)]
    fn wants(&self, _: Move) -> bool {
        !self.0
    }

    #[inline(always)]
    fn add_targets(&mut self, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn add_pawn_moves(&mut self, targets: Bitboard, _: i32, _: MoveKind) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn add_promotions(&mut self, targets: Bitboard, _: i32, kinds: &[PieceKind]) {
        self.0 |= targets.any() && !kinds.is_empty();
    }
}

/// Counts the ordinary moves (kinds `Normal` and `DoubleStep`) and lists the others.
#[derive(Default)]
struct OrdinaryCounter {
    ordinary: u64,
    others: MoveList,
}

impl Sink for OrdinaryCounter {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep) {
            self.ordinary += 1;
        } else {
            self.others.push(m);
        }
    }

    #[inline(always)]
    fn add_targets(&mut self, _: Square, targets: Bitboard) {
        self.ordinary += targets.count() as u64;
    }

    #[inline(always)]
    fn add_pawn_moves(&mut self, targets: Bitboard, delta: i32, kind: MoveKind) {
        if matches!(kind, MoveKind::Normal | MoveKind::DoubleStep) {
            self.ordinary += targets.count() as u64;
        } else {
            self.others.add_pawn_moves(targets, delta, kind);
        }
    }

    #[inline(always)]
    fn add_promotions(&mut self, targets: Bitboard, delta: i32, kinds: &[PieceKind]) {
        self.others.add_promotions(targets, delta, kinds);
    }
}

/// Which moves [`Position::generate`] produces: all, or one of two complementary parts.
pub(crate) mod mode {
    /// Every legal move.
    pub const ALL: u8 = 0;
    /// Captures (en passant included) and promotions.
    pub const CAPTURES: u8 = 1;
    /// Everything else: moves to empty squares that do not promote, castling, rendezvous.
    pub const QUIETS: u8 = 2;
}

#[inline(always)]
fn shift(bb: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

/// At most one piece is pinned along each of the eight lines from the king.
const MAX_PINS: usize = 8;

/// Pinned pieces of the side to move and, for each, the squares it may move to.
struct Pins {
    pinned: Bitboard,
    squares: [Square; MAX_PINS],
    lines: [Bitboard; MAX_PINS],
    len: usize,
}

impl Pins {
    #[inline(always)]
    fn line(&self, sq: Square) -> Bitboard {
        for i in 0..self.len {
            if self.squares[i] == sq {
                return self.lines[i];
            }
        }
        Bitboard::EMPTY
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// All legal moves, with the legality filters of the rules that look at the game's
    /// history given the hashes of the earlier positions (oldest first).
    pub fn legal_moves_with_history(&self, history: &[u64]) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<MoveList, { mode::ALL }>(&mut list);
        self.filter_moves(&mut list, history);
        list
    }

    /// The legal moves without the legality filters of custom rules (what a filter looks at
    /// to judge a move; the same as [`Position::legal_moves`] in variants without filters).
    pub fn legal_moves_unfiltered(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<MoveList, { mode::ALL }>(&mut list);
        list
    }

    /// Whether [`Position::legal_moves_unfiltered`] is not empty: once a move is found, the
    /// generator's tests of the moves it plays out are skipped.
    pub fn has_legal_move_unfiltered(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate::<AnyMove, { mode::ALL }>(&mut any);
        any.0
    }

    /// Legal captures (en passant included) and promotions only.
    pub fn capture_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_captures(&mut list);
        list
    }

    /// Replaces the contents of `list` with the legal moves (no allocation).
    pub fn generate_legal(&self, list: &mut MoveList) {
        self.generate_legal_with_history(list, &[]);
    }

    /// Replaces the contents of `list` with the legal captures and promotions.
    pub fn generate_captures(&self, list: &mut MoveList) {
        self.generate_captures_with_history(list, &[]);
    }

    /// Replaces the contents of `list` with the legal moves that are neither captures nor
    /// promotions (the complement of [`Position::generate_captures`]).
    pub fn generate_quiets(&self, list: &mut MoveList) {
        self.generate_quiets_with_history(list, &[]);
    }

    /// As [`Position::generate_legal`], the legality filters of the rules that look at the
    /// game given the hashes of the earlier positions (oldest first; what the search passes
    /// from its path).
    #[inline]
    pub fn generate_legal_with_history(&self, list: &mut MoveList, history: &[u64]) {
        list.clear();
        self.generate::<MoveList, { mode::ALL }>(list);
        self.filter_moves(list, history);
    }

    /// As [`Position::generate_captures`], with the game's earlier positions for the filters.
    #[inline]
    pub fn generate_captures_with_history(&self, list: &mut MoveList, history: &[u64]) {
        list.clear();
        self.generate::<MoveList, { mode::CAPTURES }>(list);
        self.filter_part(list, history, true);
    }

    /// As [`Position::generate_quiets`], with the game's earlier positions for the filters.
    #[inline]
    pub fn generate_quiets_with_history(&self, list: &mut MoveList, history: &[u64]) {
        list.clear();
        self.generate::<MoveList, { mode::QUIETS }>(list);
        self.filter_part(list, history, false);
    }

    /// The number of legal moves (faster than listing them).
    ///
    /// With legality filters, the ordinary moves are still counted unlisted where every filter
    /// says it spares them ([`CustomRule::filter_spares_ordinary_moves`](super::special::CustomRule::filter_spares_ordinary_moves)):
    /// the other moves are listed and judged one by one.
    pub fn count_legal_moves(&self) -> u64 {
        self.count_legal_moves_with_history(&[])
    }

    /// As [`Position::count_legal_moves`], the filters given the hashes of the earlier
    /// positions (oldest first): the length of [`Position::legal_moves_with_history`].
    pub fn count_legal_moves_with_history(&self, history: &[u64]) -> u64 {
        let t = self.tables;
        if t.rules.custom_filter_rules.is_empty() {
            let mut c = Counter::default();
            self.generate::<Counter, { mode::ALL }>(&mut c);
            return c.0;
        }
        let rules = || {
            t.rules
                .custom_filter_rules
                .iter()
                .map(|&i| t.rules.custom_rules[i as usize])
        };
        if self.filters_spare_ordinary_moves(history) {
            let mut split = OrdinaryCounter::default();
            self.generate::<OrdinaryCounter, { mode::ALL }>(&mut split);
            // Without an ordinary move a filter may judge the rest together (a fallback).
            if split.ordinary > 0 {
                let kept = split
                    .others
                    .iter()
                    .filter(|&&m| self.is_ordinary_rule_move(m) || rules().all(|r| r.filter_keeps(self, history, m)))
                    .count();
                return split.ordinary + kept as u64;
            }
        }
        self.legal_moves_with_history(history).len() as u64
    }

    /// Whether every legality filter of the rules spares the ordinary moves here, after
    /// `history` ([`CustomRule::filter_spares_ordinary_moves`](super::special::CustomRule::filter_spares_ordinary_moves)).
    fn filters_spare_ordinary_moves(&self, history: &[u64]) -> bool {
        let t = self.tables;
        t.rules
            .custom_filter_rules
            .iter()
            .all(|&i| t.rules.custom_rules[i as usize].filter_spares_ordinary_moves(self, history))
    }

    /// Whether a filter of the rules looks at the game's earlier positions
    /// ([`CustomRule::reads_history`](super::special::CustomRule::reads_history)): then the moves of
    /// a position depend on the way it was reached, and a count of the legal-move tree keeps
    /// the path.
    pub fn moves_depend_on_history(&self) -> bool {
        let t = self.tables;
        t.rules
            .custom_filter_rules
            .iter()
            .any(|&i| t.rules.custom_rules[i as usize].reads_history())
    }

    /// Whether `m` is a rule move that its rule calls a quiet king move (the king from its from-
    /// to its to-square, nothing else changed): filters treat it as an ordinary move.
    fn is_ordinary_rule_move(&self, m: Move) -> bool {
        m.kind() == MoveKind::Rule
            && self
                .tables
                .rules
                .custom_rules
                .get(m.rule_index())
                .is_some_and(|r| r.is_quiet_king_move(self, m))
    }

    /// Runs the legality filters of the variant's custom rules over `list`.
    #[inline]
    fn filter_moves(&self, list: &mut MoveList, history: &[u64]) {
        let t = self.tables;
        for &i in &t.rules.custom_filter_rules {
            t.rules.custom_rules[i as usize].filter(self, history, list);
        }
    }

    /// Runs the legality filters over one part of the legal list (`captures`: the captures and
    /// promotions, else the other moves), leaving what the whole list's filtering keeps of it.
    ///
    /// A filter's fallback ("nothing else to play: the forbidden moves stay legal") is judged
    /// on the whole list, so each filter judges a part without it
    /// ([`CustomRule::filter_part`](super::special::CustomRule::filter_part)). While moves remain, that
    /// is the whole list's answer: a part with an allowed move means the whole list has one, so
    /// no fallback applies. Where the part ends empty, or a filter cannot judge a part alone,
    /// the whole list is filtered and its part kept.
    fn filter_part(&self, list: &mut MoveList, history: &[u64], captures: bool) {
        let t = self.tables;
        if t.rules.custom_filter_rules.is_empty() || list.is_empty() {
            return;
        }
        let judged = t
            .rules
            .custom_filter_rules
            .iter()
            .all(|&i| t.rules.custom_rules[i as usize].filter_part(self, history, list));
        if judged && !list.is_empty() {
            return;
        }
        let whole = self.legal_moves_with_history(history);
        list.clear();
        for &m in whole.iter() {
            if self.is_capture_or_promotion(m) == captures {
                list.push(m);
            }
        }
    }

    /// The pseudo-legal moves of the custom rules for one part of the list: those that capture
    /// or promote ([`CustomRule::is_tactical`](super::special::CustomRule::is_tactical)) go with the
    /// captures, the others with the quiet moves.
    fn custom_pseudo_moves<const MODE: u8>(&self, list: &mut MoveList) {
        let t = self.tables;
        list.clear();
        for &i in &t.rules.custom_move_rules {
            t.rules.custom_rules[i as usize].extra_moves(self, i, list);
        }
        if MODE != mode::ALL {
            list.retain(|m| self.rule_move_is_tactical(m) == (MODE == mode::CAPTURES));
        }
    }

    /// The moves of the custom rules (of one part of the list) that leave the mover's king
    /// unattacked.
    fn custom_moves<S: Sink, const MODE: u8>(&self, sink: &mut S) {
        let us = self.turn;
        let t = self.tables;
        let mut moves = MoveList::new();
        self.custom_pseudo_moves::<MODE>(&mut moves);
        if moves.is_empty() {
            return;
        }
        let cl = self.attack_classes();
        for &m in &moves {
            if !sink.wants(m) {
                continue;
            }
            // A quiet king move changes nothing else: an attack test on its square suffices.
            if t.rules.custom_rules[m.rule_index()].is_quiet_king_move(self, m) {
                let occ = (self.occupied() ^ m.from().bb()) | m.to().bb();
                if !t.always_attacked.has(m.to()) && self.attackers_with(&cl, m.to(), !us, occ).is_empty() {
                    sink.add(m);
                }
                continue;
            }
            let after = self.after(m);
            if after.pieces(us, PieceKind::King).any() && !after.is_attacked(after.king(us), !us, after.occupied()) {
                sink.add(m);
            }
        }
    }

    /// Whether a rule move captures or promotes (by its rule's
    /// [`is_tactical`](super::special::CustomRule::is_tactical)); false for other moves and for rule
    /// moves of rules the variant does not have.
    pub fn rule_move_is_tactical(&self, m: Move) -> bool {
        m.kind() == MoveKind::Rule
            && self
                .tables
                .rules
                .custom_rules
                .get(m.rule_index())
                .is_some_and(|r| r.is_tactical(self, m))
    }

    /// Whether a move of this position captures or promotes (what training records flag and
    /// the search treats as tactical): en passant, promotions, moves onto an enemy piece, and
    /// rule moves as their rule says.
    pub fn is_capture_or_promotion(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Promotion | MoveKind::EnPassant => true,
            MoveKind::Castle | MoveKind::Rendezvous => false,
            MoveKind::Rule => self.rule_move_is_tactical(m),
            MoveKind::Normal | MoveKind::DoubleStep => self.piece_at(m.to()).is_some(),
        }
    }

    fn pins(&self, cl: &AttackClasses, king: Square, us: Color, occ: Bitboard) -> Pins {
        let t = self.tables;
        let them = !us;
        let mut pins = Pins {
            pinned: Bitboard::EMPTY,
            squares: [Square(0); MAX_PINS],
            lines: [Bitboard::EMPTY; MAX_PINS],
            len: 0,
        };
        let theirs = self.by_color[them];
        let snipers = ((t.orthogonal_rays(king) & cl.orthogonal) | (t.diagonal_rays(king) & cl.diagonal)) & theirs;
        for s in snipers {
            let between = t.between(king, s);
            let blockers = between & occ;
            if blockers.any()
                && !blockers.more_than_one()
                && (blockers & self.by_color[us]).any()
                && pins.len < MAX_PINS
            {
                pins.pinned |= blockers;
                pins.squares[pins.len] = blockers.lsb();
                pins.lines[pins.len] = between | s.bb();
                pins.len += 1;
            }
        }
        pins
    }

    /// Whether the generator judges this position's moves by playing them out
    /// ([`Position::generate_by_playing`]) rather than by the king's pins and checkers: always in
    /// variants that need it, and with square promotion while a stuck pawn of the opponent may
    /// wake next to the mover's king.
    #[inline]
    fn legal_by_playing_here(&self) -> bool {
        let t = self.tables;
        t.rules.legal_by_playing
            || t.rules
                .square_promotion
                .as_ref()
                .is_some_and(|sp| sp.king_zone_threatened(self))
    }

    /// Generates the legal moves (or only captures and promotions) into a sink.
    pub(crate) fn generate<S: Sink, const MODE: u8>(&self, sink: &mut S) {
        let captures_only = MODE == mode::CAPTURES;
        let quiets_only = MODE == mode::QUIETS;
        let t = self.tables;
        if self.legal_by_playing_here() {
            return self.generate_by_playing::<S, MODE>(sink);
        }
        let us = self.turn;
        let them = !us;
        let ours = self.by_color[us];
        let theirs = self.by_color[them];
        let occ = ours | theirs;
        let king = self.king(us);
        let checkers = self.checkers;
        let mut cl = self.slider_classes();
        if !t.rules.custom_move_rules.is_empty() {
            self.custom_moves::<S, MODE>(sink);
        }

        // King moves: each target tested with the king removed from the occupancy.
        let without_king = occ ^ king.bb();
        let mut king_targets =
            t.leaps[PieceKind::King][king.index()] & !ours & !t.forbidden[PieceKind::King] & !t.always_attacked;
        if captures_only {
            king_targets &= theirs;
        }
        if quiets_only {
            king_targets &= !theirs;
        }
        if king_targets.any() {
            self.add_leaper_classes(&mut cl);
        }
        for to in king_targets {
            let m = Move::new(king, to, MoveKind::Normal);
            if sink.wants(m) && self.attackers_with(&cl, to, them, without_king).is_empty() {
                sink.add(m);
            }
        }
        if checkers.more_than_one() {
            return;
        }

        // Squares a non-king move must reach: anywhere, or capture/block the single checker.
        let mut target = if checkers.any() {
            let checker = checkers.lsb();
            let mut block = Bitboard::EMPTY;
            if let Some(p) = self.piece_at(checker) {
                if t.slides_along(p.kind, king, checker) {
                    block = t.between(king, checker);
                }
            }
            checkers | block
        } else {
            !ours & t.geometry.playable
        };
        // Pawn pushes are not captures, but promoting ones belong to the captures-only list too.
        let push_target = target;
        if captures_only {
            target &= theirs;
        }
        if quiets_only {
            target &= !theirs;
        }

        let pins = self.pins(&cl, king, us, occ);

        for &kind in &t.officers {
            let allowed = target & !t.forbidden[kind];
            let pieces = self.pieces(us, kind);
            for from in pieces & !pins.pinned {
                sink.add_targets(from, t.straight_attacks(kind, from, occ) & allowed);
            }
            for from in pieces & pins.pinned {
                sink.add_targets(from, t.straight_attacks(kind, from, occ) & allowed & pins.line(from));
            }
        }

        let pawns = self.pieces(us, PieceKind::Pawn);
        if pawns.any() {
            let free = !occ & t.geometry.playable & !t.forbidden[PieceKind::Pawn] & push_target;
            let capturable = theirs & !t.forbidden[PieceKind::Pawn];
            self.pawn_moves::<S, MODE>(
                sink,
                pawns & !pins.pinned,
                free,
                capturable,
                target,
                occ,
                &ArrivalBan::NONE,
            );
            for from in pawns & pins.pinned {
                let line = pins.line(from);
                self.pawn_moves::<S, MODE>(
                    sink,
                    from.bb(),
                    free & line,
                    capturable,
                    target & line,
                    occ,
                    &ArrivalBan::NONE,
                );
            }
            if !quiets_only && self.ep.is_some() {
                for ep in self.en_passant_squares() {
                    for from in t.pawn_attacks[them][ep.index()] & pawns {
                        if self.en_passant_is_legal(from, ep) {
                            sink.add(Move::new(from, ep, MoveKind::EnPassant));
                        }
                    }
                }
            }
        }

        if captures_only || checkers.any() {
            return;
        }
        self.castling_moves(sink, occ, None);
        if let Some(r) = &t.rules.rendezvous {
            r.generate(self, sink);
        }
    }

    /// The generator of variants that judge moves by their royal pieces rather than by one
    /// king's pins and checkers ([`RuleSet::legal_by_playing`](super::rule_set::RuleSet::legal_by_playing):
    /// bent riders, royalty or arrival bans by a rule; and square promotion where a stuck pawn
    /// may wake next to the king). The same moves in the same order and parts (captures,
    /// quiets) as playing out every pseudo-legal move and keeping those that leave the mover's
    /// royal pieces unattacked.
    ///
    /// With no royal piece every pseudo-legal move is legal. With one, a move of another piece
    /// can expose it only by leaving a line through it (every blockable attack, the bent rides
    /// included, ends along one of the eight lines from the attacked square), so only the
    /// nearest piece of the mover on each line may be pinned: each is tested once, by taking it
    /// off the board. The royal piece's moves, the moves of pinned pieces and every move when
    /// it is in check are tested one by one on the occupancy after them; en passant, castling
    /// and the moves of rules are played out. The other moves go to the sink unlisted, which is
    /// what lets perft count the last ply in bulk.
    #[cold]
    #[inline(never)]
    fn generate_by_playing<S: Sink, const MODE: u8>(&self, sink: &mut S) {
        let t = self.tables;
        let us = self.turn;
        let royals = self.royals(us);
        if royals.more_than_one()
            || (royals & self.by_kind[PieceKind::Pawn]).any()
            || t.rules.square_promotion.is_some()
        {
            return self.generate_played_out::<S, MODE>(sink, royals);
        }
        let captures_only = MODE == mode::CAPTURES;
        let quiets_only = MODE == mode::QUIETS;
        let them = !us;
        let ours = self.by_color[us];
        let theirs = self.by_color[them];
        let occ = ours | theirs;
        let ban = self.arrival_ban();
        let mut target = !ours & t.geometry.playable;
        if captures_only {
            target &= theirs;
        }
        if quiets_only {
            target &= !theirs;
        }
        let cl = self.attack_classes();
        // The pieces whose moves are tested one by one: all when the royal piece is in check,
        // else the pinned ones.
        let mut tested = Bitboard::EMPTY;
        if royals.any() {
            let royal = royals.lsb();
            if self.checkers.any() || t.always_attacked.has(royal) {
                tested = ours;
            } else {
                let bent = cl.bent & theirs;
                for d in 0..8 {
                    let near = t.ray_attacks(d, royal, occ) & occ;
                    if (near & ours).is_empty() {
                        continue;
                    }
                    // What the nearest piece hides: the squares beyond it up to the next piece.
                    let beyond = t.ray_attacks(d, near.lsb(), occ);
                    let sliders = if is_orthogonal(d) { cl.orthogonal } else { cl.diagonal };
                    let pinned = if (beyond & sliders & theirs).any() {
                        true
                    } else {
                        // A bent ride springs off a square next to its rider; only a rider next
                        // to the hidden squares may use them.
                        let lane = (beyond & !occ) | near;
                        bent.iter().any(|b| (t.leaps[PieceKind::King][b.index()] & lane).any())
                            && self.attackers_with(&cl, royal, them, occ ^ near).any()
                    };
                    if pinned {
                        tested |= near;
                    }
                }
            }
        }
        // A simple move (one piece from `from` to `to`, perhaps capturing there) of a tested
        // piece: whether the royal piece stays unattacked.
        let keeps_safe = |from: Square, to: Square| {
            let royal = if royals.has(from) { to } else { royals.lsb() };
            let occ_after = (occ ^ from.bb()) | to.bb();
            !t.always_attacked.has(royal) && (self.attackers_with(&cl, royal, them, occ_after) & !to.bb()).is_empty()
        };

        for &kind in &t.kinds {
            if kind == PieceKind::Pawn {
                continue;
            }
            let allowed = target & !t.forbidden[kind] & !ban.squares_for(kind);
            for from in self.pieces(us, kind) {
                let targets = t.attacks(kind, from, occ) & allowed;
                if tested.has(from) || royals.has(from) {
                    for to in targets {
                        let m = Move::new(from, to, MoveKind::Normal);
                        if sink.wants(m) && keeps_safe(from, to) {
                            sink.add(m);
                        }
                    }
                } else {
                    sink.add_targets(from, targets);
                }
            }
        }
        let pawns = self.pieces(us, PieceKind::Pawn);
        if pawns.any() {
            let free = !occ & t.geometry.playable & !t.forbidden[PieceKind::Pawn] & !ban.squares_for(PieceKind::Pawn);
            let capturable = theirs & !t.forbidden[PieceKind::Pawn] & !ban.squares_for(PieceKind::Pawn);
            if (pawns & tested).any() {
                let mut kept = Kept {
                    sink: &mut *sink,
                    keep: |m: Move| !tested.has(m.from()) || keeps_safe(m.from(), m.to()),
                };
                self.pawn_moves::<_, MODE>(&mut kept, pawns, free, capturable, target, occ, &ban);
            } else {
                self.pawn_moves::<S, MODE>(sink, pawns, free, capturable, target, occ, &ban);
            }
            if !quiets_only && self.ep.is_some() {
                for ep in self.en_passant_squares() {
                    if ban.squares_for(PieceKind::Pawn).has(ep) {
                        continue;
                    }
                    for from in t.pawn_attacks[them][ep.index()] & pawns {
                        let m = Move::new(from, ep, MoveKind::EnPassant);
                        if sink.wants(m) && self.keeps_royals_safe_of(royals, m) {
                            sink.add(m);
                        }
                    }
                }
            }
        }
        self.special_moves_played_out::<S, MODE>(sink, occ, royals, &ban);
    }

    /// Castling, rendezvous and the moves of rules, each played out: kept when it leaves the
    /// mover's `royals` unattacked and its arrival is not banned.
    fn special_moves_played_out<S: Sink, const MODE: u8>(
        &self,
        sink: &mut S,
        occ: Bitboard,
        royals: Bitboard,
        ban: &ArrivalBan,
    ) {
        let t = self.tables;
        let mut kept = Kept {
            sink,
            keep: |m: Move| self.keeps_royals_safe_of(royals, m) && self.arrival_allowed(ban, m),
        };
        if MODE != mode::CAPTURES {
            self.castling_moves(&mut kept, occ, Some(royals));
            if let Some(r) = &t.rules.rendezvous {
                r.generate(self, &mut kept);
            }
        }
        if !t.rules.custom_move_rules.is_empty() {
            let mut moves = MoveList::new();
            self.custom_pseudo_moves::<MODE>(&mut moves);
            for &m in &moves {
                kept.add(m);
            }
        }
    }

    /// Whether the arrival of `m`'s moving piece (by its kind after the move) is not banned:
    /// for moves the generator does not mask by kind (castling, the moves of rules).
    fn arrival_allowed(&self, ban: &ArrivalBan, m: Move) -> bool {
        ban.kinds == 0
            || self
                .after(m)
                .piece_at(m.to())
                .is_none_or(|p| !ban.squares_for(p.kind).has(m.to()))
    }

    /// Every pseudo-legal move, kept when it leaves the mover's royal pieces (`royals`, those
    /// royal before the move) unattacked: what [`Position::generate_by_playing`] does where
    /// pins do not tell (several royal pieces, square promotion).
    fn generate_played_out<S: Sink, const MODE: u8>(&self, sink: &mut S, royals: Bitboard) {
        let captures_only = MODE == mode::CAPTURES;
        let quiets_only = MODE == mode::QUIETS;
        let t = self.tables;
        let us = self.turn;
        let them = !us;
        let ours = self.by_color[us];
        let theirs = self.by_color[them];
        let occ = ours | theirs;
        let ban = self.arrival_ban();
        let mut kept = Kept {
            sink: &mut *sink,
            keep: |m: Move| self.keeps_royals_safe_of(royals, m),
        };
        let mut target = !ours & t.geometry.playable;
        if captures_only {
            target &= theirs;
        }
        if quiets_only {
            target &= !theirs;
        }
        for &kind in &t.kinds {
            if kind == PieceKind::Pawn {
                continue;
            }
            let allowed = target & !t.forbidden[kind] & !ban.squares_for(kind);
            for from in self.pieces(us, kind) {
                kept.add_targets(from, t.attacks(kind, from, occ) & allowed);
            }
        }
        let pawns = self.pieces(us, PieceKind::Pawn);
        if pawns.any() {
            let free = !occ & t.geometry.playable & !t.forbidden[PieceKind::Pawn] & !ban.squares_for(PieceKind::Pawn);
            let capturable = theirs & !t.forbidden[PieceKind::Pawn] & !ban.squares_for(PieceKind::Pawn);
            self.pawn_moves::<_, MODE>(&mut kept, pawns, free, capturable, target, occ, &ban);
            if !quiets_only && self.ep.is_some() {
                for ep in self.en_passant_squares() {
                    if ban.squares_for(PieceKind::Pawn).has(ep) {
                        continue;
                    }
                    for from in t.pawn_attacks[them][ep.index()] & pawns {
                        kept.add(Move::new(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }
        self.special_moves_played_out::<S, MODE>(sink, occ, royals, &ban);
    }

    // The masks are worked out by each generator (pins, checks, bans); a struct for them would
    // only rename the arguments of this inlined helper.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pawn_moves<S: Sink, const MODE: u8>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        free: Bitboard,
        capturable: Bitboard,
        target: Bitboard,
        occ: Bitboard,
        ban: &ArrivalBan,
    ) {
        let t = self.tables;
        let us = self.turn;
        let push = t.pawn_push[us];
        let promo = self.promotion_squares(us);
        let kinds = t.promotion_kinds;

        // `free` is already limited to the squares a push may reach (check evasions, pins).
        let pushes = shift(pawns, push) & free;
        if MODE != mode::QUIETS {
            self.promotions(sink, pushes & promo, push, kinds, ban);
        }
        if MODE != mode::CAPTURES {
            sink.add_pawn_moves(pushes & !promo, push, MoveKind::Normal);
            let first = shift(pawns & t.double_step_squares(us, self.rights), push) & !occ & t.geometry.playable;
            let double = shift(first, push) & free & target;
            sink.add_pawn_moves(double, 2 * push, MoveKind::DoubleStep);
            if t.first_step_max > 2 {
                let second = shift(first, push) & !occ & t.geometry.playable;
                let triple = shift(second, push) & free & target;
                sink.add_pawn_moves(triple, 3 * push, MoveKind::DoubleStep);
            }
        }
        if MODE == mode::QUIETS {
            return;
        }
        let left = shift(pawns & t.not_first_file, push - 1) & capturable & target;
        let right = shift(pawns & t.not_last_file, push + 1) & capturable & target;
        self.promotions(sink, left & promo, push - 1, kinds, ban);
        sink.add_pawn_moves(left & !promo, push - 1, MoveKind::Normal);
        self.promotions(sink, right & promo, push + 1, kinds, ban);
        sink.add_pawn_moves(right & !promo, push + 1, MoveKind::Normal);
    }

    /// Promotions onto `targets`, each from `to - delta`: to each of the variant's kinds, or as
    /// its promotion rule says; none that the arrival ban forbids.
    #[inline(always)]
    fn promotions<S: Sink>(&self, sink: &mut S, targets: Bitboard, delta: i32, kinds: &[PieceKind], ban: &ArrivalBan) {
        if targets.is_empty() {
            return;
        }
        match (&self.tables.rules.square_promotion, &self.tables.rules.releases) {
            (Some(sp), _) => sp.add_promotions(self, sink, targets, delta),
            (None, Some(r)) => r.add_promotions(self, sink, targets, delta, ban),
            (None, None) if ban.kinds == 0 => sink.add_promotions(targets, delta, kinds),
            (None, None) => {
                for &k in kinds {
                    sink.add_promotions(targets & !ban.squares_for(k), delta, &[k]);
                }
            }
        }
    }

    /// The castling moves. `played_out`: `None` for the direct generator (the king is royal;
    /// its squares and its arrival are tested here); `Some(royals)` for the generator that
    /// plays moves out (the arrival is tested then; the squares are tested only when the
    /// castling piece is royal, so a piece that is not castles through attacks).
    fn castling_moves<S: Sink>(&self, sink: &mut S, occ: Bitboard, played_out: Option<Bitboard>) {
        let t = self.tables;
        let us = self.turn;
        let them = !us;
        for (i, c) in t.castling.iter().enumerate() {
            if self.rights & (1 << i) == 0 || c.color != us || (c.must_be_empty & occ).any() {
                continue;
            }
            let royal = played_out.is_none_or(|royals| royals.has(c.king_from));
            if royal && c.must_be_safe.iter().any(|sq| self.is_attacked(sq, them, occ)) {
                continue;
            }
            if played_out.is_none() {
                let after = (occ ^ c.king_from.bb() ^ c.rook_from.bb()) | c.king_to.bb() | c.rook_to.bb();
                if self.is_attacked(c.king_to, them, after) {
                    continue;
                }
            }
            sink.add(Move::new(c.king_from, c.king_to, MoveKind::Castle));
        }
    }
}

impl Position {
    /// As [`Position::is_legal_move`], with the legality filters that read the game's earlier
    /// positions (`history`, oldest first; Parsi's perpetual-check ban) applied as
    /// [`Position::legal_moves_with_history`] applies them: a move from a hash table or a killer
    /// slot may be legal in the bare position and still forbidden in the game.
    pub fn is_legal_move_with_history(&self, m: Move, history: &[u64]) -> bool {
        if !self.is_legal_move(m) {
            return false;
        }
        if !self.moves_depend_on_history() {
            return true;
        }
        let ordinary = matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep) || self.is_ordinary_rule_move(m);
        if ordinary && self.filters_spare_ordinary_moves(history) {
            return true;
        }
        // The filters that do not read the history kept `m` above and judge it the same here.
        self.filters_keep(m, history, true)
    }

    /// Whether `m` is in [`Position::legal_moves_unfiltered`], without testing the other moves
    /// where the generator plays moves out to test them.
    fn generates(&self, m: Move) -> bool {
        let mut finder = Finder {
            wanted: m,
            found: false,
        };
        self.generate::<Finder, { mode::ALL }>(&mut finder);
        finder.found
    }

    /// Whether the legality filters keep `m`, a move legal by the other rules, after `history`
    /// (`history_readers_only`: only the filters that read it), as filtering the whole legal list
    /// would. Each filter judges `m` alone where it can
    /// ([`CustomRule::filter_part`](super::special::CustomRule::filter_part)): a move no filter
    /// forbids is in the filtered list whatever the other moves are. A forbidden move may still
    /// be legal by a filter's fallback (nothing else to play), and a filter may be unable to
    /// judge a part: then the whole list is filtered. Judging one move costs the filters' tests
    /// for that move, not for every move of the position (Parsi's stalemate ban plays each move
    /// out).
    fn filters_keep(&self, m: Move, history: &[u64], history_readers_only: bool) -> bool {
        let t = self.tables;
        let mut one = MoveList::new();
        one.push(m);
        let judged = t
            .rules
            .custom_filter_rules
            .iter()
            .map(|&i| t.rules.custom_rules[i as usize])
            .filter(|r| !history_readers_only || r.reads_history())
            .all(|r| r.filter_part(self, history, &mut one));
        (judged && !one.is_empty()) || self.legal_moves_with_history(history).contains(m)
    }

    /// Whether `m` is a legal move here. Meant for moves from elsewhere (a hash table, a killer
    /// slot) that may belong to another position: ordinary moves are checked directly, special
    /// moves against the generated list. The filters that read the game's history are not
    /// applied ([`Position::is_legal_move_with_history`] applies them).
    pub fn is_legal_move(&self, m: Move) -> bool {
        let t = self.tables;
        let (from, to) = (m.from(), m.to());
        if m.is_null() || from.index() >= t.geometry.cells() || to.index() >= t.geometry.cells() {
            return false;
        }
        // The direct test is the generator's own reasoning for ordinary moves (pins and
        // checkers), so it holds where the generator does not play moves out. Not during an
        // opening series, where the side to move may stand in check from before its move.
        let direct = matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
            && t.first_step_max <= 2
            && t.rules.opening_series.is_none()
            && !self.legal_by_playing_here();
        let unfiltered = if direct {
            self.is_legal_directly(m)
        } else {
            self.generates(m)
        };
        unfiltered && (t.rules.custom_filter_rules.is_empty() || self.filters_keep(m, &[], false))
    }

    /// The direct test of an ordinary move or double step (see [`Position::is_legal_move`]).
    fn is_legal_directly(&self, m: Move) -> bool {
        let t = self.tables;
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let double_step = m.kind() == MoveKind::DoubleStep;
        if m != Move::new(from, to, m.kind()) {
            return false;
        }
        let Some(piece) = self.piece_at(from) else { return false };
        if piece.color != us || self.by_color[us].has(to) || t.forbidden[piece.kind].has(to) {
            return false;
        }
        let occ = self.occupied();
        let reachable = match piece.kind {
            PieceKind::Pawn if double_step => {
                let skipped = from.0 as i32 + t.pawn_push[us];
                t.double_step_squares(us, self.rights).has(from)
                    && to.0 as i32 == skipped + t.pawn_push[us]
                    && t.geometry.is_playable(Square(skipped as u8))
                    && !occ.has(Square(skipped as u8))
                    && !occ.has(to)
            }
            _ if double_step => false,
            PieceKind::Pawn => {
                if self.promotion_squares(us).has(to) {
                    return false;
                }
                let push = from.0 as i32 + t.pawn_push[us];
                (to.0 as i32 == push && !occ.has(to))
                    || (t.pawn_attacks[us][from.index()].has(to) && self.by_color[!us].has(to))
            }
            PieceKind::King => t.leaps[PieceKind::King][from.index()].has(to) && !t.always_attacked.has(to),
            kind => t.straight_attacks(kind, from, occ).has(to),
        };
        if !reachable || !t.geometry.is_playable(to) {
            return false;
        }
        // Out of check, a piece other than the king can only expose its king along a line
        // through `from` (sliders) or by opening a bent ride: with `from` on no line of the
        // king and no enemy bent rider, the king stays safe.
        let kings = self.pieces(us, PieceKind::King);
        if piece.kind != PieceKind::King
            && !self.in_check()
            && kings.any()
            && t.direction[kings.lsb().index()][from.index()] == NO_DIRECTION
            && t.bent_riders
                .iter()
                .all(|&k| (self.by_kind[k] & self.by_color[!us]).is_empty())
        {
            return true;
        }
        // The mover's king must not be attacked afterwards; a piece taken on `to` attacks
        // nothing any more.
        let (king, occ_after) = if piece.kind == PieceKind::King {
            (to, occ ^ from.bb())
        } else {
            (self.king(us), (occ ^ from.bb()) | to.bb())
        };
        (self.attackers(king, !us, occ_after) & !to.bb()).is_empty()
    }
}
