//! The UCI front end, end to end: the `engine` binary is spawned with piped stdin and stdout and
//! driven through scripted sessions. Every read has a timeout, so no test can hang; timeouts are
//! generous because CI machines are slow, and no test asserts how fast the engine searches.

#![allow(clippy::unwrap_used)]

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, ExitStatus, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    thread,
    time::{Duration, Instant},
};

use engine::rules::{perft, Color, Move, Outcome, Piece, Position, Setup, Variant};

/// How long any single expected line may take to arrive.
const TIMEOUT: Duration = Duration::from_secs(20);

/// A running engine process.
struct Uci {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far (for failure messages).
    log: Vec<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_persian-engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine binary starts");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    /// A fresh engine on `variant` (already told so, and synchronised).
    fn with_variant(variant: Variant) -> Uci {
        let mut uci = Uci::start();
        uci.send(&format!("setoption name UCI_Variant value {}", variant.id()));
        assert_eq!(uci.sync(), Vec::<String>::new(), "setting the variant prints nothing");
        uci
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn context(&self) -> String {
        let tail: Vec<&String> = self
            .log
            .iter()
            .rev()
            .take(30)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!(
            "last lines read:\n{}",
            tail.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
        )
    }

    /// The next line, waiting at most `timeout` (`Disconnected` once the output is closed).
    fn next_line_within(&mut self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        let line = self.lines.recv_timeout(timeout)?;
        self.log.push(line.clone());
        Ok(line)
    }

    /// The next line; fails the test on timeout or end of output.
    fn next_line(&mut self) -> String {
        match self.next_line_within(TIMEOUT) {
            Ok(l) => l,
            Err(e) => panic!("no line from the engine ({e:?})\n{}", self.context()),
        }
    }

    /// Lines up to and including the first one for which `done` holds.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = self.next_line();
            let stop = done(&l);
            lines.push(l);
            if stop {
                return lines;
            }
        }
    }

    /// Sends `isready` and returns the lines printed before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `go <params>` and returns the `info` lines and the move of the `bestmove` line.
    fn go(&mut self, params: &str) -> (Vec<String>, String) {
        self.send(&format!("go {params}"));
        self.wait_bestmove()
    }

    /// The search's `info` lines (the `info string` line naming the evaluation is checked and
    /// left out) and the move of the `bestmove` line.
    fn wait_bestmove(&mut self) -> (Vec<String>, String) {
        let mut lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines.pop().unwrap();
        let strings: Vec<String> = lines.iter().filter(|l| l.starts_with("info string")).cloned().collect();
        for l in &strings {
            assert!(l.starts_with("info string evaluation: "), "unexpected {l:?}");
        }
        lines.retain(|l| !l.starts_with("info string"));
        for l in &lines {
            assert!(
                l.starts_with("info "),
                "unexpected line during a search: {l:?}\n{}",
                self.context()
            );
        }
        let mv = best
            .split_whitespace()
            .nth(1)
            .unwrap_or_else(|| panic!("empty bestmove line"))
            .to_string();
        (lines, mv)
    }

    /// The FEN printed by `d`.
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("Checkers:"));
        let fens: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
        assert_eq!(fens.len(), 1, "{lines:?}");
        fens[0]["Fen: ".len()..].to_string()
    }

    /// Waits for the process to exit.
    fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the engine did not exit\n{}", self.context());
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// The rest of the output after the process closed it.
    fn rest(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            match self.next_line_within(TIMEOUT) {
                Ok(l) => lines.push(l),
                Err(RecvTimeoutError::Disconnected) => return lines,
                Err(RecvTimeoutError::Timeout) => panic!("output not closed\n{}", self.context()),
            }
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---- helpers on the rules side ------------------------------------------------------------------

/// The value after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    tokens
        .iter()
        .position(|&t| t == key)
        .and_then(|i| tokens.get(i + 1).copied())
}

fn number(line: &str, key: &str) -> u64 {
    field(line, key)
        .unwrap_or_else(|| panic!("no '{key}' in {line:?}"))
        .parse()
        .unwrap_or_else(|e| panic!("'{key}' in {line:?}: {e}"))
}

/// The moves after `pv`.
fn pv(line: &str) -> Vec<&str> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens
        .iter()
        .position(|&t| t == "pv")
        .unwrap_or_else(|| panic!("no pv in {line:?}"));
    tokens[at + 1..].to_vec()
}

/// Plays UCI moves from a position; panics on an illegal one.
fn play(pos: &Position, moves: &[&str]) -> Position {
    let mut p = pos.clone();
    for m in moves {
        let mv = p.parse_uci(m).unwrap_or_else(|e| panic!("{m} in {}: {e}", p.fen()));
        p.play_unchecked(mv);
    }
    p
}

/// Checks a search's `info` lines (depth, score, nodes, nps and a legal pv in each) and that the
/// best move is legal in `pos`. Returns the best move.
fn check_search(pos: &Position, infos: &[String], best: &str) -> Move {
    let lines: Vec<&String> = infos.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(!lines.is_empty(), "no info line with a pv: {infos:?}");
    let mut last_depth = 0;
    for l in &lines {
        let depth = number(l, "depth");
        assert!(depth >= last_depth, "depths go down: {infos:?}");
        last_depth = depth;
        let score = field(l, "score").unwrap_or_else(|| panic!("no score in {l:?}"));
        assert!(score == "cp" || score == "mate", "{l}");
        let value = l.split_whitespace().skip_while(|&t| t != "score").nth(2).unwrap();
        value
            .parse::<i32>()
            .unwrap_or_else(|e| panic!("score value in {l:?}: {e}"));
        number(l, "nodes");
        number(l, "nps");
        number(l, "time");
        let moves = pv(l);
        assert!(!moves.is_empty(), "empty pv: {l}");
        play(pos, &moves);
    }
    pos.parse_uci(best)
        .unwrap_or_else(|e| panic!("bestmove {best} is not legal in {}: {e}", pos.fen()))
}

fn startpos(v: Variant) -> Position {
    Position::startpos(v)
}

/// A few opening moves that are legal in each variant.
fn opening(v: Variant) -> Vec<String> {
    let persian = v.spec().geometry == engine::rules::variants::persian_common::GEOMETRY;
    if v == Variant::Chess {
        ["e2e4", "e7e5", "g1f3"].map(String::from).to_vec()
    } else if persian {
        ["e3e5", "e9e7", "c2d4"].map(String::from).to_vec()
    } else {
        // Other variants: three plies, each the legal move first in UCI order.
        let mut pos = startpos(v);
        let mut moves = Vec::new();
        for _ in 0..3 {
            let m = pos
                .legal_moves()
                .iter()
                .copied()
                .min_by_key(|&m| pos.uci(m))
                .expect("a legal move");
            moves.push(pos.uci(m));
            pos.play_unchecked(m);
        }
        moves
    }
}

/// A position from a list like `"Kc2 Rb4 ki10"` (upper case White), no castling or rendezvous.
fn built(v: Variant, pieces: &str, turn: Color) -> Position {
    let g = v.spec().geometry;
    let board = pieces
        .split_whitespace()
        .map(|t| {
            let piece = Piece::from_char(t.chars().next().unwrap()).unwrap();
            (g.parse_square(&t[1..]).unwrap(), piece)
        })
        .collect();
    let rendezvous = v
        .spec()
        .rules
        .iter()
        .any(|r| matches!(r, engine::rules::Rule::Rendezvous(_)));
    let setup = Setup {
        board,
        turn,
        castling: Vec::new(),
        ep: Vec::new(),
        halfmove: 0,
        fullmove: 1,
        rendezvous: rendezvous.then_some((false, false)),
        rule_fields: Vec::new(),
    };
    Position::from_setup(v, &setup).unwrap_or_else(|e| panic!("{pieces}: {e}"))
}

/// Egyptian Eye, White to move: `b4i4` mates (the black king cannot flee to j10, an Eye square).
fn eye_mate_in_one() -> Position {
    built(Variant::EgyptianEye, "Kc2 Rb4 ki10 rh10 ph9 pj9", Color::White)
}

/// Strips the fields that depend on the clock from an output line.
fn without_timing(line: &str) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "time" || tokens[i] == "nps" {
            i += 2;
            continue;
        }
        out.push(tokens[i]);
        i += 1;
    }
    out.join(" ")
}

// ---- handshake ----------------------------------------------------------------------------------

#[test]
fn handshake_lists_identity_and_options() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let options: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("option "))
        .map(|l| l.as_str())
        .collect();
    let vars: String = Variant::ALL.iter().map(|v| format!(" var {}", v.id())).collect();
    let variant_line = format!("option name UCI_Variant type combo default persian-princess{vars}");
    for expected in [
        variant_line.as_str(),
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Clear Hash type button",
    ] {
        assert!(options.contains(&expected), "missing {expected:?} in {options:?}");
    }
    // Nothing but id, option and uciok lines.
    assert_eq!(lines.len(), 2 + options.len() + 1, "{lines:?}");
    assert_eq!(uci.sync(), Vec::<String>::new());
    // `uci` may be sent again.
    uci.send("uci");
    assert_eq!(uci.until(|l| l == "uciok").len(), lines.len());
    uci.send("quit");
    assert!(uci.wait_exit().success());
}

// ---- searching in every variant -------------------------------------------------------------------

#[test]
fn depth_four_from_the_start_position_in_every_variant() {
    for v in Variant::ALL {
        let mut uci = Uci::with_variant(v);
        uci.send("ucinewgame");
        uci.send("position startpos");
        assert_eq!(uci.fen(), startpos(v).fen(), "{v}");
        let (infos, best) = uci.go("depth 4");
        check_search(&startpos(v), &infos, &best);
        let depths: Vec<u64> = infos.iter().map(|l| number(l, "depth")).collect();
        assert_eq!(depths.iter().max(), Some(&4), "{v}: {infos:?}");
        assert_eq!(depths[0], 1, "{v}: {infos:?}");
    }
}

#[test]
fn search_after_moves_and_from_a_fen_in_every_variant() {
    for v in Variant::ALL {
        let mut uci = Uci::with_variant(v);
        let moves = opening(v);
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        // position startpos moves ...
        uci.send(&format!("position startpos moves {}", moves.join(" ")));
        let after = play(&startpos(v), &moves);
        assert_eq!(uci.fen(), after.fen(), "{v}");
        let (infos, best) = uci.go("depth 4");
        check_search(&after, &infos, &best);

        // position fen <fen of the position after two moves> moves <third move>
        let two = play(&startpos(v), &moves[..2]);
        uci.send(&format!("position fen {} moves {}", two.fen(), moves[2]));
        assert_eq!(uci.fen(), after.fen(), "{v}");
        let (infos, best) = uci.go("depth 4");
        check_search(&after, &infos, &best);

        // A FEN with the bestmove played on: the engine's own move is accepted back.
        uci.send(&format!("position fen {} moves {best}", after.fen()));
        let next = play(&after, &[best.as_str()]);
        assert_eq!(uci.fen(), next.fen(), "{v}");
        let (infos, best) = uci.go("depth 3");
        check_search(&next, &infos, &best);
    }
}

#[test]
fn special_moves_in_position_commands() {
    // Persian Princess: the rendezvous, and an en-passant capture (rules document examples).
    let mut uci = Uci::start();
    uci.send("position startpos moves g2h2");
    assert_eq!(
        uci.fen(),
        "f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKBSNR1/F9F b KQkq - 1 1 r"
    );
    let ep = "f9f/1rnbqksbnr1/1pp1pppppp1/11/11/11/1P1pP6/2P8/3P1PPPPP1/1RNBQKSBNR1/F9F b KQkq e4 0 4 Rr";
    uci.send("position startpos moves b3b4 d9d7 b4b5 d7d6 c3c4 d6d5 e3e5");
    assert_eq!(uci.fen(), ep);
    uci.send(&format!("position fen {ep} moves d5e4"));
    let after = play(&Position::from_fen(Variant::PersianPrincess, ep).unwrap(), &["d5e4"]);
    assert_eq!(uci.fen(), after.fen());
    let (infos, best) = uci.go("depth 3");
    check_search(&after, &infos, &best);
    // The inventor's one-per-cell FEN is read too.
    let one_per_cell = "f111111111f/1rnbqksbnr1/1ppppppppp1/11111111111/11111111111/11111111111/11111111111/\
                        11111111111/1PPPPPPPPP1/1RNBQKSBNR1/F111111111F w KQkq - 0 1";
    uci.send(&format!("position fen {one_per_cell}"));
    assert_eq!(uci.fen(), startpos(Variant::PersianPrincess).fen());
}

/// The rule settings of Parsi Chess through UCI: `Parsi_Ludii` switches to the Ludii readings
/// (the leap may not capture), `VariantRules` sets single readings, a bad setting is named and
/// changes nothing.
#[test]
fn show_wdl_adds_win_draw_loss_to_info_lines() {
    use engine::eval::wdl::WdlModel;
    let mut uci = Uci::with_variant(Variant::PersianPrincess);
    uci.send("position startpos");
    let (infos, _) = uci.go("depth 3");
    assert!(infos.iter().all(|l| !l.contains(" wdl ")), "off by default: {infos:?}");
    uci.send("setoption name UCI_ShowWDL value true");
    assert_eq!(uci.sync(), Vec::<String>::new());
    let (infos, _) = uci.go("depth 3");
    let (model, _) = WdlModel::for_variant(Variant::PersianPrincess).expect("a fitted model");
    let scored: Vec<&String> = infos.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty(), "{infos:?}");
    for line in scored {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|&w| w == "wdl")
            .unwrap_or_else(|| panic!("no wdl: {line}"));
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().expect("per mille"))
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        // Right after the score (and its bound), as the value the model gives it.
        let cp: i32 = field(line, "cp").expect("a centipawn score").parse().expect("cp");
        assert_eq!(wdl, model.estimate(cp).permille().to_vec(), "{line}");
    }
    // A variant without a model says so, and its lines carry no wdl.
    uci.send("setoption name UCI_Variant value chess");
    uci.send("setoption name UCI_ShowWDL value true");
    let lines = uci.sync();
    assert!(
        lines.iter().any(|l| l.contains("no win/draw/loss model for chess")),
        "{lines:?}"
    );
    uci.send("position startpos");
    let (infos, _) = uci.go("depth 2");
    assert!(infos.iter().all(|l| !l.contains(" wdl ")), "{infos:?}");
}

#[test]
fn parsi_rule_settings_through_options() {
    let mut uci = Uci::with_variant(Variant::Parsi);
    // The white king on e1 may leap onto the rook on d3 by default.
    let fen = "3k4/8/8/7b/8/3r4/8/4K3 w - Ll 0 1";
    uci.send(&format!("position fen {fen} moves e1d3"));
    assert_eq!(uci.fen(), "3k4/8/8/7b/8/3K4/8/8 b - l 0 1");
    uci.send("setoption name Parsi_Ludii value true");
    let lines = uci.sync();
    assert!(
        lines.iter().any(|l| l == "info string rules: parsi (ludii)"),
        "{lines:?}"
    );
    uci.send(&format!("position fen {fen} moves e1d3"));
    let lines = uci.sync();
    assert!(lines.iter().any(|l| l.contains("position not changed")), "{lines:?}");
    uci.send(&format!("position fen {fen} moves e1c2"));
    assert_eq!(uci.fen(), "3k4/8/8/7b/8/3r4/2K5/8 b - l 1 1");
    let (infos, best) = uci.go("depth 3");
    let pos = Position::from_fen_in(
        Variant::Parsi.tables_with("ludii").unwrap(),
        "3k4/8/8/7b/8/3r4/2K5/8 b - l 1 1",
    )
    .unwrap();
    check_search(&pos, &infos, &best);
    // Single settings on top of the switch; a bad one changes nothing.
    uci.send("setoption name VariantRules value leap_no_capture=off");
    let lines = uci.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string rules: parsi (")),
        "{lines:?}"
    );
    uci.send("setoption name VariantRules value castling=on");
    let lines = uci.sync();
    assert!(
        lines.iter().any(|l| l.contains("no rule setting 'castling=on'")),
        "{lines:?}"
    );
    uci.send(&format!("position fen {fen} moves e1d3"));
    assert_eq!(uci.fen(), "3k4/8/8/7b/8/3K4/8/8 b - l 0 1");
    // Back to the defaults.
    uci.send("setoption name Parsi_Ludii value false");
    uci.send("setoption name VariantRules value <empty>");
    let lines = uci.sync();
    assert!(
        lines.iter().any(|l| l == "info string rules: parsi (default)"),
        "{lines:?}"
    );
}

#[test]
fn citadel_set_ups_through_the_rules_option() {
    let mut uci = Uci::with_variant(Variant::Citadel9);
    uci.send("setoption name VariantRules value setup=crossed");
    let lines = uci.sync();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string rules: citadel-9 (setup=crossed)"),
        "{lines:?}"
    );
    uci.send("position startpos moves e2e5");
    assert_eq!(
        uci.fen(),
        "rnsgktsnr/ppppppppp/9/9/4P4/9/9/PPPP1PPPP/RNSMKXSNR b WEwe - YQyq 0 1"
    );
    let (infos, best) = uci.go("depth 3");
    let tables = Variant::Citadel9.tables_with("setup=crossed").unwrap();
    let pos = Position::from_fen_in(tables, &uci.fen()).unwrap();
    check_search(&pos, &infos, &best);
    // A set-up the rules note does not have changes nothing.
    uci.send("setoption name VariantRules value setup=mirrored");
    let lines = uci.sync();
    assert!(
        lines.iter().any(|l| l.contains("no rule setting 'setup=mirrored'")),
        "{lines:?}"
    );
    uci.send("setoption name VariantRules value <empty>");
    let lines = uci.sync();
    assert!(
        lines.iter().any(|l| l == "info string rules: citadel-9 (default)"),
        "{lines:?}"
    );
    uci.send("position startpos");
    assert_eq!(uci.fen(), Variant::Citadel9.spec().start_fen);
}

// ---- go limits ------------------------------------------------------------------------------------

#[test]
fn go_depth_stops_at_the_depth() {
    let mut uci = Uci::start();
    uci.send("position startpos");
    for depth in [1, 2, 5] {
        let (infos, best) = uci.go(&format!("depth {depth}"));
        check_search(&startpos(Variant::PersianPrincess), &infos, &best);
        assert_eq!(infos.iter().map(|l| number(l, "depth")).max(), Some(depth), "{infos:?}");
    }
}

#[test]
fn go_nodes_stays_near_the_limit() {
    let mut uci = Uci::start();
    uci.send("position startpos moves e3e5");
    let pos = play(&startpos(Variant::PersianPrincess), &["e3e5"]);
    for limit in [1u64, 500, 20_000] {
        let (infos, best) = uci.go(&format!("nodes {limit}"));
        check_search(&pos, &infos, &best);
        // Node limits are checked every 1024 nodes: allow that much beyond the limit.
        let reported = infos.iter().map(|l| number(l, "nodes")).max().unwrap();
        assert!(
            reported <= limit + 2048,
            "nodes {limit}: reported {reported}\n{infos:?}"
        );
    }
}

#[test]
fn go_movetime_returns_a_move() {
    let mut uci = Uci::start();
    uci.send("position startpos moves e3e5 e9e7");
    let pos = play(&startpos(Variant::PersianPrincess), &["e3e5", "e9e7"]);
    let (infos, best) = uci.go("movetime 200");
    check_search(&pos, &infos, &best);
}

#[test]
fn go_with_clocks_uses_the_side_to_moves_clock() {
    let mut uci = Uci::with_variant(Variant::CelticCitadel);
    let start = startpos(Variant::CelticCitadel);
    // White to move with 2 s: the move comes well within the clock.
    uci.send("position startpos");
    let t = Instant::now();
    let (infos, best) = uci.go("wtime 2000 btime 2000 winc 0 binc 0");
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?} with 2000 ms on the clock",
        t.elapsed()
    );
    check_search(&start, &infos, &best);

    // Black to move with 2 s while White has hours: Black's clock is the one that counts.
    uci.send("position startpos moves e3e5");
    let pos = play(&start, &["e3e5"]);
    let t = Instant::now();
    let (infos, best) = uci.go("wtime 10000000 btime 2000 winc 100 binc 100");
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?} with 2000 ms on the clock",
        t.elapsed()
    );
    check_search(&pos, &infos, &best);

    // movestogo: a few moves to make in 2 s.
    uci.send("position startpos");
    let t = Instant::now();
    let (infos, best) = uci.go("wtime 2000 btime 2000 movestogo 5");
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?} with 2000 ms on the clock",
        t.elapsed()
    );
    check_search(&start, &infos, &best);

    // A clock already overrun (GUIs send negative times): still a legal move, at once.
    let t = Instant::now();
    let (infos, best) = uci.go("wtime -100 btime 2000");
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?} with no time left",
        t.elapsed()
    );
    check_search(&start, &infos, &best);
}

#[test]
fn go_mate_finds_the_mate_in_one() {
    let mut uci = Uci::with_variant(Variant::EgyptianEye);
    let pos = eye_mate_in_one();
    uci.send(&format!("position fen {}", pos.fen()));
    let (infos, best) = uci.go("mate 1");
    let m = check_search(&pos, &infos, &best);
    assert_eq!(best, "b4i4");
    assert!(
        matches!(
            pos.after(m).outcome(),
            Some(Outcome::Checkmate { winner: Color::White })
        ),
        "{best}"
    );
    assert!(infos.last().unwrap().contains(" score mate 1 "), "{infos:?}");
}

#[test]
fn go_mate_two_with_the_fortress() {
    // Celtic Citadel: e.g. 1.Re10+ Ka11 (the king's only square, its own citadel) 2.Fb9# or Fc10#.
    let mut uci = Uci::with_variant(Variant::CelticCitadel);
    let pos = built(Variant::CelticCitadel, "Kf2 Re4 Fd8 kb10 pb9 pc9", Color::White);
    uci.send(&format!("position fen {}", pos.fen()));
    let (infos, best) = uci.go("mate 2");
    check_search(&pos, &infos, &best);
    let last = infos.last().unwrap();
    assert!(last.contains(" score mate 2 "), "{infos:?}");
    // The pv may stop short of the mate (the last move found in quiescence is not recorded);
    // when it is complete, it ends in mate.
    let line = pv(last);
    assert!((1..=3).contains(&line.len()), "{last}");
    if line.len() == 3 {
        assert!(matches!(
            play(&pos, &line).outcome(),
            Some(Outcome::Checkmate { winner: Color::White })
        ));
    }
    // The defender's view: mated in one.
    uci.send(&format!("position fen {} moves e4e10", pos.fen()));
    let (infos, best) = uci.go("depth 4");
    assert_eq!(best, "b10a11", "the only legal move");
    assert!(infos.last().unwrap().contains(" score mate -1 "), "{infos:?}");
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    // Stalemate: the black king in its citadel, b10 covered by the knight.
    let mut uci = Uci::with_variant(Variant::CelticCitadel);
    let stalemate = built(Variant::CelticCitadel, "Kf2 Nc8 Pc3 ka11", Color::Black);
    uci.send(&format!("position fen {}", stalemate.fen()));
    let (_, best) = uci.go("depth 3");
    assert_eq!(best, "(none)");
    // Checkmate: the official Egyptian Eye diagram, White to move and mated.
    uci.send("setoption name UCI_Variant value egyptian-eye");
    uci.send("position fen 11/5k1r3/2p5p2/1pQ6p1/7p3/6p4/3r2P1N2/2Q4NPP1/7P1K1/9q1/11 w - - 0 1");
    let (_, best) = uci.go("depth 3");
    assert_eq!(best, "(none)");
    let (_, best) = uci.go("movetime 100");
    assert_eq!(best, "(none)");
    assert_eq!(uci.sync(), Vec::<String>::new());
}

#[test]
fn go_infinite_runs_until_stop() {
    // A mate in one: the search has nothing left to find after depth 1, and still must not
    // answer before `stop`.
    let mut uci = Uci::with_variant(Variant::EgyptianEye);
    let pos = eye_mate_in_one();
    uci.send(&format!("position fen {}", pos.fen()));
    uci.send("go infinite");
    let first = uci.next_line();
    assert!(first.starts_with("info "), "{first}");
    // `isready` is answered during the search.
    let lines = uci.sync();
    let early: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info ")).collect();
    assert!(early.is_empty(), "before stop: {early:?}");
    thread::sleep(Duration::from_millis(500));
    let lines = uci.sync();
    let early: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info ")).collect();
    assert!(early.is_empty(), "before stop: {early:?}");
    uci.send("stop");
    let (_, best) = uci.wait_bestmove();
    assert_eq!(best, "b4i4");

    // From the start position too, and `stop` when nothing runs prints nothing.
    uci.send("setoption name UCI_Variant value persian-princess");
    uci.send("position startpos");
    uci.send("go infinite");
    let first = uci.next_line();
    assert!(first.starts_with("info "), "{first}");
    uci.send("stop");
    let (mut infos, best) = uci.wait_bestmove();
    infos.insert(0, first);
    check_search(&startpos(Variant::PersianPrincess), &infos, &best);
    uci.send("stop");
    assert_eq!(uci.sync(), Vec::<String>::new());
}

#[test]
fn go_perft_prints_each_move_and_the_total() {
    let mut uci = Uci::start();
    uci.send("position startpos");
    uci.send("go perft 3");
    let lines = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 17842");
    let per_move: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .collect();
    assert_eq!(per_move.len(), 25, "{lines:?}");
    let pos = startpos(Variant::PersianPrincess);
    let mut sum = 0;
    let mut seen = Vec::new();
    for l in per_move {
        let (m, n) = l.split_once(": ").unwrap();
        let mv = pos.parse_uci(m).unwrap_or_else(|e| panic!("{l}: {e}"));
        assert!(!seen.contains(&mv), "{m} twice");
        seen.push(mv);
        assert_eq!(
            n.parse::<u64>().unwrap(),
            engine::rules::perft::perft(&pos.after(mv), 2),
            "{l}"
        );
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 17842);

    uci.send("setoption name UCI_Variant value oriental-omega");
    uci.send("position startpos");
    uci.send("go perft 2");
    let lines = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 676");
    assert!(
        lines.contains(&"g2h2: 26".to_string()),
        "the champion's rendezvous: {lines:?}"
    );

    // Depth 0 counts the position itself and lists no moves.
    uci.send("go perft 0");
    let lines = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.iter().filter(|l| !l.is_empty()).collect::<Vec<_>>(),
        ["Nodes searched: 1"]
    );
    // Perft prints no bestmove.
    assert_eq!(uci.sync(), Vec::<String>::new());
}

/// `go perft` lists the moves the game allows: after the moves of `position`, Parsi's
/// perpetual-check ban sees them (a third Nf7+ by checks alone is not listed).
#[test]
fn go_perft_sees_the_games_moves() {
    let mut uci = Uci::start();
    uci.send("setoption name UCI_Variant value parsi");
    let fen = "5b1k/4p1pp/4P3/6N1/8/8/8/K7 w - - 0 1";
    uci.send(&format!(
        "position fen {fen} moves g5f7 h8g8 f7h6 g8h8 h6f7 h8g8 f7h6 g8h8"
    ));
    uci.send("go perft 1");
    let lines = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 6", "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("h6f7")), "{lines:?}");
    // The same position set up on its own allows the check.
    uci.send("position fen 5b1k/4p1pp/4P2N/8/8/8/8/K7 w - - 8 5");
    uci.send("go perft 1");
    let lines = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 7", "{lines:?}");
    assert!(lines.iter().any(|l| l == "h6f7: 1"), "{lines:?}");
}

/// `position ... moves` judges each move as a move of the game: a third Nf7+ by checks alone,
/// legal in the bare position, is refused with an error that names the ban, and the position
/// set before stays.
#[test]
fn position_refuses_a_move_the_game_forbids() {
    let mut uci = Uci::start();
    uci.send("setoption name UCI_Variant value parsi");
    let fen = "5b1k/4p1pp/4P3/6N1/8/8/8/K7 w - - 0 1";
    let cycle = "g5f7 h8g8 f7h6 g8h8 h6f7 h8g8 f7h6 g8h8";
    uci.send(&format!("position fen {fen} moves {cycle}"));
    assert_eq!(uci.sync(), Vec::<String>::new());
    let before = uci.fen();
    uci.send(&format!("position fen {fen} moves {cycle} h6f7"));
    let lines = uci.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    assert!(
        lines[0].contains("move 9 'h6f7'") && lines[0].contains("perpetual check"),
        "{lines:?}"
    );
    assert_eq!(uci.fen(), before, "the position set before stays");
    // Another move there is played.
    uci.send(&format!("position fen {fen} moves {cycle} h6g4"));
    assert_eq!(uci.sync(), Vec::<String>::new());
    assert_ne!(uci.fen(), before);
}

#[test]
fn go_perft_beyond_the_limit_is_refused() {
    let mut uci = Uci::start();
    uci.send("position startpos");
    for depth in [perft::MAX_DEPTH + 1, 100, u32::MAX] {
        uci.send(&format!("go perft {depth}"));
        let line = uci.next_line();
        assert!(line.starts_with("info string error: "), "{line}");
        assert!(line.contains(&format!("depth {depth} ")), "{line}");
        assert!(line.contains(&format!("at most {}", perft::MAX_DEPTH)), "{line}");
        // Nothing runs: `isready` is answered at once and nothing else is printed.
        assert_eq!(uci.sync(), Vec::<String>::new());
    }
    // The limit itself is allowed (and stopped).
    uci.send(&format!("go perft {}", perft::MAX_DEPTH));
    assert_eq!(uci.sync(), Vec::<String>::new());
    uci.send("stop");
    let line = uci.next_line();
    assert!(
        line.starts_with(&format!("info string perft {} stopped", perft::MAX_DEPTH)),
        "{line}"
    );
}

/// The per-move lines of a stopped `go perft`, up to its `info string perft ... stopped` line,
/// checked against each other: the line gives the number of moves listed and their sum.
fn stopped_perft(uci: &mut Uci, depth: u32, mut listed: Vec<String>) {
    listed.extend(uci.until(|l| l.starts_with("info string perft") || l.starts_with("Nodes searched")));
    let last = listed.pop().unwrap();
    let moves = startpos(Variant::PersianPrincess).legal_moves().len();
    let counts: Vec<u64> = listed
        .iter()
        .map(|l| {
            let (_, n) = l.split_once(": ").unwrap_or_else(|| panic!("not a move count: {l:?}"));
            n.parse().unwrap()
        })
        .collect();
    assert!(counts.len() < moves, "the count ended before `stop`: {last}");
    assert_eq!(
        last,
        format!(
            "info string perft {depth} stopped: {} of {moves} root moves counted, {} nodes below them",
            counts.len(),
            counts.iter().sum::<u64>()
        )
    );
}

#[test]
fn go_perft_answers_isready_and_ends_on_stop_and_quit() {
    // Depth 12 from the start position takes days: before it ran on the reading thread, and
    // `isready`, `stop` and `quit` went unanswered.
    let mut uci = Uci::start();
    uci.send("position startpos");
    uci.send(&format!("go perft {}", perft::MAX_DEPTH));
    for _ in 0..3 {
        assert_eq!(uci.sync(), Vec::<String>::new());
    }
    uci.send("stop");
    stopped_perft(&mut uci, perft::MAX_DEPTH, Vec::new());
    // Nothing more comes, and the engine works as before.
    assert_eq!(uci.sync(), Vec::<String>::new());
    uci.send("go perft 2");
    let lines = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 625");

    // `stop` after some root moves were counted: what was counted is printed.
    uci.send("go perft 6");
    let first = uci.next_line();
    uci.send("stop");
    stopped_perft(&mut uci, 6, vec![first]);
    assert_eq!(uci.sync(), Vec::<String>::new());

    // Another command that changes the engine's state ends it too, and then takes effect.
    uci.send(&format!("go perft {}", perft::MAX_DEPTH));
    uci.send("position startpos moves e3e5");
    stopped_perft(&mut uci, perft::MAX_DEPTH, Vec::new());
    assert_eq!(uci.fen(), play(&startpos(Variant::PersianPrincess), &["e3e5"]).fen());

    // `quit` exits.
    uci.send("position startpos");
    uci.send(&format!("go perft {}", perft::MAX_DEPTH));
    assert_eq!(uci.sync(), Vec::<String>::new());
    uci.send("quit");
    assert!(uci.wait_exit().success());
    let rest = uci.rest();
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert!(
        rest[0].starts_with(&format!("info string perft {} stopped: 0 of ", perft::MAX_DEPTH)),
        "{rest:?}"
    );
}

#[test]
fn end_of_input_lets_go_perft_finish() {
    // Piped input (`echo "go perft 3" | engine`) ends right after the command: the count is
    // still printed whole.
    let mut uci = Uci::start();
    uci.send("position startpos");
    uci.send("go perft 3");
    uci.close_stdin();
    assert!(uci.wait_exit().success());
    let rest = uci.rest();
    assert_eq!(rest.last().unwrap(), "Nodes searched: 17842", "{rest:?}");
    assert_eq!(
        rest.len(),
        startpos(Variant::PersianPrincess).legal_moves().len() + 2,
        "{rest:?}"
    );
}

#[test]
fn multipv_three_reports_three_distinct_lines() {
    let mut uci = Uci::start();
    uci.send("setoption name MultiPV value 3");
    uci.send("position startpos moves e3e5");
    let pos = play(&startpos(Variant::PersianPrincess), &["e3e5"]);
    let (infos, best) = uci.go("depth 4");
    check_search(&pos, &infos, &best);
    for depth in 1..=4 {
        let at_depth: Vec<&String> = infos.iter().filter(|l| number(l, "depth") == depth).collect();
        let indices: Vec<u64> = at_depth.iter().map(|l| number(l, "multipv")).collect();
        assert_eq!(indices, [1, 2, 3], "depth {depth}: {infos:?}");
        let firsts: Vec<&str> = at_depth.iter().map(|l| pv(l)[0]).collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "depth {depth}: {firsts:?}"
        );
        if depth == 4 {
            assert_eq!(firsts[0], best);
        }
    }
    // Back to one line.
    uci.send("setoption name MultiPV value 1");
    let (infos, _) = uci.go("depth 3");
    assert!(infos.iter().all(|l| number(l, "multipv") == 1), "{infos:?}");
}

/// The score of an `info` line in centipawns (mates far beyond any centipawn score).
fn centipawns(line: &str) -> i64 {
    let mut tokens = line.split_whitespace().skip_while(|&t| t != "score").skip(1);
    let (kind, value) = (tokens.next().unwrap(), tokens.next().unwrap().parse::<i64>().unwrap());
    match kind {
        "cp" => value,
        _ => value.signum() * 100_000 - value,
    }
}

/// MultiPV lines are reported best first, and `bestmove` is the first line's move. (Lines are
/// searched one after the other, and a later line, searched with different reductions, can
/// score higher than an earlier one; the engine sorts them before reporting.) Here, at depth 3
/// after `e3e5`, `g10f8` scored higher as line 2 than `c10d8` as line 1 before the fix.
#[test]
fn multipv_lines_are_ordered_best_first() {
    let mut uci = Uci::start();
    uci.send("setoption name MultiPV value 3");
    uci.send("position startpos moves e3e5");
    let (infos, _) = uci.go("depth 4");
    for depth in 1..=4 {
        let scores: Vec<i64> = infos
            .iter()
            .filter(|l| number(l, "depth") == depth)
            .map(|l| centipawns(l))
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "depth {depth}: {infos:#?}");
    }
}

#[test]
fn two_threads_give_a_legal_move() {
    let mut uci = Uci::start();
    uci.send("setoption name Threads value 2");
    uci.send("position startpos moves e3e5 e9e7");
    let pos = play(&startpos(Variant::PersianPrincess), &["e3e5", "e9e7"]);
    let (infos, best) = uci.go("depth 6");
    check_search(&pos, &infos, &best);
    let (infos, best) = uci.go("nodes 30000");
    check_search(&pos, &infos, &best);
    uci.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    uci.send("stop");
    let (infos, best) = uci.wait_bestmove();
    check_search(&pos, &infos, &best);
    uci.send("quit");
    assert!(uci.wait_exit().success());
}

// ---- bad input --------------------------------------------------------------------------------------

/// Sends `bad` and checks the answer is one `info string error` line (or nothing when
/// `expect_error` is false), that the position is unchanged and that the engine still answers.
fn rejected(uci: &mut Uci, bad: &[u8], expect_error: bool) {
    let before = uci.fen();
    uci.send_bytes(bad);
    uci.send_bytes(b"\n");
    let lines = uci.sync();
    let shown = String::from_utf8_lossy(&bad[..bad.len().min(80)]).into_owned();
    if expect_error {
        assert_eq!(lines.len(), 1, "{shown:?}: {lines:?}");
        assert!(lines[0].starts_with("info string error"), "{shown:?}: {lines:?}");
        assert!(
            lines[0].len() < 300,
            "{shown:?}: a long error line: {} bytes",
            lines[0].len()
        );
    } else {
        assert_eq!(lines, Vec::<String>::new(), "{shown:?}");
    }
    assert_eq!(uci.fen(), before, "{shown:?} changed the position");
}

#[test]
fn bad_input_is_answered_with_an_error_and_changes_nothing() {
    let mut uci = Uci::start();
    uci.send("position startpos moves c3c4");
    let pos = play(&startpos(Variant::PersianPrincess), &["c3c4"]);
    assert_eq!(uci.fen(), pos.fen());
    let chess_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let long_fen = format!("position fen {}", "x/".repeat(20_000));
    let garbage = "garbage ".repeat(20_000);
    let cases: Vec<(String, bool)> = vec![
        ("foo".into(), true),
        ("GO depth 1".into(), true),
        ("position fen xyz".into(), true),
        ("position fen f9f/11 w - - 0 1".into(), true),
        (format!("position fen {chess_fen}"), true),
        // Legal moves followed by an illegal one: nothing of it is kept.
        ("position startpos moves e3e5 e9e7 e5e7".into(), true),
        ("position startpos moves e3e6".into(), true),
        ("position startpos moves e3e5 e3e5".into(), true),
        ("position startpos moves e3e5 0000".into(), true),
        ("position startpos moves e3e5 z9z9".into(), true),
        ("position startpos moves e3e5 e9".into(), true),
        ("position startpos moves e3e5 e9e7 Nc2d4".into(), true),
        ("position startpos moves e2e4".into(), true),
        ("position".into(), true),
        ("position startpos e3e5".into(), true),
        ("setoption name Hash value 0".into(), true),
        ("setoption name Threads value abc".into(), true),
        ("setoption name UCI_Variant value shogi".into(), true),
        ("setoption name UCI_Variant".into(), true),
        ("setoption name MultiPV value 65".into(), true),
        ("setoption name Foo value 1".into(), true),
        ("setoption value 1".into(), true),
        ("go depth x".into(), true),
        ("go nodes -1".into(), true),
        ("go wtime 1000.5".into(), true),
        ("go depth 3 depth 4".into(), true),
        ("go perft x".into(), true),
        ("go sideways".into(), true),
        ("debug maybe".into(), true),
        (String::new(), false),
        ("   \t ".into(), false),
        (long_fen, true),
        (garbage, true),
    ];
    for (line, expect_error) in &cases {
        rejected(&mut uci, line.as_bytes(), *expect_error);
    }
    // Invalid UTF-8, alone and in the middle of a command.
    rejected(&mut uci, &[0xff, 0xfe, 0xfd], true);
    rejected(&mut uci, b"position startpos moves e3e5 \xc3\x28", true);
    rejected(&mut uci, b"\xe2\x82uci", true);
    // The variant was never changed, and the engine still searches the same position.
    assert_eq!(uci.fen(), pos.fen());
    let (infos, best) = uci.go("depth 3");
    check_search(&pos, &infos, &best);
    uci.send("quit");
    assert!(uci.wait_exit().success());
}

#[test]
fn a_rejected_go_starts_no_search() {
    let mut uci = Uci::start();
    uci.send("position startpos");
    uci.send("go depth 2 nodes abc");
    let line = uci.next_line();
    assert!(line.starts_with("info string error"), "{line}");
    thread::sleep(Duration::from_millis(200));
    assert_eq!(uci.sync(), Vec::<String>::new(), "a search ran");
}

#[test]
fn a_rejected_variant_keeps_the_variant() {
    let mut uci = Uci::with_variant(Variant::OrientalOmega);
    uci.send("position startpos moves e3e5");
    let pos = play(&startpos(Variant::OrientalOmega), &["e3e5"]);
    rejected(&mut uci, b"setoption name UCI_Variant value persian-omega", true);
    assert_eq!(uci.fen(), pos.fen());
    // Omega moves are still understood (the champion's leap).
    uci.send("position startpos moves e3e5 e9e7 g2g4");
    assert_eq!(
        uci.fen(),
        play(&startpos(Variant::OrientalOmega), &["e3e5", "e9e7", "g2g4"]).fen()
    );
    // A FEN of another variant's pieces is refused in Omega (no princess here).
    let princess_start = startpos(Variant::PersianPrincess).fen();
    rejected(&mut uci, format!("position fen {princess_start}").as_bytes(), true);
}

#[cfg(unix)]
#[test]
fn net_and_book_files_that_are_no_files_are_refused_and_uci_goes_on() {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("engine-uci-files-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe");
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let huge = dir.join("huge.bin");
    std::fs::File::create(&huge).unwrap().set_len(3 << 30).unwrap();
    let (fifo, huge) = (fifo.display().to_string(), huge.display().to_string());

    let mut uci = Uci::start();
    uci.send("position startpos moves e3e5");
    let eval_in_use = |uci: &mut Uci| {
        uci.send("eval");
        uci.until(|l| l.starts_with("Evaluation in use: ")).pop().unwrap()
    };
    let before = eval_in_use(&mut uci);
    for (option, path, why) in [
        ("EvalFile", "/dev/zero", "it is a character device, not a regular file"),
        (
            "EvalFile",
            fifo.as_str(),
            "it is a FIFO (named pipe), not a regular file",
        ),
        ("EvalFile", huge.as_str(), "it is 3221225472 bytes long"),
        ("BookFile", "/dev/zero", "it is a character device, not a regular file"),
        (
            "BookFile",
            fifo.as_str(),
            "it is a FIFO (named pipe), not a regular file",
        ),
        (
            "BookFile",
            huge.as_str(),
            "3221225472 bytes is more than the largest book",
        ),
    ] {
        // Before, the first read until memory ran out and the second never answered.
        let what = format!("setoption name {option} value {path}");
        uci.send(&what);
        let lines = uci.sync();
        assert_eq!(lines.len(), 1, "{what}: {lines:?}");
        let line = &lines[0];
        assert!(
            line.starts_with(&format!("info string error: {option} not changed: ")),
            "{what}: {line}"
        );
        assert!(
            line.contains(&format!("'{path}'")) && line.contains(why),
            "{what}: {line}"
        );
    }
    // The engine goes on with its evaluation and its game.
    assert_eq!(eval_in_use(&mut uci), before);
    let pos = play(&startpos(Variant::PersianPrincess), &["e3e5"]);
    assert_eq!(uci.fen(), pos.fen());
    let (infos, best) = uci.go("depth 2");
    check_search(&pos, &infos, &best);
    uci.send("quit");
    assert!(uci.wait_exit().success());
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- ending the process ---------------------------------------------------------------------------

#[test]
fn quit_exits_with_status_zero() {
    let mut uci = Uci::start();
    uci.send("uci");
    uci.until(|l| l == "uciok");
    uci.send("quit");
    assert!(uci.wait_exit().success());
    assert_eq!(uci.rest(), Vec::<String>::new());
}

#[test]
fn quit_during_a_search_exits() {
    let mut uci = Uci::start();
    uci.send("position startpos");
    uci.send("go infinite");
    assert!(uci.next_line().starts_with("info "));
    uci.send("quit");
    assert!(uci.wait_exit().success());
    let rest = uci.rest();
    assert!(
        rest.iter()
            .all(|l| l.starts_with("info ") || l.starts_with("bestmove ")),
        "{rest:?}"
    );
}

#[test]
fn end_of_input_exits() {
    let mut uci = Uci::start();
    assert_eq!(uci.sync(), Vec::<String>::new());
    uci.close_stdin();
    assert!(uci.wait_exit().success());
}

#[test]
fn end_of_input_during_go_infinite_exits_after_the_bestmove() {
    let mut uci = Uci::start();
    uci.send("position startpos moves e3e5");
    uci.send("go infinite");
    assert!(uci.next_line().starts_with("info "));
    uci.close_stdin();
    assert!(uci.wait_exit().success());
    let rest = uci.rest();
    let best = rest
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {rest:?}"));
    let pos = play(&startpos(Variant::PersianPrincess), &["e3e5"]);
    pos.parse_uci(best.split_whitespace().nth(1).unwrap()).unwrap();
}

// ---- reproducibility ------------------------------------------------------------------------------

#[test]
fn fixed_node_searches_are_reproducible() {
    let mut uci = Uci::start();
    let mut runs = Vec::new();
    for _ in 0..2 {
        uci.send("ucinewgame");
        uci.send("position startpos moves e3e5");
        uci.send("go nodes 20000");
        let (infos, best) = uci.wait_bestmove();
        let mut lines: Vec<String> = infos.iter().map(|l| without_timing(l)).collect();
        lines.push(format!("bestmove {best}"));
        runs.push(lines);
    }
    assert_eq!(runs[0], runs[1]);
    // A second process agrees too.
    let mut other = Uci::start();
    other.send("position startpos moves e3e5");
    let (infos, best) = other.go("nodes 20000");
    let mut lines: Vec<String> = infos.iter().map(|l| without_timing(l)).collect();
    lines.push(format!("bestmove {best}"));
    assert_eq!(lines, runs[0]);
}

#[test]
fn strength_options_are_listed_validated_and_weaken_the_play() {
    use engine::skill::{ELO_MAX, ELO_MIN};
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok");
    for expected in [
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"),
    ] {
        assert!(lines.contains(&expected), "missing {expected:?} in {lines:?}");
    }
    // Out of range or not a number: an error, and the strength stays full.
    for bad in [
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -1",
        "setoption name Skill Level value weak",
        "setoption name UCI_Elo value 1",
        "setoption name UCI_LimitStrength value maybe",
    ] {
        uci.send(bad);
        let lines = uci.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string error: "), "{bad}: {lines:?}");
    }
    uci.send("setoption name Skill Level value 20");
    assert_eq!(uci.sync(), Vec::<String>::new(), "full strength is the default");
    uci.send("setoption name Skill Level value 2");
    let lines = uci.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string strength: level 2.0"),
        "{lines:?}"
    );
    // The weakened search reports one line (MultiPV 1) and plays a legal move.
    uci.send("position startpos");
    let (infos, best) = uci.go("depth 10");
    let start = startpos(Variant::PersianPrincess);
    assert!(start.parse_uci(&best).is_ok(), "{best}");
    assert!(infos.iter().all(|l| field(l, "multipv") == Some("1")), "{infos:?}");
    // The level's caps: 3 plies at level 2.
    assert!(infos.iter().all(|l| number(l, "depth") <= 3), "{infos:?}");
    // UCI_Elo takes over with UCI_LimitStrength.
    uci.send(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    assert_eq!(uci.sync(), Vec::<String>::new(), "UCI_Elo alone changes nothing");
    uci.send("setoption name UCI_LimitStrength value true");
    let lines = uci.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string strength: level 0.0"),
        "{lines:?}"
    );
    uci.send("setoption name UCI_LimitStrength value false");
    let lines = uci.sync();
    assert!(lines[0].starts_with("info string strength: level 2.0"), "{lines:?}");
}

#[test]
fn search_params_option_is_validated_and_changes_the_search() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name SearchParams type string default <empty>".to_string()),
        "{lines:?}"
    );
    let nodes_at_depth_7 = |uci: &mut Uci| {
        uci.send("ucinewgame");
        uci.send("position startpos");
        let (infos, _) = uci.go("depth 7");
        number(infos.last().expect("an info line"), "nodes")
    };
    let default_nodes = nodes_at_depth_7(&mut uci);
    // Bad values: an error naming what is wrong, and the parameters stay as they were.
    for (bad, says) in [
        ("rfp_margin=90,nonsense=1", "unknown search parameter 'nonsense'"),
        ("rfp_margin=9999", "rfp_margin must be between"),
        ("lmr_div=abc", "lmr_div must be a whole number"),
        ("lmr_div", "'lmr_div' is not of the form name=value"),
    ] {
        uci.send(&format!("setoption name SearchParams value {bad}"));
        let lines = uci.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: SearchParams not changed: ") && lines[0].contains(says),
            "{bad}: {lines:?}"
        );
    }
    assert_eq!(
        nodes_at_depth_7(&mut uci),
        default_nodes,
        "a refused value changes nothing"
    );
    // Other reductions: another tree.
    uci.send("setoption name SearchParams value lmr_div=150;lmr_base=150");
    assert_eq!(
        uci.sync(),
        vec!["info string search parameters: lmr_base=150,lmr_div=150".to_string()]
    );
    let reduced = nodes_at_depth_7(&mut uci);
    assert_ne!(reduced, default_nodes);
    // Empty: the defaults again, the same tree as before.
    uci.send("setoption name SearchParams value <empty>");
    assert_eq!(uci.sync(), vec!["info string search parameters: default".to_string()]);
    assert_eq!(nodes_at_depth_7(&mut uci), default_nodes);
    // Default values given by name are kept by name (they would hold against a game's own
    // defaults) and search as the defaults do.
    uci.send("setoption name SearchParams value rfp_margin=85 lmr_div=225");
    assert_eq!(
        uci.sync(),
        vec!["info string search parameters: rfp_margin=85,lmr_div=225".to_string()]
    );
    assert_eq!(nodes_at_depth_7(&mut uci), default_nodes);
}
