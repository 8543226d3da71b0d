//! The arena as a public service, in process: a store that stops taking writes (a full disk, as
//! a page limit of the database gives it) answers 503 and changes nothing, reports itself
//! degraded and recovers by itself; the Lichess behaviours clients rely on (accept values,
//! `perfs`, the open challenge's `open`, malformed JSON, finished positions, JSON errors); the
//! health check and the metrics.

use crate::common;

use std::time::Duration;

use bot::arena::{Arena, ArenaConfig, Storage};
use common::Raw;
use engine::rules::Variant;
use serde_json::Value;

const ALPHA: &str = "alpha-token";
const BETA: &str = "beta-token";
const HUMAN: &str = "human-token";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

async fn file_arena(name: &str) -> (Arena, std::path::PathBuf) {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("arena.sqlite");
    let arena = Arena::start(ArenaConfig {
        storage: Storage::File(db.clone()),
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        ..ArenaConfig::default()
    })
    .await
    .expect("arena starts");
    (arena, db)
}

/// Alpha (white) challenges Beta at 10+5; Beta accepts. The game id.
async fn start_game(h: &Raw, variant: &str) -> String {
    let form = [
        ("variant", variant),
        ("color", "white"),
        ("clock.limit", "600"),
        ("clock.increment", "5"),
    ];
    let (status, text) = h.post(ALPHA, "/api/challenge/beta", &form).await;
    assert_eq!(status, 200, "{text}");
    let id = parse(&text)["id"].as_str().expect("id").to_string();
    let (status, text) = h.post(BETA, &format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 200, "{text}");
    id
}

/// The current position and status of a game, as the arena shows it.
async fn position(h: &Raw, id: &str) -> (String, String) {
    let (status, text) = h.get(ALPHA, &format!("/api/arena/game/{id}/legal")).await;
    assert_eq!(status, 200, "{text}");
    let v = parse(&text);
    (
        v["fen"].as_str().expect("fen").to_string(),
        v["status"].as_str().expect("status").to_string(),
    )
}

#[tokio::test]
async fn a_full_store_answers_503_changes_nothing_and_recovers_by_itself() {
    let (arena, _db) = file_arena("full-store").await;
    let h = Raw::new(&arena);
    let variant = Variant::PersianPrincess;
    let mut id = start_game(&h, "persian-princess").await;
    let mut moves: Vec<String> = Vec::new();
    // No page beyond those the file has now: the first write that needs one fails, exactly
    // as on a full disk.
    arena.set_store_page_limit(1).expect("a limit");
    let mut refused = None;
    for i in 0..2000u64 {
        let Some(uci) = common::random_move(variant, &moves, i / 300 + 7) else {
            id = start_game(&h, "persian-princess").await;
            moves.clear();
            continue;
        };
        let token = if moves.len().is_multiple_of(2) { ALPHA } else { BETA };
        let before = position(&h, &id).await;
        let (status, text) = h.post(token, &format!("/api/bot/game/{id}/move/{uci}"), &[]).await;
        match status {
            200 => moves.push(uci),
            503 => {
                refused = Some((uci, text, before));
                break;
            }
            other => panic!("move {uci}: {other} {text}"),
        }
    }
    let (uci, text, before) = refused.expect("the store filled up");
    let error = parse(&text)["error"].as_str().expect("a JSON error").to_string();
    assert!(error.contains("nothing was changed"), "{error}");
    // The refused move is not played: the position, the status and the turn are as before.
    assert_eq!(position(&h, &id).await, before);
    let (status, text) = h.get(ALPHA, "/api/arena/health").await;
    assert_eq!(status, 503, "{text}");
    let health = parse(&text);
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["database"]["writable"], false);
    assert!(
        health["database"]["error"].as_str().is_some_and(|e| e.contains("full")),
        "{text}"
    );
    let metrics = h.get(ALPHA, "/metrics").await.1;
    assert!(metrics.lines().any(|l| l == "arena_store_degraded 1"), "{metrics}");
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("arena_store_errors_total ") && !l.ends_with(" 0")),
        "{metrics}"
    );

    // Room again: the arena finds it out by itself (a probe write once a second), with no
    // request, and the refused move can be played.
    arena.set_store_page_limit(1 << 30).expect("no limit");
    let mut healthy = false;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if arena.degraded().is_none() {
            healthy = true;
            break;
        }
    }
    assert!(healthy, "still degraded: {:?}", arena.degraded());
    assert_eq!(h.get(ALPHA, "/api/arena/health").await.0, 200);
    let (fen_before, status_before) = position(&h, &id).await;
    if status_before == "started" {
        let token = if moves.len().is_multiple_of(2) { ALPHA } else { BETA };
        let (status, text) = h.post(token, &format!("/api/bot/game/{id}/move/{uci}"), &[]).await;
        assert_eq!(status, 200, "{text}");
        assert_ne!(position(&h, &id).await.0, fen_before);
    }
}

#[tokio::test]
async fn accept_values_are_read_as_lichess_reads_them() {
    let arena = common::arena().await;
    let h = Raw::new(&arena);
    let id = start_game(&h, "persian-princess").await;
    let first = common::random_move(Variant::PersianPrincess, &[], 1).expect("a move");
    assert_eq!(
        h.post(ALPHA, &format!("/api/bot/game/{id}/move/{first}"), &[]).await.0,
        200
    );
    // Offer and decline with the values berserk's newer helpers send (0/1) and others.
    for (offer, decline) in [("1", "0"), ("on", "no"), ("True", "false"), ("yes", "anything")] {
        let (status, text) = h.post(ALPHA, &format!("/api/bot/game/{id}/draw/{offer}"), &[]).await;
        assert_eq!(status, 200, "draw/{offer}: {text}");
        let view = parse(&h.get(BETA, &format!("/api/arena/game/{id}/view")).await.1);
        assert_eq!(view["drawOffer"], "white", "draw/{offer} is an offer: {view}");
        let (status, text) = h.post(BETA, &format!("/api/bot/game/{id}/draw/{decline}"), &[]).await;
        assert_eq!(status, 200, "draw/{decline}: {text}");
        let view = parse(&h.get(BETA, &format!("/api/arena/game/{id}/view")).await.1);
        assert!(view["drawOffer"].is_null(), "draw/{decline} declines: {view}");
    }
    let (status, text) = h.post(ALPHA, &format!("/api/bot/game/{id}/takeback/1"), &[]).await;
    assert_eq!(status, 200, "takeback/1: {text}");
    let (status, text) = h.post(BETA, &format!("/api/bot/game/{id}/takeback/0"), &[]).await;
    assert_eq!(status, 200, "takeback/0: {text}");
    assert_eq!(position(&h, &id).await.1, "started");
}

#[tokio::test]
async fn perfs_list_the_five_speeds_and_open_challenges_their_open_object() {
    let arena = common::arena().await;
    let h = Raw::new(&arena);
    let account = parse(&h.get(HUMAN, "/api/account").await.1);
    for speed in ["bullet", "blitz", "rapid", "classical", "correspondence"] {
        let p = &account["perfs"][speed];
        assert_eq!(p["games"], 0, "{speed}: {account}");
        assert_eq!(p["prov"], true, "{speed}: {account}");
        assert_eq!(p["rating"], 1500, "{speed}: {account}");
    }
    let (status, text) = h
        .post(ALPHA, "/api/challenge/open", &[("variant", "persian-princess")])
        .await;
    assert_eq!(status, 200, "{text}");
    let open = parse(&text);
    assert!(open["open"].is_object(), "{open}");
    assert!(open["open"].get("userIds").is_none(), "{open}");
    let (status, text) = h
        .post(
            ALPHA,
            "/api/challenge/open",
            &[("variant", "persian-princess"), ("users", "alpha,beta")],
        )
        .await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(parse(&text)["open"]["userIds"], serde_json::json!(["alpha", "beta"]));
}

#[tokio::test]
async fn malformed_json_is_refused_and_creates_nothing() {
    let arena = common::arena().await;
    let h = Raw::new(&arena);
    for body in ["{", "[1, 2]", "\"standard\"", "{\"variant\": "] {
        let r = h
            .http
            .post(format!("{}/api/challenge/beta", h.base))
            .bearer_auth(ALPHA)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("request");
        assert_eq!(r.status().as_u16(), 400, "{body}");
        let text = r.text().await.expect("body");
        assert!(
            parse(&text)["error"].as_str().is_some_and(|e| e.contains("JSON")),
            "{text}"
        );
    }
    let listed = parse(&h.get(ALPHA, "/api/challenge").await.1);
    assert_eq!(listed["out"], serde_json::json!([]), "no challenge was made: {listed}");
    // An empty JSON body is no parameters (a standard challenge), as before.
    let r = h
        .http
        .post(format!("{}/api/challenge/beta", h.base))
        .bearer_auth(ALPHA)
        .header("content-type", "application/json")
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test]
async fn challenges_from_a_finished_position_are_refused() {
    let arena = common::arena().await;
    let h = Raw::new(&arena);
    for (what, fen) in [
        ("mate", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
        ("stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        ("bare kings", "8/8/4k3/8/8/4K3/8/8 w - - 0 1"),
    ] {
        for path in ["/api/challenge/beta", "/api/challenge/open"] {
            let (status, text) = h.post(ALPHA, path, &[("variant", "standard"), ("fen", fen)]).await;
            assert_eq!(status, 400, "{what} via {path}: {text}");
            assert!(text.contains("already over"), "{text}");
        }
    }
    let playable = "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1";
    let (status, text) = h
        .post(
            ALPHA,
            "/api/challenge/beta",
            &[("variant", "standard"), ("fen", playable)],
        )
        .await;
    assert_eq!(status, 200, "{text}");
}

#[tokio::test]
async fn errors_of_the_http_layers_are_json_too() {
    let arena = common::arena().await;
    let h = Raw::new(&arena);
    // A GET on a POST-only route: 405, a JSON error.
    let (status, text) = h.get(ALPHA, "/api/challenge/beta/accept").await;
    assert_eq!(status, 405, "{text}");
    assert!(parse(&text)["error"].is_string(), "{text}");
    // A path that is not UTF-8.
    let (status, text) = h.post(ALPHA, "/api/bot/game/%FF%FE/move/e2e4", &[]).await;
    assert_eq!(status, 400, "{text}");
    assert!(parse(&text)["error"].is_string(), "{text}");
}

#[tokio::test]
async fn chat_lines_lose_control_characters() {
    let arena = common::arena().await;
    let h = Raw::new(&arena);
    let id = start_game(&h, "persian-princess").await;
    let (status, text) = h
        .post(
            ALPHA,
            &format!("/api/bot/game/{id}/chat"),
            &[("room", "player"), ("text", "hi\u{0}there\u{1b}[2J\nbye")],
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let (status, text) = h
        .post(
            ALPHA,
            &format!("/api/bot/game/{id}/chat"),
            &[("room", "player"), ("text", "\u{0}\u{0}")],
        )
        .await;
    assert_eq!(status, 400, "only control characters: {text}");
    let lines = parse(&h.get(ALPHA, &format!("/api/bot/game/{id}/chat")).await.1);
    assert_eq!(
        lines,
        serde_json::json!([{ "text": "hi there [2J bye", "user": "Alpha" }])
    );
}

#[tokio::test]
async fn health_and_metrics_describe_the_running_arena() {
    let arena = common::arena().await;
    let h = Raw::new(&arena);
    let id = start_game(&h, "persian-princess").await;
    let first = common::random_move(Variant::PersianPrincess, &[], 3).expect("a move");
    assert_eq!(
        h.post(ALPHA, &format!("/api/bot/game/{id}/move/{first}"), &[]).await.0,
        200
    );
    let _events = h.lines(BETA, "/api/stream/event").await;
    let (status, text) = h.get("", "/api/arena/health").await;
    assert_eq!(status, 200, "{text}");
    let health = parse(&text);
    assert_eq!(health["status"], "ok");
    assert_eq!(health["database"]["kind"], "memory");
    assert_eq!(health["runningGames"], 1);
    assert!(health["openStreams"].as_u64().is_some_and(|n| n >= 1), "{health}");

    let r = h.http.get(format!("{}/metrics", h.base)).send().await.expect("scrape");
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .expect("ascii")
        .starts_with("application/openmetrics-text"));
    let text = r.text().await.expect("text");
    // Every sample line parses as `name{labels} value`, and the figures are right.
    let mut samples = std::collections::HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (name, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("a sample: {line}"));
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("a number: {line}"));
        samples.insert(name.to_string(), value);
    }
    assert_eq!(text.lines().last(), Some("# EOF"));
    assert_eq!(samples["arena_moves_total"], 1.0, "{text}");
    assert_eq!(samples["arena_running_games"], 1.0);
    assert!(samples["arena_open_streams"] >= 1.0);
    assert_eq!(samples["arena_store_degraded"], 0.0);
    assert_eq!(
        samples[r#"arena_http_requests_total{method="POST",route="/api/bot/game/{id}/move/{mv}",status="200"}"#], 1.0,
        "{text}"
    );
    assert_eq!(
        samples[r#"arena_http_requests_total{method="POST",route="/api/challenge/{name}",status="200"}"#], 1.0,
        "{text}"
    );
}
