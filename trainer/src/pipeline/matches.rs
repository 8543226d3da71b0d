//! A match's result as the pipeline needs it: the SPRT's verdict, W/D/L and the Elo estimate,
//! from the match in this process ([`MatchSummary::of_report`]) or from a match file written by
//! `engine match`, `engine match-merge` (the Ray driver's summary.txt) or an earlier pipeline run
//! ([`MatchSummary::parse`]).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use engine::tournament::{EloEstimate, MatchReport, SprtVerdict, StatsModel};

/// What the pipeline reads from a finished match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchSummary {
    /// The SPRT's verdict (`None`: no SPRT line, e.g. a fixed-length match or an unfinished file).
    pub verdict: Option<SprtVerdict>,
    /// Wins, draws and losses of the first player.
    pub wdl: Option<(u32, u32, u32)>,
    /// The Elo difference with its interval, e.g. `+39.0 (+9.3 .. +69.3)`.
    pub elo: Option<String>,
}

impl MatchSummary {
    /// The summary of a match file; `None` when there is no such file.
    pub fn read(path: &Path) -> Result<Option<MatchSummary>> {
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Some(MatchSummary::parse(&text)))
    }

    /// Reads the summary lines of a match's output (`W/D/L: `, `Elo difference: `, `SPRT ...`);
    /// lines it does not know are skipped, figures it cannot read are left out.
    pub fn parse(text: &str) -> MatchSummary {
        let mut out = MatchSummary::default();
        for line in text.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("W/D/L: ") {
                out.wdl = out.wdl.or_else(|| parse_wdl(rest));
            } else if let Some(rest) = line.strip_prefix("Elo difference: ") {
                out.elo = out.elo.or_else(|| Some(tidy_elo(rest)));
            } else if line.starts_with("SPRT ") {
                // The verdict closes the line (the engine's `SprtVerdict` display).
                let verdict = [SprtVerdict::AcceptH1, SprtVerdict::AcceptH0, SprtVerdict::Continue]
                    .into_iter()
                    .find(|v| line.ends_with(&v.to_string()));
                if verdict.is_some() {
                    out.verdict = verdict;
                }
            }
        }
        out
    }

    /// The summary of a match played in this process.
    pub fn of_report(report: &MatchReport) -> MatchSummary {
        let estimate = match report.stats {
            StatsModel::Pentanomial if report.penta.pairs() > 0 => EloEstimate::from_penta(report.penta),
            _ => EloEstimate::from_wdl(report.wdl),
        };
        MatchSummary {
            verdict: report.sprt.map(|(_, _, v)| v),
            wdl: Some((report.wdl.wins, report.wdl.draws, report.wdl.losses)),
            elo: estimate.map(|e| tidy_elo(&e.to_string())),
        }
    }

    /// The verdict as the match prints it ("" without one).
    pub fn verdict_text(&self) -> String {
        self.verdict.map_or(String::new(), |v| v.to_string())
    }

    /// W/D/L as `w/d/l` ("" when unknown).
    pub fn wdl_text(&self) -> String {
        self.wdl.map_or(String::new(), |(w, d, l)| format!("{w}/{d}/{l}"))
    }

    /// The Elo difference for the rounds table ("-" when unknown).
    pub fn elo_text(&self) -> String {
        self.elo.clone().unwrap_or_else(|| "-".to_string())
    }
}

impl MatchSummary {
    /// Games played (0 when the file gives no W/D/L).
    pub fn games(&self) -> usize {
        self.wdl.map_or(0, |(w, d, l)| (w + d + l) as usize)
    }

    /// The first player's score, 0 to 1 (`None` without games).
    pub fn score(&self) -> Option<f64> {
        let (w, d, l) = self.wdl?;
        let games = w + d + l;
        (games > 0).then(|| (f64::from(w) + f64::from(d) / 2.0) / f64::from(games))
    }
}

/// A rung of the reference ladder: the round-1 net at a multiple of the match nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    /// The multiple of the candidate's nodes the ladder net searches.
    pub multiple: u64,
    /// The ladder net's nodes per move.
    pub nodes: u64,
    /// The match's result, the candidate first.
    pub summary: MatchSummary,
    /// The match file.
    pub file: PathBuf,
}

impl Rung {
    /// Beaten: the candidate scored more than half the points.
    pub fn beaten(&self) -> bool {
        self.summary.score().is_some_and(|s| s > 0.5)
    }
}

/// The fixed matches of a candidate beside its SPRT.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Yardsticks {
    /// At equal time against the evaluation the SPRT played.
    pub time: Option<MatchSummary>,
    /// Its match file.
    pub time_file: Option<PathBuf>,
    /// Against the round-1 net, one rung per multiple of the nodes.
    pub ladder: Vec<Rung>,
}

impl Yardsticks {
    /// The equal-time match for the rounds table: Elo (W/D/L), or "-".
    pub fn time_text(&self) -> String {
        self.time
            .as_ref()
            .map_or_else(|| "-".to_string(), |s| format!("{} ({})", s.elo_text(), s.wdl_text()))
    }

    /// The ladder for the rounds table: the score per rung and how many were beaten
    /// (`x1 62.5 %, x2 48.0 % (1 of 2)`), or "-".
    pub fn ladder_text(&self) -> String {
        if self.ladder.is_empty() {
            return "-".to_string();
        }
        let rungs: Vec<String> = self
            .ladder
            .iter()
            .map(|r| {
                let score = r
                    .summary
                    .score()
                    .map_or_else(|| "?".to_string(), |s| format!("{:.1} %", 100.0 * s));
                format!("x{} {score}", r.multiple)
            })
            .collect();
        let beaten = self.ladder.iter().filter(|r| r.beaten()).count();
        format!("{} ({beaten} of {})", rungs.join(", "), self.ladder.len())
    }
}

/// `12/3/5 (wins, draws, losses of ...)` -> (12, 3, 5).
fn parse_wdl(text: &str) -> Option<(u32, u32, u32)> {
    let figures = text.split_whitespace().next()?;
    let mut parts = figures.split('/').map(|p| p.parse::<u32>().ok());
    match (parts.next()?, parts.next()?, parts.next()?, parts.next()) {
        (Some(w), Some(d), Some(l), None) => Some((w, d, l)),
        _ => None,
    }
}

/// The Elo text of the rounds table: the estimate without the words "95% interval".
fn tidy_elo(text: &str) -> String {
    text.replace("95% interval ", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: &str = "\
Match r2 (nodes=40,eval=runs/r2-all/net.nnue) vs hce (nodes=40,eval=hce), Celtic Citadel, 4 games, concurrency 2

Match r2 vs hce (celtic-citadel): 4 of 4 games in 1.2 s
W/D/L: 1/2/1 (wins, draws, losses of r2)
Score: 50.0% (2/4)
Pairs: 0/1/0/1/0 (scoring 0, 1/2, 1, 3/2, 2 points; Elo and SPRT from pairs)
Elo difference: +0.0 (95% interval -191.2 .. +191.2)
LOS: 50.0%
White/draw/Black: 1/2/1
SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR -0.01 [-2.94, 2.94] inconclusive
Games appended to runs/r2-all/match.celtic-citadel.pgn
";

    #[test]
    fn reads_the_engine_summary() {
        let s = MatchSummary::parse(OUTPUT);
        assert_eq!(s.verdict, Some(SprtVerdict::Continue));
        assert_eq!(s.wdl, Some((1, 2, 1)));
        assert_eq!(s.elo.as_deref(), Some("+0.0 (-191.2 .. +191.2)"));
        assert_eq!(s.verdict_text(), "inconclusive");
        assert_eq!(s.wdl_text(), "1/2/1");
        let h1 = OUTPUT.replace("] inconclusive", "] H1 accepted");
        assert_eq!(MatchSummary::parse(&h1).verdict, Some(SprtVerdict::AcceptH1));
        let h0 = OUTPUT.replace("] inconclusive", "] H0 accepted");
        assert_eq!(MatchSummary::parse(&h0).verdict, Some(SprtVerdict::AcceptH0));
    }

    #[test]
    fn ladder_and_time_texts() {
        let rung = |multiple: u64, wdl| Rung {
            multiple,
            nodes: 40 * multiple,
            summary: MatchSummary {
                wdl: Some(wdl),
                ..MatchSummary::default()
            },
            file: PathBuf::new(),
        };
        let yard = Yardsticks {
            time: Some(MatchSummary::parse(OUTPUT)),
            time_file: None,
            ladder: vec![rung(1, (5, 2, 1)), rung(2, (2, 4, 2)), rung(4, (0, 0, 0))],
        };
        assert!(yard.ladder[0].beaten());
        // Exactly half is not beaten, nor a rung without games.
        assert!(!yard.ladder[1].beaten());
        assert!(!yard.ladder[2].beaten());
        assert_eq!(yard.ladder_text(), "x1 75.0 %, x2 50.0 %, x4 ? (1 of 3)");
        assert_eq!(yard.time_text(), "+0.0 (-191.2 .. +191.2) (1/2/1)");
        assert_eq!(Yardsticks::default().time_text(), "-");
        assert_eq!(Yardsticks::default().ladder_text(), "-");
    }

    #[test]
    fn unfinished_or_foreign_text_has_no_verdict() {
        let cut: String = OUTPUT.lines().take(4).collect::<Vec<_>>().join("\n");
        let s = MatchSummary::parse(&cut);
        assert_eq!(s.verdict, None);
        assert_eq!(s.wdl, Some((1, 2, 1)));
        assert_eq!(
            MatchSummary::parse("garbage\nW/D/L: x/y\nSPRT nothing"),
            MatchSummary::default()
        );
        assert_eq!(MatchSummary::default().elo_text(), "-");
    }
}
