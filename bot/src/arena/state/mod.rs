//! The arena's state: accounts, challenges, games and the open streams. Every operation runs
//! under one lock and pushes the resulting NDJSON lines into the subscribers' channels. The
//! operations are grouped by job: accounts, the event stream, challenges, seeks and games.

mod accounts;
mod challenges;
mod events;
mod export;
mod games;
mod seeks;
mod sessions;
mod view;

use std::{
    collections::{BTreeMap, HashMap},
    time::{Duration, Instant},
};

use tokio::sync::broadcast;

pub use self::{
    accounts::{check_scopes, new_token, valid_username, KNOWN_SCOPES},
    challenges::ChallengeParams,
    export::{ExportOptions, GameFilter},
    seeks::SeekParams,
    sessions::{Session, TokenListing, SESSION_MS},
};
use self::{
    challenges::{OpenChallenge, PendingChallenge},
    events::Sub,
    games::GameSub,
    seeks::Seek,
};
use super::{
    default_scopes,
    faults::{Faults, RecordedRequest},
    game::{now_ms, ArenaGame, GameError},
    limits::Limiter,
    ratings::PerfRating,
    store::{AccountRow, Store, TokenRow},
    ArenaConfig, ArenaLog,
};
use crate::api::types::Event;

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
    /// May call the admin endpoints.
    pub admin: bool,
    /// ms since the epoch.
    pub created_at: u64,
    /// Ratings by perf key.
    pub perfs: BTreeMap<String, PerfRating>,
    /// The rating a perf starts from (1500 unless the account's spec says otherwise).
    pub start_rating: f64,
}

impl User {
    /// A stored account (its ratings come separately).
    pub fn from_row(a: AccountRow) -> User {
        User {
            id: a.id,
            username: a.username,
            bot: a.bot,
            admin: a.admin,
            created_at: a.created_at,
            perfs: BTreeMap::new(),
            start_rating: 1500.0,
        }
    }

    /// The rating of a perf (its start rating when never played).
    pub fn perf(&self, key: &str) -> PerfRating {
        self.perfs.get(key).cloned().unwrap_or_else(|| PerfRating {
            rating: self.start_rating,
            ..PerfRating::default()
        })
    }
}

/// A token's owner and scopes.
#[derive(Clone, Debug)]
pub struct TokenInfo {
    /// Account id.
    pub user: String,
    /// Scopes as Lichess names them.
    pub scopes: Vec<String>,
    /// What it is for.
    pub description: String,
    /// ms since the epoch.
    pub created_at: u64,
}

impl TokenInfo {
    /// A stored token.
    pub fn from_row(t: TokenRow) -> TokenInfo {
        TokenInfo {
            user: t.user_id,
            scopes: t
                .scopes
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            description: t.description,
            created_at: t.created_at,
        }
    }
}

/// The hex SHA-256 of a token: tokens are stored and looked up by it, never in clear.
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
    /// By token hash.
    tokens: HashMap<String, TokenInfo>,
    /// The database (none in memory mode).
    store: Option<Store>,
    challenges: HashMap<String, PendingChallenge>,
    open_challenges: HashMap<String, OpenChallenge>,
    seeks: Vec<Seek>,
    games: HashMap<String, ArenaGame>,
    event_subs: HashMap<String, Sub>,
    game_subs: HashMap<String, Vec<GameSub>>,
    next_id: u64,
    pub(super) stats: ArenaStats,
    pub(super) faults: Faults,
    /// The last [`MAX_RECORDED`] requests (tests read them; a server must not grow forever).
    requests: std::collections::VecDeque<RecordedRequest>,
    /// Per user: start of the current one-second window and the requests in it.
    rate: HashMap<String, (Instant, u32)>,
    /// Creation time of the newest game (ms), to keep creation times strictly increasing.
    last_created_at: u64,
    /// When the rate-limit tables are next pruned.
    next_prune: Instant,
    /// Ordinary requests per client IP.
    ip_rate: Limiter<std::net::IpAddr>,
    /// Stream opens per account and stream.
    stream_opens: Limiter<String>,
    /// Stream opens per client IP.
    ip_stream_opens: Limiter<std::net::IpAddr>,
    log: broadcast::Sender<ArenaLog>,
    /// Sign-in sessions by the hash of their cookie.
    sessions: HashMap<String, Session>,
    /// Password hashes read or set so far, by account.
    passwords: HashMap<String, String>,
    /// Failed sign-ins per account.
    sign_in_attempts: Limiter<String>,
}

fn json_line<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Requests kept in the log of requests.
pub const MAX_RECORDED: usize = 50_000;

impl Inner {
    /// Logs a request, forgetting the oldest beyond [`MAX_RECORDED`].
    pub fn record_request(&mut self, r: RecordedRequest) {
        if self.requests.len() >= MAX_RECORDED {
            self.requests.pop_front();
        }
        self.requests.push_back(r);
    }

    /// The logged requests, oldest first.
    pub fn recorded_requests(&self) -> Vec<RecordedRequest> {
        self.requests.iter().cloned().collect()
    }

    /// Builds the state: the database's accounts, tokens, ratings, challenges and games (when
    /// there is one), then the configured accounts that are missing.
    pub fn new(config: ArenaConfig, log: broadcast::Sender<ArenaLog>, store: Option<Store>) -> anyhow::Result<Inner> {
        let ip_rate = config.max_requests_per_second_per_ip;
        let opens = config.stream_opens_per_minute;
        let mut inner = Inner {
            config,
            users: HashMap::new(),
            tokens: HashMap::new(),
            store: None,
            challenges: HashMap::new(),
            open_challenges: HashMap::new(),
            seeks: Vec::new(),
            games: HashMap::new(),
            event_subs: HashMap::new(),
            game_subs: HashMap::new(),
            next_id: now_ms() ^ u64::from(std::process::id()).rotate_left(32),
            stats: ArenaStats::default(),
            faults: Faults::default(),
            requests: std::collections::VecDeque::new(),
            rate: HashMap::new(),
            next_prune: Instant::now(),
            last_created_at: 0,
            ip_rate: Limiter::new(ip_rate, f64::from(ip_rate)),
            stream_opens: Limiter::new(opens.min(10), f64::from(opens) / 60.0),
            ip_stream_opens: Limiter::new(opens.min(10) * 4, f64::from(opens) * 4.0 / 60.0),
            log,
            sessions: HashMap::new(),
            passwords: HashMap::new(),
            sign_in_attempts: Limiter::new(5, 1.0 / 60.0),
        };
        if let Some(store) = store {
            inner.load(&store)?;
            inner.store = Some(store);
        }
        for a in inner.config.accounts.clone() {
            let id = a.username.to_lowercase();
            if !inner.users.contains_key(&id) {
                inner.add_user(User {
                    id: id.clone(),
                    username: a.username.clone(),
                    bot: a.bot,
                    admin: false,
                    created_at: now_ms(),
                    perfs: BTreeMap::new(),
                    start_rating: f64::from(a.rating),
                });
            } else if let Some(u) = inner.users.get_mut(&id) {
                u.start_rating = f64::from(a.rating);
            }
            let scopes = default_scopes(&a.scopes);
            inner.add_token_hash(token_hash(&a.token), id, scopes, "configured".into());
        }
        Ok(inner)
    }

    /// Reads everything from the database.
    fn load(&mut self, store: &Store) -> anyhow::Result<()> {
        for a in store.accounts()? {
            self.users.insert(a.id.clone(), User::from_row(a));
        }
        for t in store.tokens()? {
            self.tokens.insert(t.hash.clone(), TokenInfo::from_row(t));
        }
        for r in store.ratings()? {
            if let Some(u) = self.users.get_mut(&r.user_id) {
                u.perfs.insert(r.perf, r.rating);
            }
        }
        for (row, moves, chat) in store.games()? {
            let id = row.id.clone();
            match ArenaGame::restore(&row, &moves, &chat) {
                Ok(mut g) => {
                    self.last_created_at = self.last_created_at.max(g.created_at);
                    let first = self.config.first_move.as_millis() as u64;
                    g.first_move_ms = (first > 0).then_some(first);
                    self.games.insert(id, g);
                }
                Err(e) => tracing::error!("game {id} in the database cannot be rebuilt: {e}"),
            }
        }
        self.load_challenges(store)?;
        Ok(())
    }

    /// Writes with the database, if any; a failure is logged (the in-memory state goes on).
    pub(super) fn persist(&mut self, what: &str, f: impl FnOnce(&mut Store) -> rusqlite::Result<()>) {
        if let Some(store) = self.store.as_mut() {
            if let Err(e) = f(store) {
                tracing::error!("arena database: {what}: {e}");
            }
        }
    }

    /// Whether the state is kept in a database.
    pub fn persistent(&self) -> bool {
        self.store.is_some()
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

    fn send_event(&mut self, user: &str, event: &Event) {
        if let Some(sub) = self.event_subs.get(user) {
            if sub.tx.send(json_line(event)).is_err() {
                self.event_subs.remove(user);
            }
        }
    }

    /// Whether an ordinary request from `ip` is within the per-IP limit.
    pub fn ip_within_rate(&mut self, ip: std::net::IpAddr) -> bool {
        self.ip_rate.allow(&ip, Instant::now())
    }

    /// Whether a stream open (`key`: which stream of which account) from `ip` is within the
    /// limits.
    pub fn stream_open_allowed(&mut self, key: &str, ip: std::net::IpAddr) -> bool {
        let now = Instant::now();
        self.ip_stream_opens.allow(&ip, now) && self.stream_opens.allow(&key.to_string(), now)
    }

    /// Flags and expired challenges; called periodically.
    pub fn tick(&mut self, challenge_ttl: Duration) {
        let now = Instant::now();
        if self.next_prune <= now {
            self.next_prune = now + Duration::from_secs(60);
            self.ip_rate.prune(now);
            self.stream_opens.prune(now);
            self.ip_stream_opens.prune(now);
            self.sign_in_attempts.prune(now);
            self.prune_sessions();
            self.rate
                .retain(|_, (start, _)| now.saturating_duration_since(*start) < Duration::from_secs(2));
        }
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
            .filter(|(_, c)| c.keep_alive.is_none() && now.saturating_duration_since(c.created) > challenge_ttl)
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            if let Some(c) = self.remove_challenge(&id) {
                self.cancel_pending(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_log_keeps_the_newest() {
        let (log, _) = broadcast::channel(1);
        let mut inner = Inner::new(ArenaConfig::default(), log, None).expect("state");
        for i in 0..MAX_RECORDED + 3 {
            inner.record_request(RecordedRequest {
                method: "GET".into(),
                path: format!("/{i}"),
                endpoint: super::super::faults::Endpoint::classify("GET", "/api/account"),
                query: Vec::new(),
                form: Vec::new(),
                user: None,
                status: 200,
            });
        }
        let kept = inner.recorded_requests();
        assert_eq!(kept.len(), MAX_RECORDED);
        assert_eq!(kept[0].path, "/3");
        assert_eq!(kept[MAX_RECORDED - 1].path, format!("/{}", MAX_RECORDED + 2));
    }
}
