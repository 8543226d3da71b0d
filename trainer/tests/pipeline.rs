//! `trainer pipeline` end to end at a toy scale, through `scripts/pipeline.sh` (which maps its
//! environment variables to the command's flags): two rounds of the four Persian sub-variants
//! (self-play, joint training, SPRT matches, the rounds table), then the same command again,
//! which must find every step done and change nothing; then a second candidate of round 2
//! (`INIT_FROM`, another `WDL`, its own `RUNS_DIR`) trained on the same records. The command's
//! own checks of its flags are tested directly.
//!
//! The script runs the trainer of one directory (BIN_DIR); the test links the one cargo built for
//! this test run (and the engine beside it: `cargo test --workspace` builds both), which needs
//! Unix symlinks; the script is bash anyway.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("repository root")
}

/// A directory holding `persian-trainer` and `persian-engine`, as the pipeline's BIN_DIR wants them.
fn bin_dir(tmp: &Path) -> PathBuf {
    let trainer = PathBuf::from(env!("CARGO_BIN_EXE_persian-trainer"));
    let engine = trainer.with_file_name(format!("persian-engine{}", std::env::consts::EXE_SUFFIX));
    assert!(
        engine.exists(),
        "{} is missing: build it first (`cargo build -p engine`, or run `cargo test --workspace`)",
        engine.display()
    );
    let dir = tmp.join("bin");
    fs::create_dir_all(&dir).expect("bin dir");
    std::os::unix::fs::symlink(&trainer, dir.join("persian-trainer")).expect("link trainer");
    std::os::unix::fs::symlink(&engine, dir.join("persian-engine")).expect("link engine");
    dir
}

fn pipeline(tmp: &Path, bin: &Path, rounds: &str) -> String {
    pipeline_with(tmp, bin, rounds, &[])
}

fn pipeline_with(tmp: &Path, bin: &Path, rounds: &str, extra: &[(&str, String)]) -> String {
    pipeline_at(&repo(), tmp, bin, rounds, extra)
}

/// The pipeline of the checkout `root` (it works in `root`: data/nets there are the installed nets).
fn pipeline_at(root: &Path, tmp: &Path, bin: &Path, rounds: &str, extra: &[(&str, String)]) -> String {
    let out = Command::new("bash")
        .arg(root.join("scripts/pipeline.sh"))
        .args(["all", rounds])
        .env("BUILD", "0")
        .env("BIN_DIR", bin)
        .env("DATA_DIR", tmp.join("data"))
        .env("RUNS_DIR", tmp.join("runs"))
        .env("STRENGTH", tmp.join("strength.md"))
        .env("INSTALL", "0")
        .env("GAMES", "6")
        .env("GAMES_BY_VARIANT", "egyptian-eye=8")
        .env("SP_NODES", "40")
        .env("HIDDEN", "8")
        .env("EPOCHS", "1")
        .env("WINDOW", "2")
        .env("MATCH_NODES", "40")
        .env("MATCH_GAMES", "4")
        .env("THREADS", "2")
        // The caller's settings last: they override the defaults above.
        .envs(extra.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("bash runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "pipeline failed:\n{text}");
    text
}

/// The number of games in a self-play directory, from `trainer data stats`.
fn games(dir: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .args(["data", "stats"])
        .arg(dir)
        .output()
        .expect("trainer runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines()
        .next()
        .and_then(|l| l.split("; ").nth(1))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn two_rounds_then_nothing_left_to_do() {
    let tmp = std::env::temp_dir().join(format!("trainer-pipeline-test-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).expect("temp dir");
    let bin = bin_dir(&tmp);

    let first = pipeline(&tmp, &bin, "2");
    let variants = ["celtic-citadel", "persian-princess", "egyptian-eye", "oriental-omega"];
    for round in 1..=2 {
        for v in variants {
            let expected = if v == "egyptian-eye" { 8 } else { 6 };
            assert_eq!(
                games(&tmp.join(format!("data/r{round}-{v}"))),
                format!("{expected} game id(s)"),
                "round {round}, {v}"
            );
            assert!(
                first.contains(&format!(
                    "== round {round}, {v}: generate ({expected} games, 40 nodes, eval hce)"
                )),
                "{first}"
            );
            let m = fs::read_to_string(tmp.join(format!("runs/r{round}-all/match.{v}.txt"))).expect("match report");
            assert!(m.contains("W/D/L:"), "{m}");
            assert!(m.starts_with(&format!("Match r{round} (nodes=40,")), "{m}");
            assert!(m.contains(") vs hce (nodes=40,"), "{m}");
        }
    }
    // Four games cannot prove a net stronger, so round 2 plays with the hand-crafted evaluation
    // again and trains from scratch on the window of rounds 1 and 2.
    let config = fs::read_to_string(tmp.join("runs/r2-all/config.toml")).expect("config");
    for round in 1..=2 {
        for v in variants {
            assert!(config.contains(&format!("data/r{round}-{v}\"")), "{config}");
        }
    }
    assert!(!config.contains("init_from"), "{config}");
    assert!(config.contains("hidden = 8"), "{config}");

    // One line per round and variant in the rounds table, in order, before the marker.
    let strength = fs::read_to_string(tmp.join("strength.md")).expect("rounds table");
    let lines: Vec<&str> = strength.lines().filter(|l| l.starts_with("| 20")).collect();
    assert_eq!(lines.len(), 8, "{strength}");
    for (i, line) in lines.iter().enumerate() {
        let v = variants[i % 4];
        let g = if v == "egyptian-eye" { 8 } else { 6 };
        assert!(
            line.contains(&format!(" | {} | {v} | {g} games, 40 nodes | ", i / 4 + 1)),
            "{line}"
        );
    }
    assert!(strength.trim_end().ends_with("<!-- rounds -->"), "{strength}");

    // Everything is done: the same command skips every step and changes no file.
    let summary = fs::read(tmp.join("runs/r2-all/summary.json")).expect("summary");
    let again = pipeline(&tmp, &bin, "2");
    for v in variants {
        assert!(
            again.contains(&format!("== round 2, {v}: match already played")),
            "{again}"
        );
    }
    assert_eq!(
        fs::read_to_string(tmp.join("strength.md")).expect("rounds table"),
        strength
    );
    assert_eq!(
        fs::read(tmp.join("runs/r2-all/summary.json")).expect("summary"),
        summary
    );

    // A second candidate of round 2 from the same records, trained from given weights with
    // another target weight, in a runs directory of its own; it plays the installed nets.
    let init = tmp.join("runs/r1-all/net.nnue");
    let second = pipeline_with(
        &tmp,
        &bin,
        "2",
        &[
            ("FIRST_ROUND", "2".to_string()),
            ("SKIP_GEN", "1".to_string()),
            ("WDL", "0.25".to_string()),
            ("INIT_FROM", init.display().to_string()),
            ("RUNS_DIR", tmp.join("runs-b").display().to_string()),
            ("STRENGTH", String::new()),
        ],
    );
    assert!(!second.contains(": generate ("), "{second}");
    let config = fs::read_to_string(tmp.join("runs-b/r2-all/config.toml")).expect("config");
    assert!(
        config.contains(&format!("init_from = {:?}", init.display().to_string())),
        "{config}"
    );
    assert!(config.contains("wdl = 0.25"), "{config}");
    for v in variants {
        let m = fs::read_to_string(tmp.join(format!("runs-b/r2-all/match.{v}.txt"))).expect("match report");
        assert!(m.contains("W/D/L:"), "{m}");
        // The installed net is named by the round its report gives, not "r1" (the round before
        // FIRST_ROUND): nets of different rounds can be installed side by side.
        let report = fs::read_to_string(repo().join(format!("data/nets/{v}.md"))).expect("net report");
        let installed = report
            .lines()
            .find_map(|l| l.strip_prefix("Round ")?.split_once(" of ").map(|(n, _)| n.to_string()))
            .expect("the report names its round");
        assert!(m.contains(&format!(") vs r{installed} (nodes=40,")), "{m}");
    }

    // A bad GAMES_BY_VARIANT is refused before anything runs.
    let bad = Command::new("bash")
        .arg(repo().join("scripts/pipeline.sh"))
        .args(["all", "1"])
        .env("BUILD", "0")
        .env("BIN_DIR", &bin)
        .env("GAMES_BY_VARIANT", "parsi=10")
        .output()
        .expect("bash runs");
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("GAMES_BY_VARIANT: parsi is not a variant of this run"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    let _ = fs::remove_dir_all(&tmp);
}

/// Installed nets without their reports (copied by hand, say) are named "installed" in the
/// matches, and their missing reports do not stop the run.
#[test]
fn installed_nets_without_reports() {
    let tmp = std::env::temp_dir().join(format!("trainer-pipeline-noreport-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    let root = tmp.join("checkout");
    fs::create_dir_all(root.join("scripts")).expect("scripts dir");
    fs::create_dir_all(root.join("data/nets")).expect("nets dir");
    fs::copy(repo().join("scripts/pipeline.sh"), root.join("scripts/pipeline.sh")).expect("copy the pipeline");
    let variants = ["celtic-citadel", "persian-princess", "egyptian-eye", "oriental-omega"];
    for v in variants {
        fs::copy(
            repo().join(format!("data/nets/{v}.nnue")),
            root.join(format!("data/nets/{v}.nnue")),
        )
        .expect("copy a net");
    }
    let bin = bin_dir(&tmp);
    pipeline_at(
        &root,
        &tmp,
        &bin,
        "2",
        &[
            ("FIRST_ROUND", "2".to_string()),
            ("GAMES_BY_VARIANT", String::new()),
            // A toy net of 8 hidden neurons cannot start from the installed 256-neuron ones.
            ("INIT", "0".to_string()),
        ],
    );
    for v in variants {
        let m = fs::read_to_string(tmp.join(format!("runs/r2-all/match.{v}.txt"))).expect("match report");
        assert!(m.starts_with("Match r2 (nodes=40,"), "{m}");
        assert!(m.contains(") vs installed (nodes=40,"), "{m}");
    }
    let _ = fs::remove_dir_all(&tmp);
}

/// `trainer pipeline` itself refuses bad settings before anything runs, with the setting named.
#[test]
fn command_refuses_bad_settings() {
    let tmp = std::env::temp_dir().join(format!("trainer-pipeline-bad-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).expect("temp dir");
    let cases: [(&[&str], &str); 8] = [
        (
            &["--variants", "all", "--games-by-variant", "parsi=10"],
            "parsi is not a variant of this run",
        ),
        (
            &["--variants", "all", "--games-by-variant", "egyptian-eye"],
            "is not VARIANT=GAMES",
        ),
        (&["--variants", "nonsense"], "unknown variant 'nonsense'"),
        (&["--variants", "all", "--sprt", "50"], "--sprt"),
        (
            &["--variants", "all", "--init-from", "no-such.nnue"],
            "--init-from: no-such.nnue is not a file",
        ),
        (&["--variants", "all", "--init", "maybe"], "--init"),
        (
            &["--variants", "all", "--first-round", "3", "--rounds", "2"],
            "before --first-round 3",
        ),
        (
            &["--variants", "all", "--first-round", "2", "--nets-dir", "none"],
            "none/celtic-citadel.nnue is missing",
        ),
    ];
    for (args, message) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
            .arg("pipeline")
            .args(args)
            .current_dir(&tmp)
            .output()
            .expect("trainer runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // Nothing was written.
    assert_eq!(fs::read_dir(&tmp).expect("temp dir").count(), 0);
    let _ = fs::remove_dir_all(&tmp);
}

/// `--help` explains every setting of the script's environment.
#[test]
fn help_names_every_setting() {
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .args(["pipeline", "--help"])
        .output()
        .expect("trainer runs");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{help}");
    for flag in [
        "--variants",
        "--rounds",
        "--games",
        "--games-by-variant",
        "--sp-nodes",
        "--hidden",
        "--epochs",
        "--wdl",
        "--lr",
        "--lr-later",
        "--init",
        "--init-from",
        "--name",
        "--previous-name",
        "--window",
        "--first-round",
        "--match-nodes",
        "--match-games",
        "--sprt",
        "--threads",
        "--hce-games",
        "--seed",
        "--data-dir",
        "--runs-dir",
        "--install",
        "--strength",
        "--bin-dir",
        "--skip-gen",
        "--ray",
        "--ray-python",
    ] {
        assert!(
            help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
            "{flag}: {help}"
        );
    }
}

/// `--ray` hands self-play and the SPRT matches to the Ray drivers with the binaries of
/// `--bin-dir`. A stand-in for the drivers' Python (it runs what the drivers would have their
/// workers run, in one process) checks what the pipeline gives them and what it takes back.
#[test]
fn ray_mode_through_the_drivers() {
    let tmp = std::env::temp_dir().join(format!("trainer-pipeline-ray-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).expect("temp dir");
    let bin = bin_dir(&tmp);
    let driver = tmp.join("fake-python");
    fs::write(
        &driver,
        r#"#!/usr/bin/env bash
# fake-python scripts/ray/<job>.py --trainer|--engine BIN --games N [--sprt S] --out DIR -- ARGS...
set -euo pipefail
job=$(basename "$1"); shift
echo "$job $*" >> "$(dirname "$0")/driver.log"
bin=$2; games=$4; shift 4
sprt=()
if [[ "$1" == --sprt ]]; then sprt=(--sprt "$2"); shift 2; fi
out=$2; shift 3
case "$job" in
    selfplay.py) "$bin" selfplay "$@" --games "$games" --out "$out" --quiet ;;
    match.py)
        mkdir -p "$out"
        "$bin" match "$@" --games "$games" "${sprt[@]}" --pgn "$out/games.pgn" --quiet > "$out/summary.txt" ;;
esac
"#,
    )
    .expect("driver");
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&driver, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .args([
            "pipeline",
            "--variants",
            "oriental-omega",
            "--ray",
            "--games",
            "4",
            "--sp-nodes",
            "40",
        ])
        .args([
            "--hidden",
            "8",
            "--epochs",
            "1",
            "--match-nodes",
            "40",
            "--match-games",
            "4",
            "--threads",
            "2",
        ])
        .arg("--ray-python")
        .arg(&driver)
        .arg("--bin-dir")
        .arg(&bin)
        .arg("--data-dir")
        .arg(tmp.join("data"))
        .arg("--runs-dir")
        .arg(tmp.join("runs"))
        .arg("--strength")
        .arg(tmp.join("strength.md"))
        .args(["--install", "false"])
        .output()
        .expect("trainer runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    let log = fs::read_to_string(tmp.join("driver.log")).expect("the drivers ran");
    let data = tmp.join("data/r1-oriental-omega");
    assert!(
        log.contains(&format!(
            "selfplay.py --trainer {} --games 4 --out {} -- --variant oriental-omega --nodes 40 --net hce --seed 1",
            bin.join("persian-trainer").display(),
            data.display()
        )),
        "{log}"
    );
    let run = tmp.join("runs/r1-oriental-omega");
    assert!(
        log.contains(&format!(
            "match.py --engine {} --games 4 --sprt 0,50 --out {} -- --variant oriental-omega \
             --first name=r1,nodes=40,eval={} --second name=hce,nodes=40,eval=hce --seed 1",
            bin.join("persian-engine").display(),
            run.join("match.oriental-omega.ray").display(),
            run.join("net.nnue").display()
        )),
        "{log}"
    );
    assert_eq!(games(&data), "4 game id(s)");
    // The merged summary becomes the match file, its games the match's PGN, its verdict the line.
    let m = fs::read_to_string(run.join("match.oriental-omega.txt")).expect("match report");
    assert!(m.starts_with("Match r1 (nodes=40,"), "{m}");
    assert!(m.contains("W/D/L:"), "{m}");
    assert!(run.join("match.oriental-omega.pgn").is_file());
    let strength = fs::read_to_string(tmp.join("strength.md")).expect("rounds table");
    let line = strength.lines().find(|l| l.starts_with("| 20")).expect("a round line");
    assert!(line.contains(" | 1 | oriental-omega | 4 games, 40 nodes | "), "{line}");
    assert!(line.contains("accepted (") || line.contains("inconclusive ("), "{line}");
    let _ = fs::remove_dir_all(&tmp);
}
