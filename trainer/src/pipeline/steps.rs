//! The steps of a round: self-play, training and the matches, each in this process (the
//! trainer's own `selfplay` and `train`, the engine's match runner) or through the Ray drivers.

use std::{
    ffi::OsString,
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use anyhow::{anyhow, bail, Context, Result};
use clap::Parser;
use engine::{
    play::openings::{read_openings, DEFAULT_RANDOM_PLIES},
    rules::Variant,
    tournament::{name_programs, run_match, MatchConfig, OpeningSource, PlayerConfig},
};

use super::{matches::MatchSummary, plan::Eval, Current, Pipeline};
use crate::{selfplay, train};

/// `trainer selfplay`'s options, read from a command line as the subcommand reads them (so its
/// defaults are the ones the pipeline gets).
#[derive(Parser)]
struct SelfplayCommand {
    #[command(flatten)]
    args: selfplay::Args,
}

/// The arguments of a step, as text.
fn os_args(items: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    items.iter().map(|i| i.as_ref().to_os_string()).collect()
}

/// The games in a self-play directory that holds a run (its run.json) and its complete shards;
/// `None` when it holds no run.
pub fn generated(dir: &Path) -> Result<Option<u64>> {
    if !dir.join(selfplay::shard::RUN_FILE).is_file() {
        return Ok(None);
    }
    Ok(Some(selfplay::shard::scan(dir)?.games()))
}

/// The random opening plies of a self-play run begun in `out` (its run.json), `None` when no
/// run is there. A round completed by a newer build keeps the plies it began with, though the
/// variant's default may have changed since (Citadel 9x8's went from 3 to 4); every other
/// setting the pipeline passes explicitly. An unreadable run.json gives `None` here, and
/// self-play, reading it next, refuses it with a clear error.
fn begun_random_plies(out: &Path) -> Option<usize> {
    let settings = selfplay::read_settings(&out.join(selfplay::shard::RUN_FILE))
        .ok()
        .flatten();
    settings.map(|s| s.random_plies)
}

/// Generates (or completes) the self-play records of `variant` in `out`.
pub fn generate(p: &Pipeline, variant: &str, games: u64, eval: &Eval, seed: u64, out: &Path) -> Result<()> {
    let (games, nodes, seed, eval) = (
        games.to_string(),
        p.args.sp_nodes.to_string(),
        seed.to_string(),
        eval.to_string(),
    );
    let begun: Vec<OsString> = begun_random_plies(out)
        .map(|n| os_args(&[&"--random-plies", &n.to_string()]))
        .unwrap_or_default();
    if p.args.ray {
        let trainer = p.bin_dir.join("persian-trainer");
        let mut cmd = Command::new(&p.args.ray_python);
        cmd.args(os_args(&[
            &"scripts/ray/selfplay.py",
            &"--trainer",
            &trainer,
            &"--games",
            &games,
            &"--out",
            &out,
            &"--",
            &"--variant",
            &variant,
            &"--nodes",
            &nodes,
            &"--net",
            &eval,
            &"--seed",
            &seed,
        ]));
        cmd.args(&begun);
        return run_program(cmd, "the Ray self-play driver");
    }
    let threads = p.threads.to_string();
    let mut argv = os_args(&[
        &"selfplay",
        &"--variant",
        &variant,
        &"--games",
        &games,
        &"--nodes",
        &nodes,
        &"--net",
        &eval,
        &"--threads",
        &threads,
        &"--seed",
        &seed,
        &"--out",
        &out,
    ]);
    argv.extend(begun);
    let command = SelfplayCommand::try_parse_from(argv).map_err(|e| anyhow!("self-play settings: {e}"))?;
    selfplay::run(command.args).with_context(|| format!("self-play into {}", out.display()))
}

/// Trains a net of `variants` (the first its main variant) in `run` unless it is there: resumes
/// a run that has a checkpoint and no summary, skips one with its summary.
pub fn train(
    p: &Pipeline,
    run: &Path,
    variants: &[String],
    data: &[PathBuf],
    init: Option<&Path>,
    lr: f64,
    epochs: u64,
) -> Result<()> {
    if run.join("summary.json").exists() {
        return Ok(());
    }
    let a = &p.args;
    let threads = p.threads.to_string();
    let mut argv: Vec<OsString> = os_args(&[&"train", &"--out", &run, &"--threads", &threads]);
    if run.join("checkpoint.bin").exists() {
        argv.push("--resume".into());
    } else {
        argv.extend(os_args(&[&"--variant", &variants[0]]));
        for v in &variants[1..] {
            argv.extend(os_args(&[&"--also-variant", v]));
        }
        for d in data {
            argv.extend(os_args(&[&"--data", d]));
        }
        if let Some(init) = init {
            argv.extend(os_args(&[&"--init-from", &init]));
        }
        argv.extend(os_args(&[
            &"--hidden",
            &a.hidden.to_string(),
            &"--buckets",
            &a.buckets.to_string(),
            &"--king-buckets",
            &a.king_buckets.to_string(),
            &"--epochs",
            &epochs.to_string(),
            &"--wdl",
            &a.wdl.to_string(),
            &"--lr",
            &lr.to_string(),
        ]));
    }
    let args = train::Args::try_parse_from(argv).map_err(|e| anyhow!("training settings: {e}"))?;
    train::run(args).with_context(|| format!("training in {}", run.display()))
}

/// The spec of a player at the match nodes.
fn player(p: &Pipeline, name: &str, eval: &dyn std::fmt::Display) -> Result<PlayerConfig> {
    let spec = format!("name={name},nodes={},eval={eval}", p.args.match_nodes);
    PlayerConfig::parse_with(&spec, None).with_context(|| format!("match player '{spec}'"))
}

/// Plays the SPRT match of the new net of `variant` against its current evaluation and writes
/// the match's output to `file` (and its games next to it, `match.<variant>.pgn`).
#[allow(clippy::too_many_arguments)]
pub fn play(
    p: &Pipeline,
    variant: &str,
    run: &Path,
    net: &Path,
    name: &str,
    current: &Current,
    seed: u64,
    file: &Path,
) -> Result<MatchSummary> {
    let a = &p.args;
    let pgn = run.join(format!("match.{variant}.pgn"));
    let results = results_path(run, variant);
    // A match that an earlier run began (cut short, or stopped at a smaller cap) goes on from its
    // results file, its games appended to the PGN; else both start empty.
    if a.ray || !results.exists() {
        remove_if_there(&pgn)?;
        remove_if_there(&results)?;
    }
    let part = part_path(file);
    if a.ray {
        let ray_dir = ray_match_dir(run, variant);
        let engine = p.bin_dir.join("persian-engine");
        let first = format!("name={name},nodes={},eval={}", a.match_nodes, net.display());
        let second = format!("name={},nodes={},eval={}", current.name, a.match_nodes, current.eval);
        let (games, sprt, seed) = (
            a.match_games.to_string(),
            format!("{},{}", a.sprt.elo0, a.sprt.elo1),
            seed.to_string(),
        );
        let mut cmd = Command::new(&a.ray_python);
        cmd.args(os_args(&[
            &"scripts/ray/match.py",
            &"--engine",
            &engine,
            &"--games",
            &games,
            &"--sprt",
            &sprt,
            &"--out",
            &ray_dir,
            &"--",
            &"--variant",
            &variant,
            &"--first",
            &first,
            &"--second",
            &second,
            &"--seed",
            &seed,
        ]))
        .stdout(Stdio::null());
        run_program(cmd, "the Ray match driver")?;
        copy(&ray_dir.join("summary.txt"), &part)?;
        copy(&ray_dir.join("games.pgn"), &pgn)?;
        finish_match_file(&part, file)?;
        let summary = MatchSummary::read(file)?.unwrap_or_default();
        Ok(summary)
    } else {
        let mut config = MatchConfig::new(
            parse_variant(variant)?,
            a.match_games,
            player(p, name, &net.display())?,
            player(p, &current.name, &current.eval)?,
        );
        config.sprt = Some(a.sprt);
        config.pgn = Some(pgn.clone());
        config.results = Some(results);
        config.resume = true;
        config.openings = random_openings(seed);
        let (text, summary) = play_in_process(p, config)?;
        write(&part, &format!("{text}Games appended to {}\n", pgn.display()))?;
        finish_match_file(&part, file)?;
        Ok(summary)
    }
}

/// The results file of the SPRT match of `variant` in `run`: a line per finished game, from
/// which the match goes on when the pipeline runs again (cut short, or a raised --match-games).
pub fn results_path(run: &Path, variant: &str) -> PathBuf {
    run.join(format!("match.{variant}.results"))
}

/// The Ray match driver's directory for the SPRT match of `variant` in `run` (its parts, from
/// which the driver goes on when run again).
pub fn ray_match_dir(run: &Path, variant: &str) -> PathBuf {
    run.join(format!("match.{variant}.ray"))
}

/// Plays the fixed match of an accepted net against the hand-crafted evaluation into `file`.
pub fn play_hce(
    p: &Pipeline,
    variant: &str,
    net: &Path,
    name: &str,
    openings: OpeningSource,
    file: &Path,
) -> Result<MatchSummary> {
    let first = player(p, name, &net.display())?;
    let second = player(p, "hce", &Eval::Hce)?;
    let mut config = MatchConfig::new(parse_variant(variant)?, p.args.hce_games, first, second);
    config.openings = openings;
    // Its games beside it (a match cut short and played again starts the file again).
    let pgn = file.with_extension("pgn");
    remove_if_there(&pgn)?;
    config.pgn = Some(pgn);
    play_config(p, config, file)
}

/// Removes `path` where it is.
pub fn remove_if_there(path: &Path) -> Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// The pipeline's matches' openings when no file is given: random plies from `seed`.
pub fn random_openings(seed: u64) -> OpeningSource {
    OpeningSource::Random {
        plies: DEFAULT_RANDOM_PLIES,
        seed,
    }
}

/// The openings of `file` for `variant`'s match against the hand-crafted evaluation
/// (--hce-openings), each played with both colours.
pub fn hce_openings(variant: &str, file: &Path) -> Result<OpeningSource> {
    let openings = read_openings(parse_variant(variant)?, file)
        .with_context(|| format!("cannot read the openings of {variant} from {}", file.display()))?;
    if openings.is_empty() {
        bail!("{}: no opening in the file", file.display());
    }
    Ok(OpeningSource::List(openings))
}

/// Plays the fixed match of a candidate against `current` at equal time (`--match-tc`) into `file`.
pub fn play_time(
    p: &Pipeline,
    variant: &str,
    net: &Path,
    name: &str,
    current: &Current,
    seed: u64,
    file: &Path,
) -> Result<MatchSummary> {
    let timed = |name: &str, eval: &dyn std::fmt::Display| -> Result<PlayerConfig> {
        let spec = format!("name={name},eval={eval},{}", p.args.match_tc);
        PlayerConfig::parse_with(&spec, None).with_context(|| format!("match player '{spec}'"))
    };
    let first = timed(name, &net.display())?;
    let second = timed(&current.name, &current.eval)?;
    play_fixed(p, variant, p.args.time_games, first, second, seed, file)
}

/// Plays the fixed match of a candidate (at the match nodes) against the ladder net at
/// `multiple` times its nodes into `file`.
#[allow(clippy::too_many_arguments)]
pub fn play_rung(
    p: &Pipeline,
    variant: &str,
    net: &Path,
    name: &str,
    ladder: &Path,
    multiple: u64,
    seed: u64,
    file: &Path,
) -> Result<MatchSummary> {
    let first = player(p, name, &net.display())?;
    let spec = format!(
        "name=r1-x{multiple},nodes={},eval={}",
        p.args.match_nodes.saturating_mul(multiple),
        ladder.display()
    );
    let second = PlayerConfig::parse_with(&spec, None).with_context(|| format!("match player '{spec}'"))?;
    play_fixed(p, variant, p.args.ladder_games, first, second, seed, file)
}

/// Plays a fixed-length match in this process and writes its output to `file` (through a
/// `.part` file, so that a file that exists is a finished match).
fn play_fixed(
    p: &Pipeline,
    variant: &str,
    games: usize,
    first: PlayerConfig,
    second: PlayerConfig,
    seed: u64,
    file: &Path,
) -> Result<MatchSummary> {
    let mut config = MatchConfig::new(parse_variant(variant)?, games, first, second);
    config.openings = random_openings(seed);
    play_config(p, config, file)
}

/// Plays a fixed match of `config` (its openings given) into `file`.
fn play_config(p: &Pipeline, config: MatchConfig, file: &Path) -> Result<MatchSummary> {
    let (text, summary) = play_in_process(p, config)?;
    let part = part_path(file);
    write(&part, &text)?;
    finish_match_file(&part, file)?;
    Ok(summary)
}

/// Plays a match in this process from the openings of `config` on all threads; its output as
/// `engine match --quiet` prints it, and its summary.
fn play_in_process(p: &Pipeline, mut config: MatchConfig) -> Result<(String, MatchSummary)> {
    config.concurrency = p.threads;
    name_programs(&mut config)?;
    let mut text = format!(
        "Match {} ({}) vs {} ({}), {}, {} games, concurrency {}\n\n",
        config.first.name,
        config.first.spec(),
        config.second.name,
        config.second.spec(),
        config.variant.spec().name,
        config.games,
        config.concurrency
    );
    let report = run_match(&config, &mut |_, _| {})?;
    for line in report.summary_lines() {
        text.push_str(&line);
        text.push('\n');
    }
    Ok((text, MatchSummary::of_report(&report)))
}

/// Moves a finished match file into place and prints it.
fn finish_match_file(part: &Path, file: &Path) -> Result<()> {
    fs::rename(part, file).with_context(|| format!("cannot rename {} to {}", part.display(), file.display()))?;
    let text = fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    print!("{text}");
    Ok(())
}

fn part_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_os_string();
    name.push(".part");
    PathBuf::from(name)
}

fn parse_variant(id: &str) -> Result<Variant> {
    id.parse().map_err(|e| anyhow!("{e}"))
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    fs::copy(from, to)
        .map(|_| ())
        .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))
}

/// Runs a program to its end; a failure is an error naming `what`.
fn run_program(mut cmd: Command, what: &str) -> Result<()> {
    let status = cmd
        .status()
        .with_context(|| format!("cannot start {what} ({:?})", cmd.get_program()))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}
