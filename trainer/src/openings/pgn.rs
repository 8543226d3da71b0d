//! Reading game records for the opening statistics.
//!
//! The engine's PGN reader (`engine::rules::notation::pgn`) checks whole games and drops the
//! comments after moves. Opening statistics need the comments (engine scores) and only the first
//! plies, so this module splits PGN text into games itself, on the engine's PGN lexer
//! ([`Lexer`]: the same tags, comments, variations, glyphs and move numbers), with the same rule
//! that a result or a tag after moves ends a game, and keeps for each game its tags, its first
//! SAN moves, the comment after each of them and its result. SAN moves are
//! resolved against the position with the engine's SAN reader ([`Position::parse_san`]), which
//! makes both readers accept the same moves.

use std::collections::HashMap;

use engine::{
    play::GameResult,
    rules::{
        notation::pgn::{Lexer, PgnError, Token},
        Color, Move, Position, SanError, Variant,
    },
};

/// The results a game can end with.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Scores are clamped to this many centipawns either way; a mate counts as this much.
pub const EVAL_CLAMP_CP: i32 = 1000;

/// A game as split from the text, its moves not yet resolved.
#[derive(Debug, Clone)]
pub struct RawGame {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// Line of the game's first tag or move.
    pub line: usize,
    /// Tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The first SAN moves (at most the number asked for) with their line.
    pub sans: Vec<(String, usize)>,
    /// For each of those moves, the comments that follow it (outside variations).
    pub comments: Vec<Vec<String>>,
    /// The number of moves in the movetext (all of them).
    pub total_plies: usize,
    /// The result token at the end of the movetext, if any.
    pub result_token: Option<String>,
}

impl RawGame {
    fn new(number: usize, line: usize) -> RawGame {
        RawGame {
            number,
            line,
            tags: Vec::new(),
            sans: Vec::new(),
            comments: Vec::new(),
            total_plies: 0,
            result_token: None,
        }
    }

    /// The value of a tag (the first of that name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The result: the token ending the movetext, else a valid `Result` tag; `None` for `*` or
    /// no result (an unfinished game).
    pub fn result(&self) -> Option<GameResult> {
        self.result_token
            .as_deref()
            .or_else(|| self.tag("Result").filter(|r| RESULTS.contains(r)))
            .and_then(GameResult::from_pgn)
    }
}

/// Text that cannot be split into games: the rest of the file is not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl From<PgnError> for SyntaxError {
    fn from(e: PgnError) -> SyntaxError {
        match e {
            PgnError::Syntax { line, message } => SyntaxError { line, message },
            other => SyntaxError {
                line: 0,
                message: other.to_string(),
            },
        }
    }
}

/// Splits PGN text into games, keeping at most `max_plies` moves of each. On a syntax error the
/// games before it are returned with the error.
pub fn split_games(text: &str, max_plies: usize) -> (Vec<RawGame>, Option<SyntaxError>) {
    let mut s = Lexer::new(text);
    let mut games = Vec::new();
    let mut current: Option<RawGame> = None;
    let mut in_movetext = false;
    loop {
        let token = match s.next_token() {
            Ok(Some(t)) => t,
            Ok(None) => break,
            // The game cut by the error is not complete: it is left out.
            Err(e) => return (games, Some(SyntaxError::from(e))),
        };
        let line = s.line();
        match token {
            Token::Tag(name, value) => {
                if in_movetext {
                    if let Some(g) = current.take() {
                        games.push(g);
                    }
                    in_movetext = false;
                }
                let number = games.len() + 1;
                current
                    .get_or_insert_with(|| RawGame::new(number, line))
                    .tags
                    .push((name, value));
            }
            Token::Result(r) => {
                let number = games.len() + 1;
                let mut g = current.take().unwrap_or_else(|| RawGame::new(number, line));
                g.result_token = Some(r);
                games.push(g);
                in_movetext = false;
            }
            Token::Comment(c) => {
                if let Some(g) = current.as_mut().filter(|_| in_movetext) {
                    if g.total_plies > 0 && g.total_plies <= max_plies {
                        if let Some(list) = g.comments.get_mut(g.total_plies - 1) {
                            list.push(c);
                        }
                    }
                }
            }
            Token::San(san) => {
                let number = games.len() + 1;
                let g = current.get_or_insert_with(|| RawGame::new(number, line));
                in_movetext = true;
                g.total_plies += 1;
                if g.sans.len() < max_plies {
                    g.sans.push((san, line));
                    g.comments.push(Vec::new());
                }
            }
        }
    }
    if let Some(g) = current {
        games.push(g);
    }
    (games, None)
}

/// Whose point of view the plain scores in comments (`{+0.35/12}`, `{+35}`) give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalView {
    /// The side that just made the move (cutechess and most engine GUIs).
    Mover,
    /// Always White's.
    White,
}

impl EvalView {
    /// The name `--eval-view` takes and `tree.json` records.
    pub fn name(self) -> &'static str {
        match self {
            EvalView::Mover => "mover",
            EvalView::White => "white",
        }
    }
}

/// A score found in a comment, before it is turned to White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommentScore {
    /// Centipawns, clamped to [`EVAL_CLAMP_CP`]; a mate counts as the clamp.
    pub cp: i32,
    /// Whether the score is White's view whatever the convention (`[%eval ...]`).
    pub white_view: bool,
}

/// Reads an engine score from a comment that follows a move (see `docs/openings.md`):
///
/// - `[%eval 0.35]`, `[%eval -1.2]`, `[%eval #3]`, `[%eval #-2]` anywhere in the comment: pawns,
///   White's view (lichess);
/// - otherwise the comment's first word: `+0.35/12`, `-1.20`, `0.00/1` (a decimal point: pawns),
///   `+35`, `-35/10` (no decimal point: centipawns), `+M5/20`, `-M3`, `#4`, `#-4` (mates), with an
///   optional `/depth` after it and anything after a space (`{+0.35/12 0.51s}`): the view chosen
///   with `--eval-view`.
pub fn comment_score(comment: &str) -> Option<CommentScore> {
    if let Some(at) = comment.find("[%eval") {
        let rest = &comment[at + 6..];
        let value = rest.split(']').next().unwrap_or("").trim();
        let value = value.split([' ', ',']).next().unwrap_or("");
        return score_word(value, true).map(|cp| CommentScore { cp, white_view: true });
    }
    let word = comment.split_whitespace().next()?;
    let score = match word.split_once('/') {
        Some((s, depth)) if !depth.is_empty() && depth.bytes().all(|b| b.is_ascii_digit()) => s,
        Some(_) => return None,
        None => word,
    };
    score_word(score, false).map(|cp| CommentScore { cp, white_view: false })
}

/// `+0.35` (pawns), `35` (centipawns, or pawns when `pawns` is set), mates `M5`, `-M5`, `#5`, `#-5`.
fn score_word(word: &str, pawns: bool) -> Option<i32> {
    let (negative, body) = match word.as_bytes().first()? {
        b'+' => (false, &word[1..]),
        b'-' => (true, &word[1..]),
        _ => (false, word),
    };
    let mate = body.strip_prefix('M').or_else(|| body.strip_prefix('#'));
    let cp = if let Some(m) = mate {
        let (neg2, digits) = match m.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, m),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if negative != neg2 {
            -EVAL_CLAMP_CP
        } else {
            EVAL_CLAMP_CP
        }
    } else {
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (body, None),
        };
        let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !digits_ok(int) || frac.is_some_and(|f| !digits_ok(f)) || (int.is_empty() && frac.is_none_or(str::is_empty))
        {
            return None;
        }
        let value: f64 = format!("0{int}.{}0", frac.unwrap_or("")).parse().ok()?;
        let cp = if pawns || frac.is_some() { value * 100.0 } else { value };
        let cp = cp.min(EVAL_CLAMP_CP as f64).round() as i32;
        if negative {
            -cp
        } else {
            cp
        }
    };
    Some(cp.clamp(-EVAL_CLAMP_CP, EVAL_CLAMP_CP))
}

/// A game ready for the tree: start position, its first moves, scores and result.
#[derive(Debug, Clone)]
pub struct Game {
    /// The position before the first move.
    pub start: Position,
    /// Whether `start` is the variant's start position.
    pub standard_start: bool,
    /// The first moves (at most the depth of the tree).
    pub moves: Vec<Move>,
    /// For each move, the score after it (centipawns, White's view), if a comment gave one.
    pub evals: Vec<Option<i32>>,
    /// The result, `None` for an unfinished game.
    pub result: Option<GameResult>,
    /// The plies at the start that no player chose (`OpeningPlies` tag of `engine match`).
    pub opening_plies: usize,
}

/// Why a game cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The `FEN` tag cannot be read.
    #[error("FEN '{fen}': {error}")]
    Fen {
        /// The FEN.
        fen: String,
        /// Why.
        error: String,
    },
    /// The `VariantRules` tag names settings the variant does not have.
    #[error("VariantRules: {0}")]
    Rules(String),
    /// A move is not legal or not SAN.
    #[error("line {line}, ply {ply}: {error}")]
    Move {
        /// Line of the move.
        line: usize,
        /// 1-based ply.
        ply: usize,
        /// Why.
        error: String,
    },
}

/// SAN already resolved, by position key: openings repeat, and reading SAN is the slow part.
#[derive(Default)]
pub struct SanCache(HashMap<(u64, String), Move>);

impl SanCache {
    /// Entries kept at most (the cache starts again when full).
    const CAPACITY: usize = 1 << 20;

    /// The move `san` of `pos`, a position of a game whose earlier positions are `history`
    /// (their hashes, oldest first): a move the game forbids there is an error.
    fn parse(&mut self, pos: &Position, history: &[u64], san: &str) -> Result<Move, SanError> {
        let key = (pos.hash(), san.to_string());
        if let Some(&m) = self.0.get(&key) {
            // A key collision cannot make an illegal move.
            if pos.is_legal_move_with_history(m, history) {
                return Ok(m);
            }
        }
        let m = pos.parse_san_in_game(san, history)?;
        if self.0.len() >= Self::CAPACITY {
            self.0.clear();
        }
        self.0.insert(key, m);
        Ok(m)
    }
}

/// The start position of `variant` under the game's rule settings (its `VariantRules` tag, as
/// the engine's PGN reader reads it; none: the variant's defaults).
pub fn start_under_rules(raw: &RawGame, variant: Variant) -> Result<Position, GameError> {
    let rules = variant
        .tables_with(raw.tag("VariantRules").unwrap_or(""))
        .map_err(|e| GameError::Rules(e.to_string()))?;
    Position::from_fen_in(rules, rules.spec.start_fen).map_err(|e| GameError::Rules(e.to_string()))
}

/// Resolves a split game of `variant`: start position, moves, scores; under the game's rule
/// settings.
pub fn resolve(raw: &RawGame, variant: Variant, view: EvalView, cache: &mut SanCache) -> Result<Game, GameError> {
    let startpos = start_under_rules(raw, variant)?;
    let start = match raw.tag("FEN") {
        Some(fen) => Position::from_fen_in(startpos.tables(), fen).map_err(|e| GameError::Fen {
            fen: fen.to_string(),
            error: e.to_string(),
        })?,
        None => startpos.clone(),
    };
    // The moves as moves of the game: its history may forbid one the bare position allows.
    let mut played = engine::rules::game::Game::new(start.clone());
    let mut evals = Vec::with_capacity(raw.sans.len());
    for (i, (san, line)) in raw.sans.iter().enumerate() {
        let m = cache
            .parse(played.position(), played.history(), san)
            .map_err(|e| GameError::Move {
                line: *line,
                ply: i + 1,
                error: e.to_string(),
            })?;
        let mover = played.position().turn();
        played.play(m);
        let score = raw
            .comments
            .get(i)
            .and_then(|list| list.iter().find_map(|c| comment_score(c)));
        evals.push(score.map(|s| {
            if s.white_view || view == EvalView::White || mover == Color::White {
                s.cp
            } else {
                -s.cp
            }
        }));
    }
    Ok(Game {
        standard_start: start == startpos,
        start,
        moves: played.moves().to_vec(),
        evals,
        result: raw.result(),
        opening_plies: raw.tag("OpeningPlies").and_then(|p| p.trim().parse().ok()).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::rules::notation::pgn::read_games;

    #[test]
    fn scores_in_comments() {
        let cp = |c: &str| comment_score(c).map(|s| (s.cp, s.white_view));
        assert_eq!(cp("+0.35/12 0.51s"), Some((35, false)));
        assert_eq!(cp("-1.20"), Some((-120, false)));
        assert_eq!(cp("0.00/1"), Some((0, false)));
        assert_eq!(cp("+35"), Some((35, false)));
        assert_eq!(cp("-35/10"), Some((-35, false)));
        assert_eq!(cp(".5"), Some((50, false)));
        assert_eq!(cp("+M5/20"), Some((1000, false)));
        assert_eq!(cp("-M3"), Some((-1000, false)));
        assert_eq!(cp("#-4"), Some((-1000, false)));
        assert_eq!(cp("+25.00/3"), Some((1000, false)));
        assert_eq!(cp(" [%eval 0.4] [%clk 0:01:00]"), Some((40, true)));
        assert_eq!(cp("[%eval -2]"), Some((-200, true)));
        assert_eq!(cp("[%eval #-2]"), Some((-1000, true)));
        for none in [
            "book",
            "checkmate",
            "",
            "+",
            "1.2.3",
            "+0.3/x",
            "M",
            "e5",
            "-",
            "12abc",
            "[%eval ]",
        ] {
            assert_eq!(cp(none), None, "{none:?}");
        }
    }

    #[test]
    fn splits_like_the_engine_reader() {
        let text = "[Event \"x\"]\n[Variant \"chess\"]\n\n1. e4 {+0.30/5} e5 (1... c5 {x} 2. Nf3 (2. c3) d6) \
                    2. Nf3!? $1 {[%eval 0.2]} ; rest of line 2. Qh5\nNc6 1-0\n\n% escaped line\n[Event \"y\"]\n\n1.d4 d5 *\n\
                    [Event \"z\"]\n1. c4 c5\n[Event \"w\"]\n1. b3";
        let (games, error) = split_games(text, 100);
        assert_eq!(error, None);
        let engine = read_games(text, Variant::Chess).unwrap();
        assert_eq!(games.len(), engine.len());
        for (g, e) in games.iter().zip(&engine) {
            let ours = resolve(g, Variant::Chess, EvalView::Mover, &mut SanCache::default()).unwrap();
            assert_eq!(ours.moves, e.moves);
            assert_eq!(g.tags, e.tags);
            assert_eq!(g.total_plies, e.moves.len());
            let result = GameResult::pgn_or_unfinished(ours.result);
            assert_eq!(result, e.result);
        }
        let first = resolve(&games[0], Variant::Chess, EvalView::Mover, &mut SanCache::default()).unwrap();
        assert_eq!(first.evals, [Some(30), None, Some(20), None]);
        assert_eq!(games[0].comments[0], ["+0.30/5"]);
        // Only the first plies are kept, but all are counted.
        let (short, _) = split_games(text, 2);
        assert_eq!(short[0].sans.len(), 2);
        assert_eq!(short[0].total_plies, 4);
    }

    #[test]
    fn mover_view_is_turned_to_whites() {
        let text = "1. e4 {+0.50} e5 {+0.25} 2. Nf3 {-10} *";
        let (games, _) = split_games(text, 8);
        let mover = resolve(&games[0], Variant::Chess, EvalView::Mover, &mut SanCache::default()).unwrap();
        assert_eq!(mover.evals, [Some(50), Some(-25), Some(-10)]);
        let white = resolve(&games[0], Variant::Chess, EvalView::White, &mut SanCache::default()).unwrap();
        assert_eq!(white.evals, [Some(50), Some(25), Some(-10)]);
        assert_eq!(white.result, None);
    }

    /// A move the game forbids (Parsi Chess's perpetual-check ban: a third Nf7+ by checks alone)
    /// is an error of the game, also when the cache knows the move from the bare position.
    #[test]
    fn a_move_the_game_forbids_is_an_error() {
        let head = "[FEN \"5b1k/4p1pp/4P3/6N1/8/8/8/K7 w - - 0 1\"]\n\n";
        let cycle = "1. Nf7+ Kg8 2. Nh6+ Kh8 3. Nf7+ Kg8 4. Nh6+ Kh8";
        let (games, _) = split_games(&format!("{head}{cycle} 5. Nf7+ *"), 20);
        let mut cache = SanCache::default();
        // The position after the cycle, alone: Nf7+ is legal there and now cached.
        let bare = Position::from_fen(Variant::Parsi, "5b1k/4p1pp/4P2N/8/8/8/8/K7 w - - 8 5").unwrap();
        assert!(cache.parse(&bare, &[], "Nf7+").is_ok());
        let err = resolve(&games[0], Variant::Parsi, EvalView::Mover, &mut cache).unwrap_err();
        assert!(matches!(err, GameError::Move { ply: 9, .. }), "{err}");
        assert!(err.to_string().contains("perpetual check"), "{err}");
        let (games, _) = split_games(&format!("{head}{cycle} 5. Ng4 *"), 20);
        let game = resolve(&games[0], Variant::Parsi, EvalView::Mover, &mut cache).unwrap();
        assert_eq!(game.moves.len(), 9);
    }

    #[test]
    fn syntax_errors_keep_the_games_before() {
        let (games, error) = split_games("1. e4 e5 1-0\n\n1. d4 {open\n", 8);
        assert_eq!(games.len(), 1);
        assert_eq!(error.map(|e| e.line), Some(3));
    }
}
