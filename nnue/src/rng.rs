//! The workspace's one pseudo-random number generator: SplitMix64 (Steele, Lea and Flood), a
//! 64-bit state, one addition and a mix per output. Deterministic for a seed, fast, and good enough
//! for everything here (Zobrist keys, random openings, book choices, matchmaking, initial weights,
//! tests). It lives in `nnue` because that is the crate every other crate depends on.
//!
//! ```
//! use nnue::rng::SplitMix64;
//! let mut a = SplitMix64::new(7);
//! let mut b = SplitMix64::new(7);
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!(a.below(10) < 10);
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

/// The increment of the SplitMix64 state (the golden ratio in 64 bits).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step on a bare state: advances `state` and returns the next 64 random bits.
/// A `const fn`, so tables of random keys can be built at compile time.
#[inline]
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64 as a generator value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose state starts at `seed` (the same seed gives the same sequence).
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// A generator seeded from the clock, the process id and a counter (two generators made at
    /// the same instant still differ). For choices that should vary from run to run.
    pub fn from_time() -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        SplitMix64(nanos ^ u64::from(std::process::id()).rotate_left(32) ^ n.wrapping_mul(GOLDEN_GAMMA))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// A number in `0..n` (0 when `n` is 0), by multiply-shift (bias below 2^-50 for the sizes
    /// used here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform value in `[-1, 1)`.
    pub fn next_signed_unit(&mut self) -> f32 {
        // 24 random bits give every representable step of an f32 in [0, 1).
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        2.0 * unit - 1.0
    }

    /// Shuffles a slice (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // The first outputs of SplitMix64 seeded with 0 (as published with the algorithm).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn const_step_equals_the_generator() {
        let mut state = 99;
        let mut r = SplitMix64::new(99);
        for _ in 0..10 {
            assert_eq!(splitmix64(&mut state), r.next_u64());
        }
    }

    #[test]
    fn ranges() {
        let mut r = SplitMix64::new(1);
        for n in 1..50 {
            assert!(r.below(n) < n);
        }
        assert_eq!(r.below(0), 0);
        for _ in 0..100 {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            let y = r.next_signed_unit();
            assert!((-1.0..1.0).contains(&y));
        }
        let mut v: Vec<u32> = (0..20).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
    }
}
