//! The engine adapter: one in-process `Engine` per game, searched on a blocking thread with
//! limits from the clocks and the configured caps.

use std::sync::{Arc, Mutex};

use engine::{
    engine::Engine,
    rules::Variant,
    search::{
        time::{plan, Clock, TimeLimit},
        Limits, Score,
    },
};

use crate::config::{eval_text, EngineConfig};

/// Why no move could be chosen.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// The position from the server is not valid for the engine.
    #[error("bad position: {0}")]
    Position(String),
    /// The position has no legal move.
    #[error("no legal move")]
    NoMove,
    /// The search thread failed.
    #[error("search thread failed: {0}")]
    Thread(String),
}

/// Our clock for a move, ms.
#[derive(Clone, Copy, Debug)]
pub struct MoveClock {
    /// Our time left.
    pub time_ms: i64,
    /// Our increment.
    pub inc_ms: i64,
}

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move, UCI.
    pub uci: String,
    /// Its score, from our side.
    pub score: Score,
    /// Time spent in the engine's search itself.
    pub search_time: std::time::Duration,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// An engine playing one game.
pub struct Player {
    engine: Arc<Mutex<Engine>>,
    config: EngineConfig,
}

impl Player {
    /// An engine for `variant` with the configured hash, threads and evaluation.
    pub fn new(variant: Variant, config: &EngineConfig) -> Player {
        let mut engine = Engine::new();
        engine.set_variant(variant);
        engine.set_hash(config.hash_mb);
        engine.set_threads(config.threads);
        engine.set_move_overhead(config.move_overhead_ms);
        if let Err(e) = engine.set_eval(config.eval.clone()) {
            tracing::warn!(
                "engine.eval '{}': {e}; using the default evaluation",
                eval_text(&config.eval)
            );
        }
        engine.new_game();
        Player {
            engine: Arc::new(Mutex::new(engine)),
            config: config.clone(),
        }
    }

    /// The limits of one search.
    pub fn limits(&self, clock: Option<MoveClock>) -> Limits {
        let c = &self.config;
        let mut limits = Limits {
            nodes: c.nodes,
            depth: c.depth,
            ..Limits::default()
        };
        // A game without a clock thinks for a fixed time, without overhead (nobody's clock runs).
        let (time_limit, overhead) = match clock {
            Some(clock) => (
                TimeLimit::Clock(Clock {
                    time_ms: clock.time_ms,
                    inc_ms: clock.inc_ms,
                    moves_to_go: None,
                }),
                c.move_overhead_ms,
            ),
            None => (TimeLimit::MoveTime(c.unlimited_move_time_ms), 0),
        };
        limits.budget = plan(time_limit, overhead, c.max_move_time_ms);
        limits
    }

    /// Searches the position after `moves` from `initial_fen` (None: start position) and
    /// returns the best move in UCI with its score.
    pub async fn choose(
        &self,
        initial_fen: Option<String>,
        moves: Vec<String>,
        clock: Option<MoveClock>,
    ) -> Result<Choice, PlayerError> {
        let engine = self.engine.clone();
        let limits = self.limits(clock);
        tokio::task::spawn_blocking(move || {
            let mut engine = engine.lock().unwrap_or_else(|p| p.into_inner());
            let variant = engine.variant();
            let (start, moves) = engine::engine::parse_game(variant, initial_fen.as_deref(), &moves)
                .map_err(|e| PlayerError::Position(e.to_string()))?;
            engine
                .set_game(start, &moves)
                .map_err(|e| PlayerError::Position(e.to_string()))?;
            if !engine.position().has_legal_move() {
                return Err(PlayerError::NoMove);
            }
            let started = std::time::Instant::now();
            let result = engine.search(limits, &mut |_| {});
            let search_time = started.elapsed();
            Ok(Choice {
                uci: engine.position().uci(result.best),
                score: result.score,
                search_time,
                depth: result.depth,
                nodes: result.nodes,
            })
        })
        .await
        .map_err(|e| PlayerError::Thread(e.to_string()))?
    }
}
