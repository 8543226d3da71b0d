//! NDJSON response bodies: lines from a channel, a blank keep-alive line when idle, and a guard
//! that tells the state when the connection goes away.

use std::{convert::Infallible, sync::Arc, time::Duration};

use axum::body::Body;
use tokio::{sync::mpsc::UnboundedReceiver, time::Instant};

use super::Shared;

/// What to forget when a stream ends.
pub enum StreamKind {
    /// The event stream of a user.
    Event {
        /// User id.
        user: String,
    },
    /// A real-time seek.
    Seek,
    /// A challenge created with `keepAliveStream`.
    Challenge,
    /// A game stream.
    Game {
        /// Game id.
        game: String,
        /// User id.
        user: String,
    },
}

/// Runs `close` on the state when the body is dropped (client gone or stream ended).
pub struct Guard {
    shared: Arc<Shared>,
    conn: u64,
    kind: StreamKind,
}

impl Guard {
    /// A guard for connection `conn`.
    pub fn new(shared: Arc<Shared>, conn: u64, kind: StreamKind) -> Guard {
        Guard { shared, conn, kind }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut inner = self.shared.lock();
        match &self.kind {
            StreamKind::Event { user } => inner.close_event_stream(user, self.conn),
            StreamKind::Game { game, user } => inner.close_game_stream(game, user, self.conn),
            StreamKind::Seek => inner.close_seek(self.conn),
            StreamKind::Challenge => inner.close_kept_challenge(self.conn),
        }
    }
}

/// A streaming NDJSON body.
pub fn ndjson_body(rx: UnboundedReceiver<String>, keepalive: Duration, guard: Guard) -> Body {
    let ticker = tokio::time::interval_at(Instant::now() + keepalive, keepalive);
    let stream = futures::stream::unfold((rx, ticker, guard), |(mut rx, mut ticker, guard)| async move {
        let chunk = tokio::select! {
            line = rx.recv() => match line {
                Some(mut line) => {
                    line.push('\n');
                    line
                }
                None => return None,
            },
            _ = ticker.tick() => "\n".to_string(),
        };
        Some((Ok::<String, Infallible>(chunk), (rx, ticker, guard)))
    });
    Body::from_stream(stream)
}
