//! The games of a session on worker threads: each worker takes the next game of the plan, draws
//! its opening with a generator of its own (a game's opening depends on the seed and the game
//! alone), plays it and files it in its shard; the worker that completes a shard writes it.

use std::{
    collections::HashMap,
    path::Path,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Mutex,
    },
    time::Instant,
};

use anyhow::{anyhow, Context, Result};
use engine::{
    engine::{Engine, EvalSource},
    rules::Variant,
};

use super::{
    game::{self, GameSettings, PlayedGame},
    opening::{OpeningGenerator, Rejections},
    progress::Progress,
    shard::{self, ShardPaths, ShardSummary},
    summary::duration_text,
};
use crate::data::io::thousands;

struct ShardBuffer {
    games: Vec<Option<PlayedGame>>,
    missing: u64,
}

/// Counters of this session.
#[derive(Default)]
pub(super) struct Tally {
    /// The games of this session.
    pub summary: ShardSummary,
    /// Shards written.
    pub shards_written: u64,
    /// Their indices, in the order written.
    pub written_paths: Vec<u64>,
    /// The openings drawn, over all workers.
    pub openings: Rejections,
}

/// Makes the opening generator of a worker.
pub(super) type MakeGenerator<'a> = dyn Fn() -> Result<OpeningGenerator> + Sync + 'a;

/// A fresh engine for `variant` with `hash` MB and the evaluation `eval`.
pub(super) fn make_engine(variant: Variant, hash: usize, eval: &EvalSource) -> Result<Engine> {
    let mut e = Engine::new();
    e.set_variant(variant);
    e.set_hash(hash);
    e.set_eval(eval.clone())?;
    Ok(e)
}

/// What the workers of a session share.
pub(super) struct Session<'a> {
    /// The output directory.
    pub out: &'a Path,
    /// The games to play: (shard index, slot in the shard), in game order.
    pub jobs: &'a [(u64, u64)],
    /// Games of each shard to play.
    pub games_in: &'a HashMap<u64, u64>,
    /// Games per shard.
    pub per_shard: u64,
    /// Id of the directory's first game.
    pub first_game_id: u32,
    /// The engine's evaluation and hash.
    pub eval: &'a EvalSource,
    /// See `eval`.
    pub hash_mb: usize,
    /// Everything a game needs.
    pub game_settings: &'a GameSettings,
    /// The openings: a generator for each worker.
    pub openings: &'a MakeGenerator<'a>,
    /// Shards this session writes.
    pub total_shards: u64,
    /// Games in the directory before this session.
    pub existing_games: u64,
    /// The display.
    pub progress: &'a Progress,
    /// When the session's games started.
    pub started: Instant,
}

/// Plays the session's games on `threads` workers. Returns the session's counters, or (inside)
/// the first error of a worker.
pub(super) fn play_all(session: &Session<'_>, threads: usize) -> Result<Result<Tally>> {
    let cursor = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let shared = Shared {
        session,
        cursor,
        stop,
        buffers: Mutex::new(HashMap::new()),
        tally: Mutex::new(Tally::default()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("selfplay-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    pool.scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| {
                if let Err(e) = shared.work() {
                    shared.stop.store(true, Ordering::Relaxed);
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                }
            });
        }
    });
    session.progress.finish();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Ok(Err(e));
    }
    let tally = shared.tally.into_inner().map_err(|_| anyhow!("a worker failed"))?;
    Ok(Ok(tally))
}

struct Shared<'s, 'a> {
    session: &'s Session<'a>,
    cursor: AtomicUsize,
    stop: AtomicBool,
    buffers: Mutex<HashMap<u64, ShardBuffer>>,
    tally: Mutex<Tally>,
}

impl Shared<'_, '_> {
    /// One worker: games until none is left or another worker failed.
    fn work(&self) -> Result<()> {
        let mut engine: Option<Engine> = None;
        let mut generator: Option<OpeningGenerator> = None;
        let result = self.work_with(&mut engine, &mut generator);
        if let Some(g) = &generator {
            let mut t = self.tally.lock().map_err(|_| anyhow!("a worker failed"))?;
            t.openings.add(&g.rejections);
        }
        result
    }

    fn work_with(&self, engine: &mut Option<Engine>, generator: &mut Option<OpeningGenerator>) -> Result<()> {
        let s = self.session;
        while !self.stop.load(Ordering::Relaxed) {
            let j = self.cursor.fetch_add(1, Ordering::Relaxed);
            let Some(&(index, slot)) = s.jobs.get(j) else {
                break;
            };
            let relative = index * s.per_shard + slot;
            let id = (u64::from(s.first_game_id) + relative) as u32;
            let g = match generator {
                Some(g) => g,
                None => generator.insert((s.openings)()?),
            };
            let opening = g.opening(relative)?;
            let e = match engine {
                Some(e) => e,
                None => engine.insert(make_engine(s.game_settings.variant, s.hash_mb, s.eval)?),
            };
            let played = game::play(e, &opening.opening, &opening.sampled, id, s.game_settings)?;
            if let Some(games) = self.file_game(index, slot, played)? {
                self.write_shard(index, &games)?;
            }
        }
        Ok(())
    }

    /// Counts a finished game and files it in its shard; returns the shard's games when it is
    /// complete.
    fn file_game(&self, index: u64, slot: u64, played: PlayedGame) -> Result<Option<Vec<PlayedGame>>> {
        let s = self.session;
        let mut t = self.tally.lock().map_err(|_| anyhow!("a worker failed"))?;
        t.summary.add_game(&played);
        s.progress.game_finished(
            &t.summary,
            s.existing_games,
            s.jobs.len(),
            (t.shards_written, s.total_shards),
            s.started.elapsed(),
        );
        drop(t);
        let mut b = self.buffers.lock().map_err(|_| anyhow!("a worker failed"))?;
        let n = s.games_in.get(&index).copied().unwrap_or(0);
        let buf = b.entry(index).or_insert_with(|| ShardBuffer {
            games: (0..n).map(|_| None).collect(),
            missing: n,
        });
        buf.games[slot as usize] = Some(played);
        buf.missing -= 1;
        if buf.missing == 0 {
            Ok(b.remove(&index).map(|buf| buf.games.into_iter().flatten().collect()))
        } else {
            Ok(None)
        }
    }

    /// Writes a complete shard and logs it.
    fn write_shard(&self, index: u64, games: &[PlayedGame]) -> Result<()> {
        let s = self.session;
        let summary = shard::write_shard(s.out, index, games)?;
        let mut t = self.tally.lock().map_err(|_| anyhow!("a worker failed"))?;
        t.shards_written += 1;
        t.written_paths.push(index);
        let secs = s.started.elapsed().as_secs_f64().max(1e-3);
        s.progress.log(format!(
            "shard {} written: {} games, {} positions ({}/{} shards, {} positions/s, {})",
            ShardPaths::new(s.out, index).bin.display(),
            summary.games,
            thousands(summary.positions),
            t.shards_written,
            s.total_shards,
            (t.summary.positions as f64 / secs).round(),
            duration_text(s.started.elapsed())
        ));
        Ok(())
    }
}
