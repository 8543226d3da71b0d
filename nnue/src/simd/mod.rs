//! Vector kernels behind the accumulator: a scalar reference and an AVX2 version chosen at run
//! time. Both compute exactly the same integers:
//!
//! * accumulator updates use wrapping `i16` additions (the quantiser guarantees that a real
//!   position never overflows, and wrapping keeps incremental updates equal to a refresh in any
//!   order);
//! * the output layer sums `clamp(x, 0, QA)^2 * w` exactly in `i64`.
//!
//! All data is stored in [`Block`]s of 16 `i16` values aligned to 32 bytes, so that one block is
//! one AVX2 register and hidden sizes that are not a multiple of 16 are padded with zeros.

mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx2;

use crate::quant::QA;

/// Lanes per [`Block`].
pub(crate) const LANES: usize = 16;

/// Sixteen `i16` values, 32-byte aligned: one AVX2 register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Block(pub(crate) [i16; LANES]);

/// Number of blocks that hold `hidden` values.
pub(crate) const fn blocks_for(hidden: usize) -> usize {
    hidden.div_ceil(LANES)
}

/// Which kernels to run. An AVX2 backend can only be obtained on a CPU that has AVX2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backend(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Avx2),
}

impl Backend {
    /// The portable scalar reference.
    #[must_use]
    pub const fn scalar() -> Self {
        Backend(Kind::Scalar)
    }

    /// The AVX2 kernels, or `None` if this CPU (or target) lacks AVX2.
    #[must_use]
    pub fn avx2() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            avx2::Avx2::detect().map(|token| Backend(Kind::Avx2(token)))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The fastest backend this CPU supports.
    #[must_use]
    pub fn best() -> Self {
        Self::avx2().unwrap_or_else(Self::scalar)
    }

    /// A short name: `"scalar"` or `"avx2"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2(_) => "avx2",
        }
    }

    /// `dst = src + sum(adds) - sum(subs)` block by block (`src = dst` when `None`), wrapping.
    /// All slices must have the length of `dst` (checked; a mismatch panics).
    pub(crate) fn add_sub(self, dst: &mut [Block], src: Option<&[Block]>, adds: &[&[Block]], subs: &[&[Block]]) {
        let n = dst.len();
        let same_length = |row: &&[Block]| row.len() == n;
        assert!(
            src.is_none_or(|src| src.len() == n) && adds.iter().all(same_length) && subs.iter().all(same_length),
            "accumulator kernel called with slices of different lengths"
        );
        match self.0 {
            Kind::Scalar => scalar::add_sub(dst, src, adds, subs),
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2(token) => avx2::add_sub(token, dst, src, adds, subs),
        }
    }

    /// `sum_j clamp(us[j], 0, QA)^2 * w[j] + sum_j clamp(them[j], 0, QA)^2 * w[H + j]`, exactly,
    /// where `w` holds the `us` half then the `them` half. `fast_weights` says that every weight
    /// is within [`MAX_FAST_OUTPUT_WEIGHT`] in magnitude (the AVX2 kernel needs it).
    pub(crate) fn output(self, us: &[Block], them: &[Block], weights: &[Block], fast_weights: bool) -> i64 {
        assert!(
            us.len() == them.len() && weights.len() == 2 * us.len(),
            "output kernel called with slices of different lengths"
        );
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2(token) if fast_weights => avx2::output(token, us, them, weights),
            _ => scalar::output(us, them, weights),
        }
    }
}

/// Largest output weight magnitude for which the AVX2 output kernel may multiply a clamped
/// activation by the weight in 16 bits (`QA * 128 = 32640 <= i16::MAX`). Nets with larger output
/// weights are evaluated with the scalar output kernel (same result, slower).
pub const MAX_FAST_OUTPUT_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(seed: u64, n: usize) -> Vec<Block> {
        let mut rng = crate::rng::SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                let mut block = Block::default();
                for lane in &mut block.0 {
                    *lane = rng.next_u64() as i16;
                }
                block
            })
            .collect()
    }

    #[test]
    fn max_fast_weight() {
        assert_eq!(MAX_FAST_OUTPUT_WEIGHT, 128);
        assert!(i32::from(MAX_FAST_OUTPUT_WEIGHT) * QA <= i32::from(i16::MAX));
    }

    #[test]
    fn kernels_agree_on_random_data() {
        let Some(avx2) = Backend::avx2() else {
            eprintln!("skipping: this CPU has no AVX2");
            return;
        };
        let scalar = Backend::scalar();
        for n in [1, 2, 16, 17, 100] {
            let rows: Vec<Vec<Block>> = (0..9).map(|seed| blocks(seed, n)).collect();
            let refs: Vec<&[Block]> = rows.iter().map(Vec::as_slice).collect();
            for adds in 0..=4 {
                for subs in 0..=4 {
                    let (a, s) = (&refs[1..1 + adds], &refs[5..5 + subs]);
                    let mut x = rows[0].clone();
                    let mut y = rows[0].clone();
                    scalar.add_sub(&mut x, None, a, s);
                    avx2.add_sub(&mut y, None, a, s);
                    assert_eq!(x, y);
                    let (mut x2, mut y2) = (vec![Block::default(); n], vec![Block::default(); n]);
                    scalar.add_sub(&mut x2, Some(&rows[0]), a, s);
                    avx2.add_sub(&mut y2, Some(&rows[0]), a, s);
                    assert_eq!(x2, x);
                    assert_eq!(y2, x);
                }
            }
            let mut weights = blocks(99, 2 * n);
            for block in &mut weights {
                for lane in &mut block.0 {
                    *lane %= MAX_FAST_OUTPUT_WEIGHT + 1;
                }
            }
            let full = scalar.output(&rows[0], &rows[1], &weights, true);
            assert_eq!(avx2.output(&rows[0], &rows[1], &weights, true), full);
            let saturated = vec![Block([i16::MAX; LANES]); n];
            let max_weights = vec![Block([MAX_FAST_OUTPUT_WEIGHT; LANES]); 2 * n];
            let top = scalar.output(&saturated, &saturated, &max_weights, true);
            assert_eq!(top, 2 * (n * LANES) as i64 * i64::from(QA * QA) * 128);
            assert_eq!(avx2.output(&saturated, &saturated, &max_weights, true), top);
        }
    }
}
