//! Openings of self-play games: random legal plies from the start position or lines from an
//! opening file (optionally extended by random plies), every one ending in a position no other
//! game of the run starts from, and none that a quick search already judges lost.
//!
//! The opening of game `i` of a run depends only on the seed, the settings and `i`: openings are
//! drawn in game order from one random stream, each new one checked against all earlier ones.
//! That makes a run reproducible and lets a resumed run continue exactly as an uninterrupted one.

use std::{collections::HashSet, path::Path};

use anyhow::{bail, Context, Result};
use engine::{
    engine::{Engine, EvalSource},
    play::openings::{seeded_rng, Rng},
    rules::{game::Game, Move, Position, Variant},
    search::{Limits, Score},
};

/// An opening: where the game starts and the moves played before the engine takes over.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The start position of the game.
    pub start: Position,
    /// Moves from `start`, each legal.
    pub moves: Vec<Move>,
    /// Where it comes from, e.g. `random 8 plies` or `book.txt:12 + 2 random plies`.
    pub label: String,
}

/// One line of an opening file: a position and moves from it.
#[derive(Clone, Debug)]
pub struct BookLine {
    /// The position the line starts from.
    pub start: Position,
    /// The line's moves.
    pub moves: Vec<Move>,
    /// `file:line`.
    pub label: String,
}

/// Where openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Random legal plies from the variant's start position.
    Random,
    /// Lines of an opening file, used in file order and again from the top when a run needs
    /// more games than the file has lines.
    Book(Vec<BookLine>),
}

/// The quick search that rejects openings one side has already lost.
pub struct Check {
    engine: Engine,
    nodes: u64,
    max_score: i32,
}

impl Check {
    /// A check searching `nodes` nodes with the evaluation `eval`, rejecting openings scored
    /// beyond `max_score` centipawns (or a mate) for either side.
    pub fn new(variant: Variant, eval: &EvalSource, nodes: u64, max_score: i32) -> Result<Check> {
        let mut engine = Engine::new();
        engine.set_variant(variant);
        engine.set_hash(1);
        engine.set_eval(eval.clone())?;
        Ok(Check {
            engine,
            nodes: nodes.max(1),
            max_score,
        })
    }

    /// The score of the position after `moves` from `start` (side to move's view; mates as
    /// +-100,000), from a fresh search so that the answer does not depend on earlier checks.
    fn score(&mut self, start: &Position, moves: &[Move]) -> Result<i32> {
        self.engine.new_game();
        self.engine.set_game(start.clone(), moves)?;
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        Ok(match self.engine.search(limits, &mut |_| {}).score {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000,
            Score::Mate(_) => -100_000,
        })
    }

    fn rejects(&mut self, start: &Position, moves: &[Move]) -> Result<bool> {
        Ok(self.score(start, moves)?.abs() > self.max_score)
    }
}

/// Tries in a row without a new acceptable opening before the generator gives up.
const PATIENCE: u64 = 20_000;

/// Draws the openings of a run in game order (see the module documentation).
pub struct OpeningGenerator {
    variant: Variant,
    source: OpeningSource,
    random_plies: usize,
    rng: Rng,
    used: HashSet<u64>,
    check: Option<Check>,
    book_cursor: usize,
    /// Index of the next opening to draw.
    next: u64,
    /// Openings rejected so far: already used, ended the game, judged lost.
    pub rejected_duplicate: u64,
    /// See `rejected_duplicate`.
    pub rejected_ended: u64,
    /// See `rejected_duplicate`.
    pub rejected_lost: u64,
}

impl OpeningGenerator {
    /// A generator; `check` rejects lost openings when given.
    pub fn new(variant: Variant, source: OpeningSource, random_plies: usize, seed: u64, check: Option<Check>) -> Self {
        OpeningGenerator {
            variant,
            source,
            random_plies,
            rng: seeded_rng(seed),
            used: HashSet::new(),
            check,
            book_cursor: 0,
            next: 0,
            rejected_duplicate: 0,
            rejected_ended: 0,
            rejected_lost: 0,
        }
    }

    /// Index of the next opening [`OpeningGenerator::next_opening`] returns.
    pub fn position(&self) -> u64 {
        self.next
    }

    /// The next opening of the run.
    pub fn next_opening(&mut self) -> Result<Opening> {
        let mut failures = 0u64;
        let start_pos = Position::startpos(self.variant);
        loop {
            let (start, mut moves, label) = match &self.source {
                OpeningSource::Random => (
                    start_pos.clone(),
                    Vec::new(),
                    format!("random {} plies", self.random_plies),
                ),
                OpeningSource::Book(lines) => {
                    let line = &lines[self.book_cursor % lines.len()];
                    self.book_cursor += 1;
                    let label = if self.random_plies > 0 {
                        format!("{} + {} random plies", line.label, self.random_plies)
                    } else {
                        line.label.clone()
                    };
                    (line.start.clone(), line.moves.clone(), label)
                }
            };
            let book_only = matches!(self.source, OpeningSource::Book(_)) && self.random_plies == 0;
            let fail = |me: &mut Self, failures: &mut u64| -> Result<()> {
                *failures += 1;
                let limit = match &me.source {
                    OpeningSource::Book(lines) if book_only => lines.len() as u64,
                    _ => PATIENCE,
                };
                if *failures >= limit {
                    bail!(
                        "no new opening found for game {} after {} tries ({} already used, {} ended the game, {} judged \
                         lost): the run needs more distinct openings than {} gives; {}",
                        me.next,
                        failures,
                        me.rejected_duplicate,
                        me.rejected_ended,
                        me.rejected_lost,
                        match &me.source {
                            OpeningSource::Random => format!("{} random plies", me.random_plies),
                            OpeningSource::Book(_) => "the opening file".to_string(),
                        },
                        if book_only {
                            "add random plies after each line with --random-plies, or use a larger file"
                        } else {
                            "use more --random-plies, a larger opening file or a higher --opening-max-score"
                        }
                    );
                }
                Ok(())
            };
            if !self.extend(&start, &mut moves) {
                self.rejected_ended += 1;
                fail(self, &mut failures)?;
                continue;
            }
            let mut end = start.clone();
            moves.iter().for_each(|&m| end.play_unchecked(m));
            if !self.used.insert(end.hash()) {
                self.rejected_duplicate += 1;
                fail(self, &mut failures)?;
                continue;
            }
            if let Some(check) = &mut self.check {
                if check.rejects(&start, &moves)? {
                    self.rejected_lost += 1;
                    fail(self, &mut failures)?;
                    continue;
                }
            }
            self.next += 1;
            return Ok(Opening { start, moves, label });
        }
    }

    /// Adds the random plies to `moves` (played from `start`); false when a position on the way
    /// ends the game.
    fn extend(&mut self, start: &Position, moves: &mut Vec<Move>) -> bool {
        let mut game = Game::new(start.clone());
        for &m in moves.iter() {
            game.play(m);
        }
        for _ in 0..self.random_plies {
            let legal = game.position().legal_moves();
            if legal.is_empty() {
                return false;
            }
            let m = legal.as_slice()[self.rng.below(legal.len())];
            game.play(m);
            if game.outcome().is_some() {
                return false;
            }
            moves.push(m);
        }
        game.outcome().is_none()
    }
}

/// Reads an opening file: one line per opening, `#` starts a comment. A line is a FEN, a FEN
/// followed by `moves` and UCI moves, or UCI moves from the start position (optionally after
/// `startpos` or `startpos moves`). No position on a line may end the game.
pub fn read_book(variant: Variant, path: &Path) -> Result<Vec<BookLine>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read opening file {name}"))?;
    parse_book(variant, &text, &name)
}

/// See [`read_book`]; `name` is used in labels and messages.
pub fn parse_book(variant: Variant, text: &str, name: &str) -> Result<Vec<BookLine>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let label = format!("{name}:{}", i + 1);
        let parsed = parse_book_line(variant, line).with_context(|| format!("{label}: '{line}'"))?;
        out.push(BookLine {
            start: parsed.0,
            moves: parsed.1,
            label,
        });
    }
    if out.is_empty() {
        bail!(
            "{name}: no openings (one per line: a FEN, a FEN followed by 'moves' and UCI moves, or UCI moves from \
             the start position; '#' starts a comment)"
        );
    }
    Ok(out)
}

fn parse_book_line(variant: Variant, line: &str) -> Result<(Position, Vec<Move>)> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (start, move_tokens) = if line.contains('/') {
        let split = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
        let fen = tokens[..split].join(" ");
        let pos = Position::from_fen(variant, &fen)?;
        (pos, tokens.get(split + 1..).unwrap_or(&[]).to_vec())
    } else {
        let mut rest = &tokens[..];
        if rest.first() == Some(&"startpos") {
            rest = &rest[1..];
        }
        if rest.first() == Some(&"moves") {
            rest = &rest[1..];
        }
        (Position::startpos(variant), rest.to_vec())
    };
    let mut game = Game::new(start.clone());
    let mut moves = Vec::with_capacity(move_tokens.len());
    if let Some(o) = game.outcome() {
        bail!("the game is already over ({})", o.description());
    }
    for (i, t) in move_tokens.iter().enumerate() {
        let m = game
            .position()
            .parse_uci(t)
            .with_context(|| format!("move {} '{t}'", i + 1))?;
        game.play(m);
        moves.push(m);
        if let Some(o) = game.outcome() {
            bail!("the game is over after move {} '{t}' ({})", i + 1, o.description());
        }
    }
    Ok((start, moves))
}

/// How many lines of `lines` end in different positions.
pub fn distinct_ends(lines: &[BookLine]) -> usize {
    lines
        .iter()
        .map(|l| {
            let mut p = l.start.clone();
            l.moves.iter().for_each(|&m| p.play_unchecked(m));
            p.hash()
        })
        .collect::<HashSet<u64>>()
        .len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_lines_of_every_form() {
        let v = Variant::PersianPrincess;
        let start = Position::startpos(v);
        let m = start.legal_moves().as_slice()[0];
        let uci = start.uci(m);
        let text = format!(
            "# comment\n{fen}\n{fen} moves {uci}\n{uci}\nstartpos moves {uci}\n\n",
            fen = start.fen()
        );
        let lines = parse_book(v, &text, "b.txt").expect("valid");
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].label, "b.txt:2");
        assert!(lines[0].moves.is_empty());
        assert_eq!(lines[1].moves, vec![m]);
        assert_eq!(lines[2].moves, vec![m]);
        assert_eq!(lines[3].moves, vec![m]);
        assert_eq!(distinct_ends(&lines), 2);
        let err = parse_book(v, "zz99\n", "b.txt").expect_err("bad move");
        assert!(format!("{err:#}").contains("b.txt:1"), "{err:#}");
        assert!(parse_book(v, "# nothing\n", "e.txt").is_err());
    }

    #[test]
    fn random_openings_are_unique_and_reproducible() {
        let v = Variant::PersianPrincess;
        let draw = |seed| {
            let mut g = OpeningGenerator::new(v, OpeningSource::Random, 4, seed, None);
            (0..50).map(|_| g.next_opening().expect("opening")).collect::<Vec<_>>()
        };
        let a = draw(7);
        let ends: HashSet<u64> = a
            .iter()
            .map(|o| {
                let mut p = o.start.clone();
                o.moves.iter().for_each(|&m| p.play_unchecked(m));
                p.hash()
            })
            .collect();
        assert_eq!(ends.len(), 50);
        let b = draw(7);
        assert!(a.iter().zip(&b).all(|(x, y)| x.moves == y.moves));
        let c = draw(8);
        assert!(a.iter().zip(&c).any(|(x, y)| x.moves != y.moves));
    }

    #[test]
    fn a_small_book_runs_out() {
        let v = Variant::PersianPrincess;
        let start = Position::startpos(v);
        let lines = parse_book(v, &format!("{}\n", start.fen()), "one.txt").expect("valid");
        let mut g = OpeningGenerator::new(v, OpeningSource::Book(lines), 0, 1, None);
        assert!(g.next_opening().is_ok());
        let err = g.next_opening().expect_err("exhausted");
        assert!(err.to_string().contains("--random-plies"), "{err}");
    }
}
