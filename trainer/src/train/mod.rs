//! `trainer train`: learns an NNUE evaluation for one variant from self-play records, with burn.
//!
//! The first layer is a hand-written sparse operation (see [`sparse`]); burn computes the rest
//! of the net and the loss with autodiff and runs AdamW over all parameters ([`model`]). A
//! pure-burn formulation (`--ft dense`) is kept for GPUs and as the reference in tests.

pub mod checkpoint;
pub mod config;
pub mod curves;
pub mod dataset;
mod epochs;
pub mod export;
mod finish;
pub mod model;
mod session;
pub mod sparse;

use std::{fs, path::PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use burn::tensor::Device;
use clap::Parser;
use engine::{eval::nnue::layout, rules::Variant};
use nnue::features;

use self::{
    checkpoint::Checkpoint,
    config::{DeviceKind, Schedule, TrainConfig},
    model::FtMode,
    session::Session,
};
use crate::data::io::write_atomic;

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
    pub variant: Option<Variant>,
    /// Record files or directories of .bin shards (repeatable).
    #[arg(short, long)]
    pub data: Vec<PathBuf>,
    /// Also use the records of this variant (repeatable; same board layout required), e.g. to
    /// pre-train on all four Persian sub-variants.
    #[arg(long = "also-variant", value_name = "VARIANT")]
    pub also_variants: Vec<Variant>,
    /// Start from the weights of a run's checkpoint.bin or of a .nnue file. A net with fewer
    /// hidden neurons than --hidden is widened: its neurons keep their weights, the new ones start
    /// with output weights of zero (the same evaluation at the first step).
    #[arg(long, value_name = "FILE")]
    pub init_from: Option<PathBuf>,
    /// Run directory.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Hidden neurons per perspective [default: 256].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Output buckets by material, 1..=16: each position is scored by the output weights of its
    /// piece count's bucket (2..=40 pieces split evenly). A one-bucket --init-from net is copied
    /// into every bucket [default: 1].
    #[arg(long)]
    pub buckets: Option<usize>,
    /// King buckets (feature set v2): every piece-square weight once per bucket of the own
    /// king's cell. 0 = none; 2 = the king on its back rank or further up; 4 = that, and on the
    /// left or the right half of the files. A --init-from net without them is copied into every
    /// bucket (the same evaluation at the first step) [default: 0].
    #[arg(long, value_name = "K")]
    pub king_buckets: Option<usize>,
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
        if let Some(v) = self.variant {
            c.variant = v.id().to_string();
        }
        set!(
            hidden,
            buckets,
            king_buckets,
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
            c.also_variants = self.also_variants.iter().map(|v| v.id().to_string()).collect();
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

/// Trains the net of `config`: data, starting weights, epochs, then the files of a complete run
/// (or a checkpoint when `max_steps` stops it first).
fn train(
    config: &TrainConfig,
    variant: Variant,
    resumed: Option<Checkpoint>,
    max_steps: Option<u64>,
    quiet: bool,
) -> Result<()> {
    let device = device(config.device)?;
    let lay = layout(variant);
    let kings = session::king_buckets(config, variant, &lay)?;
    let num_features = features::num_features_with(&lay, kings.as_ref());
    let also = session::also_variants(config, variant, &lay)?;
    let data = session::load_data(config, variant, &also, &lay, kings.as_ref(), quiet)?;
    let state = session::initial_state(config, variant, resumed, num_features, kings, &device, quiet)?;
    let session = Session::new(config, variant, also.clone(), quiet, data, num_features);
    let (state, stopped_by_limit) = epochs::train_epochs(&session, state, max_steps)?;
    if stopped_by_limit {
        return epochs::stop_at_limit(&session, &state);
    }
    finish::finish(&session, &state, &also, &device)
}
