//! The arena as a real process with a database: accounts and tokens made on the command line,
//! rated games that move ratings, and a server killed with SIGKILL mid-game that restarts
//! with every finished game intact and the running game resumed.

use crate::common;

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use common::{bot_command as bot, ArenaProcess as Server, Raw};

use engine::rules::{game::Game, Position, Variant};
use serde_json::Value;

fn temp_db(name: &str) -> PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-persist-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir.join("arena.sqlite")
}

fn add_account(db: &Path, name: &str, bot_account: bool) -> String {
    common::add_account(db, name, bot_account, &[])
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn next_move(variant: Variant, moves: &[String]) -> String {
    let mut game = Game::new(Position::startpos(variant));
    for uci in moves {
        let m = game.position().parse_uci(uci).expect("legal");
        game.play(m);
    }
    let m = game.position().legal_moves().iter().copied().next().expect("a move");
    game.position().uci(m)
}

/// Carol (human, white) challenges Robo (bot) rated at 10+5; Robo accepts. The game id.
async fn start_game(h: &Raw, carol: &str, robo: &str) -> String {
    let form = [
        ("variant", "persian-princess"),
        ("rated", "true"),
        ("color", "white"),
        ("clock.limit", "600"),
        ("clock.increment", "5"),
    ];
    let (status, text) = h.post(carol, "/api/challenge/robo", &form).await;
    assert_eq!(status, 200, "{text}");
    let id = parse(&text)["id"].as_str().expect("id").to_string();
    let (status, text) = h.post(robo, &format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 200, "{text}");
    id
}

async fn play(h: &Raw, carol: &str, robo: &str, id: &str, moves: &mut Vec<String>, plies: usize) {
    let variant: Variant = "persian-princess".parse().expect("variant");
    for _ in 0..plies {
        let (token, api) = if moves.len().is_multiple_of(2) {
            (carol, "board")
        } else {
            (robo, "bot")
        };
        let m = next_move(variant, moves);
        let (status, text) = h.post(token, &format!("/api/{api}/game/{id}/move/{m}"), &[]).await;
        assert_eq!(status, 200, "{m}: {text}");
        moves.push(m);
    }
}

/// A fresh database named after `name` with Carol (human) and Robo (bot), made on the command
/// line: the database and their tokens.
fn players(name: &str) -> (PathBuf, String, String) {
    let db = temp_db(name);
    let carol = add_account(&db, "Carol", false);
    let robo = add_account(&db, "Robo", true);
    (db, carol, robo)
}

/// The arena started on `db`, and a client at its address.
fn serve(db: &Path) -> (Server, Raw) {
    let server = Server::start(db);
    let h = Raw::at(&server.url);
    (server, h)
}

/// Kills `server` with SIGKILL and starts the arena again on `db`.
fn restart(server: Server, db: &Path) -> (Server, Raw) {
    server.kill();
    serve(db)
}

/// `token` resigns game `id` through `api` (`board` or `bot`).
async fn resign(h: &Raw, token: &str, api: &str, id: &str) {
    let (status, text) = h.post(token, &format!("/api/{api}/game/{id}/resign"), &[]).await;
    assert_eq!(status, 200, "{text}");
}

/// A rated game (see `start_game`) played for `plies` plies, then resigned by Robo when
/// `robo_resigns`, else by Carol. Its id and moves.
async fn resigned_game(h: &Raw, carol: &str, robo: &str, plies: usize, robo_resigns: bool) -> (String, Vec<String>) {
    let id = start_game(h, carol, robo).await;
    let mut moves = Vec::new();
    play(h, carol, robo, &id, &mut moves, plies).await;
    if robo_resigns {
        resign(h, robo, "bot", &id).await;
    } else {
        resign(h, carol, "board", &id).await;
    }
    (id, moves)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_with_its_games() {
    let (db, carol, robo) = players("restart");
    let (server, h) = serve(&db);
    // A finished rated game: Robo resigns after four plies.
    let (first, moves) = resigned_game(&h, &carol, &robo, 4, true).await;
    let (_, text) = h.get(&carol, "/api/account").await;
    let before = parse(&text);
    let rating = before["perfs"]["persian-princess"]["rating"]
        .as_i64()
        .expect("rated after a win");
    assert!(rating > 1500, "{before}");
    // A running game with three plies and a chat line, then SIGKILL.
    let second = start_game(&h, &carol, &robo).await;
    let mut running = Vec::new();
    play(&h, &carol, &robo, &second, &mut running, 3).await;
    // Black thinks for 1.5 s; the chat line below is the last write (it stores the clocks).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let chat = [("room", "player"), ("text", "see you after the crash")];
    assert_eq!(
        h.post(&carol, &format!("/api/board/game/{second}/chat"), &chat).await.0,
        200
    );
    let full = common::game_full(&h, &robo, "bot", &second).await;
    let btime_before = full["state"]["btime"].as_i64().expect("btime");

    let (server, h) = restart(server, &db);
    // The tokens made on the command line still work; the finished game and the rating too.
    let (status, text) = h.get(&carol, "/api/account").await;
    assert_eq!(status, 200, "{text}");
    let after = parse(&text);
    assert_eq!(after["perfs"], before["perfs"], "ratings survive");
    assert_eq!(after["count"]["win"], 1);
    let (_, text) = h.get(&carol, "/api/user/robo").await;
    assert_eq!(parse(&text)["count"]["loss"], 1, "{text}");
    let finished = common::game_full(&h, &carol, "board", &first).await;
    assert_eq!(finished["state"]["status"], "resign");
    assert_eq!(finished["state"]["moves"], moves.join(" ").as_str());
    // The running game goes on from its moves and clocks; Robo is to move.
    let (_, text) = h.get(&robo, "/api/account/playing").await;
    assert_eq!(parse(&text)["nowPlaying"][0]["gameId"], second.as_str(), "{text}");
    let resumed = common::game_full(&h, &robo, "bot", &second).await;
    assert_eq!(resumed["state"]["moves"], running.join(" ").as_str());
    assert_eq!(resumed["state"]["status"], "started");
    let btime = resumed["state"]["btime"].as_i64().expect("btime");
    // The clock resumes from its value at the last write (a moment before btime_before was
    // read), not from a full clock, and the time the server was down is not charged.
    assert!(
        btime <= btime_before + 500 && btime < 600_000 - 1_000 && btime > btime_before - 10_000,
        "Black's clock goes on from its stored time: {btime_before} then {btime}"
    );
    let (_, text) = h.get(&carol, &format!("/api/board/game/{second}/chat")).await;
    assert_eq!(parse(&text)[0]["text"], "see you after the crash");
    play(&h, &carol, &robo, &second, &mut running, 2).await;
    resign(&h, &carol, "board", &second).await;
    drop(server);
    let _ = std::fs::remove_dir_all(db.parent().expect("dir"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_tokens_and_scopes() {
    let db = temp_db("accounts");
    let admin_token = common::add_account(&db, "Boss", false, &["--admin"]);
    // A token that may only read challenges.
    let reader = common::add_account(&db, "Reader", false, &["--scopes", "challenge:read"]);
    // Taken names and unknown scopes are refused with a clear message.
    let out = bot()
        .args(["arena", "--db"])
        .arg(&db)
        .args(["account", "add", "reader"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("taken"));
    let (server, h) = serve(&db);
    // The database stores only hashes of the tokens.
    let raw = std::fs::read(&db).expect("db");
    let wal = std::fs::read(db.with_extension("sqlite-wal")).unwrap_or_default();
    for bytes in [&raw, &wal] {
        assert!(
            !bytes.windows(reader.len()).any(|w| w == reader.as_bytes()),
            "a token in clear in the database"
        );
    }
    // Scopes: reading challenges works, writing one is refused with 403.
    assert_eq!(h.get(&reader, "/api/challenge").await.0, 200);
    let (status, text) = h.post(&reader, "/api/challenge/boss", &[]).await;
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("Missing scope"), "{text}");
    let text = h
        .http
        .post(format!("{}/api/token/test", h.base))
        .body(reader.clone())
        .send()
        .await
        .expect("test")
        .text()
        .await
        .expect("body");
    assert_eq!(parse(&text)[&reader]["scopes"], "challenge:read");
    // The admin endpoint makes accounts; others may not call it.
    let form = [("username", "Newbot"), ("bot", "true")];
    let (status, text) = h.post(&reader, "/api/admin/account", &form).await;
    assert_eq!(status, 403, "{text}");
    let (status, text) = h.post(&admin_token, "/api/admin/account", &form).await;
    assert_eq!(status, 200, "{text}");
    let made = parse(&text);
    let token = made["token"].as_str().expect("token");
    let (_, text) = h.get(token, "/api/account").await;
    assert_eq!(parse(&text)["title"], "BOT");
    let (status, _) = h.post(&admin_token, "/api/admin/account", &form).await;
    assert_eq!(status, 400, "the name is taken");
    // Unknown users: 404; statuses of several.
    assert_eq!(h.get(&reader, "/api/user/nobody").await.0, 404);
    let (_, text) = h.get(&reader, "/api/users/status?ids=boss,newbot,nobody").await;
    let list = parse(&text);
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{text}");
    assert_eq!(list[1]["title"], "BOT");
    // An account made while the server runs works at once.
    let late = add_account(&db, "Latecomer", false);
    let (status, text) = h.get(&late, "/api/account").await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(parse(&text)["username"], "Latecomer");
    drop(server);
    let _ = std::fs::remove_dir_all(db.parent().expect("dir"));
}

/// The explorer of arena games: a finished game is there at once, still there after a restart
/// (the index is built from the stored games), and a game finished after the restart joins it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_keeps_its_games_across_a_restart() {
    let (db, carol, robo) = players("explorer");
    let (server, h) = serve(&db);
    let (first, moves) = resigned_game(&h, &carol, &robo, 4, true).await;
    let line = moves[..2].join(",");
    let v = explorer_games(&h, &line, 1).await;
    assert_eq!((v["games"].clone(), v["white"].clone()), (1.into(), 1.into()), "{v}");
    assert_eq!(v["moves"][0]["uci"], moves[2].as_str());
    assert_eq!(v["recentGames"][0]["id"], first.as_str());
    assert_eq!(v["recentGames"][0]["white"]["name"], "Carol");

    let (_server, h) = restart(server, &db);
    let v = explorer_games(&h, &line, 1).await;
    assert_eq!(v["recentGames"][0]["id"], first.as_str());
    let (_, text) = h.get("", "/api/arena/explorer").await;
    let list = parse(&text);
    let princess = list["arena"]
        .as_array()
        .expect("arena variants")
        .iter()
        .find(|x| x["key"] == "persian-princess")
        .cloned()
        .expect("persian-princess listed");
    assert_eq!(princess["games"], 1, "{list}");
    // A game finished after the restart joins the index (Carol resigns this one).
    let (second, _) = resigned_game(&h, &carol, &robo, 4, false).await;
    let v = explorer_games(&h, &line, 2).await;
    assert_eq!((v["white"].clone(), v["black"].clone()), (1.into(), 1.into()), "{v}");
    assert_eq!(v["recentGames"][0]["id"], second.as_str(), "newest first: {v}");
}

/// The explorer's games through the line of Persian Princess `line` (UCI, commas), once they
/// are `want` (the index follows a game's end a moment after it is stored).
async fn explorer_games(h: &Raw, line: &str, want: u64) -> Value {
    let path = format!("/api/arena/explorer/games?variant=persian-princess&play={line}");
    let mut last = Value::Null;
    for _ in 0..100 {
        let (status, text) = h.get("", &path).await;
        assert_eq!(status, 200, "{text}");
        last = parse(&text);
        if last["games"].as_u64() == Some(want) {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{want} games wanted through {line}: {last}");
}

/// `carol` challenges `robo` with `form`; `robo` declines for `reason`.
async fn decline(h: &Raw, carol: &str, robo: &str, form: &[(&str, &str)], reason: &str) {
    let (status, text) = h.post(carol, "/api/challenge/robo", form).await;
    assert_eq!(status, 200, "{text}");
    let id = parse(&text)["id"].as_str().expect("id").to_string();
    let (status, text) = h
        .post(robo, &format!("/api/challenge/{id}/decline"), &[("reason", reason)])
        .await;
    assert_eq!(status, 200, "{text}");
}

/// A bot's entry in the lobby's bots (its event stream open), once listed.
async fn lobby_bot(h: &Raw, id: &str) -> (Value, Value) {
    let mut last = Value::Null;
    for _ in 0..100 {
        let (status, text) = h.get("", "/api/arena/lobby").await;
        assert_eq!(status, 200, "{text}");
        last = parse(&text);
        if let Some(b) = last["bots"].as_array().and_then(|bs| bs.iter().find(|b| b["id"] == id)) {
            return (b.clone(), last.clone());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{id} is not listed: {last}");
}

/// The lobby says what a bot plays, from the games it played and the challenges it declined
/// for their terms, and says it again after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_says_what_a_bot_plays_across_a_restart() {
    let (db, carol, robo) = players("plays");
    let (server, h) = serve(&db);
    let events = h.lines(&robo, "/api/stream/event").await;
    let (entry, lobby) = lobby_bot(&h, "robo").await;
    assert_eq!(entry["plays"], Value::Null, "never seen: {entry}");
    let nine = lobby["variants"]
        .as_array()
        .expect("variants")
        .iter()
        .find(|v| v["key"] == "citadel-9")
        .and_then(|v| v["name"].as_str())
        .expect("citadel-9 listed")
        .to_string();
    decline(&h, &carol, &robo, &[("variant", "citadel-9")], "variant").await;
    let fast = [
        ("variant", "persian-princess"),
        ("clock.limit", "60"),
        ("clock.increment", "0"),
    ];
    decline(&h, &carol, &robo, &fast, "tooFast").await;
    // Not about the terms: says nothing of them.
    decline(&h, &carol, &robo, &[("variant", "parsi")], "later").await;
    resigned_game(&h, &carol, &robo, 0, true).await;
    let want = format!("plays Persian Princess · 10+5 · rated · declined {nine}, 1+0 (too fast)");
    let (entry, _) = lobby_bot(&h, "robo").await;
    let plays = &entry["plays"];
    assert_eq!(plays["summary"], want.as_str(), "{entry}");
    assert_eq!(plays["variants"][0]["key"], "persian-princess");
    assert_eq!(plays["clock"]["min"]["limit"], 600);
    assert_eq!(plays["clock"]["max"]["increment"], 5);
    assert_eq!(
        (plays["rated"].clone(), plays["casual"].clone()),
        (true.into(), false.into())
    );
    assert_eq!(plays["declined"][0]["reason"], "variant");
    assert_eq!(plays["declined"][0]["variant"]["key"], "citadel-9");
    assert_eq!(plays["declined"][1]["reason"], "tooFast");
    assert_eq!(plays["declined"][1]["clock"]["limit"], 60);
    assert_eq!(plays["declined"].as_array().map(Vec::len), Some(2), "{plays}");
    drop(events);

    let (_server, h) = restart(server, &db);
    let _events = h.lines(&robo, "/api/stream/event").await;
    let (entry, _) = lobby_bot(&h, "robo").await;
    assert_eq!(entry["plays"]["summary"], want.as_str(), "after the restart: {entry}");
    assert_eq!(entry["plays"]["declined"][1]["reason"], "tooFast");
    let _ = std::fs::remove_dir_all(db.parent().expect("dir"));
}
