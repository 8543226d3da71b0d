//! The PGN of a self-play game, written by the engine's PGN writer: fixed tags (no date, so that
//! a run's files do not depend on when it ran) and a score comment after every move the engine
//! searched.

use engine::{
    play::{GameResult, Opening, Termination},
    rules::{notation::pgn::PgnGame, Move},
    search::Score,
};

/// What the search said about one position of the game.
#[derive(Clone, Copy, Debug)]
pub(super) struct Searched {
    /// The score, from the mover's view.
    pub score: Score,
    /// The completed depth.
    pub depth: u32,
}

/// A finished game as its PGN needs it.
#[derive(Clone, Copy)]
pub(super) struct GameText<'a> {
    /// The opening.
    pub opening: &'a Opening,
    /// All moves from the opening's start, opening moves included.
    pub moves: &'a [Move],
    /// The game id (`Round` and `GameId`).
    pub id: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: &'a Termination,
    /// The sentence after the last move that says why it ended.
    pub ending: &'a str,
    /// Per ply: what the search said, `None` for random and book opening moves.
    pub notes: &'a [Option<Searched>],
    /// The opening's last plies that the engine chose (counted in `notes`, not in `OpeningPlies`).
    pub engine_plies: usize,
    /// The `Event` tag.
    pub event: &'a str,
    /// The `White` and `Black` tags.
    pub player: &'a str,
}

/// The score comment of a move: pawns from the mover's view and the depth, e.g. `+0.35/9`,
/// `-1.20/7`, `+M3/12` (mates in moves).
pub fn score_comment(score: Score, depth: u32) -> String {
    match score {
        Score::Cp(c) => format!(
            "{}{}.{:02}/{depth}",
            if c < 0 { "-" } else { "+" },
            c.abs() / 100,
            c.abs() % 100
        ),
        Score::Mate(m) => format!("{}M{}/{depth}", if m < 0 { "-" } else { "+" }, m.abs()),
    }
}

/// The game in PGN (the engine's PGN writer) with a score comment after every move the engine
/// searched. No date: the files of a run must not depend on when it ran.
pub(super) fn write_pgn(game: &GameText<'_>) -> String {
    let GameText {
        opening,
        moves,
        id,
        result,
        termination,
        ending,
        notes,
        engine_plies,
        event,
        player,
    } = *game;
    let mut pgn = PgnGame::new(opening.start.clone());
    pgn.moves = moves.to_vec();
    pgn.result = result.pgn().to_string();
    pgn.set_tag("Event", event);
    pgn.set_tag("Round", id.to_string());
    pgn.set_tag("White", player);
    pgn.set_tag("Black", player);
    pgn.set_tag("Termination", termination.pgn_tag());
    pgn.set_tag("GameId", id.to_string());
    pgn.set_tag("Opening", opening.label.as_str());
    // Statistics leave out the random or book plies (`OpeningPlies`); the engine's own choices
    // (`EnginePlies`, after them) count, with their scores.
    pgn.set_tag(
        "OpeningPlies",
        (opening.moves.len() - engine_plies.min(opening.moves.len())).to_string(),
    );
    if engine_plies > 0 {
        pgn.set_tag("EnginePlies", engine_plies.to_string());
    }
    pgn.move_comments = notes
        .iter()
        .map(|n| n.map_or_else(String::new, |s| score_comment(s.score, s.depth)))
        .collect();
    pgn.final_comment = Some(ending.to_string()).filter(|c| !c.trim().is_empty());
    pgn.to_pgn()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_comments() {
        assert_eq!(score_comment(Score::Cp(35), 9), "+0.35/9");
        assert_eq!(score_comment(Score::Cp(-120), 7), "-1.20/7");
        assert_eq!(score_comment(Score::Cp(-5), 7), "-0.05/7");
        assert_eq!(score_comment(Score::Cp(0), 1), "+0.00/1");
        assert_eq!(score_comment(Score::Mate(3), 12), "+M3/12");
        assert_eq!(score_comment(Score::Mate(-2), 4), "-M2/4");
    }
}
