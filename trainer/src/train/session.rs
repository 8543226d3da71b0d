//! One training run, job by job: the variants learned from, the data, the starting weights, the
//! epochs (steps, then validation, curves, best net and checkpoint at each epoch's end) and the
//! files of a complete run (last and best nets, parity checks, nets for the other variants,
//! summary).

use std::{fs, path::Path, time::Instant};

use anyhow::{anyhow, bail, Context, Result};
use burn::tensor::Device;
use engine::{
    eval::nnue::{king_type, layout},
    rules::Variant,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nnue::{features::KingBuckets, Layout};

use super::{
    checkpoint::{Checkpoint, Progress},
    config::TrainConfig,
    curves,
    dataset::{self, Batch, DataSummary, TargetSpec},
    export,
    model::{Params, Trainer},
    CHECKPOINT,
};
use crate::data::io::{thousands, write_atomic};

/// Prints a line of the run unless `quiet` (above the bar when there is a visible one).
pub(super) fn say(quiet: bool, bar: Option<&ProgressBar>, text: impl AsRef<str>) {
    if quiet {
        return;
    }
    match bar {
        // A hidden bar (output not a terminal, e.g. a log file) prints nothing.
        Some(b) if !b.is_hidden() => b.println(text.as_ref()),
        _ => eprintln!("{}", text.as_ref()),
    }
}

/// The other variants whose records the run learns from (same board layout), without
/// `variant` and repeats.
pub(super) fn also_variants(config: &TrainConfig, variant: Variant, lay: &Layout) -> Result<Vec<Variant>> {
    let mut also = Vec::new();
    for id in &config.also_variants {
        let v: Variant = id.parse().map_err(|e| anyhow!("also_variants: {id:?}: {e}"))?;
        if layout(v).layout_hash() != lay.layout_hash() {
            bail!(
                "also_variants: {} has another board layout than {}",
                v.id(),
                variant.id()
            );
        }
        if v != variant && !also.contains(&v) {
            also.push(v);
        }
    }
    Ok(also)
}

/// The training and validation positions.
pub(super) struct Data {
    /// Training positions.
    pub train: Batch,
    /// Validation positions (may be empty).
    pub validation: Batch,
    /// What was read.
    pub summary: DataSummary,
}

/// The king buckets of the run (`config.king_buckets`), `None` for feature set v1.
pub(super) fn king_buckets(config: &TrainConfig, variant: Variant, lay: &Layout) -> Result<Option<KingBuckets>> {
    super::config::check_king_buckets(config.king_buckets)?;
    if config.king_buckets == 0 {
        return Ok(None);
    }
    KingBuckets::standard(lay, king_type(variant), config.king_buckets)
        .map(Some)
        .ok_or_else(|| anyhow!("no standard map of {} king buckets", config.king_buckets))
}

/// Reads and splits the records, and says what was read.
pub(super) fn load_data(
    config: &TrainConfig,
    variant: Variant,
    also: &[Variant],
    lay: &Layout,
    kings: Option<&KingBuckets>,
    quiet: bool,
) -> Result<Data> {
    let spec = TargetSpec {
        wdl: config.wdl,
        eval_scale: config.eval_scale,
    };
    let load_start = Instant::now();
    say(
        quiet,
        None,
        format!(
            "loading records of {} from {} input(s)...",
            variant.id(),
            config.data.len()
        ),
    );
    let (train, validation, data) = dataset::load(
        &config.data,
        variant,
        also,
        (lay, kings),
        spec,
        config.val_fraction,
        config.seed,
    )?;
    say(
        quiet,
        None,
        format!(
            "data: {} records in {} file(s) -> {} training positions ({} games), {} validation ({} games); {:.1} s",
            thousands(data.records),
            data.files,
            thousands(data.train),
            thousands(data.train_games),
            thousands(data.validation),
            thousands(data.validation_games),
            load_start.elapsed().as_secs_f64()
        ),
    );
    if data.other_variant > 0 || data.no_score > 0 {
        say(
            quiet,
            None,
            format!(
                "skipped: {} record(s) of another variant, {} without a score",
                thousands(data.other_variant),
                thousands(data.no_score)
            ),
        );
    }
    Ok(Data {
        train,
        validation,
        summary: data,
    })
}

/// The weights, the optimiser and where the run stands.
pub(super) struct State {
    /// The weights.
    pub params: Params,
    /// AdamW.
    pub trainer: Trainer,
    /// Steps, epochs, curves.
    pub progress: Progress,
}

/// The starting state: a checkpoint's, or fresh weights (initialised, or from `init_from`).
pub(super) fn initial_state(
    config: &TrainConfig,
    variant: Variant,
    resumed: Option<Checkpoint>,
    num_features: usize,
    kings: Option<KingBuckets>,
    device: &Device,
    quiet: bool,
) -> Result<State> {
    if let Some(mut ck) = resumed {
        if ck.net.num_features != num_features || ck.net.hidden != config.hidden || ck.net.buckets() != config.buckets {
            bail!("the checkpoint's net does not match the configuration");
        }
        ck.net.kings = kings;
        let params = Params::from_float(&ck.net, device);
        let mut trainer = Trainer::new(config.weight_decay, config.clip);
        trainer.import_state(ck.moments, &params);
        say(
            quiet,
            None,
            format!(
                "resuming at step {} (epoch {}, batch {})",
                ck.progress.step,
                ck.progress.epoch + 1,
                ck.progress.batch_in_epoch
            ),
        );
        return Ok(State {
            params,
            trainer,
            progress: ck.progress,
        });
    }
    let params = match &config.init_from {
        None => {
            let mut params = Params::init_scaled(
                num_features,
                config.hidden,
                config.buckets,
                config.seed,
                config.ft_init,
                device,
            )?;
            params.kings = kings;
            params
        }
        Some(path) => {
            let mut net = initial_net(path, variant)?;
            if let (Some(kings), None) = (&kings, &net.kings) {
                if net.num_features == num_features {
                    // A checkpoint of a run with these king buckets (checkpoints do not say).
                    net.kings = Some(kings.clone());
                } else if net.num_features * kings.count() == num_features {
                    say(
                        quiet,
                        None,
                        format!(
                            "copying the feature weights of {} into {} king buckets",
                            path.display(),
                            kings.count()
                        ),
                    );
                    net = net
                        .with_king_buckets(kings.clone())
                        .ok_or_else(|| anyhow!("cannot give {} king buckets", path.display()))?;
                }
            }
            if net.kings != kings {
                bail!(
                    "{}: its king buckets ({}) are not this run's ({})",
                    path.display(),
                    net.kings.as_ref().map_or(0, KingBuckets::count),
                    kings.as_ref().map_or(0, KingBuckets::count)
                );
            }
            if net.num_features == num_features && net.hidden < config.hidden {
                // A smaller net grows: its neurons keep their weights, the new ones start silent.
                say(
                    quiet,
                    None,
                    format!(
                        "widening {} from {} to {} hidden neurons (the new ones start with output weights of zero)",
                        path.display(),
                        net.hidden,
                        config.hidden
                    ),
                );
                net = net
                    .widened(config.hidden, config.seed, config.ft_init)
                    .ok_or_else(|| anyhow!("cannot widen {}", path.display()))?;
            }
            if net.buckets() == 1 && config.buckets > 1 {
                // One head becomes several alike: the same evaluation at the first step.
                say(
                    quiet,
                    None,
                    format!(
                        "copying the output layer of {} into {} output buckets",
                        path.display(),
                        config.buckets
                    ),
                );
                net = net
                    .with_buckets(config.buckets)
                    .ok_or_else(|| anyhow!("cannot give {} {} buckets", path.display(), config.buckets))?;
            }
            if net.num_features != num_features || net.hidden != config.hidden || net.buckets() != config.buckets {
                bail!(
                    "{}: a ({} -> {} -> {} buckets) net, this run trains ({num_features} -> {} -> {} buckets)",
                    path.display(),
                    net.num_features,
                    net.hidden,
                    net.buckets(),
                    config.hidden,
                    config.buckets
                );
            }
            say(quiet, None, format!("starting from the weights of {}", path.display()));
            Params::from_float(&net, device)
        }
    };
    Ok(State {
        params,
        trainer: Trainer::new(config.weight_decay, config.clip),
        progress: Progress::new(),
    })
}

/// The weights to start from: a checkpoint's float net, or a `.nnue` file dequantised (any
/// variant with the same layout).
fn initial_net(path: &Path, variant: Variant) -> Result<nnue::FloatNetwork> {
    if path.extension().is_some_and(|e| e == "nnue") {
        let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let loaded = nnue::format::read_any(&bytes).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        if loaded.header.layout_hash != layout(variant).layout_hash() {
            bail!("{}: a net for another board layout", path.display());
        }
        Ok(nnue::FloatNetwork::dequantise(&loaded.network))
    } else {
        Ok(Checkpoint::load(path)?.net)
    }
}

/// A run with its data: what the epochs and the final files need.
pub(super) struct Session<'a> {
    /// The configuration.
    pub config: &'a TrainConfig,
    /// The variant.
    pub variant: Variant,
    /// The other variants it learns from.
    pub also: Vec<Variant>,
    /// No progress output.
    pub quiet: bool,
    /// The data.
    pub data: Data,
    /// Positions per step.
    pub batch_size: usize,
    /// Steps per epoch.
    pub steps_per_epoch: u64,
    /// Steps of the whole run.
    pub total_steps: u64,
    /// Positions for the rounding of the output layer.
    calibration: Batch,
}

impl<'a> Session<'a> {
    /// A run of `config` on `data`; says the net's shape and the schedule.
    pub fn new(
        config: &'a TrainConfig,
        variant: Variant,
        also: Vec<Variant>,
        quiet: bool,
        data: Data,
        num_features: usize,
    ) -> Session<'a> {
        let batch_size = config.batch_size.min(data.train.len());
        let steps_per_epoch = (data.train.len() / batch_size) as u64;
        let total_steps = steps_per_epoch * config.epochs;
        say(
            quiet,
            None,
            format!(
                "net: ({num_features} -> {})x2 -> {} SCReLU; {} steps of {batch_size} per epoch, {} epochs; first layer {:?}, device {:?}",
                config.hidden, config.buckets, steps_per_epoch, config.epochs, config.ft, config.device
            ),
        );
        // Calibration positions for the rounding of the output layer: validation positions (else
        // training positions), at most 8,192 per output bucket.
        let calibration = {
            let source = if data.validation.is_empty() {
                &data.train
            } else {
                &data.validation
            };
            let idx: Vec<u32> = (0..source.len().min(8192 * config.buckets) as u32).collect();
            source.gather(&idx)
        };
        Session {
            config,
            variant,
            also,
            quiet,
            data,
            batch_size,
            steps_per_epoch,
            total_steps,
            calibration,
        }
    }

    /// Saves the checkpoint.
    pub fn save(&self, state: &State) -> Result<()> {
        Checkpoint {
            config: self.config.clone(),
            progress: state.progress.clone(),
            net: state.params.to_float()?,
            moments: state.trainer.export_state()?,
        }
        .save(&self.config.out.join(CHECKPOINT))
    }

    /// Writes `curves.csv` and `curves.svg`.
    pub fn write_curves(&self, progress: &Progress) -> Result<()> {
        let out = &self.config.out;
        write_atomic(&out.join("curves.csv"), curves::csv(&progress.curve).as_bytes())?;
        let title = format!(
            "{}: H = {}{}, {} training positions",
            self.variant.id(),
            self.config.hidden,
            buckets_suffix(self.config.buckets, self.config.king_buckets),
            thousands(self.data.summary.train)
        );
        write_atomic(&out.join("curves.svg"), curves::svg(&progress.curve, &title).as_bytes())
    }

    /// The description in the header of the net for `for_variant` (the run's variant or one of
    /// the others it learned from): in plain words, which games the net learned from.
    pub fn description(&self, epochs: u64, for_variant: Variant) -> String {
        describe(&DescriptionFacts {
            for_variant,
            learned_from: std::iter::once(self.variant).chain(self.also.iter().copied()).collect(),
            hidden: self.config.hidden,
            buckets: self.config.buckets,
            king_buckets: self.config.king_buckets,
            positions: self.data.summary.train,
            games: self.data.summary.train_games,
            epochs,
            wdl: self.config.wdl,
            seed: self.config.seed,
            init_from: self.config.init_from.as_deref(),
            played_by: played_by(&self.config.data),
        })
    }

    /// Quantises the weights into a `.nnue` file at `path`; returns its bytes and the output
    /// layer's rounding error before and after the adaptive rounding.
    pub fn export_net(&self, state: &State, path: &Path) -> Result<(Vec<u8>, f64, f64)> {
        let mut net = state.params.to_float()?;
        let act = super::sparse::forward(&net.ft_weights, &net.ft_bias, net.hidden, &self.calibration).act;
        let pieces: Vec<usize> = (0..self.calibration.len())
            .map(|i| self.calibration.stm_features(i).len())
            .collect();
        let (before, after) = export::round_output_layer(&mut net, &act, &pieces, self.config.clip);
        let bytes = export::write(
            &net,
            self.variant,
            &self.description(state.progress.epoch, self.variant),
            path,
        )?;
        Ok((bytes, before, after))
    }

    /// The progress bar of the steps (hidden with `quiet`).
    pub fn progress_bar(&self) -> Result<ProgressBar> {
        if self.quiet {
            return Ok(ProgressBar::with_draw_target(
                Some(self.total_steps),
                ProgressDrawTarget::hidden(),
            ));
        }
        let b = ProgressBar::new(self.total_steps);
        b.set_style(
            ProgressStyle::with_template("[{elapsed_precise}] {bar:24.cyan/blue} {pos}/{len} steps, ETA {eta} | {msg}")
                .map_err(|e| anyhow!("progress bar template: {e}"))?,
        );
        Ok(b)
    }
}

/// `", B output buckets"` after a net's width (nothing for a single output), then
/// `", K king buckets"` (nothing without).
fn buckets_suffix(buckets: usize, king_buckets: usize) -> String {
    let mut text = match buckets {
        1 => String::new(),
        b => format!(", {b} output buckets"),
    };
    if king_buckets > 0 {
        text.push_str(&format!(", {king_buckets} king buckets"));
    }
    text
}

/// What a net's description says.
pub(super) struct DescriptionFacts<'a> {
    /// The variant whose header it is.
    pub for_variant: Variant,
    /// The variants whose records it learned from, the run's own first.
    pub learned_from: Vec<Variant>,
    /// Hidden neurons.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// King buckets (0: none).
    pub king_buckets: usize,
    /// Training positions and their games.
    pub positions: u64,
    pub games: u64,
    /// Epochs trained.
    pub epochs: u64,
    /// Weight of the game result in the target.
    pub wdl: f32,
    /// The run's seed.
    pub seed: u64,
    /// The net it started from, if any.
    pub init_from: Option<&'a Path>,
    /// Who played the games, e.g. "hand-crafted evaluation at 1,000 nodes a move" (from the
    /// data directories' `run.json`), if known.
    pub played_by: Option<String>,
}

/// Who played the self-play games of these data directories, from their `run.json` files:
/// the evaluations, by node count or depth, each once ("hand-crafted evaluation at 1,000 nodes a
/// move", "nets a.nnue and b.nnue at 1,000 nodes a move").
pub(super) fn played_by(dirs: &[std::path::PathBuf]) -> Option<String> {
    // (limit, evaluations) in the order first seen.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for dir in dirs {
        let Ok(text) = fs::read_to_string(dir.join("run.json")) else {
            continue;
        };
        let Ok(run) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let settings = &run["settings"];
        let eval = settings["eval"].as_str().unwrap_or("");
        let who = if eval == "hand-crafted" {
            "hand-crafted evaluation".to_string()
        } else if let Some(rest) = eval.strip_prefix("NNUE (") {
            let source = rest.split([',', ')']).next().unwrap_or("");
            match Path::new(source).file_name() {
                Some(name) if !source.starts_with('<') => name.to_string_lossy().into_owned(),
                _ => "built-in net".to_string(),
            }
        } else {
            continue;
        };
        let limit = match (settings["nodes"].as_u64(), settings["depth"].as_u64()) {
            (Some(n), _) => format!("at {} nodes a move", thousands(n)),
            (None, Some(d)) => format!("at depth {d}"),
            _ => String::new(),
        };
        match groups.iter_mut().find(|(l, _)| *l == limit) {
            Some((_, whos)) if !whos.contains(&who) => whos.push(who),
            Some(_) => {}
            None => groups.push((limit, vec![who])),
        }
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(limit, whos)| {
            let files = whos.iter().filter(|w| w.ends_with(".nnue")).count();
            let named: Vec<String> = whos
                .iter()
                .map(|w| {
                    if w.ends_with(".nnue") && files == 1 {
                        format!("net {w}")
                    } else {
                        w.clone()
                    }
                })
                .collect();
            let list = match named.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => named.join(""),
            };
            let list = if files > 1 { format!("nets {list}") } else { list };
            format!("{list} {limit}").trim_end().to_string()
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// A net's description in plain words, e.g. "Persian Princess net (H 256), learned jointly for
/// Celtic Citadel, Persian Princess, Egyptian Eye and Oriental Omega from 6,674,278 positions of
/// 77,044 self-play games; target: search score; 8 epochs, seed 1".
pub(super) fn describe(f: &DescriptionFacts<'_>) -> String {
    let names: Vec<&str> = f.learned_from.iter().map(|v| v.spec().name).collect();
    let by = f.played_by.as_ref().map(|p| format!(" ({p})")).unwrap_or_default();
    let games = if names.len() == 1 {
        if f.learned_from[0] == f.for_variant {
            format!(
                "from {} positions of {} self-play games{by}",
                thousands(f.positions),
                thousands(f.games)
            )
        } else {
            format!(
                "from {} positions of {} self-play games{by} of {}",
                thousands(f.positions),
                thousands(f.games),
                names[0]
            )
        }
    } else {
        let list = match names.split_last() {
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        format!(
            "jointly for {list} from {} positions of {} self-play games{by}",
            thousands(f.positions),
            thousands(f.games)
        )
    };
    let target = if f.wdl <= 0.0 {
        "search score".to_string()
    } else if f.wdl >= 1.0 {
        "game result".to_string()
    } else {
        format!(
            "search score {:.0}% and game result {:.0}%",
            100.0 * (1.0 - f.wdl),
            100.0 * f.wdl
        )
    };
    let from = f
        .init_from
        .and_then(|p| p.file_name())
        .map(|n| format!(", continued from {}", n.to_string_lossy()))
        .unwrap_or_default();
    format!(
        "{} net (H {}{}), learned {games}; target: {target}; {} epoch{}{from}, seed {}",
        f.for_variant.spec().name,
        f.hidden,
        buckets_suffix(f.buckets, f.king_buckets),
        f.epochs,
        if f.epochs == 1 { "" } else { "s" },
        f.seed
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(learned_from: Vec<Variant>, for_variant: Variant) -> DescriptionFacts<'static> {
        DescriptionFacts {
            for_variant,
            learned_from,
            hidden: 256,
            buckets: 1,
            king_buckets: 0,
            positions: 6_674_278,
            games: 77_044,
            epochs: 8,
            wdl: 0.0,
            seed: 1,
            init_from: None,
            played_by: Some("hand-crafted evaluation at 1,000 nodes a move".into()),
        }
    }

    #[test]
    fn a_joint_net_names_every_variant_it_learned_from() {
        let all = vec![
            Variant::CelticCitadel,
            Variant::PersianPrincess,
            Variant::EgyptianEye,
            Variant::OrientalOmega,
        ];
        assert_eq!(
            describe(&facts(all, Variant::PersianPrincess)),
            "Persian Princess net (H 256), learned jointly for Celtic Citadel, Persian Princess, \
             Egyptian Eye and Oriental Omega from 6,674,278 positions of 77,044 self-play games \
             (hand-crafted evaluation at 1,000 nodes a move); target: search score; 8 epochs, seed 1"
        );
    }

    #[test]
    fn who_played_the_games_comes_from_run_json() {
        let root = std::env::temp_dir().join(format!("trainer-played-by-{}", std::process::id()));
        let write = |name: &str, eval: &str, nodes: &str, depth: &str| {
            let dir = root.join(name);
            fs::create_dir_all(&dir).expect("dir");
            let json = format!(r#"{{"settings": {{"eval": "{eval}", "nodes": {nodes}, "depth": {depth}}}}}"#);
            fs::write(dir.join("run.json"), json).expect("run.json");
            dir
        };
        let a = write("a", "NNUE (data/nets/a.nnue, 256 hidden: first)", "1000", "null");
        let b = write("b", "NNUE (runs/r2/b.nnue, 256 hidden: second)", "1000", "null");
        let c = write("c", "hand-crafted", "null", "6");
        let one = write("one", "NNUE (<embedded>, 256 hidden: x)", "2000", "null");
        assert_eq!(
            played_by(&[a.clone(), b.clone(), a.clone(), c.clone()]).as_deref(),
            Some("nets a.nnue and b.nnue at 1,000 nodes a move; hand-crafted evaluation at depth 6")
        );
        assert_eq!(played_by(&[b]).as_deref(), Some("net b.nnue at 1,000 nodes a move"));
        assert_eq!(played_by(&[one]).as_deref(), Some("built-in net at 2,000 nodes a move"));
        assert_eq!(played_by(&[root.join("missing")]), None);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn a_single_variant_net_and_its_options() {
        let mut f = facts(vec![Variant::Parsi], Variant::Parsi);
        f.wdl = 0.25;
        f.init_from = Some(Path::new("runs/r1/net.nnue"));
        f.played_by = None;
        assert_eq!(
            describe(&f),
            "Parsi Chess net (H 256), learned from 6,674,278 positions of 77,044 self-play games; \
             target: search score 75% and game result 25%; 8 epochs, continued from net.nnue, seed 1"
        );
    }
}
