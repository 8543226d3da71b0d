//! The event loop: one event stream (reconnected with back-off), challenges accepted or declined
//! by the filters, one task per game. Replayed `challenge`/`gameStart` lines after a reconnect
//! are handled idempotently, and a failing game task never stops the loop.

use std::{
    collections::{HashMap, HashSet},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use anyhow::Context as _;
use tokio::{
    sync::{mpsc::UnboundedSender, watch},
    task::JoinHandle,
};

use crate::{
    api::{
        types::{Challenge, Compat, Event},
        Client, Token,
    },
    challenge::{self, ActiveGames},
    config::{Config, ShutdownPolicy},
    game::{self, GameContext, GameReport},
    matchmaking,
};

/// The most challenge ids remembered (to tell new challenges from replays).
const MAX_CHALLENGES_SEEN: usize = 10_000;

/// A bot: the event loop and its games.
pub struct Bot {
    ctx: Arc<GameContext>,
    /// Running game tasks, and whether each is a correspondence game.
    games: HashMap<String, (JoinHandle<()>, bool)>,
    done: HashSet<String>,
    /// Ids of the challenges the event stream has shown.
    challenges_seen: HashSet<String>,
    reports: Option<UnboundedSender<GameReport>>,
    /// Real-time games running now (shared with the matchmaking task, which seeks real-time
    /// games only).
    running: Arc<AtomicUsize>,
}

impl Bot {
    /// Connects: checks the account of the token.
    pub async fn connect(config: Config, token: Token) -> anyhow::Result<Bot> {
        config.validate()?;
        let client = Client::new(config.client_options(token))?;
        let account = client
            .account()
            .await
            .with_context(|| format!("checking the account at {}", client.base_url()))?;
        if !account.is_bot() {
            tracing::warn!(
                "account '{}' is not a BOT account: Lichess will refuse Bot API calls \
                 (upgrade it once with `bot upgrade`; docs/bot.md)",
                account.username
            );
        }
        check_scopes(&client, &account.username).await?;
        let client = client.for_account(&account.username)?;
        tracing::info!("logged in as {} on {}", account.username, client.base_url());
        Ok(Bot {
            ctx: Arc::new(GameContext {
                client,
                account,
                config: Arc::new(config),
            }),
            games: HashMap::new(),
            done: HashSet::new(),
            challenges_seen: HashSet::new(),
            reports: None,
            running: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// Sends a report of every finished game to `tx`.
    pub fn with_reports(mut self, tx: UnboundedSender<GameReport>) -> Bot {
        self.reports = Some(tx);
        self
    }

    /// The client (to create challenges, for example).
    pub fn client(&self) -> &Client {
        &self.ctx.client
    }

    /// Runs until `shutdown` becomes true: then no challenge is accepted any more (the event
    /// stream is closed) and the running games are finished, resigned or left as
    /// `games.on_shutdown` says. With `finish`, a second signal (the value sent again)
    /// resigns what is still running.
    pub async fn run(mut self, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
        let matchmaking = self.ctx.config.matchmaking.enabled.then(|| {
            tokio::spawn(matchmaking::run(
                self.ctx.clone(),
                self.running.clone(),
                shutdown.clone(),
            ))
        });
        // Reopening the event stream: the delay doubles after each stream that ends (or
        // fails) at once, up to the maximum, and starts again from the first after a stream
        // that brought something new or stayed open at least as long as the longest delay.
        let (first_delay, max_delay) = self.ctx.config.network.reconnect_delays();
        let mut delay = first_delay;
        while !*shutdown.borrow() {
            let opened = tokio::time::Instant::now();
            let mut fresh = 0;
            let connected = tokio::select! {
                r = self.follow_events(&mut fresh) => r,
                _ = shutdown.changed() => break,
            };
            if fresh > 0 || opened.elapsed() >= max_delay {
                delay = first_delay;
            }
            match connected {
                Ok(()) => tracing::info!("event stream closed; reconnecting in {delay:?}"),
                Err(e) => tracing::warn!("event stream: {e}; reconnecting in {delay:?}"),
            }
            tokio::select! {
                _ = tokio::time::sleep(delay) => {}
                _ = shutdown.changed() => break,
            }
            delay = (delay * 2).min(max_delay);
        }
        if let Some(task) = matchmaking {
            task.abort();
        }
        self.shut_down(shutdown).await;
        Ok(())
    }

    async fn shut_down(&mut self, mut shutdown: watch::Receiver<bool>) {
        let running = self.active_games();
        let mut policy = self.ctx.config.games.on_shutdown;
        if running > 0 {
            tracing::info!("stopping: no new games; {running} running, policy {policy:?}");
        }
        // Correspondence games are neither waited for nor resigned: they go on for days, and
        // the bot takes them up again when it restarts (the event stream replays them).
        let real_time = self.active_by_kind().real_time;
        if policy == ShutdownPolicy::Finish && real_time > 0 {
            shutdown.mark_unchanged();
            let all = futures::future::join_all(self.games.values_mut().filter(|(_, c)| !*c).map(|(t, _)| t));
            tokio::select! {
                _ = all => {}
                _ = shutdown.changed() => {
                    tracing::info!("second stop signal: resigning the running games");
                    policy = ShutdownPolicy::Resign;
                }
            }
        }
        if policy == ShutdownPolicy::Resign && self.active_by_kind().real_time > 0 {
            let ids: Vec<String> = self
                .games
                .iter()
                .filter(|(_, (_, c))| !*c)
                .map(|(id, _)| id.clone())
                .collect();
            for id in ids {
                let client = &self.ctx.client;
                if client.abort(&id).await.is_ok() {
                    tracing::info!("game {id}: aborted");
                } else if let Err(e) = client.resign(&id).await {
                    tracing::warn!("game {id}: resigning failed: {e}");
                } else {
                    tracing::info!("game {id}: resigned");
                }
            }
            // Give the tasks a moment to see the end and save their PGN.
            let all = futures::future::join_all(self.games.values_mut().filter(|(_, c)| !*c).map(|(t, _)| t));
            let _ = tokio::time::timeout(Duration::from_secs(5), all).await;
        }
        for (_, (task, _)) in self.games.drain() {
            task.abort();
        }
    }

    /// Reads one connection of the event stream; `fresh` counts the events that were new to
    /// us (not the replays of a reconnection).
    async fn follow_events(&mut self, fresh: &mut usize) -> Result<(), crate::api::ApiError> {
        let mut stream = self.ctx.client.stream_events().await?;
        while let Some(event) = stream.next().await? {
            if self.on_event(event).await {
                *fresh += 1;
            }
        }
        Ok(())
    }

    fn active_games(&mut self) -> usize {
        self.games.retain(|_, (t, _)| !t.is_finished());
        self.games.len()
    }

    /// The running games, real-time and correspondence apart.
    fn active_by_kind(&mut self) -> ActiveGames {
        self.active_games();
        let correspondence = self.games.values().filter(|(_, c)| *c).count();
        ActiveGames {
            real_time: self.games.len() - correspondence,
            correspondence,
        }
    }

    /// Handles an event; whether it was new to us (a replayed challenge or game start, or an
    /// event of an unknown type, is not).
    async fn on_event(&mut self, event: Event) -> bool {
        match event {
            Event::Challenge { challenge, compat } => {
                if self.challenges_seen.len() >= MAX_CHALLENGES_SEEN {
                    self.challenges_seen.clear(); // bounded; forgetting old ids is harmless
                }
                let new = self.challenges_seen.insert(challenge.id.clone());
                self.on_challenge(challenge, compat).await;
                new
            }
            Event::GameStart { game } => {
                let correspondence = game.speed.as_deref() == Some("correspondence");
                self.start_game(game.game_id, correspondence)
            }
            Event::GameFinish { game } => {
                tracing::debug!("gameFinish {}", game.game_id);
                true
            }
            Event::ChallengeCanceled { challenge } => {
                tracing::info!("challenge {} canceled", challenge.id);
                true
            }
            Event::ChallengeDeclined { challenge } => {
                tracing::info!(
                    "challenge {} declined: {}",
                    challenge.id,
                    challenge.decline_reason_key.as_deref().unwrap_or("?")
                );
                true
            }
            Event::Other => false,
        }
    }

    async fn on_challenge(&mut self, ch: Challenge, compat: Option<Compat>) {
        if ch.challenger.id.eq_ignore_ascii_case(&self.ctx.account.id) {
            return; // our own outgoing challenge
        }
        let active = self.active_by_kind();
        let client = &self.ctx.client;
        match challenge::decide(&ch, compat, &self.ctx.config, active) {
            Ok(()) => {
                tracing::info!(
                    "accepting challenge {} from {} ({})",
                    ch.id,
                    ch.challenger.name,
                    ch.variant.key
                );
                match client.accept_challenge(&ch.id).await {
                    Ok(()) => {}
                    Err(e) if e.status() == Some(404) => tracing::info!("challenge {} is gone", ch.id),
                    Err(e) => tracing::warn!("accepting challenge {}: {e}", ch.id),
                }
            }
            Err(reason) => {
                tracing::info!(
                    "declining challenge {} from {}: {}",
                    ch.id,
                    ch.challenger.name,
                    reason.key()
                );
                if let Err(e) = client.decline_challenge(&ch.id, reason).await {
                    tracing::warn!("declining challenge {}: {e}", ch.id);
                }
            }
        }
    }

    /// Starts the task of game `id`, unless it was started before; whether it was new.
    fn start_game(&mut self, id: String, correspondence: bool) -> bool {
        self.active_games();
        if self.games.contains_key(&id) || self.done.contains(&id) {
            tracing::debug!("game {id} already handled");
            return false;
        }
        tracing::info!("game {id} starts");
        let ctx = self.ctx.clone();
        let reports = self.reports.clone();
        let game_id = id.clone();
        // Real-time games count for the matchmaking (correspondence ones go on for days).
        let running = (!correspondence).then(|| self.running.clone());
        if let Some(r) = &running {
            r.fetch_add(1, Ordering::SeqCst);
        }
        let task = tokio::spawn(async move {
            // Counts the game as running until this task ends (or is aborted).
            struct Running(Option<Arc<AtomicUsize>>);
            impl Drop for Running {
                fn drop(&mut self) {
                    if let Some(r) = &self.0 {
                        r.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            }
            let _running = Running(running);
            match game::run(ctx, game_id.clone()).await {
                Ok(report) => {
                    if let Some(tx) = reports {
                        let _ = tx.send(report);
                    }
                }
                Err(e) => tracing::error!("game {game_id} failed: {e:#}"),
            }
        });
        self.done.insert(id.clone());
        self.games.insert(id, (task, correspondence));
        true
    }
}

/// The scopes a bot token needs, and what each is for.
const NEEDED_SCOPES: [(&str, &str); 3] = [
    ("bot:play", "play games through the Bot API"),
    ("challenge:read", "see incoming challenges"),
    ("challenge:write", "accept, decline and send challenges"),
];

/// Checks the token's scopes: no `bot:play` is an error, other missing scopes are warnings.
/// A server that cannot tell (no token test endpoint) is trusted.
async fn check_scopes(client: &Client, username: &str) -> anyhow::Result<()> {
    let scopes = match client.token_scopes().await {
        Ok(Some(scopes)) => scopes,
        Ok(None) => anyhow::bail!("the server does not know the token of '{username}'"),
        Err(e) => {
            tracing::debug!("cannot test the token's scopes: {e}");
            return Ok(());
        }
    };
    let missing: Vec<String> = NEEDED_SCOPES
        .iter()
        .filter(|(s, _)| !scopes.iter().any(|have| have == s))
        .map(|(s, what)| format!("{s} (to {what})"))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let advice = "create a new token with the scopes bot:play, challenge:read and challenge:write \
                  (on lichess.org: https://lichess.org/account/oauth/token/create)";
    if !scopes.iter().any(|s| s == "bot:play") {
        anyhow::bail!("the token lacks the scope(s) {}: {advice}", missing.join(", "));
    }
    tracing::warn!("the token lacks the scope(s) {}: {advice}", missing.join(", "));
    Ok(())
}
