//! The arena's state: accounts, challenges, games and the open streams. Every operation runs
//! under one lock and pushes the resulting NDJSON lines into the subscribers' channels. The
//! operations are grouped by job: accounts, the event stream, challenges, seeks and games.

mod accounts;
mod challenges;
mod events;
mod export;
mod games;
pub(crate) mod journal;
pub mod moderation;
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
    journal::{Journaled, Outbox, Outgoing, Tracked},
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
use lichess_api::types::Event;

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
    /// 403.
    pub fn forbidden(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 403,
            message: message.into(),
        }
    }
    /// 503: the change could not be stored, and was not made.
    pub fn unavailable(cause: &str) -> Refusal {
        Refusal {
            status: 503,
            message: format!(
                "The arena cannot store changes right now ({cause}); nothing was changed, try again later"
            ),
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
    /// Disabled by a moderator.
    pub disabled: bool,
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
            disabled: a.disabled,
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
    /// Moves played.
    pub moves: u64,
    /// Units of work whose database writes failed (each answered 503, nothing changed).
    pub store_errors: u64,
}

/// A state change in progress (see [`journal`]).
struct Unit {
    outbox: Outbox,
    /// Its database transaction has begun.
    begun: bool,
    /// The first write that failed: the unit will be undone.
    failed: Option<String>,
    /// What the untracked parts of the state were before.
    seeks: Option<Vec<Seek>>,
    next_id: u64,
    last_created_at: u64,
    /// When its first write began.
    first_write: Option<Instant>,
}

/// Everything behind the lock.
pub struct Inner {
    pub(super) config: ArenaConfig,
    users: Tracked<User>,
    /// By token hash.
    tokens: Tracked<TokenInfo>,
    /// The database (none in memory mode).
    store: Option<Store>,
    challenges: Tracked<PendingChallenge>,
    open_challenges: Tracked<OpenChallenge>,
    seeks: Vec<Seek>,
    games: Tracked<ArenaGame>,
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
    sessions: Tracked<Session>,
    /// Password hashes read or set so far, by account.
    passwords: Tracked<String>,
    /// Failed sign-ins per account.
    sign_in_attempts: Limiter<String>,
    /// The state change in progress.
    unit: Option<Unit>,
    /// Why the database takes no writes (none: it does).
    degraded: Option<String>,
    /// When the database was last tried while degraded.
    last_probe: Instant,
    /// The database's data version last seen (changes made by the command line).
    data_version: i64,
    /// The server's metrics (none: not collected).
    pub(super) metrics: Option<std::sync::Arc<super::metrics::Metrics>>,
    /// What each account is seen to play (games played, challenges declined for their
    /// terms), by account.
    plays: Tracked<super::plays::Plays>,
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
            users: Tracked::default(),
            tokens: Tracked::default(),
            store: None,
            challenges: Tracked::default(),
            open_challenges: Tracked::default(),
            seeks: Vec::new(),
            games: Tracked::default(),
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
            sessions: Tracked::default(),
            passwords: Tracked::default(),
            sign_in_attempts: Limiter::new(5, 1.0 / 60.0),
            unit: None,
            degraded: None,
            last_probe: Instant::now(),
            data_version: 0,
            metrics: None,
            plays: Tracked::default(),
        };
        if let Some(store) = store {
            inner.load(&store)?;
            inner.data_version = store.data_version()?;
            inner.store = Some(store);
        }
        let configured = inner.transact(|inner| {
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
                        disabled: false,
                    });
                } else if let Some(u) = inner.users.get_mut(&id) {
                    u.start_rating = f64::from(a.rating);
                }
                let scopes = default_scopes(&a.scopes);
                inner.add_token_hash(token_hash(&a.token), id, scopes, "configured".into());
            }
            Ok(())
        });
        configured.map_err(|r| anyhow::anyhow!("storing the configured accounts: {}", r.message))?;
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
        self.load_plays(store)?;
        Ok(())
    }

    /// Writes with the database, if any, as part of the unit of work in progress: the first
    /// write begins its transaction; a failure makes the whole unit fail (and be undone).
    pub(super) fn persist(&mut self, what: &str, f: impl FnOnce(&mut Store) -> rusqlite::Result<()>) {
        let Some(store) = self.store.as_mut() else {
            return;
        };
        let Some(unit) = self.unit.as_mut() else {
            // Every change runs in a unit (`transact`); tests catch one that does not.
            debug_assert!(false, "a database write outside a unit of work: {what}");
            if let Err(e) = f(store) {
                tracing::error!("arena database: {what}: {e}");
                self.degraded = Some(e.to_string());
            }
            return;
        };
        if unit.failed.is_some() {
            return;
        }
        if !unit.begun {
            if let Err(e) = store.begin() {
                unit.failed = Some(format!("{what}: {e}"));
                return;
            }
            unit.begun = true;
            unit.first_write = Some(Instant::now());
        }
        if let Err(e) = f(store) {
            unit.failed = Some(format!("{what}: {e}"));
        }
    }

    /// Runs `f` as one unit of work: its database writes in one transaction, committed before
    /// anything is answered or sent; its stream lines and log entries sent only after the
    /// commit. If a write or the commit fails, the state is put back as it was before `f`,
    /// nothing is sent, the arena reports itself degraded (until a write succeeds again), and
    /// the answer is 503. Inside a unit, `f` is simply part of it.
    pub fn transact<T>(&mut self, f: impl FnOnce(&mut Inner) -> Result<T, Refusal>) -> Result<T, Refusal> {
        if self.unit.is_some() {
            return f(self);
        }
        self.begin_unit();
        let result = f(self);
        match self.end_unit() {
            Ok(()) => result,
            Err(cause) => Err(Refusal::unavailable(&cause)),
        }
    }

    /// Every map a unit of work can undo (one list, so that none is forgotten).
    fn tracked(&mut self) -> [&mut dyn Journaled; 8] {
        [
            &mut self.users,
            &mut self.tokens,
            &mut self.challenges,
            &mut self.open_challenges,
            &mut self.games,
            &mut self.sessions,
            &mut self.passwords,
            &mut self.plays,
        ]
    }

    fn begin_unit(&mut self) {
        let tracked = self.store.is_some();
        if tracked {
            self.tracked().into_iter().for_each(Journaled::begin);
        }
        self.unit = Some(Unit {
            outbox: Vec::new(),
            begun: false,
            failed: None,
            seeks: (tracked && !self.seeks.is_empty()).then(|| self.seeks.clone()),
            next_id: self.next_id,
            last_created_at: self.last_created_at,
            first_write: None,
        });
    }

    fn end_unit(&mut self) -> Result<(), String> {
        let Some(unit) = self.unit.take() else {
            return Ok(());
        };
        let mut failed = unit.failed;
        if let (true, Some(store)) = (unit.begun, self.store.as_ref()) {
            if failed.is_none() {
                if let Err(e) = store.commit() {
                    failed = Some(format!("committing: {e}"));
                }
            }
            if failed.is_some() {
                store.rollback();
            }
        }
        if let (Some(m), Some(t)) = (&self.metrics, unit.first_write) {
            m.store_write(t.elapsed(), failed.is_none());
        }
        if let Some(cause) = failed {
            self.tracked().into_iter().for_each(Journaled::rollback);
            if let Some(seeks) = unit.seeks {
                self.seeks = seeks;
            } else if self.store.is_some() {
                self.seeks.clear();
            }
            self.next_id = unit.next_id;
            self.last_created_at = unit.last_created_at;
            self.stats.store_errors += 1;
            if self.degraded.is_none() {
                tracing::error!("arena database: a change could not be stored and was undone: {cause}");
            } else {
                tracing::warn!("arena database: still failing: {cause}");
            }
            self.degraded = Some(cause.clone());
            self.last_probe = Instant::now();
            return Err(cause);
        }
        self.tracked().into_iter().for_each(Journaled::commit);
        if unit.begun && self.degraded.take().is_some() {
            tracing::info!("arena database: writes succeed again");
        }
        for out in unit.outbox {
            match out {
                Outgoing::Line(tx, line) => {
                    let _ = tx.send(line);
                }
                Outgoing::Log(entry) => {
                    let _ = self.log.send(entry);
                }
                Outgoing::CloseGameStreams(game) => {
                    self.game_subs.remove(&game);
                }
            }
        }
        Ok(())
    }

    /// Sends a stream line: at once outside a unit, after its commit inside one. Whether the
    /// stream is still open.
    pub(super) fn emit(&mut self, tx: &tokio::sync::mpsc::UnboundedSender<String>, line: String) -> bool {
        match self.unit.as_mut() {
            Some(unit) => {
                let open = !tx.is_closed();
                if open {
                    unit.outbox.push(Outgoing::Line(tx.clone(), line));
                }
                open
            }
            None => tx.send(line).is_ok(),
        }
    }

    /// Logs for in-process observers: at once outside a unit, after its commit inside one.
    pub(super) fn emit_log(&mut self, entry: ArenaLog) {
        match self.unit.as_mut() {
            Some(unit) => unit.outbox.push(Outgoing::Log(entry)),
            None => {
                let _ = self.log.send(entry);
            }
        }
    }

    /// Closes the game streams of a finished game (after the unit's commit).
    pub(super) fn close_game_streams_later(&mut self, game: &str) {
        match self.unit.as_mut() {
            Some(unit) => unit.outbox.push(Outgoing::CloseGameStreams(game.to_string())),
            None => {
                self.game_subs.remove(game);
            }
        }
    }

    /// Why the database takes no writes now (none: it does).
    pub fn degraded(&self) -> Option<&str> {
        self.degraded.as_deref()
    }

    /// The database file, if any.
    pub fn database_path(&self) -> Option<std::path::PathBuf> {
        self.store
            .as_ref()
            .and_then(|s| s.path().map(std::path::Path::to_path_buf))
    }

    /// Limits the database to `pages` pages (tests of a full disk).
    pub fn set_store_page_limit(&mut self, pages: u64) -> anyhow::Result<u64> {
        match self.store.as_ref() {
            Some(s) => Ok(s.set_page_limit(pages)?),
            None => anyhow::bail!("the arena keeps no database"),
        }
    }

    /// Running games and open streams (the health check, the metrics).
    pub fn counts(&self) -> (usize, usize) {
        let running = self.games.values().filter(|g| g.is_running()).count();
        let streams = self.event_subs.len() + self.game_subs.values().map(Vec::len).sum::<usize>();
        (running, streams)
    }

    /// While degraded, tries a write once a second: the arena recovers by itself once the
    /// database takes writes again.
    fn probe_when_degraded(&mut self) {
        if self.degraded.is_none() || self.last_probe.elapsed() < Duration::from_secs(1) {
            return;
        }
        self.last_probe = Instant::now();
        let probed = self.transact(|inner| {
            inner.persist("checking that the database takes writes", |s| s.touch());
            Ok(())
        });
        if probed.is_ok() {
            tracing::info!("arena database: writes succeed again");
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
        if let Some(tx) = self.event_subs.get(user).map(|s| s.tx.clone()) {
            if !self.emit(&tx, json_line(event)) {
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

    /// Flags and expired challenges, changes made by the command line, the degraded check;
    /// called periodically. Each change is a unit of its own.
    pub fn tick(&mut self, challenge_ttl: Duration) {
        let now = Instant::now();
        if self.next_prune <= now {
            self.next_prune = now + Duration::from_secs(60);
            self.ip_rate.prune(now);
            self.stream_opens.prune(now);
            self.ip_stream_opens.prune(now);
            self.sign_in_attempts.prune(now);
            let _ = self.transact(|inner| {
                inner.prune_sessions();
                Ok(())
            });
            self.rate
                .retain(|_, (start, _)| now.saturating_duration_since(*start) < Duration::from_secs(2));
        }
        self.follow_outside_changes();
        self.probe_when_degraded();
        let due: Vec<String> = self
            .games
            .values()
            .filter(|g| g.flag_due(now))
            .map(|g| g.id.clone())
            .collect();
        for id in due {
            let _ = self.transact(|inner| {
                if inner.games.get_mut(&id).is_some_and(|g| g.check_flag(now)) {
                    inner.after_change(&id);
                }
                Ok(())
            });
        }
        let expired: Vec<String> = self
            .challenges
            .iter()
            .filter(|(_, c)| c.keep_alive.is_none() && now.saturating_duration_since(c.created) > challenge_ttl)
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            let _ = self.transact(|inner| {
                if let Some(c) = inner.remove_challenge(&id) {
                    inner.cancel_pending(c);
                }
                Ok(())
            });
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
