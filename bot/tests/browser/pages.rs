//! The pages as Lichess players expect them, in a real headless Chromium (see `browser.rs` for
//! the requirements): the lobby with a game in progress, challenges declined and canceled, the
//! lobby's defaults and names, what a bot plays (a variant it declined, the form's warning); the
//! game page's messages (a refused move, declined offers, the claim of a win), the chat after a
//! reload and at the end of a game, the replay of a game (the move list follows, the clocks of
//! the ply shown); the analysis board's line, a bad FEN, the promotion chooser and the analysis budget's message; a page that does not exist; after a
//! game, the panel (why it ended, the rating changes, Rematch with the colours swapped, New
//! opponent, Analyse this game); a challenge noticed on another page than the lobby and the
//! tab's "Your turn"; dark mode and the board theme; premoves; the player's move drawn at once
//! (undone when refused) and the opponent's sliding; sounds and the mute switch; TV's clocks and
//! spectators; a new game from a position; Citadel's prisoners; readable coordinates and move
//! dots; the cold game page's size; and, ignored (a measurement), click to piece drawn.
//! Also: the explorer of the games played on the arena (a game just finished, move orders
//! that meet, the filters); a game played from the keyboard (the move input, the named cells,
//! the live region).
//!
//! Each test runs its own arena and browser; screenshots go to `browser-<test>/`.

use crate::common;
use crate::webdriver;

use std::time::{Duration, Instant};

use bot::arena::{Arena, ArenaConfig, Endpoint, Fault};
use serde_json::{json, Value};
use webdriver::{get_json, key, launch, Browser};

const SECOND: Duration = Duration::from_secs(1);

/// An arena for the pages: fast keep-alives, no rate limit on ordinary calls, a claim of the
/// win possible 2 s after the opponent left.
async fn arena() -> Arena {
    let mut accounts = ArenaConfig::builtin_accounts();
    accounts.push(common::account("MyBot", true, &[]));
    Arena::start(ArenaConfig {
        accounts,
        event_keepalive: Duration::from_millis(500),
        game_keepalive: Duration::from_millis(500),
        claim_win_after_s: 2,
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        ..ArenaConfig::default()
    })
    .await
    .expect("arena starts")
}

/// What a test starts with: the browser for the test `name` (see [`launch`]), a new arena (see
/// [`arena`]), the arena's address and a client of its API. `None` without Chromium, and then
/// no arena is started.
async fn page(name: &str) -> Option<(Browser, Arena, String, common::Raw)> {
    let b = launch(name).await?;
    let arena = arena().await;
    let url = arena.url();
    let raw = common::Raw::new(&arena);
    Some((b, arena, url, raw))
}

impl common::Raw {
    /// Posts `form` to `path` as the owner of `token` and asserts 200; the body.
    async fn post_ok(&self, token: &str, path: &str, form: &[(&str, &str)]) -> String {
        let (status, body) = self.post(token, path, form).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    /// Posts the challenge `form` to `path` as the owner of `token` and asserts 200; the
    /// challenge's id.
    async fn challenge_id(&self, token: &str, path: &str, form: &[(&str, &str)]) -> String {
        let body = self.post_ok(token, path, form).await;
        serde_json::from_str::<Value>(&body).expect("json")["id"]
            .as_str()
            .expect("challenge id")
            .to_string()
    }
}

/// The arena's view of game `id` (`/api/arena/game/{id}/view`).
async fn game_view(url: &str, id: &str) -> Value {
    get_json(&format!("{url}/api/arena/game/{id}/view")).await
}

/// The legal moves in game `id` (`/api/arena/game/{id}/legal`).
async fn game_legal(url: &str, id: &str) -> Value {
    get_json(&format!("{url}/api/arena/game/{id}/legal")).await
}

/// Human (through the API) challenges Player1, who accepts in the lobby; the browser follows
/// to the new game's page. Returns the game id.
async fn game_with_human(b: &Browser, raw: &common::Raw, url: &str, terms: &[(&str, &str)]) -> String {
    b.go(&format!("{url}/")).await;
    b.find("#challenges").await;
    // The lobby's event stream is open before the challenge is sent.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let id = raw.challenge_id("human-token", "/api/challenge/Player1", terms).await;
    b.click("#challenges button.accept").await;
    b.until(
        "the game page",
        &format!("return location.pathname === '/{id}'"),
        20 * SECOND,
    )
    .await;
    b.find("#board .cell").await;
    id
}

/// Human's first legal move in game `id`, played through the API when it is Human's turn.
async fn human_moves(raw: &common::Raw, url: &str, id: &str, plies_before: usize) {
    let deadline = Instant::now() + 20 * SECOND;
    loop {
        let v = game_view(url, id).await;
        if v["san"].as_array().map_or(0, Vec::len) == plies_before {
            let legal = game_legal(url, id).await;
            let m = legal["moves"][0]["uci"].as_str().expect("a move").to_string();
            raw.post_ok("human-token", &format!("/api/board/game/{id}/move/{m}"), &[])
                .await;
            return;
        }
        assert!(Instant::now() < deadline, "ply {plies_before} did not come");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The first legal move of the side to move in game `id`: (from, to).
async fn first_move(url: &str, id: &str) -> (String, String) {
    let legal = game_legal(url, id).await;
    let m = &legal["moves"][0];
    (
        m["from"].as_str().expect("from").to_string(),
        m["to"].as_str().expect("to").to_string(),
    )
}

/// The lobby with a game in progress stays the lobby: the game is listed, a challenge that
/// comes meanwhile is shown; only a game that starts while the lobby is open is followed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_running_games_instead_of_jumping_to_them() {
    let Some((b, _arena, url, raw)) = page("lobby-running").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    // A game that starts while the lobby is open is followed.
    let id = game_with_human(&b, &raw, &url, &[("variant", "persian-princess"), ("color", "black")]).await;
    // Back in the lobby, the page stays there and lists the game.
    b.go(&format!("{url}/")).await;
    b.find(&format!("#my-games a[href=\"/{id}\"]")).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(b.path().await, "/", "the lobby stays open with a game in progress");
    b.shot("lobby-with-a-game").await;
    // A challenge sent now is shown, to be answered here.
    raw.post_ok("human-token", "/api/challenge/Player1", &[("variant", "egyptian-eye")])
        .await;
    b.find("#challenges tr[data-challenge] button.accept").await;
    assert_eq!(b.path().await, "/");
    b.shot("challenge-while-playing").await;
}

/// A declined challenge says so and stays said; a pending one can be canceled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_declined_visibly_and_can_be_canceled() {
    let Some((b, arena, url, raw)) = page("lobby-challenges").await else {
        return;
    };
    // Beta plays Persian Princess only; Alpha is online but never answers.
    let mut config = common::config(&arena, "persian-princess", common::temp_dir("pages-beta"));
    config.challenge.variants = vec!["persian-princess".into()];
    let beta = common::start_bot(config, "beta-token").await;
    let alpha_events = raw.lines("alpha-token", "/api/stream/event").await;
    b.sign_up(&url, "Player1").await;
    b.find("tr[data-bot=beta]").await;
    b.find("tr[data-bot=alpha]").await;
    let choose = |opponent: &str, variant: &str| {
        format!(
            "document.getElementById('opponent').value = '{opponent}';\
             document.querySelector('#new-game select[name=variant]').value = '{variant}'; return true"
        )
    };
    b.js(&choose("beta", "celtic-citadel"), json!([])).await;
    b.click("#create-game").await;
    b.until(
        "the decline",
        "return document.getElementById('new-game-status').textContent.includes('Declined')",
        10 * SECOND,
    )
    .await;
    // The answer to the challenge's POST came after the decline: it does not overwrite it.
    tokio::time::sleep(SECOND).await;
    let status = b.text("#new-game-status").await;
    assert!(status.contains("Declined"), "{status}");
    b.shot("declined").await;
    // A challenge nobody answers: Cancel withdraws it.
    b.js(&choose("alpha", "persian-princess"), json!([])).await;
    b.click("#create-game").await;
    b.until(
        "the wait",
        "return document.getElementById('new-game-status').textContent.includes('waiting')",
        10 * SECOND,
    )
    .await;
    b.shot("waiting").await;
    b.click("#cancel-challenge").await;
    b.until(
        "the cancel",
        "return document.getElementById('new-game-status').textContent.includes('canceled') && document.getElementById('cancel-challenge').hidden",
        10 * SECOND,
    )
    .await;
    let (_, pending) = raw.get("alpha-token", "/api/challenge").await;
    let pending: Value = serde_json::from_str(&pending).expect("json");
    assert_eq!(pending["in"], json!([]), "the challenge is gone");
    assert!(
        alpha_events
            .lock()
            .expect("lines")
            .iter()
            .any(|l| l.contains("challengeCanceled")),
        "Alpha heard of the cancel"
    );
    beta.stop().await;
}

/// The lobby says what a bot plays: Beta, which plays Persian Princess only, declined a Celtic
/// Citadel challenge (reason `variant`); its row says so, a bot never seen says nothing, and
/// the form warns when Beta and Celtic Citadel are chosen again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_says_which_variants_a_bot_declined() {
    let Some((b, arena, url, raw)) = page("lobby-plays").await else {
        return;
    };
    let mut config = common::config(&arena, "persian-princess", common::temp_dir("pages-plays"));
    config.challenge.variants = vec!["persian-princess".into()];
    let _beta = common::start_bot(config, "beta-token").await;
    let _mybot = raw.lines("mybot-token", "/api/stream/event").await;
    raw.post_ok("human-token", "/api/challenge/Beta", &[("variant", "celtic-citadel")])
        .await;
    b.sign_up(&url, "Player1").await;
    let row = b
        .until(
            "Beta's decline in the lobby",
            "const r = document.querySelector('tr[data-bot=beta] td.plays'); return r && r.textContent.includes('declined') && r.textContent",
            20 * SECOND,
        )
        .await;
    assert_eq!(row, "declined Celtic Citadel", "the row of Beta");
    let never = b.text("tr[data-bot=mybot]").await;
    assert!(
        !never.contains("declined") && !never.contains("plays"),
        "a bot never seen: {never:?}"
    );
    b.shot("declined-variant").await;
    // The form warns when the terms were declined before, and not otherwise.
    let choose = |variant: &str| {
        format!(
            "document.getElementById('opponent').value = 'beta';\
             const v = document.querySelector('#new-game select[name=variant]'); v.value = '{variant}';\
             v.dispatchEvent(new Event('change', {{ bubbles: true }})); return true"
        )
    };
    b.js(&choose("celtic-citadel"), json!([])).await;
    let warning = b
        .js(
            "const w = document.getElementById('new-game-warning'); return [w.hidden, w.textContent]",
            json!([]),
        )
        .await;
    assert_eq!(warning[0], false, "{warning}");
    assert!(
        warning[1]
            .as_str()
            .is_some_and(|t| t.contains("BOT Beta declined Celtic Citadel before")),
        "{warning}"
    );
    b.shot("declined-variant-warning").await;
    b.js(&choose("persian-princess"), json!([])).await;
    let warning = b
        .js("return document.getElementById('new-game-warning').hidden", json!([]))
        .await;
    assert_eq!(warning, true, "Persian Princess was never declined");
}

/// The lobby's defaults (the first bot online, Persian Princess), its names (one per variant,
/// the accounts' display names, no raw keys), the Challenge button that opens the form for the
/// bot; a path that is no page gets an HTML page saying so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_names_things_and_challenge_opens_the_form() {
    let Some((b, _arena, url, raw)) = page("lobby-names").await else {
        return;
    };
    let _mybot = raw.lines("mybot-token", "/api/stream/event").await;
    let _beta = raw.lines("beta-token", "/api/stream/event").await;
    b.sign_up(&url, "Player1").await;
    b.find("tr[data-bot=mybot]").await;
    b.find("tr[data-bot=beta]").await;
    let defaults = b
        .until(
            "the form's defaults",
            "const o = document.getElementById('opponent'); return o.value && [o.value, document.querySelector('#new-game select[name=variant]').value]",
            10 * SECOND,
        )
        .await;
    assert_eq!(
        defaults,
        json!(["beta", "persian-princess"]),
        "the first bot online, Persian Princess"
    );
    let chess = b
        .js(
            "return document.querySelector('#new-game select[name=variant] option[value=standard]').textContent",
            json!([]),
        )
        .await;
    assert_eq!(chess, "Standard", "chess has the name the game page gives it");
    let row = b.text("tr[data-bot=mybot]").await;
    assert!(row.contains("BOT MyBot"), "{row}");
    for raw_key in ["bullet", "persian-princess", "?"] {
        assert!(!row.contains(raw_key), "no raw perf key in {row:?}");
    }
    // Challenge: the form, for that bot, focused.
    b.click("button.challenge[data-bot=mybot]").await;
    let form = b
        .js(
            "return [document.getElementById('opponent').value, document.getElementById('new-game-title').textContent,\
             document.activeElement === document.querySelector('#new-game select[name=variant]')]",
            json!([]),
        )
        .await;
    assert_eq!(form[0], "mybot");
    assert!(form[1].as_str().is_some_and(|t| t.contains("BOT MyBot")), "{form}");
    assert_eq!(form[2], true, "the variant is focused: {form}");
    b.click("#create-game").await;
    let status = b
        .until(
            "the challenge sent",
            "const t = document.getElementById('new-game-status').textContent; return t.includes('waiting') && t",
            10 * SECOND,
        )
        .await;
    assert!(
        status
            .as_str()
            .is_some_and(|s| s.contains("BOT MyBot") && !s.contains("mybot")),
        "{status}"
    );
    b.shot("challenge-sent").await;
    // A page that does not exist.
    b.go(&format!("{url}/no/such/page")).await;
    let missing = b.text("main .error").await;
    assert!(
        missing.contains("not found") || missing.contains("No such page"),
        "{missing}"
    );
    b.find("header.top nav a[href=\"/\"]").await;
    b.shot("not-found").await;
}

/// The game page's messages: a refused move says why, plainly, as an error, until the next
/// action; a declined draw offer and a declined takeback say so; "Claim victory" appears only
/// when the arena would accept the claim.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_page_says_what_happened() {
    let Some((b, arena, url, raw)) = page("game-messages").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let id = game_with_human(&b, &raw, &url, &[("variant", "persian-princess"), ("color", "black")]).await;
    // A move the arena refuses.
    arena.inject(Fault::new(Endpoint::BoardMove, 400).for_user("player1"));
    let (from, to) = first_move(&url, &id).await;
    click_move(&b, &from, &to).await;
    let notice = b
        .until(
            "the refusal",
            "const n = document.getElementById('notice'); return n.classList.contains('error') && n.textContent",
            10 * SECOND,
        )
        .await;
    assert!(
        notice.as_str().is_some_and(|n| n.contains("not your turn")),
        "plain words: {notice}"
    );
    // The page read the game again since: the message is still there.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(b.text("#notice").await, notice.as_str().unwrap_or_default());
    b.shot("move-refused").await;
    // The next action clears it.
    click_move(&b, &from, &to).await;
    b.until(
        "the move",
        "return document.querySelectorAll('#moves .mv').length === 1 && document.getElementById('notice').textContent === ''",
        10 * SECOND,
    )
    .await;
    human_moves(&raw, &url, &id, 1).await;
    b.until(
        "the reply",
        "return document.querySelectorAll('#moves .mv').length === 2",
        10 * SECOND,
    )
    .await;
    // A draw offer, declined.
    b.click("#draw").await;
    b.until(
        "the offer",
        "return document.getElementById('draw').textContent === 'Draw offered'",
        10 * SECOND,
    )
    .await;
    raw.post_ok("human-token", &format!("/api/board/game/{id}/draw/no"), &[])
        .await;
    b.until(
        "the draw declined",
        "return document.getElementById('notice').textContent === 'Draw offer declined'",
        10 * SECOND,
    )
    .await;
    // A takeback, declined.
    b.click("#takeback").await;
    b.until(
        "the request",
        "return document.getElementById('takeback').textContent === 'Takeback asked'",
        10 * SECOND,
    )
    .await;
    raw.post_ok("human-token", &format!("/api/board/game/{id}/takeback/no"), &[])
        .await;
    b.until(
        "the takeback declined",
        "return document.getElementById('notice').textContent === 'Takeback declined' && document.getElementById('takeback').textContent === 'Takeback'",
        10 * SECOND,
    )
    .await;
    b.shot("takeback-declined").await;
    // Human opens the game's stream and leaves: the claim comes after the arena's delay.
    let stream = reqwest::Client::new()
        .get(format!("{url}/api/board/game/stream/{id}"))
        .bearer_auth("human-token")
        .send()
        .await
        .expect("stream");
    assert_eq!(stream.status(), 200);
    drop(stream);
    let at_first = b
        .until(
            "the opponent gone",
            "const w = document.getElementById('claim-wait'); const c = document.getElementById('claim');\
             return (!c.hidden || (w && !w.hidden && w.textContent)) && [c.hidden, w ? w.textContent : '']",
            10 * SECOND,
        )
        .await;
    assert_eq!(at_first[0], true, "no claim before the arena takes it: {at_first}");
    b.shot("opponent-gone").await;
    b.until(
        "the claim button",
        "return !document.getElementById('claim').hidden",
        10 * SECOND,
    )
    .await;
    b.click("#claim").await;
    let result = b
        .until(
            "the win",
            "return document.getElementById('result').textContent",
            10 * SECOND,
        )
        .await;
    assert!(result.as_str().is_some_and(|r| r.contains("White wins")), "{result}");
    assert!(!b.text("#notice").await.contains("cannot"), "the claim was accepted");
}

/// The chat: lines read back after a reload name their speaker; a line sent as the game ends
/// is shown without a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_keep_their_speaker_and_the_last_word() {
    let Some((b, _arena, url, raw)) = page("game-chat").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let id = game_with_human(&b, &raw, &url, &[("variant", "persian-princess"), ("color", "black")]).await;
    let say = |text: &'static str| {
        let raw = &raw;
        let id = &id;
        async move {
            raw.post_ok(
                "human-token",
                &format!("/api/board/game/{id}/chat"),
                &[("room", "player"), ("text", text)],
            )
            .await;
        }
    };
    say("hello").await;
    b.until(
        "the line",
        "return [...document.querySelectorAll('#chat-lines .text')].some((t) => t.textContent === 'hello')",
        10 * SECOND,
    )
    .await;
    b.go(&format!("{url}/{id}")).await;
    let who = b
        .until(
            "the line after a reload",
            "const l = document.querySelector('#chat-lines .line'); return l && l.querySelector('.text').textContent === 'hello' && [l.querySelector('.who').textContent]",
            10 * SECOND,
        )
        .await;
    assert_eq!(who, json!(["Human"]), "the speaker after a reload");
    // The game ends (Human aborts), then Human says goodbye, as a bot does.
    raw.post_ok("human-token", &format!("/api/board/game/{id}/abort"), &[])
        .await;
    b.until(
        "the end",
        "return document.getElementById('result').textContent.includes('Aborted')",
        10 * SECOND,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    say("Thanks for the game!").await;
    b.until(
        "the goodbye",
        "return [...document.querySelectorAll('#chat-lines .text')].some((t) => t.textContent === 'Thanks for the game!')",
        10 * SECOND,
    )
    .await;
    b.shot("goodbye").await;
}

/// Replaying a game: the move list scrolls to the move shown, the clocks are those of the
/// ply shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_follows_the_ply_shown() {
    let Some((b, arena, url, raw)) = page("game-replay").await else {
        return;
    };
    // Human (White) and Alpha play 40 plies at 5+0 through the API; White's clock is set to a
    // minute near the end.
    let id = raw
        .challenge_id(
            "human-token",
            "/api/challenge/Alpha",
            &[
                ("variant", "persian-princess"),
                ("color", "white"),
                ("clock.limit", "300"),
                ("clock.increment", "0"),
            ],
        )
        .await;
    raw.post_ok("alpha-token", &format!("/api/challenge/{id}/accept"), &[])
        .await;
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut clock_set = false;
    for ply in 0..40 {
        let v = game_view(&url, &id).await;
        if v["status"] != "started" {
            break;
        }
        let white = ply % 2 == 0;
        if white && ply >= 30 && !clock_set {
            arena
                .set_time_left(&id, engine::rules::Color::White, 60_000)
                .expect("clock set");
            clock_set = true;
        }
        let legal = game_legal(&url, &id).await;
        let moves = legal["moves"].as_array().expect("moves");
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = moves[(seed % moves.len() as u64) as usize]["uci"]
            .as_str()
            .expect("uci");
        let (token, api) = if white {
            ("human-token", "board")
        } else {
            ("alpha-token", "bot")
        };
        raw.post_ok(token, &format!("/api/{api}/game/{id}/move/{m}"), &[]).await;
    }
    assert!(clock_set, "the game went on long enough");
    let plies = game_view(&url, &id).await["san"].as_array().map_or(0, Vec::len);
    // A spectator opens the game: the list shows the last move; White's clock is about a minute.
    b.go(&format!("{url}/{id}")).await;
    b.until(
        "the moves",
        &format!("return document.querySelectorAll('#moves .mv').length === {plies}"),
        10 * SECOND,
    )
    .await;
    let now = b.text("#player-bottom .clock").await;
    assert!(
        now.starts_with("0:5") || now.starts_with("1:00"),
        "White's clock now: {now}"
    );
    let scrolls = b
        .js(
            "const m = document.getElementById('moves'); return m.scrollHeight > m.clientHeight + 40",
            json!([]),
        )
        .await;
    assert_eq!(scrolls, true, "the list is long enough to scroll");
    // Back to the start and two plies on, with the keys.
    b.press(&[key::HOME, key::RIGHT, key::RIGHT]).await;
    b.until(
        "ply 2",
        "const c = document.querySelector('#moves .mv.current'); return c && c.dataset.ply === '2'",
        10 * SECOND,
    )
    .await;
    let shown = b
        .until(
            "the move shown in view",
            "const m = document.getElementById('moves'), c = m.querySelector('.mv.current');\
             const a = m.getBoundingClientRect(), r = c.getBoundingClientRect();\
             return r.top >= a.top - 1 && r.bottom <= a.bottom + 1",
            5 * SECOND,
        )
        .await;
    assert_eq!(shown, true);
    let clocks = b
        .until(
            "the clocks at ply 2",
            "return document.querySelector('#player-bottom .clock').textContent === '5:00' && [document.querySelector('#player-top .clock').textContent]",
            5 * SECOND,
        )
        .await;
    let black = clocks[0].as_str().unwrap_or_default();
    assert!(black == "5:00" || black == "4:59", "Black's clock at ply 2: {black}");
    b.shot("replay-ply-2").await;
    // The end again: the list and the clocks of now.
    b.press(&[key::END]).await;
    b.until(
        "the last ply",
        &format!("const c = document.querySelector('#moves .mv.current'); return c && c.dataset.ply === '{plies}' && !document.querySelector('#player-bottom .clock').textContent.startsWith('5:')"),
        10 * SECOND,
    )
    .await;
}

/// The analysis board keeps the line: a click on an earlier move moves a cursor, the arrow keys
/// walk it, the same move keeps the line and another one starts a new line from there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_keeps_the_line() {
    let Some((b, _arena, url, _)) = page("analysis-line").await else {
        return;
    };
    b.go(&format!("{url}/analysis?variant=standard&moves=e2e4,e7e5,g1f3,b8c6"))
        .await;
    let at = |line: &'static str, ply: u32| {
        let b = &b;
        async move {
            b.until(
                &format!("{line} at ply {ply}"),
                &format!(
                    "const mv = [...document.querySelectorAll('#moves .mv')]; const c = document.querySelector('#moves .mv.current');\
                     return mv.map((m) => m.textContent).join(' ') === '{line}' && (c ? Number(c.dataset.ply) : 0) === {ply}"
                ),
                10 * SECOND,
            )
            .await;
        }
    };
    at("e4 e5 Nf3 Nc6", 4).await;
    b.click("#moves .mv[data-ply=\"1\"]").await;
    at("e4 e5 Nf3 Nc6", 1).await;
    b.find("#board [data-sq=\"e4\"] .piece.white.pawn").await;
    b.find("#board [data-sq=\"e7\"] .piece.black.pawn").await;
    b.shot("cursor-on-e4").await;
    b.press(&[key::RIGHT]).await;
    at("e4 e5 Nf3 Nc6", 2).await;
    b.press(&[key::END]).await;
    at("e4 e5 Nf3 Nc6", 4).await;
    b.press(&[key::HOME]).await;
    at("e4 e5 Nf3 Nc6", 0).await;
    b.find("#board [data-sq=\"e2\"] .piece.white.pawn").await;
    b.press(&[key::RIGHT]).await;
    at("e4 e5 Nf3 Nc6", 1).await;
    // The line's own next move: the line stays.
    b.until(
        "Black to move",
        "return document.getElementById('board').dataset.turn === 'black'",
        10 * SECOND,
    )
    .await;
    b.click("#board [data-sq=\"e7\"]").await;
    b.click("#board [data-sq=\"e5\"]").await;
    at("e4 e5 Nf3 Nc6", 2).await;
    // Another move from an earlier position: a new line from there.
    b.click("#moves .mv[data-ply=\"1\"]").await;
    at("e4 e5 Nf3 Nc6", 1).await;
    b.until(
        "Black to move",
        "return document.getElementById('board').dataset.turn === 'black' && document.querySelector('#board [data-sq=\"d7\"] .piece')",
        10 * SECOND,
    )
    .await;
    b.click("#board [data-sq=\"d7\"]").await;
    b.click("#board [data-sq=\"d5\"]").await;
    at("e4 d5", 2).await;
    let query = b.js("return location.search", json!([])).await;
    assert!(
        query.as_str().is_some_and(|q| q.contains("moves=e2e4%2Cd7d5")),
        "the address keeps the line: {query}"
    );
    b.shot("new-line").await;
}

/// A bad FEN on the analysis board: an error, no board, no analysis until a good one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_fen_is_an_error_until_a_good_one() {
    let Some((b, _arena, url, _)) = page("analysis-fen").await else {
        return;
    };
    b.go(&format!("{url}/analysis")).await;
    b.find("#board .cell").await;
    b.js(
        "document.getElementById('variant').value = 'standard'; return true",
        json!([]),
    )
    .await;
    b.type_in("#fen", "8/8/8/8 w - - 0 1 not a fen").await;
    b.click("#setup button[type=submit]").await;
    let state = b
        .until(
            "the error",
            "const s = document.getElementById('status'); return s.classList.contains('error') && s.textContent &&\
             [document.querySelectorAll('#board .cell').length, document.getElementById('analyse').disabled]",
            10 * SECOND,
        )
        .await;
    assert_eq!(state, json!([0, true]), "no board and no analysis for a bad FEN");
    b.shot("bad-fen").await;
    b.type_in("#fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").await;
    b.click("#setup button[type=submit]").await;
    b.find("#board [data-sq=\"a1\"] .piece.white.rook").await;
    let ok = b
        .js(
            "const s = document.getElementById('status'); return [s.classList.contains('error'), document.getElementById('analyse').disabled]",
            json!([]),
        )
        .await;
    assert_eq!(ok, json!([false, false]));
}

/// The promotion chooser shows the pieces and takes the keyboard; the analysis budget says how
/// long to wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_promotion_chooser_and_the_analysis_budget() {
    let Some((b, _arena, url, _)) = page("analysis-promotion").await else {
        return;
    };
    b.go(&format!(
        "{url}/analysis?variant=standard&fen=8%2FP7%2F8%2F8%2F8%2F8%2Fk7%2F7K%20w%20-%20-%200%201"
    ))
    .await;
    b.find("#board [data-sq=\"a7\"] .piece.white.pawn").await;
    b.click("#board [data-sq=\"a7\"]").await;
    b.click("#board [data-sq=\"a8\"]").await;
    b.find("#move-chooser button[data-uci] svg.piece").await;
    let focused = b.js("return document.activeElement.dataset.uci || ''", json!([])).await;
    assert!(
        focused.as_str().is_some_and(|u| u.starts_with("a7a8")),
        "the first piece is focused: {focused}"
    );
    b.shot("promotion-pieces").await;
    b.press(&[key::ESCAPE]).await;
    b.until(
        "the chooser closed",
        "return !document.getElementById('move-chooser')",
        5 * SECOND,
    )
    .await;
    b.click("#board [data-sq=\"a7\"]").await;
    b.click("#board [data-sq=\"a8\"]").await;
    b.find("#move-chooser button[data-uci]").await;
    b.press(&[key::RIGHT]).await;
    let chosen = b.js("return document.activeElement.dataset.uci || ''", json!([])).await;
    let chosen = chosen.as_str().unwrap_or_default().to_string();
    assert!(
        chosen.starts_with("a7a8") && chosen != focused,
        "the arrow moves to the next piece: {chosen}"
    );
    b.press(&[key::ENTER]).await;
    let played = b
        .until(
            "the promotion",
            "const m = document.querySelector('#moves .mv'); return !document.getElementById('move-chooser') && m && new URLSearchParams(location.search).get('moves')",
            10 * SECOND,
        )
        .await;
    assert_eq!(played, chosen.as_str(), "Enter plays the focused piece");
    // The analysis budget: ten at once, then one every 6 s; the message says how long.
    b.js(
        "window.analysesDone = 0; for (let i = 0; i < 10; i++) Arena.post('/api/arena/analyse', { variant: 'standard', nodes: '1' }).finally(() => { window.analysesDone++; }); return true",
        json!([]),
    )
    .await;
    b.until("ten analyses", "return window.analysesDone === 10", 20 * SECOND)
        .await;
    b.click("#analyse").await;
    let refused = b
        .until(
            "the refusal",
            "const e = document.querySelector('#analysis .error'); return e && e.textContent",
            10 * SECOND,
        )
        .await;
    let text = refused.as_str().unwrap_or_default();
    assert!(!text.contains("minute") && text.contains(" s"), "the real wait: {text}");
    b.shot("analysis-budget").await;
}

/// After a game, the panel says why it ended and offers what next: Rematch challenges the same
/// bot with the same terms and the colours swapped, and follows the new game; New opponent is
/// the lobby; Analyse this game opens the analysis board with the game's moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_swaps_the_colours_against_the_same_bot() {
    let Some((b, arena, url, _)) = page("game-rematch").await else {
        return;
    };
    let config = common::config(&arena, "persian-princess", common::temp_dir("pages-rematch"));
    let mut beta = common::start_bot(config, "beta-token").await;
    b.sign_up(&url, "Player1").await;
    b.find("tr[data-bot=beta]").await;
    b.js(
        "document.getElementById('opponent').value = 'beta';\
         document.querySelector('#new-game select[name=variant]').value = 'persian-princess';\
         document.querySelector('#new-game select[name=color]').value = 'white'; return true",
        json!([]),
    )
    .await;
    b.click("#create-game").await;
    b.until(
        "the game page",
        "return /^\\/[A-Za-z0-9]{8}$/.test(location.pathname)",
        20 * SECOND,
    )
    .await;
    let first = b.path().await[1..].to_string();
    b.until(
        "Abort",
        "return !document.getElementById('actions').hidden && !document.getElementById('abort').disabled",
        10 * SECOND,
    )
    .await;
    b.click("#abort").await;
    let reason = b
        .until(
            "the game-over panel",
            "return !document.getElementById('over').hidden && document.getElementById('end-reason').textContent",
            10 * SECOND,
        )
        .await;
    assert!(reason.as_str().is_some_and(|r| r.contains("aborted")), "{reason}");
    let links = b
        .js(
            "return [document.getElementById('new-opponent').getAttribute('href'), document.getElementById('analyse-game').getAttribute('href')]",
            json!([]),
        )
        .await;
    assert_eq!(links[0], "/", "New opponent: the lobby");
    assert!(
        links[1]
            .as_str()
            .is_some_and(|h| h.starts_with("/analysis?variant=persian-princess")),
        "{links}"
    );
    b.shot("game-over").await;
    // The bot is done with the first game before the rematch comes.
    beta.next_report(20 * SECOND).await;
    b.click("#rematch").await;
    b.until(
        "the rematch's game",
        &format!("return /^\\/[A-Za-z0-9]{{8}}$/.test(location.pathname) && location.pathname !== '/{first}'"),
        20 * SECOND,
    )
    .await;
    let second = b.path().await[1..].to_string();
    let (old, new) = (
        get_json(&format!("{url}/api/arena/game/{first}/view")).await,
        get_json(&format!("{url}/api/arena/game/{second}/view")).await,
    );
    assert_eq!(
        (&old["white"]["id"], &old["black"]["id"]),
        (&json!("player1"), &json!("beta"))
    );
    assert_eq!(
        (&new["white"]["id"], &new["black"]["id"]),
        (&json!("beta"), &json!("player1")),
        "the colours swapped"
    );
    for term in ["variant", "clock", "rated"] {
        assert_eq!(old[term], new[term], "the same {term}");
    }
    b.find("#board .cell").await;
    b.shot("rematch").await;
    // The analysis board takes the game's moves.
    b.go(&format!("{url}{}", links[1].as_str().unwrap_or_default())).await;
    b.find("#board .cell").await;
    beta.stop().await;
}

/// A rated game's end: why it ended in words and each player's rating change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_rated_game_says_why_and_the_rating_change() {
    let Some((b, _arena, url, raw)) = page("game-end").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let terms = [
        ("variant", "persian-princess"),
        ("color", "black"),
        ("rated", "true"),
        ("clock.limit", "300"),
        ("clock.increment", "0"),
    ];
    let id = game_with_human(&b, &raw, &url, &terms).await;
    let (from, to) = first_move(&url, &id).await;
    click_move(&b, &from, &to).await;
    human_moves(&raw, &url, &id, 1).await;
    b.until(
        "the reply",
        "return document.querySelectorAll('#moves .mv').length === 2",
        10 * SECOND,
    )
    .await;
    raw.post_ok("human-token", &format!("/api/board/game/{id}/resign"), &[])
        .await;
    let shown = b
        .until(
            "the end and the ratings",
            "const o = document.getElementById('over'); const r = [...document.querySelectorAll('#rating-change .rating-line')];\
             return !o.hidden && r.length === 2 && [document.getElementById('end-reason').textContent, r.map((l) => l.textContent)]",
            10 * SECOND,
        )
        .await;
    let v = game_view(&url, &id).await;
    assert_eq!(v["endReason"], "resignation");
    assert_eq!(shown[0], "Black resigned: White wins.");
    let diff = |c: &str| v[c]["ratingDiff"].as_i64().expect("a rating change");
    assert!(diff("white") > 0 && diff("black") < 0, "{v}");
    let lines = shown[1].as_array().expect("lines");
    assert!(
        lines[0]
            .as_str()
            .is_some_and(|l| l.contains("Player1") && l.contains(&format!("(+{})", diff("white")))),
        "{shown}"
    );
    assert!(
        lines[1]
            .as_str()
            .is_some_and(|l| l.contains("Human") && l.contains(&format!("({})", diff("black")))),
        "{shown}"
    );
    b.shot("rated-end").await;
}

/// A challenge that comes while the player is on another page than the lobby shows a notice
/// there; Accept opens the game, whose tab says when it is the player's move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_noticed_on_every_page_and_the_tab_says_your_turn() {
    let Some((b, _arena, url, raw)) = page("challenge-notice").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    b.go(&format!("{url}/games")).await;
    b.find("#challenge-notices").await;
    // The page's event stream is open before the challenge is sent.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let id = raw
        .challenge_id(
            "human-token",
            "/api/challenge/Player1",
            &[("variant", "persian-princess"), ("color", "black")],
        )
        .await;
    let notice = b
        .text(&format!(
            "#challenge-notices .challenge-notice[data-challenge=\"{id}\"]"
        ))
        .await;
    assert!(
        notice.contains("Human") && notice.contains("Persian Princess"),
        "{notice}"
    );
    b.shot("challenge-notice").await;
    b.click(&format!(".challenge-notice[data-challenge=\"{id}\"] button.accept"))
        .await;
    b.until(
        "the game page",
        &format!("return location.pathname === '/{id}'"),
        10 * SECOND,
    )
    .await;
    // Player1 is White: their move, said in the tab's title, until they have moved.
    b.until("your turn", "return document.title.startsWith('● ')", 10 * SECOND)
        .await;
    let (from, to) = first_move(&url, &id).await;
    click_move(&b, &from, &to).await;
    b.until(
        "their turn",
        "return document.querySelectorAll('#moves .mv').length === 1 && !document.title.startsWith('● ')",
        10 * SECOND,
    )
    .await;
    // A challenge its sender cancels goes away.
    b.go(&format!("{url}/analysis")).await;
    b.find("#challenge-notices").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let second = raw
        .challenge_id("human-token", "/api/challenge/Player1", &[("variant", "egyptian-eye")])
        .await;
    b.find(&format!(".challenge-notice[data-challenge=\"{second}\"]")).await;
    raw.post_ok("human-token", &format!("/api/challenge/{second}/cancel"), &[])
        .await;
    b.until(
        "the notice gone",
        "return !document.querySelector('.challenge-notice')",
        10 * SECOND,
    )
    .await;
}

/// Dark mode follows the system's colour scheme with readable contrast; the board's second
/// theme, chosen in the header, stays chosen after a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dark_mode_and_a_board_theme_that_stays() {
    let Some((b, _arena, url, _)) = page("themes").await else {
        return;
    };
    // Colours as [r, g, b], and the contrast ratio of text on its background (WCAG).
    let colours = "const rgb = (c) => c.match(/\\d+/g).slice(0, 3).map(Number);\
        const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };\
        const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };\
        const body = getComputedStyle(document.body), side = getComputedStyle(document.querySelector('.side'));\
        const cell = getComputedStyle(document.querySelector('#board .cell.light'));\
        return [lum(body.backgroundColor), ratio(body.color, body.backgroundColor), ratio(side.color, side.backgroundColor), cell.backgroundColor];";
    b.go(&format!("{url}/analysis?variant=standard")).await;
    b.find("#board .cell.light").await;
    let light = b.js(colours, json!([])).await;
    assert!(
        light[0].as_f64().is_some_and(|l| l > 0.5),
        "a light page by default: {light}"
    );
    b.color_scheme("dark").await;
    let dark = b.js(colours, json!([])).await;
    assert!(dark[0].as_f64().is_some_and(|l| l < 0.05), "a dark page: {dark}");
    for i in [1, 2] {
        assert!(dark[i].as_f64().is_some_and(|r| r >= 7.0), "readable text: {dark}");
    }
    b.shot("dark").await;
    // The second board theme, chosen, saved, kept after a reload.
    let wood = dark[3].clone();
    b.click("#board-theme option[value=blue]").await;
    let chosen = b
        .until(
            "the blue board",
            "return document.documentElement.classList.contains('board-blue') && getComputedStyle(document.querySelector('#board .cell.light')).backgroundColor",
            5 * SECOND,
        )
        .await;
    assert_ne!(chosen, wood, "the light squares changed colour");
    b.go(&format!("{url}/analysis?variant=standard")).await;
    b.find("#board .cell.light").await;
    let kept = b
        .js(
            "return [document.documentElement.classList.contains('board-blue'), document.getElementById('board-theme').value, getComputedStyle(document.querySelector('#board .cell.light')).backgroundColor]",
            json!([]),
        )
        .await;
    assert_eq!(kept, json!([true, "blue", chosen]), "the theme stays after a reload");
    b.shot("dark-blue-board").await;
}

/// Human plays `uci` in game `id` through the API.
async fn human_plays(raw: &common::Raw, id: &str, uci: &str) {
    raw.post_ok("human-token", &format!("/api/board/game/{id}/move/{uci}"), &[])
        .await;
}

/// Clicks the square `from`, then `to`, on the game page's board.
async fn click_move(b: &Browser, from: &str, to: &str) {
    b.click(&format!("#board [data-sq=\"{from}\"]")).await;
    b.click(&format!("#board [data-sq=\"{to}\"]")).await;
}

/// Waits until game `id` has `uci` as its moves.
async fn until_moves(url: &str, id: &str, uci: &[&str]) {
    let deadline = Instant::now() + 10 * SECOND;
    loop {
        let v = game_view(url, id).await;
        if v["uci"] == json!(uci) {
            return;
        }
        assert!(Instant::now() < deadline, "moves {uci:?}, not {}", v["uci"]);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Premoves: picked while the opponent thinks (shown on the board), played as soon as the
/// opponent's move comes if legal (a capture back on the square of one's own piece included),
/// dropped without a word if not; Esc and a right click cancel one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_premove_is_played_on_the_opponents_reply() {
    let Some((b, _arena, url, raw)) = page("game-premove").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let id = game_with_human(&b, &raw, &url, &[("variant", "standard"), ("color", "black")]).await;
    click_move(&b, "e2", "e4").await;
    until_moves(&url, &id, &["e2e4"]).await;
    b.until(
        "the premoves",
        "return document.querySelector('#board [data-sq=\"d2\"]') && document.getElementById('moves').textContent.includes('e4')",
        10 * SECOND,
    )
    .await;
    // Esc cancels a premove, and so does a right click.
    b.until(
        "the view with premoves",
        "return document.querySelectorAll('#board .cell').length === 64",
        5 * SECOND,
    )
    .await;
    click_move(&b, "g1", "f3").await;
    b.until(
        "the premove shown",
        "return [...document.querySelectorAll('#board .cell.premove')].map((c) => c.dataset.sq).sort().join() === 'f3,g1'",
        5 * SECOND,
    )
    .await;
    b.press(&[key::ESCAPE]).await;
    b.until(
        "no premove",
        "return !document.querySelector('#board .cell.premove')",
        5 * SECOND,
    )
    .await;
    click_move(&b, "g1", "f3").await;
    b.find("#board .cell.premove").await;
    b.js(
        "document.querySelector('#board [data-sq=\"a6\"]').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 2 })); return true",
        json!([]),
    )
    .await;
    b.until(
        "no premove",
        "return !document.querySelector('#board .cell.premove')",
        5 * SECOND,
    )
    .await;
    // A premove, played on the reply.
    click_move(&b, "d2", "d4").await;
    b.find("#board .cell.premove[data-sq=\"d4\"]").await;
    b.shot("premove").await;
    human_plays(&raw, &id, "e7e5").await;
    until_moves(&url, &id, &["e2e4", "e7e5", "d2d4"]).await;
    // Taking back on the square of one's own pawn, should the opponent take it.
    b.until(
        "the premoves again",
        "return document.querySelectorAll('#moves .mv').length === 3",
        10 * SECOND,
    )
    .await;
    click_move(&b, "d1", "d4").await;
    b.find("#board .cell.premove[data-sq=\"d4\"]").await;
    human_plays(&raw, &id, "e5d4").await;
    until_moves(&url, &id, &["e2e4", "e7e5", "d2d4", "e5d4", "d1d4"]).await;
    // A premove the reply makes illegal is dropped, silently.
    b.until(
        "the premoves again",
        "return document.querySelectorAll('#moves .mv').length === 5",
        10 * SECOND,
    )
    .await;
    click_move(&b, "d4", "a7").await;
    b.find("#board .cell.premove[data-sq=\"a7\"]").await;
    human_plays(&raw, &id, "b7b6").await;
    b.until(
        "the reply, and the premove gone",
        "return document.querySelectorAll('#moves .mv').length === 6 && !document.querySelector('#board .cell.premove')",
        10 * SECOND,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let v = game_view(&url, &id).await;
    assert_eq!(
        v["uci"].as_array().map(Vec::len),
        Some(6),
        "nothing played: {}",
        v["uci"]
    );
    assert_eq!(b.text("#notice").await, "", "no message");
}

/// The player's move is drawn at once, before the arena has it, and undone with a message when
/// the arena refuses it; the opponent's move slides in (not with reduced motion).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_move_is_drawn_at_once_and_the_opponents_slides() {
    let Some((b, arena, url, raw)) = page("game-optimistic").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let id = game_with_human(&b, &raw, &url, &[("variant", "standard"), ("color", "black")]).await;
    // The move's POST held back for 1.5 s: the knight is on f3 meanwhile.
    b.js(
        "const f = window.fetch; window.fetch = (u, init) => /\\/move\\//.test(String(u)) ? new Promise((r) => setTimeout(r, 1500)).then(() => f(u, init)) : f(u, init); return true",
        json!([]),
    )
    .await;
    click_move(&b, "g1", "f3").await;
    let drawn = b
        .js(
            "return [!!document.querySelector('#board [data-sq=\"f3\"] .piece'), !document.querySelector('#board [data-sq=\"g1\"] .piece')]",
            json!([]),
        )
        .await;
    let v = game_view(&url, &id).await;
    assert_eq!(v["uci"], json!([]), "the arena has no move yet");
    assert_eq!(
        drawn,
        json!([true, true]),
        "the knight drawn on f3 before the arena has the move"
    );
    until_moves(&url, &id, &["g1f3"]).await;
    // The opponent's move slides.
    b.js(
        "window.slid = []; new MutationObserver((ms) => { for (const m of ms) if (m.target.classList && m.target.classList.contains('anim')) window.slid.push(m.target.parentElement && m.target.parentElement.dataset.sq); }).observe(document.getElementById('board'), { subtree: true, attributes: true, attributeFilter: ['class'] }); return true",
        json!([]),
    )
    .await;
    human_plays(&raw, &id, "g8f6").await;
    b.until(
        "the knight sliding to f6",
        "return window.slid.includes('f6') || (document.querySelector('#board [data-sq=\"f6\"] .piece.anim') && true)",
        10 * SECOND,
    )
    .await;
    // Refused: the move is undone, with a message.
    b.until(
        "the player's turn",
        "return document.querySelectorAll('#moves .mv').length === 2",
        10 * SECOND,
    )
    .await;
    arena.inject(Fault::new(Endpoint::BoardMove, 400).for_user("player1"));
    click_move(&b, "e2", "e4").await;
    b.until(
        "the move undone, with the refusal",
        "const n = document.getElementById('notice'); return n.classList.contains('error') && n.textContent && !!document.querySelector('#board [data-sq=\"e2\"] .piece') && !document.querySelector('#board [data-sq=\"e4\"] .piece')",
        10 * SECOND,
    )
    .await;
    b.shot("move-undone").await;
    // With reduced motion, nothing slides.
    let r = b
        .cdp(
            "Emulation.setEmulatedMedia",
            json!({ "features": [{ "name": "prefers-reduced-motion", "value": "reduce" }] }),
        )
        .await;
    assert!(r.get("error").is_none(), "{r}");
    click_move(&b, "e2", "e4").await;
    until_moves(&url, &id, &["g1f3", "g8f6", "e2e4"]).await;
    b.js("window.slid = []; return true", json!([])).await;
    human_plays(&raw, &id, "e7e5").await;
    b.until(
        "the reply",
        "return document.querySelectorAll('#moves .mv').length === 4",
        10 * SECOND,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        b.js("return window.slid", json!([])).await,
        json!([]),
        "no slide with reduced motion"
    );
}

/// Sounds: the start, moves, a capture, a check, the player's low time and the end, counted by
/// the page's sound module; muted (kept in the browser), none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sounds_say_the_game_and_mute_silences_them() {
    let Some((b, _arena, url, raw)) = page("game-sounds").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let id = game_with_human(&b, &raw, &url, &[("variant", "standard"), ("color", "black")]).await;
    b.until(
        "the start's sound",
        "return window.Sound && Sound.log.join() === 'start'",
        10 * SECOND,
    )
    .await;
    click_move(&b, "e2", "e4").await;
    until_moves(&url, &id, &["e2e4"]).await;
    human_plays(&raw, &id, "d7d5").await;
    b.until(
        "the reply",
        "return document.querySelectorAll('#moves .mv').length === 2",
        10 * SECOND,
    )
    .await;
    click_move(&b, "e4", "d5").await;
    until_moves(&url, &id, &["e2e4", "d7d5", "e4d5"]).await;
    human_plays(&raw, &id, "d8d5").await;
    b.until(
        "the reply",
        "return document.querySelectorAll('#moves .mv').length === 4",
        10 * SECOND,
    )
    .await;
    click_move(&b, "f1", "b5").await;
    until_moves(&url, &id, &["e2e4", "d7d5", "e4d5", "d8d5", "f1b5"]).await;
    b.until(
        "the sounds",
        "return window.Sound && Sound.log.join() === 'start,move,move,capture,capture,check'",
        10 * SECOND,
    )
    .await;
    // Muted: nothing more, and it stays muted.
    b.click("#sound").await;
    assert_eq!(b.text("#sound").await, "Sound off");
    human_plays(&raw, &id, "c7c6").await;
    b.until(
        "the reply",
        "return document.querySelectorAll('#moves .mv').length === 6",
        10 * SECOND,
    )
    .await;
    raw.post_ok("human-token", &format!("/api/board/game/{id}/resign"), &[])
        .await;
    b.until("the end", "return !document.getElementById('over').hidden", 10 * SECOND)
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        b.js("return Sound.log.length", json!([])).await,
        json!(6),
        "muted: no sound"
    );
    b.go(&format!("{url}/{id}")).await;
    b.find("#board .cell").await;
    assert_eq!(b.text("#sound").await, "Sound off", "the choice is kept");
    // Sound on again, a 15 s game: the player's clock under 10 s is heard once, and the end.
    b.click("#sound").await;
    let id2 = game_with_human(
        &b,
        &raw,
        &url,
        &[
            ("variant", "standard"),
            ("color", "black"),
            ("clock.limit", "15"),
            ("clock.increment", "0"),
        ],
    )
    .await;
    b.until(
        "the start's sound",
        "return window.Sound && Sound.log.join() === 'start'",
        10 * SECOND,
    )
    .await;
    click_move(&b, "e2", "e4").await;
    until_moves(&url, &id2, &["e2e4"]).await;
    human_plays(&raw, &id2, "e7e5").await;
    b.until(
        "the low time's sound",
        "return window.Sound && Sound.log.join() === 'start,move,move,lowTime'",
        15 * SECOND,
    )
    .await;
    raw.post_ok("human-token", &format!("/api/board/game/{id2}/resign"), &[])
        .await;
    b.until(
        "the end's sound",
        "return window.Sound && Sound.log.join() === 'start,move,move,lowTime,end'",
        10 * SECOND,
    )
    .await;
}

/// TV: each board shows both clocks and how many watch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tv_shows_the_clocks_and_the_spectators() {
    let Some((b, arena, url, raw)) = page("tv-clocks").await else {
        return;
    };
    let config = common::config(&arena, "persian-princess", common::temp_dir("pages-tv"));
    let beta = common::start_bot(config, "beta-token").await;
    let id = raw
        .challenge_id(
            "human-token",
            "/api/challenge/beta",
            &[
                ("variant", "persian-princess"),
                ("clock.limit", "300"),
                ("clock.increment", "2"),
                ("color", "white"),
            ],
        )
        .await;
    let deadline = Instant::now() + 20 * SECOND;
    while game_view(&url, &id).await["status"] != "started" {
        assert!(Instant::now() < deadline, "the bot accepts");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Someone else watches too.
    let _watcher = raw.lines("human-token", &format!("/api/stream/game/{id}")).await;
    b.go(&format!("{url}/tv")).await;
    let card = format!(".tv-card[data-game=\"{id}\"]");
    b.find(&format!("{card} .board .cell")).await;
    let clocks = b
        .until(
            "the clocks",
            &format!("const c = [...document.querySelectorAll('{card} .clock')].map((e) => e.textContent); return c.length === 2 && c.every((t) => /^\\d+:\\d\\d/.test(t)) && c"),
            10 * SECOND,
        )
        .await;
    assert_eq!(clocks, json!(["5:00", "5:00"]), "no move yet: the initial times");
    let watching = b
        .until(
            "the spectators",
            &format!("const w = document.querySelector('{card} .watching'); return w && w.textContent"),
            10 * SECOND,
        )
        .await;
    assert_eq!(watching, json!("2 watching"), "this page and the other watcher");
    let v = game_view(&url, &id).await;
    assert_eq!(v["spectators"], 2);
    // White's clock runs once both have moved.
    human_moves(&raw, &url, &id, 0).await;
    human_moves(&raw, &url, &id, 2).await;
    b.until(
        "White's clock running",
        &format!("const c = document.querySelector('{card} .clock[data-color=white]'); return c.classList.contains('running') && c.textContent !== '5:00' && c.textContent"),
        20 * SECOND,
    )
    .await;
    b.shot("tv-clocks").await;
    beta.stop().await;
}

/// The new-game form's "From position": a bad FEN is refused plainly; a good one starts the
/// game from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_game_from_a_position() {
    let Some((b, arena, url, _)) = page("lobby-fen").await else {
        return;
    };
    let config = common::config(&arena, "persian-princess", common::temp_dir("pages-fen"));
    let beta = common::start_bot(config, "beta-token").await;
    b.sign_up(&url, "Player1").await;
    b.find("tr[data-bot=beta]").await;
    // Without an opponent: said at once.
    b.js(
        "document.getElementById('opponent').value = ''; document.querySelector('#new-game select[name=variant]').value = 'persian-princess'; return true",
        json!([]),
    )
    .await;
    b.type_in("#new-game-fen", "not a fen").await;
    b.click("#create-game").await;
    let said = b
        .until("the error", "const s = document.getElementById('new-game-status'); return s.classList.contains('error') && s.textContent", 10 * SECOND)
        .await;
    assert!(said.as_str().is_some_and(|t| t.contains("needs an opponent")), "{said}");
    b.js(
        "document.getElementById('opponent').value = 'beta'; return true",
        json!([]),
    )
    .await;
    b.click("#create-game").await;
    let said = b
        .until(
            "the FEN refused",
            "const s = document.getElementById('new-game-status'); return s.classList.contains('error') && s.textContent.includes('FEN') && s.textContent",
            10 * SECOND,
        )
        .await;
    assert!(said.as_str().is_some_and(|t| t.contains("Invalid FEN")), "{said}");
    b.shot("bad-fen").await;
    // A position two plies in.
    let legal = get_json(&format!(
        "{url}/api/arena/position?variant=persian-princess&fen=&moves="
    ))
    .await;
    let first = legal["board"]["moves"][0]["uci"].as_str().expect("a move").to_string();
    let after = get_json(&format!(
        "{url}/api/arena/position?variant=persian-princess&fen=&moves={first}"
    ))
    .await;
    let second = after["board"]["moves"][0]["uci"].as_str().expect("a move").to_string();
    let pos = get_json(&format!(
        "{url}/api/arena/position?variant=persian-princess&fen=&moves={first},{second}"
    ))
    .await;
    let fen = pos["board"]["fen"].as_str().expect("fen").to_string();
    b.type_in("#new-game-fen", &fen).await;
    b.js(
        "document.querySelector('#new-game select[name=color]').value = 'white'; return true",
        json!([]),
    )
    .await;
    b.click("#create-game").await;
    b.until(
        "the game page",
        "return /^\\/[A-Za-z0-9]{8}$/.test(location.pathname)",
        20 * SECOND,
    )
    .await;
    let id = b.path().await[1..].to_string();
    let v = game_view(&url, &id).await;
    assert_eq!(v["initialFen"], json!(fen), "the game starts from the position");
    assert_eq!(v["board"]["fen"], json!(fen));
    b.find("#board .cell").await;
    beta.stop().await;
}

/// Citadel: each side's prisoners beside its player, with what a release brings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn citadel_prisoners_are_shown_beside_the_board() {
    let Some((b, _arena, url, raw)) = page("game-prisoners").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    game_with_human(&b, &raw, &url, &[("variant", "citadel-8"), ("color", "black")]).await;
    for side in ["top", "bottom"] {
        let held = b
            .until(
                "the prisoners",
                &format!("const p = [...document.querySelectorAll('#player-{side} .prisoners .prisoner')]; return p.length === 2 && p.map((e) => e.getAttribute('title'))"),
                10 * SECOND,
            )
            .await;
        let titles: Vec<&str> = held
            .as_array()
            .expect("titles")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            titles.iter().all(|t| t.contains("released by a plainsman reaching")),
            "{titles:?}"
        );
        assert!(titles.len() == 2 && titles[0] != titles[1], "two prisoners: {titles:?}");
    }
    b.shot("citadel-prisoners").await;
    // Not in other variants.
    let id = game_with_human(&b, &raw, &url, &[("variant", "standard"), ("color", "black")]).await;
    b.find(&format!("#game[data-game=\"{id}\"]")).await;
    b.until(
        "the board",
        "return document.querySelectorAll('#board .cell').length === 64",
        10 * SECOND,
    )
    .await;
    assert_eq!(
        b.js(
            "return document.querySelector('#player-bottom .prisoners').hidden",
            json!([])
        )
        .await,
        json!(true)
    );
}

/// The page's contrast checks: each coordinate against the square (or the page, on a hole) it
/// sits on, its size, coordinates on citadels, and the move dots against their squares.
const CONTRAST_JS: &str = r#"
const lum = (c) => { const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map((v) => { v = Number(v) / 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const opaque = (c) => { const m = c.match(/[\d.]+/g); return m && (m.length < 4 || Number(m[3]) === 1); };
const blend = (fg, bg) => { const f = fg.match(/[\d.]+/g).map(Number); if (f.length < 4) return fg; const b = bg.match(/[\d.]+/g).map(Number); return `rgb(${[0, 1, 2].map((i) => f[i] * f[3] + b[i] * (1 - f[3])).join(', ')})`; };
const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (opaque(c)) return c; } return 'rgb(255, 255, 255)'; };
const worst = { coord: 99, size: 99, dot: 99, onCitadel: document.querySelectorAll('#board .cell.citadel .coord').length, coords: 0, dots: 0 };
for (const c of document.querySelectorAll('#board .coord')) {
  const cs = getComputedStyle(c);
  const bg = bgOf(c.parentElement);
  worst.coord = Math.min(worst.coord, ratio(blend(cs.color, bg), bg));
  worst.size = Math.min(worst.size, parseFloat(cs.fontSize));
  worst.coords++;
}
for (const d of document.querySelectorAll('#board .cell.dest')) {
  const a = getComputedStyle(d, '::after');
  const dot = d.classList.contains('occupied') ? a.borderTopColor : a.backgroundColor;
  worst.dot = Math.min(worst.dot, ratio(blend(dot, bgOf(d)), bgOf(d)));
  worst.dots++;
}
return worst;
"#;

/// Coordinates readable on every square (4.5:1, 11 px at least) in both board themes, light
/// and dark; none on a citadel (the a and k files, ranks 1 and 11 of the Egyptian Eye); move
/// dots at 3:1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coordinates_and_move_dots_can_be_read() {
    let Some((b, _arena, url, _)) = page("board-contrast").await else {
        return;
    };
    for scheme in ["light", "dark"] {
        b.color_scheme(scheme).await;
        for theme in ["wood", "blue"] {
            for (variant, id, piece) in [
                ("egyptian-eye", "egyptian-eye", "e3"),
                ("standard", "chess", "e2"),
                ("citadel-9", "citadel-9", "e2"),
            ] {
                b.js(
                    &format!("localStorage.setItem('arena.boardTheme', '{theme}'); return true"),
                    json!([]),
                )
                .await;
                b.go(&format!("{url}/analysis?variant={variant}")).await;
                b.find(&format!("#board[data-variant=\"{id}\"] .cell")).await;
                b.click(&format!("#board [data-sq=\"{piece}\"]")).await;
                b.find("#board .cell.dest").await;
                let w = b.js(CONTRAST_JS, json!([])).await;
                let what = format!("{variant}, {theme}, {scheme}: {w}");
                assert!(w["coords"].as_u64() > Some(10), "{what}");
                assert!(w["coord"].as_f64() >= Some(4.5), "coordinates at 4.5:1: {what}");
                assert!(
                    w["size"].as_f64() >= Some(11.0),
                    "coordinates of 11 px at least: {what}"
                );
                assert!(
                    w["dots"].as_u64() > Some(0) && w["dot"].as_f64() >= Some(3.0),
                    "move dots at 3:1: {what}"
                );
                assert_eq!(w["onCitadel"], 0, "no coordinate on a citadel: {what}");
                if variant == "egyptian-eye" && theme == "wood" {
                    b.shot(&format!("coordinates-{scheme}")).await;
                }
            }
        }
    }
}

/// The cold game page (an empty cache): everything a first visit loads, under 60 KB
/// transferred. Prints the figure (docs/benchmarks.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cold_game_page_stays_small() {
    let Some((b, _arena, url, raw)) = page("cold-page").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let id = game_with_human(&b, &raw, &url, &[("variant", "persian-princess"), ("color", "black")]).await;
    let r = b.cdp("Network.clearBrowserCache", json!({})).await;
    assert!(r.get("error").is_none(), "{r}");
    b.go(&format!("{url}/{id}")).await;
    b.find("#board .cell").await;
    // The start's sound loads sound.js; the figure counts it.
    b.until("sound.js", "return !!window.Sound", 10 * SECOND).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sizes = b
        .js(
            "const n = performance.getEntriesByType('navigation')[0]; const r = performance.getEntriesByType('resource'); \
             return { page: n.transferSize, files: r.map((e) => [e.name.replace(location.origin, ''), e.transferSize, e.encodedBodySize]), total: n.transferSize + r.reduce((s, e) => s + e.transferSize, 0) }",
            json!([]),
        )
        .await;
    println!("cold game page: {sizes}");
    let total = sizes["total"].as_u64().expect("a total");
    assert!(
        sizes["files"]
            .as_array()
            .is_some_and(|f| f.iter().any(|e| e[0] == "/assets/board.js" && e[1].as_u64() > Some(0))),
        "the files came over the network: {sizes}"
    );
    assert!(
        total < 60 * 1024,
        "the cold game page: {total} bytes, over 60 KB: {sizes}"
    );
}

/// Click to piece drawn on the target square, in the page: from the pointer event to the first
/// animation frame with the piece there, for moves drawn at once (the default) and moves drawn
/// when the arena's answer comes (as before), alternately, on the same game. Prints the medians
/// (docs/benchmarks.md); asserts no time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: cargo test -p bot --test browser pages::measure_click_to_piece -- --ignored --nocapture"]
async fn measure_click_to_piece_drawn() {
    let Some((b, _arena, url, raw)) = page("click-latency").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let mut at_once = Vec::new();
    let mut after_answer = Vec::new();
    for game in 0..6 {
        let id = game_with_human(&b, &raw, &url, &[("variant", "persian-princess"), ("color", "black")]).await;
        b.js(
            "window.lat = []; document.addEventListener('pointerdown', (e) => { const sq = window.target; const cell = e.target.closest('.cell'); if (!sq || !cell || cell.dataset.sq !== sq) return; const t0 = e.timeStamp; const poll = () => { if (document.querySelector(`#board [data-sq=\"${sq}\"] .piece`)) window.lat.push(performance.now() - t0); else requestAnimationFrame(poll); }; requestAnimationFrame(poll); }, true); return true",
            json!([]),
        )
        .await;
        for ply in 0..12 {
            let drawn_at_once = (game + ply) % 2 == 0;
            b.js(
                if drawn_at_once {
                    "window.showMove = window.showMove || Board.prototype.showMove; Board.prototype.showMove = window.showMove; return true"
                } else {
                    "window.showMove = window.showMove || Board.prototype.showMove; Board.prototype.showMove = function () {}; return true"
                },
                json!([]),
            )
            .await;
            b.until(
                "the player's turn",
                &format!("return document.querySelectorAll('#moves .mv').length === {}", 2 * ply),
                10 * SECOND,
            )
            .await;
            // A quiet move (its square empty).
            let legal = game_legal(&url, &id).await;
            let v = game_view(&url, &id).await;
            let occupied: Vec<&str> = v["board"]["pieces"]
                .as_array()
                .expect("pieces")
                .iter()
                .filter_map(|p| p["sq"].as_str())
                .collect();
            let Some(m) = legal["moves"].as_array().expect("moves").iter().find(|m| {
                !occupied.contains(&m["to"].as_str().unwrap_or_default())
                    && legal["moves"].as_array().is_some_and(|all| {
                        all.iter()
                            .filter(|o| o["from"] == m["from"] && o["to"] == m["to"])
                            .count()
                            == 1
                    })
            }) else {
                break;
            };
            let (from, to) = (
                m["from"].as_str().unwrap_or_default(),
                m["to"].as_str().unwrap_or_default(),
            );
            b.js(
                &format!("window.target = '{to}'; window.lat = []; return true"),
                json!([]),
            )
            .await;
            click_move(&b, from, to).await;
            let ms = b
                .until(
                    "the piece drawn",
                    "return window.lat.length && window.lat[0]",
                    10 * SECOND,
                )
                .await;
            let ms = ms.as_f64().unwrap_or_default();
            if drawn_at_once {
                at_once.push(ms)
            } else {
                after_answer.push(ms)
            }
            b.js("window.target = null; return true", json!([])).await;
            if v["status"] != "started" {
                break;
            }
            human_moves(&raw, &url, &id, 2 * ply + 1).await;
        }
        let _ = raw
            .post("human-token", &format!("/api/board/game/{id}/resign"), &[])
            .await;
        let _ = raw
            .post("human-token", &format!("/api/board/game/{id}/abort"), &[])
            .await;
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    println!(
        "click to piece drawn: drawn at once median {:.1} ms (n={}, min {:.1}, max {:.1}); after the arena's answer median {:.1} ms (n={}, min {:.1}, max {:.1})",
        median(&mut at_once), at_once.len(), at_once.first().copied().unwrap_or(f64::NAN), at_once.last().copied().unwrap_or(f64::NAN),
        median(&mut after_answer), after_answer.len(), after_answer.first().copied().unwrap_or(f64::NAN), after_answer.last().copied().unwrap_or(f64::NAN),
    );
}

/// Alpha (White) and Beta play `moves` (UCI) in a blitz game of chess (3+2), then `loser`
/// resigns. The game id.
async fn bot_game(raw: &common::Raw, moves: &[&str], loser: &str) -> String {
    let terms = [
        ("variant", "standard"),
        ("color", "white"),
        ("clock.limit", "180"),
        ("clock.increment", "2"),
    ];
    let id = raw.challenge_id("alpha-token", "/api/challenge/beta", &terms).await;
    raw.post_ok("beta-token", &format!("/api/challenge/{id}/accept"), &[])
        .await;
    for (i, m) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { "alpha-token" } else { "beta-token" };
        raw.post_ok(token, &format!("/api/bot/game/{id}/move/{m}"), &[]).await;
    }
    raw.post_ok(&format!("{loser}-token"), &format!("/api/bot/game/{id}/resign"), &[])
        .await;
    id
}

/// The explorer shows the arena's games: one just finished is there, two move orders that
/// reach one position meet, and a filter (speed, mean rating) that excludes them hides them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_shows_the_games_played_here() {
    let Some((b, _arena, url, raw)) = page("explorer-games").await else {
        return;
    };
    b.go(&format!("{url}/explorer?variant=standard&play=g1f3,g8f6,b1c3"))
        .await;
    b.until(
        "no game yet",
        "return document.getElementById('games-summary').textContent.startsWith('No game')",
        20 * SECOND,
    )
    .await;
    // Nf3 Nf6 Nc3 Nc6 (Black wins) and Nc3 Nf6 Nf3 e5 (White wins): one position after 3 plies.
    let first = bot_game(&raw, &["g1f3", "g8f6", "b1c3", "b8c6"], "alpha").await;
    let second = bot_game(&raw, &["b1c3", "g8f6", "g1f3", "e7e5"], "beta").await;
    b.go(&format!("{url}/explorer?variant=standard&play=g1f3,g8f6,b1c3"))
        .await;
    b.until(
        "both games through the position",
        "return document.getElementById('games-summary').textContent.startsWith('2 games')",
        20 * SECOND,
    )
    .await;
    let summary = b.text("#games-summary").await;
    assert!(summary.contains("White 1 · draws 0 · Black 1"), "{summary}");
    for id in [&first, &second] {
        b.find(&format!("#recent-games li[data-game=\"{id}\"] a[href=\"/{id}\"]"))
            .await;
    }
    let next: Value = b
        .js(
            "return [...document.querySelectorAll('#games-moves tr.move')].map(r => r.dataset.uci).sort()",
            json!([]),
        )
        .await;
    assert_eq!(next, json!(["b8c6", "e7e5"]));
    b.shot("two-move-orders").await;
    // The other move order shows the same games.
    b.go(&format!("{url}/explorer?variant=standard&play=b1c3,g8f6,g1f3"))
        .await;
    b.until(
        "the transposition",
        "return document.getElementById('games-summary').textContent.startsWith('2 games')",
        20 * SECOND,
    )
    .await;
    // A click on a move goes on: after e5, only the second game.
    b.click("#games-moves tr.move[data-uci=e7e5] button").await;
    b.until(
        "the line after e5",
        "return document.getElementById('games-summary').textContent.startsWith('1 game ')",
        20 * SECOND,
    )
    .await;
    b.find(&format!("#recent-games li[data-game=\"{second}\"]")).await;
    assert_eq!(
        b.js(
            "return document.querySelectorAll('#recent-games li[data-game]').length",
            json!([])
        )
        .await,
        1
    );
    // Blitz games: a bullet-only filter hides them, and so does a mean rating above 1500.
    b.click("#start").await;
    b.until(
        "both games at the start",
        "return document.getElementById('games-summary').textContent.startsWith('2 games')",
        20 * SECOND,
    )
    .await;
    b.js(
        "document.querySelectorAll('#games-filter input[name=speed]').forEach(i => { i.checked = i.value === 'bullet'; });
         document.getElementById('games-filter').dispatchEvent(new Event('change'));",
        json!([]),
    )
    .await;
    b.until(
        "bullet only: no game",
        "return document.getElementById('games-summary').textContent.startsWith('No game') && !document.querySelector('#recent-games li[data-game]')",
        20 * SECOND,
    )
    .await;
    b.shot("bullet-only").await;
    b.click("#games-filter input[value=blitz]").await;
    b.until(
        "blitz again",
        "return document.getElementById('games-summary').textContent.startsWith('2 games')",
        20 * SECOND,
    )
    .await;
    b.type_in("#min-rating", "1600").await;
    b.js(
        "document.getElementById('games-filter').dispatchEvent(new Event('change'))",
        json!([]),
    )
    .await;
    b.until(
        "a mean rating from 1600: no game",
        "return document.getElementById('games-summary').textContent.startsWith('No game')",
        20 * SECOND,
    )
    .await;
    // A position given by its FEN finds the games too.
    b.type_in("#min-rating", "").await;
    let fen = "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3";
    b.go(&format!("{url}/explorer?variant=standard")).await;
    b.find("#games-moves tbody tr").await;
    b.type_in("#fen", fen).await;
    b.click("#fen-form button[type=submit]").await;
    b.until(
        "the FEN's position",
        &format!("return document.getElementById('recent-games').querySelector('li[data-game=\"{first}\"]') && document.getElementById('games-summary').textContent.startsWith('1 game ')"),
        20 * SECOND,
    )
    .await;
    b.shot("by-fen").await;
}

/// The board from the keyboard and for screen readers: cells that take the focus and are named
/// ("d8, black queen"; empty: "e4"), the arrow keys between them, Enter selecting; a whole game
/// (Fool's mate, as Black) played through the move input in SAN and UCI against Human driven
/// through the API, with the input's errors said; the live region saying each move (SAN, by
/// whom) and the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_from_the_keyboard_and_heard() {
    let Some((b, _arena, url, raw)) = page("keyboard-game").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    let id = game_with_human(&b, &raw, &url, &[("variant", "standard"), ("color", "white")]).await;
    b.find("#keyboard-move:not([hidden]) #move-input").await;
    let live = |text: &str| {
        format!(
            "return document.getElementById('move-announcer').textContent.includes({})",
            json!(text)
        )
    };
    // Not our turn yet: the input says so.
    b.type_in("#move-input", "e5").await;
    b.press(&[key::ENTER]).await;
    b.until(
        "not your turn",
        "return document.getElementById('move-input-error').textContent.startsWith('It is not your turn')",
        10 * SECOND,
    )
    .await;
    let human = |m: &'static str| {
        let raw = &raw;
        let id = &id;
        async move {
            raw.post_ok("human-token", &format!("/api/board/game/{id}/move/{m}"), &[])
                .await;
        }
    };
    human("f2f3").await;
    b.until("f3 heard", &live("White (Human) played f3."), 10 * SECOND)
        .await;
    // The cells' names.
    let label = |sq: &str| {
        format!("return document.querySelector('#board .cell[data-sq=\"{sq}\"]').getAttribute('aria-label')")
    };
    assert_eq!(b.js(&label("d8"), json!([])).await, "d8, black queen");
    assert_eq!(b.js(&label("e4"), json!([])).await, "e4");
    assert_eq!(b.js(&label("f3"), json!([])).await, "f3, white pawn");
    assert_eq!(
        b.js(
            "return document.querySelectorAll('#board .cell[role=button][tabindex=\"0\"]').length",
            json!([])
        )
        .await,
        1,
        "one cell takes the Tab"
    );
    // The arrow keys move the focus as the board is drawn (Black at the bottom: up is toward
    // rank 1); Enter selects a piece and names its destinations; Enter again lets it go.
    b.js(
        "document.querySelector('#board .cell[data-sq=\"e7\"]').focus()",
        json!([]),
    )
    .await;
    b.press(&[key::ENTER]).await;
    let label_is = |sq: &str, text: &str| {
        format!(
            "return document.querySelector('#board .cell[data-sq=\"{sq}\"]').getAttribute('aria-label') === {}",
            json!(text)
        )
    };
    b.until("e7 selected", &label_is("e7", "e7, black pawn, selected"), 10 * SECOND)
        .await;
    assert_eq!(b.js(&label("e5"), json!([])).await, "e5, a move goes here");
    b.press(&[key::UP]).await;
    let focused = "return document.activeElement.dataset.sq";
    assert_eq!(b.js(focused, json!([])).await, "e6");
    // Black's view: the h-file is on the left.
    b.press(&[key::LEFT, key::LEFT]).await;
    assert_eq!(b.js(focused, json!([])).await, "g6");
    b.press(&[key::RIGHT, key::RIGHT, key::DOWN]).await;
    assert_eq!(b.js(focused, json!([])).await, "e7");
    b.press(&[key::ENTER]).await;
    b.until("e7 let go", &label_is("e7", "e7, black pawn"), 10 * SECOND)
        .await;
    b.shot("cells").await;
    // The move input: a move that is not legal, then e5 in SAN.
    b.type_in("#move-input", "Ke9").await;
    b.press(&[key::ENTER]).await;
    b.until(
        "an illegal move said",
        "return document.getElementById('move-input-error').textContent === '“Ke9” is not a legal move in this position.' && document.getElementById('move-input').getAttribute('aria-invalid') === 'true'",
        10 * SECOND,
    )
    .await;
    b.shot("illegal").await;
    b.type_in("#move-input", "e5").await;
    b.press(&[key::ENTER]).await;
    b.until("e5 heard", &live("Black (Player1) played e5."), 10 * SECOND)
        .await;
    assert_eq!(
        b.js("return document.getElementById('move-input').value", json!([]))
            .await,
        ""
    );
    human("g2g4").await;
    b.until("g4 heard", &live("White (Human) played g4."), 10 * SECOND)
        .await;
    // The mate in UCI.
    b.type_in("#move-input", "d8h4").await;
    b.press(&[key::ENTER]).await;
    b.until(
        "the mate heard",
        &live("Black (Player1) played Qh4#. Checkmate: Black wins."),
        10 * SECOND,
    )
    .await;
    b.shot("mate").await;
    let v = game_view(&url, &id).await;
    assert_eq!(v["status"], "mate");
    assert_eq!(v["winner"], "black");
    b.until(
        "the input gone with the game",
        "return document.getElementById('keyboard-move').hidden",
        10 * SECOND,
    )
    .await;
    // The page's heading (for screen readers) names the game.
    let heading: Value = b
        .js("return document.getElementById('game-title').textContent", json!([]))
        .await;
    let heading = heading.as_str().unwrap_or_default();
    assert!(
        heading.starts_with("Human") && heading.contains(" vs Player1") && heading.ends_with(" · Standard"),
        "{heading}"
    );
}

/// The move input with a promotion: the square alone is several moves, and the input says
/// which; the piece typed plays it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_input_asks_which_promotion() {
    let Some((b, _arena, url, raw)) = page("keyboard-promotion").await else {
        return;
    };
    b.sign_up(&url, "Player1").await;
    // Black (Player1) to move, a pawn on a2 (and a white pawn, so that the game goes on).
    let fen = "4k3/8/8/8/8/7K/p6P/8 b - - 0 1";
    let terms = [("variant", "standard"), ("color", "white"), ("fen", fen)];
    let id = game_with_human(&b, &raw, &url, &terms).await;
    b.find("#keyboard-move:not([hidden]) #move-input").await;
    b.type_in("#move-input", "a1").await;
    b.press(&[key::ENTER]).await;
    b.until(
        "the promotions listed",
        "return document.getElementById('move-input-error').textContent === '“a1” could be a1=Q, a1=R, a1=B, a1=N: type one of them.'",
        10 * SECOND,
    )
    .await;
    b.shot("which-promotion").await;
    b.type_in("#move-input", "a1=N").await;
    b.press(&[key::ENTER]).await;
    b.until(
        "the knight heard",
        "return document.getElementById('move-announcer').textContent === 'Black (Player1) played a1=N.'",
        10 * SECOND,
    )
    .await;
    let v = game_view(&url, &id).await;
    assert_eq!(v["uci"], json!(["a2a1n"]));
}

/// The analysis board from the keyboard: named cells, the arrow keys between them (not along
/// the line while a cell has the focus), Enter to pick a piece and to play it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_plays_from_the_keyboard() {
    let Some((b, _arena, url, _)) = page("analysis-keyboard").await else {
        return;
    };
    b.go(&format!("{url}/analysis?variant=standard")).await;
    b.until(
        "the named cells",
        "const c = document.querySelector('#board .cell[data-sq=\"e2\"]'); return c && c.getAttribute('aria-label') === 'e2, white pawn' && c.getAttribute('role') === 'button'",
        10 * SECOND,
    )
    .await;
    b.js(
        "document.querySelector('#board .cell[data-sq=\"e2\"]').focus()",
        json!([]),
    )
    .await;
    b.press(&[key::ENTER, key::UP, key::UP]).await;
    assert_eq!(b.js("return document.activeElement.dataset.sq", json!([])).await, "e4");
    b.press(&[key::ENTER]).await;
    b.until(
        "e4 played",
        "return [...document.querySelectorAll('#moves .mv')].map((m) => m.textContent).join(' ') === 'e4'",
        10 * SECOND,
    )
    .await;
    // The focus stays on its square after the board is drawn again.
    b.until(
        "the focus kept",
        "return document.activeElement.dataset.sq === 'e4' && document.activeElement.getAttribute('aria-label') === 'e4, white pawn'",
        10 * SECOND,
    )
    .await;
    b.shot("e4-from-the-keyboard").await;
}
