//! Time management: how long to think, from the clocks, the increment and the move overhead.
//!
//! A clock gives a search two limits ([`budget`]): a soft one, checked between iterations of
//! iterative deepening, and a hard one, checked during the search, which it never passes. The
//! soft limit is scaled while the search runs ([`Pacer`]): up when the best move changes from
//! one iteration to the next or the score drops, down when the best move stays the same
//! iteration after iteration. With `movestogo` the time left is shared among the moves of the
//! period; without, among about 30 moves. The move overhead (UCI's `Move Overhead`) is kept in
//! reserve for communication and is never planned.

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
    /// Don't start a new iteration after this (as planned before the search; see `adjust`).
    pub soft: Duration,
    /// Abort the search at this.
    pub hard: Duration,
    /// Whether the search may scale `soft` by how the iterations go (up to `hard`): true for a
    /// clock, false for a fixed time per move or a cap.
    pub adjust: bool,
}

/// Moves the time left is shared among when the clock does not say (no `movestogo`).
const DEFAULT_MOVES_TO_GO: i64 = 30;

/// Budgets for a clock, keeping `overhead_ms` in reserve for communication.
pub fn budget(clock: Clock, overhead_ms: u64) -> Budget {
    let overhead = overhead_ms as i64;
    let left = (clock.time_ms - overhead).max(1);
    let inc = clock.inc_ms.max(0);
    let mtg = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 50) as i64);
    // Base share of the time plus most of the increment, never more than a safe fraction of what
    // is left (most of it on the last move of a period, which gets the next period's time).
    let base = left / mtg + inc * 3 / 4;
    let cap = if mtg == 1 { left * 8 / 10 } else { left / 2 };
    let soft = (base / 2).min(cap).max(1);
    let hard = (base * 4).min(cap).max(soft).max(1);
    Budget {
        soft: Duration::from_millis(soft as u64),
        hard: Duration::from_millis(hard as u64),
        adjust: true,
    }
}

/// How the iterations of one search went, for scaling its soft limit: how many iterations in a
/// row kept the best move, and the scores of the last iterations.
#[derive(Clone, Debug, Default)]
pub struct Pacer {
    /// Iterations in a row whose best move was the one before (0 after a change).
    stable: u32,
    /// Scores of the iterations so far, the latest last (centipawns, mates cut to +-1000).
    scores: Vec<i32>,
}

impl Pacer {
    /// Before the first iteration.
    pub fn new() -> Pacer {
        Pacer::default()
    }

    /// Records a completed iteration: whether its best move differs from the previous
    /// iteration's, and its score (internal units: centipawns, mates beyond).
    pub fn iteration(&mut self, best_changed: bool, score: i32) {
        if best_changed || self.scores.is_empty() {
            self.stable = 0;
        } else {
            self.stable += 1;
        }
        self.scores.push(score.clamp(-1000, 1000));
    }

    /// The factor for the soft limit: from about 1.5 (the best move just changed) down to 0.6
    /// (the same move for six iterations), times 0.85 to 1.8 by how far the score fell below
    /// that of the iterations before; within 0.4 to 2.5.
    pub fn factor(&self) -> f64 {
        let stability = [1.5, 1.25, 1.05, 0.9, 0.8, 0.7, 0.6][self.stable.min(6) as usize];
        let n = self.scores.len();
        let trend = if n >= 3 {
            // Against the mean of the two iterations before (scores swing between odd and even
            // depths).
            let reference = (self.scores[n - 2] + self.scores[n - 3]) / 2;
            let drop = (reference - self.scores[n - 1]).clamp(-40, 200);
            1.0 + drop as f64 / 250.0
        } else {
            1.0
        };
        (stability * trend).clamp(0.4, 2.5)
    }

    /// The soft limit of `budget` after the iterations so far: scaled by [`Pacer::factor`] when
    /// the budget allows, never beyond the hard limit.
    pub fn soft_limit(&self, budget: Budget) -> Duration {
        self.soft_limit_scaled(budget, 1.0)
    }

    /// [`Pacer::soft_limit`] with the budget's soft limit first multiplied by `scale` (the
    /// search's `tm_soft` parameter): a clock's budget only, never beyond the hard limit.
    pub fn soft_limit_scaled(&self, budget: Budget, scale: f64) -> Duration {
        if !budget.adjust {
            return budget.soft;
        }
        budget.soft.mul_f64(scale * self.factor()).min(budget.hard)
    }
}

/// The factor the soft limit is scaled by when the best move took `share` (0 to 1) of the
/// search's nodes (the search parameter `tm_nodes`, `weight` in percent): `1 + weight/100 (1 -
/// 2 share)` within 0.5 to 1.5. A best move that took most of the nodes has been searched
/// against little resistance: less time; one that took few has rivals: more. Weight 0: 1.
pub fn effort_factor(share: f64, weight: i32) -> f64 {
    let share = share.clamp(0.0, 1.0);
    (1.0 + f64::from(weight) / 100.0 * (1.0 - 2.0 * share)).clamp(0.5, 1.5)
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
            adjust: b.adjust,
        },
    })
}

/// Budgets for a fixed time per move.
pub fn fixed(movetime_ms: u64, overhead_ms: u64) -> Budget {
    let t = movetime_ms.saturating_sub(overhead_ms).max(1);
    Budget {
        soft: Duration::from_millis(t),
        hard: Duration::from_millis(t),
        adjust: false,
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

    #[test]
    fn move_overhead_is_kept_in_reserve() {
        let clock = Clock {
            time_ms: 2_000,
            inc_ms: 0,
            moves_to_go: Some(1),
        };
        // The last move of a period may use most of what is left, less the overhead.
        let small = budget(clock, 0);
        let large = budget(clock, 1_000);
        assert_eq!(small.hard, Duration::from_millis(1_600));
        assert_eq!(large.hard, Duration::from_millis(800));
        assert!(large.soft < small.soft);
        // A time per move less the overhead.
        assert_eq!(fixed(500, 100).hard, Duration::from_millis(400));
    }

    #[test]
    fn moves_to_go_share_the_period() {
        let with = |moves_to_go| {
            budget(
                Clock {
                    time_ms: 60_000,
                    inc_ms: 0,
                    moves_to_go,
                },
                0,
            )
        };
        // Fewer moves to go, more time for each; without, about 30 moves' share.
        assert!(with(Some(2)).soft > with(Some(10)).soft);
        assert!(with(Some(10)).soft > with(Some(40)).soft);
        assert_eq!(with(None).soft, Duration::from_millis(1_000));
        assert_eq!(with(Some(30)).soft, with(None).soft);
    }

    #[test]
    fn the_effort_factor_shortens_a_search_whose_best_move_took_most_nodes() {
        assert_eq!(effort_factor(0.9, 0), 1.0);
        assert_eq!(effort_factor(0.5, 80), 1.0);
        assert!(effort_factor(0.9, 50) < 1.0);
        assert!(effort_factor(0.2, 50) > 1.0);
        assert!(effort_factor(0.95, 50) < effort_factor(0.8, 50));
        assert_eq!(effort_factor(1.0, 200), 0.5);
        assert_eq!(effort_factor(0.0, 200), 1.5);
    }

    #[test]
    fn the_soft_limit_follows_the_iterations() {
        let b = budget(
            Clock {
                time_ms: 60_000,
                inc_ms: 0,
                moves_to_go: None,
            },
            0,
        );
        // A best move that stays: less time, the more iterations it stays.
        let mut stable = Pacer::new();
        for _ in 0..8 {
            stable.iteration(false, 30);
        }
        assert!(stable.soft_limit(b) < b.soft);
        // A best move that just changed: more time.
        let mut changed = stable.clone();
        changed.iteration(true, 30);
        assert!(changed.soft_limit(b) > b.soft);
        // A score that drops: more than with a steady score.
        let mut dropping = stable.clone();
        dropping.iteration(false, -120);
        assert!(dropping.soft_limit(b) > stable.soft_limit(b));
        // Never beyond the hard limit; a fixed time per move is never scaled.
        let mut worst = Pacer::new();
        for i in 0..10 {
            worst.iteration(true, 500 - 300 * i);
        }
        assert!(worst.soft_limit(b) <= b.hard);
        assert!(worst.factor() <= 2.5);
        let f = fixed(100, 0);
        assert_eq!(worst.soft_limit(f), f.soft);
        assert_eq!(stable.soft_limit(f), f.soft);
        // A scale moves a clock's soft limit, up to the hard limit, and never a fixed time.
        assert_eq!(stable.soft_limit_scaled(b, 1.0), stable.soft_limit(b));
        assert!(stable.soft_limit_scaled(b, 1.5) > stable.soft_limit(b));
        assert!(stable.soft_limit_scaled(b, 0.5) < stable.soft_limit(b));
        assert_eq!(worst.soft_limit_scaled(b, 20.0), b.hard);
        assert_eq!(stable.soft_limit_scaled(f, 2.0), f.soft);
    }
}
