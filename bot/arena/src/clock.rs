//! The wall clock as the arena records it: milliseconds since the Unix epoch (games, challenges,
//! sessions and the store's rows all keep times so).

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
