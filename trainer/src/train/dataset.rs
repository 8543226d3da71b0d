//! Training data in memory: records read from shards, decoded once into the active features of
//! both perspectives and a target, split into training and validation sets by game id.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use engine::rules::Variant;
use nnue::{
    data::{GameResult, Record, NO_SCORE},
    features::{self, KingBuckets},
    Layout,
};
use rayon::prelude::*;

use crate::data::io::{read_records, record_files, thousands};

/// How a record's target is made.
#[derive(Clone, Copy, Debug)]
pub struct TargetSpec {
    /// Weight of the game result in the target (the rest is the score's win probability).
    pub wdl: f32,
    /// Centipawns per unit of the sigmoid's argument (400: 100 cp -> 56%).
    pub eval_scale: f32,
}

impl TargetSpec {
    /// `wdl * result + (1 - wdl) * sigmoid(score / eval_scale)`, all from the side to move's view.
    pub fn target(&self, score: i16, result: GameResult) -> f32 {
        let r = match result {
            GameResult::Loss => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Win => 1.0,
        };
        let s = 1.0 / (1.0 + (-f32::from(score) / self.eval_scale).exp());
        self.wdl * r + (1.0 - self.wdl) * s
    }
}

/// A set of positions as feature lists (flat, with offsets) and targets.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    stm: Vec<u16>,
    stm_off: Vec<u32>,
    ntm: Vec<u16>,
    ntm_off: Vec<u32>,
    /// One target per position.
    pub targets: Vec<f32>,
}

impl Batch {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Appends a position.
    pub fn push(&mut self, stm: &[u16], ntm: &[u16], target: f32) {
        if self.stm_off.is_empty() {
            self.stm_off.push(0);
            self.ntm_off.push(0);
        }
        self.stm.extend_from_slice(stm);
        self.ntm.extend_from_slice(ntm);
        self.stm_off.push(self.stm.len() as u32);
        self.ntm_off.push(self.ntm.len() as u32);
        self.targets.push(target);
    }

    /// The side to move's active features of position `i`.
    pub fn stm_features(&self, i: usize) -> &[u16] {
        &self.stm[self.stm_off[i] as usize..self.stm_off[i + 1] as usize]
    }

    /// The other side's active features of position `i`.
    pub fn ntm_features(&self, i: usize) -> &[u16] {
        &self.ntm[self.ntm_off[i] as usize..self.ntm_off[i + 1] as usize]
    }

    /// A batch of the positions `indices` of `self`.
    pub fn gather(&self, indices: &[u32]) -> Batch {
        let mut out = Batch {
            stm: Vec::with_capacity(indices.len() * 40),
            stm_off: Vec::with_capacity(indices.len() + 1),
            ntm: Vec::with_capacity(indices.len() * 40),
            ntm_off: Vec::with_capacity(indices.len() + 1),
            targets: Vec::with_capacity(indices.len()),
        };
        for &i in indices {
            let i = i as usize;
            out.push(self.stm_features(i), self.ntm_features(i), self.targets[i]);
        }
        out
    }

    /// One perspective's active features padded to the longest list, for the gather
    /// formulation: `(indices, mask, k)`, both `n x k` row-major; a padding slot holds feature 0
    /// with mask 0 (a repeated feature keeps both its slots, as the sparse op counts it twice).
    pub fn padded(&self, stm: bool) -> (Vec<i64>, Vec<f32>, usize) {
        let feats = |i| {
            if stm {
                self.stm_features(i)
            } else {
                self.ntm_features(i)
            }
        };
        let k = (0..self.len()).map(|i| feats(i).len()).max().unwrap_or(0).max(1);
        let mut indices = vec![0i64; self.len() * k];
        let mut mask = vec![0.0f32; self.len() * k];
        for i in 0..self.len() {
            for (j, &f) in feats(i).iter().enumerate() {
                indices[i * k + j] = i64::from(f);
                mask[i * k + j] = 1.0;
            }
        }
        (indices, mask, k)
    }

    /// Dense multi-hot inputs (`n x F` row-major) of one perspective, for the pure-burn
    /// formulation.
    pub fn dense(&self, num_features: usize, stm: bool) -> Vec<f32> {
        let mut out = vec![0.0f32; self.len() * num_features];
        for i in 0..self.len() {
            let feats = if stm {
                self.stm_features(i)
            } else {
                self.ntm_features(i)
            };
            for &f in feats {
                out[i * num_features + f as usize] += 1.0;
            }
        }
        out
    }
}

/// What loading found.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct DataSummary {
    /// Record files read.
    pub files: usize,
    /// Records read.
    pub records: u64,
    /// Records of another variant (skipped).
    pub other_variant: u64,
    /// Records without a score (skipped).
    pub no_score: u64,
    /// Training positions.
    pub train: u64,
    /// Validation positions.
    pub validation: u64,
    /// Distinct games in the training set: a game is its directory, variant and game id (each
    /// self-play run numbers its games from 0, so two rounds' directories share ids).
    pub train_games: u64,
    /// Distinct games in the validation set.
    pub validation_games: u64,
}

/// Whether a game belongs to the validation set: a hash of its id against the fraction.
pub fn is_validation_game(game_id: u32, fraction: f64, seed: u64) -> bool {
    if fraction <= 0.0 {
        return false;
    }
    let mut z = u64::from(game_id) ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((z >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// A game: the index of its file's directory among the inputs' directories, its variant code and
/// its game id.
type GameKey = (u32, u8, u32);

/// A decoded record: (in the validation set, its game, our features, their features, target).
type Decoded = (bool, GameKey, Vec<u16>, Vec<u16>, f32);

/// Reads every record under `inputs`, keeps those of `variant` with a score, decodes them and
/// splits them by game id. Returns (training, validation, summary).
pub fn load(
    inputs: &[PathBuf],
    variant: Variant,
    also: &[Variant],
    (layout, kings): (&Layout, Option<&KingBuckets>),
    spec: TargetSpec,
    val_fraction: f64,
    split_seed: u64,
) -> Result<(Batch, Batch, DataSummary)> {
    let files = record_files(inputs)?;
    let mut summary = DataSummary {
        files: files.len(),
        ..DataSummary::default()
    };
    let per_file: Vec<Result<Vec<Record>>> = files.par_iter().map(|f| read_records(f)).collect();
    // The directory of each record's file, numbered in order of first appearance.
    let mut dir_index: std::collections::HashMap<Option<&Path>, u32> = std::collections::HashMap::new();
    let mut records = Vec::new();
    let mut record_dirs: Vec<u32> = Vec::new();
    for (file, r) in files.iter().zip(per_file) {
        let r = r?;
        let next = dir_index.len() as u32;
        let dir = *dir_index.entry(file.parent()).or_insert(next);
        record_dirs.extend(std::iter::repeat_n(dir, r.len()));
        records.extend(r);
    }
    summary.records = records.len() as u64;
    let code = variant.code();
    let codes: Vec<u8> = std::iter::once(code).chain(also.iter().map(|v| v.code())).collect();
    let decoded: Vec<Option<Decoded>> = records
        .par_iter()
        .zip(record_dirs.par_iter())
        .map(|(r, &dir)| {
            if !codes.contains(&r.variant_code()) || r.score() == NO_SCORE {
                return Ok(None);
            }
            let tp = r
                .decode(layout)
                .map_err(|e| anyhow::anyhow!("record of game {}: {e}", r.game_id()))?;
            let us: Vec<u16> = features::active_features_with(layout, kings, tp.stm, &tp.pieces)
                .into_iter()
                .map(|f| f as u16)
                .collect();
            let them: Vec<u16> = features::active_features_with(layout, kings, tp.stm.opponent(), &tp.pieces)
                .into_iter()
                .map(|f| f as u16)
                .collect();
            let score = tp.score.unwrap_or(0);
            Ok(Some((
                is_validation_game(tp.game_id, val_fraction, split_seed),
                (dir, tp.variant_code, tp.game_id),
                us,
                them,
                spec.target(score, tp.result),
            )))
        })
        .collect::<Result<_>>()?;
    let (mut train, mut val) = (Batch::default(), Batch::default());
    let (mut train_games, mut val_games) = (std::collections::HashSet::new(), std::collections::HashSet::new());
    for (record, d) in records.iter().zip(decoded) {
        match d {
            Some((is_val, game, us, them, t)) => {
                if is_val {
                    val.push(&us, &them, t);
                    val_games.insert(game);
                } else {
                    train.push(&us, &them, t);
                    train_games.insert(game);
                }
            }
            None if !codes.contains(&record.variant_code()) => summary.other_variant += 1,
            None => summary.no_score += 1,
        }
    }
    summary.train = train.len() as u64;
    summary.validation = val.len() as u64;
    summary.train_games = train_games.len() as u64;
    summary.validation_games = val_games.len() as u64;
    if train.is_empty() {
        bail!(
            "no training positions of {} in {} record(s) from {} file(s) ({} of another variant, {} without a score)",
            variant.id(),
            thousands(summary.records),
            summary.files,
            thousands(summary.other_variant),
            thousands(summary.no_score)
        );
    }
    Ok((train, val, summary))
}

/// The order of the training positions in epoch `epoch`: a Fisher-Yates shuffle seeded by the
/// run's seed and the epoch number, so that it can be recomputed on resume.
pub fn epoch_order(n: usize, seed: u64, epoch: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    crate::data::shuffle::shuffle(&mut order, seed ^ epoch.wrapping_mul(0xD134_2543_DE82_EF95));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_split_is_by_game_and_near_the_fraction() {
        let n = 20_000;
        let val = (0..n).filter(|&g| is_validation_game(g, 0.1, 7)).count();
        assert!((1_700..2_300).contains(&val), "{val}");
        assert!((0..n).all(|g| !is_validation_game(g, 0.0, 7)));
        assert_eq!(is_validation_game(42, 0.5, 1), is_validation_game(42, 0.5, 1));
    }

    #[test]
    fn epoch_order_is_a_permutation_that_changes_per_epoch() {
        let a = epoch_order(1000, 3, 0);
        let b = epoch_order(1000, 3, 1);
        assert_ne!(a, b);
        assert_eq!(a, epoch_order(1000, 3, 0));
        let mut s = a.clone();
        s.sort_unstable();
        assert_eq!(s, (0..1000).collect::<Vec<u32>>());
    }

    #[test]
    fn targets_blend_result_and_score() {
        let spec = TargetSpec {
            wdl: 0.25,
            eval_scale: 400.0,
        };
        assert!((spec.target(0, GameResult::Win) - (0.25 + 0.375)).abs() < 1e-6);
        let t = spec.target(400, GameResult::Loss);
        assert!((t - 0.75 / (1.0 + (-1.0f32).exp())).abs() < 1e-6);
    }
}
