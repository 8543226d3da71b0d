//! Study tools of the pages, server side: the opening explorer (the trees that `trainer
//! openings` writes, loaded at start with `--openings DIR`), positions for the analysis board
//! (a FEN and moves, or a pasted PGN) and engine analysis with bounded nodes per request, a
//! budget per user (or address) and at most two searches at once.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::Arc,
    time::Instant,
};

use axum::{
    body::Bytes,
    extract::{RawQuery, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use engine::{
    opening_tree::{Node, TreeFile},
    rules::{Position, Variant},
};
use serde_json::{json, Value};

use super::{
    board::{board_json, replay},
    explorer,
    form::parse_urlencoded,
    Shared,
};
use lichess_api::variants;

/// The opening trees by variant (engine id).
#[derive(Default)]
pub struct Openings {
    /// The tree of the start position of each variant (its root as a line without a move).
    trees: BTreeMap<&'static str, (Node, PathBuf)>,
}

impl Openings {
    /// Reads every `tree.json` in `dir` and its sub-folders (one level: `trainer openings`
    /// writes `openings-<variant>/tree.json`). The start-position tree of each variant is kept;
    /// two trees of one variant, or a file that is not a tree, stop the start with an error
    /// that names the file.
    pub fn load(dir: &Path) -> anyhow::Result<Openings> {
        let mut files = Vec::new();
        let top = std::fs::read_dir(dir).map_err(|e| anyhow::anyhow!("--openings {}: {e}", dir.display()))?;
        for entry in top.flatten() {
            let path = entry.path();
            if path.is_dir() {
                let inner = path.join("tree.json");
                if inner.is_file() {
                    files.push(inner);
                }
            } else if path.file_name().is_some_and(|n| n == "tree.json") {
                files.push(path);
            }
        }
        files.sort();
        let mut trees = BTreeMap::new();
        for file in files {
            let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let tree = TreeFile::from_json(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let variant: Variant = tree
                .variant
                .parse()
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let Some(root) = tree.roots.into_iter().find(|r| r.start == "startpos") else {
                tracing::warn!("{}: no tree from the start position; left out", file.display());
                continue;
            };
            let root = Node {
                stats: root.stats,
                children: root.children,
                ..Node::default()
            };
            let id = variant.spec().id;
            if let Some((_, other)) = trees.get(id) {
                anyhow::bail!(
                    "{} and {} are both trees of {id}: give one per variant",
                    PathBuf::clone(other).display(),
                    file.display()
                );
            }
            trees.insert(id, (root, file));
        }
        Ok(Openings { trees })
    }

    /// The variants with a tree.
    pub fn variants(&self) -> Vec<&'static str> {
        self.trees.keys().copied().collect()
    }

    fn tree(&self, variant: Variant) -> Option<&Node> {
        self.trees.get(variant.spec().id).map(|t| &t.0)
    }
}

type S = State<Arc<Shared>>;

struct Refused(StatusCode, String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

fn bad(msg: impl Into<String>) -> Refused {
    Refused(StatusCode::BAD_REQUEST, msg.into())
}

/// The routes of this module.
pub fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/arena/explorer", get(explorer))
        .route("/api/arena/explorer/games", get(explorer_games))
        .route("/api/arena/position", get(position))
        .route("/api/arena/pgn", post(pgn))
        .route("/api/arena/analyse", post(analyse))
}

/// The variant of a server key or an engine name.
fn variant_of(key: &str) -> Result<Variant, Refused> {
    variants::arena_variant(key)
        .or_else(|| key.parse().ok())
        .ok_or_else(|| bad(format!("Unknown variant: {key}")))
}

/// Most moves a position may be given with.
const MAX_MOVES: usize = 1000;

/// The position of `fen` (empty: the start) after `moves` (UCI, separated by commas or
/// spaces), read as the engine reads a UCI `position`, with the SAN of each move and the last.
/// The position at the end of a line, the line's SAN, its last move and the hashes of the
/// positions before the end, oldest first (for the rules that read them).
type Line = (Position, Vec<String>, Option<engine::rules::Move>, Vec<u64>);

fn setup(variant: Variant, fen: &str, moves: &str) -> Result<Line, Refused> {
    let list: Vec<String> = moves
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    if list.len() > MAX_MOVES {
        return Err(bad(format!("At most {MAX_MOVES} moves")));
    }
    let fen = Some(fen.trim()).filter(|f| !f.is_empty());
    let (start, played) = engine::engine::parse_game(variant, fen, &list).map_err(|e| match e {
        engine::engine::SetPositionError::Fen(e) => bad(format!("Invalid FEN: {e}")),
        other => bad(format!("Not a legal line: {other}")),
    })?;
    let (mut positions, sans) = replay(&start, &played);
    let end = positions.pop().unwrap_or(start);
    let history = positions.iter().map(Position::hash).collect();
    Ok((end, sans, played.last().copied(), history))
}

fn stats(l: &Node) -> Value {
    let s = &l.stats;
    json!({
        "uci": l.uci, "san": l.san, "games": s.games,
        "white": s.white_wins, "draws": s.draws, "black": s.black_wins,
        "score": s.score, "scoreLow": s.score_low, "scoreHigh": s.score_high, "evalCp": s.eval_cp,
    })
}

/// `GET /api/arena/explorer?variant=V&play=m1,m2`: the games through the line and the moves
/// played after it, from the opening tree of V. Without `variant`: the variants with a tree,
/// and every variant of the arena with its games in the explorer of arena games.
async fn explorer(State(s): S, RawQuery(query): RawQuery) -> Result<Response, Refused> {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let Some(key) = q.get("variant").filter(|k| !k.is_empty()) else {
        let list: Vec<Value> = s
            .openings
            .variants()
            .into_iter()
            .filter_map(|id| id.parse::<Variant>().ok())
            .map(|v| json!({ "key": variants::server_key(v), "name": v.spec().name }))
            .collect();
        let played: Vec<Value> = {
            let index = s.game_index.lock().unwrap_or_else(|p| p.into_inner());
            Variant::ALL
                .into_iter()
                .map(|v| {
                    let name = variants::variant_ref(v, false).name;
                    json!({ "key": variants::server_key(v), "name": name, "games": index.games_of(v) })
                })
                .collect()
        };
        return Ok(Json(json!({ "variants": list, "arena": played })).into_response());
    };
    let variant = variant_of(key)?;
    let tree = s.openings.tree(variant).ok_or_else(|| {
        Refused(
            StatusCode::NOT_FOUND,
            format!(
                "No opening statistics for {} (the arena loads them with --openings DIR)",
                variant.spec().name
            ),
        )
    })?;
    let play = q.get("play").map_or("", String::as_str);
    let (pos, sans, last, _) = setup(variant, "", play)?;
    let mut node = Some(tree);
    for uci in play.split([',', ' ']).filter(|m| !m.is_empty()) {
        node = node.and_then(|n| n.children.iter().find(|c| c.uci == uci));
    }
    let (here, moves) = match node {
        Some(n) => (stats(n), n.children.iter().map(stats).collect::<Vec<_>>()),
        None => (json!({ "games": 0, "white": 0, "draws": 0, "black": 0 }), Vec::new()),
    };
    Ok(Json(json!({
        "variant": { "key": variants::server_key(variant), "name": variant.spec().name },
        "line": sans,
        "board": board_json(&pos, &[], last, false),
        "position": here,
        "moves": moves,
    }))
    .into_response())
}

/// Speed keys of the explorer's filter.
const SPEEDS: [&str; 6] = ["ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"];

/// The filter of a look-up: `speeds` (comma-separated keys), `minRating`, `maxRating`.
fn games_filter(q: &std::collections::HashMap<String, String>) -> Result<explorer::Filter, Refused> {
    let mut filter = explorer::Filter::default();
    for speed in q
        .get("speeds")
        .map_or("", String::as_str)
        .split(',')
        .filter(|s| !s.is_empty())
    {
        if !SPEEDS.contains(&speed) {
            return Err(bad(format!("Unknown speed: {speed} (one of {})", SPEEDS.join(", "))));
        }
        filter.speeds.insert(speed.to_string());
    }
    let rating = |name: &str| -> Result<Option<i32>, Refused> {
        match q.get(name).filter(|r| !r.is_empty()) {
            None => Ok(None),
            Some(r) => r
                .parse::<i32>()
                .ok()
                .filter(|r| (0..=4000).contains(r))
                .map(Some)
                .ok_or_else(|| bad(format!("Invalid {name}: {r} (0 to 4000)"))),
        }
    };
    filter.min_rating = rating("minRating")?;
    filter.max_rating = rating("maxRating")?;
    Ok(filter)
}

fn results_json(r: &explorer::Results) -> Value {
    json!({ "games": r.games(), "white": r.white, "draws": r.draws, "black": r.black })
}

/// `GET /api/arena/explorer/games?variant=V&fen=F&play=m1,m2&speeds=S&minRating=R&maxRating=R`:
/// the finished games of the arena through the position (`fen`, the start when empty, after
/// `play`), whatever the move order that reached it: their results, the moves they played
/// from it and the newest of them.
async fn explorer_games(State(s): S, RawQuery(query): RawQuery) -> Result<Response, Refused> {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let variant = variant_of(q.get("variant").map_or(variants::LICHESS_STANDARD, String::as_str))?;
    let filter = games_filter(&q)?;
    let (pos, sans, last, _) = setup(
        variant,
        q.get("fen").map_or("", String::as_str),
        q.get("play").map_or("", String::as_str),
    )?;
    let found = s
        .game_index
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .lookup(&pos, &filter);
    let san_of = |uci: &str| {
        pos.parse_uci(uci)
            .map(|m| pos.san(m))
            .unwrap_or_else(|_| uci.to_string())
    };
    let moves: Vec<Value> = found
        .moves
        .iter()
        .map(|m| {
            let mut v = results_json(&m.results);
            v["uci"] = json!(m.uci);
            v["san"] = json!(san_of(&m.uci));
            v["averageRating"] = json!(m.average_rating);
            v
        })
        .collect();
    let recent: Vec<Value> = found
        .recent
        .iter()
        .map(|(g, next)| {
            json!({
                "id": g.id,
                "url": format!("/{}", g.id),
                "white": { "name": g.names[0], "rating": g.ratings[0] },
                "black": { "name": g.names[1], "rating": g.ratings[1] },
                "winner": g.winner.map(super::game::color_name),
                "speed": g.speed,
                "createdAt": g.created_at,
                "uci": next,
                "san": next.as_deref().map(san_of),
            })
        })
        .collect();
    let mut answer = results_json(&found.results);
    answer["variant"] = json!({ "key": variants::server_key(variant), "name": variant.spec().name });
    answer["fen"] = json!(pos.fen());
    answer["line"] = json!(sans);
    answer["board"] = board_json(&pos, &[], last, false);
    answer["moves"] = json!(moves);
    answer["recentGames"] = json!(recent);
    Ok(Json(answer).into_response())
}

/// `GET /api/arena/position?variant=V&fen=F&moves=m1,m2`: the board after the moves (with its
/// legal moves) for the analysis board.
async fn position(RawQuery(query): RawQuery) -> Result<Response, Refused> {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let variant = variant_of(q.get("variant").map_or(variants::LICHESS_STANDARD, String::as_str))?;
    let (pos, sans, last, history) = setup(
        variant,
        q.get("fen").map_or("", String::as_str),
        q.get("moves").map_or("", String::as_str),
    )?;
    Ok(Json(json!({
        "variant": { "key": variants::server_key(variant), "name": variant.spec().name },
        "san": sans,
        "board": board_json(&pos, &history, last, true),
        "outcome": pos.outcome().map(|o| o.description()),
    }))
    .into_response())
}

/// `POST /api/arena/pgn` (`pgn`, and `variant`: the variant of a game without a Variant tag):
/// the first game's variant, start FEN and moves in UCI.
async fn pgn(body: Bytes) -> Result<Response, Refused> {
    let f = parse_urlencoded(&String::from_utf8_lossy(&body));
    let text = f.get("pgn").map_or("", String::as_str);
    let fallback = match f.get("variant").filter(|v| !v.is_empty()) {
        Some(v) => variant_of(v)?,
        None => return Err(bad("variant is required (the variant of a game without a Variant tag)")),
    };
    let game = engine::rules::notation::pgn::read_game(text, fallback)
        .map_err(|e| bad(format!("Unreadable PGN: {e}")))?
        .ok_or_else(|| bad("The PGN holds no game"))?;
    let variant = game.variant();
    let mut pos = game.start.clone();
    let mut moves = Vec::new();
    for &m in &game.moves {
        moves.push(pos.uci(m));
        pos = pos.after(m);
    }
    Ok(Json(json!({
        "variant": { "key": variants::server_key(variant), "name": variant.spec().name },
        "fen": game.start.fen(),
        "moves": moves,
    }))
    .into_response())
}

/// Nodes of an analysis when none are asked for.
pub const DEFAULT_NODES: u64 = 200_000;
/// Most nodes one analysis may search.
pub const MAX_NODES: u64 = 2_000_000;

/// `POST /api/arena/analyse` (`variant`, `fen`, `moves`, `nodes`): the engine's evaluation and
/// best line. Each user (or address, signed out) has a budget of analyses per minute.
async fn analyse(
    State(s): S,
    headers: HeaderMap,
    extensions: axum::http::Extensions,
    body: Bytes,
) -> Result<Response, Refused> {
    let f = parse_urlencoded(&String::from_utf8_lossy(&body));
    let variant = variant_of(f.get("variant").map_or(variants::LICHESS_STANDARD, String::as_str))?;
    let (pos, _, _, _) = setup(
        variant,
        f.get("fen").map_or("", String::as_str),
        f.get("moves").map_or("", String::as_str),
    )?;
    let nodes = match f.get("nodes").filter(|n| !n.is_empty()) {
        Some(n) => n
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=MAX_NODES).contains(n))
            .ok_or_else(|| bad(format!("Invalid nodes: {n} (1 to {MAX_NODES})")))?,
        None => DEFAULT_NODES,
    };
    if !pos.has_legal_move() {
        return Err(bad("The game is over in this position: nothing to analyse"));
    }
    let who = super::web::auth::requester(&s, &headers, &extensions);
    let refused = {
        let mut budget = s.analysis_budget.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        (!budget.allow(&who, now)).then(|| budget.wait(&who, now))
    };
    if let Some(wait) = refused {
        return Err(Refused(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "Too many analyses: try again in {} (the budget is per user)",
                super::web::wait_text(wait)
            ),
        ));
    }
    let _permit = s
        .analysis_slots
        .acquire()
        .await
        .map_err(|_| Refused(StatusCode::SERVICE_UNAVAILABLE, "The analysis is shut down".into()))?;
    let start = pos.clone();
    let result = tokio::task::spawn_blocking(move || {
        let mut engine = engine::engine::Engine::new();
        engine.set_variant(start.variant());
        engine.set_hash(16);
        engine.new_game();
        engine.set_game(start.clone(), &[]).map_err(|e| e.to_string())?;
        let limits = engine::search::Limits {
            nodes: Some(nodes),
            multipv: 1,
            ..Default::default()
        };
        let r = engine.search(limits, &mut |_| {});
        let mut p = start.clone();
        let mut pv = Vec::new();
        for &m in &r.pv {
            pv.push(p.san(m));
            p = p.after(m);
        }
        Ok::<_, String>((r, pv))
    })
    .await
    .map_err(|e| Refused(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(bad)?;
    let (r, pv) = result;
    let (cp, mate) = match r.score {
        engine::search::Score::Cp(c) => (Some(c), None),
        engine::search::Score::Mate(m) => (None, Some(m)),
    };
    let turn = pos.turn();
    let white = |x: i32| if turn == engine::rules::Color::White { x } else { -x };
    Ok(Json(json!({
        "fen": pos.fen(),
        "turn": turn.name(),
        "cp": cp.map(white),
        "mate": mate.map(white),
        "best": { "uci": pos.uci(r.best), "san": pos.san(r.best) },
        "pv": pv,
        "depth": r.depth,
        "nodes": r.nodes,
    }))
    .into_response())
}
