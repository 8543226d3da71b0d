//! Export to the engine's `.nnue` format (quantised by the `nnue` crate, which refuses a net
//! whose values or accumulators could overflow), and the parity check: the engine's quantised
//! evaluation of fixed positions against the trainer's float evaluation.

use std::path::Path;

use anyhow::{Context, Result};
use engine::{
    eval::nnue::{layout, placed_pieces, NnueNet},
    rules::{position::Position, Color, Variant},
    tournament::openings::Rng,
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
    let mut rng = Rng::new(seed);
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

/// Compares the engine's evaluation with `bytes` loaded against the trainer's float
/// evaluation (`params`, burn) on `positions`.
pub fn parity(params: &Params, bytes: &[u8], variant: Variant, positions: &[Position]) -> Result<Parity> {
    let net = NnueNet::from_bytes(variant, bytes, "exported net").context("the engine refuses the exported net")?;
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
            features::active_features(&lay, c, &pieces)
                .into_iter()
                .map(|f| f as u16)
                .collect()
        };
        batch.push(&conv(stm), &conv(stm.opponent()), 0.0);
    }
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
        let mut batch = Batch::default();
        for pos in &positions {
            let pieces = placed_pieces(pos);
            let stm = if pos.turn() == Color::White {
                nnue::Color::White
            } else {
                nnue::Color::Black
            };
            let ours = pieces.iter().filter(|p| p.color == stm).count() as f32;
            let theirs = pieces.len() as f32 - ours;
            let target = 1.0 / (1.0 + (-(ours - theirs) * 0.3).exp());
            let conv = |c| -> Vec<u16> {
                features::active_features(&lay, c, &pieces)
                    .into_iter()
                    .map(|f| f as u16)
                    .collect()
            };
            batch.push(&conv(stm), &conv(stm.opponent()), target);
        }
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
    fn a_net_out_of_range_is_refused() {
        let variant = Variant::DEFAULT;
        let lay = layout(variant);
        let mut net = FloatNetwork::init_random(features::num_features(&lay), 4, 1);
        net.ft_weights[0] = 200.0;
        let err = to_bytes(&net, variant, "bad").unwrap_err();
        assert!(format!("{err:#}").contains("quantised"), "{err:#}");
    }
}
