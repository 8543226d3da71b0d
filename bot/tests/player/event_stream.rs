//! The event stream against a small local server that misbehaves on purpose: a stream that
//! closes at once (the reconnection backs off), a line far longer than any real one (skipped,
//! the next event still comes), and a flood of one endless line (a stop is still honoured at
//! once).

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{body::Body, routing::get, Router};
use bot::{
    api::{types::Event, Client, Token},
    config::{Config, ShutdownPolicy},
    events::Bot,
};
use futures::StreamExt;
use tokio::sync::watch;

type Chunks = futures::stream::BoxStream<'static, Result<axum::body::Bytes, std::io::Error>>;

/// A server with an account (Beta, a bot) and an event stream whose body for the `n`-th open
/// (from 0) is `body(n)`. Returns its URL and the times of the event stream's opens.
async fn server(body: impl Fn(usize) -> Chunks + Clone + Send + Sync + 'static) -> (String, Arc<Mutex<Vec<Instant>>>) {
    let opens = Arc::new(Mutex::new(Vec::new()));
    let seen = opens.clone();
    let app = Router::new()
        .route(
            "/api/account",
            get(|| async { axum::Json(serde_json::json!({"id": "beta", "username": "Beta", "title": "BOT"})) }),
        )
        .route(
            "/api/stream/event",
            get(move || {
                let n = {
                    let mut opens = seen.lock().expect("opens");
                    opens.push(Instant::now());
                    opens.len() - 1
                };
                let chunks = body(n);
                async move {
                    axum::response::Response::builder()
                        .header("content-type", "application/x-ndjson")
                        .body(Body::from_stream(chunks))
                        .expect("response")
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, opens)
}

fn config(url: &str) -> Config {
    let mut config = Config::default();
    config.server.url = url.to_string();
    config.games.on_shutdown = ShutdownPolicy::Leave;
    config
}

fn opens_now(opens: &Arc<Mutex<Vec<Instant>>>) -> Vec<Instant> {
    opens.lock().expect("opens").clone()
}

const GAME_FINISH: &str = "{\"type\":\"gameFinish\",\"game\":{\"fullId\":\"abcdefgh1234\",\"gameId\":\"abcdefgh\"}}\n";

fn lines(text: &'static str) -> Chunks {
    futures::stream::iter([Ok(axum::body::Bytes::from_static(text.as_bytes()))]).boxed()
}

/// A stream that ends at once is reopened after 100 ms, 200 ms, 400 ms, ... (the first delay
/// set small for the test; 1 s by default); one that brought a new event starts the delays
/// again from the first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_that_closes_at_once_is_reopened_with_back_off() {
    // The 4th connection delivers an event; every connection closes at once.
    let (url, opens) = server(|n| if n == 3 { lines(GAME_FINISH) } else { lines("") }).await;
    let mut config = config(&url);
    config.network.reconnect_base_ms = 100;
    let bot = Bot::connect(config, Token::new("beta-token")).await.expect("connects");
    let (stop, rx) = watch::channel(false);
    let task = tokio::spawn(bot.run(rx));
    let started = Instant::now();
    while opens_now(&opens).len() < 8 && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The next delay is 1.6 s: nothing more for a second.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let _ = stop.send(true);
    tokio::time::timeout(Duration::from_secs(2), task)
        .await
        .expect("stops at once")
        .expect("joined")
        .expect("runs");
    let times = opens_now(&opens);
    let gaps: Vec<Duration> = times.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(times.len(), 8, "opens at {gaps:?} apart");
    let ms = |d: &Duration| d.as_millis();
    // Doubling from 100 ms: sleeps never end early, so these are lower bounds.
    for (gap, at_least) in gaps.iter().zip([90, 180, 360, 0, 180, 360, 720]) {
        assert!(ms(gap) >= at_least, "gaps {gaps:?}");
    }
    // After the connection that brought an event, the first delay again (not 800 ms).
    assert!(ms(&gaps[3]) < 400, "no reset after an event: gaps {gaps:?}");
}

/// A 3 MiB line (in 64 KiB pieces) is skipped, and the event after it comes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_after_a_huge_line_comes_through() {
    let (url, _opens) = server(|_| {
        let junk = (0..48).map(|_| Ok(axum::body::Bytes::from(vec![b'x'; 64 * 1024])));
        let event = [Ok(axum::body::Bytes::from(format!("\n{GAME_FINISH}")))];
        futures::stream::iter(junk.chain(event))
            .chain(futures::stream::pending())
            .boxed()
    })
    .await;
    let client = Client::new(config(&url).client_options(Token::new("beta-token"))).expect("client");
    let mut events = client.stream_events().await.expect("event stream");
    let event = tokio::time::timeout(Duration::from_secs(10), events.next())
        .await
        .expect("in time")
        .expect("no error");
    match event {
        Some(Event::GameFinish { game }) => assert_eq!(game.game_id, "abcdefgh"),
        other => panic!("expected the gameFinish, got {other:?}"),
    }
}

/// A server that floods one endless line: the bot stops within a second of the signal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_is_honoured_while_a_flood_is_read() {
    let (url, opens) =
        server(|_| futures::stream::repeat_with(|| Ok(axum::body::Bytes::from(vec![b'x'; 64 * 1024]))).boxed()).await;
    let mut config = config(&url);
    config.network.stream_timeout_s = 60;
    let bot = Bot::connect(config, Token::new("beta-token")).await.expect("connects");
    let (stop, rx) = watch::channel(false);
    let task = tokio::spawn(bot.run(rx));
    let started = Instant::now();
    while opens_now(&opens).is_empty() && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(opens_now(&opens).len(), 1, "the stream is open");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let _ = stop.send(true);
    let asked = Instant::now();
    let stopped = tokio::time::timeout(Duration::from_secs(1), task).await;
    assert!(stopped.is_ok(), "not stopped {:?} after the signal", asked.elapsed());
}

/// `bot play` itself: SIGTERM while the server floods one endless line stops the process
/// within 3 s.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_play_exits_on_sigterm_while_a_flood_is_read() {
    let (url, opens) =
        server(|_| futures::stream::repeat_with(|| Ok(axum::body::Bytes::from(vec![b'x'; 64 * 1024]))).boxed()).await;
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bot-test-{}-sigterm", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let config = dir.join("bot.toml");
    std::fs::write(&config, format!("[server]\nurl = \"{url}\"\n")).expect("config written");
    let mut child = Reaped(
        std::process::Command::new(env!("CARGO_BIN_EXE_persian-bot"))
            .args(["play", "--config"])
            .arg(&config)
            .current_dir(&dir)
            .env("LICHESS_BOT_TOKEN", "beta-token")
            .env("RUST_LOG", "error")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("bot starts"),
    );
    let started = Instant::now();
    while opens_now(&opens).is_empty() && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let asked = Instant::now();
    let mut status = None;
    while asked.elapsed() < Duration::from_secs(3) {
        if let Some(s) = child.0.try_wait().expect("child") {
            status = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(child); // killed if still running
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!opens_now(&opens).is_empty(), "the bot opened its event stream");
    let status = status.expect("bot play exits within 3 s of SIGTERM");
    assert!(status.success(), "{status:?}");
}

/// A child process, killed (if still running) and reaped when dropped.
#[cfg(unix)]
struct Reaped(std::process::Child);

#[cfg(unix)]
impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
