//! The pages in a real headless Chromium, driven over WebDriver (chromedriver): sign up,
//! challenge our bot to a Persian Princess game from the lobby and play it to the end by
//! clicking squares; a rendezvous, a castling (dragged) and a promotion (chosen) made with the
//! mouse; watching a bot-vs-bot game on TV. A screenshot of each step is saved under the test
//! target directory (`browser/`).
//!
//! Needs `chromium` and `chromedriver` (Debian's packages; `.ci/run` installs them). Without
//! them the test says so and passes, unless `REQUIRE_BROWSER=1` (as in CI).

use crate::common;
use crate::webdriver;

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use serde_json::{json, Value};
use webdriver::{get_json, Browser};

/// Plays the signed-in side of game `id` by clicking squares until the game ends; returns the
/// number of plies. The test picks a legal move from the arena's list each turn.
async fn play_to_the_end(b: &Browser, arena: &str, id: &str, side: &str) -> usize {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for turn in 0.. {
        let view = get_json(&format!("{arena}/api/arena/game/{id}/view")).await;
        if view["status"] != "started" {
            return view["san"].as_array().map_or(0, Vec::len);
        }
        assert!(turn < 400, "the game does not end");
        if view["turn"] != side {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let plies = view["san"].as_array().map_or(0, Vec::len);
        let legal = get_json(&format!("{arena}/api/arena/game/{id}/legal")).await;
        let moves = legal["moves"].as_array().expect("moves");
        if moves.is_empty() {
            continue;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pick = &moves[(seed % moves.len() as u64) as usize];
        let uci = pick["uci"].as_str().expect("uci");
        let (from, to) = (pick["from"].as_str().expect("from"), pick["to"].as_str().expect("to"));
        // The page must have drawn this position, with the player's moves, before the clicks.
        b.until(
            "the board to show our turn",
            &format!(
                "return document.querySelectorAll('#moves .mv').length === {plies} && document.getElementById('board').dataset.turn === '{side}'"
            ),
            Duration::from_secs(20),
        )
        .await;
        b.click(&format!("#board [data-sq=\"{from}\"]")).await;
        b.click(&format!("#board [data-sq=\"{to}\"]")).await;
        let chooser = b
            .js("return !!document.getElementById('move-chooser')", json!([]))
            .await;
        if chooser == json!(true) {
            b.click(&format!("#move-chooser button[data-uci=\"{uci}\"]")).await;
        }
        // Our move reached the arena.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let now = get_json(&format!("{arena}/api/arena/game/{id}/view")).await;
            if now["san"].as_array().map_or(0, Vec::len) > plies || now["status"] != "started" {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the click on {from} {to} ({uci}) played nothing"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if turn == 2 {
            b.shot("playing").await;
        }
    }
    unreachable!()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn play_watch_and_special_moves_in_a_real_browser() {
    let Some((chromium, driver)) = webdriver::programs() else {
        return;
    };
    let arena = common::arena_with_openings("browser-openings").await;
    let url = arena.url();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&shots);
    let beta = common::start_bot(
        common::config(&arena, "persian-princess", common::temp_dir("browser-beta")),
        "beta-token",
    )
    .await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let b = Browser::start(&chromium, &driver, shots.clone(), "main").await;

    // Sign up.
    b.go(&format!("{url}/signup")).await;
    b.type_in("input[name=username]", "Player1").await;
    b.type_in("input[name=password]", "correct horse").await;
    b.type_in("input[name=password2]", "correct horse").await;
    b.shot("signup").await;
    b.click("button[type=submit]").await;
    assert_eq!(b.text("#me").await, "Player1");

    b.go(&format!("{url}/account/oauth/token")).await;
    b.find("#tokens").await;
    b.shot("tokens").await;
    b.go(&format!("{url}/")).await;

    // The lobby lists our bot; challenge it to Persian Princess as White.
    b.find("tr[data-bot=beta]").await;
    b.shot("lobby").await;
    b.click("button.challenge[data-bot=beta]").await;
    b.js(
        "document.querySelector('select[name=variant]').value = 'persian-princess';\
         document.querySelector('select[name=color]').value = 'white'; return true",
        json!([]),
    )
    .await;
    b.type_in("input[name=minutes]", "15").await;
    b.click("#create-game").await;
    let game_url = b
        .until(
            "the game page",
            "return /^\\/[A-Za-z0-9]{8}$/.test(location.pathname) && location.pathname",
            Duration::from_secs(30),
        )
        .await;
    let id = game_url.as_str().expect("path")[1..].to_string();
    b.find("#board .cell[data-sq=\"f2\"] .piece.white.king").await;
    b.shot("game-start").await;
    let plies = play_to_the_end(&b, &url, &id, "white").await;
    assert!(plies >= 2, "the bot replied");
    let result = b
        .until(
            "the result",
            "return document.getElementById('result').textContent",
            Duration::from_secs(10),
        )
        .await;
    assert!(result.as_str().is_some_and(|r| r.contains('·')), "{result}");
    b.shot("game-over").await;
    let view = get_json(&format!("{url}/api/arena/game/{id}/view")).await;
    assert_ne!(view["status"], "started");
    // The game list shows it, finished; its link opens the game.
    b.go(&format!("{url}/games")).await;
    b.find(&format!("#games tr[data-game=\"{id}\"]")).await;
    b.shot("games").await;
    b.click(&format!("#games tr[data-game=\"{id}\"] a")).await;
    b.find("#moves .mv").await;

    // The page's figures: bytes of the document and everything it loaded, and the time to
    // the first board, on a fresh load (docs/benchmarks.md).
    b.go(&format!("{url}/{id}")).await;
    let figures = b
        .until(
            "the figures",
            "const m = performance.getEntriesByName('first-board')[0]; if (!m) return null;\
             const nav = performance.getEntriesByType('navigation')[0];\
             const res = performance.getEntriesByType('resource');\
             const bytes = nav.decodedBodySize + res.reduce((a, r) => a + r.decodedBodySize, 0);\
             const sent = nav.encodedBodySize + res.reduce((a, r) => a + r.encodedBodySize, 0);\
             return { bytes, sent, files: res.length + 1, firstBoardMs: Math.round(m.startTime), views: res.filter((r) => r.name.includes('/view')).map((r) => r.decodedBodySize) }",
            Duration::from_secs(20),
        )
        .await;
    eprintln!("game page figures: {figures}");
    // Move navigation: back to the start shows the start position.
    b.click("#first").await;
    b.until(
        "the start position",
        "return document.querySelector('#board [data-sq=\"f2\"] .king') && !document.querySelector('#board .cell.last')",
        Duration::from_secs(10),
    )
    .await;

    // At phone width the page fits: the board is drawn within the screen, nothing scrolls sideways.
    b.post("/window/rect", json!({ "width": 390, "height": 844 })).await;
    b.go(&format!("{url}/{id}")).await;
    b.find("#board .cell[data-sq=\"f2\"]").await;
    let fits = b
        .js(
            "const r = document.getElementById('board').getBoundingClientRect();\
             const w = document.documentElement.clientWidth; return r.width > 250 && r.right <= w && document.documentElement.scrollWidth <= w",
            json!([]),
        )
        .await;
    b.shot("phone").await;
    assert_eq!(fits, true, "the game page fits a phone's width");
    b.post("/window/rect", json!({ "width": 1280, "height": 1000 })).await;

    // Special moves with the mouse, in a game from a position: Human (driven through the API)
    // challenges Player1, who accepts in the lobby.
    let raw = common::Raw::new(&arena);
    let fen = "11/8k2/2P8/11/11/11/11/11/11/1R3KSB3/11 w Q - 0 1 R";
    b.go(&format!("{url}/")).await;
    b.find("#challenges").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, body) = raw
        .post(
            "human-token",
            "/api/challenge/Player1",
            &[("variant", "persian-princess"), ("color", "black"), ("fen", fen)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    b.click("#challenges button.accept").await;
    let game_url = b
        .until(
            "the second game page",
            &format!("return location.pathname !== '/' && location.pathname !== '/{id}' && location.pathname"),
            Duration::from_secs(20),
        )
        .await;
    let special = game_url.as_str().expect("path")[1..].to_string();
    let black_reply = |n: usize| {
        let raw = &raw;
        let url = &url;
        let special = &special;
        async move {
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                let v = get_json(&format!("{url}/api/arena/game/{special}/view")).await;
                if v["san"].as_array().map_or(0, Vec::len) == n && v["turn"] == "black" {
                    let legal = get_json(&format!("{url}/api/arena/game/{special}/legal")).await;
                    let m = legal["moves"][0]["uci"].as_str().expect("a black move").to_string();
                    let (s, body) = raw
                        .post("human-token", &format!("/api/board/game/{special}/move/{m}"), &[])
                        .await;
                    assert_eq!(s, 200, "{body}");
                    return;
                }
                assert!(Instant::now() < deadline, "white's move {n} did not arrive");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    let wait_plies = |n: usize| {
        format!("return document.querySelectorAll('#moves .mv').length === {n} && document.getElementById('board').dataset.turn === 'white'")
    };
    // The rendezvous: the princess on g2 clicked, then the bishop on h2.
    b.until("the position", &wait_plies(0), Duration::from_secs(20)).await;
    b.click("#board [data-sq=\"g2\"]").await;
    b.shot("rendezvous-hints").await;
    b.click("#board [data-sq=\"h2\"]").await;
    black_reply(1).await;
    b.until("the rendezvous and the reply", &wait_plies(2), Duration::from_secs(20))
        .await;
    b.find("#board [data-sq=\"h2\"] .piece.white.princess").await;
    b.find("#board [data-sq=\"g2\"] .piece.white.bishop").await;
    b.shot("rendezvous").await;
    // Castling, dragged: the king from f2 to d2 (the rook goes to e2).
    b.drag("#board [data-sq=\"f2\"]", "#board [data-sq=\"d2\"]").await;
    black_reply(3).await;
    b.until("the castling and the reply", &wait_plies(4), Duration::from_secs(20))
        .await;
    b.find("#board [data-sq=\"d2\"] .piece.white.king").await;
    b.find("#board [data-sq=\"e2\"] .piece.white.rook").await;
    b.shot("castling").await;
    // Promotion: c9 to c10, the queen chosen.
    b.click("#board [data-sq=\"c9\"]").await;
    b.click("#board [data-sq=\"c10\"]").await;
    b.find("#move-chooser button[data-uci=\"c9c10q\"]").await;
    b.shot("promotion-choice").await;
    b.click("#move-chooser button[data-uci=\"c9c10q\"]").await;
    b.find("#board [data-sq=\"c10\"] .piece.white.queen").await;
    b.shot("promotion").await;
    // Chat: markup from the other player is shown as text, never run.
    let evil = "<img src=x id=injected><b>bold</b>";
    let (status, body) = raw
        .post(
            "human-token",
            &format!("/api/board/game/{special}/chat"),
            &[("room", "player"), ("text", evil)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let shown = b
        .until(
            "the chat line",
            "const l = document.querySelector('#chat-lines .line .text'); return l && l.textContent",
            Duration::from_secs(20),
        )
        .await;
    assert_eq!(shown, evil);
    let injected = b
        .js(
            "return document.querySelectorAll('#injected, #chat-lines img, #chat-lines .text b').length",
            json!([]),
        )
        .await;
    assert_eq!(injected, 0, "no element made from a chat text");
    b.type_in("#chat-text", "good game").await;
    b.click("#chat-form button[type=submit]").await;
    b.until(
        "our own line",
        "return [...document.querySelectorAll('#chat-lines .text')].some((t) => t.textContent === 'good game')",
        Duration::from_secs(20),
    )
    .await;
    b.shot("chat").await;
    // The page follows the game on one stream (no reconnect loop).
    let stream_path = format!("/api/board/game/stream/{special}");
    let opens: Vec<u16> = arena
        .requests()
        .iter()
        .filter(|r| r.path == stream_path)
        .map(|r| r.status)
        .collect();
    assert_eq!(opens, [200], "the game page's stream opens");
    // A draw offered with the button, accepted by the opponent: the result shows it.
    b.click("#draw").await;
    b.until(
        "the draw offer",
        "return document.getElementById('draw').textContent === 'Draw offered'",
        Duration::from_secs(20),
    )
    .await;
    let (s, body) = raw
        .post("human-token", &format!("/api/board/game/{special}/draw/yes"), &[])
        .await;
    assert_eq!(s, 200, "{body}");
    let drawn = b
        .until(
            "the draw",
            "return document.getElementById('result').textContent",
            Duration::from_secs(20),
        )
        .await;
    assert_eq!(drawn, "½-½ · Draw");
    let v = get_json(&format!("{url}/api/arena/game/{special}/view")).await;
    assert_eq!(v["status"], "draw");
    let sans: Vec<&str> = v["san"]
        .as_array()
        .expect("san")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        sans[0].starts_with("O-") || sans[0].contains('S'),
        "the rendezvous: {sans:?}"
    );
    assert!(sans[2].starts_with("O-O-O"), "queen-side castling: {sans:?}");
    assert!(sans[4].contains("=Q"), "promotion to a queen: {sans:?}");

    // TV: a bot-vs-bot game shows its new moves as they come.
    // Alpha thinks longer than Beta, so that the game lasts while it is watched.
    let mut slow = common::config(&arena, "persian-princess", common::temp_dir("browser-alpha"));
    slow.engine.nodes = Some(1_500_000);
    let alpha = common::start_bot(slow, "alpha-token").await;
    common::wait_event_streams(&arena, "alpha", 1).await;
    b.go(&format!("{url}/tv")).await;
    let (status, body) = raw
        .post(
            "alpha-token",
            "/api/challenge/Beta",
            &[
                ("variant", "persian-princess"),
                ("clock.limit", "300"),
                ("clock.increment", "2"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let first = b
        .until(
            "a TV board with moves",
            "const c = document.querySelector('.tv-card[data-plies]'); return c && Number(c.dataset.plies) >= 2 && Number(c.dataset.plies)",
            Duration::from_secs(40),
        )
        .await;
    b.shot("tv").await;
    let later = b
        .until(
            "more moves on TV",
            &format!("const c = document.querySelector('.tv-card[data-plies]'); return c && Number(c.dataset.plies) > {first} && Number(c.dataset.plies)"),
            Duration::from_secs(40),
        )
        .await;
    assert!(later.as_u64() > first.as_u64());
    b.shot("tv-later").await;
    alpha.stop().await;
    beta.stop().await;

    // The opening explorer, clicked two plies deep.
    b.go(&format!("{url}/explorer?variant=persian-princess")).await;
    b.until(
        "the explorer's moves",
        "return document.querySelectorAll('#moves tr.move').length === 2",
        Duration::from_secs(20),
    )
    .await;
    b.shot("explorer").await;
    b.click("#moves tr.move").await;
    b.until(
        "one ply deep",
        "return document.querySelectorAll('#line .ply').length === 1 && document.querySelectorAll('#moves tr.move').length === 2",
        Duration::from_secs(20),
    )
    .await;
    b.click("#moves tr.move").await;
    b.until(
        "two plies deep",
        "return document.querySelectorAll('#line .ply').length === 2 && document.getElementById('summary').textContent.startsWith('5 games')",
        Duration::from_secs(20),
    )
    .await;
    b.until(
        "the board after two plies",
        "return document.querySelectorAll('#board .cell.last').length === 2 && document.getElementById('board').dataset.turn === 'white'",
        Duration::from_secs(10),
    )
    .await;
    // The click scrolled the side panel's table into view: the shot shows the page's top.
    b.js("window.scrollTo(0, 0)", json!([])).await;
    b.shot("explorer-two-plies").await;

    // The analysis board: the Egyptian Eye's start (the Eye drawn on f6), then a position from
    // a FEN and the engine's best move.
    b.go(&format!("{url}/analysis")).await;
    b.js(
        "document.getElementById('variant').value = 'egyptian-eye'; return true",
        json!([]),
    )
    .await;
    b.click("#setup button[type=submit]").await;
    b.find("#board [data-sq=\"f6\"].eye svg.eye-mark").await;
    b.find("#board [data-sq=\"a1\"].citadel").await;
    let in_grid = b
        .js(
            "const b = document.getElementById('board').getBoundingClientRect();\
             return [...document.querySelectorAll('#board .cell')].every((c) => {\
               const r = c.getBoundingClientRect();\
               return Math.abs(r.width - b.width / 11) < 2 && r.left >= b.left - 1 && r.right <= b.right + 1; })",
            json!([]),
        )
        .await;
    assert_eq!(
        in_grid, true,
        "every cell, the Eye's included, is one cell of the 11x11 grid"
    );
    b.shot("egyptian-eye").await;
    b.js(
        "document.getElementById('variant').value = 'standard'; return true",
        json!([]),
    )
    .await;
    b.type_in("#fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").await;
    b.click("#setup button[type=submit]").await;
    b.find("#board [data-sq=\"a1\"] .piece.white.rook").await;
    b.click("#analyse").await;
    b.until(
        "the engine's answer",
        "const e = document.getElementById('best'); return e && e.textContent.includes('Ra8#')",
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(b.text("#eval").await, "#1");
    b.shot("analysis").await;
    let shots_taken = std::fs::read_dir(&shots).map_or(0, |d| d.count());
    assert!(shots_taken >= 19, "screenshots saved: {shots_taken}");
}
