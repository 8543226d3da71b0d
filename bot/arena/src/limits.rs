//! Token buckets for the rate limits: per IP on ordinary calls, and per account and per IP on
//! stream opens (a client that reconnects in a loop gets 429 instead of replacing another
//! client's stream thousands of times a second).

use std::{
    collections::HashMap,
    hash::Hash,
    time::{Duration, Instant},
};

/// A bucket: `capacity` calls at once, refilled at `per_second`.
#[derive(Clone, Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

/// Buckets by key.
#[derive(Debug)]
pub struct Limiter<K> {
    buckets: HashMap<K, Bucket>,
    capacity: f64,
    per_second: f64,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// `capacity` at once, `per_second` after; a capacity of 0 lets everything through.
    pub fn new(capacity: u32, per_second: f64) -> Limiter<K> {
        Limiter {
            buckets: HashMap::new(),
            capacity: f64::from(capacity),
            per_second,
        }
    }

    /// Takes one call of `key` at `now`; false when over the limit.
    pub fn allow(&mut self, key: &K, now: Instant) -> bool {
        if self.capacity <= 0.0 {
            return true;
        }
        let (capacity, rate) = (self.capacity, self.per_second);
        let b = self.buckets.entry(key.clone()).or_insert(Bucket {
            tokens: capacity,
            last: now,
        });
        let elapsed = now.saturating_duration_since(b.last).as_secs_f64();
        b.tokens = (b.tokens + elapsed * rate).min(capacity);
        b.last = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How long until a call of `key` after `now` would be allowed (zero: now).
    pub fn wait(&self, key: &K, now: Instant) -> Duration {
        if self.capacity <= 0.0 || self.per_second <= 0.0 {
            return Duration::ZERO;
        }
        let tokens = self.buckets.get(key).map_or(self.capacity, |b| {
            let elapsed = now.saturating_duration_since(b.last).as_secs_f64();
            (b.tokens + elapsed * self.per_second).min(self.capacity)
        });
        Duration::from_secs_f64(((1.0 - tokens).max(0.0) / self.per_second).min(86_400.0))
    }

    /// Forgets buckets that have refilled (keeps the map small).
    pub fn prune(&mut self, now: Instant) {
        let (capacity, rate) = (self.capacity, self.per_second);
        self.buckets.retain(|_, b| {
            let elapsed = now.saturating_duration_since(b.last).as_secs_f64();
            b.tokens + elapsed * rate < capacity
        });
    }

    /// Keys tracked.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// Whether no key is tracked.
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bursts_then_the_refill_rate() {
        let mut l: Limiter<&str> = Limiter::new(3, 1.0);
        let t0 = Instant::now();
        assert!((0..3).all(|_| l.allow(&"a", t0)));
        assert!(!l.allow(&"a", t0));
        assert!(l.allow(&"b", t0), "keys are apart");
        assert!(!l.allow(&"a", t0 + Duration::from_millis(500)));
        assert_eq!(
            l.wait(&"a", t0 + Duration::from_millis(500)),
            Duration::from_millis(500)
        );
        assert!(l.allow(&"a", t0 + Duration::from_millis(1600)));
        assert_eq!(l.wait(&"c", t0), Duration::ZERO);
        l.prune(t0 + Duration::from_secs(60));
        assert!(l.is_empty());
        let mut off: Limiter<&str> = Limiter::new(0, 0.0);
        assert!((0..1000).all(|_| off.allow(&"a", t0)));
    }
}
