//! Resign, draw offers and answers, and the first-move abort, against a scripted opponent (a
//! raw client on the Alpha account) on the in-process arena. Standard chess from FENs where one
//! side is far behind, so the engine's scores are clear.

use crate::common;

use std::time::Duration;

use bot::{api::types::GameState, arena::Arena, config::Config};
use common::Opponent;

/// Black has no queen and no h-rook.
const BLACK_HOPELESS: &str = "rnb1kbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1";
/// White has no queen.
const WHITE_DOWN_A_QUEEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1";

/// Alpha challenges Beta (Beta plays black) from `fen` at 5+0 and waits for the game.
async fn opponent(arena: &Arena, fen: Option<&str>) -> Opponent {
    Opponent::start(arena, "standard", fen, Some((300, 0))).await
}

fn beta_config(arena: &Arena, name: &str, f: impl FnOnce(&mut Config)) -> Config {
    let mut config = common::config(arena, "standard", common::temp_dir(name));
    // Chess from a FEN is `fromPosition` on Lichess and on the arena.
    config.challenge.variants.push("fromPosition".into());
    config.games.greeting.clear();
    config.games.goodbye.clear();
    f(&mut config);
    config
}

/// Alpha offers a draw with its first move; Beta answers by its score.
async fn answer_offer(name: &str, fen: &str) -> (GameState, Vec<GameState>, bot::game::GameReport) {
    let arena = common::arena().await;
    let mut beta = common::start_bot(beta_config(&arena, name, |_| {}), "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut alpha = opponent(&arena, Some(fen)).await;
    let first = alpha.next_state().await;
    alpha.play(&first, true).await;
    let mut seen = Vec::new();
    let end = loop {
        let s = alpha.next_state().await;
        seen.push(s.clone());
        if !s.is_running() {
            break s;
        }
        if s.move_list().len() == 2 {
            alpha.client.resign(&alpha.id).await.expect("resigned");
        }
    };
    let report = beta.next_report(Duration::from_secs(10)).await;
    beta.stop().await;
    (end, seen, report)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn accepts_a_draw_offer_when_behind() {
    let (end, _, report) = answer_offer("accept", BLACK_HOPELESS).await;
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("draw", None));
    assert_eq!(end.move_list().len(), 1, "accepted instead of moving");
    assert_eq!(report.status, "draw");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn declines_a_draw_offer_when_ahead() {
    let (end, seen, report) = answer_offer("decline", WHITE_DOWN_A_QUEEN).await;
    // The offer is seen, then declined (flag cleared) before Beta's move.
    let declined = seen
        .iter()
        .position(|s| s.move_list().len() == 1 && !s.wdraw)
        .expect("a state with the offer declined");
    assert!(seen[..declined].iter().any(|s| s.wdraw), "{seen:?}");
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("resign", Some("black")));
    assert_eq!(end.move_list().len(), 2);
    assert_eq!(report.status, "resign");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn resigns_a_hopeless_game() {
    let arena = common::arena().await;
    let config = beta_config(&arena, "resign", |c| {
        c.decisions.resign_score = -800;
        c.decisions.resign_moves = 2;
    });
    let mut beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut alpha = opponent(&arena, Some(BLACK_HOPELESS)).await;
    let first = alpha.next_state().await;
    alpha.play(&first, false).await;
    let s = alpha.wait_plies(2).await;
    assert!(s.is_running(), "one bad score is not enough: {s:?}");
    alpha.play(&s, false).await;
    let end = alpha.wait_end().await;
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("resign", Some("white")));
    assert_eq!(end.move_list().len(), 3, "resigned on its second move");
    let report = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!((report.status.as_str(), report.color.as_str()), ("resign", "black"));
    beta.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn offers_a_draw_and_the_opponent_accepts() {
    let arena = common::arena().await;
    let config = beta_config(&arena, "offer", |c| {
        c.decisions.offer_draw_after_ply = 0;
        c.decisions.offer_draw_moves = 1;
        c.decisions.offer_draw_score = 100_000;
        c.games.goodbye = "Thanks for the game!".into();
    });
    let mut beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut alpha = opponent(&arena, None).await;
    let first = alpha.next_state().await;
    alpha.play(&first, false).await;
    let s = alpha.wait_plies(2).await;
    assert!(s.bdraw, "Beta offers with its move: {s:?}");
    alpha.client.draw(&alpha.id, true).await.expect("accepted");
    let end = alpha.wait_end().await;
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("draw", None));
    let report = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!(report.status, "draw");
    beta.stop().await;
    assert_eq!(goodbyes(&arena), 1, "a played game ends with the goodbye");
}

/// Chat messages Beta sent.
fn goodbyes(arena: &Arena) -> usize {
    arena
        .requests()
        .iter()
        .filter(|r| r.endpoint == bot::arena::Endpoint::Chat && r.user.as_deref() == Some("beta"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn aborts_when_the_opponent_never_moves() {
    let arena = common::arena().await;
    let config = beta_config(&arena, "abort", |c| {
        c.decisions.abort_first_move_seconds = 1;
        c.games.goodbye = "Thanks for the game!".into();
    });
    let mut beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let started = std::time::Instant::now();
    let mut alpha = opponent(&arena, None).await;
    let end = alpha.wait_end().await;
    let waited = started.elapsed();
    assert_eq!((end.status.as_str(), end.winner.as_deref()), ("aborted", None));
    assert!(end.move_list().is_empty());
    assert!(waited >= Duration::from_millis(900), "aborted too early: {waited:?}");
    assert!(waited < Duration::from_secs(6), "aborted too late: {waited:?}");
    let report = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!(report.status, "aborted");
    beta.stop().await;
    assert_eq!(goodbyes(&arena), 0, "no goodbye in a game that never started");
}
