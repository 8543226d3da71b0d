//! AVX2 kernels. The only module of the crate with `unsafe` code:
//!
//! * [`Avx2`] is a zero-sized proof that the CPU supports AVX2; it can only be made by
//!   [`Avx2::detect`], so the safe wrappers [`add_sub`] and [`output`] may call the
//!   `#[target_feature(enable = "avx2")]` kernels;
//! * [`registers`] and [`registers_mut`] view a `[Block]` as `[__m256i]` (same size, alignment
//!   and validity), so the kernels read and write memory through ordinary bounds-checked
//!   indexing and need no raw pointers.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_add_epi64, _mm256_castsi256_si128, _mm256_cvtepi32_epi64,
    _mm256_extracti128_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_setzero_si256, _mm256_sub_epi16, _mm_add_epi64, _mm_cvtsi128_si64, _mm_extract_epi64,
};

use super::Block;
use crate::quant::QA;

/// Proof that the running CPU supports AVX2 (made only by [`Avx2::detect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The proof, if the CPU supports AVX2.
    pub(super) fn detect() -> Option<Self> {
        is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

const _: () = assert!(
    size_of::<Block>() == size_of::<__m256i>() && align_of::<Block>() >= align_of::<__m256i>(),
    "a Block must have the layout of an AVX2 register"
);

/// `blocks` as AVX2 registers.
fn registers(blocks: &[Block]) -> &[__m256i] {
    // SAFETY: `Block` is `repr(C, align(32))` around `[i16; 16]`: 32 bytes with alignment 32,
    // the size and alignment of `__m256i` (checked at compile time above), and every bit pattern
    // is valid for both types. The new slice covers the same memory with the same length and
    // borrows `blocks`, so lifetime and aliasing carry over.
    unsafe { core::slice::from_raw_parts(blocks.as_ptr().cast::<__m256i>(), blocks.len()) }
}

/// `blocks` as mutable AVX2 registers.
fn registers_mut(blocks: &mut [Block]) -> &mut [__m256i] {
    // SAFETY: as in `registers`; the new slice borrows `blocks` mutably, so it is the only
    // access path to that memory while it lives.
    unsafe { core::slice::from_raw_parts_mut(blocks.as_mut_ptr().cast::<__m256i>(), blocks.len()) }
}

/// `dst = src + sum(adds) - sum(subs)` (see [`super::Backend::add_sub`]); all slices have the
/// length of `dst`.
pub(super) fn add_sub(_proof: Avx2, dst: &mut [Block], src: Option<&[Block]>, adds: &[&[Block]], subs: &[&[Block]]) {
    // SAFETY: `_proof` exists only if `is_x86_feature_detected!("avx2")` returned true.
    unsafe { add_sub_avx2(registers_mut(dst), src.map(registers), adds, subs) }
}

/// The exact output sum (see [`super::Backend::output`]); every weight must be within
/// `MAX_FAST_OUTPUT_WEIGHT` in magnitude.
pub(super) fn output(_proof: Avx2, us: &[Block], them: &[Block], weights: &[Block]) -> i64 {
    // SAFETY: `_proof` exists only if `is_x86_feature_detected!("avx2")` returned true.
    unsafe { output_avx2(registers(us), registers(them), registers(weights)) }
}

/// Picks a kernel specialised for the common numbers of added and removed rows.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn add_sub_avx2(dst: &mut [__m256i], src: Option<&[__m256i]>, adds: &[&[Block]], subs: &[&[Block]]) {
    let r = registers;
    // SAFETY: this function's caller guarantees AVX2, which is all the kernels need.
    unsafe {
        match (adds, subs) {
            ([a], [s]) => fixed(dst, src, [r(a)], [r(s)]),
            ([a], [s1, s2]) => fixed(dst, src, [r(a)], [r(s1), r(s2)]),
            ([a1, a2], [s1, s2]) => fixed(dst, src, [r(a1), r(a2)], [r(s1), r(s2)]),
            ([a1, a2, a3, a4], []) => fixed(dst, src, [r(a1), r(a2), r(a3), r(a4)], []),
            ([a], []) => fixed(dst, src, [r(a)], []),
            ([], [s]) => fixed(dst, src, [], [r(s)]),
            _ => any(dst, src, adds, subs),
        }
    }
}

/// The kernel for `A` added and `S` removed rows: one pass, the accumulator stays in a register
/// while every row is applied.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn fixed<const A: usize, const S: usize>(
    dst: &mut [__m256i],
    src: Option<&[__m256i]>,
    adds: [&[__m256i]; A],
    subs: [&[__m256i]; S],
) {
    for i in 0..dst.len() {
        let mut v = match src {
            Some(src) => src[i],
            None => dst[i],
        };
        for row in &adds {
            v = _mm256_add_epi16(v, row[i]);
        }
        for row in &subs {
            v = _mm256_sub_epi16(v, row[i]);
        }
        dst[i] = v;
    }
}

/// The kernel for any numbers of rows.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn any(dst: &mut [__m256i], src: Option<&[__m256i]>, adds: &[&[Block]], subs: &[&[Block]]) {
    for i in 0..dst.len() {
        let mut v = match src {
            Some(src) => src[i],
            None => dst[i],
        };
        for row in adds {
            v = _mm256_add_epi16(v, registers(row)[i]);
        }
        for row in subs {
            v = _mm256_sub_epi16(v, registers(row)[i]);
        }
        dst[i] = v;
    }
}

/// Registers summed into the 32-bit lanes before they are widened to 64 bits. Each register adds
/// at most `2 * QA * (QA * 128) = 16,646,400` to a lane, so 64 of them stay below `2^31`.
const FLUSH_EVERY: usize = 64;

/// The output sum: `clamp(x, 0, QA)` is multiplied by the weight in 16 bits (exact because
/// `|w| <= 128`), then `_mm256_madd_epi16` multiplies by the clamped value again and adds
/// neighbouring pairs into 32-bit lanes, which are widened to 64 bits every [`FLUSH_EVERY`]
/// registers.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn output_avx2(us: &[__m256i], them: &[__m256i], weights: &[__m256i]) -> i64 {
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let (w_us, w_them) = weights.split_at(us.len());
    let mut total = 0i64;
    for (values, weights) in [(us, w_us), (them, w_them)] {
        for (values, weights) in values.chunks(FLUSH_EVERY).zip(weights.chunks(FLUSH_EVERY)) {
            let mut lanes = zero;
            for (&x, &w) in values.iter().zip(weights) {
                let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
                lanes = _mm256_add_epi32(lanes, _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v));
            }
            // SAFETY: this function's caller guarantees AVX2.
            total += unsafe { horizontal_sum(lanes) };
        }
    }
    total
}

/// The sum of the eight signed 32-bit lanes of `lanes`, in 64 bits.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn horizontal_sum(lanes: __m256i) -> i64 {
    let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(lanes));
    let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(lanes));
    let four = _mm256_add_epi64(low, high);
    let two = _mm_add_epi64(_mm256_castsi256_si128(four), _mm256_extracti128_si256::<1>(four));
    _mm_cvtsi128_si64(two) + _mm_extract_epi64::<1>(two)
}
