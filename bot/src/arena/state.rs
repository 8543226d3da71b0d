//! The arena's state: accounts, challenges, games and the open streams. Every operation runs
//! under one lock and pushes the resulting NDJSON lines into the subscribers' channels.

use std::{
    collections::HashMap,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use engine::rules::{Color, Position};
use tokio::sync::{broadcast, mpsc::UnboundedSender};

use super::{
    faults::{Faults, RecordedRequest},
    game::{color_name, ArenaGame, GameError},
    ArenaConfig, ArenaLog,
};
use crate::{
    api::types::{
        speed_of, status_id, Account, Challenge, ChallengeUser, Compat, DeclineReason, Event, GameClock, GameEvent,
        GameEventInfo, GameFull, GamePlayer, Opponent, Perf, StatusRef, TimeControl, VariantRef,
    },
    variants,
};

/// An error answered to a request: status code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// HTTP status.
    pub status: u16,
    /// The `error` text.
    pub message: String,
}

impl Refusal {
    /// 400.
    pub fn bad(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 400,
            message: message.into(),
        }
    }
    /// 404.
    pub fn not_found(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 404,
            message: message.into(),
        }
    }
}

impl From<GameError> for Refusal {
    fn from(e: GameError) -> Refusal {
        Refusal::bad(e.to_string())
    }
}

/// A user of the arena.
#[derive(Clone, Debug)]
pub struct User {
    /// Lower-case id.
    pub id: String,
    /// Display name.
    pub username: String,
    /// Bot account.
    pub bot: bool,
    /// Rating shown.
    pub rating: u32,
}

struct Sub {
    conn: u64,
    tx: UnboundedSender<String>,
}

struct GameSub {
    conn: u64,
    user: String,
    tx: UnboundedSender<String>,
}

struct PendingChallenge {
    json: Challenge,
    start: Position,
    created: Instant,
}

/// An open challenge: any two players join it (`POST /api/challenge/open`).
struct OpenChallenge {
    start: Position,
    variant_key: String,
    initial_fen: Option<String>,
    rated: bool,
    clock: Option<GameClock>,
    creator: Option<String>,
    /// Only these users may join (white, black), when given.
    users: Option<[String; 2]>,
    /// Who joined as white and as black.
    seats: [Option<String>; 2],
}

/// A seek (`POST /api/board/seek`), waiting for a compatible one.
struct Seek {
    /// The connection of a real-time seek (dropping `done` closes it); 0 for correspondence.
    conn: u64,
    user: String,
    variant_key: String,
    rated: bool,
    clock: Option<GameClock>,
    days: Option<u32>,
    color: String,
    done: Option<UnboundedSender<String>>,
}

/// What a seek asks for.
#[derive(Clone, Debug)]
pub struct SeekParams {
    /// Variant key.
    pub variant: String,
    /// Rated.
    pub rated: bool,
    /// Real time: minutes and increment seconds.
    pub clock: Option<(f64, u64)>,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// white / black / random.
    pub color: String,
}

/// What a challenge asks for (parsed from the request).
pub struct ChallengeParams {
    /// Variant key.
    pub variant: String,
    /// Clock seconds.
    pub clock: Option<(u64, u64)>,
    /// Rated.
    pub rated: bool,
    /// white / black / random.
    pub color: String,
    /// Start FEN.
    pub fen: Option<String>,
}

/// Counters for tests and the demo.
#[derive(Clone, Debug, Default)]
pub struct ArenaStats {
    /// Event streams opened, per user.
    pub event_stream_opens: HashMap<String, usize>,
    /// Game streams opened, per (game, user).
    pub game_stream_opens: HashMap<(String, String), usize>,
    /// Moves refused (illegal or out of turn).
    pub refused_moves: usize,
}

/// Everything behind the lock.
pub struct Inner {
    pub(super) config: ArenaConfig,
    users: HashMap<String, User>,
    tokens: HashMap<String, String>,
    challenges: HashMap<String, PendingChallenge>,
    open_challenges: HashMap<String, OpenChallenge>,
    seeks: Vec<Seek>,
    games: HashMap<String, ArenaGame>,
    event_subs: HashMap<String, Sub>,
    game_subs: HashMap<String, Vec<GameSub>>,
    next_id: u64,
    pub(super) stats: ArenaStats,
    pub(super) faults: Faults,
    pub(super) requests: Vec<RecordedRequest>,
    /// Per user: start of the current one-second window and the requests in it.
    rate: HashMap<String, (Instant, u32)>,
    log: broadcast::Sender<ArenaLog>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn json_line<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

impl Inner {
    /// Builds the state with the configured accounts.
    pub fn new(config: ArenaConfig, log: broadcast::Sender<ArenaLog>) -> Inner {
        let mut users = HashMap::new();
        let mut tokens = HashMap::new();
        for a in &config.accounts {
            let id = a.username.to_lowercase();
            users.insert(
                id.clone(),
                User {
                    id: id.clone(),
                    username: a.username.clone(),
                    bot: a.bot,
                    rating: a.rating,
                },
            );
            tokens.insert(a.token.clone(), id);
        }
        let seed = now_ms();
        Inner {
            config,
            users,
            tokens,
            challenges: HashMap::new(),
            open_challenges: HashMap::new(),
            seeks: Vec::new(),
            games: HashMap::new(),
            event_subs: HashMap::new(),
            game_subs: HashMap::new(),
            next_id: seed,
            stats: ArenaStats::default(),
            faults: Faults::default(),
            requests: Vec::new(),
            rate: HashMap::new(),
            log,
        }
    }

    /// Counts an ordinary request of `user`; false when it is over the rate limit.
    pub fn within_rate(&mut self, user: &str) -> bool {
        let limit = self.config.max_requests_per_second;
        if limit == 0 {
            return true;
        }
        let now = Instant::now();
        let (start, count) = self.rate.entry(user.to_string()).or_insert((now, 0));
        if now.saturating_duration_since(*start) >= Duration::from_secs(1) {
            *start = now;
            *count = 0;
        }
        *count += 1;
        *count <= limit
    }

    /// The user of a bearer token.
    pub fn user_of_token(&self, token: &str) -> Option<String> {
        self.tokens.get(token).cloned()
    }

    fn new_id(&mut self) -> String {
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        loop {
            self.next_id = self
                .next_id
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut x = self.next_id >> 11;
            let id: String = (0..8)
                .map(|_| {
                    let c = ALPHABET[(x % 62) as usize] as char;
                    x /= 62;
                    c
                })
                .collect();
            if !self.games.contains_key(&id)
                && !self.challenges.contains_key(&id)
                && !self.open_challenges.contains_key(&id)
            {
                return id;
            }
        }
    }

    /// `GET /api/account`.
    pub fn account(&self, user: &str) -> Option<Account> {
        self.users.get(user).map(|u| Account {
            id: u.id.clone(),
            username: u.username.clone(),
            title: u.bot.then(|| "BOT".to_string()),
            url: Some(format!("http://{}/@/{}", self.config.public_host(), u.username)),
        })
    }

    fn challenge_user(&self, id: &str) -> ChallengeUser {
        let u = self.users.get(id);
        ChallengeUser {
            id: id.to_string(),
            name: u.map_or_else(|| id.to_string(), |u| u.username.clone()),
            rating: u.map(|u| u.rating),
            title: u.filter(|u| u.bot).map(|_| "BOT".to_string()),
            online: Some(self.event_subs.contains_key(id)),
        }
    }

    fn send_event(&mut self, user: &str, event: &Event) {
        if let Some(sub) = self.event_subs.get(user) {
            if sub.tx.send(json_line(event)).is_err() {
                self.event_subs.remove(user);
            }
        }
    }

    fn broadcast_game(&mut self, game: &str, event: &GameEvent, only: Option<&str>) {
        let line = json_line(event);
        if let Some(subs) = self.game_subs.get_mut(game) {
            subs.retain(|s| {
                if only.is_some_and(|u| u != s.user) {
                    return true;
                }
                s.tx.send(line.clone()).is_ok()
            });
        }
    }

    // ----- event stream -----

    /// Opens the event stream of `user` (closing an earlier one) and replays pending challenges
    /// and running games.
    pub fn open_event_stream(&mut self, user: &str, conn: u64, tx: UnboundedSender<String>) {
        *self.stats.event_stream_opens.entry(user.to_string()).or_default() += 1;
        self.event_subs.insert(user.to_string(), Sub { conn, tx });
        let mut replay: Vec<Event> = Vec::new();
        for c in self.challenges.values() {
            let incoming = c.json.dest_user.as_ref().is_some_and(|d| d.id == user);
            if incoming || c.json.challenger.id == user {
                let mut json = c.json.clone();
                json.direction = Some(if incoming { "in" } else { "out" }.to_string());
                replay.push(Event::Challenge {
                    challenge: json,
                    compat: Some(Compat { bot: true, board: true }),
                });
            }
        }
        let running: Vec<String> = self
            .games
            .values()
            .filter(|g| g.is_running() && g.side_of(user).is_some())
            .map(|g| g.id.clone())
            .collect();
        for id in running {
            if let Some(info) = self.game_info(&id, user) {
                replay.push(Event::GameStart { game: info });
            }
        }
        for e in replay {
            self.send_event(user, &e);
        }
    }

    /// Forgets a closed event stream (only if it is still the current one).
    pub fn close_event_stream(&mut self, user: &str, conn: u64) {
        if self.event_subs.get(user).is_some_and(|s| s.conn == conn) {
            self.event_subs.remove(user);
        }
    }

    /// Closes every event stream (for reconnect tests).
    pub fn drop_event_streams(&mut self) {
        self.event_subs.clear();
    }

    /// Closes every game stream of `game` (for reconnect tests).
    pub fn drop_game_streams(&mut self, game: &str) {
        self.game_subs.remove(game);
    }

    // ----- challenges -----

    /// `POST /api/challenge/{username}`.
    pub fn create_challenge(&mut self, from: &str, to: &str, p: ChallengeParams) -> Result<Challenge, Refusal> {
        let dest = to.to_lowercase();
        if !self.users.contains_key(&dest) {
            return Err(Refusal::bad(format!("No such user: {to}")));
        }
        if dest == from {
            return Err(Refusal::bad("You cannot challenge yourself"));
        }
        let (variant, start, time_control, speed) = terms(&p)?;
        let id = self.new_id();
        let json = Challenge {
            id: id.clone(),
            url: format!("http://{}/{}", self.config.public_host(), id),
            status: "created".to_string(),
            challenger: self.challenge_user(from),
            dest_user: Some(self.challenge_user(&dest)),
            variant: VariantRef {
                key: p.variant.clone(),
                name: variant.spec().name.to_string(),
                short: None,
            },
            rated: p.rated,
            speed: speed.to_string(),
            time_control,
            color: p.color.clone(),
            final_color: None,
            perf: Perf {
                icon: Some("\u{265f}".to_string()),
                name: speed.to_string(),
            },
            direction: None,
            initial_fen: p.fen.clone(),
            decline_reason: None,
            decline_reason_key: None,
        };
        self.challenges.insert(
            id,
            PendingChallenge {
                json: json.clone(),
                start,
                created: Instant::now(),
            },
        );
        let compat = Some(Compat { bot: true, board: true });
        let mut incoming = json.clone();
        incoming.direction = Some("in".into());
        self.send_event(
            &dest,
            &Event::Challenge {
                challenge: incoming,
                compat,
            },
        );
        let mut outgoing = json.clone();
        outgoing.direction = Some("out".into());
        self.send_event(
            from,
            &Event::Challenge {
                challenge: outgoing.clone(),
                compat,
            },
        );
        Ok(outgoing)
    }

    fn take_challenge_for(&mut self, id: &str, user: &str, as_dest: bool) -> Result<PendingChallenge, Refusal> {
        let ok = self.challenges.get(id).is_some_and(|c| {
            if as_dest {
                c.json.dest_user.as_ref().is_some_and(|d| d.id == user)
            } else {
                c.json.challenger.id == user || c.json.dest_user.as_ref().is_some_and(|d| d.id == user)
            }
        });
        if !ok {
            return Err(Refusal::not_found("Challenge not found"));
        }
        self.challenges
            .remove(id)
            .ok_or_else(|| Refusal::not_found("Challenge not found"))
    }

    /// `POST /api/challenge/open`: a challenge any two players can join (by accepting it).
    pub fn create_open_challenge(
        &mut self,
        creator: Option<&str>,
        p: ChallengeParams,
        users: Option<[String; 2]>,
    ) -> Result<serde_json::Value, Refusal> {
        let (variant, start, time_control, speed) = terms(&p)?;
        if let Some(users) = &users {
            for u in users {
                if !self.users.contains_key(u) {
                    return Err(Refusal::bad(format!("No such user: {u}")));
                }
            }
        }
        let id = self.new_id();
        let url = format!("http://{}/{}", self.config.public_host(), id);
        let clock = match time_control {
            TimeControl::Clock { limit, increment, .. } => Some(GameClock {
                initial: limit * 1000,
                increment: increment * 1000,
            }),
            _ => None,
        };
        let mut json = serde_json::json!({
            "id": id,
            "url": url,
            "status": "created",
            "challenger": null,
            "destUser": null,
            "variant": VariantRef { key: p.variant.clone(), name: variant.spec().name.to_string(), short: None },
            "rated": p.rated,
            "speed": speed,
            "timeControl": time_control,
            "color": "random",
            "finalColor": "white",
            "perf": { "icon": "\u{265f}", "name": speed },
            "urlWhite": format!("{url}?color=white"),
            "urlBlack": format!("{url}?color=black"),
        });
        if let Some(fen) = &p.fen {
            json["initialFen"] = fen.clone().into();
        }
        if let Some(users) = &users {
            json["open"] = serde_json::json!({ "userIds": users });
        }
        self.open_challenges.insert(
            id,
            OpenChallenge {
                start,
                variant_key: p.variant,
                initial_fen: p.fen,
                rated: p.rated,
                clock,
                creator: creator.map(str::to_string),
                users,
                seats: [None, None],
            },
        );
        Ok(json)
    }

    /// Joins an open challenge (`accept`, optionally `?color=`); the second player starts it.
    fn join_open(&mut self, id: &str, user: &str, color: Option<&str>) -> Result<(), Refusal> {
        let o = self
            .open_challenges
            .get_mut(id)
            .ok_or_else(|| Refusal::not_found("Challenge not found"))?;
        let allowed = match &o.users {
            Some(users) => users.iter().position(|u| u == user).map(|i| vec![i]),
            None => Some(vec![0, 1]),
        }
        .ok_or_else(|| Refusal::bad("This challenge is for other players"))?;
        let wanted: Vec<usize> = match color {
            Some("white") => vec![0],
            Some("black") => vec![1],
            None | Some("random") => vec![0, 1],
            Some(other) => return Err(Refusal::bad(format!("Invalid color: {other}"))),
        };
        if o.seats.iter().flatten().any(|u| u == user) {
            return Err(Refusal::bad("You already joined this challenge"));
        }
        let seat = wanted
            .into_iter()
            .find(|i| allowed.contains(i) && o.seats[*i].is_none())
            .ok_or_else(|| Refusal::bad("That color is taken"))?;
        o.seats[seat] = Some(user.to_string());
        if let [Some(white), Some(black)] = o.seats.clone() {
            let Some(o) = self.open_challenges.remove(id) else {
                return Ok(());
            };
            self.start_game(ArenaGame::new(
                id.to_string(),
                o.variant_key.clone(),
                o.start,
                o.initial_fen,
                white,
                black,
                o.rated,
                o.clock,
                now_ms(),
            ));
        }
        Ok(())
    }

    /// `POST /api/challenge/{id}/accept`: starts the game (same id). `color` is for open
    /// challenges only.
    pub fn accept_challenge(&mut self, id: &str, user: &str, color: Option<&str>) -> Result<(), Refusal> {
        if self.open_challenges.contains_key(id) {
            return self.join_open(id, user, color);
        }
        let c = self.take_challenge_for(id, user, true)?;
        let challenger = c.json.challenger.id.clone();
        let challenger_white = match c.json.color.as_str() {
            "white" => true,
            "black" => false,
            _ => (self.next_id >> 7) & 1 == 0,
        };
        let (white, black) = if challenger_white {
            (challenger.clone(), user.to_string())
        } else {
            (user.to_string(), challenger.clone())
        };
        let clock = match c.json.time_control {
            TimeControl::Clock { limit, increment, .. } => Some(GameClock {
                initial: limit * 1000,
                increment: increment * 1000,
            }),
            _ => None,
        };
        self.start_game(ArenaGame::new(
            id.to_string(),
            c.json.variant.key.clone(),
            c.start,
            c.json.initial_fen.clone(),
            white,
            black,
            c.json.rated,
            clock,
            now_ms(),
        ));
        Ok(())
    }

    /// Registers a new game and sends `gameStart` to both players.
    fn start_game(&mut self, game: ArenaGame) {
        let id = game.id.clone();
        let (white, black) = (game.white.clone(), game.black.clone());
        let _ = self.log.send(ArenaLog::GameStarted {
            game: id.clone(),
            variant: game.variant().id().to_string(),
            white: white.clone(),
            black: black.clone(),
        });
        self.games.insert(id.clone(), game);
        for u in [white, black] {
            if let Some(info) = self.game_info(&id, &u) {
                self.send_event(&u, &Event::GameStart { game: info });
            }
        }
    }

    // ----- seeks -----

    /// `POST /api/board/seek`: pairs with a compatible seek of another player at once, or
    /// waits. `done` is the real-time seek's connection (dropped when paired); `None` for a
    /// correspondence seek, whose id is returned.
    pub fn seek(
        &mut self,
        user: &str,
        p: SeekParams,
        conn: u64,
        done: Option<UnboundedSender<String>>,
    ) -> Result<Option<String>, Refusal> {
        if self.users.get(user).is_some_and(|u| u.bot) {
            return Err(Refusal::bad("Bot accounts cannot seek: use challenges"));
        }
        let none = Default::default();
        let variant = variants::engine_variant(&p.variant, &none)
            .ok_or_else(|| Refusal::bad(format!("Unsupported variant: {}", p.variant)))?;
        if !matches!(p.color.as_str(), "white" | "black" | "random") {
            return Err(Refusal::bad(format!("Invalid color: {}", p.color)));
        }
        let clock = match (p.clock, p.days) {
            (Some((minutes, inc)), None) => {
                if !(0.0..=180.0).contains(&minutes) || (minutes == 0.0 && inc == 0) {
                    return Err(Refusal::bad("Invalid time"));
                }
                Some(GameClock {
                    initial: (minutes * 60_000.0).round() as u64,
                    increment: inc * 1000,
                })
            }
            (None, Some(_)) => None,
            _ => return Err(Refusal::bad("Give either time and increment, or days")),
        };
        let fits = |s: &Seek| {
            s.user != user
                && s.variant_key == p.variant
                && s.rated == p.rated
                && s.clock == clock
                && s.days == p.days
                && !(s.color == p.color && s.color != "random")
        };
        if let Some(i) = self.seeks.iter().position(fits) {
            let other = self.seeks.remove(i);
            let me_white = match (p.color.as_str(), other.color.as_str()) {
                ("white", _) | (_, "black") => true,
                ("black", _) | (_, "white") => false,
                _ => (self.next_id >> 9) & 1 == 0,
            };
            let (white, black) = if me_white {
                (user.to_string(), other.user.clone())
            } else {
                (other.user.clone(), user.to_string())
            };
            let id = self.new_id();
            self.start_game(ArenaGame::new(
                id.clone(),
                p.variant.clone(),
                Position::startpos(variant),
                None,
                white,
                black,
                p.rated,
                clock,
                now_ms(),
            ));
            drop(other.done);
            return Ok(done.is_none().then_some(id));
        }
        let correspondence = done.is_none();
        let id = self.new_id();
        self.seeks.push(Seek {
            conn,
            user: user.to_string(),
            variant_key: p.variant,
            rated: p.rated,
            clock,
            days: p.days,
            color: p.color,
            done,
        });
        Ok(correspondence.then_some(id))
    }

    /// A real-time seek's connection closed: the seek is canceled.
    pub fn close_seek(&mut self, conn: u64) {
        self.seeks.retain(|s| s.conn != conn);
    }

    /// `POST /api/challenge/{id}/decline`.
    pub fn decline_challenge(&mut self, id: &str, user: &str, reason: DeclineReason) -> Result<(), Refusal> {
        let c = self.take_challenge_for(id, user, true)?;
        let mut json = c.json;
        json.status = "declined".into();
        json.decline_reason = Some(reason.sentence().to_string());
        json.decline_reason_key = Some(reason.key().to_lowercase());
        let challenger = json.challenger.id.clone();
        let _ = self.log.send(ArenaLog::ChallengeDeclined {
            challenge: id.to_string(),
            reason: reason.key().to_string(),
        });
        self.send_event(&challenger, &Event::ChallengeDeclined { challenge: json });
        Ok(())
    }

    /// `POST /api/challenge/{id}/cancel`.
    pub fn cancel_challenge(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        if self
            .games
            .get(id)
            .is_some_and(|g| g.side_of(user).is_some() && g.abortable())
        {
            return self.abort(id, user);
        }
        if let Some(o) = self.open_challenges.get(id) {
            if o.creator.as_deref() != Some(user) {
                return Err(Refusal::not_found("Challenge not found"));
            }
            self.open_challenges.remove(id);
            return Ok(());
        }
        let c = self.take_challenge_for(id, user, false)?;
        self.notify_canceled(c.json);
        Ok(())
    }

    fn notify_canceled(&mut self, mut json: Challenge) {
        json.status = "canceled".into();
        let users = [
            Some(json.challenger.id.clone()),
            json.dest_user.as_ref().map(|d| d.id.clone()),
        ];
        for u in users.into_iter().flatten() {
            self.send_event(
                &u,
                &Event::ChallengeCanceled {
                    challenge: json.clone(),
                },
            );
        }
    }

    // ----- games -----

    fn game_info(&self, id: &str, user: &str) -> Option<GameEventInfo> {
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
            last_move: Some(g.moves().last().cloned().unwrap_or_default()),
            source: Some("friend".into()),
            status: Some(StatusRef {
                id: status_id(g.status()),
                name: g.status().to_string(),
            }),
            variant: Some(VariantRef {
                key: g.variant_key.clone(),
                name: g.variant().spec().name.to_string(),
                short: None,
            }),
            speed: Some(
                g.clock
                    .map_or("correspondence", |c| speed_of(c.initial / 1000, c.increment / 1000))
                    .into(),
            ),
            rated: g.rated,
            has_moved: g.moves().len() > usize::from(side == Color::Black),
            opponent: Some(Opponent {
                id: Some(opp.clone()),
                username: self.users.get(&opp).map_or(opp.clone(), |u| u.username.clone()),
                rating: self.users.get(&opp).map(|u| u.rating),
            }),
            is_my_turn: g.is_running() && g.turn() == side,
            seconds_left: g.clock.map(|_| g.time_left(side, now).max(0) / 1000),
            winner: g.winner().map(|c| color_name(c).to_string()),
            compat: Some(Compat { bot: true, board: true }),
        })
    }

    fn game_player(&self, id: &str) -> GamePlayer {
        let u = self.users.get(id);
        GamePlayer {
            id: Some(id.to_string()),
            name: u.map_or(id.to_string(), |u| u.username.clone()),
            title: u.filter(|u| u.bot).map(|_| "BOT".to_string()),
            rating: u.map(|u| u.rating),
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
            variant: VariantRef {
                key: g.variant_key.clone(),
                name: g.variant().spec().name.to_string(),
                short: None,
            },
            speed: g
                .clock
                .map_or("correspondence", |c| speed_of(c.initial / 1000, c.increment / 1000))
                .into(),
            perf: Perf::default(),
            rated: g.rated,
            created_at: g.created_at,
            white: self.game_player(&g.white),
            black: self.game_player(&g.black),
            initial_fen: g.initial_fen.clone().unwrap_or_else(|| "startpos".into()),
            clock: g.clock,
            days_per_turn: None,
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
    fn after_change(&mut self, id: &str) {
        let Some(g) = self.games.get(id) else {
            return;
        };
        let state = g.state(Instant::now());
        let running = g.is_running();
        let players = [g.white.clone(), g.black.clone()];
        let (status, winner) = (g.status(), g.winner().map(color_name));
        self.broadcast_game(id, &GameEvent::GameState(state), None);
        if !running {
            self.game_subs.remove(id);
            for u in players {
                if let Some(info) = self.game_info(id, &u) {
                    self.send_event(&u, &Event::GameFinish { game: info });
                }
            }
            let _ = self.log.send(ArenaLog::GameFinished {
                game: id.to_string(),
                status: status.to_string(),
                winner: winner.map(str::to_string),
            });
        }
    }

    /// `POST /api/bot/game/{id}/move/{uci}`.
    pub fn play(&mut self, id: &str, user: &str, uci: &str, offering_draw: bool) -> Result<(), Refusal> {
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
        let played = g.moves().last().cloned().unwrap_or_default();
        let san = before
            .parse_uci(&played)
            .map(|m| before.san(m))
            .unwrap_or_else(|_| played.clone());
        let _ = self.log.send(ArenaLog::Moved {
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
        self.game_mut(id, user)?.0.abort()?;
        self.after_change(id);
        Ok(())
    }

    /// `POST .../resign`.
    pub fn resign(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        let (g, side) = self.game_mut(id, user)?;
        g.resign(side)?;
        self.after_change(id);
        Ok(())
    }

    /// `POST .../draw/{accept}`.
    pub fn draw(&mut self, id: &str, user: &str, yes: bool) -> Result<(), Refusal> {
        let (g, side) = self.game_mut(id, user)?;
        g.draw(side, yes)?;
        self.after_change(id);
        Ok(())
    }

    /// `POST .../claim-victory`.
    pub fn claim_victory(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        let claim = self.config.claim_win_after_s;
        let (g, side) = self.game_mut(id, user)?;
        g.claim_victory(side, claim, Instant::now())?;
        self.after_change(id);
        Ok(())
    }

    /// `POST .../chat`: the line goes to every stream of the game (ours echo back).
    pub fn chat(&mut self, id: &str, user: &str, room: &str, text: &str) -> Result<(), Refusal> {
        if !matches!(room, "player" | "spectator") {
            return Err(Refusal::bad("room must be player or spectator"));
        }
        self.game_mut(id, user)?;
        let username = self.users.get(user).map_or(user.to_string(), |u| u.username.clone());
        let text: String = text.chars().take(140).collect();
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
        let g = self
            .games
            .get_mut(id)
            .ok_or_else(|| Refusal::not_found("No such game"))?;
        g.set_time_left(color, ms as i64, Instant::now());
        self.after_change(id);
        Ok(())
    }

    /// `POST /api/token/test`: for each token, its user and scopes, or null.
    pub fn test_tokens(&self, tokens: &str) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        for t in tokens.split(',').map(str::trim).filter(|t| !t.is_empty()).take(1000) {
            let entry = self.tokens.get(t).map_or(serde_json::Value::Null, |user| {
                let scopes = self
                    .config
                    .accounts
                    .iter()
                    .find(|a| a.token == t)
                    .filter(|a| !a.scopes.is_empty())
                    .map_or(super::ALL_SCOPES.to_string(), |a| a.scopes.join(","));
                serde_json::json!({ "userId": user, "scopes": scopes, "expires": null })
            });
            map.insert(t.to_string(), entry);
        }
        serde_json::Value::Object(map)
    }

    /// `POST /api/bot/account/upgrade`: a human account without games becomes a bot.
    pub fn upgrade(&mut self, user: &str) -> Result<(), Refusal> {
        let played = self.games.values().any(|g| g.white == user || g.black == user);
        let u = self
            .users
            .get_mut(user)
            .ok_or_else(|| Refusal::not_found("No such user"))?;
        if u.bot {
            return Err(Refusal::bad("This account is already a bot account"));
        }
        if played {
            return Err(Refusal::bad(
                "This account has played games and cannot become a bot account",
            ));
        }
        u.bot = true;
        Ok(())
    }

    /// `GET /api/bot/online`: bots with an open event stream, at most `nb`.
    pub fn online_bots(&self, nb: usize) -> Vec<serde_json::Value> {
        let mut ids: Vec<&String> = self
            .event_subs
            .keys()
            .filter(|u| self.users.get(*u).is_some_and(|u| u.bot))
            .collect();
        ids.sort();
        ids.into_iter()
            .take(nb)
            .filter_map(|id| self.users.get(id))
            .map(|u| serde_json::json!({ "id": u.id, "username": u.username, "title": "BOT" }))
            .collect()
    }

    /// Flags and expired challenges; called periodically.
    pub fn tick(&mut self, challenge_ttl: Duration) {
        let now = Instant::now();
        let flagged: Vec<String> = self
            .games
            .values_mut()
            .filter_map(|g| g.check_flag(now).then(|| g.id.clone()))
            .collect();
        for id in flagged {
            self.after_change(&id);
        }
        let expired: Vec<String> = self
            .challenges
            .iter()
            .filter(|(_, c)| now.saturating_duration_since(c.created) > challenge_ttl)
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            if let Some(c) = self.challenges.remove(&id) {
                self.notify_canceled(c.json);
            }
        }
    }
}

/// Checks the terms of a challenge: (variant, start position, time control, speed).
fn terms(p: &ChallengeParams) -> Result<(engine::rules::Variant, Position, TimeControl, &'static str), Refusal> {
    let none = Default::default();
    let variant = variants::engine_variant(&p.variant, &none)
        .ok_or_else(|| Refusal::bad(format!("Unsupported variant: {}", p.variant)))?;
    let start = match &p.fen {
        Some(fen) => Position::from_fen(variant, fen).map_err(|e| Refusal::bad(format!("Invalid FEN: {e}")))?,
        None => Position::startpos(variant),
    };
    if !matches!(p.color.as_str(), "white" | "black" | "random") {
        return Err(Refusal::bad(format!("Invalid color: {}", p.color)));
    }
    let (time_control, speed) = match p.clock {
        Some((limit, inc)) => {
            if limit == 0 && inc == 0 {
                return Err(Refusal::bad("Invalid clock"));
            }
            (
                TimeControl::Clock {
                    limit,
                    increment: inc,
                    show: format!("{}+{}", limit / 60, inc),
                },
                speed_of(limit, inc),
            )
        }
        None => (TimeControl::Unlimited, "correspondence"),
    };
    Ok((variant, start, time_control, speed))
}
