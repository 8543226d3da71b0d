//! Compatibility with the official Lichess Python client: `tests/berserk/suite.py` (berserk as
//! the human side) against a real `bot arena` process and a real `bot play` process.
//!
//! The suite needs a Python with berserk 0.14. `.ci/run` makes one in `target/berserk-venv`
//! (`python3 -m venv target/berserk-venv && target/berserk-venv/bin/pip install berserk==0.14.0`);
//! `BERSERK_PYTHON` names another. Without one the test says so and passes, unless
//! `REQUIRE_BERSERK=1` (set by `.ci/run`) makes that a failure.

use crate::common;

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use common::{add_account, bot_command as bot, ArenaProcess};

/// Kills the process when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("BERSERK_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/berserk-venv/bin/python");
    venv.exists().then_some(venv)
}

#[test]
fn berserk_against_a_real_arena_and_bot() {
    let Some(python) = python() else {
        let required = std::env::var("REQUIRE_BERSERK").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "REQUIRE_BERSERK=1 but no Python with berserk (see this file's header)"
        );
        eprintln!("berserk suite skipped: no target/berserk-venv and no BERSERK_PYTHON");
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-berserk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("arena.sqlite");
    let carol = add_account(&db, "Carol", false, &[]);
    let dave = add_account(&db, "Dave", false, &[]);
    let robo = add_account(&db, "Robo", true, &[]);
    let arena = ArenaProcess::start(&db);
    let url = arena.url.clone();

    // The bot: real time only, small searches, never accepts a draw (the suite offers one).
    let config = dir.join("bot.toml");
    std::fs::write(
        &config,
        format!(
            "[server]\nurl = \"{url}\"\n\n[engine]\nhash_mb = 8\nnodes = 200\nmove_overhead_ms = 50\n\n\
             [challenge]\nvariants = [\"standard\", \"fromPosition\", \"persian-princess\"]\nmax_games = 4\n\n\
             [games]\npgn_dir = \"{}\"\ngreeting = \"\"\n\n[network]\nbackoff_base_ms = 50\n\n\
             [decisions]\naccept_draw_score = -100000\nabort_first_move_seconds = 0\n",
            dir.join("games").display()
        ),
    )
    .expect("config");
    let player = bot()
        .args(["play", "--config"])
        .arg(&config)
        .env("LICHESS_BOT_TOKEN", &robo)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("bot play starts");
    let _player = Running(player);

    // Wait until the bot is online.
    let started = Instant::now();
    loop {
        if http_get(&url, "/api/bot/online").contains("\"robo\"") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the bot did not come online"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/berserk/suite.py");
    let out = Command::new(&python)
        .arg(&suite)
        .args([&url, &carol, &dave, "Robo"])
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(out.status.success(), "berserk suite failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("berserk suite: all passed"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plain HTTP GET over a socket: the response text (empty on any error).
fn http_get(url: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let host = url.trim_start_matches("http://");
    let Ok(mut conn) = std::net::TcpStream::connect(host) else {
        return String::new();
    };
    let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    if conn.write_all(request.as_bytes()).is_err() {
        return String::new();
    }
    let mut text = String::new();
    let _ = conn.read_to_string(&mut text);
    text
}
