//! Matchmaking: when the bot has been idle for `matchmaking.interval_s`, it challenges another
//! bot (one of `matchmaking.opponents` in turn, or a random bot online that is not blocked) to a
//! game of a random variant and clock of the configuration.

use std::{
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use engine::rng::SplitMix64;
use tokio::sync::watch;

use crate::{api::client::ChallengeRequest, game::GameContext};

/// Challenges another bot whenever we have been idle for `matchmaking.interval_s`.
pub async fn run(ctx: Arc<GameContext>, running: Arc<AtomicUsize>, mut shutdown: watch::Receiver<bool>) {
    let interval = Duration::from_secs(ctx.config.matchmaking.interval_s);
    let mut idle_since = Instant::now();
    let mut choice = SplitMix64::from_time();
    let mut next_opponent = 0;
    loop {
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(500)) => {}
            _ = shutdown.changed() => return,
        }
        if running.load(Ordering::SeqCst) > 0 {
            idle_since = Instant::now();
            continue;
        }
        if idle_since.elapsed() < interval {
            continue;
        }
        idle_since = Instant::now();
        let Some(opponent) = choose_opponent(&ctx, &mut choice, &mut next_opponent).await else {
            continue;
        };
        challenge(&ctx, &opponent, &mut choice).await;
    }
}

/// The next of `matchmaking.opponents` in turn, or else a random bot online that is neither us
/// nor blocked; `None` (logged) when there is none or the list cannot be read.
async fn choose_opponent(ctx: &GameContext, choice: &mut SplitMix64, next_opponent: &mut usize) -> Option<String> {
    let mm = &ctx.config.matchmaking;
    if !mm.opponents.is_empty() {
        let name = mm.opponents[*next_opponent % mm.opponents.len()].clone();
        *next_opponent += 1;
        return Some(name);
    }
    let me = ctx.account.id.to_lowercase();
    let blocked = |name: &str| {
        name.eq_ignore_ascii_case(&me)
            || ctx
                .config
                .challenge
                .block_list
                .iter()
                .any(|b| b.eq_ignore_ascii_case(name))
    };
    match ctx.client.online_bots(100).await {
        Ok(bots) => {
            let names: Vec<String> = bots.into_iter().map(|b| b.username).filter(|n| !blocked(n)).collect();
            if names.is_empty() {
                tracing::info!("matchmaking: no other bot online");
                return None;
            }
            Some(names[choice.below(names.len())].clone())
        }
        Err(e) => {
            tracing::warn!("matchmaking: listing the bots online: {e}");
            None
        }
    }
}

/// Challenges `opponent` to a random variant and clock of the configuration (colour random).
async fn challenge(ctx: &GameContext, opponent: &str, choice: &mut SplitMix64) {
    let mm = &ctx.config.matchmaking;
    let variant = mm.variants[choice.below(mm.variants.len())].clone();
    let clock = mm.clocks[choice.below(mm.clocks.len())];
    let request = ChallengeRequest {
        variant: variant.clone(),
        clock: Some((clock.limit_s, clock.increment_s)),
        rated: mm.rated,
        color: "random".into(),
        fen: None,
    };
    match ctx.client.create_challenge(opponent, &request).await {
        Ok(ch) => tracing::info!("matchmaking: challenged {opponent} ({variant}, {clock}): {}", ch.id),
        Err(e) => tracing::warn!("matchmaking: challenging {opponent}: {e}"),
    }
}
