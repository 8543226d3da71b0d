//! Game clocks: time controls as text (`40/60+0.6`, `10+0.1`, a fixed time per move), the clock
//! of each side during a game, and the judging of time losses.
//!
//! A side's clock starts with the control's base time. Each move's thinking time, measured by the
//! game loop from the request for a move to the answer, is taken off; a clock that goes below
//! `-margin` has lost on time. Then the increment is added, and after each period's last move
//! (`40/...`: after 40 moves) the base time again. A fixed time per move (`st=0.1`,
//! `movetime=100`) is judged the same way: a move that takes longer than the time plus the
//! margin loses.

use std::{fmt, str::FromStr, time::Duration};

use crate::search::time::Clock;

/// How much time a side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base_ms` for the first `moves` moves (for the whole game when `None`), then
    /// the base again for each next period; `increment_ms` added after every move.
    Clock {
        /// Moves per period, `None` for the whole game.
        moves: Option<u32>,
        /// Time per period, milliseconds.
        base_ms: u64,
        /// Added after each move, milliseconds.
        increment_ms: u64,
    },
    /// A fixed time per move, milliseconds (unused time is not kept).
    MoveTime(u64),
}

/// Why a time control text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time control '{text}': {reason} (expected e.g. 40/60+0.6, 10+0.1, 5:00 or 60)")]
pub struct ParseTimeControlError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

/// Longest base time or increment accepted (a week), milliseconds.
const MAX_MS: u64 = 7 * 24 * 3_600_000;

/// Seconds as text (`60`, `0.6`, `1:30` for minutes and seconds) to milliseconds.
pub fn parse_seconds(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m
                .parse()
                .map_err(|_| format!("'{m}' is not a whole number of minutes"))?;
            (m, s)
        }
        None => (0, text),
    };
    let valid = !seconds.is_empty()
        && seconds.chars().all(|c| c.is_ascii_digit() || c == '.')
        && seconds.chars().filter(|&c| c == '.').count() <= 1;
    let s: f64 = seconds
        .parse()
        .ok()
        .filter(|_| valid)
        .ok_or_else(|| format!("'{seconds}' is not a number of seconds"))?;
    let ms = (minutes as f64) * 60_000.0 + (s * 1000.0).round();
    if !(0.0..=MAX_MS as f64).contains(&ms) {
        return Err(format!("{text} s is more than a week"));
    }
    Ok(ms as u64)
}

/// Milliseconds as seconds, without needless decimals (`60`, `0.6`, `0.025`).
fn seconds_text(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// `[MOVES/]BASE[+INCREMENT]` with times in seconds (`BASE` may be `M:SS`): `40/60+0.6`,
    /// `10+0.1`, `5:00`, `60`.
    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let bad = |reason: String| ParseTimeControlError {
            text: text.to_string(),
            reason,
        };
        let t = text.trim();
        let (moves, rest) = match t.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| bad(format!("'{m}' is not a positive number of moves")))?;
                (Some(m), rest)
            }
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = parse_seconds(base).map_err(bad)?;
        let increment_ms = inc.map(parse_seconds).transpose().map_err(bad)?.unwrap_or(0);
        if base_ms == 0 && increment_ms == 0 {
            return Err(bad("no time at all".into()));
        }
        Ok(TimeControl::Clock {
            moves,
            base_ms,
            increment_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    /// The text [`TimeControl::from_str`] reads (`40/60+0.6`), or `movetime=MS` for a fixed
    /// time per move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock {
                moves,
                base_ms,
                increment_ms,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", seconds_text(base_ms))?;
                if increment_ms > 0 {
                    write!(f, "+{}", seconds_text(increment_ms))?;
                }
                Ok(())
            }
            TimeControl::MoveTime(ms) => write!(f, "movetime={ms}"),
        }
    }
}

impl TimeControl {
    /// The value of the PGN `TimeControl` tag: `300` (sudden death), `300+5` (with an
    /// increment), `40/60` (moves per period, repeated), `40/60+0.6`; `None` for a fixed time per
    /// move, which the tag has no form for.
    pub fn pgn_tag(&self) -> Option<String> {
        match self {
            TimeControl::MoveTime(_) => None,
            TimeControl::Clock { .. } => Some(self.to_string()),
        }
    }
}

/// The clock of one side during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// The time control.
    pub control: TimeControl,
    /// Time left, milliseconds (negative after a loss on time within the margin).
    pub left_ms: i64,
    /// Moves played in the current period.
    pub moves_in_period: u32,
}

/// A move took too long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLoss {
    /// How long the move took, milliseconds.
    pub used_ms: u64,
    /// What the side had for it, milliseconds.
    pub had_ms: i64,
}

impl SideClock {
    /// A clock at the start of a game.
    pub fn new(control: TimeControl) -> SideClock {
        let left_ms = match control {
            TimeControl::Clock { base_ms, .. } => base_ms as i64,
            TimeControl::MoveTime(ms) => ms as i64,
        };
        SideClock {
            control,
            left_ms,
            moves_in_period: 0,
        }
    }

    /// The clock as a search and UCI's `go` see it: time left, increment, moves to the next
    /// period. `None` for a fixed time per move.
    pub fn search_clock(&self) -> Option<Clock> {
        match self.control {
            TimeControl::Clock {
                moves, increment_ms, ..
            } => Some(Clock {
                time_ms: self.left_ms,
                inc_ms: increment_ms as i64,
                moves_to_go: moves.map(|m| m.saturating_sub(self.moves_in_period).max(1)),
            }),
            TimeControl::MoveTime(_) => None,
        }
    }

    /// The fixed time per move, if that is the control.
    pub fn move_time_ms(&self) -> Option<u64> {
        match self.control {
            TimeControl::MoveTime(ms) => Some(ms),
            TimeControl::Clock { .. } => None,
        }
    }

    /// How long the side may think on its next move before it loses on time: the time left
    /// (or the time per move) and `margin_ms`.
    pub fn allowance(&self, margin_ms: u64) -> Duration {
        Duration::from_millis((self.left_ms.max(0) as u64).saturating_add(margin_ms))
    }

    /// Takes a move's thinking time off the clock. A move longer than the time left and
    /// `margin_ms` loses on time (the clock then shows what was left minus the time used);
    /// otherwise the increment and, after a period's last move, the next period's time are
    /// added.
    pub fn spend(&mut self, used: Duration, margin_ms: u64) -> Result<(), TimeLoss> {
        let used_ms = used.as_millis().min(i64::MAX as u128) as i64;
        let had_ms = self.left_ms;
        self.left_ms = had_ms.saturating_sub(used_ms);
        if self.left_ms < -(margin_ms as i64) {
            return Err(TimeLoss {
                used_ms: used_ms as u64,
                had_ms,
            });
        }
        match self.control {
            TimeControl::Clock {
                moves,
                base_ms,
                increment_ms,
            } => {
                self.left_ms = self.left_ms.max(0) + increment_ms as i64;
                self.moves_in_period += 1;
                if moves.is_some_and(|m| self.moves_in_period >= m) {
                    self.moves_in_period = 0;
                    self.left_ms += base_ms as i64;
                }
            }
            TimeControl::MoveTime(ms) => self.left_ms = ms as i64,
        }
        Ok(())
    }
}

/// A clock reading as PGN's `%clk` command writes it: `h:mm:ss.s` (tenths, rounded down;
/// negative readings as 0).
pub fn clk_text(ms: i64) -> String {
    let tenths = ms.max(0) / 100;
    let (h, rest) = (tenths / 36_000, tenths % 36_000);
    let (m, rest) = (rest / 600, rest % 600);
    format!("{h}:{m:02}:{:02}.{}", rest / 10, rest % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_time_controls() {
        let tc: TimeControl = "40/60+0.6".parse().expect("valid");
        assert_eq!(
            tc,
            TimeControl::Clock {
                moves: Some(40),
                base_ms: 60_000,
                increment_ms: 600
            }
        );
        assert_eq!(tc.to_string(), "40/60+0.6");
        let tc: TimeControl = "10+0.1".parse().expect("valid");
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(tc.pgn_tag().as_deref(), Some("10+0.1"));
        let tc: TimeControl = "5:00".parse().expect("valid");
        assert_eq!(tc.to_string(), "300");
        let tc: TimeControl = "0.025+0.005".parse().expect("valid");
        assert_eq!(tc.to_string(), "0.025+0.005");
        assert_eq!(TimeControl::MoveTime(100).pgn_tag(), None);
        for bad in [
            "", "x", "40/", "/60", "0/60", "60+", "-5", "1e3", "0", "0+0", "1..2", "99999999",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let e = "40/x".parse::<TimeControl>().expect_err("bad");
        assert!(
            e.to_string()
                .starts_with("time control '40/x': 'x' is not a number of seconds"),
            "{e}"
        );
    }

    #[test]
    fn clocks_count_down_and_refill() {
        let mut c = SideClock::new("2/1+0.5".parse().expect("valid"));
        assert_eq!(
            c.search_clock(),
            Some(Clock {
                time_ms: 1000,
                inc_ms: 500,
                moves_to_go: Some(2)
            })
        );
        assert!(c.spend(Duration::from_millis(300), 0).is_ok());
        assert_eq!(c.left_ms, 1200);
        assert_eq!(c.search_clock().and_then(|k| k.moves_to_go), Some(1));
        // The period's last move: the base time comes back.
        assert!(c.spend(Duration::from_millis(1000), 0).is_ok());
        assert_eq!(c.left_ms, 700 + 1000);
        assert_eq!(c.search_clock().and_then(|k| k.moves_to_go), Some(2));
        // Over the time left but within the margin: no loss, the clock shows 0 before the
        // increment.
        assert!(c.spend(Duration::from_millis(1750), 100).is_ok());
        assert_eq!(c.left_ms, 500);
        assert_eq!(c.allowance(100), Duration::from_millis(600));
        let loss = c.spend(Duration::from_millis(601), 100).expect_err("lost on time");
        assert_eq!(
            loss,
            TimeLoss {
                used_ms: 601,
                had_ms: 500
            }
        );
        assert_eq!(c.left_ms, -101);

        let mut fixed = SideClock::new(TimeControl::MoveTime(100));
        assert_eq!(fixed.search_clock(), None);
        assert_eq!(fixed.move_time_ms(), Some(100));
        assert!(fixed.spend(Duration::from_millis(140), 50).is_ok());
        assert_eq!(fixed.left_ms, 100);
        assert!(fixed.spend(Duration::from_millis(151), 50).is_err());
    }

    #[test]
    fn clk_comments() {
        assert_eq!(clk_text(0), "0:00:00.0");
        assert_eq!(clk_text(-40), "0:00:00.0");
        assert_eq!(clk_text(59_999), "0:00:59.9");
        assert_eq!(clk_text(61_250), "0:01:01.2");
        assert_eq!(clk_text(3_600_000 + 25 * 60_000 + 7_500), "1:25:07.5");
    }
}
