//! `bot bench`: the bot's own costs on the in-process arena. Alpha challenges Beta to `games`
//! games at once (both bots in this process, each game played by two game tasks); the bench
//! reports the latency from receiving a `gameState` to sending the move beyond the search
//! (median and 90th percentile over every move), and the resident memory per running game.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use engine::rules::Variant;
use tokio::sync::{mpsc, watch};

use crate::{
    api::client::ChallengeRequest,
    arena::{Arena, ArenaConfig},
    demo::{arena_bot_config, start_alpha_and_beta},
    game::GameReport,
    variants,
};

/// Bench settings.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Games played at the same time.
    pub games: usize,
    /// Variant (challenged with its server key).
    pub variant: Variant,
    /// Nodes per move.
    pub nodes: u64,
    /// Hash per game, MB.
    pub hash_mb: usize,
}

/// What the bench measured.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Games finished.
    pub games: usize,
    /// Moves sent (both bots).
    pub moves: usize,
    /// Median latency beyond the search, ms.
    pub overhead_median_ms: f64,
    /// 90th percentile, ms.
    pub overhead_p90_ms: f64,
    /// Resident memory before the games, MB (Linux; 0 elsewhere).
    pub rss_before_mb: f64,
    /// Highest resident memory seen while the games ran, MB.
    pub rss_peak_mb: f64,
    /// Wall time.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Memory per running game (two game tasks, two engines), MB.
    pub fn mb_per_game(&self) -> f64 {
        (self.rss_peak_mb - self.rss_before_mb) / self.games.max(1) as f64
    }
}

/// Resident memory of this process, MB (Linux `/proc/self/statm`; 0 where unavailable).
pub fn rss_mb() -> f64 {
    let Ok(text) = std::fs::read_to_string("/proc/self/statm") else {
        return 0.0;
    };
    let pages: f64 = text
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Runs the bench.
pub async fn run(options: BenchOptions) -> anyhow::Result<BenchResult> {
    // No rate limit: the bench measures the bot, not the server's 429 pauses.
    let arena = Arena::start(ArenaConfig {
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        ..ArenaConfig::default()
    })
    .await
    .context("starting the arena")?;
    let pgn_dir = std::env::temp_dir().join(format!("bot-bench-{}", std::process::id()));
    let (shutdown_tx, shutdown) = watch::channel(false);
    let (reports_tx, mut reports) = mpsc::unbounded_channel::<GameReport>();
    let rss_before_mb = rss_mb();
    let key = variants::server_key(options.variant);
    let configure = |_: &str| {
        let mut config = arena_bot_config(&arena.url(), key, options.nodes, pgn_dir.clone());
        config.engine.hash_mb = options.hash_mb;
        config.challenge.max_games = options.games;
        config.games.greeting.clear();
        config.games.goodbye.clear();
        config.decisions.resign_score = 0;
        config.decisions.offer_draw_moves = 0;
        config
    };
    // Challenges sent before Beta's event stream is open are replayed to it when it opens.
    let (client, tasks) = start_alpha_and_beta(configure, reports_tx, shutdown).await?;
    let started = Instant::now();
    for _ in 0..options.games {
        let request = ChallengeRequest {
            variant: key.to_string(),
            clock: Some((600, 5)),
            rated: false,
            color: "random".into(),
            fen: None,
        };
        client
            .create_challenge("Beta", &request)
            .await
            .context("challenging Beta")?;
    }
    let mut got = Vec::new();
    let mut rss_peak_mb = rss_before_mb;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(600);
    while got.len() < 2 * options.games {
        tokio::select! {
            r = reports.recv() => match r {
                Some(r) => got.push(r),
                None => break,
            },
            _ = tokio::time::sleep(Duration::from_millis(50)) => {
                rss_peak_mb = rss_peak_mb.max(rss_mb());
            }
            _ = tokio::time::sleep_until(deadline) => anyhow::bail!("the bench games did not finish in 10 minutes"),
        }
    }
    let elapsed = started.elapsed();
    let _ = shutdown_tx.send(true);
    for t in tasks {
        let _ = t.await;
    }
    arena.stop();
    let _ = std::fs::remove_dir_all(&pgn_dir);
    let mut overheads: Vec<f64> = got.iter().flat_map(|r| r.overhead_ms.iter().copied()).collect();
    overheads.sort_by(f64::total_cmp);
    Ok(BenchResult {
        games: got.len() / 2,
        moves: overheads.len(),
        overhead_median_ms: percentile(&overheads, 0.5),
        overhead_p90_ms: percentile(&overheads, 0.9),
        rss_before_mb,
        rss_peak_mb,
        elapsed,
    })
}
