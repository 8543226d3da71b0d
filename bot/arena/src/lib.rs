//! `bot arena`: a local Lichess-compatible server for integration tests, the demo and local
//! play. It implements the Bot API subset the bot uses (accounts with bearer tokens and scopes,
//! event and game NDJSON streams with keep-alives, challenges, open challenges and seeks, moves
//! checked by the engine's rules, clocks, abort/resign/draw/chat/claim-victory, bot upgrade,
//! bots online, a per-account rate limit) on 127.0.0.1, with faults injected on demand and a
//! log of every request. Variant keys: `standard` and our ids (`persian-princess`, ...).

pub mod board;
pub mod clock;
pub mod explorer;
pub mod faults;
pub mod form;
pub mod game;
pub mod limits;
pub mod metrics;
mod ops;
pub mod plays;
pub mod ratings;
mod routes;
pub mod state;
pub mod status;
pub mod store;
mod stream;
pub mod study;
pub mod web;

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex, MutexGuard},
    time::Duration,
};

use tokio::{net::TcpListener, sync::broadcast, task::JoinHandle};

pub use faults::{Endpoint, Fault, RecordedRequest};
pub use state::ArenaStats;
use state::Inner;

/// An account of the arena.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountSpec {
    /// Display name (the id is its lower case).
    pub username: String,
    /// Bearer token.
    pub token: String,
    /// Bot account (title `BOT`).
    #[serde(default = "yes")]
    pub bot: bool,
    /// Rating shown.
    #[serde(default = "default_rating")]
    pub rating: u32,
    /// OAuth scopes of the token (`POST /api/token/test`); empty: every scope a bot needs.
    #[serde(default)]
    pub scopes: Vec<String>,
}

/// The scopes an arena token has when its account names none.
pub const ALL_SCOPES: &str = "bot:play,board:play,challenge:read,challenge:write,preference:read";

/// The scopes given, or every play scope (`ALL_SCOPES`) when none.
pub fn default_scopes(scopes: &[String]) -> Vec<String> {
    if scopes.is_empty() {
        ALL_SCOPES.split(',').map(str::to_string).collect()
    } else {
        scopes.to_vec()
    }
}

fn yes() -> bool {
    true
}

fn default_rating() -> u32 {
    1500
}

/// Arena settings.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Port (0: any free port).
    pub port: u16,
    /// Address to bind (127.0.0.1 unless told otherwise).
    pub bind: std::net::IpAddr,
    /// Accounts.
    pub accounts: Vec<AccountSpec>,
    /// Keep-alive period of the event stream (Lichess: 7 s).
    pub event_keepalive: Duration,
    /// Keep-alive period of game streams (Lichess: about 6 s).
    pub game_keepalive: Duration,
    /// Challenges expire after this (Lichess: 20 s).
    pub challenge_ttl: Duration,
    /// Real-time games: time for each side's first move before the game is aborted as
    /// `noStart` (Lichess: about 30 s). Zero: no limit.
    pub first_move: Duration,
    /// Seconds after `opponentGone` before victory can be claimed.
    pub claim_win_after_s: u64,
    /// Period of the clock/expiry check.
    pub tick: Duration,
    /// Rate limit per account: at most this many ordinary (non-stream) requests per second;
    /// the excess is answered with HTTP 429. 0: no limit.
    pub max_requests_per_second: u32,
    /// Rate limit per client IP on ordinary requests, per second (bursts of as many). 0: none.
    pub max_requests_per_second_per_ip: u32,
    /// Stream opens (event stream, game streams, seeks) per account and stream, per minute,
    /// with bursts of up to 10; an IP may open four times as many. 0: no limit.
    pub stream_opens_per_minute: u32,
    /// Take the client IP from the last `X-Forwarded-For` entry (behind a reverse proxy).
    pub trust_forwarded_for: bool,
    /// A request body must arrive within this time (else 408).
    pub body_timeout: Duration,
    /// A request's headers must arrive within this time (else the connection is closed), so
    /// that slow clients cannot hold connections. It also closes keep-alive connections idle
    /// that long, so it is not short (as a proxy's keep-alive timeout).
    pub header_timeout: Duration,
    /// Where the state lives: a SQLite file, or memory only (tests, the demo).
    pub storage: Storage,
    /// The folder of the opening trees for the explorer (none: the explorer says it has none).
    pub openings: Option<std::path::PathBuf>,
    /// Serve Prometheus metrics at `/metrics`.
    pub metrics: bool,
    /// Write one line per request to this file (`-`: standard output); none: no access log.
    pub access_log: Option<std::path::PathBuf>,
    /// Tests: limit the database to this many pages (SQLite's `max_page_count`), so that a
    /// full disk can be met without filling one.
    pub store_page_limit: Option<u64>,
}

/// Where the arena keeps its state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Storage {
    /// In memory: gone when the process ends.
    #[default]
    Memory,
    /// A SQLite database file, created and migrated on start.
    File(std::path::PathBuf),
}

impl ArenaConfig {
    /// The built-in test accounts: two bots and a human.
    pub fn builtin_accounts() -> Vec<AccountSpec> {
        let acc = |name: &str, bot: bool| AccountSpec {
            username: name.to_string(),
            token: format!("{}-token", name.to_lowercase()),
            bot,
            rating: 1500,
            scopes: Vec::new(),
        };
        vec![acc("Alpha", true), acc("Beta", true), acc("Human", false)]
    }

    pub(crate) fn public_host(&self) -> String {
        std::net::SocketAddr::new(self.bind, self.port).to_string()
    }
}

impl Default for ArenaConfig {
    fn default() -> ArenaConfig {
        ArenaConfig {
            port: 0,
            bind: std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
            accounts: ArenaConfig::builtin_accounts(),
            event_keepalive: Duration::from_secs(7),
            game_keepalive: Duration::from_secs(6),
            challenge_ttl: Duration::from_secs(20),
            first_move: Duration::from_secs(30),
            claim_win_after_s: 10,
            tick: Duration::from_millis(50),
            max_requests_per_second: 100,
            max_requests_per_second_per_ip: 300,
            stream_opens_per_minute: 30,
            trust_forwarded_for: false,
            body_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(65),
            storage: Storage::Memory,
            openings: None,
            metrics: true,
            access_log: None,
            store_page_limit: None,
        }
    }
}

/// Account management on a database, without a server (`bot arena account ...`).
pub struct Admin {
    inner: Mutex<Inner>,
}

impl Admin {
    /// The state of a database, with no configured accounts.
    pub fn new(store: store::Store) -> anyhow::Result<Admin> {
        let (log, _) = broadcast::channel(1);
        let config = ArenaConfig {
            accounts: Vec::new(),
            ..ArenaConfig::default()
        };
        Ok(Admin {
            inner: Mutex::new(Inner::new(config, log, Some(store))?),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Creates an account and its first token; returns the token.
    pub fn add_account(&self, name: &str, bot: bool, admin: bool, scopes: &[String]) -> anyhow::Result<String> {
        let scopes = default_scopes(scopes);
        state::check_scopes(&scopes).map_err(|r| anyhow::anyhow!("{}", r.message))?;
        self.lock()
            .transact(|inner| {
                let id = inner.create_account(name, bot, admin)?;
                inner.create_token(&id, &scopes, "created on the command line")
            })
            .map_err(|r| anyhow::anyhow!("{}", r.message))
    }

    /// Creates another token for an account; returns it.
    pub fn add_token(&self, name: &str, scopes: &[String], description: &str) -> anyhow::Result<String> {
        self.lock()
            .create_token(&name.to_lowercase(), &default_scopes(scopes), description)
            .map_err(|r| anyhow::anyhow!("{}", r.message))
    }

    /// Sets the password an account signs in with (Argon2id); ends its sessions.
    pub fn set_password(&self, name: &str, password: &str) -> anyhow::Result<()> {
        let id = name.to_lowercase();
        if self.lock().display_name(&id).is_none() {
            anyhow::bail!("no account {name}");
        }
        let n = password.chars().count();
        if n < web::auth::MIN_PASSWORD || password.len() > web::auth::MAX_PASSWORD {
            anyhow::bail!(
                "the password must have {} to {} characters",
                web::auth::MIN_PASSWORD,
                web::auth::MAX_PASSWORD
            );
        }
        let phc = web::auth::hash_password(password).map_err(|e| anyhow::anyhow!("hashing the password: {e}"))?;
        self.lock()
            .transact(|inner| {
                inner.set_password(&id, &phc)?;
                inner.end_sessions_of(&id)
            })
            .map_err(|r| anyhow::anyhow!("{}", r.message))
    }

    /// Revokes a token; whether it existed.
    pub fn revoke(&self, token: &str) -> anyhow::Result<bool> {
        self.lock()
            .revoke_token(token)
            .map_err(|r| anyhow::anyhow!("{}", r.message))
    }

    /// Disables or enables an account; whether it changed.
    pub fn set_disabled(&self, name: &str, disabled: bool) -> anyhow::Result<bool> {
        self.lock()
            .set_disabled(name, disabled)
            .map_err(|r| anyhow::anyhow!("{}", r.message))
    }

    /// One line per account: name, kind, perfs, tokens (description and scopes).
    pub fn list(&self) -> anyhow::Result<Vec<String>> {
        Ok(self.lock().account_lines())
    }
}

/// `bot arena backup`: a consistent copy of the database at `db` into `to` (a new file), made
/// while a server may be using it (`VACUUM INTO`: one read transaction, no lock that stops
/// the server). The copy is a complete database: serve it with `--db` to restore.
pub fn backup(db: &std::path::Path, to: &std::path::Path) -> anyhow::Result<()> {
    if !db.is_file() {
        anyhow::bail!("no database at {}", db.display());
    }
    if to.exists() {
        anyhow::bail!("{} exists: a backup goes to a new file", to.display());
    }
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| anyhow::anyhow!("opening {}: {e}", db.display()))?;
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.execute("VACUUM INTO ?1", rusqlite::params![to.to_string_lossy().to_string()])
        .map_err(|e| anyhow::anyhow!("copying {} to {}: {e}", db.display(), to.display()))?;
    let copy = rusqlite::Connection::open_with_flags(to, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let check: String = copy.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if check != "ok" {
        anyhow::bail!("the copy at {} fails its integrity check: {check}", to.display());
    }
    Ok(())
}

/// What happens on the arena, for in-process observers (the demo prints it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaLog {
    /// A game started.
    GameStarted {
        /// Game id.
        game: String,
        /// Engine variant id.
        variant: String,
        /// White's id.
        white: String,
        /// Black's id.
        black: String,
    },
    /// A move was played.
    Moved {
        /// Game id.
        game: String,
        /// 1-based ply.
        ply: usize,
        /// UCI.
        uci: String,
        /// SAN.
        san: String,
    },
    /// A game ended.
    GameFinished {
        /// Game id.
        game: String,
        /// Status name.
        status: String,
        /// `white`/`black`, none for a draw or an abort.
        winner: Option<String>,
    },
    /// A challenge was declined.
    ChallengeDeclined {
        /// Challenge id.
        challenge: String,
        /// Reason key.
        reason: String,
    },
}

/// State shared by the handlers.
pub struct Shared {
    inner: Mutex<Inner>,
    next_conn: std::sync::atomic::AtomicU64,
    /// The opening trees of the explorer (read-only).
    openings: study::Openings,
    /// The explorer's index of the finished games (built at start, grows as games finish).
    game_index: Mutex<explorer::GameIndex>,
    /// Engine analyses per user or address: 10 at once, then one every 6 seconds.
    analysis_budget: Mutex<limits::Limiter<String>>,
    /// Engine analyses running at once.
    analysis_slots: tokio::sync::Semaphore,
    /// Password hashes computed at once (each takes about 19 MiB and tens of milliseconds).
    password_slots: tokio::sync::Semaphore,
    /// Sign-ups and sign-in attempts per user or address: 20 at once, then one every 10 s.
    account_budget: Mutex<limits::Limiter<String>>,
    /// The metrics (none: `/metrics` is not served).
    metrics: Option<Arc<metrics::Metrics>>,
    /// The access log (none: not kept).
    access_log: Option<Mutex<Box<dyn std::io::Write + Send>>>,
    /// When the server started.
    started: std::time::Instant,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves consistent-enough data for a test server.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }
}

/// Accepts connections and serves HTTP/1.1 on each: paths without a trailing slash (berserk
/// posts `.../claim-victory/`), the client address for the rate limits, a time limit on
/// reading the headers.
async fn serve(listener: TcpListener, router: axum::Router, header_timeout: Duration) {
    use tower::ServiceExt as _;
    loop {
        let (stream, remote) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!("arena: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let router = router.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                let mut request = routes::trim_trailing_slash(request.map(axum::body::Body::new));
                request.extensions_mut().insert(axum::extract::ConnectInfo(remote));
                router.clone().oneshot(request)
            });
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout)
                .keep_alive(true);
            let io = hyper_util::rt::TokioIo::new(stream);
            if let Err(e) = http.serve_connection(io, service).await {
                tracing::debug!("arena: connection from {remote}: {e}");
            }
        });
    }
}

/// Adds each game that finishes to the explorer's index (the log's `GameFinished` comes after
/// the game's end is stored); after missed log entries, every finished game not yet indexed.
async fn index_finished_games(shared: Arc<Shared>, mut log: broadcast::Receiver<ArenaLog>) {
    loop {
        let records = match log.recv().await {
            Ok(ArenaLog::GameFinished { game, .. }) => shared.lock().explorer_record(&game).into_iter().collect(),
            Ok(_) => continue,
            Err(broadcast::error::RecvError::Lagged(_)) => shared.lock().explorer_records(),
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let mut index = shared.game_index.lock().unwrap_or_else(|p| p.into_inner());
        for r in records {
            index.add(r);
        }
    }
}

/// A running arena.
pub struct Arena {
    addr: SocketAddr,
    shared: Arc<Shared>,
    log: broadcast::Sender<ArenaLog>,
    tasks: Vec<JoinHandle<()>>,
}

impl Arena {
    /// Binds 127.0.0.1:`config.port` and serves in the background.
    pub async fn start(mut config: ArenaConfig) -> anyhow::Result<Arena> {
        let listener = TcpListener::bind((config.bind, config.port)).await?;
        let addr = listener.local_addr()?;
        config.port = addr.port();
        let (log, _) = broadcast::channel(4096);
        let tick = config.tick;
        let ttl = config.challenge_ttl;
        let header_timeout = config.header_timeout;
        let store = match &config.storage {
            Storage::Memory => None,
            Storage::File(path) => {
                let store = store::Store::open_exclusive(path).map_err(|e| anyhow::anyhow!("arena database {e}"))?;
                if let Some(pages) = config.store_page_limit {
                    store.set_page_limit(pages)?;
                }
                Some(store)
            }
        };
        let metrics = config.metrics.then(|| Arc::new(metrics::Metrics::new()));
        let access_log: Option<Mutex<Box<dyn std::io::Write + Send>>> = match &config.access_log {
            None => None,
            Some(p) if p.as_os_str() == "-" => Some(Mutex::new(Box::new(std::io::stdout()))),
            Some(p) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| anyhow::anyhow!("opening the access log {}: {e}", p.display()))?;
                Some(Mutex::new(Box::new(std::io::LineWriter::new(file))))
            }
        };
        let openings = match &config.openings {
            Some(dir) => study::Openings::load(dir)?,
            None => study::Openings::default(),
        };
        let mut inner = Inner::new(config, log.clone(), store)?;
        inner.metrics = metrics.clone();
        // Subscribed before the index is built: a game that finishes meanwhile is not missed.
        let finished = log.subscribe();
        let mut game_index = explorer::GameIndex::default();
        for record in inner.explorer_records() {
            game_index.add(record);
        }
        let shared = Arc::new(Shared {
            inner: Mutex::new(inner),
            next_conn: 1.into(),
            openings,
            game_index: Mutex::new(game_index),
            analysis_budget: Mutex::new(limits::Limiter::new(10, 1.0 / 6.0)),
            analysis_slots: tokio::sync::Semaphore::new(2),
            password_slots: tokio::sync::Semaphore::new(2),
            account_budget: Mutex::new(limits::Limiter::new(20, 0.1)),
            metrics,
            access_log,
            started: std::time::Instant::now(),
        });
        let router = routes::router(shared.clone());
        let server = tokio::spawn(serve(listener, router, header_timeout));
        let ticking = shared.clone();
        let ticker = tokio::spawn(async move {
            let mut interval = tokio::time::interval(tick);
            loop {
                interval.tick().await;
                ticking.lock().tick(ttl);
            }
        });
        let indexer = tokio::spawn(index_finished_games(shared.clone(), finished));
        Ok(Arena {
            addr,
            shared,
            log,
            tasks: vec![server, ticker, indexer],
        })
    }

    /// The address served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Observes what happens.
    pub fn subscribe(&self) -> broadcast::Receiver<ArenaLog> {
        self.log.subscribe()
    }

    /// Creates an account (`bot` or not) and a token with `scopes` (every play scope when
    /// empty); returns the token, which is stored only hashed.
    pub fn add_account(&self, username: &str, bot: bool, scopes: &[String]) -> anyhow::Result<String> {
        let scopes = default_scopes(scopes);
        state::check_scopes(&scopes).map_err(|r| anyhow::anyhow!("{}", r.message))?;
        self.shared
            .lock()
            .transact(|inner| {
                let id = inner.create_account(username, bot, false)?;
                inner.create_token(&id, &scopes, "created by the arena")
            })
            .map_err(|r| anyhow::anyhow!("{}", r.message))
    }

    /// Whether the database takes no writes now, and why.
    pub fn degraded(&self) -> Option<String> {
        self.shared.lock().degraded().map(str::to_string)
    }

    /// Limits the database to `pages` pages (tests of a full disk: writes beyond fail as on a
    /// full disk). Returns the limit SQLite set.
    #[doc(hidden)]
    pub fn set_store_page_limit(&self, pages: u64) -> anyhow::Result<u64> {
        self.shared.lock().set_store_page_limit(pages)
    }

    /// The accounts, as `Name (bot|human)`.
    pub fn account_names(&self) -> Vec<String> {
        self.shared.lock().account_names()
    }

    /// Counters.
    pub fn stats(&self) -> ArenaStats {
        self.shared.lock().stats.clone()
    }

    /// Closes every event stream (clients must reconnect).
    pub fn drop_event_streams(&self) {
        self.shared.lock().drop_event_streams();
    }

    /// Closes the streams of one game (clients must reconnect).
    pub fn drop_game_streams(&self, game: &str) {
        self.shared.lock().drop_game_streams(game);
    }

    /// Queues a fault: the next matching calls get its status instead of an answer.
    pub fn inject(&self, fault: Fault) {
        self.shared.lock().faults.push(fault);
    }

    /// Faults answered so far (endpoint, status).
    pub fn injected(&self) -> Vec<(Endpoint, u16)> {
        self.shared.lock().faults.injected.clone()
    }

    /// The requests received so far (the last 50,000).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().recorded_requests()
    }

    /// Sets a player's time left in a running game (a clock almost out, for tests).
    pub fn set_time_left(&self, game: &str, color: engine::rules::Color, ms: u64) -> anyhow::Result<()> {
        self.shared
            .lock()
            .set_time_left(game, color, ms)
            .map_err(|r| anyhow::anyhow!("{}", r.message))
    }

    /// Stops serving.
    pub fn stop(self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}
