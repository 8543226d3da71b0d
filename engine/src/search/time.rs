//! Time management: how long to think, from the clocks, the increment and the move overhead.

use std::time::Duration;

/// The clock situation of the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, milliseconds (may be negative when a GUI sends it so).
    pub time_ms: i64,
    /// Increment per move, milliseconds.
    pub inc_ms: i64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// Search budgets: `soft` is checked between iterations, `hard` during the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Don't start a new iteration after this.
    pub soft: Duration,
    /// Abort the search at this.
    pub hard: Duration,
}

/// Budgets for a clock, keeping `overhead_ms` in reserve for communication.
pub fn budget(clock: Clock, overhead_ms: u64) -> Budget {
    let overhead = overhead_ms as i64;
    let left = (clock.time_ms - overhead).max(1);
    let inc = clock.inc_ms.max(0);
    let mtg = clock.moves_to_go.map_or(30, |m| m.clamp(1, 50) as i64);
    // Base share of the time plus most of the increment, never more than a safe fraction of what is left.
    let base = left / mtg + inc * 3 / 4;
    let cap = if mtg == 1 { left * 8 / 10 } else { left / 2 };
    let soft = base.min(cap).max(1);
    let hard = (base * 3).min(cap).max(soft).max(1);
    Budget {
        soft: Duration::from_millis(soft as u64 / 2 + 1),
        hard: Duration::from_millis(hard as u64),
    }
}

/// How much time one move may take, as a caller knows it: from the clock of the side to move,
/// a fixed time per move, or no time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimit {
    /// No time limit (depth or nodes limit the search, or `stop`).
    Unlimited,
    /// A fixed time per move, milliseconds.
    MoveTime(u64),
    /// The clock of the side to move.
    Clock(Clock),
}

/// The one place that turns what a caller knows about time (UCI's `go`, the bot's game clock,
/// a match's move time) into a search budget: the clock or move-time budget less `overhead_ms`,
/// capped at `cap_ms` when given. `None` for an unlimited search without a cap.
pub fn plan(limit: TimeLimit, overhead_ms: u64, cap_ms: Option<u64>) -> Option<Budget> {
    let budget = match limit {
        TimeLimit::Unlimited => None,
        TimeLimit::MoveTime(ms) => Some(fixed(ms, overhead_ms)),
        TimeLimit::Clock(clock) => Some(budget(clock, overhead_ms)),
    };
    let Some(cap) = cap_ms.map(|c| fixed(c, 0)) else {
        return budget;
    };
    Some(match budget {
        None => cap,
        Some(b) => Budget {
            soft: b.soft.min(cap.soft),
            hard: b.hard.min(cap.hard),
        },
    })
}

/// Budgets for a fixed time per move.
pub fn fixed(movetime_ms: u64, overhead_ms: u64) -> Budget {
    let t = movetime_ms.saturating_sub(overhead_ms).max(1);
    Budget {
        soft: Duration::from_millis(t),
        hard: Duration::from_millis(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_the_clock() {
        for time in [-50, 0, 1, 10, 100, 1000, 60_000, 3_600_000] {
            for inc in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let b = budget(
                        Clock {
                            time_ms: time,
                            inc_ms: inc,
                            moves_to_go: mtg,
                        },
                        30,
                    );
                    assert!(b.soft <= b.hard);
                    if time > 100 {
                        assert!(b.hard.as_millis() as i64 <= time - 30, "{time} {inc} {mtg:?}: {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn sensible_share() {
        let b = budget(
            Clock {
                time_ms: 60_000,
                inc_ms: 0,
                moves_to_go: None,
            },
            30,
        );
        assert!(b.soft.as_millis() > 500 && b.soft.as_millis() < 3000, "{b:?}");
    }

    #[test]
    fn plan_is_the_budget_of_each_limit_with_the_cap() {
        let clock = Clock {
            time_ms: 60_000,
            inc_ms: 1_000,
            moves_to_go: None,
        };
        assert_eq!(plan(TimeLimit::Unlimited, 30, None), None);
        assert_eq!(plan(TimeLimit::MoveTime(500), 30, None), Some(fixed(500, 30)));
        assert_eq!(plan(TimeLimit::Clock(clock), 30, None), Some(budget(clock, 30)));
        assert_eq!(plan(TimeLimit::Unlimited, 30, Some(200)), Some(fixed(200, 0)));
        let capped = plan(TimeLimit::Clock(clock), 30, Some(100)).expect("a budget");
        assert_eq!(capped.hard, Duration::from_millis(100));
        assert!(capped.soft <= capped.hard);
        let uncapped = plan(TimeLimit::MoveTime(50), 0, Some(1_000)).expect("a budget");
        assert_eq!(uncapped, fixed(50, 0));
    }
}
