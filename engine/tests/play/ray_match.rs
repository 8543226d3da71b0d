//! The Ray match driver of `scripts/ray` (docs/scale-out.md) on a local Ray with two workers:
//! `scripts/ray/test_match.py` checks that a match split into game pairs (each part's first
//! attempt losing its worker) merges into the report of the same match played in one process,
//! with and without an SPRT, that a finished job is left alone, and that a job run again with
//! more games plays only the new parts (and a part the smaller match cut short).
//!
//! It needs a Python with Ray (`scripts/ray/requirements.txt`). `.ci/run` makes one in
//! `target/ray-venv`; `RAY_PYTHON` names another. Without one the test says so and passes,
//! unless `REQUIRE_RAY=1` (set by `.ci/run`) makes that a failure.

use std::path::{Path, PathBuf};

fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("RAY_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ray-venv/bin/python");
    venv.exists().then_some(venv)
}

#[test]
fn distributed_match_on_a_local_ray() {
    let Some(python) = python() else {
        let required = std::env::var("REQUIRE_RAY").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "REQUIRE_RAY=1 but no Python with Ray (see this file's header)"
        );
        eprintln!("Ray test skipped: no target/ray-venv and no RAY_PYTHON");
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/ray/test_match.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .args(["--engine", env!("CARGO_BIN_EXE_persian-engine")])
        // Ray asks for no token on a local test cluster, and keeps its files in the temp dir.
        .env("RAY_AUTH_MODE", "disabled")
        .output()
        .expect("python runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success() && text.contains("ray match: ok"), "{text}");
}
