//! The outcome of a match: the running tally of finished games and the closing summary.

use std::{collections::BTreeMap, time::Duration};

use super::{
    elo::{los, los_penta, EloEstimate, Penta, Sprt, SprtVerdict, StatsModel, Wdl},
    record::{GameRecord, ResultLine},
};
use crate::{
    play::GameResult,
    rules::{variant::GamePoints, Variant},
};

/// The counts of the games finished so far.
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    /// Wins, draws and losses of the first configuration.
    pub wdl: Wdl,
    /// Wins of White, draws, wins of Black.
    pub by_colour: Wdl,
    /// Finished game pairs (games `2p + 1` and `2p + 2`) by the first configuration's points.
    pub penta: Penta,
    /// Pairs with one game finished: pair index and the first configuration's points in it,
    /// times two.
    pub half_pairs: BTreeMap<usize, usize>,
    /// How many games ended each way, by description, in order of first appearance.
    pub terminations: Vec<(String, usize)>,
    /// Games lost by an engine's fault (an illegal move, a program that failed): game number
    /// and what happened.
    pub faults: Vec<(usize, String)>,
    /// Game points of the first and the second configuration, in variants whose rules count
    /// them (Citadel: 3 a checkmate, 5 the Green Gem, 1 each a draw).
    pub game_points: Option<(GamePoints, [u64; 2])>,
}

impl Tally {
    /// Counts a finished game.
    pub fn add(&mut self, record: &GameRecord) {
        self.add_line(&ResultLine::of(record));
    }

    /// Counts a finished game from what its result line says.
    pub fn add_line(&mut self, line: &ResultLine) {
        let g = line.first_wdl();
        let wdl = self.wdl;
        self.wdl = Wdl::new(wdl.wins + g.wins, wdl.draws + g.draws, wdl.losses + g.losses);
        let points = 2 * g.wins as usize + g.draws as usize;
        let pair = (line.number - 1) / 2;
        match self.half_pairs.remove(&pair) {
            Some(other) => self.penta.counts[other + points] += 1,
            None => {
                self.half_pairs.insert(pair, points);
            }
        }
        match line.result {
            GameResult::WhiteWins => self.by_colour.wins += 1,
            GameResult::Draw => self.by_colour.draws += 1,
            GameResult::BlackWins => self.by_colour.losses += 1,
        }
        match self.terminations.iter_mut().find(|(d, _)| *d == line.termination) {
            Some((_, c)) => *c += 1,
            None => self.terminations.push((line.termination.clone(), 1)),
        }
        if let Some(points) = line.variant.spec().game_points {
            let won = if line.green_gem { points.green_gem } else { points.win };
            let (first, second) = if g.draws > 0 {
                (points.draw, points.draw)
            } else if g.wins > 0 {
                (won, 0)
            } else {
                (0, won)
            };
            let (_, sum) = self.game_points.get_or_insert((points, [0, 0]));
            sum[0] += u64::from(first);
            sum[1] += u64::from(second);
        }
        if let Some(text) = &line.fault {
            self.faults.push((line.number, text.clone()));
        }
    }

    /// The log-likelihood ratio of `sprt` for the games so far, under `model` (pairs finished so
    /// far for the pentanomial one).
    pub fn llr(&self, sprt: &Sprt, model: StatsModel) -> f64 {
        match model {
            StatsModel::Pentanomial => sprt.llr_penta(self.penta),
            StatsModel::Trinomial => sprt.llr(self.wdl),
        }
    }

    /// The terminations, most frequent first (ties by description).
    pub fn sorted_terminations(&self) -> Vec<(String, usize)> {
        let mut terminations = self.terminations.clone();
        terminations.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        terminations
    }
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Name of the first configuration.
    pub first: String,
    /// Name of the second configuration.
    pub second: String,
    /// The variant.
    pub variant: Variant,
    /// Games the match was set to play.
    pub games_planned: usize,
    /// Wins, draws and losses of the first configuration.
    pub wdl: Wdl,
    /// Wins of White, draws, wins of Black (as White's tally).
    pub by_colour: Wdl,
    /// Finished game pairs by the first configuration's points (0, 1/2, 1, 3/2, 2).
    pub penta: Penta,
    /// The model of the Elo interval and the SPRT.
    pub stats: StatsModel,
    /// How many games ended each way, by description, most frequent first.
    pub terminations: Vec<(String, usize)>,
    /// Games lost by an engine's fault: a null or illegal move, a program that exited or stopped
    /// answering (game number and what happened).
    pub faults: Vec<(usize, String)>,
    /// Game points of the first and the second configuration, in variants whose rules count
    /// them (Citadel).
    pub game_points: Option<(GamePoints, [u64; 2])>,
    /// The SPRT, its LLR and verdict, if one was run.
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// Whether the SPRT ended the match before all games were played.
    pub stopped_early: bool,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// How many times the program of the first and of the second configuration was started
    /// again after it failed (0 for the engine in-process).
    pub restarts: [usize; 2],
    /// Games counted from the results file of an earlier run of the match (resumed), not
    /// played by this one.
    pub resumed: usize,
}

impl MatchReport {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wdl.games()
    }

    /// The closing summary, one line per figure.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let n = self.wdl.games();
        out.push(format!(
            "Match {} vs {} ({}): {} of {} games{} in {:.1} s{}",
            self.first,
            self.second,
            self.variant,
            n,
            self.games_planned,
            if self.stopped_early {
                " (stopped by the SPRT)"
            } else {
                ""
            },
            self.elapsed.as_secs_f64(),
            if self.resumed > 0 {
                format!(
                    " ({} of them played by an earlier run, counted from its results file)",
                    self.resumed
                )
            } else {
                String::new()
            }
        ));
        out.push(format!(
            "W/D/L: {}/{}/{} (wins, draws, losses of {})",
            self.wdl.wins, self.wdl.draws, self.wdl.losses, self.first
        ));
        out.push(format!(
            "Score: {:.1}% ({}/{})",
            100.0 * self.wdl.score(),
            trim_points(self.wdl.points()),
            n
        ));
        if self.penta.pairs() > 0 {
            out.push(format!(
                "Pairs: {} (scoring 0, 1/2, 1, 3/2, 2 points; Elo and SPRT from {})",
                self.penta,
                match self.stats {
                    StatsModel::Pentanomial => "pairs",
                    StatsModel::Trinomial => "single games",
                }
            ));
        }
        let estimate = match self.stats {
            StatsModel::Pentanomial if self.penta.pairs() > 0 => EloEstimate::from_penta(self.penta),
            _ => EloEstimate::from_wdl(self.wdl),
        };
        match estimate {
            Some(e) => out.push(format!("Elo difference: {e}")),
            None => out.push("Elo difference: - (no games)".to_string()),
        }
        let los = match self.stats {
            StatsModel::Pentanomial if self.penta.pairs() > 0 => los_penta(self.penta),
            _ => los(self.wdl),
        };
        out.push(format!("LOS: {:.1}%", 100.0 * los));
        out.push(format!(
            "White/draw/Black: {}/{}/{}",
            self.by_colour.wins, self.by_colour.draws, self.by_colour.losses
        ));
        if !self.terminations.is_empty() {
            let parts: Vec<String> = self.terminations.iter().map(|(d, c)| format!("{d} {c}")).collect();
            out.push(format!("Terminations: {}", parts.join(", ")));
        }
        if let Some((p, [first, second])) = self.game_points {
            out.push(format!(
                "Game points ({} a win, {} a Green Gem, {} each a draw): {first} for {}, {second} for {}",
                p.win, p.green_gem, p.draw, self.first, self.second
            ));
        }
        if let Some((sprt, llr, verdict)) = self.sprt {
            out.push(format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                llr,
                sprt.lower_bound(),
                sprt.upper_bound(),
                verdict
            ));
        }
        if self.restarts.iter().any(|&r| r > 0) {
            out.push(format!(
                "Engines started again after a failure: {} {}, {} {}",
                self.first, self.restarts[0], self.second, self.restarts[1]
            ));
        }
        if !self.faults.is_empty() {
            out.push(format!(
                "WARNING: {} game(s) lost by an engine's fault (an illegal move, a crash, no answer):",
                self.faults.len()
            ));
            for (g, what) in &self.faults {
                out.push(format!("  game {g}: {what}"));
            }
        }
        out
    }
}

fn trim_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}
