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
//!
//! The writer is in `writer.rs`, the reader (games from tokens) in `reader.rs`, the lexer
//! (tokens from text) in `lexer.rs`.

mod lexer;
mod reader;
mod writer;

pub use lexer::{Lexer, Token};
pub use reader::{read_game, read_games};
pub use writer::{civil_date_from_unix_ms, date_from_unix_ms, today, wrap_movetext, write_game};

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

    /// A move the game forbids (Parsi Chess's perpetual-check ban: a third Nf7+ by checks alone)
    /// is an error of the game, though the bare position allows it.
    #[test]
    fn a_move_the_game_forbids_is_an_error() {
        let head = "[Variant \"Parsi\"]\n[SetUp \"1\"]\n[FEN \"5b1k/4p1pp/4P3/6N1/8/8/8/K7 w - - 0 1\"]\n";
        let cycle = "1. Nf7+ Kg8 2. Nh6+ Kh8 3. Nf7+ Kg8 4. Nh6+ Kh8";
        let ok = read_games(&format!("{head}{cycle} 5. Ng4 *"), Variant::Chess).expect("a legal game");
        assert_eq!(ok[0].moves.len(), 9);
        let banned = read_games(&format!("{head}{cycle} 5. Nf7+ *"), Variant::Chess);
        match banned {
            Err(PgnError::Move {
                ply: 9,
                error: SanError::ForbiddenInGame(ref san),
                ..
            }) => assert_eq!(san, "Nf7+"),
            other => panic!("{other:?}"),
        }
        let text = banned.unwrap_err().to_string();
        assert!(text.contains("perpetual check"), "{text}");
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
