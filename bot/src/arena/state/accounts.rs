//! Accounts: tokens, the per-account rate limit, the account JSON, token tests, the bot
//! upgrade and the list of bots online.

use std::time::{Duration, Instant};

use super::{Inner, Refusal};
use crate::{api::types::Account, arena::ALL_SCOPES};

impl Inner {
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

    /// Whether `user` is a bot account.
    pub fn is_bot(&self, user: &str) -> bool {
        self.users.get(user).is_some_and(|u| u.bot)
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
                    .map_or(ALL_SCOPES.to_string(), |a| a.scopes.join(","));
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
}
