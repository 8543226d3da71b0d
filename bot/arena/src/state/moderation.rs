//! Moderation: disabling and enabling accounts, aborting or adjudicating a game, removing a
//! chat line; and the changes the command line makes to the database while the server runs
//! (accounts, tokens, passwords, sessions), which take effect here at once.

use std::collections::HashSet;

use engine::rules::Color;

use super::{Inner, Refusal, TokenInfo, User};
use crate::status::GameStatus;

/// What a moderator decides about a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// White wins.
    White,
    /// Black wins.
    Black,
    /// A draw.
    Draw,
}

impl Adjudication {
    /// `white`, `black` or `draw`.
    pub fn parse(text: &str) -> Option<Adjudication> {
        match text {
            "white" | "1-0" => Some(Adjudication::White),
            "black" | "0-1" => Some(Adjudication::Black),
            "draw" | "1/2-1/2" => Some(Adjudication::Draw),
            _ => None,
        }
    }
}

impl Inner {
    /// Disables (or enables) an account. Disabled: its tokens and sessions stop working at
    /// once, its streams close, its running games end (aborted before both sides moved, else
    /// lost by it), and its challenges and seeks are withdrawn. Whether it was changed.
    pub fn set_disabled(&mut self, name: &str, disabled: bool) -> Result<bool, Refusal> {
        let id = name.to_lowercase();
        self.transact(|inner| {
            let u = inner
                .users
                .get_mut(&id)
                .ok_or_else(|| Refusal::not_found(format!("No such user: {name}")))?;
            if u.disabled == disabled {
                return Ok(false);
            }
            u.disabled = disabled;
            inner.persist("disabling an account", |s| s.set_disabled(&id, disabled).map(|_| ()));
            if disabled {
                inner.withdraw(&id);
            }
            Ok(true)
        })
    }

    /// Ends what a disabled account has going on the arena.
    fn withdraw(&mut self, id: &str) {
        let running: Vec<(String, Color)> = self
            .games
            .values()
            .filter(|g| g.is_running())
            .filter_map(|g| g.side_of(id).map(|side| (g.id.clone(), side)))
            .collect();
        for (game, side) in running {
            if let Some(g) = self.games.get_mut(&game) {
                if g.abortable() {
                    g.finish(GameStatus::Aborted, None);
                } else {
                    g.finish(GameStatus::Resign, Some(!side));
                }
            }
            self.after_change(&game);
        }
        let challenges: Vec<String> = self
            .challenges
            .iter()
            .filter(|(_, c)| c.json.challenger.id == id || c.json.dest_user.as_ref().is_some_and(|d| d.id == id))
            .map(|(k, _)| k.clone())
            .collect();
        for c in challenges {
            if let Some(c) = self.remove_challenge(&c) {
                self.cancel_pending(c);
            }
        }
        self.open_challenges.retain(|_, o| !o.involves(id));
        self.seeks.retain(|s| s.user != id);
        self.event_subs.remove(id);
        for subs in self.game_subs.values_mut() {
            subs.retain(|s| s.user != id);
        }
        let hashes: Vec<String> = self
            .sessions
            .iter()
            .filter(|(_, s)| s.user == id)
            .map(|(h, _)| h.clone())
            .collect();
        for h in hashes {
            self.sessions.remove(&h);
        }
    }

    /// A moderator ends a running game: aborted (no result, not rated), or adjudicated.
    pub fn admin_end_game(&mut self, game: &str, result: Option<Adjudication>) -> Result<(), Refusal> {
        self.transact(|inner| {
            let g = inner
                .games
                .get_mut(game)
                .ok_or_else(|| Refusal::not_found("No such game"))?;
            if !g.is_running() {
                return Err(Refusal::bad("Game already over"));
            }
            match result {
                None => g.finish(GameStatus::Aborted, None),
                Some(Adjudication::White) => g.finish(GameStatus::Resign, Some(Color::White)),
                Some(Adjudication::Black) => g.finish(GameStatus::Resign, Some(Color::Black)),
                Some(Adjudication::Draw) => g.finish(GameStatus::Draw, None),
            }
            inner.after_change(game);
            Ok(())
        })
    }

    /// Every chat line of a game with its index, for moderators.
    pub fn admin_chat(&self, game: &str) -> Result<Vec<serde_json::Value>, Refusal> {
        let g = self.games.get(game).ok_or_else(|| Refusal::not_found("No such game"))?;
        Ok(g.chat
            .iter()
            .enumerate()
            .map(|(i, l)| {
                serde_json::json!({
                    "index": i, "room": l.room, "user": l.username, "text": l.text, "removed": l.removed,
                })
            })
            .collect())
    }

    /// A moderator removes a chat line (index among all the game's lines, both rooms, oldest
    /// first): its text is wiped, here and in the database.
    pub fn admin_remove_chat(&mut self, game: &str, index: usize) -> Result<(), Refusal> {
        self.transact(|inner| {
            let g = inner
                .games
                .get_mut(game)
                .ok_or_else(|| Refusal::not_found("No such game"))?;
            let stored = index < g.stored_chat;
            let line = g
                .chat
                .get_mut(index)
                .ok_or_else(|| Refusal::not_found(format!("No chat line {index}")))?;
            line.removed = true;
            line.text.clear();
            if stored {
                inner.persist("removing a chat line", |s| s.remove_chat(game, index));
            }
            Ok(())
        })
    }

    /// Takes in what the command line changed in the database since the last look (its
    /// commits change SQLite's data version): new and disabled accounts, revoked tokens,
    /// ended sessions. A password read from the database at each sign-in needs nothing here.
    pub(super) fn follow_outside_changes(&mut self) {
        let Some(store) = self.store.as_ref() else {
            return;
        };
        let Ok(version) = store.data_version() else {
            return;
        };
        if version == self.data_version {
            return;
        }
        let read = store
            .accounts()
            .and_then(|a| Ok((a, store.tokens()?, store.session_hashes()?)));
        let (accounts, tokens, sessions) = match read {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("arena database: reading the command line's changes: {e}");
                return;
            }
        };
        self.data_version = version;
        let mut newly_disabled = Vec::new();
        for a in accounts {
            match self.users.get(&a.id) {
                None => {
                    self.users.insert(a.id.clone(), User::from_row(a));
                }
                Some(u) if u.disabled != a.disabled || u.bot != a.bot || u.admin != a.admin => {
                    if a.disabled && !u.disabled {
                        newly_disabled.push(a.id.clone());
                    }
                    if let Some(u) = self.users.get_mut(&a.id) {
                        u.disabled = a.disabled;
                        u.bot = a.bot;
                        u.admin = a.admin;
                    }
                }
                Some(_) => {}
            }
        }
        let stored: HashSet<String> = tokens.iter().map(|t| t.hash.clone()).collect();
        self.tokens.retain(|hash, _| stored.contains(hash));
        for t in tokens {
            if !self.tokens.contains_key(&t.hash) {
                self.tokens.insert(t.hash.clone(), TokenInfo::from_row(t));
            }
        }
        let live: HashSet<String> = sessions.into_iter().collect();
        self.sessions.retain(|hash, _| live.contains(hash));
        self.passwords.retain(|_, _| false);
        for id in newly_disabled {
            tracing::info!("arena: account {id} was disabled on the command line");
            let ended = self.transact(|inner| {
                inner.withdraw(&id);
                Ok(())
            });
            if let Err(e) = ended {
                tracing::error!("arena: ending the games of disabled account {id}: {}", e.message);
            }
        }
    }
}
