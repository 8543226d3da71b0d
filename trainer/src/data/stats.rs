//! `trainer data stats`: counts and distributions of record files.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    fmt::Write as _,
    path::PathBuf,
};

use anyhow::Result;
use engine::{eval::nnue::layout, rules::Variant};
use nnue::{
    data::{Record, FLAG_BLACK_TO_MOVE, FLAG_IN_CHECK, FLAG_NOISY_BEST_MOVE, NO_SCORE},
    Layout,
};

use super::io::{for_each_record, record_files, thousands, total_size};

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
    games: HashSet<(u8, u32)>,
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
    let mut layouts: HashMap<u8, Option<Layout>> = HashMap::new();
    for file in &files {
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
            s.games.insert((code, r.game_id()));
            Ok(())
        })?;
    }
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
