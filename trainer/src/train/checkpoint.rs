//! Checkpoints: the weights, AdamW's moments, the schedule position and the data cursor in one
//! file, written atomically. `--resume` continues exactly where the checkpoint was taken.
//!
//! File: the magic `PCTRAINC`, a format version (`u32` LE), the length (`u64` LE) of a JSON
//! header, the header, then `f32` LE arrays in the order the header lists them.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::{config::TrainConfig, model::MomentState};
use crate::data::io::write_atomic;

const MAGIC: &[u8; 8] = b"PCTRAINC";
const VERSION: u32 = 1;

/// One row of the loss curves (written at the end of every epoch).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Epoch just finished (1-based).
    pub epoch: u64,
    /// Steps done.
    pub step: u64,
    /// Positions seen.
    pub positions: u64,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Validation loss after the epoch (`None` without a validation set).
    pub val_loss: Option<f64>,
    /// Learning rate of the epoch's last step.
    pub lr: f64,
    /// Training seconds so far.
    pub seconds: f64,
}

/// Where the run stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Steps done.
    pub step: u64,
    /// Current epoch (0-based).
    pub epoch: u64,
    /// Batches of the current epoch done (the data cursor).
    pub batch_in_epoch: u64,
    /// Sum of the training losses of the current epoch's batches.
    pub epoch_loss_sum: f64,
    /// Positions seen.
    pub positions: u64,
    /// Training seconds so far.
    pub seconds: f64,
    /// Best validation loss so far and the epoch it came from.
    pub best_val: Option<(f64, u64)>,
    /// Whether early stopping ended the run.
    pub stopped_early: bool,
    /// The loss curves.
    pub curve: Vec<CurvePoint>,
}

impl Progress {
    /// A run that has not started.
    pub fn new() -> Progress {
        Progress {
            step: 0,
            epoch: 0,
            batch_in_epoch: 0,
            epoch_loss_sum: 0.0,
            positions: 0,
            seconds: 0.0,
            best_val: None,
            stopped_early: false,
            curve: Vec::new(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Header {
    config: TrainConfig,
    progress: Progress,
    num_features: usize,
    hidden: usize,
    /// Lengths of the parameter arrays (`ft_w`, `ft_b`, `out_w`, `out_b`).
    params: [usize; 4],
    /// Per parameter: AdamW's step count, if it has moments (then two arrays of the parameter's
    /// length follow, after all the parameters).
    moments: [Option<usize>; 4],
}

/// Everything a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The run's configuration.
    pub config: TrainConfig,
    /// Where the run stands.
    pub progress: Progress,
    /// The net.
    pub net: nnue::FloatNetwork,
    /// AdamW's moments per parameter.
    pub moments: [Option<MomentState>; 4],
}

fn push_f32(out: &mut Vec<u8>, values: &[f32]) {
    out.reserve(values.len() * 4);
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

impl Checkpoint {
    /// Writes the checkpoint to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let net = &self.net;
        let header = Header {
            config: self.config.clone(),
            progress: self.progress.clone(),
            num_features: net.num_features,
            hidden: net.hidden,
            params: [
                net.ft_weights.len(),
                net.ft_bias.len(),
                net.out_weights.len(),
                net.out_bias.len(),
            ],
            moments: [0, 1, 2, 3].map(|i| self.moments[i].as_ref().map(|m| m.time)),
        };
        let json = serde_json::to_vec(&header).context("checkpoint header")?;
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(json.len() as u64).to_le_bytes());
        out.extend_from_slice(&json);
        push_f32(&mut out, &net.ft_weights);
        push_f32(&mut out, &net.ft_bias);
        push_f32(&mut out, &net.out_weights);
        push_f32(&mut out, &net.out_bias);
        for m in self.moments.iter().flatten() {
            push_f32(&mut out, &m.m1);
            push_f32(&mut out, &m.m2);
        }
        write_atomic(path, &out)
    }

    /// Reads a checkpoint, checking its structure.
    pub fn load(path: &Path) -> Result<Checkpoint> {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let what = || format!("{}: not a trainer checkpoint or damaged", path.display());
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            bail!("{}", what());
        }
        let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if version != VERSION {
            bail!(
                "{}: checkpoint format {version}, this trainer reads {VERSION}",
                path.display()
            );
        }
        let mut len8 = [0u8; 8];
        len8.copy_from_slice(&bytes[12..20]);
        let json_len = usize::try_from(u64::from_le_bytes(len8)).with_context(what)?;
        let json_end = 20usize
            .checked_add(json_len)
            .filter(|&e| e <= bytes.len())
            .with_context(what)?;
        let header: Header = serde_json::from_slice(&bytes[20..json_end]).with_context(what)?;
        // Checkpoints written before output buckets hold one bucket, which these sizes say too.
        let (f, h, b) = (header.num_features, header.hidden, header.params[3]);
        if !(1..=nnue::network::MAX_OUTPUT_BUCKETS).contains(&b) || header.params != [f * h, h, b * 2 * h, b] {
            bail!(
                "{}: parameter sizes do not match F = {f}, H = {h}, B = {b}",
                path.display()
            );
        }
        let mut floats = bytes[json_end..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let expected: usize = header.params.iter().sum::<usize>()
            + header
                .moments
                .iter()
                .zip(header.params)
                .filter(|(m, _)| m.is_some())
                .map(|(_, n)| 2 * n)
                .sum::<usize>();
        if bytes.len() - json_end != expected * 4 {
            bail!(
                "{}: {} bytes of parameters, expected {}",
                path.display(),
                bytes.len() - json_end,
                expected * 4
            );
        }
        let mut take = |n: usize| -> Vec<f32> { floats.by_ref().take(n).collect() };
        let ft_weights = take(f * h);
        let ft_bias = take(h);
        let out_weights = take(b * 2 * h);
        let out_bias = take(b);
        let mut moments: [Option<MomentState>; 4] = Default::default();
        for (i, m) in header.moments.iter().enumerate() {
            if let Some(time) = *m {
                let n = header.params[i];
                moments[i] = Some(MomentState {
                    time,
                    m1: take(n),
                    m2: take(n),
                });
            }
        }
        Ok(Checkpoint {
            config: header.config,
            progress: header.progress,
            net: nnue::FloatNetwork {
                num_features: f,
                hidden: h,
                ft_weights,
                ft_bias,
                out_weights,
                out_bias,
                // Set from the run's configuration by whoever resumes it.
                kings: None,
            },
            moments,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage_is_refused() {
        let dir = std::env::temp_dir().join(format!("trainer-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.bin");
        let mut progress = Progress::new();
        progress.step = 17;
        progress.curve.push(CurvePoint {
            epoch: 1,
            step: 17,
            positions: 100,
            train_loss: 0.1,
            val_loss: Some(0.2),
            lr: 1e-3,
            seconds: 1.5,
        });
        let c = Checkpoint {
            config: TrainConfig::default(),
            progress,
            net: nnue::FloatNetwork::init_random(10, 3, 1),
            moments: [
                Some(MomentState {
                    time: 4,
                    m1: vec![0.5; 30],
                    m2: vec![0.25; 30],
                }),
                None,
                None,
                Some(MomentState {
                    time: 4,
                    m1: vec![1.0],
                    m2: vec![2.0],
                }),
            ],
        };
        c.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), c);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.truncate(bytes.len() - 3);
        std::fs::write(&path, &bytes).unwrap();
        assert!(Checkpoint::load(&path)
            .unwrap_err()
            .to_string()
            .contains("bytes of parameters"));
        std::fs::write(&path, b"nonsense").unwrap();
        assert!(Checkpoint::load(&path).is_err());
        // A net with output buckets round-trips with its moments.
        let net = nnue::FloatNetwork::init_random(10, 3, 2).with_buckets(4).unwrap();
        let c = Checkpoint {
            moments: [
                None,
                None,
                Some(MomentState {
                    time: 2,
                    m1: vec![0.5; 24],
                    m2: vec![0.25; 24],
                }),
                Some(MomentState {
                    time: 2,
                    m1: vec![1.0; 4],
                    m2: vec![2.0; 4],
                }),
            ],
            net,
            ..c
        };
        c.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), c);
        std::fs::write(&path, b"nonsense").unwrap();
        assert!(Checkpoint::load(&path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
