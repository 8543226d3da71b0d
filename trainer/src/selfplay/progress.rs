//! Progress of a run: the progress bar on a terminal and the log lines (per shard), or plain
//! lines on standard error when it is not a terminal; nothing with `--quiet`.

use std::{io::IsTerminal, time::Duration};

use anyhow::{anyhow, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{shard::ShardSummary, summary::duration_text};
use crate::data::io::thousands;

/// The progress display of a run.
pub(super) struct Progress {
    bar: ProgressBar,
    quiet: bool,
    tty: bool,
}

impl Progress {
    /// A display for a run of `games` games in all, `done` of them already in the directory.
    pub fn new(quiet: bool, games: u64, done: u64) -> Result<Progress> {
        let tty = std::io::stderr().is_terminal();
        let bar = if quiet || !tty {
            ProgressBar::hidden()
        } else {
            let b = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr_with_hz(4));
            b.set_style(
                ProgressStyle::with_template("[{elapsed_precise}] {bar:24.cyan/blue} {pos}/{len} games | {msg}")
                    .map_err(|e| anyhow!("progress bar template: {e}"))?
                    .progress_chars("=> "),
            );
            b.set_position(done);
            b
        };
        Ok(Progress { bar, quiet, tty })
    }

    /// Prints a log line (above the bar on a terminal).
    pub fn log(&self, line: String) {
        match (self.quiet, self.tty) {
            (true, _) => {}
            (false, true) => self.bar.println(line),
            (false, false) => eprintln!("{line}"),
        }
    }

    /// Shows the counts after a finished game: `session` holds this session's games, `done` the
    /// games in the directory before it, `planned` this session's games.
    pub fn game_finished(
        &self,
        session: &ShardSummary,
        done: u64,
        planned: usize,
        shards: (u64, u64),
        elapsed: Duration,
    ) {
        let s = session;
        let secs = elapsed.as_secs_f64().max(1e-3);
        let left = planned as f64 - s.games as f64;
        let eta = Duration::from_secs_f64(left * secs / s.games as f64);
        self.bar.set_position(done + s.games);
        self.bar.set_message(format!(
            "{} pos ({:.0}/s) | W/D/L {}/{}/{} | shards {}/{} | ETA {}",
            thousands(s.positions),
            s.positions as f64 / secs,
            s.results.white,
            s.results.draw,
            s.results.black,
            shards.0,
            shards.1,
            duration_text(eta)
        ));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
