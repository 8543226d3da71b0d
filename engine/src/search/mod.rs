//! Alpha-beta search: iterative deepening, principal variation search with aspiration windows,
//! a transposition table, quiescence search with SEE, null-move pruning, late-move reductions,
//! killer/history/countermove ordering, check extensions and mate-distance pruning. The game's
//! ends are asked of the position in rule-neutral terms (`Position::immediate_outcome`, the
//! move-count rule, dead material, no legal move) and scored as terminal; repetition is the
//! search's own test against the game's and the line's positions.
//!
//! The search never prints: it reports through a callback ([`Searcher::search`]).

pub mod params;
mod picker;
pub mod see;
pub mod time;
pub mod tt;

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use crate::{
    eval::{self, nnue::NnueNet},
    rules::{piece::KIND_COUNT, Bitboard, Color, Move, MoveKind, Outcome, Piece, PieceKind, Position},
};
use params::SearchParams;
use picker::{Picker, SCORE_COUNTER, SCORE_TT};
use tt::{Bound, TranspositionTable};

/// Largest search depth in plies.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
const INF: i32 = 32_500;

/// A score as reported to users.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// The user-facing form of an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s + 1) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

impl Score {
    /// Centipawns from White's point of view, with mates beyond every centipawn threshold
    /// (a mate in n for White is 100,000 - n); `turn` is the side the score belongs to.
    pub fn white_cp(self, turn: crate::rules::Color) -> i32 {
        let own = match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        };
        if turn == crate::rules::Color::White {
            own
        } else {
            -own
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// What limits a search. Unset fields do not limit.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time budget (from the clocks or a fixed move time).
    pub budget: Option<time::Budget>,
    /// Search for a mate in this many moves, then stop.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Number of principal variations.
    pub multipv: usize,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Index of this line, from 1.
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Whether the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table fill, permille.
    pub hashfull: u32,
    /// Elapsed time.
    pub time: Duration,
    /// The line.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (null only when there is no legal move).
    pub best: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Search state of one thread: history tables and the like, kept between searches of a game.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    /// Nodes searched by all threads (for node limits shared across threads).
    shared_nodes: Arc<AtomicU64>,
    nodes: u64,
    seldepth: usize,
    start: Instant,
    limits: Limits,
    stopped: bool,
    path: Vec<u64>,
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Box<[[[i32; 128]; 128]; 2]>,
    /// Capture history (`cap_hist`): by side, moving kind, target cell and captured kind.
    cap_history: Box<[i32]>,
    counter: Box<[[Move; 128]; 128]>,
    /// Continuation history (`cont_hist`; empty while it is off): by side to move, the piece and
    /// target of the move one or two plies before, and the kind and target of the quiet move.
    cont_history: tt::HugeBuffer<i16>,
    /// The continuation history's rows written since it was last cleared, a bit each: `clear`
    /// zeroes only those (a game's search writes a few hundred of its 8,192 rows, and zeroing
    /// all 32 MB took longer than a short search).
    cont_written: Box<[u64; CONT_ROWS / 64]>,
    /// Correction history (`corr_hist`): three tables by side to move, keyed by the pawns, by
    /// White's other pieces and by Black's, each entry how far the search's scores stood from
    /// the static evaluation in such positions; then (`corr_cont`) a fourth, keyed by the pieces
    /// and targets of the two moves before the node.
    corr_history: Box<[i16]>,
    /// Pawn history (`pawn_hist`; empty while it is off): by side to move, a bucket of the
    /// pawns' cells, and the kind and target of the quiet move.
    pawn_history: Vec<i16>,
    prev_move: [Move; MAX_PLY + 2],
    /// The piece and target of the move into each ply ([`cont_slot`]; `NO_SLOT` for a null move;
    /// quiescence's plies only with `corr_cont`).
    prev_slot: [u16; MAX_PLY + 2],
    /// Whether the move into each ply of the current line was quiet (`prior_bonus`).
    prev_quiet: [bool; MAX_PLY + 2],
    /// The move a singular-extension test leaves out at each ply (null: none).
    excluded: [Move; MAX_PLY + 2],
    /// Double singular extensions along the current line up to each ply (`se_double`).
    double_ext: [u8; MAX_PLY + 2],
    /// Cutoffs counted at each ply since the node two plies above started (`cut_cnt`).
    cutoffs: [u8; MAX_PLY + 3],
    /// The static evaluation at each ply of the current line (`-INF` in check).
    evals: [i32; MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[i32; 64]; 64]>,
    /// Move pickers kept between searches, two per ply (see `negamax`).
    pickers: Vec<Option<Box<Picker>>>,
    eval_cache: Box<[(u64, i32)]>,
    pawn_cache: eval::PawnCache,
    nnue: Option<Arc<NnueNet>>,
    accumulators: Vec<nnue::Accumulator>,
    root_excluded: Vec<Move>,
    /// Nodes searched below each root move in this search so far (`tm_nodes`).
    root_effort: Vec<(Move, u64)>,
    main_thread: bool,
    /// The tunable constants as set ([`Searcher::set_params`]): those set by name hold in every
    /// game, the others are each game's defaults.
    user_params: SearchParams,
    /// The tunable constants in use (margins, reductions, history bonus): `user_params` for the
    /// game of the last search ([`SearchParams::for_game`]).
    params: SearchParams,
}

const EVAL_CACHE_SIZE: usize = 1 << 16;
/// The most double singular extensions along one line (they make the tree grow fast).
const MAX_DOUBLE_EXTENSIONS: u8 = 6;
const HISTORY_MAX: i32 = 16_384;
/// Futility pruning of captures (`cap_fut`): the deepest depth it applies at, and its margin
/// before the per-ply part (cp).
const CAP_FUT_DEPTH: i32 = 6;
const CAP_FUT_BASE: i32 = 200;
const CAP_HISTORY_SIZE: usize = 2 * KIND_COUNT * 128 * KIND_COUNT;
/// The continuation history's rows: one per side to move and earlier move's piece and target.
/// (The side to move is not implied by the earlier piece's colour: with it, the move one ply
/// before and the move two plies before have rows of their own.)
const CONT_PIECE_SLOTS: usize = 2 * KIND_COUNT * 128;
/// Its columns: one per kind and target of the quiet move (its colour is the side to move's).
const CONT_MOVE_SLOTS: usize = KIND_COUNT * 128;
/// Its rows in all (by side to move and earlier move).
const CONT_ROWS: usize = 2 * CONT_PIECE_SLOTS;
const CONT_HISTORY_SIZE: usize = CONT_ROWS * CONT_MOVE_SLOTS;
/// The correction history's entries per table (both sides to move: 2 x 2^13).
const CORR_SIZE: usize = 1 << 14;
/// The entries of the continuation correction table (`corr_cont`), after the three others.
const CORR_CONT_SIZE: usize = 1 << 16;
/// Its entries' bound; a table's full entry moves the evaluation by `CORR_LIMIT / 20` cp at
/// `corr_hist` 100.
const CORR_LIMIT: i32 = 1024;
/// The pawn history's buckets of pawn cells (`pawn_hist`), and its entries (both sides to move).
const PAWN_HIST_BUCKETS: usize = 512;
const PAWN_HISTORY_SIZE: usize = 2 * PAWN_HIST_BUCKETS * CONT_MOVE_SLOTS;
/// No move (a null move, or before the root) in `prev_slot`.
const NO_SLOT: u16 = u16::MAX;

/// The score of a game that has ended at `ply`, from the side to move's view: 0 for a draw,
/// a mate score for a decided game (the nearer the better for the winner).
fn outcome_score(outcome: Outcome, pos: &Position, ply: usize) -> i32 {
    match outcome.winner() {
        None => 0,
        Some(winner) if winner == pos.turn() => MATE - ply as i32,
        Some(_) => -MATE + ply as i32,
    }
}

fn is_tactical(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || m.kind() == MoveKind::Promotion || pos.rule_move_is_tactical(m)
}

/// The kind of piece a move lands on: the pawn taken en passant, or what stands on its target
/// (`None`: an empty cell).
#[inline]
fn victim_kind(pos: &Position, m: Move) -> Option<PieceKind> {
    if m.kind() == MoveKind::EnPassant {
        Some(PieceKind::Pawn)
    } else {
        pos.piece_at(m.to()).map(|p| p.kind)
    }
}

/// The exchange value of [`victim_kind`] (0: none).
#[inline]
fn victim_value(pos: &Position, m: Move) -> i32 {
    victim_kind(pos, m).map_or(0, |k| eval::exchange_values(pos.tables()).of(k))
}

fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| eval::exchange_values(pos.tables()).of(p.kind));
    victim_value(pos, m) * 16 - attacker / 16
}

impl Searcher {
    /// A searcher using a shared table and stop flag.
    pub fn new(tt: Arc<TranspositionTable>, stop: Arc<AtomicBool>) -> Searcher {
        let params = SearchParams::default();
        let mut lmr = Box::new([[0; 64]; 64]);
        fill_lmr(&mut lmr, &params);
        Searcher {
            tt,
            stop,
            shared_nodes: Arc::new(AtomicU64::new(0)),
            nodes: 0,
            seldepth: 0,
            start: Instant::now(),
            limits: Limits::default(),
            stopped: false,
            path: Vec::with_capacity(1024),
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 128]; 128]; 2]),
            cap_history: vec![0; CAP_HISTORY_SIZE].into_boxed_slice(),
            counter: Box::new([[Move::NULL; 128]; 128]),
            // The continuation history's 32 MB are taken only when it is used.
            cont_history: if params.cont_hist != 0 {
                tt::HugeBuffer::zeroed(CONT_HISTORY_SIZE)
            } else {
                tt::HugeBuffer::empty()
            },
            cont_written: Box::new([0; CONT_ROWS / 64]),
            corr_history: vec![0; 3 * CORR_SIZE + CORR_CONT_SIZE].into_boxed_slice(),
            pawn_history: Vec::new(),
            prev_move: [Move::NULL; MAX_PLY + 2],
            prev_slot: [NO_SLOT; MAX_PLY + 2],
            prev_quiet: [false; MAX_PLY + 2],
            excluded: [Move::NULL; MAX_PLY + 2],
            double_ext: [0; MAX_PLY + 2],
            cutoffs: [0; MAX_PLY + 3],
            evals: [-INF; MAX_PLY + 2],
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            lmr,
            pickers: (0..2 * (MAX_PLY + 2)).map(|_| None).collect(),
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE].into_boxed_slice(),
            pawn_cache: eval::PawnCache::default(),
            nnue: None,
            accumulators: Vec::new(),
            root_excluded: Vec::new(),
            root_effort: Vec::new(),
            main_thread: true,
            user_params: params.clone(),
            params,
        }
    }

    /// Sets the tunable constants of the search: the values set by name hold in every game, the
    /// others are the defaults of the game searched ([`SearchParams::for_game`]).
    pub fn set_params(&mut self, params: &SearchParams) {
        self.user_params = params.clone();
        self.use_params(params);
    }

    /// Makes `params` the constants in use.
    fn use_params(&mut self, params: &SearchParams) {
        if *params != self.params {
            self.params = params.clone();
            fill_lmr(&mut self.lmr, &self.params);
        }
        // The continuation history's 32 MB are taken only when it is used.
        if self.params.cont_hist != 0 && self.cont_history.is_empty() {
            self.cont_history = tt::HugeBuffer::zeroed(CONT_HISTORY_SIZE);
        }
        if self.params.pawn_hist != 0 && self.pawn_history.is_empty() {
            self.pawn_history = vec![0; PAWN_HISTORY_SIZE];
        }
    }

    /// The tunable constants in use (after a search: for its game).
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Makes this searcher a helper thread (it reports nothing and obeys only the stop flag).
    pub fn set_helper(&mut self, shared_nodes: Arc<AtomicU64>) {
        self.main_thread = false;
        self.shared_nodes = shared_nodes;
    }

    /// Chooses the evaluation: a net, or the hand-crafted evaluation with `None`.
    pub fn set_nnue(&mut self, net: Option<Arc<NnueNet>>) {
        let same = match (&self.nnue, &net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.accumulators = match &net {
                Some(n) => (0..MAX_PLY + 2).map(|_| n.accumulator()).collect(),
                None => Vec::new(),
            };
            self.nnue = net;
            self.eval_cache.fill((0, 0));
            self.pawn_cache.clear();
        }
    }

    /// Shares a node counter with other threads (the node limit then counts all threads).
    pub fn set_shared_nodes(&mut self, shared_nodes: Arc<AtomicU64>) {
        self.shared_nodes = shared_nodes;
    }

    /// Forgets the history of earlier searches (new game).
    pub fn clear(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
        for c in self.history.iter_mut() {
            for row in c.iter_mut() {
                row.fill(0);
            }
        }
        for row in self.counter.iter_mut() {
            row.fill(Move::NULL);
        }
        self.cap_history.fill(0);
        for (w, bits) in self.cont_written.iter_mut().enumerate() {
            while *bits != 0 {
                let row = (w * 64 + bits.trailing_zeros() as usize) * CONT_MOVE_SLOTS;
                self.cont_history[row..row + CONT_MOVE_SLOTS].fill(0);
                *bits &= *bits - 1;
            }
        }
        self.corr_history.fill(0);
        self.pawn_history.fill(0);
        // The evaluation cache is emptied too: the hand-crafted evaluation's lazy results
        // (cut short outside the window) are not cached, so a full result cached by an earlier
        // game can stand where a fresh search would compute a lazy one, and the same search
        // could go differently after `ucinewgame`. The pawn cache stays: its entries are keyed
        // by the pawns (and variant) and hold what would be computed again. Both are emptied
        // when the evaluation itself changes (`set_nnue`).
        self.eval_cache.fill((0, 0));
    }

    /// Nodes searched in the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `pos`, reached after the positions whose hashes are `history` (oldest first), and
    /// reports each completed iteration through `report`.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: Limits,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.limits = limits;
        self.limits.multipv = self.limits.multipv.max(1);
        self.path.clear();
        self.path.extend_from_slice(history);
        self.path.push(pos.hash());
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
        self.root_effort.clear();
        let params = self.user_params.for_game(pos.tables().spec);
        self.use_params(&params);
        if let Some(net) = &self.nnue {
            if Some(net.variant) != pos.registered_variant() {
                // A net for another variant must never evaluate this one.
                self.nnue = None;
                self.accumulators.clear();
            } else {
                net.refresh(&mut self.accumulators[0], pos);
            }
        }

        let mut root_moves: Vec<Move> = pos.legal_moves_with_history(history).iter().copied().collect();
        if !self.limits.searchmoves.is_empty() {
            root_moves.retain(|m| self.limits.searchmoves.contains(m));
        }
        if root_moves.is_empty() {
            let score = if pos.in_check() { Score::Mate(0) } else { Score::Cp(0) };
            return SearchResult {
                best: Move::NULL,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let multipv = self.limits.multipv.min(root_moves.len());
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_PLY as i32 - 4, |d| (d as i32).clamp(1, MAX_PLY as i32 - 4));

        let mut best = SearchResult {
            best: root_moves[0],
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: vec![root_moves[0]],
        };
        let mut prev_scores = vec![0i32; multipv];
        let mut pacer = time::Pacer::new();
        'deepening: for depth in 1..=max_depth {
            self.root_excluded.clear();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            for prev_score in prev_scores.iter_mut() {
                self.seldepth = 0;
                let mut delta = self.params.asp_delta;
                let (mut alpha, mut beta) = if depth >= 5 {
                    (*prev_score - delta, *prev_score + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = self.negamax(pos, alpha, beta, depth, 0, false);
                    if self.stopped {
                        break s;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INF);
                    } else if s >= beta {
                        beta = (s + delta).min(INF);
                    } else {
                        break s;
                    }
                    delta += delta / 2;
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                };
                // A partial iteration is discarded, except a first iteration that found a line
                // and, with `partial`, one whose root search completed a move that raised alpha:
                // that move beat every move searched before it at the new depth (the previous
                // best first), so it is played with its line.
                if self.stopped
                    && (!lines.is_empty()
                        || self.pv_len[0] == 0
                        || (depth > 1 && (self.params.partial == 0 || multipv > 1)))
                {
                    break 'deepening;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                let pv = if pv.is_empty() { vec![root_moves[0]] } else { pv };
                *prev_score = score;
                self.root_excluded.push(pv[0]);
                lines.push((score, pv));
            }
            // Lines searched later may score higher than earlier ones (reductions differ):
            // report them best first.
            lines.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            for (i, (score, pv)) in lines.iter().enumerate() {
                if self.main_thread {
                    let elapsed = self.start.elapsed();
                    let nodes = self.total_nodes();
                    report(&SearchInfo {
                        depth: depth as u32,
                        seldepth: self.seldepth as u32,
                        multipv: i + 1,
                        score: Score::from_internal(*score),
                        bound: None,
                        nodes,
                        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                        hashfull: self.tt.hashfull(),
                        time: elapsed,
                        pv: pv.clone(),
                    });
                }
            }
            if let Some((score, pv)) = lines.first() {
                pacer.iteration(depth > 1 && pv[0] != best.best, *score);
                best = SearchResult {
                    best: pv[0],
                    ponder: pv.get(1).copied(),
                    score: Score::from_internal(*score),
                    depth: depth as u32,
                    nodes: self.nodes,
                    pv: pv.clone(),
                };
                if let (Some(mate), Score::Mate(m)) = (self.limits.mate, best.score) {
                    if m > 0 && m as u32 <= mate {
                        break;
                    }
                }
                if !self.limits.infinite {
                    if let Score::Mate(m) = best.score {
                        // A found mate cannot improve much; stop once the depth proves it.
                        if depth > 2 * m.abs() + 4 && self.limits.depth.is_none() && self.limits.nodes.is_none() {
                            break;
                        }
                    }
                }
            }
            // A partial iteration kept above ends the search.
            if self.stopped {
                break;
            }
            if let Some(b) = self.limits.budget {
                if !self.limits.infinite {
                    // On a clock, a single legal move needs no thought.
                    if b.adjust && root_moves.len() == 1 {
                        break;
                    }
                    let mut scale = f64::from(self.params.tm_soft) / 100.0;
                    if self.params.tm_nodes > 0 {
                        let effort = self.root_effort.iter().find(|e| e.0 == best.best).map_or(0, |e| e.1);
                        let share = effort as f64 / self.nodes.max(1) as f64;
                        scale *= time::effort_factor(share, self.params.tm_nodes);
                    }
                    if self.start.elapsed() >= pacer.soft_limit_scaled(b, scale) {
                        break;
                    }
                }
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        best.nodes = self.nodes;
        // Never return a move that is not legal at the root.
        if !root_moves.contains(&best.best) {
            best.best = root_moves[0];
            best.ponder = None;
        }
        best
    }

    fn total_nodes(&self) -> u64 {
        self.shared_nodes.load(Ordering::Relaxed).max(self.nodes)
    }

    #[inline]
    fn check_stop(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        self.shared_nodes.fetch_add(1024, Ordering::Relaxed);
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if !self.main_thread {
            return;
        }
        if let Some(n) = self.limits.nodes {
            if self.total_nodes() >= n {
                self.stopped = true;
            }
        }
        if let Some(b) = self.limits.budget {
            if !self.limits.infinite && self.start.elapsed() >= b.hard {
                self.stopped = true;
            }
        }
    }

    fn node_limit_reached(&self) -> bool {
        self.main_thread && self.limits.nodes.is_some_and(|n| self.nodes >= n)
    }

    /// The hashes of the positions before the current node's, oldest first: the game's
    /// history, then the search path (for the legality filters of rules that look at the game).
    #[inline]
    fn earlier_positions(&self) -> &[u64] {
        &self.path[..self.path.len().saturating_sub(1)]
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let h = pos.hash();
        let n = self.path.len();
        let window = (pos.halfmove_clock() as usize).min(n.saturating_sub(1));
        let mut i = 2;
        while i <= window {
            if self.path[n - 1 - i] == h {
                return true;
            }
            i += 2;
        }
        false
    }

    /// The static evaluation, through a small cache of recent evaluations.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if let Some(net) = &self.nnue {
            return self.net_scaled(net.evaluate(&self.accumulators[ply], pos), pos) + eval::lone_king_drive(pos);
        }
        let key = eval_key(pos);
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let v = eval::evaluate_cached(pos, &mut self.pawn_cache) + eval::lone_king_drive(pos);
        *slot = (key, v);
        v
    }

    /// The net's evaluation `v` scaled toward a draw as the 50-move clock runs (`net_r50`).
    #[inline]
    fn net_scaled(&self, v: i32, pos: &Position) -> i32 {
        let v = if self.params.net_scale == 100 {
            v
        } else {
            v * self.params.net_scale / 100
        };
        let s = self.params.net_r50;
        if s == 0 {
            return v;
        }
        let clock = (pos.halfmove_clock() as i32).min(s);
        v * (s - clock) / s
    }

    /// Starts fetching what the child after `m` reads first: its table bucket and, with the
    /// hand-crafted evaluation, its evaluation-cache slot.
    #[inline(always)]
    fn prefetch_child(&self, pos: &Position, m: Move) {
        let hash = pos.hash_after(m);
        self.tt.prefetch(hash);
        if self.nnue.is_none() {
            let key = hash ^ variant_mix(pos);
            tt::prefetch(&self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)]);
        }
    }

    /// The lazy evaluation (see [`eval::evaluate_lazy`]), through the cache.
    #[inline]
    fn evaluate_lazy(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> (i32, bool) {
        if let Some(net) = &self.nnue {
            return (
                self.net_scaled(net.evaluate(&self.accumulators[ply], pos), pos) + eval::lone_king_drive(pos),
                true,
            );
        }
        let key = eval_key(pos);
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key {
            return (slot.1, true);
        }
        let (v, full) = eval::evaluate_lazy(pos, alpha, beta, &mut self.pawn_cache);
        let v = v + eval::lone_king_drive(pos);
        if full {
            *slot = (key, v);
        }
        (v, full)
    }

    /// With a net: the child's accumulator from the parent's and the move.
    #[inline]
    fn update_accumulator(&mut self, pos: &Position, m: Move, ply: usize) {
        if let Some(net) = &self.nnue {
            let delta = pos.move_delta(m);
            let (parent, rest) = self.accumulators.split_at_mut(ply + 1);
            net.update(&mut rest[0], &parent[ply], pos, &delta);
        }
    }

    /// The line of `ply` becomes `m` followed by the line of the child.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The bonus of a history entry after a cutoff at `depth` (the moves tried before lose as
    /// much): the quiet and the capture histories share it.
    #[inline]
    fn history_bonus(&self, depth: i32) -> i32 {
        let p = &self.params;
        // `hist_lin`: linear in the depth instead of its square.
        let raw = if p.hist_lin > 0 {
            p.hist_lin * depth
        } else {
            depth * depth * p.hist_bonus
        };
        raw.min(p.hist_bonus_max)
    }

    fn update_history(&mut self, pos: &Position, best: Move, quiets: &[Move], depth: i32, ply: usize) {
        let us = pos.turn().index();
        let bonus = self.history_bonus(depth);
        // `hist_malus`: what the quiets searched before the cutoff lose, in percent of the bonus.
        let malus = bonus * self.params.hist_malus / 100;
        age_history(&mut self.history[us][best.from().index()][best.to().index()], bonus);
        for &q in quiets {
            if q != best {
                age_history(&mut self.history[us][q.from().index()][q.to().index()], -malus);
            }
        }
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        let prev = self.prev_move[ply];
        if !prev.is_null() {
            self.counter[prev.from().index()][prev.to().index()] = best;
        }
        if self.params.cont_hist != 0 {
            let best_column = cont_column(pos, best);
            for row in self.cont_rows(pos, ply).into_iter().flatten() {
                let r = row / CONT_MOVE_SLOTS;
                self.cont_written[r / 64] |= 1 << (r % 64);
                if let Some(i) = best_column {
                    age_history_i16(&mut self.cont_history[row + i], bonus);
                }
                for &q in quiets {
                    if let Some(i) = cont_column(pos, q).filter(|_| q != best) {
                        age_history_i16(&mut self.cont_history[row + i], -malus);
                    }
                }
            }
        }
        if self.params.pawn_hist != 0 {
            let row = Self::pawn_row(pos);
            if let Some(i) = cont_column(pos, best) {
                age_history_i16(&mut self.pawn_history[row + i], bonus);
            }
            for &q in quiets {
                if let Some(i) = cont_column(pos, q).filter(|_| q != best) {
                    age_history_i16(&mut self.pawn_history[row + i], -malus);
                }
            }
        }
    }

    /// The pawn history's row for the side to move in `pos` (`pawn_hist`): by a bucket of
    /// both sides' pawn cells; a quiet move's entry is at its [`cont_column`].
    #[inline]
    pub(super) fn pawn_row(pos: &Position) -> usize {
        let pawns = pos.kind_bb(PieceKind::Pawn).0;
        let white = pos.color_bb(Color::White).0;
        let black = pos.color_bb(Color::Black).0;
        let bucket = (mix_cells(pawns & white, pawns & black) >> 55) as usize;
        debug_assert!(bucket < PAWN_HIST_BUCKETS);
        (pos.turn().index() * PAWN_HIST_BUCKETS + bucket) * CONT_MOVE_SLOTS
    }

    /// What the pawn history adds to a quiet move's ordering score (`pawn_hist`: percent of
    /// its entry at `row`, [`Self::pawn_row`]).
    #[inline]
    pub(super) fn pawn_bonus(&self, pos: &Position, row: usize, m: Move) -> i32 {
        cont_column(pos, m).map_or(0, |i| self.pawn_history[row + i] as i32 * self.params.pawn_hist / 100)
    }

    /// The continuation history's rows for a quiet move at `ply` (`cont_hist`): those of the
    /// moves one and two plies before, and with `cont_ply4` the move four plies before (which
    /// shares the rows of our own moves with the move two plies before; `None`: a null move,
    /// before the root, or `cont_ply4` off).
    #[inline]
    pub(super) fn cont_rows(&self, pos: &Position, ply: usize) -> [Option<usize>; 3] {
        let us = pos.turn().index();
        let row = |slot: u16| (slot != NO_SLOT).then(|| (us * CONT_PIECE_SLOTS + slot as usize) * CONT_MOVE_SLOTS);
        [
            row(self.prev_slot[ply]),
            if ply >= 1 { row(self.prev_slot[ply - 1]) } else { None },
            if ply >= 3 && self.params.cont_ply4 != 0 {
                row(self.prev_slot[ply - 3])
            } else {
                None
            },
        ]
    }

    /// What the continuation history adds to a quiet move's ordering score (`cont_hist`: percent
    /// of the two nearer entries' sum, `cont_ply4`: percent of the farther one; 0: nothing).
    #[inline]
    pub(super) fn cont_bonus(&self, pos: &Position, rows: &[Option<usize>; 3], m: Move) -> i32 {
        let Some(i) = cont_column(pos, m) else { return 0 };
        let near: i32 = rows[..2]
            .iter()
            .flatten()
            .map(|&row| self.cont_history[row + i] as i32)
            .sum();
        let far = rows[2].map_or(0, |row| self.cont_history[row + i] as i32 * self.params.cont_ply4);
        (near * self.params.cont_hist + far) / 100
    }

    /// The correction history's three slots for `pos` (`corr_hist`): by the pawns of both
    /// sides, by White's other pieces and by Black's, each for the side to move.
    #[inline]
    fn corr_slots(pos: &Position) -> [usize; 3] {
        let pawns = pos.kind_bb(PieceKind::Pawn).0;
        let white = pos.color_bb(Color::White).0;
        let black = pos.color_bb(Color::Black).0;
        let us = pos.turn().index() * (CORR_SIZE / 2);
        // The top bits of two sets of cells mixed pick the entry.
        let slot = |a: u128, b: u128| us + (mix_cells(a, b) >> 51) as usize;
        [
            slot(pawns & white, pawns & black),
            CORR_SIZE + slot(white & !pawns, 0),
            2 * CORR_SIZE + slot(0, black & !pawns),
        ]
    }

    /// The continuation correction table's slot at `ply` (`corr_cont`): by the pieces and
    /// targets of the moves one and two plies before (`None`: off, or a null move or the root
    /// among them).
    #[inline]
    fn corr_cont_slot(&self, ply: usize) -> Option<usize> {
        if self.params.corr_cont == 0 || ply < 2 {
            return None;
        }
        let (last, before) = (self.prev_slot[ply], self.prev_slot[ply - 1]);
        if last == NO_SLOT || before == NO_SLOT {
            return None;
        }
        let key = (u64::from(before) << 16 | u64::from(last)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Some(3 * CORR_SIZE + (key >> 48) as usize)
    }

    /// The correction history's part of `pos`'s evaluation at `ply` (cp; 0 with `corr_hist`
    /// off): percent `corr_hist` of its three tables' entries and percent `corr_cont` of the
    /// continuation table's, a full entry counting `CORR_LIMIT / 20` cp at 100.
    #[inline]
    fn correction_at(&self, pos: &Position, ply: usize) -> i32 {
        if self.params.corr_hist == 0 {
            return 0;
        }
        let sum: i32 = Self::corr_slots(pos).iter().map(|&i| self.corr_history[i] as i32).sum();
        let cont = self
            .corr_cont_slot(ply)
            .map_or(0, |i| self.corr_history[i] as i32 * self.params.corr_cont);
        (sum * self.params.corr_hist + cont) / 2000
    }

    /// After a node: its slots in the correction history move toward the search's score
    /// (`best - eval`, weighted by depth).
    fn update_correction(&mut self, pos: &Position, ply: usize, best: i32, eval: i32, depth: i32) {
        let bonus = ((best - eval) * depth / 8).clamp(-CORR_LIMIT / 4, CORR_LIMIT / 4);
        for i in Self::corr_slots(pos).into_iter().chain(self.corr_cont_slot(ply)) {
            let mut v = self.corr_history[i] as i32;
            age_within(&mut v, bonus, CORR_LIMIT);
            self.corr_history[i] = v as i16;
        }
    }

    /// The slot of a capture in the capture history (`None`: not a capture).
    #[inline]
    fn cap_slot(pos: &Position, m: Move) -> Option<usize> {
        let mover = pos.piece_at(m.from())?;
        let victim = victim_kind(pos, m)?;
        Some(piece_to(mover, m) * KIND_COUNT + victim.index())
    }

    /// What the capture history adds to a capture's ordering score (`cap_hist`: its divisor;
    /// 0: nothing).
    #[inline]
    pub(super) fn cap_bonus(&self, pos: &Position, m: Move) -> i32 {
        if self.params.cap_hist == 0 {
            return 0;
        }
        Self::cap_slot(pos, m).map_or(0, |i| self.cap_history[i] / self.params.cap_hist)
    }

    /// After a cutoff with `cap_hist` on: the capture that cut off (if `best` is one) gains, the
    /// captures searched before it lose.
    fn update_cap_history(&mut self, pos: &Position, best: Move, captures: &[Move], depth: i32) {
        let bonus = self.history_bonus(depth);
        if let Some(i) = Self::cap_slot(pos, best) {
            age_history(&mut self.cap_history[i], bonus);
        }
        for &c in captures {
            if c != best {
                if let Some(i) = Self::cap_slot(pos, c) {
                    age_history(&mut self.cap_history[i], -bonus);
                }
            }
        }
    }

    /// The plies of reduction a quiet move's history (its ordering score) takes off (good
    /// history) or adds (bad), at most 2 either way.
    #[inline]
    fn history_plies(&self, order: i32) -> i32 {
        (order / self.params.lmr_hist_div).clamp(-2, 2)
    }

    fn negamax(&mut self, pos: &Position, alpha: i32, beta: i32, depth: i32, ply: usize, cut: bool) -> i32 {
        if depth <= 0 {
            self.pv_len[ply] = 0;
            return self.qsearch(pos, alpha, beta, ply);
        }
        // A singular-extension test runs at the ply of the node that asked for it, whose picker
        // is in use: it takes the second slot of the ply.
        let slot = 2 * ply + usize::from(!self.excluded[ply].is_null());
        let mut picker = self.take_picker(slot);
        let score = self.negamax_node(pos, alpha, beta, depth, ply, cut, &mut picker);
        self.pickers[slot] = Some(picker);
        score
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax_node(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
        picker: &mut Picker,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.check_stop();
        if self.stopped && !root {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        // `cut_cnt`: our children count the cutoffs among their children afresh (the root's
        // children, with no node above the root, at each root search).
        self.cutoffs[ply + 2] = 0;
        if root {
            self.cutoffs[1] = 0;
        }

        if !root {
            if let Some(o) = pos.immediate_outcome() {
                return outcome_score(o, pos, ply);
            }
            if self.is_repetition(pos) || pos.is_insufficient_material() {
                return 0;
            }
            if pos.fifty_move_draw() {
                return if in_check && !pos.has_legal_move() {
                    -MATE + ply as i32
                } else {
                    0
                };
            }
            if ply >= MAX_PLY - 2 {
                return self.evaluate(pos, ply);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // In a singular-extension test (see below) the node is searched again without the table
        // move: no table cutoff, no pruning before the moves, nothing stored.
        let excluded = self.excluded[ply];
        let key = pos.hash();
        let entry = self.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(e) = entry {
            tt_move = e.mv;
            if !e.mv.is_null() && excluded.is_null() {
                // Its child is searched first: start fetching that child's entry now.
                self.tt.prefetch(pos.hash_after(e.mv));
            }
            if !pv_node && e.depth >= depth && excluded.is_null() {
                if let Some(s) = tt_cutoff(&e, ply, alpha, beta) {
                    // `tt_hist`: a quiet table move that cuts off here counts as a cutoff.
                    if self.params.tt_hist != 0
                        && s >= beta
                        && !e.mv.is_null()
                        && pos.piece_at(e.mv.from()).is_some_and(|p| p.color == pos.turn())
                        && !is_tactical(pos, e.mv)
                    {
                        self.update_history(pos, e.mv, &[], depth, ply);
                    }
                    return s;
                }
            }
        }

        // A node on a principal variation now, or stored as one before (`tt_pv`).
        let tt_pv = pv_node || entry.is_some_and(|e| e.pv);
        // The evaluation as the table keeps it, and as the search uses it (`corr_hist`: with
        // the correction history's part).
        let raw_eval = if in_check {
            -INF
        } else if let Some(e) = entry {
            e.eval
        } else {
            self.evaluate(pos, ply)
        };
        let static_eval = if in_check {
            -INF
        } else {
            corrected(raw_eval, self.correction_at(pos, ply))
        };
        // The evaluation the pruning below judges by: with `tt_eval`, the table's score where
        // the entry's bound says more than the static evaluation (mate scores aside).
        let eval = match entry {
            Some(e) if self.params.tt_eval != 0 && !in_check => bounded_eval(&e, ply, static_eval),
            _ => static_eval,
        };
        // Improving: the evaluation is better than at our previous move (or, after a check
        // there, the one before): pruning and reductions are then more careful.
        self.evals[ply] = static_eval;
        let improving = !in_check
            && ply >= 2
            && if self.evals[ply - 2] > -INF {
                static_eval > self.evals[ply - 2]
            } else {
                ply < 4 || self.evals[ply - 4] == -INF || static_eval > self.evals[ply - 4]
            };
        // `eval_hist`: the opponent's quiet move into this node gains history by how much it
        // improved their side's evaluation (both nodes' static evaluations, not in check).
        if self.params.eval_hist != 0
            && !in_check
            && excluded.is_null()
            && ply >= 1
            && self.prev_quiet[ply]
            && self.evals[ply - 1] > -INF
        {
            let prev = self.prev_move[ply];
            let max = self.params.hist_bonus_max;
            let bonus = (-(static_eval + self.evals[ply - 1]) * self.params.eval_hist / 10).clamp(-max, max);
            let them = (!pos.turn()).index();
            age_history(&mut self.history[them][prev.from().index()][prev.to().index()], bonus);
        }
        let lmp_count = if improving {
            self.params.lmp_base + depth * depth
        } else {
            (self.params.lmp_base + depth * depth) / 2 + 1
        };

        if !pv_node && !in_check && !root && excluded.is_null() {
            // Reverse futility pruning.
            if depth <= self.params.rfp_depth
                && eval - self.params.rfp_margin * (depth - improving as i32) >= beta
                && eval.abs() < MATE_BOUND
            {
                return eval;
            }
            // Null-move pruning.
            if depth >= self.params.nmp_min_depth
                && eval >= beta
                && !self.prev_move[ply].is_null()
                && eval::has_non_pawn_material(pos, pos.turn())
                && pos.null_move_allowed()
            {
                let p = &self.params;
                let r = p.nmp_base + depth / p.nmp_depth_div + ((eval - beta) / p.nmp_eval_div).min(p.nmp_eval_max);
                let mut child = pos.clone();
                child.play_null();
                if self.nnue.is_some() {
                    let (parent, rest) = self.accumulators.split_at_mut(ply + 1);
                    rest[0].clone_from(&parent[ply]);
                }
                self.prev_move[ply + 1] = Move::NULL;
                self.prev_slot[ply + 1] = NO_SLOT;
                self.prev_quiet[ply + 1] = false;
                self.double_ext[ply + 1] = self.double_ext[ply];
                self.path.push(child.hash());
                let s = -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        // Internal iterative reduction: without a table move the ordering is poor.
        let mut depth = if tt_move.is_null() && depth >= self.params.iir_depth && (pv_node || cut) {
            depth - 1
        } else {
            depth
        };

        // Singular extension: when the table says the table move is good (a lower bound or exact
        // score, not much shallower), the other moves are searched at half depth against that
        // score less a margin; if all fail low, the table move alone holds the node and is
        // searched one ply deeper. If one reaches the margin's bound and that bound is at or
        // above beta, several moves beat beta: the node is cut at once (multi-cut).
        let mut singular = false;
        // Two plies instead of one when every other move stays far below the test's bound.
        let mut double = false;
        // Plies taken from the table move when the test shows other moves hold too (`se_neg`).
        let mut tt_move_cut = 0;
        if let Some(e) = entry.filter(|e| {
            !root
                && excluded.is_null()
                && depth >= self.params.se_depth
                && !e.mv.is_null()
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && score_from_tt(e.score, ply).abs() < MATE_BOUND
                && pos.is_legal_move_with_history(e.mv, self.earlier_positions())
        }) {
            let singular_beta = score_from_tt(e.score, ply) - self.params.se_margin * depth;
            self.excluded[ply] = e.mv;
            let s = self.negamax(pos, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut);
            self.excluded[ply] = Move::NULL;
            if self.stopped {
                return 0;
            }
            if s < singular_beta {
                singular = true;
                double = !pv_node
                    && self.params.se_double > 0
                    && s < singular_beta - self.params.se_double
                    && self.double_ext[ply] < MAX_DOUBLE_EXTENSIONS;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if score_from_tt(e.score, ply) >= beta {
                tt_move_cut = self.params.se_neg;
            }
        }

        // The table move is tried before any move is generated: when it cuts off, generation,
        // scoring and sorting are saved. (A singular-extension test leaves it out.)
        let mut pending = if excluded.is_null() {
            pos.is_legal_move_with_history(tt_move, self.earlier_positions())
                .then_some(tt_move)
        } else {
            None
        };
        self.start_stages(
            picker,
            if excluded.is_null() {
                pending.unwrap_or(Move::NULL)
            } else {
                excluded
            },
            ply,
        );
        let mut any_move = pending.is_some();
        let mut best_score = -INF;
        let mut best_move = Move::NULL;
        picker.quiets.clear();
        picker.captures.clear();
        let mut searched = 0;
        // Moves the picker gave so far, pruned ones included; with `lmr_count` they, not the
        // moves searched, give a move's place for late-move reductions and pruning.
        let mut picked = 0;
        let count_pruned = self.params.lmr_count != 0;
        let original_alpha = alpha;
        let mut exchanges = see::Exchanges::new(pos);
        // `tt_cap_r`: with a capture (or promotion) as the table move, quiet moves are reduced
        // more.
        let tt_capture_r = if pending.is_some_and(|m| is_tactical(pos, m)) {
            self.params.tt_cap_r
        } else {
            0
        };

        loop {
            let (m, order) = match pending.take() {
                Some(m) => (m, SCORE_TT),
                None => {
                    // Once late-move or futility pruning (below) would prune every quiet move
                    // left (both only get stricter as the node goes on), the picker skips them.
                    let p = &self.params;
                    picker.skip_quiets = !root
                        && !in_check
                        && best_score > -MATE_BOUND
                        && ((!pv_node
                            && depth <= p.lmp_depth
                            && if count_pruned { picked } else { searched } >= lmp_count)
                            || (depth <= p.fut_depth && eval + p.fut_base + p.fut_margin * depth <= alpha));
                    match self.next_staged(pos, picker, &mut exchanges, ply) {
                        Some(x) => {
                            any_move = true;
                            x
                        }
                        // Without the excluded move there may be none left: the test fails low.
                        None if !any_move && !excluded.is_null() => return alpha,
                        None if !any_move => return if in_check { -MATE + ply as i32 } else { 0 },
                        None => break,
                    }
                }
            };
            if root && self.root_excluded.contains(&m) {
                continue;
            }
            if root && !self.limits.searchmoves.is_empty() && !self.limits.searchmoves.contains(&m) {
                continue;
            }
            // The move's place at the node for late-move reductions and pruning.
            let late = if count_pruned { picked } else { searched };
            picked += 1;
            // Fetch the child's entries from memory now, the pruning decisions below take time
            // (captures were fetched when they were generated, the table move when it was read).
            if m != tt_move && !pos.is_capture(m) {
                self.prefetch_child(pos, m);
            }
            let tactical = is_tactical(pos, m);
            // Pruning decisions come before the move is made (making it costs more than most
            // pruned moves would be worth); killers and countermoves are never pruned.
            if !root && best_score > -MATE_BOUND && !in_check {
                if !tactical {
                    if order < SCORE_COUNTER {
                        // Late-move pruning and futility pruning of quiet moves.
                        let p = &self.params;
                        if !pv_node && depth <= p.lmp_depth && late >= lmp_count {
                            continue;
                        }
                        // The depth the move would be searched at after its late-move
                        // reduction (history included): futility and SEE pruning judge by it.
                        let lmr_depth = (depth - 1 - self.lmr[depth.min(63) as usize][late.min(63) as usize]
                            + self.history_plies(order))
                        .clamp(0, depth);
                        let futility = eval + p.fut_base + p.fut_margin * lmr_depth;
                        if lmr_depth <= p.fut_depth && futility <= alpha {
                            // `fs_prune`: the node's fail-soft score does not fall below the
                            // estimate that skipped the move.
                            if p.fs_prune != 0 && futility > best_score && futility.abs() < MATE_BOUND {
                                best_score = futility;
                            }
                            continue;
                        }
                        // SEE pruning of quiet moves that put a piece where it is lost.
                        if lmr_depth <= p.see_quiet_depth && !exchanges.see_ge(m, -p.see_quiet * lmr_depth * lmr_depth)
                        {
                            continue;
                        }
                        // History pruning (`hist_prune`): shallow quiet moves with a bad history.
                        if p.hist_prune > 0 && depth <= 3 && order < -p.hist_prune * depth {
                            continue;
                        }
                    }
                } else if depth <= self.params.see_depth && order < 0 {
                    let threshold = -self.params.see_capture * depth;
                    let good_enough = match picker.exchange {
                        Some(value) => value >= threshold,
                        None => exchanges.see_ge(m, threshold),
                    };
                    if !good_enough {
                        continue;
                    }
                }
            }
            // Made in place, not by `Position::after` (see there).
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.in_check();
            // `cap_fut`: futility pruning of captures that give no check, at shallow depths:
            // quiescence's delta test with a margin that grows with depth.
            if self.params.cap_fut > 0
                && tactical
                && !root
                && !in_check
                && !gives_check
                && depth <= CAP_FUT_DEPTH
                && best_score > -MATE_BOUND
                && matches!(m.kind(), MoveKind::Normal | MoveKind::EnPassant)
                && delta_prunes(pos, m, eval, alpha, CAP_FUT_BASE + self.params.cap_fut * depth)
            {
                continue;
            }
            self.update_accumulator(pos, m, ply);

            // `check_ext` 2: only checks whose exchange loses nothing are extended.
            let check_extended = gives_check
                && match self.params.check_ext {
                    0 => false,
                    1 => true,
                    _ => exchanges.see_ge(m, 0),
                };
            let extension = if (check_extended || (singular && m == tt_move)) && ply < 2 * depth as usize + 8 {
                if double && m == tt_move {
                    2
                } else {
                    1
                }
            } else if m == tt_move && !gives_check {
                -tt_move_cut
            } else {
                0
            };
            let new_depth = depth - 1 + extension;
            self.prev_move[ply + 1] = m;
            self.prev_slot[ply + 1] = cont_slot(pos, m);
            self.prev_quiet[ply + 1] = !tactical;
            self.double_ext[ply + 1] = self.double_ext[ply] + u8::from(extension == 2);
            self.path.push(child.hash());
            let nodes_before = self.nodes;
            let score = if searched == 0 {
                // The first move of an all node is expected to cut off (`cut_child`).
                let child_cut = self.params.cut_child != 0 && !pv_node && !cut;
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, child_cut)
            } else {
                let mut r = 0;
                let reducible = depth >= self.params.lmr_min_depth && searched >= self.params.lmr_after && !in_check;
                let table_r = self.lmr[depth.min(63) as usize][late.min(63) as usize];
                if reducible && tactical && order < 0 && self.params.lmr_bad_captures != 0 {
                    // `lmr_bad_captures`: a capture the picker put last (its exchange loses) is
                    // reduced by the table's value less one ply, at least one.
                    r = (table_r - 1).max(1).min(new_depth - 1);
                } else if reducible && !tactical {
                    r = table_r;
                    if pv_node {
                        r -= 1;
                    } else if tt_pv {
                        r -= self.params.tt_pv;
                    }
                    if cut {
                        r += self.params.cut_r;
                    }
                    if !improving {
                        r += 1;
                    }
                    r += tt_capture_r;
                    if self.cutoffs[ply + 1] > 3 {
                        r += self.params.cut_cnt;
                    }
                    if gives_check || order >= SCORE_COUNTER {
                        r -= 1;
                    }
                    // A killer's or countermove's ordering score is a constant above every
                    // history (2 plies off); with `ref_hist` its own history counts instead.
                    let hist = if order >= SCORE_COUNTER && self.params.ref_hist != 0 {
                        self.history[pos.turn().index()][m.from().index()][m.to().index()]
                    } else {
                        order
                    };
                    r -= self.history_plies(hist);
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if s > alpha && r > 0 {
                    // With `lmr_deeper`: a reduced search that beat the best score by far is
                    // searched again a ply deeper, one that barely beat it a ply shallower.
                    let mut full_depth = new_depth;
                    let margin = self.params.lmr_deeper;
                    if margin > 0 {
                        if s > best_score + margin + 2 * new_depth {
                            full_depth += 1;
                        } else if s < best_score + new_depth {
                            full_depth -= 1;
                        }
                    }
                    if full_depth > new_depth - r {
                        s = -self.negamax(&child, -alpha - 1, -alpha, full_depth, ply + 1, !cut);
                    }
                }
                if s > alpha && pv_node {
                    s = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
                s
            };
            self.path.pop();
            searched += 1;
            if root {
                let spent = self.nodes - nodes_before;
                match self.root_effort.iter_mut().find(|e| e.0 == m) {
                    Some(e) => e.1 += spent,
                    None => self.root_effort.push((m, spent)),
                }
            }
            if self.stopped {
                return if root && best_score > -INF { best_score } else { 0 };
            }
            if score > best_score {
                best_score = score;
                // `fl_move`: only a move that reached alpha is the node's best move.
                if self.params.fl_move == 0 || score > alpha {
                    best_move = m;
                }
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if !tactical {
                            self.update_history(pos, m, picker.quiets.as_slice(), depth, ply);
                        }
                        if self.params.cap_hist != 0 {
                            self.update_cap_history(pos, m, picker.captures.as_slice(), depth);
                        }
                        self.cutoffs[ply] = self.cutoffs[ply].saturating_add(1);
                        break;
                    }
                    // `alpha_red`: with a move that raised alpha, the later moves need only
                    // show they are no better: a shallower search does.
                    if depth > 2 && depth < 12 && score.abs() < MATE_BOUND {
                        depth -= self.params.alpha_red;
                    }
                }
            }
            if !tactical {
                picker.quiets.push(m);
            } else if self.params.cap_hist != 0 && pos.is_capture(m) {
                picker.captures.push(m);
            }
            if root && self.node_limit_reached() {
                break;
            }
        }

        if searched == 0 {
            // Every move was pruned or excluded (multi-PV root with all moves excluded cannot happen).
            return if root { -INF } else { alpha };
        }
        if excluded.is_null() && !self.stopped {
            // `hist_exact`: a quiet best move that raised alpha without a cutoff (an exact score
            // at a PV node) gains history as a cutoff's does.
            if self.params.hist_exact != 0
                && best_score > original_alpha
                && best_score < beta
                && !is_tactical(pos, best_move)
            {
                self.update_history(pos, best_move, picker.quiets.as_slice(), depth, ply);
            }
            // `prior_bonus`: no move here reached alpha, so the quiet move that led here was a
            // good one for the side that played it (it refuted this node's moves).
            if self.params.prior_bonus != 0 && best_score <= original_alpha && !root && self.prev_quiet[ply] {
                let prev = self.prev_move[ply];
                let bonus = self.history_bonus(depth) * self.params.prior_bonus / 100;
                let them = (!pos.turn()).index();
                age_history(&mut self.history[them][prev.from().index()][prev.to().index()], bonus);
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // `corr_hist`: the search's score teaches the correction history how far the static
        // evaluation was off, when its bound says so and a quiet move (or none) decided it.
        if self.params.corr_hist != 0
            && !in_check
            && excluded.is_null()
            && !self.stopped
            && (best_move.is_null() || !is_tactical(pos, best_move))
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.update_correction(pos, ply, best_score, static_eval, depth);
        }
        if (!root || self.root_excluded.is_empty()) && excluded.is_null() {
            self.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply),
                raw_eval.max(-MATE),
                depth,
                bound,
                tt_pv,
            );
        }
        best_score
    }

    fn qsearch(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        let mut picker = self.take_picker(2 * ply);
        let score = self.qsearch_node(pos, alpha, beta, ply, &mut picker);
        self.pickers[2 * ply] = Some(picker);
        score
    }

    fn qsearch_node(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, picker: &mut Picker) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        self.pv_len[ply] = 0;
        if let Some(o) = pos.immediate_outcome() {
            return outcome_score(o, pos, ply);
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.in_check();
        // The static evaluation comes before the table is read, although a table hit makes it
        // unnecessary: few nodes here hit, and meanwhile the entry (prefetched by the parent)
        // arrives from memory.
        // `corr_hist`: the correction history's part of the evaluation (the lazy evaluation's
        // window shifted by it).
        let correction = if in_check { 0 } else { self.correction_at(pos, ply) };
        let evaluated = if in_check {
            None
        } else {
            Some(self.evaluate_lazy(pos, alpha - correction, beta - correction, ply))
        };
        let entry = self.tt.probe(pos.hash());
        if let Some(s) = entry.as_ref().and_then(|e| tt_cutoff(e, ply, alpha, beta)) {
            return s;
        }
        let mut best;
        let stand_pat;
        let mut raw_stand_pat = -INF;
        let mut full_eval = false;
        if in_check {
            pos.generate_legal_with_history(&mut picker.moves, self.earlier_positions());
            if picker.moves.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INF;
            stand_pat = -INF;
        } else {
            (raw_stand_pat, full_eval) = match (entry, evaluated) {
                (Some(e), _) => (e.eval, true),
                (None, Some(v)) => v,
                (None, None) => self.evaluate_lazy(pos, alpha - correction, beta - correction, ply),
            };
            stand_pat = match entry {
                // `qs_tt_eval`: a table bound that says more than the evaluation replaces it.
                Some(e) if self.params.qs_tt_eval != 0 => bounded_eval(&e, ply, corrected(raw_stand_pat, correction)),
                _ => corrected(raw_stand_pat, correction),
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            // Big delta: not even winning the most valuable enemy piece (or promoting) would
            // reach alpha.
            if stand_pat + max_gain(pos) + self.params.qs_big_delta <= alpha {
                return best;
            }
            pos.generate_captures_with_history(&mut picker.moves, self.earlier_positions());
        }
        let delta = self.params.qs_delta;
        // `qs_tt`: the table's move, when it is one of these moves, is tried first.
        let tt_move = match entry {
            Some(e) if self.params.qs_tt != 0 => e.mv,
            _ => Move::NULL,
        };
        for (i, &m) in picker.moves.as_slice().iter().enumerate() {
            picker.scores[i] = if m == tt_move && !tt_move.is_null() {
                SCORE_TT
            } else {
                mvv_lva(pos, m)
                    + m.promotion_piece()
                        .map_or(0, |k| eval::exchange_values(pos.tables()).of(k))
                    + self.cap_bonus(pos, m)
            };
            // The children's table entries are read first thing: fetch them all now (but not
            // for moves already sure to be skipped).
            if in_check || !delta_prunes(pos, m, stand_pat, alpha, delta) {
                self.prefetch_child(pos, m);
            }
        }
        picker.start();
        let original_alpha = alpha;
        let mut best_move = Move::NULL;
        let mut exchanges = see::Exchanges::new(pos);
        while let Some((m, _)) = picker.next() {
            if !in_check {
                if delta_prunes(pos, m, stand_pat, alpha, delta) {
                    // `fs_prune`: the best score does not fall below the capture's estimate.
                    if self.params.fs_prune != 0 && m.promotion_piece().is_none() {
                        best = best.max(stand_pat + victim_value(pos, m) + delta);
                    }
                    continue;
                }
                if !exchanges.see_ge(m, 0) {
                    continue;
                }
            }
            // Made in place, not by `Position::after` (see there).
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.update_accumulator(pos, m, ply);
            // `corr_cont`: the continuation correction table reads the moves into each node.
            if self.params.corr_cont != 0 {
                self.prev_slot[ply + 1] = cont_slot(pos, m);
            }
            // In variants whose legality filters look at the game, the path also runs through
            // quiescence, so that the filters see every position before the node.
            let filtered = pos.tables().rules.has_legality_filters();
            if filtered {
                self.path.push(child.hash());
            }
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if filtered {
                self.path.pop();
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !in_check && full_eval {
            self.tt.store(
                pos.hash(),
                best_move,
                score_to_tt(best, ply),
                raw_stand_pat,
                0,
                bound,
                entry.is_some_and(|e| e.pv),
            );
        }
        best
    }
}

/// Two sets of cells folded into 64 bits and mixed (the correction and pawn histories take
/// their top bits as a slot).
#[inline]
fn mix_cells(a: u128, b: u128) -> u64 {
    let folded = (a as u64)
        ^ ((a >> 64) as u64).rotate_left(23)
        ^ (b as u64).rotate_left(41)
        ^ ((b >> 64) as u64).rotate_left(7);
    folded.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The continuation history's slot of a move's piece and target (`NO_SLOT`: no piece moves).
#[inline]
fn cont_slot(pos: &Position, m: Move) -> u16 {
    pos.piece_at(m.from()).map_or(NO_SLOT, |p| piece_to(p, m) as u16)
}

/// The index of a move by its coloured piece and its target (below `2 * KIND_COUNT * 128`),
/// which the capture and continuation histories index by.
#[inline]
fn piece_to(p: Piece, m: Move) -> usize {
    (p.color.index() * KIND_COUNT + p.kind.index()) * 128 + m.to().index()
}

/// A quiet move's column in a row of the continuation history: its kind and target.
#[inline]
fn cont_column(pos: &Position, m: Move) -> Option<usize> {
    pos.piece_at(m.from()).map(|p| p.kind.index() * 128 + m.to().index())
}

/// [`age_history`] for an entry of 16 bits (within `HISTORY_MAX`, which fits).
#[inline]
fn age_history_i16(h: &mut i16, bonus: i32) {
    let mut v = *h as i32;
    age_history(&mut v, bonus);
    *h = v as i16;
}

/// Adds `bonus` to a history entry, less the more the entry already holds in that direction,
/// so that every entry stays within `HISTORY_MAX`.
#[inline]
fn age_history(h: &mut i32, bonus: i32) {
    age_within(h, bonus, HISTORY_MAX);
}

/// Adds `bonus` (at most `limit` either way) to an entry, less the more the entry already
/// holds in that direction, so that the entry stays within `limit`.
#[inline]
fn age_within(h: &mut i32, bonus: i32, limit: i32) {
    *h += bonus - *h * bonus.abs() / limit;
}

/// A static evaluation with the correction history's part (`corr_hist`), within the scores
/// that are not mates (unchanged when the part is 0).
#[inline]
fn corrected(raw: i32, correction: i32) -> i32 {
    if correction == 0 {
        raw
    } else {
        (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }
}

/// Fills the late-move reduction table from the parameters (row and column 0 stay 0).
fn fill_lmr(lmr: &mut [[i32; 64]; 64], params: &SearchParams) {
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = params.lmr_reduction(d, m);
        }
    }
}

/// Whether quiescence skips a capture or promotion before looking at it closely: an
/// under-promotion, or a capture that cannot lift the stand-pat score to within `margin` of alpha.
#[inline]
fn delta_prunes(pos: &Position, m: Move, stand_pat: i32, alpha: i32, margin: i32) -> bool {
    if m.promotion_piece().is_some_and(|p| p != PieceKind::Queen) {
        return true;
    }
    m.kind() != MoveKind::Promotion && stand_pat + victim_value(pos, m) + margin <= alpha
}

/// The most a single move can gain: the most valuable enemy piece, plus a promotion when the
/// side to move has a pawn one step from promoting.
fn max_gain(pos: &Position) -> i32 {
    let t = pos.tables();
    let values = eval::exchange_values(t);
    let see_value = |k: PieceKind| values.of(k);
    let them = pos.color_bb(!pos.turn());
    let mut best = 0;
    for &k in &t.officers {
        if (pos.kind_bb(k) & them).any() {
            best = best.max(see_value(k));
        }
    }
    if (pos.kind_bb(PieceKind::Pawn) & them).any() {
        best = best.max(see_value(PieceKind::Pawn));
    }
    let us = pos.turn();
    let pawns = pos.pieces(us, PieceKind::Pawn);
    if pawns.any() {
        let push = t.pawn_push[us];
        let before_promotion = if push > 0 {
            Bitboard(t.promotion_squares[us].0 >> push)
        } else {
            Bitboard(t.promotion_squares[us].0 << -push)
        };
        if (pawns & before_promotion).any() {
            best += see_value(PieceKind::Queen) - see_value(PieceKind::Pawn);
        }
    }
    best
}

/// The key of a position in the evaluation cache: its hash, made distinct per variant (the same
/// placement evaluates differently under different rules).
#[inline(always)]
fn eval_key(pos: &Position) -> u64 {
    pos.hash() ^ variant_mix(pos)
}

#[inline(always)]
fn variant_mix(pos: &Position) -> u64 {
    (pos.tables().spec.code as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The stored score when it decides the node for the window `alpha..beta`.
#[inline]
fn tt_cutoff(e: &tt::Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let hit = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    hit.then_some(s)
}

/// `eval`, or the entry's score where its bound says more than `eval` does (a lower bound
/// above it, an upper bound below it, an exact score), mate scores aside (`tt_eval`,
/// `qs_tt_eval`).
fn bounded_eval(e: &tt::Entry, ply: usize, eval: i32) -> i32 {
    let s = score_from_tt(e.score, ply);
    let tighter = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
    };
    if tighter && s.abs() < MATE_BOUND {
        s
    } else {
        eval
    }
}

fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// `clear` zeroes the continuation history's written rows, a bit per row: after searches
    /// that wrote to it the whole table is zero again, and so are the row bits.
    #[test]
    fn clear_zeroes_the_written_continuation_history() {
        let tt = Arc::new(TranspositionTable::new(4));
        let mut s = Searcher::new(tt, Arc::new(AtomicBool::new(false)));
        assert!(s.params.cont_hist != 0, "the continuation history is on by default");
        for v in [Variant::PersianPrincess, Variant::OrientalOmega] {
            let limits = Limits {
                depth: Some(8),
                ..Limits::default()
            };
            s.search(&Position::startpos(v), &[], limits, &mut |_| {});
        }
        let written = s.cont_history.iter().filter(|&&h| h != 0).count();
        assert!(written > 0, "the searches wrote no continuation history");
        assert!(s.cont_written.iter().any(|&b| b != 0));
        s.clear();
        assert!(s.cont_history.iter().all(|&h| h == 0), "{written} entries were written");
        assert!(s.cont_written.iter().all(|&b| b == 0));
    }
}
