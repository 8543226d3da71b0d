//! Playing one game: the players move in turn from an opening until the rules, the clocks or the
//! adjudication end the game; an observer sees every move a player picked.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

use super::{
    adjudication::{Adjudication, Adjudicator},
    clock::{SideClock, TimeControl},
    openings::Opening,
    player::{Pick, PickFailure, Player, TimeView},
    result::{GameResult, Termination},
};
use crate::rules::{game::Game, ByColor, Color, Move};

/// The time controls of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameTime {
    /// Each side's time control (`None`: no clock, the player's own limits end its searches).
    pub controls: ByColor<Option<TimeControl>>,
    /// How far beyond its time a move of each side may go before it loses, milliseconds.
    pub margins_ms: ByColor<u64>,
}

/// Who plays which side.
pub enum Seats<'a> {
    /// One player for both sides (self-play).
    Both(&'a mut dyn Player),
    /// One player for each side.
    Apart {
        /// White.
        white: &'a mut dyn Player,
        /// Black.
        black: &'a mut dyn Player,
    },
}

impl Seats<'_> {
    fn player(&mut self, color: Color) -> &mut dyn Player {
        match self {
            Seats::Both(p) => &mut **p,
            Seats::Apart { white, .. } if color == Color::White => &mut **white,
            Seats::Apart { black, .. } => &mut **black,
        }
    }

    fn new_game(&mut self, game: &Game) {
        match self {
            Seats::Both(p) => p.new_game(game),
            Seats::Apart { white, black } => {
                white.new_game(game);
                black.new_game(game);
            }
        }
    }
}

/// Sees the game as it is played (self-play records training positions and score comments).
pub trait Observer {
    /// A player picked `pick` (legal) in `game`, before it is played; `game.moves().len()` is its
    /// ply.
    fn on_move(&mut self, game: &Game, pick: &Pick) {
        let _ = (game, pick);
    }

    /// Whether to abandon the game before the next move (asked before every search).
    fn stop(&self) -> bool {
        false
    }
}

/// No observer.
impl Observer for () {}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// All moves from the opening's start position, opening moves included.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The mover's clock after each move, milliseconds (same index as `moves`; `None` for
    /// opening moves and sides without a clock).
    pub clocks: Vec<Option<i64>>,
}

/// Plays one game from `opening` without clocks (see [`play_timed_game`]).
pub fn play_game(
    opening: &Opening,
    seats: Seats<'_>,
    adjudication: &Adjudication,
    observer: &mut dyn Observer,
) -> Option<PlayedGame> {
    play_timed_game(opening, seats, adjudication, &GameTime::default(), observer)
}

/// Plays one game from `opening` with the clocks of `time`. The players get
/// [`Player::new_game`] first. Before each move the game ends by the rules or at the ply limit.
/// Each move is asked for with [`Player::pick_timed`] and timed; a player that returns a null or
/// illegal move (or cannot take the position) loses, one whose clock runs out beyond the margin
/// loses on time, one whose program fails loses by an engine failure. After each move that does
/// not end the game by the rules, the score of the move goes to the resign and draw rules.
/// Returns `None` if the observer asked to stop before the game ended.
pub fn play_timed_game(
    opening: &Opening,
    mut seats: Seats<'_>,
    adjudication: &Adjudication,
    time: &GameTime,
    observer: &mut dyn Observer,
) -> Option<PlayedGame> {
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.play(m);
    }
    seats.new_game(&game);
    let mut adjudicator = Adjudicator::new(*adjudication);
    let mut view = TimeView {
        clocks: ByColor(time.controls.0.map(|c| c.map(SideClock::new))),
        margins_ms: time.margins_ms,
    };
    let mut clocks: Vec<Option<i64>> = vec![None; game.moves().len()];
    let finish = |game: Game, clocks: Vec<Option<i64>>, result: GameResult, termination: Termination| PlayedGame {
        moves: game.moves().to_vec(),
        result,
        termination,
        clocks,
    };
    loop {
        if let Some(o) = game.outcome() {
            return Some(finish(game, clocks, GameResult::of_outcome(o), Termination::Rules(o)));
        }
        let ply = game.moves().len();
        if ply >= adjudication.max_plies {
            return Some(finish(game, clocks, GameResult::Draw, Termination::MaxPlies(ply)));
        }
        if observer.stop() {
            return None;
        }
        let turn = game.position().turn();
        let lost = |by: Color, termination: Termination| (GameResult::win_for(!by), termination);
        let started = Instant::now();
        let answer = seats.player(turn).pick_timed(&game, &view);
        let used = started.elapsed();
        let pick = match answer {
            Ok(p) => p,
            Err(failure) => {
                let (result, termination) = match failure {
                    PickFailure::Illegal(text) => lost(turn, Termination::IllegalMove { by: turn, text }),
                    PickFailure::NoAnswer { .. } if view.clock(turn).is_some() => {
                        lost(turn, Termination::TimeForfeit { by: turn })
                    }
                    PickFailure::NoAnswer { waited } => lost(
                        turn,
                        Termination::EngineFailure {
                            by: turn,
                            reason: format!("no move within {:.1} s", waited.as_secs_f64()),
                        },
                    ),
                    PickFailure::Failed(reason) => lost(turn, Termination::EngineFailure { by: turn, reason }),
                };
                return Some(finish(game, clocks, result, termination));
            }
        };
        let m = pick.best;
        if m.is_null() || !game.is_legal(m) {
            let text = if m.is_null() {
                "0000".to_string()
            } else {
                game.position().uci(m)
            };
            return Some(finish(
                game,
                clocks,
                GameResult::win_for(!turn),
                Termination::IllegalMove { by: turn, text },
            ));
        }
        if let Some(clock) = view.clocks[turn].as_mut() {
            if clock.spend(used, view.margins_ms[turn]).is_err() {
                return Some(finish(
                    game,
                    clocks,
                    GameResult::win_for(!turn),
                    Termination::TimeForfeit { by: turn },
                ));
            }
        }
        observer.on_move(&game, &pick);
        game.play(m);
        clocks.push(view.clock(turn).map(|c| c.left_ms));
        if game.outcome().is_some() {
            continue;
        }
        if !pick.scored {
            adjudicator.record_unscored();
        } else if let Some((result, termination)) = adjudicator.record(ply, pick.score.white_cp(turn)) {
            return Some(finish(game, clocks, result, termination));
        }
    }
}

/// An observer that sees nothing and stops the game when a flag is raised (e.g. by another
/// thread when a match ends early).
pub struct StopFlag<'a>(pub &'a AtomicBool);

impl Observer for StopFlag<'_> {
    fn stop(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
