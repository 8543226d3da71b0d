//! Sign-in for the browser pages: passwords (a memory-hard hash, computed outside the lock by
//! the caller), sessions named by a random cookie with a CSRF token each, failed sign-ins
//! limited per account, and the token list of the token page.

use std::time::Instant;

use super::{accounts::new_token, now_ms, token_hash, Inner, Refusal};
use crate::store::SessionRow;

/// How long a session lasts (Lichess keeps people signed in for a long time too): 30 days.
pub const SESSION_MS: u64 = 30 * 24 * 3600 * 1000;

/// A signed-in browser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// Account id.
    pub user: String,
    /// The token its forms and scripts must send back (`csrf` field, `X-CSRF-Token` header).
    pub csrf: String,
    /// ms since the epoch.
    pub expires_at: u64,
}

/// A token as the token page lists it (never the token itself: only its hash is kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenListing {
    /// Hex SHA-256 of the token: names it for revoking.
    pub hash: String,
    /// What it is for.
    pub description: String,
    /// Its scopes.
    pub scopes: Vec<String>,
    /// ms since the epoch.
    pub created_at: u64,
}

fn random_text() -> Result<String, Refusal> {
    new_token()
        .map(|t| t.trim_start_matches("lip_").to_string())
        .map_err(|e| Refusal {
            status: 500,
            message: format!("No random numbers: {e}"),
        })
}

impl Inner {
    /// The password hash (PHC string) of an account, if it has one. With a database it is read there each time (sign-ins are rare), so that a password set
    /// on the command line while the server runs counts at once.
    pub fn password_of(&mut self, user: &str) -> Option<String> {
        match self.store.as_ref() {
            Some(store) => store.password(user).ok().flatten(),
            None => self.passwords.get(user).cloned(),
        }
    }

    /// Sets an account's password hash.
    pub fn set_password(&mut self, user: &str, phc: &str) -> Result<(), Refusal> {
        self.transact(|inner| {
            inner.passwords.insert(user.to_string(), phc.to_string());
            inner.persist("setting a password", |s| s.set_password(user, phc));
            Ok(())
        })
    }

    /// How long until `user` may try to sign in again: zero, unless the account has had too
    /// many failed sign-ins lately (5 at once, then one a minute). Correct sign-ins do not
    /// count.
    pub fn sign_in_wait(&self, user: &str) -> std::time::Duration {
        self.sign_in_attempts.wait(&user.to_string(), Instant::now())
    }

    /// Counts a failed sign-in of `user`.
    pub fn count_failed_sign_in(&mut self, user: &str) {
        self.sign_in_attempts.allow(&user.to_string(), Instant::now());
    }

    /// Opens a session for `user`; returns the cookie value (stored only hashed).
    pub fn create_session(&mut self, user: &str) -> Result<(String, Session), Refusal> {
        self.transact(|inner| inner.create_session_unit(user))
    }

    fn create_session_unit(&mut self, user: &str) -> Result<(String, Session), Refusal> {
        if !self.users.contains_key(user) {
            return Err(Refusal::not_found(format!("No such user: {user}")));
        }
        if self.is_disabled(user) {
            return Err(Refusal::forbidden("This account is disabled"));
        }
        let cookie = random_text()?;
        let now = now_ms();
        let session = Session {
            user: user.to_string(),
            csrf: random_text()?,
            expires_at: now + SESSION_MS,
        };
        let row = SessionRow {
            hash: token_hash(&cookie),
            user_id: user.to_string(),
            csrf: session.csrf.clone(),
            created_at: now,
            expires_at: session.expires_at,
        };
        self.sessions.insert(row.hash.clone(), session.clone());
        self.persist("adding a session", |s| s.add_session(&row));
        Ok((cookie, session))
    }

    /// The live session of a cookie value, if any (looked up in the database when not in
    /// memory, so that sessions survive a restart).
    pub fn session(&mut self, cookie: &str) -> Option<Session> {
        let hash = token_hash(cookie);
        let now = now_ms();
        let session = match self.sessions.get(&hash) {
            Some(s) => s.clone(),
            None => {
                let row = self.store.as_ref()?.session(&hash).ok().flatten()?;
                let s = Session {
                    user: row.user_id,
                    csrf: row.csrf,
                    expires_at: row.expires_at,
                };
                self.sessions.insert(hash.clone(), s.clone());
                s
            }
        };
        if session.expires_at <= now {
            // The periodic pruning removes it from the database.
            self.sessions.remove(&hash);
            return None;
        }
        (self.users.contains_key(&session.user) && !self.is_disabled(&session.user)).then_some(session)
    }

    /// Ends a session (log out).
    pub fn end_session(&mut self, cookie: &str) -> Result<(), Refusal> {
        let hash = token_hash(cookie);
        self.transact(|inner| {
            inner.sessions.remove(&hash);
            inner.persist("ending a session", |s| s.remove_session(&hash));
            Ok(())
        })
    }

    /// Ends every session of an account (its password changed).
    pub fn end_sessions_of(&mut self, user: &str) -> Result<(), Refusal> {
        self.transact(|inner| {
            inner.sessions.retain(|_, s| s.user != user);
            inner.persist("ending the sessions of an account", |s| s.remove_sessions_of(user));
            Ok(())
        })
    }

    /// Forgets the expired sessions (in memory and in the database).
    pub(super) fn prune_sessions(&mut self) {
        let now = now_ms();
        self.sessions.retain(|_, s| s.expires_at > now);
        self.persist("forgetting expired sessions", |s| {
            s.remove_expired_sessions(now).map(|_| ())
        });
    }

    /// The tokens of an account, oldest first.
    pub fn tokens_of(&self, user: &str) -> Vec<TokenListing> {
        let mut list: Vec<TokenListing> = self
            .tokens
            .iter()
            .filter(|(_, t)| t.user == user)
            .map(|(hash, t)| TokenListing {
                hash: hash.clone(),
                description: t.description.clone(),
                scopes: t.scopes.clone(),
                created_at: t.created_at,
            })
            .collect();
        list.sort_by(|a, b| (a.created_at, &a.hash).cmp(&(b.created_at, &b.hash)));
        list
    }

    /// Revokes a token of `user` named by its hash; whether it was one of theirs.
    pub fn revoke_token_of(&mut self, user: &str, hash: &str) -> Result<bool, Refusal> {
        if self.tokens.get(hash).is_none_or(|t| t.user != user) {
            return Ok(false);
        }
        self.transact(|inner| {
            inner.tokens.remove(hash);
            inner.persist("revoking a token", |s| s.revoke_token(hash).map(|_| ()));
            Ok(true)
        })
    }
}
