//! The PGN of a self-play game: fixed tags (no date, so that a run's files do not depend on when
//! it ran) and a score comment after every move the engine searched.

use std::fmt::Write as _;

use engine::{
    play::{GameResult, Opening, Termination},
    rules::{Color, Move, Position},
    search::Score,
};

use super::game::GameSettings;

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
    /// Per ply: what the search said, `None` for random and book opening moves.
    pub notes: &'a [Option<Searched>],
    /// The opening's last plies that the engine chose (counted in `notes`, not in `OpeningPlies`).
    pub engine_plies: usize,
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

fn write_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// The game in PGN with a score comment after every move the engine searched.
pub(super) fn write_pgn(game: &GameText<'_>, settings: &GameSettings) -> String {
    let GameText {
        opening,
        moves,
        id,
        result,
        termination,
        notes,
        engine_plies,
    } = *game;
    let variant = settings.variant;
    let mut out = String::new();
    write_tag(&mut out, "Event", &settings.event);
    write_tag(&mut out, "Site", "?");
    // No date: the files of a run must not depend on when it ran.
    write_tag(&mut out, "Date", "????.??.??");
    write_tag(&mut out, "Round", &id.to_string());
    write_tag(&mut out, "White", &settings.player);
    write_tag(&mut out, "Black", &settings.player);
    write_tag(&mut out, "Result", result.pgn());
    write_tag(&mut out, "Variant", variant.spec().pgn_name);
    let rules = opening.start.tables();
    if !rules.rule_settings.is_empty() {
        write_tag(&mut out, "VariantRules", &rules.rule_settings);
    }
    if opening.start.fen() != Position::startpos(variant).fen() {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", &opening.start.fen());
    }
    write_tag(&mut out, "PlyCount", &moves.len().to_string());
    write_tag(&mut out, "Termination", termination.pgn_tag());
    write_tag(&mut out, "GameId", &id.to_string());
    write_tag(&mut out, "Opening", &opening.label);
    // Statistics leave out the random or book plies (`OpeningPlies`); the engine's own choices
    // (`EnginePlies`, after them) count, with their scores.
    write_tag(
        &mut out,
        "OpeningPlies",
        &(opening.moves.len() - engine_plies.min(opening.moves.len())).to_string(),
    );
    if engine_plies > 0 {
        write_tag(&mut out, "EnginePlies", &engine_plies.to_string());
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::with_capacity(moves.len() * 2 + 4);
    let mut pos = opening.start.clone();
    for (i, &m) in moves.iter().enumerate() {
        let number = pos.fullmove_number();
        let san = pos.san(m);
        if pos.turn() == Color::White {
            tokens.push(format!("{number}. {san}"));
        } else if i == 0 || notes.get(i.wrapping_sub(1)).is_some_and(|n| n.is_some()) {
            // After a comment the reader needs the move number again.
            tokens.push(format!("{number}... {san}"));
        } else {
            tokens.push(san);
        }
        if let Some(Some(s)) = notes.get(i) {
            tokens.push(format!("{{{}}}", score_comment(s.score, s.depth)));
        }
        pos.play_unchecked(m);
    }
    let comment = termination.sentence(settings.adjudication.max_plies);
    for (i, w) in comment.split_whitespace().enumerate() {
        let mut t = String::new();
        if i == 0 {
            t.push('{');
        }
        t.push_str(w);
        tokens.push(t);
    }
    if let Some(last) = tokens.last_mut() {
        if !comment.is_empty() {
            last.push('}');
        }
    }
    tokens.push(result.pgn().to_string());
    out.push_str(&engine::rules::notation::pgn::wrap_movetext(&tokens));
    out
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
