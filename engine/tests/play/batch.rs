//! Batch analysis through the `engine` binary: `analyse --epd/--pgn --json` and `eval --json`
//! give one JSON object per position, in input order, and an error object for a bad line.

#![allow(clippy::unwrap_used)]

use std::{path::PathBuf, process::Command};

use engine::{
    play::openings::random_openings,
    rules::{notation::pgn::PgnGame, Position, Variant},
};
use serde_json::Value;

fn engine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_persian-engine"))
}

/// A file in the test's own temporary directory.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("engine-batch-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the engine; its exit code and its standard output as JSON objects, one per line.
fn run(args: &[&str]) -> (i32, Vec<Value>) {
    let out = engine().args(args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let objects = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    (out.status.code().unwrap_or(-1), objects)
}

/// Checks a search result object against its position.
fn check_analysis(v: Variant, o: &Value, fen: &str) {
    assert_eq!(o["fen"], fen, "{o}");
    let pos = Position::from_fen(v, fen).unwrap();
    let best = o["bestmove"].as_str().unwrap_or_else(|| panic!("{o}"));
    let m = pos
        .parse_uci(best)
        .unwrap_or_else(|e| panic!("{v}: {best} not legal ({e}): {o}"));
    assert_eq!(o["san"], pos.san(m).as_str());
    let pv: Vec<&str> = o["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let pv_san: Vec<&str> = o["pv_san"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(pv.first(), Some(&best), "{o}");
    assert_eq!(pv.len(), pv_san.len(), "{o}");
    // The line is legal move by move, and its SAN is that of the moves.
    let mut p = pos.clone();
    for (uci, san) in pv.iter().zip(&pv_san) {
        let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{uci} in the PV: {e}: {o}"));
        assert_eq!(p.san(m), *san);
        p.play_unchecked(m);
    }
    let score = &o["score"];
    assert!(score["cp"].is_i64() || score["mate"].is_i64(), "{o}");
    assert!(
        o["depth"].as_u64().unwrap() >= 1 && o["nodes"].as_u64().unwrap() > 0,
        "{o}"
    );
    match o["wdl"].as_array() {
        Some(wdl) => assert_eq!(wdl.iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 1000, "{o}"),
        None => assert!(o["wdl"].is_null(), "{o}"),
    }
}

#[test]
fn every_variant_gives_one_json_line_per_position_and_an_error_for_a_bad_line() {
    for v in Variant::ALL {
        let mut fens: Vec<String> = vec![Position::startpos(v).fen()];
        fens.extend(random_openings(v, 3, 7, 21).iter().map(|o| o.position().fen()));
        let mut text = format!("# positions of {v}\n");
        for (i, fen) in fens.iter().enumerate() {
            text.push_str(fen);
            text.push('\n');
            if i == 1 {
                text.push_str("this is not a position\n");
            }
        }
        let file = temp_file(&format!("{v}.epd"), &text);
        let (code, objects) = run(&[
            "analyse",
            "-v",
            v.id(),
            "--epd",
            file.to_str().unwrap(),
            "--json",
            "--nodes",
            "3000",
            "--jobs",
            "2",
        ]);
        assert_eq!(code, 2, "{v}: a bad line gives exit status 2");
        assert_eq!(objects.len(), fens.len() + 1, "{v}: {objects:?}");
        // In input order: lines 2, 3, then the bad line 4, then 5, 6.
        let lines: Vec<u64> = objects.iter().map(|o| o["line"].as_u64().unwrap()).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6], "{v}");
        let error = &objects[2];
        assert_eq!(error["input"], "this is not a position", "{error}");
        assert!(!error["error"].as_str().unwrap().is_empty(), "{error}");
        let good: Vec<&Value> = objects.iter().filter(|o| o.get("error").is_none()).collect();
        for (o, fen) in good.iter().zip(&fens) {
            check_analysis(v, o, fen);
        }
        // The static evaluation of the same file.
        let (code, evals) = run(&["eval", "-v", v.id(), "--epd", file.to_str().unwrap(), "--json"]);
        assert_eq!((code, evals.len()), (2, fens.len() + 1), "{v}: {evals:?}");
        for o in evals.iter().filter(|o| o.get("error").is_none()) {
            let hce = &o["hce"];
            assert!(hce["total"].is_i64() && hce["phase"].is_i64(), "{o}");
            for term in [
                "material",
                "placement",
                "pawns",
                "mobility",
                "king_safety",
                "bishop_pair",
                "rules",
            ] {
                assert_eq!(hce[term].as_array().map(Vec::len), Some(2), "{term}: {o}");
            }
            assert!(o["nnue"].is_i64() || o["nnue"].is_null(), "{o}");
            assert!(o["drive"].is_i64(), "{o}");
            assert!(o["evaluation"].is_string(), "{o}");
        }
    }
}

#[test]
fn results_do_not_depend_on_the_jobs_and_stop_on_error_stops() {
    let v = Variant::EgyptianEye;
    let text: String = random_openings(v, 6, 6, 5)
        .iter()
        .map(|o| format!("{}\n", o.position().fen()))
        .collect();
    let file = temp_file("jobs.epd", &text);
    let args = |jobs: &'static str| {
        vec![
            "analyse".to_string(),
            "-v".into(),
            v.id().into(),
            "--epd".into(),
            file.to_str().unwrap().into(),
            "--json".into(),
            "-n".into(),
            "4000".into(),
            "-j".into(),
            jobs.into(),
        ]
    };
    let strip = |objects: Vec<Value>| -> Vec<Value> {
        objects
            .into_iter()
            .map(|mut o| {
                o.as_object_mut().unwrap().remove("time_ms");
                o
            })
            .collect()
    };
    let one = run(&args("1").iter().map(String::as_str).collect::<Vec<_>>());
    let two = run(&args("2").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!((one.0, two.0), (0, 0));
    assert_eq!(one.1.len(), 6);
    assert_eq!(strip(one.1), strip(two.1));
    // --stop-on-error: the results before the bad line, then an error naming it.
    let file = temp_file(
        "stop.epd",
        &format!("{}\n8/8/8 w - -\n{}\n", Position::startpos(v).fen(), text),
    );
    let out = engine()
        .args([
            "analyse",
            "-v",
            v.id(),
            "--epd",
            file.to_str().unwrap(),
            "--json",
            "-n",
            "2000",
        ])
        .arg("--stop-on-error")
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("line 2: "), "{stderr}");
}

#[test]
fn pgn_games_each_ply() {
    let v = Variant::PersianPrincess;
    let openings = random_openings(v, 2, 5, 8);
    let mut text = String::new();
    for o in &openings {
        let mut g = PgnGame::new(o.start.clone());
        g.moves = o.moves.clone();
        text.push_str(&g.to_pgn());
    }
    text.push_str("[Event \"broken\"]\n\n1. Zz9 *\n\n");
    let file = temp_file("games.pgn", &text);
    let (code, objects) = run(&[
        "analyse",
        "--pgn",
        file.to_str().unwrap(),
        "--each-ply",
        "--json",
        "-d",
        "3",
    ]);
    assert_eq!(code, 2);
    assert_eq!(objects.len(), 2 * 6 + 1, "{objects:?}");
    for (g, o) in openings.iter().enumerate() {
        let mut pos = o.start.clone();
        for ply in 0..=o.moves.len() {
            let obj = &objects[g * 6 + ply];
            assert_eq!(
                (obj["game"].as_u64(), obj["ply"].as_u64()),
                (Some(g as u64 + 1), Some(ply as u64))
            );
            check_analysis(v, obj, &pos.fen());
            if let Some(&m) = o.moves.get(ply) {
                pos.play_unchecked(m);
            }
        }
    }
    assert_eq!(objects[12]["game"], 3);
    assert!(objects[12]["error"].is_string(), "{}", objects[12]);
    // Without --each-ply: each game's last position.
    let (_, last) = run(&["analyse", "--pgn", file.to_str().unwrap(), "--json", "-d", "2"]);
    assert_eq!(last.len(), 3);
    assert_eq!(last[0]["ply"], 5);
}
