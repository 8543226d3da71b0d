//! The bot against a misbehaving server: faults the arena injects on demand (429 on moves and
//! on accepts, 500s, a move rejected with 400, dropped streams), a clock almost out, an
//! opponent who aborts, eight games at once, and the stop policies. Every run must end with no
//! crash, no stuck game, no illegal move sent and no game lost on time by the bot's fault.

use crate::common;

use std::time::Duration;

use bot::{
    arena::{Endpoint, Fault},
    config::{Config, ShutdownPolicy},
};
use common::Opponent;
use engine::rules::Color;

fn quiet(mut config: Config) -> Config {
    config.decisions.resign_score = 0;
    config.decisions.offer_draw_moves = 0;
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bot_vs_bot_through_injected_faults() {
    let arena = common::arena().await;
    let variant = "persian-princess";
    let dir = common::temp_dir("faults");
    let faults = [
        Fault::new(Endpoint::Accept, 429).for_user("beta"),
        Fault::new(Endpoint::Accept, 500).for_user("beta"),
        Fault::new(Endpoint::Move, 429).for_user("alpha"),
        Fault::new(Endpoint::Move, 400).for_user("alpha"),
        Fault::new(Endpoint::Move, 500).times(2).for_user("beta"),
        Fault::new(Endpoint::Move, 400).times(2).for_user("beta"),
        Fault::new(Endpoint::GameStream, 500).for_user("beta"),
        Fault::new(Endpoint::Chat, 500).times(3),
    ];
    let total: usize = faults.iter().map(|f| f.times).sum();
    for f in faults {
        arena.inject(f);
    }
    let config = |name: &str| quiet(common::config(&arena, variant, dir.join(name)));
    let mut alpha = common::start_bot(config("alpha"), "alpha-token").await;
    let mut beta = common::start_bot(config("beta"), "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let client = common::client(&arena, "alpha-token");
    client
        .create_challenge("beta", &common::request(variant, Some((120, 1)), false, "white"))
        .await
        .expect("challenge created");
    // Drop the event streams in the middle of the game, too.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    arena.drop_event_streams();
    let a = alpha.next_report(Duration::from_secs(60)).await;
    let b = beta.next_report(Duration::from_secs(60)).await;
    assert_eq!(a.id, b.id);
    assert!(
        matches!(a.status.as_str(), "mate" | "stalemate" | "draw"),
        "played to the end on the board: {}",
        a.status
    );
    assert_eq!(arena.stats().refused_moves, 0, "no illegal or out-of-turn move sent");
    let injected = arena.injected();
    assert_eq!(injected.len(), total, "every fault was met: {injected:?}");
    assert_eq!(a.refused_moves, 1, "alpha's 400 was followed by a resend");
    assert_eq!(b.refused_moves, 2, "beta's 400s were followed by resends");
    // The PGNs agree with the arena.
    for r in [&a, &b] {
        assert!(r.pgn.as_ref().is_some_and(|p| p.exists()));
    }
    alpha.stop().await;
    beta.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_clock_almost_out_is_not_lost_on_time() {
    let arena = common::arena().await;
    // Beta plays by the clock alone (no node limit).
    let mut config = quiet(common::config(&arena, "persian-princess", common::temp_dir("clock")));
    config.engine.nodes = None;
    config.games.greeting.clear();
    let mut beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut alpha = Opponent::start(&arena, "persian-princess", None, Some((60, 1))).await;
    let mut s = alpha.next_state().await;
    let mut squeezed = 0;
    while s.move_list().len() < 24 && s.is_running() {
        if alpha.to_move(&s) {
            if s.move_list().len() >= 2 {
                // Beta will get the move with 300 ms on its clock.
                arena.set_time_left(&alpha.id, Color::Black, 300).expect("clock set");
                s = alpha.next_state().await;
                assert_eq!(s.btime, 300);
                squeezed += 1;
            }
            alpha.play(&s, false).await;
        }
        s = alpha.next_state().await;
    }
    assert!(s.is_running(), "not lost on time: {s:?}");
    assert!(squeezed >= 8, "{squeezed}");
    alpha.client.resign(&alpha.id).await.expect("resigned");
    let end = alpha.wait_end().await;
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("resign", Some("black")));
    let report = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!(report.status, "resign");
    beta.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_opponent_aborts() {
    let arena = common::arena().await;
    let mut config = common::config(&arena, "egyptian-eye", common::temp_dir("opp-abort"));
    config.challenge.max_games = 2;
    let mut beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut alpha = Opponent::start(&arena, "egyptian-eye", None, Some((60, 0))).await;
    let s = alpha.next_state().await;
    alpha.play(&s, false).await;
    alpha.wait_plies(2).await;
    // Two plies played: too late for Lichess to allow an abort.
    assert!(alpha.client.abort(&alpha.id).await.is_err());
    let mut alpha2 = Opponent::start(&arena, "egyptian-eye", None, Some((60, 0))).await;
    alpha2
        .client
        .abort(&alpha2.id)
        .await
        .expect("aborted before the first move");
    let end = alpha2.wait_end().await;
    assert_eq!(end.status, "aborted");
    let report = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!(
        (report.id.as_str(), report.status.as_str()),
        (alpha2.id.as_str(), "aborted")
    );
    beta.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 8)]
async fn eight_games_at_once() {
    let arena = common::arena().await;
    let variants = ["celtic-citadel", "persian-princess", "egyptian-eye", "oriental-omega"];
    let mut config = common::config(&arena, variants[0], common::temp_dir("eight"));
    config.challenge.variants = variants.map(String::from).to_vec();
    config.challenge.max_games = 8;
    config.engine.nodes = Some(300);
    config.games.greeting.clear();
    config.games.goodbye.clear();
    let mut beta = common::start_bot(quiet(config), "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let client = common::client(&arena, "alpha-token");
    let mut events = client.stream_events().await.expect("event stream");
    let mut games = Vec::new();
    for i in 0..8 {
        let variant = variants[i % 4];
        let ch = client
            .create_challenge("beta", &common::request(variant, Some((60, 1)), false, "white"))
            .await
            .expect("challenge created");
        common::wait_game_start(&mut events, &ch.id).await;
        games.push((ch.id, variant));
    }
    // A ninth challenge is declined: the bot is at its limit.
    let extra = client
        .create_challenge("beta", &common::request(variants[0], Some((60, 1)), false, "white"))
        .await
        .expect("challenge created");
    let mut tasks = Vec::new();
    for (id, variant) in games {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            let mut alpha = Opponent::attach(client, &id, variant, None, Color::White).await;
            let mut s = alpha.next_state().await;
            while s.is_running() && s.move_list().len() < 12 {
                if alpha.to_move(&s) {
                    alpha.play(&s, false).await;
                }
                s = alpha.next_state().await;
            }
            if s.is_running() {
                alpha.client.resign(&alpha.id).await.expect("resigned");
                s = alpha.wait_end().await;
            }
            s
        }));
    }
    for t in tasks {
        let end = t.await.expect("opponent task");
        assert!(matches!(end.status.as_str(), "resign" | "mate"), "{}", end.status);
        assert_ne!(end.status, "outoftime");
    }
    let mut reports = Vec::new();
    for _ in 0..8 {
        reports.push(beta.next_report(Duration::from_secs(20)).await);
    }
    reports.sort_by(|a, b| a.id.cmp(&b.id));
    reports.dedup_by(|a, b| a.id == b.id);
    assert_eq!(reports.len(), 8, "one report per game");
    assert!(!reports.iter().any(|r| r.id == extra.id));
    assert_eq!(arena.stats().refused_moves, 0);
    beta.stop().await;
}

/// Beta (a bot) plays Alpha (scripted); Beta is told to stop after a few plies.
async fn stop_during_a_game(policy: ShutdownPolicy) -> (bot::api::types::GameState, usize) {
    let arena = common::arena().await;
    let mut config = quiet(common::config(&arena, "oriental-omega", common::temp_dir("stop")));
    config.games.on_shutdown = policy;
    let mut beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut alpha = Opponent::start(&arena, "oriental-omega", None, Some((60, 1))).await;
    let mut s = alpha.next_state().await;
    while s.move_list().len() < 4 {
        if alpha.to_move(&s) {
            alpha.play(&s, false).await;
        }
        s = alpha.next_state().await;
    }
    let _ = beta.shutdown.send(true);
    // Alpha plays on for a few moves (Beta answers only if it finishes its games).
    let mut plies_after = 0;
    while s.is_running() && plies_after < 6 {
        // The game may end (Beta resigns) between the state and the move.
        if alpha.to_move(&s) && alpha.try_play(&s, false).await.is_ok() {
            plies_after += 2;
        }
        s = alpha.next_state().await;
    }
    if s.is_running() && alpha.client.resign(&alpha.id).await.is_ok() {
        s = alpha.wait_end().await;
    }
    let report = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!(report.id, alpha.id);
    tokio::time::timeout(Duration::from_secs(10), beta.task)
        .await
        .expect("the bot exits")
        .expect("no panic")
        .expect("no error");
    (s, plies_after)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stopping_finishes_running_games() {
    let (end, plies_after) = stop_during_a_game(ShutdownPolicy::Finish).await;
    assert!(plies_after >= 6, "the bot went on playing");
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("resign", Some("black")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stopping_can_resign_running_games() {
    let (end, _) = stop_during_a_game(ShutdownPolicy::Resign).await;
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("resign", Some("white")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn excess_requests_get_429_and_the_client_waits() {
    let arena = bot::arena::Arena::start(bot::arena::ArenaConfig {
        max_requests_per_second: 5,
        ..bot::arena::ArenaConfig::default()
    })
    .await
    .expect("arena");
    let client = common::client(&arena, "alpha-token");
    let started = std::time::Instant::now();
    let calls: Vec<_> = (0..12)
        .map(|_| {
            let c = client.clone();
            tokio::spawn(async move { c.account().await })
        })
        .collect();
    for c in calls {
        c.await.expect("joined").expect("every call succeeds in the end");
    }
    let limited = arena
        .requests()
        .iter()
        .filter(|r| r.endpoint == Endpoint::Account && r.status == 429)
        .count();
    assert!(limited >= 1, "the excess was refused");
    // The client paused after the 429 (rate_limit_wait_s = 1 in the test configuration).
    assert!(started.elapsed() >= Duration::from_millis(900));
    assert!(arena.injected().is_empty(), "rate limiting is not an injected fault");
}

/// An arena with the given stream-open and per-IP limits (per-account limit off).
async fn limited_arena(opens_per_minute: u32, per_ip: u32) -> bot::arena::Arena {
    bot::arena::Arena::start(bot::arena::ArenaConfig {
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: per_ip,
        stream_opens_per_minute: opens_per_minute,
        body_timeout: Duration::from_millis(300),
        header_timeout: Duration::from_millis(300),
        ..bot::arena::ArenaConfig::default()
    })
    .await
    .expect("arena")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopening_the_event_stream_in_a_loop_gets_429() {
    // Two clients on one token would replace each other's stream without end; the opens are
    // limited instead (a burst of 10, then 12 a minute).
    let arena = limited_arena(12, 0).await;
    let http = reqwest::Client::new();
    let mut statuses = Vec::new();
    let mut open = Vec::new();
    for _ in 0..30 {
        let r = http
            .get(format!("{}/api/stream/event", arena.url()))
            .bearer_auth("alpha-token")
            .send()
            .await
            .expect("request");
        statuses.push(r.status().as_u16());
        open.push(r);
    }
    let ok = statuses.iter().filter(|&&s| s == 200).count();
    let limited = statuses.iter().filter(|&&s| s == 429).count();
    assert_eq!(ok + limited, 30, "{statuses:?}");
    assert!((10..=11).contains(&ok), "{statuses:?}");
    assert_eq!(arena.stats().event_stream_opens.get("alpha"), Some(&ok));
    // Another account is not affected.
    let r = http
        .get(format!("{}/api/stream/event", arena.url()))
        .bearer_auth("beta-token")
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 200);
    let body = open.pop().expect("a response").text().await.unwrap_or_default();
    assert!(body.contains("Too many requests"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_is_limited_across_accounts() {
    let arena = limited_arena(0, 5).await;
    let http = reqwest::Client::new();
    let mut limited = 0;
    for i in 0..15 {
        let token = ["alpha-token", "beta-token", "human-token"][i % 3];
        let r = http
            .get(format!("{}/api/account", arena.url()))
            .bearer_auth(token)
            .send()
            .await
            .expect("request");
        limited += usize::from(r.status().as_u16() == 429);
    }
    assert!(limited >= 9, "{limited} of 15 refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_huge_bodies_are_refused() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let arena = limited_arena(0, 0).await;
    // A body announced but never sent: 408 after the body timeout.
    let mut conn = tokio::net::TcpStream::connect(arena.addr()).await.expect("connect");
    conn.write_all(
        b"POST /api/challenge/beta HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alpha-token\r\n\
          Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nvariant=",
    )
    .await
    .expect("write");
    let mut answer = vec![0u8; 512];
    let n = tokio::time::timeout(Duration::from_secs(5), conn.read(&mut answer))
        .await
        .expect("answered in time")
        .expect("read");
    let text = String::from_utf8_lossy(&answer[..n]);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    // Headers that never end: the connection is closed after the header timeout.
    let mut slow = tokio::net::TcpStream::connect(arena.addr()).await.expect("connect");
    slow.write_all(b"GET /api/account HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut rest))
        .await
        .expect("closed in time")
        .expect("read");
    // A body over 64 KiB: 413; the server goes on serving.
    let http = reqwest::Client::new();
    let r = http
        .post(format!("{}/api/challenge/beta", arena.url()))
        .bearer_auth("alpha-token")
        .body(vec![b'a'; 100 * 1024])
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 413);
    let r = http
        .get(format!("{}/api/account", arena.url()))
        .bearer_auth("alpha-token")
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 200);
}
