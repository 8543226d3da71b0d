//! Conformance with the official Lichess API description: every request the bot's client sends
//! names a path, method and parameters of the description, and every payload the arena sends
//! (JSON answers, event and game stream lines, errors) validates against the description's
//! schemas, with the variant-key enum relaxed to a string.

use crate::common;
use crate::spec;

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::Duration,
};

use bot::{
    api::types::DeclineReason,
    arena::{Arena, Endpoint, RecordedRequest},
};
use serde_json::Value;
use spec::Spec;

async fn arena_with_newcomer() -> Arena {
    common::arena_with(vec![common::account("Newcomer", false, &[])]).await
}

/// The `id` of a JSON answer.
fn id_of(text: &str) -> String {
    serde_json::from_str::<Value>(text).expect("JSON")["id"]
        .as_str()
        .expect("id")
        .to_string()
}

/// Checks one recorded request against the description.
fn check_request(spec: &Spec, r: &RecordedRequest) -> Result<(), String> {
    let at = format!("{} {}", r.method, r.path);
    if r.endpoint == Endpoint::Unknown {
        return Err(format!("{at}: no endpoint of the arena"));
    }
    let (method, template) = r.endpoint.template();
    let op = spec
        .operation(method, template)
        .ok_or_else(|| format!("{at}: {method} {template} is not in the description"))?;
    let params = spec.parameters(&op);
    // Path parameters: every {name} of the template is a path parameter of the operation.
    for segment in template.split('/').filter(|s| s.starts_with('{')) {
        let name = segment.trim_matches(|c| c == '{' || c == '}');
        if !params.iter().any(|(place, n, ..)| place == "path" && n == name) {
            return Err(format!("{at}: path parameter {name} is not described"));
        }
    }
    for (k, v) in &r.query {
        let (_, _, schema, base) = params
            .iter()
            .find(|(place, n, ..)| place == "query" && n == k)
            .ok_or_else(|| format!("{at}: query parameter '{k}' is not described"))?;
        spec.validate_text(v, schema, base, &format!("{at}?{k}"))?;
    }
    if !r.form.is_empty() {
        let (schema, base) = spec
            .request_schema(&op, "application/x-www-form-urlencoded")
            .ok_or_else(|| format!("{at}: a form body, but the operation takes none"))?;
        let object = spec.typed_object(&r.form, &schema, &base, &at)?;
        spec.validate(&object, &schema, &base, &format!("{at} body"))?;
    }
    Ok(())
}

/// Checks a JSON answer (or one stream line) of `endpoint` with `status`.
fn check_payload(spec: &Spec, endpoint: Endpoint, status: u16, text: &str) -> Result<(), String> {
    let (method, template) = endpoint.template();
    let at = format!("{method} {template} -> {status}");
    let op = spec
        .operation(method, template)
        .ok_or_else(|| format!("{at}: not in the description"))?;
    let (schema, base) = spec
        .response_schema(&op, status)
        .ok_or_else(|| format!("{at}: the status is not described"))?;
    let value: Value = serde_json::from_str(text).map_err(|e| format!("{at}: not JSON ({e}): {text}"))?;
    spec.validate(&value, &schema, &base, &at)
        .map_err(|e| format!("{e}\n  payload: {text}"))
}

fn snapshot_lines(lines: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    lines.lock().expect("lines").clone()
}

fn types_of(lines: &[String]) -> HashSet<String> {
    lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("type").and_then(Value::as_str).map(str::to_string))
        .collect()
}

async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_client_sends_only_described_requests() {
    let Some(spec) = Spec::load() else {
        return;
    };
    let arena = arena_with_newcomer().await;
    let dir = common::temp_dir("conformance");
    // Two bots play a game (account, event stream, accept, game stream, moves, chat), Beta
    // declines a challenge by its filters, and the client's other calls are made directly.
    let config = |name: &str| {
        let mut c = common::config(&arena, "persian-princess", dir.join(name));
        c.engine.nodes = Some(200);
        c.decisions.resign_score = 0;
        c.decisions.offer_draw_moves = 0;
        c
    };
    let mut alpha = common::start_bot(config("alpha"), "alpha-token").await;
    let mut beta = common::start_bot(config("beta"), "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let client = common::client(&arena, "alpha-token");
    // Declined by Beta's filters (variant).
    client
        .create_challenge("beta", &common::request("egyptian-eye", Some((60, 0)), true, "random"))
        .await
        .expect("challenge");
    client
        .create_challenge(
            "beta",
            &common::request("persian-princess", Some((120, 1)), false, "white"),
        )
        .await
        .expect("challenge");
    let report = alpha.next_report(Duration::from_secs(60)).await;
    beta.next_report(Duration::from_secs(10)).await;
    alpha.stop().await;
    beta.stop().await;

    let human = common::client(&arena, "human-token");
    let ch = client
        .create_challenge("human", &common::request("persian-princess", None, false, "black"))
        .await
        .expect("challenge");
    client.cancel_challenge(&ch.id).await.expect("canceled");
    let ch = human
        .create_challenge(
            "alpha",
            &common::request("celtic-citadel", Some((300, 3)), false, "white"),
        )
        .await
        .expect("challenge");
    client
        .decline_challenge(&ch.id, DeclineReason::Casual)
        .await
        .expect("declined");
    let ch = human
        .create_challenge(
            "alpha",
            &common::request("celtic-citadel", Some((300, 3)), false, "white"),
        )
        .await
        .expect("challenge");
    client.accept_challenge(&ch.id).await.expect("accepted");
    let _ = client.make_move(&ch.id, "e2e4", true).await; // not its turn: 400, still a described call
    let _ = client.chat(&ch.id, "spectator", "hello").await;
    let _ = client.draw(&ch.id, false).await;
    let _ = client.takeback(&ch.id, false).await;
    let _ = client.claim_victory(&ch.id).await;
    let _ = client.abort(&ch.id).await;
    let _ = client.resign(&report.id).await; // over: 400
    client.online_bots(20).await.expect("online bots");
    common::client(&arena, "newcomer-token")
        .upgrade_to_bot()
        .await
        .expect("upgraded");

    let requests = arena.requests();
    let errors: Vec<String> = requests.iter().filter_map(|r| check_request(&spec, r).err()).collect();
    assert!(
        errors.is_empty(),
        "{} of {} requests:\n{}",
        errors.len(),
        requests.len(),
        errors.join("\n")
    );
    let seen: HashSet<Endpoint> = requests.iter().map(|r| r.endpoint).collect();
    // Every endpoint the bot's client has a call for (humans' endpoints, the Board API and
    // the lists are checked by the payload test).
    let client_endpoints = [
        Endpoint::Account,
        Endpoint::EventStream,
        Endpoint::Upgrade,
        Endpoint::TokenTest,
        Endpoint::OnlineBots,
        Endpoint::CreateChallenge,
        Endpoint::Accept,
        Endpoint::Decline,
        Endpoint::Cancel,
        Endpoint::GameStream,
        Endpoint::Move,
        Endpoint::Chat,
        Endpoint::Abort,
        Endpoint::Resign,
        Endpoint::Draw,
        Endpoint::BotTakeback,
        Endpoint::ClaimVictory,
    ];
    for e in client_endpoints {
        assert!(seen.contains(&e), "no {e:?} request was checked");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_arena_sends_only_described_payloads() {
    let Some(spec) = Spec::load() else {
        return;
    };
    let arena = arena_with_newcomer().await;
    let raw = common::Raw::new(&arena);
    let (a, b) = ("alpha-token", "beta-token");
    let mut errors = Vec::new();
    let mut check = |endpoint: Endpoint, (status, text): (u16, String)| {
        if let Err(e) = check_payload(&spec, endpoint, status, &text) {
            errors.push(e);
        }
        text
    };

    check(Endpoint::Account, raw.get(a, "/api/account").await);
    let tokens = raw
        .http
        .post(format!("{}/api/token/test", raw.base))
        .body("alpha-token,nosuch-token")
        .send()
        .await
        .expect("token test");
    check(
        Endpoint::TokenTest,
        (tokens.status().as_u16(), tokens.text().await.expect("body")),
    );
    let alpha_events = raw.lines(a, "/api/stream/event").await;
    let beta_events = raw.lines(b, "/api/stream/event").await;
    settle().await;

    // A challenge Beta declines, one Alpha cancels, one Beta accepts.
    let form = [
        ("variant", "persian-princess"),
        ("clock.limit", "60"),
        ("clock.increment", "1"),
        ("color", "white"),
        ("rated", "false"),
    ];
    let text = check(
        Endpoint::CreateChallenge,
        raw.post(a, "/api/challenge/beta", &form).await,
    );
    let id = id_of(&text);
    check(
        Endpoint::Decline,
        raw.post(b, &format!("/api/challenge/{id}/decline"), &[("reason", "variant")])
            .await,
    );
    check(
        Endpoint::Decline,
        raw.post(b, "/api/challenge/nosuch/decline", &[]).await,
    );
    let text = check(
        Endpoint::CreateChallenge,
        raw.post(a, "/api/challenge/beta", &form).await,
    );
    let id = id_of(&text);
    check(
        Endpoint::Cancel,
        raw.post(a, &format!("/api/challenge/{id}/cancel"), &[]).await,
    );
    check(
        Endpoint::CreateChallenge,
        raw.post(a, "/api/challenge/beta", &[("clock.limit", "x")]).await,
    );
    let text = check(
        Endpoint::CreateChallenge,
        raw.post(a, "/api/challenge/beta", &form).await,
    );
    let game = id_of(&text);
    check(
        Endpoint::Accept,
        raw.post(b, &format!("/api/challenge/{game}/accept"), &[]).await,
    );
    settle().await;

    let alpha_game = raw.lines(a, &format!("/api/bot/game/stream/{game}")).await;
    let beta_game = raw.lines(b, &format!("/api/bot/game/stream/{game}")).await;
    check(Endpoint::GameStream, raw.get(a, "/api/bot/game/stream/nosuch").await);
    settle().await;
    check(
        Endpoint::Move,
        raw.post(a, &format!("/api/bot/game/{game}/move/e3e4"), &[]).await,
    );
    check(
        Endpoint::Move,
        raw.post(a, &format!("/api/bot/game/{game}/move/e4e5"), &[]).await,
    ); // not its turn
    check(
        Endpoint::Move,
        raw.post(b, &format!("/api/bot/game/{game}/move/a1a9"), &[]).await,
    ); // illegal
    check(
        Endpoint::Chat,
        raw.post(
            b,
            &format!("/api/bot/game/{game}/chat"),
            &[("room", "player"), ("text", "hi")],
        )
        .await,
    );
    check(
        Endpoint::Draw,
        raw.post(b, &format!("/api/bot/game/{game}/draw/yes"), &[]).await,
    );
    check(
        Endpoint::Abort,
        raw.post(b, &format!("/api/bot/game/{game}/abort"), &[]).await,
    );
    check(
        Endpoint::ClaimVictory,
        raw.post(b, &format!("/api/bot/game/{game}/claim-victory"), &[]).await,
    );
    let (status, text) = raw.get(a, "/api/bot/online?nb=5").await;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        check(Endpoint::OnlineBots, (status, line.to_string()));
    }
    check(
        Endpoint::Upgrade,
        raw.post("newcomer-token", "/api/bot/account/upgrade", &[]).await,
    );
    check(
        Endpoint::Upgrade,
        raw.post("newcomer-token", "/api/bot/account/upgrade", &[]).await,
    );
    check(
        Endpoint::Resign,
        raw.post(b, &format!("/api/bot/game/{game}/resign"), &[]).await,
    );
    settle().await;

    // A human plays Alpha through the Board API: moves, chat, takeback, draw, the lists.
    let h = "human-token";
    let human_events = raw.lines(h, "/api/stream/event").await;
    let text = check(
        Endpoint::CreateChallenge,
        raw.post(
            h,
            "/api/challenge/alpha",
            &[("variant", "persian-princess"), ("color", "white"), ("days", "2")],
        )
        .await,
    );
    let board_game = id_of(&text);
    let (status, text) = raw.get(a, "/api/challenge").await;
    check(Endpoint::ListChallenges, (status, text));
    check(
        Endpoint::ShowChallenge,
        raw.get(a, &format!("/api/challenge/{board_game}/show")).await,
    );
    check(
        Endpoint::Accept,
        raw.post(a, &format!("/api/challenge/{board_game}/accept"), &[]).await,
    );
    settle().await;
    let human_game = raw.lines(h, &format!("/api/board/game/stream/{board_game}")).await;
    check(
        Endpoint::BoardGameStream,
        raw.get(h, "/api/board/game/stream/nosuch").await,
    );
    settle().await;
    check(
        Endpoint::BoardMove,
        raw.post(h, &format!("/api/board/game/{board_game}/move/e3e4"), &[])
            .await,
    );
    check(
        Endpoint::BoardMove,
        raw.post(h, &format!("/api/board/game/{board_game}/move/e4e5"), &[])
            .await,
    );
    check(
        Endpoint::Move,
        raw.post(a, &format!("/api/bot/game/{board_game}/move/e7e6"), &[]).await,
    );
    check(
        Endpoint::BoardChat,
        raw.post(
            h,
            &format!("/api/board/game/{board_game}/chat"),
            &[("room", "player"), ("text", "hi")],
        )
        .await,
    );
    let (status, text) = raw.get(h, &format!("/api/board/game/{board_game}/chat")).await;
    check(Endpoint::BoardChatGet, (status, text));
    let (status, text) = raw.get(a, &format!("/api/bot/game/{board_game}/chat")).await;
    check(Endpoint::BotChatGet, (status, text));
    check(
        Endpoint::BoardTakeback,
        raw.post(h, &format!("/api/board/game/{board_game}/takeback/yes"), &[])
            .await,
    );
    check(
        Endpoint::BotTakeback,
        raw.post(a, &format!("/api/bot/game/{board_game}/takeback/no"), &[])
            .await,
    );
    check(
        Endpoint::BoardDraw,
        raw.post(h, &format!("/api/board/game/{board_game}/draw/yes"), &[])
            .await,
    );
    check(
        Endpoint::BoardClaimVictory,
        raw.post(h, &format!("/api/board/game/{board_game}/claim-victory"), &[])
            .await,
    );
    check(
        Endpoint::BoardClaimDraw,
        raw.post(h, &format!("/api/board/game/{board_game}/claim-draw"), &[])
            .await,
    );
    check(
        Endpoint::BotClaimDraw,
        raw.post(a, &format!("/api/bot/game/{board_game}/claim-draw"), &[])
            .await,
    );
    check(
        Endpoint::BoardBerserk,
        raw.post(h, &format!("/api/board/game/{board_game}/berserk"), &[]).await,
    );
    check(
        Endpoint::BoardAbort,
        raw.post(h, &format!("/api/board/game/{board_game}/abort"), &[]).await,
    );
    check(
        Endpoint::BoardResign,
        raw.post(h, &format!("/api/board/game/{board_game}/resign"), &[]).await,
    );
    settle().await;
    for line in snapshot_lines(&human_events) {
        check(Endpoint::EventStream, (200, line));
    }
    for line in snapshot_lines(&human_game) {
        check(Endpoint::BoardGameStream, (200, line));
    }

    // Users: the account after games, another user, statuses, preferences.
    check(Endpoint::Account, raw.get(h, "/api/account").await);
    check(Endpoint::User, raw.get(h, "/api/user/alpha").await);
    check(
        Endpoint::UsersStatus,
        raw.get(h, "/api/users/status?ids=alpha,human").await,
    );
    check(Endpoint::Preferences, raw.get(h, "/api/account/preferences").await);

    // Export: one game as JSON, a user's games as ND-JSON.
    check(
        Endpoint::ExportGame,
        raw.get_accept(h, &format!("/game/export/{game}?pgnInJson=true"), "application/json")
            .await,
    );
    let (status, text) = raw
        .get_accept(
            h,
            "/api/games/user/alpha?ongoing=true&clocks=true",
            "application/x-ndjson",
        )
        .await;
    assert!(text.lines().count() >= 2, "{text}");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        check(Endpoint::UserGames, (status, line.to_string()));
    }

    let snapshot = |lines: &Arc<Mutex<Vec<String>>>| lines.lock().expect("lines").clone();
    let mut event_lines = snapshot(&alpha_events);
    event_lines.extend(snapshot(&beta_events));
    let mut game_lines = snapshot(&alpha_game);
    game_lines.extend(snapshot(&beta_game));
    for line in &event_lines {
        check(Endpoint::EventStream, (200, line.clone()));
    }
    for line in &game_lines {
        check(Endpoint::GameStream, (200, line.clone()));
    }
    assert!(errors.is_empty(), "{} payloads:\n{}", errors.len(), errors.join("\n"));
    let events = types_of(&event_lines);
    for t in [
        "challenge",
        "challengeDeclined",
        "challengeCanceled",
        "gameStart",
        "gameFinish",
    ] {
        assert!(events.contains(t), "no {t} event was checked: {events:?}");
    }
    let game_events = types_of(&game_lines);
    for t in ["gameFull", "gameState", "chatLine"] {
        assert!(game_events.contains(t), "no {t} line was checked: {game_events:?}");
    }
}

#[test]
fn the_validator_rejects_what_the_description_forbids() {
    let Some(spec) = Spec::load() else {
        return;
    };
    let bad = [
        (Endpoint::EventStream, 200, r#"{"type":"gameStart"}"#),
        (Endpoint::EventStream, 200, r#"{"type":"noSuchEvent"}"#),
        (Endpoint::Account, 200, r#"{"id":1,"username":"x","url":"u"}"#),
        (Endpoint::Move, 200, r#"{"ok":"yes"}"#),
        (Endpoint::Move, 400, r#"{}"#),
        (
            Endpoint::GameStream,
            200,
            r#"{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"noSuchStatus"}"#,
        ),
    ];
    for (endpoint, status, text) in bad {
        assert!(check_payload(&spec, endpoint, status, text).is_err(), "{text} passed");
    }
    let good = [
        (Endpoint::Move, 200, r#"{"ok":true}"#),
        (Endpoint::Move, 400, r#"{"error":"Not your turn"}"#),
        (
            Endpoint::GameStream,
            200,
            r#"{"type":"gameState","moves":"e2e4","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}"#,
        ),
    ];
    for (endpoint, status, text) in good {
        check_payload(&spec, endpoint, status, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let request = |method: &str, path: &str, query: &[(&str, &str)], form: &[(&str, &str)]| RecordedRequest {
        method: method.into(),
        path: path.into(),
        endpoint: Endpoint::classify(method, path),
        query: query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        form: form.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        user: None,
        status: 200,
    };
    assert!(check_request(
        &spec,
        &request("POST", "/api/bot/game/x/move/e2e4", &[("offeringDraw", "true")], &[])
    )
    .is_ok());
    assert!(check_request(
        &spec,
        &request("POST", "/api/bot/game/x/move/e2e4", &[("offeringDraw", "maybe")], &[])
    )
    .is_err());
    assert!(check_request(
        &spec,
        &request("POST", "/api/bot/game/x/move/e2e4", &[("draw", "true")], &[])
    )
    .is_err());
    assert!(check_request(
        &spec,
        &request("POST", "/api/challenge/x/decline", &[], &[("reason", "variant")])
    )
    .is_ok());
    assert!(check_request(
        &spec,
        &request("POST", "/api/challenge/x/decline", &[], &[("reason", "boredom")])
    )
    .is_err());
    assert!(check_request(
        &spec,
        &request(
            "POST",
            "/api/challenge/bob",
            &[],
            &[("clock.limit", "60"), ("clock.increment", "x")]
        )
    )
    .is_err());
    assert!(check_request(&spec, &request("GET", "/api/bot/nothing", &[], &[])).is_err());
}
