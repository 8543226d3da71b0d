//! Another program as a player: a UCI engine run as a child process ([`UciProcess`]) and the
//! player that asks it for moves ([`UciPlayer`]).
//!
//! Everything the program says is outside input: lines are read on a thread of their own, at
//! most [`MAX_LINE`] bytes each (the rest of a longer line is dropped), undecodable bytes
//! replaced, and lines that mean nothing here are ignored. Every wait has a deadline: the start
//! (`uciok`, `readyok`) and moves without a clock wait at most the configured timeout, a move on
//! the clock at most the time left and the margin. A program that exits, closes its output or
//! stops answering loses the game it is playing, and is started again before the next one.
//!
//! The program's standard error is discarded. Writing to a program that has exited must not end
//! the caller: the process needs `SIGPIPE` ignored, as Rust programs have it by default.

use std::{
    io::{BufRead, BufReader, Read, Write},
    path::PathBuf,
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    time::{Duration, Instant},
};

use super::player::{Pick, PickError, PickFailure, Player, TimeView};
use crate::{
    rules::{game::Game, Color, Move, Position, Variant},
    search::Score,
};

/// The longest line read from a program, bytes; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// Lines read ahead of the caller at most (a program that floods its output waits).
const LINE_QUEUE: usize = 4096;

/// How long a program gets to answer `stop` after its time ran out before it is restarted.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// How long a program gets to end after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The default of [`UciEngineConfig::timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How to start a UCI engine and set it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciEngineConfig {
    /// The program.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (`None`: the caller's).
    pub dir: Option<PathBuf>,
    /// Options sent with `setoption` after `uciok`, in order (name, value).
    pub options: Vec<(String, String)>,
    /// The longest wait for the start (`uciok`, `readyok`) and for a move without a clock.
    pub timeout: Duration,
}

/// Why a UCI engine could not be started or set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("engine {command}: {reason}")]
pub struct UciEngineError {
    /// The program as given.
    pub command: String,
    /// What went wrong.
    pub reason: String,
}

/// What the program did wrong while it was asked for something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// It exited or closed its output (what happened, e.g. `exited (exit status: 3)`).
    Gone(String),
    /// It did not answer within this time.
    Silent(Duration),
}

impl Fault {
    fn reason(&self) -> String {
        match self {
            Fault::Gone(r) => r.clone(),
            Fault::Silent(d) => format!("no answer within {:.1} s", d.as_secs_f64()),
        }
    }
}

/// What a program answered to `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMove {
    /// The move text of `bestmove` (`(none)` when the line had none).
    pub text: String,
    /// The last score it reported (first line of several), if any.
    pub score: Option<Score>,
    /// The last depth it reported.
    pub depth: u32,
}

/// A running UCI engine.
pub struct UciProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    command: String,
    /// The `id name` it gave, if any.
    pub id_name: Option<String>,
    /// The options it announced: name and, for combos, the values offered.
    pub announced: Vec<(String, Vec<String>)>,
}

/// Reads lines from `from` into `to`, each at most [`MAX_LINE`] bytes, until the end of the
/// output, an error or a closed receiver.
fn read_lines(from: impl Read, to: mpsc::SyncSender<String>) {
    let mut reader = BufReader::new(from);
    let mut line: Vec<u8> = Vec::new();
    let mut dropping = false;
    loop {
        let (consumed, done) = {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return,
            };
            if buf.is_empty() {
                return;
            }
            match buf.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    if !dropping {
                        let room = MAX_LINE.saturating_sub(line.len());
                        line.extend_from_slice(&buf[..at.min(room)]);
                    }
                    (at + 1, true)
                }
                None => {
                    if !dropping {
                        let room = MAX_LINE.saturating_sub(line.len());
                        line.extend_from_slice(&buf[..buf.len().min(room)]);
                        dropping = line.len() >= MAX_LINE;
                    }
                    (buf.len(), false)
                }
            }
        };
        reader.consume(consumed);
        if done {
            let text = String::from_utf8_lossy(&line).trim().to_string();
            line.clear();
            dropping = false;
            if to.send(text).is_err() {
                return;
            }
        }
    }
}

impl UciProcess {
    /// Starts the program of `config`, waits for `uciok`, sets the variant (`UCI_Variant`, when
    /// the program offers it or the variant is not chess), the rule settings `rules`
    /// (`VariantRules`, when not empty) and the options of `config`, and waits for `readyok`.
    pub fn start(config: &UciEngineConfig, variant: Variant, rules: &str) -> Result<UciProcess, UciEngineError> {
        let command = config.command.display().to_string();
        let error = |reason: String| UciEngineError {
            command: command.clone(),
            reason,
        };
        let mut cmd = Command::new(&config.command);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| error(format!("cannot start it: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(error("no pipes to it".into()));
        };
        let (tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        std::thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || read_lines(stdout, tx))
            .map_err(|e| error(format!("cannot start a reading thread: {e}")))?;
        let mut p = UciProcess {
            child,
            stdin,
            lines,
            command: command.clone(),
            id_name: None,
            announced: Vec::new(),
        };
        p.handshake(config, variant, rules).map_err(error)?;
        Ok(p)
    }

    fn handshake(&mut self, config: &UciEngineConfig, variant: Variant, rules: &str) -> Result<(), String> {
        let timeout = config.timeout;
        self.send("uci").map_err(|f| f.reason())?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, timeout).map_err(|f| match f {
                Fault::Silent(_) => format!("no uciok within {:.1} s of uci", timeout.as_secs_f64()),
                f => f.reason(),
            })?;
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option ") {
                if let Some(option) = parse_option(rest) {
                    self.announced.push(option);
                }
            }
        }
        let given = |name: &str| config.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
        if !given("UCI_Variant") {
            match self.offered("UCI_Variant") {
                Some(vars) if !vars.is_empty() && !vars.iter().any(|v| v == variant.id()) => {
                    return Err(format!(
                    "its UCI_Variant does not offer {} (it offers {}); name the variant with option.UCI_Variant=...",
                    variant.id(),
                    vars.join(", ")
                ))
                }
                Some(_) => self
                    .send(&format!("setoption name UCI_Variant value {}", variant.id()))
                    .map_err(|f| f.reason())?,
                None if !variant.is_uci_default() => {
                    return Err(format!(
                        "it offers no UCI_Variant option, so it cannot be told to play {}",
                        variant.id()
                    ))
                }
                None => {}
            }
        }
        if !rules.is_empty() && !given("VariantRules") {
            if self.offered("VariantRules").is_none() {
                return Err(format!(
                    "it offers no VariantRules option for the rule settings '{rules}'"
                ));
            }
            self.send(&format!("setoption name VariantRules value {rules}"))
                .map_err(|f| f.reason())?;
        }
        for (name, value) in &config.options {
            self.send(&format!("setoption name {name} value {value}"))
                .map_err(|f| f.reason())?;
        }
        self.sync(timeout).map_err(|f| match f {
            Fault::Silent(_) => format!("no readyok within {:.1} s of isready", timeout.as_secs_f64()),
            f => f.reason(),
        })
    }

    /// The values offered by an announced option (empty for options that are not combos);
    /// `None` when the option was not announced.
    pub fn offered(&self, name: &str) -> Option<&[String]> {
        self.announced
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, vars)| vars.as_slice())
    }

    /// The program as given in the configuration.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        let written = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        match written {
            Ok(()) => Ok(()),
            Err(e) => Err(Fault::Gone(self.gone_reason(&format!("cannot write to it ({e})")))),
        }
    }

    /// The next line, waiting until `deadline` at most (`waited` is the whole wait, for the
    /// message).
    fn next_line(&mut self, deadline: Instant, waited: Duration) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Silent(waited)),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Gone(self.gone_reason("closed its output"))),
        }
    }

    /// Why the program is gone: its exit status if it ended (waiting a moment for it), else
    /// `otherwise`.
    fn gone_reason(&mut self, otherwise: &str) -> String {
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("exited ({status})"),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return otherwise.to_string(),
            }
        }
    }

    /// Drops lines already read (leftovers of an earlier exchange).
    fn discard_pending(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// `isready`, then waits for `readyok` (other lines are skipped).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            if self.next_line(deadline, timeout)? == "readyok" {
                return Ok(());
            }
        }
    }

    /// `ucinewgame`, then `isready` and its `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.discard_pending();
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// Sends `position` and `go`, then reads until `bestmove`, at most `wait`. The scores and
    /// depths of `info` lines on the way are kept (only the first line of a multi-PV report).
    pub fn go(&mut self, position: &str, go: &str, wait: Duration) -> Result<BestMove, Fault> {
        self.discard_pending();
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + wait;
        let (mut score, mut depth) = (None, 0);
        loop {
            let line = self.next_line(deadline, wait)?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("bestmove") => {
                    return Ok(BestMove {
                        text: tokens.next().unwrap_or("(none)").to_string(),
                        score,
                        depth,
                    })
                }
                Some("info") => {
                    let info = parse_info(&line);
                    if info.multipv.is_none_or(|k| k == 1) {
                        score = info.score.or(score);
                        depth = info.depth.unwrap_or(depth);
                    }
                }
                _ => {}
            }
        }
    }

    /// After a search that ran out of time: `stop`, and waits a moment for its `bestmove`.
    /// Whether it came (the program is in step again).
    pub fn stop_search(&mut self) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + STOP_GRACE;
        while let Ok(line) = self.next_line(deadline, STOP_GRACE) {
            if line.starts_with("bestmove") {
                return true;
            }
        }
        false
    }
}

impl Drop for UciProcess {
    /// `quit`; a program still running a moment later is killed.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An `option` line after `option `: its name and, for a combo, the values offered.
fn parse_option(rest: &str) -> Option<(String, Vec<String>)> {
    let rest = rest.trim().strip_prefix("name ")?;
    let (name, tail) = match rest.find(" type ") {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, ""),
    };
    let mut vars = Vec::new();
    let mut words = tail.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w == "var" {
            let mut value = Vec::new();
            while let Some(&next) = words.peek() {
                if ["var", "default", "min", "max", "type"].contains(&next) {
                    break;
                }
                value.push(next);
                words.next();
            }
            vars.push(value.join(" "));
        }
    }
    let name = name.trim();
    (!name.is_empty()).then(|| (name.to_string(), vars))
}

/// What an `info` line says that a match uses.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score cp N` or `score mate N` (bounds included).
    pub score: Option<Score>,
}

/// Reads an `info` line; what cannot be read is left out.
pub fn parse_info(line: &str) -> Info {
    let mut info = Info::default();
    let mut tokens = line.split_whitespace();
    while let Some(t) = tokens.next() {
        match t {
            "string" => break,
            "depth" => info.depth = tokens.next().and_then(|v| v.parse().ok()),
            "multipv" => info.multipv = tokens.next().and_then(|v| v.parse().ok()),
            "score" => {
                let kind = tokens.next();
                let value = tokens.next().and_then(|v| v.parse::<i32>().ok());
                info.score = match (kind, value) {
                    (Some("cp"), Some(cp)) => Some(Score::Cp(cp.clamp(-90_000, 90_000))),
                    (Some("mate"), Some(m)) => Some(Score::Mate(m.clamp(-10_000, 10_000))),
                    _ => info.score,
                };
            }
            "pv" => break,
            _ => {}
        }
    }
    info
}

/// The `go` command for the side to move: clocks (`wtime btime winc binc movestogo`) or
/// `movetime`, and the per-move limits `depth` and `nodes`; `go infinite` never (a search with
/// none of them is sent `go` with nothing, which UCI engines take as infinite: the caller gives
/// every side some limit).
pub fn go_command(time: &TimeView, turn: Color, depth: Option<u32>, nodes: Option<u64>) -> String {
    let mut go = String::from("go");
    let mover = time.clock(turn);
    if let Some(ms) = mover.and_then(|c| c.move_time_ms()) {
        go.push_str(&format!(" movetime {ms}"));
    } else if mover.is_some() {
        for (side, t, i) in [(Color::White, "wtime", "winc"), (Color::Black, "btime", "binc")] {
            // The opponent's clock as it is; a side without a clock shows the mover's.
            let Some(c) = time.clock(side).or(mover).and_then(|c| c.search_clock()) else {
                continue;
            };
            go.push_str(&format!(" {t} {} {i} {}", c.time_ms.max(1), c.inc_ms));
        }
        if let Some(m) = mover.and_then(|c| c.search_clock()).and_then(|c| c.moves_to_go) {
            go.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(d) = depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

/// A UCI engine as a player, started again after it failed.
pub struct UciPlayer {
    config: UciEngineConfig,
    variant: Variant,
    rules: String,
    depth: Option<u32>,
    nodes: Option<u64>,
    process: Option<UciProcess>,
    /// What went wrong before the move asked for now (the game is lost by it).
    fault: Option<String>,
    /// Restarts so far.
    restarts: usize,
    /// The moves of the current game as UCI text, and the position after them.
    texts: Vec<String>,
    at: Option<Position>,
}

impl UciPlayer {
    /// Starts the engine for `variant` under the rule settings `rules`; its searches are
    /// limited by the clocks and by `depth` and `nodes`.
    pub fn start(
        config: UciEngineConfig,
        variant: Variant,
        rules: &str,
        depth: Option<u32>,
        nodes: Option<u64>,
    ) -> Result<UciPlayer, UciEngineError> {
        let process = UciProcess::start(&config, variant, rules)?;
        Ok(UciPlayer {
            config,
            variant,
            rules: rules.to_string(),
            depth,
            nodes,
            process: Some(process),
            fault: None,
            restarts: 0,
            texts: Vec::new(),
            at: None,
        })
    }

    /// Starts the engine again if it failed; whether it had to be.
    pub fn revive(&mut self) -> Result<bool, UciEngineError> {
        if self.process.is_some() {
            return Ok(false);
        }
        self.fault = None;
        self.process = Some(UciProcess::start(&self.config, self.variant, &self.rules)?);
        self.restarts += 1;
        Ok(true)
    }

    /// How many times the engine was started again.
    pub fn restarts(&self) -> usize {
        self.restarts
    }

    /// The running process, if any.
    pub fn process(&self) -> Option<&UciProcess> {
        self.process.as_ref()
    }

    /// The `position` command for `game`, from the start position when the game starts there.
    fn position_command(&mut self, game: &Game) -> String {
        let moves = game.moves();
        if self.at.is_none() || self.texts.len() > moves.len() {
            self.texts.clear();
            self.at = Some(game.start().clone());
        }
        if let Some(pos) = self.at.as_mut() {
            for &m in &moves[self.texts.len()..] {
                self.texts.push(pos.uci(m));
                pos.play_unchecked(m);
            }
        }
        let start = game.start();
        let mut cmd = if start.fen() == start.tables().spec.start_fen {
            "position startpos".to_string()
        } else {
            format!("position fen {}", start.fen())
        };
        if !self.texts.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&self.texts.join(" "));
        }
        cmd
    }

    /// Gives up the process after a failure: it is started again before the next game.
    fn drop_process(&mut self) {
        self.process = None;
    }
}

impl Player for UciPlayer {
    fn new_game(&mut self, _game: &Game) {
        self.texts.clear();
        self.at = None;
        let timeout = self.config.timeout;
        let Some(p) = self.process.as_mut() else {
            self.fault = Some("not running".into());
            return;
        };
        if let Err(f) = p.new_game(timeout) {
            self.fault = Some(f.reason());
            self.drop_process();
        }
    }

    fn pick(&mut self, game: &Game) -> Result<Pick, PickError> {
        self.pick_timed(game, &TimeView::default()).map_err(|f| match f {
            PickFailure::Illegal(t) | PickFailure::Failed(t) => PickError(t),
            PickFailure::NoAnswer { waited } => PickError(format!("no move within {:.1} s", waited.as_secs_f64())),
        })
    }

    fn pick_timed(&mut self, game: &Game, time: &TimeView) -> Result<Pick, PickFailure> {
        if let Some(reason) = self.fault.take() {
            return Err(PickFailure::Failed(reason));
        }
        let turn = game.position().turn();
        let position = self.position_command(game);
        let go = go_command(time, turn, self.depth, self.nodes);
        let wait = time.allowance(turn).unwrap_or(self.config.timeout);
        let timed = time.clock(turn).is_some();
        let Some(p) = self.process.as_mut() else {
            return Err(PickFailure::Failed("not running".into()));
        };
        let answer = match p.go(&position, &go, wait) {
            Ok(a) => a,
            Err(Fault::Silent(waited)) => {
                // Out of time: a program that answers `stop` at once keeps playing; one that does
                // not (or has no clock to excuse it) is started again for the next game.
                if !(timed && p.stop_search()) {
                    self.drop_process();
                }
                return Err(PickFailure::NoAnswer { waited });
            }
            Err(Fault::Gone(reason)) => {
                self.drop_process();
                return Err(PickFailure::Failed(reason));
            }
        };
        let pos = game.position();
        let best = match answer.text.as_str() {
            "0000" => Move::NULL,
            text => pos
                .parse_uci(text)
                .map_err(|_| PickFailure::Illegal(text.to_string()))?,
        };
        Ok(Pick {
            best,
            score: answer.score.unwrap_or(Score::Cp(0)),
            depth: answer.depth,
            scored: answer.score.is_some(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::clock::{SideClock, TimeControl};

    #[test]
    fn reads_option_lines() {
        assert_eq!(
            parse_option("name Hash type spin default 16 min 1 max 65536"),
            Some(("Hash".to_string(), vec![]))
        );
        assert_eq!(
            parse_option("name UCI_Variant type combo default chess var chess var persian-princess var x y"),
            Some((
                "UCI_Variant".to_string(),
                vec!["chess".to_string(), "persian-princess".to_string(), "x y".to_string()]
            ))
        );
        assert_eq!(
            parse_option("name Move Overhead type spin default 30"),
            Some(("Move Overhead".to_string(), vec![]))
        );
        assert_eq!(parse_option("garbage"), None);
        assert_eq!(parse_option("name "), None);
    }

    #[test]
    fn reads_info_lines() {
        let i = parse_info("info depth 12 seldepth 20 multipv 1 score cp -35 nodes 1000 pv e2e4 e7e5");
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.multipv, Some(1));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(parse_info("info score mate -3 depth 9").score, Some(Score::Mate(-3)));
        assert_eq!(parse_info("info score cp 20 lowerbound").score, Some(Score::Cp(20)));
        assert_eq!(parse_info("info string score cp 20").score, None);
        assert_eq!(parse_info("info score cp x depth y"), Info::default());
        assert_eq!(parse_info("info score"), Info::default());
        assert_eq!(parse_info("info score cp 99999999").score, Some(Score::Cp(90_000)));
    }

    #[test]
    fn go_commands() {
        let clock = |tc: &str| Some(SideClock::new(tc.parse().expect("valid")));
        let mut time = TimeView {
            clocks: crate::rules::ByColor([clock("40/60+0.6"), clock("10+0.1")]),
            margins_ms: crate::rules::ByColor([50, 50]),
        };
        assert_eq!(
            go_command(&time, Color::White, None, None),
            "go wtime 60000 winc 600 btime 10000 binc 100 movestogo 40"
        );
        assert_eq!(
            go_command(&time, Color::Black, None, Some(500)),
            "go wtime 60000 winc 600 btime 10000 binc 100 nodes 500"
        );
        time.clocks.0[1] = Some(SideClock::new(TimeControl::MoveTime(100)));
        assert_eq!(
            go_command(&time, Color::Black, Some(3), None),
            "go movetime 100 depth 3"
        );
        assert_eq!(
            go_command(&TimeView::default(), Color::White, None, Some(2000)),
            "go nodes 2000"
        );
    }

    #[test]
    fn lines_are_bounded() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("uciok\n{long}\nreadyok\r\nlast");
        let (tx, rx) = mpsc::sync_channel(8);
        read_lines(text.as_bytes(), tx);
        let lines: Vec<String> = rx.iter().collect();
        assert_eq!(lines.len(), 3, "an unterminated last line is not a line");
        assert_eq!(lines[0], "uciok");
        assert_eq!(lines[1].len(), MAX_LINE);
        assert_eq!(lines[2], "readyok");
        let (tx, rx) = mpsc::sync_channel(8);
        read_lines(&b"\xff\xfebestmove e2e4\n"[..], tx);
        assert_eq!(rx.recv().ok().as_deref(), Some("\u{fffd}\u{fffd}bestmove e2e4"));
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let config = UciEngineConfig {
            command: PathBuf::from("/nonexistent/engine"),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            timeout: Duration::from_secs(1),
        };
        let e = UciProcess::start(&config, Variant::Chess, "")
            .err()
            .expect("no such program");
        assert!(
            e.to_string().starts_with("engine /nonexistent/engine: cannot start it"),
            "{e}"
        );
    }
}
