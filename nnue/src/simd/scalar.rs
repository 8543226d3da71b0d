//! The scalar reference kernels (see the parent module for what they compute).

use super::Block;
use crate::quant::QA;

/// `dst = src + sum(adds) - sum(subs)`, wrapping; all slices have the length of `dst`.
pub(super) fn add_sub(dst: &mut [Block], src: Option<&[Block]>, adds: &[&[Block]], subs: &[&[Block]]) {
    for i in 0..dst.len() {
        let mut values = match src {
            Some(src) => src[i].0,
            None => dst[i].0,
        };
        for row in adds {
            for (value, weight) in values.iter_mut().zip(row[i].0) {
                *value = value.wrapping_add(weight);
            }
        }
        for row in subs {
            for (value, weight) in values.iter_mut().zip(row[i].0) {
                *value = value.wrapping_sub(weight);
            }
        }
        dst[i].0 = values;
    }
}

/// The exact output sum over both halves; `weights` holds the `us` half then the `them` half.
pub(super) fn output(us: &[Block], them: &[Block], weights: &[Block]) -> i64 {
    let (w_us, w_them) = weights.split_at(us.len());
    half(us, w_us) + half(them, w_them)
}

fn half(values: &[Block], weights: &[Block]) -> i64 {
    let mut sum = 0i64;
    for (block, weight_block) in values.iter().zip(weights) {
        for (&x, &w) in block.0.iter().zip(&weight_block.0) {
            let v = i64::from(x.clamp(0, QA as i16));
            sum += v * v * i64::from(w);
        }
    }
    sum
}
