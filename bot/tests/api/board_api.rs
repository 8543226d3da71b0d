//! The Board API for human accounts, and the account rules Lichess applies: `/api/bot/*` only
//! for bots, `/api/board/*` play only for the others.

use crate::common;

use common::Raw;
use engine::rules::{game::Game, Position, Variant};
use serde_json::Value;

const HUMAN: &str = "human-token";
const ALPHA: &str = "alpha-token";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The first legal move after `moves` (UCI, space-separated) from the start of `variant`.
fn next_move(variant: Variant, moves: &str) -> String {
    let mut game = Game::new(Position::startpos(variant));
    for uci in moves.split_whitespace() {
        let m = game.position().parse_uci(uci).expect("legal");
        game.play(m);
    }
    let m = game.position().legal_moves().iter().copied().next().expect("a move");
    game.position().uci(m)
}

/// Human (white) against Alpha in `variant`: the game id.
async fn human_vs_alpha(raw: &Raw, variant: &str) -> String {
    let form = [
        ("variant", variant),
        ("color", "white"),
        ("clock.limit", "600"),
        ("clock.increment", "5"),
    ];
    let (status, text) = raw.post(HUMAN, "/api/challenge/alpha", &form).await;
    assert_eq!(status, 200, "{text}");
    let id = parse(&text)["id"].as_str().expect("id").to_string();
    assert_eq!(
        raw.post(ALPHA, &format!("/api/challenge/{id}/accept"), &[]).await.0,
        200
    );
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_plays_through_the_board_api() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let variant: Variant = "persian-princess".parse().expect("variant");
    let id = human_vs_alpha(&raw, "persian-princess").await;
    let human_game = raw.lines(HUMAN, &format!("/api/board/game/stream/{id}")).await;
    let full = common::wait_line(&human_game, |v| v["type"] == "gameFull").await;
    assert_eq!(full["white"]["id"], "human");

    let mut moves = String::new();
    for ply in 0..4u32 {
        let (token, api) = if ply.is_multiple_of(2) {
            (HUMAN, "board")
        } else {
            (ALPHA, "bot")
        };
        let m = next_move(variant, &moves);
        let (status, text) = raw.post(token, &format!("/api/{api}/game/{id}/move/{m}"), &[]).await;
        assert_eq!(status, 200, "ply {ply} {m}: {text}");
        moves = format!("{moves} {m}").trim().to_string();
    }
    let state = common::wait_line(&human_game, |v| {
        v["type"] == "gameState" && v["moves"] == moves.as_str()
    })
    .await;
    assert_eq!(state["status"], "started");

    // Chat: written through the Board API, read back as Lichess's player chat.
    let form = [("room", "player"), ("text", "good luck")];
    assert_eq!(
        raw.post(HUMAN, &format!("/api/board/game/{id}/chat"), &form).await.0,
        200
    );
    let (status, text) = raw.get(HUMAN, &format!("/api/board/game/{id}/chat")).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        parse(&text),
        serde_json::json!([{"text": "good luck", "user": "Human"}])
    );
    let (_, text) = raw.get(ALPHA, &format!("/api/bot/game/{id}/chat")).await;
    assert_eq!(parse(&text)[0]["text"], "good luck");

    // Takeback: proposed by the human (to move), accepted by the bot: two plies go back.
    assert_eq!(
        raw.post(HUMAN, &format!("/api/board/game/{id}/takeback/yes"), &[])
            .await
            .0,
        200
    );
    common::wait_line(&human_game, |v| v["type"] == "gameState" && v["wtakeback"] == true).await;
    assert_eq!(
        raw.post(ALPHA, &format!("/api/bot/game/{id}/takeback/yes"), &[])
            .await
            .0,
        200
    );
    let two_back: Vec<&str> = moves.split(' ').take(2).collect();
    let two_back = two_back.join(" ");
    common::wait_line(&human_game, |v| {
        v["type"] == "gameState" && v["moves"] == two_back.as_str()
    })
    .await;

    // Draw offer declined, berserk refused (no tournaments), claims refused while the
    // opponent is here; berserk's trailing slash on claim-victory still reaches the endpoint.
    assert_eq!(
        raw.post(HUMAN, &format!("/api/board/game/{id}/draw/yes"), &[]).await.0,
        200
    );
    common::wait_line(&human_game, |v| v["type"] == "gameState" && v["wdraw"] == true).await;
    assert_eq!(
        raw.post(ALPHA, &format!("/api/bot/game/{id}/draw/no"), &[]).await.0,
        200
    );
    let (status, text) = raw.post(HUMAN, &format!("/api/board/game/{id}/berserk"), &[]).await;
    assert_eq!(status, 400, "{text}");
    let (status, text) = raw
        .post(HUMAN, &format!("/api/board/game/{id}/claim-victory/"), &[])
        .await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("claim"), "{text}");
    let (status, _) = raw.post(HUMAN, &format!("/api/board/game/{id}/claim-draw"), &[]).await;
    assert_eq!(status, 400);
    // As on Lichess, an accept value other than yes/true/1/on means no: declining (here,
    // offering nothing) is not an error, and the game goes on.
    let (status, text) = raw.post(HUMAN, &format!("/api/board/game/{id}/draw/maybe"), &[]).await;
    assert_eq!(status, 200, "{text}");

    // Resign ends it; the stream says so.
    assert_eq!(
        raw.post(HUMAN, &format!("/api/board/game/{id}/resign"), &[]).await.0,
        200
    );
    let end = common::wait_line(&human_game, |v| v["status"] == "resign").await;
    assert_eq!(end["winner"], "black");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_account_kind_has_its_own_api() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let id = human_vs_alpha(&raw, "celtic-citadel").await;
    for path in [
        format!("/api/bot/game/{id}/move/e2e4"),
        format!("/api/bot/game/{id}/resign"),
        format!("/api/bot/game/{id}/abort"),
        format!("/api/bot/game/{id}/chat"),
    ] {
        let (status, text) = raw.post(HUMAN, &path, &[]).await;
        assert_eq!(status, 400, "a human on {path}: {text}");
        assert!(parse(&text)["error"]
            .as_str()
            .is_some_and(|e| e.contains("Bot account")));
    }
    assert_eq!(raw.get(HUMAN, &format!("/api/bot/game/stream/{id}")).await.0, 400);
    for path in [
        format!("/api/board/game/{id}/move/e2e4"),
        format!("/api/board/game/{id}/resign"),
        format!("/api/board/game/{id}/takeback/yes"),
    ] {
        let (status, text) = raw.post(ALPHA, &path, &[]).await;
        assert_eq!(status, 400, "a bot on {path}: {text}");
        assert!(parse(&text)["error"]
            .as_str()
            .is_some_and(|e| e.contains("Bot account")));
    }
    assert_eq!(raw.get(ALPHA, &format!("/api/board/game/stream/{id}")).await.0, 400);
    // Not a player of the game, and an unknown game: 404.
    assert_eq!(
        raw.post("beta-token", &format!("/api/bot/game/{id}/resign"), &[])
            .await
            .0,
        404
    );
    assert_eq!(raw.post(HUMAN, "/api/board/game/nosuch/resign", &[]).await.0, 404);
    // The state is intact: the human can still abort through the Board API.
    assert_eq!(
        raw.post(HUMAN, &format!("/api/board/game/{id}/abort"), &[]).await.0,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arena_tells_the_legal_moves() {
    let arena = common::arena().await;
    let raw = Raw::new(&arena);
    let id = human_vs_alpha(&raw, "persian-princess").await;
    let (status, text) = raw.get(HUMAN, &format!("/api/arena/game/{id}/legal")).await;
    assert_eq!(status, 200, "{text}");
    let j = parse(&text);
    let variant: Variant = "persian-princess".parse().expect("variant");
    let start = Position::startpos(variant);
    assert_eq!(j["fen"], start.fen().as_str());
    assert_eq!(j["turn"], "white");
    let moves = j["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), start.legal_moves().len());
    assert!(moves.iter().all(|m| m["uci"].is_string() && m["san"].is_string()));
    assert_eq!(raw.get(HUMAN, "/api/arena/game/nosuch/legal").await.0, 404);
}
