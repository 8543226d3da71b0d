//! The engine facade: owns the game (variant, start position, moves), the transposition table,
//! the search threads and the options. UCI, `bench`, `analyse` and `match` all drive it.
//! Search output reaches callers through callbacks.

use std::{
    path::PathBuf,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc, Mutex,
    },
    thread::JoinHandle,
};

use crate::{
    book::{Book, BookError, BookMove, BookRng},
    eval::nnue::{NetError, NnueNet},
    rules::{
        game::Game,
        perft::{self, DivideOutcome, TooDeepError},
        tables::Tables,
        FenError, Move, Position, UciError, Variant,
    },
    search::{params::SearchParams, tt::TranspositionTable, Limits, SearchInfo, SearchResult, Searcher},
    skill::{Candidates, Strength},
};

/// EngineSettings of the engine (the UCI options).
#[derive(Clone, Debug)]
pub struct EngineSettings {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept back per move for communication.
    pub move_overhead_ms: u64,
    /// Playing strength (`Skill Level`, `UCI_Elo`); full strength by default.
    pub strength: Strength,
    /// The search's tunable constants (`SearchParams`); the defaults by default.
    pub search_params: SearchParams,
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            strength: Strength::FULL,
            search_params: SearchParams::default(),
        }
    }
}

/// Why a game (start position and moves) could not be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetPositionError {
    /// A move of the list is not legal in the position it is played in (a caller's logic error:
    /// typed moves come from a move generator).
    #[error("move {index} ({mv}) is not legal in {fen}")]
    IllegalMove {
        /// 1-based index in the list.
        index: usize,
        /// The position the move was tried in, as FEN.
        fen: String,
        /// The move, for the message.
        mv: String,
    },
    /// The FEN is malformed or impossible.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// A move of the list (text) cannot be played.
    #[error("move {index} '{text}': {error}")]
    Move {
        /// 1-based index in the list.
        index: usize,
        /// The move text.
        text: String,
        /// Why.
        error: UciError,
    },
}

/// Reads a game given as text, as the UCI `position` command and the Lichess API give it: a FEN
/// (`None`: the variant's start position) and moves in UCI notation, each resolved against the
/// position it is played in. The one place where the facade's callers turn such text into typed
/// values.
pub fn parse_game(
    variant: Variant,
    fen: Option<&str>,
    moves: &[String],
) -> Result<(Position, Vec<Move>), SetPositionError> {
    parse_game_in(variant.tables(), fen, moves)
}

/// As [`parse_game`], under the rules of `tables` (a variant with rule settings,
/// [`Variant::tables_with`]).
pub fn parse_game_in(
    tables: &'static Tables,
    fen: Option<&str>,
    moves: &[String],
) -> Result<(Position, Vec<Move>), SetPositionError> {
    let start = Position::from_fen_in(tables, fen.unwrap_or(tables.spec.start_fen))?;
    // Each move as a move of the game: one the bare position allows may be forbidden by the
    // positions before it (Parsi Chess's perpetual-check ban).
    let mut game = Game::new(start);
    for (i, text) in moves.iter().enumerate() {
        let m = game
            .position()
            .parse_uci_in_game(text, game.history())
            .map_err(|error| SetPositionError::Move {
                index: i + 1,
                text: text.clone(),
                error,
            })?;
        game.play(m);
    }
    Ok((game.start().clone(), game.moves().to_vec()))
}

/// The engine.
pub struct Engine {
    variant: Variant,
    start: Position,
    moves: Vec<Move>,
    position: Position,
    history: Vec<u64>,
    settings: EngineSettings,
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    searchers: Arc<Mutex<Vec<Searcher>>>,
    running: Option<JoinHandle<SearchResult>>,
    /// A perft count on a background thread (`go perft`), stopped by the same flag as a search.
    perft: Option<JoinHandle<()>>,
    eval_source: EvalSource,
    net: Option<Arc<NnueNet>>,
    book: Option<Arc<Book>>,
    book_rng: BookRng,
    /// The random choice of weakened levels.
    skill_rng: BookRng,
}

/// Which evaluation the engine uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSource {
    /// The variant's embedded net when the build has one, else the hand-crafted evaluation.
    Default,
    /// The hand-crafted evaluation, even when a net is embedded.
    HandCrafted,
    /// A net file (for the current variant).
    File(PathBuf),
}

impl EvalSource {
    /// Reads the value of the `EvalFile` option or `--net` flag: `<embedded>` or empty for the
    /// default, `hce` (or `classical`, `none`) for the hand-crafted evaluation, else a path.
    pub fn parse(text: &str) -> EvalSource {
        match text.trim() {
            "" | "<embedded>" | "embedded" | "default" => EvalSource::Default,
            "hce" | "classical" | "none" | "handcrafted" | "hand-crafted" => EvalSource::HandCrafted,
            path => EvalSource::File(PathBuf::from(path)),
        }
    }
}

impl std::str::FromStr for EvalSource {
    type Err = std::convert::Infallible;

    /// As [`EvalSource::parse`] (every text is an evaluation source; a path is checked when the
    /// net is loaded). For clap's value parsers.
    fn from_str(s: &str) -> Result<EvalSource, Self::Err> {
        Ok(EvalSource::parse(s))
    }
}

impl std::fmt::Display for EvalSource {
    /// The text [`EvalSource::parse`] reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalSource::Default => f.write_str("<embedded>"),
            EvalSource::HandCrafted => f.write_str("hce"),
            EvalSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine on the default variant's start position with default settings.
    pub fn new() -> Engine {
        let settings = EngineSettings::default();
        let variant = Variant::DEFAULT;
        let tt = Arc::new(TranspositionTable::new(settings.hash_mb));
        let stop = Arc::new(AtomicBool::new(false));
        let searchers = vec![Searcher::new(tt.clone(), stop.clone())];
        let start = Position::startpos(variant);
        Engine {
            variant,
            position: start.clone(),
            start,
            moves: Vec::new(),
            history: Vec::new(),
            settings,
            tt,
            stop,
            searchers: Arc::new(Mutex::new(searchers)),
            running: None,
            perft: None,
            eval_source: EvalSource::Default,
            net: NnueNet::default_for(variant),
            book: None,
            book_rng: BookRng::from_time(),
            skill_rng: BookRng::from_time(),
        }
    }

    /// Chooses the evaluation. A net file must be a net for the current variant; on error the
    /// previous choice stays.
    pub fn set_eval(&mut self, source: EvalSource) -> Result<(), NetError> {
        self.wait();
        self.net = Self::resolve(&source, self.variant)?;
        self.eval_source = source;
        Ok(())
    }

    fn resolve(source: &EvalSource, variant: Variant) -> Result<Option<Arc<NnueNet>>, NetError> {
        Ok(match source {
            EvalSource::Default => NnueNet::default_for(variant),
            EvalSource::HandCrafted => None,
            EvalSource::File(path) => Some(Arc::new(NnueNet::from_file(variant, path)?)),
        })
    }

    /// The evaluation in use, for users (`info string`, `engine eval`).
    pub fn eval_summary(&self) -> String {
        match &self.net {
            Some(net) => net.summary(),
            None => "hand-crafted".to_string(),
        }
    }

    /// The net in use, if any.
    pub fn net(&self) -> Option<&Arc<NnueNet>> {
        self.net.as_ref()
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Hashes of the positions before the current one (for repetition detection).
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The settings.
    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// Chooses the variant; the position becomes its start position (the table is cleared when
    /// the variant changes).
    pub fn set_variant(&mut self, variant: Variant) {
        self.wait();
        if variant != self.variant {
            // The same placement hashes alike in every variant: old entries would mislead.
            self.tt.clear();
        }
        self.variant = variant;
        // A net file belongs to one variant: with another variant, fall back to the default.
        self.net = match Self::resolve(&self.eval_source, variant) {
            Ok(net) => net,
            Err(_) => {
                self.eval_source = EvalSource::Default;
                NnueNet::default_for(variant)
            }
        };
        self.start = Position::startpos(variant);
        self.position = self.start.clone();
        self.moves.clear();
        self.history.clear();
        // A book belongs to one variant.
        if self.book.as_ref().is_some_and(|b| b.variant() != variant) {
            self.book = None;
        }
    }

    /// Resizes the transposition table (clears it).
    pub fn set_hash(&mut self, mb: usize) {
        self.wait();
        self.settings.hash_mb = mb.max(1);
        self.tt = Arc::new(TranspositionTable::new(self.settings.hash_mb));
        self.rebuild_searchers();
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.wait();
        self.settings.threads = threads.clamp(1, 256);
        self.rebuild_searchers();
    }

    /// Sets the number of principal variations.
    pub fn set_multipv(&mut self, n: usize) {
        self.settings.multipv = n.max(1);
    }

    /// Sets the move overhead.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.settings.move_overhead_ms = ms;
    }

    /// Sets the playing strength (full strength changes nothing in the search).
    pub fn set_strength(&mut self, strength: Strength) {
        self.settings.strength = strength;
    }

    /// Seeds the random choice of weakened levels (`Some`: the same seed gives the same choices)
    /// or seeds it from the clock (`None`, the default).
    pub fn set_skill_seed(&mut self, seed: Option<u64>) {
        self.skill_rng = seed.map_or_else(BookRng::from_time, BookRng::new);
    }

    /// Sets the search's tunable constants (`SearchParams`), for every search thread.
    pub fn set_search_params(&mut self, params: SearchParams) {
        self.wait();
        if let Ok(mut s) = self.searchers.lock() {
            s.iter_mut().for_each(|s| s.set_params(&params));
        }
        self.settings.search_params = params;
    }

    fn rebuild_searchers(&mut self) {
        let searchers = (0..self.settings.threads)
            .map(|_| {
                let mut s = Searcher::new(self.tt.clone(), self.stop.clone());
                s.set_params(&self.settings.search_params);
                s
            })
            .collect();
        self.searchers = Arc::new(Mutex::new(searchers));
    }

    /// The rules in force: the tables of the variant, under its rule settings.
    pub fn rules(&self) -> &'static Tables {
        self.start.tables()
    }

    /// Chooses the rules of the current variant (its tables under some rule settings,
    /// [`Variant::tables_with`]); when they change, the position becomes their start position
    /// and the table is cleared. Tables of another variant: as [`Engine::set_variant`], then
    /// these rules.
    pub fn set_rules(&mut self, tables: &'static Tables) {
        self.wait();
        if let Some(v) = tables.spec.variant.filter(|&v| v != self.variant) {
            self.set_variant(v);
        }
        if std::ptr::eq(tables, self.start.tables()) {
            return;
        }
        self.tt.clear();
        self.start = Position::from_fen_in(tables, tables.spec.start_fen).expect("every start FEN is valid (tested)");
        self.position = self.start.clone();
        self.moves.clear();
        self.history.clear();
    }

    /// Clears the table and the search history (new game).
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
        if let Ok(mut s) = self.searchers.lock() {
            s.iter_mut().for_each(Searcher::clear);
        }
    }

    /// Clears the transposition table.
    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt.clear();
    }

    /// Sets the game: its start position and the moves played from it, each checked against
    /// the position it is played in and the game's positions before it (Parsi Chess's
    /// perpetual-check ban). The variant becomes the start position's (as
    /// [`Engine::set_variant`] does when it changes). On error the previous game is kept.
    pub fn set_game(&mut self, start: Position, moves: &[Move]) -> Result<(), SetPositionError> {
        let mut pos = start.clone();
        let mut history = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            if !pos.is_legal_move_with_history(m, &history) {
                return Err(SetPositionError::IllegalMove {
                    index: i + 1,
                    fen: pos.fen(),
                    mv: format!("{m:?}"),
                });
            }
            history.push(pos.hash());
            pos.play_unchecked(m);
        }
        if start.variant() != self.variant {
            self.set_variant(start.variant());
        }
        self.wait();
        if !std::ptr::eq(start.tables(), self.start.tables()) {
            // Other rules: entries of the old ones may name moves these forbid.
            self.tt.clear();
        }
        self.start = start;
        self.position = pos;
        self.moves = moves.to_vec();
        self.history = history;
        Ok(())
    }

    /// Searches the current position on this thread and returns the result.
    pub fn search(&mut self, limits: Limits, report: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        self.wait();
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_search();
        let mut limits = limits;
        limits.multipv = limits.multipv.max(self.settings.multipv);
        let searchers = self.searchers.clone();
        let strength = self.settings.strength;
        let seed = self.skill_rng.next_u64();
        weakened_search(strength, seed, limits, report, &mut |limits, report| {
            run_search(
                &searchers,
                &self.stop,
                self.net.clone(),
                &self.position,
                &self.history,
                limits,
                false,
                report,
            )
        })
    }

    /// Starts a search on a background thread; `report` gets each iteration, `done` the result.
    pub fn start_search(
        &mut self,
        limits: Limits,
        mut report: Box<dyn FnMut(&SearchInfo) + Send>,
        done: Box<dyn FnOnce(&SearchResult) + Send>,
    ) {
        self.wait();
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_search();
        let mut limits = limits;
        limits.multipv = limits.multipv.max(self.settings.multipv);
        let searchers = self.searchers.clone();
        let stop = self.stop.clone();
        let position = self.position.clone();
        let history = self.history.clone();
        let net = self.net.clone();
        // `go infinite` and `go ponder` must not report their result before they are stopped,
        // even when the search itself has nothing left to do (a forced mate, the depth cap).
        let hold = limits.infinite;
        let strength = self.settings.strength;
        let seed = self.skill_rng.next_u64();
        self.running = Some(std::thread::spawn(move || {
            let result = weakened_search(strength, seed, limits, &mut *report, &mut |limits, report| {
                run_search(
                    &searchers,
                    &stop,
                    net.clone(),
                    &position,
                    &history,
                    limits,
                    hold,
                    report,
                )
            });
            done(&result);
            result
        }));
    }

    /// Counts the leaves of the current position's legal-move tree to `depth` (perft, the game's
    /// earlier positions seen by the rules that look at them) on a
    /// background thread, as [`perft::divide_until`]: `each` gets every root move with its count
    /// as soon as it is known, `done` the outcome. [`Engine::stop`] and [`Engine::wait`] end the
    /// count early, as they end a search (`done` is still called). A depth beyond
    /// [`perft::MAX_DEPTH`] is refused and starts nothing.
    pub fn start_perft(
        &mut self,
        depth: u32,
        mut each: Box<dyn FnMut(Move, u64) + Send>,
        done: Box<dyn FnOnce(&DivideOutcome) + Send>,
    ) -> Result<(), TooDeepError> {
        let depth = perft::check_depth(depth)?;
        self.wait();
        self.stop.store(false, Ordering::Relaxed);
        let stop = self.stop.clone();
        let position = self.position.clone();
        let history = self.history.clone();
        self.perft = Some(std::thread::spawn(move || {
            let outcome = perft::divide_until(&position, depth, &history, &stop, &mut *each);
            done(&outcome);
        }));
        Ok(())
    }

    /// Asks a running search or perft count to stop (it still reports its result).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a background search or perft count is running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished()) || self.perft.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Stops and waits for a background search or perft count; returns the search's result if
    /// there was one.
    pub fn wait(&mut self) -> Option<SearchResult> {
        if let Some(handle) = self.perft.take() {
            self.stop.store(true, Ordering::Relaxed);
            // A panic of the count has nothing to report.
            let _ = handle.join();
        }
        let handle = self.running.take()?;
        if !handle.is_finished() {
            // A search without limits ("go infinite") only ends when stopped.
            self.stop.store(true, Ordering::Relaxed);
        }
        handle.join().ok()
    }

    /// Waits for a background perft count to end by itself, without stopping it (a search
    /// goes on).
    pub fn join_perft(&mut self) {
        if let Some(handle) = self.perft.take() {
            let _ = handle.join();
        }
    }

    /// Waits for a background search (or perft count) to end by itself (its own limits),
    /// without stopping it. A search started with `infinite` limits never ends by itself: use
    /// [`Engine::wait`].
    pub fn join(&mut self) -> Option<SearchResult> {
        self.join_perft();
        self.running.take()?.join().ok()
    }
}

/// The opening book (`docs/openings.md`).
impl Engine {
    /// Loads an opening book for the current variant (`Some(path)`), or drops the book (`None`
    /// or an empty path). On error the previous book stays.
    pub fn set_book(&mut self, path: Option<&std::path::Path>) -> Result<(), BookError> {
        self.book = match path.filter(|p| !p.as_os_str().is_empty()) {
            Some(p) => Some(Arc::new(Book::load(p, self.variant)?)),
            None => None,
        };
        Ok(())
    }

    /// Uses a book already loaded (it must be for the current variant), or none.
    pub fn set_book_data(&mut self, book: Option<Arc<Book>>) -> Result<(), BookError> {
        if let Some(b) = book.as_ref().filter(|b| b.variant() != self.variant) {
            return Err(BookError::WrongVariant {
                path: "<memory>".into(),
                book: b.variant(),
                wanted: self.variant,
            });
        }
        self.book = book;
        Ok(())
    }

    /// The book in use, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// Seeds the book's random choice (`Some`: the same seed gives the same choices) or seeds it
    /// from the clock (`None`, the default).
    pub fn set_book_seed(&mut self, seed: Option<u64>) {
        self.book_rng = seed.map_or_else(BookRng::from_time, BookRng::new);
    }

    /// A book move for the current position, drawn by weight; `None` without a book or when the
    /// position is out of book.
    pub fn book_move(&mut self) -> Option<BookMove> {
        let book = self.book.clone()?;
        book.pick_in_game(&self.position, &self.history, &mut self.book_rng)
    }

    /// The book move a `go` with these limits plays instead of searching: none for analysis
    /// (`infinite`, `ponder`), mate searches and searches restricted to some moves.
    pub fn book_move_for(&mut self, limits: &Limits) -> Option<BookMove> {
        if limits.infinite || limits.mate.is_some() || !limits.searchmoves.is_empty() {
            return None;
        }
        self.book_move()
    }
}

/// A search run with some limits, reporting each iteration.
type SearchFn<'a> = dyn FnMut(Limits, &mut dyn FnMut(&SearchInfo)) -> SearchResult + 'a;

/// Runs `search` with `limits` at full strength, or weakened for `strength` (its caps and
/// candidates, then a random choice among them seeded with `seed`; `report` sees only the lines
/// the caller asked for).
fn weakened_search(
    strength: Strength,
    seed: u64,
    limits: Limits,
    report: &mut dyn FnMut(&SearchInfo),
    search: &mut SearchFn<'_>,
) -> SearchResult {
    if !strength.applies_to(&limits) {
        return search(limits, report);
    }
    let mut candidates = Candidates::new(limits.multipv);
    let result = search(strength.limits(&limits), &mut |info| {
        if candidates.see(info) {
            report(info);
        }
    });
    candidates.choose(&strength, result, &mut BookRng::new(seed))
}

#[allow(clippy::too_many_arguments)]
fn run_search(
    searchers: &Arc<Mutex<Vec<Searcher>>>,
    stop: &Arc<AtomicBool>,
    net: Option<Arc<NnueNet>>,
    position: &Position,
    history: &[u64],
    limits: Limits,
    hold: bool,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let mut guard = match searchers.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    for s in guard.iter_mut() {
        s.set_nnue(net.clone());
    }
    let shared = Arc::new(AtomicU64::new(0));
    let (main, helpers) = guard.split_first_mut().expect("at least one searcher");
    main.set_shared_nodes(shared.clone());
    std::thread::scope(|scope| {
        for h in helpers.iter_mut() {
            h.set_helper(shared.clone());
            let mut helper_limits = limits.clone();
            helper_limits.depth = None;
            helper_limits.nodes = None;
            helper_limits.infinite = true;
            helper_limits.multipv = 1;
            let pos = position.clone();
            scope.spawn(move || {
                h.search(&pos, history, helper_limits, &mut |_| {});
            });
        }
        let result = main.search(position, history, limits, report);
        // With `hold`, wait for the stop flag (set by `stop` or `wait`) before returning.
        while hold && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        stop.store(true, Ordering::Relaxed);
        result
    })
}
