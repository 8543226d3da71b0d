//! Match statistics: the Elo difference implied by a score with its 95 % confidence interval,
//! the likelihood of superiority (LOS) and the sequential probability ratio test (SPRT).
//!
//! All figures use the logistic Elo model: a player `elo` points stronger is expected to score
//! `1 / (1 + 10^(-elo / 400))`. Results are counted as wins, draws and losses (W/D/L) of one
//! player; the game outcomes are treated as independent draws from a trinomial distribution, and
//! the mean score is taken as normally distributed (normal approximation).
//!
//! - **Elo difference**: `-400 log10(1/s - 1)` for the score fraction `s = (W + D/2) / N`.
//! - **95 % interval**: the per-game score variance is
//!   `v = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N`; the mean score lies within
//!   `s ± 1.96 sqrt(v / N)`, and both ends are converted to Elo. When every game was won the
//!   estimate is `+inf` and the interval is the exact binomial (Clopper-Pearson) one: from the
//!   Elo of `0.025^(1/N)` up (likewise for all losses).
//! - **LOS**: the probability that the player is the stronger one, from wins and losses only:
//!   `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`.
//! - **SPRT**: the generalised SPRT (GSPRT) on the trinomial W/D/L results in the logistic Elo
//!   model (as fishtest does, without BayesElo's draw model). H0 says the expected score is
//!   `s0 = 1 / (1 + 10^(-elo0/400))`, H1 says `s1` (same for `elo1`). For each hypothesis the
//!   W/D/L probabilities of largest likelihood with that expected score are found
//!   (`p_i = q_i / (1 + θ (a_i - s))` with the observed frequencies `q_i`, scores
//!   `a = (1, 1/2, 0)` and `θ` solved for by bisection); the log-likelihood ratio is
//!   `LLR = N Σ q_i ln(p1_i / p0_i)`. Counts of 0 are replaced by 0.001 first so that early
//!   results such as "all games won" give finite, moderate values (one win: LLR 0.13 for 0,50).
//!   For many games this equals the normal approximation
//!   `(s1 - s0) (2 s - s0 - s1) / (2 v / N)` ([`Sprt::llr_normal`]). The test accepts H1
//!   (`elo >= elo1`) when the LLR reaches `ln((1 - beta) / alpha)` and H0 (`elo <= elo0`) when it
//!   falls to `ln(beta / (1 - alpha))`.
//!
//! **Pentanomial** ([`Penta`]): a match plays each opening twice, colours swapped, and the two
//! games of a pair are not independent (a lopsided opening tends to give each side one win).
//! Counting pairs by the points the player scored in them (0, 1/2, 1, 3/2, 2) and treating the
//! pairs as independent draws from that five-outcome distribution takes this into account: the
//! per-game score of a pair is `a = (0, 1/4, 1/2, 3/4, 1)`, the mean `s = Σ n_i a_i / N` over `N`
//! pairs, its variance `v = Σ n_i (a_i - s)^2 / N`, and the interval `s ± 1.96 sqrt(v / N)`.
//! The SPRT is the same GSPRT over the five outcomes: `LLR = N Σ q_i ln(p1_i / p0_i)` with the
//! most likely five-outcome distributions of expected score `s0` and `s1`.

use std::fmt;

/// The two-sided 95 % quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// A tally.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl { wins, draws, losses }
    }

    /// Games counted.
    pub const fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win counts 1, a draw 1/2.
    pub fn points(self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score fraction `points / games` (1/2 when no game was played).
    pub fn score(self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// The same games from the opponent's point of view.
    pub const fn reversed(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The per-game variance of the score around its mean (trinomial).
    pub fn variance(self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2) + self.draws as f64 * (0.5 - s).powi(2) + self.losses as f64 * s * s)
            / n as f64
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// Which model of the results the statistics use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StatsModel {
    /// Game pairs (the same opening with both colours) as the outcomes: 0, 1/2, 1, 3/2 or 2
    /// points ([`Penta`]).
    #[default]
    Pentanomial,
    /// Single games as the outcomes: win, draw or loss ([`Wdl`]).
    Trinomial,
}

impl StatsModel {
    /// The name (`pentanomial`, `trinomial`).
    pub fn name(self) -> &'static str {
        match self {
            StatsModel::Pentanomial => "pentanomial",
            StatsModel::Trinomial => "trinomial",
        }
    }
}

impl fmt::Display for StatsModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for StatsModel {
    type Err = String;

    fn from_str(s: &str) -> Result<StatsModel, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "pentanomial" | "penta" => Ok(StatsModel::Pentanomial),
            "trinomial" | "tri" => Ok(StatsModel::Trinomial),
            other => Err(format!("'{other}' is not pentanomial or trinomial")),
        }
    }
}

/// Game pairs counted by the points one player scored in them: `counts[k]` pairs scored `k / 2`
/// points (0, 1/2, 1, 3/2, 2: loss-loss, loss-draw, win-loss or draw-draw, win-draw, win-win).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Pairs by points times two.
    pub counts: [u32; 5],
}

/// The per-game score of a pair of each pentanomial outcome.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Penta {
    /// Counts.
    pub const fn new(counts: [u32; 5]) -> Penta {
        Penta { counts }
    }

    /// Pairs counted.
    pub fn pairs(self) -> u32 {
        self.counts.iter().sum()
    }

    /// The score fraction per game (1/2 without pairs).
    pub fn score(self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        (0..5).map(|i| self.counts[i] as f64 * PAIR_SCORES[i]).sum::<f64>() / n as f64
    }

    /// The variance of a pair's per-game score around the mean.
    pub fn variance(self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        (0..5)
            .map(|i| self.counts[i] as f64 * (PAIR_SCORES[i] - s).powi(2))
            .sum::<f64>()
            / n as f64
    }
}

impl fmt::Display for Penta {
    /// `a/b/c/d/e`: pairs scoring 0, 1/2, 1, 3/2 and 2 points.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts;
        write!(f, "{a}/{b}/{c}/{d}/{e}")
    }
}

/// The Elo difference for a score fraction (infinite at 0 and 1).
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score fraction for an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The most likely difference.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

impl EloEstimate {
    /// The Elo difference of a tally; `None` before the first game.
    pub fn from_wdl(wdl: Wdl) -> Option<EloEstimate> {
        let n = wdl.games();
        if n == 0 {
            return None;
        }
        let s = wdl.score();
        if wdl.wins == n || wdl.losses == n {
            // All games won (or lost): the normal approximation has no spread to work with. The
            // exact (Clopper-Pearson) two-sided 95 % bound for n successes in n trials is
            // 0.025^(1/n) on the far side; the near side is infinite.
            let bound = score_to_elo(0.025f64.powf(1.0 / n as f64));
            return Some(if wdl.wins == n {
                EloEstimate {
                    elo: f64::INFINITY,
                    lower: bound,
                    upper: f64::INFINITY,
                }
            } else {
                EloEstimate {
                    elo: f64::NEG_INFINITY,
                    lower: f64::NEG_INFINITY,
                    upper: -bound,
                }
            });
        }
        let margin = Z95 * (wdl.variance() / n as f64).sqrt();
        Some(EloEstimate {
            elo: score_to_elo(s),
            lower: score_to_elo(s - margin),
            upper: score_to_elo(s + margin),
        })
    }
}

impl EloEstimate {
    /// The Elo difference of game pairs (pentanomial); `None` before the first pair. When every
    /// pair was won (or lost) the interval is the exact one of as many won games, as for
    /// [`EloEstimate::from_wdl`].
    pub fn from_penta(penta: Penta) -> Option<EloEstimate> {
        let n = penta.pairs();
        if n == 0 {
            return None;
        }
        if penta.counts[4] == n {
            return EloEstimate::from_wdl(Wdl::new(2 * n, 0, 0));
        }
        if penta.counts[0] == n {
            return EloEstimate::from_wdl(Wdl::new(0, 0, 2 * n));
        }
        let s = penta.score();
        let margin = Z95 * (penta.variance() / n as f64).sqrt();
        Some(EloEstimate {
            elo: score_to_elo(s),
            lower: score_to_elo(s - margin),
            upper: score_to_elo(s + margin),
        })
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lower == self.upper {
            // No spread in the results (all games drawn): no interval.
            return write!(
                f,
                "{} (no interval: every game or pair had the same result)",
                format_elo(self.elo)
            );
        }
        write!(
            f,
            "{} (95% interval {} .. {})",
            format_elo(self.elo),
            format_elo(self.lower),
            format_elo(self.upper)
        )
    }
}

/// An Elo value with its sign and one decimal (`+12.3`, `-4.0`, `+inf`).
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if elo.abs() < 0.05 {
        "0.0".into()
    } else {
        format!("{elo:+.1}")
    }
}

/// The likelihood of superiority from game pairs (pentanomial): the probability that the
/// player's expected score is above 1/2, with the mean pair score `s` taken as normal with the
/// pairs' variance, `Φ((s - 1/2) / sqrt(v / N))` ([`Penta::score`], [`Penta::variance`]). Pairs
/// that all scored the same: 1, 0 or 1/2 as that score is above, below or at 1/2; 1/2 without
/// pairs.
pub fn los_penta(penta: Penta) -> f64 {
    let n = penta.pairs();
    let s = penta.score();
    let spread = (penta.variance() / f64::from(n.max(1))).sqrt();
    if n == 0 || spread == 0.0 {
        return if s > 0.5 {
            1.0
        } else if s < 0.5 {
            0.0
        } else {
            0.5
        };
    }
    0.5 * (1.0 + erf((s - 0.5) / spread / std::f64::consts::SQRT_2))
}

/// The likelihood of superiority: the probability that the player is stronger, from the
/// difference between wins and losses (draws carry no information). 1/2 without decisive games.
pub fn los(wdl: Wdl) -> f64 {
    let decisive = wdl.wins + wdl.losses;
    if decisive == 0 {
        return 0.5;
    }
    let diff = wdl.wins as f64 - wdl.losses as f64;
    0.5 * (1.0 + erf(diff / (2.0 * decisive as f64).sqrt()))
}

/// The error function, to about 1e-15 (series `erf x = 2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) /
/// (1*3*...*(2n+1))`, whose terms are all positive).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() >= 6.0 {
        return x.signum();
    }
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term.abs() > sum.abs() * 1e-17 {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x2).exp() * sum
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The LLR reached the upper bound: the difference is at least `elo1` (H1 accepted).
    AcceptH1,
    /// The LLR reached the lower bound: the difference is at most `elo0` (H0 accepted).
    AcceptH0,
    /// Neither bound is reached: more games are needed.
    Continue,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::Continue => "inconclusive",
        })
    }
}

/// A sequential probability ratio test of H0: `elo <= elo0` against H1: `elo >= elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1 (greater than `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

/// Why SPRT parameters are refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// The text is not `elo0,elo1`.
    #[error("SPRT bounds '{0}': expected two Elo values separated by a comma, e.g. '0,50'")]
    Syntax(String),
    /// `elo0 >= elo1`.
    #[error("SPRT bounds: elo0 ({0}) must be smaller than elo1 ({1})")]
    Order(f64, f64),
    /// alpha or beta out of (0, 1/2).
    #[error("SPRT error rates: alpha ({0}) and beta ({1}) must each lie strictly between 0 and 0.5")]
    Rates(f64, f64),
}

impl Sprt {
    /// Default error rates.
    pub const DEFAULT_ALPHA: f64 = 0.05;
    /// Default error rates.
    pub const DEFAULT_BETA: f64 = 0.05;

    /// A test with the given hypotheses and error rates, checked.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::Order(elo0, elo1));
        }
        let ok = |p: f64| p > 0.0 && p < 0.5;
        if !(ok(alpha) && ok(beta)) {
            return Err(SprtError::Rates(alpha, beta));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Reads `elo0,elo1` (e.g. `0,50`, `-5,5`) with the given error rates.
    pub fn parse(text: &str, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let mut parts = text.split(',').map(str::trim);
        let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(SprtError::Syntax(text.to_string()));
        };
        let (Ok(elo0), Ok(elo1)) = (a.parse::<f64>(), b.parse::<f64>()) else {
            return Err(SprtError::Syntax(text.to_string()));
        };
        Sprt::new(elo0, elo1, alpha, beta)
    }

    /// The LLR at which H0 is accepted: `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR at which H1 is accepted: `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for a tally (GSPRT, see the module
    /// documentation); 0 before the first game.
    pub fn llr(&self, wdl: Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let counts = [wdl.wins, wdl.draws, wdl.losses].map(|c| (c as f64).max(1e-3));
        let n: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / n);
        let p0 = most_likely(freq, OUTCOME_SCORES, elo_to_score(self.elo0));
        let p1 = most_likely(freq, OUTCOME_SCORES, elo_to_score(self.elo1));
        n * (0..3).map(|i| freq[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    /// The log-likelihood ratio of H1 against H0 for game pairs (the GSPRT over the five
    /// pentanomial outcomes, counts of 0 replaced by 0.001 as for W/D/L); 0 before the first
    /// pair.
    pub fn llr_penta(&self, penta: Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let counts = penta.counts.map(|c| (c as f64).max(1e-3));
        let n: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / n);
        let p0 = most_likely(freq, PAIR_SCORES, elo_to_score(self.elo0));
        let p1 = most_likely(freq, PAIR_SCORES, elo_to_score(self.elo1));
        n * (0..5).map(|i| freq[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    /// The verdict for an LLR.
    pub fn verdict_of(&self, llr: f64) -> SprtVerdict {
        if llr >= self.upper_bound() {
            SprtVerdict::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The normal approximation of the LLR: `(s1 - s0) (2 s - s0 - s1) / (2 v / N)` with the
    /// per-game variance `v`; 0 while the results have no variance (no games, or all alike).
    pub fn llr_normal(&self, wdl: Wdl) -> f64 {
        let n = wdl.games();
        let var = wdl.variance();
        if n == 0 || var <= 1e-12 {
            return 0.0;
        }
        let s = wdl.score();
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n as f64)
    }

    /// The verdict for a tally.
    pub fn verdict(&self, wdl: Wdl) -> SprtVerdict {
        self.verdict_of(self.llr(wdl))
    }
}

/// The scores of a win, a draw and a loss.
const OUTCOME_SCORES: [f64; 3] = [1.0, 0.5, 0.0];

/// The outcome probabilities of largest likelihood for the observed frequencies `freq` (all
/// positive) of outcomes scoring `scores` (the first 1, the last 0) among those whose expected
/// score is `target` (in (0, 1)): `p_i = q_i / (1 + θ (a_i - target))` with `θ` found by
/// bisection.
fn most_likely<const N: usize>(freq: [f64; N], scores: [f64; N], target: f64) -> [f64; N] {
    let d = scores.map(|a| a - target);
    // f(θ) = Σ q_i d_i / (1 + θ d_i) falls from +inf to -inf on (-1/d_max, -1/d_min).
    let f = |theta: f64| (0..N).map(|i| freq[i] * d[i] / (1.0 + theta * d[i])).sum::<f64>();
    let d_max = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let d_min = d.iter().copied().fold(f64::INFINITY, f64::min);
    let (mut lo, mut hi) = (-1.0 / d_max, -1.0 / d_min);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    std::array::from_fn(|i| freq[i] / (1.0 + theta * d[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn erf_known_values() {
        // Tabulated: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650,
        // erf(3) = 0.9999779095; erf is odd.
        assert_eq!(erf(0.0), 0.0);
        assert!(close(erf(0.5), 0.520_499_877_813_046_5, 1e-14));
        assert!(close(erf(1.0), 0.842_700_792_949_714_9, 1e-14));
        assert!(close(erf(2.0), 0.995_322_265_018_952_7, 1e-14));
        assert!(close(erf(3.0), 0.999_977_909_503_001_4, 1e-14));
        assert!(close(erf(-1.5), -0.966_105_146_475_310_8, 1e-14));
        assert_eq!(erf(7.0), 1.0);
        assert_eq!(erf(-9.0), -1.0);
    }

    #[test]
    fn elo_of_scores() {
        // 50 % is 0 Elo; 75 % is -400 log10(1/3) = +190.85; 10^(1/2) = 3.1623 so 400 Elo
        // expect 1/(1+10^-1) = 10/11.
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!(close(score_to_elo(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(score_to_elo(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(elo_to_score(400.0), 10.0 / 11.0, 1e-12));
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        for e in [-300.0, -10.0, 0.0, 35.0, 500.0] {
            assert!(close(score_to_elo(elo_to_score(e)), e, 1e-9));
        }
    }

    #[test]
    fn interval_even_match() {
        // W=10 D=20 L=10: s = 1/2, v = (10/4 + 0 + 10/4) / 40 = 1/8, sd of the mean
        // sqrt(1/8/40) = 0.0559017, margin 1.959964 * 0.0559017 = 0.109566; Elo of 0.609566 is
        // -400 log10(0.640513) = +77.389.
        let e = EloEstimate::from_wdl(Wdl::new(10, 20, 10)).expect("games");
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.upper, 77.388_743_909, 1e-6), "{e:?}");
        assert!(close(e.lower, -77.388_743_909, 1e-6), "{e:?}");
    }

    #[test]
    fn interval_uneven_match() {
        // W=60 D=20 L=20: s = 0.7, v = (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16, sd of the mean
        // 0.4/10 = 0.04, margin 0.0783986. Elo(0.7) = 400 log10(7/3) = 147.1907,
        // Elo(0.6216014) = 86.2250, Elo(0.7783986) = 218.2518.
        let e = EloEstimate::from_wdl(Wdl::new(60, 20, 20)).expect("games");
        assert!(close(e.elo, 147.190_714_118, 1e-6), "{e:?}");
        assert!(close(e.lower, 86.225_015_200, 1e-6), "{e:?}");
        assert!(close(e.upper, 218.251_777_641, 1e-6), "{e:?}");
        assert_eq!(EloEstimate::from_wdl(Wdl::default()), None);
        assert_eq!(format_elo(147.19), "+147.2");
        assert_eq!(format_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(
            EloEstimate::from_wdl(Wdl::new(0, 7, 0)).expect("games").to_string(),
            "0.0 (no interval: every game or pair had the same result)"
        );
        assert_eq!(
            EloEstimate::from_wdl(Wdl::new(60, 20, 20)).expect("games").to_string(),
            "+147.2 (95% interval +86.2 .. +218.3)"
        );
    }

    #[test]
    fn interval_when_every_game_is_won() {
        // 20 wins of 20: 0.025^(1/20) = e^(ln 0.025 / 20) = e^(-0.1844440) = 0.8315665, Elo
        // -400 log10(1/0.8315665 - 1) = -400 log10(0.2025490) = +277.387.
        let all = EloEstimate::from_wdl(Wdl::new(20, 0, 0)).expect("games");
        assert_eq!(all.elo, f64::INFINITY);
        assert_eq!(all.upper, f64::INFINITY);
        assert!(close(all.lower, 277.387_440_797_67, 1e-6), "{all:?}");
        assert_eq!(all.to_string(), "+inf (95% interval +277.4 .. +inf)");
        let none = EloEstimate::from_wdl(Wdl::new(0, 0, 20)).expect("games");
        assert_eq!(none.elo, f64::NEG_INFINITY);
        assert!(close(none.upper, -277.387_440_797_67, 1e-6), "{none:?}");
        // One win: 0.025 itself, Elo -400 log10(39) = -636.426.
        let one = EloEstimate::from_wdl(Wdl::new(1, 0, 0)).expect("games");
        assert!(close(one.lower, -636.425_842_810_6, 1e-6), "{one:?}");
    }

    #[test]
    fn los_values() {
        // W=6 L=2: erf(4 / sqrt(16)) = erf(1) = 0.8427008, LOS = 0.9213504.
        assert!(close(los(Wdl::new(6, 9, 2)), 0.921_350_396_474_857_5, 1e-12));
        // W=L: 1/2; no decisive game: 1/2.
        assert_eq!(los(Wdl::new(7, 3, 7)), 0.5);
        assert_eq!(los(Wdl::new(0, 5, 0)), 0.5);
        // W=10 L=12: erf(-2/sqrt(44)) = erf(-0.3015113) = -0.3301847, LOS = 0.3349077.
        assert!(close(los(Wdl::new(10, 0, 12)), 0.334_907_678_799_708_3, 1e-12));
    }

    #[test]
    fn los_from_pairs() {
        // Pairs 0/0/2/2/0: s = 5/8, v = 1/64, N = 4: z = (1/8) / (1/16) = 2, LOS = Φ(2) = 0.9772499.
        assert!(close(
            los_penta(Penta::new([0, 0, 2, 2, 0])),
            0.977_249_868_051_820_8,
            1e-12
        ));
        // Pairs 1/2/3/4/2: s = 7/12, v = 0.0868056, N = 12: z = 0.9797959, LOS = 0.8364066.
        assert!(close(
            los_penta(Penta::new([1, 2, 3, 4, 2])),
            0.836_406_561_104_847_2,
            1e-12
        ));
        // Pairs 3/1/2/0/0: s = 5/24, v = 0.0503472, N = 6: z = -3.1840118, LOS = 0.0007262.
        assert!(close(
            los_penta(Penta::new([3, 1, 2, 0, 0])),
            0.000_726_245_498_707_2,
            1e-12
        ));
        // No spread: all pairs alike.
        assert_eq!(los_penta(Penta::new([0, 0, 5, 0, 0])), 0.5);
        assert_eq!(los_penta(Penta::new([0, 0, 0, 0, 3])), 1.0);
        assert_eq!(los_penta(Penta::new([2, 0, 0, 0, 0])), 0.0);
        assert_eq!(los_penta(Penta::default()), 0.5);
    }

    #[test]
    fn sprt_bounds() {
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).expect("valid");
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
        assert!(close(sprt.lower_bound(), -2.944_438_979_166_44, 1e-12));
        assert!(close(sprt.upper_bound(), 2.944_438_979_166_44, 1e-12));
        // alpha 0.05, beta 0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = ln 18 = 2.890372.
        let asym = Sprt::new(0.0, 5.0, 0.05, 0.1).expect("valid");
        assert!(close(asym.lower_bound(), -2.251_291_798_606_495, 1e-12));
        assert!(close(asym.upper_bound(), 2.890_371_757_896_165, 1e-12));
    }

    #[test]
    fn most_likely_distributions() {
        // Observed 0.6/0.2/0.2 (score 0.7) under the constraint score 0.5: θ = 1 gives
        // 0.6/(1+0.5) = 0.4, 0.2/(1+0) = 0.2, 0.2/(1-0.5) = 0.4, which sums to 1 and scores 0.5.
        let p = most_likely([0.6, 0.2, 0.2], OUTCOME_SCORES, 0.5);
        assert!(
            close(p[0], 0.4, 1e-12) && close(p[1], 0.2, 1e-12) && close(p[2], 0.4, 1e-12),
            "{p:?}"
        );
        // The observed score itself: θ = 0, the frequencies unchanged.
        let q = most_likely([0.5, 0.3, 0.2], OUTCOME_SCORES, 0.65);
        assert!(
            close(q[0], 0.5, 1e-12) && close(q[1], 0.3, 1e-12) && close(q[2], 0.2, 1e-12),
            "{q:?}"
        );
    }

    #[test]
    fn sprt_llr_values() {
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).expect("valid");
        // W=60 D=20 L=20 (N=100, score 0.7). Normal approximation: v = w + d/4 - s^2 =
        // 0.6 + 0.05 - 0.49 = 0.16, v/N = 0.0016, s0 = 0.5, s1 = 1/(1+10^-0.125) = 0.5714631,
        // LLR = 0.0714631 * (1.4 - 1.0714631) / 0.0032 = 7.336959.
        assert!(close(
            sprt.llr_normal(Wdl::new(60, 20, 20)),
            7.336_959_316_758_886,
            1e-9
        ));
        // GSPRT: p0 = (0.4, 0.2, 0.4) (see above); p1 = (0.4664491, 0.2100280, 0.3235229) for
        // s1; LLR = 100 (0.6 ln(0.4664491/0.4) + 0.2 ln(0.2100280/0.2) + 0.2 ln(0.3235229/0.4))
        // = 100 (0.0922061 + 0.0097854 - 0.0424442) = 5.955639.
        assert!(close(sprt.llr(Wdl::new(60, 20, 20)), 5.955_639_396_795_771, 1e-7));
        assert_eq!(sprt.verdict(Wdl::new(60, 20, 20)), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(Wdl::new(20, 20, 60)), SprtVerdict::AcceptH0);
        // W=100 D=200 L=100 against (0, 10): both formulas give -0.331186 (s = 1/2, v/N =
        // 0.0003125, s1 = 0.5143872: 0.0143872 * (1 - 1.0143872) / 0.000625).
        let small = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid");
        assert!(close(
            small.llr_normal(Wdl::new(100, 200, 100)),
            -0.331_185_709_162_182_5,
            1e-9
        ));
        assert!(close(
            small.llr(Wdl::new(100, 200, 100)),
            -0.331_186_011_127_959_6,
            1e-7
        ));
        assert_eq!(small.verdict(Wdl::new(100, 200, 100)), SprtVerdict::Continue);
        // Symmetric hypotheses around the observed score: LLR 0.
        let sym = Sprt::new(-10.0, 10.0, 0.05, 0.05).expect("valid");
        assert!(close(sym.llr(Wdl::new(30, 40, 30)), 0.0, 1e-9));
        assert!(close(sym.llr_normal(Wdl::new(30, 40, 30)), 0.0, 1e-9));
        // Only wins: the most likely distributions put all the rest on losses, p0 = (s0, 0, 1-s0),
        // so LLR = W ln(s1/s0) = 6 ln(0.5714631/0.5) = 0.801551 (0.801530 with the 0.001 counts);
        // the normal approximation has no variance to work with and says 0.
        assert!(close(sprt.llr(Wdl::new(6, 0, 0)), 0.801_530_382_549_249_4, 1e-6));
        assert!(close(sprt.llr(Wdl::new(1, 0, 0)), 0.133_570_873_629_555_5, 1e-6));
        assert_eq!(sprt.llr_normal(Wdl::new(6, 0, 0)), 0.0);
        assert_eq!(sprt.llr(Wdl::default()), 0.0);
        // Many games: the two agree to within a few percent.
        let w = Wdl::new(200, 300, 150);
        let (exact, normal) = (small.llr(w), small.llr_normal(w));
        assert!(close(exact, 2.175_863_888_082_762_5, 1e-6), "{exact}");
        assert!((exact - normal).abs() < 0.05 * exact.abs(), "{exact} {normal}");
    }

    #[test]
    fn pentanomial_score_and_interval() {
        // Pairs 0/0/2/2/0 (two scoring 1, two scoring 3/2 of 2): per-game scores 1/2, 1/2, 3/4,
        // 3/4, s = 5/8; v = 4 (1/8)^2 / 4 = 1/64; sd of the mean sqrt(1/64/4) = 1/16; margin
        // 1.959964/16 = 0.1224977. Elo(0.625) = -400 log10(0.6) = +88.7395, Elo(0.5025023) =
        // +1.7388, Elo(0.7474977) = +188.5379.
        let p = Penta::new([0, 0, 2, 2, 0]);
        assert_eq!(p.pairs(), 4);
        assert!(close(p.score(), 0.625, 1e-15));
        assert!(close(p.variance(), 0.015_625, 1e-15));
        let e = EloEstimate::from_penta(p).expect("pairs");
        assert!(close(e.elo, 88.739_499_846_542_55, 1e-9), "{e:?}");
        assert!(close(e.lower, 1.738_756_575_004_151, 1e-9), "{e:?}");
        assert!(close(e.upper, 188.537_854_056_808_9, 1e-9), "{e:?}");
        // 1/2/4/2/1: s = 1/2, v = (1/4 + 2/16 + 0 + 2/16 + 1/4) / 10 = 0.075; margin 1.959964 sqrt(0.0075) = 0.1697378, Elo(0.6697378) = +122.8184.
        let sym = EloEstimate::from_penta(Penta::new([1, 2, 4, 2, 1])).expect("pairs");
        assert!(close(sym.elo, 0.0, 1e-12));
        assert!(close(sym.upper, 122.818_423_864_861_2, 1e-9), "{sym:?}");
        assert!(close(sym.lower, -122.818_423_864_861_2, 1e-9), "{sym:?}");
        // 2/10/20/14/4 (50 pairs): s = 0.54, v = 0.0584 (checked with an independent
        // high-precision computation: Elo +27.8544, interval -18.7685 .. +75.5066).
        let e = EloEstimate::from_penta(Penta::new([2, 10, 20, 14, 4])).expect("pairs");
        assert!(close(e.elo, 27.854_371_256_557_77, 1e-9), "{e:?}");
        assert!(close(e.lower, -18.768_471_053_064_69, 1e-9), "{e:?}");
        assert!(close(e.upper, 75.506_628_967_291_5, 1e-9), "{e:?}");
        // Every pair won: the exact interval of as many won games (10 pairs = 20 games).
        let all = EloEstimate::from_penta(Penta::new([0, 0, 0, 0, 10])).expect("pairs");
        assert_eq!(all, EloEstimate::from_wdl(Wdl::new(20, 0, 0)).expect("games"));
        // Every pair 1 point (each a win and a loss): no spread, no interval.
        assert_eq!(
            EloEstimate::from_penta(Penta::new([0, 0, 5, 0, 0]))
                .expect("pairs")
                .to_string(),
            "0.0 (no interval: every game or pair had the same result)"
        );
        assert_eq!(EloEstimate::from_penta(Penta::default()), None);
        assert_eq!(Penta::new([1, 2, 3, 4, 5]).to_string(), "1/2/3/4/5");
    }

    #[test]
    fn pentanomial_sprt_llr() {
        // The expected values come from an independent computation: the constrained maximum
        // likelihood distributions found by Newton's method in 40-digit arithmetic (Python,
        // mpmath.findroot on Σ q_i d_i / (1 + θ d_i) = 0, d_i = a_i - s), then
        // LLR = N Σ q_i ln(p1_i / p0_i), zero counts replaced by 0.001.
        let llr = |counts: [u32; 5], elo0: f64, elo1: f64| {
            Sprt::new(elo0, elo1, 0.05, 0.05)
                .expect("valid")
                .llr_penta(Penta::new(counts))
        };
        // Symmetric results against symmetric hypotheses: 0 by symmetry (hand).
        assert!(close(llr([1, 2, 4, 2, 1], -10.0, 10.0), 0.0, 1e-12));
        assert!(close(llr([2, 10, 20, 14, 4], 0.0, 10.0), 0.395_999_672_641_653_6, 1e-9));
        assert!(close(llr([2, 10, 20, 14, 4], 0.0, 50.0), 0.250_926_996_873_731_1, 1e-9));
        assert!(close(llr([0, 1, 3, 2, 0], 0.0, 50.0), 0.076_739_248_595_998_44, 1e-9));
        assert!(close(
            llr([30, 80, 120, 60, 10], -5.0, 5.0),
            -3.515_357_486_066_729,
            1e-9
        ));
        let sprt = Sprt::new(-5.0, 5.0, 0.05, 0.05).expect("valid");
        assert_eq!(
            sprt.verdict_of(sprt.llr_penta(Penta::new([30, 80, 120, 60, 10]))),
            SprtVerdict::AcceptH0
        );
        assert_eq!(sprt.llr_penta(Penta::default()), 0.0);
        // The five-outcome solver on a case with a hand solution: observed 0.1/0.2/0.4/0.2/0.1
        // (score 1/2) under the constraint 1/2 is itself (θ = 0).
        let q = [0.1, 0.2, 0.4, 0.2, 0.1];
        let p = most_likely(q, PAIR_SCORES, 0.5);
        assert!((0..5).all(|i| close(p[i], q[i], 1e-12)), "{p:?}");
        assert_eq!("trinomial".parse::<StatsModel>(), Ok(StatsModel::Trinomial));
        assert_eq!("Penta".parse::<StatsModel>(), Ok(StatsModel::Pentanomial));
        assert!("binomial".parse::<StatsModel>().is_err());
    }

    #[test]
    fn sprt_parameters() {
        assert!(Sprt::parse("0,50", 0.05, 0.05).is_ok());
        assert!(Sprt::parse(" -5 , 5 ", 0.05, 0.05).is_ok());
        assert!(matches!(Sprt::parse("50", 0.05, 0.05), Err(SprtError::Syntax(_))));
        assert!(matches!(Sprt::parse("a,b", 0.05, 0.05), Err(SprtError::Syntax(_))));
        assert!(matches!(Sprt::parse("1,2,3", 0.05, 0.05), Err(SprtError::Syntax(_))));
        assert!(matches!(Sprt::parse("10,0", 0.05, 0.05), Err(SprtError::Order(..))));
        assert!(matches!(Sprt::parse("0,10", 0.0, 0.05), Err(SprtError::Rates(..))));
        assert!(matches!(Sprt::parse("0,10", 0.05, 0.7), Err(SprtError::Rates(..))));
    }
}
