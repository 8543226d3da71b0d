//! `engine spsa` through the command line: a tiny run writes its state, its CSV and its result,
//! a second run of the same command resumes without playing again, and a run resumed from an
//! earlier iteration plays only the iterations left, ending as the uninterrupted run did.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

const ENGINE: &str = env!("CARGO_BIN_EXE_persian-engine");

fn temp_dir(tag: &str) -> PathBuf {
    let path =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("engine-spsa-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    path
}

/// Runs `engine spsa` with 2 iterations of 1 pair at 300 nodes (and `extra`), asserting success;
/// returns what it printed.
fn spsa(out: &Path, extra: &[&str]) -> String {
    let output = Command::new(ENGINE)
        .args([
            "spsa",
            "-v",
            "persian-princess",
            "--nodes",
            "300",
            "--iterations",
            "2",
            "--pairs",
            "1",
        ])
        .args([
            "--params",
            "rfp_margin,lmr_div,hist_bonus",
            "--seed",
            "5",
            "--early-step",
            "1",
        ])
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("engine spsa runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_tiny_run_saves_its_state_and_resumes() {
    let out = temp_dir("tiny");
    let first = spsa(&out, &[]);
    let progress: Vec<&str> = first.lines().filter(|l| l.starts_with("iteration ")).collect();
    assert_eq!(progress.len(), 2, "{first}");
    assert!(progress[0].starts_with("iteration 1/2: "), "{first}");
    assert!(
        progress[1].contains("rfp_margin") && progress[1].contains("hist_bonus"),
        "{first}"
    );
    // The CSV: a header and a row per iteration, with the three tuned parameters.
    let csv = read(&out.join("theta.csv"));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "iteration,wins,draws,losses,rfp_margin,lmr_div,hist_bonus");
    assert_eq!(rows.len(), 3, "{csv}");
    for (i, row) in rows[1..].iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells.len(), 7, "{row}");
        assert_eq!(cells[0], (i + 1).to_string());
        let games: u32 = cells[1..4].iter().map(|c| c.parse::<u32>().expect("a count")).sum();
        assert_eq!(games, 2, "one pair per iteration: {row}");
        for v in &cells[4..] {
            v.parse::<f64>().expect("a value");
        }
    }
    // The result: a SearchParams string the engine accepts, also printed.
    let result = read(&out.join("params.txt"));
    engine::search::params::SearchParams::parse(result.trim()).expect("a valid SearchParams string");
    assert!(first.contains("done: 2 iterations"), "{first}");
    let state = read(&out.join("state.json"));
    assert!(state.contains("\"k\": 2"), "{state}");

    // The same command again: nothing left to play.
    let again = spsa(&out, &[]);
    assert!(again.contains("resuming after iteration 2"), "{again}");
    assert!(!again.lines().any(|l| l.starts_with("iteration ")), "{again}");
    assert_eq!(read(&out.join("theta.csv")), csv);
    assert_eq!(read(&out.join("params.txt")), result);

    // Other settings in the same folder: refused, naming what differs.
    let output = Command::new(ENGINE)
        .args([
            "spsa",
            "--nodes",
            "400",
            "--iterations",
            "2",
            "--params",
            "rfp_margin,lmr_div,hist_bonus",
        ])
        .args(["--seed", "5", "--early-step", "1", "--out"])
        .arg(&out)
        .output()
        .expect("engine spsa runs");
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("belongs to another run") && err.contains("nodes=400"),
        "{err}"
    );

    // Resumed from the state after iteration 1 (as if stopped during iteration 2, after its CSV
    // row was written): only iteration 2 is played, and the run ends as before (fixed nodes,
    // seeded openings and perturbations: the same games).
    let theta1: Vec<f64> = rows[1]
        .split(',')
        .skip(4)
        .map(|v| v.parse().expect("a value"))
        .collect();
    let mut value: serde_json::Value = serde_json::from_str(&state).expect("JSON");
    value["k"] = 1.into();
    value["theta"] = serde_json::json!(theta1);
    let cells: Vec<u32> = rows[1]
        .split(',')
        .skip(1)
        .take(3)
        .map(|v| v.parse().expect("a count"))
        .collect();
    value["wins"] = cells[0].into();
    value["draws"] = cells[1].into();
    value["losses"] = cells[2].into();
    std::fs::write(out.join("state.json"), value.to_string()).expect("state written");
    std::fs::write(out.join("params.txt"), "").expect("result cleared");
    let resumed = spsa(&out, &[]);
    assert!(resumed.contains("resuming after iteration 1"), "{resumed}");
    let progress: Vec<&str> = resumed.lines().filter(|l| l.starts_with("iteration ")).collect();
    assert_eq!(progress.len(), 1, "{resumed}");
    assert!(progress[0].starts_with("iteration 2/2: "), "{resumed}");
    assert_eq!(read(&out.join("theta.csv")), csv, "the same rows, none twice");
    assert_eq!(read(&out.join("params.txt")), result);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_settings_are_refused() {
    let out = temp_dir("bad");
    for (args, says) in [
        (
            vec!["--params", "rfp_margin,nonsense"],
            "unknown search parameter 'nonsense'",
        ),
        (vec!["--iterations", "0"], "at least one iteration"),
        (vec!["--pairs", "0"], "at least one game pair"),
        (vec!["--alpha", "3"], "alpha and gamma must be between 0 and 1"),
    ] {
        let output = Command::new(ENGINE)
            .args(["spsa", "--nodes", "300", "--out"])
            .arg(&out)
            .args(&args)
            .output()
            .expect("engine spsa runs");
        assert!(!output.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&out);
}
