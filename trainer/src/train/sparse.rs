//! The hand-written sparse feature transformer: forward (gather and sum of weight rows, bias,
//! SCReLU) and backward (SCReLU derivative, scatter-add into the weight gradient).
//!
//! A position activates a few dozen of the ~2,000 inputs per perspective, so the first layer is
//! a sum of rows, not a matrix product. burn's dense and embedding formulations of that layer
//! are 10-20x slower on a CPU (docs/benchmarks.md); this module does it by hand with rayon and
//! hands the activations to burn, which does the rest of the net, the loss and AdamW (the
//! "hybrid" formulation, see docs/training.md).
//!
//! Work is split into a fixed number of sample chunks whose partial gradients are summed in
//! chunk order, so results do not depend on the thread count or on scheduling: a resumed run
//! computes exactly what an uninterrupted one does.

use rayon::prelude::*;

use super::dataset::Batch;

/// Fixed number of chunks a batch is split into for the backward pass.
const CHUNKS: usize = 8;

/// The feature transformer's output for a batch: pre-activations and activations, each
/// `n x 2H` row-major (side to move's `H` values first, then the other side's).
pub struct FtOutput {
    /// `bias + sum of active rows`, per perspective.
    pub acc: Vec<f32>,
    /// `SCReLU(acc)`.
    pub act: Vec<f32>,
}

/// SCReLU: `clamp(x, 0, 1)^2`.
#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Its derivative: `2x` inside `(0, 1)`, 0 outside.
#[inline(always)]
fn screlu_grad(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}

#[inline(always)]
fn add_row(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// Forward pass. `weights` is `F x H` row-major (row = feature), `bias` has `H` values.
pub fn forward(weights: &[f32], bias: &[f32], hidden: usize, batch: &Batch) -> FtOutput {
    let n = batch.len();
    let width = 2 * hidden;
    let mut acc = vec![0.0f32; n * width];
    let mut act = vec![0.0f32; n * width];
    acc.par_chunks_mut(width)
        .zip(act.par_chunks_mut(width))
        .enumerate()
        .with_min_len(64)
        .for_each(|(i, (acc_row, act_row))| {
            let (us, them) = acc_row.split_at_mut(hidden);
            us.copy_from_slice(bias);
            them.copy_from_slice(bias);
            for &f in batch.stm_features(i) {
                let f = f as usize;
                add_row(us, &weights[f * hidden..(f + 1) * hidden]);
            }
            for &f in batch.ntm_features(i) {
                let f = f as usize;
                add_row(them, &weights[f * hidden..(f + 1) * hidden]);
            }
            for (o, &a) in act_row.iter_mut().zip(acc_row.iter()) {
                *o = screlu(a);
            }
        });
    FtOutput { acc, act }
}

/// Backward pass: from the gradient of the loss with respect to the activations (`n x 2H`), the
/// gradients of the weights (`F x H`) and of the bias (`H`).
pub fn backward(
    acc: &[f32],
    grad_act: &[f32],
    num_features: usize,
    hidden: usize,
    batch: &Batch,
) -> (Vec<f32>, Vec<f32>) {
    let n = batch.len();
    let width = 2 * hidden;
    let per_chunk = n.div_ceil(CHUNKS).max(1);
    let partials: Vec<(Vec<f32>, Vec<f32>)> = (0..CHUNKS)
        .into_par_iter()
        .map(|c| {
            let start = (c * per_chunk).min(n);
            let end = ((c + 1) * per_chunk).min(n);
            let mut gw = vec![0.0f32; if start < end { num_features * hidden } else { 0 }];
            let mut gb = vec![0.0f32; hidden];
            let mut g = vec![0.0f32; width];
            for i in start..end {
                let row = i * width;
                for ((gj, &a), &d) in g
                    .iter_mut()
                    .zip(&acc[row..row + width])
                    .zip(&grad_act[row..row + width])
                {
                    *gj = d * screlu_grad(a);
                }
                let (us, them) = g.split_at(hidden);
                add_row(&mut gb, us);
                add_row(&mut gb, them);
                for &f in batch.stm_features(i) {
                    let f = f as usize;
                    add_row(&mut gw[f * hidden..(f + 1) * hidden], us);
                }
                for &f in batch.ntm_features(i) {
                    let f = f as usize;
                    add_row(&mut gw[f * hidden..(f + 1) * hidden], them);
                }
            }
            (gw, gb)
        })
        .collect();
    let mut gw = vec![0.0f32; num_features * hidden];
    let mut gb = vec![0.0f32; hidden];
    for (pw, pb) in partials {
        if !pw.is_empty() {
            gw.par_chunks_mut(4096)
                .zip(pw.par_chunks(4096))
                .for_each(|(a, b)| add_row(a, b));
        }
        add_row(&mut gb, &pb);
    }
    (gw, gb)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_batch() -> Batch {
        let mut b = Batch::default();
        b.push(&[0, 2], &[1, 3], 0.7);
        b.push(&[1], &[0, 2, 3], 0.2);
        b.push(&[], &[3], 0.5);
        b
    }

    #[test]
    fn forward_sums_rows_and_applies_screlu() {
        let (f, h) = (4, 2);
        let w: Vec<f32> = (0..f * h).map(|i| 0.1 * i as f32).collect();
        let bias = [0.05, -0.1];
        let out = forward(&w, &bias, h, &tiny_batch());
        // Sample 0, stm: bias + row 0 + row 2 = [0.05+0+0.4, -0.1+0.1+0.5].
        let expect = [0.45f32, 0.5];
        for (a, e) in out.acc[0..2].iter().zip(expect) {
            assert!((a - e).abs() < 1e-6);
        }
        assert!((out.act[0] - 0.45 * 0.45).abs() < 1e-6);
        // Sample 2, stm has no features: the bias alone, negative part clipped to 0.
        assert_eq!(out.act[8 + 1], 0.0);
    }

    #[test]
    fn backward_matches_finite_differences() {
        let (f, h) = (4, 3);
        let batch = tiny_batch();
        let w: Vec<f32> = (0..f * h).map(|i| 0.05 * ((i * 7 % 11) as f32) - 0.2).collect();
        let bias = vec![0.3f32, 0.1, 0.45];
        // Loss = sum of activations times fixed coefficients.
        let coef: Vec<f32> = (0..batch.len() * 2 * h).map(|i| 0.1 * (i % 5) as f32 - 0.2).collect();
        let loss = |w: &[f32], b: &[f32]| -> f64 {
            forward(w, b, h, &batch)
                .act
                .iter()
                .zip(&coef)
                .map(|(a, c)| f64::from(a * c))
                .sum()
        };
        let out = forward(&w, &bias, h, &batch);
        let (gw, gb) = backward(&out.acc, &coef, f, h, &batch);
        let eps = 1e-3f32;
        for k in 0..w.len() {
            let (mut plus, mut minus) = (w.clone(), w.clone());
            plus[k] += eps;
            minus[k] -= eps;
            let numeric = (loss(&plus, &bias) - loss(&minus, &bias)) / (2.0 * f64::from(eps));
            assert!(
                (numeric - f64::from(gw[k])).abs() < 1e-3,
                "weight {k}: {numeric} vs {}",
                gw[k]
            );
        }
        for k in 0..h {
            let (mut plus, mut minus) = (bias.clone(), bias.clone());
            plus[k] += eps;
            minus[k] -= eps;
            let numeric = (loss(&w, &plus) - loss(&w, &minus)) / (2.0 * f64::from(eps));
            assert!(
                (numeric - f64::from(gb[k])).abs() < 1e-3,
                "bias {k}: {numeric} vs {}",
                gb[k]
            );
        }
    }
}
