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

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{shard_pgn, succeeded};

/// An empty folder of this test process under Cargo's folder for test files:
/// `target/tmp/trainer-pipeline-<name>-<pid>`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("trainer-pipeline-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

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
        // No equal-time match and no ladder unless the caller asks.
        .env("TIME_GAMES", "0")
        .env("LADDER_GAMES", "0")
        // The caller's settings last: they override the defaults above.
        .envs(extra.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("bash runs");
    succeeded(&out, "the command")
}

/// The games a self-play directory holds: the games its shards say they played (each shard's
/// `.json` summary, which `trainer data stats` also reports) and the distinct game ids among its
/// training records.
/// A game may leave no record (every position of a short game can be in check, noisy or a mate),
/// so the second is at most the first and both are checked; the first is what a run must reach.
fn games(dir: &Path) -> u64 {
    let (mut shards, mut played) = (0, 0);
    for entry in fs::read_dir(dir).expect("self-play directory") {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with("shard_") && name.ends_with(".json") {
            let text = fs::read_to_string(&path).expect("shard summary");
            let json: serde_json::Value = serde_json::from_str(&text).expect("shard summary is JSON");
            played += json["games"].as_u64().expect("the summary counts its games");
            shards += 1;
        }
    }
    assert!(shards > 0, "no shard in {}", dir.display());
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .args(["data", "stats"])
        .arg(dir)
        .output()
        .expect("trainer runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let ids: u64 = text
        .lines()
        .next()
        .and_then(|l| l.split("; ").nth(1))
        .and_then(|s| s.strip_suffix(" game id(s)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game id count in: {text}"));
    assert!(
        ids >= 1 && ids <= played,
        "{ids} game ids among the records of {played} games: {text}"
    );
    assert!(
        text.contains(&format!(
            "\n{played} game(s) played in the shards of 1 self-play run(s)\n"
        )),
        "the stats do not count the {played} games of the shards: {text}"
    );
    played
}

#[test]
fn two_rounds_then_nothing_left_to_do() {
    let tmp = scratch("test");
    let bin = bin_dir(&tmp);

    // Beside each SPRT: 2 games at equal time, 2 games per rung of the ladder (x1 and x2 the
    // nodes, the committed round-1 nets).
    let yardsticks = [
        ("TIME_GAMES", "2".to_string()),
        ("MATCH_TC", "movetime=5".to_string()),
        ("LADDER_GAMES", "2".to_string()),
        ("LADDER_RUNGS", "1,2".to_string()),
    ];
    let first = pipeline_with(&tmp, &bin, "2", &yardsticks);
    let variants = ["celtic-citadel", "persian-princess", "egyptian-eye", "oriental-omega"];
    for round in 1..=2 {
        for v in variants {
            let expected = if v == "egyptian-eye" { 8 } else { 6 };
            assert_eq!(
                games(&tmp.join(format!("data/r{round}-{v}"))),
                expected,
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
            // Every candidate, accepted or not, also played its opponent at equal time ...
            let t = fs::read_to_string(tmp.join(format!("runs/r{round}-all/time.{v}.txt"))).expect("time match");
            let net = if v == "celtic-citadel" {
                "net.nnue".to_string()
            } else {
                format!("net.{v}.nnue")
            };
            assert!(t.starts_with(&format!("Match r{round} (movetime=5,")), "{t}");
            let run_net = tmp.join(format!("runs/r{round}-all")).join(net);
            assert!(t.contains(&format!(",eval={}) vs ", run_net.display())), "{t}");
            assert!(t.contains(") vs hce (movetime=5,") && t.contains(",eval=hce), "), "{t}");
            assert!(t.contains(", 2 games, ") && t.contains("W/D/L:"), "{t}");
            assert!(
                first.contains(&format!(
                    "== round {round}, {v}: 2 games against hce at equal time (movetime=5)"
                )),
                "{first}"
            );
            // ... and the variant's round-1 net at 1 and 2 times its nodes.
            for k in [1, 2] {
                let l = fs::read_to_string(tmp.join(format!("runs/r{round}-all/ladder.{v}.x{k}.txt")))
                    .expect("ladder match");
                assert!(l.starts_with(&format!("Match r{round} (nodes=40,")), "{l}");
                assert!(l.contains(&format!(") vs r1-x{k} (nodes={},", 40 * k)), "{l}");
                let ladder = Path::new("data/nets/ladder").join(format!("{v}.r1.nnue"));
                assert!(l.contains(&format!(",eval={}), ", ladder.display())), "{l}");
                assert!(l.contains(", 2 games, ") && l.contains("W/D/L:"), "{l}");
            }
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
        // The equal-time match (Elo, W/D/L of 2 games) and the ladder's two rungs close the line.
        let cells: Vec<&str> = line.split(" | ").collect();
        assert_eq!(cells.len(), 10, "{line}");
        let wdl: u32 = cells[8]
            .rsplit_once(" (")
            .and_then(|(_, w)| w.trim_end_matches(')').split('/').map(|n| n.parse::<u32>().ok()).sum())
            .expect("the equal-time W/D/L");
        assert_eq!(wdl, 2, "{line}");
        assert!(cells[9].starts_with("x1 ") && cells[9].contains(" %, x2 "), "{line}");
        assert!(cells[9].ends_with(" of 2) |"), "{line}");
    }
    assert!(
        strength.contains("| installed | Elo vs previous at equal time (W/D/L) | r1 ladder (score per rung) |"),
        "{strength}"
    );
    assert!(strength.trim_end().ends_with("<!-- rounds -->"), "{strength}");

    // Everything is done: the same command skips every step and changes no file.
    let summary = fs::read(tmp.join("runs/r2-all/summary.json")).expect("summary");
    let time_match = fs::read(tmp.join("runs/r2-all/time.egyptian-eye.txt")).expect("time match");
    let again = pipeline_with(&tmp, &bin, "2", &yardsticks);
    for v in variants {
        assert!(
            again.contains(&format!("== round 2, {v}: match already played")),
            "{again}"
        );
    }
    // The fixed matches are not played again either.
    assert!(!again.contains("at equal time ("), "{again}");
    assert!(!again.contains("against the ladder"), "{again}");
    assert_eq!(
        fs::read(tmp.join("runs/r2-all/time.egyptian-eye.txt")).expect("time match"),
        time_match
    );
    assert_eq!(
        fs::read_to_string(tmp.join("strength.md")).expect("rounds table"),
        strength
    );
    assert_eq!(
        fs::read(tmp.join("runs/r2-all/summary.json")).expect("summary"),
        summary
    );

    // A second candidate of round 2 from the same records, trained from given weights with
    // another target weight, in a runs directory of its own; it plays the installed nets. Its
    // GAMES differs from the records' (made elsewhere, say): its rounds table gives the games
    // the records hold.
    let init = tmp.join("runs/r1-all/net.nnue");
    let strength_b = tmp.join("strength-b.md");
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
            ("STRENGTH", strength_b.display().to_string()),
            ("GAMES", "99".to_string()),
        ],
    );
    assert!(!second.contains(": generate ("), "{second}");
    let table_b = fs::read_to_string(&strength_b).expect("the second candidate's rounds table");
    let lines_b: Vec<&str> = table_b.lines().filter(|l| l.starts_with("| 20")).collect();
    assert_eq!(lines_b.len(), 4, "{table_b}");
    for (line, v) in lines_b.iter().zip(variants) {
        let g = if v == "egyptian-eye" { 8 } else { 6 };
        assert!(line.contains(&format!(" | 2 | {v} | {g} games, 40 nodes | ")), "{line}");
    }
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
    let tmp = scratch("noreport");
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
    let tmp = scratch("bad");
    let cases: [(&[&str], &str); 15] = [
        (
            &["--variants", "all", "--hce-openings", "parsi=openings.txt"],
            "--hce-openings: parsi is not a variant of this run",
        ),
        (
            &[
                "--variants",
                "egyptian-eye",
                "--hce-openings",
                "egyptian-eye=no-such.txt",
            ],
            "cannot read the openings of egyptian-eye from no-such.txt",
        ),
        (&["--variants", "all", "--hce-openings", "parsi"], "give VARIANT=FILE"),
        (
            &["--variants", "egyptian-eye", "--fine-tune-epochs", "1"],
            "--fine-tune-epochs: only a joint net",
        ),
        (&["--variants", "all", "--match-tc", "nodes=100"], "give a time limit"),
        (&["--variants", "all", "--ladder-rungs", "1,0"], "--ladder-rungs"),
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
            &["--variants", "all", "--king-buckets", "3"],
            "--king-buckets: king_buckets = 3: must be 0 (none), 2",
        ),
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
        "--hce-seed",
        "--hce-openings",
        "--time-games",
        "--match-tc",
        "--ladder-games",
        "--ladder-rungs",
        "--ladder-dir",
        "--fine-tune-epochs",
        "--calibrate",
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
    let tmp = scratch("ray");
    let bin = bin_dir(&tmp);
    let driver = fake_ray_python(&tmp);
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
        .args(["--install", "false", "--time-games", "0", "--ladder-games", "0"])
        .output()
        .expect("trainer runs");
    succeeded(&out, "the command");
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
    assert_eq!(games(&data), 4);
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

/// A stand-in for the Ray drivers' Python in `tmp` (it runs what the drivers would have their
/// workers run, in one process, and logs each call to `tmp/driver.log`).
fn fake_ray_python(tmp: &Path) -> PathBuf {
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
    driver
}

/// Round 1 of Oriental Omega in `tmp` whose SPRT one pair cannot decide and forty games do: the
/// candidate is the round-1 ladder net kept by a tiny learning rate, against the hand-crafted
/// evaluation with SPRT(-1000, -900), at most `cap` games (`extra`: more settings). Returns the
/// command's output.
fn undecided_round(tmp: &Path, cap: &str, extra: &[&OsStr]) -> String {
    run_in_tmp(
        Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
            .args(["pipeline", "--variants", "oriental-omega", "--games", "4"])
            .args(["--sp-nodes", "40", "--hidden", "256", "--epochs", "1"])
            .args(["--lr-later", "0.00001", "--init-from"])
            .arg(repo().join("data/nets/ladder/oriental-omega.r1.nnue"))
            .args(["--match-nodes", "40", "--match-games", cap, "--sprt=-1000,-900"])
            .args(["--threads", "2", "--time-games", "0", "--ladder-games", "0"])
            .args(extra),
        tmp,
    )
}

/// With --ray, an SPRT undecided at its cap goes on through the driver when the command runs
/// again with a larger --match-games (the driver keeps its parts in match.<variant>.ray), and the
/// net it accepts is installed. The candidate and the test as in
/// `an_undecided_match_goes_on_under_a_raised_cap`.
#[test]
fn an_undecided_ray_match_goes_on_under_a_raised_cap() {
    let tmp = scratch("ray-raised-cap");
    let bin = bin_dir(&tmp);
    let driver = fake_ray_python(&tmp);
    let run_pipeline = |cap: &str| -> String {
        let ray = [OsStr::new("--ray"), OsStr::new("--ray-python"), driver.as_os_str()];
        let bin = [OsStr::new("--bin-dir"), bin.as_os_str()];
        undecided_round(&tmp, cap, &[&ray[..], &bin[..]].concat())
    };
    let first = run_pipeline("2");
    assert!(
        first.contains("== round 1, oriental-omega: not proven stronger; hce stays"),
        "{first}"
    );
    let second = run_pipeline("40");
    assert!(
        second.contains("the match stopped undecided at its cap of 2 games; it goes on to 40"),
        "{second}"
    );
    assert!(second.contains("== round 1, oriental-omega: installed "), "{second}");
    let log = fs::read_to_string(tmp.join("driver.log")).expect("the drivers ran");
    let matches: Vec<&str> = log.lines().filter(|l| l.starts_with("match.py ")).collect();
    assert_eq!(matches.len(), 2, "{log}");
    assert!(
        matches[0].contains(" --games 2 ") && matches[1].contains(" --games 40 "),
        "{log}"
    );
    let run = tmp.join("runs/r1-oriental-omega");
    assert!(
        matches[1].contains(&format!(" --out {} ", run.join("match.oriental-omega.ray").display())),
        "{log}"
    );
    let text = fs::read_to_string(run.join("match.oriental-omega.txt")).expect("match file");
    assert!(text.contains("H1 accepted"), "{text}");
    let _ = fs::remove_dir_all(&tmp);
}

/// The settings of a toy round run by the command itself (not through the script): 40-node
/// self-play and matches, an 8-neuron net, one epoch, 2-game matches, no equal-time match and
/// no ladder.
const TOY_ROUND: [&str; 16] = [
    "--sp-nodes",
    "40",
    "--hidden",
    "8",
    "--epochs",
    "1",
    "--match-nodes",
    "40",
    "--match-games",
    "2",
    "--threads",
    "2",
    "--time-games",
    "0",
    "--ladder-games",
    "0",
];

/// The joint training starts from the newest net among the variants' (the latest round its
/// report names), not the first variant's; with --fine-tune-epochs each variant's copy is
/// fine-tuned on that variant's records alone, in a run of its own, and plays its match.
#[test]
fn newest_net_starts_the_joint_run_and_each_variant_fine_tunes() {
    let tmp = scratch("newest");
    let run_pipeline = |extra: &[&str]| -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
            .args(["pipeline", "--variants", "egyptian-eye,oriental-omega", "--games", "4"])
            .args(TOY_ROUND)
            .args(["--install", "false", "--strength", ""])
            .arg("--data-dir")
            .arg(tmp.join("data"))
            .arg("--runs-dir")
            .arg(tmp.join("runs"))
            .args(extra)
            .output()
            .expect("trainer runs");
        succeeded(&out, "the command")
    };
    run_pipeline(&[]);
    // Two toy nets installed side by side: Egyptian Eye's of round 2, Oriental Omega's of round
    // 3 (the second variant's is the newer).
    let nets = tmp.join("nets");
    fs::create_dir_all(&nets).expect("nets dir");
    let r1 = tmp.join("runs/r1-egyptian-eye+oriental-omega");
    for (v, file, round) in [
        ("egyptian-eye", "net.nnue", 2),
        ("oriental-omega", "net.oriental-omega.nnue", 3),
    ] {
        fs::copy(r1.join(file), nets.join(format!("{v}.nnue"))).expect("install a net");
        fs::write(
            nets.join(format!("{v}.md")),
            format!("# {v}.nnue\n\nRound {round} of `trainer pipeline`, accepted 2026-11-26.\n"),
        )
        .expect("report");
    }
    let nets_arg = nets.display().to_string();
    let text = run_pipeline(&[
        "--first-round",
        "4",
        "--skip-gen",
        "--window",
        "4",
        "--nets-dir",
        &nets_arg,
        "--fine-tune-epochs",
        "1",
    ]);
    let omega = nets.join("oriental-omega.nnue");
    assert!(
        text.contains(&format!(
            ", from {} (oriental-omega's r3, the newest net), lr 0.0005)",
            omega.display()
        )),
        "{text}"
    );
    let run = tmp.join("runs/r4-egyptian-eye+oriental-omega");
    let config = fs::read_to_string(run.join("config.toml")).expect("config");
    assert!(
        config.contains(&format!("init_from = {:?}", omega.display().to_string())),
        "{config}"
    );
    for (v, other, joint) in [
        ("egyptian-eye", "oriental-omega", "net.nnue"),
        ("oriental-omega", "egyptian-eye", "net.oriental-omega.nnue"),
    ] {
        let ft = run.join(format!("fine-tune.{v}"));
        let config = fs::read_to_string(ft.join("config.toml")).expect("fine-tune config");
        assert!(
            config.contains(&format!("init_from = {:?}", run.join(joint).display().to_string())),
            "{config}"
        );
        assert!(config.contains("epochs = 1"), "{config}");
        assert!(config.contains(&format!("data/r1-{v}\"")), "{config}");
        assert!(!config.contains(&format!("data/r1-{other}\"")), "{config}");
        assert!(ft.join("net.nnue").is_file());
        // The fine-tuned copy plays the variant's match, against the installed net.
        let m = fs::read_to_string(run.join(format!("match.{v}.txt"))).expect("match report");
        assert!(m.starts_with("Match r4 (nodes=40,"), "{m}");
        assert!(
            m.contains(&format!(",eval={}) vs ", ft.join("net.nnue").display())),
            "{m}"
        );
        let installed = if v == "egyptian-eye" { "r2" } else { "r3" };
        assert!(m.contains(&format!(") vs {installed} (nodes=40,")), "{m}");
    }
    let _ = fs::remove_dir_all(&tmp);
}

/// An accepted candidate's report holds its yardsticks: the equal-time match and the ladder.
/// The candidate is the Oriental Omega ladder net itself, trained one epoch at a tiny learning
/// rate, against the hand-crafted evaluation with an SPRT it passes unless it is hopeless
/// (elo0 -1000, elo1 -900).
#[test]
fn an_installed_net_reports_its_yardsticks() {
    let tmp = scratch("yard");
    let ladder = repo().join("data/nets/ladder");
    let run_pipeline = || -> String {
        run_in_tmp(
            Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
                .args([
                    "pipeline",
                    "--variants",
                    "oriental-omega",
                    "--games",
                    "4",
                    "--sp-nodes",
                    "40",
                ])
                .args([
                    "--hidden",
                    "256",
                    "--epochs",
                    "1",
                    "--lr-later",
                    "0.00001",
                    "--init-from",
                ])
                .arg(ladder.join("oriental-omega.r1.nnue"))
                .args([
                    "--match-nodes",
                    "40",
                    "--match-games",
                    "40",
                    "--sprt=-1000,-900",
                    "--threads",
                    "2",
                ])
                .args(["--time-games", "2", "--match-tc", "movetime=5", "--ladder-games", "2"])
                .args(["--ladder-rungs", "1,2", "--ladder-dir"])
                .arg(&ladder),
            &tmp,
        )
    };
    let first = run_pipeline();
    assert!(first.contains("== round 1, oriental-omega: installed "), "{first}");
    let report = fs::read_to_string(tmp.join("nets/oriental-omega.md")).expect("net report");
    let run = tmp.join("runs/r1-oriental-omega");
    assert!(
        report.contains("## Match against hce at equal time (movetime=5)\n\nElo "),
        "{report}"
    );
    let time = fs::read_to_string(run.join("time.oriental-omega.txt")).expect("time match");
    assert!(report.contains(&time), "{report}");
    assert!(report.contains("## Reference ladder\n"), "{report}");
    for (k, nodes) in [(1, 40), (2, 80)] {
        let file = run.join(format!("ladder.oriental-omega.x{k}.txt"));
        assert!(
            report.contains(&format!("| x{k} | {nodes} | ")) && report.contains(&format!("| `{}` |", file.display())),
            "{report}"
        );
    }
    assert!(
        report.contains("--time-games 2 --match-tc movetime=5 --ladder-games 2 --ladder-rungs 1,2"),
        "{report}"
    );
    // The self-play command under Data names the games played, as the round asked for them.
    assert!(
        report.contains("(`trainer selfplay --variant oriental-omega --games 4 --nodes 40 --net "),
        "{report}"
    );
    // ... and its opening settings (defaults are variant data that can change between versions).
    assert!(report.contains(" --random-plies 3 --out "), "{report}");
    let strength = fs::read_to_string(tmp.join("strength.md")).expect("rounds table");
    let line = strength.lines().find(|l| l.starts_with("| 20")).expect("a round line");
    assert!(line.contains(" | yes | "), "{line}");
    let cells: Vec<&str> = line.split(" | ").collect();
    assert_eq!(cells.len(), 10, "{line}");
    assert!(cells[8].ends_with(')') && cells[8].contains(" ("), "{line}");
    assert!(cells[9].starts_with("x1 ") && cells[9].ends_with(" of 2) |"), "{line}");

    // Again: nothing is played, installed or appended.
    let again = run_pipeline();
    assert!(!again.contains("games against"), "{again}");
    assert!(!again.contains("installed "), "{again}");
    assert_eq!(
        fs::read_to_string(tmp.join("nets/oriental-omega.md")).expect("net report"),
        report
    );
    assert_eq!(
        fs::read_to_string(tmp.join("strength.md")).expect("rounds table"),
        strength
    );
    let _ = fs::remove_dir_all(&tmp);
}

/// With a calibrated installed net (its scale not the training scale 400), the pipeline fits
/// each candidate's scale to it before the matches (`--calibrate auto`, the default): the copy
/// calibrated.<variant>.nnue plays and is installed, its report says how it was fitted; the
/// same command again changes nothing. The candidate is the installed net trained one epoch at a
/// tiny learning rate, so its fitted scale is the installed net's.
#[test]
fn a_candidate_is_calibrated_to_a_calibrated_net() {
    let tmp = scratch("calibrate");
    let trainer = env!("CARGO_BIN_EXE_persian-trainer");
    fs::create_dir_all(tmp.join("nets")).expect("nets dir");
    let installed = tmp.join("nets/oriental-omega.nnue");
    let out = Command::new(trainer)
        .args(["net", "scale"])
        .arg(repo().join("data/nets/ladder/oriental-omega.r1.nnue"))
        .args(["--set", "200", "--out"])
        .arg(&installed)
        .output()
        .expect("trainer runs");
    succeeded(&out, "net scale");
    let run_pipeline = || -> String {
        run_in_tmp(
            Command::new(trainer)
                .args(["pipeline", "--variants", "oriental-omega", "--first-round", "2"])
                .args(["--games", "4", "--sp-nodes", "40", "--hidden", "256", "--epochs", "1"])
                .args(["--lr-later", "0.00001", "--match-nodes", "40", "--match-games", "40"])
                .args([
                    "--sprt=-1000,-900",
                    "--threads",
                    "2",
                    "--time-games",
                    "0",
                    "--ladder-games",
                    "0",
                ]),
            &tmp,
        )
    };
    let first = run_pipeline();
    let run = tmp.join("runs/r2-oriental-omega");
    let calibrated = run.join("calibrated.oriental-omega.nnue");
    assert!(
        first.contains(&format!(
            "== round 2, oriental-omega: calibrated: {} is ",
            calibrated.display()
        )),
        "{first}"
    );
    let scale_of = |file: &Path| {
        nnue::format::read_any(&fs::read(file).expect("net"))
            .expect("a net")
            .network
            .scale()
    };
    let scale = scale_of(&calibrated);
    assert!((190..=210).contains(&scale), "fitted to 200: {scale}\n{first}");
    assert_eq!(scale_of(&run.join("net.nnue")), 400);
    let sprt = fs::read_to_string(run.join("match.oriental-omega.txt")).expect("match file");
    assert!(
        sprt.contains(&format!("eval={})", calibrated.display())),
        "the calibrated copy plays: {sprt}"
    );
    assert!(first.contains("== round 2, oriental-omega: installed "), "{first}");
    assert_eq!(
        fs::read(&installed).expect("installed"),
        fs::read(&calibrated).expect("calibrated")
    );
    let report = fs::read_to_string(tmp.join("nets/oriental-omega.md")).expect("net report");
    let fit = fs::read_to_string(run.join("calibration.oriental-omega.txt")).expect("the fit");
    assert!(
        report.contains(&format!("\n## Scale\n\n{}", fit.trim_end())) && fit.contains(&format!("scale {scale} cp")),
        "{report}"
    );

    // Again: nothing is fitted, played or installed.
    let again = run_pipeline();
    assert!(
        !again.contains("calibrated:") && !again.contains("installed "),
        "{again}"
    );
    assert_eq!(
        fs::read_to_string(tmp.join("nets/oriental-omega.md")).expect("net report"),
        report
    );
    let _ = fs::remove_dir_all(&tmp);
}

/// An SPRT undecided at its cap keeps the installed evaluation; the same command with a larger
/// --match-games takes that match further instead of playing it again: the games played count,
/// the SPRT goes on over all of them, and the net it accepts is installed, with a second line in
/// the rounds table for the new verdict. The candidate is the Oriental Omega ladder net kept by a
/// tiny learning rate, against the hand-crafted evaluation: one pair cannot decide an SPRT(-1000,
/// -900), forty games do.
#[test]
fn an_undecided_match_goes_on_under_a_raised_cap() {
    let tmp = scratch("raised-cap");
    let run_pipeline = |cap: &str| undecided_round(&tmp, cap, &[]);
    let first = run_pipeline("2");
    assert!(
        first.contains("== round 1, oriental-omega: not proven stronger; hce stays"),
        "{first}"
    );
    let run = tmp.join("runs/r1-oriental-omega");
    let results = run.join("match.oriental-omega.results");
    let before = fs::read_to_string(&results).expect("the match's results file");
    assert_eq!(before.lines().count(), 3, "{before}");
    // The same cap again: nothing to play.
    let same = run_pipeline("2");
    assert!(same.contains("match already played"), "{same}");
    assert_eq!(fs::read_to_string(&results).expect("results"), before);
    // Without its results file (a match of an older build) it cannot go on, and says so.
    let aside = run.join("results.aside");
    fs::rename(&results, &aside).expect("move the results aside");
    let without = run_pipeline("40");
    assert!(
        without.contains(
            "stopped undecided at 2 games, below --match-games 40, and cannot go on (it has no results file)"
        ),
        "{without}"
    );
    assert!(without.contains("match already played"), "{without}");
    fs::rename(&aside, &results).expect("put the results back");

    let second = run_pipeline("40");
    assert!(
        second.contains("the match stopped undecided at its cap of 2 games; it goes on to 40"),
        "{second}"
    );
    assert!(second.contains("== round 1, oriental-omega: installed "), "{second}");
    let text = fs::read_to_string(run.join("match.oriental-omega.txt")).expect("match file");
    assert!(
        text.contains("(2 of them played by an earlier run, counted from its results file)"),
        "{text}"
    );
    assert!(text.contains("H1 accepted"), "{text}");
    // The results file holds the whole match: its first two games as before (now in game order;
    // two games at a time end in either order), under a header for forty games.
    let after = fs::read_to_string(&results).expect("results");
    assert!(
        after.lines().next().is_some_and(|h| h.contains("\tgames=40\t")),
        "{after}"
    );
    let mut first_two: Vec<&str> = before.lines().skip(1).collect();
    first_two.sort_by_key(|l| l.split('\t').next().and_then(|n| n.parse::<usize>().ok()));
    assert_eq!(after.lines().skip(1).take(2).collect::<Vec<_>>(), first_two);
    let games = text
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L: "))
        .and_then(|w| w.split(' ').next())
        .map(|w| {
            w.split('/')
                .map(|n| n.parse::<usize>().expect("a count"))
                .sum::<usize>()
        })
        .expect("W/D/L");
    assert_eq!(after.lines().count(), 1 + games, "{after}");
    // Its games all in the PGN beside it, the first two kept.
    let pgn = fs::read_to_string(run.join("match.oriental-omega.pgn")).expect("the games");
    assert_eq!(pgn.matches("[Result ").count(), games, "{pgn}");
    // The rounds table: the verdict at the cap, then the new one.
    let strength = fs::read_to_string(tmp.join("strength.md")).expect("rounds table");
    let lines: Vec<&str> = strength.lines().filter(|l| l.starts_with("| 20")).collect();
    assert_eq!(lines.len(), 2, "{strength}");
    assert!(
        lines[0].contains(" | no | ") && lines[1].contains(" | yes | "),
        "{strength}"
    );
    let report = fs::read_to_string(tmp.join("nets/oriental-omega.md")).expect("net report");
    assert!(report.contains("played by an earlier run"), "{report}");

    // Once decided, a larger cap changes nothing.
    let decided = run_pipeline("80");
    assert!(decided.contains("match already played (H1 accepted)"), "{decided}");
    assert!(!decided.contains("installed "), "{decided}");
    let _ = fs::remove_dir_all(&tmp);
}

/// `--hce-seed` fixes the openings of the match against the hand-crafted evaluation: round 2's
/// match is the one `engine match --seed` plays from that seed, game for game, and the net's
/// report names the flag in its command.
#[test]
fn a_fixed_hce_seed_plays_that_seeds_openings() {
    let (tmp, report) = round_two_hce_match_as_engine_match("hce-seed", &["--hce-seed", "5"], &["--seed", "5"]);
    assert!(report.contains("--hce-games 4 --hce-seed 5 "), "{report}");
    let _ = fs::remove_dir_all(&tmp);
}

/// `--hce-openings VARIANT=FILE` plays that variant's match against the hand-crafted evaluation
/// from the file's openings: round 2's match is the one `engine match --openings FILE` plays,
/// game for game, and the net's report names the flag in its command.
#[test]
fn hce_openings_from_a_file_play_those_openings() {
    let dir = scratch("hce-openings-file");
    let file = dir.join("openings.txt");
    // Two openings as UCI moves from the start position; the match of 4 games plays each twice.
    fs::write(&file, "# two openings\ne3e4 e9e8\nc2d4\n").expect("openings file");
    let openings = format!("oriental-omega={}", file.display());
    let (tmp, report) = round_two_hce_match_as_engine_match(
        "hce-openings",
        &["--hce-openings", &openings],
        &["--openings", &file.display().to_string()],
    );
    assert!(report.contains(&format!("--hce-openings {openings} ")), "{report}");
    // Its games beside it, each from one of the file's openings.
    let pgn = fs::read_to_string(tmp.join("runs/r2-oriental-omega/hce.oriental-omega.pgn")).expect("the games");
    let games: Vec<&str> = pgn.split("\n\n1. ").skip(1).collect();
    assert_eq!(games.len(), 4, "{pgn}");
    for game in games {
        assert!(game.starts_with("e4 e8 ") || game.starts_with("Nd4 "), "{game}");
    }
    let _ = fs::remove_dir_all(&tmp);
    let _ = fs::remove_dir_all(&dir);
}

/// Runs two toy rounds of Oriental Omega whose round 2 plays 4 games against the hand-crafted
/// evaluation with `hce_args`, checks that match against `engine match` with `match_args` (the
/// same results and terminations), and returns the scratch directory and the net's report.
fn round_two_hce_match_as_engine_match(name: &str, hce_args: &[&str], match_args: &[&str]) -> (PathBuf, String) {
    let tmp = scratch(name);
    let text = run_in_tmp(
        Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
            .args([
                "pipeline",
                "--variants",
                "oriental-omega",
                "--rounds",
                "2",
                "--games",
                "4",
            ])
            // From the round-1 ladder net, at a learning rate that keeps it: a net learned from a
            // few toy games loses every game, which no SPRT accepts.
            .args([
                "--sp-nodes",
                "40",
                "--hidden",
                "256",
                "--epochs",
                "1",
                "--lr",
                "0.00001",
            ])
            .args(["--lr-later", "0.00001", "--init-from"])
            .arg(repo().join("data/nets/ladder/oriental-omega.r1.nnue"))
            .args(["--match-nodes", "40"])
            // Every candidate is accepted at once, so that round 2 plays the hand-crafted match.
            .args(["--match-games", "40", "--sprt=-1000,-900", "--threads", "2"])
            .args(["--hce-games", "4"])
            .args(hce_args)
            .args(["--time-games", "0", "--ladder-games", "0"]),
        &tmp,
    );
    assert!(
        text.contains("== round 2, oriental-omega: 4 games against the hand-crafted evaluation"),
        "{text}"
    );
    let run = tmp.join("runs/r2-oriental-omega");
    let hce = fs::read_to_string(run.join("hce.oriental-omega.txt")).expect("hand-crafted match");
    let engine = PathBuf::from(env!("CARGO_BIN_EXE_persian-trainer"))
        .with_file_name(format!("persian-engine{}", std::env::consts::EXE_SUFFIX));
    let first = format!("name=r2,nodes=40,hash=16,eval={}", run.join("net.nnue").display());
    let direct = Command::new(&engine)
        .args(["match", "-v", "oriental-omega", "-n", "4", "-c", "2", "--engine"])
        .arg(&first)
        .args(["--engine", "name=hce,nodes=40,hash=16,eval=hce", "--quiet"])
        .args(match_args)
        .output()
        .expect("engine runs");
    let direct = String::from_utf8_lossy(&direct.stdout).into_owned();
    let lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("W/D/L:") || l.starts_with("Pairs:") || l.starts_with("Terminations:"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(lines(&hce).len(), 3, "{hce}");
    assert_eq!(
        lines(&hce),
        lines(&direct),
        "pipeline:\n{hce}\nengine match {match_args:?}:\n{direct}"
    );
    let report = fs::read_to_string(tmp.join("nets/oriental-omega.md")).expect("net report");
    (tmp, report)
}

/// Runs a `trainer pipeline` command with its directories in `tmp` (data, runs, nets, the rounds
/// table) and returns its output; the command must succeed.
fn run_in_tmp(command: &mut Command, tmp: &Path) -> String {
    let out = command
        .arg("--data-dir")
        .arg(tmp.join("data"))
        .arg("--runs-dir")
        .arg(tmp.join("runs"))
        .arg("--nets-dir")
        .arg(tmp.join("nets"))
        .arg("--strength")
        .arg(tmp.join("strength.md"))
        .output()
        .expect("trainer runs");
    succeeded(&out, "the command")
}

/// Two games of Oriental Omega by the hand-crafted evaluation, seed 1, into `dir` (`extra`: more
/// settings).
fn hce_selfplay(dir: &Path, nodes: &str, extra: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .args([
            "selfplay",
            "--variant",
            "oriental-omega",
            "--games",
            "2",
            "--nodes",
            nodes,
        ])
        .args(["--net", "hce", "--threads", "2", "--seed", "1", "--quiet"])
        .args(extra)
        .arg("--out")
        .arg(dir)
        .output()
        .expect("trainer runs");
    succeeded(&out, "self-play");
}

/// A toy Oriental Omega round of the pipeline in `tmp` (its records in `tmp/data`), nothing
/// installed; `extra`: its settings.
fn toy_omega_round(tmp: &Path, extra: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .current_dir(repo())
        .args(["pipeline", "--variants", "oriental-omega"])
        .args(extra)
        .args(TOY_ROUND)
        .args(["--hce-games", "0", "--install", "false"])
        .arg("--data-dir")
        .arg(tmp.join("data"))
        .arg("--runs-dir")
        .arg(tmp.join("runs"))
        .arg("--strength")
        .arg(tmp.join("strength.md"))
        .output()
        .expect("trainer runs");
    succeeded(&out, "the pipeline");
}

/// A round of records played elsewhere (`--skip-gen`) is described in the rounds table by the
/// records' own search limit (their run.json), not by `--sp-nodes`, which that round never used.
#[test]
fn skipped_self_play_is_described_by_its_records() {
    let tmp = scratch("skip-gen-nodes");
    hce_selfplay(&tmp.join("data/r1-oriental-omega"), "30", &[]);
    toy_omega_round(&tmp, &["--skip-gen", "--games", "2"]);
    let strength = fs::read_to_string(tmp.join("strength.md")).expect("rounds table");
    let line = strength.lines().find(|l| l.starts_with("| 20")).expect("a round line");
    assert!(line.contains(" | 1 | oriental-omega | 2 games, 30 nodes | "), "{line}");
    let _ = fs::remove_dir_all(&tmp);
}

/// A round whose self-play began with other random plies than the variant's default (a build
/// before the default changed, as Citadel 9x8's did) is completed with the plies it began with,
/// not refused as a run with other settings.
#[test]
fn self_play_begun_with_other_random_plies_is_completed() {
    let tmp = scratch("begun-random-plies");
    let dir = tmp.join("data/r1-oriental-omega");
    hce_selfplay(&dir, "40", &["--random-plies", "2"]);
    toy_omega_round(&tmp, &["--games", "4", "--init", "false"]);
    assert_eq!(games(&dir), 4);
    let run: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("run.json")).expect("run.json")).expect("JSON");
    assert_eq!(run["settings"]["random_plies"], 2);
    let pgn = shard_pgn(&dir);
    assert_eq!(pgn.matches("[OpeningPlies \"2\"]").count(), 4, "{pgn}");
    let _ = fs::remove_dir_all(&tmp);
}
