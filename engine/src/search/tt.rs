//! The transposition table: a shared, lock-free hash table of search results.
//!
//! Each slot holds two 64-bit words: the data (move, score, static eval, depth, bound, age) and
//! a check word: the lower 56 bits of the key XOR the data, so a torn write by another thread is
//! detected as a miss, and in the upper 8 bits the table's generation when the slot was written
//! (the key's upper bits choose the bucket, so they need no check).
//! Clearing the table (a new game) only starts a new generation: slots of older generations
//! count as empty. The memory is really zeroed once every 255 clears.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::rules::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least the stored one (fail high).
    Lower,
    /// The true score is at most the stored one (fail low).
    Upper,
}

/// A table hit.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Best move found (may be null).
    pub mv: Move,
    /// Score, mate scores relative to the node.
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Search depth of the result.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The table.
pub struct TranspositionTable {
    /// The allocation; the table is `len` slots from `start` (the slots before `start` only
    /// align the table to a huge-page boundary).
    slots: Vec<Slot>,
    start: usize,
    len: usize,
    age: AtomicU8,
    /// The generation (1..=255) that slots must carry to count; 0 marks never-written slots.
    generation: AtomicU8,
}

/// The bits of the check word that verify the key; the generation is in the others.
const KEY_BITS: u64 = u64::MAX >> 8;
/// Where the generation sits in the check word.
const GENERATION_SHIFT: u32 = 56;

const BUCKET: usize = 2;

/// Asks the processor to bring the cache line of `item` closer (a hint: nothing changes).
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = item as *const T as *const i8;
        // The intrinsic is marked unsafe only because it needs the SSE feature, which every
        // x86-64 processor has.
        // SAFETY: a prefetch is a hint; it never faults and reads or writes no memory.
        #[allow(unsafe_code)]
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Size of a huge page (x86-64 and most ARM Linux systems).
const HUGE_PAGE: usize = 2 << 20;

/// Allocates at least `n` empty slots, returning the allocation and the index of the first
/// slot of the table. On Linux a table of at least one huge page starts on a huge-page
/// boundary and the kernel is asked to back it with huge pages (transparent huge pages in
/// `madvise` mode): with 4 KB pages nearly every probe of a large table also misses the TLB.
fn allocate(n: usize) -> (Vec<Slot>, usize) {
    let empty = || Slot {
        check: AtomicU64::new(0),
        data: AtomicU64::new(0),
    };
    let bytes = n * std::mem::size_of::<Slot>();
    if !cfg!(target_os = "linux") || bytes < HUGE_PAGE {
        let mut slots = Vec::with_capacity(n);
        slots.resize_with(n, empty);
        return (slots, 0);
    }
    let pad = HUGE_PAGE / std::mem::size_of::<Slot>();
    let mut slots: Vec<Slot> = Vec::with_capacity(n + pad);
    let addr = slots.as_ptr() as usize;
    let aligned = addr.next_multiple_of(HUGE_PAGE);
    let start = (aligned - addr) / std::mem::size_of::<Slot>();
    advise_huge_pages(aligned, bytes);
    // The memory is touched only now, after the advice.
    slots.resize_with(start + n, empty);
    (slots, start)
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(addr: usize, len: usize) {
    // SAFETY: the range lies inside an allocation this process owns and has not handed out;
    // MADV_HUGEPAGE changes only how the kernel backs the pages, never their contents. A
    // failure (no transparent huge pages on this system) is harmless and ignored.
    unsafe {
        libc::madvise(addr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _len: usize) {}

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (mv.raw() as u64 & 0x1f_ffff)
        | ((score as i16 as u16 as u64) << 21)
        | ((eval as i16 as u16 as u64) << 37)
        | ((depth.clamp(0, 255) as u64) << 53)
        | (b << 61)
        | (((age & 1) as u64) << 63)
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 61) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        mv: Move::from_raw((data & 0x1f_ffff) as u32),
        score: ((data >> 21) & 0xffff) as u16 as i16 as i32,
        eval: ((data >> 37) & 0xffff) as u16 as i16 as i32,
        depth: ((data >> 53) & 0xff) as i32,
        bound,
    })
}

impl TranspositionTable {
    /// A table of about `mb` megabytes.
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(BUCKET * 16);
        let n = n - n % BUCKET;
        let (slots, start) = allocate(n);
        TranspositionTable {
            slots,
            start,
            len: n,
            age: AtomicU8::new(0),
            generation: AtomicU8::new(1),
        }
    }

    /// The current generation as it sits in a check word.
    #[inline(always)]
    fn generation_tag(&self) -> u64 {
        (self.generation.load(Ordering::Relaxed) as u64) << GENERATION_SHIFT
    }

    /// The slots of the table.
    #[inline(always)]
    fn table(&self) -> &[Slot] {
        &self.slots[self.start..self.start + self.len]
    }

    /// Empties the table: a new generation begins and the slots of older ones count as empty
    /// (the memory itself is zeroed only when the generations wrap around).
    pub fn clear(&self) {
        let next = self.generation.load(Ordering::Relaxed).wrapping_add(1);
        if next == 0 {
            for s in self.table() {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
            self.generation.store(1, Ordering::Relaxed);
        } else {
            self.generation.store(next, Ordering::Relaxed);
        }
    }

    /// The data of a slot if it holds `key` in the current generation.
    #[inline(always)]
    fn read(s: &Slot, key: u64, generation: u64) -> Option<u64> {
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        (check ^ ((key ^ data) & KEY_BITS) == generation).then_some(data)
    }

    /// The data of a slot written in the current generation, else 0 (an empty slot).
    #[inline(always)]
    fn current(s: &Slot, generation: u64) -> u64 {
        let data = s.data.load(Ordering::Relaxed);
        if s.check.load(Ordering::Relaxed) & !KEY_BITS == generation {
            data
        } else {
            0
        }
    }

    /// Starts a new search (entries of older searches are replaced first).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        let buckets = (self.len / BUCKET) as u64;
        self.start + (((key as u128) * (buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Asks the processor to bring the bucket of `key` into the cache (a hint; it changes
    /// nothing), so that a probe shortly after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.bucket(key)]);
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        let generation = self.generation_tag();
        for s in &self.slots[b..b + BUCKET] {
            if let Some(data) = Self::read(s, key, generation) {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed) & 1;
        let generation = self.generation_tag();
        let slots = &self.slots[b..b + BUCKET];
        // Same key: keep the old move when the new result has none.
        let mut target = None;
        for (i, s) in slots.iter().enumerate() {
            if let Some(data) = Self::read(s, key, generation) {
                target = Some((i, unpack(data)));
                break;
            }
        }
        let (i, old) = target.unwrap_or_else(|| {
            // Replace the shallowest entry, preferring entries of an older search.
            let mut best = 0;
            let mut best_value = i32::MAX;
            for (i, s) in slots.iter().enumerate() {
                let data = Self::current(s, generation);
                let value = match unpack(data) {
                    None => i32::MIN,
                    Some(e) => e.depth - if ((data >> 63) as u8) != age { 256 } else { 0 },
                };
                if value < best_value {
                    best_value = value;
                    best = i;
                }
            }
            (best, None)
        });
        let mv = if mv.is_null() { old.map_or(mv, |o| o.mv) } else { mv };
        if let Some(o) = old {
            if bound != Bound::Exact && depth + 2 < o.depth {
                return;
            }
        }
        let data = pack(mv, score, eval, depth, bound, age);
        slots[i].data.store(data, Ordering::Relaxed);
        slots[i]
            .check
            .store(((key ^ data) & KEY_BITS) | generation, Ordering::Relaxed);
    }

    /// Permille of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 1;
        let generation = self.generation_tag();
        let n = self.len.min(1000);
        let used = self.table()[..n]
            .iter()
            .filter(|s| {
                let d = Self::current(s, generation);
                unpack(d).is_some() && (d >> 63) as u8 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Variant};

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let pos = Position::startpos(Variant::PersianPrincess);
        let m = pos.legal_moves().as_slice()[3];
        tt.store(0x1234_5678_9abc_def0, m, -321, 45, 7, Bound::Lower);
        let e = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (m, -321, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn clearing_forgets_everything_across_generation_wraps() {
        let tt = TranspositionTable::new(1);
        let pos = Position::startpos(Variant::PersianPrincess);
        let m = pos.legal_moves().as_slice()[0];
        // Keys in distinct buckets among the first slots (those `hashfull` samples).
        let keys: Vec<u64> = (0..64u64)
            .map(|i| (i << 50) | (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 14))
            .collect();
        // More clears than there are generations: every clear must forget, also when the
        // generation number comes round again.
        for round in 0..600 {
            for (j, &k) in keys.iter().enumerate() {
                if (j + round) % 3 == 0 {
                    tt.store(k, m, j as i32, 0, 1 + (round % 50) as i32, Bound::Exact);
                }
            }
            for (j, &k) in keys.iter().enumerate() {
                let hit = tt.probe(k);
                if (j + round) % 3 == 0 {
                    assert_eq!(hit.map(|e| e.score), Some(j as i32), "round {round}");
                } else {
                    assert!(hit.is_none(), "round {round}: key {j} survived a clear");
                }
            }
            assert!(tt.hashfull() > 0);
            tt.clear();
            assert_eq!(tt.hashfull(), 0);
            assert!(keys.iter().all(|&k| tt.probe(k).is_none()), "round {round}");
        }
    }
}
