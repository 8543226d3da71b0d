//! Batch analysis: many positions in, one result each out (`engine analyse --epd FILE`,
//! `engine analyse --pgn FILE [--each-ply]`, `engine eval --epd FILE`, each with `--json`).
//!
//! Input: an EPD or FEN file (one position per line: a whole FEN, else EPD; empty lines and lines
//! starting with `#` are skipped), or PGN games (each game's last position, or with `each_ply`
//! every position of the game, its start included). A line or game that cannot be read becomes
//! an item with an error, so that one bad line does not stop the batch.
//!
//! Output: one JSON object per item, on one line ([`analysis_json`], [`eval_json`],
//! [`error_json`]); docs/engine.md describes the fields.

use std::{
    collections::BTreeMap,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
};

use crate::{
    engine::{Engine, EvalSource},
    eval::wdl::WdlModel,
    play::openings::epd_fen,
    rules::{game::Game, notation::pgn, tables::Tables, Move, Position},
    search::{Limits, Score, SearchResult},
};

/// One position of a batch, or why its line could not be read.
#[derive(Clone, Debug)]
pub struct Item {
    /// 1-based line of the input where the position (an EPD line) or its game starts.
    pub line: usize,
    /// 1-based game number (PGN input).
    pub game: Option<usize>,
    /// Plies played from the game's start (PGN input).
    pub ply: Option<usize>,
    /// The EPD `id` operation, when the line has one.
    pub id: Option<String>,
    /// The input line (EPD), for error objects.
    pub text: String,
    /// The game's start and the moves played from it (none for EPD), or the error.
    pub game_state: Result<(Position, Vec<Move>), String>,
}

impl Item {
    /// The position to analyse.
    pub fn position(&self) -> Option<Position> {
        let (start, moves) = self.game_state.as_ref().ok()?;
        let mut pos = start.clone();
        for &m in moves {
            pos.play_unchecked(m);
        }
        Some(pos)
    }

    /// Whether the item could not be read.
    pub fn is_error(&self) -> bool {
        self.game_state.is_err()
    }
}

/// The `id` operation of an EPD line (`id "name";`), if any.
fn epd_id(line: &str) -> Option<String> {
    let at = line.find(" id ")?;
    let rest = line[at + 4..].trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// The positions of EPD (or FEN) text, one per line, under the rules of `tables`.
pub fn read_epd(tables: &'static Tables, text: &str) -> Vec<Item> {
    let mut items = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // A whole FEN first (its fields after the fourth are the variant's), else EPD.
        let game_state = Position::from_fen_in(tables, line)
            .or_else(|_| epd_fen(line).and_then(|fen| Position::from_fen_in(tables, &fen).map_err(|e| e.to_string())))
            .map(|p| (p, Vec::new()));
        items.push(Item {
            line: i + 1,
            game: None,
            ply: None,
            id: epd_id(line),
            text: line.to_string(),
            game_state,
        });
    }
    items
}

/// Splits PGN text into games: (1-based first line, text). A game starts at a tag line that
/// follows movetext, or at the first line.
fn split_games(text: &str) -> Vec<(usize, String)> {
    let mut games: Vec<(usize, String)> = Vec::new();
    let mut in_movetext = false;
    let mut current: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') && in_movetext {
            games.extend(current.take());
            in_movetext = false;
        }
        if !t.is_empty() && !t.starts_with('[') && !t.starts_with('%') {
            in_movetext = true;
        }
        if t.is_empty() && current.is_none() {
            continue;
        }
        let (_, body) = current.get_or_insert_with(|| (i + 1, String::new()));
        body.push_str(line);
        body.push('\n');
    }
    games.extend(current);
    games
}

/// The positions of PGN games: each game's last position, or with `each_ply` every position
/// from its start to its end. Games without a `Variant` tag are of `tables`' variant and under
/// its rules; a game of another variant, or one that cannot be read, is one error item.
pub fn read_pgn(tables: &'static Tables, text: &str, each_ply: bool) -> Vec<Item> {
    let variant = tables.spec.variant.unwrap_or(crate::rules::Variant::DEFAULT);
    let mut items = Vec::new();
    for (number, (line, body)) in split_games(text).into_iter().enumerate() {
        let game = number + 1;
        let error = |message: String| Item {
            line,
            game: Some(game),
            ply: None,
            id: None,
            text: String::new(),
            game_state: Err(message),
        };
        // Blank lines in front keep the reader's line numbers those of the file.
        let padded = format!("{}{body}", "\n".repeat(line - 1));
        let read = match pgn::read_game(&padded, variant) {
            Ok(Some(g)) => g,
            Ok(None) => continue,
            Err(e) => {
                items.push(error(e.to_string()));
                continue;
            }
        };
        if read.variant() != variant {
            items.push(error(format!("a {} game, not {variant}", read.variant())));
            continue;
        }
        // The game under the batch's rules (the reader knows the variant's defaults only).
        let start = match Position::from_fen_in(tables, &read.start.fen()) {
            Ok(p) => p,
            Err(e) => {
                items.push(error(e.to_string()));
                continue;
            }
        };
        let plies: Vec<usize> = if each_ply {
            (0..=read.moves.len()).collect()
        } else {
            vec![read.moves.len()]
        };
        let mut played = Game::new(start.clone());
        let mut legal = true;
        for (i, &m) in read.moves.iter().enumerate() {
            if !played.is_legal(m) {
                items.push(error(format!("move {} is not legal under these rules", i + 1)));
                legal = false;
                break;
            }
            played.play(m);
        }
        if !legal {
            continue;
        }
        for ply in plies {
            items.push(Item {
                line,
                game: Some(game),
                ply: Some(ply),
                id: None,
                text: String::new(),
                game_state: Ok((start.clone(), read.moves[..ply].to_vec())),
            });
        }
    }
    items
}

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of strings.
fn json_strings(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| json_string(s)).collect();
    format!("[{}]", inner.join(","))
}

/// The fields that say where an item comes from: `"line":N` and, for PGN input, `"game"` and
/// `"ply"`, and the EPD `"id"`.
fn origin_fields(item: &Item) -> String {
    let mut s = format!("\"line\":{}", item.line);
    if let Some(g) = item.game {
        s.push_str(&format!(",\"game\":{g}"));
    }
    if let Some(p) = item.ply {
        s.push_str(&format!(",\"ply\":{p}"));
    }
    if let Some(id) = &item.id {
        s.push_str(&format!(",\"id\":{}", json_string(id)));
    }
    s
}

/// The error object of an item that could not be read (or analysed):
/// `{"line":N,...,"input":"...","error":"..."}`.
pub fn error_json(item: &Item, error: &str) -> String {
    let input = if item.text.is_empty() {
        String::new()
    } else {
        format!(",\"input\":{}", json_string(&item.text))
    };
    format!("{{{}{input},\"error\":{}}}", origin_fields(item), json_string(error))
}

/// A score as JSON: `{"cp":N}` or `{"mate":N}` (side to move's view).
fn score_json(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("{{\"cp\":{c}}}"),
        Score::Mate(m) => format!("{{\"mate\":{m}}}"),
    }
}

/// The W/D/L (per mille) of a score under the variant's model, or `null` without a model.
fn wdl_json(score: Score, model: Option<&WdlModel>) -> String {
    match model {
        Some(m) => {
            let [w, d, l] = crate::uci::session::wdl_of(score, m);
            format!("[{w},{d},{l}]")
        }
        None => "null".to_string(),
    }
}

/// The game's outcome in a position, as JSON fields (`"bestmove":null,"result":...`), when the
/// game is over there.
fn outcome_fields(start: &Position, moves: &[Move]) -> Option<String> {
    let mut game = Game::new(start.clone());
    for &m in moves {
        game.play(m);
    }
    let o = game.outcome()?;
    Some(format!(
        "\"bestmove\":null,\"result\":{},\"termination\":{},\"description\":{}",
        json_string(o.result()),
        json_string(o.key()),
        json_string(o.description())
    ))
}

/// The result of a search as one JSON object: where the item comes from, `fen`, `bestmove`
/// (UCI), `san`, `score` (`{"cp":N}` or `{"mate":N}`, side to move), `wdl` (per mille or null),
/// `depth`, `seldepth`, `nodes`, `time_ms`, `pv` (UCI) and `pv_san`.
pub fn analysis_json(item: &Item, pos: &Position, result: &SearchResult, seldepth: u32, time_ms: u128) -> String {
    let mut p = pos.clone();
    let mut san = Vec::new();
    for &m in &result.pv {
        san.push(p.san(m));
        p.play_unchecked(m);
    }
    let uci: Vec<String> = result.pv.iter().map(|&m| pos.uci(m)).collect();
    let model = WdlModel::for_variant(pos.variant()).map(|(m, _)| m);
    format!(
        "{{{},\"fen\":{},\"bestmove\":{},\"san\":{},\"score\":{},\"wdl\":{},\"depth\":{},\"seldepth\":{},\
         \"nodes\":{},\"time_ms\":{},\"pv\":{},\"pv_san\":{}}}",
        origin_fields(item),
        json_string(&pos.fen()),
        json_string(&pos.uci(result.best)),
        json_string(&pos.san(result.best)),
        score_json(result.score),
        wdl_json(result.score, model.as_ref()),
        result.depth,
        seldepth,
        result.nodes,
        time_ms,
        json_strings(&uci),
        json_strings(&san),
    )
}

/// The static evaluation of a position as one JSON object: where the item comes from, `fen`,
/// `turn`, `hce` (each term of the hand-crafted evaluation as `[middlegame, endgame]` from
/// White's view, `phase` 0..256 and `total` in cp for the side to move), `nnue` (the net's cp
/// for the side to move, or null), `drive` (what the search adds to either evaluation in a
/// lone-king ending, cp for the side to move; 0 elsewhere), `wdl` (of the evaluation in use, per
/// mille, or null) and `evaluation` (which one is in use).
pub fn eval_json(item: &Item, pos: &Position, engine: &Engine) -> String {
    let tr = crate::eval::trace(pos);
    let pair = |p: crate::eval::params::Pair| format!("[{},{}]", p.0, p.1);
    let nnue = engine.net().map(|n| n.evaluate_position(pos));
    let cp = nnue.unwrap_or(tr.total);
    let model = WdlModel::for_variant(pos.variant()).map(|(m, _)| m);
    format!(
        "{{{},\"fen\":{},\"turn\":{},\"hce\":{{\"material\":{},\"placement\":{},\"pawns\":{},\"mobility\":{},\
         \"king_safety\":{},\"bishop_pair\":{},\"rules\":{},\"phase\":{},\"total\":{}}},\"nnue\":{},\"drive\":{},\
         \"wdl\":{},\"evaluation\":{}}}",
        origin_fields(item),
        json_string(&pos.fen()),
        json_string(&pos.turn().name().to_ascii_lowercase()),
        pair(tr.material),
        pair(tr.placement),
        pair(tr.pawns),
        pair(tr.mobility),
        pair(tr.king_safety),
        pair(tr.bishop_pair),
        pair(tr.rules),
        tr.phase,
        tr.total,
        nnue.map_or("null".to_string(), |c| c.to_string()),
        crate::eval::lone_king_drive(pos),
        wdl_json(Score::Cp(cp), model.as_ref()),
        json_string(&engine.eval_summary()),
    )
}

/// How the positions of a batch are searched.
#[derive(Clone, Debug)]
pub struct BatchSettings {
    /// The search limits of each position.
    pub limits: Limits,
    /// Positions searched at the same time, each by its own engine.
    pub jobs: usize,
    /// Search threads of each engine.
    pub threads: usize,
    /// Transposition table of each engine, MB.
    pub hash_mb: usize,
    /// The evaluation.
    pub eval: EvalSource,
    /// The rules.
    pub tables: &'static Tables,
}

/// What became of one item.
pub enum Outcome {
    /// Searched: the position, the result, the deepest ply reached and the time taken.
    Searched {
        /// The position searched.
        position: Position,
        /// The result.
        result: SearchResult,
        /// Deepest ply reached.
        seldepth: u32,
        /// Milliseconds.
        time_ms: u128,
    },
    /// The game is over in the position: the JSON fields saying how.
    Over(Position, String),
    /// The item could not be read or searched.
    Error(String),
}

/// Searches `items` with `settings.jobs` engines at once; `each` gets every item's outcome in
/// the order of the items, and stops the batch when it returns false (items already being
/// searched are finished, not reported).
pub fn analyse(
    items: &[Item],
    settings: &BatchSettings,
    each: &mut dyn FnMut(&Item, Outcome) -> bool,
) -> anyhow::Result<()> {
    let jobs = settings.jobs.clamp(1, items.len().max(1));
    // Every engine is built (and its evaluation checked) before any search.
    let mut engines = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        let mut e = Engine::new();
        e.set_rules(settings.tables);
        e.set_eval(settings.eval.clone())?;
        e.set_hash(settings.hash_mb);
        e.set_threads(settings.threads);
        engines.push(e);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    std::thread::scope(|scope| {
        for mut engine in engines {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let outcome = search_one(&mut engine, item, &settings.limits);
                if tx.send((i, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Report in input order.
        let mut waiting = BTreeMap::new();
        let mut reported = 0;
        for (i, outcome) in rx {
            waiting.insert(i, outcome);
            while let Some(outcome) = waiting.remove(&reported) {
                if !each(&items[reported], outcome) {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                reported += 1;
            }
        }
    });
    Ok(())
}

/// Searches one item on `engine` (a new game each time: results do not depend on the order).
fn search_one(engine: &mut Engine, item: &Item, limits: &Limits) -> Outcome {
    let (start, moves) = match &item.game_state {
        Ok(x) => x,
        Err(e) => return Outcome::Error(e.clone()),
    };
    let Some(position) = item.position() else {
        return Outcome::Error("no position".into());
    };
    if let Some(fields) = outcome_fields(start, moves) {
        return Outcome::Over(position, fields);
    }
    engine.new_game();
    if let Err(e) = engine.set_game(start.clone(), moves) {
        return Outcome::Error(e.to_string());
    }
    let started = std::time::Instant::now();
    let mut seldepth = 0;
    let result = engine.search(limits.clone(), &mut |info| {
        if info.multipv == 1 {
            seldepth = info.seldepth;
        }
    });
    Outcome::Searched {
        position,
        result,
        seldepth,
        time_ms: started.elapsed().as_millis(),
    }
}

/// The JSON object of a game-over position: where it comes from, `fen` and how the game ended.
pub fn over_json(item: &Item, pos: &Position, fields: &str) -> String {
    format!(
        "{{{},\"fen\":{},{fields}}}",
        origin_fields(item),
        json_string(&pos.fen())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn epd_lines_and_errors() {
        let tables = Variant::Chess.tables();
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n\
                    \n\
                    not a fen\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n";
        let items = read_epd(tables, text);
        assert_eq!(items.len(), 3);
        assert_eq!((items[0].line, items[0].id.as_deref()), (2, Some("start")));
        assert!(items[1].is_error() && items[1].line == 4);
        assert!(!items[2].is_error());
        let json = error_json(&items[1], "bad \"fen\"\n");
        assert_eq!(
            json,
            "{\"line\":4,\"input\":\"not a fen\",\"error\":\"bad \\\"fen\\\"\\n\"}"
        );
    }

    #[test]
    fn pgn_games_each_ply_and_a_bad_game() {
        let tables = Variant::Chess.tables();
        let text = "[Event \"a\"]\n[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 *\n\n\
                    [Event \"b\"]\n\n1. e4 Ke7 Kx *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let items = read_pgn(tables, text, true);
        let games: Vec<(Option<usize>, Option<usize>, usize, bool)> =
            items.iter().map(|i| (i.game, i.ply, i.line, i.is_error())).collect();
        assert_eq!(
            games,
            [
                (Some(1), Some(0), 1, false),
                (Some(1), Some(1), 1, false),
                (Some(1), Some(2), 1, false),
                (Some(1), Some(3), 1, false),
                (Some(2), None, 6, true),
                (Some(3), Some(0), 10, false),
                (Some(3), Some(1), 10, false),
            ]
        );
        assert!(
            items[4].game_state.as_ref().unwrap_err().contains("line 8"),
            "{:?}",
            items[4].game_state
        );
        let last = read_pgn(tables, text, false);
        assert_eq!(last.len(), 3);
        assert_eq!(last[0].ply, Some(3));
    }
}
