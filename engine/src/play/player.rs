//! Players: whatever picks the moves of one side of a game. [`EnginePlayer`] is the engine
//! searching with fixed limits; self-play wraps the engine in its own player.

use crate::{
    engine::Engine,
    rules::{game::Game, Move},
    search::{Limits, Score},
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
}

/// A player could not pick a move (the game loop counts this as an illegal move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("position rejected: {0}")]
pub struct PickError(pub String);

/// One side of a game (or both, see [`super::Seats::Both`]).
pub trait Player {
    /// Called once before each game, with the game after its opening moves.
    fn new_game(&mut self, game: &Game);
    /// Picks the move of the side to move in `game`.
    fn pick(&mut self, game: &Game) -> Result<Pick, PickError>;
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
    }
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
}
