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
use engine::tournament::{Sprt, SprtVerdict};

use self::{
    matches::MatchSummary,
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

With several variants (`all` is the four Persian sub-variants) the variants share one net per \
round: it is trained on all their records (they must share the board), written once per \
variant, and each variant's copy must pass its own match. With one variant, the net learns from \
that variant's records only. Round r generates with the nets of round r-1 and trains on the \
records of the last --window rounds (the newest games are the best play, the older ones keep it \
from forgetting); with --init true (the default) rounds that have a net to start from start from \
the current net's weights at --lr-later.

Run the same command again after an interruption: finished steps are skipped (the self-play \
directory already holds its games, the run its summary.json, the match its verdict; a training \
run with a checkpoint and no summary resumes from the checkpoint).

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
    /// true: rounds with a current net start from its weights (the first variant's, for a joint
    /// net); false: every round trains from scratch.
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
    /// Most games of each SPRT match.
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

/// A path where "" is a value too (none).
fn parse_path_or_empty(text: &str) -> std::result::Result<PathBuf, String> {
    Ok(PathBuf::from(text))
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
            });
        }
        let net = a.nets_dir.join(format!("{variant}.nnue"));
        if !net.is_file() {
            bail!("--first-round {}: {} is missing", a.first_round, net.display());
        }
        let name = match &a.previous_name {
            Some(name) if !name.is_empty() => name.clone(),
            _ => report::installed_round(&a.nets_dir.join(format!("{variant}.md")))
                .map_or_else(|| "installed".to_string(), |r| format!("r{r}")),
        };
        Ok(Current {
            eval: Eval::Net(net),
            name,
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

    /// One round: generate, train, then per variant match, install and log.
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
        // The window: this round's records and those of the window-1 rounds before it that exist.
        let mut data = Vec::new();
        for r in round.saturating_sub(a.window - 1).max(1)..=round {
            for v in variants {
                let dir = self.data_dir(r, v);
                if dir.is_dir() {
                    data.push(dir);
                }
            }
        }
        let (init, lr) = match (&a.init_from, &current[0].eval) {
            (Some(from), _) if round == a.first_round => (Some(from.clone()), a.lr_later),
            (_, Eval::Net(net)) if a.init => (Some(net.clone()), a.lr_later),
            _ => (None, a.lr),
        };
        let run = a.runs_dir.join(format!("r{round}-{}", a.variants.run_suffix()));
        println!(
            "== round {round}: train ({}{}, lr {lr})",
            run.display(),
            init.as_ref()
                .map_or(String::new(), |i| format!(", from {}", i.display()))
        );
        steps::train(self, &run, &data, init.as_deref(), lr)?;

        let name = self.new_name(round);
        for (i, (v, cur)) in variants.iter().zip(current.iter_mut()).enumerate() {
            let net = if i == 0 {
                run.join("net.nnue")
            } else {
                run.join(format!("net.{v}.nnue"))
            };
            let match_file = run.join(format!("match.{v}.txt"));
            let logged = run.join(format!("logged.{v}"));
            let summary = match MatchSummary::read(&match_file)? {
                Some(s) if s.verdict.is_some() => {
                    println!("== round {round}, {v}: match already played ({})", s.verdict_text());
                    s
                }
                _ => {
                    println!("== round {round}, {v}: match against {}", cur.eval);
                    steps::play(self, v, &run, &net, &name, cur, seed, &match_file)?
                }
            };
            if summary.verdict != Some(SprtVerdict::AcceptH1) {
                println!("== round {round}, {v}: not proven stronger; {} stays", cur.eval);
                if !logged.exists() {
                    report::strength_line(self, round, v, &summary, None, "no")?;
                    touch(&logged)?;
                }
                continue;
            }
            let previous = std::mem::replace(
                cur,
                Current {
                    eval: Eval::Net(net.clone()),
                    name: name.clone(),
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
                        steps::play_hce(self, v, &net, &name, seed, &hce_file)?
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
                        net: &net,
                        match_file: &match_file,
                        previous: &previous.eval,
                        data: &data,
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
                report::strength_line(self, round, v, &summary, hce.as_ref(), installed)?;
                touch(&logged)?;
            }
        }
        Ok(())
    }
}

/// Creates an empty marker file.
fn touch(path: &Path) -> Result<()> {
    std::fs::write(path, b"").with_context(|| format!("cannot write {}", path.display()))
}
