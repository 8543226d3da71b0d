//! `bot arena`: a local Lichess-compatible server for integration tests, the demo and local
//! play. It implements the Bot API subset the bot uses (accounts with bearer tokens and scopes,
//! event and game NDJSON streams with keep-alives, challenges, open challenges and seeks, moves
//! checked by the engine's rules, clocks, abort/resign/draw/chat/claim-victory, bot upgrade,
//! bots online, a per-account rate limit) on 127.0.0.1, with faults injected on demand and a
//! log of every request. Variant keys: `standard` and our ids (`persian-princess`, ...).

pub mod faults;
pub mod form;
pub mod game;
mod routes;
pub mod state;
mod stream;

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
pub const ALL_SCOPES: &str = "bot:play,board:play,challenge:read,challenge:write";

fn yes() -> bool {
    true
}

fn default_rating() -> u32 {
    1500
}

/// Arena settings.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Port on 127.0.0.1 (0: any free port).
    pub port: u16,
    /// Accounts.
    pub accounts: Vec<AccountSpec>,
    /// Keep-alive period of the event stream (Lichess: 7 s).
    pub event_keepalive: Duration,
    /// Keep-alive period of game streams (Lichess: about 6 s).
    pub game_keepalive: Duration,
    /// Challenges expire after this (Lichess: 20 s).
    pub challenge_ttl: Duration,
    /// Seconds after `opponentGone` before victory can be claimed.
    pub claim_win_after_s: u64,
    /// Period of the clock/expiry check.
    pub tick: Duration,
    /// Rate limit per account: at most this many ordinary (non-stream) requests per second;
    /// the excess is answered with HTTP 429. 0: no limit.
    pub max_requests_per_second: u32,
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
        format!("127.0.0.1:{}", self.port)
    }
}

impl Default for ArenaConfig {
    fn default() -> ArenaConfig {
        ArenaConfig {
            port: 0,
            accounts: ArenaConfig::builtin_accounts(),
            event_keepalive: Duration::from_secs(7),
            game_keepalive: Duration::from_secs(6),
            challenge_ttl: Duration::from_secs(20),
            claim_win_after_s: 10,
            tick: Duration::from_millis(50),
            max_requests_per_second: 100,
        }
    }
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
        let listener = TcpListener::bind(("127.0.0.1", config.port)).await?;
        let addr = listener.local_addr()?;
        config.port = addr.port();
        let (log, _) = broadcast::channel(4096);
        let tick = config.tick;
        let ttl = config.challenge_ttl;
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner::new(config, log.clone())),
            next_conn: 1.into(),
        });
        // Paths are matched without a trailing slash (berserk posts `.../claim-victory/`).
        let app = tower::ServiceBuilder::new()
            .map_request(routes::trim_trailing_slash)
            .service(routes::router(shared.clone()));
        let app = axum::ServiceExt::<axum::extract::Request>::into_make_service(app);
        let server = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!("arena server stopped: {e}");
            }
        });
        let ticking = shared.clone();
        let ticker = tokio::spawn(async move {
            let mut interval = tokio::time::interval(tick);
            loop {
                interval.tick().await;
                ticking.lock().tick(ttl);
            }
        });
        Ok(Arena {
            addr,
            shared,
            log,
            tasks: vec![server, ticker],
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

    /// Every request received so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
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
