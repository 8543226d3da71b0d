//! `bot load`: a load test of the arena. It starts an arena in this process (with a SQLite
//! database, as it runs for real, or in memory) and plays `games` bot-vs-bot games at once
//! through the Bot API on 127.0.0.1: each side is a client task that follows its game stream
//! and, on its turn, posts a random legal move (the cost of a one-node search). Each game ends
//! after `plies` plies (the side to move resigns) or by the rules; the run is bounded by
//! `seconds`. It reports the moves per second the arena sustained, the latency of a move POST
//! (median and 99th percentile, measured by the client) and the memory per running game.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use anyhow::Context as _;
use engine::rules::{game::Game, Color, Position, Variant};

use crate::{
    api::{
        client::ChallengeRequest,
        types::{Event, GameEvent},
        Client, Token,
    },
    arena::{Arena, ArenaConfig, Storage},
    bench::rss_mb,
    demo::arena_bot_config,
    variants,
};

/// Load-test settings.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Games at once.
    pub games: usize,
    /// Plies per game before the side to move resigns.
    pub plies: usize,
    /// Variant.
    pub variant: Variant,
    /// Keep the state in a SQLite file (in a temporary directory) rather than in memory.
    pub sqlite: bool,
    /// Time bound of the whole run.
    pub seconds: u64,
    /// Serve with the metrics on (`/metrics`; they are counted either way when on).
    pub metrics: bool,
    /// Write the access log (into the temporary directory).
    pub access_log: bool,
}

/// What the load test measured.
#[derive(Clone, Debug)]
pub struct LoadResult {
    /// Games finished in time.
    pub games: usize,
    /// Moves accepted.
    pub moves: usize,
    /// Wall time from the first challenge to the last game's end.
    pub elapsed: Duration,
    /// Move POST latency, median, ms.
    pub move_p50_ms: f64,
    /// Move POST latency, 99th percentile, ms.
    pub move_p99_ms: f64,
    /// Highest resident memory with the games running minus before, per game, MB.
    pub mb_per_game: f64,
}

impl LoadResult {
    /// Moves per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[(((sorted.len() - 1) as f64) * p).round() as usize]
}

/// One side of one game: follows the stream, moves on its turn, resigns at `plies`.
async fn side(
    client: Client,
    id: String,
    color: Color,
    variant: Variant,
    plies: usize,
    latencies: Arc<Mutex<Vec<f64>>>,
    seed: u64,
) {
    let Ok(mut stream) = client.stream_game(&id).await else {
        return;
    };
    let mut game = Game::new(Position::startpos(variant));
    let mut applied = 0;
    let mut rng = seed | 1;
    while let Ok(Some(event)) = stream.next().await {
        let state = match event {
            GameEvent::GameFull(full) => full.state,
            GameEvent::GameState(s) => s,
            _ => continue,
        };
        if !state.is_running() {
            return;
        }
        let moves = state.move_list();
        for uci in &moves[applied..] {
            let Ok(m) = game.position().parse_uci(uci) else {
                return;
            };
            game.play(m);
        }
        applied = moves.len();
        if game.position().turn() != color {
            continue;
        }
        if applied >= plies {
            let _ = client.resign(&id).await;
            return;
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            return;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let m = legal.as_slice()[(rng % legal.len() as u64) as usize];
        let uci = game.position().uci(m);
        let sent = Instant::now();
        if client.make_move(&id, &uci, false).await.is_ok() {
            let ms = sent.elapsed().as_secs_f64() * 1000.0;
            latencies.lock().unwrap_or_else(|p| p.into_inner()).push(ms);
        }
    }
}

/// Runs the load test.
pub async fn run(options: LoadOptions) -> anyhow::Result<LoadResult> {
    let dir = std::env::temp_dir().join(format!("arena-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).context("temporary directory")?;
    let storage = if options.sqlite {
        Storage::File(dir.join("arena.sqlite"))
    } else {
        Storage::Memory
    };
    let arena = Arena::start(ArenaConfig {
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        storage,
        metrics: options.metrics,
        access_log: options.access_log.then(|| dir.join("access.log")),
        ..ArenaConfig::default()
    })
    .await
    .context("starting the arena")?;
    let config = arena_bot_config(&arena.url(), "persian-princess", 1, dir.join("unused"));
    let alpha = Client::new(config.client_options(Token::new("alpha-token")))?;
    let beta = Client::new(config.client_options(Token::new("beta-token")))?;
    let mut beta_events = beta.stream_events().await.context("Beta's event stream")?;
    let key = variants::server_key(options.variant);
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let rss_before = rss_mb();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..options.games {
        let request = ChallengeRequest {
            variant: key.to_string(),
            clock: Some((600, 5)),
            rated: false,
            color: "white".into(),
            fen: None,
        };
        let ch = alpha.create_challenge("Beta", &request).await.context("challenging")?;
        // Beta accepts when it hears the challenge.
        loop {
            match tokio::time::timeout(Duration::from_secs(10), beta_events.next()).await {
                Ok(Ok(Some(Event::Challenge { challenge, .. }))) if challenge.id == ch.id => break,
                Ok(Ok(Some(_))) => continue,
                _ => anyhow::bail!("Beta did not hear challenge {}", ch.id),
            }
        }
        beta.accept_challenge(&ch.id).await.context("accepting")?;
        for (client, color, seed) in [
            (alpha.clone(), Color::White, 2 * i as u64),
            (beta.clone(), Color::Black, 2 * i as u64 + 1),
        ] {
            tasks.push(tokio::spawn(side(
                client,
                ch.id.clone(),
                color,
                options.variant,
                options.plies,
                latencies.clone(),
                0x9e37_79b9_7f4a_7c15 ^ seed,
            )));
        }
    }
    let mut peak = rss_mb();
    let deadline = Instant::now() + Duration::from_secs(options.seconds);
    let mut finished = 0;
    for t in tasks {
        let left = deadline.saturating_duration_since(Instant::now());
        let mut t = t;
        loop {
            tokio::select! {
                r = &mut t => {
                    finished += usize::from(r.is_ok());
                    break;
                }
                _ = tokio::time::sleep(Duration::from_millis(100)) => peak = peak.max(rss_mb()),
                _ = tokio::time::sleep(left) => {
                    t.abort();
                    break;
                }
            }
        }
    }
    let elapsed = started.elapsed();
    arena.stop();
    let _ = std::fs::remove_dir_all(&dir);
    let mut lat = latencies.lock().unwrap_or_else(|p| p.into_inner()).clone();
    lat.sort_by(f64::total_cmp);
    Ok(LoadResult {
        games: finished / 2,
        moves: lat.len(),
        elapsed,
        move_p50_ms: percentile(&lat, 0.5),
        move_p99_ms: percentile(&lat, 0.99),
        mb_per_game: (peak - rss_before).max(0.0) / options.games.max(1) as f64,
    })
}
