//! The transposition table: a shared, lock-free hash table of search results.
//!
//! Each slot holds two 64-bit words: the data (move, score, static eval, depth, bound, age) and
//! the key XOR the data, so a torn write by another thread is detected as a miss.

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
    slots: Vec<Slot>,
    age: AtomicU8,
}

const BUCKET: usize = 2;

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
        let mut slots = Vec::with_capacity(n);
        slots.resize_with(n, || Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        });
        TranspositionTable {
            slots,
            age: AtomicU8::new(0),
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search (entries of older searches are replaced first).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        let buckets = (self.slots.len() / BUCKET) as u64;
        (((key as u128) * (buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + BUCKET] {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
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
        let slots = &self.slots[b..b + BUCKET];
        // Same key: keep the old move when the new result has none.
        let mut target = None;
        for (i, s) in slots.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
                target = Some((i, unpack(data)));
                break;
            }
        }
        let (i, old) = target.unwrap_or_else(|| {
            // Replace the shallowest entry, preferring entries of an older search.
            let mut best = 0;
            let mut best_value = i32::MAX;
            for (i, s) in slots.iter().enumerate() {
                let data = s.data.load(Ordering::Relaxed);
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
        slots[i].check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 1;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
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
}
