//! What the browser pages show, as JSON: a game at any ply (board, players, clocks, offers,
//! the moves in SAN), the lobby (bots online, open seeks, games in progress) and lists of games.

use std::time::Instant;

use engine::rules::{Color, Position};
use serde_json::{json, Value};

use super::{Inner, Refusal};
use lichess_api::variants::{perf_name, variant_ref};

use crate::{
    board::{board_json, premoves_json, replay},
    game::{color_name, ArenaGame},
    status::GameStatus,
};

/// Most games a list gives.
const MAX_LIST: usize = 100;

impl Inner {
    fn player_json(&self, g: &ArenaGame, c: Color) -> Value {
        let id = g.player(c);
        let u = self.users.get(id);
        let i = usize::from(c == Color::Black);
        json!({
            "id": id,
            "name": u.map_or(id, |u| u.username.as_str()),
            "bot": u.is_some_and(|u| u.bot),
            "rating": g.ratings[i],
            "ratingDiff": g.rating_diffs[i],
            "gone": g.is_running() && g.is_gone(c),
        })
    }

    /// A game in a list: id, variant, players, status, plies, the current position's FEN.
    fn game_summary(&self, g: &ArenaGame) -> Value {
        json!({
            "id": g.id,
            "variant": g.variant_ref,
            "speed": g.speed(),
            "perf": perf_name(&g.variant_ref, g.speed()),
            "rated": g.rated,
            "status": g.status(),
            "winner": g.winner().map(color_name),
            "white": self.player_json(g, Color::White),
            "black": self.player_json(g, Color::Black),
            "plies": g.moves().len(),
            "createdAt": g.created_at,
            "lastMoveAt": g.last_move_at(),
            "clock": g.clock,
        })
    }

    /// `GET /api/arena/game/{id}/view?ply=N`: the game at ply `ply` (the current one when none)
    /// as `viewer` sees it: the board (with the legal moves when it is the viewer's turn in a
    /// running game), the SAN moves, both players, the clocks now (and, when `ply` is given, the
    /// clocks after that ply), offers, and what the viewer may do (a claim: in how many seconds).
    pub fn game_view(&self, id: &str, ply: Option<usize>, viewer: Option<&str>) -> Result<Value, Refusal> {
        let g = self.games.get(id).ok_or_else(|| Refusal::not_found("No such game"))?;
        let played = g.played();
        let asked = ply.is_some();
        let ply = ply.unwrap_or(played.len());
        if ply > played.len() {
            return Err(Refusal::bad(format!("The game has {} plies, not {ply}", played.len())));
        }
        let (positions, sans) = replay(g.start(), played);
        let you = viewer.and_then(|v| g.side_of(v));
        let current = ply == played.len();
        let my_turn = current && g.is_running() && you == Some(g.turn());
        let last = ply.checked_sub(1).map(|i| played[i]);
        let history: Vec<u64> = positions[..ply].iter().map(Position::hash).collect();
        let mut board = board_json(&positions[ply], &history, last, my_turn);
        // The player waiting for the opponent's move may premove.
        if current && g.is_running() && you.is_some_and(|c| c != g.turn()) {
            if let Some(o) = board.as_object_mut() {
                o.insert("premoves".into(), json!(premoves_json(&positions[ply])));
            }
        }
        let spectators = self
            .game_subs
            .get(id)
            .map_or(0, |subs| subs.iter().filter(|s| s.is_spectator()).count());
        let now = Instant::now();
        let state = g.state(now);
        let offers = |w: bool, b: bool| match (w, b) {
            (true, _) => Some("white"),
            (_, true) => Some("black"),
            _ => None,
        };
        let mut summary = self.game_summary(g);
        if let Some(o) = summary.as_object_mut() {
            o.insert("ply".into(), json!(ply));
            o.insert("board".into(), board);
            o.insert("san".into(), json!(sans));
            o.insert("uci".into(), json!(g.moves()));
            o.insert("you".into(), json!(you.map(color_name)));
            o.insert("turn".into(), json!(color_name(g.turn())));
            o.insert("initialFen".into(), json!(g.initial_fen));
            o.insert("days".into(), json!(g.days));
            o.insert(
                "clocks".into(),
                json!({
                    "white": state.wtime,
                    "black": state.btime,
                    "running": g.clock_running().then(|| color_name(g.turn())),
                }),
            );
            o.insert("drawOffer".into(), json!(offers(state.wdraw, state.bdraw)));
            o.insert("takebackOffer".into(), json!(offers(state.wtakeback, state.btakeback)));
            o.insert("abortable".into(), json!(g.abortable()));
            o.insert("spectators".into(), json!(spectators));
            o.insert("endReason".into(), json!(g.end_reason()));
            o.insert(
                "opponentGone".into(),
                json!(you.is_some_and(|c| g.is_running() && g.is_gone(!c))),
            );
            o.insert(
                "claimWinInSeconds".into(),
                json!(you.and_then(|c| g.claim_in_seconds(c, self.config.claim_win_after_s, now))),
            );
            if asked {
                o.insert(
                    "plyClocks".into(),
                    json!(g.clocks_at(ply).map(|[w, b]| json!({ "white": w, "black": b }))),
                );
            }
        }
        Ok(summary)
    }

    /// `GET /api/arena/lobby`: the variants (key and name), the bots online with their ratings,
    /// the open seeks, the games in progress (newest first).
    pub fn lobby(&self) -> Value {
        let seeks: Vec<Value> = self
            .seeks
            .iter()
            .map(|s| {
                let name = self.users.get(&s.user).map_or(s.user.as_str(), |u| u.username.as_str());
                json!({
                    "user": name,
                    "variant": s.variant_key,
                    "rated": s.rated,
                    "clock": s.clock,
                    "days": s.days,
                    "color": s.color,
                })
            })
            .collect();
        let variants: Vec<Value> = engine::rules::Variant::ALL
            .into_iter()
            .map(|v| {
                let r = variant_ref(v, false);
                json!({ "key": r.key, "name": r.name })
            })
            .collect();
        // Each bot with what it is seen to play (`plays`, null: never seen).
        let bots: Vec<Value> = self
            .online_bots(MAX_LIST)
            .into_iter()
            .map(|mut b| {
                let plays = b["id"].as_str().map_or(Value::Null, |id| self.plays_json(id));
                b["plays"] = plays;
                b
            })
            .collect();
        json!({
            "variants": variants,
            "bots": bots,
            "seeks": seeks,
            "playing": self.game_list(true, None, None, MAX_LIST),
        })
    }

    /// Games, newest first: running or finished ones, of one user, of one variant.
    pub fn game_list(&self, running: bool, user: Option<&str>, variant: Option<&str>, max: usize) -> Vec<Value> {
        let mut games: Vec<&ArenaGame> = self
            .games
            .values()
            .filter(|g| g.is_running() == running)
            .filter(|g| user.is_none_or(|u| g.side_of(u).is_some()))
            .filter(|g| variant.is_none_or(|v| g.variant_ref.key == v))
            .collect();
        games.sort_by_key(|g| std::cmp::Reverse(g.created_at));
        games
            .into_iter()
            .take(max.min(MAX_LIST))
            .map(|g| self.game_summary(g))
            .collect()
    }
}

impl Inner {
    /// A finished game as the explorer indexes it (none: unknown, running, aborted or
    /// without a move).
    pub fn explorer_record(&self, id: &str) -> Option<crate::explorer::GameRecord> {
        let g = self.games.get(id)?;
        if g.is_running() || matches!(g.status(), GameStatus::Aborted | GameStatus::NoStart) || g.moves().is_empty() {
            return None;
        }
        let name = |u: &str| self.display_name(u).unwrap_or_else(|| u.to_string());
        Some(crate::explorer::GameRecord {
            id: g.id.clone(),
            start: g.start().clone(),
            moves: g.moves().iter().map(ToString::to_string).collect(),
            speed: g.speed(),
            names: [name(&g.white), name(&g.black)],
            ratings: g.ratings,
            winner: g.winner(),
            created_at: g.created_at,
        })
    }

    /// Every finished game the explorer indexes.
    pub fn explorer_records(&self) -> Vec<crate::explorer::GameRecord> {
        self.games.keys().filter_map(|id| self.explorer_record(id)).collect()
    }
}
