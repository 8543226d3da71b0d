//! `trainer data stats`: counts and distributions of record files.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    fmt::Write as _,
    path::{Path, PathBuf},
};

use anyhow::Result;
use engine::{eval::nnue::layout, rules::Variant};
use nnue::{
    data::{Record, FLAG_BLACK_TO_MOVE, FLAG_IN_CHECK, FLAG_NOISY_BEST_MOVE, NO_SCORE},
    Layout,
};

use super::io::{for_each_record, record_files, thousands, total_size};
use crate::selfplay::shard::{scan, shard_index, RUN_FILE};

/// Arguments of `trainer data stats`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Record files (.bin) or directories (searched recursively for .bin files).
    #[arg(required = true, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// Width in plies of the per-ply histogram's buckets.
    #[arg(long, value_name = "PLIES", default_value_t = 10)]
    pub ply_bucket: u16,
}

/// Score buckets: upper bounds (inclusive) and labels.
const SCORE_BUCKETS: [(i32, &str); 13] = [
    (-1001, "< -1000"),
    (-501, "-1000..-501"),
    (-301, "-500..-301"),
    (-151, "-300..-151"),
    (-51, "-150..-51"),
    (-1, "-50..-1"),
    (0, "0"),
    (50, "1..50"),
    (150, "51..150"),
    (300, "151..300"),
    (500, "301..500"),
    (1000, "501..1000"),
    (i32::MAX, "> 1000"),
];

#[derive(Default)]
struct Stats {
    records: u64,
    undecodable: u64,
    variants: BTreeMap<u8, u64>,
    results: [u64; 3],
    white_results: [u64; 3],
    no_score: u64,
    score_sum: f64,
    score_sq: f64,
    abs_sum: f64,
    score_min: i32,
    score_max: i32,
    score_buckets: [(u64, u64); 13],
    plies: BTreeMap<u16, u64>,
    max_ply: u16,
    pieces: BTreeMap<u32, u64>,
    black_to_move: u64,
    in_check: u64,
    noisy: u64,
    /// Distinct games by directory, variant and game id: ids are unique within a self-play run
    /// (one directory), not across runs, which all number their games from 0.
    games: HashSet<(usize, u8, u32)>,
    /// The games self-play runs say they played, where the inputs are their shards.
    played: Option<Played>,
}

/// The games played by the self-play runs whose shards the inputs are.
#[derive(Debug, PartialEq)]
struct Played {
    /// Games in the shards read.
    games: u64,
    /// Self-play runs (directories with a run file) they come from.
    runs: usize,
    /// Whether every record file read is a shard of a run, so that the games played and the
    /// game ids among the records count the same games.
    all: bool,
}

/// The games played in the shards among `files` (those in directories holding a self-play run),
/// read from the shards' summaries without changing anything; `None` when no file is a shard.
/// `file_dirs[i]` is the index in `dirs` of the directory of `files[i]`.
fn played(files: &[PathBuf], file_dirs: &[usize], dirs: &[PathBuf]) -> Result<Option<Played>> {
    let mut out = Played {
        games: 0,
        runs: 0,
        all: true,
    };
    for (d, dir) in dirs.iter().enumerate() {
        if !dir.join(RUN_FILE).is_file() {
            out.all = false;
            continue;
        }
        let existing = scan(dir)?;
        out.runs += 1;
        let mine = files.iter().zip(file_dirs).filter(|&(_, &fd)| fd == d);
        for (file, _) in mine {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            match shard_index(name).and_then(|(i, _)| existing.shards.get(&i)) {
                Some(summary) => out.games += summary.games,
                None => out.all = false,
            }
        }
    }
    Ok((out.runs > 0).then_some(out))
}

/// The directory of a record file (`.` for a bare file name).
fn parent(file: &Path) -> PathBuf {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn bar(count: u64, max: u64) -> String {
    let width = if max == 0 {
        0
    } else {
        (count * 40).div_ceil(max) as usize
    };
    "#".repeat(width)
}

fn pct(n: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * n as f64 / total as f64
    }
}

/// Runs `trainer data stats`.
pub fn run(args: Args) -> Result<()> {
    let files = record_files(&args.inputs)?;
    let bucket = args.ply_bucket.max(1);
    let mut s = Stats {
        score_min: i32::MAX,
        score_max: i32::MIN,
        ..Stats::default()
    };
    let (mut dirs, mut file_dirs): (Vec<PathBuf>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut layouts: HashMap<u8, Option<Layout>> = HashMap::new();
    for file in &files {
        let dir = parent(file);
        let d = dirs.iter().position(|x| *x == dir).unwrap_or_else(|| {
            dirs.push(dir);
            dirs.len() - 1
        });
        file_dirs.push(d);
        for_each_record(file, |_, r: &Record| {
            s.records += 1;
            let code = r.variant_code();
            *s.variants.entry(code).or_default() += 1;
            let l = layouts
                .entry(code)
                .or_insert_with(|| Variant::from_code(code).map(layout));
            if l.as_ref().is_none_or(|l| r.decode(l).is_err()) {
                s.undecodable += 1;
                return Ok(());
            }
            let result = r.result_code() as usize;
            s.results[result] += 1;
            let black = r.flags() & FLAG_BLACK_TO_MOVE != 0;
            s.white_results[if black { 2 - result } else { result }] += 1;
            if black {
                s.black_to_move += 1;
            }
            if r.flags() & FLAG_IN_CHECK != 0 {
                s.in_check += 1;
            }
            if r.flags() & FLAG_NOISY_BEST_MOVE != 0 {
                s.noisy += 1;
            }
            if r.score() == NO_SCORE {
                s.no_score += 1;
            } else {
                let v = i32::from(r.score());
                s.score_sum += f64::from(v);
                s.score_sq += f64::from(v) * f64::from(v);
                s.abs_sum += f64::from(v.abs());
                s.score_min = s.score_min.min(v);
                s.score_max = s.score_max.max(v);
                let b = SCORE_BUCKETS.iter().position(|&(hi, _)| v <= hi).unwrap_or(12);
                s.score_buckets[b].0 += 1;
                s.score_buckets[b].1 += result as u64;
            }
            *s.plies.entry(r.ply() / bucket).or_default() += 1;
            s.max_ply = s.max_ply.max(r.ply());
            *s.pieces.entry(r.occupancy().count_ones()).or_default() += 1;
            s.games.insert((d, code, r.game_id()));
            Ok(())
        })?;
    }
    // A shard whose summary cannot be read costs the count of games played, not the statistics
    // of the records.
    s.played = played(&files, &file_dirs, &dirs).unwrap_or_else(|e| {
        eprintln!("warning: the games played are not counted: {e:#}");
        None
    });
    print!("{}", report(&s, &files, bucket));
    Ok(())
}

fn report(s: &Stats, files: &[PathBuf], bucket: u16) -> String {
    let mut o = String::new();
    let n = s.records;
    let ok = n - s.undecodable;
    let _ = writeln!(
        o,
        "{} record(s) in {} file(s), {} bytes; {} game id(s)",
        thousands(n),
        files.len(),
        thousands(total_size(files)),
        thousands(s.games.len() as u64)
    );
    if let Some(p) = &s.played {
        let _ = writeln!(
            o,
            "{} game(s) played in the shards of {} self-play run(s)",
            thousands(p.games),
            p.runs
        );
        let ids = s.games.len() as u64;
        if p.all && p.games > ids {
            let _ = writeln!(
                o,
                "  {} of them left no record: self-play records no position in check, with a capture or \
                 promotion as best move, with a mate score or before its minimum ply",
                thousands(p.games - ids)
            );
        }
    }
    if s.undecodable > 0 {
        let _ = writeln!(
            o,
            "{} record(s) cannot be decoded and are left out below: run `trainer data validate`",
            thousands(s.undecodable)
        );
    }
    let _ = writeln!(o, "\nvariants");
    for (code, count) in &s.variants {
        let name = Variant::from_code(*code).map_or(format!("unknown code {code}"), |v| v.id().to_string());
        let _ = writeln!(o, "  {name:<24} {:>12} {:>6.1}%", thousands(*count), pct(*count, n));
    }
    let _ = writeln!(
        o,
        "\nside to move: White {:.1}%, Black {:.1}%; in check {:.2}%; best move capture/promotion {:.2}%",
        pct(ok - s.black_to_move, ok),
        pct(s.black_to_move, ok),
        pct(s.in_check, ok),
        pct(s.noisy, ok)
    );
    let _ = writeln!(
        o,
        "\nresults (side to move's view): win {} ({:.1}%), draw {} ({:.1}%), loss {} ({:.1}%)",
        thousands(s.results[2]),
        pct(s.results[2], ok),
        thousands(s.results[1]),
        pct(s.results[1], ok),
        thousands(s.results[0]),
        pct(s.results[0], ok)
    );
    let _ = writeln!(
        o,
        "results (White's view):        1-0 {} ({:.1}%), 1/2 {} ({:.1}%), 0-1 {} ({:.1}%)",
        thousands(s.white_results[2]),
        pct(s.white_results[2], ok),
        thousands(s.white_results[1]),
        pct(s.white_results[1], ok),
        thousands(s.white_results[0]),
        pct(s.white_results[0], ok)
    );
    let scored = ok - s.no_score;
    let _ = writeln!(
        o,
        "\nscores (centipawns, side to move's view): {} scored, {} without score",
        thousands(scored),
        thousands(s.no_score)
    );
    if scored > 0 {
        let mean = s.score_sum / scored as f64;
        let sd = (s.score_sq / scored as f64 - mean * mean).max(0.0).sqrt();
        let _ = writeln!(
            o,
            "  mean {mean:.1}, mean |score| {:.1}, standard deviation {sd:.1}, min {}, max {}",
            s.abs_sum / scored as f64,
            s.score_min,
            s.score_max
        );
        let max = s.score_buckets.iter().map(|b| b.0).max().unwrap_or(0);
        let _ = writeln!(
            o,
            "  {:<12} {:>12} {:>7} {:>11}",
            "score", "positions", "share", "avg result"
        );
        for (i, &(count, result_sum)) in s.score_buckets.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let avg = result_sum as f64 / (2.0 * count as f64);
            let _ = writeln!(
                o,
                "  {:<12} {:>12} {:>6.1}% {:>11.3} {}",
                SCORE_BUCKETS[i].1,
                thousands(count),
                pct(count, scored),
                avg,
                bar(count, max)
            );
        }
        let _ = writeln!(
            o,
            "  (avg result: 1 = the side to move won every game, 0.5 = draws, 0 = lost)"
        );
    }
    let _ = writeln!(o, "\nplies (half-moves from the game's start; max {})", s.max_ply);
    let max = s.plies.values().copied().max().unwrap_or(0);
    for (b, count) in &s.plies {
        let lo = u32::from(*b) * u32::from(bucket);
        let label = if bucket == 1 {
            lo.to_string()
        } else {
            format!("{lo}..{}", lo + u32::from(bucket) - 1)
        };
        let _ = writeln!(
            o,
            "  {label:<12} {:>12} {:>6.1}% {}",
            thousands(*count),
            pct(*count, ok),
            bar(*count, max)
        );
    }
    let _ = writeln!(o, "\npieces on the board");
    let max = s.pieces.values().copied().max().unwrap_or(0);
    for (p, count) in &s.pieces {
        let _ = writeln!(
            o,
            "  {p:<12} {:>12} {:>6.1}% {}",
            thousands(*count),
            pct(*count, ok),
            bar(*count, max)
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::selfplay::{
        game::PlayedGame,
        shard::{clean, write_shard},
    };

    const DIRS: [usize; 3] = [0, 0, 1];

    /// The games played come from the shards' summaries of the files read, and reading them
    /// leaves a run's temporary and half-written files alone (the run may be writing them now);
    /// only the run's own clean-up removes them.
    #[test]
    fn games_played_of_shards_read_without_touching_a_running_run() {
        let root = std::env::temp_dir().join(format!("trainer-stats-played-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let (run, other) = (root.join("run"), root.join("other"));
        fs::create_dir_all(&run).expect("run dir");
        fs::create_dir_all(&other).expect("other dir");
        fs::write(run.join(RUN_FILE), "{}").expect("run file");
        let game = PlayedGame::without_records;
        write_shard(&run, 0, &[game(0), game(1)]).expect("shard 0");
        write_shard(&run, 1, &[game(2), game(3), game(4)]).expect("shard 1");
        let tmp = run.join("shard_000002.bin.tmp");
        let half = run.join("shard_000002.json");
        fs::write(&tmp, b"half").expect("tmp");
        fs::write(&half, b"{}").expect("summary without records yet");
        let other_file = other.join("x.bin");
        fs::write(&other_file, b"").expect("other file");

        let shards = [run.join("shard_000000.bin"), run.join("shard_000001.bin")];
        let p = played(&shards, &DIRS[..2], std::slice::from_ref(&run)).expect("played");
        assert_eq!(
            p,
            Some(Played {
                games: 5,
                runs: 1,
                all: true
            })
        );
        assert!(
            tmp.is_file() && half.is_file(),
            "a reader removed a running run's files"
        );
        // One shard of the two: its games only.
        let p = played(&shards[1..], &DIRS[..1], std::slice::from_ref(&run)).expect("played");
        assert_eq!(
            p,
            Some(Played {
                games: 3,
                runs: 1,
                all: true
            })
        );
        // A file outside any run: the games played no longer count all the records read.
        let mut files = shards.to_vec();
        files.push(other_file.clone());
        let p = played(&files, &DIRS, &[run.clone(), other.clone()]).expect("played");
        assert_eq!(
            p,
            Some(Played {
                games: 5,
                runs: 1,
                all: false
            })
        );
        assert_eq!(played(&[other_file], &[0], &[other]).expect("played"), None);

        let mut removed = clean(&run).expect("clean");
        removed.sort();
        assert_eq!(removed, vec![tmp.clone(), half.clone()]);
        assert!(!tmp.exists() && !half.exists());
        assert_eq!(scan(&run).expect("scan").games(), 5);
        let _ = fs::remove_dir_all(&root);
    }
}
