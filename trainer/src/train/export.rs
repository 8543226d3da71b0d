//! Export to the engine's `.nnue` format (quantised by the `nnue` crate, which refuses a net
//! whose values or accumulators could overflow), and the parity check: the engine's quantised
//! evaluation of fixed positions against the trainer's float evaluation.

use std::path::Path;

use anyhow::{Context, Result};
use engine::{
    eval::nnue::{layout, placed_pieces, NnueNet},
    play::openings::seeded_rng,
    rules::{position::Position, Color, Variant},
};
use nnue::{features, format, format::NetHeader, network::SCALE, FloatNetwork};
use serde::{Deserialize, Serialize};

use super::{dataset::Batch, model::Params};
use crate::data::io::write_atomic;

/// The most pieces a position of `variant` can hold: the start position's (pieces are never
/// added), the bound the quantiser checks accumulators against.
pub fn max_active(variant: Variant) -> usize {
    Position::startpos(variant).occupied().count() as usize
}

/// Chooses how each output weight is rounded to the engine's 1/64 grid so that the rounding
/// errors cancel on a calibration set instead of adding up, and moves the output biases to remove
/// what is left on average.
///
/// Plain rounding to nearest leaves each output weight off by up to 1/128; summed over `2H`
/// activations that is about 10-20 cp of noise per position for a 256-hidden net. Here, starting
/// from round-to-nearest, each weight in turn moves one step up or down when that lowers the
/// squared error of the outputs over the calibration positions (`act`: their SCReLU activations,
/// `n x 2H`; `pieces`: their piece counts, which choose the output bucket), for a few passes.
/// Each bucket is rounded on its own positions; a bucket with fewer than `2 * 2H` of them (too
/// few to fit `2H` choices without fitting noise) is rounded to nearest.
/// Weights stay within `+-max_abs` (the training clip). Returns the root-mean-square output
/// error (in net units) before and after, over all positions.
pub fn round_output_layer(net: &mut FloatNetwork, act: &[f32], pieces: &[usize], max_abs: f32) -> (f64, f64) {
    let width = 2 * net.hidden;
    let buckets = net.buckets();
    let n = (act.len() / width.max(1)).min(pieces.len());
    let (mut before, mut after) = (0.0f64, 0.0f64);
    for bucket in 0..buckets {
        let rows: Vec<&[f32]> = (0..n)
            .filter(|&i| nnue::network::output_bucket(pieces[i], buckets) == bucket)
            .map(|i| &act[i * width..(i + 1) * width])
            .collect();
        let head = &mut net.out_weights[bucket * width..(bucket + 1) * width];
        let passes = if rows.len() >= 2 * width { 6 } else { 0 };
        let (b, a, shift) = round_head(head, &rows, max_abs, passes);
        net.out_bias[bucket] -= shift as f32;
        before += b * b * rows.len() as f64;
        after += a * a * rows.len() as f64;
    }
    let n = n.max(1) as f64;
    ((before / n).sqrt(), (after / n).sqrt())
}

/// [`round_output_layer`] for one bucket's `2H` weights and its positions' activations, with at
/// most `passes` greedy passes (0: round to nearest); returns the rms error before and after and
/// the mean error left (to take from the bias).
fn round_head(weights: &mut [f32], rows: &[&[f32]], max_abs: f32, passes: usize) -> (f64, f64, f64) {
    let qb = f64::from(nnue::network::QB);
    let limit = (f64::from(max_abs) * qb).floor();
    let mut q: Vec<f64> = weights
        .iter()
        .map(|&w| (f64::from(w) * qb).round().clamp(-limit, limit))
        .collect();
    if rows.is_empty() {
        for (w, &qj) in weights.iter_mut().zip(&q) {
            *w = (qj / qb) as f32;
        }
        return (0.0, 0.0, 0.0);
    }
    // e_i = output with rounded weights - output with float weights.
    let mut err: Vec<f64> = rows
        .iter()
        .map(|row| {
            row.iter()
                .zip(q.iter().zip(weights.iter()))
                .map(|(&a, (&qj, &w))| f64::from(a) * (qj / qb - f64::from(w)))
                .sum()
        })
        .collect();
    let rms = |err: &[f64]| {
        let mean = err.iter().sum::<f64>() / err.len() as f64;
        (err.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / err.len() as f64).sqrt()
    };
    let before = rms(&err);
    let step = 1.0 / qb;
    for _pass in 0..passes {
        let mut changed = false;
        for j in 0..weights.len() {
            let (mut g, mut h) = (0.0f64, 0.0f64);
            for (row, e) in rows.iter().zip(&err) {
                let a = f64::from(row[j]);
                g += e * a;
                h += a * a;
            }
            let mut best = (0.0, 0.0);
            for s in [step, -step] {
                let next = q[j] + s * qb;
                if next.abs() > limit {
                    continue;
                }
                let delta = 2.0 * s * g + s * s * h;
                if delta < best.0 - 1e-12 {
                    best = (delta, s);
                }
            }
            if best.1 != 0.0 {
                let s = best.1;
                q[j] += s * qb;
                for (row, e) in rows.iter().zip(err.iter_mut()) {
                    *e += s * f64::from(row[j]);
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mean = err.iter().sum::<f64>() / err.len() as f64;
    for (w, &qj) in weights.iter_mut().zip(&q) {
        *w = (qj / qb) as f32;
    }
    (before, rms(&err), mean)
}

/// The net as `.nnue` bytes.
pub fn to_bytes(net: &FloatNetwork, variant: Variant, description: &str) -> Result<Vec<u8>> {
    let quantised = net
        .quantise(max_active(variant))
        .context("the net cannot be quantised (weights out of range)")?;
    let header = NetHeader::new(variant.code(), variant.id(), &layout(variant), description);
    format::to_bytes(&header, &quantised).context("cannot encode the net")
}

/// Writes the net to `path` (atomically) and returns the bytes written.
pub fn write(net: &FloatNetwork, variant: Variant, description: &str, path: &Path) -> Result<Vec<u8>> {
    let bytes = to_bytes(net, variant, description)?;
    write_atomic(path, &bytes)?;
    Ok(bytes)
}

/// How far the engine's quantised evaluation is from the trainer's float evaluation.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Parity {
    /// Positions compared.
    pub positions: usize,
    /// Largest absolute difference, centipawns.
    pub max_cp: f64,
    /// Mean absolute difference, centipawns.
    pub mean_cp: f64,
    /// Mean of engine minus trainer, centipawns (a bias would show here).
    pub signed_mean_cp: f64,
}

/// Fixed positions of `variant` for checks: the start position and positions along seeded
/// random games (every 3rd ply of up to 60, not terminal).
pub fn fixed_positions(variant: Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = seeded_rng(seed);
    let mut out = vec![Position::startpos(variant)];
    while out.len() < count {
        let mut pos = Position::startpos(variant);
        for ply in 0..60 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            let list = moves.as_slice();
            if list.is_empty() {
                break;
            }
            pos.play_unchecked(list[rng.below(list.len())]);
            if ply % 3 == 2 && pos.outcome().is_none() && out.len() < count {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// The positions as a batch of feature lists (with `kings`, feature set v2), with targets from
/// `target(pieces, side to move)`.
pub fn batch_of(
    variant: Variant,
    kings: Option<&nnue::features::KingBuckets>,
    positions: &[Position],
    target: impl Fn(&[nnue::PlacedPiece], nnue::Color) -> f32,
) -> Batch {
    let lay = layout(variant);
    let mut batch = Batch::default();
    for pos in positions {
        let pieces = placed_pieces(pos);
        let stm = if pos.turn() == Color::White {
            nnue::Color::White
        } else {
            nnue::Color::Black
        };
        let conv = |c| -> Vec<u16> {
            features::active_features_with(&lay, kings, c, &pieces)
                .into_iter()
                .map(|f| f as u16)
                .collect()
        };
        batch.push(&conv(stm), &conv(stm.opponent()), target(&pieces, stm));
    }
    batch
}

/// Compares the engine's evaluation with `bytes` loaded against the trainer's float
/// evaluation (`params`, burn) on `positions`.
pub fn parity(params: &Params, bytes: &[u8], variant: Variant, positions: &[Position]) -> Result<Parity> {
    let net = NnueNet::from_bytes(variant, bytes, "exported net").context("the engine refuses the exported net")?;
    let batch = batch_of(variant, params.kings.as_ref(), positions, |_, _| 0.0);
    let float = params.predict(&batch)?;
    let mut report = Parity {
        positions: positions.len(),
        ..Parity::default()
    };
    let (mut sum, mut signed) = (0.0, 0.0);
    for (pos, y) in positions.iter().zip(float) {
        let trainer_cp = f64::from(y) * f64::from(SCALE);
        let engine_cp = f64::from(net.evaluate_position(pos));
        signed += engine_cp - trainer_cp;
        let d = (trainer_cp - engine_cp).abs();
        report.max_cp = report.max_cp.max(d);
        sum += d;
    }
    report.mean_cp = sum / positions.len().max(1) as f64;
    report.signed_mean_cp = signed / positions.len().max(1) as f64;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::model::{FtMode, Trainer};
    use burn::tensor::Device;

    /// A net trained for a few steps on positions labelled by a simple material count, so that
    /// its weights look like a trained net's, not like the random start.
    fn trained(variant: Variant) -> Params {
        let lay = layout(variant);
        let device = Device::flex();
        let mut params = Params::init(features::num_features(&lay), 32, 11, &device);
        let mut trainer = Trainer::new(0.01, 1.98);
        let positions = fixed_positions(variant, 256, 99);
        let batch = batch_of(variant, None, &positions, |pieces, stm| {
            let ours = pieces.iter().filter(|p| p.color == stm).count() as f32;
            let theirs = pieces.len() as f32 - ours;
            1.0 / (1.0 + (-(ours - theirs) * 0.3).exp())
        });
        for _ in 0..60 {
            let (_, g) = params.gradients(&batch, FtMode::Sparse).unwrap();
            params = trainer.step(params, g, 3e-3);
        }
        params
    }

    #[test]
    fn the_engine_evaluates_an_exported_net_as_the_trainer_does() {
        for variant in Variant::PERSIAN {
            let params = trained(variant);
            let bytes = to_bytes(&params.to_float().unwrap(), variant, "test").unwrap();
            let positions = fixed_positions(variant, 64, 5);
            let report = parity(&params, &bytes, variant, &positions).unwrap();
            assert_eq!(report.positions, 64);
            // The engine's integer arithmetic equals the float forward pass of the same
            // (dequantised) weights to rounding.
            let loaded = format::read(&bytes, &engine::eval::nnue::expected(variant)).unwrap();
            let dequantised = Params::from_float(&FloatNetwork::dequantise(&loaded.network), &Device::flex());
            let exact = parity(&dequantised, &bytes, variant, &positions).unwrap();
            assert!(exact.max_cp <= 1.5, "{variant:?}: {exact:?}");
            // Against the float net before rounding, rounding every first-layer weight to 1/255
            // and every output weight to 1/64 moves the evaluation by a few centipawns (by
            // about the same amount in every position: the rounding errors are the net's own).
            assert!(
                report.max_cp <= 20.0 && report.mean_cp <= 8.0,
                "{variant:?}: {report:?}"
            );
        }
    }

    #[test]
    fn adaptive_rounding_cancels_errors_on_the_calibration_set() {
        let variant = Variant::PersianPrincess;
        let params = trained(variant);
        let mut net = params.to_float().unwrap();
        let positions = fixed_positions(variant, 300, 8);
        let batch = batch_of(variant, None, &positions, |_, _| 0.0);
        let act = crate::train::sparse::forward(&net.ft_weights, &net.ft_bias, net.hidden, &batch).act;
        let pieces: Vec<usize> = (0..batch.len()).map(|i| batch.stm_features(i).len()).collect();
        let (before, after) = round_output_layer(&mut net, &act, &pieces, 1.98);
        // A 32-hidden net has only 64 output weights to play with; wider nets gain more.
        assert!(after < before * 0.95, "{before} -> {after}");
        // Every output weight is now exactly on the 1/64 grid.
        assert!(net
            .out_weights
            .iter()
            .all(|w| (w * 64.0 - (w * 64.0).round()).abs() < 1e-4));
        // And the engine agrees better with the float net on the calibration positions.
        let plain = parity(
            &params,
            &to_bytes(&params.to_float().unwrap(), variant, "t").unwrap(),
            variant,
            &positions,
        )
        .unwrap();
        let rounded = parity(&params, &to_bytes(&net, variant, "t").unwrap(), variant, &positions).unwrap();
        assert!(rounded.mean_cp < plain.mean_cp, "{plain:?} vs {rounded:?}");
    }

    #[test]
    fn each_bucket_is_rounded_on_its_own_positions() {
        let variant = Variant::PersianPrincess;
        let one = trained(variant).to_float().unwrap();
        let mut net = one.with_buckets(2).unwrap();
        let positions = fixed_positions(variant, 300, 8);
        let batch = batch_of(variant, None, &positions, |_, _| 0.0);
        let act = crate::train::sparse::forward(&net.ft_weights, &net.ft_bias, net.hidden, &batch).act;
        // Every position in bucket 1 (as if it had 40 pieces): bucket 1 is rounded adaptively,
        // bucket 0, without positions, to nearest.
        let pieces = vec![40; batch.len()];
        let (before, after) = round_output_layer(&mut net, &act, &pieces, 1.98);
        assert!(after < before * 0.95, "{before} -> {after}");
        let nearest: Vec<f32> = one.out_weights.iter().map(|w| (w * 64.0).round() / 64.0).collect();
        assert_eq!(net.head(0).0, &nearest[..]);
        assert_ne!(net.head(1).0, &nearest[..]);
        assert_eq!(net.out_bias[0], one.out_bias[0]);
        assert!(net
            .out_weights
            .iter()
            .all(|w| (w * 64.0 - (w * 64.0).round()).abs() < 1e-4));
    }

    #[test]
    fn a_net_out_of_range_is_refused() {
        let variant = Variant::DEFAULT;
        let lay = layout(variant);
        let mut net = FloatNetwork::init_random(features::num_features(&lay), 4, 1);
        net.ft_weights[0] = 200.0;
        let err = to_bytes(&net, variant, "bad").unwrap_err();
        assert!(format!("{err:#}").contains("quantised"), "{err:#}");
    }
}
