//! Openings of a match: random legal moves from the start position, or positions from a file.
//! Each opening is played twice, once with each engine as White.

use std::{collections::HashSet, path::Path};

use crate::rules::{game::Game, Move, Position, Variant};

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// Random moves per opening when none is given.
pub const DEFAULT_RANDOM_PLIES: usize = 8;

/// The random numbers of openings and data tools: the workspace's SplitMix64, seeded through
/// [`seeded_rng`] so that the same seed gives the same openings as before the generators were merged.
pub type Rng = crate::rng::SplitMix64;

/// A generator for openings and data tools from a seed (the seed is mixed with the golden gamma
/// first, so seed 0 does not start from a zero state).
pub fn seeded_rng(seed: u64) -> Rng {
    Rng::new(seed ^ crate::rng::GOLDEN_GAMMA)
}

/// An opening: a start position and moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position of the game.
    pub start: Position,
    /// Moves from `start`, each legal.
    pub moves: Vec<Move>,
    /// Where it comes from, for messages (e.g. `random #3`, `openings.fen:12`).
    pub label: String,
}

impl Opening {
    /// The position after the opening moves.
    pub fn position(&self) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.play_unchecked(m);
        }
        p
    }
}

/// Random openings: `count` sequences of `plies` random legal moves from the start position of
/// `variant`. No position along the way may end the game (checkmate, stalemate, citadel, ...);
/// the openings end in different positions unless there are not enough of them (e.g. with 0 or
/// 1 plies), in which case openings repeat.
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    let mut rng = seeded_rng(seed);
    let mut seen: HashSet<u64> = HashSet::new();
    let mut out = Vec::with_capacity(count);
    let start = Position::startpos(variant);
    // Give up looking for a new position after this many tries in a row.
    const PATIENCE: usize = 200;
    let mut failures = 0;
    let mut fallback: Option<Opening> = None;
    while out.len() < count {
        let candidate = random_line(&start, plies, &mut rng);
        let Some(moves) = candidate else {
            failures += 1;
            if failures > PATIENCE * 10 && fallback.is_none() {
                // Every line ends the game: play from the start position.
                fallback = Some(Opening {
                    start: start.clone(),
                    moves: Vec::new(),
                    label: String::new(),
                });
            }
            if let Some(f) = &fallback {
                out.push(Opening {
                    label: format!("random #{}", out.len() + 1),
                    ..f.clone()
                });
            }
            continue;
        };
        let mut end = start.clone();
        moves.iter().for_each(|&m| end.play_unchecked(m));
        let fresh = seen.insert(end.hash());
        if !fresh && failures < PATIENCE {
            failures += 1;
            continue;
        }
        failures = 0;
        out.push(Opening {
            start: start.clone(),
            moves,
            label: format!("random #{}", out.len() + 1),
        });
    }
    out
}

/// One line of random moves that never ends the game, or `None` if this try ran into an end.
fn random_line(start: &Position, plies: usize, rng: &mut Rng) -> Option<Vec<Move>> {
    let mut game = Game::new(start.clone());
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        game.play(m);
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(game.moves().to_vec())
}

/// Why an openings file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error("cannot read openings file {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        error: std::io::Error,
    },
    /// A line is not a valid FEN of the variant.
    #[error("{path}:{line}: {message}")]
    Line {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file holds no position.
    #[error("{0}: no positions (one FEN per line; '#' starts a comment)")]
    Empty(String),
}

/// Reads openings from text: one FEN per line; `#` starts a comment, empty lines are skipped.
/// `name` is used in labels and messages.
pub fn parse_openings(variant: Variant, text: &str, name: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| OpeningsError::Line {
            path: name.to_string(),
            line: i + 1,
            message,
        };
        let pos = Position::from_fen(variant, line).map_err(|e| err(format!("'{line}': {e}")))?;
        if let Some(o) = pos.outcome() {
            return Err(err(format!("'{line}': the game is already over ({})", o.description())));
        }
        out.push(Opening {
            start: pos,
            moves: Vec::new(),
            label: format!("{name}:{}", i + 1),
        });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(name.to_string()));
    }
    Ok(out)
}

/// Reads an openings file (see [`parse_openings`]).
pub fn read_openings(variant: Variant, path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| OpeningsError::Io {
        path: name.clone(),
        error,
    })?;
    parse_openings(variant, &text, &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = seeded_rng(1);
        let mut b = seeded_rng(1);
        let mut c = seeded_rng(2);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        let mut counts = [0; 7];
        for _ in 0..7000 {
            counts[a.below(7)] += 1;
        }
        assert!(counts.iter().all(|&n| n > 800), "{counts:?}");
        assert_eq!(a.below(0), 0);
    }

    #[test]
    fn random_openings_are_legal_unique_and_reproducible() {
        for v in Variant::ALL {
            let ops = random_openings(v, 20, 8, 42);
            assert_eq!(ops.len(), 20);
            let mut ends = HashSet::new();
            for o in &ops {
                assert_eq!(o.moves.len(), 8);
                let mut g = Game::new(o.start.clone());
                for &m in &o.moves {
                    assert!(g.position().legal_moves().contains(m));
                    g.play(m);
                    assert!(g.outcome().is_none());
                }
                assert!(ends.insert(g.position().hash()), "duplicate opening in {v}");
            }
            assert_eq!(ops, random_openings(v, 20, 8, 42));
            assert_ne!(ops, random_openings(v, 20, 8, 43));
        }
        // Not enough distinct positions: openings repeat rather than loop forever.
        let zero = random_openings(Variant::PersianPrincess, 3, 0, 1);
        assert_eq!(zero.len(), 3);
        assert!(zero.iter().all(|o| o.moves.is_empty()));
    }

    #[test]
    fn openings_file() {
        let v = Variant::PersianPrincess;
        let start = Position::startpos(v).fen();
        let text = format!("# openings\n\n{start}   # the start\n  {start}\n");
        let ops = parse_openings(v, &text, "ops.fen").expect("valid");
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0].label, "ops.fen:3");
        let bad = parse_openings(v, "# x\nnot a fen\n", "ops.fen").expect_err("invalid");
        assert!(bad.to_string().starts_with("ops.fen:2: 'not a fen'"), "{bad}");
        assert!(matches!(
            parse_openings(v, "# only comments\n", "e.fen"),
            Err(OpeningsError::Empty(_))
        ));
        let missing = read_openings(v, Path::new("/nonexistent/dir/openings.fen")).expect_err("missing");
        assert!(matches!(missing, OpeningsError::Io { .. }));
    }
}
