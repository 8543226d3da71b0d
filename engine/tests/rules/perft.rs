//! The one perft runner: every suite in `data/perft/*.perft`, every position, every depth up to
//! a node limit per count (every depth with `PERFT_FULL=1`: `.ci/run` runs that as a step of
//! its own).
//!
//! File format (one record per blank-line-separated block):
//! `variant <id>` (once, before the positions), `id <name>`, `fen <FEN>`, `perft <depth> <nodes>`;
//! `#` starts a comment line.
//!
//! Besides the fast generator's counts, each position's low depths are recounted with the slow
//! reference generator written directly from the spec, so regression numbers produced by this
//! engine are also checked by independent code.

#![allow(clippy::unwrap_used)]

use std::{fs, path::PathBuf};

use engine::rules::{
    perft::{perft, reference_perft},
    Position, Variant,
};

struct Case {
    file: String,
    variant: Variant,
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn load_suites() -> Vec<Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/perft");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("data/perft exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "expected a suite per variant in {}", dir.display());
    let mut cases = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = fs::read_to_string(&path).expect("suite readable");
        let mut variant = None;
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "variant" => variant = Some(rest.parse::<Variant>().expect("known variant")),
                "id" => cases.push(Case {
                    file: name.clone(),
                    variant: variant.expect("variant line before positions"),
                    id: rest.to_string(),
                    fen: String::new(),
                    depths: Vec::new(),
                }),
                "fen" => cases.last_mut().expect("fen after id").fen = rest.to_string(),
                "perft" => {
                    let (d, n) = rest.split_once(' ').expect("perft <depth> <nodes>");
                    cases
                        .last_mut()
                        .expect("perft after id")
                        .depths
                        .push((d.parse().unwrap(), n.parse().unwrap()));
                }
                other => panic!("{name}: unknown key '{other}'"),
            }
        }
    }
    cases
}

/// Counts above this many nodes are left to the full run (`PERFT_FULL=1`, a CI step of its
/// own): the default test run stays quick, yet meets every position at several depths.
const DEFAULT_NODE_LIMIT: u64 = 2_000_000;

/// Every count of every suite up to the node limit (all of them with `PERFT_FULL=1`), the
/// positions shared among the machine's cores.
#[test]
fn perft_suites() {
    let full = std::env::var("PERFT_FULL").is_ok_and(|v| v == "1");
    let limit = if full { u64::MAX } else { DEFAULT_NODE_LIMIT };
    let cases = load_suites();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new((Vec::new(), 0u64, 0usize));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let pos = Position::from_fen(case.variant, &case.fen)
                    .unwrap_or_else(|e| panic!("{} {}: bad FEN: {e}", case.file, case.id));
                for &(depth, expected) in &case.depths {
                    if expected > limit {
                        results.lock().unwrap().2 += 1;
                        continue;
                    }
                    let got = perft(&pos, depth);
                    let mut r = results.lock().unwrap();
                    r.1 += got;
                    if got != expected {
                        r.0.push(format!(
                            "{} {} depth {depth}: expected {expected}, got {got}",
                            case.file, case.id
                        ));
                    }
                }
            });
        }
    });
    let (failures, nodes, skipped) = results.into_inner().unwrap();
    eprintln!("perft suites: {nodes} nodes counted, {skipped} counts above {limit} nodes left to PERFT_FULL=1");
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
}

/// The default run still checks every position: each has at least one count within the limit.
#[test]
fn every_position_is_counted_in_the_default_run() {
    for case in load_suites() {
        assert!(
            case.depths.iter().any(|&(_, n)| n <= DEFAULT_NODE_LIMIT),
            "{} {}: no count within {DEFAULT_NODE_LIMIT} nodes",
            case.file,
            case.id
        );
    }
}

#[test]
fn every_variant_has_its_reference_start_numbers() {
    let cases = load_suites();
    for v in Variant::ALL {
        let start = cases
            .iter()
            .find(|c| c.variant == v && c.id == "startpos")
            .unwrap_or_else(|| panic!("no startpos case for {v}"));
        assert_eq!(Position::from_fen(v, &start.fen).unwrap(), Position::startpos(v));
        let deepest = start.depths.iter().map(|d| d.0).max().unwrap_or(0);
        assert!(deepest >= 5, "{v}: start position must be checked to depth 5");
    }
}

#[test]
fn reference_generator_agrees_at_low_depth() {
    for case in load_suites() {
        let pos = Position::from_fen(case.variant, &case.fen).unwrap();
        for &(depth, expected) in &case.depths {
            // The reference generator is slow: recount only small trees.
            if expected <= 20_000 {
                assert_eq!(
                    reference_perft(&pos, depth),
                    expected,
                    "{} {} depth {depth} (reference generator)",
                    case.file,
                    case.id
                );
            }
        }
    }
}

#[test]
fn reference_divide_shares_the_root_among_threads() {
    for v in [Variant::Chess, Variant::Parsi] {
        let pos = Position::startpos(v);
        let mut fast: Vec<(u32, u64)> = engine::rules::perft::divide(&pos, 3, &[])
            .into_iter()
            .map(|(m, n)| (m.raw(), n))
            .collect();
        for threads in [1, 3] {
            let mut slow: Vec<(u32, u64)> = engine::rules::perft::reference_divide(&pos, 3, &[], threads)
                .into_iter()
                .map(|(m, n)| (m.raw(), n))
                .collect();
            fast.sort_unstable();
            slow.sort_unstable();
            assert_eq!(slow, fast, "{v}, {threads} threads");
        }
    }
}
