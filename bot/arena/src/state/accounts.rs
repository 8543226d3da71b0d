//! Accounts: creation (command line, admin endpoint, configured specs), tokens stored hashed
//! with scopes, the per-account rate limit, the account and user JSON with `perfs`, token
//! tests, the bot upgrade, users' status and the list of bots online.

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

use super::{now_ms, token_hash, Inner, Refusal, TokenInfo, User};
use crate::{
    status::GameStatus,
    store::{AccountRow, TokenRow},
};

/// Scopes Lichess knows that the arena checks or grants.
pub const KNOWN_SCOPES: [&str; 8] = [
    "challenge:read",
    "challenge:write",
    "bot:play",
    "board:play",
    "preference:read",
    "preference:write",
    "email:read",
    "web:mod",
];

/// A new random token: `lip_` and 32 letters or digits (about 190 bits).
pub fn new_token() -> Result<String, getrandom::Error> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    // 248 = 4 x 62: taking bytes below it keeps the letters uniform; the rest are redrawn.
    let mut out = String::from("lip_");
    let mut pool = bytes.to_vec();
    while out.len() < 36 {
        match pool.pop() {
            Some(b) if b < 248 => out.push(ALPHABET[usize::from(b % 62)] as char),
            Some(_) => {}
            None => {
                let mut more = [0u8; 16];
                getrandom::fill(&mut more)?;
                pool.extend_from_slice(&more);
            }
        }
    }
    Ok(out)
}

/// The perfs Lichess lists for every account, played or not.
const ALWAYS_LISTED_PERFS: [&str; 5] = ["bullet", "blitz", "rapid", "classical", "correspondence"];

/// Refuses scopes Lichess does not name.
pub fn check_scopes(scopes: &[String]) -> Result<(), Refusal> {
    match scopes.iter().find(|s| !KNOWN_SCOPES.contains(&s.as_str())) {
        Some(bad) => Err(Refusal::bad(format!(
            "Unknown scope '{bad}' (known: {})",
            KNOWN_SCOPES.join(", ")
        ))),
        None => Ok(()),
    }
}

/// A user name Lichess would take: 2 to 30 letters, digits, `_` or `-`, starting with a letter
/// or digit.
pub fn valid_username(name: &str) -> bool {
    (2..=30).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
}

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
    pub fn user_of_token(&mut self, token: &str) -> Option<String> {
        self.token(token).map(|t| t.user)
    }

    /// The user and scopes of a bearer token. A token not in memory is looked up in the
    /// database, so that accounts and tokens created there from the command line (while the
    /// server runs) work at once.
    ///
    /// A disabled account's tokens do not work.
    pub fn token(&mut self, token: &str) -> Option<TokenInfo> {
        let hash = token_hash(token);
        let info = match self.tokens.get(&hash) {
            Some(t) => t.clone(),
            None => {
                let (t, a) = self.store.as_ref()?.token(&hash).ok().flatten()?;
                let info = TokenInfo::from_row(t);
                if !self.users.contains_key(&a.id) {
                    self.users.insert(a.id.clone(), User::from_row(a));
                }
                self.tokens.insert(hash, info.clone());
                info
            }
        };
        (!self.is_disabled(&info.user)).then_some(info)
    }

    /// Whether an account is disabled.
    pub fn is_disabled(&self, user: &str) -> bool {
        self.users.get(user).is_some_and(|u| u.disabled)
    }

    /// Registers a user (and stores it).
    pub(super) fn add_user(&mut self, user: User) {
        let row = AccountRow {
            id: user.id.clone(),
            username: user.username.clone(),
            bot: user.bot,
            admin: user.admin,
            created_at: user.created_at,
            disabled: user.disabled,
        };
        self.users.insert(user.id.clone(), user);
        self.persist("adding an account", |s| s.add_account(&row).map(|_| ()));
    }

    /// Registers a token by its hash (and stores it).
    pub(super) fn add_token_hash(&mut self, hash: String, user: String, scopes: Vec<String>, description: String) {
        let row = TokenRow {
            hash: hash.clone(),
            user_id: user.clone(),
            scopes: scopes.join(","),
            description: description.clone(),
            created_at: now_ms(),
        };
        self.tokens.insert(
            hash,
            TokenInfo {
                user,
                scopes,
                description,
                created_at: row.created_at,
            },
        );
        self.persist("adding a token", |s| s.add_token(&row));
    }

    /// Creates an account; refuses a taken or malformed name.
    pub fn create_account(&mut self, username: &str, bot: bool, admin: bool) -> Result<String, Refusal> {
        self.transact(|inner| inner.create_account_unit(username, bot, admin))
    }

    fn create_account_unit(&mut self, username: &str, bot: bool, admin: bool) -> Result<String, Refusal> {
        if !valid_username(username) {
            return Err(Refusal::bad(format!(
                "Invalid username '{username}': 2 to 30 letters, digits, _ or -, starting with a letter or digit"
            )));
        }
        let id = username.to_lowercase();
        if self.users.contains_key(&id) {
            return Err(Refusal::bad(format!("The username {username} is taken")));
        }
        self.add_user(User {
            id: id.clone(),
            username: username.to_string(),
            bot,
            admin,
            created_at: now_ms(),
            perfs: BTreeMap::new(),
            start_rating: 1500.0,
            disabled: false,
        });
        Ok(id)
    }

    /// Creates a token for `user` with `scopes` and returns it (it is stored only hashed).
    pub fn create_token(&mut self, user: &str, scopes: &[String], description: &str) -> Result<String, Refusal> {
        if !self.users.contains_key(user) {
            return Err(Refusal::not_found(format!("No such user: {user}")));
        }
        check_scopes(scopes)?;
        let token = new_token().map_err(|e| Refusal {
            status: 500,
            message: format!("No random numbers for a token: {e}"),
        })?;
        self.transact(|inner| {
            inner.add_token_hash(
                token_hash(&token),
                user.to_string(),
                scopes.to_vec(),
                description.to_string(),
            );
            Ok(())
        })?;
        Ok(token)
    }

    /// Revokes a token; returns whether it existed.
    pub fn revoke_token(&mut self, token: &str) -> Result<bool, Refusal> {
        let hash = token_hash(token);
        self.transact(|inner| {
            let mut existed = inner.tokens.remove(&hash).is_some();
            let mut stored = false;
            inner.persist("revoking a token", |s| {
                stored = s.revoke_token(&hash)?;
                Ok(())
            });
            existed |= stored;
            Ok(existed)
        })
    }

    /// The accounts as `Name (bot|human)`, sorted.
    pub fn account_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .users
            .values()
            .map(|u| format!("{} ({})", u.username, if u.bot { "bot" } else { "human" }))
            .collect();
        names.sort();
        names
    }

    /// One line per account for `bot arena account list`.
    pub fn account_lines(&self) -> Vec<String> {
        let mut users: Vec<&User> = self.users.values().collect();
        users.sort_by(|a, b| a.id.cmp(&b.id));
        users
            .into_iter()
            .map(|u| {
                let kind = match (u.bot, u.admin) {
                    (true, _) => "bot",
                    (false, true) => "human, admin",
                    (false, false) => "human",
                };
                let perfs: Vec<String> = u
                    .perfs
                    .iter()
                    .map(|(k, p)| {
                        format!(
                            "{k} {}{} ({} games)",
                            p.shown(),
                            if p.provisional() { "?" } else { "" },
                            p.games
                        )
                    })
                    .collect();
                let tokens = self.tokens.values().filter(|t| t.user == u.id).count();
                format!(
                    "{} ({kind}): {} token(s){}{}",
                    u.username,
                    tokens,
                    if perfs.is_empty() { "" } else { "; " },
                    perfs.join(", ")
                )
            })
            .collect()
    }

    /// The display name of an account.
    pub fn display_name(&self, user: &str) -> Option<String> {
        self.users.get(user).map(|u| u.username.clone())
    }

    /// Whether `user` is a bot account.
    pub fn is_bot(&self, user: &str) -> bool {
        self.users.get(user).is_some_and(|u| u.bot)
    }

    /// Whether `user` is an admin.
    pub fn is_admin(&self, user: &str) -> bool {
        self.users.get(user).is_some_and(|u| u.admin)
    }

    /// The user's shown rating in a perf.
    pub(super) fn rating_in(&self, user: &str, perf: &str) -> Option<u32> {
        self.users.get(user).map(|u| u.perf(perf).shown().max(0) as u32)
    }

    /// The `perfs` object, as Lichess writes it: the five chess speeds always (provisional
    /// with no games when never played), and every other perf the user has played.
    fn perfs_json(u: &User) -> serde_json::Value {
        let mut perfs: serde_json::Map<String, serde_json::Value> = ALWAYS_LISTED_PERFS
            .iter()
            .map(|k| (k.to_string(), u.perf(k).json()))
            .collect();
        for (k, p) in &u.perfs {
            perfs.insert(k.clone(), p.json());
        }
        serde_json::Value::Object(perfs)
    }

    /// `GET /api/account` and `GET /api/user/{name}`: id, username, title, perfs, createdAt,
    /// seenAt, url, and the game counts.
    pub fn user_json(&self, user: &str) -> Option<serde_json::Value> {
        let u = self.users.get(user)?;
        let played: Vec<_> = self.games.values().filter(|g| g.side_of(user).is_some()).collect();
        let finished = played
            .iter()
            .filter(|g| !g.is_running() && g.status() != GameStatus::Aborted);
        let (mut win, mut loss, mut draw, mut rated) = (0, 0, 0, 0);
        // Against people (not bots), as Lichess's winH/lossH/drawH count them.
        let (mut win_h, mut loss_h, mut draw_h) = (0, 0, 0);
        for g in finished {
            let side = g.side_of(user);
            let human = side.is_some_and(|c| !self.is_bot(g.player(!c)));
            let (all, people) = match g.winner() {
                Some(w) if Some(w) == side => (&mut win, &mut win_h),
                Some(_) => (&mut loss, &mut loss_h),
                None => (&mut draw, &mut draw_h),
            };
            *all += 1;
            *people += usize::from(human);
            rated += usize::from(g.rated);
        }
        let mut v = serde_json::json!({
            "id": u.id,
            "username": u.username,
            "perfs": Inner::perfs_json(u),
            "createdAt": u.created_at,
            "seenAt": now_ms(),
            "url": format!("http://{}/@/{}", self.config.public_host(), u.username),
            "count": {
                "all": played.len(),
                "rated": rated,
                "win": win,
                "loss": loss,
                "draw": draw,
                "winH": win_h,
                "lossH": loss_h,
                "drawH": draw_h,
                "ai": 0,
                "bookmark": 0,
                "import": 0,
                "me": 0,
                "playing": played.iter().filter(|g| g.is_running()).count(),
            },
        });
        if u.bot {
            v["title"] = "BOT".into();
        }
        Some(v)
    }

    /// `POST /api/token/test`: for each token, its user and scopes, or null.
    pub fn test_tokens(&mut self, tokens: &str) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        for t in tokens.split(',').map(str::trim).filter(|t| !t.is_empty()).take(1000) {
            let entry = self.token(t).map_or(
                serde_json::Value::Null,
                |info| serde_json::json!({ "userId": info.user, "scopes": info.scopes.join(","), "expires": null }),
            );
            map.insert(t.to_string(), entry);
        }
        serde_json::Value::Object(map)
    }

    /// `POST /api/bot/account/upgrade`: a human account without games becomes a bot.
    pub fn upgrade(&mut self, user: &str) -> Result<(), Refusal> {
        self.transact(|inner| inner.upgrade_unit(user))
    }

    fn upgrade_unit(&mut self, user: &str) -> Result<(), Refusal> {
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
        let id = user.to_string();
        self.persist("upgrading an account", |s| s.set_bot(&id));
        Ok(())
    }

    /// `GET /api/users/status?ids=`: each known id with `online`, `playing`, the bot title.
    pub fn users_status(&self, ids: &str, with_game_ids: bool) -> Vec<serde_json::Value> {
        ids.split(',')
            .map(|i| i.trim().to_lowercase())
            .filter(|i| !i.is_empty())
            .take(100)
            .filter_map(|id| {
                let u = self.users.get(&id)?;
                let mut v = serde_json::json!({ "id": u.id, "name": u.username });
                if u.bot {
                    v["title"] = "BOT".into();
                }
                if self.event_subs.contains_key(&id) {
                    v["online"] = true.into();
                }
                let playing = self.games.values().find(|g| g.is_running() && g.side_of(&id).is_some());
                if let Some(g) = playing {
                    v["playing"] = true.into();
                    if with_game_ids {
                        v["playingId"] = g.id.clone().into();
                    }
                }
                Some(v)
            })
            .collect()
    }

    /// `GET /api/bot/online`: bots with an open event stream, at most `nb`, with their perfs.
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
            .map(|u| {
                serde_json::json!({
                    "id": u.id,
                    "username": u.username,
                    "title": "BOT",
                    "perfs": Inner::perfs_json(u),
                    "createdAt": u.created_at,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_names_checked() {
        let a = new_token().expect("random");
        let b = new_token().expect("random");
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert!(a.starts_with("lip_") && a[4..].chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(token_hash("abc").len(), 64);
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(valid_username("Alpha_2"));
        for bad in ["a", "_x", "has space", "x".repeat(31).as_str(), "é1"] {
            assert!(!valid_username(bad), "{bad}");
        }
    }
}
