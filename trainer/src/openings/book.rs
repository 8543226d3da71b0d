//! Building the opening book from the games: for each position reached within the depth, the
//! moves played from it with their results (`engine::book` reads and uses the file).

use std::collections::{HashMap, HashSet};

use engine::{
    book::{Book, BookEntry},
    rules::Variant,
};

use engine::play::GameResult;

use super::pgn::Game;

/// Collects move statistics per position.
pub struct BookBuilder {
    plies: usize,
    include_opening_plies: bool,
    /// (position key, move) -> games, White wins, draws, Black wins.
    stats: HashMap<(u64, u32), [u64; 4]>,
    /// Moves left out because they were inside a game's `OpeningPlies`.
    forced_left_out: u64,
}

/// What the book holds, and what was left out.
#[derive(Clone, Copy, Debug, Default)]
pub struct BookCounts {
    /// Distinct (position, move) pairs seen.
    pub candidates: usize,
    /// Those in the book (enough games).
    pub entries: usize,
    /// Positions in the book.
    pub positions: usize,
    /// Moves left out because they were inside a game's `OpeningPlies`.
    pub forced_left_out: u64,
}

impl BookBuilder {
    /// A builder for positions within `plies` of the start. Moves inside a game's `OpeningPlies`
    /// (chosen by nobody, e.g. `engine match` random openings) count only with
    /// `include_opening_plies`.
    pub fn new(plies: usize, include_opening_plies: bool) -> BookBuilder {
        BookBuilder {
            plies,
            include_opening_plies,
            stats: HashMap::new(),
            forced_left_out: 0,
        }
    }

    /// Adds the first moves of a game. A position and move that occur twice in one game count
    /// once.
    pub fn add(&mut self, game: &Game) {
        let mut pos = game.start.clone();
        let mut seen = HashSet::new();
        for (ply, &m) in game.moves.iter().take(self.plies).enumerate() {
            let key = (pos.hash(), m.raw());
            pos.play_unchecked(m);
            if ply < game.opening_plies && !self.include_opening_plies {
                self.forced_left_out += 1;
                continue;
            }
            if !seen.insert(key) {
                continue;
            }
            let s = self.stats.entry(key).or_default();
            s[0] += 1;
            match game.result {
                Some(GameResult::WhiteWins) => s[1] += 1,
                Some(GameResult::Draw) => s[2] += 1,
                Some(GameResult::BlackWins) => s[3] += 1,
                None => {}
            }
        }
    }

    /// The book of the moves with at least `min_games` games.
    pub fn finish(&self, variant: Variant, min_games: u32, source_games: u64) -> (Book, BookCounts) {
        let clamp = |n: u64| n.min(u32::MAX as u64) as u32;
        let entries: Vec<BookEntry> = self
            .stats
            .iter()
            .filter(|(_, s)| s[0] >= min_games.max(1) as u64)
            .map(|(&(key, mv), s)| BookEntry {
                key,
                mv,
                games: clamp(s[0]),
                white_wins: clamp(s[1]),
                draws: clamp(s[2]),
                black_wins: clamp(s[3]),
            })
            .collect();
        let book = Book::new(variant, self.plies as u32, min_games, clamp(source_games), entries);
        let counts = BookCounts {
            candidates: self.stats.len(),
            entries: book.entries().len(),
            positions: book.positions(),
            forced_left_out: self.forced_left_out,
        };
        (book, counts)
    }
}
