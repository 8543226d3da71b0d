//! The quantisation of architecture v1: the constants every quantised net is stored with and the
//! output arithmetic. A leaf module: the network, the accumulators and the SIMD kernels all read
//! it, and it reads none of them.

/// Quantisation of the feature transformer (weights and biases are `round(x * QA)`), and the
/// SCReLU clamp of the quantised accumulator.
pub const QA: i32 = 255;

/// Quantisation of the output weights (`round(x * QB)`).
pub const QB: i32 = 64;

/// Centipawns per unit of network output: the trainer's (its target is `sigmoid(score / 400)`),
/// and the scale of every net it writes. A net file may carry another (`MIN_SCALE..=MAX_SCALE`),
/// its calibration to the search: `y * scale` centipawns.
pub const SCALE: i32 = 400;

/// The smallest scale a net file may carry.
pub const MIN_SCALE: i32 = 25;

/// The largest scale a net file may carry.
pub const MAX_SCALE: i32 = 3200;

/// The final output arithmetic of the quantised net: `(sum / QA + bias) * scale / (QA * QB)` in
/// `i64` (saturating), each division truncating toward zero, saturated to `i32`.
#[inline]
pub(crate) fn finish(sum: i64, out_bias: i32, scale: i32) -> i32 {
    let out = (sum / i64::from(QA)).saturating_add(i64::from(out_bias));
    let cp = out.saturating_mul(i64::from(scale)) / i64::from(QA * QB);
    cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_matches_the_formula() {
        assert_eq!(finish(0, 0, SCALE), 0);
        // One fully active neuron with weight 1.0 (64) on the stm side: y = 1.0 -> 400 cp.
        let sum = i64::from(QA * QA) * 64;
        assert_eq!(finish(sum, 0, SCALE), 400);
        assert_eq!(finish(-sum, 0, SCALE), -400);
        assert_eq!(finish(0, QA * QB / 2, SCALE), 200);
        assert_eq!(finish(i64::MAX, 0, SCALE), i32::MAX);
        // A net calibrated to half the scale: y = 1.0 -> 200 cp.
        assert_eq!(finish(sum, 0, 200), 200);
        assert_eq!(finish(-sum, 0, 200), -200);
    }
}
