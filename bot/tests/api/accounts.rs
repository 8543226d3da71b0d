//! Matchmaking (an idle bot challenges a bot online) and `bot upgrade` (with and without the
//! confirmation), on the in-process arena.

use crate::common;

use std::time::Duration;

use bot::arena::{Arena, Endpoint};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_idle_bot_challenges_a_bot_online() {
    let arena = common::arena().await;
    let dir = common::temp_dir("matchmaking");
    let mut beta = common::start_bot(common::config(&arena, "oriental-omega", dir.join("beta")), "beta-token").await;
    common::wait_event_streams(&arena, "beta", 1).await;
    let mut config = common::config(&arena, "oriental-omega", dir.join("alpha"));
    config.matchmaking.enabled = true;
    config.matchmaking.interval_s = 1;
    config.matchmaking.variants = vec!["oriental-omega".into()];
    config.matchmaking.clocks = vec![bot::config::Clock {
        limit_s: 60,
        increment_s: 1,
    }];
    config.engine.nodes = Some(300);
    let mut alpha = common::start_bot(config, "alpha-token").await;
    let a = alpha.next_report(Duration::from_secs(60)).await;
    let b = beta.next_report(Duration::from_secs(10)).await;
    assert_eq!(a.id, b.id);
    assert!(a.plies > 0);
    let requests = arena.requests();
    let by_alpha = |e: Endpoint| {
        requests
            .iter()
            .filter(|r| r.endpoint == e && r.user.as_deref() == Some("alpha"))
            .count()
    };
    assert!(by_alpha(Endpoint::OnlineBots) >= 1);
    assert!(by_alpha(Endpoint::CreateChallenge) >= 1);
    let challenge = requests
        .iter()
        .find(|r| r.endpoint == Endpoint::CreateChallenge)
        .expect("a challenge");
    assert_eq!(challenge.path, "/api/challenge/Beta");
    assert!(challenge.form.contains(&("variant".into(), "oriental-omega".into())));
    assert!(challenge.form.contains(&("clock.limit".into(), "60".into())));
    alpha.stop().await;
    beta.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

async fn arena_with_newcomer() -> Arena {
    common::arena_with(vec![common::account("Newcomer", false, &[])]).await
}

/// Runs `bot upgrade` against the arena with `input` on stdin.
async fn upgrade(arena: &Arena, args: &[&str], input: &str) -> std::process::Output {
    let dir = common::temp_dir(&format!("upgrade-{}", args.len()));
    std::fs::create_dir_all(&dir).expect("dir");
    let config = dir.join("bot.toml");
    std::fs::write(&config, format!("[server]\nurl = \"{}\"\n", arena.url())).expect("config");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_persian-bot"));
    command
        .arg("upgrade")
        .arg("--config")
        .arg(&config)
        .args(args)
        .env("LICHESS_BOT_TOKEN", "newcomer-token")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let input = input.to_string();
    tokio::task::spawn_blocking(move || {
        use std::io::Write as _;
        let mut child = command.spawn().expect("bot runs");
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(input.as_bytes());
        }
        child.wait_with_output().expect("bot ends")
    })
    .await
    .expect("joined")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upgrade_asks_for_the_account_name() {
    let arena = arena_with_newcomer().await;
    let newcomer = common::client(&arena, "newcomer-token");
    let refused = upgrade(&arena, &[], "someone else\n").await;
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("not confirmed"), "{stderr}");
    assert!(!newcomer.account().await.expect("account").is_bot());

    let done = upgrade(&arena, &[], "newcomer\n").await;
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert!(String::from_utf8_lossy(&done.stdout).contains("is now a BOT account"));
    assert!(newcomer.account().await.expect("account").is_bot());

    let again = upgrade(&arena, &["--yes"], "").await;
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("already a BOT account"));
    let upgrades = arena
        .requests()
        .iter()
        .filter(|r| r.endpoint == Endpoint::Upgrade)
        .count();
    assert_eq!(upgrades, 1, "asked once, refused once, nothing to do once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_scopes_are_checked_at_start() {
    let arena = common::arena_with(vec![
        common::account("Limited", true, &["challenge:read"]),
        common::account("Partial", true, &["bot:play", "challenge:read"]),
    ])
    .await;
    let config = common::config(&arena, "persian-princess", common::temp_dir("scopes"));
    let err = bot::events::Bot::connect(config.clone(), bot::api::Token::new("limited-token"))
        .await
        .err()
        .expect("no bot:play: refused");
    let text = format!("{err:#}");
    assert!(text.contains("bot:play") && text.contains("challenge:write"), "{text}");
    assert!(
        !text.contains("limited-token"),
        "the token is never in messages: {text}"
    );
    // Missing challenge:write only warns.
    bot::events::Bot::connect(config, bot::api::Token::new("partial-token"))
        .await
        .expect("bot:play is enough to start");
}

/// `bot play` with two configurations: two bots (accounts Alpha and Beta, different strength
/// levels) in one process, each with its own event stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_bot_play_runs_a_bot_per_configuration() {
    let arena = common::arena().await;
    let dir = common::temp_dir("levels");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut configs = Vec::new();
    for (name, level) in [("alpha", 2), ("beta", 15)] {
        std::fs::write(dir.join(name), format!("{name}-token")).expect("token file");
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(
            &path,
            format!(
                "[server]\nurl = \"{}\"\ntoken_env = \"NO_SUCH_TOKEN_VARIABLE\"\ntoken_file = \"{name}\"\n\n\
                 [engine]\nskill = {level}\n\n[games]\npgn_dir = \"games-{name}\"\non_shutdown = \"leave\"\n",
                arena.url()
            ),
        )
        .expect("config written");
        configs.push(path);
    }
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_persian-bot"));
    command.arg("play");
    for c in &configs {
        command.arg("--config").arg(c);
    }
    let mut child = command
        .current_dir(&dir)
        .env_remove("NO_SUCH_TOKEN_VARIABLE")
        .env("RUST_LOG", "error")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("bot starts");
    let started = std::time::Instant::now();
    let opened = |user: &str| arena.stats().event_stream_opens.get(user).copied().unwrap_or(0) >= 1;
    while !(opened("alpha") && opened("beta")) && started.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let running = child.try_wait().expect("child").is_none();
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(running, "bot play exited early");
    assert!(
        opened("alpha") && opened("beta"),
        "both bots opened their event streams"
    );
}
