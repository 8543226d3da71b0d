//! A net's scale fitted to another net's: the centipawns per unit of output at which a net's
//! evaluations spread as much as a reference net's do over the same positions.
//!
//! The search's margins are centipawns, so a net plays as its scale lets it (docs/training.md,
//! "A net's scale"). A candidate trained on the self-play of a calibrated net is written at the
//! training scale (400) and, with the game result in its target, runs larger than the net it
//! must beat; read at the fitted scale it searches with that net's margins. The fit matches the
//! median absolute evaluation of the two nets over a sample of self-play positions: a median is
//! not moved by the few positions that one net finds won, and it does not favour either net as
//! a regression of one on the other would.

use std::path::PathBuf;

use anyhow::{bail, Result};
use engine::{eval::nnue::layout, rules::Variant};
use nnue::{
    data::RECORD_SIZE,
    network::{MAX_SCALE, MIN_SCALE},
    Network,
};

use crate::data::io::{for_each_record, record_files, thousands, total_size};

/// Positions a fit reads by default: the median of 20,000 absolute evaluations moves by well
/// under one percent between samples.
pub const DEFAULT_POSITIONS: usize = 20_000;

/// A fitted scale and what it was fitted on.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleFit {
    /// The net's scale before the fit.
    pub before: i32,
    /// The fitted scale, within `MIN_SCALE..=MAX_SCALE`.
    pub scale: i32,
    /// Whether the fit fell outside that range and was clamped to it.
    pub clamped: bool,
    /// Positions evaluated.
    pub positions: usize,
    /// The median absolute evaluation of the reference net, centipawns.
    pub reference_median: f64,
    /// The median absolute evaluation of the net at its scale before the fit, centipawns.
    pub net_median: f64,
}

impl ScaleFit {
    /// One sentence on the fit, for a log line or a report.
    pub fn describe(&self) -> String {
        format!(
            "scale {} cp per unit of output (was {}{}): over {} positions the reference net's median \
             absolute evaluation is {:.1} cp, this net's {:.1} cp at {}",
            self.scale,
            self.before,
            if self.clamped {
                format!("; the fit fell outside {MIN_SCALE}..={MAX_SCALE} and was clamped")
            } else {
                String::new()
            },
            thousands(self.positions as u64),
            self.reference_median,
            self.net_median,
            self.before
        )
    }
}

/// The median of `values` (sorted here); `None` when there are none.
fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// Fits the scale of `net` to `reference` over at most `positions` positions of `variant`,
/// spread evenly over the record files of `inputs` (files or directories): the scale at which
/// the median absolute evaluation of `net` equals that of `reference` (each at its own scale).
/// Records of other variants are skipped.
pub fn fit(
    variant: Variant,
    net: &Network,
    reference: &Network,
    inputs: &[PathBuf],
    positions: usize,
) -> Result<ScaleFit> {
    if positions == 0 {
        bail!("no positions to fit a scale on (give at least 1)");
    }
    let files = record_files(inputs)?;
    let total = total_size(&files) / RECORD_SIZE as u64;
    let stride = total.div_ceil(positions as u64).max(1);
    let layout = layout(variant);
    // Both read at the largest scale: evaluations are whole centipawns, and a net at its own
    // scale may give only a few over most positions (a toy net, or quiet openings).
    let fine = |n: &Network| n.clone().with_scale(MAX_SCALE).map_err(|e| anyhow::anyhow!("{e}"));
    let (fine_net, fine_reference) = (fine(net)?, fine(reference)?);
    let (mut ours, mut theirs) = (Vec::with_capacity(positions), Vec::with_capacity(positions));
    let mut index = 0u64;
    for file in &files {
        for_each_record(file, |_, record| {
            let take = index.is_multiple_of(stride) && ours.len() < positions;
            index += 1;
            if !take || record.variant_code() != variant.code() {
                return Ok(());
            }
            let tp = record
                .decode(&layout)
                .map_err(|e| anyhow::anyhow!("{}: a record that cannot be read: {e}", file.display()))?;
            ours.push(f64::from(fine_net.evaluate(&layout, &tp.pieces, tp.stm)).abs());
            theirs.push(f64::from(fine_reference.evaluate(&layout, &tp.pieces, tp.stm)).abs());
            Ok(())
        })?;
    }
    let count = ours.len();
    let (Some(fine_net_median), Some(fine_reference_median)) = (median(&mut ours), median(&mut theirs)) else {
        bail!(
            "no position of {} in {} record(s) of {}",
            variant.id(),
            thousands(total),
            inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    // Back to each net's own scale.
    let (before, max) = (net.scale(), f64::from(MAX_SCALE));
    let net_median = fine_net_median * f64::from(before) / max;
    let reference_median = fine_reference_median * f64::from(reference.scale()) / max;
    if net_median == 0.0 || reference_median == 0.0 {
        bail!(
            "over {count} positions the median absolute evaluation is {net_median} cp for the net and \
             {reference_median} cp for the reference: one of them is 0 on most positions, so no scale fits"
        );
    }
    let exact = f64::from(before) * reference_median / net_median;
    let scale = exact.round().clamp(f64::from(MIN_SCALE), f64::from(MAX_SCALE)) as i32;
    Ok(ScaleFit {
        before,
        scale,
        clamped: exact.round() != f64::from(scale),
        positions: count,
        reference_median,
        net_median,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0]), Some(3.0));
        assert_eq!(median(&mut [5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }
}
