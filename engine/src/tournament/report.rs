//! The outcome of a match: the running tally of finished games and the closing summary.

use std::time::Duration;

use super::{
    elo::{los, EloEstimate, Sprt, SprtVerdict, Wdl},
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
    /// How many games ended each way, by description, in order of first appearance.
    pub terminations: Vec<(String, usize)>,
    /// Games lost by a null or illegal move: game number and what happened.
    pub illegal_moves: Vec<(usize, String)>,
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
        if let Some(text) = &line.illegal {
            self.illegal_moves.push((line.number, text.clone()));
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
    /// How many games ended each way, by description, most frequent first.
    pub terminations: Vec<(String, usize)>,
    /// Games lost by a null or illegal move (a bug in the engine): game number and what happened.
    pub illegal_moves: Vec<(usize, String)>,
    /// Game points of the first and the second configuration, in variants whose rules count
    /// them (Citadel).
    pub game_points: Option<(GamePoints, [u64; 2])>,
    /// The SPRT, its LLR and verdict, if one was run.
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// Whether the SPRT ended the match before all games were played.
    pub stopped_early: bool,
    /// Wall-clock time.
    pub elapsed: Duration,
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
            "Match {} vs {} ({}): {} of {} games{} in {:.1} s",
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
            self.elapsed.as_secs_f64()
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
        match EloEstimate::from_wdl(self.wdl) {
            Some(e) => out.push(format!("Elo difference: {e}")),
            None => out.push("Elo difference: - (no games)".to_string()),
        }
        out.push(format!("LOS: {:.1}%", 100.0 * los(self.wdl)));
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
        if !self.illegal_moves.is_empty() {
            out.push(format!(
                "WARNING: {} game(s) lost by a null or illegal move (engine bug):",
                self.illegal_moves.len()
            ));
            for (g, what) in &self.illegal_moves {
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
