//! The transposition table: a shared, lock-free hash table of search results.
//!
//! Each slot holds two 64-bit words, written and read without locks:
//!
//! - the data: the move's raw bits 0..21, the score (16 bits), the static eval (16), the depth
//!   (7: 0 to 127, deeper results are stored as 127), whether the node was on a principal
//!   variation (1), the bound (2) and the search's age (1);
//! - the check: in bits 0..45 the key's low 45 bits XOR `fold` of the data, in bits 45..56 the
//!   move's raw bits 21..32, in bits 56..64 the table's generation when the slot was written.
//!
//! A probe of `key` hits a slot when the check's low 45 bits are `key ^ fold(data)` and its
//! generation is the current one; the move is the data's 21 move bits below the check's 11.
//!
//! Key verification: the key's upper bits choose the bucket (see `bucket`), so a slot can only
//! be taken for another key of its own bucket, and 45 verified bits are plenty. With 2^b buckets
//! the keys of a bucket share their top b bits, so a probe of a key that is not in the table
//! falsely hits one of the bucket's two slots with a probability of about 2 * 2^-min(45, 64 - b).
//! Below 16 MB (b < 19) that is at most 2 * 2^-45, about 5.7e-14 a probe: once in some 1.8e13
//! probes, about a week at 30 million probes a second. From 16 MB (2^19 buckets) on, the 45 bits
//! and the bucket together verify the whole 64-bit key: only a true collision of 64-bit keys is
//! left, which no check can catch, and a check of 56 key bits verified no more. A false hit costs
//! no correctness: the table move is checked for legality before it is searched; only the move
//! ordering and a cutoff can suffer.
//!
//! Torn writes: threads write a slot's two words one after the other, so a reader can see the
//! check of one write (key `ka`, data `da`) with the data `db` of another. The check's 45 key
//! bits then claim `ka ^ fold(da)`, and since `fold` is linear (a XOR of shifts) such a pair
//! hits for a key `k` exactly when `k ^ ka` equals `fold(da ^ db)` on 45 bits:
//!
//! - if `db == da` the pair is the first write exactly (the move's upper bits come from its
//!   check, the lower from data equal to its own), so the hit is right;
//! - for a key other than `ka` (the second write's, or any other) the hit needs a 45-bit
//!   coincidence, as rare as a false hit above;
//! - for `ka` itself (also when both writes were of one position) it needs `fold(da ^ db)` to
//!   vanish on 45 bits: the difference of the data words must repeat with period 19 over all
//!   64 bits. Such a difference has its lowest bit among the move's bits 0..19 (its squares and
//!   kind) and the same pattern again 19 and 38 bits higher, in the score and in the eval or
//!   depth, a coincidence across three fields. Two data words of the same move, or two that
//!   differ only within 38 adjacent bits (as eval, depth, bound and age together), are always
//!   told apart.
//!
//! The move's upper bits in the check word cannot make a torn pair hit: they travel with the
//! key check and the generation of their own write, and a hit pairs them with the lower bits of
//! a data word equal to that write's (but for the coincidences above). The fold matters: with a
//! plain `key ^ data` only the data's 45 low bits would be verified, and the commonest race,
//! two writes of one position with the same move, score and eval but another depth or bound,
//! would read as a hit of a mixed entry.
//!
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
    /// Whether the node was, or had been, a node of a principal variation when stored.
    pub pv: bool,
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

/// How many bits of the check word verify the key (and, through [`fold`], the data).
const KEY_BIT_COUNT: u32 = 45;
/// The bits of the check word that verify the key.
const KEY_BITS: u64 = (1 << KEY_BIT_COUNT) - 1;
/// How many of the move's raw bits the data word holds (its lowest).
const DATA_MOVE_BITS: u32 = 21;
/// The move's bits in the data word.
const DATA_MOVE_MASK: u64 = (1 << DATA_MOVE_BITS) - 1;
/// Where the move's upper bits (raw bits 21..32) sit in the check word: just above the key bits.
const MOVE_HIGH_SHIFT: u32 = KEY_BIT_COUNT;
/// The move's upper bits in the check word.
const MOVE_HIGH_BITS: u64 = ((u32::MAX >> DATA_MOVE_BITS) as u64) << MOVE_HIGH_SHIFT;
/// Where the generation sits in the check word: just above the move's upper bits.
const GENERATION_SHIFT: u32 = MOVE_HIGH_SHIFT + (32 - DATA_MOVE_BITS);
/// The generation's bits in the check word.
const GENERATION_BITS: u64 = u64::MAX << GENERATION_SHIFT;
const _: () = assert!(
    GENERATION_SHIFT == 56 && KEY_BITS & MOVE_HIGH_BITS == 0 && KEY_BITS | MOVE_HIGH_BITS | GENERATION_BITS == u64::MAX
);

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
    if !on_huge_pages::<Slot>(n) {
        let mut slots = Vec::with_capacity(n);
        slots.resize_with(n, empty);
        return (slots, 0);
    }
    let mut slots: Vec<Slot> = Vec::with_capacity(n + huge_page_padding::<Slot>());
    let start = advise_from_boundary(slots.as_ptr(), n);
    // The memory is touched only now, after the advice.
    slots.resize_with(start + n, empty);
    (slots, start)
}

/// Whether a table of `n` items goes on huge pages: on Linux, from one huge page up.
fn on_huge_pages<T>(n: usize) -> bool {
    cfg!(target_os = "linux") && n * std::mem::size_of::<T>() >= HUGE_PAGE
}

/// The items an allocation takes beyond its table's so that the table can start on a huge-page
/// boundary inside it.
fn huge_page_padding<T>() -> usize {
    HUGE_PAGE / std::mem::size_of::<T>()
}

/// For an allocation at `ptr` of `n` items and [`huge_page_padding`]: asks the kernel to back
/// the `n` items from its first huge-page boundary with huge pages, and returns the index of
/// the item there (where the table starts).
fn advise_from_boundary<T>(ptr: *const T, n: usize) -> usize {
    let size = std::mem::size_of::<T>();
    let addr = ptr as usize;
    let aligned = addr.next_multiple_of(HUGE_PAGE);
    advise_huge_pages(aligned, n * size);
    (aligned - addr) / size
}

/// A large table of plain numbers on huge pages where the system has them (see [`allocate`]);
/// it reads and writes as a slice of its items.
pub(crate) struct HugeBuffer<T> {
    items: Vec<T>,
    start: usize,
}

impl<T: Copy + Default> HugeBuffer<T> {
    /// `n` items of the default value (zero). The memory is taken from the system untouched
    /// (a zeroed allocation of this size is a fresh mapping), so pages are backed only when
    /// first written, as with `vec![0; n]`; the advice comes before any of them is.
    pub(crate) fn zeroed(n: usize) -> HugeBuffer<T> {
        if !on_huge_pages::<T>(n) {
            return HugeBuffer {
                items: vec![T::default(); n],
                start: 0,
            };
        }
        let mut items = vec![T::default(); n + huge_page_padding::<T>()];
        let start = advise_from_boundary(items.as_ptr(), n);
        // The table is the `n` items from `start` (the allocation keeps its size).
        items.truncate(start + n);
        HugeBuffer { items, start }
    }

    /// An empty table (no allocation).
    pub(crate) fn empty() -> HugeBuffer<T> {
        HugeBuffer {
            items: Vec::new(),
            start: 0,
        }
    }
}

impl<T> std::ops::Deref for HugeBuffer<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.items[self.start..]
    }
}

impl<T> std::ops::DerefMut for HugeBuffer<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[self.start..]
    }
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

/// The data word of a result: the move's lowest 21 raw bits (its upper 11 go into the check
/// word) and the rest of the result.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (mv.raw() as u64 & DATA_MOVE_MASK)
        | ((score as i16 as u16 as u64) << 21)
        | ((eval as i16 as u16 as u64) << 37)
        | ((depth.clamp(0, MAX_DEPTH) as u64) << 53)
        | ((pv as u64) << 60)
        | (b << 61)
        | (((age & 1) as u64) << 63)
}

/// The check word of a write of `data` (holding `mv`) for `key`: the key verification, the
/// move's upper bits and `generation` (already shifted into place).
#[inline(always)]
fn check_word(key: u64, data: u64, mv: Move, generation: u64) -> u64 {
    ((key ^ fold(data)) & KEY_BITS) | (((mv.raw() >> DATA_MOVE_BITS) as u64) << MOVE_HIGH_SHIFT) | generation
}

/// Folds the data word onto the key bits of the check word: bit `i` of the result is data bit
/// `i` XOR data bit `i + 19`, so the 45 key bits verify every bit of the data (see the module
/// doc on torn writes).
#[inline(always)]
fn fold(data: u64) -> u64 {
    data ^ (data >> (64 - KEY_BIT_COUNT))
}

/// Whether a data word holds a result (empty slots have no bound).
#[inline(always)]
fn is_used(data: u64) -> bool {
    (data >> 61) & 3 != 0
}

/// The deepest depth a data word holds (7 bits); deeper results are stored as this.
pub const MAX_DEPTH: i32 = 127;

/// The depth in a data word.
#[inline(always)]
fn depth_of(data: u64) -> i32 {
    ((data >> 53) & MAX_DEPTH as u64) as i32
}

/// The entry of a slot read as a hit: the data word and its check word (which holds the move's
/// upper bits).
fn unpack(check: u64, data: u64) -> Option<Entry> {
    let bound = match (data >> 61) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        mv: Move::from_raw(
            (data & DATA_MOVE_MASK) as u32 | (((check & MOVE_HIGH_BITS) >> MOVE_HIGH_SHIFT) as u32) << DATA_MOVE_BITS,
        ),
        score: ((data >> 21) & 0xffff) as u16 as i16 as i32,
        eval: ((data >> 37) & 0xffff) as u16 as i16 as i32,
        depth: depth_of(data),
        bound,
        pv: (data >> 60) & 1 != 0,
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

    /// The check and data words of a slot if it holds `key` in the current generation.
    #[inline(always)]
    fn read(s: &Slot, key: u64, generation: u64) -> Option<(u64, u64)> {
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        ((check & !MOVE_HIGH_BITS) ^ ((key ^ fold(data)) & KEY_BITS) == generation).then_some((check, data))
    }

    /// The data of a slot written in the current generation, else 0 (an empty slot).
    #[inline(always)]
    fn current(s: &Slot, generation: u64) -> u64 {
        let data = s.data.load(Ordering::Relaxed);
        if s.check.load(Ordering::Relaxed) & GENERATION_BITS == generation {
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
            if let Some((check, data)) = Self::read(s, key, generation) {
                return unpack(check, data);
            }
        }
        None
    }

    /// Stores a result; `pv` says whether the node is, or was, on a principal variation.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed) & 1;
        let generation = self.generation_tag();
        let slots = &self.slots[b..b + BUCKET];
        // Same key: keep the old move when the new result has none.
        let mut target = None;
        for (i, s) in slots.iter().enumerate() {
            if let Some((check, data)) = Self::read(s, key, generation) {
                target = Some((i, unpack(check, data)));
                break;
            }
        }
        let (i, old) = target.unwrap_or_else(|| {
            // Replace the shallowest entry, preferring entries of an older search.
            let mut best = 0;
            let mut best_value = i32::MAX;
            for (i, s) in slots.iter().enumerate() {
                let data = Self::current(s, generation);
                let value = if !is_used(data) {
                    i32::MIN
                } else {
                    depth_of(data) - if ((data >> 63) as u8) != age { 256 } else { 0 }
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
        let data = pack(mv, score, eval, depth, bound, pv, age);
        slots[i].data.store(data, Ordering::Relaxed);
        slots[i]
            .check
            .store(check_word(key, data, mv, generation), Ordering::Relaxed);
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
                is_used(d) && (d >> 63) as u8 == age
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
    fn huge_buffer_is_zeroed_writable_and_aligned() {
        // Below a huge page: a plain allocation.
        let mut small = HugeBuffer::<i16>::zeroed(1000);
        assert_eq!(small.len(), 1000);
        assert!(small.iter().all(|&v| v == 0));
        small[999] = -7;
        assert_eq!(small[999], -7);
        // Several huge pages: the table starts on a huge-page boundary on Linux.
        let n = 3 * HUGE_PAGE / 2 + 5;
        let mut big = HugeBuffer::<i16>::zeroed(n);
        assert_eq!(big.len(), n);
        if cfg!(target_os = "linux") {
            assert_eq!(big.as_ptr() as usize % HUGE_PAGE, 0);
        }
        big[0] = 1;
        big[n - 1] = 2;
        assert_eq!((big[0], big[n / 2], big[n - 1]), (1, 0, 2));
        assert_eq!(big.iter().filter(|&&v| v != 0).count(), 2);
        assert!(HugeBuffer::<i16>::empty().is_empty());
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let pos = Position::startpos(Variant::DEFAULT);
        let m = pos.legal_moves().as_slice()[3];
        tt.store(0x1234_5678_9abc_def0, m, -321, 45, 7, Bound::Lower, true);
        let e = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (m, -321, 45, 7, Bound::Lower, true)
        );
        // Deeper than the data word holds: stored as the deepest it holds.
        tt.store(0x1234_5678_9abc_def0, m, -321, 45, MAX_DEPTH + 5, Bound::Exact, false);
        let e = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!((e.depth, e.bound, e.pv), (MAX_DEPTH, Bound::Exact, false));
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn clearing_forgets_everything_across_generation_wraps() {
        let tt = TranspositionTable::new(1);
        let pos = Position::startpos(Variant::DEFAULT);
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
                    tt.store(k, m, j as i32, 0, 1 + (round % 50) as i32, Bound::Exact, j % 2 == 0);
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

    /// Real moves of every variant's start position, as they are and with upper bits set the
    /// way a compound move's third square and kind would set them, and extreme raw values.
    fn moves_with_high_bits() -> Vec<Move> {
        let mut moves: Vec<Move> = [0xffff_ffff, 0xffe0_0000, 0x001f_ffff, 1 << 21, 1 << 31, 0x8000_0001]
            .into_iter()
            .map(Move::from_raw)
            .collect();
        for v in Variant::ALL {
            for (i, &m) in Position::startpos(v).legal_moves().iter().enumerate() {
                let third = (i as u32 * 37) % 128;
                moves.push(m);
                moves.push(Move::from_raw(m.raw() | third << 21 | (i as u32 % 16) << 28));
            }
        }
        moves
    }

    /// The check and data words of the slot that holds `key`.
    fn words(tt: &TranspositionTable, key: u64) -> (u64, u64) {
        let b = tt.bucket(key);
        let generation = tt.generation_tag();
        tt.slots[b..b + BUCKET]
            .iter()
            .find_map(|s| TranspositionTable::read(s, key, generation))
            .expect("the key is stored")
    }

    /// Writes a check word and a data word into every slot of the bucket of `key`.
    fn plant(tt: &TranspositionTable, key: u64, check: u64, data: u64) {
        let b = tt.bucket(key);
        for s in &tt.slots[b..b + BUCKET] {
            s.check.store(check, Ordering::Relaxed);
            s.data.store(data, Ordering::Relaxed);
        }
    }

    /// `n` distinct keys that share a bucket of `tt`.
    fn keys_of_one_bucket(tt: &TranspositionTable, n: u64) -> Vec<u64> {
        let keys: Vec<u64> = (0..n)
            .map(|i| 0x5a5a_0000_0000_0000 | i.wrapping_mul(0x0123_4567_89ab))
            .collect();
        assert!(keys.iter().all(|&k| tt.bucket(k) == tt.bucket(keys[0])));
        keys
    }

    #[test]
    fn moves_keep_all_32_bits() {
        let tt = TranspositionTable::new(1);
        let bounds = [Bound::Exact, Bound::Lower, Bound::Upper];
        for (i, &m) in moves_with_high_bits().iter().enumerate() {
            let key = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let (score, eval, depth, bound, pv) = (
                (i as i32 * 131) % 65536 - 32768,
                32767 - (i as i32 * 97) % 65536,
                i as i32 % (MAX_DEPTH + 1),
                bounds[i % 3],
                i % 5 < 2,
            );
            tt.store(key, m, score, eval, depth, bound, pv);
            let e = tt.probe(key).expect("just stored");
            assert_eq!(e.mv.raw(), m.raw(), "move {i}");
            assert_eq!(
                (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
                (m, score, eval, depth, bound, pv)
            );
            // Other keys of the bucket, differing in a verified bit, miss.
            assert!(tt.probe(key ^ 1).is_none());
            assert!(tt.probe(key ^ 1 << 44).is_none());
        }
        // A result without a move keeps the stored move, upper bits included.
        let m = Move::from_raw(0xfedc_ba98);
        tt.store(42, m, 10, 20, 5, Bound::Lower, false);
        tt.store(42, Move::NULL, 11, 20, 6, Bound::Exact, false);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (m, 11, 6, Bound::Exact));
    }

    #[test]
    fn torn_pairs_read_as_misses() {
        let tt = TranspositionTable::new(1);
        let keys = keys_of_one_bucket(&tt, 2);
        let (ka, kb) = (keys[0], keys[1]);
        let m = Move::from_raw(0x7ab0_1234);
        let m_other_high = Move::from_raw(0x0150_1234);
        let m_other = Move::from_raw(0x7ab0_1235);
        // Pairs of writes (key, move, score, eval, depth, bound) whose data words differ.
        let pairs = [
            // One position, same move, score and eval: only the depth differs (data bits above
            // the 45 that a plain key ^ data check would verify).
            ((ka, m, 50, 30, 7, Bound::Exact), (ka, m, 50, 30, 8, Bound::Exact)),
            ((ka, m, 50, 30, 7, Bound::Lower), (ka, m, 50, 30, 7, Bound::Upper)),
            ((ka, m, 50, 30, 7, Bound::Lower), (ka, m, 50, 30 + 256, 7, Bound::Lower)),
            // Moves that differ only in their upper bits (which lie in the check word).
            (
                (ka, m, 50, 30, 7, Bound::Exact),
                (ka, m_other_high, 50, 30, 8, Bound::Exact),
            ),
            (
                (ka, m, 50, 30, 7, Bound::Exact),
                (ka, m_other_high, 51, 30, 7, Bound::Exact),
            ),
            // Moves that differ only in their lower bits.
            ((ka, m, 50, 30, 7, Bound::Exact), (ka, m_other, 50, 30, 7, Bound::Exact)),
            // Two positions of one bucket.
            ((ka, m, 50, 30, 7, Bound::Exact), (kb, m, 50, 30, 9, Bound::Exact)),
            (
                (ka, m, 50, 30, 7, Bound::Exact),
                (kb, m_other, -50, 31, 7, Bound::Upper),
            ),
            (
                (ka, m, 50, 30, 7, Bound::Exact),
                (kb, Move::NULL, 0, 0, 0, Bound::Lower),
            ),
        ];
        let written = |(key, mv, score, eval, depth, bound): (u64, Move, i32, i32, i32, Bound)| {
            let tt = TranspositionTable::new(1);
            tt.store(key, mv, score, eval, depth, bound, false);
            words(&tt, key)
        };
        for (n, (a, b)) in pairs.into_iter().enumerate() {
            let ((check_a, data_a), (check_b, data_b)) = (written(a), written(b));
            assert_ne!(data_a, data_b);
            for (check, data) in [(check_a, data_b), (check_b, data_a)] {
                for key in [ka, kb] {
                    plant(&tt, key, check, data);
                    assert!(tt.probe(key).is_none(), "pair {n}: a torn pair read as a hit");
                }
            }
            // Each write on its own reads back whole.
            plant(&tt, a.0, check_a, data_a);
            assert_eq!(tt.probe(a.0).map(|e| (e.mv, e.depth)), Some((a.1, a.4)));
        }

        // Two writes of one position that differ only in the principal-variation bit.
        let generation = tt.generation_tag();
        let only_pv = [false, true].map(|pv| {
            let data = pack(m, 50, 30, 7, Bound::Exact, pv, 0);
            (check_word(ka, data, m, generation), data)
        });
        for (check, data) in [(only_pv[0].0, only_pv[1].1), (only_pv[1].0, only_pv[0].1)] {
            plant(&tt, ka, check, data);
            assert!(tt.probe(ka).is_none(), "a torn pair of the pv bit read as a hit");
        }

        // Writes of one data word (the moves differ only in the upper bits): the check of one with
        // the data of the other is exactly the first write, and reads as it.
        let (check_a, _) = written((ka, m, 50, 30, 7, Bound::Exact));
        let (_, data_b) = written((ka, m_other_high, 50, 30, 7, Bound::Exact));
        plant(&tt, ka, check_a, data_b);
        assert_eq!(tt.probe(ka).map(|e| e.mv), Some(m));

        // Many pairs of writes of realistic results, one position or two.
        let moves = moves_with_high_bits();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let generation = tt.generation_tag();
        for n in 0..20_000 {
            let ka = next();
            let kb = if n % 2 == 0 { ka } else { next() };
            let mut result = |key: u64| {
                let mv = moves[next() as usize % moves.len()];
                let r = next();
                let data = pack(
                    mv,
                    (r % 2001) as i32 - 1000,
                    (r >> 16) as i32 % 601 - 300,
                    (r >> 32) as i32 % 40,
                    [Bound::Exact, Bound::Lower, Bound::Upper][(r >> 40) as usize % 3],
                    (r >> 44) & 1 == 1,
                    (r >> 48) as u8 & 1,
                );
                (check_word(key, data, mv, generation), data)
            };
            let ((check_a, data_a), (_, data_b)) = (result(ka), result(kb));
            if data_a == data_b {
                continue;
            }
            for key in [ka, kb] {
                plant(&tt, key, check_a, data_b);
                assert!(tt.probe(key).is_none(), "pair {n}: a torn pair read as a hit");
            }
        }
    }

    #[test]
    fn older_generations_count_as_empty() {
        let tt = TranspositionTable::new(1);
        let keys = keys_of_one_bucket(&tt, 4);
        // Deep entries whose moves set every upper bit of the check word below the generation.
        let m = Move::from_raw(0xffff_ffff);
        tt.store(keys[0], m, 1, 2, MAX_DEPTH, Bound::Exact, true);
        tt.store(keys[1], m, 1, 2, MAX_DEPTH, Bound::Exact, false);
        assert!(tt.probe(keys[0]).is_some() && tt.probe(keys[1]).is_some());
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert!(tt.probe(keys[0]).is_none() && tt.probe(keys[1]).is_none());
        // The bucket is empty to the replacement: two shallow entries both find a slot, where
        // two live entries of the deepest depth would have made the second replace the first.
        tt.store(keys[2], m, 3, 4, 1, Bound::Upper, false);
        tt.store(keys[3], m, 5, 6, 5, Bound::Lower, true);
        assert_eq!(tt.probe(keys[2]).map(|e| (e.mv, e.score)), Some((m, 3)));
        assert_eq!(tt.probe(keys[3]).map(|e| (e.mv, e.score)), Some((m, 5)));
        assert!(tt.probe(keys[0]).is_none() && tt.probe(keys[1]).is_none());
    }
}
