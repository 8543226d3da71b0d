//! The arena as a real process, as people run it in public: every write answered 2xx is there
//! after a full disk and a SIGKILL (and none that was lost got a 2xx); one server per database;
//! a database that cannot be written stops the start; moderation, revocation and disabling on
//! the command line or through the admin API take effect in the running server; an online
//! backup; the access log.

use crate::common;

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use common::{bot_command as bot, ArenaProcess as Server, Raw};
use engine::rules::Variant;
use serde_json::Value;

fn temp_db(name: &str) -> PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-durable-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir.join("arena.sqlite")
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A pseudo-random legal move of Persian Princess after `moves`.
fn random_move(moves: &[String], seed: u64) -> Option<String> {
    common::random_move(Variant::PersianPrincess, moves, seed)
}

/// `white` challenges `black` (a bot) at 10+5, rated; the bot accepts. The game id, or the
/// refusal's status.
async fn start_game(h: &Raw, white: &str, black: &str, black_name: &str) -> Result<String, u16> {
    let form = [
        ("variant", "persian-princess"),
        ("rated", "true"),
        ("color", "white"),
        ("clock.limit", "600"),
        ("clock.increment", "5"),
    ];
    let (status, text) = h.post(white, &format!("/api/challenge/{black_name}"), &form).await;
    if status != 200 {
        return Err(status);
    }
    let id = parse(&text)["id"].as_str().expect("id").to_string();
    let (status, _) = h.post(black, &format!("/api/challenge/{id}/accept"), &[]).await;
    if status != 200 {
        return Err(status);
    }
    Ok(id)
}

/// The moves and status of a game as its player's stream gives them (`gameFull`).
async fn game_full(h: &Raw, token: &str, api: &str, id: &str) -> (Vec<String>, String) {
    let v = common::game_full(h, token, api, id).await;
    let moves = v["state"]["moves"]
        .as_str()
        .expect("moves")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    (moves, v["state"]["status"].as_str().expect("status").to_string())
}

/// Runs `bot ARGS...` to its end: success, and standard output and error together.
fn run(args: &[&str]) -> (bool, String) {
    let out = bot().args(args).output().expect("bot runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Starts `command` and waits (at most 20 s) for it to exit; its status and standard error.
fn exits(mut command: std::process::Command) -> (Option<i32>, String) {
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawns");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("status") {
            let mut err = String::new();
            use std::io::Read as _;
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return (status.code(), err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after 20 s: it should have refused to start");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls `check` for up to 3 s.
async fn soon(mut check: impl AsyncFnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    false
}

#[tokio::test]
async fn acknowledged_writes_survive_a_full_disk_and_a_kill() {
    let db = temp_db("full");
    let carol = common::add_account(&db, "Carol", false, &[]);
    let robo = common::add_account(&db, "Robo", true, &[]);
    let admin = common::add_account(&db, "Mod", false, &["--admin"]);
    // "1" page: no room beyond the file as it is after the start (its probe leaves a few free
    // pages), exactly as a disk that fills up.
    let server = Server::start_with(&db, &["--test-max-db-pages", "1"]);
    let h = Raw::at(&server.url);
    // Games and their acknowledged moves, until a move is refused.
    let mut games: Vec<(String, Vec<String>)> = Vec::new();
    let mut refused = false;
    for i in 0..3000u64 {
        if games
            .last()
            .is_none_or(|(_, m)| random_move(m, 1).is_none() && !m.is_empty())
        {
            match start_game(&h, &carol, &robo, "robo").await {
                Ok(id) => games.push((id, Vec::new())),
                Err(503) => break,
                Err(other) => panic!("starting a game: {other}"),
            }
        }
        let (id, moves) = games.last_mut().expect("a game");
        let Some(uci) = random_move(moves, i / 200 + 11) else {
            continue;
        };
        let (token, api) = if moves.len().is_multiple_of(2) {
            (&carol, "board")
        } else {
            (&robo, "bot")
        };
        let before = h.get(&carol, &format!("/api/arena/game/{id}/legal")).await.1;
        let (status, text) = h.post(token, &format!("/api/{api}/game/{id}/move/{uci}"), &[]).await;
        match status {
            200 => moves.push(uci),
            // The server's rate limits (as served in public): slow down.
            429 => tokio::time::sleep(Duration::from_millis(300)).await,
            503 => {
                assert!(parse(&text)["error"].is_string(), "{text}");
                let after = h.get(&carol, &format!("/api/arena/game/{id}/legal")).await.1;
                assert_eq!(after, before, "a refused move changes nothing");
                refused = true;
                break;
            }
            other => panic!("move {uci}: {other} {text}"),
        }
    }
    assert!(refused, "the database filled up ({} games)", games.len());
    assert_eq!(h.get("", "/api/arena/health").await.0, 503);

    // More writes while full: whatever is answered 2xx must be there after the restart, and
    // nothing else.
    let (game, _) = games.last().expect("a game").clone();
    let chat = h
        .post(
            &carol,
            &format!("/api/board/game/{game}/chat"),
            &[("room", "player"), ("text", &"chat ".repeat(28))],
        )
        .await
        .0;
    let challenge = h
        .post(
            &carol,
            "/api/challenge/robo",
            &[("variant", "persian-princess"), ("days", "3")],
        )
        .await;
    let made = h
        .post(
            &admin,
            "/api/admin/account",
            &[("username", "Newcomer"), ("bot", "true")],
        )
        .await;
    let resign = h.post(&carol, &format!("/api/board/game/{game}/resign"), &[]).await.0;
    for (what, status) in [
        ("chat", chat),
        ("challenge", challenge.0),
        ("account", made.0),
        ("resign", resign),
    ] {
        assert!(status == 200 || status == 503, "{what}: {status}");
    }
    let acked_moves: usize = games.iter().map(|(_, m)| m.len()).sum();
    assert!(acked_moves > 0);
    server.kill();

    let server = Server::start(&db);
    let h = Raw::at(&server.url);
    for (i, (id, moves)) in games.iter().enumerate() {
        let (stored, status) = game_full(&h, &carol, "board", id).await;
        assert_eq!(&stored, moves, "game {i} has exactly its acknowledged moves");
        if *id == game {
            let expected = if resign == 200 { "resign" } else { "started" };
            assert_eq!(status, expected, "resign answered {resign}");
        }
    }
    let lines = parse(&h.get(&carol, &format!("/api/board/game/{game}/chat")).await.1);
    assert_eq!(
        lines.as_array().map(Vec::len),
        Some(usize::from(chat == 200)),
        "chat answered {chat}: {lines}"
    );
    let listed = parse(&h.get(&carol, "/api/challenge").await.1);
    let kept = listed["out"].as_array().map_or(0, Vec::len);
    assert_eq!(
        kept,
        usize::from(challenge.0 == 200),
        "challenge answered {}: {listed}",
        challenge.0
    );
    if made.0 == 200 {
        let token = parse(&made.1)["token"].as_str().expect("token").to_string();
        assert_eq!(
            h.get(&token, "/api/account").await.0,
            200,
            "the new account's token works"
        );
    } else {
        let (status, text) = h.get("", "/api/user/newcomer").await;
        assert_eq!(status, 404, "an account refused with 503 does not exist: {text}");
    }
}

#[tokio::test]
async fn two_servers_on_one_database_cannot_run() {
    let db = temp_db("two");
    common::add_account(&db, "Carol", false, &[]);
    let first = Server::start(&db);
    let mut second = bot();
    second.args(["arena", "--port", "0", "--db"]).arg(&db);
    let (code, err) = exits(second);
    assert_ne!(code, Some(0));
    assert!(err.contains("in use by another arena server"), "{err}");
    assert!(err.contains(&db.display().to_string()), "the file is named: {err}");
    // Another name of the same file meets the same lock.
    let link = db.with_file_name("linked.sqlite");
    std::fs::hard_link(&db, &link).expect("a hard link");
    let mut third = bot();
    third.args(["arena", "--port", "0", "--db"]).arg(&link);
    let (code, err) = exits(third);
    assert_ne!(code, Some(0));
    assert!(err.contains("in use by another arena server"), "{err}");
    // The account commands work beside the running server.
    let (ok, text) = run(&["arena", "--db", &db.display().to_string(), "account", "list"]);
    assert!(ok && text.contains("Carol"), "{text}");
    first.kill();
    let again = Server::start(&db);
    assert_eq!(Raw::at(&again.url).get("", "/api/arena/health").await.0, 200);
}

#[test]
fn a_database_that_cannot_be_written_is_refused_at_start() {
    let db = temp_db("readonly");
    common::add_account(&db, "Carol", false, &[]);
    let dir = db.parent().expect("dir").to_path_buf();
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    // As root, permissions do not stop a write: run the server as another user, as the
    // issue's report did. Otherwise make the file read-only.
    let command = |db: &Path| {
        let mut c = if root {
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(env!("CARGO_BIN_EXE_persian-bot"));
            c
        } else {
            bot()
        };
        c.env("RUST_LOG", "warn").args(["arena", "--port", "0", "--db"]).arg(db);
        c
    };
    set_mode(&dir, 0o755);
    set_mode(&db, if root { 0o644 } else { 0o444 });
    let (code, err) = exits(command(&db));
    if root && (err.contains("setpriv") || code == Some(127) || code == Some(126)) {
        eprintln!("skipped: cannot run the server as another user here: {err}");
        return;
    }
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("cannot be written"), "{err}");
    assert!(err.contains(&db.display().to_string()), "the file is named: {err}");
    // A writable file in a folder that is not (SQLite cannot make its journal there).
    set_mode(&db, 0o666);
    set_mode(&dir, 0o555);
    let (code, err) = exits(command(&db));
    set_mode(&dir, 0o755);
    if root {
        assert_ne!(code, Some(0), "{err}");
        assert!(err.contains("cannot be written"), "{err}");
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

#[tokio::test]
async fn moderation_and_revocation_take_effect_in_a_running_server() {
    let db = temp_db("moderation");
    let d = db.display().to_string();
    let carol = common::add_account(&db, "Carol", false, &[]);
    let robo = common::add_account(&db, "Robo", true, &[]);
    let dave = common::add_account(&db, "Dave", true, &[]);
    let admin = common::add_account(&db, "Mod", false, &["--admin"]);
    let server = Server::start(&db);
    let h = Raw::at(&server.url);

    // A token revoked on the command line stops working at once.
    assert_eq!(h.get(&dave, "/api/account").await.0, 200);
    let (ok, text) = run(&["arena", "--db", &d, "token", "revoke", &dave]);
    assert!(ok, "{text}");
    assert!(
        soon(async || h.get(&dave, "/api/account").await.0 == 401).await,
        "revoked token still works"
    );

    // An account disabled on the command line: its token stops, its game ends (lost, both
    // sides having moved), its challenges are withdrawn.
    let game = start_game(&h, &carol, &robo, "robo").await.expect("a game");
    let mut moves = Vec::new();
    for _ in 0..2 {
        let uci = random_move(&moves, 5).expect("a move");
        let (token, api) = if moves.len().is_multiple_of(2) {
            (&carol, "board")
        } else {
            (&robo, "bot")
        };
        assert_eq!(
            h.post(token, &format!("/api/{api}/game/{game}/move/{uci}"), &[])
                .await
                .0,
            200
        );
        moves.push(uci);
    }
    let (status, _) = h
        .post(&carol, "/api/challenge/robo", &[("variant", "persian-princess")])
        .await;
    assert_eq!(status, 200);
    let (ok, text) = run(&["arena", "--db", &d, "account", "disable", "Robo"]);
    assert!(ok, "{text}");
    assert!(
        soon(async || h.get(&robo, "/api/account").await.0 == 401).await,
        "disabled token still works"
    );
    let (_, status) = game_full(&h, &carol, "board", &game).await;
    assert_eq!(status, "resign", "the disabled player's game ended");
    let export = parse(
        &h.get_accept(&carol, &format!("/game/export/{game}"), "application/json")
            .await
            .1,
    );
    assert_eq!(export["winner"], "white", "{export}");
    let listed = parse(&h.get(&carol, "/api/challenge").await.1);
    assert_eq!(listed["out"], serde_json::json!([]), "challenges withdrawn: {listed}");
    let (status, _) = h
        .post(&carol, "/api/challenge/robo", &[("variant", "persian-princess")])
        .await;
    assert_eq!(status, 400, "a disabled account cannot be challenged");
    let (ok, text) = run(&["arena", "--db", &d, "account", "enable", "Robo"]);
    assert!(ok, "{text}");
    assert!(
        soon(async || h.get(&robo, "/api/account").await.0 == 200).await,
        "enabled again"
    );

    // The admin API: disabling (at once, no restart), aborting, adjudicating, chat removal.
    let path = "/api/arena/admin/account/carol/disable";
    assert_eq!(h.post(&robo, path, &[]).await.0, 403, "admins only");
    assert_eq!(h.post(&admin, path, &[]).await.0, 200);
    assert_eq!(h.get(&carol, "/api/account").await.0, 401);
    assert_eq!(
        h.post(&admin, "/api/arena/admin/account/carol/enable", &[]).await.0,
        200
    );
    assert_eq!(h.get(&carol, "/api/account").await.0, 200);

    let aborted = start_game(&h, &carol, &robo, "robo").await.expect("a game");
    let (status, text) = h
        .post(&admin, &format!("/api/arena/admin/game/{aborted}/abort"), &[])
        .await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(game_full(&h, &carol, "board", &aborted).await.1, "aborted");
    let judged = start_game(&h, &carol, &robo, "robo").await.expect("a game");
    let (status, text) = h
        .post(
            &admin,
            &format!("/api/arena/admin/game/{judged}/adjudicate"),
            &[("result", "sideways")],
        )
        .await;
    assert_eq!(status, 400, "{text}");
    let (status, text) = h
        .post(
            &admin,
            &format!("/api/arena/admin/game/{judged}/adjudicate"),
            &[("result", "black")],
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let export = parse(
        &h.get_accept(&carol, &format!("/game/export/{judged}"), "application/json")
            .await
            .1,
    );
    assert_eq!(export["winner"], "black", "{export}");

    let (status, _) = h
        .post(
            &carol,
            &format!("/api/board/game/{game}/chat"),
            &[("room", "player"), ("text", "rude words")],
        )
        .await;
    assert_eq!(status, 200);
    let lines = parse(&h.get(&admin, &format!("/api/arena/admin/game/{game}/chat")).await.1);
    assert_eq!(lines[0]["text"], "rude words", "{lines}");
    let index = lines[0]["index"].as_u64().expect("index").to_string();
    let (status, text) = h
        .post(
            &admin,
            &format!("/api/arena/admin/game/{game}/chat/{index}/remove"),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let seen = h.get(&carol, &format!("/api/board/game/{game}/chat")).await.1;
    assert_eq!(parse(&seen), serde_json::json!([]), "{seen}");
    server.kill();
    let server = Server::start(&db);
    let h = Raw::at(&server.url);
    let seen = h.get(&carol, &format!("/api/board/game/{game}/chat")).await.1;
    assert_eq!(
        parse(&seen),
        serde_json::json!([]),
        "still removed after a restart: {seen}"
    );
}

#[tokio::test]
async fn a_backup_while_the_server_runs_restores_everything() {
    let db = temp_db("backup");
    let d = db.display().to_string();
    let carol = common::add_account(&db, "Carol", false, &[]);
    let robo = common::add_account(&db, "Robo", true, &[]);
    let server = Server::start(&db);
    let h = Raw::at(&server.url);
    let game = start_game(&h, &carol, &robo, "robo").await.expect("a game");
    let uci = random_move(&[], 9).expect("a move");
    assert_eq!(
        h.post(&carol, &format!("/api/board/game/{game}/move/{uci}"), &[])
            .await
            .0,
        200
    );
    let copy = db.with_file_name("copy.sqlite");
    let (ok, text) = run(&["arena", "--db", &d, "backup", &copy.display().to_string()]);
    assert!(ok, "{text}");
    assert!(text.contains("integrity checked"), "{text}");
    let (ok, text) = run(&["arena", "--db", &d, "backup", &copy.display().to_string()]);
    assert!(!ok && text.contains("exists"), "a backup never overwrites: {text}");
    // The server went on serving meanwhile; the copy is a complete database.
    assert_eq!(h.get(&carol, "/api/account").await.0, 200);
    let restored = Server::start(&copy);
    let r = Raw::at(&restored.url);
    let (moves, status) = game_full(&r, &carol, "board", &game).await;
    assert_eq!((moves, status.as_str()), (vec![uci], "started"));
}

#[tokio::test]
async fn the_access_log_has_a_line_per_request_and_no_secret() {
    let db = temp_db("access");
    let carol = common::add_account(&db, "Carol", false, &[]);
    let log = db.with_file_name("access.log");
    let server = Server::start_with(&db, &["--access-log", &log.display().to_string()]);
    let h = Raw::at(&server.url);
    assert_eq!(h.get(&carol, "/api/account").await.0, 200);
    assert_eq!(h.get(&carol, "/api/account?secret=hush").await.0, 200);
    let r = h
        .http
        .get(format!("{}/api/account", h.base))
        .header("cookie", "arena_session=cookiesecret")
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 401);
    assert_eq!(h.get("", "/nowhere").await.0, 404);
    let text = std::fs::read_to_string(&log).expect("the log");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].contains(" carol ") && lines[0].contains("\"GET /api/account\" 200"),
        "{text}"
    );
    assert!(lines[2].contains(" - ") && lines[2].contains(" 401 "), "{text}");
    assert!(lines[3].contains("\"GET /nowhere\" 404"), "{text}");
    for secret in [carol.as_str(), "hush", "cookiesecret", "Bearer"] {
        assert!(!text.contains(secret), "{secret} in the log:\n{text}");
    }
}
