//! One game on the arena: the rules (through the engine's `Game`), the moves as UCI text, the
//! clocks, draw offers, and the status as Lichess names it.

use std::time::Instant;

use engine::rules::{game::Game, Color, DrawReason, Outcome, Position, Variant};

use crate::api::types::{GameClock, GameState};

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
}

/// A game in progress or finished.
pub struct ArenaGame {
    /// Game id (8 characters).
    pub id: String,
    /// Variant key as the challenge named it.
    pub variant_key: String,
    /// User id of White.
    pub white: String,
    /// User id of Black.
    pub black: String,
    /// Rated.
    pub rated: bool,
    /// Clock in ms (none: unlimited).
    pub clock: Option<GameClock>,
    /// Creation time, ms since the epoch.
    pub created_at: u64,
    /// The FEN the game started from, if not the start position.
    pub initial_fen: Option<String>,
    game: Game,
    moves: Vec<String>,
    times: [i64; 2],
    turn_started: Instant,
    status: &'static str,
    winner: Option<Color>,
    draw_offer: [bool; 2],
    gone_since: [Option<Instant>; 2],
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
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: String,
        variant_key: String,
        start: Position,
        initial_fen: Option<String>,
        white: String,
        black: String,
        rated: bool,
        clock: Option<GameClock>,
        created_at: u64,
    ) -> ArenaGame {
        let initial = clock.map_or(0, |c| c.initial as i64);
        ArenaGame {
            id,
            variant_key,
            white,
            black,
            rated,
            clock,
            created_at,
            initial_fen,
            game: Game::new(start),
            moves: Vec::new(),
            times: [initial; 2],
            turn_started: Instant::now(),
            status: "started",
            winner: None,
            draw_offer: [false; 2],
            gone_since: [None; 2],
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.game.position().variant()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
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
        self.status == "started"
    }

    /// The status name.
    pub fn status(&self) -> &'static str {
        self.status
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The moves played, UCI.
    pub fn moves(&self) -> &[String] {
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

    fn clock_running(&self) -> bool {
        self.is_running() && self.clock.is_some() && self.moves.len() >= 2
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

    /// Ends the game on time if the side to move has flagged. Returns whether it ended.
    pub fn check_flag(&mut self, now: Instant) -> bool {
        if self.clock_running() && self.time_left(self.turn(), now) <= 0 {
            let loser = self.turn();
            self.times[idx(loser)] = 0;
            self.finish("outoftime", Some(!loser));
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
        if self.clock_running() {
            let left = self.time_left(side, now);
            let inc = self.clock.map_or(0, |c| c.increment as i64);
            self.times[idx(side)] = left + inc;
        }
        let text = self.game.position().uci(m);
        self.game.play(m);
        self.moves.push(text);
        self.turn_started = now;
        // Moving declines the opponent's offer; the mover may offer with the move.
        self.draw_offer = [false; 2];
        self.draw_offer[idx(side)] = offering_draw;
        if let Some(outcome) = self.game.outcome() {
            let (status, winner) = match outcome {
                Outcome::Checkmate { winner } => ("mate", Some(winner)),
                Outcome::Draw(DrawReason::Stalemate) => ("stalemate", None),
                Outcome::Draw(_) => ("draw", None),
            };
            self.finish(status, winner);
        }
        Ok(())
    }

    /// Ends the game.
    pub fn finish(&mut self, status: &'static str, winner: Option<Color>) {
        if self.is_running() {
            self.status = status;
            self.winner = winner;
            self.draw_offer = [false; 2];
        }
    }

    /// `yes`: offer or accept a draw; `no`: decline the opponent's offer.
    pub fn draw(&mut self, side: Color, yes: bool) -> Result<(), GameError> {
        if !self.is_running() {
            return Err(GameError::Over);
        }
        if yes {
            if self.draw_offer[idx(!side)] {
                self.finish("draw", None);
            } else {
                self.draw_offer[idx(side)] = true;
            }
        } else {
            self.draw_offer[idx(!side)] = false;
        }
        Ok(())
    }

    /// Aborts.
    pub fn abort(&mut self) -> Result<(), GameError> {
        if !self.abortable() {
            return Err(GameError::NotAbortable);
        }
        self.finish("aborted", None);
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
        self.finish("resign", Some(!side));
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

    /// Claims victory for `side` when the opponent has been gone for `after_s` seconds.
    pub fn claim_victory(&mut self, side: Color, after_s: u64, now: Instant) -> Result<(), GameError> {
        match self.gone_since[idx(!side)] {
            Some(t) if self.is_running() && now.saturating_duration_since(t).as_secs() >= after_s => {
                self.finish("timeout", Some(side));
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
            moves: self.moves.join(" "),
            wtime: self.time_left(Color::White, now).max(0),
            btime: self.time_left(Color::Black, now).max(0),
            winc: inc,
            binc: inc,
            status: self.status.to_string(),
            winner: self.winner.map(|c| color_name(c).to_string()),
            wdraw: self.draw_offer[0],
            bdraw: self.draw_offer[1],
            expiration: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(clock: Option<GameClock>) -> ArenaGame {
        let v: Variant = "persian-princess".parse().expect("known variant");
        ArenaGame::new(
            "g1".into(),
            "persian-princess".into(),
            Position::startpos(v),
            None,
            "w".into(),
            "b".into(),
            false,
            clock,
            0,
        )
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
        assert_eq!(g.status(), "aborted");
    }

    #[test]
    fn draw_by_agreement() {
        let mut g = game(None);
        assert_eq!(g.draw(Color::White, true), Ok(()));
        assert!(g.state(Instant::now()).wdraw);
        assert_eq!(g.draw(Color::Black, true), Ok(()));
        assert_eq!(g.status(), "draw");
        assert_eq!(g.winner(), None);
    }
}
