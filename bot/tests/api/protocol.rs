//! Protocol behaviour against the in-process arena: decline reasons, illegal moves, stream
//! reconnects, resign/abort, chat echo, errors.

use crate::common;

use std::time::Duration;

use bot::api::types::{Event, GameEvent};

async fn next_event(stream: &mut bot::api::client::TypedStream<Event>) -> Event {
    tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("event in time")
        .expect("stream ok")
        .expect("stream open")
}

async fn declined_reason(stream: &mut bot::api::client::TypedStream<Event>) -> String {
    loop {
        if let Event::ChallengeDeclined { challenge } = next_event(stream).await {
            return challenge.decline_reason_key.expect("reason key");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_declined_by_filter_get_the_right_reason() {
    let arena = common::arena().await;
    let mut config = common::config(&arena, "persian-princess", common::temp_dir("decline"));
    config.challenge.modes = vec![bot::config::Mode::Casual];
    config.challenge.min_base_s = 60;
    config.challenge.accept_bot = false;
    let beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;

    let human = common::client(&arena, "human-token");
    let mut events = human.stream_events().await.expect("event stream");
    let cases = [
        (common::request("standard", Some((180, 2)), false, "random"), "variant"),
        (
            common::request("persian-princess", Some((180, 2)), true, "random"),
            "casual",
        ),
        (
            common::request("persian-princess", Some((30, 0)), false, "random"),
            "toofast",
        ),
    ];
    for (req, expected) in cases {
        human.create_challenge("Beta", &req).await.expect("challenge created");
        assert_eq!(declined_reason(&mut events).await, expected);
    }
    // A bot challenger is refused with noBot.
    let alpha = common::client(&arena, "alpha-token");
    let mut alpha_events = alpha.stream_events().await.expect("event stream");
    alpha
        .create_challenge(
            "beta",
            &common::request("persian-princess", Some((180, 2)), false, "white"),
        )
        .await
        .expect("challenge created");
    assert_eq!(declined_reason(&mut alpha_events).await, "nobot");
    beta.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_and_out_of_turn_moves_get_400() {
    let arena = common::arena().await;
    let alpha = common::client(&arena, "alpha-token");
    let beta = common::client(&arena, "beta-token");
    let ch = alpha
        .create_challenge(
            "beta",
            &common::request("persian-princess", Some((300, 0)), false, "white"),
        )
        .await
        .expect("challenge");
    beta.accept_challenge(&ch.id).await.expect("accepted");
    let mut stream = alpha.stream_game(&ch.id).await.expect("game stream");
    let first = stream.next().await.expect("ok").expect("gameFull");
    assert!(matches!(first, GameEvent::GameFull(_)));

    for bad in ["a1a9", "zz", "0000"] {
        let err = alpha.make_move(&ch.id, bad, false).await.expect_err("refused");
        assert_eq!(err.status(), Some(400), "{bad}: {err}");
    }
    // Raw check of the Lichess error shape.
    let resp = reqwest::Client::new()
        .post(format!("{}/api/bot/game/{}/move/e1e9", arena.url(), ch.id))
        .bearer_auth("alpha-token")
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.status().as_u16(), 400);
    let body: serde_json::Value = resp.json().await.expect("json");
    assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}");
    // Not Beta's turn; unknown game; bad token.
    let legal = {
        let v: engine::rules::Variant = "persian-princess".parse().expect("variant");
        let pos = engine::rules::Position::startpos(v);
        let m = pos.legal_moves().iter().copied().next().expect("a move");
        pos.uci(m)
    };
    assert_eq!(
        beta.make_move(&ch.id, &legal, false)
            .await
            .expect_err("not your turn")
            .status(),
        Some(400)
    );
    assert_eq!(
        alpha
            .make_move("nosuchgm", &legal, false)
            .await
            .expect_err("no game")
            .status(),
        Some(404)
    );
    let nobody = common::client(&arena, "wrong-token");
    assert_eq!(nobody.account().await.expect_err("bad token").status(), Some(401));
    // A legal move is echoed as a gameState; resign before both moved aborts.
    alpha.make_move(&ch.id, &legal, false).await.expect("legal move");
    loop {
        match stream.next().await.expect("ok").expect("open") {
            GameEvent::GameState(s) => {
                assert_eq!(s.moves, legal);
                break;
            }
            _ => continue,
        }
    }
    alpha.chat(&ch.id, "player", "hello").await.expect("chat");
    match stream.next().await.expect("ok").expect("open") {
        GameEvent::ChatLine { username, text, .. } => {
            assert_eq!((username.as_str(), text.as_str()), ("Alpha", "hello"))
        }
        other => panic!("expected the chat echo, got {other:?}"),
    }
    beta.resign(&ch.id).await.expect("resign");
    let end = stream.next().await.expect("ok").expect("final state");
    match end {
        GameEvent::GameState(s) => assert_eq!(s.status, "aborted"),
        other => panic!("expected the final state, got {other:?}"),
    }
    assert!(
        stream.next().await.expect("ok").is_none(),
        "stream closes after the end"
    );
    assert_eq!(alpha.abort(&ch.id).await.expect_err("over").status(), Some(400));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn event_stream_reconnect_does_not_handle_a_game_twice() {
    let arena = common::arena().await;
    let dir = common::temp_dir("reconnect");
    let variant = "celtic-citadel";
    let mut alpha = common::start_bot(common::config(&arena, variant, dir.join("a")), "alpha-token").await;
    let mut beta = common::start_bot(common::config(&arena, variant, dir.join("b")), "beta-token").await;
    common::wait_event_streams(&arena, "alpha", 1).await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut log = arena.subscribe();
    let client = common::client(&arena, "alpha-token");
    let ch = client
        .create_challenge("beta", &common::request(variant, Some((120, 1)), false, "white"))
        .await
        .expect("challenge");
    // Drop every event stream a few plies in, and a game stream too; the bots reconnect and the
    // arena replays the running game's gameStart.
    let mut dropped = false;
    while !dropped {
        if let Ok(bot::arena::ArenaLog::Moved { ply, .. }) = log.recv().await {
            if ply >= 4 {
                arena.drop_event_streams();
                arena.drop_game_streams(&ch.id);
                dropped = true;
            }
        }
    }
    common::wait_event_streams(&arena, "alpha", 2).await;
    common::wait_event_streams(&arena, "beta", 2).await;
    let a = alpha.next_report(Duration::from_secs(40)).await;
    let b = beta.next_report(Duration::from_secs(40)).await;
    assert_eq!(a.id, ch.id);
    assert_eq!(b.id, ch.id);
    // One game task per bot: no second report, and each bot opened the game stream once plus
    // once per drop.
    assert!(tokio::time::timeout(Duration::from_millis(300), alpha.reports.recv())
        .await
        .is_err());
    let stats = arena.stats();
    for user in ["alpha", "beta"] {
        let opens = stats
            .game_stream_opens
            .get(&(ch.id.clone(), user.to_string()))
            .copied()
            .unwrap_or(0);
        assert_eq!(opens, 2, "{user} game stream opens");
    }
    assert_eq!(stats.refused_moves, 0, "no move was sent twice");
    alpha.stop().await;
    beta.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flag_fall_ends_the_game_outoftime() {
    let arena = common::arena().await;
    let alpha = common::client(&arena, "alpha-token");
    let beta = common::client(&arena, "beta-token");
    let ch = alpha
        .create_challenge(
            "beta",
            &common::request("persian-princess", Some((1, 0)), false, "white"),
        )
        .await
        .expect("challenge");
    beta.accept_challenge(&ch.id).await.expect("accepted");
    let mut stream = alpha.stream_game(&ch.id).await.expect("stream");
    let v: engine::rules::Variant = "persian-princess".parse().expect("variant");
    let mut pos = engine::rules::Position::startpos(v);
    for client in [&alpha, &beta] {
        let m = pos.legal_moves().iter().copied().next().expect("a move");
        let uci = pos.uci(m);
        client.make_move(&ch.id, &uci, false).await.expect("move");
        pos.play_unchecked(m);
    }
    // White's clock runs now (1 s); nobody moves.
    let status = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(GameEvent::GameState(s)) = stream.next().await.expect("ok") {
                if !s.is_running() {
                    return (s.status, s.winner, s.wtime);
                }
            }
        }
    })
    .await
    .expect("flag in time");
    assert_eq!(status, ("outoftime".to_string(), Some("black".to_string()), 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_open_challenge_starts_when_two_players_join() {
    let arena = common::arena().await;
    let dir = common::temp_dir("open");
    let config = |name: &str| {
        let mut c = common::config(&arena, "egyptian-eye", dir.join(name));
        c.engine.nodes = Some(300);
        c
    };
    let mut alpha = common::start_bot(config("alpha"), "alpha-token").await;
    let mut beta = common::start_bot(config("beta"), "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let http = reqwest::Client::new();
    let open: serde_json::Value = http
        .post(format!("{}/api/challenge/open", arena.url()))
        .bearer_auth("human-token")
        .form(&[
            ("variant", "egyptian-eye"),
            ("clock.limit", "180"),
            ("clock.increment", "2"),
            ("users", "Beta,Alpha"),
        ])
        .send()
        .await
        .expect("open challenge")
        .json()
        .await
        .expect("JSON");
    let id = open["id"].as_str().expect("id").to_string();
    assert!(open["challenger"].is_null() && open["urlWhite"].as_str().is_some_and(|u| u.ends_with("color=white")));
    // Someone not invited cannot join; the invited players join by accepting.
    let human = common::client(&arena, "human-token");
    assert_eq!(
        human.accept_challenge(&id).await.err().and_then(|e| e.status()),
        Some(400)
    );
    common::client(&arena, "alpha-token")
        .accept_challenge(&id)
        .await
        .expect("alpha joins");
    common::client(&arena, "beta-token")
        .accept_challenge(&id)
        .await
        .expect("beta joins");
    let a = alpha.next_report(Duration::from_secs(60)).await;
    let b = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!((a.id.as_str(), b.id.as_str()), (id.as_str(), id.as_str()));
    // The first listed user gets white.
    assert_eq!((a.color.as_str(), b.color.as_str()), ("black", "white"));
    alpha.stop().await;
    beta.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_compatible_seeks_are_paired() {
    let arena = common::arena_with(vec![common::account("Other", false, &[])]).await;
    let human = common::client(&arena, "human-token");
    let other = common::client(&arena, "other-token");
    let mut human_events = human.stream_events().await.expect("events");
    let mut other_events = other.stream_events().await.expect("events");
    let http = reqwest::Client::new();
    let seek = |token: &'static str, variant: &'static str| {
        let http = http.clone();
        let url = format!("{}/api/board/seek", arena.url());
        async move {
            http.post(url)
                .bearer_auth(token)
                .form(&[
                    ("variant", variant),
                    ("time", "3"),
                    ("increment", "2"),
                    ("color", "random"),
                ])
                .send()
                .await
                .expect("seek")
        }
    };
    // A seek whose connection is dropped is canceled.
    drop(seek("human-token", "persian-princess").await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Different variants do not pair.
    let waiting = tokio::spawn(seek("human-token", "persian-princess").await.text());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let bot_seek = http
        .post(format!("{}/api/board/seek", arena.url()))
        .bearer_auth("alpha-token")
        .form(&[("time", "3"), ("increment", "2")])
        .send()
        .await
        .expect("bot seek");
    assert_eq!(bot_seek.status().as_u16(), 400, "bots cannot seek");
    let unpaired = tokio::spawn(seek("other-token", "oriental-omega").await.text());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiting.is_finished() && !unpaired.is_finished(), "nothing paired yet");
    unpaired.abort();
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A compatible one pairs at once; both seek connections close and both players get gameStart.
    let paired = seek("other-token", "persian-princess").await.text();
    tokio::time::timeout(Duration::from_secs(5), paired)
        .await
        .expect("closed")
        .expect("body");
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("closed")
        .expect("joined")
        .expect("body");
    let g1 = common::next_game_start(&mut human_events).await;
    let g2 = common::next_game_start(&mut other_events).await;
    assert_eq!(g1.game_id, g2.game_id);
    assert_eq!(g1.variant.map(|v| v.key).as_deref(), Some("persian-princess"));
}

/// The first legal move of Persian Princess after `moves` (UCI, space separated).
fn first_legal_move(moves: &str) -> String {
    let variant: engine::rules::Variant = "persian-princess".parse().expect("variant");
    let mut game = engine::rules::game::Game::new(engine::rules::Position::startpos(variant));
    for uci in moves.split_whitespace() {
        let m = game.position().parse_uci(uci).expect("legal");
        game.play(m);
    }
    let m = game.position().legal_moves().iter().copied().next().expect("a move");
    game.position().uci(m)
}

/// The bot's answers to takeback proposals, as the arena recorded them: (path, status).
fn takeback_answers(arena: &bot::arena::Arena) -> Vec<(String, u16)> {
    arena
        .requests()
        .into_iter()
        .filter(|r| r.endpoint == bot::arena::faults::Endpoint::BotTakeback && r.user.as_deref() == Some("beta"))
        .map(|r| (r.path, r.status))
        .collect()
}

/// Waits until the bot has answered `n` takeback proposals.
async fn wait_takeback_answers(arena: &bot::arena::Arena, n: usize) -> Vec<(String, u16)> {
    for _ in 0..250 {
        let answers = takeback_answers(arena);
        if answers.len() >= n {
            return answers;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "the bot answered {:?}, not {n} takeback proposals",
        takeback_answers(arena)
    );
}

/// A human (Board API) asks the bot for a takeback, twice: the bot declines each proposal once
/// (`POST /api/bot/game/{id}/takeback/no`), the proposal disappears from the game state, no
/// move is taken back, and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_proposals_are_declined() {
    let arena = common::arena().await;
    let dir = common::temp_dir("takeback");
    let beta = common::start_bot(common::config(&arena, "persian-princess", dir.clone()), "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let human = common::client(&arena, "human-token");
    let mut events = human.stream_events().await.expect("event stream");
    let ch = human
        .create_challenge(
            "beta",
            &common::request("persian-princess", Some((600, 5)), false, "white"),
        )
        .await
        .expect("challenge");
    common::wait_game_start(&mut events, &ch.id).await;
    let id = ch.id;
    let raw = common::Raw::new(&arena);
    let lines = raw.lines("human-token", &format!("/api/board/game/stream/{id}")).await;
    common::wait_line(&lines, |v| v["type"] == "gameFull").await;
    let state_with =
        |moves: String| move |v: &serde_json::Value| v["type"] == "gameState" && v["moves"] == moves.as_str();

    let mut moves = String::new();
    for round in 1..=2 {
        // The human moves, the bot answers.
        let m = first_legal_move(&moves);
        let (status, text) = raw
            .post("human-token", &format!("/api/board/game/{id}/move/{m}"), &[])
            .await;
        assert_eq!(status, 200, "{m}: {text}");
        moves = format!("{moves} {m}").trim().to_string();
        let state = common::wait_line(&lines, |v| {
            v["type"] == "gameState"
                && v["moves"]
                    .as_str()
                    .is_some_and(|s| s.split(' ').count() == moves.split(' ').count() + 1)
        })
        .await;
        moves = state["moves"].as_str().expect("moves").to_string();

        // The human proposes a takeback: the bot declines it, once.
        let (status, text) = raw
            .post("human-token", &format!("/api/board/game/{id}/takeback/yes"), &[])
            .await;
        assert_eq!(status, 200, "{text}");
        let answers = wait_takeback_answers(&arena, round).await;
        assert_eq!(answers.last(), Some(&(format!("/api/bot/game/{id}/takeback/no"), 200)));
        // The proposal was shown, then withdrawn by the decline; the moves stay. The human's
        // stream is read by a task of its own, so its lines may come after the bot's answer.
        common::wait_line(&lines, |v| v["type"] == "gameState" && v["wtakeback"] == true).await;
        let shown = common::json_lines(&lines)
            .iter()
            .rposition(|v| v["type"] == "gameState" && v["wtakeback"] == true)
            .expect("the proposal was shown");
        let mut declined = false;
        for _ in 0..100 {
            let all = common::json_lines(&lines);
            declined = all[shown + 1..]
                .iter()
                .any(|v| state_with(moves.clone())(v) && v["wtakeback"].is_null());
            if declined {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            declined,
            "no state without the proposal after it: {:?}",
            common::json_lines(&lines)
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(takeback_answers(&arena).len(), round, "one answer per proposal");
    }
    // The game goes on: the human moves again and the bot replies.
    let m = first_legal_move(&moves);
    let (status, text) = raw
        .post("human-token", &format!("/api/board/game/{id}/move/{m}"), &[])
        .await;
    assert_eq!(status, 200, "{m}: {text}");
    common::wait_line(&lines, |v| {
        v["type"] == "gameState" && v["moves"].as_str().is_some_and(|s| s.split(' ').count() == 6)
    })
    .await;
    beta.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}
