//! `trainer selfplay`: the engine plays itself from diverse openings; the positions it searched
//! become training records (`nnue::data`), the games PGN. See docs/training.md.

pub mod game;
pub mod opening;
pub mod shard;

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    io::IsTerminal,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Mutex,
    },
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use anyhow::{anyhow, bail, Context, Result};
use engine::{
    engine::{Engine, EvalSource},
    eval::nnue::layout,
    rules::Variant,
    search::Limits,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};

use self::{
    game::{Adjudication, GameSettings, PlayedGame},
    opening::{Check, Opening, OpeningGenerator, OpeningSource},
    shard::{ShardPaths, ShardSummary, RUN_FILE},
};
use crate::data::io::{thousands, write_atomic};

/// Nodes per move when neither --nodes nor --depth is given.
pub const DEFAULT_NODES: u64 = 2000;

const LONG_ABOUT: &str = "\
Plays the engine against itself and writes the positions it searched as training records \
(64-byte records of nnue::data, see docs/training-data.md) and the games as PGN.

Every game starts from a different opening: random legal plies from the start position \
(--random-plies, default 8) or the lines of an opening file (--book), skipping openings that \
end the game or that a quick search (--opening-check-nodes) scores beyond --opening-max-score \
for either side. Games end by the rules (mate, stalemate, citadel, repetition, 50 moves, dead \
material) or by adjudication: resign when the scores of --resign-plies consecutive plies all \
give the same side at least --resign-score, draw when --draw-plies consecutive plies from ply \
--draw-after on all score within --draw-score of 0, draw at --max-plies. Every position keeps \
the game's real or adjudicated result.

Written: positions the engine searched that are not in check, whose best move is not a \
capture, promotion or en passant, whose score is not a mate, from ply --min-ply on (default: \
after the opening). Score and result are from the side to move's view.

Output (in --out, default data/selfplay/<variant>/): run.json (the settings), and per shard of \
--games-per-shard games shard_NNNNNN.bin (records), .pgn (games, each move with its score as \
{+0.35/9}: pawns from the mover's view / depth) and .json (counts). Every file is written to a \
.tmp file and renamed when complete, the .bin last. Run the same command again after an \
interruption: complete shards are kept, leftovers removed, and the run continues to --games \
in total. Game ids are --first-game-id + shard * games-per-shard + game in shard.

The same command with the same --seed writes the same files, byte for byte, whatever --threads.

Example: trainer selfplay --variant persian-princess --games 1000 --nodes 2000 --net hce";

/// Arguments of `trainer selfplay`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = LONG_ABOUT)]
pub struct Args {
    /// Variant id or alias: celtic-citadel, persian-princess, egyptian-eye, oriental-omega, chess.
    #[arg(short, long, default_value = "persian-princess")]
    pub variant: String,
    /// Games in total in the output directory: a run that finds complete shards there plays
    /// only the missing games.
    #[arg(short = 'n', long, default_value_t = 100)]
    pub games: u64,
    /// Nodes per move (default 2000 when --depth is not given either).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move in plies (with --nodes: whichever limit comes first).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games played at the same time, one engine each (default: all cores).
    #[arg(short, long)]
    pub threads: Option<usize>,
    /// Evaluation: a .nnue file for the variant, `hce` for the hand-crafted evaluation, or
    /// `<embedded>` (default): the net built into the binary when there is one, else the
    /// hand-crafted evaluation.
    #[arg(long, default_value = "<embedded>")]
    pub net: String,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory (default data/selfplay/<variant>/).
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Transposition table per engine, MB (one engine per thread).
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
    /// Random legal plies at the start of every game (default 8; 0 with --book, after whose
    /// lines they are played).
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
    /// Opening file: one opening per line, a FEN, a FEN followed by `moves` and UCI moves, or
    /// UCI moves from the start position; '#' starts a comment. Lines are used in order, from
    /// the top again when more games are needed (each opening position once).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Nodes of the quick search that judges an opening (0: no check).
    #[arg(long, value_name = "NODES", default_value_t = 500)]
    pub opening_check_nodes: u64,
    /// Openings that quick search scores beyond this many centipawns for either side are skipped.
    #[arg(long, value_name = "CP", default_value_t = 300)]
    pub opening_max_score: i32,
    /// Resign adjudication threshold in centipawns.
    #[arg(long, value_name = "CP", default_value_t = 1000)]
    pub resign_score: i32,
    /// Consecutive plies whose scores all give the same side at least --resign-score (0: no
    /// resign adjudication).
    #[arg(long, value_name = "PLIES", default_value_t = 4)]
    pub resign_plies: usize,
    /// Draw adjudication threshold in centipawns.
    #[arg(long, value_name = "CP", default_value_t = 10)]
    pub draw_score: i32,
    /// Consecutive plies within --draw-score of 0 for a draw (0: no draw adjudication).
    #[arg(long, value_name = "PLIES", default_value_t = 8)]
    pub draw_plies: usize,
    /// Plies before this one do not count for draw adjudication.
    #[arg(long, value_name = "PLY", default_value_t = 80)]
    pub draw_after: usize,
    /// A game reaching this many plies (opening included) is drawn.
    #[arg(long, value_name = "PLIES", default_value_t = 400)]
    pub max_plies: usize,
    /// Positions before this ply (from the game's start, opening included) are not written
    /// (default: the random plies; opening positions are never written, the engine does not
    /// search them).
    #[arg(long, value_name = "PLY")]
    pub min_ply: Option<usize>,
    /// Games per shard file.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games_per_shard: u64,
    /// Id of the run's first game (to keep ids apart between output directories that will be
    /// used together).
    #[arg(long, value_name = "ID", default_value_t = 0)]
    pub first_game_id: u32,
    /// No progress bar and no per-shard lines; only the summary.
    #[arg(short, long)]
    pub quiet: bool,
}

/// What decides the content of the files: a run resumes only with the same settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Variant id.
    pub variant: String,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// The evaluation, as the engine describes it.
    pub eval: String,
    /// Transposition table, MB.
    pub hash_mb: usize,
    /// Seed.
    pub seed: u64,
    /// Games per shard.
    pub games_per_shard: u64,
    /// First game id.
    pub first_game_id: u32,
    /// Random plies per opening.
    pub random_plies: usize,
    /// FNV-1a hash of the opening file's content, if one is used.
    pub book_hash: Option<String>,
    /// Opening check nodes (0: none).
    pub opening_check_nodes: u64,
    /// Opening check threshold.
    pub opening_max_score: i32,
    /// Resign threshold.
    pub resign_score: i32,
    /// Resign plies.
    pub resign_plies: usize,
    /// Draw threshold.
    pub draw_score: i32,
    /// Draw plies.
    pub draw_plies: usize,
    /// Draw adjudication start.
    pub draw_after: usize,
    /// Ply limit.
    pub max_plies: usize,
    /// First ply written.
    pub min_ply: usize,
}

/// The content of `run.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct RunFile {
    /// The trainer's version.
    trainer_version: String,
    /// When the run started (seconds since 1970).
    created_unix: u64,
    /// The opening file as given, if any.
    book_path: Option<String>,
    /// The settings.
    settings: Settings,
}

/// Differences between two settings, as `name: old -> new` lines.
fn differences(old: &Settings, new: &Settings) -> Vec<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return vec!["(settings cannot be compared)".to_string()];
    };
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| {
            format!(
                "{k}: {v} in the directory, {} now",
                b.get(k).cloned().unwrap_or_default()
            )
        })
        .collect()
}

/// Openings drawn in game order, kept until the game that needs one asks for it.
struct Openings {
    generator: OpeningGenerator,
    ready: BTreeMap<u64, Opening>,
    needed: HashSet<u64>,
}

impl Openings {
    fn get(&mut self, index: u64) -> Result<Opening> {
        while self.generator.position() <= index {
            let i = self.generator.position();
            let o = self.generator.next_opening()?;
            if self.needed.contains(&i) {
                self.ready.insert(i, o);
            }
        }
        self.ready
            .remove(&index)
            .ok_or_else(|| anyhow!("internal error: opening {index} asked for twice"))
    }
}

struct ShardBuffer {
    games: Vec<Option<PlayedGame>>,
    missing: u64,
}

/// Counters of this session.
#[derive(Default)]
struct Tally {
    summary: ShardSummary,
    shards_written: u64,
    written_paths: Vec<u64>,
}

fn limits_text(nodes: Option<u64>, depth: Option<u32>) -> String {
    match (nodes, depth) {
        (Some(n), Some(d)) => format!("depth {d}, {n} nodes"),
        (Some(n), None) => format!("{n} nodes"),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => "no limit".to_string(),
    }
}

fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

fn make_engine(variant: Variant, hash: usize, eval: &EvalSource) -> Result<Engine> {
    let mut e = Engine::new();
    e.set_variant(variant);
    e.set_hash(hash);
    e.set_eval(eval.clone())?;
    Ok(e)
}

/// Runs `trainer selfplay`.
pub fn run(args: Args) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    if args.games_per_shard == 0 {
        bail!("--games-per-shard must be at least 1");
    }
    if args.max_plies == 0 {
        bail!("--max-plies must be at least 1");
    }
    let nodes = match (args.nodes, args.depth) {
        (None, None) => Some(DEFAULT_NODES),
        (n, _) => n,
    };
    if nodes == Some(0) || args.depth == Some(0) {
        bail!("--nodes and --depth must be at least 1");
    }
    let eval = EvalSource::parse(&args.net);
    let probe = make_engine(variant, 1, &eval).with_context(|| format!("--net {}", args.net))?;
    let eval_summary = probe.eval_summary();
    drop(probe);
    let book = match &args.book {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read opening file {}", path.display()))?;
            let lines = opening::read_book(variant, path)?;
            Some((lines, format!("{:016x}", engine::hash::fnv1a64(&bytes))))
        }
        None => None,
    };
    let random_plies = args.random_plies.unwrap_or(if book.is_some() {
        0
    } else {
        engine::play::openings::DEFAULT_RANDOM_PLIES
    });
    let settings = Settings {
        variant: variant.id().to_string(),
        nodes,
        depth: args.depth,
        eval: eval_summary.clone(),
        hash_mb: args.hash.max(1),
        seed: args.seed,
        games_per_shard: args.games_per_shard,
        first_game_id: args.first_game_id,
        random_plies,
        book_hash: book.as_ref().map(|(_, h)| h.clone()),
        opening_check_nodes: args.opening_check_nodes,
        opening_max_score: args.opening_max_score,
        resign_score: args.resign_score,
        resign_plies: args.resign_plies,
        draw_score: args.draw_score,
        draw_plies: args.draw_plies,
        draw_after: args.draw_after,
        max_plies: args.max_plies,
        min_ply: args.min_ply.unwrap_or(random_plies),
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("data").join("selfplay").join(variant.id()));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create output directory {}", out.display()))?;

    // The settings of the directory: written by the first run, the same for every resumption.
    let run_path = out.join(RUN_FILE);
    if run_path.exists() {
        let text = std::fs::read_to_string(&run_path).with_context(|| format!("cannot read {}", run_path.display()))?;
        let old: RunFile =
            serde_json::from_str(&text).with_context(|| format!("{} is not a run file", run_path.display()))?;
        let diff = differences(&old.settings, &settings);
        if !diff.is_empty() {
            bail!(
                "{} holds a run with other settings; continue it with the same settings or choose another --out:\n  {}",
                out.display(),
                diff.join("\n  ")
            );
        }
    }
    let existing = shard::scan(&out)?;
    let plan = shard::plan(&existing, args.games, args.games_per_shard);
    let last_index = plan.iter().map(|&(i, _)| i).max().unwrap_or(0);
    let last_id = u64::from(args.first_game_id) + (last_index + 1) * args.games_per_shard;
    if last_id > u64::from(u32::MAX) {
        bail!(
            "game ids would pass 2^32 (shard {last_index} of {} games): fewer games or a smaller --first-game-id",
            args.games_per_shard
        );
    }
    let mut removed_note = String::new();
    if !existing.removed.is_empty() {
        removed_note = format!(
            "removed {} leftover file(s) of an interrupted run: {}",
            existing.removed.len(),
            existing
                .removed
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if plan.is_empty() {
        if !args.quiet && !removed_note.is_empty() {
            eprintln!("{removed_note}");
        }
        println!(
            "selfplay {}: nothing to do, {} already holds {} games (asked for {}).",
            variant.id(),
            out.display(),
            existing.games(),
            args.games
        );
        print_directory(&out, &existing.total(), existing.shards.len());
        return Ok(());
    }
    let per_shard = args.games_per_shard;
    let jobs: Vec<(u64, u64)> = plan
        .iter()
        .flat_map(|&(i, n)| (0..n).map(move |slot| (i, slot)))
        .collect();
    let games_in: HashMap<u64, u64> = plan.iter().copied().collect();
    let source = match book {
        Some((lines, _)) => {
            if random_plies == 0 {
                let distinct = opening::distinct_ends(&lines) as u64;
                let needed = jobs.iter().map(|&(i, s)| i * per_shard + s + 1).max().unwrap_or(0);
                if distinct < needed {
                    bail!(
                        "the opening file has {distinct} distinct positions, but this run needs {needed} openings \
                         (every game's opening is different): add random plies after each line with --random-plies, \
                         or use a larger file"
                    );
                }
            }
            OpeningSource::Book(lines)
        }
        None => OpeningSource::Random,
    };
    let check = if args.opening_check_nodes > 0 {
        Some(Check::new(
            variant,
            &eval,
            args.opening_check_nodes,
            args.opening_max_score,
        )?)
    } else {
        None
    };
    let openings = Mutex::new(Openings {
        generator: OpeningGenerator::new(variant, source, random_plies, args.seed, check),
        ready: BTreeMap::new(),
        needed: jobs.iter().map(|&(i, s)| i * per_shard + s).collect(),
    });
    // Everything is checked: the directory now belongs to this run's settings.
    if !run_path.exists() {
        let run_file = RunFile {
            trainer_version: env!("CARGO_PKG_VERSION").to_string(),
            created_unix: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
            book_path: args.book.as_ref().map(|p| p.display().to_string()),
            settings: settings.clone(),
        };
        write_atomic(&run_path, serde_json::to_string_pretty(&run_file)?.as_bytes())?;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 1024)
        .min(jobs.len());
    let player = format!(
        "engine {} ({}, {})",
        env!("CARGO_PKG_VERSION"),
        limits_text(nodes, args.depth),
        if eval_summary == "hand-crafted" {
            "hce".to_string()
        } else {
            eval_summary.clone()
        }
    );
    let game_settings = GameSettings {
        variant,
        limits: Limits {
            nodes,
            depth: args.depth,
            ..Limits::default()
        },
        adjudication: Adjudication {
            resign_score: args.resign_score,
            resign_plies: args.resign_plies,
            draw_score: args.draw_score,
            draw_plies: args.draw_plies,
            draw_after: args.draw_after,
            max_plies: args.max_plies,
        },
        min_ply: settings.min_ply,
        layout: layout(variant),
        player,
        event: format!("trainer selfplay {} seed {}", variant.id(), args.seed),
    };

    let tty = std::io::stderr().is_terminal();
    let bar = if args.quiet || !tty {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr_with_hz(4));
        b.set_style(
            ProgressStyle::with_template("[{elapsed_precise}] {bar:24.cyan/blue} {pos}/{len} games | {msg}")
                .map_err(|e| anyhow!("progress bar template: {e}"))?
                .progress_chars("=> "),
        );
        b.set_position(existing.games());
        b
    };
    let log = |line: String| match (args.quiet, tty) {
        (true, _) => {}
        (false, true) => bar.println(line),
        (false, false) => eprintln!("{line}"),
    };
    log(format!(
        "selfplay {}: {} games to play ({} already in {}), {}, eval {}, {} thread(s), seed {}",
        variant.id(),
        jobs.len(),
        existing.games(),
        out.display(),
        limits_text(nodes, args.depth),
        eval_summary,
        threads,
        args.seed
    ));
    if !removed_note.is_empty() {
        log(removed_note);
    }
    if existing.games() > 0 && jobs.first().is_some_and(|&(i, _)| i > 0) {
        log(format!(
            "drawing the openings of the {} games already played again (they decide the next ones)...",
            existing.games()
        ));
    }

    let existing_games = existing.games();
    let started = Instant::now();
    let cursor = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let buffers: Mutex<HashMap<u64, ShardBuffer>> = Mutex::new(HashMap::new());
    let tally = Mutex::new(Tally::default());
    let total_shards = plan.len() as u64;

    let worker = || -> Result<()> {
        let mut engine: Option<Engine> = None;
        while !stop.load(Ordering::Relaxed) {
            let j = cursor.fetch_add(1, Ordering::Relaxed);
            let Some(&(index, slot)) = jobs.get(j) else {
                break;
            };
            let relative = index * per_shard + slot;
            let id = (u64::from(args.first_game_id) + relative) as u32;
            let opening = openings.lock().map_err(|_| anyhow!("a worker failed"))?.get(relative)?;
            let e = match &mut engine {
                Some(e) => e,
                None => engine.insert(make_engine(variant, settings.hash_mb, &eval)?),
            };
            let played = game::play(e, &opening, id, &game_settings)?;
            let finished_shard = {
                let mut t = tally.lock().map_err(|_| anyhow!("a worker failed"))?;
                t.summary.add_game(&played);
                let s = &t.summary;
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                let left = jobs.len() as f64 - s.games as f64;
                let eta = Duration::from_secs_f64(left * secs / s.games as f64);
                bar.set_position(existing_games + s.games);
                bar.set_message(format!(
                    "{} pos ({:.0}/s) | W/D/L {}/{}/{} | shards {}/{} | ETA {}",
                    thousands(s.positions),
                    s.positions as f64 / secs,
                    s.results.white,
                    s.results.draw,
                    s.results.black,
                    t.shards_written,
                    total_shards,
                    duration_text(eta)
                ));
                drop(t);
                let mut b = buffers.lock().map_err(|_| anyhow!("a worker failed"))?;
                let n = games_in.get(&index).copied().unwrap_or(0);
                let buf = b.entry(index).or_insert_with(|| ShardBuffer {
                    games: (0..n).map(|_| None).collect(),
                    missing: n,
                });
                buf.games[slot as usize] = Some(played);
                buf.missing -= 1;
                if buf.missing == 0 {
                    b.remove(&index)
                } else {
                    None
                }
            };
            if let Some(buf) = finished_shard {
                let games: Vec<PlayedGame> = buf.games.into_iter().flatten().collect();
                let summary = shard::write_shard(&out, index, &games)?;
                let mut t = tally.lock().map_err(|_| anyhow!("a worker failed"))?;
                t.shards_written += 1;
                t.written_paths.push(index);
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                log(format!(
                    "shard {} written: {} games, {} positions ({}/{} shards, {} positions/s, {})",
                    ShardPaths::new(&out, index).bin.display(),
                    summary.games,
                    thousands(summary.positions),
                    t.shards_written,
                    total_shards,
                    (t.summary.positions as f64 / secs).round(),
                    duration_text(started.elapsed())
                ));
            }
        }
        Ok(())
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("selfplay-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    pool.scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| {
                if let Err(e) = worker() {
                    stop.store(true, Ordering::Relaxed);
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e.context(format!(
            "selfplay stopped; complete shards in {} are kept, run the same command to continue",
            out.display()
        )));
    }
    let elapsed = started.elapsed();
    let t = tally.into_inner().map_err(|_| anyhow!("a worker failed"))?;
    let s = &t.summary;
    let generator_stats = openings.into_inner().ok().map(|o| o.generator);
    println!(
        "selfplay {} finished in {}: {} games, {} positions written",
        variant.id(),
        duration_text(elapsed),
        thousands(s.games),
        thousands(s.positions)
    );
    let secs = elapsed.as_secs_f64().max(1e-3);
    println!(
        "  speed          {:.0} positions/s, {:.2} games/s ({} thread(s), {}, eval {})",
        s.positions as f64 / secs,
        s.games as f64 / secs,
        threads,
        limits_text(nodes, args.depth),
        eval_summary
    );
    print_counts(s);
    if let Some(g) = generator_stats {
        println!(
            "  openings       {} drawn; rejected: {} repeated a position, {} ended the game, {} judged lost",
            g.position(),
            g.rejected_duplicate,
            g.rejected_ended,
            g.rejected_lost
        );
    }
    let mut written = t.written_paths;
    written.sort_unstable();
    let names: Vec<String> = written.iter().map(|&i| format!("shard_{i:06}")).collect();
    println!(
        "  written        {} shard(s) in {}: {} (.bin records, .pgn games, .json counts)",
        names.len(),
        out.display(),
        abbreviate(&names)
    );
    let all = shard::scan(&out)?;
    print_directory(&out, &all.total(), all.shards.len());
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

fn print_counts(s: &ShardSummary) {
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

fn print_directory(out: &Path, total: &ShardSummary, shards: usize) {
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
}
