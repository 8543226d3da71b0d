//! The UCI driver: reads lines, acts on the [`Engine`], writes answers. Bad input gets an
//! `info string error: ...` line and leaves the engine's state as it was.

use std::{
    io::{self, BufRead, Write},
    sync::{Arc, Mutex},
};

use super::{
    command::{parse, Command, GoParams, PositionStart},
    options::{self, set_option, OptionValue, OPTIONS},
};
use crate::{
    engine::{parse_game_in, Engine},
    eval::{self, wdl::WdlModel},
    rules::{settings::Readings, Color, Position, Variant},
    search::{params::SearchParams, time, Limits, Score, SearchInfo, SearchResult},
};

/// Where answers go: shared by the reading thread and the search thread.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Formats an `info` line.
pub fn info_line(pos: &Position, info: &SearchInfo) -> String {
    info_line_with(pos, info, None)
}

/// The `wdl W D L` of a score (per mille, the side to move's view) under a model; a mate is a
/// certain win or loss.
pub fn wdl_of(score: Score, model: &WdlModel) -> [u32; 3] {
    match score {
        Score::Cp(cp) => model.estimate(cp).permille(),
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
    }
}

/// Formats an `info` line, with `wdl W D L` after the score when a model is given
/// (`UCI_ShowWDL`).
pub fn info_line_with(pos: &Position, info: &SearchInfo, wdl: Option<&WdlModel>) -> String {
    let pv: Vec<String> = info.pv.iter().map(|&m| pos.uci(m)).collect();
    let bound = match info.bound {
        Some(crate::search::tt::Bound::Lower) => " lowerbound",
        Some(crate::search::tt::Bound::Upper) => " upperbound",
        _ => "",
    };
    let wdl = wdl.map_or(String::new(), |m| {
        let [w, d, l] = wdl_of(info.score, m);
        format!(" wdl {w} {d} {l}")
    });
    format!(
        "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        bound,
        wdl,
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}

/// Formats the `bestmove` line.
pub fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    if result.best.is_null() {
        return "bestmove (none)".to_string();
    }
    match result.ponder {
        Some(p) => format!("bestmove {} ponder {}", pos.uci(result.best), pos.uci(p)),
        None => format!("bestmove {}", pos.uci(result.best)),
    }
}

/// A UCI session.
pub struct Session {
    engine: Engine,
    out: Output,
    /// The `VariantRules` text (applied to variants that have rule settings).
    rules: String,
    /// The readings the `VariantRules` text starts from: the `Parsi_Ludii` switch.
    readings: Readings,
    /// The `UCI_ShowWDL` switch.
    show_wdl: bool,
    /// `Skill Level`.
    skill: u8,
    /// `UCI_LimitStrength`.
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: i64,
}

impl Session {
    /// A session writing to `out`.
    pub fn new(out: Output) -> Session {
        Session {
            engine: Engine::new(),
            out,
            rules: String::new(),
            readings: Readings::Default,
            show_wdl: false,
            skill: crate::skill::MAX_SKILL,
            limit_strength: false,
            elo: crate::skill::ELO_MAX,
        }
    }

    fn error(&self, msg: impl std::fmt::Display) {
        send(&self.out, &format!("info string error: {msg}"));
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let cmd = match parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                self.error(e);
                return true;
            }
        };
        match cmd {
            Command::Uci => {
                send(
                    &self.out,
                    &format!("id name Persian Chess engine {}", env!("CARGO_PKG_VERSION")),
                );
                send(&self.out, "id author the Persian Chess engine developers");
                for o in OPTIONS {
                    send(&self.out, &o.to_string());
                }
                send(&self.out, "uciok");
            }
            Command::Debug(_) => {}
            Command::IsReady => send(&self.out, "readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => {
                let fen = match &start {
                    PositionStart::StartPos => None,
                    PositionStart::Fen(f) => Some(f.as_str()),
                };
                let parsed = parse_game_in(self.engine.rules(), fen, &moves);
                if let Err(e) = parsed.and_then(|(start, moves)| self.engine.set_game(start, &moves)) {
                    self.error(format!("position not changed: {e}"));
                }
            }
            Command::Go(params) => self.go(params),
            Command::Stop | Command::PonderHit => {
                self.engine.wait();
            }
            Command::Quit => {
                self.engine.wait();
                return false;
            }
            Command::Display => {
                let pos = self.engine.position();
                let mut text = pos.diagram();
                text.push_str(&format!("\nFen: {}\nKey: {:016x}\n", pos.fen(), pos.hash()));
                let checkers: Vec<String> = pos
                    .checkers()
                    .iter()
                    .map(|s| pos.tables().geometry.square_name(s))
                    .collect();
                text.push_str(&format!("Checkers: {}", checkers.join(" ")));
                for l in text.lines() {
                    send(&self.out, l);
                }
            }
            Command::Eval => {
                let pos = self.engine.position();
                for l in eval_report(pos).lines() {
                    send(&self.out, l);
                }
                if let Some(net) = self.engine.net() {
                    send(
                        &self.out,
                        &format!(
                            "NNUE evaluation: {} cp for the side to move",
                            net.evaluate_position(pos)
                        ),
                    );
                }
                send(&self.out, &format!("Evaluation in use: {}", self.engine.eval_summary()));
            }
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let (spec, value) = match set_option(OPTIONS, name, value) {
            Ok(x) => x,
            Err(e) => return self.error(e),
        };
        match (spec.name, value) {
            (options::UCI_VARIANT, OptionValue::Combo(id)) => match id.parse::<Variant>() {
                Ok(v) => {
                    let book = self.engine.book().map(|b| b.variant());
                    self.engine.set_variant(v);
                    self.apply_rules();
                    if let Some(old) = book.filter(|&b| b != v) {
                        send(
                            &self.out,
                            &format!("info string book off: the book is for {old}, not {v}"),
                        );
                    }
                }
                Err(e) => self.error(e),
            },
            (options::HASH, OptionValue::Spin(mb)) => self.engine.set_hash(mb as usize),
            (options::THREADS, OptionValue::Spin(n)) => self.engine.set_threads(n as usize),
            (options::MULTI_PV, OptionValue::Spin(n)) => self.engine.set_multipv(n as usize),
            (options::MOVE_OVERHEAD, OptionValue::Spin(ms)) => self.engine.set_move_overhead(ms as u64),
            (options::CLEAR_HASH, _) => self.engine.clear_hash(),
            (options::EVAL_FILE, OptionValue::String(s)) => {
                match self.engine.set_eval(crate::engine::EvalSource::parse(&s)) {
                    Ok(()) => send(
                        &self.out,
                        &format!("info string evaluation: {}", self.engine.eval_summary()),
                    ),
                    Err(e) => self.error(format!("EvalFile not changed: {e}")),
                }
            }
            (options::BOOK_FILE, OptionValue::String(s)) => self.set_book_file(&s),
            (options::VARIANT_RULES, OptionValue::String(s)) => {
                let old = std::mem::replace(&mut self.rules, s);
                if !self.apply_rules() {
                    self.rules = old;
                }
            }
            (options::PARSI_LUDII, OptionValue::Check(on)) => {
                self.readings = if on { Readings::Ludii } else { Readings::Default };
                self.apply_rules();
            }
            (options::UCI_SHOW_WDL, OptionValue::Check(on)) => {
                self.show_wdl = on;
                if on && WdlModel::for_variant(self.engine.variant()).is_none() {
                    send(
                        &self.out,
                        &format!(
                            "info string no win/draw/loss model for {} yet: info lines carry no wdl",
                            self.engine.variant()
                        ),
                    );
                }
            }
            (options::SKILL_LEVEL, OptionValue::Spin(n)) => {
                self.skill = u8::try_from(n).unwrap_or(crate::skill::MAX_SKILL);
                self.apply_strength();
            }
            (options::UCI_LIMIT_STRENGTH, OptionValue::Check(on)) => {
                self.limit_strength = on;
                self.apply_strength();
            }
            (options::UCI_ELO, OptionValue::Spin(elo)) => {
                self.elo = elo;
                self.apply_strength();
            }
            (options::SEARCH_PARAMS, OptionValue::String(s)) => match SearchParams::parse(&s) {
                Ok(params) => {
                    let shown = if params.is_default() {
                        "default".to_string()
                    } else {
                        params.to_string()
                    };
                    self.engine.set_search_params(params);
                    send(&self.out, &format!("info string search parameters: {shown}"));
                }
                Err(e) => self.error(format!("{} not changed: {e}", options::SEARCH_PARAMS)),
            },
            (other, _) => self.error(format!("option '{other}' is not handled")),
        }
    }

    /// Puts `UCI_LimitStrength` with `UCI_Elo`, else `Skill Level`, in force and says what it
    /// means.
    fn apply_strength(&mut self) {
        let strength = if self.limit_strength {
            crate::skill::Strength::from_elo(self.elo)
        } else {
            crate::skill::Strength::from_skill(self.skill)
        };
        if strength != self.engine.settings().strength {
            self.engine.set_strength(strength);
            send(&self.out, &format!("info string strength: {}", strength.describe()));
        }
    }

    /// Puts the rule settings (`Parsi_Ludii`, then `VariantRules`) in force for the current
    /// variant, when it has settings; says which rules are in force when they change. False
    /// (and an error line) when the settings cannot be read: the rules stay as they were.
    fn apply_rules(&mut self) -> bool {
        let v = self.engine.variant();
        if !v.has_rule_settings() {
            return true;
        }
        // The switch applies to the variants whose settings know its readings.
        let readings = if v.knows_readings(self.readings) {
            self.readings
        } else {
            Readings::Default
        };
        match v.tables_from(readings, &self.rules) {
            Ok(tables) => {
                let changed = !std::ptr::eq(tables, self.engine.rules());
                self.engine.set_rules(tables);
                if changed {
                    let shown = if tables.rules.settings().is_empty() {
                        "default"
                    } else {
                        tables.rules.settings()
                    };
                    send(&self.out, &format!("info string rules: {v} ({shown})"));
                }
                true
            }
            Err(e) => {
                self.error(format!("{} not changed: {e}", options::VARIANT_RULES));
                false
            }
        }
    }

    /// `setoption name BookFile value <path>`: loads a book for the current variant; empty
    /// turns the book off. On error the previous book stays.
    fn set_book_file(&mut self, path: &str) {
        if path.is_empty() {
            if self.engine.book().is_some() {
                let _ = self.engine.set_book(None);
                send(&self.out, "info string book off");
            }
            return;
        }
        match self.engine.set_book(Some(std::path::Path::new(path))) {
            Ok(()) => {
                let summary = self.engine.book().map(|b| b.summary()).unwrap_or_default();
                send(&self.out, &format!("info string book: {path}: {summary}"));
            }
            Err(e) => self.error(format!("BookFile not changed: {e}")),
        }
    }

    fn go(&mut self, p: GoParams) {
        self.engine.wait();
        if let Some(depth) = p.perft {
            // On a thread, as a search: `isready` is answered meanwhile, and `stop`, `quit` or
            // a command that needs the engine idle ends the count.
            let pos = self.engine.position().clone();
            let out = self.out.clone();
            let out2 = self.out.clone();
            let started = self.engine.start_perft(
                depth,
                Box::new(move |m, n| send(&out, &format!("{}: {n}", pos.uci(m)))),
                Box::new(move |outcome| {
                    if outcome.stopped {
                        send(
                            &out2,
                            &format!(
                                "info string perft {depth} stopped: {} of {} root moves counted, {} nodes below them",
                                outcome.counted, outcome.moves, outcome.nodes
                            ),
                        );
                    } else {
                        send(&out2, "");
                        send(&out2, &format!("Nodes searched: {}", outcome.nodes));
                    }
                }),
            );
            if let Err(e) = started {
                self.error(format!("go perft: {e}"));
            }
            return;
        }
        let pos = self.engine.position().clone();
        let overhead = self.engine.settings().move_overhead_ms;
        let mut limits = Limits {
            depth: p.depth,
            nodes: p.nodes,
            mate: p.mate,
            infinite: p.infinite || p.ponder,
            multipv: self.engine.settings().multipv,
            ..Limits::default()
        };
        // `go mate N` searches until a mate in N or fewer moves is found (or another limit or
        // `stop` ends the search): pruning can hide a mate at its nominal depth, so no depth
        // cap is derived from N.
        let (t, inc) = match pos.turn() {
            Color::White => (p.wtime, p.winc),
            Color::Black => (p.btime, p.binc),
        };
        let time_limit = match (p.movetime, t) {
            (Some(mt), _) => time::TimeLimit::MoveTime(mt),
            (None, Some(t)) => time::TimeLimit::Clock(time::Clock {
                time_ms: t,
                inc_ms: inc.unwrap_or(0),
                moves_to_go: p.movestogo,
            }),
            (None, None) => time::TimeLimit::Unlimited,
        };
        limits.budget = time::plan(time_limit, overhead, None);
        for text in &p.searchmoves {
            match pos.parse_uci(text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => self.error(format!("searchmoves: {e}")),
            }
        }
        if let Some(book) = self.engine.book_move_for(&limits) {
            send(
                &self.out,
                &format!(
                    "info string book move {} ({}): {}",
                    pos.uci(book.mv),
                    pos.san(book.mv),
                    book.describe()
                ),
            );
            send(&self.out, &format!("bestmove {}", pos.uci(book.mv)));
            return;
        }
        send(
            &self.out,
            &format!("info string evaluation: {}", self.engine.eval_summary()),
        );
        let info_pos = pos.clone();
        let out = self.out.clone();
        let out2 = self.out.clone();
        let wdl = if self.show_wdl {
            WdlModel::for_variant(pos.variant()).map(|(m, _)| m)
        } else {
            None
        };
        self.engine.start_search(
            limits,
            Box::new(move |info| send(&out, &info_line_with(&info_pos, info, wdl.as_ref()))),
            Box::new(move |result| send(&out2, &bestmove_line(&pos, result))),
        );
    }
}

/// The `eval` report: the terms of the hand-crafted evaluation.
pub fn eval_report(pos: &Position) -> String {
    let tr = eval::trace(pos);
    let row = |name: &str, p: eval::params::Pair| format!("{name:<14} {:>6} {:>6}\n", p.0, p.1);
    let mut s = String::from("Evaluation: hand-crafted (White's view, middlegame / endgame)\n");
    s.push_str(&row("material", tr.material));
    s.push_str(&row("placement", tr.placement));
    s.push_str(&row("pawns", tr.pawns));
    s.push_str(&row("mobility", tr.mobility));
    s.push_str(&row("king safety", tr.king_safety));
    s.push_str(&row("bishop pair", tr.bishop_pair));
    s.push_str(&row("rules", tr.rules));
    s.push_str(&format!("phase          {:>6} / 256\n", tr.phase));
    s.push_str(&format!(
        "total          {:>6} cp for the side to move ({})\n",
        tr.total,
        pos.turn().name()
    ));
    let drive = eval::lone_king_drive(pos);
    if drive != 0 {
        s.push_str(&format!(
            "lone-king drive {drive:>5} cp for the side to move, added by the search to either evaluation\n"
        ));
    }
    s
}

/// Runs a session on standard input and output until `quit` or end of input.
pub fn run_stdio() -> io::Result<()> {
    let out: Output = Arc::new(Mutex::new(Box::new(io::stdout())));
    let mut session = Session::new(out);
    let stdin = io::stdin();
    let mut line = String::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {
                if !session.handle(&line) {
                    return Ok(());
                }
            }
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                session.error("input line is not valid UTF-8");
            }
            Err(e) => return Err(e),
        }
    }
    // End of input is a quit: stop a running search (its bestmove is still printed). A perft
    // count, whose only answer is its total, is let finish, as when it ran on this thread
    // (`echo "go perft 5" | engine`); `quit` stops it.
    session.engine.join_perft();
    session.engine.wait();
    Ok(())
}
