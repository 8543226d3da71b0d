//! Portable Game Notation (PGN): a writer, and a reader for what the writer writes.
//!
//! The writer emits the Seven Tag Roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//! `Result`), then `Variant` (the variant's PGN name, or the game's own `Variant` tag when that
//! names the same variant, e.g. Lichess's "From Position" for chess), `SetUp "1"` and `FEN` when
//! the game does not start
//! from the variant's start position, `PlyCount` and `Termination`, then any other tags in the
//! order given. The movetext is SAN with move numbers (`1. e5 e7 2. ...`; a game that starts with
//! Black to move begins `1... `, with the FEN's move number), an optional final comment and the
//! result, wrapped at 80 columns.
//!
//! The reader takes any number of games. It reads tag pairs and SAN moves and skips comments
//! (`{...}` and `;` to the end of the line), variations (`(...)`, nested), numeric annotation
//! glyphs (`$1`), move numbers, `%` escape lines and suffix annotations (`!?`). The variant comes
//! from the `Variant` tag (a fallback is given by the caller), the start position from the `FEN`
//! tag. Every move is checked against the position: a move that is not legal is an error.

use std::fmt::Write as _;

use super::{fen::FenError, san::SanError};
use crate::rules::{
    moves::Move,
    position::Position,
    variant::{UnknownVariantError, Variant},
};

/// The longest line the writer produces (unless a single token is longer).
pub const LINE_WIDTH: usize = 80;

/// The tags of the Seven Tag Roster, in their required order.
pub const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The game results PGN knows.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game: tags, start position, moves, result and an optional comment after the last move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in order. The writer derives `Result`, `Variant`, `SetUp`, `FEN` and `PlyCount`
    /// from the game itself and ignores them here; the reader returns every tag it read.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The moves, each legal in the position before it.
    pub moves: Vec<Move>,
    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// A comment written after the last move (e.g. why the game ended).
    pub final_comment: Option<String>,
    /// Comments written after each move (index = ply - 1; empty or missing: none), e.g.
    /// Lichess's clock comments `[%clk 0:02:58]`. The writer writes them; the reader skips
    /// comments between moves, so it leaves this empty.
    pub move_comments: Vec<String>,
}

impl PgnGame {
    /// A game from `start` without moves, tags or result (`*`).
    pub fn new(start: Position) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: "*".to_string(),
            final_comment: None,
            move_comments: Vec::new(),
        }
    }

    /// The value of a tag (the first one of that name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an earlier value or adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The variant of the game.
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The position after all the moves.
    pub fn end(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The game in PGN, ending with a blank line (so that games can be concatenated).
    pub fn to_pgn(&self) -> String {
        write_game(self)
    }
}

/// Writes one game in PGN (see the module documentation), ending with an empty line.
pub fn write_game(game: &PgnGame) -> String {
    let variant = game.variant();
    let derived = [
        "Result",
        "Variant",
        "VariantRules",
        "SetUp",
        "FEN",
        "PlyCount",
        "Termination",
    ];
    let mut out = String::new();
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => game.result.clone(),
            "Date" => game.tag(name).unwrap_or("????.??.??").to_string(),
            _ => game.tag(name).unwrap_or("?").to_string(),
        };
        write_tag(&mut out, name, &value);
    }
    // The game's own name of its variant (Lichess writes "From Position" for chess from a set-up
    // position) when it names the same variant; the variant's PGN name otherwise.
    let variant_name = game
        .tag("Variant")
        .filter(|name| name.parse::<Variant>() == Ok(variant))
        .unwrap_or(variant.spec().pgn_name);
    write_tag(&mut out, "Variant", variant_name);
    // Rule settings other than the variant's defaults (the readings its rules note leaves open).
    let rules = &game.start.tables().rule_settings;
    if !rules.is_empty() {
        write_tag(&mut out, "VariantRules", rules);
    }
    if game.start.fen() != game.start.tables().spec.start_fen {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", &game.start.fen());
    }
    write_tag(&mut out, "PlyCount", &game.moves.len().to_string());
    let termination = match game.tag("Termination") {
        Some(t) => t,
        None if game.result == "*" => "Unterminated",
        None => "Normal",
    };
    write_tag(&mut out, "Termination", termination);
    for (name, value) in &game.tags {
        if !SEVEN_TAG_ROSTER.contains(&name.as_str()) && !derived.contains(&name.as_str()) {
            write_tag(&mut out, name, value);
        }
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::with_capacity(game.moves.len() * 3 / 2 + 8);
    let mut pos = game.start.clone();
    let mut after_comment = false;
    for (i, &m) in game.moves.iter().enumerate() {
        // A move number stays on the line of its move; Black's move after a comment gets one.
        let number = pos.fullmove_number();
        let san = pos.san(m);
        if pos.turn() == crate::rules::Color::White {
            tokens.push(format!("{number}. {san}"));
        } else if i == 0 || after_comment {
            tokens.push(format!("{number}... {san}"));
        } else {
            tokens.push(san);
        }
        pos.play_unchecked(m);
        let comment = game.move_comments.get(i).map(|c| c.trim()).unwrap_or("");
        after_comment = !comment.is_empty();
        if after_comment {
            push_comment(&mut tokens, comment);
        }
    }
    if let Some(c) = &game.final_comment {
        push_comment(&mut tokens, c);
    }
    tokens.push(game.result.clone());
    out.push_str(&wrap_movetext(&tokens));
    out
}

/// A `{comment}` as tokens: split into words so that long comments wrap too; a brace inside
/// would end it early, so it becomes a parenthesis.
fn push_comment(tokens: &mut Vec<String>, comment: &str) {
    let clean: String = comment.chars().map(|ch| if ch == '}' { ')' } else { ch }).collect();
    // Words, an embedded command such as `[%clk 0:01:00.0]` kept as one (a line is not broken
    // inside it).
    let mut words: Vec<String> = Vec::new();
    let mut in_command = false;
    for w in clean.split_whitespace() {
        match words.last_mut() {
            Some(last) if in_command => {
                last.push(' ');
                last.push_str(w);
            }
            _ => words.push(w.to_string()),
        }
        if w.starts_with("[%") {
            in_command = true;
        }
        if w.ends_with(']') {
            in_command = false;
        }
    }
    if words.is_empty() {
        return;
    }
    let last = words.len() - 1;
    for (i, w) in words.iter().enumerate() {
        let mut t = String::new();
        if i == 0 {
            t.push('{');
        }
        t.push_str(w);
        if i == last {
            t.push('}');
        }
        tokens.push(t);
    }
}

/// The civil date (year, month, day; UTC) of a time in milliseconds since the Unix epoch.
pub fn civil_date_from_unix_ms(ms: u64) -> (i64, i64, i64) {
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (ms / 86_400_000) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The PGN date (`YYYY.MM.DD`, UTC) of a time in milliseconds since the Unix epoch.
pub fn date_from_unix_ms(ms: u64) -> String {
    let (year, month, day) = civil_date_from_unix_ms(ms);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Today's PGN date (UTC).
pub fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    date_from_unix_ms(ms)
}

/// Joins movetext tokens (move numbers, moves, comments, the result) with single spaces into
/// lines of at most [`LINE_WIDTH`] characters, and ends the game with a blank line.
pub fn wrap_movetext(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// Why PGN text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// The text is not well-formed PGN (e.g. an unterminated tag or comment).
    #[error("line {line}: {message}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The `Variant` tag names no known variant.
    #[error("game {game}: {error}")]
    Variant {
        /// 1-based game number in the text.
        game: usize,
        /// The error.
        error: UnknownVariantError,
    },
    /// The `VariantRules` tag names rule settings the variant does not have.
    #[error("game {game}: VariantRules: {error}")]
    Rules {
        /// 1-based game number in the text.
        game: usize,
        /// The error.
        error: crate::rules::variant::RuleSettingsError,
    },
    /// The `FEN` tag cannot be read.
    #[error("game {game}: FEN '{fen}': {error}")]
    Fen {
        /// 1-based game number in the text.
        game: usize,
        /// The FEN.
        fen: String,
        /// The error.
        error: FenError,
    },
    /// A move is not legal.
    #[error("game {game}, line {line}, ply {ply}: {error}")]
    Move {
        /// 1-based game number in the text.
        game: usize,
        /// 1-based line number.
        line: usize,
        /// 1-based ply of the game.
        ply: usize,
        /// The error.
        error: SanError,
    },
}

/// Reads every game of a PGN text. Games without a `Variant` tag are of `fallback`.
pub fn read_games(text: &str, fallback: Variant) -> Result<Vec<PgnGame>, PgnError> {
    let mut reader = Lexer::new(text);
    let mut games = Vec::new();
    let mut current: Option<Builder> = None;
    while let Some(token) = reader.next_token()? {
        match token {
            Token::Tag(name, value) => {
                if current.as_ref().is_some_and(|b| b.in_movetext) {
                    // A tag after moves: the previous game ended without a result.
                    if let Some(b) = current.take() {
                        games.push(b.finish(None));
                    }
                }
                current
                    .get_or_insert_with(|| Builder::new(games.len() + 1, fallback))
                    .tags
                    .push((name, value));
            }
            Token::Result(r) => {
                let mut b = current
                    .take()
                    .unwrap_or_else(|| Builder::new(games.len() + 1, fallback));
                b.start_movetext()?;
                games.push(b.finish(Some(r)));
            }
            Token::Comment(c) => {
                if let Some(b) = current.as_mut().filter(|b| b.in_movetext) {
                    b.last_comment = Some(c);
                }
            }
            Token::San(san) => {
                let b = current.get_or_insert_with(|| Builder::new(games.len() + 1, fallback));
                b.start_movetext()?;
                b.play(&san, reader.line)?;
            }
        }
    }
    if let Some(mut b) = current {
        b.start_movetext()?;
        games.push(b.finish(None));
    }
    Ok(games)
}

/// Reads the first game of a PGN text (see [`read_games`]); `None` when the text holds no game.
pub fn read_game(text: &str, fallback: Variant) -> Result<Option<PgnGame>, PgnError> {
    Ok(read_games(text, fallback)?.into_iter().next())
}

/// A game being read.
struct Builder {
    number: usize,
    fallback: Variant,
    tags: Vec<(String, String)>,
    in_movetext: bool,
    game: Option<PgnGame>,
    pos: Option<Position>,
    last_comment: Option<String>,
}

impl Builder {
    fn new(number: usize, fallback: Variant) -> Builder {
        Builder {
            number,
            fallback,
            tags: Vec::new(),
            in_movetext: false,
            game: None,
            pos: None,
            last_comment: None,
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Resolves the tags into the start position (once).
    fn start_movetext(&mut self) -> Result<(), PgnError> {
        if self.game.is_some() {
            return Ok(());
        }
        self.in_movetext = true;
        let variant = match self.tag("Variant") {
            Some(v) => v.parse::<Variant>().map_err(|error| PgnError::Variant {
                game: self.number,
                error,
            })?,
            None => self.fallback,
        };
        let tables = variant
            .tables_with(self.tag("VariantRules").unwrap_or(""))
            .map_err(|error| PgnError::Rules {
                game: self.number,
                error,
            })?;
        let fen = self.tag("FEN").unwrap_or(tables.spec.start_fen);
        let start = Position::from_fen_in(tables, fen).map_err(|error| PgnError::Fen {
            game: self.number,
            fen: fen.to_string(),
            error,
        })?;
        let mut game = PgnGame::new(start.clone());
        game.tags = std::mem::take(&mut self.tags);
        self.pos = Some(start);
        self.game = Some(game);
        Ok(())
    }

    fn play(&mut self, san: &str, line: usize) -> Result<(), PgnError> {
        let (Some(game), Some(pos)) = (self.game.as_mut(), self.pos.as_mut()) else {
            return Ok(());
        };
        let m = pos.parse_san(san).map_err(|error| PgnError::Move {
            game: self.number,
            line,
            ply: game.moves.len() + 1,
            error,
        })?;
        pos.play_unchecked(m);
        game.moves.push(m);
        // A comment belongs to the last move only if nothing follows it.
        self.last_comment = None;
        Ok(())
    }

    fn finish(mut self, result: Option<String>) -> PgnGame {
        let fallback = self.fallback;
        let mut game = self.game.take().unwrap_or_else(|| {
            let mut g = PgnGame::new(Position::startpos(fallback));
            g.tags = std::mem::take(&mut self.tags);
            g
        });
        game.result = result
            .or_else(|| game.tag("Result").filter(|r| RESULTS.contains(r)).map(str::to_string))
            .unwrap_or_else(|| "*".to_string());
        game.final_comment = self.last_comment.take();
        game
    }
}

/// A lexical token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A tag pair `[Name "value"]`.
    Tag(String, String),
    /// A game result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    Result(String),
    /// A `{...}` comment (whitespace collapsed).
    Comment(String),
    /// A move in SAN, move numbers stripped.
    San(String),
}

/// Splits PGN text into tokens: tag pairs, SAN moves, comments and results. Move numbers,
/// numeric annotation glyphs, `;` comments, `%` escape lines and variations are skipped.
pub struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer over `text`.
    pub fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text: text.as_bytes(),
            at: 0,
            line: 1,
        }
    }

    /// The 1-based line the lexer has reached.
    pub fn line(&self) -> usize {
        self.line
    }
}

impl Lexer<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn error(&self, message: impl Into<String>) -> PgnError {
        PgnError::Syntax {
            line: self.line,
            message: message.into(),
        }
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.text.get(self.at - 1) == Some(&b'\n')
    }

    fn skip_to_line_end(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.bump();
        }
    }

    /// Reads a `{...}` comment; the `{` is consumed already.
    fn comment(&mut self) -> Result<String, PgnError> {
        let start_line = self.line;
        let from = self.at;
        loop {
            match self.bump() {
                Some(b'}') => break,
                Some(_) => {}
                None => {
                    return Err(PgnError::Syntax {
                        line: start_line,
                        message: "unterminated comment".into(),
                    })
                }
            }
        }
        let body = &self.text[from..self.at - 1];
        Ok(String::from_utf8_lossy(body)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Skips a variation, nested ones and comments in it; the `(` is consumed already.
    fn variation(&mut self) -> Result<(), PgnError> {
        let start_line = self.line;
        let mut depth = 1;
        while depth > 0 {
            match self.bump() {
                Some(b'(') => depth += 1,
                Some(b')') => depth -= 1,
                Some(b'{') => {
                    self.comment()?;
                }
                Some(b';') => self.skip_to_line_end(),
                Some(_) => {}
                None => {
                    return Err(PgnError::Syntax {
                        line: start_line,
                        message: "unterminated variation".into(),
                    })
                }
            }
        }
        Ok(())
    }

    /// Reads a tag pair; the `[` is consumed already.
    fn tag(&mut self) -> Result<Token, PgnError> {
        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
            self.bump();
        }
        let from = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
            self.bump();
        }
        let name = String::from_utf8_lossy(&self.text[from..self.at]).into_owned();
        if name.is_empty() {
            return Err(self.error("tag without a name"));
        }
        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
            self.bump();
        }
        if self.bump() != Some(b'"') {
            return Err(self.error(format!("tag {name}: the value must be a quoted string")));
        }
        let mut value = Vec::new();
        loop {
            match self.bump() {
                Some(b'\\') => match self.bump() {
                    Some(c) => value.push(c),
                    None => return Err(self.error(format!("tag {name}: unterminated value"))),
                },
                Some(b'"') => break,
                Some(b'\n') | None => return Err(self.error(format!("tag {name}: unterminated value"))),
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
            self.bump();
        }
        if self.bump() != Some(b']') {
            return Err(self.error(format!("tag {name}: missing ']'")));
        }
        Ok(Token::Tag(name, String::from_utf8_lossy(&value).into_owned()))
    }

    /// The next token, `None` at the end of the text.
    pub fn next_token(&mut self) -> Result<Option<Token>, PgnError> {
        loop {
            let Some(c) = self.peek() else { return Ok(None) };
            if c == b'%' && self.at_line_start() {
                self.skip_to_line_end();
                continue;
            }
            match c {
                c if c.is_ascii_whitespace() => {
                    self.bump();
                }
                b'[' => {
                    self.bump();
                    return self.tag().map(Some);
                }
                b'{' => {
                    self.bump();
                    return self.comment().map(|c| Some(Token::Comment(c)));
                }
                b';' => self.skip_to_line_end(),
                b'(' => {
                    self.bump();
                    self.variation()?;
                }
                b')' | b'}' | b']' => return Err(self.error(format!("unexpected '{}'", c as char))),
                _ => {
                    let from = self.at;
                    while self
                        .peek()
                        .is_some_and(|c| !c.is_ascii_whitespace() && !b"[]{}();".contains(&c))
                    {
                        self.bump();
                    }
                    let word = String::from_utf8_lossy(&self.text[from..self.at]).into_owned();
                    if let Some(t) = classify(&word) {
                        return Ok(Some(t));
                    }
                }
            }
        }
    }
}

/// Turns a word of movetext into a token; `None` for what is skipped (move numbers, NAGs).
fn classify(word: &str) -> Option<Token> {
    if RESULTS.contains(&word) {
        return Some(Token::Result(word.to_string()));
    }
    if word.starts_with('$') {
        return None;
    }
    // Move numbers: "12." "12..." "12" or glued to the move: "12.e5".
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if rest.len() < word.len() && (rest.is_empty() || rest.starts_with('.')) {
        rest.trim_start_matches('.')
    } else {
        word
    };
    let rest = rest.trim_start_matches('.');
    if rest.is_empty() {
        return None;
    }
    Some(Token::San(rest.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;

    use crate::rng::SplitMix64 as Rng;

    fn random_game(start: Position, rng: &mut Rng, max_plies: usize) -> (Vec<Move>, Option<String>) {
        let mut game = Game::new(start);
        while game.moves().len() < max_plies {
            if game.outcome().is_some() {
                break;
            }
            let moves = game.position().legal_moves();
            let m = moves.as_slice()[rng.below(moves.len())];
            game.play(m);
        }
        let result = game.outcome().map(|o| o.result().to_string());
        (game.moves().to_vec(), result)
    }

    fn check_round_trip(game: &PgnGame) {
        let text = game.to_pgn();
        for line in text.lines().filter(|l| !l.starts_with('[')) {
            assert!(line.len() <= LINE_WIDTH, "line too long: {line}");
        }
        let back = read_games(&text, Variant::Chess).expect("reads back");
        assert_eq!(back.len(), 1, "{text}");
        let b = &back[0];
        assert_eq!(b.start, game.start, "{text}");
        assert_eq!(b.moves, game.moves, "{text}");
        assert_eq!(b.result, game.result);
        assert_eq!(b.final_comment, game.final_comment);
        assert_eq!(b.tag("Variant"), Some(game.variant().spec().pgn_name));
        assert_eq!(b.tag("PlyCount"), Some(game.moves.len().to_string().as_str()));
        for (name, value) in &game.tags {
            assert_eq!(b.tag(name), Some(value.as_str()), "tag {name}");
        }
        // Writing what was read gives the same text.
        assert_eq!(b.to_pgn(), text);
    }

    #[test]
    fn round_trip_random_games_in_every_variant() {
        let mut rng = Rng::new(7);
        for v in Variant::ALL {
            for i in 0..6 {
                let (moves, result) = random_game(Position::startpos(v), &mut rng, 60 + 40 * i);
                let mut game = PgnGame::new(Position::startpos(v));
                game.moves = moves;
                game.result = result.unwrap_or_else(|| "*".into());
                game.set_tag("Event", "Round \"trip\" \\ test");
                game.set_tag("White", "A");
                game.set_tag("Black", "B");
                game.set_tag("Round", (i + 1).to_string());
                if i % 2 == 0 {
                    game.final_comment = Some("game over: a long comment that must wrap like moves".into());
                }
                check_round_trip(&game);
                assert!(!game.to_pgn().contains("[FEN "));
            }
        }
    }

    #[test]
    fn parsi_games_are_tagged_by_name() {
        let game = PgnGame::new(Position::startpos(Variant::Parsi));
        assert!(game.to_pgn().contains("[Variant \"Parsi\"]"));
        // Rule settings travel in a tag of their own and come back.
        let tables = Variant::Parsi.tables_with("ludii").expect("settings");
        let mut ludii = PgnGame::new(Position::from_fen_in(tables, tables.spec.start_fen).expect("start"));
        let mut rng = Rng::new(5);
        (ludii.moves, _) = random_game(ludii.start.clone(), &mut rng, 40);
        assert!(ludii.to_pgn().contains("[VariantRules \"ludii\"]"));
        assert!(!ludii.to_pgn().contains("[FEN "));
        check_round_trip(&ludii);
        let bad = read_games(
            "[Variant \"Parsi\"]\n[VariantRules \"castling\"]\n\n1. e4 *\n",
            Variant::Chess,
        );
        assert!(matches!(bad, Err(PgnError::Rules { game: 1, .. })), "{bad:?}");
        for name in ["Parsi", "parsi", "Parsi Chess", "parsi-chess"] {
            let back = read_games(&format!("[Variant \"{name}\"]\n\n1. e4 *\n"), Variant::Chess).expect("reads");
            assert_eq!(back[0].variant(), Variant::Parsi, "{name}");
        }
    }

    #[test]
    fn black_to_move_start_has_a_fen_tag() {
        let v = Variant::PersianPrincess;
        let mut start = Position::startpos(v);
        let first = start.legal_moves().as_slice()[3];
        start.play_unchecked(first);
        let mut rng = Rng::new(11);
        let (moves, _) = random_game(start.clone(), &mut rng, 9);
        let mut game = PgnGame::new(start.clone());
        game.moves = moves;
        game.set_tag("Termination", "Adjudication");
        let text = game.to_pgn();
        assert!(text.contains("[SetUp \"1\"]"), "{text}");
        assert!(text.contains(&format!("[FEN \"{}\"]", start.fen())), "{text}");
        assert!(text.contains("[Termination \"Adjudication\"]"), "{text}");
        let movetext = text.split("\n\n").nth(1).unwrap_or_default();
        assert!(movetext.starts_with("1... "), "{movetext}");
        assert!(movetext.contains(" 2. "), "{movetext}");
        check_round_trip(&game);
    }

    #[test]
    fn reads_comments_variations_nags_and_several_games() {
        let text = "[Event \"x\"]\n[Variant \"chess\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3) d6) \
                    2. Nf3!? $1 ; rest of line 2. Qh5\nNc6 1-0\n\n% escaped line\n[Event \"y\"]\n\n1.d4 d8 *\n";
        let games = read_games(text, Variant::PersianPrincess).expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 4);
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[1].moves.len(), 2);
        assert_eq!(games[1].variant(), Variant::PersianPrincess);
        assert_eq!(games[1].tag("Event"), Some("y"));
    }

    #[test]
    fn errors_are_reported() {
        let bad_move = read_games("[Variant \"chess\"]\n1. e4 e4 *", Variant::Chess);
        assert!(matches!(bad_move, Err(PgnError::Move { ply: 2, .. })), "{bad_move:?}");
        let bad_variant = read_games("[Variant \"xiangqi\"]\n1. e4 *", Variant::Chess);
        assert!(matches!(bad_variant, Err(PgnError::Variant { .. })));
        let bad_fen = read_games("[FEN \"nonsense\"]\n1. e4 *", Variant::Chess);
        assert!(matches!(bad_fen, Err(PgnError::Fen { .. })));
        assert!(matches!(
            read_games("1. e4 {open", Variant::Chess),
            Err(PgnError::Syntax { .. })
        ));
        assert!(matches!(
            read_games("[Event \"open", Variant::Chess),
            Err(PgnError::Syntax { .. })
        ));
        assert_eq!(read_games("", Variant::Chess), Ok(Vec::new()));
    }

    #[test]
    fn move_comments_are_written_and_read_past() {
        let start = Position::startpos(Variant::Chess);
        let mut game = PgnGame::new(start.clone());
        let mut pos = start;
        for uci in ["e2e4", "e7e5", "g1f3"] {
            let m = pos.parse_uci(uci).expect("legal");
            pos.play_unchecked(m);
            game.moves.push(m);
        }
        game.move_comments = vec!["[%clk 0:03:00]".into(), "[%clk 0:02:59]".into()];
        let text = game.to_pgn();
        assert!(
            text.contains("1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:02:59]} 2. Nf3 *"),
            "{text}"
        );
        let back = read_games(&text, Variant::Chess).expect("reads");
        assert_eq!(back[0].moves, game.moves);
        // Lines are not broken inside a command.
        let mut long = game.clone();
        for _ in 0..20 {
            for uci in ["b8c6", "f3g1", "c6b8", "g1f3"] {
                let m = pos.parse_uci(uci).expect("legal");
                pos.play_unchecked(m);
                long.moves.push(m);
            }
        }
        long.move_comments = vec!["[%clk 0:00:59.9]".to_string(); long.moves.len()];
        let text = long.to_pgn();
        for line in text.lines().filter(|l| !l.starts_with('[')) {
            assert_eq!(line.matches("[%clk").count(), line.matches(".9]").count(), "{line}");
            assert!(line.len() <= LINE_WIDTH, "{line}");
        }
    }

    #[test]
    fn variant_tag_names_the_game_variant() {
        let start = Position::startpos(Variant::Chess);
        let mut game = PgnGame::new(start.clone());
        assert!(game.to_pgn().contains("[Variant \"Standard\"]"), "{}", game.to_pgn());
        game.set_tag("Variant", "From Position");
        assert!(game.to_pgn().contains("[Variant \"From Position\"]"));
        let back = read_games(&game.to_pgn(), Variant::PersianPrincess).expect("reads");
        assert_eq!(back[0].start.variant(), Variant::Chess);
        // A tag naming another variant is not written: the game's variant decides.
        game.set_tag("Variant", "persian-princess");
        assert!(game.to_pgn().contains("[Variant \"Standard\"]"));
    }
}
