//! Game export as Lichess serves it: `/game/export/{id}` and `/api/games/user/{name}`, PGN and
//! JSON / ND-JSON, with the tags, `%clk` comments and filters clients use.

use crate::common;

use common::Raw;
use engine::rules::{
    game::Game,
    notation::pgn::{read_games, PgnGame},
    Position, Variant,
};
use serde_json::Value;

const HUMAN: &str = "human-token";
const ALPHA: &str = "alpha-token";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

async fn get(raw: &Raw, path: &str, accept: &str) -> (u16, String, String) {
    let r = raw
        .http
        .get(format!("{}{path}", raw.base))
        .header("Accept", accept)
        .send()
        .await
        .expect("request");
    let kind = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (r.status().as_u16(), kind, r.text().await.expect("body"))
}

/// Human (white) against Alpha: `plies` first legal moves, then `end` (`resign` by Alpha, or
/// nothing). The game id and the UCI moves.
async fn game(raw: &Raw, form: &[(&str, &str)], plies: usize, end: bool) -> (String, Vec<String>) {
    let (status, text) = raw.post(HUMAN, "/api/challenge/alpha", form).await;
    assert_eq!(status, 200, "{text}");
    let c = parse(&text);
    let id = c["id"].as_str().expect("id").to_string();
    assert_eq!(
        raw.post(ALPHA, &format!("/api/challenge/{id}/accept"), &[]).await.0,
        200
    );
    let variant: Variant = match c["variant"]["key"].as_str().expect("key") {
        "standard" | "fromPosition" => Variant::Chess,
        key => key.parse().expect("variant"),
    };
    let start = match c["initialFen"].as_str() {
        Some(fen) => Position::from_fen(variant, fen).expect("FEN"),
        None => Position::startpos(variant),
    };
    let mut g = Game::new(start);
    let mut moves = Vec::new();
    for ply in 0..plies {
        let m = g.position().legal_moves().iter().copied().next().expect("a move");
        let uci = g.position().uci(m);
        let (token, api) = if ply.is_multiple_of(2) {
            (HUMAN, "board")
        } else {
            (ALPHA, "bot")
        };
        let (status, text) = raw.post(token, &format!("/api/{api}/game/{id}/move/{uci}"), &[]).await;
        assert_eq!(status, 200, "{text}");
        g.play(m);
        moves.push(uci);
    }
    if end {
        assert_eq!(raw.post(ALPHA, &format!("/api/bot/game/{id}/resign"), &[]).await.0, 200);
    }
    (id, moves)
}

fn read_one(text: &str, variant: Variant) -> PgnGame {
    let mut games = read_games(text, variant).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_game_in_pgn_and_json() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let form = [
        ("variant", "persian-princess"),
        ("color", "white"),
        ("clock.limit", "600"),
        ("clock.increment", "5"),
        ("rated", "true"),
    ];
    let (id, moves) = game(&raw, &form, 6, true).await;
    let (status, kind, pgn) = get(&raw, &format!("/game/export/{id}"), "*/*").await;
    assert_eq!(status, 200, "{pgn}");
    assert_eq!(kind, "application/x-chess-pgn");
    for tag in [
        "[Event \"Rated Persian Princess game\"]".to_string(),
        "[White \"Human\"]".into(),
        "[Black \"Alpha\"]".into(),
        "[Result \"1-0\"]".into(),
        format!("[GameId \"{id}\"]"),
        "[WhiteElo \"1500\"]".into(),
        "[BlackTitle \"BOT\"]".into(),
        "[Variant \"Persian Princess\"]".into(),
        "[TimeControl \"600+5\"]".into(),
        "[Termination \"Normal\"]".into(),
    ] {
        assert!(pgn.contains(&tag), "{tag} missing in\n{pgn}");
    }
    assert!(pgn.contains("[WhiteRatingDiff \"+"), "{pgn}");
    assert_eq!(pgn.matches("[%clk 0:").count(), moves.len(), "{pgn}");
    let variant: Variant = "persian-princess".parse().expect("variant");
    let back = read_one(&pgn, variant);
    let mut pos = back.start.clone();
    let read: Vec<String> = back
        .moves
        .iter()
        .map(|&m| {
            let u = pos.uci(m);
            pos.play_unchecked(m);
            u
        })
        .collect();
    assert_eq!(read, moves);
    assert_eq!(back.result, "1-0");
    // Flags: no clocks, no tags, no moves.
    let (_, _, plain) = get(&raw, &format!("/game/export/{id}?clocks=false&tags=false"), "*/*").await;
    assert!(!plain.contains("%clk") && !plain.contains('['), "{plain}");
    let (_, _, bare) = get(&raw, &format!("/game/export/{id}?moves=false"), "*/*").await;
    assert!(
        bare.contains("[GameId") && bare.trim_end().ends_with("1-0") && !bare.contains("1. "),
        "{bare}"
    );
    let (status, _, _) = get(&raw, &format!("/game/export/{id}?clocks=maybe"), "*/*").await;
    assert_eq!(status, 400);
    assert_eq!(get(&raw, "/game/export/nosuchid", "*/*").await.0, 404);

    // JSON: Lichess's game JSON, SAN moves, clocks in centiseconds, the PGN when asked.
    let (status, kind, text) = get(&raw, &format!("/game/export/{id}?pgnInJson=true"), "application/json").await;
    assert_eq!(status, 200);
    assert_eq!(kind, "application/json");
    let j = parse(&text);
    assert_eq!(j["id"], id.as_str());
    assert_eq!(j["status"], "resign");
    assert_eq!(j["winner"], "white");
    assert_eq!(j["variant"], "persian-princess");
    assert_eq!(j["perf"], "persian-princess");
    assert_eq!(
        j["clock"],
        serde_json::json!({"initial": 600, "increment": 5, "totalTime": 800})
    );
    assert_eq!(j["clocks"].as_array().map(Vec::len), Some(moves.len()));
    assert_eq!(j["moves"].as_str().map(|m| m.split(' ').count()), Some(moves.len()));
    assert_eq!(j["players"]["black"]["user"]["title"], "BOT");
    assert!(j["players"]["white"]["ratingDiff"].as_i64().is_some_and(|d| d > 0));
    assert!(j["pgn"].as_str().is_some_and(|p| p.contains("[GameId")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_users_games_with_filters() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let (from_fen, _) = game(
        &raw,
        &[("variant", "standard"), ("fen", fen), ("color", "white")],
        2,
        true,
    )
    .await;
    let (corr, _) = game(
        &raw,
        &[("variant", "egyptian-eye"), ("days", "3"), ("color", "white")],
        2,
        true,
    )
    .await;
    let (running, _) = game(&raw, &[("variant", "oriental-omega"), ("color", "white")], 1, false).await;

    let (status, kind, pgn) = get(&raw, "/api/games/user/human", "*/*").await;
    assert_eq!((status, kind.as_str()), (200, "application/x-chess-pgn"));
    let games = read_games(&pgn, Variant::Chess).expect("reads");
    assert_eq!(games.len(), 2, "finished games only by default: {pgn}");
    // Newest first: the correspondence game, then the one from a FEN.
    assert_eq!(games[0].tag("GameId"), Some(corr.as_str()));
    assert_eq!(games[0].tag("TimeControl"), Some("-"));
    assert_eq!(games[1].tag("Variant"), Some("From Position"));
    assert_eq!(games[1].tag("FEN"), Some(fen));
    assert_eq!(games[1].tag("SetUp"), Some("1"));

    let lines = |text: &str| -> Vec<Value> { text.lines().filter(|l| !l.is_empty()).map(parse).collect() };
    let (_, kind, text) = get(&raw, "/api/games/user/human?ongoing=true", "application/x-ndjson").await;
    assert_eq!(kind, "application/x-ndjson");
    let all = lines(&text);
    assert_eq!(all.len(), 3, "{text}");
    assert_eq!(all[0]["id"], running.as_str());
    assert_eq!(all[0]["status"], "started");
    let (_, _, text) = get(&raw, "/api/games/user/human?max=1&sort=dateAsc", "application/x-ndjson").await;
    assert_eq!(lines(&text)[0]["id"], from_fen.as_str());
    let (_, _, text) = get(&raw, "/api/games/user/alpha?color=white", "application/x-ndjson").await;
    assert!(lines(&text).is_empty(), "Alpha had black: {text}");
    let (_, _, text) = get(
        &raw,
        "/api/games/user/human?perfType=egyptian-eye,blitz",
        "application/x-ndjson",
    )
    .await;
    let found = lines(&text);
    assert_eq!(found.len(), 1, "{text}");
    assert_eq!(found[0]["daysPerTurn"], 3);
    let (_, _, text) = get(&raw, "/api/games/user/human?vs=beta", "application/x-ndjson").await;
    assert!(lines(&text).is_empty());
    assert_eq!(get(&raw, "/api/games/user/nobody", "*/*").await.0, 404);
    assert_eq!(get(&raw, "/api/games/user/human?since=soon", "*/*").await.0, 400);
}
