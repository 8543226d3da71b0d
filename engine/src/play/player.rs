//! Players: whatever picks the moves of one side of a game. [`EnginePlayer`] is the engine
//! searching with fixed limits (and the clock, in timed games); self-play wraps the engine in its
//! own player; [`super::uci_engine::UciPlayer`] is another program speaking UCI.

use std::time::Duration;

use super::clock::{SideClock, TimeControl};
use crate::{
    engine::Engine,
    rules::{game::Game, ByColor, Color, Move},
    search::{time, Limits, Score},
};

/// A player's move and what its search said about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The move (checked by the game loop: a null or illegal move loses the game).
    pub best: Move,
    /// The score of the move, from the mover's view.
    pub score: Score,
    /// The completed search depth.
    pub depth: u32,
    /// Whether `score` was reported (another program may report none: its pick then carries 0
    /// and does not count for the resign and draw rules).
    pub scored: bool,
}

/// A player could not pick a move (the game loop counts this as an illegal move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("position rejected: {0}")]
pub struct PickError(pub String);

/// Why a player gave no move in a timed game (see [`Player::pick_timed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickFailure {
    /// The player answered with something that is not a legal move, or refused the position:
    /// what it said (lost as an illegal move).
    Illegal(String),
    /// No answer within the time the player was given (lost on time with a clock; an engine
    /// failure without one).
    NoAnswer {
        /// How long it was waited for.
        waited: Duration,
    },
    /// The player's program failed (exited, closed its output): what happened.
    Failed(String),
}

impl From<PickError> for PickFailure {
    fn from(e: PickError) -> PickFailure {
        PickFailure::Illegal(format!("({e})"))
    }
}

/// What a player is told about time when it is asked for a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeView {
    /// The clock of each side (`None`: that side plays without one).
    pub clocks: ByColor<Option<SideClock>>,
    /// How far beyond its time a move of each side may go before it loses, milliseconds.
    pub margins_ms: ByColor<u64>,
}

impl TimeView {
    /// The clock of `side`, if it has one.
    pub fn clock(&self, side: Color) -> Option<&SideClock> {
        self.clocks[side].as_ref()
    }

    /// How long `side` may think before it loses on time; `None` without a clock.
    pub fn allowance(&self, side: Color) -> Option<Duration> {
        self.clock(side).map(|c| c.allowance(self.margins_ms[side]))
    }
}

/// One side of a game (or both, see [`super::Seats::Both`]).
pub trait Player {
    /// Called once before each game, with the game after its opening moves.
    fn new_game(&mut self, game: &Game);
    /// Picks the move of the side to move in `game`.
    fn pick(&mut self, game: &Game) -> Result<Pick, PickError>;
    /// Picks the move of the side to move in `game`, with the clocks in `time`. The game loop
    /// measures the time taken and checks the move. By default the clocks are ignored and
    /// [`Player::pick`] is asked.
    fn pick_timed(&mut self, game: &Game, time: &TimeView) -> Result<Pick, PickFailure> {
        let _ = time;
        self.pick(game).map_err(PickFailure::from)
    }
}

/// The engine as a player: it gets the whole game (start position and every move) and searches
/// it with `limits`.
pub struct EnginePlayer<'a> {
    /// The engine.
    pub engine: &'a mut Engine,
    /// The limits of every search.
    pub limits: Limits,
}

impl<'a> EnginePlayer<'a> {
    /// The engine searching with `limits`.
    pub fn new(engine: &'a mut Engine, limits: Limits) -> EnginePlayer<'a> {
        EnginePlayer { engine, limits }
    }
}

/// Switches `engine` to the variant of `game` if needed and clears its state for a new game.
pub fn start_engine_game(engine: &mut Engine, game: &Game) {
    let variant = game.start().variant();
    if engine.variant() != variant {
        engine.set_variant(variant);
    }
    engine.new_game();
}

/// Searches the position `engine` was set to with `limits` and returns the pick.
pub fn search_pick(engine: &mut Engine, limits: Limits) -> Pick {
    let result = engine.search(limits, &mut |_| {});
    Pick {
        best: result.best,
        score: result.score,
        depth: result.depth,
        scored: true,
    }
}

/// `limits` with the time budget of `clock` (the side to move's): its clock less the engine's
/// move overhead, or its fixed time per move. Without a clock, `limits` as they are.
pub fn limits_on_clock(engine: &Engine, limits: &Limits, clock: Option<&SideClock>) -> Limits {
    let mut limits = limits.clone();
    if let Some(c) = clock {
        limits.budget = match c.control {
            TimeControl::MoveTime(ms) => time::plan(time::TimeLimit::MoveTime(ms), 0, None),
            TimeControl::Clock { .. } => match c.search_clock() {
                Some(k) => time::plan(time::TimeLimit::Clock(k), engine.settings().move_overhead_ms, None),
                None => limits.budget,
            },
        };
    }
    limits
}

impl Player for EnginePlayer<'_> {
    fn new_game(&mut self, game: &Game) {
        start_engine_game(self.engine, game);
    }

    fn pick(&mut self, game: &Game) -> Result<Pick, PickError> {
        self.engine
            .set_game(game.start().clone(), game.moves())
            .map_err(|e| PickError(e.to_string()))?;
        Ok(search_pick(self.engine, self.limits.clone()))
    }

    fn pick_timed(&mut self, game: &Game, time: &TimeView) -> Result<Pick, PickFailure> {
        self.engine
            .set_game(game.start().clone(), game.moves())
            .map_err(|e| PickFailure::from(PickError(e.to_string())))?;
        let limits = limits_on_clock(self.engine, &self.limits, time.clock(game.position().turn()));
        Ok(search_pick(self.engine, limits))
    }
}
