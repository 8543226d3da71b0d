//! Openings of self-play games: random legal plies from the start position or lines from an
//! opening file (optionally extended by random plies), then plies the engine chooses, none that
//! ends the game or that a quick search already judges lost. The opening type, its sources, the
//! file reader and the random plies are the game layer's ([`engine::play::openings`]); this
//! module adds self-play's engine plies, quick-search check and per-game random streams.
//!
//! The opening of game `i` of a run depends only on the seed, the settings and `i`: it is drawn
//! from a random stream of its own, seeded from the run's seed and `i` ([`game_rng`]), and every
//! retry after a rejected opening comes from that same stream. Drawing game 1,000,000's opening
//! costs what drawing game 0's does, any subset of a run's games can be played apart (shards on
//! other machines, a resumed run) and gives the games of the whole run, byte for byte. Openings
//! are not checked against each other: two games may start from the same position. Each shard
//! records the hash of every opening's position ([`opening_hash`]) and the run counts the
//! repeats (docs/training.md gives the rate of the default settings).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use anyhow::{bail, Result};
use engine::{
    engine::{Engine, EvalSource},
    play::{
        openings::{extend_randomly, Rng},
        Opening, OpeningSource,
    },
    rng::{splitmix64, GOLDEN_GAMMA},
    rules::{Move, Position, Variant},
    search::{Limits, Score},
};

/// The random stream of game `game`'s opening in a run of seed `seed`: SplitMix64 started from a
/// state mixed from both, so that the streams of different games start at unrelated points of
/// the generator's cycle (not one step apart, where game `i`'s retries would be game `i + 1`'s
/// first try).
pub fn game_rng(seed: u64, game: u64) -> Rng {
    let mut s = seed ^ GOLDEN_GAMMA;
    let run_key = splitmix64(&mut s);
    let mut g = run_key ^ game.wrapping_mul(0xD605_BBB5_8C8A_BBB5);
    let state = splitmix64(&mut g);
    Rng::new(state)
}

/// The identity of an opening: the Zobrist hash of its last position (two openings that reach
/// the same position by other moves are the same opening for the games that follow).
pub fn opening_hash(opening: &Opening) -> u64 {
    opening.position().hash()
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

/// How the engine picks the plies that follow the random ones (`--engine-plies`): a MultiPV
/// search of a fixed number of nodes, then one of the lines within `max_loss` centipawns of the
/// best, drawn with weights `exp((score - best) / temperature)` (temperature 0: the best).
/// Each search starts from a fresh engine, so a pick depends only on the position and the
/// random stream; the searches made are kept in a [`SearchCache`] that the samplers of all
/// worker threads share.
pub struct Sampler {
    engine: Engine,
    plies: usize,
    nodes: u64,
    temperature: f64,
    max_loss: i32,
    seen: Arc<SearchCache>,
}

/// The lines of each search already made, by start position and moves: a search depends only
/// on them, and the first plies of thousands of openings are the same few positions. Shared by
/// the samplers of a run (a search is made outside the lock; two threads may make the same one
/// at the same time, with the same result).
#[derive(Default)]
pub struct SearchCache(Mutex<HashMap<SearchKey, Option<Lines>>>);

/// A search of a [`Sampler`]: the start position's hash and the moves played from it.
type SearchKey = (u64, Vec<Move>);

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
    /// Its [`opening_hash`].
    pub hash: u64,
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
    /// A sampler searching with the evaluation `eval`, keeping its searches in `cache`.
    pub fn new(
        variant: Variant,
        eval: &EvalSource,
        settings: SamplerSettings,
        cache: Arc<SearchCache>,
    ) -> Result<Sampler> {
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
            seen: cache,
        })
    }

    /// The lines of the deepest completed iteration of the search after `moves` from `start`,
    /// best first, or `None` when there is no legal move; a search made before is not repeated.
    fn lines(&mut self, start: &Position, moves: &[Move]) -> Result<Option<Lines>> {
        let key = (start.hash(), moves.to_vec());
        if let Some(lines) = self.seen.0.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(lines);
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
        if let Ok(mut seen) = self.seen.0.lock() {
            if seen.len() < MAX_KEPT_SEARCHES {
                seen.insert(key, found.clone());
            }
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

/// Tries of one game before the generator gives up (an opening file without random or engine
/// plies: one try per line).
const PATIENCE: u64 = 20_000;

/// Why tries were rejected, over the openings a generator drew.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rejections {
    /// Openings drawn.
    pub drawn: u64,
    /// Tries that ended the game (or left no legal move).
    pub ended: u64,
    /// Tries the quick search judged lost for one side.
    pub lost: u64,
}

impl Rejections {
    /// Adds another generator's counts.
    pub fn add(&mut self, o: &Rejections) {
        self.drawn += o.drawn;
        self.ended += o.ended;
        self.lost += o.lost;
    }
}

/// Draws the opening of any game of a run (see the module documentation). One per worker
/// thread: the quick search and the sampler hold engines.
pub struct OpeningGenerator {
    /// The start position, under the run's rules.
    start: Position,
    source: OpeningSource,
    check: Option<Check>,
    sampler: Option<Sampler>,
    /// Counts of the openings drawn so far.
    pub rejections: Rejections,
}

impl OpeningGenerator {
    /// A generator drawing from `source` (its random plies from streams of the source's seed)
    /// after `start`, the variant's start position under the run's rules (a source's own lines
    /// keep their start); `check` rejects lost openings when given.
    pub fn new(start: Position, source: OpeningSource, check: Option<Check>) -> Self {
        OpeningGenerator {
            start,
            source,
            check,
            sampler: None,
            rejections: Rejections::default(),
        }
    }

    /// Lets the engine choose plies after the random ones (see [`Sampler`]).
    pub fn with_sampler(mut self, sampler: Option<Sampler>) -> Self {
        self.sampler = sampler.filter(|s| s.plies > 0);
        self
    }

    /// The opening of game `game` of the run (numbered from the run's first game): the first
    /// try of its own random stream that neither ends the game nor is judged lost. Line `game`
    /// of an opening file (from the top again past its end) is the first try's base, the next
    /// line the second try's, and so on.
    pub fn opening(&mut self, game: u64) -> Result<DrawnOpening> {
        let mut rng = game_rng(self.source.seed(), game);
        let random_plies = self.source.random_plies();
        let book_only = self.source.given().is_some() && random_plies == 0 && self.sampler.is_none();
        let limit = match self.source.given() {
            Some(lines) if book_only => lines.len() as u64,
            _ => PATIENCE,
        };
        for attempt in 0..limit {
            let (start, moves, label) = match self.source.given() {
                None => (self.start.clone(), Vec::new(), format!("random {random_plies} plies")),
                Some(lines) => {
                    let Some(line) = line_of(lines, game, attempt) else {
                        bail!("the opening file has no opening");
                    };
                    let label = if random_plies > 0 {
                        format!("{} + {random_plies} random plies", line.label)
                    } else {
                        line.label.clone()
                    };
                    (line.start.clone(), line.moves.clone(), label)
                }
            };
            let Some(mut moves) = extend_randomly(&start, &moves, random_plies, &mut rng) else {
                self.rejections.ended += 1;
                continue;
            };
            let mut end = start.clone();
            moves.iter().for_each(|&m| end.play_unchecked(m));
            let mut sampled = Vec::new();
            if let Some(sampler) = &mut self.sampler {
                let mut ended = false;
                for _ in 0..sampler.plies {
                    match sampler.pick(&start, &moves, &mut rng)? {
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
                    self.rejections.ended += 1;
                    continue;
                }
            }
            if let Some(check) = &mut self.check {
                if check.rejects(&start, &moves)? {
                    self.rejections.lost += 1;
                    continue;
                }
            }
            self.rejections.drawn += 1;
            let label = if sampled.is_empty() {
                label
            } else {
                format!("{label} + {} engine plies", sampled.len())
            };
            return Ok(DrawnOpening {
                hash: end.hash(),
                opening: Opening { start, moves, label },
                sampled,
            });
        }
        bail!(
            "no opening found for game {game} after {limit} tries (of all tries so far, {} ended the game, {} were \
             judged lost): {}",
            self.rejections.ended,
            self.rejections.lost,
            if book_only {
                "add random plies after each line with --random-plies, or use a larger opening file"
            } else {
                "use other --random-plies or --engine-plies, another opening file or a higher --opening-max-score"
            }
        )
    }
}

/// The base line of try `attempt` of game `game`: line `game + attempt` of the file, from the
/// top again past its end (`None` for an empty file).
fn line_of(lines: &[Opening], game: u64, attempt: u64) -> Option<&Opening> {
    let n = lines.len() as u64;
    if n == 0 {
        return None;
    }
    lines.get((game % n + attempt % n) as usize % lines.len())
}

/// How the openings of a run repeat (see [`duplicates`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Repeats {
    /// Games counted.
    pub games: u64,
    /// Games whose opening an earlier game had: `games - distinct`.
    pub repeated: u64,
    /// Pairs of games with the same opening (a position drawn k times makes k(k-1)/2).
    pub pairs: u64,
}

impl Repeats {
    /// An upper bound of the share of games expected to repeat an earlier opening in a run of
    /// `games` games with the same settings, estimated from these games; `None` for fewer than
    /// two games.
    ///
    /// A game that repeats an earlier opening makes a pair with that game, so a run's repeats
    /// are at most its pairs. The expected pairs of a run of N games are C(N, 2) times the
    /// chance that two games draw the same opening, and the pairs among these n games divided
    /// by C(n, 2) estimate that chance without bias: the bound is
    /// `pairs * (N - 1) / (n * (n - 1))`. It is close to the expected share while openings
    /// seldom come back more than twice (small shares), and above it otherwise.
    #[must_use]
    pub fn projected(&self, games: u64) -> Option<f64> {
        if self.games < 2 {
            return None;
        }
        let n = self.games as f64;
        let bound = self.pairs as f64 * (games.max(1) - 1) as f64 / (n * (n - 1.0));
        Some(bound.min(1.0))
    }
}

/// How the openings of a run repeat, over their hashes: games, repeats of an earlier game's
/// opening, pairs of games with the same opening.
pub fn duplicates<'a>(hashes: impl IntoIterator<Item = &'a u64>) -> Repeats {
    let mut seen: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    let mut games = 0u64;
    let mut pairs = 0u64;
    for h in hashes {
        games += 1;
        let earlier = seen.entry(*h).or_insert(0);
        // The new game pairs with every earlier game of this opening.
        pairs += *earlier;
        *earlier += 1;
    }
    Repeats {
        games,
        repeated: games - seen.len() as u64,
        pairs,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use engine::play::openings::parse_openings;

    use super::*;

    fn random(seed: u64, plies: usize) -> OpeningGenerator {
        let v = Variant::PersianPrincess;
        OpeningGenerator::new(Position::startpos(v), OpeningSource::Random { plies, seed }, None)
    }

    #[test]
    fn an_opening_depends_on_the_seed_and_the_game_alone() {
        // Games 0..50 in order, the same games backwards from a fresh generator, and game
        // 100,000 (drawn without any game before it): each game's opening is the same.
        let mut g = random(7, 4);
        let a: Vec<DrawnOpening> = (0..50).map(|i| g.opening(i).expect("opening")).collect();
        let mut h = random(7, 4);
        let mut b: Vec<DrawnOpening> = (0..50).rev().map(|i| h.opening(i).expect("opening")).collect();
        b.reverse();
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.opening.moves, y.opening.moves);
            assert_eq!(x.hash, y.hash);
            assert_eq!(x.hash, opening_hash(&x.opening));
        }
        let far = random(7, 4).opening(100_000).expect("opening");
        let far_again = g.opening(100_000).expect("opening");
        assert_eq!(far.opening.moves, far_again.opening.moves);
        // Four random plies from the start give many positions: 50 games hardly repeat one.
        let distinct: HashSet<u64> = a.iter().map(|o| o.hash).collect();
        assert!(distinct.len() >= 48, "{} distinct of 50", distinct.len());
        // Another seed, other openings; neighbouring games are not shifted copies of each other.
        let mut c = random(8, 4);
        assert!((0..50).any(|i| c.opening(i).expect("opening").opening.moves != a[i as usize].opening.moves));
        let mut r0 = game_rng(7, 0);
        r0.next_u64();
        assert_ne!(
            r0.next_u64(),
            game_rng(7, 1).next_u64(),
            "stream 1 is not stream 0 one step on"
        );
        assert_eq!(g.rejections.drawn, 51);
    }

    #[test]
    fn duplicates_are_counted_not_avoided() {
        // One random ply: far fewer positions than games, so openings repeat and are counted.
        let mut g = random(3, 1);
        let hashes: Vec<u64> = (0..200).map(|i| g.opening(i).expect("opening").hash).collect();
        let distinct: HashSet<u64> = hashes.iter().copied().collect();
        assert!(
            distinct.len() < 50,
            "one ply from the start: {} positions",
            distinct.len()
        );
        let counted = duplicates(&hashes);
        assert_eq!((counted.games, counted.repeated), (200, 200 - distinct.len() as u64));
        assert!(counted.pairs >= counted.repeated);
        assert_eq!(duplicates(&[]), Repeats::default());
        assert_eq!(
            duplicates(&[5, 6, 5, 5, 7]),
            Repeats {
                games: 5,
                repeated: 2,
                pairs: 3
            }
        );
        assert_eq!(duplicates(&[5, 6, 5, 5, 7]).projected(1), Some(0.0));
        assert_eq!(duplicates(&[9]).projected(1_000_000), None);
    }

    #[test]
    fn the_projection_from_a_short_run_bounds_the_repeats_of_a_long_one() {
        // Openings drawn uniformly from 100 million: the pairs among the first 100,000 games
        // project the share of repeats among 1,000,000 (expected 0.50 %: N - K(1 - e^(-N/K))).
        let mut rng = game_rng(5, 0);
        let hashes: Vec<u64> = (0..1_000_000).map(|_| rng.next_u64() % 100_000_000).collect();
        let short = duplicates(&hashes[..100_000]);
        let long = duplicates(&hashes);
        let projected = short.projected(1_000_000).expect("enough games");
        let observed = long.repeated as f64 / long.games as f64;
        assert!((0.004..0.006).contains(&observed), "{observed}");
        // Pairs among 100,000 games: about 50, so the estimate is good to about a third.
        assert!(
            (0.65 * observed..1.5 * observed).contains(&projected),
            "projected {projected} against {observed}"
        );
        // Over the whole run the bound holds exactly: repeats <= pairs.
        assert!(long.pairs >= long.repeated);
        assert!(long.projected(1_000_000).expect("enough games") >= observed);
        // A short run with no pair projects none; a share is never above 1.
        assert_eq!(duplicates(&[1, 2, 3]).projected(1_000_000), Some(0.0));
        assert_eq!(duplicates(&[1, 1]).projected(1_000_000), Some(1.0));
    }

    #[test]
    fn book_lines_are_used_in_turn_and_a_book_of_rejected_lines_runs_out() {
        let v = Variant::PersianPrincess;
        let start = Position::startpos(v);
        let lines = parse_openings(v, "e3e4\nf3f4\ng3g4\n", "three.txt").expect("valid");
        let mut g = OpeningGenerator::new(start.clone(), OpeningSource::List(lines.clone()), None);
        let labels: Vec<String> = (0..4).map(|i| g.opening(i).expect("opening").opening.label).collect();
        assert_eq!(labels, ["three.txt:1", "three.txt:2", "three.txt:3", "three.txt:1"]);
        // A check that rejects every position (no score is within -1 of 0): every line is
        // tried once, then a clear error.
        let check = Check::new(v, &EvalSource::HandCrafted, 10, -1).expect("check");
        let mut g = OpeningGenerator::new(start, OpeningSource::List(lines), Some(check));
        let err = g.opening(5).expect_err("every line is rejected");
        assert!(
            err.to_string().contains("game 5 after 3 tries") && err.to_string().contains("--random-plies"),
            "{err}"
        );
        assert_eq!(g.rejections.lost, 3);
    }
}
