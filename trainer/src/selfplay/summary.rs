//! What a run prints at its end: speed, results, plies, skipped positions, terminations,
//! openings, the shards written and the directory's totals.

use std::{path::Path, time::Duration};

use super::{opening::Rejections, shard::ShardSummary};
use crate::data::io::thousands;

/// Limits in words, e.g. `depth 8, 2000 nodes`.
pub(super) fn limits_text(nodes: Option<u64>, depth: Option<u32>) -> String {
    match (nodes, depth) {
        (Some(n), Some(d)) => format!("depth {d}, {n} nodes"),
        (Some(n), None) => format!("{n} nodes"),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => "no limit".to_string(),
    }
}

/// A duration in words, e.g. `1h05m`, `2m03s` or `4.2s`.
pub(super) fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// What the summary of a finished session reports.
pub(super) struct Finished<'a> {
    /// Variant id.
    pub variant: &'a str,
    /// The output directory.
    pub out: &'a Path,
    /// The games of this session.
    pub summary: &'a ShardSummary,
    /// Wall-clock time of the games.
    pub elapsed: Duration,
    /// Worker threads.
    pub threads: usize,
    /// The limits in words.
    pub limits: String,
    /// The evaluation in words.
    pub eval: &'a str,
    /// The openings drawn, over all workers.
    pub openings: Rejections,
    /// Indices of the shards written in this session.
    pub written: Vec<u64>,
}

/// Prints the summary of a finished session, then the directory's totals.
pub(super) fn print_finished(f: Finished<'_>) -> anyhow::Result<()> {
    let s = f.summary;
    println!(
        "selfplay {} finished in {}: {} games, {} positions written",
        f.variant,
        duration_text(f.elapsed),
        thousands(s.games),
        thousands(s.positions)
    );
    let secs = f.elapsed.as_secs_f64().max(1e-3);
    println!(
        "  speed          {:.0} positions/s, {:.2} games/s ({} thread(s), {}, eval {})",
        s.positions as f64 / secs,
        s.games as f64 / secs,
        f.threads,
        f.limits,
        f.eval
    );
    print_counts(s);
    let repeats = s.duplicate_openings();
    let (games, repeated) = repeats.map_or((s.games, 0), |r| (r.games, r.repeated));
    println!(
        "  openings       {} drawn, {} repeat an earlier one of these games ({}); rejected tries: {} ended the game, \
         {} judged lost",
        thousands(games),
        thousands(repeated),
        percent(repeated, games),
        thousands(f.openings.ended),
        thousands(f.openings.lost)
    );
    let mut written = f.written;
    written.sort_unstable();
    let names: Vec<String> = written.iter().map(|&i| format!("shard_{i:06}")).collect();
    println!(
        "  written        {} shard(s) in {}: {} (.bin records, .pgn games, .json counts)",
        names.len(),
        f.out.display(),
        abbreviate(&names)
    );
    let all = super::shard::scan(f.out)?;
    print_directory(f.out, &all.total(), all.shards.len());
    Ok(())
}

fn abbreviate(names: &[String]) -> String {
    match names {
        [] => "none".to_string(),
        [a] => a.clone(),
        [a, b] => format!("{a}, {b}"),
        [a, .., b] => format!("{a} ... {b}"),
    }
}

pub(super) fn print_counts(s: &ShardSummary) {
    let games = s.games.max(1) as f64;
    println!(
        "  results        1-0 {}, 1/2 {}, 0-1 {} ({:.1}% / {:.1}% / {:.1}%)",
        s.results.white,
        s.results.draw,
        s.results.black,
        100.0 * s.results.white as f64 / games,
        100.0 * s.results.draw as f64 / games,
        100.0 * s.results.black as f64 / games
    );
    println!(
        "  plies          {:.1} per game; {:.1} positions written per game",
        s.plies as f64 / games,
        s.positions as f64 / games
    );
    println!(
        "  searched       {} positions; not written: {} in check, {} capture/promotion best move, {} mate score, {} before --min-ply",
        thousands(s.searched),
        thousands(s.skipped.in_check),
        thousands(s.skipped.noisy),
        thousands(s.skipped.mate),
        thousands(s.skipped.early)
    );
    let mut terms: Vec<(&String, &u64)> = s.terminations.iter().collect();
    terms.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    println!(
        "  terminations   {}",
        terms
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// `part` of `whole` as a percentage, e.g. `0.42%` (`0%` of nothing).
pub(super) fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".to_string();
    }
    format!("{:.2}%", 100.0 * part as f64 / whole as f64)
}

/// The games of a long run, for the projection of repeated openings.
pub(super) const PROJECTED_GAMES: u64 = 1_000_000;

/// The projected repeats of a run of [`PROJECTED_GAMES`] games with these games' settings (see
/// [`super::opening::Repeats::projected`]), as a summary line; `None` for runs that long or
/// longer, or of fewer than two games.
pub(super) fn projection_line(r: &super::opening::Repeats) -> Option<String> {
    if r.games >= PROJECTED_GAMES {
        return None;
    }
    let share = r.projected(PROJECTED_GAMES)?;
    Some(format!(
        "  projected      at most {:.2}% of a run of {} games would repeat an earlier opening ({} pair(s) of games \
         with the same opening among these {}; docs/training.md)",
        100.0 * share,
        thousands(PROJECTED_GAMES),
        thousands(r.pairs),
        thousands(r.games)
    ))
}

/// Prints the totals of the directory, the repeated openings of the whole run among them.
pub(super) fn print_directory(out: &Path, total: &ShardSummary, shards: usize) {
    println!(
        "  directory      {}: {} shard(s), {} games, {} positions, results 1-0 {} / 1/2 {} / 0-1 {}",
        out.display(),
        shards,
        thousands(total.games),
        thousands(total.positions),
        total.results.white,
        total.results.draw,
        total.results.black
    );
    match total.duplicate_openings() {
        Some(r) => {
            println!(
                "  run openings   {} distinct of {} games: {} duplicate opening(s) ({}) over the whole run",
                thousands(r.games - r.repeated),
                thousands(r.games),
                thousands(r.repeated),
                percent(r.repeated, r.games)
            );
            if let Some(line) = projection_line(&r) {
                println!("{line}");
            }
        }
        None => println!(
            "  run openings   not counted: {} of the {} games are in shards of an earlier trainer, which list no \
             opening hashes",
            thousands(total.games - total.opening_hashes.len() as u64),
            thousands(total.games)
        ),
    }
}
