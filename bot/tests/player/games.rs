//! Full games on the in-process arena in every registered variant (`Variant::ALL`, by its server
//! key): bot against bot (the game ends with a legal result and both bots save a PGN that the
//! engine's PGN reader reads back), and the bot against a scripted opponent that plays the first
//! legal move (the bot does not lose, sends no refused move, and reports the arena's result).
//! The variants are played two at a time, each on an arena of its own.

use crate::common;

use std::time::Duration;

use engine::rules::{game::Game, notation::pgn::read_game, Variant};

/// Runs `each` for every registered variant's server key, two at a time.
async fn every_variant<F, Fut>(each: F)
where
    F: Fn(&'static str) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    use futures::stream::StreamExt;
    futures::stream::iter(Variant::ALL.iter().map(|v| each(v.spec().server_key)))
        .buffer_unordered(2)
        .collect::<Vec<()>>()
        .await;
}

async fn full_game(variant: &'static str) {
    let arena = common::arena().await;
    let dir = common::temp_dir(variant);
    // Played to the end on the board: no resignations, no draw offers.
    let config = |name: &str| {
        let mut c = common::config(&arena, variant, dir.join(name));
        c.decisions.resign_score = 0;
        c.decisions.offer_draw_moves = 0;
        c
    };
    let mut alpha = common::start_bot(config("alpha"), "alpha-token").await;
    let mut beta = common::start_bot(config("beta"), "beta-token").await;
    let client = common::client(&arena, "alpha-token");
    client
        .create_challenge("beta", &common::request(variant, Some((120, 1)), false, "white"))
        .await
        .expect("challenge created");
    let a = alpha.next_report(Duration::from_secs(40)).await;
    let b = beta.next_report(Duration::from_secs(40)).await;
    assert_eq!(a.id, b.id);
    assert_eq!((a.color.as_str(), b.color.as_str()), ("white", "black"));
    assert_eq!((&a.status, &a.winner), (&b.status, &b.winner));
    assert!(
        matches!(a.status.as_str(), "mate" | "stalemate" | "draw"),
        "{variant}: unexpected status {}",
        a.status
    );
    assert_eq!(a.status == "mate", a.winner.is_some());
    for report in [&a, &b] {
        let path = report.pgn.as_ref().expect("PGN saved");
        let text = std::fs::read_to_string(path).expect("PGN readable");
        let fallback: Variant = variant.parse().expect("variant");
        let game = read_game(&text, fallback).expect("PGN parses").expect("one game");
        assert_eq!(game.variant(), fallback);
        // A name, never a key (the bot's PGN names: Lichess's for chess, the display name where
        // the engine's PGN name is the id).
        let tag = format!("[Variant \"{}\"]", bot::variants::pgn_name(fallback, false));
        assert!(!tag.contains('-'), "{tag}");
        assert!(text.contains(&tag), "{variant}: {tag} expected in\n{text}");
        assert_eq!(
            game.moves.len(),
            report.plies,
            "the moves read back past their comments"
        );
        // As lichess-bot writes them: our evaluation after each of our moves, the mover's
        // clock after every move the bot saw.
        let own = if report.color == "white" {
            report.plies.div_ceil(2)
        } else {
            report.plies / 2
        };
        assert_eq!(text.matches("[%eval ").count(), own, "{variant}: {text}");
        let clocks = text.matches("[%clk ").count();
        assert!(
            clocks > report.plies / 2 && clocks <= report.plies,
            "{variant}: {clocks} clocks in\n{text}"
        );
        let mut replay = Game::new(game.start.clone());
        for &m in &game.moves {
            replay.play(m);
        }
        let expected = bot::pgn::result(&report.status, report.winner.as_deref());
        assert_eq!(game.result, expected);
        // The end position agrees with the result the arena gave.
        let outcome = replay.outcome().expect("the game is over on the board");
        assert_eq!(outcome.result(), expected, "{variant}: {}", outcome.description());
    }
    alpha.stop().await;
    beta.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn full_games_in_every_variant() {
    every_variant(full_game).await;
}

/// `bot demo --variant citadel-9`: the arena in-process, Alpha challenges Beta, one game to
/// the end, both bots report it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_demo_plays_a_citadel_game() {
    let dir = common::temp_dir("demo-citadel-9");
    let summary = bot::demo::run(bot::demo::DemoOptions {
        variant: Variant::Citadel9,
        nodes: 2000,
        pgn_dir: dir.clone(),
        print_moves: false,
        timeout: Duration::from_secs(120),
        ..bot::demo::DemoOptions::default()
    })
    .await
    .expect("the demo game finishes");
    assert_eq!(summary.reports.len(), 2);
    let (a, b) = (&summary.reports[0], &summary.reports[1]);
    assert_eq!(a.id, b.id);
    assert_eq!((&a.status, &a.winner, a.plies), (&b.status, &b.winner, b.plies));
    assert!(a.plies > 0 && a.refused_moves == 0 && b.refused_moves == 0);
    for report in [a, b] {
        let text = std::fs::read_to_string(report.pgn.as_ref().expect("PGN saved")).expect("PGN readable");
        assert!(text.contains("[Variant \"Citadel 9\"]"), "{text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Beta (the bot) against a scripted opponent that plays the first legal move, to the end.
async fn against_a_scripted_opponent(variant: &'static str) {
    let arena = common::arena().await;
    let dir = common::temp_dir(&format!("scripted-{variant}"));
    let mut config = common::config(&arena, variant, dir.clone());
    config.decisions.offer_draw_moves = 0;
    let mut beta = common::start_bot(config, "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut alpha = common::Opponent::start(&arena, variant, None, Some((300, 2))).await;
    let mut s = alpha.next_state().await;
    while s.is_running() {
        assert!(s.move_list().len() < 500, "{variant}: the game should end");
        if alpha.to_move(&s) {
            alpha.play(&s, false).await;
        }
        s = alpha.next_state().await;
    }
    assert!(
        matches!(s.status.as_str(), "mate" | "stalemate" | "draw"),
        "{variant}: ended on the board, not {}",
        s.status
    );
    if s.status == "mate" {
        assert_eq!(
            s.winner.as_deref(),
            Some("black"),
            "{variant}: the bot should not lose to first-legal-move play"
        );
    }
    let report = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!(
        (report.id.as_str(), report.status.as_str()),
        (alpha.id.as_str(), s.status.as_str())
    );
    assert_eq!(report.plies, s.move_list().len());
    assert_eq!(arena.stats().refused_moves, 0);
    beta.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_variant_against_a_scripted_opponent() {
    every_variant(against_a_scripted_opponent).await;
}
