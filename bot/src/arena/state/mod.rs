//! The arena's state: accounts, challenges, games and the open streams. Every operation runs
//! under one lock and pushes the resulting NDJSON lines into the subscribers' channels. The
//! operations are grouped by job: accounts, the event stream, challenges, seeks and games.

mod accounts;
mod challenges;
mod events;
mod games;
mod seeks;

use std::{
    collections::HashMap,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use tokio::sync::broadcast;

pub use self::{challenges::ChallengeParams, seeks::SeekParams};
use self::{
    challenges::{OpenChallenge, PendingChallenge},
    events::Sub,
    games::GameSub,
    seeks::Seek,
};
use super::{
    faults::{Faults, RecordedRequest},
    game::{ArenaGame, GameError},
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
    /// Rating shown.
    pub rating: u32,
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
            .filter(|(_, c)| c.keep_alive.is_none() && now.saturating_duration_since(c.created) > challenge_ttl)
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            if let Some(c) = self.challenges.remove(&id) {
                self.cancel_pending(c);
            }
        }
    }
}
