//! `bot demo`: the arena in-process on 127.0.0.1 and two bots (Alpha and Beta) that play one
//! game; moves are printed as they come and the PGN is saved. No token, no network.

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use anyhow::Context as _;
use engine::rules::Variant;
use tokio::{
    sync::{mpsc, watch},
    task::JoinHandle,
};

use crate::{
    api::{client::ChallengeRequest, Client, Token},
    arena::{Arena, ArenaConfig, ArenaLog},
    config::{Clock, Config, Speed},
    events::Bot,
    game::GameReport,
    variants,
};

/// Demo settings.
#[derive(Clone, Debug)]
pub struct DemoOptions {
    /// Variant (challenged with its server key).
    pub variant: Variant,
    /// Nodes per move.
    pub nodes: u64,
    /// Clock: initial seconds and increment.
    pub clock: Clock,
    /// Folder for the PGN.
    pub pgn_dir: PathBuf,
    /// Print every move.
    pub print_moves: bool,
    /// Give up after this long.
    pub timeout: Duration,
}

impl Default for DemoOptions {
    fn default() -> DemoOptions {
        DemoOptions {
            variant: Variant::DEFAULT,
            nodes: 20000,
            clock: Clock {
                limit_s: 60,
                increment_s: 1,
            },
            pgn_dir: PathBuf::from("games/demo"),
            print_moves: true,
            timeout: Duration::from_secs(50),
        }
    }
}

/// What the demo did.
#[derive(Clone, Debug)]
pub struct DemoSummary {
    /// White's report.
    pub reports: Vec<GameReport>,
    /// Wall time.
    pub elapsed: Duration,
}

/// A bot configuration for the arena at `url`.
pub fn arena_bot_config(url: &str, variant: &str, nodes: u64, pgn_dir: PathBuf) -> Config {
    let mut config = Config::default();
    config.server.url = url.to_string();
    config.engine.hash_mb = 8;
    config.engine.nodes = Some(nodes);
    config.engine.move_overhead_ms = 50;
    config.challenge.variants = vec![variant.to_string()];
    config.challenge.speeds = Speed::ALL.to_vec();
    config.games.pgn_dir = pgn_dir;
    config.network.stream_timeout_s = 5;
    config.network.backoff_base_ms = 50;
    config.network.rate_limit_wait_s = 1;
    config
}

/// Connects the arena's bots Alpha and Beta (`alpha-token`, `beta-token`), each configured by
/// `configure(name)`, and runs them until `shutdown`. Returns Alpha's client (to send
/// challenges) and the two bot tasks.
pub async fn start_alpha_and_beta(
    configure: impl Fn(&str) -> Config,
    reports: mpsc::UnboundedSender<GameReport>,
    shutdown: watch::Receiver<bool>,
) -> anyhow::Result<(Client, Vec<JoinHandle<anyhow::Result<()>>>)> {
    let mut tasks = Vec::new();
    let mut alpha = None;
    for name in ["alpha", "beta"] {
        let bot = Bot::connect(configure(name), Token::new(&format!("{name}-token")))
            .await
            .with_context(|| format!("connecting {name}"))?
            .with_reports(reports.clone());
        alpha.get_or_insert_with(|| bot.client().clone());
        tasks.push(tokio::spawn(bot.run(shutdown.clone())));
    }
    Ok((alpha.context("no bot")?, tasks))
}

/// Runs the demo.
pub async fn run(options: DemoOptions) -> anyhow::Result<DemoSummary> {
    let started = Instant::now();
    let arena = Arena::start(ArenaConfig {
        event_keepalive: Duration::from_secs(2),
        game_keepalive: Duration::from_secs(2),
        ..ArenaConfig::default()
    })
    .await
    .context("starting the arena")?;
    let mut log = arena.subscribe();
    println!("arena listening on {}", arena.url());
    let (shutdown_tx, shutdown) = watch::channel(false);
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let key = variants::server_key(options.variant);
    let (client, bots) = start_alpha_and_beta(
        |_| arena_bot_config(&arena.url(), key, options.nodes, options.pgn_dir.clone()),
        reports_tx,
        shutdown,
    )
    .await?;
    let request = ChallengeRequest {
        variant: key.to_string(),
        clock: Some((options.clock.limit_s, options.clock.increment_s)),
        rated: false,
        color: "white".into(),
        fen: None,
    };
    let ch = client
        .create_challenge("Beta", &request)
        .await
        .context("challenging Beta")?;
    println!(
        "Alpha challenges Beta: {} {} (challenge {}), {} nodes per move",
        key, options.clock, ch.id, options.nodes
    );
    let deadline = tokio::time::Instant::now() + options.timeout;
    let mut got: Vec<GameReport> = Vec::new();
    let mut line = String::new();
    while got.len() < 2 {
        tokio::select! {
            entry = log.recv() => match entry {
                Ok(ArenaLog::GameStarted { game, variant, white, black }) => {
                    println!("game {game} started: {variant}, {white} (white) vs {black} (black)");
                }
                Ok(ArenaLog::Moved { ply, san, .. }) if options.print_moves => {
                    if ply % 2 == 1 {
                        line = format!("{:>4}. {san}", ply.div_ceil(2));
                    } else {
                        println!("{line:<16} {san}");
                        line.clear();
                    }
                }
                Ok(ArenaLog::GameFinished { status, winner, .. }) => {
                    if !line.is_empty() {
                        println!("{line}");
                        line.clear();
                    }
                    println!("game over: {status}{}", winner.map(|w| format!(", {w} wins")).unwrap_or_default());
                }
                _ => {}
            },
            report = reports.recv() => match report {
                Some(r) => got.push(r),
                None => break,
            },
            _ = tokio::time::sleep_until(deadline) => {
                let _ = shutdown_tx.send(true);
                anyhow::bail!("the demo game did not finish within {:?}", options.timeout);
            }
        }
    }
    let _ = shutdown_tx.send(true);
    for b in bots {
        let _ = b.await;
    }
    arena.stop();
    Ok(DemoSummary {
        reports: got,
        elapsed: started.elapsed(),
    })
}
