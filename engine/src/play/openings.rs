//! Openings: where a game starts and the moves played before the players take over; where they
//! come from ([`OpeningSource`]: random plies, a list such as an openings file, or a list followed
//! by random plies); openings files; the seeded random numbers that draw them.
//!
//! A match draws its openings up front with [`OpeningSource::openings`] and plays each twice;
//! self-play draws them one by one with its own uniqueness checks, on the same pieces
//! ([`extend_randomly`], [`seeded_rng`]).

use std::{collections::HashSet, path::Path};

use crate::rules::{game::Game, tables::Tables, Move, Position, Variant};

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

/// An opening: a start position and moves played from it before the players take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position of the game.
    pub start: Position,
    /// Moves from `start`, each legal.
    pub moves: Vec<Move>,
    /// Where it comes from, for messages (e.g. `random #3`, `openings.fen:12`,
    /// `book.txt:12 + 2 random plies`).
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

/// Where the openings of a match or a self-play run come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Random legal moves from the start position.
    Random {
        /// Plies per opening.
        plies: usize,
        /// Seed of the random generator.
        seed: u64,
    },
    /// Given openings (e.g. an openings file), used in order and from the beginning again when
    /// more are needed.
    List(Vec<Opening>),
    /// Given openings as with [`OpeningSource::List`], each followed by random legal moves.
    ListThenRandom {
        /// The openings.
        openings: Vec<Opening>,
        /// Random plies after each opening.
        plies: usize,
        /// Seed of the random generator.
        seed: u64,
    },
}

impl OpeningSource {
    /// Given openings, followed by `plies` random plies when `plies > 0`.
    pub fn list(openings: Vec<Opening>, plies: usize, seed: u64) -> OpeningSource {
        if plies == 0 {
            OpeningSource::List(openings)
        } else {
            OpeningSource::ListThenRandom { openings, plies, seed }
        }
    }

    /// The given openings, `None` for random ones.
    pub fn given(&self) -> Option<&[Opening]> {
        match self {
            OpeningSource::Random { .. } => None,
            OpeningSource::List(openings) | OpeningSource::ListThenRandom { openings, .. } => Some(openings),
        }
    }

    /// Random plies per opening (after the given moves).
    pub fn random_plies(&self) -> usize {
        match self {
            OpeningSource::List(_) => 0,
            OpeningSource::Random { plies, .. } | OpeningSource::ListThenRandom { plies, .. } => *plies,
        }
    }

    /// The seed of the random plies (the default seed for a plain list, which draws none).
    pub fn seed(&self) -> u64 {
        match self {
            OpeningSource::List(_) => DEFAULT_SEED,
            OpeningSource::Random { seed, .. } | OpeningSource::ListThenRandom { seed, .. } => *seed,
        }
    }

    /// `count` openings of `variant` for a match, in order (see [`random_openings`]; a plain list
    /// is returned as it is and used from the top again when the match needs more). `None` when
    /// the list is empty.
    pub fn openings(&self, variant: Variant, count: usize) -> Option<Vec<Opening>> {
        self.openings_in(variant.tables(), count)
    }

    /// As [`OpeningSource::openings`], under the rules of `tables` (a variant with rule
    /// settings): random plies are drawn under those rules; the positions of a list are read
    /// again under them, each opening cut before its first move they forbid.
    pub fn openings_in(&self, tables: &'static Tables, count: usize) -> Option<Vec<Opening>> {
        let list = |openings: &[Opening]| -> Vec<Opening> { openings.iter().map(|o| o.under(tables)).collect() };
        match self {
            OpeningSource::Random { plies, seed } => {
                let start = Position::from_fen_in(tables, tables.spec.start_fen).ok()?;
                Some(random_openings_from(start, count, *plies, *seed))
            }
            OpeningSource::List(openings) => (!openings.is_empty()).then(|| list(openings)),
            OpeningSource::ListThenRandom { openings, plies, seed } => {
                (!openings.is_empty()).then(|| extended_openings(&list(openings), count, *plies, *seed, list_label))
            }
        }
    }
}

impl Opening {
    /// The opening under the rules of `tables` (same variant): its start read again under them,
    /// its moves up to the first one they forbid.
    pub fn under(&self, tables: &'static Tables) -> Opening {
        if std::ptr::eq(self.start.tables(), tables) {
            return self.clone();
        }
        let Ok(start) = Position::from_fen_in(tables, &self.start.fen()) else {
            return self.clone();
        };
        let mut game = Game::new(start);
        for &m in &self.moves {
            if !game.is_legal(m) {
                break;
            }
            game.play(m);
        }
        Opening {
            moves: game.moves().to_vec(),
            start: game.start().clone(),
            label: self.label.clone(),
        }
    }
}

fn list_label(base: &Opening, plies: usize, _index: usize) -> String {
    format!("{} + {plies} random plies", base.label)
}

/// Random openings: `count` sequences of `plies` random legal moves from the start position of
/// `variant`. No position along the way may end the game (checkmate, stalemate, citadel, ...);
/// the openings end in different positions unless there are not enough of them (e.g. with 0 or
/// 1 plies), in which case openings repeat.
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    random_openings_from(Position::startpos(variant), count, plies, seed)
}

/// As [`random_openings`], from `start` (a start position under some rule settings).
pub fn random_openings_from(start: Position, count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    let start = Opening {
        start,
        moves: Vec::new(),
        label: String::new(),
    };
    extended_openings(std::slice::from_ref(&start), count, plies, seed, |_, _, index| {
        format!("random #{}", index + 1)
    })
}

/// `count` openings: the `bases` in turn, each followed by `plies` random legal moves, ending in
/// different positions while that can be found (after many tries in a row the bases themselves
/// are used, after fewer ones a repeated position).
fn extended_openings(
    bases: &[Opening],
    count: usize,
    plies: usize,
    seed: u64,
    label: impl Fn(&Opening, usize, usize) -> String,
) -> Vec<Opening> {
    let mut rng = seeded_rng(seed);
    let mut seen: HashSet<u64> = HashSet::new();
    let mut out = Vec::with_capacity(count);
    // Give up looking for a new position after this many tries in a row.
    const PATIENCE: usize = 200;
    let mut failures = 0;
    let mut fall_back = false;
    while out.len() < count {
        let base = &bases[out.len() % bases.len()];
        let Some(moves) = extend_randomly(&base.start, &base.moves, plies, &mut rng) else {
            failures += 1;
            if failures > PATIENCE * 10 {
                // Every line ends the game: play the base opening as it is.
                fall_back = true;
            }
            if fall_back {
                out.push(Opening {
                    label: label(base, plies, out.len()),
                    ..base.clone()
                });
            }
            continue;
        };
        let mut end = base.start.clone();
        moves.iter().for_each(|&m| end.play_unchecked(m));
        let fresh = seen.insert(end.hash());
        if !fresh && failures < PATIENCE {
            failures += 1;
            continue;
        }
        failures = 0;
        out.push(Opening {
            start: base.start.clone(),
            moves,
            label: label(base, plies, out.len()),
        });
    }
    out
}

/// `moves` (played from `start`) followed by `plies` random legal moves, one `rng.below` draw
/// each; `None` when a position on the way ends the game.
pub fn extend_randomly(start: &Position, moves: &[Move], plies: usize, rng: &mut Rng) -> Option<Vec<Move>> {
    let mut game = Game::new(start.clone());
    for &m in moves {
        game.play(m);
    }
    for _ in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let m = legal.as_slice()[rng.below(legal.len())];
        game.play(m);
        if game.outcome().is_some() {
            return None;
        }
    }
    game.outcome().is_none().then(|| game.moves().to_vec())
}

/// How many of `openings` end in different positions.
pub fn distinct_ends(openings: &[Opening]) -> usize {
    openings
        .iter()
        .map(|o| o.position().hash())
        .collect::<HashSet<u64>>()
        .len()
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
    /// A line is not an opening of the variant.
    #[error("{path}:{line}: {message}")]
    Line {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A PGN file cannot be read as openings.
    #[error("openings file {path}: {message}")]
    Pgn {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The file holds no opening.
    #[error(
        "{0}: no openings (one per line: a FEN, a FEN followed by 'moves' and UCI moves, or UCI moves from the start \
         position; '#' starts a comment)"
    )]
    Empty(String),
}

/// Reads openings from text, one per line: a FEN, a FEN followed by `moves` and UCI moves, or UCI
/// moves from the start position (optionally after `startpos` or `startpos moves`). `#` starts a
/// comment, empty lines are skipped. No position on a line may end the game. `name` is used in
/// labels (`name:line`) and messages.
pub fn parse_openings(variant: Variant, text: &str, name: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (start, moves) = parse_line(variant, line).map_err(|message| OpeningsError::Line {
            path: name.to_string(),
            line: i + 1,
            message: format!("'{line}': {message}"),
        })?;
        out.push(Opening {
            start,
            moves,
            label: format!("{name}:{}", i + 1),
        });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(name.to_string()));
    }
    Ok(out)
}

/// One line of an openings file (see [`parse_openings`]).
fn parse_line(variant: Variant, line: &str) -> Result<(Position, Vec<Move>), String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (start, move_tokens) = if line.contains('/') {
        let split = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
        let fen = tokens[..split].join(" ");
        let pos = Position::from_fen(variant, &fen).map_err(|e| e.to_string())?;
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
    if let Some(o) = game.outcome() {
        return Err(format!("the game is already over ({})", o.description()));
    }
    let mut moves = Vec::with_capacity(move_tokens.len());
    for (i, t) in move_tokens.iter().enumerate() {
        let m = game
            .position()
            .parse_uci_in_game(t, game.history())
            .map_err(|e| format!("move {} '{t}': {e}", i + 1))?;
        game.play(m);
        moves.push(m);
        if let Some(o) = game.outcome() {
            return Err(format!(
                "the game is over after move {} '{t}' ({})",
                i + 1,
                o.description()
            ));
        }
    }
    Ok((start, moves))
}

/// The formats of openings files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningsFormat {
    /// This project's lines ([`parse_openings`]): a FEN, a FEN and `moves ...`, or UCI moves.
    Lines,
    /// EPD: a position per line (board, side, castling, en passant, optionally more FEN
    /// fields), then operations such as `hmvc 0; fmvn 1; id "x";` ([`parse_epd`]).
    Epd,
    /// PGN: each game's start position (its `FEN` tag) and moves ([`parse_pgn_openings`]).
    Pgn,
}

impl std::str::FromStr for OpeningsFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<OpeningsFormat, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "lines" | "txt" => Ok(OpeningsFormat::Lines),
            "epd" => Ok(OpeningsFormat::Epd),
            "pgn" => Ok(OpeningsFormat::Pgn),
            other => Err(format!("openings format '{other}' is not pgn, epd or lines")),
        }
    }
}

impl OpeningsFormat {
    /// The format of a file by its extension (`.pgn`, `.epd`), else by its text: PGN when its
    /// first line that is not empty or a `#` comment starts with `[` (a tag) or `1.`, else lines.
    pub fn detect(path: &Path, text: &str) -> OpeningsFormat {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("pgn") => return OpeningsFormat::Pgn,
            Some("epd") => return OpeningsFormat::Epd,
            _ => {}
        }
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        if first.starts_with('[') || first.starts_with("1.") {
            OpeningsFormat::Pgn
        } else {
            OpeningsFormat::Lines
        }
    }
}

/// Reads EPD text: one position per line. The first four fields are the FEN's board, side,
/// castling and en passant fields; fields after them that are FEN fields too (numbers, `-`, the
/// rendezvous rights) are read as such; the rest are operations, of which `hmvc` and `fmvn` set
/// the clocks and the others (`id`, `bm`, `c0`, ...) are skipped. Empty lines and `#` comments
/// are skipped. `name` is used in labels (`name:line`) and messages.
pub fn parse_epd(variant: Variant, text: &str, name: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |message: String| OpeningsError::Line {
            path: name.to_string(),
            line: i + 1,
            message: format!("'{line}': {message}"),
        };
        let fen = epd_fen(line).map_err(fail)?;
        let start = Position::from_fen(variant, &fen).map_err(|e| fail(e.to_string()))?;
        if let Some(o) = Game::new(start.clone()).outcome() {
            return Err(fail(format!("the game is already over ({})", o.description())));
        }
        out.push(Opening {
            start,
            moves: Vec::new(),
            label: format!("{name}:{}", i + 1),
        });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(name.to_string()));
    }
    Ok(out)
}

/// The FEN of one EPD line (trimmed, not empty): its first four fields are the FEN's board, side,
/// castling and en passant fields; fields after them that are FEN fields too (numbers, `-`, the
/// rendezvous rights) are read as such; of the operations after them, `hmvc` and `fmvn` set the
/// clocks and the others (`id`, `bm`, `c0`, ...) are skipped. A FEN is an EPD line too.
pub fn epd_fen(line: &str) -> Result<String, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.len() < 2 {
        return Err("an EPD line needs at least the board and the side to move".into());
    }
    let is_field = |t: &str| t == "-" || t.chars().all(|c| c.is_ascii_digit()) || t.chars().all(|c| "Rr".contains(c));
    let mut fields: Vec<&str> = tokens.iter().take(4).copied().collect();
    let mut rest = tokens.get(4..).unwrap_or(&[]);
    while let Some((&t, tail)) = rest.split_first() {
        if !is_field(t) {
            break;
        }
        fields.push(t);
        rest = tail;
    }
    let operations = rest.join(" ");
    let mut clocks = (None, None);
    for op in operations.split(';').map(str::trim) {
        let mut words = op.split_whitespace();
        match (words.next(), words.next()) {
            (Some("hmvc"), Some(n)) => clocks.0 = n.parse::<u32>().ok(),
            (Some("fmvn"), Some(n)) => clocks.1 = n.parse::<u32>().ok(),
            _ => {}
        }
    }
    let mut fen = fields.join(" ");
    if fields.len() == 4 {
        if let (h, Some(f)) = (clocks.0.unwrap_or(0), clocks.1) {
            fen.push_str(&format!(" {h} {f}"));
        } else if let Some(h) = clocks.0 {
            fen.push_str(&format!(" {h} 1"));
        }
    }
    Ok(fen)
}

/// Reads PGN text as openings: each game's start position and its moves, up to the first move
/// that would end the game (a finished game is played from the position before its last move).
/// Games of another variant and moves that are not legal are errors. `name` is used in labels
/// (`name game N`) and messages.
pub fn parse_pgn_openings(variant: Variant, text: &str, name: &str) -> Result<Vec<Opening>, OpeningsError> {
    let games = crate::rules::notation::pgn::read_games(text, variant).map_err(|e| OpeningsError::Pgn {
        path: name.to_string(),
        message: e.to_string(),
    })?;
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        if g.variant() != variant {
            return Err(OpeningsError::Pgn {
                path: name.to_string(),
                message: format!("game {} is a {} game, not {variant}", i + 1, g.variant()),
            });
        }
        let mut game = Game::new(g.start.clone());
        if let Some(o) = game.outcome() {
            return Err(OpeningsError::Pgn {
                path: name.to_string(),
                message: format!(
                    "game {}: the game is already over at its start ({})",
                    i + 1,
                    o.description()
                ),
            });
        }
        let mut moves = Vec::new();
        for &m in &g.moves {
            game.play(m);
            if game.outcome().is_some() {
                break;
            }
            moves.push(m);
        }
        out.push(Opening {
            start: g.start.clone(),
            moves,
            label: format!("{name} game {}", i + 1),
        });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(name.to_string()));
    }
    Ok(out)
}

/// Reads an openings file in its format ([`OpeningsFormat::detect`]).
pub fn read_openings(variant: Variant, path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    read_openings_as(variant, path, None)
}

/// Reads an openings file in `format`, or in the format [`OpeningsFormat::detect`] finds.
pub fn read_openings_as(
    variant: Variant,
    path: &Path,
    format: Option<OpeningsFormat>,
) -> Result<Vec<Opening>, OpeningsError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| OpeningsError::Io {
        path: name.clone(),
        error,
    })?;
    match format.unwrap_or_else(|| OpeningsFormat::detect(path, &text)) {
        OpeningsFormat::Lines => parse_openings(variant, &text, &name),
        OpeningsFormat::Epd => parse_epd(variant, &text, &name),
        OpeningsFormat::Pgn => parse_pgn_openings(variant, &text, &name),
    }
}

/// `openings` in a random order drawn with `seed` (the same seed, the same order).
pub fn shuffled(mut openings: Vec<Opening>, seed: u64) -> Vec<Opening> {
    let mut rng = seeded_rng(seed);
    for i in (1..openings.len()).rev() {
        let j = rng.below(i + 1);
        openings.swap(i, j);
    }
    openings
}

/// `openings` with at most `plies` moves each.
pub fn cut_to(mut openings: Vec<Opening>, plies: usize) -> Vec<Opening> {
    for o in &mut openings {
        o.moves.truncate(plies);
    }
    openings
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

    #[test]
    fn opening_lines_of_every_form() {
        let v = Variant::PersianPrincess;
        let start = Position::startpos(v);
        let m = start.legal_moves().as_slice()[0];
        let uci = start.uci(m);
        let text = format!(
            "# comment\n{fen}\n{fen} moves {uci}\n{uci}\nstartpos moves {uci}\n\n",
            fen = start.fen()
        );
        let lines = parse_openings(v, &text, "b.txt").expect("valid");
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].label, "b.txt:2");
        assert!(lines[0].moves.is_empty());
        assert_eq!(lines[1].moves, vec![m]);
        assert_eq!(lines[2].moves, vec![m]);
        assert_eq!(lines[3].moves, vec![m]);
        assert_eq!(distinct_ends(&lines), 2);
        let err = parse_openings(v, "zz99\n", "b.txt").expect_err("bad move");
        assert!(err.to_string().contains("b.txt:1"), "{err}");
    }

    #[test]
    fn epd_and_pgn_openings() {
        let v = Variant::Chess;
        let epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1; id \"e4\";\n\n\
                   # a comment\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 c0 \"open\";\n\
                   r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq -\n";
        let ops = parse_epd(v, epd, "o.epd").expect("valid EPD");
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0].label, "o.epd:1");
        assert_eq!(ops[1].label, "o.epd:4");
        assert_eq!(ops[1].start.fullmove_number(), 2);
        assert!(ops.iter().all(|o| o.moves.is_empty()));
        assert_eq!(ops[2].start.turn(), crate::rules::Color::White);
        let bad = parse_epd(v, "8/8/8/8 w - - bm e4;\n", "b.epd").expect_err("not a board");
        assert!(bad.to_string().starts_with("b.epd:1:"), "{bad}");
        assert!(matches!(
            parse_epd(v, "# nothing\n", "e.epd"),
            Err(OpeningsError::Empty(_))
        ));

        // PGN: tags, comments and a finished game (its last, mating move is left out).
        let pgn = "[Event \"a\"]\n[Variant \"chess\"]\n\n1. e4 {[%clk 0:01:00]} e5 2. Nf3 *\n\n\
                   [Event \"b\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let ops = parse_pgn_openings(v, pgn, "o.pgn").expect("valid PGN");
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0].moves.len(), 3);
        assert_eq!(ops[1].moves.len(), 3, "the mate is not part of the opening");
        assert_eq!(ops[1].label, "o.pgn game 2");
        let chess = "[Variant \"chess\"]\n\n1. e4 *\n";
        let other = parse_pgn_openings(Variant::PersianPrincess, chess, "o.pgn").expect_err("a chess game");
        assert!(other.to_string().contains("game 1 is a chess game"), "{other}");
        let illegal = parse_pgn_openings(v, "1. e5 *\n", "x.pgn").expect_err("illegal move");
        assert!(illegal.to_string().starts_with("openings file x.pgn:"), "{illegal}");

        // Formats by extension, else by content.
        assert_eq!(OpeningsFormat::detect(Path::new("a.PGN"), ""), OpeningsFormat::Pgn);
        assert_eq!(OpeningsFormat::detect(Path::new("a.epd"), "[x]"), OpeningsFormat::Epd);
        assert_eq!(
            OpeningsFormat::detect(Path::new("a.txt"), "# c\n\n[Event \"x\"]"),
            OpeningsFormat::Pgn
        );
        assert_eq!(
            OpeningsFormat::detect(Path::new("book"), "e3e5\n"),
            OpeningsFormat::Lines
        );
        assert_eq!("EPD".parse::<OpeningsFormat>(), Ok(OpeningsFormat::Epd));
        assert!("json".parse::<OpeningsFormat>().is_err());

        // Order and length.
        let list = random_openings(Variant::PersianPrincess, 10, 4, 3);
        let mixed = shuffled(list.clone(), 7);
        assert_ne!(mixed, list);
        assert_eq!(mixed, shuffled(list.clone(), 7));
        let mut a: Vec<String> = mixed.iter().map(|o| o.label.clone()).collect();
        let mut b: Vec<String> = list.iter().map(|o| o.label.clone()).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert!(cut_to(list, 2).iter().all(|o| o.moves.len() == 2));
    }

    #[test]
    fn lists_followed_by_random_plies() {
        let v = Variant::PersianPrincess;
        let lines = parse_openings(v, "e3e5\nstartpos\n", "b.txt").expect("valid");
        let source = OpeningSource::list(lines.clone(), 2, 5);
        assert_eq!(source.random_plies(), 2);
        let ops = source.openings(v, 4).expect("not empty");
        assert_eq!(ops.len(), 4);
        assert_eq!(ops[0].label, "b.txt:1 + 2 random plies");
        assert_eq!(ops[0].moves.len(), 3);
        assert_eq!(ops[0].moves[0], lines[0].moves[0]);
        assert_eq!(ops[1].moves.len(), 2);
        assert_eq!(distinct_ends(&ops), 4);
        assert!(matches!(OpeningSource::list(lines, 0, 5), OpeningSource::List(_)));
        assert!(OpeningSource::List(Vec::new()).openings(v, 2).is_none());
    }
}
