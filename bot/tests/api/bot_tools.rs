//! The bot as a tool people run: it names its account in its User-Agent, and correspondence
//! games are limited apart from real-time ones (a game of days per move does not block a blitz
//! challenge).

use crate::common;

use std::time::Duration;

use bot::{
    api::types::Event,
    arena::{Arena, ArenaConfig},
    config::Speed,
};
use common::Raw;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_user_agent_names_the_account_and_correspondence_does_not_block_real_time() {
    let dir = common::temp_dir("bot-tools");
    std::fs::create_dir_all(&dir).expect("dir");
    let log = dir.join("access.log");
    let arena = Arena::start(ArenaConfig {
        accounts: ArenaConfig::builtin_accounts(),
        access_log: Some(log.clone()),
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        ..ArenaConfig::default()
    })
    .await
    .expect("arena starts");
    let mut config = common::config(&arena, "persian-princess", dir.join("pgn"));
    config.challenge.speeds.push(Speed::Correspondence);
    config.challenge.max_games = 1;
    config.challenge.max_correspondence_games = 1;
    let beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let text = std::fs::read_to_string(&log).expect("the access log");
    assert!(
        text.lines()
            .any(|l| l.contains(" beta ") && l.contains("persian-chess-bot/") && l.contains("user:Beta")),
        "{text}"
    );

    let alpha = common::client(&arena, "alpha-token");
    let mut events = alpha.stream_events().await.expect("Alpha's events");
    let h = Raw::new(&arena);
    // A correspondence game starts...
    let (status, body) = h
        .post(
            "alpha-token",
            "/api/challenge/beta",
            &[("variant", "persian-princess"), ("days", "3")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let first = common::next_game_start(&mut events).await;
    // ... and a blitz challenge is still accepted (with max_games 1).
    let (status, body) = h
        .post(
            "alpha-token",
            "/api/challenge/beta",
            &[
                ("variant", "persian-princess"),
                ("clock.limit", "180"),
                ("clock.increment", "2"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let second = common::next_game_start(&mut events).await;
    assert_ne!(first.game_id, second.game_id);
    // A second correspondence game is over the limit of one: declined as "later".
    let (status, body) = h
        .post(
            "alpha-token",
            "/api/challenge/beta",
            &[("variant", "persian-princess"), ("days", "3")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let declined = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match events.next().await {
                Ok(Some(Event::ChallengeDeclined { challenge })) => break challenge,
                Ok(Some(_)) => continue,
                other => panic!("event stream: {other:?}"),
            }
        }
    })
    .await
    .expect("declined in time");
    assert_eq!(declined.decline_reason_key.as_deref(), Some("later"));
    beta.stop().await;
}
