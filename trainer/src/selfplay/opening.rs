//! Openings of self-play games: random legal plies from the start position or lines from an
//! opening file (optionally extended by random plies), every one ending in a position no other
//! game of the run starts from, and none that a quick search already judges lost. The opening
//! type, its sources, the file reader and the random plies are the game layer's
//! ([`engine::play::openings`]); this module adds self-play's uniqueness and quick-search checks.
//!
//! The opening of game `i` of a run depends only on the seed, the settings and `i`: openings are
//! drawn in game order from one random stream, each new one checked against all earlier ones.
//! That makes a run reproducible and lets a resumed run continue exactly as an uninterrupted one.

use std::collections::HashSet;

use anyhow::{bail, Result};
use engine::{
    engine::{Engine, EvalSource},
    play::{
        openings::{extend_randomly, seeded_rng, Rng},
        Opening, OpeningSource,
    },
    rules::{Move, Position, Variant},
    search::{Limits, Score},
};

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
    /// The start position, under the run's rules.
    start: Position,
    source: OpeningSource,
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
    /// A generator drawing from `source` (its random plies from the source's seed) after
    /// `start`, the variant's start position under the run's rules (a source's own lines keep
    /// their start); `check` rejects lost openings when given.
    pub fn new(start: Position, source: OpeningSource, check: Option<Check>) -> Self {
        OpeningGenerator {
            start,
            rng: seeded_rng(source.seed()),
            source,
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
        let start_pos = self.start.clone();
        let random_plies = self.source.random_plies();
        loop {
            let (start, moves, label) = match self.source.given() {
                None => (start_pos.clone(), Vec::new(), format!("random {random_plies} plies")),
                Some(lines) => {
                    let line = &lines[self.book_cursor % lines.len()];
                    self.book_cursor += 1;
                    let label = if random_plies > 0 {
                        format!("{} + {random_plies} random plies", line.label)
                    } else {
                        line.label.clone()
                    };
                    (line.start.clone(), line.moves.clone(), label)
                }
            };
            let book_only = self.source.given().is_some() && random_plies == 0;
            let fail = |me: &mut Self, failures: &mut u64| -> Result<()> {
                *failures += 1;
                let limit = match me.source.given() {
                    Some(lines) if book_only => lines.len() as u64,
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
                        match me.source.given() {
                            None => format!("{random_plies} random plies"),
                            Some(_) => "the opening file".to_string(),
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
            let Some(moves) = extend_randomly(&start, &moves, random_plies, &mut self.rng) else {
                self.rejected_ended += 1;
                fail(self, &mut failures)?;
                continue;
            };
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
}

#[cfg(test)]
mod tests {
    use engine::play::openings::parse_openings;

    use super::*;

    #[test]
    fn random_openings_are_unique_and_reproducible() {
        let v = Variant::PersianPrincess;
        let draw = |seed| {
            let mut g = OpeningGenerator::new(Position::startpos(v), OpeningSource::Random { plies: 4, seed }, None);
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
        let lines = parse_openings(v, &format!("{}\n", start.fen()), "one.txt").expect("valid");
        let mut g = OpeningGenerator::new(Position::startpos(v), OpeningSource::List(lines), None);
        assert!(g.next_opening().is_ok());
        let err = g.next_opening().expect_err("exhausted");
        assert!(err.to_string().contains("--random-plies"), "{err}");
    }
}
