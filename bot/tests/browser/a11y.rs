//! Accessibility of every page, checked by axe-core in a real headless Chromium (see
//! `browser.rs` for the browser's requirements; axe-core comes from the npm registry, a pinned
//! version that `.ci/run` unpacks into `target/axe-core`): the lobby, a game in progress (as a
//! player and as a spectator), a finished game and its replay, the analysis board, the
//! explorer, TV, the games list, sign-in and sign-up, the token page and a page that does not
//! exist, in the light and the dark colour scheme. No violation of impact `critical` or
//! `serious` is allowed; the test prints each one it finds (rule, help, elements).
//!
//! Skipped without Chromium (unless `REQUIRE_BROWSER`) or without axe-core (unless
//! `REQUIRE_AXE`). Screenshots go to `browser-a11y/`.

use crate::common;
use crate::webdriver;

use std::time::Duration;

use bot::arena::{Arena, ArenaConfig};
use serde_json::Value;
use webdriver::{axe_source, launch, Browser};

const SECOND: Duration = Duration::from_secs(1);

/// Rules that must pass whatever axe-core's impact: one `<h1>` and one `<main>` per page, a
/// name for every form control, button and link.
const REQUIRED: [&str; 7] = [
    "page-has-heading-one",
    "landmark-one-main",
    "label",
    "select-name",
    "button-name",
    "link-name",
    "color-contrast",
];

async fn arena() -> Arena {
    Arena::start(ArenaConfig {
        event_keepalive: Duration::from_millis(500),
        game_keepalive: Duration::from_millis(500),
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        ..ArenaConfig::default()
    })
    .await
    .expect("arena starts")
}

/// The violations of the page at `path` once `ready` (a script returning true) holds, in both
/// colour schemes, as lines of text (empty: none).
async fn check(b: &Browser, axe: &str, url: &str, path: &str, ready: &str) -> Vec<String> {
    let mut found = Vec::new();
    for scheme in ["light", "dark"] {
        b.color_scheme(scheme).await;
        b.go(&format!("{url}{path}")).await;
        b.until(&format!("{path} ready"), ready, 20 * SECOND).await;
        // Scripts that draw after their first answer (clocks, streams) settle.
        tokio::time::sleep(Duration::from_millis(300)).await;
        for v in b.axe_violations(axe).await {
            let serious = matches!(v["impact"].as_str(), Some("critical" | "serious"));
            let id = v["id"].as_str().unwrap_or_default();
            let nodes: Vec<String> = v["nodes"]
                .as_array()
                .map(|n| {
                    n.iter()
                        .take(6)
                        .map(|n| {
                            format!(
                                "      {} : {}",
                                n["target"].as_str().unwrap_or_default(),
                                n["summary"].as_str().unwrap_or_default().replace('\n', " ")
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let line = format!(
                "{path} ({scheme}): {id} [{}] {}\n{}",
                v["impact"].as_str().unwrap_or_default(),
                v["help"].as_str().unwrap_or_default(),
                nodes.join("\n")
            );
            if serious || REQUIRED.contains(&id) {
                found.push(line);
            } else {
                eprintln!("(allowed, minor) {line}");
            }
        }
    }
    b.shot(&path.replace(['/', '?', '=', '&'], "_")).await;
    found
}

/// Human (API) challenges the signed-in Player1, who accepts in the lobby. The game id.
async fn game_with_human(b: &Browser, raw: &common::Raw, url: &str) -> String {
    b.color_scheme("light").await;
    b.go(&format!("{url}/")).await;
    b.find("#challenges").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let terms = [
        ("variant", "persian-princess"),
        ("color", "white"),
        ("clock.limit", "600"),
        ("clock.increment", "5"),
    ];
    let (status, body) = raw.post("human-token", "/api/challenge/Player1", &terms).await;
    assert_eq!(status, 200, "{body}");
    let id = serde_json::from_str::<Value>(&body).expect("json")["id"]
        .as_str()
        .expect("challenge id")
        .to_string();
    b.click("#challenges button.accept").await;
    b.until(
        "the game page",
        &format!("return location.pathname === '/{id}'"),
        20 * SECOND,
    )
    .await;
    id
}

/// The first legal moves of `plies` plies of game `id` between Human (White) and Alpha.
async fn play_some(raw: &common::Raw, url: &str, id: &str, plies: usize) {
    for _ in 0..plies {
        let legal = webdriver::get_json(&format!("{url}/api/arena/game/{id}/legal")).await;
        let m = legal["moves"][0]["uci"].as_str().expect("a move").to_string();
        let turn = legal["turn"].as_str().unwrap_or("white").to_string();
        let token = if turn == "white" { "human-token" } else { "alpha-token" };
        let api = if turn == "white" { "board" } else { "bot" };
        let (s, body) = raw.post(token, &format!("/api/{api}/game/{id}/move/{m}"), &[]).await;
        assert_eq!(s, 200, "{body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_page_has_a_serious_accessibility_violation() {
    let Some(axe) = axe_source() else {
        return;
    };
    let Some(b) = launch("a11y").await else {
        return;
    };
    let arena = arena().await;
    let url = arena.url();
    let raw = common::Raw::new(&arena);
    let board = "return document.querySelectorAll('#board .cell').length > 0";
    let loaded = "return document.readyState === 'complete'";
    let mut found = Vec::new();

    // A game between Human (White) and Alpha, in progress, for spectators.
    let terms = [
        ("variant", "persian-princess"),
        ("color", "white"),
        ("clock.limit", "600"),
    ];
    let (status, body) = raw.post("human-token", "/api/challenge/alpha", &terms).await;
    assert_eq!(status, 200, "{body}");
    let watched = serde_json::from_str::<Value>(&body).expect("json")["id"]
        .as_str()
        .expect("id")
        .to_string();
    let (status, body) = raw
        .post("alpha-token", &format!("/api/challenge/{watched}/accept"), &[])
        .await;
    assert_eq!(status, 200, "{body}");
    play_some(&raw, &url, &watched, 4).await;

    // Signed out.
    for (path, ready) in [
        ("/", loaded),
        ("/login", loaded),
        ("/signup", loaded),
        ("/tv", loaded),
        ("/games", "return document.querySelectorAll('#games tbody tr').length > 0"),
        ("/explorer", board),
        // The PGN box is in a <details>: opened, so that it is checked too.
        ("/analysis", "const d = document.querySelector('details'); if (d) d.open = true; return document.querySelectorAll('#board .cell').length > 0"),
        ("/no-such-page", loaded),
    ] {
        found.extend(check(&b, &axe, &url, path, ready).await);
    }
    found.extend(check(&b, &axe, &url, &format!("/{watched}"), board).await);

    // Signed in: the lobby, the token page, a game in progress as a player, then finished.
    b.sign_up(&url, "Player1").await;
    found.extend(check(&b, &axe, &url, "/", loaded).await);
    found.extend(check(&b, &axe, &url, "/account/oauth/token", loaded).await);
    let id = game_with_human(&b, &raw, &url).await;
    // Human (White) moves; Player1 is to move.
    let legal = webdriver::get_json(&format!("{url}/api/arena/game/{id}/legal")).await;
    let m = legal["moves"][0]["uci"].as_str().expect("a move").to_string();
    let (s, body) = raw
        .post("human-token", &format!("/api/board/game/{id}/move/{m}"), &[])
        .await;
    assert_eq!(s, 200, "{body}");
    found.extend(check(&b, &axe, &url, &format!("/{id}"), board).await);
    let (s, body) = raw
        .post("human-token", &format!("/api/board/game/{id}/resign"), &[])
        .await;
    assert_eq!(s, 200, "{body}");
    let over = "return document.querySelectorAll('#board .cell').length > 0 && !!document.querySelector('.over:not([hidden])')";
    found.extend(check(&b, &axe, &url, &format!("/{id}"), over).await);
    // The finished game of others, replayed at an earlier ply.
    let (s, body) = raw
        .post("human-token", &format!("/api/board/game/{watched}/resign"), &[])
        .await;
    assert_eq!(s, 200, "{body}");
    let replay = "const mv = document.querySelector('#moves .mv'); if (!mv) return false; mv.click(); return true;";
    found.extend(check(&b, &axe, &url, &format!("/{watched}"), replay).await);

    assert!(
        found.is_empty(),
        "{} serious or critical accessibility violations:\n{}",
        found.len(),
        found.join("\n")
    );
}
