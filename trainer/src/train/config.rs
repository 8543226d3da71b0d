//! The run configuration: a TOML file, flags over it, defaults under both. The effective
//! configuration is written into the run directory and is what `--resume` uses.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::model::FtMode;

/// Learning-rate schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// Cosine decay from `lr` to `lr_final` over the run.
    Cosine,
    /// `lr` multiplied by `lr_gamma` every `lr_step_epochs` epochs.
    Step,
    /// `lr` throughout.
    Constant,
}

/// Where the burn part runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum DeviceKind {
    /// burn's Flex CPU backend.
    Cpu,
    /// CUDA (build with `--features cuda`).
    Cuda,
    /// wgpu (build with `--features wgpu`).
    Wgpu,
}

/// Everything a training run depends on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Variant id or alias.
    pub variant: String,
    /// Record files or directories of `.bin` shards.
    pub data: Vec<PathBuf>,
    /// Other variants whose records in `data` are used too (they must share the board layout;
    /// e.g. the four Persian sub-variants, to pre-train on all their data before fine-tuning).
    pub also_variants: Vec<String>,
    /// Start from this net instead of random weights: a run's `checkpoint.bin` (weights only)
    /// or a `.nnue` file (dequantised). A net with fewer hidden neurons is widened to `hidden`
    /// (`FloatNetwork::widened`).
    pub init_from: Option<PathBuf>,
    /// Run directory (checkpoint, curves, nets).
    pub out: PathBuf,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output buckets by material (`nnue::network::output_bucket`; 1 = a single output). A
    /// one-bucket start net (`init_from`) is copied into every bucket.
    pub buckets: usize,
    /// King buckets (feature set v2): 0 = none (v1), 2 = the king on its back rank or not,
    /// 4 = that and the left or right files (`nnue::features::KingBuckets::standard`). A v1
    /// start net (`init_from`) is copied into every bucket.
    pub king_buckets: usize,
    /// Positions per step.
    pub batch_size: usize,
    /// Passes over the training set.
    pub epochs: u64,
    /// Learning rate at the start.
    pub lr: f64,
    /// Learning-rate schedule.
    pub lr_schedule: Schedule,
    /// Final learning rate of the cosine schedule.
    pub lr_final: f64,
    /// Epochs between drops of the step schedule.
    pub lr_step_epochs: u64,
    /// Factor of each drop of the step schedule.
    pub lr_gamma: f64,
    /// AdamW decoupled weight decay.
    pub weight_decay: f32,
    /// Weight of the game result in the target (0 = score only, 1 = result only).
    pub wdl: f32,
    /// Centipawns per sigmoid unit of the score target (and of the net's output).
    pub eval_scale: f32,
    /// Weights are kept within `+-clip` so that the net quantises.
    pub clip: f32,
    /// Initial feature weights are uniform in `+-ft_init` (small: features the data never
    /// activates keep weights near 0 instead of random values).
    pub ft_init: f32,
    /// Fraction of games held out for validation (split by game id).
    pub val_fraction: f64,
    /// Stop after this many epochs without a better validation loss (0 = never).
    pub early_stop: u64,
    /// Seed of the initial weights, the split and the shuffles.
    pub seed: u64,
    /// How the first layer is computed.
    pub ft: FtMode,
    /// Where the burn part runs.
    pub device: DeviceKind,
    /// Steps between checkpoints (a checkpoint is also written at the end of every epoch).
    pub checkpoint_every: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            variant: engine::rules::Variant::DEFAULT.id().to_string(),
            data: Vec::new(),
            also_variants: Vec::new(),
            init_from: None,
            out: PathBuf::new(),
            hidden: 256,
            buckets: 1,
            king_buckets: 0,
            batch_size: 16384,
            epochs: 20,
            lr: 1e-3,
            lr_schedule: Schedule::Cosine,
            lr_final: 1e-5,
            lr_step_epochs: 8,
            lr_gamma: 0.1,
            weight_decay: 0.01,
            wdl: 0.0,
            eval_scale: 400.0,
            clip: 1.98,
            ft_init: 0.01,
            val_fraction: 0.05,
            early_stop: 0,
            seed: 1,
            ft: FtMode::Sparse,
            device: DeviceKind::Cpu,
            checkpoint_every: 500,
        }
    }
}

/// Refuses a king-bucket count other than 0 (none), 2 or 4, the maps
/// `nnue::features::KingBuckets::standard` draws (the pipeline checks its flag with it before
/// any self-play).
pub fn check_king_buckets(king_buckets: usize) -> Result<()> {
    if !matches!(king_buckets, 0 | 2 | 4) {
        bail!("king_buckets = {king_buckets}: must be 0 (none), 2 (back rank or not) or 4 (and left or right)");
    }
    Ok(())
}

impl TrainConfig {
    /// Reads a TOML file (unknown keys are errors, missing keys take their defaults).
    pub fn from_file(path: &Path) -> Result<TrainConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("{}: not a valid training configuration", path.display()))
    }

    /// The configuration as TOML.
    pub fn to_toml(&self) -> Result<String> {
        toml::to_string_pretty(self).context("cannot write the configuration as TOML")
    }

    /// Refuses values that cannot work, naming the key.
    pub fn check(&self) -> Result<()> {
        if self.data.is_empty() {
            bail!("no training data: give `data` in the configuration or --data");
        }
        if self.out.as_os_str().is_empty() {
            bail!("no run directory: give `out` in the configuration or --out");
        }
        if !(1..=nnue::network::MAX_HIDDEN).contains(&self.hidden) {
            bail!("hidden = {}: must be 1..={}", self.hidden, nnue::network::MAX_HIDDEN);
        }
        if !(1..=nnue::network::MAX_OUTPUT_BUCKETS).contains(&self.buckets) {
            bail!(
                "buckets = {}: must be 1..={}",
                self.buckets,
                nnue::network::MAX_OUTPUT_BUCKETS
            );
        }
        check_king_buckets(self.king_buckets)?;
        if self.batch_size == 0 {
            bail!("batch_size must be at least 1");
        }
        if self.epochs == 0 {
            bail!("epochs must be at least 1");
        }
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            bail!("lr = {}: must be a positive number", self.lr);
        }
        if !(self.lr_final >= 0.0 && self.lr_final <= self.lr) {
            bail!("lr_final = {}: must be within 0..=lr", self.lr_final);
        }
        if self.lr_schedule == Schedule::Step
            && (self.lr_step_epochs == 0 || !(self.lr_gamma > 0.0 && self.lr_gamma <= 1.0))
        {
            bail!("the step schedule needs lr_step_epochs >= 1 and 0 < lr_gamma <= 1");
        }
        if !(0.0..=1.0).contains(&self.wdl) {
            bail!("wdl = {}: must be within 0..=1", self.wdl);
        }
        if self.eval_scale.is_nan() || self.eval_scale <= 0.0 {
            bail!("eval_scale = {}: must be positive", self.eval_scale);
        }
        // 48 active features of at most `clip * 255` each plus a bias must fit an i16.
        if !(self.clip > 0.0 && self.clip <= 1.98) {
            bail!(
                "clip = {}: must be within (0, 1.98] (1.98 keeps the quantised accumulators in i16)",
                self.clip
            );
        }
        if !(self.ft_init >= 0.0 && self.ft_init <= 1.0) {
            bail!("ft_init = {}: must be within 0..=1", self.ft_init);
        }
        if !(0.0..0.5).contains(&self.val_fraction) {
            bail!("val_fraction = {}: must be within 0..0.5", self.val_fraction);
        }
        if self.checkpoint_every == 0 {
            bail!("checkpoint_every must be at least 1");
        }
        if !(0.0..1.0).contains(&(self.weight_decay as f64)) {
            bail!("weight_decay = {}: must be within 0..1", self.weight_decay);
        }
        Ok(())
    }

    /// The learning rate at `step` of `total` steps (epoch `epoch`).
    pub fn lr_at(&self, step: u64, total: u64, epoch: u64) -> f64 {
        match self.lr_schedule {
            Schedule::Constant => self.lr,
            Schedule::Step => self.lr * self.lr_gamma.powi((epoch / self.lr_step_epochs) as i32),
            Schedule::Cosine => {
                let progress = if total <= 1 {
                    0.0
                } else {
                    step as f64 / (total - 1) as f64
                };
                let cos = 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos());
                self.lr_final + (self.lr - self.lr_final) * cos
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_round_trips_and_fills_defaults() {
        let c: TrainConfig =
            toml::from_str("variant = \"egyptian-eye\"\nhidden = 64\ndata = [\"a\", \"b\"]\nout = \"r\"").unwrap();
        assert_eq!(c.hidden, 64);
        assert_eq!(c.batch_size, 16384);
        assert_eq!(c.data.len(), 2);
        let back: TrainConfig = toml::from_str(&c.to_toml().unwrap()).unwrap();
        assert_eq!(back, c);
        assert!(c.check().is_ok());
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused() {
        assert!(toml::from_str::<TrainConfig>("hiden = 3").is_err());
        assert!(toml::from_str::<TrainConfig>("lr_schedule = \"linear\"").is_err());
        let c = TrainConfig {
            data: vec!["x".into()],
            out: "o".into(),
            clip: 3.0,
            ..TrainConfig::default()
        };
        assert!(c.check().unwrap_err().to_string().contains("clip"));
    }

    #[test]
    fn schedules() {
        let mut c = TrainConfig::default();
        assert!((c.lr_at(0, 100, 0) - 1e-3).abs() < 1e-12);
        assert!((c.lr_at(99, 100, 19) - 1e-5).abs() < 1e-12);
        assert!(c.lr_at(50, 100, 10) < 6e-4 && c.lr_at(50, 100, 10) > 4e-4);
        c.lr_schedule = Schedule::Step;
        assert!((c.lr_at(0, 100, 7) - 1e-3).abs() < 1e-12);
        assert!((c.lr_at(0, 100, 8) - 1e-4).abs() < 1e-12);
    }
}
