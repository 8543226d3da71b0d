//! One game: a task that reads the game stream, keeps the state from `gameFull`/`gameState`,
//! searches when it is our move and posts the move, and saves the PGN at the end. The state is
//! always rebuilt from the full move list, so a reconnect never plays a move twice.

use std::{path::PathBuf, sync::Arc, time::Duration};

use engine::rules::{Color, Position};
use tokio::task::JoinHandle;

use crate::{
    api::{
        types::{Account, GameEvent, GameFull, GameState},
        ApiError, Client,
    },
    config::Config,
    decisions::{score_cp, Decisions},
    pgn,
    player::{MoveClock, Player},
    variants,
};

/// How a game ended, for the caller (the demo and tests read it).
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Game id.
    pub id: String,
    /// Final status name.
    pub status: String,
    /// `white` / `black`.
    pub winner: Option<String>,
    /// Our colour.
    pub color: String,
    /// Plies played.
    pub plies: usize,
    /// Where the PGN went.
    pub pgn: Option<PathBuf>,
    /// Per move we sent: ms from receiving the state to sending the move, minus the search.
    pub overhead_ms: Vec<f64>,
    /// Moves the server refused (each followed by a resynchronisation from the game stream).
    pub refused_moves: usize,
}

/// What every game task shares.
pub struct GameContext {
    /// The client.
    pub client: Client,
    /// Our account.
    pub account: Account,
    /// The configuration.
    pub config: Arc<Config>,
}

struct Setup {
    color: Color,
    start: Position,
    initial_fen: Option<String>,
    clock: bool,
    player: Arc<Player>,
    full: GameFull,
}

struct GameTask {
    ctx: Arc<GameContext>,
    id: String,
    setup: Option<Setup>,
    handled: Option<String>,
    greeted: bool,
    claim: Option<JoinHandle<()>>,
    last: Option<GameState>,
    /// Our search scores and the resign/draw rules.
    decisions: Decisions,
    /// The move list at which we last answered a draw offer.
    answered_offer: Option<String>,
    /// Whether the last state showed the opponent's takeback proposal.
    takeback_shown: bool,
    /// The first-move abort timer, with the move list it was started at.
    abort_timer: Option<(String, JoinHandle<()>)>,
    /// Set when a move was refused: reconnect the game stream to learn the current state.
    resync: bool,
    /// The move list of the last refused move, and how many times a move was refused there.
    refused_at: Option<(String, u32)>,
    /// See `GameReport::overhead_ms`.
    overhead_ms: Vec<f64>,
    refused_moves: usize,
    /// Per ply (index = ply - 1): our evaluation of the move we played (`[%eval ...]`, from
    /// White's side as Lichess writes it) and the mover's clock after it (`[%clk ...]`).
    evals: std::collections::BTreeMap<usize, String>,
    clocks: std::collections::BTreeMap<usize, i64>,
}

/// Moves refused at one position before the task stops trying there (and waits for the
/// server's next state instead).
const MAX_REFUSALS_PER_POSITION: u32 = 5;

/// How a connection of the game stream ended.
enum StreamEnd {
    /// The game is over.
    Finished(GameReport),
    /// The server closed the stream.
    Closed,
    /// We closed it to read the current state again (after a refused move).
    Resync,
}

/// Plays game `id` to its end.
pub async fn run(ctx: Arc<GameContext>, id: String) -> anyhow::Result<GameReport> {
    let decisions = Decisions::new(&ctx.config.decisions);
    let mut task = GameTask {
        ctx,
        id,
        setup: None,
        handled: None,
        greeted: false,
        claim: None,
        last: None,
        decisions,
        answered_offer: None,
        takeback_shown: false,
        abort_timer: None,
        resync: false,
        refused_at: None,
        overhead_ms: Vec::new(),
        refused_moves: 0,
        evals: std::collections::BTreeMap::new(),
        clocks: std::collections::BTreeMap::new(),
    };
    let result = task.play().await;
    if let Some(c) = task.claim.take() {
        c.abort();
    }
    if let Some((_, t)) = task.abort_timer.take() {
        t.abort();
    }
    result
}

impl GameTask {
    async fn play(&mut self) -> anyhow::Result<GameReport> {
        let mut delay = Duration::from_millis(250);
        let mut failures = 0;
        loop {
            match self.follow_stream().await {
                Ok(StreamEnd::Finished(report)) => return Ok(report),
                Ok(StreamEnd::Resync) => continue,
                Ok(StreamEnd::Closed) => tracing::info!("game {}: stream closed before the end; reconnecting", self.id),
                Err(e @ ApiError::Http { status: 404, .. }) => anyhow::bail!("game {}: {e}", self.id),
                Err(e) => tracing::warn!("game {}: {e}; reconnecting in {delay:?}", self.id),
            }
            failures += 1;
            anyhow::ensure!(
                failures <= 30,
                "game {}: giving up after {failures} stream failures",
                self.id
            );
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(10));
        }
    }

    /// Reads one connection of the game stream.
    async fn follow_stream(&mut self) -> Result<StreamEnd, ApiError> {
        let mut stream = self.ctx.client.stream_game(&self.id).await?;
        while let Some(event) = stream.next().await? {
            let state = match event {
                GameEvent::GameFull(full) => {
                    if let Err(e) = self.set_up(&full) {
                        tracing::error!("game {}: {e}; resigning", self.id);
                        let _ = self.ctx.client.abort(&self.id).await;
                        let _ = self.ctx.client.resign(&self.id).await;
                    }
                    full.state.clone()
                }
                GameEvent::GameState(state) => state,
                GameEvent::ChatLine { room, username, text } => {
                    tracing::debug!("game {} [{room}] {username}: {text}", self.id);
                    continue;
                }
                GameEvent::OpponentGone {
                    gone,
                    claim_win_in_seconds,
                } => {
                    self.opponent_gone(gone, claim_win_in_seconds);
                    continue;
                }
                GameEvent::Other => continue,
            };
            let received = std::time::Instant::now();
            if let Some(report) = self.on_state(state, received).await {
                return Ok(StreamEnd::Finished(report));
            }
            if std::mem::take(&mut self.resync) {
                return Ok(StreamEnd::Resync);
            }
        }
        Ok(StreamEnd::Closed)
    }

    fn set_up(&mut self, full: &GameFull) -> anyhow::Result<()> {
        let me = self.ctx.account.id.to_lowercase();
        let is = |p: &crate::api::types::GamePlayer| p.id.as_deref().is_some_and(|id| id.to_lowercase() == me);
        let color = if is(&full.white) {
            Color::White
        } else if is(&full.black) {
            Color::Black
        } else {
            anyhow::bail!("we play neither side")
        };
        let variant = variants::engine_variant(&full.variant.key, &self.ctx.config.variants)
            .ok_or_else(|| anyhow::anyhow!("unsupported variant '{}'", full.variant.key))?;
        let initial_fen = (full.initial_fen != "startpos").then(|| full.initial_fen.clone());
        let start = match &initial_fen {
            Some(fen) => Position::from_fen(variant, fen)?,
            None => Position::startpos(variant),
        };
        // A reconnect keeps the engine (and its hash).
        let player = match self.setup.take() {
            Some(s) if s.start == start => s.player,
            _ => Arc::new(Player::new(variant, &self.ctx.config.engine)),
        };
        self.setup = Some(Setup {
            color,
            start,
            initial_fen,
            clock: full.clock.is_some(),
            player,
            full: full.clone(),
        });
        Ok(())
    }

    fn opponent_gone(&mut self, gone: bool, claim_in: Option<u64>) {
        if let Some(c) = self.claim.take() {
            c.abort();
        }
        if gone && self.ctx.config.games.claim_victory {
            let (client, id) = (self.ctx.client.clone(), self.id.clone());
            let wait = Duration::from_secs(claim_in.unwrap_or(0) + 1);
            tracing::info!("game {id}: opponent gone; claiming victory in {wait:?}");
            self.claim = Some(tokio::spawn(async move {
                tokio::time::sleep(wait).await;
                if let Err(e) = client.claim_victory(&id).await {
                    tracing::info!("game {id}: claim-victory refused: {e}");
                }
            }));
        }
    }

    /// Handles a state; `Some` when the game is over.
    async fn on_state(&mut self, state: GameState, received: std::time::Instant) -> Option<GameReport> {
        self.last = Some(state.clone());
        if !state.is_running() {
            if let Some((_, t)) = self.abort_timer.take() {
                t.abort();
            }
            return Some(self.finish(&state).await);
        }
        let setup = self.setup.as_ref()?;
        let moves = state.move_list();
        // The clock of the side that made the last move, as this state shows it.
        if let Some(last) = moves.len().checked_sub(1) {
            if setup.clock && !self.clocks.contains_key(&last) {
                let white_moved = last.is_multiple_of(2) == (setup.start.turn() == Color::White);
                self.clocks
                    .insert(last, if white_moved { state.wtime } else { state.btime });
            }
        }
        let turn = if moves.len().is_multiple_of(2) {
            setup.start.turn()
        } else {
            !setup.start.turn()
        };
        let color = setup.color;
        let offered = match color {
            Color::White => state.bdraw,
            Color::Black => state.wdraw,
        };
        let takeback = match color {
            Color::White => state.btakeback,
            Color::Black => state.wtakeback,
        };
        self.answer_takeback(takeback).await;
        self.watch_first_move(moves.len(), turn != color, &state.moves);
        let handled = self.handled.as_deref() == Some(state.moves.as_str());
        if turn != color || handled {
            // Nothing to search. An offer made on the opponent's turn is answered now; one
            // seen again after we moved in this position is stale (our move declined it).
            if offered && turn != color {
                self.answer_offer(&state.moves).await;
            }
            return None;
        }
        let setup = self.setup.as_ref()?;
        self.handled = Some(state.moves.clone());
        let clock = setup.clock.then_some(match setup.color {
            Color::White => MoveClock {
                time_ms: state.wtime,
                inc_ms: state.winc,
            },
            Color::Black => MoveClock {
                time_ms: state.btime,
                inc_ms: state.binc,
            },
        });
        let player = setup.player.clone();
        let initial_fen = setup.initial_fen.clone();
        if !self.greeted {
            self.greeted = true;
            self.say(&self.ctx.config.games.greeting.clone()).await;
        }
        let plies = moves.len();
        match player.choose(initial_fen, moves, clock).await {
            Ok(choice) => {
                let uci = choice.uci;
                if let Some(book) = &choice.book {
                    // No search: no score for the decisions or the PGN.
                    tracing::info!(
                        "game {}: ply {} {uci} from the book ({book}; clocks white {} black {})",
                        self.id,
                        plies + 1,
                        engine::play::clock::clk_text(state.wtime),
                        engine::play::clock::clk_text(state.btime),
                    );
                } else {
                    self.decisions.record(score_cp(choice.score));
                    tracing::info!(
                        "game {}: ply {} {uci} ({}, depth {}, {} nodes, {} ms; clocks white {} black {})",
                        self.id,
                        plies + 1,
                        choice.score,
                        choice.depth,
                        choice.nodes,
                        choice.search_time.as_millis(),
                        engine::play::clock::clk_text(state.wtime),
                        engine::play::clock::clk_text(state.btime),
                    );
                    self.evals.insert(plies, eval_text(choice.score, color));
                }
                // An offer that came with the opponent's move is answered with the fresh score.
                if offered && self.answer_offer(&state.moves).await {
                    return None; // accepted: the next state ends the game
                }
                if self.decisions.should_resign(plies) {
                    tracing::info!("game {}: resigning (score {:?})", self.id, self.decisions.latest());
                    match self.ctx.client.resign(&self.id).await {
                        Ok(()) => return None,
                        Err(e) => tracing::warn!("game {}: resign refused: {e}; playing on", self.id),
                    }
                }
                let offer = !offered && self.decisions.should_offer_draw(plies);
                if offer {
                    tracing::info!("game {}: offering a draw with {uci}", self.id);
                }
                let overhead = received.elapsed().saturating_sub(choice.search_time);
                self.overhead_ms.push(overhead.as_secs_f64() * 1000.0);
                if let Err(e) = self.ctx.client.make_move(&self.id, &uci, offer).await {
                    self.move_refused(&state.moves, &uci, &e);
                }
            }
            Err(e) => tracing::error!("game {}: no move: {e}", self.id),
        }
        None
    }

    /// A move did not go through (400: the game moved on, ended, or the server disagrees; or
    /// the retries ran out). The stream is read again from the start: its `gameFull` tells the
    /// current state, and if it is still our move we search and send again.
    fn move_refused(&mut self, moves: &str, uci: &str, e: &ApiError) {
        self.refused_moves += 1;
        let count = match &mut self.refused_at {
            Some((at, n)) if at == moves => {
                *n += 1;
                *n
            }
            _ => {
                self.refused_at = Some((moves.to_string(), 1));
                1
            }
        };
        if count >= MAX_REFUSALS_PER_POSITION {
            tracing::error!(
                "game {}: move {uci} refused {count} times here ({e}); waiting for the server's next state",
                self.id
            );
            return;
        }
        tracing::warn!(
            "game {}: move {uci} refused: {e}; reading the game state again",
            self.id
        );
        self.handled = None;
        self.resync = true;
    }

    /// Accepts or declines the opponent's draw offer by our latest score, once per move list.
    /// Returns whether we accepted (and the server took it).
    async fn answer_offer(&mut self, moves: &str) -> bool {
        if self.answered_offer.as_deref() == Some(moves) {
            return false;
        }
        self.answered_offer = Some(moves.to_string());
        let accept = self.decisions.accept_draw();
        tracing::info!(
            "game {}: {} the draw offer (score {:?})",
            self.id,
            if accept { "accepting" } else { "declining" },
            self.decisions.latest()
        );
        match self.ctx.client.draw(&self.id, accept).await {
            Ok(()) => accept,
            Err(e) => {
                tracing::info!("game {}: draw answer refused: {e}", self.id);
                false
            }
        }
    }

    /// Declines the opponent's takeback proposal, once per proposal: when its flag appears in
    /// a state (a proposal still shown in the next state, or after a reconnection, was
    /// answered already).
    async fn answer_takeback(&mut self, proposed: bool) {
        let new = proposed && !self.takeback_shown;
        self.takeback_shown = proposed;
        if !new {
            return;
        }
        tracing::info!("game {}: declining the takeback proposal", self.id);
        if let Err(e) = self.ctx.client.takeback(&self.id, false).await {
            tracing::info!("game {}: takeback answer refused: {e}", self.id);
        }
    }

    /// Keeps the first-move abort timer: running while the game is abortable (fewer than two
    /// plies) and the opponent is to move, restarted when the move list changes.
    fn watch_first_move(&mut self, plies: usize, opponent_to_move: bool, moves: &str) {
        let secs = self.ctx.config.decisions.abort_first_move_seconds;
        let wanted = secs > 0 && plies < 2 && opponent_to_move;
        if wanted && self.abort_timer.as_ref().is_some_and(|(k, _)| k == moves) {
            return;
        }
        if let Some((_, t)) = self.abort_timer.take() {
            t.abort();
        }
        if wanted {
            let (client, id) = (self.ctx.client.clone(), self.id.clone());
            let timer = tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(secs)).await;
                tracing::info!("game {id}: the opponent did not move within {secs} s; aborting");
                if let Err(e) = client.abort(&id).await {
                    tracing::info!("game {id}: abort refused: {e}");
                }
            });
            self.abort_timer = Some((moves.to_string(), timer));
        }
    }

    async fn say(&self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Err(e) = self.ctx.client.chat(&self.id, "player", text).await {
            tracing::debug!("game {}: chat failed: {e}", self.id);
        }
    }

    async fn finish(&mut self, state: &GameState) -> GameReport {
        let moves = state.move_list();
        let mut report = GameReport {
            id: self.id.clone(),
            status: state.status.clone(),
            winner: state.winner.clone(),
            color: String::new(),
            plies: moves.len(),
            pgn: None,
            overhead_ms: std::mem::take(&mut self.overhead_ms),
            refused_moves: self.refused_moves,
        };
        let Some(setup) = &self.setup else {
            return report;
        };
        report.color = if setup.color == Color::White { "white" } else { "black" }.into();
        let name = |p: &crate::api::types::GamePlayer| {
            if p.name.is_empty() {
                p.id.clone().unwrap_or_else(|| "?".into())
            } else {
                p.name.clone()
            }
        };
        let (white, black) = (name(&setup.full.white), name(&setup.full.black));
        let record = pgn::GameRecord {
            id: &self.id,
            site: self.ctx.client.base_url().to_string(),
            start: &setup.start,
            moves: &moves,
            white: &white,
            black: &black,
            status: &state.status,
            winner: state.winner.as_deref(),
            rated: setup.full.rated,
            created_at: setup.full.created_at,
            variant_key: &setup.full.variant.key,
            comments: &(0..moves.len())
                .map(|i| {
                    let parts: Vec<String> = [
                        self.evals.get(&i).map(|e| format!("[%eval {e}]")),
                        self.clocks
                            .get(&i)
                            .map(|&ms| format!("[%clk {}]", engine::play::clock::clk_text(ms))),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    parts.join(" ")
                })
                .collect::<Vec<_>>(),
        };
        match pgn::save(&self.ctx.config.games.pgn_dir, &record) {
            Ok(path) => report.pgn = Some(path),
            Err(e) => tracing::error!("game {}: saving the PGN: {e}", self.id),
        }
        tracing::info!(
            "game {} over: {}{} after {} plies",
            self.id,
            state.status,
            state
                .winner
                .as_deref()
                .map(|w| format!(", {w} wins"))
                .unwrap_or_default(),
            moves.len()
        );
        // No goodbye in a game that never started (Lichess-bot's habit too).
        if !matches!(state.status.as_str(), "aborted" | "noStart") {
            self.say(&self.ctx.config.games.goodbye.clone()).await;
        }
        report
    }
}

/// A score as Lichess's `%eval` writes it: pawns from White's side (`0.35`, `-1.20`), or mate
/// (`#3`, `#-2`) for the side that mates. `mover` is the side the score belongs to.
pub fn eval_text(score: engine::search::Score, mover: Color) -> String {
    let sign = if mover == Color::White { 1 } else { -1 };
    match score {
        engine::search::Score::Cp(cp) => format!("{:.2}", f64::from(cp * sign) / 100.0),
        engine::search::Score::Mate(n) => format!("#{}", n * sign),
    }
}

#[cfg(test)]
mod eval_tests {
    use super::*;
    use engine::search::Score;

    #[test]
    fn evals_are_pawns_or_mates_from_whites_side() {
        assert_eq!(eval_text(Score::Cp(35), Color::White), "0.35");
        assert_eq!(eval_text(Score::Cp(35), Color::Black), "-0.35");
        assert_eq!(eval_text(Score::Cp(-120), Color::White), "-1.20");
        assert_eq!(eval_text(Score::Mate(3), Color::White), "#3");
        assert_eq!(eval_text(Score::Mate(2), Color::Black), "#-2");
        assert_eq!(eval_text(Score::Mate(-4), Color::Black), "#4");
    }
}
