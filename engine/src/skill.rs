//! Strength levels: UCI `Skill Level` (0-20) and `UCI_LimitStrength` with `UCI_Elo`.
//!
//! Full strength (level 20, the default) changes nothing: the search runs with the limits it is
//! given. A weaker level (docs/strength.md)
//!
//! - caps the search: at most [`Strength::node_cap`] nodes and [`Strength::depth_cap`] plies;
//! - searches [`CANDIDATES`] principal variations at once, the candidates;
//! - picks among the candidates at random, each with a weight `exp(-loss / T)`, where `loss` is
//!   how many centipawns it scores below the best candidate and `T`
//!   ([`Strength::temperature_cp`]) grows as the level falls: a strong level nearly always
//!   plays the best move, a weak one often plays the second or third best.
//!
//! Searches for analysis (`go infinite`, `go ponder`, `go mate`) are never weakened.
//!
//! `UCI_Elo` is mapped to a (fractional) level by the calibrated table [`ELO_OF_LEVEL`]: the
//! Elo of measured levels on the scale of docs/strength.md, interpolated in between.
//!
//! ```
//! use engine::skill::Strength;
//!
//! assert!(Strength::from_skill(20).is_full());
//! let weak = Strength::from_skill(3);
//! assert!(weak.node_cap() < Strength::from_skill(10).node_cap());
//! // An Elo maps to a level and back.
//! let s = Strength::from_elo(1200);
//! assert!((s.elo() - 1200).abs() <= 1);
//! ```

use crate::{
    rng::SplitMix64,
    rules::Move,
    search::{Limits, Score, SearchInfo, SearchResult},
};

/// The strongest level, full strength.
pub const MAX_SKILL: u8 = 20;
/// Principal variations a weakened search looks at: the moves it chooses among.
pub const CANDIDATES: usize = 4;

/// Measured Elo of levels on the scale of docs/strength.md (anchored at the full-strength search
/// of 1,000 nodes per move = 1000), as (level, Elo), levels rising; Elo in between is
/// interpolated linearly. Level 20 is full strength and not on this scale (it depends on the
/// time given).
pub const ELO_OF_LEVEL: &[(u8, i64)] = &[
    (0, 103),
    (2, 177),
    (4, 387),
    (6, 522),
    (8, 785),
    (10, 916),
    (12, 1136),
    (14, 1335),
    (16, 1589),
    (18, 1869),
    (19, 2101),
];

/// The lowest `UCI_Elo`: the weakest measured level.
pub const ELO_MIN: i64 = ELO_OF_LEVEL[0].1;
/// The highest `UCI_Elo`: the strongest measured level below full strength.
pub const ELO_MAX: i64 = ELO_OF_LEVEL[ELO_OF_LEVEL.len() - 1].1;

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// 0.0 (weakest) to 20.0 (full strength).
    level: f64,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength::FULL
    }
}

impl Strength {
    /// Full strength: the search is not changed.
    pub const FULL: Strength = Strength {
        level: MAX_SKILL as f64,
    };

    /// `Skill Level` 0..=20 (larger values are 20).
    pub fn from_skill(level: u8) -> Strength {
        Strength {
            level: f64::from(level.min(MAX_SKILL)),
        }
    }

    /// `UCI_Elo` on the scale of docs/strength.md, clamped to [`ELO_MIN`]..=[`ELO_MAX`]: the
    /// fractional level the calibration table gives.
    pub fn from_elo(elo: i64) -> Strength {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        let level = ELO_OF_LEVEL.windows(2).find(|w| elo <= w[1].1).map_or(
            f64::from(ELO_OF_LEVEL[ELO_OF_LEVEL.len() - 1].0),
            |w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                let t = (elo - e0) as f64 / (e1 - e0).max(1) as f64;
                f64::from(l0) + t * f64::from(l1 - l0)
            },
        );
        Strength { level }
    }

    /// The level, 0.0 to 20.0.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// Whether this is full strength (the search is not changed).
    pub fn is_full(&self) -> bool {
        self.level >= f64::from(MAX_SKILL)
    }

    /// The Elo of the level on the calibrated scale (interpolated; beyond the table's last level,
    /// its Elo).
    pub fn elo(&self) -> i64 {
        let level = self.level;
        ELO_OF_LEVEL
            .windows(2)
            .find(|w| level <= f64::from(w[1].0))
            .map_or(ELO_MAX, |w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                let t = ((level - f64::from(l0)) / f64::from(l1 - l0)).max(0.0);
                (e0 as f64 + t * (e1 - e0) as f64).round() as i64
            })
    }

    /// The most nodes a move may search: 256 at level 0, 1.5 times more per level (about 570,000
    /// at level 19).
    pub fn node_cap(&self) -> u64 {
        (256.0 * 1.5f64.powf(self.level)).round() as u64
    }

    /// The deepest iteration: 1 ply at level 0, one more per level.
    pub fn depth_cap(&self) -> u32 {
        1 + self.level.floor() as u32
    }

    /// The temperature of the random choice, centipawns: 250 at level 0, 20 at level 19.
    pub fn temperature_cp(&self) -> f64 {
        (250.0 - self.level * (230.0 / 19.0)).max(20.0)
    }

    /// One line for users.
    pub fn describe(&self) -> String {
        if self.is_full() {
            "full strength".to_string()
        } else {
            format!(
                "level {:.1} (about {} Elo on the scale of docs/strength.md): at most {} nodes and {} plies, \
                 a random choice among {CANDIDATES} moves at {:.0} cp temperature",
                self.level,
                self.elo(),
                self.node_cap(),
                self.depth_cap(),
                self.temperature_cp()
            )
        }
    }

    /// Whether a search with these limits is weakened: not at full strength, and not an analysis
    /// (`infinite`, `ponder`) or a mate search.
    pub fn applies_to(&self, limits: &Limits) -> bool {
        !self.is_full() && !limits.infinite && limits.mate.is_none()
    }

    /// The limits of the weakened search: the caps, and [`CANDIDATES`] lines.
    pub fn limits(&self, limits: &Limits) -> Limits {
        let mut l = limits.clone();
        l.multipv = l.multipv.max(CANDIDATES);
        let cap = self.node_cap();
        l.nodes = Some(l.nodes.map_or(cap, |n| n.min(cap)));
        let depth = self.depth_cap();
        l.depth = Some(l.depth.map_or(depth, |d| d.min(depth)));
        l
    }

    /// The index of the candidate to play among `scores` (best first, as a search reports its
    /// lines), drawn with weights `exp(-loss / T)`.
    pub fn pick(&self, scores: &[Score], rng: &mut SplitMix64) -> usize {
        let Some(best) = scores.iter().map(|&s| comparable(s)).max() else {
            return 0;
        };
        let t = self.temperature_cp();
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| (-(best - comparable(s)) as f64 / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut r = rng.next_f64() * total;
        for (i, w) in weights.iter().enumerate() {
            if r < *w {
                return i;
            }
            r -= w;
        }
        0
    }
}

/// A score as centipawns for comparing candidates: mates beyond every evaluation, nearer mates
/// better.
fn comparable(score: Score) -> i64 {
    match score {
        Score::Cp(c) => i64::from(c),
        Score::Mate(m) if m > 0 => 100_000 - i64::from(m),
        Score::Mate(m) => -100_000 - i64::from(m),
    }
}

/// Collects the lines of the last completed iteration of a weakened search, and forwards to the
/// caller's report only the lines it asked for (its MultiPV).
pub struct Candidates {
    lines: Vec<(Score, Vec<Move>)>,
    shown: usize,
}

impl Candidates {
    /// A collector that forwards lines up to `shown` (the caller's MultiPV, at least 1).
    pub fn new(shown: usize) -> Candidates {
        Candidates {
            lines: Vec::new(),
            shown: shown.max(1),
        }
    }

    /// Takes one report; returns whether the caller sees it.
    pub fn see(&mut self, info: &SearchInfo) -> bool {
        if info.bound.is_none() {
            if info.multipv == 1 {
                self.lines.clear();
            }
            if !info.pv.is_empty() {
                self.lines.push((info.score, info.pv.clone()));
            }
        }
        info.multipv <= self.shown
    }

    /// The search's result with the chosen candidate as its move.
    pub fn choose(self, strength: &Strength, result: SearchResult, rng: &mut SplitMix64) -> SearchResult {
        if self.lines.is_empty() || result.best.is_null() {
            return result;
        }
        let scores: Vec<Score> = self.lines.iter().map(|(s, _)| *s).collect();
        let i = strength.pick(&scores, rng);
        let (score, pv) = self.lines[i].clone();
        SearchResult {
            best: pv[0],
            ponder: pv.get(1).copied(),
            score,
            pv,
            ..result
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_elo() {
        assert!(Strength::default().is_full());
        assert!(!Strength::from_skill(19).is_full());
        assert!(Strength::from_skill(99).is_full());
        for w in ELO_OF_LEVEL.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "the table rises");
        }
        for &(level, elo) in ELO_OF_LEVEL {
            assert_eq!(Strength::from_skill(level).elo(), elo);
            assert!((Strength::from_elo(elo).level() - f64::from(level)).abs() < 1e-9);
        }
        assert_eq!(Strength::from_elo(-5).level(), 0.0);
        assert_eq!(Strength::from_elo(99_999).level(), 19.0);
        let caps: Vec<u64> = (0..20).map(|l| Strength::from_skill(l).node_cap()).collect();
        assert!(caps.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(caps[0], 256);
    }

    #[test]
    fn the_pick_follows_the_scores() {
        let mut rng = SplitMix64::new(7);
        let scores = [Score::Cp(50), Score::Cp(40), Score::Cp(-300), Score::Mate(-2)];
        let mut counts = [0usize; 4];
        let weak = Strength::from_skill(0);
        for _ in 0..4000 {
            counts[weak.pick(&scores, &mut rng)] += 1;
        }
        assert!(
            counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > counts[3],
            "{counts:?}"
        );
        assert!(counts[1] > 1000, "{counts:?}");
        let strong = Strength::from_skill(19);
        let best = (0..1000).filter(|_| strong.pick(&scores, &mut rng) == 0).count();
        assert!(best > 550, "{best}");
        assert_eq!(
            strong.pick(&[Score::Mate(1), Score::Cp(900)], &mut SplitMix64::new(1)),
            0
        );
    }
}
