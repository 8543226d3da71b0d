//! `trainer selfplay`: the engine plays itself from diverse openings; the positions it searched
//! become training records (`nnue::data`), the games PGN. See docs/training.md.

pub mod game;
pub mod opening;
pub mod pgn;
mod progress;
mod run_file;
pub mod shard;
mod summary;
mod workers;

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Mutex,
    },
    time::Instant,
};

use anyhow::{bail, Context, Result};
use engine::{
    engine::EvalSource,
    eval::nnue::layout,
    play::{
        openings::{distinct_ends, read_openings, DEFAULT_RANDOM_PLIES},
        Adjudication, DrawRule, Opening, OpeningSource, ResignRule,
    },
    rules::{tables::Tables, Position, Variant},
    search::Limits,
};

pub use self::run_file::{read_settings, EnginePlies, RunSettings};
use self::{
    game::GameSettings,
    opening::{duplicates, Check, OpeningGenerator, Rejections, Sampler, SamplerSettings, SearchCache},
    progress::Progress,
    shard::{Existing, RUN_FILE},
    summary::{duration_text, limits_text, percent, print_directory, Finished},
    workers::{make_engine, MakeGenerator, Session},
};
use crate::data::io::thousands;

/// Nodes per move when neither --nodes nor --depth is given.
pub const DEFAULT_NODES: u64 = 2000;

const LONG_ABOUT: &str = "\
Plays the engine against itself and writes the positions it searched as training records \
(64-byte records of nnue::data, see docs/training-data.md) and the games as PGN.

Every game starts from an opening of its own, drawn from the seed and the game's number alone: \
plies the engine chooses (--engine-plies, default 12) after random legal plies from the start \
position (--random-plies) or after the lines of an opening file (--book), skipping openings that \
end the game or that a quick search (--opening-check-nodes) scores beyond --opening-max-score \
for either side. Games end by the rules (mate, stalemate, citadel, repetition, 50 moves, dead \
material) or by adjudication: resign when the scores of --resign-plies consecutive plies all \
give the same side at least --resign-score, draw when --draw-plies consecutive plies from ply \
--draw-after on all score within --draw-score of 0, draw at --max-plies. Every position keeps \
the game's real or adjudicated result. Openings are not compared with each other, so two games \
may start from the same position: each shard's .json lists its games' opening hashes and the \
summary counts the repeats over the whole run (--dry-run counts them without playing).

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
    /// Variant id or alias (`engine variants` lists them).
    #[arg(short, long, default_value_t = Variant::DEFAULT)]
    pub variant: Variant,
    /// Rule settings of the variant, for the readings its rules leave open (as for `engine
    /// perft --rules`; Parsi Chess: `ludii`, `opening_series=3`, ...; docs/rules.md lists them).
    /// Empty: the variant's defaults. The games' PGN carry them in a `VariantRules` tag.
    #[arg(long, value_name = "SETTINGS", default_value = "")]
    pub rules: String,
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
    #[arg(long, default_value_t = EvalSource::Default)]
    pub net: EvalSource,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory (default data/selfplay/<variant>/).
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Transposition table per engine, MB (one engine per thread).
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
    /// Random legal plies at the start of every game, before the engine's (default 3, 4 for
    /// Citadel 9x8, Celtic Citadel and Egyptian Eye, 5 for Parsi Chess: with the engine's plies
    /// alone a long run repeats its openings, about one game in four over 100,000; 8 with
    /// --engine-plies 0; 0 with --book, after whose lines they are played).
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
    /// Plies chosen by the engine after the random (or book) ones: each a MultiPV search of
    /// --engine-ply-nodes nodes, one of its lines within --engine-ply-max-loss of the best drawn
    /// with weights exp((score - best) / --engine-ply-temperature). Deterministic for a seed.
    /// The PGN gives them score comments and an `EnginePlies` tag, and `trainer openings` counts
    /// them (it leaves out only the `OpeningPlies`). 0: none, the openings are random plies
    /// (8 unless --random-plies says otherwise), as before this option existed.
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub engine_plies: usize,
    /// Nodes of each search that picks an engine ply.
    #[arg(long, value_name = "NODES", default_value_t = 4000)]
    pub engine_ply_nodes: u64,
    /// Lines of each search that picks an engine ply.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub engine_ply_multipv: usize,
    /// Softmax temperature of the engine plies, centipawns (0: always the best line).
    #[arg(long, value_name = "CP", default_value_t = 30)]
    pub engine_ply_temperature: u32,
    /// Lines scored more than this many centipawns below the best are never picked.
    #[arg(long, value_name = "CP", default_value_t = 60)]
    pub engine_ply_max_loss: i32,
    /// Opening file: one opening per line, a FEN, a FEN followed by `moves` and UCI moves, or
    /// UCI moves from the start position; '#' starts a comment. Lines are used in order, from
    /// the top again when more games are needed (game i starts from line i, or a later one when
    /// that one is skipped).
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
    /// Play only these shards of the run, by index (`3`, `0,2`, `4-7`): `--games` stays the
    /// run's total, which fixes each shard's games. Several machines can share a run this way,
    /// each playing its shards into a directory of its own: their shard files are the ones a
    /// single machine writes with the same settings, byte for byte, and put together they make
    /// one directory (each `run.json` holds the same settings).
    #[arg(long, value_name = "LIST", value_parser = parse_shards)]
    pub shards: Option<std::collections::BTreeSet<u64>>,
    /// No progress bar and no per-shard lines; only the summary.
    #[arg(short, long)]
    pub quiet: bool,
    /// Only draw the openings of the run's games (all of them, or those of --shards), on
    /// --threads threads, and report how many repeat an earlier one: no game is played, the
    /// output directory is neither read nor written. For sizing a run's openings.
    #[arg(long)]
    pub dry_run: bool,
}

/// Reads `--shards`: indices and ranges separated by commas (`0,2,4-7`).
fn parse_shards(text: &str) -> std::result::Result<std::collections::BTreeSet<u64>, String> {
    let mut out = std::collections::BTreeSet::new();
    for part in text.split(',').map(str::trim) {
        let bad = || format!("'{part}': shards are indices or ranges, e.g. 3, 0,2 or 4-7");
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u64, u64) = (
                    a.trim().parse().map_err(|_| bad())?,
                    b.trim().parse().map_err(|_| bad())?,
                );
                if a > b || b - a > 1_000_000 {
                    return Err(bad());
                }
                out.extend(a..=b);
            }
            None => {
                out.insert(part.parse().map_err(|_| bad())?);
            }
        }
    }
    Ok(out)
}

/// The openings file of a run, with the hash of its content.
struct Book {
    lines: Vec<Opening>,
    hash: String,
}

/// Checks the arguments that need no file; returns the nodes per move.
fn check_args(args: &Args) -> Result<Option<u64>> {
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
    Ok(nodes)
}

/// Reads the openings file, if one is given.
fn read_book(path: Option<&Path>, variant: Variant, rules: &'static Tables) -> Result<Option<Book>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let bytes = std::fs::read(path).with_context(|| format!("cannot read opening file {}", path.display()))?;
    // Each line under the run's rules: its moves up to the first one they forbid.
    let lines = read_openings(variant, path)?.iter().map(|o| o.under(rules)).collect();
    Ok(Some(Book {
        lines,
        hash: format!("{:016x}", engine::hash::fnv1a64(&bytes)),
    }))
}

impl RunSettings {
    fn of_args(
        args: &Args,
        variant: Variant,
        rules: &str,
        nodes: Option<u64>,
        eval: &str,
        random_plies: usize,
        book: Option<&Book>,
    ) -> RunSettings {
        RunSettings {
            variant: variant.id().to_string(),
            rules: rules.to_string(),
            nodes,
            depth: args.depth,
            eval: eval.to_string(),
            hash_mb: args.hash.max(1),
            seed: args.seed,
            games_per_shard: args.games_per_shard,
            first_game_id: args.first_game_id,
            random_plies,
            book_hash: book.map(|b| b.hash.clone()),
            opening_check_nodes: args.opening_check_nodes,
            opening_max_score: args.opening_max_score,
            resign_score: args.resign_score,
            resign_plies: args.resign_plies,
            draw_score: args.draw_score,
            draw_plies: args.draw_plies,
            draw_after: args.draw_after,
            max_plies: args.max_plies,
            min_ply: args.min_ply.unwrap_or(random_plies),
            engine_plies: (args.engine_plies > 0).then_some(EnginePlies {
                plies: args.engine_plies,
                nodes: args.engine_ply_nodes.max(1),
                multipv: args.engine_ply_multipv.max(1),
                temperature: args.engine_ply_temperature,
                max_loss: args.engine_ply_max_loss.max(0),
            }),
        }
    }
}

/// Refuses a plan whose game ids would not fit in 32 bits.
fn check_game_ids(plan: &[(u64, u64)], games_per_shard: u64, first_game_id: u32) -> Result<()> {
    let last_index = plan.iter().map(|&(i, _)| i).max().unwrap_or(0);
    let last_id = u64::from(first_game_id) + (last_index + 1) * games_per_shard;
    if last_id > u64::from(u32::MAX) {
        bail!(
            "game ids would pass 2^32 (shard {last_index} of {games_per_shard} games): fewer games or a smaller \
             --first-game-id"
        );
    }
    Ok(())
}

/// The note on leftovers of an interrupted run that the clean-up removed (empty when none).
fn removed_note(removed: &[PathBuf]) -> String {
    if removed.is_empty() {
        return String::new();
    }
    format!(
        "removed {} leftover file(s) of an interrupted run: {}",
        removed.len(),
        removed
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Where the openings come from; refuses an openings file without random or engine plies that
/// has fewer distinct positions than the run needs (`needed`: openings drawn up to the last game).
fn opening_source(
    book: Option<Book>,
    random_plies: usize,
    engine_plies: usize,
    seed: u64,
    needed: u64,
) -> Result<OpeningSource> {
    let Some(book) = book else {
        return Ok(OpeningSource::Random {
            plies: random_plies,
            seed,
        });
    };
    if random_plies == 0 && engine_plies == 0 {
        let distinct = distinct_ends(&book.lines) as u64;
        if distinct < needed {
            bail!(
                "the opening file has {distinct} distinct positions, but this run needs {needed} openings (without \
                 random or engine plies, games beyond the file's positions would repeat its openings): add random plies after each line with --random-plies, engine plies with --engine-plies, or \
                 use a larger file"
            );
        }
    }
    Ok(OpeningSource::list(book.lines, random_plies, seed))
}

/// Says that the directory already holds the games asked for.
fn nothing_to_do(args: &Args, variant: Variant, out: &Path, existing: &Existing, removed_note: &str) {
    if !args.quiet && !removed_note.is_empty() {
        eprintln!("{removed_note}");
    }
    match &args.shards {
        Some(only) => println!(
            "selfplay {}: nothing to do, {} already holds shard(s) {}.",
            variant.id(),
            out.display(),
            only.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        ),
        None => println!(
            "selfplay {}: nothing to do, {} already holds {} games (asked for {}).",
            variant.id(),
            out.display(),
            existing.games(),
            args.games
        ),
    }
    print_directory(out, &existing.total(), existing.shards.len());
}

/// The quick search that rejects lost openings, unless `--opening-check-nodes 0`.
fn opening_check(args: &Args, variant: Variant, eval: &EvalSource) -> Result<Option<Check>> {
    if args.opening_check_nodes == 0 {
        return Ok(None);
    }
    Ok(Some(Check::new(
        variant,
        eval,
        args.opening_check_nodes,
        args.opening_max_score,
    )?))
}

/// Everything a game of the run needs besides the engine and the opening.
fn game_settings(
    args: &Args,
    variant: Variant,
    nodes: Option<u64>,
    min_ply: usize,
    eval_summary: &str,
) -> GameSettings {
    let player = format!(
        "engine {} ({}, {})",
        env!("CARGO_PKG_VERSION"),
        limits_text(nodes, args.depth),
        if eval_summary == "hand-crafted" {
            "hce".to_string()
        } else {
            eval_summary.to_string()
        }
    );
    GameSettings {
        variant,
        limits: Limits {
            nodes,
            depth: args.depth,
            ..Limits::default()
        },
        adjudication: Adjudication {
            max_plies: args.max_plies,
            resign: (args.resign_plies > 0).then_some(ResignRule {
                score_cp: args.resign_score,
                plies: args.resign_plies,
            }),
            draw: (args.draw_plies > 0).then_some(DrawRule {
                score_cp: args.draw_score,
                plies: args.draw_plies,
                after_ply: args.draw_after,
            }),
        },
        min_ply,
        layout: layout(variant),
        player,
        event: format!("trainer selfplay {} seed {}", variant.id(), args.seed),
    }
}

/// Runs `trainer selfplay`.
pub fn run(args: Args) -> Result<()> {
    let variant = args.variant;
    let rules = variant
        .tables_with(&args.rules)
        .with_context(|| format!("--rules {}", args.rules))?;
    let nodes = check_args(&args)?;
    let eval = args.net.clone();
    let eval_summary = make_engine(variant, 1, &eval)
        .with_context(|| format!("--net {}", args.net))?
        .eval_summary();
    let book = read_book(args.book.as_deref(), variant, rules)?;
    let random_plies = args.random_plies.unwrap_or(if book.is_some() {
        0
    } else if args.engine_plies > 0 {
        // The variant's own default (docs/training.md, "Openings of a run").
        variant.spec().selfplay_random_plies
    } else {
        DEFAULT_RANDOM_PLIES
    });
    let settings = RunSettings::of_args(
        &args,
        variant,
        rules.rules.settings(),
        nodes,
        &eval_summary,
        random_plies,
        book.as_ref(),
    );
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("data").join("selfplay").join(variant.id()));

    let per_shard = args.games_per_shard;
    let start = Position::from_fen_in(rules, rules.spec.start_fen)
        .map_err(|e| anyhow::anyhow!("the start position under --rules {}: {e}", args.rules))?;
    // Each worker draws the openings of its games with a generator of its own; the searches of
    // the engine plies are shared.
    let cache = Arc::new(SearchCache::default());
    let make_generator = |source: &OpeningSource| -> Result<OpeningGenerator> {
        let check = opening_check(&args, variant, &eval)?;
        let sampler = match settings.engine_plies {
            Some(e) => Some(Sampler::new(
                variant,
                &eval,
                SamplerSettings {
                    plies: e.plies,
                    nodes: e.nodes,
                    multipv: e.multipv,
                    temperature: f64::from(e.temperature),
                    max_loss: e.max_loss,
                },
                Arc::clone(&cache),
            )?),
            None => None,
        };
        Ok(OpeningGenerator::new(start.clone(), source.clone(), check).with_sampler(sampler))
    };
    let threads_for = |jobs: usize| {
        args.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, 1024)
            .min(jobs.max(1))
    };

    if args.dry_run {
        let shards = args.games.div_ceil(per_shard);
        let plan: Vec<(u64, u64)> = (0..shards)
            .filter(|i| args.shards.as_ref().is_none_or(|only| only.contains(i)))
            .map(|i| (i, per_shard.min(args.games - i * per_shard)))
            .collect();
        check_shards_in_run(&args, shards)?;
        let games: Vec<u64> = plan
            .iter()
            .flat_map(|&(i, n)| (0..n).map(move |slot| i * per_shard + slot))
            .collect();
        let needed = games.last().map_or(0, |&g| g + 1);
        let source = opening_source(book, random_plies, args.engine_plies, args.seed, needed)?;
        let make = || make_generator(&source);
        return dry_run(
            &args,
            &variant_label(variant, rules),
            &games,
            &make,
            threads_for(games.len()),
        );
    }

    std::fs::create_dir_all(&out).with_context(|| format!("cannot create output directory {}", out.display()))?;
    // The settings of the directory: written by the first run, the same for every resumption.
    let run_path = out.join(RUN_FILE);
    let earlier_run = run_file::check_same_settings(&run_path, &out, &settings)?;
    let removed = shard::clean(&out)?;
    let existing = shard::scan(&out)?;
    let mut plan = shard::plan(&existing, args.games, per_shard);
    if let Some(only) = &args.shards {
        check_shards_in_run(&args, args.games.div_ceil(per_shard))?;
        // Shard i of the run holds per-shard games, the last one the rest.
        plan = only
            .iter()
            .filter(|i| !existing.shards.contains_key(i))
            .map(|&i| (i, per_shard.min(args.games - i * per_shard)))
            .collect();
    }
    check_game_ids(&plan, per_shard, args.first_game_id)?;
    let removed_note = removed_note(&removed);
    if plan.is_empty() {
        nothing_to_do(&args, variant, &out, &existing, &removed_note);
        return Ok(());
    }
    if let Some(why) = earlier_run {
        bail!("{why}");
    }
    let jobs: Vec<(u64, u64)> = plan
        .iter()
        .flat_map(|&(i, n)| (0..n).map(move |slot| (i, slot)))
        .collect();
    let games_in: HashMap<u64, u64> = plan.iter().copied().collect();
    let needed = jobs.iter().map(|&(i, s)| i * per_shard + s + 1).max().unwrap_or(0);
    let source = opening_source(book, random_plies, args.engine_plies, args.seed, needed)?;
    let make = || make_generator(&source);
    // Everything is checked: the directory now belongs to this run's settings.
    run_file::write_if_new(&run_path, args.book.as_deref(), &settings)?;
    let threads = threads_for(jobs.len());
    let game_settings = game_settings(&args, variant, nodes, settings.min_ply, &eval_summary);

    let progress = Progress::new(args.quiet, args.games, existing.games())?;
    let variant_label = variant_label(variant, rules);
    progress.log(format!(
        "selfplay {}: {} games to play ({} already in {}), {}, eval {}, {} thread(s), seed {}",
        variant_label,
        jobs.len(),
        existing.games(),
        out.display(),
        limits_text(nodes, args.depth),
        eval_summary,
        threads,
        args.seed
    ));
    if !removed_note.is_empty() {
        progress.log(removed_note);
    }

    let started = Instant::now();
    let session = Session {
        out: &out,
        jobs: &jobs,
        games_in: &games_in,
        per_shard,
        first_game_id: args.first_game_id,
        eval: &eval,
        hash_mb: settings.hash_mb,
        game_settings: &game_settings,
        openings: &make,
        total_shards: plan.len() as u64,
        existing_games: existing.games(),
        progress: &progress,
        started,
    };
    let tally = workers::play_all(&session, threads)?.map_err(|e| {
        e.context(format!(
            "selfplay stopped; complete shards in {} are kept, run the same command to continue",
            out.display()
        ))
    })?;
    let elapsed = started.elapsed();
    summary::print_finished(Finished {
        variant: &variant_label,
        out: &out,
        summary: &tally.summary,
        elapsed,
        threads,
        limits: limits_text(nodes, args.depth),
        eval: &eval_summary,
        openings: tally.openings,
        written: tally.written_paths,
    })
}

/// The variant in words, with its rule settings when there are some.
fn variant_label(variant: Variant, rules: &Tables) -> String {
    if rules.rules.settings().is_empty() {
        variant.id().to_string()
    } else {
        format!("{} (rules {})", variant.id(), rules.rules.settings())
    }
}

/// Refuses `--shards` beyond the run's `shards` shards.
fn check_shards_in_run(args: &Args, shards: u64) -> Result<()> {
    if let Some(beyond) = args.shards.iter().flatten().find(|&&i| i >= shards) {
        bail!(
            "--shards {beyond}: the run of {} games has {shards} shard(s) of {} (indices 0 to {})",
            args.games,
            args.games_per_shard,
            shards.saturating_sub(1)
        );
    }
    Ok(())
}

/// `--dry-run`: draws the openings of `games` (numbered from the run's first game) on `threads`
/// threads and reports their repeats.
fn dry_run(args: &Args, variant: &str, games: &[u64], make: &MakeGenerator<'_>, threads: usize) -> Result<()> {
    let started = Instant::now();
    let cursor = AtomicUsize::new(0);
    let hashes = Mutex::new(vec![0u64; games.len()]);
    // The openings drawn so far and how many, for the progress lines' repeats: a long run stopped
    // early has still measured the rate among the games it drew (in about the order of their
    // numbers).
    let seen = Mutex::new((std::collections::HashSet::with_capacity(games.len()), 0u64));
    let totals = Mutex::new(Rejections::default());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let step = (games.len() as u64 / 20).max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let work = || -> Result<()> {
                    let mut generator = make()?;
                    let mut mine = Vec::new();
                    let result = loop {
                        let j = cursor.fetch_add(1, Ordering::Relaxed);
                        let Some(&game) = games.get(j) else { break Ok(()) };
                        if failure.lock().map_or(true, |f| f.is_some()) {
                            break Ok(());
                        }
                        let hash = match generator.opening(game) {
                            Ok(o) => o.hash,
                            Err(e) => break Err(e),
                        };
                        mine.push((j, hash));
                        let Ok((n, distinct)) = seen.lock().map(|mut s| {
                            s.0.insert(hash);
                            s.1 += 1;
                            (s.1, s.0.len() as u64)
                        }) else {
                            break Err(anyhow::anyhow!("a worker failed"));
                        };
                        let repeated = n - distinct;
                        if !args.quiet && n.is_multiple_of(step) {
                            eprintln!(
                                "  {} of {} openings drawn ({}), {} repeat an earlier one ({})",
                                thousands(n),
                                thousands(games.len() as u64),
                                duration_text(started.elapsed()),
                                thousands(repeated),
                                percent(repeated, n)
                            );
                        }
                    };
                    if let Ok(mut h) = hashes.lock() {
                        mine.iter().for_each(|&(j, hash)| h[j] = hash);
                    }
                    if let Ok(mut t) = totals.lock() {
                        t.add(&generator.rejections);
                    }
                    result
                };
                if let Err(e) = work() {
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let elapsed = started.elapsed();
    let hashes = hashes.into_inner().map_err(|_| anyhow::anyhow!("a worker failed"))?;
    let totals = totals.into_inner().map_err(|_| anyhow::anyhow!("a worker failed"))?;
    let repeats = duplicates(&hashes);
    let (drawn, repeated) = (repeats.games, repeats.repeated);
    println!(
        "selfplay {variant} --dry-run: the openings of {} games (game {} to {}), seed {}, drawn in {} on {} thread(s), \
         {:.1} ms per opening and thread",
        thousands(drawn),
        games.first().copied().unwrap_or(0),
        games.last().copied().unwrap_or(0),
        args.seed,
        duration_text(elapsed),
        threads,
        elapsed.as_secs_f64() * 1000.0 * threads as f64 / drawn.max(1) as f64
    );
    println!(
        "  openings       {} distinct, {} repeat an earlier one ({}); rejected tries: {} ended the game, {} judged lost",
        thousands(drawn - repeated),
        thousands(repeated),
        percent(repeated, drawn),
        thousands(totals.ended),
        thousands(totals.lost)
    );
    // The repeats among the first games, for how they grow with a run's length (the openings of
    // the first n games are those of any longer run).
    let prefixes: Vec<usize> = std::iter::successors(Some(1000usize), |n| n.checked_mul(10))
        .take_while(|&n| n < hashes.len())
        .flat_map(|n| [n, 3 * n])
        .filter(|&n| n < hashes.len())
        .collect();
    if !prefixes.is_empty() && games.windows(2).all(|w| w[1] == w[0] + 1) {
        let parts: Vec<String> = prefixes
            .iter()
            .map(|&n| {
                let r = duplicates(&hashes[..n]);
                let (drawn, repeated) = (r.games, r.repeated);
                format!(
                    "{} in {} ({})",
                    thousands(repeated),
                    thousands(drawn),
                    percent(repeated, drawn)
                )
            })
            .collect();
        println!("  repeats among the first games: {}", parts.join(", "));
    }
    if let Some(line) = summary::projection_line(&repeats) {
        println!("{line}");
    }
    println!("  nothing played, nothing written");
    Ok(())
}
