//! Games: start, the game streams (`gameFull`, states, `opponentGone`, chat), moves, abort,
//! resign, draw, claim of victory, the playing list and clock changes for tests.

use std::time::Instant;

use engine::rules::Color;
use tokio::sync::mpsc::UnboundedSender;

use super::{json_line, Inner, Refusal};
use lichess_api::{
    types::{Compat, Event, GameEvent, GameEventInfo, GameFull, GamePlayer, Opponent, Perf, StatusRef},
    variants::{perf_key, perf_name},
};

use crate::{
    game::{color_name, ArenaGame, ChatLine, GameError, GameSetup},
    ratings,
    status::GameStatus,
    store::{ChatRow, RatingRow},
    ArenaLog,
};

pub(super) struct GameSub {
    conn: u64,
    pub(super) user: String,
    tx: UnboundedSender<String>,
}

impl GameSub {
    /// A watcher of the public game stream, still connected.
    pub(super) fn is_spectator(&self) -> bool {
        self.user.is_empty() && !self.tx.is_closed()
    }
}

/// A move line of the public game stream: the position, the last move, both clocks in seconds.
fn spectator_move(g: &ArenaGame, now: Instant) -> serde_json::Value {
    serde_json::json!({
        "fen": g.position().fen(),
        "lm": g.moves().last().map(ToString::to_string).unwrap_or_default(),
        "wc": g.time_left(Color::White, now).max(0) / 1000,
        "bc": g.time_left(Color::Black, now).max(0) / 1000,
    })
}

impl Inner {
    fn broadcast_game(&mut self, game: &str, event: &GameEvent, only: Option<&str>) {
        let line = json_line(event);
        // Spectators (an empty user) get Lichess's public stream lines: a move line while the
        // game runs, the game again when it ends; nothing of the players' own messages.
        let spectator_line = match (event, self.games.get(game)) {
            (GameEvent::GameState(_), Some(g)) if only.is_none() => Some(if g.is_running() {
                json_line(&spectator_move(g, Instant::now()))
            } else {
                json_line(&self.spectator_full(g))
            }),
            _ => None,
        };
        let mut out: Vec<(UnboundedSender<String>, String)> = Vec::new();
        if let Some(subs) = self.game_subs.get_mut(game) {
            subs.retain(|s| {
                if s.tx.is_closed() {
                    return false;
                }
                if s.user.is_empty() {
                    if let Some(l) = &spectator_line {
                        out.push((s.tx.clone(), l.clone()));
                    }
                } else if only.is_none_or(|u| u == s.user) {
                    out.push((s.tx.clone(), line.clone()));
                }
                true
            });
        }
        for (tx, l) in out {
            self.emit(&tx, l);
        }
    }

    /// `GET /api/stream/game/{id}` (no account needed): the game as its first line, then a
    /// line per move (`fen`, `lm`, `wc`, `bc`), then the game again when it ends.
    pub fn open_spectator_stream(&mut self, id: &str, conn: u64, tx: UnboundedSender<String>) -> Result<(), Refusal> {
        let g = self.games.get(id).ok_or_else(|| Refusal::not_found("No such game"))?;
        let _ = tx.send(json_line(&self.spectator_full(g)));
        if g.is_running() {
            self.game_subs.entry(id.to_string()).or_default().push(GameSub {
                conn,
                user: String::new(),
                tx,
            });
        }
        Ok(())
    }

    /// The first (and last) line of the public game stream, as Lichess writes it.
    fn spectator_full(&self, g: &ArenaGame) -> serde_json::Value {
        let player = |c: Color| {
            let id = g.player(c);
            let u = self.users.get(id);
            let i = usize::from(c == Color::Black);
            serde_json::json!({
                "user": {
                    "name": u.map_or(id, |u| u.username.as_str()),
                    "id": id,
                    "title": u.filter(|u| u.bot).map(|_| "BOT"),
                },
                "rating": g.ratings[i],
            })
        };
        let mut v = serde_json::json!({
            "id": g.id,
            "variant": g.variant_ref,
            "speed": g.speed(),
            "perf": perf_key(&g.variant_ref, g.speed()),
            "rated": g.rated,
            "initialFen": g.initial_fen.clone().unwrap_or_else(|| g.start().fen()),
            "fen": g.position().fen(),
            "player": color_name(g.turn()),
            "turns": g.moves().len(),
            "startedAtTurn": 0,
            "source": g.source,
            "status": { "id": g.status().id(), "name": g.status() },
            "createdAt": g.created_at,
            "lastMove": g.moves().last().map(ToString::to_string).unwrap_or_default(),
            "players": { "white": player(Color::White), "black": player(Color::Black) },
        });
        if let (Some(o), Some(w)) = (v.as_object_mut(), g.winner()) {
            o.insert("winner".into(), color_name(w).into());
        }
        v
    }

    /// Closes every game stream of `game` (for reconnect tests).
    pub fn drop_game_streams(&mut self, game: &str) {
        self.game_subs.remove(game);
    }

    /// Registers a new game and sends `gameStart` to both players.
    pub(super) fn start_game(&mut self, mut setup: GameSetup) {
        // Creation times strictly increase, so that "newest first" is one order even for games
        // made in the same millisecond.
        setup.created_at = setup.created_at.max(self.last_created_at + 1);
        self.last_created_at = setup.created_at;
        let mut game = ArenaGame::new(setup);
        let first = self.config.first_move.as_millis() as u64;
        game.first_move_ms = (first > 0).then_some(first);
        let perf = perf_key(&game.variant_ref, game.speed());
        game.ratings = [
            self.rating_in(&game.white, &perf).map(|r| r as i32),
            self.rating_in(&game.black, &perf).map(|r| r as i32),
        ];
        let id = game.id.clone();
        let (white, black) = (game.white.clone(), game.black.clone());
        self.emit_log(ArenaLog::GameStarted {
            game: id.clone(),
            variant: game.variant().id().to_string(),
            white: white.clone(),
            black: black.clone(),
        });
        self.games.insert(id.clone(), game);
        self.note_played(&id);
        self.sync_game(&id);
        for u in [white, black] {
            if let Some(info) = self.game_info(&id, &u) {
                self.send_event(&u, &Event::GameStart { game: info });
            }
        }
    }

    pub(super) fn game_info(&self, id: &str, user: &str) -> Option<GameEventInfo> {
        let g = self.games.get(id)?;
        let side = g.side_of(user)?;
        let opp = g.player(!side).to_string();
        let now = Instant::now();
        Some(GameEventInfo {
            full_id: format!(
                "{id}{}",
                &user.chars().chain("xxxx".chars()).take(4).collect::<String>()
            ),
            game_id: id.to_string(),
            id: Some(id.to_string()),
            fen: Some(g.position().fen()),
            color: Some(color_name(side).to_string()),
            last_move: Some(g.moves().last().map(ToString::to_string).unwrap_or_default()),
            source: Some(g.source.into()),
            status: Some(StatusRef {
                id: g.status().id(),
                name: g.status().to_string(),
            }),
            variant: Some(g.variant_ref.clone()),
            speed: Some(g.speed().into()),
            perf: Some(perf_key(&g.variant_ref, g.speed())),
            rated: g.rated,
            has_moved: g.moves().len() > usize::from(side == Color::Black),
            opponent: Some(Opponent {
                id: Some(opp.clone()),
                username: self.users.get(&opp).map_or(opp.clone(), |u| u.username.clone()),
                rating: g.ratings[usize::from(side == Color::White)].map(|r| r.max(0) as u32),
            }),
            is_my_turn: g.is_running() && g.turn() == side,
            seconds_left: (g.clock.is_some() || g.days.is_some()).then(|| g.time_left(side, now).max(0) / 1000),
            winner: g.winner().map(|c| color_name(c).to_string()),
            compat: Some(Compat { bot: true, board: true }),
        })
    }

    fn game_player(&self, id: &str, rating: Option<i32>) -> GamePlayer {
        let u = self.users.get(id);
        GamePlayer {
            id: Some(id.to_string()),
            name: u.map_or(id.to_string(), |u| u.username.clone()),
            title: u.filter(|u| u.bot).map(|_| "BOT".to_string()),
            rating: rating.map(|r| r.max(0) as u32),
        }
    }

    /// Writes the game's changes (row, new or taken-back moves, chat) in one transaction.
    pub(super) fn sync_game(&mut self, id: &str) {
        let Some(g) = self.games.get(id) else {
            return;
        };
        if self.store.is_none() {
            return;
        }
        let row = g.row(Instant::now());
        let moves = g.move_rows();
        let stored = g.stored_plies;
        let chat: Vec<ChatRow> = g.chat[g.stored_chat.min(g.chat.len())..]
            .iter()
            .map(|l| ChatRow {
                room: l.room.clone(),
                username: l.username.clone(),
                text: l.text.clone(),
                removed: l.removed,
            })
            .collect();
        let first_chat = g.stored_chat;
        let mut ok = true;
        self.persist("saving a game", |s| {
            let r = s.save_game(&row, &moves, stored).and_then(|()| {
                chat.iter()
                    .enumerate()
                    .try_for_each(|(i, line)| s.add_chat(&row.id, first_chat + i, line))
            });
            ok = r.is_ok();
            r
        });
        if let Some(g) = self.games.get_mut(id).filter(|_| ok) {
            g.stored_plies = g.moves().len();
            g.stored_chat = g.chat.len();
            g.stored = true;
        }
    }

    /// A rated game ended: both players' perf ratings move (Glicko-2), the game keeps the
    /// changes.
    fn rate(&mut self, id: &str) {
        let Some(g) = self.games.get(id) else {
            return;
        };
        if !g.rated
            || g.rating_diffs[0].is_some()
            || matches!(
                g.status(),
                GameStatus::Aborted | GameStatus::NoStart | GameStatus::Started
            )
        {
            return;
        }
        let perf = perf_key(&g.variant_ref, g.speed());
        let white_score = match g.winner() {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        let (white, black) = (g.white.clone(), g.black.clone());
        let (Some(w), Some(b)) = (self.users.get(&white), self.users.get(&black)) else {
            return;
        };
        let (w0, b0) = (w.perf(&perf), b.perf(&perf));
        let (w1, b1) = ratings::after_game(&w0, &b0, white_score);
        if let Some(g) = self.games.get_mut(id) {
            g.rating_diffs = [Some(w1.shown() - w0.shown()), Some(b1.shown() - b0.shown())];
        }
        for (user, rating) in [(white, w1), (black, b1)] {
            if let Some(u) = self.users.get_mut(&user) {
                u.perfs.insert(perf.clone(), rating.clone());
            }
            let row = RatingRow {
                user_id: user,
                perf: perf.clone(),
                rating,
            };
            self.persist("saving a rating", |s| s.set_rating(&row));
        }
    }

    /// Opens a game stream: the `gameFull` line goes first. A finished game's stream closes
    /// right after it (the caller sees the sender dropped).
    pub fn open_game_stream(
        &mut self,
        id: &str,
        user: &str,
        conn: u64,
        tx: UnboundedSender<String>,
    ) -> Result<(), Refusal> {
        let g = self.games.get(id).ok_or_else(|| Refusal::not_found("No such game"))?;
        let side = g.side_of(user).ok_or_else(|| Refusal::not_found("Not your game"))?;
        let now = Instant::now();
        let mut state = g.state(now);
        state.kind = Some("gameState".into());
        let full = GameFull {
            id: id.to_string(),
            variant: g.variant_ref.clone(),
            speed: g.speed().into(),
            perf: Perf {
                icon: None,
                name: perf_name(&g.variant_ref, g.speed()),
            },
            rated: g.rated,
            created_at: g.created_at,
            white: self.game_player(&g.white, g.ratings[0]),
            black: self.game_player(&g.black, g.ratings[1]),
            initial_fen: g.initial_fen.clone().unwrap_or_else(|| "startpos".into()),
            clock: g.clock,
            days_per_turn: g.days,
            state,
        };
        let running = g.is_running();
        let was_gone = g.is_gone(side);
        *self
            .stats
            .game_stream_opens
            .entry((id.to_string(), user.to_string()))
            .or_default() += 1;
        let _ = tx.send(json_line(&GameEvent::GameFull(Box::new(full))));
        if running {
            self.game_subs.entry(id.to_string()).or_default().push(GameSub {
                conn,
                user: user.to_string(),
                tx,
            });
            if was_gone {
                if let Some(g) = self.games.get_mut(id) {
                    g.set_gone(side, false, now);
                }
                let opp = self
                    .games
                    .get(id)
                    .map(|g| g.player(!side).to_string())
                    .unwrap_or_default();
                self.broadcast_game(
                    id,
                    &GameEvent::OpponentGone {
                        gone: false,
                        claim_win_in_seconds: None,
                    },
                    Some(&opp),
                );
            }
        }
        Ok(())
    }

    /// Forgets a closed game stream; the opponent hears `opponentGone` when the player has no
    /// stream left on a running game.
    pub fn close_game_stream(&mut self, id: &str, user: &str, conn: u64) {
        let Some(subs) = self.game_subs.get_mut(id) else {
            return;
        };
        subs.retain(|s| s.conn != conn);
        if subs.iter().any(|s| s.user == user) {
            return;
        }
        let claim = self.config.claim_win_after_s;
        let Some(g) = self.games.get_mut(id).filter(|g| g.is_running()) else {
            return;
        };
        let Some(side) = g.side_of(user) else {
            return;
        };
        g.set_gone(side, true, Instant::now());
        let opp = g.player(!side).to_string();
        self.broadcast_game(
            id,
            &GameEvent::OpponentGone {
                gone: true,
                claim_win_in_seconds: Some(claim),
            },
            Some(&opp),
        );
    }

    fn game_mut(&mut self, id: &str, user: &str) -> Result<(&mut ArenaGame, Color), Refusal> {
        let g = self
            .games
            .get_mut(id)
            .ok_or_else(|| Refusal::not_found("No such game"))?;
        let side = g.side_of(user).ok_or_else(|| Refusal::not_found("Not your game"))?;
        Ok((g, side))
    }

    /// After a change: push the state; at the end, close the streams and send `gameFinish`.
    pub(super) fn after_change(&mut self, id: &str) {
        let Some(g) = self.games.get(id) else {
            return;
        };
        let state = g.state(Instant::now());
        let running = g.is_running();
        let players = [g.white.clone(), g.black.clone()];
        let (status, winner) = (g.status(), g.winner().map(color_name));
        if !running {
            self.rate(id);
        }
        self.sync_game(id);
        self.broadcast_game(id, &GameEvent::GameState(state), None);
        if !running {
            self.close_game_streams_later(id);
            for u in players {
                if let Some(info) = self.game_info(id, &u) {
                    self.send_event(&u, &Event::GameFinish { game: info });
                }
            }
            self.emit_log(ArenaLog::GameFinished {
                game: id.to_string(),
                status: status.to_string(),
                winner: winner.map(str::to_string),
            });
        }
    }

    /// `POST /api/bot/game/{id}/move/{uci}`.
    pub fn play(&mut self, id: &str, user: &str, uci: &str, offering_draw: bool) -> Result<(), Refusal> {
        self.transact(|inner| inner.play_unit(id, user, uci, offering_draw))
    }

    fn play_unit(&mut self, id: &str, user: &str, uci: &str, offering_draw: bool) -> Result<(), Refusal> {
        let now = Instant::now();
        let (g, _) = self.game_mut(id, user)?;
        if g.check_flag(now) {
            self.after_change(id);
            return Err(GameError::NotYourTurn.into());
        }
        let before = g.position().clone();
        if let Err(e) = g.play(user, uci, offering_draw, now) {
            self.stats.refused_moves += 1;
            return Err(e.into());
        }
        let ply = g.moves().len();
        let played = g.moves().last().map(ToString::to_string).unwrap_or_default();
        let san = before
            .parse_uci(&played)
            .map(|m| before.san(m))
            .unwrap_or_else(|_| played.clone());
        self.stats.moves += 1;
        if let Some(m) = &self.metrics {
            m.moved();
        }
        self.emit_log(ArenaLog::Moved {
            game: id.to_string(),
            ply,
            uci: played,
            san,
        });
        self.after_change(id);
        Ok(())
    }

    /// `POST .../abort`.
    pub fn abort(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        self.transact(|inner| {
            inner.game_mut(id, user)?.0.abort()?;
            inner.after_change(id);
            Ok(())
        })
    }

    /// `POST .../resign`.
    pub fn resign(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        self.transact(|inner| {
            let (g, side) = inner.game_mut(id, user)?;
            g.resign(side)?;
            inner.after_change(id);
            Ok(())
        })
    }

    /// `POST .../draw/{accept}`.
    pub fn draw(&mut self, id: &str, user: &str, yes: bool) -> Result<(), Refusal> {
        self.transact(|inner| {
            let (g, side) = inner.game_mut(id, user)?;
            g.draw(side, yes)?;
            inner.after_change(id);
            Ok(())
        })
    }

    /// `POST .../claim-victory`.
    pub fn claim_victory(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        self.transact(|inner| {
            let claim = inner.config.claim_win_after_s;
            let (g, side) = inner.game_mut(id, user)?;
            g.claim_victory(side, claim, Instant::now())?;
            inner.after_change(id);
            Ok(())
        })
    }

    /// `POST .../takeback/{accept}`.
    pub fn takeback(&mut self, id: &str, user: &str, yes: bool) -> Result<(), Refusal> {
        self.transact(|inner| {
            let (g, side) = inner.game_mut(id, user)?;
            g.takeback(side, yes, Instant::now())?;
            inner.after_change(id);
            Ok(())
        })
    }

    /// `POST .../claim-draw`.
    pub fn claim_draw(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        self.transact(|inner| {
            let claim = inner.config.claim_win_after_s;
            let (g, side) = inner.game_mut(id, user)?;
            g.claim_draw(side, claim, Instant::now())?;
            inner.after_change(id);
            Ok(())
        })
    }

    /// `POST /api/board/game/{id}/berserk`: the arena runs no tournaments.
    pub fn berserk(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        self.game_mut(id, user)?;
        Err(GameError::NoBerserk.into())
    }

    /// `GET .../chat`: the player room's lines, oldest first.
    pub fn chat_lines(&mut self, id: &str, user: &str) -> Result<Vec<serde_json::Value>, Refusal> {
        let (g, _) = self.game_mut(id, user)?;
        Ok(g.chat
            .iter()
            .filter(|l| l.room == "player" && !l.removed)
            .map(|l| serde_json::json!({ "text": l.text, "user": l.username }))
            .collect())
    }

    /// `POST .../chat`: the line goes to every stream of the game (ours echo back).
    pub fn chat(&mut self, id: &str, user: &str, room: &str, text: &str) -> Result<(), Refusal> {
        self.transact(|inner| inner.chat_unit(id, user, room, text))
    }

    fn chat_unit(&mut self, id: &str, user: &str, room: &str, text: &str) -> Result<(), Refusal> {
        if !matches!(room, "player" | "spectator") {
            return Err(Refusal::bad("room must be player or spectator"));
        }
        // Control characters (NUL, escapes, line breaks) become spaces: a chat line is one
        // line of plain text.
        let text: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect::<String>()
            .trim()
            .chars()
            .take(140)
            .collect();
        if text.is_empty() {
            return Err(Refusal::bad("text is required"));
        }
        let username = self.users.get(user).map_or(user.to_string(), |u| u.username.clone());
        let (g, _) = self.game_mut(id, user)?;
        g.chat.push(ChatLine {
            room: room.to_string(),
            username: username.clone(),
            text: text.clone(),
            removed: false,
        });
        self.sync_game(id);
        self.broadcast_game(
            id,
            &GameEvent::ChatLine {
                room: room.to_string(),
                username,
                text,
            },
            None,
        );
        Ok(())
    }

    /// `GET /api/arena/game/{id}/legal` (the arena's own, not Lichess's): the position and its
    /// legal moves in UCI and SAN, for clients that know no rules (the browser pages, scripts).
    pub fn legal_moves(&self, id: &str) -> Result<serde_json::Value, Refusal> {
        let g = self.games.get(id).ok_or_else(|| Refusal::not_found("No such game"))?;
        let pos = g.position();
        let moves: Vec<serde_json::Value> = if g.is_running() {
            g.legal_moves()
                .iter()
                .map(|&m| {
                    let g = pos.tables().geometry;
                    serde_json::json!({
                        "uci": pos.uci(m),
                        "san": pos.san(m),
                        "from": g.square_name(m.from()),
                        "to": g.square_name(m.to()),
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(serde_json::json!({
            "id": id,
            "fen": pos.fen(),
            "turn": color_name(pos.turn()),
            "status": g.status(),
            "moves": moves,
        }))
    }

    /// `GET /api/account/playing`.
    pub fn playing(&self, user: &str) -> Vec<GameEventInfo> {
        self.games
            .values()
            .filter(|g| g.is_running())
            .filter_map(|g| self.game_info(&g.id, user))
            .collect()
    }

    /// Sets the time left of `color` in game `id` (tests: a clock almost out).
    pub fn set_time_left(&mut self, id: &str, color: Color, ms: u64) -> Result<(), Refusal> {
        self.transact(|inner| {
            let g = inner
                .games
                .get_mut(id)
                .ok_or_else(|| Refusal::not_found("No such game"))?;
            g.set_time_left(color, ms as i64, Instant::now());
            inner.after_change(id);
            Ok(())
        })
    }
}
