//! The PGN lexer: tag pairs, SAN moves, comments and results from text; move numbers,
//! annotation glyphs, `;` comments, `%` escape lines and variations skipped.

use super::{PgnError, RESULTS};

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
