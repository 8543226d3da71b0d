//! The PGN reader: games from the lexer's tokens, each move checked against its position.

use super::{Lexer, PgnError, PgnGame, Token, RESULTS};
use crate::rules::{game::Game, position::Position, variant::Variant};

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
                b.play(&san, reader.line())?;
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
    /// The game as read so far: its moves are judged with its history (the perpetual-check ban).
    play: Option<Game>,
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
            play: None,
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
        self.play = Some(Game::new(start));
        self.game = Some(game);
        Ok(())
    }

    fn play(&mut self, san: &str, line: usize) -> Result<(), PgnError> {
        let (Some(game), Some(play)) = (self.game.as_mut(), self.play.as_mut()) else {
            return Ok(());
        };
        let m = play
            .position()
            .parse_san_in_game(san, play.history())
            .map_err(|error| PgnError::Move {
                game: self.number,
                line,
                ply: game.moves.len() + 1,
                error,
            })?;
        play.play(m);
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
