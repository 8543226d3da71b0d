//! Helpers: an in-process arena with fast keep-alives, bots on it, a raw HTTP client.
#![allow(dead_code)]

use std::{path::PathBuf, time::Duration};

use bot::{
    api::{client::ChallengeRequest, Client, Token},
    arena::{Arena, ArenaConfig},
    config::Config,
    demo::arena_bot_config,
    events::Bot,
    game::GameReport,
};
use tokio::sync::{mpsc, watch};

pub async fn arena() -> Arena {
    Arena::start(ArenaConfig {
        event_keepalive: Duration::from_millis(500),
        game_keepalive: Duration::from_millis(500),
        ..ArenaConfig::default()
    })
    .await
    .expect("arena starts")
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bot-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn config(arena: &Arena, variant: &str, pgn_dir: PathBuf) -> Config {
    arena_bot_config(&arena.url(), variant, 1500, pgn_dir)
}

pub struct RunningBot {
    pub reports: mpsc::UnboundedReceiver<GameReport>,
    pub shutdown: watch::Sender<bool>,
    pub task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

pub async fn start_bot(config: Config, token: &str) -> RunningBot {
    let (tx, reports) = mpsc::unbounded_channel();
    let (shutdown, rx) = watch::channel(false);
    let bot = Bot::connect(config, Token::new(token))
        .await
        .expect("bot connects")
        .with_reports(tx);
    let task = tokio::spawn(bot.run(rx));
    RunningBot {
        reports,
        shutdown,
        task,
    }
}

impl RunningBot {
    pub async fn next_report(&mut self, within: Duration) -> GameReport {
        tokio::time::timeout(within, self.reports.recv())
            .await
            .expect("a game report in time")
            .expect("report channel open")
    }

    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        let _ = self.task.await;
    }
}

pub fn client(arena: &Arena, token: &str) -> Client {
    let config = arena_bot_config(&arena.url(), "persian-princess", 1, temp_dir("unused"));
    Client::new(config.client_options(Token::new(token))).expect("client")
}

pub fn request(variant: &str, clock: Option<(u64, u64)>, rated: bool, color: &str) -> ChallengeRequest {
    ChallengeRequest {
        variant: variant.into(),
        clock,
        rated,
        color: color.into(),
        fen: None,
    }
}

/// Waits until `user` has opened its event stream `n` times.
pub async fn wait_event_streams(arena: &Arena, user: &str, n: usize) {
    for _ in 0..200 {
        if arena.stats().event_stream_opens.get(user).copied().unwrap_or(0) >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{user} did not open its event stream {n} times");
}
