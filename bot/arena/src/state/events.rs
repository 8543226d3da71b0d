//! The event stream of each user: opening (with the replay of pending challenges and running
//! games), closing and dropping.

use tokio::sync::mpsc::UnboundedSender;

use super::Inner;
use lichess_api::types::{Compat, Event};

pub(super) struct Sub {
    conn: u64,
    pub(super) tx: UnboundedSender<String>,
}

impl Inner {
    /// Opens the event stream of `user` (closing an earlier one) and replays pending challenges
    /// and running games.
    pub fn open_event_stream(&mut self, user: &str, conn: u64, tx: UnboundedSender<String>) {
        *self.stats.event_stream_opens.entry(user.to_string()).or_default() += 1;
        self.event_subs.insert(user.to_string(), Sub { conn, tx });
        let mut replay: Vec<Event> = Vec::new();
        for c in self.challenges.values() {
            let incoming = c.json.dest_user.as_ref().is_some_and(|d| d.id == user);
            if incoming || c.json.challenger.id == user {
                let mut json = c.json.clone();
                json.direction = Some(if incoming { "in" } else { "out" }.to_string());
                replay.push(Event::Challenge {
                    challenge: json,
                    compat: Some(Compat { bot: true, board: true }),
                });
            }
        }
        let running: Vec<String> = self
            .games
            .values()
            .filter(|g| g.is_running() && g.side_of(user).is_some())
            .map(|g| g.id.clone())
            .collect();
        for id in running {
            if let Some(info) = self.game_info(&id, user) {
                replay.push(Event::GameStart { game: info });
            }
        }
        for e in replay {
            self.send_event(user, &e);
        }
    }

    /// Forgets a closed event stream (only if it is still the current one).
    pub fn close_event_stream(&mut self, user: &str, conn: u64) {
        if self.event_subs.get(user).is_some_and(|s| s.conn == conn) {
            self.event_subs.remove(user);
        }
    }

    /// Closes every event stream (for reconnect tests).
    pub fn drop_event_streams(&mut self) {
        self.event_subs.clear();
    }
}
