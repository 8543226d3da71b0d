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
    /// A move from the opening book (`engine.book`): its statistics, for the log; no search.
    pub book: Option<String>,
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
        engine.set_strength(config.strength());
        if let Some(book) = config.books.for_variant(variant) {
            if let Err(e) = engine.set_book_data(Some(book)) {
                tracing::warn!("engine.book: {e}; playing without a book");
            }
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
        let book_depth = self.config.book_depth as usize;
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
            if moves.len() < book_depth {
                if let Some(book) = engine.book_move() {
                    let pos = engine.position();
                    return Ok(Choice {
                        uci: pos.uci(book.mv),
                        score: Score::Cp(0),
                        search_time: std::time::Duration::ZERO,
                        depth: 0,
                        nodes: 0,
                        book: Some(format!("{}: {}", pos.san(book.mv), book.describe())),
                    });
                }
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
                book: None,
            })
        })
        .await
        .map_err(|e| PlayerError::Thread(e.to_string()))?
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use engine::{
        book::{Book, BookEntry},
        rules::Position,
    };

    use super::*;

    /// A book of two moves from the start position (e3e5 played far more often), written to a
    /// file of its own.
    fn book_file(variant: Variant, name: &str) -> std::path::PathBuf {
        let pos = Position::startpos(variant);
        let entry = |uci: &str, games: u32| BookEntry {
            key: pos.hash(),
            mv: pos.parse_uci(uci).unwrap().raw(),
            games,
            white_wins: games / 2,
            draws: games / 4,
            black_wins: games - games / 2 - games / 4,
        };
        let book = Book::new(variant, 8, 5, 100, vec![entry("e3e5", 90), entry("d3d5", 10)]);
        let dir = std::env::temp_dir().join(format!("bot-player-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        book.write(&path).unwrap();
        path
    }

    fn config(text: &str) -> EngineConfig {
        let mut c = crate::config::Config::parse(text).unwrap();
        c.engine.load_books().unwrap();
        c.engine
    }

    #[tokio::test]
    async fn a_bot_with_a_book_plays_book_moves_within_the_depth() {
        let v = Variant::PersianPrincess;
        let path = book_file(v, "princess.book");
        let other = book_file(Variant::EgyptianEye, "eye.book");
        let c = config(&format!(
            "[engine]\nnodes = 2000\nbook = [{:?}, {:?}]\nbook_depth = 4\n",
            other.display().to_string(),
            path.display().to_string()
        ));
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..20 {
            let player = Player::new(v, &c);
            let choice = player.choose(None, Vec::new(), None).await.unwrap();
            assert!(choice.book.is_some(), "{choice:?}");
            assert_eq!(choice.nodes, 0);
            seen.insert(choice.uci);
        }
        // Both book moves are played (chosen by weight), and nothing else.
        assert!(seen.iter().all(|m| m == "e3e5" || m == "d3d5"), "{seen:?}");
        assert!(seen.contains("e3e5"), "{seen:?}");
        // Out of the book: a search.
        let player = Player::new(v, &c);
        let choice = player
            .choose(None, vec!["e3e5".into(), "e9e7".into()], None)
            .await
            .unwrap();
        assert!(choice.book.is_none() && choice.nodes > 0, "{choice:?}");
        // Beyond book_depth the book is not asked, even in a book position.
        let c0 = config(&format!(
            "[engine]\nnodes = 2000\nbook = {:?}\nbook_depth = 0\n",
            path.display().to_string()
        ));
        let choice = Player::new(v, &c0).choose(None, Vec::new(), None).await.unwrap();
        assert!(choice.book.is_none(), "{choice:?}");
        // A variant without a book in the list searches.
        let choice = Player::new(Variant::Chess, &c)
            .choose(None, Vec::new(), None)
            .await
            .unwrap();
        assert!(choice.book.is_none(), "{choice:?}");
        if let Some(dir) = path.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    #[tokio::test]
    async fn a_weakened_bot_plays_legal_moves() {
        let c = config("[engine]\nskill = 1\n");
        let v = Variant::EgyptianEye;
        let player = Player::new(v, &c);
        let choice = player.choose(None, vec!["e3e5".into()], None).await.unwrap();
        let mut pos = Position::startpos(v);
        pos.play_uci("e3e5").unwrap();
        assert!(pos.parse_uci(&choice.uci).is_ok(), "{choice:?}");
        // Level 1: at most two plies.
        assert!(choice.depth <= 2, "{choice:?}");
    }
}
