//! `trainer data wdl`: fits the win/draw/loss model of `engine::eval::wdl` to the scores and
//! results of self-play records, and shows how well it fits.
//!
//! Records are counted into one bucket per centipawn (from the side to move's view, within
//! +-[`MAX_SCORE`]); the fit maximises the likelihood of the results over the buckets with a
//! coarse-to-fine search of the two parameters.

use std::path::PathBuf;

use anyhow::{bail, Result};
use engine::{
    eval::wdl::{WdlEstimate, WdlModel},
    rules::Variant,
};
use nnue::data::{Record, NO_SCORE};

use super::io::{for_each_record, record_files, thousands};

/// Scores beyond this (mates, won endings) say nothing about the draw model and are left out.
pub const MAX_SCORE: i32 = 2000;

/// Arguments of `trainer data wdl`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Record files (.bin) or directories (searched recursively for .bin files).
    #[arg(required = true, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// Only this variant's records (default: every record read).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Leaves out the first plies of each game (openings are often random plies).
    #[arg(long, default_value_t = 0)]
    pub min_ply: u16,
}

/// Counts of losses, draws and wins (for the side to move) per score.
pub struct Histogram {
    counts: Vec<[u64; 3]>,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![[0; 3]; (2 * MAX_SCORE + 1) as usize],
        }
    }
}

impl Histogram {
    /// Counts one position: its score for the side to move and the result for that side
    /// (0 loss, 1 draw, 2 win). Scores beyond [`MAX_SCORE`] are not counted; returns whether it was.
    pub fn add(&mut self, score: i32, result: usize) -> bool {
        if score.abs() > MAX_SCORE || result > 2 {
            return false;
        }
        self.counts[(score + MAX_SCORE) as usize][result] += 1;
        true
    }

    /// Positions counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    fn buckets(&self) -> impl Iterator<Item = (i32, [u64; 3])> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().any(|&n| n > 0))
            .map(|(i, c)| (i as i32 - MAX_SCORE, *c))
    }

    /// Mean log-likelihood of the results under `model`.
    pub fn log_likelihood(&self, model: &WdlModel) -> f64 {
        let mut sum = 0.0;
        for (s, [l, d, w]) in self.buckets() {
            let e = model.estimate(s);
            let p = |x: f64| x.max(1e-12).ln();
            sum += l as f64 * p(e.loss) + d as f64 * p(e.draw) + w as f64 * p(e.win);
        }
        sum / self.total().max(1) as f64
    }

    /// The model of greatest likelihood: margin in 0..=1500 cp, scale in 10..=2000 cp.
    pub fn fit(&self) -> WdlModel {
        let mut best = WdlModel {
            margin: 200.0,
            scale: 150.0,
        };
        let mut best_ll = self.log_likelihood(&best);
        let (mut step_m, mut step_s) = (100.0, 100.0);
        while step_m > 0.05 {
            let mut improved = false;
            for (dm, ds) in [
                (1.0, 0.0),
                (-1.0, 0.0),
                (0.0, 1.0),
                (0.0, -1.0),
                (1.0, 1.0),
                (-1.0, -1.0),
                (1.0, -1.0),
                (-1.0, 1.0),
            ] {
                let m = WdlModel {
                    margin: (best.margin + dm * step_m).clamp(0.0, 1500.0),
                    scale: (best.scale + ds * step_s).clamp(10.0, 2000.0),
                };
                let ll = self.log_likelihood(&m);
                if ll > best_ll {
                    (best, best_ll, improved) = (m, ll, true);
                }
            }
            if !improved {
                step_m /= 2.0;
                step_s /= 2.0;
            }
        }
        best
    }

    /// Observed and modelled W/D/L in score bands: (band, positions, observed, model).
    pub fn calibration(
        &self,
        model: &WdlModel,
        bands: &[(i32, i32)],
    ) -> Vec<((i32, i32), u64, WdlEstimate, WdlEstimate)> {
        bands
            .iter()
            .map(|&(lo, hi)| {
                let (mut n, mut c, mut m) = (0u64, [0u64; 3], [0.0f64; 3]);
                for (s, counts) in self.buckets().filter(|(s, _)| (lo..=hi).contains(s)) {
                    let k: u64 = counts.iter().sum();
                    n += k;
                    for i in 0..3 {
                        c[i] += counts[i];
                    }
                    let e = model.estimate(s);
                    m[0] += k as f64 * e.loss;
                    m[1] += k as f64 * e.draw;
                    m[2] += k as f64 * e.win;
                }
                let f = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
                let observed = WdlEstimate {
                    win: f(c[2] as f64),
                    draw: f(c[1] as f64),
                    loss: f(c[0] as f64),
                };
                let modelled = WdlEstimate {
                    win: f(m[2]),
                    draw: f(m[1]),
                    loss: f(m[0]),
                };
                ((lo, hi), n, observed, modelled)
            })
            .collect()
    }
}

/// Runs `trainer data wdl`.
pub fn run(args: Args) -> Result<()> {
    let files = record_files(&args.inputs)?;
    let mut h = Histogram::default();
    let (mut read, mut skipped) = (0u64, 0u64);
    let code = args.variant.map(|v| v.code());
    for file in &files {
        for_each_record(file, |_, r: &Record| {
            read += 1;
            let wanted = code.is_none_or(|c| c == r.variant_code()) && r.ply() >= args.min_ply && r.score() != NO_SCORE;
            if !wanted || !h.add(i32::from(r.score()), usize::from(r.result_code())) {
                skipped += 1;
            }
            Ok(())
        })?;
    }
    if h.total() < 100 {
        bail!(
            "only {} usable positions in {} records: the fit needs scored positions within +-{MAX_SCORE} cp",
            h.total(),
            thousands(read)
        );
    }
    let model = h.fit();
    println!(
        "trainer data wdl: {} positions fitted ({} of {} records left out: other variant, early ply, no score or beyond +-{MAX_SCORE} cp)",
        thousands(h.total()),
        thousands(skipped),
        thousands(read)
    );
    println!("  margin {:.1} cp, scale {:.1} cp", model.margin, model.scale);
    println!("  at 0 cp: {}", model.estimate(0));
    println!("  mean log-likelihood {:.4}", h.log_likelihood(&model));
    println!();
    println!(
        "  {:>13}  {:>10}  {:>26}  {:>26}",
        "score", "positions", "observed W / D / L %", "model W / D / L %"
    );
    let bands = [
        (-MAX_SCORE, -501),
        (-500, -301),
        (-300, -151),
        (-150, -51),
        (-50, 50),
        (51, 150),
        (151, 300),
        (301, 500),
        (501, MAX_SCORE),
    ];
    let pct = |e: &WdlEstimate| {
        format!(
            "{:>5.1} / {:>5.1} / {:>5.1}",
            100.0 * e.win,
            100.0 * e.draw,
            100.0 * e.loss
        )
    };
    for ((lo, hi), n, observed, modelled) in h.calibration(&model, &bands) {
        println!(
            "  {:>13}  {:>10}  {:>26}  {:>26}",
            format!("{lo}..{hi}"),
            thousands(n),
            pct(&observed),
            pct(&modelled)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions drawn from a known model are fitted back to it.
    #[test]
    fn the_fit_recovers_the_model_that_made_the_data() {
        let truth = WdlModel {
            margin: 180.0,
            scale: 90.0,
        };
        let mut h = Histogram::default();
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..200_000 {
            let s = ((next() - 0.5) * 1600.0) as i32;
            let e = truth.estimate(s);
            let u = next();
            let result = if u < e.loss {
                0
            } else if u < e.loss + e.draw {
                1
            } else {
                2
            };
            assert!(h.add(s, result));
        }
        assert!(!h.add(MAX_SCORE + 1, 2));
        let fit = h.fit();
        assert!((fit.margin - truth.margin).abs() < 10.0, "{fit:?}");
        assert!((fit.scale - truth.scale).abs() < 6.0, "{fit:?}");
        let bands = h.calibration(&fit, &[(-50, 50)]);
        assert!((bands[0].2.draw - bands[0].3.draw).abs() < 0.02, "{:?}", bands[0]);
    }
}
