//! Playing one game: the players move in turn from an opening until the rules or the
//! adjudication end the game; an observer sees every move a player picked.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{
    adjudication::{Adjudication, Adjudicator},
    openings::Opening,
    player::{Pick, Player},
    result::{GameResult, Termination},
};
use crate::rules::{game::Game, Color, Move};

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
}

/// Plays one game from `opening`. The players get [`Player::new_game`] first. Before each move
/// the game ends by the rules or at the ply limit; a player that returns a null or illegal move
/// (or cannot take the position) loses; after each move that does not end the game by the rules,
/// the score of the move goes to the resign and draw rules. Returns `None` if the observer asked
/// to stop before the game ended.
pub fn play_game(
    opening: &Opening,
    mut seats: Seats<'_>,
    adjudication: &Adjudication,
    observer: &mut dyn Observer,
) -> Option<PlayedGame> {
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.play(m);
    }
    seats.new_game(&game);
    let mut adjudicator = Adjudicator::new(*adjudication);
    let finish = |game: Game, result: GameResult, termination: Termination| PlayedGame {
        moves: game.moves().to_vec(),
        result,
        termination,
    };
    loop {
        if let Some(o) = game.outcome() {
            return Some(finish(game, GameResult::of_outcome(o), Termination::Rules(o)));
        }
        let ply = game.moves().len();
        if ply >= adjudication.max_plies {
            return Some(finish(game, GameResult::Draw, Termination::MaxPlies(ply)));
        }
        if observer.stop() {
            return None;
        }
        let turn = game.position().turn();
        let pick = match seats.player(turn).pick(&game) {
            Ok(p) => p,
            Err(e) => {
                // The moves come from the generator, so this should not happen; the player that
                // cannot take the position loses like one that plays an illegal move.
                let text = format!("({e})");
                return Some(finish(
                    game,
                    GameResult::win_for(!turn),
                    Termination::IllegalMove { by: turn, text },
                ));
            }
        };
        let m = pick.best;
        if m.is_null() || !game.position().legal_moves().contains(m) {
            let text = if m.is_null() {
                "0000".to_string()
            } else {
                game.position().uci(m)
            };
            return Some(finish(
                game,
                GameResult::win_for(!turn),
                Termination::IllegalMove { by: turn, text },
            ));
        }
        observer.on_move(&game, &pick);
        game.play(m);
        if game.outcome().is_some() {
            continue;
        }
        if let Some((result, termination)) = adjudicator.record(ply, pick.score.white_cp(turn)) {
            return Some(finish(game, result, termination));
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
