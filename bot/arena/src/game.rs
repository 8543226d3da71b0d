//! One game on the arena: the rules (through the engine's `Game`), the moves as UCI text, the
//! clocks, draw offers, and the status as Lichess names it.

use std::time::Instant;

use engine::rules::{game::Game, Color, DrawReason, Outcome, Position, Variant};

use super::{
    status::GameStatus,
    store::{ChatRow, GameRow, MoveRow},
};
use lichess_api::types::{speed_of, Expiration, GameClock, GameState, VariantRef};

/// Why a game command was refused (the text becomes the `error` of a 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// Not the caller's turn, or the game is over.
    #[error("Not your turn, or game already over")]
    NotYourTurn,
    /// The move text is not a legal move here.
    #[error("Illegal move: {0}")]
    Illegal(String),
    /// Too late to abort.
    #[error("This game can no longer be aborted")]
    NotAbortable,
    /// The game is over.
    #[error("Game already over")]
    Over,
    /// Claiming needs the opponent to be gone long enough.
    #[error("You cannot claim the win now")]
    CannotClaim,
    /// Claiming a draw needs the opponent to be gone long enough.
    #[error("You cannot claim a draw now")]
    CannotClaimDraw,
    /// Nothing to take back.
    #[error("There is no move to take back")]
    NoTakeback,
    /// Berserk is for arena tournament games, which the arena does not run.
    #[error("Berserk is only available in arena tournament games")]
    NoBerserk,
}

/// A move's UCI text kept inline (no allocation): a game's moves copy as one block, so that
/// the snapshot a unit of work keeps to undo a failed write (see `state::journal`) costs
/// little. UCI texts of our boards have at most 7 characters (`a10b10q`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Uci {
    len: u8,
    text: [u8; 15],
}

impl Uci {
    /// The text of `s` (ASCII; longer than 15 bytes is cut, which no UCI text of ours is).
    pub fn new(s: &str) -> Uci {
        let mut text = [0u8; 15];
        let n = s.len().min(15);
        text[..n].copy_from_slice(&s.as_bytes()[..n]);
        Uci { len: n as u8, text }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..usize::from(self.len)]).unwrap_or("")
    }
}

impl std::fmt::Display for Uci {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for Uci {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl serde::Serialize for Uci {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<&str> for Uci {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// `player` or `spectator`.
    pub room: String,
    /// Display name of the writer.
    pub username: String,
    /// The text (at most 140 characters).
    pub text: String,
    /// Removed by a moderator (kept in its place, text wiped, shown to no one).
    pub removed: bool,
}

/// What a game is set up with (from a challenge or a pair of seeks).
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Game id (8 characters).
    pub id: String,
    /// The variant as the API names it (`fromPosition` for chess from a FEN).
    pub variant: VariantRef,
    /// The start position.
    pub start: Position,
    /// The FEN the game started from, if not the start position.
    pub initial_fen: Option<String>,
    /// User id of White.
    pub white: String,
    /// User id of Black.
    pub black: String,
    /// Rated.
    pub rated: bool,
    /// Clock in ms (none: correspondence or unlimited).
    pub clock: Option<GameClock>,
    /// Correspondence: days per move (none with a clock, and for unlimited games).
    pub days: Option<u32>,
    /// Where the game comes from: `friend` (a challenge) or `lobby` (seeks).
    pub source: &'static str,
    /// Creation time, ms since the epoch.
    pub created_at: u64,
}

pub use super::clock::now_ms;

/// The time field of an unlimited game's state, as Lichess sends it (2^31 - 1 ms).
pub const UNLIMITED_MS: i64 = i32::MAX as i64;

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// A game in progress or finished.
#[derive(Clone)]
pub struct ArenaGame {
    /// Game id (8 characters).
    pub id: String,
    /// The variant as the API names it.
    pub variant_ref: VariantRef,
    /// User id of White.
    pub white: String,
    /// User id of Black.
    pub black: String,
    /// Rated.
    pub rated: bool,
    /// Clock in ms (none: correspondence or unlimited).
    pub clock: Option<GameClock>,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// `friend` or `lobby`.
    pub source: &'static str,
    /// Creation time, ms since the epoch.
    pub created_at: u64,
    /// The FEN the game started from, if not the start position.
    pub initial_fen: Option<String>,
    game: Game,
    moves: Vec<Uci>,
    times: [i64; 2],
    turn_started: Instant,
    status: GameStatus,
    winner: Option<Color>,
    draw_offer: [bool; 2],
    takeback_offer: [bool; 2],
    gone_since: [Option<Instant>; 2],
    /// The chat, both rooms.
    pub chat: Vec<ChatLine>,
    /// The mover's time left after each move, ms.
    clocks: Vec<i64>,
    /// When each move was made, ms since the epoch.
    move_times: Vec<u64>,
    /// Ratings at the start, White then Black.
    pub ratings: [Option<i32>; 2],
    /// Rating changes of a finished rated game.
    pub rating_diffs: [Option<i32>; 2],
    /// Moves already in the database.
    pub stored_plies: usize,
    /// Chat lines already in the database.
    pub stored_chat: usize,
    /// Whether the game row itself is in the database.
    pub stored: bool,
    /// Real-time games: the time each side has for its first move before the game is
    /// aborted as `noStart` (none: no such limit).
    pub first_move_ms: Option<u64>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// `white` / `black`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl ArenaGame {
    /// A new started game.
    pub fn new(setup: GameSetup) -> ArenaGame {
        let initial = match (setup.clock, setup.days) {
            (Some(c), _) => c.initial as i64,
            (None, Some(days)) => i64::from(days) * DAY_MS,
            (None, None) => UNLIMITED_MS,
        };
        ArenaGame {
            id: setup.id,
            variant_ref: setup.variant,
            white: setup.white,
            black: setup.black,
            rated: setup.rated,
            clock: setup.clock,
            days: setup.days,
            source: setup.source,
            created_at: setup.created_at,
            initial_fen: setup.initial_fen,
            game: Game::new(setup.start),
            moves: Vec::new(),
            times: [initial; 2],
            turn_started: Instant::now(),
            status: GameStatus::Started,
            winner: None,
            draw_offer: [false; 2],
            takeback_offer: [false; 2],
            gone_since: [None; 2],
            chat: Vec::new(),
            clocks: Vec::new(),
            move_times: Vec::new(),
            ratings: [None; 2],
            rating_diffs: [None; 2],
            stored_plies: 0,
            stored_chat: 0,
            stored: false,
            first_move_ms: None,
        }
    }

    /// Rebuilds a stored game: the moves are replayed through the rules; the clock of the side
    /// to move goes on from its stored time (the time the server was down is not charged).
    pub fn restore(row: &GameRow, moves: &[MoveRow], chat: &[ChatRow]) -> Result<ArenaGame, String> {
        let variant = lichess_api::variants::arena_variant(&row.variant_key)
            .ok_or_else(|| format!("unknown variant key {}", row.variant_key))?;
        let start = match &row.initial_fen {
            Some(fen) => Position::from_fen(variant, fen).map_err(|e| format!("bad FEN {fen}: {e}"))?,
            None => Position::startpos(variant),
        };
        let mut g = ArenaGame::new(GameSetup {
            id: row.id.clone(),
            variant: lichess_api::variants::variant_ref(variant, row.initial_fen.is_some()),
            start,
            initial_fen: row.initial_fen.clone(),
            white: row.white.clone(),
            black: row.black.clone(),
            rated: row.rated,
            clock: row.clock.map(|(initial, increment)| GameClock { initial, increment }),
            days: row.days,
            source: if row.source == "lobby" { "lobby" } else { "friend" },
            created_at: row.created_at,
        });
        for m in moves {
            let mv = g
                .game
                .position()
                .parse_uci(&m.uci)
                .map_err(|e| format!("move {} ({}) does not replay: {e}", g.moves.len() + 1, m.uci))?;
            let text = g.game.position().uci(mv);
            g.game.play(mv);
            g.moves.push(Uci::new(&text));
            g.clocks.push(m.clock);
            g.move_times.push(m.at);
        }
        g.times = row.times;
        g.status = row.status.parse().map_err(|e| format!("{e}"))?;
        g.winner = match row.winner.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        g.chat = chat
            .iter()
            .map(|c| ChatLine {
                room: c.room.clone(),
                username: c.username.clone(),
                text: c.text.clone(),
                removed: c.removed,
            })
            .collect();
        g.ratings = row.ratings;
        g.rating_diffs = row.rating_diffs;
        g.stored_plies = moves.len();
        g.stored_chat = chat.len();
        g.stored = true;
        Ok(g)
    }

    /// The database row of the game now.
    pub fn row(&self, now: Instant) -> GameRow {
        GameRow {
            id: self.id.clone(),
            variant_key: self.variant_ref.key.clone(),
            initial_fen: self.initial_fen.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            rated: self.rated,
            clock: self.clock.map(|c| (c.initial, c.increment)),
            days: self.days,
            source: self.source.to_string(),
            created_at: self.created_at,
            status: self.status.to_string(),
            winner: self.winner.map(|c| color_name(c).to_string()),
            times: [self.time_left(Color::White, now), self.time_left(Color::Black, now)],
            last_move_at: self.move_times.last().copied().unwrap_or(self.created_at),
            ratings: self.ratings,
            rating_diffs: self.rating_diffs,
        }
    }

    /// The moves as database rows.
    pub fn move_rows(&self) -> Vec<MoveRow> {
        self.moves
            .iter()
            .zip(&self.clocks)
            .zip(&self.move_times)
            .map(|((uci, &clock), &at)| MoveRow {
                uci: uci.to_string(),
                clock,
                at,
            })
            .collect()
    }

    /// The moves played.
    pub fn played(&self) -> &[engine::rules::moves::Move] {
        self.game.moves()
    }

    /// The moves in SAN.
    pub fn sans(&self) -> Vec<String> {
        super::board::replay(self.game.start(), self.game.moves()).1
    }

    /// The mover's time left after each move, ms (for `%clk`).
    pub fn clocks(&self) -> &[i64] {
        &self.clocks
    }

    /// When the last move was made (or the game created), ms since the epoch.
    pub fn last_move_at(&self) -> u64 {
        self.move_times.last().copied().unwrap_or(self.created_at)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.game.start()
    }

    /// The speed key.
    pub fn speed(&self) -> &'static str {
        self.clock
            .map_or("correspondence", |c| speed_of(c.initial / 1000, c.increment / 1000))
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.game.position().variant()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The legal moves of the current position in this game: with the legality filters of the
    /// rules that read the game's earlier positions.
    pub fn legal_moves(&self) -> engine::rules::MoveList {
        self.game.legal_moves()
    }

    /// The colour `user` plays, if a player.
    pub fn side_of(&self, user: &str) -> Option<Color> {
        if self.white == user {
            Some(Color::White)
        } else if self.black == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The user id playing `c`.
    pub fn player(&self, c: Color) -> &str {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// Whether the game goes on.
    pub fn is_running(&self) -> bool {
        self.status == GameStatus::Started
    }

    /// The status.
    pub fn status(&self) -> GameStatus {
        self.status
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// Why the game ended, in the words of the view's `endReason` (none while it runs): the
    /// status, and for a draw the position's own reason (a draw the position does not explain
    /// was agreed, or called by a player whose opponent left, or decided by a moderator).
    pub fn end_reason(&self) -> Option<&'static str> {
        Some(match self.status {
            GameStatus::Started => return None,
            // Mates and the position's own draws are named by the rules.
            GameStatus::Mate => self
                .game
                .outcome()
                .filter(|o| o.winner().is_some())
                .map_or("checkmate", |o| o.key()),
            GameStatus::Resign => "resignation",
            GameStatus::Stalemate => "stalemate",
            GameStatus::OutOfTime => "time",
            GameStatus::Timeout => "opponentLeft",
            GameStatus::NoStart => "noStart",
            GameStatus::Aborted => "aborted",
            GameStatus::Draw => self
                .game
                .outcome()
                .filter(|o| o.winner().is_none())
                .map_or("agreement", |o| o.key()),
        })
    }

    /// The moves played, UCI.
    pub fn moves(&self) -> &[Uci] {
        &self.moves
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.game.position().turn()
    }

    /// Abortable until both sides have moved.
    pub fn abortable(&self) -> bool {
        self.is_running() && self.moves.len() < 2
    }

    /// Whether a clock or a correspondence deadline runs (once both sides have moved).
    pub fn clock_running(&self) -> bool {
        self.is_running() && (self.clock.is_some() || self.days.is_some()) && self.moves.len() >= 2
    }

    /// Time left of `c` at `now`, ms.
    pub fn time_left(&self, c: Color, now: Instant) -> i64 {
        let stored = self.times[idx(c)];
        if self.clock_running() && self.turn() == c {
            stored - now.saturating_duration_since(self.turn_started).as_millis() as i64
        } else {
            stored
        }
    }

    /// Sets the time left of `c` to `ms` at `now` (the clock of the side to move keeps running).
    pub fn set_time_left(&mut self, c: Color, ms: i64, now: Instant) {
        let running = self.clock_running() && self.turn() == c;
        self.times[idx(c)] = if running {
            ms + now.saturating_duration_since(self.turn_started).as_millis() as i64
        } else {
            ms
        };
    }

    /// The first-move deadline of the side to move: (ms idle since the game started or the
    /// last move, ms it has), while a side of a real-time game has not moved yet.
    pub fn first_move_window(&self, now: Instant) -> Option<(u64, u64)> {
        let limit = self
            .first_move_ms
            .filter(|_| self.is_running() && self.moves.len() < 2 && self.clock.is_some())?;
        let idle = now.saturating_duration_since(self.turn_started).as_millis() as u64;
        Some((idle, limit))
    }

    /// Whether [`ArenaGame::check_flag`] would end the game now.
    pub fn flag_due(&self, now: Instant) -> bool {
        self.first_move_window(now).is_some_and(|(idle, limit)| idle > limit)
            || (self.clock_running() && self.time_left(self.turn(), now) <= 0)
    }

    /// Ends the game on time if the side to move has flagged, or as `noStart` (no winner, not
    /// rated) if it did not make its first move in time. Returns whether it ended.
    pub fn check_flag(&mut self, now: Instant) -> bool {
        if self.first_move_window(now).is_some_and(|(idle, limit)| idle > limit) {
            self.finish(GameStatus::NoStart, None);
            return true;
        }
        if self.clock_running() && self.time_left(self.turn(), now) <= 0 {
            let loser = self.turn();
            self.times[idx(loser)] = 0;
            self.finish(GameStatus::OutOfTime, Some(!loser));
            return true;
        }
        false
    }

    /// Plays `uci` for `user`.
    pub fn play(&mut self, user: &str, uci: &str, offering_draw: bool, now: Instant) -> Result<(), GameError> {
        let side = self.side_of(user).ok_or(GameError::NotYourTurn)?;
        if !self.is_running() || side != self.turn() {
            return Err(GameError::NotYourTurn);
        }
        if uci == "0000" {
            return Err(GameError::Illegal(uci.to_string()));
        }
        let m = self
            .game
            .position()
            .parse_uci(uci)
            .map_err(|e| GameError::Illegal(format!("{uci} ({e})")))?;
        // A move legal on the board may still be forbidden by what the game did before it.
        if !self.game.position().is_legal_move_with_history(m, self.game.history()) {
            return Err(GameError::Illegal(format!(
                "{uci} (forbidden in this game by a rule that reads its earlier positions)"
            )));
        }
        if self.clock_running() {
            let left = self.time_left(side, now);
            self.times[idx(side)] = match (self.clock, self.days) {
                (Some(c), _) => left + c.increment as i64,
                // A correspondence move resets the mover's deadline for the next turn.
                (None, Some(days)) => i64::from(days) * DAY_MS,
                (None, None) => left,
            };
        }
        let text = self.game.position().uci(m);
        self.game.play(m);
        self.moves.push(Uci::new(&text));
        self.clocks.push(self.time_left(side, now).max(0));
        self.move_times.push(now_ms());
        self.turn_started = now;
        // Moving declines the opponent's offers; the mover may offer a draw with the move.
        self.draw_offer = [false; 2];
        self.draw_offer[idx(side)] = offering_draw;
        self.takeback_offer = [false; 2];
        if let Some(outcome) = self.game.outcome() {
            let (status, winner) = match outcome {
                // The Lichess API has no status of its own for Citadel's Green Gem: a mate.
                Outcome::Checkmate { winner } | Outcome::GreenGem { winner } => (GameStatus::Mate, Some(winner)),
                Outcome::Draw(DrawReason::Stalemate) => (GameStatus::Stalemate, None),
                Outcome::Draw(_) => (GameStatus::Draw, None),
            };
            self.finish(status, winner);
        }
        Ok(())
    }

    /// Ends the game.
    pub fn finish(&mut self, status: GameStatus, winner: Option<Color>) {
        if self.is_running() {
            self.status = status;
            self.winner = winner;
            self.draw_offer = [false; 2];
            self.takeback_offer = [false; 2];
        }
    }

    /// `yes`: offer or accept a draw; `no`: decline the opponent's offer.
    pub fn draw(&mut self, side: Color, yes: bool) -> Result<(), GameError> {
        if !self.is_running() {
            return Err(GameError::Over);
        }
        if yes {
            if self.draw_offer[idx(!side)] {
                self.finish(GameStatus::Draw, None);
            } else {
                self.draw_offer[idx(side)] = true;
            }
        } else {
            self.draw_offer[idx(!side)] = false;
        }
        Ok(())
    }

    /// `yes`: propose a takeback, or accept the opponent's proposal; `no`: decline it. An
    /// accepted takeback takes back the proposer's last move (and the opponent's reply, when
    /// the proposer is to move), as on Lichess.
    pub fn takeback(&mut self, side: Color, yes: bool, now: Instant) -> Result<(), GameError> {
        if !self.is_running() {
            return Err(GameError::Over);
        }
        if !yes {
            self.takeback_offer[idx(!side)] = false;
            return Ok(());
        }
        if !self.takeback_offer[idx(!side)] {
            // A proposal needs a move of the proposer to take back.
            let start_turn = self.game.start().turn();
            let proposer_moves = (0..self.moves.len())
                .filter(|ply| (if ply.is_multiple_of(2) { start_turn } else { !start_turn }) == side)
                .count();
            if proposer_moves == 0 {
                return Err(GameError::NoTakeback);
            }
            self.takeback_offer[idx(side)] = true;
            return Ok(());
        }
        // Accepted: the proposer (the opponent of `side`) gets its last move back.
        let proposer = !side;
        let plies = if self.turn() == proposer { 2 } else { 1 };
        let keep = self.moves.len().saturating_sub(plies);
        let mut game = Game::new(self.game.start().clone());
        for &m in &self.game.moves()[..keep] {
            game.play(m);
        }
        self.game = game;
        self.moves.truncate(keep);
        self.clocks.truncate(keep);
        self.move_times.truncate(keep);
        self.takeback_offer = [false; 2];
        self.draw_offer = [false; 2];
        self.turn_started = now;
        Ok(())
    }

    /// Claims a draw for `side` when the opponent has been gone for `after_s` seconds.
    pub fn claim_draw(&mut self, side: Color, after_s: u64, now: Instant) -> Result<(), GameError> {
        match self.gone_since[idx(!side)] {
            Some(t) if self.is_running() && now.saturating_duration_since(t).as_secs() >= after_s => {
                self.finish(GameStatus::Draw, None);
                Ok(())
            }
            _ => Err(GameError::CannotClaimDraw),
        }
    }

    /// Aborts.
    pub fn abort(&mut self) -> Result<(), GameError> {
        if !self.abortable() {
            return Err(GameError::NotAbortable);
        }
        self.finish(GameStatus::Aborted, None);
        Ok(())
    }

    /// Resigns (an abortable game is aborted instead, as Lichess does).
    pub fn resign(&mut self, side: Color) -> Result<(), GameError> {
        if !self.is_running() {
            return Err(GameError::Over);
        }
        if self.abortable() {
            return self.abort();
        }
        self.finish(GameStatus::Resign, Some(!side));
        Ok(())
    }

    /// Marks a player gone (`true`) or back.
    pub fn set_gone(&mut self, side: Color, gone: bool, now: Instant) {
        self.gone_since[idx(side)] = if gone { Some(now) } else { None };
    }

    /// Whether `side` is gone.
    pub fn is_gone(&self, side: Color) -> bool {
        self.gone_since[idx(side)].is_some()
    }

    /// Seconds until `side` may claim the win or a draw (the opponent gone for `after_s`
    /// seconds): `None` while the opponent is here or the game is over, 0 when a claim made now
    /// is accepted.
    pub fn claim_in_seconds(&self, side: Color, after_s: u64, now: Instant) -> Option<u64> {
        let since = self.gone_since[idx(!side)].filter(|_| self.is_running())?;
        let left = std::time::Duration::from_secs(after_s).saturating_sub(now.saturating_duration_since(since));
        Some(u64::try_from(left.as_nanos().div_ceil(1_000_000_000)).unwrap_or(u64::MAX))
    }

    /// The clocks after the first `ply` plies, ms, White then Black: each side's time after its
    /// last move up to there (as `%clk` gives it), the initial time before its first move.
    /// `None` without a real-time clock.
    pub fn clocks_at(&self, ply: usize) -> Option<[i64; 2]> {
        let initial = self.clock?.initial as i64;
        let first = self.game.start().turn();
        let mut out = [initial; 2];
        for (i, &ms) in self.clocks.iter().take(ply).enumerate() {
            let mover = if i % 2 == 0 { first } else { !first };
            out[idx(mover)] = ms;
        }
        Some(out)
    }

    /// Claims victory for `side` when the opponent has been gone for `after_s` seconds.
    pub fn claim_victory(&mut self, side: Color, after_s: u64, now: Instant) -> Result<(), GameError> {
        match self.gone_since[idx(!side)] {
            Some(t) if self.is_running() && now.saturating_duration_since(t).as_secs() >= after_s => {
                self.finish(GameStatus::Timeout, Some(side));
                Ok(())
            }
            _ => Err(GameError::CannotClaim),
        }
    }

    /// The `gameState` message at `now`.
    pub fn state(&self, now: Instant) -> GameState {
        let inc = self.clock.map_or(0, |c| c.increment as i64);
        GameState {
            kind: None,
            moves: {
                let mut all = String::with_capacity(self.moves.len() * 5);
                for (i, m) in self.moves.iter().enumerate() {
                    if i > 0 {
                        all.push(' ');
                    }
                    all.push_str(m.as_str());
                }
                all
            },
            wtime: self.time_left(Color::White, now).max(0),
            btime: self.time_left(Color::Black, now).max(0),
            winc: inc,
            binc: inc,
            status: self.status.to_string(),
            winner: self.winner.map(|c| color_name(c).to_string()),
            wdraw: self.draw_offer[0],
            bdraw: self.draw_offer[1],
            wtakeback: self.takeback_offer[0],
            btakeback: self.takeback_offer[1],
            expiration: self.first_move_window(now).map(|(idle, limit)| Expiration {
                idle_millis: idle,
                millis_to_move: limit,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(clock: Option<GameClock>) -> ArenaGame {
        let v: Variant = "persian-princess".parse().expect("known variant");
        ArenaGame::new(GameSetup {
            id: "g1".into(),
            variant: lichess_api::variants::variant_ref(v, false),
            start: Position::startpos(v),
            initial_fen: None,
            white: "w".into(),
            black: "b".into(),
            rated: false,
            clock,
            days: None,
            source: "friend",
            created_at: 0,
        })
    }

    #[test]
    fn clocks_at_a_ply_and_the_claim_countdown() {
        let mut g = game(Some(GameClock {
            initial: 60_000,
            increment: 2_000,
        }));
        let t0 = Instant::now();
        for (i, user) in ["w", "b", "w", "b"].into_iter().enumerate() {
            let m = first_move(&g);
            g.play(user, &m, false, t0 + std::time::Duration::from_secs(i as u64))
                .expect("legal");
        }
        // The clocks run once both sides have moved: White's second move took 1 s (and got
        // the increment), Black's too.
        assert_eq!(g.clocks_at(0), Some([60_000, 60_000]));
        assert_eq!(g.clocks_at(2), Some([60_000, 60_000]));
        assert_eq!(g.clocks_at(3), Some([61_000, 60_000]));
        assert_eq!(g.clocks_at(4), Some([61_000, 61_000]));
        assert_eq!(g.clocks_at(99), g.clocks_at(4));
        assert_eq!(game(None).clocks_at(0), None, "no real-time clock");
        // Black leaves: White may claim 10 s later, not a moment before.
        assert_eq!(g.claim_in_seconds(Color::White, 10, t0), None);
        g.set_gone(Color::Black, true, t0);
        assert_eq!(g.claim_in_seconds(Color::Black, 10, t0), None, "White is here");
        assert_eq!(g.claim_in_seconds(Color::White, 10, t0), Some(10));
        let almost = t0 + std::time::Duration::from_millis(9_999);
        assert_eq!(g.claim_in_seconds(Color::White, 10, almost), Some(1));
        assert!(g.claim_victory(Color::White, 10, almost).is_err());
        let then = t0 + std::time::Duration::from_secs(10);
        assert_eq!(g.claim_in_seconds(Color::White, 10, then), Some(0));
        assert_eq!(g.claim_victory(Color::White, 10, then), Ok(()));
        assert_eq!(g.claim_in_seconds(Color::White, 10, then), None, "the game is over");
    }

    #[test]
    fn turns_and_legality() {
        let mut g = game(None);
        let now = Instant::now();
        let legal = {
            let pos = g.position();
            let m = pos.legal_moves();
            pos.uci(m.iter().copied().next().expect("the start position has moves"))
        };
        assert_eq!(g.play("b", &legal, false, now), Err(GameError::NotYourTurn));
        assert!(matches!(g.play("w", "a1a9", false, now), Err(GameError::Illegal(_))));
        assert!(matches!(g.play("w", "junk", false, now), Err(GameError::Illegal(_))));
        assert_eq!(g.play("w", &legal, false, now), Ok(()));
        assert_eq!(g.moves().len(), 1);
        assert!(g.abortable());
        assert_eq!(g.resign(Color::Black), Ok(()));
        assert_eq!(g.status(), GameStatus::Aborted);
    }

    /// Parsi forbids a check that repeats a position a third time when every move of its side
    /// since the first time gave check: the arena refuses it with a reason, does not list it
    /// among the game's legal moves (the bare position would allow it), and the game goes on.
    #[test]
    fn parsi_refuses_a_perpetual_check_the_game_forbids() {
        let v: Variant = "parsi".parse().expect("known variant");
        let start = Position::from_fen(v, "5b1k/4p1pp/4P3/6N1/8/1q6/8/K7 w - - 0 1").expect("FEN");
        let mut g = ArenaGame::new(GameSetup {
            id: "p1".into(),
            variant: lichess_api::variants::variant_ref(v, true),
            initial_fen: Some(start.fen()),
            start,
            white: "w".into(),
            black: "b".into(),
            rated: false,
            clock: None,
            days: None,
            source: "friend",
            created_at: 0,
        });
        let now = Instant::now();
        for (i, m) in "g5f7 h8g8 f7h6 g8h8 h6f7 h8g8 f7h6 g8h8".split(' ').enumerate() {
            let user = if i % 2 == 0 { "w" } else { "b" };
            assert_eq!(g.play(user, m, false, now), Ok(()), "{m}");
        }
        let check = g.position().parse_uci("h6f7").expect("legal on the board");
        assert!(
            g.position().legal_moves().contains(check),
            "the bare position allows Nf7+"
        );
        assert!(!g.legal_moves().contains(check), "the game does not");
        let refused = g.play("w", "h6f7", false, now);
        assert!(
            matches!(&refused, Err(GameError::Illegal(text)) if text.contains("earlier positions")),
            "{refused:?}"
        );
        assert!(g.is_running());
        assert_eq!(g.moves().len(), 8);
        let other = g
            .position()
            .uci(g.legal_moves().iter().copied().next().expect("a move"));
        assert_eq!(g.play("w", &other, false, now), Ok(()));
    }

    /// The stored status comes back as it was written; a name the arena does not write is a
    /// clear error (the game is not rebuilt), not a guess.
    #[test]
    fn a_stored_status_is_read_back_and_an_unknown_one_refused() {
        let mut g = game(None);
        let now = Instant::now();
        let m = first_move(&g);
        g.play("w", &m, false, now).expect("legal");
        let m = first_move(&g);
        g.play("b", &m, false, now).expect("legal");
        assert_eq!(g.resign(Color::White), Ok(()));
        let mut row = g.row(now);
        assert_eq!(row.status, "resign");
        let moves: Vec<MoveRow> = g
            .moves()
            .iter()
            .map(|m| MoveRow {
                uci: m.to_string(),
                clock: 0,
                at: 0,
            })
            .collect();
        let back = ArenaGame::restore(&row, &moves, &[]).expect("rebuilt");
        assert_eq!((back.status(), back.winner()), (GameStatus::Resign, Some(Color::Black)));
        row.status = "variantEnd".into();
        let err = ArenaGame::restore(&row, &moves, &[]).err().expect("refused");
        assert!(err.contains("unknown game status \"variantEnd\""), "{err}");
    }

    fn first_move(g: &ArenaGame) -> String {
        let pos = g.position();
        pos.uci(pos.legal_moves().iter().copied().next().expect("a move"))
    }

    #[test]
    fn takebacks_as_lichess_does_them() {
        let mut g = game(None);
        let now = Instant::now();
        assert_eq!(g.takeback(Color::White, true, now), Err(GameError::NoTakeback));
        let m = first_move(&g);
        g.play("w", &m, false, now).expect("legal");
        let m = first_move(&g);
        g.play("b", &m, false, now).expect("legal");
        // White proposes while to move: White's move and Black's reply go back.
        assert_eq!(g.takeback(Color::White, true, now), Ok(()));
        assert!(g.state(now).wtakeback);
        // Declined, then proposed again and accepted.
        assert_eq!(g.takeback(Color::Black, false, now), Ok(()));
        assert!(!g.state(now).wtakeback);
        assert_eq!(g.takeback(Color::White, true, now), Ok(()));
        assert_eq!(g.takeback(Color::Black, true, now), Ok(()));
        assert_eq!(g.moves().len(), 0);
        assert_eq!(g.position().fen(), Position::startpos(g.variant()).fen());
        // Black proposes after White's move: only... Black has no move yet.
        let m = first_move(&g);
        g.play("w", &m, false, now).expect("legal");
        assert_eq!(g.takeback(Color::Black, true, now), Err(GameError::NoTakeback));
        // White proposes while Black is to move: one ply back.
        assert_eq!(g.takeback(Color::White, true, now), Ok(()));
        assert_eq!(g.takeback(Color::Black, true, now), Ok(()));
        assert_eq!(g.moves().len(), 0);
        assert_eq!(g.turn(), Color::White);
    }

    #[test]
    fn no_first_move_in_time_aborts_as_no_start() {
        let mut g = game(Some(GameClock {
            initial: 60_000,
            increment: 0,
        }));
        g.first_move_ms = Some(1_000);
        let now = Instant::now();
        let e = g.state(now).expiration.expect("an expiration before the first moves");
        assert_eq!(e.millis_to_move, 1_000);
        assert!(!g.check_flag(now + std::time::Duration::from_millis(900)));
        let m = first_move(&g);
        let later = now + std::time::Duration::from_millis(900);
        g.play("w", &m, false, later).expect("legal");
        // Black's own window starts with White's move.
        assert!(!g.check_flag(later + std::time::Duration::from_millis(900)));
        assert!(g.check_flag(later + std::time::Duration::from_millis(1_100)));
        assert_eq!((g.status(), g.winner()), (GameStatus::NoStart, None));
        assert!(g.state(later).expiration.is_none(), "no expiration once over");
    }

    #[test]
    fn unlimited_and_correspondence_time() {
        let g = game(None);
        let now = Instant::now();
        assert_eq!(g.state(now).wtime, UNLIMITED_MS);
        let mut setup_days = game(None);
        setup_days.days = Some(2);
        setup_days.times = [2 * DAY_MS; 2];
        let mut g = setup_days;
        for _ in 0..2 {
            let m = first_move(&g);
            let user = if g.turn() == Color::White { "w" } else { "b" };
            g.play(user, &m, false, now).expect("legal");
        }
        // Both have moved: White's deadline runs and flags like a clock.
        let later = now + std::time::Duration::from_secs(3600);
        assert_eq!(g.time_left(Color::White, later), 2 * DAY_MS - 3_600_000);
        assert!(!g.check_flag(later));
        assert!(g.check_flag(now + std::time::Duration::from_secs(2 * 86_400 + 1)));
        assert_eq!(g.status(), GameStatus::OutOfTime);
        assert_eq!(g.winner(), Some(Color::Black));
        assert_eq!(g.end_reason(), Some("time"));
    }

    #[test]
    fn draw_by_agreement() {
        let mut g = game(None);
        assert_eq!(g.draw(Color::White, true), Ok(()));
        assert!(g.state(Instant::now()).wdraw);
        assert_eq!(g.end_reason(), None);
        assert_eq!(g.draw(Color::Black, true), Ok(()));
        assert_eq!(g.status(), GameStatus::Draw);
        assert_eq!(g.end_reason(), Some("agreement"));
        assert_eq!(g.winner(), None);
    }
}
