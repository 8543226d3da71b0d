//! What real Lichess clients read in the arena's answers: JSON bodies with nulls, `finalColor`,
//! `fromPosition`, perf names, sources, correspondence and unlimited clocks, the challenge list
//! and `keepAliveStream`. Each test names the Lichess behaviour it checks.

use crate::common;

use common::Raw;
use serde_json::{json, Value};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

const HUMAN: &str = "human-token";
const ALPHA: &str = "alpha-token";

/// A chess position that is not the start position (after 1. e4 e5).
const CHESS_FEN: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_nulls_mean_absent_as_berserk_sends_them() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    // berserk's `challenges.create(username, rated=False)`: every other key is null.
    let body = json!({
        "rated": false, "clock.limit": null, "clock.increment": null, "days": null,
        "color": null, "variant": null, "fen": null
    });
    let (status, text) = raw.post_json(HUMAN, "/api/challenge/alpha", &body).await;
    assert_eq!(status, 200, "{text}");
    let c = parse(&text);
    assert_eq!(c["variant"]["key"], "standard");
    assert_eq!(c["variant"]["name"], "Standard");
    assert_eq!(c["timeControl"]["type"], "unlimited");
    assert_eq!(c["speed"], "correspondence");
    assert_eq!(c["color"], "random");
    // A correspondence challenge: days with a null clock.
    let body = json!({
        "rated": false, "clock.limit": null, "clock.increment": null, "days": 3,
        "color": "white", "variant": "persian-princess", "fen": null
    });
    let (status, text) = raw.post_json(HUMAN, "/api/challenge/alpha", &body).await;
    assert_eq!(status, 200, "{text}");
    let c = parse(&text);
    assert_eq!(c["timeControl"], json!({"type": "correspondence", "daysPerTurn": 3}));
    assert_eq!(c["speed"], "correspondence");
    assert_eq!(c["perf"]["name"], "Persian Princess");
    // Days Lichess does not offer.
    let body = json!({ "days": 4, "variant": null });
    let (status, text) = raw.post_json(HUMAN, "/api/challenge/alpha", &body).await;
    assert_eq!(status, 400, "{text}");
    assert!(
        parse(&text)["error"].as_str().is_some_and(|e| e.contains("days")),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_random_colour_is_decided_at_creation() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let alpha_events = raw.lines(ALPHA, "/api/stream/event").await;
    let human_events = raw.lines(HUMAN, "/api/stream/event").await;
    let (status, text) = raw
        .post(
            HUMAN,
            "/api/challenge/alpha",
            &[("clock.limit", "300"), ("clock.increment", "0")],
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let created = parse(&text);
    assert_eq!(created["color"], "random");
    let final_color = created["finalColor"]
        .as_str()
        .expect("finalColor is present")
        .to_string();
    assert!(final_color == "white" || final_color == "black");
    let id = created["id"].as_str().expect("id").to_string();
    let event = common::wait_line(&alpha_events, |v| v["type"] == "challenge").await;
    assert_eq!(event["challenge"]["finalColor"], final_color.as_str(), "{event}");
    let (status, _) = raw.post(ALPHA, &format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 200);
    let start = common::wait_line(&human_events, |v| v["type"] == "gameStart").await;
    assert_eq!(
        start["game"]["color"],
        final_color.as_str(),
        "the challenger plays finalColor"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess_from_a_position_is_from_position() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let human_events = raw.lines(HUMAN, "/api/stream/event").await;
    let form = [("variant", "standard"), ("fen", CHESS_FEN), ("color", "white")];
    let (status, text) = raw.post(HUMAN, "/api/challenge/alpha", &form).await;
    assert_eq!(status, 200, "{text}");
    let c = parse(&text);
    assert_eq!(
        c["variant"],
        json!({"key": "fromPosition", "name": "From Position", "short": "FEN"})
    );
    assert_eq!(c["initialFen"], CHESS_FEN);
    let id = c["id"].as_str().expect("id").to_string();
    assert_eq!(
        raw.post(ALPHA, &format!("/api/challenge/{id}/accept"), &[]).await.0,
        200
    );
    let start = common::wait_line(&human_events, |v| v["type"] == "gameStart").await;
    assert_eq!(start["game"]["variant"]["key"], "fromPosition");
    let game = raw.lines(HUMAN, &format!("/api/board/game/stream/{id}")).await;
    let full = common::wait_line(&game, |v| v["type"] == "gameFull").await;
    assert_eq!(full["variant"]["key"], "fromPosition");
    assert_eq!(full["initialFen"], CHESS_FEN);
    // The start position itself is standard chess.
    let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (_, text) = raw
        .post(
            HUMAN,
            "/api/challenge/alpha",
            &[("variant", "standard"), ("fen", start_fen)],
        )
        .await;
    assert_eq!(parse(&text)["variant"]["key"], "standard", "{text}");
    // Lichess refuses rated games from a position, and keys it does not know.
    let (status, text) = raw
        .post(HUMAN, "/api/challenge/alpha", &[("fen", CHESS_FEN), ("rated", "true")])
        .await;
    assert_eq!(status, 400, "{text}");
    let (status, text) = raw.post(HUMAN, "/api/challenge/alpha", &[("variant", "chess")]).await;
    assert_eq!(status, 400, "'chess' is not a Lichess key: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn perfs_are_named_as_lichess_names_them() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let human_events = raw.lines(HUMAN, "/api/stream/event").await;
    for (variant, perf_name, perf_key) in [
        ("standard", "Blitz", "blitz"),
        ("persian-princess", "Persian Princess", "persian-princess"),
    ] {
        let form = [
            ("variant", variant),
            ("clock.limit", "180"),
            ("clock.increment", "2"),
            ("color", "white"),
        ];
        let (status, text) = raw.post(HUMAN, "/api/challenge/alpha", &form).await;
        assert_eq!(status, 200, "{text}");
        let c = parse(&text);
        assert_eq!(c["speed"], "blitz");
        assert_eq!(c["perf"]["name"], perf_name, "{text}");
        assert_eq!(c["timeControl"]["show"], "3+2");
        let id = c["id"].as_str().expect("id").to_string();
        assert_eq!(
            raw.post(ALPHA, &format!("/api/challenge/{id}/accept"), &[]).await.0,
            200
        );
        let start = common::wait_line(&human_events, |v| {
            v["type"] == "gameStart" && v["game"]["gameId"] == id.as_str()
        })
        .await;
        assert_eq!(start["game"]["perf"], perf_key, "{start}");
        assert_eq!(start["game"]["source"], "friend");
        let game = raw.lines(HUMAN, &format!("/api/board/game/stream/{id}")).await;
        let full = common::wait_line(&game, |v| v["type"] == "gameFull").await;
        assert_eq!(full["perf"]["name"], perf_name, "{full}");
        assert_eq!(full["state"]["wtime"], 180_000);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seek_games_come_from_the_lobby_and_bots_cannot_seek() {
    let arena = common::arena_with(vec![common::account("Second", false, &[])]).await;
    let raw = Raw::new(&arena);
    let form = [("days", "3"), ("variant", "egyptian-eye")];
    let (status, text) = raw.post(HUMAN, "/api/board/seek", &form).await;
    assert_eq!(status, 200, "{text}");
    let (status, text) = raw.post("second-token", "/api/board/seek", &form).await;
    assert_eq!(status, 200, "{text}");
    let (_, text) = raw.get(HUMAN, "/api/account/playing").await;
    let playing = parse(&text);
    let game = &playing["nowPlaying"][0];
    assert_eq!(game["source"], "lobby", "{text}");
    assert_eq!(game["speed"], "correspondence");
    assert_eq!(game["perf"], "egyptian-eye");
    let (status, _) = raw.post(ALPHA, "/api/board/seek", &form).await;
    assert_eq!(status, 400, "a bot account cannot seek");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unlimited_and_correspondence_games_stream_their_time() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    for (days, time) in [(None, 2_147_483_647i64), (Some("2"), 2 * 86_400_000)] {
        let mut form = vec![("variant", "celtic-citadel"), ("color", "white")];
        if let Some(d) = days {
            form.push(("days", d));
        }
        let (status, text) = raw.post(HUMAN, "/api/challenge/alpha", &form).await;
        assert_eq!(status, 200, "{text}");
        let id = parse(&text)["id"].as_str().expect("id").to_string();
        assert_eq!(
            raw.post(ALPHA, &format!("/api/challenge/{id}/accept"), &[]).await.0,
            200
        );
        let game = raw.lines(HUMAN, &format!("/api/board/game/stream/{id}")).await;
        let full = common::wait_line(&game, |v| v["type"] == "gameFull").await;
        assert_eq!(full["state"]["wtime"], time, "{full}");
        assert_eq!(full["state"]["btime"], time, "{full}");
        assert_eq!(full["speed"], "correspondence");
        match days {
            Some(d) => assert_eq!(full["daysPerTurn"], d.parse::<u64>().expect("days"), "{full}"),
            None => assert!(full.get("daysPerTurn").is_none(), "{full}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_listed_shown_and_kept_alive() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let (_, text) = raw
        .post(HUMAN, "/api/challenge/alpha", &[("variant", "oriental-omega")])
        .await;
    let id = parse(&text)["id"].as_str().expect("id").to_string();
    let (status, text) = raw.get(HUMAN, "/api/challenge").await;
    assert_eq!(status, 200, "{text}");
    let list = parse(&text);
    assert_eq!(list["out"][0]["id"], id.as_str(), "{text}");
    assert_eq!(list["in"], json!([]));
    let (_, text) = raw.get(ALPHA, "/api/challenge").await;
    assert_eq!(parse(&text)["in"][0]["direction"], "in", "{text}");
    let (status, text) = raw.get(ALPHA, &format!("/api/challenge/{id}/show")).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(parse(&text)["id"], id.as_str());
    assert_eq!(raw.get("beta-token", &format!("/api/challenge/{id}/show")).await.0, 404);

    // keepAliveStream: the challenge, then {"done": "accepted"} and the end of the stream.
    let resp = raw
        .http
        .post(format!("{}/api/challenge/alpha?keepAliveStream=true", raw.base))
        .bearer_auth(HUMAN)
        .form(&[("variant", "oriental-omega")])
        .send()
        .await
        .expect("request");
    assert_eq!(resp.status().as_u16(), 200);
    let lines = common::collect_lines(resp);
    let first = common::wait_line(&lines, |v| v.get("id").is_some()).await;
    let kept = first["id"].as_str().expect("id").to_string();
    // Kept past the usual expiry would need 20 s; accepting ends it.
    assert_eq!(
        raw.post(ALPHA, &format!("/api/challenge/{kept}/accept"), &[]).await.0,
        200
    );
    let done = common::wait_line(&lines, |v| v.get("done").is_some()).await;
    assert_eq!(done["done"], "accepted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_first_move_in_time_is_no_start() {
    let arena = bot::arena::Arena::start(bot::arena::ArenaConfig {
        first_move: std::time::Duration::from_millis(400),
        tick: std::time::Duration::from_millis(20),
        ..bot::arena::ArenaConfig::default()
    })
    .await
    .expect("arena");
    let raw = Raw::new(&arena);
    let form = [
        ("variant", "persian-princess"),
        ("color", "white"),
        ("clock.limit", "60"),
    ];
    let (_, text) = raw.post(HUMAN, "/api/challenge/alpha", &form).await;
    let id = parse(&text)["id"].as_str().expect("id").to_string();
    assert_eq!(
        raw.post(ALPHA, &format!("/api/challenge/{id}/accept"), &[]).await.0,
        200
    );
    let game = raw.lines(HUMAN, &format!("/api/board/game/stream/{id}")).await;
    let full = common::wait_line(&game, |v| v["type"] == "gameFull").await;
    assert_eq!(full["state"]["expiration"]["millisToMove"], 400, "{full}");
    let end = common::wait_line(&game, |v| v["status"] == "noStart").await;
    assert!(end.get("winner").is_none(), "{end}");
}
