//! `trainer train`: learns an NNUE evaluation for one variant from self-play records, with burn.
//!
//! The first layer is a hand-written sparse operation (see [`sparse`]); burn computes the rest
//! of the net and the loss with autodiff and runs AdamW over all parameters ([`model`]). A
//! pure-burn formulation (`--ft dense`) is kept for GPUs and as the reference in tests.

pub mod checkpoint;
pub mod config;
pub mod curves;
pub mod dataset;
pub mod export;
pub mod model;
pub mod sparse;

use std::{
    fs,
    path::{Path, PathBuf},
    time::Instant,
};

use anyhow::{anyhow, bail, Context, Result};
use burn::tensor::Device;
use clap::Parser;
use engine::{eval::nnue::layout, rules::Variant};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nnue::features;

use self::{
    checkpoint::{Checkpoint, CurvePoint, Progress},
    config::{DeviceKind, Schedule, TrainConfig},
    dataset::{epoch_order, TargetSpec},
    model::{FtMode, Params, Trainer},
};
use crate::data::io::{thousands, write_atomic};

/// Options of `trainer train`. Every training option can also be set in a TOML file
/// (`--config`, keys named as the long options with `_` for `-`); flags win over the file.
#[derive(Parser, Debug, Default)]
#[command(after_help = "Files written in the run directory (--out):\n  \
    config.toml      the effective configuration\n  \
    checkpoint.bin   weights, AdamW moments, schedule and data position (for --resume)\n  \
    net.nnue         the best net by validation loss (the last one without validation)\n  \
    last.nnue        the net after the last epoch\n  \
    curves.csv/.svg  training and validation loss per epoch\n  \
    summary.json     data, settings, losses, speed and the engine parity check\n\n\
    Example:\n  trainer train --variant persian-princess --data data/selfplay/persian-princess \\\n    \
    --out runs/princess --hidden 256 --epochs 20")]
pub struct Args {
    /// TOML file with the run configuration (flags override it).
    #[arg(short, long)]
    pub config: Option<PathBuf>,
    /// Continue the run in --out from its checkpoint, exactly where it stopped.
    #[arg(long)]
    pub resume: bool,
    /// Start over even if --out already holds a run (its checkpoint is replaced).
    #[arg(long)]
    pub force: bool,
    /// Variant id or alias.
    #[arg(short, long)]
    pub variant: Option<String>,
    /// Record files or directories of .bin shards (repeatable).
    #[arg(short, long)]
    pub data: Vec<PathBuf>,
    /// Also use the records of this variant (repeatable; same board layout required), e.g. to
    /// pre-train on all four Persian sub-variants.
    #[arg(long = "also-variant", value_name = "VARIANT")]
    pub also_variants: Vec<String>,
    /// Start from the weights of a run's checkpoint.bin or of a .nnue file.
    #[arg(long, value_name = "FILE")]
    pub init_from: Option<PathBuf>,
    /// Run directory.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Hidden neurons per perspective [default: 256].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Positions per step [default: 16384].
    #[arg(long)]
    pub batch_size: Option<usize>,
    /// Passes over the training set [default: 20].
    #[arg(short, long)]
    pub epochs: Option<u64>,
    /// Initial learning rate [default: 0.001].
    #[arg(long)]
    pub lr: Option<f64>,
    /// Learning-rate schedule [default: cosine].
    #[arg(long, value_enum)]
    pub lr_schedule: Option<Schedule>,
    /// Final learning rate of the cosine schedule [default: 1e-5].
    #[arg(long)]
    pub lr_final: Option<f64>,
    /// Epochs between drops of the step schedule [default: 8].
    #[arg(long)]
    pub lr_step_epochs: Option<u64>,
    /// Factor of each drop of the step schedule [default: 0.1].
    #[arg(long)]
    pub lr_gamma: Option<f64>,
    /// AdamW weight decay [default: 0.01].
    #[arg(long)]
    pub weight_decay: Option<f32>,
    /// Weight of the game result in the target, the rest is the search score [default: 0]. With
    /// the few games a small machine can play, a net that learns the results memorises them
    /// (docs/training.md).
    #[arg(long)]
    pub wdl: Option<f32>,
    /// Centipawns per sigmoid unit [default: 400].
    #[arg(long)]
    pub eval_scale: Option<f32>,
    /// Weights are clipped to +-clip so the net quantises [default: 1.98].
    #[arg(long)]
    pub clip: Option<f32>,
    /// Initial feature weights are uniform in +-FT_INIT [default: 0.01].
    #[arg(long)]
    pub ft_init: Option<f32>,
    /// Fraction of games held out for validation [default: 0.05].
    #[arg(long)]
    pub val_fraction: Option<f64>,
    /// Stop after N epochs without a better validation loss; 0 = never [default: 0].
    #[arg(long)]
    pub early_stop: Option<u64>,
    /// Seed of the initial weights, the validation split and the shuffles [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// First-layer formulation: sparse (hand-written, fast on CPUs) or dense (pure burn)
    /// [default: sparse].
    #[arg(long, value_enum)]
    pub ft: Option<FtMode>,
    /// Device of the burn part: cpu, cuda or wgpu (the GPU ones need the cargo feature)
    /// [default: cpu].
    #[arg(long, value_enum)]
    pub device: Option<DeviceKind>,
    /// Steps between checkpoints [default: 500].
    #[arg(long)]
    pub checkpoint_every: Option<u64>,
    /// Stop (with a checkpoint) after this many steps in total; --resume goes on.
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Worker threads of the hand-written part (default: all cores).
    #[arg(short, long)]
    pub threads: Option<usize>,
    /// Only the final summary.
    #[arg(short, long)]
    pub quiet: bool,
}

impl Args {
    fn apply(&self, c: &mut TrainConfig) {
        macro_rules! set {
            ($($f:ident),*) => {$( if let Some(v) = self.$f.clone() { c.$f = v; } )*};
        }
        set!(
            variant,
            hidden,
            batch_size,
            epochs,
            lr,
            lr_schedule,
            lr_final,
            lr_step_epochs,
            lr_gamma,
            weight_decay,
            wdl,
            eval_scale,
            clip,
            ft_init,
            val_fraction,
            early_stop,
            seed,
            ft,
            device,
            checkpoint_every
        );
        if !self.data.is_empty() {
            c.data = self.data.clone();
        }
        if !self.also_variants.is_empty() {
            c.also_variants = self.also_variants.clone();
        }
        if self.init_from.is_some() {
            c.init_from = self.init_from.clone();
        }
        if let Some(out) = &self.out {
            c.out = out.clone();
        }
    }
}

/// The device of the burn part.
pub fn device(kind: DeviceKind) -> Result<Device> {
    match kind {
        DeviceKind::Cpu => Ok(Device::flex()),
        #[cfg(feature = "cuda")]
        DeviceKind::Cuda => Ok(Device::cuda(0)),
        #[cfg(not(feature = "cuda"))]
        DeviceKind::Cuda => bail!("this trainer was built without CUDA: rebuild with `--features cuda`"),
        #[cfg(feature = "wgpu")]
        DeviceKind::Wgpu => Ok(Device::wgpu(burn::tensor::DeviceKind::DefaultDevice)),
        #[cfg(not(feature = "wgpu"))]
        DeviceKind::Wgpu => bail!("this trainer was built without wgpu: rebuild with `--features wgpu`"),
    }
}

const CHECKPOINT: &str = "checkpoint.bin";

/// Runs `trainer train`.
pub fn run(args: Args) -> Result<()> {
    let (config, resumed) = if args.resume {
        let out = args.out.clone().context("--resume needs --out, the run directory")?;
        let ck = Checkpoint::load(&out.join(CHECKPOINT))
            .with_context(|| format!("cannot resume the run in {}", out.display()))?;
        let mut config = ck.config.clone();
        config.out = out;
        // Flags that would change the saved configuration are refused (repeating a saved value
        // is harmless).
        let mut asked = config.clone();
        args.apply(&mut asked);
        if args.config.is_some() || asked != config {
            bail!("with --resume the run's saved configuration is used: give only --out (and --threads, --max-steps, --quiet)");
        }
        (config, Some(ck))
    } else {
        let mut config = match &args.config {
            Some(path) => TrainConfig::from_file(path)?,
            None => TrainConfig::default(),
        };
        args.apply(&mut config);
        config.check()?;
        let ck = config.out.join(CHECKPOINT);
        if ck.exists() && !args.force {
            bail!(
                "{} already holds a run: --resume continues it, --force starts over",
                config.out.display()
            );
        }
        (config, None)
    };
    if let Some(t) = args.threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        // Fails only if the pool was already built, which nothing here does before.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(t).build_global();
    }
    let variant: Variant = config
        .variant
        .parse()
        .map_err(|e| anyhow!("variant {:?}: {e}", config.variant))?;
    fs::create_dir_all(&config.out).with_context(|| format!("cannot create {}", config.out.display()))?;
    write_atomic(&config.out.join("config.toml"), config.to_toml()?.as_bytes())?;
    train(&config, variant, resumed, args.max_steps, args.quiet)
}

fn say(quiet: bool, bar: Option<&ProgressBar>, text: impl AsRef<str>) {
    if quiet {
        return;
    }
    match bar {
        // A hidden bar (output not a terminal, e.g. a log file) prints nothing.
        Some(b) if !b.is_hidden() => b.println(text.as_ref()),
        _ => eprintln!("{}", text.as_ref()),
    }
}

fn train(
    config: &TrainConfig,
    variant: Variant,
    resumed: Option<Checkpoint>,
    max_steps: Option<u64>,
    quiet: bool,
) -> Result<()> {
    let device = device(config.device)?;
    let lay = layout(variant);
    let num_features = features::num_features(&lay);
    let spec = TargetSpec {
        wdl: config.wdl,
        eval_scale: config.eval_scale,
    };
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
    let (train_set, val_set, data) = dataset::load(
        &config.data,
        variant,
        &also,
        &lay,
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

    let (mut params, mut trainer, mut progress) = match resumed {
        Some(ck) => {
            if ck.net.num_features != num_features || ck.net.hidden != config.hidden {
                bail!("the checkpoint's net does not match the configuration");
            }
            let params = Params::from_float(&ck.net, &device);
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
            (params, trainer, ck.progress)
        }
        None => {
            let params = match &config.init_from {
                None => Params::init_scaled(num_features, config.hidden, config.seed, config.ft_init, &device),
                Some(path) => {
                    let net = initial_net(path, variant)?;
                    if net.num_features != num_features || net.hidden != config.hidden {
                        bail!(
                            "{}: a ({} -> {}) net, this run trains ({num_features} -> {})",
                            path.display(),
                            net.num_features,
                            net.hidden,
                            config.hidden
                        );
                    }
                    say(quiet, None, format!("starting from the weights of {}", path.display()));
                    Params::from_float(&net, &device)
                }
            };
            (params, Trainer::new(config.weight_decay, config.clip), Progress::new())
        }
    };

    let batch_size = config.batch_size.min(train_set.len());
    let steps_per_epoch = (train_set.len() / batch_size) as u64;
    let total_steps = steps_per_epoch * config.epochs;
    say(
        quiet,
        None,
        format!(
            "net: ({num_features} -> {})x2 -> 1 SCReLU; {} steps of {batch_size} per epoch, {} epochs; first layer {:?}, device {:?}",
            config.hidden, steps_per_epoch, config.epochs, config.ft, config.device
        ),
    );

    let save = |params: &Params, trainer: &Trainer, progress: &Progress| -> Result<()> {
        Checkpoint {
            config: config.clone(),
            progress: progress.clone(),
            net: params.to_float()?,
            moments: trainer.export_state()?,
        }
        .save(&config.out.join(CHECKPOINT))
    };
    let write_curves = |progress: &Progress| -> Result<()> {
        write_atomic(&config.out.join("curves.csv"), curves::csv(&progress.curve).as_bytes())?;
        let title = format!(
            "{}: H = {}, {} training positions",
            variant.id(),
            config.hidden,
            thousands(data.train)
        );
        write_atomic(
            &config.out.join("curves.svg"),
            curves::svg(&progress.curve, &title).as_bytes(),
        )
    };
    let description = |progress: &Progress| {
        format!(
            "trainer train: {} positions ({} games), {} epochs, wdl {}, H {}, seed {}",
            data.train, data.train_games, progress.epoch, config.wdl, config.hidden, config.seed
        )
    };
    // Calibration positions for the rounding of the output layer: validation positions (else
    // training positions), at most 8,192.
    let calibration = {
        let source = if val_set.is_empty() { &train_set } else { &val_set };
        let idx: Vec<u32> = (0..source.len().min(8192) as u32).collect();
        source.gather(&idx)
    };
    let export_net = |params: &Params, progress: &Progress, path: &Path| -> Result<(Vec<u8>, f64, f64)> {
        let mut net = params.to_float()?;
        let act = sparse::forward(&net.ft_weights, &net.ft_bias, net.hidden, &calibration).act;
        let (before, after) = export::round_output_layer(&mut net, &act, config.clip);
        let bytes = export::write(&net, variant, &description(progress), path)?;
        Ok((bytes, before, after))
    };

    let bar = if quiet {
        ProgressBar::with_draw_target(Some(total_steps), ProgressDrawTarget::hidden())
    } else {
        let b = ProgressBar::new(total_steps);
        b.set_style(
            ProgressStyle::with_template("[{elapsed_precise}] {bar:24.cyan/blue} {pos}/{len} steps, ETA {eta} | {msg}")
                .map_err(|e| anyhow!("progress bar template: {e}"))?,
        );
        b
    };
    bar.set_position(progress.step);
    let mut last_val = progress.curve.last().and_then(|p| p.val_loss);
    let mut recent_speed = 0.0;
    let mut stopped_by_limit = false;

    while progress.epoch < config.epochs && !progress.stopped_early {
        let order = epoch_order(train_set.len(), config.seed, progress.epoch);
        let mut lr = config.lr_at(progress.step, total_steps, progress.epoch);
        while progress.batch_in_epoch < steps_per_epoch {
            if max_steps.is_some_and(|m| progress.step >= m) {
                stopped_by_limit = true;
                break;
            }
            let t0 = Instant::now();
            let start = (progress.batch_in_epoch as usize) * batch_size;
            let batch = train_set.gather(&order[start..start + batch_size]);
            lr = config.lr_at(progress.step, total_steps, progress.epoch);
            let (loss, grads) = params.gradients(&batch, config.ft)?;
            if !loss.is_finite() {
                bail!(
                    "the training loss became {loss} at step {}: lower the learning rate",
                    progress.step
                );
            }
            params = trainer.step(params, grads, lr);
            let dt = t0.elapsed().as_secs_f64();
            progress.seconds += dt;
            progress.step += 1;
            progress.batch_in_epoch += 1;
            progress.positions += batch_size as u64;
            progress.epoch_loss_sum += loss;
            let speed = batch_size as f64 / dt.max(1e-9);
            recent_speed = if recent_speed == 0.0 {
                speed
            } else {
                0.9 * recent_speed + 0.1 * speed
            };
            bar.set_position(progress.step);
            bar.set_message(format!(
                "epoch {}/{} | {:.0} pos/s | loss {:.5} | val {} | lr {:.2e}",
                progress.epoch + 1,
                config.epochs,
                recent_speed,
                progress.epoch_loss_sum / progress.batch_in_epoch as f64,
                last_val.map(|v| format!("{v:.5}")).unwrap_or_else(|| "-".into()),
                lr
            ));
            if progress.step % config.checkpoint_every == 0 {
                save(&params, &trainer, &progress)?;
            }
        }
        if stopped_by_limit {
            break;
        }
        // End of the epoch: validation, curves, best net, early stopping, checkpoint.
        let val_loss = if val_set.is_empty() {
            None
        } else {
            let mut sum = 0.0;
            let chunk = 16384;
            for start in (0..val_set.len()).step_by(chunk) {
                let idx: Vec<u32> = (start as u32..(start + chunk).min(val_set.len()) as u32).collect();
                let b = val_set.gather(&idx);
                sum += params.loss(&b)? * b.len() as f64;
            }
            Some(sum / val_set.len() as f64)
        };
        last_val = val_loss;
        let train_loss = progress.epoch_loss_sum / steps_per_epoch.max(1) as f64;
        progress.epoch += 1;
        progress.batch_in_epoch = 0;
        progress.epoch_loss_sum = 0.0;
        progress.curve.push(CurvePoint {
            epoch: progress.epoch,
            step: progress.step,
            positions: progress.positions,
            train_loss,
            val_loss,
            lr,
            seconds: progress.seconds,
        });
        let mut line = format!(
            "epoch {:>3}: train loss {train_loss:.6}, validation {}",
            progress.epoch,
            val_loss.map(|v| format!("{v:.6}")).unwrap_or_else(|| "-".into())
        );
        if let Some(v) = val_loss {
            let better = progress.best_val.is_none_or(|(best, _)| v < best);
            if better {
                progress.best_val = Some((v, progress.epoch));
                export_net(&params, &progress, &config.out.join("net.nnue"))?;
                line.push_str(" (best so far: net.nnue)");
            } else if config.early_stop > 0
                && progress
                    .best_val
                    .is_some_and(|(_, e)| progress.epoch - e >= config.early_stop)
            {
                progress.stopped_early = true;
                line.push_str(&format!(" (no better for {} epochs: stopping)", config.early_stop));
            }
        }
        say(quiet, Some(&bar), line);
        write_curves(&progress)?;
        save(&params, &trainer, &progress)?;
    }
    bar.finish_and_clear();

    if stopped_by_limit {
        save(&params, &trainer, &progress)?;
        write_curves(&progress)?;
        println!(
            "stopped at step {} of {total_steps} (--max-steps); `trainer train --resume --out {}` goes on",
            progress.step,
            config.out.display()
        );
        return Ok(());
    }

    // The run is complete: the last net, the best net, the parity check, the summary.
    let (last_bytes, rounding_before, rounding_after) = export_net(&params, &progress, &config.out.join("last.nnue"))?;
    let best_path = config.out.join("net.nnue");
    if val_set.is_empty() || !best_path.exists() {
        write_atomic(&best_path, &last_bytes)?;
    }
    let best_bytes = fs::read(&best_path).with_context(|| format!("cannot read {}", best_path.display()))?;
    let best = nnue::format::read(&best_bytes, &engine::eval::nnue::expected(variant))
        .map_err(|e| anyhow!("{}: {e}", best_path.display()))?;
    let best_params = Params::from_float(&nnue::FloatNetwork::dequantise(&best.network), &device);
    let positions = export::fixed_positions(variant, 256, 1);
    let parity_last = export::parity(&params, &last_bytes, variant, &positions)?;
    let parity_best = export::parity(&best_params, &best_bytes, variant, &positions)?;
    // The same net for the other variants it learned from (same layout, their own header).
    let mut others = serde_json::Map::new();
    for &v in &also {
        let path = config.out.join(format!("net.{}.nnue", v.id()));
        let header = nnue::format::NetHeader::new(
            v.code(),
            v.id(),
            &layout(v),
            format!(
                "{} (trained as {} with {})",
                best.header.description,
                variant.id(),
                v.id()
            ),
        );
        let bytes = nnue::format::to_bytes(&header, &best.network).context("cannot encode the net")?;
        write_atomic(&path, &bytes)?;
        let parity = export::parity(&best_params, &bytes, v, &export::fixed_positions(v, 256, 1))?;
        say(
            quiet,
            None,
            format!("also written: {} (for {})", path.display(), v.id()),
        );
        others.insert(
            v.id().to_string(),
            serde_json::json!({"file": path.display().to_string(), "parity_vs_dequantised_cp": parity}),
        );
    }
    let speed = progress.positions as f64 / progress.seconds.max(1e-9);
    let summary = serde_json::json!({
        "variant": variant.id(),
        "config": config,
        "data": data,
        "steps": progress.step,
        "epochs": progress.epoch,
        "stopped_early": progress.stopped_early,
        "positions_seen": progress.positions,
        "training_seconds": progress.seconds,
        "positions_per_second": speed,
        "best_validation": progress.best_val.map(|(v, e)| serde_json::json!({"loss": v, "epoch": e})),
        "final_train_loss": progress.curve.last().map(|p| p.train_loss),
        "final_validation_loss": progress.curve.last().and_then(|p| p.val_loss),
        "parity_last_net_vs_float_cp": parity_last,
        "output_rounding_rms_cp": {
            "round_to_nearest": rounding_before * f64::from(nnue::network::SCALE),
            "adaptive": rounding_after * f64::from(nnue::network::SCALE),
        },
        "parity_best_net_vs_dequantised_cp": parity_best,
        "nets_for_other_variants": others,
        "curve": progress.curve,
    });
    write_atomic(
        &config.out.join("summary.json"),
        serde_json::to_string_pretty(&summary).context("summary")?.as_bytes(),
    )?;
    print_summary(config, variant, &progress, speed, &parity_last, &best_path);
    Ok(())
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

fn print_summary(
    config: &TrainConfig,
    variant: Variant,
    progress: &Progress,
    speed: f64,
    parity: &export::Parity,
    best: &Path,
) {
    println!("trainer train: {} done", variant.id());
    println!(
        "  steps          {} ({} epochs{}), {} positions seen",
        progress.step,
        progress.epoch,
        if progress.stopped_early { ", stopped early" } else { "" },
        thousands(progress.positions)
    );
    println!(
        "  speed          {speed:.0} positions/s ({:.1} s of training)",
        progress.seconds
    );
    if let Some(p) = progress.curve.last() {
        println!(
            "  loss           train {:.6}, validation {}",
            p.train_loss,
            p.val_loss.map(|v| format!("{v:.6}")).unwrap_or_else(|| "-".into())
        );
    }
    if let Some((v, e)) = progress.best_val {
        println!("  best           validation {v:.6} after epoch {e}");
    }
    println!(
        "  parity         engine (quantised) vs trainer (float): max {:.2} cp, mean {:.2} cp over {} positions",
        parity.max_cp, parity.mean_cp, parity.positions
    );
    println!("  net            {}", best.display());
    println!(
        "  run directory  {} (curves.csv, curves.svg, summary.json, checkpoint.bin)",
        config.out.display()
    );
}
