//! Openings of self-play games: random legal plies from the start position or lines from an
//! opening file (optionally extended by random plies), every one ending in a position no other
//! game of the run starts from, and none that a quick search already judges lost. The opening
//! type, its sources, the file reader and the random plies are the game layer's
//! ([`engine::play::openings`]); this module adds self-play's uniqueness and quick-search checks.
//!
//! The opening of game `i` of a run depends only on the seed, the settings and `i`: openings are
//! drawn in game order from one random stream, each new one checked against all earlier ones.
//! That makes a run reproducible and lets a resumed run continue exactly as an uninterrupted one.

use std::collections::{HashMap, HashSet};

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

/// How the engine picks the plies that follow the random ones (`--engine-plies`): a MultiPV
/// search of a fixed number of nodes, then one of the lines within `max_loss` centipawns of the
/// best, drawn with weights `exp((score - best) / temperature)` (temperature 0: the best).
/// Each search starts from a fresh engine, so a pick depends only on the position and the
/// random stream.
pub struct Sampler {
    engine: Engine,
    plies: usize,
    nodes: u64,
    temperature: f64,
    max_loss: i32,
    /// The lines of each search already made, by start position and moves: a search depends
    /// only on them, and the first plies of thousands of openings are the same few positions.
    seen: HashMap<(u64, Vec<Move>), Option<Lines>>,
}

/// The lines of a search's deepest completed iteration: depth, first move, score; best first.
type Lines = Vec<(u32, Move, Score)>;

/// Searches kept by a [`Sampler`] at most (about 200 bytes each: some 50 MB).
const MAX_KEPT_SEARCHES: usize = 1 << 18;

/// Settings of a [`Sampler`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerSettings {
    /// Engine-chosen plies per opening.
    pub plies: usize,
    /// Nodes of each MultiPV search.
    pub nodes: u64,
    /// Lines of each search.
    pub multipv: usize,
    /// Softmax temperature in centipawns.
    pub temperature: f64,
    /// Lines scored more than this below the best are never picked.
    pub max_loss: i32,
}

/// One engine-chosen ply: the score of the line picked (mover's view) and the search depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampledPly {
    /// The picked line's score.
    pub score: Score,
    /// The completed depth of the search.
    pub depth: u32,
}

/// An opening of the run with, for its last plies that the engine chose, what it said.
#[derive(Clone, Debug)]
pub struct DrawnOpening {
    /// The opening (random or book plies, then the engine's).
    pub opening: Opening,
    /// One entry per engine-chosen ply, the last `sampled.len()` moves of the opening.
    pub sampled: Vec<SampledPly>,
}

fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

impl Sampler {
    /// A sampler searching with the evaluation `eval`.
    pub fn new(variant: Variant, eval: &EvalSource, settings: SamplerSettings) -> Result<Sampler> {
        let mut engine = Engine::new();
        engine.set_variant(variant);
        engine.set_hash(4);
        engine.set_eval(eval.clone())?;
        engine.set_multipv(settings.multipv.max(1));
        Ok(Sampler {
            engine,
            plies: settings.plies,
            nodes: settings.nodes.max(1),
            temperature: settings.temperature.max(0.0),
            max_loss: settings.max_loss.max(0),
            seen: HashMap::new(),
        })
    }

    /// The lines of the deepest completed iteration of the search after `moves` from `start`,
    /// best first, or `None` when there is no legal move; a search made before is not repeated.
    fn lines(&mut self, start: &Position, moves: &[Move]) -> Result<Option<Lines>> {
        let key = (start.hash(), moves.to_vec());
        if let Some(lines) = self.seen.get(&key) {
            return Ok(lines.clone());
        }
        self.engine.new_game();
        self.engine.set_game(start.clone(), moves)?;
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let mut lines: Lines = Vec::new();
        let result = self.engine.search(limits, &mut |info| {
            let Some(&first) = info.pv.first() else { return };
            if lines.first().is_some_and(|&(d, _, _)| d != info.depth) {
                lines.clear();
            }
            lines.push((info.depth, first, info.score));
        });
        let found = if result.best.is_null() {
            None
        } else {
            if lines.is_empty() {
                lines.push((result.depth, result.best, result.score));
            }
            Some(lines)
        };
        if self.seen.len() < MAX_KEPT_SEARCHES {
            self.seen.insert(key, found.clone());
        }
        Ok(found)
    }

    /// The engine's pick after `moves` from `start`, or `None` when there is no legal move.
    fn pick(&mut self, start: &Position, moves: &[Move], rng: &mut Rng) -> Result<Option<(Move, SampledPly)>> {
        let Some(lines) = self.lines(start, moves)? else {
            return Ok(None);
        };
        let best = lines.iter().map(|&(_, _, s)| centipawns(s)).max().unwrap_or(0);
        let candidates: Vec<(Move, Score, f64)> = lines
            .iter()
            .filter(|&&(_, _, s)| best - centipawns(s) <= self.max_loss)
            .map(|&(_, m, s)| {
                let weight = if self.temperature > 0.0 {
                    (f64::from(centipawns(s) - best) / self.temperature).exp()
                } else if centipawns(s) == best {
                    1.0
                } else {
                    0.0
                };
                (m, s, weight)
            })
            .collect();
        let total: f64 = candidates.iter().map(|c| c.2).sum();
        let mut u = rng.next_f64() * total;
        let mut chosen = candidates[0];
        for &c in &candidates {
            if u < c.2 {
                chosen = c;
                break;
            }
            u -= c.2;
        }
        Ok(Some((
            chosen.0,
            SampledPly {
                score: chosen.1,
                depth: lines[0].0,
            },
        )))
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
    sampler: Option<Sampler>,
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
            sampler: None,
            book_cursor: 0,
            next: 0,
            rejected_duplicate: 0,
            rejected_ended: 0,
            rejected_lost: 0,
        }
    }

    /// Lets the engine choose plies after the random ones (see [`Sampler`]).
    pub fn with_sampler(mut self, sampler: Option<Sampler>) -> Self {
        self.sampler = sampler.filter(|s| s.plies > 0);
        self
    }

    /// Index of the next opening [`OpeningGenerator::next_opening`] returns.
    pub fn position(&self) -> u64 {
        self.next
    }

    /// The next opening of the run.
    pub fn next_opening(&mut self) -> Result<DrawnOpening> {
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
            let Some(mut moves) = extend_randomly(&start, &moves, random_plies, &mut self.rng) else {
                self.rejected_ended += 1;
                fail(self, &mut failures)?;
                continue;
            };
            let mut end = start.clone();
            moves.iter().for_each(|&m| end.play_unchecked(m));
            let mut sampled = Vec::new();
            if let Some(sampler) = &mut self.sampler {
                let mut ended = false;
                for _ in 0..sampler.plies {
                    match sampler.pick(&start, &moves, &mut self.rng)? {
                        Some((m, ply)) if end.immediate_outcome().is_none() => {
                            end.play_unchecked(m);
                            moves.push(m);
                            sampled.push(ply);
                        }
                        _ => {
                            ended = true;
                            break;
                        }
                    }
                }
                if ended || end.immediate_outcome().is_some() || !end.has_legal_move() {
                    self.rejected_ended += 1;
                    fail(self, &mut failures)?;
                    continue;
                }
            }
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
            let label = if sampled.is_empty() {
                label
            } else {
                format!("{label} + {} engine plies", sampled.len())
            };
            return Ok(DrawnOpening {
                opening: Opening { start, moves, label },
                sampled,
            });
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
            (0..50)
                .map(|_| g.next_opening().expect("opening").opening)
                .collect::<Vec<_>>()
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
