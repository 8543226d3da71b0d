//! `trainer pipeline`: the NNUE learning loop, round by round, unattended and resumable.
//!
//! A round generates self-play records with the current evaluation of each variant
//! ([`steps::generate`]), trains a net on the records of the last `--window` rounds
//! ([`steps::train`]), plays it against the current evaluation with an SPRT ([`steps::play`]),
//! and, where the SPRT accepts it, installs it with its report and appends a line to the rounds
//! table ([`report`]). Every step leaves files that say it is done, so the same command after an
//! interruption goes on where it stopped.

mod matches;
mod plan;
mod report;
mod steps;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use engine::{
    rules::Variant,
    tournament::{PlayerConfig, Sprt, SprtVerdict},
};

use self::{
    matches::{MatchSummary, Rung, Yardsticks},
    plan::{Eval, GamesByVariant, VariantSet},
};

const LONG_ABOUT: &str = "\
The NNUE pipeline, round by round, unattended and resumable:

  1. generate self-play records with the current evaluation (round 1: the hand-crafted one);
  2. train a net on them (as `trainer train`);
  3. play it against the current evaluation at equal nodes with an SPRT (as `engine match`);
  4. if H1 is accepted, copy it to <nets-dir>/<variant>.nnue with a report <nets-dir>/<variant>.md
     (data, settings, losses, match, the command to reproduce);
  5. optionally (--hce-games > 0) play the new net against the hand-crafted evaluation, a fixed
     number of games, for its Elo;
  6. append a line per variant to the rounds table of --strength.

Beside its SPRT every candidate, accepted or not, plays two fixed yardsticks (their results go \
to the rounds table and the installed net's report): --time-games games at equal time \
(--match-tc) against the evaluation its SPRT played, and --ladder-games games per rung against \
the variant's round-1 net (--ladder-dir) searching 1, 2, 4 (--ladder-rungs) times its nodes; a \
rung is beaten above 50 %.

With several variants (`all` is the four Persian sub-variants) the variants share one net per \
round: it is trained on all their records (they must share the board), written once per \
variant, and each variant's copy must pass its own match. With one variant, the net learns from \
that variant's records only. Round r generates with the nets of round r-1 and trains on the \
records of the last --window rounds (the newest games are the best play, the older ones keep it \
from forgetting); with --init true (the default) rounds that have a net to start from start from \
the newest current net's weights at --lr-later (the net of the latest round among the variants: \
accepted in this run, or named by its report in --nets-dir; on a tie, or where no report names \
one, the file modified last). With --fine-tune-epochs N each variant's copy of a joint net is \
trained N more epochs on that variant's records alone before its match, and that copy plays it.

Run the same command again after an interruption: finished steps are skipped (the self-play \
directory already holds its games, the run its summary.json, the match its verdict; a training \
run with a checkpoint and no summary resumes from the checkpoint). An SPRT match cut short goes \
on from the games it had finished (its match.<variant>.results in the round's run; with --ray the \
driver's parts in match.<variant>.ray), and one that \
stopped undecided at its cap goes on when the command runs again with a larger --match-games: the \
same series of openings, the SPRT over all the games, and a net it accepts is installed then (the \
rounds table gets a line for the new verdict). To play a match again from its first game, remove \
its match.<variant>.txt and match.<variant>.results (with --ray: its match.<variant>.ray).

Self-play, training and the matches run in this process. With --ray, self-play and the SPRT \
matches run through the Ray drivers (scripts/ray/selfplay.py, scripts/ray/match.py, \
docs/scale-out.md) on RAY_ADDRESS's cluster, else on a local Ray, with the trainer and engine \
binaries of --bin-dir; nets given to self-play and matches must then be at the same path on every \
worker. Paths are relative to the working directory, normally the repository root.

scripts/pipeline.sh runs this command with its settings taken from environment variables \
(GAMES, SP_NODES, ... as the flags' names in capitals).

Example: trainer pipeline --variants all --rounds 4 --first-round 2 --games 8000";

/// Options of `trainer pipeline`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = LONG_ABOUT)]
pub struct Args {
    /// The variants: `all` (the four Persian sub-variants, one joint net), one variant (a net of
    /// its own), or several separated by commas (one joint net; they must share the board).
    #[arg(long, value_name = "all|VARIANT[,VARIANT...]")]
    pub variants: VariantSet,
    /// The last round to play (default: --first-round, one round).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// The round to start at; from round 2 on the current nets are those in --nets-dir (e.g.
    /// --first-round 2 continues from the installed nets).
    #[arg(long, default_value_t = 1)]
    pub first_round: u32,
    /// Self-play games per variant and round.
    #[arg(long, default_value_t = 30000)]
    pub games: u64,
    /// Other numbers of self-play games for some variants, e.g.
    /// "egyptian-eye=20000,oriental-omega=20000" (the rest play --games).
    #[arg(long, value_name = "VARIANT=GAMES,...", default_value = "")]
    pub games_by_variant: GamesByVariant,
    /// Nodes per self-play move.
    #[arg(long, default_value_t = 1000)]
    pub sp_nodes: u64,
    /// Hidden neurons of the nets.
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// Output buckets by material of the nets (1 = a single output; a one-bucket start net is
    /// copied into every bucket).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// King buckets of the nets (0 = none; 2 or 4, see `trainer train --help`; a start net
    /// without them is copied into every bucket).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub king_buckets: usize,
    /// Training epochs.
    #[arg(long, default_value_t = 8)]
    pub epochs: u64,
    /// Weight of the game result in the training target (the rest is the search score).
    #[arg(long, default_value_t = 0.0)]
    pub wdl: f32,
    /// Initial learning rate of rounds that train from scratch.
    #[arg(long, default_value_t = 0.002)]
    pub lr: f64,
    /// Learning rate of rounds that start from a net (--init, --init-from).
    #[arg(long, default_value_t = 0.0005)]
    pub lr_later: f64,
    /// true: rounds with a current net start from its weights (for a joint net, the newest of
    /// the variants' nets: latest round, then latest modification); false: every round trains
    /// from scratch.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub init: bool,
    /// The weights (.nnue or a run's checkpoint.bin) the first round's training starts from
    /// instead of the current net's, e.g. to train a second candidate of a round from the same
    /// weights with other settings (in another --runs-dir).
    #[arg(long, value_name = "FILE")]
    pub init_from: Option<PathBuf>,
    /// The new nets' name in the matches (default r<round>), e.g. r4b for a second candidate.
    #[arg(long)]
    pub name: Option<String>,
    /// The installed nets' name in the first round's matches (e.g. r4 for a second candidate of
    /// round 4, which plays the first where it was installed); by default r<n>, n the round their
    /// report <nets-dir>/<variant>.md names (nets of different rounds can be installed side by
    /// side), else "installed".
    #[arg(long, value_name = "NAME")]
    pub previous_name: Option<String>,
    /// Rounds of records to train on (this round's and the WINDOW-1 before it).
    #[arg(long, default_value_t = 2)]
    pub window: u32,
    /// Nodes per match move (both sides).
    #[arg(long, default_value_t = 2000)]
    pub match_nodes: u64,
    /// Most games of each SPRT match (the cap: a match undecided there keeps the installed net;
    /// run again with a larger cap to take it further).
    #[arg(long, default_value_t = 2000)]
    pub match_games: usize,
    /// The SPRT's bounds, elo0,elo1.
    #[arg(long, value_name = "ELO0,ELO1", default_value = "0,50", value_parser = parse_sprt)]
    pub sprt: Sprt,
    /// Threads of self-play, training and the matches (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Games of the extra fixed match of each accepted net (from round 2 on) against the
    /// hand-crafted evaluation (0: none).
    #[arg(long, default_value_t = 0)]
    pub hce_games: usize,
    /// Seed of the openings of the match against the hand-crafted evaluation (default: the
    /// round's seed, as every match of the round). A fixed seed plays the same openings in every
    /// round, so that rounds compare on one set: which openings are drawn moves the result by
    /// tens of Elo (docs/strength.md, Citadel 9x8 round 7).
    #[arg(long, value_name = "SEED")]
    pub hce_seed: Option<u64>,
    /// An openings file for one variant's match against the hand-crafted evaluation, as
    /// `VARIANT=FILE` (repeatable; any format `engine match --openings` reads; each opening is
    /// played with both colours, in order, from the top again when the match needs more): a
    /// fixed set of balanced openings such as data/openings/parsi-balanced.txt measures without
    /// the random openings decided before the nets play (docs/strength.md, Parsi round 13). The
    /// other variants play random openings (--hce-seed).
    #[arg(long, value_name = "VARIANT=FILE", value_parser = parse_variant_file)]
    pub hce_openings: Vec<(String, PathBuf)>,
    /// Games of the fixed match at equal time of every candidate against the evaluation its SPRT
    /// played (the previous net; round 1: the hand-crafted one), at --match-tc (0: none).
    #[arg(long, default_value_t = 100)]
    pub time_games: usize,
    /// The time limit of the equal-time match, as a match player gives it: `movetime=MS`,
    /// `st=SECONDS` or `tc=[MOVES/]SECONDS[+INCREMENT]` (with `timemargin=MS` if wanted).
    #[arg(long, value_name = "LIMIT", default_value = "movetime=50", value_parser = parse_match_tc)]
    pub match_tc: String,
    /// Games per rung of the reference ladder: every candidate plays the round-1 net of its
    /// variant (--ladder-dir) at each of --ladder-rungs times its own nodes (0: no ladder).
    #[arg(long, default_value_t = 100)]
    pub ladder_games: usize,
    /// The rungs of the ladder: multiples of --match-nodes the ladder net searches.
    #[arg(long, value_name = "K,K,...", default_value = "1,2,4", value_parser = parse_rungs)]
    pub ladder_rungs: Rungs,
    /// The fixed reference nets: <variant>.r1.nnue (a variant without one plays no ladder).
    #[arg(long, value_name = "DIR", default_value = "data/nets/ladder")]
    pub ladder_dir: PathBuf,
    /// Epochs of a per-variant fine-tune of a joint net on that variant's records before its
    /// match (0: none; joint nets only). Each variant then plays, and may install, its own
    /// fine-tuned copy.
    #[arg(long, default_value_t = 0)]
    pub fine_tune_epochs: u64,
    /// Whether each candidate's scale is fitted to the net its SPRT plays before its matches, so
    /// that both search with the same margins (docs/training.md, "A net's scale"): the scale at
    /// which the candidate's median absolute evaluation over its variant's records of the
    /// window (20,000 positions) equals that net's; the fitted copy is
    /// calibrated.<variant>.nnue beside the candidate, and it plays and is installed. `auto`:
    /// when that net was calibrated (its scale is not the training scale, 400); `match`:
    /// whenever it is a net; `off`: never (the candidate plays as trained).
    #[arg(long, value_enum, default_value_t = Calibrate::Auto)]
    pub calibrate: Calibrate,
    /// Self-play seed (round r uses SEED + r - 1; the matches too).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the self-play records go: DATA_DIR/r<round>-<variant>.
    #[arg(long, value_name = "DIR", default_value = "data/selfplay")]
    pub data_dir: PathBuf,
    /// Where the training runs go: RUNS_DIR/r<round>-all (or -<variant>, or -<v1>+<v2>...).
    #[arg(long, value_name = "DIR", default_value = "runs")]
    pub runs_dir: PathBuf,
    /// The installed nets: <variant>.nnue and its report <variant>.md.
    #[arg(long, value_name = "DIR", default_value = "data/nets")]
    pub nets_dir: PathBuf,
    /// true: accepted nets are copied to --nets-dir with their report; false: never.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub install: bool,
    /// The file whose rounds table gets a line per round and variant ("" for none).
    #[arg(long, value_name = "FILE", default_value = "docs/strength.md", value_parser = parse_path_or_empty)]
    pub strength: PathBuf,
    /// Use the records already in --data-dir (e.g. generated elsewhere): no self-play.
    #[arg(long)]
    pub skip_gen: bool,
    /// Generate and play the SPRT matches through the Ray drivers (scripts/ray/selfplay.py,
    /// scripts/ray/match.py) with the binaries of --bin-dir.
    #[arg(long)]
    pub ray: bool,
    /// The Python that has Ray (with --ray).
    #[arg(long, value_name = "PROGRAM", default_value = "python3")]
    pub ray_python: PathBuf,
    /// Where the persian-trainer and persian-engine binaries for Ray are (default: this
    /// program's directory; a copy keeps a long run safe from rebuilds).
    #[arg(long, value_name = "DIR")]
    pub bin_dir: Option<PathBuf>,
}

/// When a candidate's scale is fitted to the net it must beat (`--calibrate`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calibrate {
    /// When that net's scale is not the training scale.
    Auto,
    /// Whenever it plays a net.
    Match,
    /// Never.
    Off,
}

/// A path where "" is a value too (none).
fn parse_path_or_empty(text: &str) -> std::result::Result<PathBuf, String> {
    Ok(PathBuf::from(text))
}

/// `--match-tc`: a time limit and nothing else (no nodes, no depth, no other player key).
/// `VARIANT=FILE` of --hce-openings: the variant's id and the file.
fn parse_variant_file(text: &str) -> std::result::Result<(String, PathBuf), String> {
    let (variant, file) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}': give VARIANT=FILE, e.g. parsi=data/openings/parsi-balanced.txt"))?;
    let variant: Variant = variant.trim().parse().map_err(|e| format!("'{text}': {e}"))?;
    if file.trim().is_empty() {
        return Err(format!("'{text}': no file after '='"));
    }
    Ok((variant.id().to_string(), PathBuf::from(file.trim())))
}

fn parse_match_tc(text: &str) -> std::result::Result<String, String> {
    let text = text.trim();
    for part in text.split(',') {
        let key = part.split_once('=').map_or(part, |(k, _)| k).trim();
        if !["movetime", "st", "tc", "timemargin"].contains(&key) {
            return Err(format!(
                "'{part}': give a time limit (movetime=MS, st=SECONDS or tc=SECONDS[+INC]), optionally timemargin=MS"
            ));
        }
    }
    let player = PlayerConfig::parse_with(&format!("name=x,{text}"), None).map_err(|e| e.to_string())?;
    if player.time_control().is_none() {
        return Err("give a time limit: movetime=MS, st=SECONDS or tc=SECONDS[+INC]".to_string());
    }
    Ok(text.to_string())
}

/// The rungs of the reference ladder: node multiples, at least 1 each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rungs(pub Vec<u64>);

impl Rungs {
    /// As `--ladder-rungs` takes it.
    pub fn spec(&self) -> String {
        self.0.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
    }
}

fn parse_rungs(text: &str) -> std::result::Result<Rungs, String> {
    let mut rungs = Vec::new();
    for part in text.split(',').map(str::trim) {
        match part.parse::<u64>() {
            Ok(k) if (1..=1000).contains(&k) && !rungs.contains(&k) => rungs.push(k),
            _ => {
                return Err(format!(
                    "'{part}' is not a multiple of the nodes from 1 to 1000 (each once)"
                ))
            }
        }
    }
    Ok(Rungs(rungs))
}

fn parse_sprt(text: &str) -> std::result::Result<Sprt, String> {
    Sprt::parse(text, Sprt::DEFAULT_ALPHA, Sprt::DEFAULT_BETA).map_err(|e| e.to_string())
}

/// The checked settings of a pipeline run.
struct Pipeline {
    args: Args,
    threads: usize,
    bin_dir: PathBuf,
}

/// Runs `trainer pipeline`.
pub fn run(args: Args) -> Result<()> {
    args.games_by_variant
        .check(&args.variants)
        .context("--games-by-variant")?;
    if let Some(init) = &args.init_from {
        if !init.is_file() {
            bail!("--init-from: {} is not a file", init.display());
        }
    }
    if args.first_round == 0 {
        bail!("--first-round: rounds count from 1");
    }
    if let Some(last) = args.rounds.filter(|&last| last < args.first_round) {
        bail!(
            "--rounds {last} is the last round to play, and it is before --first-round {}: nothing to do",
            args.first_round
        );
    }
    if args.window == 0 {
        bail!("--window must be at least 1");
    }
    crate::train::config::check_king_buckets(args.king_buckets).map_err(|e| anyhow::anyhow!("--king-buckets: {e}"))?;
    for (variant, file) in &args.hce_openings {
        if !args.variants.variants().contains(variant) {
            bail!(
                "--hce-openings: {variant} is not a variant of this run ({})",
                args.variants.variants().join(" ")
            );
        }
        // Read now, so that a wrong file stops the run before its self-play, not after.
        steps::hce_openings(variant, file).context("--hce-openings")?;
    }
    if args.fine_tune_epochs > 0 && !args.variants.joint() {
        bail!("--fine-tune-epochs: only a joint net (several variants) is fine-tuned per variant");
    }
    if args.match_games == 0 {
        bail!("--match-games must be at least 1");
    }
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let bin_dir = match &args.bin_dir {
        Some(dir) => dir.clone(),
        None => std::env::current_exe()
            .context("cannot find this program's directory: give --bin-dir")?
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    };
    let pipeline = Pipeline { args, threads, bin_dir };
    pipeline.run()
}

/// The evaluation each variant must beat and generates with, and its name in the matches.
struct Current {
    eval: Eval,
    name: String,
    /// The round its net comes from: accepted in this run, or the round its report names.
    round: Option<u32>,
}

/// The index of the newest of the given keys (`None`: no net); on a tie the first one.
fn newest_of<K: Ord>(keys: &[Option<K>]) -> Option<usize> {
    let mut best: Option<(usize, &K)> = None;
    for (i, key) in keys.iter().enumerate() {
        if let Some(key) = key {
            if best.is_none_or(|(_, b)| key > b) {
                best = Some((i, key));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// The newest net among the current evaluations, the joint training's starting point: the one
/// of the latest round (accepted in this run, or named by its report), on a tie (or where no
/// round is known, which counts as older than any round) the file modified last, and then the
/// first variant's. `None` when every variant still has the hand-crafted evaluation.
fn newest(current: &[Current]) -> Option<usize> {
    let keys: Vec<Option<(u32, Option<std::time::SystemTime>)>> = current
        .iter()
        .map(|c| match &c.eval {
            Eval::Hce => None,
            Eval::Net(path) => Some((
                c.round.unwrap_or(0),
                std::fs::metadata(path).and_then(|m| m.modified()).ok(),
            )),
        })
        .collect();
    newest_of(&keys)
}

impl Pipeline {
    fn run(&self) -> Result<()> {
        let a = &self.args;
        let mut current = Vec::new();
        for v in a.variants.variants() {
            current.push(self.starting_point(v)?);
        }
        for round in a.first_round..=a.rounds.unwrap_or(a.first_round) {
            self.round(round, &mut current)?;
        }
        Ok(())
    }

    /// The evaluation of `variant` before the first round: the hand-crafted one in round 1, the
    /// installed net from round 2 on.
    fn starting_point(&self, variant: &str) -> Result<Current> {
        let a = &self.args;
        if a.first_round <= 1 {
            return Ok(Current {
                eval: Eval::Hce,
                name: "hce".to_string(),
                round: None,
            });
        }
        let net = a.nets_dir.join(format!("{variant}.nnue"));
        if !net.is_file() {
            bail!("--first-round {}: {} is missing", a.first_round, net.display());
        }
        let round = report::installed_round(&a.nets_dir.join(format!("{variant}.md")));
        let name = match &a.previous_name {
            Some(name) if !name.is_empty() => name.clone(),
            _ => round.map_or_else(|| "installed".to_string(), |r| format!("r{r}")),
        };
        Ok(Current {
            eval: Eval::Net(net),
            name,
            round,
        })
    }

    /// The name of this round's nets in the matches.
    fn new_name(&self, round: u32) -> String {
        match &self.args.name {
            Some(name) if !name.is_empty() => name.clone(),
            _ => format!("r{round}"),
        }
    }

    /// The self-play directory of a round and variant.
    fn data_dir(&self, round: u32, variant: &str) -> PathBuf {
        self.args.data_dir.join(format!("r{round}-{variant}"))
    }

    /// The self-play games of a round and variant for the reports: with --skip-gen the games
    /// its directory holds (the records may have been generated elsewhere, with another count),
    /// else the games asked for (also when the directory holds no run). A directory that cannot
    /// be read is an error, not a silent fallback to the flag.
    fn round_games(&self, round: u32, variant: &str) -> Result<u64> {
        let asked = self.args.games_by_variant.games_of(variant, self.args.games);
        if !self.args.skip_gen {
            return Ok(asked);
        }
        Ok(steps::generated(&self.data_dir(round, variant))?.unwrap_or(asked))
    }

    /// The search limit per move of a round's self-play records: the records' own (their
    /// run.json) when the round's self-play was not run here (`--skip-gen`), else the one asked.
    fn round_limit(&self, round: u32, variant: &str) -> Result<String> {
        let asked = format!("{} nodes", self.args.sp_nodes);
        if !self.args.skip_gen {
            return Ok(asked);
        }
        let run = self.data_dir(round, variant).join(crate::selfplay::shard::RUN_FILE);
        Ok(crate::selfplay::read_settings(&run)?.map_or(asked, |s| s.limit_text()))
    }

    /// The self-play directories of the window of `round` for `variants`: this round's and
    /// those of the window-1 rounds before it that exist.
    fn window(&self, round: u32, variants: &[String]) -> Vec<PathBuf> {
        let mut data = Vec::new();
        for r in round.saturating_sub(self.args.window - 1).max(1)..=round {
            for v in variants {
                let dir = self.data_dir(r, v);
                if dir.is_dir() {
                    data.push(dir);
                }
            }
        }
        data
    }

    /// One round: generate, train, then per variant (fine-tune,) match, install and log.
    fn round(&self, round: u32, current: &mut [Current]) -> Result<()> {
        let a = &self.args;
        let variants = a.variants.variants();
        let seed = a.seed.wrapping_add(u64::from(round) - 1);
        if !a.skip_gen {
            for (v, cur) in variants.iter().zip(current.iter()) {
                let games = a.games_by_variant.games_of(v, a.games);
                let dir = self.data_dir(round, v);
                // A directory with all its games is used as it is, whatever evaluation played
                // them (the installed net it names may have been replaced since).
                if let Some(done) = steps::generated(&dir)?.filter(|&n| n >= games) {
                    println!(
                        "== round {round}, {v}: self-play done ({done} games in {})",
                        dir.display()
                    );
                    continue;
                }
                println!(
                    "== round {round}, {v}: generate ({games} games, {} nodes, eval {})",
                    a.sp_nodes, cur.eval
                );
                steps::generate(self, v, games, &cur.eval, seed, &dir)?;
            }
        }
        let data = self.window(round, variants);
        let newest = newest(current).filter(|_| a.init);
        let (init, lr, why) = match (&a.init_from, newest) {
            (Some(from), _) if round == a.first_round => (Some(from.clone()), a.lr_later, String::new()),
            (_, Some(i)) => match &current[i].eval {
                Eval::Net(net) => (
                    Some(net.clone()),
                    a.lr_later,
                    format!(" ({}'s {}, the newest net)", variants[i], current[i].name),
                ),
                Eval::Hce => (None, a.lr, String::new()),
            },
            _ => (None, a.lr, String::new()),
        };
        let run = a.runs_dir.join(format!("r{round}-{}", a.variants.run_suffix()));
        println!(
            "== round {round}: train ({}{}, lr {lr})",
            run.display(),
            init.as_ref()
                .map_or(String::new(), |i| format!(", from {}{why}", i.display()))
        );
        steps::train(self, &run, variants, &data, init.as_deref(), lr, a.epochs)?;

        let name = self.new_name(round);
        for (i, (v, cur)) in variants.iter().zip(current.iter_mut()).enumerate() {
            let joint_net = if i == 0 {
                run.join("net.nnue")
            } else {
                run.join(format!("net.{v}.nnue"))
            };
            // The variant's own copy, fine-tuned on its records of the window, plays instead.
            let fine_tune = (a.fine_tune_epochs > 0).then(|| run.join(format!("fine-tune.{v}")));
            let net = match &fine_tune {
                Some(ft) => {
                    let own = self.window(round, std::slice::from_ref(v));
                    println!(
                        "== round {round}, {v}: fine-tune ({}, {} epoch(s) from {}, lr {})",
                        ft.display(),
                        a.fine_tune_epochs,
                        joint_net.display(),
                        a.lr_later
                    );
                    steps::train(
                        self,
                        ft,
                        std::slice::from_ref(v),
                        &own,
                        Some(&joint_net),
                        a.lr_later,
                        a.fine_tune_epochs,
                    )?;
                    ft.join("net.nnue")
                }
                None => joint_net,
            };
            let match_file = run.join(format!("match.{v}.txt"));
            let net = self.calibrated(round, v, &run, net, cur, &match_file)?;
            let logged = run.join(format!("logged.{v}"));
            let summary = match MatchSummary::read(&match_file)? {
                Some(s) if s.verdict.is_some() && !self.goes_on(&s, &run, v) => {
                    println!("== round {round}, {v}: match already played ({})", s.verdict_text());
                    s
                }
                Some(s) if s.verdict.is_some() => {
                    println!(
                        "== round {round}, {v}: the match stopped undecided at its cap of {} games; it goes on to \
                         {} (--match-games), the SPRT over all games",
                        s.games(),
                        a.match_games
                    );
                    // The new verdict gets its own line in the rounds table.
                    steps::remove_if_there(&logged)?;
                    steps::play(self, v, &run, &net, &name, cur, seed, &match_file)?
                }
                _ => {
                    println!("== round {round}, {v}: match against {}", cur.eval);
                    steps::play(self, v, &run, &net, &name, cur, seed, &match_file)?
                }
            };
            let yard = self.yardsticks(round, v, &run, &net, &name, cur, seed)?;
            if summary.verdict != Some(SprtVerdict::AcceptH1) {
                println!("== round {round}, {v}: not proven stronger; {} stays", cur.eval);
                if !logged.exists() {
                    report::strength_line(self, round, v, &summary, None, &yard, "no")?;
                    touch(&logged)?;
                }
                continue;
            }
            let previous = std::mem::replace(
                cur,
                Current {
                    eval: Eval::Net(net.clone()),
                    name: name.clone(),
                    round: Some(round),
                },
            );
            let mut hce = None;
            if a.hce_games > 0 && previous.eval != Eval::Hce {
                let hce_file = run.join(format!("hce.{v}.txt"));
                hce = Some(match MatchSummary::read(&hce_file)? {
                    Some(s) => s,
                    None => {
                        println!(
                            "== round {round}, {v}: {} games against the hand-crafted evaluation",
                            a.hce_games
                        );
                        let openings = match a.hce_openings.iter().find(|(id, _)| id == v) {
                            Some((_, file)) => steps::hce_openings(v, file)?,
                            None => steps::random_openings(a.hce_seed.unwrap_or(seed)),
                        };
                        steps::play_hce(self, v, &net, &name, openings, &hce_file)?
                    }
                });
            }
            // Installed once: a rerun must not put this net back over a later one.
            let installed_marker = run.join(format!("installed.{v}"));
            if a.install && !installed_marker.exists() {
                let installed = report::install(
                    self,
                    &report::Accepted {
                        variant: v,
                        round,
                        run: &run,
                        fine_tune: fine_tune.as_deref(),
                        net: &net,
                        match_file: &match_file,
                        previous: &previous.eval,
                        data: &data,
                        yardsticks: &yard,
                    },
                )?;
                println!(
                    "== round {round}, {v}: installed {} (report: {})",
                    installed.display(),
                    installed.with_extension("md").display()
                );
                touch(&installed_marker)?;
            }
            if !logged.exists() {
                let installed = if a.install { "yes" } else { "no (--install false)" };
                report::strength_line(self, round, v, &summary, hce.as_ref(), &yard, installed)?;
                touch(&logged)?;
            }
        }
        Ok(())
    }

    /// The net of `variant` that plays this round's matches: the candidate `net`, or its copy
    /// with the scale fitted to the current net's (`--calibrate`), `calibrated.<variant>.nnue`
    /// beside it with the fit in `calibration.<variant>.txt`. A copy made before is used again; a
    /// candidate whose SPRT match began without one plays on as it began.
    fn calibrated(
        &self,
        round: u32,
        v: &str,
        run: &Path,
        net: PathBuf,
        cur: &Current,
        match_file: &Path,
    ) -> Result<PathBuf> {
        let Eval::Net(current) = &cur.eval else {
            return Ok(net);
        };
        // A copy made before is what this round's matches played.
        let dir = net.parent().map(Path::to_path_buf).unwrap_or_default();
        let out = dir.join(format!("calibrated.{v}.nnue"));
        if out.is_file() {
            return Ok(out);
        }
        if self.args.calibrate == Calibrate::Off {
            return Ok(net);
        }
        let variant: Variant = v.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        let reference = crate::net::load_for(current, variant)?;
        if self.args.calibrate == Calibrate::Auto && reference.network.scale() == nnue::network::SCALE {
            return Ok(net);
        }
        let begun =
            match_file.exists() || steps::results_path(run, v).exists() || steps::ray_match_dir(run, v).exists();
        if begun {
            println!(
                "== round {round}, {v}: its match began with {} as trained: not calibrated now",
                net.display()
            );
            return Ok(net);
        }
        let candidate = crate::net::load_for(&net, variant)?;
        let data = self.window(round, std::slice::from_ref(&v.to_string()));
        let fit = crate::scale::fit(
            variant,
            &candidate.network,
            &reference.network,
            &data,
            crate::scale::DEFAULT_POSITIONS,
        )
        .with_context(|| format!("fitting the scale of {} to {}", net.display(), current.display()))?;
        let text = format!(
            "{} is {} with its scale fitted to {}'s ({}) over the records of {}: {}.\n",
            out.display(),
            net.display(),
            cur.name,
            current.display(),
            data.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            fit.describe()
        );
        crate::data::io::write_atomic(&dir.join(format!("calibration.{v}.txt")), text.as_bytes())?;
        // The net last, so that its presence says the fit is complete.
        crate::net::write_with_scale(&candidate, fit.scale, &out)?;
        println!("== round {round}, {v}: calibrated: {}", text.trim_end());
        Ok(out)
    }

    /// The fixed matches that measure every candidate beside its SPRT: at equal time against
    /// the evaluation the SPRT played (`--time-games`), and against the variant's round-1 net
    /// at each rung's multiple of the nodes (`--ladder-games`). Each match file is played once:
    /// a rerun reads it.
    #[allow(clippy::too_many_arguments)]
    fn yardsticks(
        &self,
        round: u32,
        v: &str,
        run: &Path,
        net: &Path,
        name: &str,
        cur: &Current,
        seed: u64,
    ) -> Result<Yardsticks> {
        let a = &self.args;
        let mut yard = Yardsticks::default();
        if a.time_games > 0 {
            let file = run.join(format!("time.{v}.txt"));
            yard.time = Some(match MatchSummary::read(&file)? {
                Some(s) => s,
                None => {
                    println!(
                        "== round {round}, {v}: {} games against {} at equal time ({})",
                        a.time_games, cur.name, a.match_tc
                    );
                    steps::play_time(self, v, net, name, cur, seed, &file)?
                }
            });
            yard.time_file = Some(file);
        }
        let ladder = a.ladder_dir.join(format!("{v}.r1.nnue"));
        if a.ladder_games > 0 && !ladder.is_file() {
            println!("== round {round}, {v}: no ladder net ({} is missing)", ladder.display());
        } else if a.ladder_games > 0 {
            for &k in &a.ladder_rungs.0 {
                let file = run.join(format!("ladder.{v}.x{k}.txt"));
                let nodes = a.match_nodes.saturating_mul(k);
                let summary = match MatchSummary::read(&file)? {
                    Some(s) => s,
                    None => {
                        println!(
                            "== round {round}, {v}: {} games against the ladder's {} at {nodes} nodes (x{k})",
                            a.ladder_games,
                            ladder.display()
                        );
                        steps::play_rung(self, v, net, name, &ladder, k, seed, &file)?
                    }
                };
                yard.ladder.push(Rung {
                    multiple: k,
                    nodes,
                    summary,
                    file,
                });
            }
        }
        Ok(yard)
    }

    /// Whether the SPRT match of `variant` in `run`, summed up by `s`, goes on: it stopped
    /// undecided at a cap below --match-games, and what it goes on from is there: its results
    /// file, or with --ray the Ray driver's parts (a match of an older build has no results file:
    /// then a line says how to play it again).
    fn goes_on(&self, s: &MatchSummary, run: &Path, variant: &str) -> bool {
        let a = &self.args;
        if s.verdict != Some(SprtVerdict::Continue) || s.games() >= a.match_games {
            return false;
        }
        let (from, missing) = if a.ray {
            (steps::ray_match_dir(run, variant), "its Ray parts are gone")
        } else {
            (steps::results_path(run, variant), "it has no results file")
        };
        if !from.exists() {
            println!(
                "== {variant}: the match in {} stopped undecided at {} games, below --match-games {}, and \
                 cannot go on ({missing}); remove its match.{variant}.txt to play it again from the first game",
                run.display(),
                s.games(),
                a.match_games,
            );
            return false;
        }
        true
    }
}

/// Creates an empty marker file.
fn touch(path: &Path) -> Result<()> {
    std::fs::write(path, b"").with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_key_wins_and_the_first_on_a_tie() {
        assert_eq!(newest_of::<u32>(&[None, None]), None);
        assert_eq!(newest_of(&[Some((8, 5)), None, Some((9, 1)), Some((9, 1))]), Some(2));
        // Same round: the later modification time; no round (0) is older than any round.
        assert_eq!(newest_of(&[Some((9, 1)), Some((9, 3)), Some((0, 7))]), Some(1));
        assert_eq!(newest_of(&[None, Some((0, 2)), Some((0, 1))]), Some(1));
    }

    #[test]
    fn newest_of_the_current_evaluations() {
        let dir = std::env::temp_dir().join(format!("trainer-pipeline-newest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (older, newer) = (dir.join("a.nnue"), dir.join("b.nnue"));
        std::fs::write(&older, b"a").expect("write");
        std::fs::write(&newer, b"b").expect("write");
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&newer)
            .and_then(|f| f.set_modified(later))
            .expect("set the modification time");
        let cur = |eval: Eval, round| Current {
            eval,
            name: String::new(),
            round,
        };
        // Without rounds the file modified last; with one, the latest round.
        let no_rounds = [
            cur(Eval::Hce, None),
            cur(Eval::Net(older.clone()), None),
            cur(Eval::Net(newer.clone()), None),
        ];
        assert_eq!(newest(&no_rounds), Some(2));
        let rounds = [
            cur(Eval::Net(older.clone()), Some(9)),
            cur(Eval::Net(newer.clone()), Some(8)),
        ];
        assert_eq!(newest(&rounds), Some(0));
        assert_eq!(newest(&[cur(Eval::Hce, None)]), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn time_limits_and_rungs() {
        for good in [
            "movetime=50",
            "st=0.1",
            "tc=10+0.1",
            "tc=40/60",
            "movetime=20,timemargin=50",
        ] {
            assert_eq!(parse_match_tc(good).as_deref(), Ok(good), "{good}");
        }
        for bad in [
            "nodes=100",
            "movetime=50,nodes=10",
            "depth=3",
            "timemargin=5",
            "movetime=x",
            "",
            "eval=hce,st=1",
        ] {
            assert!(parse_match_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_rungs("1, 2,4"), Ok(Rungs(vec![1, 2, 4])));
        assert_eq!(parse_rungs("3").map(|r| r.spec()), Ok("3".to_string()));
        for bad in ["0", "1,1", "x", "", "1,,2", "1001"] {
            assert!(parse_rungs(bad).is_err(), "{bad}");
        }
    }
}
