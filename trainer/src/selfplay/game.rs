//! One self-play game: the engine plays both sides from an opening, the game ends by the rules
//! or by adjudication, and the positions the engine searched become training records.

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};
use engine::{
    engine::Engine,
    eval::nnue::training_position,
    rules::{game::Game, Color, DrawReason, Move, Outcome, Position, Variant},
    search::{Limits, Score},
};
use nnue::{
    data::{GameResult, Record},
    Layout,
};

use super::opening::Opening;

/// Who won, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// 1-0.
    White,
    /// 1/2-1/2.
    Draw,
    /// 0-1.
    Black,
}

impl Winner {
    /// The PGN result.
    pub fn pgn(self) -> &'static str {
        match self {
            Winner::White => "1-0",
            Winner::Draw => "1/2-1/2",
            Winner::Black => "0-1",
        }
    }

    fn win_for(color: Color) -> Winner {
        if color == Color::White {
            Winner::White
        } else {
            Winner::Black
        }
    }

    /// The result from `side`'s point of view.
    pub fn for_side(self, side: Color) -> GameResult {
        match (self, side) {
            (Winner::Draw, _) => GameResult::Draw,
            (Winner::White, Color::White) | (Winner::Black, Color::Black) => GameResult::Win,
            _ => GameResult::Loss,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (checkmate, stalemate, citadel, 50 moves, repetition, dead material).
    Rules(Outcome),
    /// Resign adjudication: the scores agreed that one side is winning.
    Resign,
    /// Draw adjudication: the scores stayed near zero.
    DrawScore,
    /// The ply limit.
    MaxPlies,
}

impl Termination {
    /// A stable short name for summaries: `checkmate`, `repetition`, `resign-adjudication`, ...
    pub fn key(self) -> &'static str {
        match self {
            Termination::Rules(Outcome::Checkmate { .. }) => "checkmate",
            Termination::Rules(Outcome::Draw(DrawReason::Stalemate)) => "stalemate",
            Termination::Rules(Outcome::Draw(DrawReason::Citadel)) => "citadel",
            Termination::Rules(Outcome::Draw(DrawReason::FiftyMoves)) => "fifty-moves",
            Termination::Rules(Outcome::Draw(DrawReason::Repetition)) => "repetition",
            Termination::Rules(Outcome::Draw(DrawReason::InsufficientMaterial)) => "insufficient-material",
            Termination::Resign => "resign-adjudication",
            Termination::DrawScore => "draw-adjudication",
            Termination::MaxPlies => "max-plies",
        }
    }

    /// A sentence for the PGN's final comment.
    pub fn description(self, max_plies: usize) -> String {
        match self {
            Termination::Rules(o) => o.description().to_string(),
            Termination::Resign => "adjudicated win: the scores agree that one side is winning".to_string(),
            Termination::DrawScore => "adjudicated draw: the scores stayed near 0".to_string(),
            Termination::MaxPlies => format!("adjudicated draw: {max_plies} plies"),
        }
    }
}

/// When a game is ended before the rules end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: |score| at least this (centipawns) ...
    pub resign_score: i32,
    /// ... for this many consecutive plies, all for the same side (0: no resign adjudication).
    pub resign_plies: usize,
    /// Draw: |score| at most this ...
    pub draw_score: i32,
    /// ... for this many consecutive plies (0: no draw adjudication) ...
    pub draw_plies: usize,
    /// ... counting only plies from this one on.
    pub draw_after: usize,
    /// A game reaching this many plies (opening included) is a draw.
    pub max_plies: usize,
}

/// Applies the resign and draw rules to the scores of successive plies.
struct Adjudicator {
    rules: Adjudication,
    white_ahead: usize,
    black_ahead: usize,
    near_zero: usize,
}

impl Adjudicator {
    fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            white_ahead: 0,
            black_ahead: 0,
            near_zero: 0,
        }
    }

    /// The score (White's view, mates beyond every threshold) of the search at `ply`.
    fn record(&mut self, ply: usize, white_cp: i32) -> Option<(Winner, Termination)> {
        let r = self.rules;
        if r.resign_plies > 0 {
            if white_cp >= r.resign_score {
                self.white_ahead += 1;
                self.black_ahead = 0;
            } else if white_cp <= -r.resign_score {
                self.black_ahead += 1;
                self.white_ahead = 0;
            } else {
                self.white_ahead = 0;
                self.black_ahead = 0;
            }
            if self.white_ahead >= r.resign_plies {
                return Some((Winner::White, Termination::Resign));
            }
            if self.black_ahead >= r.resign_plies {
                return Some((Winner::Black, Termination::Resign));
            }
        }
        if r.draw_plies > 0 {
            if ply >= r.draw_after && white_cp.abs() <= r.draw_score {
                self.near_zero += 1;
            } else {
                self.near_zero = 0;
            }
            if self.near_zero >= r.draw_plies {
                return Some((Winner::Draw, Termination::DrawScore));
            }
        }
        None
    }
}

/// Everything a game needs besides the engine and the opening.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The variant.
    pub variant: Variant,
    /// Search limits per move.
    pub limits: Limits,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Positions before this ply (from the game's start) are not written.
    pub min_ply: usize,
    /// The variant's NNUE layout (for encoding records).
    pub layout: Layout,
    /// The `White` and `Black` PGN tags.
    pub player: String,
    /// The PGN `Event` tag.
    pub event: String,
}

/// Why searched positions were not written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    /// The side to move was in check.
    pub in_check: u64,
    /// The best move was a capture, a promotion or en passant.
    pub noisy: u64,
    /// The score was a mate score.
    pub mate: u64,
    /// Before the minimum ply.
    pub early: u64,
}

impl Skipped {
    /// Adds `other`.
    pub fn add(&mut self, other: &Skipped) {
        self.in_check += other.in_check;
        self.noisy += other.noisy;
        self.mate += other.mate;
        self.early += other.early;
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Its id (in every record and the PGN's `Round` tag).
    pub id: u32,
    /// The training records, in game order.
    pub records: Vec<Record>,
    /// The game in PGN.
    pub pgn: String,
    /// The result.
    pub winner: Winner,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played, opening included.
    pub plies: usize,
    /// Positions the engine searched.
    pub searched: u64,
    /// Searched positions not written, by reason.
    pub skipped: Skipped,
}

/// What the search said about one position of the game.
struct Searched {
    score: Score,
    depth: u32,
}

/// Plays game `id` from `opening` with `engine` on both sides.
pub fn play(engine: &mut Engine, opening: &Opening, id: u32, settings: &GameSettings) -> Result<PlayedGame> {
    if engine.variant() != settings.variant {
        engine.set_variant(settings.variant);
    }
    engine.new_game();
    let mut game = Game::new(opening.start.clone());
    // The engine gets the position after the last capture or pawn move and the moves since:
    // earlier positions cannot repeat, so the engine sees the same repetition history as with
    // the whole game, at a fraction of the cost of replaying it at every move.
    let mut base = opening.start.clone();
    let mut since: Vec<Move> = Vec::new();
    let mut notes: Vec<Option<Searched>> = Vec::new();
    let mut pending: Vec<nnue::data::TrainingPosition> = Vec::new();
    let mut skipped = Skipped::default();
    let mut searched = 0u64;
    let play_move = |game: &mut Game, base: &mut Position, since: &mut Vec<Move>, m| {
        since.push(m);
        game.play(m);
        if game.position().halfmove_clock() == 0 {
            *base = game.position().clone();
            since.clear();
        }
    };
    for &m in &opening.moves {
        play_move(&mut game, &mut base, &mut since, m);
        notes.push(None);
    }
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let (winner, termination) = loop {
        if let Some(o) = game.outcome() {
            let winner = match o {
                Outcome::Checkmate { winner } => Winner::win_for(winner),
                Outcome::Draw(_) => Winner::Draw,
            };
            break (winner, Termination::Rules(o));
        }
        let ply = game.moves().len();
        if ply >= settings.adjudication.max_plies {
            break (Winner::Draw, Termination::MaxPlies);
        }
        engine
            .set_game(base.clone(), &since)
            .with_context(|| format!("game {id}: the engine refused the game position"))?;
        let result = engine.search(settings.limits.clone(), &mut |_| {});
        let pos: &Position = game.position();
        let best = result.best;
        if best.is_null() || !pos.legal_moves().contains(best) {
            bail!(
                "game {id}: the engine returned the illegal move {best:?} in {}",
                pos.fen()
            );
        }
        searched += 1;
        let turn = pos.turn();
        let mut tp = training_position(pos, None, GameResult::Draw, best, ply.min(u16::MAX as usize) as u16, id);
        if tp.in_check {
            skipped.in_check += 1;
        } else if tp.noisy_best_move {
            skipped.noisy += 1;
        } else if matches!(result.score, Score::Mate(_)) {
            skipped.mate += 1;
        } else if ply < settings.min_ply {
            skipped.early += 1;
        } else if let Score::Cp(cp) = result.score {
            tp.score = Some(cp.clamp(-i16::MAX as i32, i16::MAX as i32) as i16);
            pending.push(tp);
        }
        notes.push(Some(Searched {
            score: result.score,
            depth: result.depth,
        }));
        play_move(&mut game, &mut base, &mut since, best);
        if game.outcome().is_some() {
            continue;
        }
        if let Some(end) = adjudicator.record(ply, result.score.white_cp(turn)) {
            break end;
        }
    };
    let mut records = Vec::with_capacity(pending.len());
    for mut tp in pending {
        tp.result = winner.for_side(if tp.stm == nnue::Color::White {
            Color::White
        } else {
            Color::Black
        });
        records.push(Record::encode(&tp, &settings.layout).with_context(|| format!("game {id}: encoding a record"))?);
    }
    let pgn = write_pgn(&game, opening, id, winner, termination, &notes, settings);
    Ok(PlayedGame {
        id,
        records,
        pgn,
        winner,
        termination,
        plies: game.moves().len(),
        searched,
        skipped,
    })
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
fn write_pgn(
    game: &Game,
    opening: &Opening,
    id: u32,
    winner: Winner,
    termination: Termination,
    notes: &[Option<Searched>],
    settings: &GameSettings,
) -> String {
    let variant = settings.variant;
    let mut out = String::new();
    write_tag(&mut out, "Event", &settings.event);
    write_tag(&mut out, "Site", "?");
    // No date: the files of a run must not depend on when it ran.
    write_tag(&mut out, "Date", "????.??.??");
    write_tag(&mut out, "Round", &id.to_string());
    write_tag(&mut out, "White", &settings.player);
    write_tag(&mut out, "Black", &settings.player);
    write_tag(&mut out, "Result", winner.pgn());
    write_tag(&mut out, "Variant", variant.id());
    if opening.start != Position::startpos(variant) {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", &opening.start.fen());
    }
    write_tag(&mut out, "PlyCount", &game.moves().len().to_string());
    let tag = match termination {
        Termination::Rules(_) => "normal",
        _ => "adjudication",
    };
    write_tag(&mut out, "Termination", tag);
    write_tag(&mut out, "GameId", &id.to_string());
    write_tag(&mut out, "Opening", &opening.label);
    write_tag(&mut out, "OpeningPlies", &opening.moves.len().to_string());
    out.push('\n');

    let mut tokens: Vec<String> = Vec::with_capacity(game.moves().len() * 2 + 4);
    let mut pos = opening.start.clone();
    for (i, &m) in game.moves().iter().enumerate() {
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
    let comment = termination.description(settings.adjudication.max_plies);
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
    tokens.push(winner.pgn().to_string());
    out.push_str(&engine::rules::notation::pgn::wrap_movetext(&tokens));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Adjudication {
        Adjudication {
            resign_score: 1000,
            resign_plies: 4,
            draw_score: 10,
            draw_plies: 8,
            draw_after: 80,
            max_plies: 400,
        }
    }

    #[test]
    fn resign_needs_consecutive_agreeing_plies() {
        let mut a = Adjudicator::new(rules());
        assert_eq!(a.record(10, 1200), None);
        assert_eq!(a.record(11, 1500), None);
        assert_eq!(a.record(12, 900), None);
        for p in 13..16 {
            assert_eq!(a.record(p, 1000), None);
        }
        assert_eq!(a.record(16, 1000), Some((Winner::White, Termination::Resign)));
        let mut b = Adjudicator::new(rules());
        for p in 0..3 {
            assert_eq!(b.record(p, -99_990), None);
        }
        assert_eq!(b.record(3, -2000), Some((Winner::Black, Termination::Resign)));
    }

    #[test]
    fn draw_counts_from_the_given_ply() {
        let mut a = Adjudicator::new(rules());
        for p in 74..80 {
            assert_eq!(a.record(p, 0), None);
        }
        for p in 80..87 {
            assert_eq!(a.record(p, 5), None);
        }
        assert_eq!(a.record(87, -10), Some((Winner::Draw, Termination::DrawScore)));
        let off = Adjudication {
            resign_plies: 0,
            draw_plies: 0,
            ..rules()
        };
        let mut b = Adjudicator::new(off);
        for p in 0..200 {
            assert_eq!(b.record(p, if p < 100 { 0 } else { 5000 }), None);
        }
    }

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
