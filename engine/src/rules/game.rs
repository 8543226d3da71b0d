//! A game: a position with the history needed for threefold repetition.

use super::{
    moves::{Move, MoveList},
    position::{DrawReason, Outcome, Position},
};

/// A position and the hashes of the positions before it since the start of the game.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    history: Vec<u64>,
    moves: Vec<Move>,
    start: Position,
    /// Whether the last move left the other side royal where it had no royal piece before
    /// (it took one of Citadel's two High Princes): a mate by that move is the Green Gem.
    last_made_royal: bool,
}

impl Game {
    /// A game starting at `position`.
    pub fn new(position: Position) -> Game {
        Game {
            start: position.clone(),
            position,
            history: Vec::new(),
            moves: Vec::new(),
            last_made_royal: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of the earlier positions, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a legal move of the current position.
    pub fn play(&mut self, m: Move) {
        self.history.push(self.position.hash());
        let them = !self.position.turn();
        let royal_by_rule = self.position.tables().rules.royalty_rule.is_some();
        let had_royal = royal_by_rule && self.position.royals(them).any();
        self.position.play_unchecked(m);
        self.last_made_royal = royal_by_rule && !had_royal && self.position.royals(them).any();
        self.moves.push(m);
    }

    /// How often the current position has occurred (1 = first time). Only positions since the
    /// last capture or pawn move can repeat it.
    pub fn repetitions(&self) -> usize {
        let h = self.position.hash();
        let window = self.position.halfmove_clock() as usize;
        1 + self.history.iter().rev().take(window).filter(|&&x| x == h).count()
    }

    /// The legal moves of the current position, with the legality filters of the rules that
    /// look at the game's history (see [`Position::legal_moves_with_history`]).
    pub fn legal_moves(&self) -> MoveList {
        self.position.legal_moves_with_history(&self.history)
    }

    /// Whether `m` is a legal move of the game here: legal in the current position and not
    /// forbidden by the legality filters that look at the game's history (see
    /// [`Position::is_legal_move_with_history`]).
    pub fn is_legal(&self, m: Move) -> bool {
        self.position.is_legal_move_with_history(m, &self.history)
    }

    /// The outcome if the game is over: the position's own outcome, or threefold repetition.
    /// In variants whose rules filter moves by the game's history, "no legal move" is judged
    /// with the history. A mate by a move that took one of two High Princes is the Green Gem.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.outcome_of_position() {
            Some(Outcome::Checkmate { winner }) if self.last_made_royal => Some(Outcome::GreenGem { winner }),
            other => other,
        }
    }

    fn outcome_of_position(&self) -> Option<Outcome> {
        if !self.position.tables().rules.custom_filter_rules.is_empty()
            && self.position.immediate_outcome().is_none()
            && self.legal_moves().is_empty()
        {
            return Some(if self.position.in_check() {
                Outcome::Checkmate {
                    winner: !self.position.turn(),
                }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        self.position
            .outcome()
            .or_else(|| (self.repetitions() >= 3).then_some(Outcome::Draw(DrawReason::Repetition)))
    }
}
