//! How a game ended: the result (who won), why it ended, and their PGN forms.

use crate::rules::{Color, DrawReason, Outcome};

/// The result of a game, from White's point of view (the PGN `Result` tag).
///
/// Training records store the result from the side to move's point of view
/// ([`nnue::data::GameResult`], one byte on disk); [`GameResult::for_side`] is the one conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

/// The PGN result of a game that has none (yet): unfinished, aborted.
pub const PGN_UNFINISHED: &str = "*";

impl GameResult {
    /// The PGN form: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The PGN form of a result that may be missing (`*` for none).
    pub fn pgn_or_unfinished(result: Option<GameResult>) -> &'static str {
        result.map_or(PGN_UNFINISHED, GameResult::pgn)
    }

    /// The result of a PGN result text; `None` for `*` and anything else.
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The result of a game that ended by the rules.
    pub fn of_outcome(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Checkmate { winner } | Outcome::GreenGem { winner } => GameResult::win_for(winner),
            Outcome::Draw(_) => GameResult::Draw,
        }
    }

    /// The result from `side`'s point of view, as training records store it.
    pub fn for_side(self, side: Color) -> nnue::data::GameResult {
        match self.winner() {
            None => nnue::data::GameResult::Draw,
            Some(w) if w == side => nnue::data::GameResult::Win,
            Some(_) => nnue::data::GameResult::Loss,
        }
    }
}

/// The values of the PGN `Termination` tag that the engine's games use (the PGN standard's
/// list), for every writer of PGN files: matches, self-play and the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnTermination {
    /// Ended by the rules: mate, stalemate, a draw rule, a resignation.
    Normal,
    /// Ended by an arbiter or a program: adjudication.
    Adjudication,
    /// A player broke the rules (an illegal move).
    RulesInfraction,
    /// A player ran out of time.
    TimeForfeit,
    /// A player left the game.
    Abandoned,
    /// The game is not over.
    Unterminated,
}

impl PgnTermination {
    /// The tag value as the PGN standard writes it, e.g. `Normal` or `Time forfeit`.
    pub fn tag(self) -> &'static str {
        match self {
            PgnTermination::Normal => "Normal",
            PgnTermination::Adjudication => "Adjudication",
            PgnTermination::RulesInfraction => "Rules infraction",
            PgnTermination::TimeForfeit => "Time forfeit",
            PgnTermination::Abandoned => "Abandoned",
            PgnTermination::Unterminated => "Unterminated",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: checkmate, stalemate, citadel, 50 moves, repetition, insufficient material.
    Rules(Outcome),
    /// Adjudicated a draw at the ply limit, after this many plies.
    MaxPlies(usize),
    /// Adjudicated a win by the resign rule: the scores agreed that one side is winning.
    Resign,
    /// Adjudicated a draw by the draw rule: the scores stayed near 0.
    DrawScore,
    /// A player returned a null or illegal move (or could not take the position, or answered
    /// with something that is not a move) and lost.
    IllegalMove {
        /// The offender's colour.
        by: Color,
        /// The move in UCI (`0000` for the null move), or why the position was refused.
        text: String,
    },
    /// A player's clock ran out (beyond the margin) and it lost.
    TimeForfeit {
        /// The side whose time ran out.
        by: Color,
    },
    /// A player's program failed: it exited, closed its output or stopped answering. It lost.
    EngineFailure {
        /// The side whose engine failed.
        by: Color,
        /// What happened, e.g. `exited (exit status: 3)`.
        reason: String,
    },
}

impl Termination {
    /// A short description, e.g. `checkmate` or `adjudicated draw: 400 plies` (the match's
    /// progress lines, summary and PGN comments).
    pub fn description(&self) -> String {
        match self {
            Termination::Rules(o) => o.description().to_string(),
            Termination::MaxPlies(n) => format!("adjudicated draw: {n} plies"),
            Termination::Resign => "adjudicated win: scores agree".to_string(),
            Termination::DrawScore => "adjudicated draw: scores near 0".to_string(),
            Termination::IllegalMove { by, text } => format!("illegal move {text} by {}", by.name()),
            Termination::TimeForfeit { by } => format!("time forfeit by {}", by.name()),
            Termination::EngineFailure { by, reason } => format!("engine failure by {}: {reason}", by.name()),
        }
    }

    /// The longer sentence of self-play's PGN comments, e.g. `adjudicated draw: the scores stayed
    /// near 0`; a ply-limit draw names the limit `max_plies`. Self-play files have used this
    /// wording from the start, matches the shorter [`Termination::description`]: both are kept
    /// so that neither kind of file changes.
    pub fn sentence(&self, max_plies: usize) -> String {
        match self {
            Termination::Resign => "adjudicated win: the scores agree that one side is winning".to_string(),
            Termination::DrawScore => "adjudicated draw: the scores stayed near 0".to_string(),
            Termination::MaxPlies(_) => format!("adjudicated draw: {max_plies} plies"),
            Termination::Rules(_)
            | Termination::IllegalMove { .. }
            | Termination::TimeForfeit { .. }
            | Termination::EngineFailure { .. } => self.description(),
        }
    }

    /// A stable short name for counts in summaries: `checkmate`, `repetition`,
    /// `resign-adjudication`, ...
    pub fn key(&self) -> &'static str {
        match self {
            Termination::Rules(Outcome::Checkmate { .. }) => "checkmate",
            Termination::Rules(Outcome::GreenGem { .. }) => "green-gem",
            Termination::Rules(Outcome::Draw(DrawReason::Stalemate)) => "stalemate",
            Termination::Rules(Outcome::Draw(DrawReason::Citadel)) => "citadel",
            Termination::Rules(Outcome::Draw(DrawReason::FiftyMoves)) => "fifty-moves",
            Termination::Rules(Outcome::Draw(DrawReason::Repetition)) => "repetition",
            Termination::Rules(Outcome::Draw(DrawReason::InsufficientMaterial)) => "insufficient-material",
            Termination::Rules(Outcome::Draw(DrawReason::BareKing)) => "bare-king",
            Termination::Resign => "resign-adjudication",
            Termination::DrawScore => "draw-adjudication",
            Termination::MaxPlies(_) => "max-plies",
            Termination::IllegalMove { .. } => "illegal-move",
            Termination::TimeForfeit { .. } => "time-forfeit",
            Termination::EngineFailure { .. } => "engine-failure",
        }
    }

    /// The PGN `Termination` tag.
    pub fn pgn_termination(&self) -> PgnTermination {
        match self {
            Termination::Rules(_) => PgnTermination::Normal,
            Termination::MaxPlies(_) | Termination::Resign | Termination::DrawScore => PgnTermination::Adjudication,
            Termination::IllegalMove { .. } => PgnTermination::RulesInfraction,
            Termination::TimeForfeit { .. } => PgnTermination::TimeForfeit,
            Termination::EngineFailure { .. } => PgnTermination::Abandoned,
        }
    }

    /// The value of the PGN `Termination` tag.
    pub fn pgn_tag(&self) -> &'static str {
        self.pgn_termination().tag()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_convert() {
        for r in [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw] {
            assert_eq!(GameResult::from_pgn(r.pgn()), Some(r));
        }
        assert_eq!(GameResult::from_pgn("*"), None);
        assert_eq!(GameResult::pgn_or_unfinished(None), "*");
        assert_eq!(
            GameResult::WhiteWins.for_side(Color::White),
            nnue::data::GameResult::Win
        );
        assert_eq!(
            GameResult::WhiteWins.for_side(Color::Black),
            nnue::data::GameResult::Loss
        );
        assert_eq!(
            GameResult::BlackWins.for_side(Color::Black),
            nnue::data::GameResult::Win
        );
        assert_eq!(GameResult::Draw.for_side(Color::Black), nnue::data::GameResult::Draw);
        assert_eq!(
            GameResult::of_outcome(Outcome::Checkmate { winner: Color::Black }),
            GameResult::BlackWins
        );
    }

    #[test]
    fn termination_texts() {
        assert_eq!(Termination::MaxPlies(400).description(), "adjudicated draw: 400 plies");
        assert_eq!(Termination::MaxPlies(401).sentence(400), "adjudicated draw: 400 plies");
        assert_eq!(Termination::Resign.pgn_tag(), "Adjudication");
        assert_eq!(
            Termination::Rules(Outcome::Draw(DrawReason::Citadel)).pgn_tag(),
            "Normal"
        );
        let illegal = Termination::IllegalMove {
            by: Color::White,
            text: "0000".into(),
        };
        assert_eq!(illegal.pgn_tag(), "Rules infraction");
        assert_eq!(illegal.key(), "illegal-move");
        assert_eq!(PgnTermination::TimeForfeit.tag(), "Time forfeit");
        let time = Termination::TimeForfeit { by: Color::Black };
        assert_eq!(time.description(), "time forfeit by black");
        assert_eq!(time.pgn_tag(), "Time forfeit");
        let crash = Termination::EngineFailure {
            by: Color::White,
            reason: "exited (exit status: 3)".into(),
        };
        assert_eq!(crash.description(), "engine failure by white: exited (exit status: 3)");
        assert_eq!(crash.pgn_tag(), "Abandoned");
        assert_eq!(crash.key(), "engine-failure");
        assert_eq!(PgnTermination::Abandoned.tag(), "Abandoned");
        assert_eq!(PgnTermination::Unterminated.tag(), "Unterminated");
    }
}
