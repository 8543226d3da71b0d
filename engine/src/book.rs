//! Opening books: statistics of the moves played from positions of the opening, in a small binary
//! file (`docs/openings.md` documents it byte by byte), and a weighted random choice among them.
//!
//! `trainer openings` writes books; the engine (UCI `BookFile`) and the bot read them. A book
//! belongs to one variant. Positions are looked up by their Zobrist hash ([`Position::hash`]), so
//! transpositions share their statistics, and a move is only ever played when it is legal in the
//! position at hand ([`Position::is_legal_move`]): a hash collision or a damaged entry cannot make
//! the engine play an illegal move.
//!
//! The weight of a move is `games * (points + 0.5) / (finished + 1)`: how often it was played,
//! times the mover's score with one virtual draw added (points = the mover's wins plus half the
//! draws, finished = the games of that move with a result). The virtual draw keeps a move that
//! scored 0 % in few games possible, and pulls the score of rarely played moves towards 50 %.
//!
//! ```
//! use engine::book::{Book, BookEntry, BookRng};
//! use engine::rules::{Position, Variant};
//!
//! let pos = Position::startpos(Variant::PersianPrincess);
//! let e5 = pos.parse_uci("e3e5").unwrap();
//! let entry = BookEntry { key: pos.hash(), mv: e5.raw(), games: 10, white_wins: 5, draws: 3, black_wins: 2 };
//! let book = Book::new(Variant::PersianPrincess, 8, 5, 10, vec![entry]);
//! let back = Book::from_bytes(&book.to_bytes()).unwrap();
//! let choice = back.pick(&pos, &mut BookRng::new(1)).unwrap();
//! assert_eq!(choice.mv, e5);
//! assert_eq!(choice.mover_score(), Some(0.65));
//! ```
#![deny(missing_docs)]

use std::{
    fmt,
    io::Read,
    path::{Path, PathBuf},
};

use crate::{
    input_file::{self, InputFileError},
    rules::{Color, Move, Position, Variant},
};

/// The first eight bytes of a book file.
pub const MAGIC: [u8; 8] = *b"PCBOOK\0\0";
/// The format version this module reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of one entry.
pub const ENTRY_SIZE: usize = 28;
/// The largest book file read (bytes): about 38 million entries.
pub const MAX_FILE_SIZE: u64 = 1 << 30;
/// The longest variant id in a header.
const MAX_ID_LEN: usize = 64;
/// Bytes of the longest header a file can start with (magic, version, variant code, id length
/// and an id of up to 255 bytes, depth, minimum games, game count, entry count).
const MAX_HEADER_LEN: usize = 8 + 4 + 1 + 1 + u8::MAX as usize + 4 * 4;

/// The statistics of one move from one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's Zobrist hash ([`Position::hash`]).
    pub key: u64,
    /// The move ([`Move::raw`]).
    pub mv: u32,
    /// Games in which the move was played from the position (finished or not).
    pub games: u32,
    /// Of those, games White won.
    pub white_wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games Black won.
    pub black_wins: u32,
}

impl BookEntry {
    /// Games with a result (`white_wins + draws + black_wins`).
    pub fn finished(&self) -> u64 {
        self.white_wins as u64 + self.draws as u64 + self.black_wins as u64
    }

    /// The score of `mover` over the finished games (0 to 1), `None` without finished games.
    pub fn score_for(&self, mover: Color) -> Option<f64> {
        let finished = self.finished();
        (finished > 0).then(|| self.points_for(mover) / finished as f64)
    }

    /// Wins of `mover` plus half the draws.
    fn points_for(&self, mover: Color) -> f64 {
        let wins = match mover {
            Color::White => self.white_wins,
            Color::Black => self.black_wins,
        };
        wins as f64 + self.draws as f64 / 2.0
    }

    /// The weight of the move for `mover`: `games * (points + 0.5) / (finished + 1)` (see the
    /// module documentation).
    pub fn weight_for(&self, mover: Color) -> f64 {
        let smoothed = (self.points_for(mover) + 0.5) / (self.finished() as f64 + 1.0);
        self.games as f64 * smoothed
    }
}

/// A legal book move of a position, with its statistics and weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    /// The move (legal in the position it was found for).
    pub mv: Move,
    /// The side that plays it.
    pub mover: Color,
    /// Its statistics.
    pub entry: BookEntry,
    /// Its weight (see the module documentation).
    pub weight: f64,
}

impl BookMove {
    /// The mover's score over the finished games (0 to 1).
    pub fn mover_score(&self) -> Option<f64> {
        self.entry.score_for(self.mover)
    }

    /// One line for users: `12 games, +5 =4 -3 for White, score 58.3%, weight 6.92`.
    pub fn describe(&self) -> String {
        let e = &self.entry;
        let (w, l) = match self.mover {
            Color::White => (e.white_wins, e.black_wins),
            Color::Black => (e.black_wins, e.white_wins),
        };
        let score = match self.mover_score() {
            Some(s) => format!("{:.1}%", s * 100.0),
            None => "-".to_string(),
        };
        format!(
            "{} game{}, +{w} ={} -{l} for {}, score {score}, weight {:.2}",
            e.games,
            if e.games == 1 { "" } else { "s" },
            e.draws,
            match self.mover {
                Color::White => "White",
                Color::Black => "Black",
            },
            self.weight
        )
    }
}

/// Why the bytes of a book are not a book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The file ends inside a field.
    #[error("truncated: the file ends inside the {field} at byte {offset}")]
    Truncated {
        /// The field.
        field: &'static str,
        /// Its byte offset.
        offset: usize,
    },
    /// The first bytes are not the book magic.
    #[error("not an opening book (the file does not start with 'PCBOOK')")]
    WrongMagic,
    /// Another format version.
    #[error("book format version {0} is not supported (this engine reads version {VERSION})")]
    UnsupportedVersion(u32),
    /// The variant id is empty, too long or not UTF-8.
    #[error("the variant id in the header is damaged")]
    BadVariantId,
    /// The size does not match the entry count.
    #[error("the header announces {entries} entries ({expected} bytes in all), but the file has {actual} bytes")]
    SizeMismatch {
        /// The entry count of the header.
        entries: u32,
        /// The size the file should have.
        expected: u64,
        /// The size it has.
        actual: u64,
    },
    /// The checksum does not match the contents.
    #[error(
        "checksum mismatch: the file says {stored:#010x}, its contents give {computed:#010x} (the file is damaged)"
    )]
    ChecksumMismatch {
        /// The checksum in the file.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    /// The variant code is unknown or does not match the variant id.
    #[error("unknown variant: code {code}, id '{id}'")]
    UnknownVariant {
        /// The code.
        code: u8,
        /// The id.
        id: String,
    },
    /// Entries are not sorted by key and move, or one appears twice.
    #[error("entry {index} is out of order (entries must be sorted by key, then move, without duplicates)")]
    NotSorted {
        /// 0-based index of the entry.
        index: usize,
    },
    /// An entry's counts are impossible.
    #[error("entry {index} has impossible statistics (no games, more results than games, or a null move)")]
    BadEntry {
        /// 0-based index of the entry.
        index: usize,
    },
}

/// Why a book file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file cannot be read.
    #[error("cannot read book '{}': {error}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is too large to be a book.
    #[error("'{}' is not an opening book: {size} bytes is more than the largest book ({MAX_FILE_SIZE} bytes)", .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
    },
    /// The path names no regular file (a FIFO, a device, a directory): it is not read.
    #[error("cannot read book '{}': it is {kind}, not a regular file", .path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is, e.g. `a FIFO (named pipe)`.
        kind: &'static str,
    },
    /// The contents are not a valid book.
    #[error("'{}' is not a valid opening book: {error}", .path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// Why.
        error: FormatError,
    },
    /// The book is for another variant.
    #[error("book '{}' is for {book}, not for {wanted} (set UCI_Variant before BookFile)", .path.display())]
    WrongVariant {
        /// The file.
        path: PathBuf,
        /// The book's variant.
        book: Variant,
        /// The variant asked for.
        wanted: Variant,
    },
}

/// An opening book: entries sorted by key and move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    plies: u32,
    min_games: u32,
    source_games: u32,
    entries: Vec<BookEntry>,
}

impl Book {
    /// A book from entries in any order; entries with the same key and move are merged (their
    /// counts added, saturating).
    pub fn new(variant: Variant, plies: u32, min_games: u32, source_games: u32, mut entries: Vec<BookEntry>) -> Book {
        entries.sort_by_key(|e| (e.key, e.mv));
        let mut merged: Vec<BookEntry> = Vec::with_capacity(entries.len());
        for e in entries {
            match merged.last_mut() {
                Some(last) if (last.key, last.mv) == (e.key, e.mv) => {
                    last.games = last.games.saturating_add(e.games);
                    last.white_wins = last.white_wins.saturating_add(e.white_wins);
                    last.draws = last.draws.saturating_add(e.draws);
                    last.black_wins = last.black_wins.saturating_add(e.black_wins);
                }
                _ => merged.push(e),
            }
        }
        Book {
            variant,
            plies,
            min_games,
            source_games,
            entries: merged,
        }
    }

    /// The variant the book is for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The depth in plies the book was built to (as recorded by its writer).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The fewest games a move needed to enter the book (as recorded by its writer).
    pub fn min_games(&self) -> u32 {
        self.min_games
    }

    /// The number of games the book was built from (as recorded by its writer).
    pub fn source_games(&self) -> u32 {
        self.source_games
    }

    /// Every entry, sorted by key and move.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The number of distinct positions.
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for e in &self.entries {
            if last != Some(e.key) {
                n += 1;
                last = Some(e.key);
            }
        }
        n
    }

    /// The entries of a position key (possibly none).
    pub fn entries_for(&self, key: u64) -> &[BookEntry] {
        let from = self.entries.partition_point(|e| e.key < key);
        let to = self.entries.partition_point(|e| e.key <= key);
        &self.entries[from..to]
    }

    /// The book moves of a position that are legal there, heaviest first (ties by move). Empty
    /// when the position is out of book or belongs to another variant.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        self.moves_in_game(pos, &[])
    }

    /// As [`Book::moves`], for the position of a game whose earlier positions are `history`
    /// (their hashes, oldest first): a move the game forbids there (Parsi Chess's
    /// perpetual-check ban) is left out.
    pub fn moves_in_game(&self, pos: &Position, history: &[u64]) -> Vec<BookMove> {
        if pos.variant() != self.variant {
            return Vec::new();
        }
        let mover = pos.turn();
        let mut moves: Vec<BookMove> = self
            .entries_for(pos.hash())
            .iter()
            .filter(|e| pos.is_legal_move_with_history(Move::from_raw(e.mv), history))
            .map(|e| BookMove {
                mv: Move::from_raw(e.mv),
                mover,
                entry: *e,
                weight: e.weight_for(mover),
            })
            .collect();
        moves.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.entry.mv.cmp(&b.entry.mv)));
        moves
    }

    /// A move for the position, drawn at random with probability proportional to its weight;
    /// `None` when the book has no legal move for it.
    pub fn pick(&self, pos: &Position, rng: &mut BookRng) -> Option<BookMove> {
        self.pick_in_game(pos, &[], rng)
    }

    /// As [`Book::pick`], among the moves of [`Book::moves_in_game`].
    pub fn pick_in_game(&self, pos: &Position, history: &[u64], rng: &mut BookRng) -> Option<BookMove> {
        let moves = self.moves_in_game(pos, history);
        let total: f64 = moves.iter().map(|m| m.weight).sum();
        if moves.is_empty() || total <= 0.0 || !total.is_finite() {
            return moves.first().copied();
        }
        let mut r = rng.next_f64() * total;
        for m in &moves {
            if r < m.weight {
                return Some(*m);
            }
            r -= m.weight;
        }
        moves.last().copied()
    }

    /// One line for users: variant, positions, moves, depth, games.
    pub fn summary(&self) -> String {
        format!(
            "{}, {} positions, {} moves, {} plies deep, built from {} games (moves with at least {} games)",
            self.variant,
            self.positions(),
            self.entries.len(),
            self.plies,
            self.source_games,
            self.min_games
        )
    }

    /// The book in the file format (`docs/openings.md`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let id = self.variant.id().as_bytes();
        let mut out = Vec::with_capacity(34 + id.len() + ENTRY_SIZE * self.entries.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(self.variant.code());
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&self.min_games.to_le_bytes());
        out.extend_from_slice(&self.source_games.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_le_bytes());
            out.extend_from_slice(&e.mv.to_le_bytes());
            for n in [e.games, e.white_wins, e.draws, e.black_wins] {
                out.extend_from_slice(&n.to_le_bytes());
            }
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a book from the bytes of a file; every problem is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, FormatError> {
        let mut c = Cursor { bytes, at: 0 };
        let Header {
            code,
            id: id_bytes,
            plies,
            min_games,
            source_games,
            count,
        } = Header::read(&mut c)?;
        let id_len = id_bytes.len();
        let expected = Header::file_size(c.at, count);
        if expected != bytes.len() as u64 {
            return Err(FormatError::SizeMismatch {
                entries: count,
                expected,
                actual: bytes.len() as u64,
            });
        }
        let body_end = bytes.len() - 4;
        let stored = u32::from_le_bytes([
            bytes[body_end],
            bytes[body_end + 1],
            bytes[body_end + 2],
            bytes[body_end + 3],
        ]);
        let computed = crc32(&bytes[..body_end]);
        if stored != computed {
            return Err(FormatError::ChecksumMismatch { stored, computed });
        }
        if id_len == 0 || id_len > MAX_ID_LEN {
            return Err(FormatError::BadVariantId);
        }
        let id = std::str::from_utf8(id_bytes).map_err(|_| FormatError::BadVariantId)?;
        let variant = Variant::from_code(code)
            .filter(|v| v.id() == id)
            .ok_or_else(|| FormatError::UnknownVariant {
                code,
                id: id.to_string(),
            })?;
        let mut entries = Vec::with_capacity(count as usize);
        for index in 0..count as usize {
            let e = BookEntry {
                key: c.u64("entry key")?,
                mv: c.u32("entry move")?,
                games: c.u32("entry games")?,
                white_wins: c.u32("entry white wins")?,
                draws: c.u32("entry draws")?,
                black_wins: c.u32("entry black wins")?,
            };
            if e.games == 0 || e.finished() > e.games as u64 || e.mv == 0 {
                return Err(FormatError::BadEntry { index });
            }
            if entries
                .last()
                .is_some_and(|p: &BookEntry| (p.key, p.mv) >= (e.key, e.mv))
            {
                return Err(FormatError::NotSorted { index });
            }
            entries.push(e);
        }
        Ok(Book {
            variant,
            plies,
            min_games,
            source_games,
            entries,
        })
    }

    /// Reads a book file of any variant. Only a regular file of at most [`MAX_FILE_SIZE`] bytes
    /// is read ([`input_file::open`]), and only when it has the size its header announces: the
    /// header is read first, the entries after that check.
    pub fn read(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let io = |error| BookError::Io {
            path: path.to_path_buf(),
            error,
        };
        let format = |error| BookError::Format {
            path: path.to_path_buf(),
            error,
        };
        let (file, size) = input_file::open(path, MAX_FILE_SIZE).map_err(|error| match error {
            InputFileError::Io(error) => io(error),
            InputFileError::NotAFile { kind } => BookError::NotAFile {
                path: path.to_path_buf(),
                kind,
            },
            InputFileError::TooLarge { size, .. } => BookError::TooLarge {
                path: path.to_path_buf(),
                size,
            },
        })?;
        let mut bytes = Vec::new();
        (&file)
            .take(MAX_HEADER_LEN as u64)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let mut c = Cursor { bytes: &bytes, at: 0 };
        let header = Header::read(&mut c).map_err(format)?;
        let expected = Header::file_size(c.at, header.count);
        if expected != size {
            return Err(format(FormatError::SizeMismatch {
                entries: header.count,
                expected,
                actual: size,
            }));
        }
        // `expected` is the size of the file, at most `MAX_FILE_SIZE`; the bytes read so far
        // are part of it. A file that changed meanwhile is caught by `from_bytes`.
        bytes.reserve(usize::try_from(expected).unwrap_or(0).saturating_sub(bytes.len()));
        let rest = expected.saturating_sub(bytes.len() as u64);
        (&file).take(rest).read_to_end(&mut bytes).map_err(io)?;
        Book::from_bytes(&bytes).map_err(format)
    }

    /// Reads a book file that must be for `variant`.
    pub fn load(path: impl AsRef<Path>, variant: Variant) -> Result<Book, BookError> {
        let book = Book::read(path.as_ref())?;
        if book.variant != variant {
            return Err(BookError::WrongVariant {
                path: path.as_ref().to_path_buf(),
                book: book.variant,
                wanted: variant,
            });
        }
        Ok(book)
    }

    /// Writes the book to a file.
    pub fn write(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }
}

impl fmt::Display for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())
    }
}

/// The fields at the start of a book file, before the entries.
struct Header<'a> {
    code: u8,
    id: &'a [u8],
    plies: u32,
    min_games: u32,
    source_games: u32,
    count: u32,
}

impl<'a> Header<'a> {
    /// Reads the header (the id is checked later, with the checksum).
    fn read(c: &mut Cursor<'a>) -> Result<Header<'a>, FormatError> {
        if c.take(8, "magic")? != MAGIC {
            return Err(FormatError::WrongMagic);
        }
        let version = c.u32("version")?;
        if version != VERSION {
            return Err(FormatError::UnsupportedVersion(version));
        }
        let code = c.u8("variant code")?;
        let id_len = c.u8("variant id length")? as usize;
        let id = c.take(id_len, "variant id")?;
        Ok(Header {
            code,
            id,
            plies: c.u32("depth in plies")?,
            min_games: c.u32("minimum games")?,
            source_games: c.u32("game count")?,
            count: c.u32("entry count")?,
        })
    }

    /// The size of a file whose header is `header_len` bytes and announces `count` entries.
    fn file_size(header_len: usize, count: u32) -> u64 {
        header_len as u64 + count as u64 * ENTRY_SIZE as u64 + 4
    }
}

/// Reads little-endian fields front to back.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], FormatError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(FormatError::Truncated { field, offset: self.at });
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self, field: &'static str) -> Result<u8, FormatError> {
        Ok(self.take(1, field)?[0])
    }

    fn u32(&mut self, field: &'static str) -> Result<u32, FormatError> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, field: &'static str) -> Result<u64, FormatError> {
        let b = self.take(8, field)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

pub use crate::hash::crc32;

/// The random numbers of book choices: the workspace's SplitMix64, seeded for reproducible
/// choices ([`BookRng::new`]) or from the clock ([`BookRng::from_time`]).
pub type BookRng = crate::rng::SplitMix64;

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(pos: &Position, uci: &str, games: u32, w: u32, d: u32, b: u32) -> BookEntry {
        BookEntry {
            key: pos.hash(),
            mv: pos.parse_uci(uci).unwrap().raw(),
            games,
            white_wins: w,
            draws: d,
            black_wins: b,
        }
    }

    fn sample() -> Book {
        let v = Variant::PersianPrincess;
        let start = Position::startpos(v);
        let after = start.after(start.parse_uci("e3e5").unwrap());
        Book::new(
            v,
            8,
            5,
            40,
            vec![
                entry(&start, "e3e5", 20, 10, 5, 5),
                entry(&start, "g3g4", 10, 2, 2, 6),
                entry(&start, "c2d4", 6, 3, 0, 3),
                entry(&after, "e9e7", 12, 6, 2, 4),
                entry(&after, "g9g8", 8, 2, 2, 4),
            ],
        )
    }

    /// A book move the game forbids (Parsi Chess's perpetual-check ban: a third Nf7+ by checks
    /// alone) is not offered in the game, neither by the book nor by an engine playing from it.
    #[test]
    fn a_move_the_game_forbids_is_not_offered() {
        let v = Variant::Parsi;
        let start = Position::from_fen(v, "5b1k/4p1pp/4P3/6N1/8/8/8/K7 w - - 0 1").unwrap();
        let cycle: Vec<Move> = {
            let mut pos = start.clone();
            ["g5f7", "h8g8", "f7h6", "g8h8", "h6f7", "h8g8", "f7h6", "g8h8"]
                .iter()
                .map(|u| pos.play_uci(u).unwrap())
                .collect()
        };
        let mut game = crate::rules::game::Game::new(start.clone());
        cycle.iter().for_each(|&m| game.play(m));
        let pos = game.position().clone();
        let book = std::sync::Arc::new(Book::new(
            v,
            8,
            1,
            10,
            vec![entry(&pos, "h6f7", 9, 9, 0, 0), entry(&pos, "h6g4", 1, 0, 1, 0)],
        ));
        let uci = |list: Vec<BookMove>| list.iter().map(|m| pos.uci(m.mv)).collect::<Vec<_>>();
        assert_eq!(uci(book.moves(&pos)), ["h6f7", "h6g4"], "the bare position allows both");
        assert_eq!(uci(book.moves_in_game(&pos, game.history())), ["h6g4"]);
        let mut rng = BookRng::new(3);
        for _ in 0..20 {
            let m = book.pick_in_game(&pos, game.history(), &mut rng).unwrap().mv;
            assert_eq!(pos.uci(m), "h6g4");
        }
        let mut engine = crate::engine::Engine::new();
        engine.set_variant(v);
        engine.set_game(start, &cycle).unwrap();
        engine.set_book_data(Some(book)).unwrap();
        engine.set_book_seed(Some(5));
        for _ in 0..20 {
            assert_eq!(pos.uci(engine.book_move().unwrap().mv), "h6g4");
        }
    }

    #[test]
    fn round_trip_and_lookup() {
        let book = sample();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), 34 + "persian-princess".len() + 5 * ENTRY_SIZE);
        let back = Book::from_bytes(&bytes).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.positions(), 2);
        let start = Position::startpos(Variant::PersianPrincess);
        let moves = back.moves(&start);
        let ucis: Vec<String> = moves.iter().map(|m| start.uci(m.mv)).collect();
        assert_eq!(ucis, ["e3e5", "g3g4", "c2d4"]);
        // weight = games * (points + 0.5) / (finished + 1)
        assert!((moves[0].weight - 20.0 * 13.0 / 21.0).abs() < 1e-9);
        assert_eq!(moves[0].mover_score(), Some(0.625));
        assert!(moves[0]
            .describe()
            .contains("20 games, +10 =5 -5 for White, score 62.5%"));
        // Black's moves are weighted by Black's score.
        let after = start.after(start.parse_uci("e3e5").unwrap());
        let black = back.moves(&after);
        assert_eq!(black[0].mover, Color::Black);
        assert_eq!(black[0].mover_score(), Some(5.0 / 12.0));
        // Another variant or an unknown position has no moves.
        assert!(back.moves(&Position::startpos(Variant::EgyptianEye)).is_empty());
        assert!(back.moves(&after.after(after.legal_moves().as_slice()[0])).is_empty());
    }

    #[test]
    fn picks_follow_the_weights_and_the_seed() {
        let book = sample();
        let start = Position::startpos(Variant::PersianPrincess);
        let draw = |seed| {
            let mut rng = BookRng::new(seed);
            (0..3000)
                .map(|_| start.uci(book.pick(&start, &mut rng).unwrap().mv))
                .collect::<Vec<_>>()
        };
        let a = draw(5);
        assert_eq!(a, draw(5));
        assert_ne!(a, draw(6));
        let share = |m: &str| a.iter().filter(|x| *x == m).count() as f64 / a.len() as f64;
        let w = [20.0 * 13.0 / 21.0, 10.0 * 3.5 / 11.0, 6.0 * 3.5 / 7.0];
        let total: f64 = w.iter().sum();
        for (m, w) in ["e3e5", "g3g4", "c2d4"].iter().zip(w) {
            assert!(
                (share(m) - w / total).abs() < 0.04,
                "{m}: {} vs {}",
                share(m),
                w / total
            );
        }
    }

    #[test]
    fn illegal_entries_are_never_played() {
        let v = Variant::PersianPrincess;
        let start = Position::startpos(v);
        // A move of another position under the start position's key.
        let other = start.after(start.parse_uci("e3e5").unwrap());
        let black_move = other.parse_uci("e9e7").unwrap();
        let book = Book::new(
            v,
            8,
            1,
            1,
            vec![
                BookEntry {
                    key: start.hash(),
                    mv: black_move.raw(),
                    games: 100,
                    white_wins: 100,
                    draws: 0,
                    black_wins: 0,
                },
                BookEntry {
                    key: start.hash(),
                    mv: 0xFFFF_FFFF,
                    games: 100,
                    white_wins: 100,
                    draws: 0,
                    black_wins: 0,
                },
            ],
        );
        assert!(book.moves(&start).is_empty());
        assert_eq!(book.pick(&start, &mut BookRng::new(1)), None);
    }

    #[test]
    fn damaged_bytes_are_errors_not_panics() {
        let bytes = sample().to_bytes();
        for len in 0..bytes.len() {
            assert!(Book::from_bytes(&bytes[..len]).is_err(), "truncated to {len}");
        }
        for i in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[i / 8] ^= 1 << (i % 8);
            assert!(Book::from_bytes(&b).is_err(), "bit {i} flipped");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Book::from_bytes(&longer),
            Err(FormatError::SizeMismatch { .. })
        ));
        assert_eq!(Book::from_bytes(b"hello world"), Err(FormatError::WrongMagic));
        // Random bytes behind a valid magic and version.
        let mut rng = BookRng::new(9);
        for n in 0..2000 {
            let mut b = MAGIC.to_vec();
            b.extend_from_slice(&VERSION.to_le_bytes());
            b.extend((0..n % 200).map(|_| rng.next_u64() as u8));
            assert!(Book::from_bytes(&b).is_err());
        }
    }

    #[test]
    fn semantic_checks_behind_a_valid_checksum() {
        let reseal = |mut b: Vec<u8>| {
            let n = b.len() - 4;
            let crc = crc32(&b[..n]);
            b[n..].copy_from_slice(&crc.to_le_bytes());
            b
        };
        let bytes = sample().to_bytes();
        let first_entry = 30 + "persian-princess".len();
        // Variant code 3 with the id persian-princess.
        let mut b = bytes.clone();
        b[12] = 3;
        assert!(matches!(
            Book::from_bytes(&reseal(b)),
            Err(FormatError::UnknownVariant { code: 3, .. })
        ));
        // Version 2.
        let mut b = bytes.clone();
        b[8] = 2;
        assert_eq!(Book::from_bytes(&b), Err(FormatError::UnsupportedVersion(2)));
        // Entries swapped.
        let mut b = bytes.clone();
        let (e0, e1) = (first_entry, first_entry + ENTRY_SIZE);
        let first: Vec<u8> = b[e0..e1].to_vec();
        let second: Vec<u8> = b[e1..e1 + ENTRY_SIZE].to_vec();
        b[e0..e1].copy_from_slice(&second);
        b[e1..e1 + ENTRY_SIZE].copy_from_slice(&first);
        assert!(matches!(
            Book::from_bytes(&reseal(b)),
            Err(FormatError::NotSorted { index: 1 })
        ));
        // More results than games.
        let mut b = bytes.clone();
        b[first_entry + 12..first_entry + 16].copy_from_slice(&1u32.to_le_bytes());
        assert!(matches!(
            Book::from_bytes(&reseal(b)),
            Err(FormatError::BadEntry { index: 0 })
        ));
    }

    #[test]
    fn files_are_checked_for_their_variant() {
        let dir = std::env::temp_dir().join(format!("engine-book-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pp.bin");
        sample().write(&path).unwrap();
        assert!(Book::load(&path, Variant::PersianPrincess).is_ok());
        let err = Book::load(&path, Variant::EgyptianEye).unwrap_err();
        assert!(matches!(err, BookError::WrongVariant { .. }), "{err}");
        assert!(
            err.to_string()
                .contains("is for persian-princess, not for egyptian-eye"),
            "{err}"
        );
        let missing = Book::load(dir.join("missing.bin"), Variant::PersianPrincess).unwrap_err();
        assert!(matches!(missing, BookError::Io { .. }), "{missing}");
        assert!(missing.to_string().contains("missing.bin"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `f()`, run on a thread and waited for at most 20 seconds: a read that blocks (a FIFO) or
    /// runs on (`/dev/zero`) fails the test instead of hanging it.
    fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("no answer within 20 s")
    }

    fn read_within(path: &Path) -> Result<Book, BookError> {
        let path = path.to_path_buf();
        within(move || Book::read(path))
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_as_books_without_reading() {
        let err = read_within(Path::new("/dev/zero")).unwrap_err();
        assert!(
            matches!(
                err,
                BookError::NotAFile {
                    kind: "a character device",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "cannot read book '/dev/zero': it is a character device, not a regular file"
        );
        let dir = std::env::temp_dir().join(format!("engine-book-fifo-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("book.fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let err = read_within(&fifo).unwrap_err();
        assert!(matches!(err, BookError::NotAFile { .. }), "{err}");
        assert!(
            err.to_string()
                .contains("book.fifo': it is a FIFO (named pipe), not a regular file"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn books_are_refused_on_their_size_before_their_entries_are_read() {
        let dir = std::env::temp_dir().join(format!("engine-book-size-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sparse = |name: &str, head: &[u8], len: u64| {
            let path = dir.join(name);
            std::fs::write(&path, head).unwrap();
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_len(len)
                .unwrap();
            path
        };
        // Larger than any book (3 GiB, sparse: no disk space taken).
        let huge = sparse("huge.bin", b"", 3 << 30);
        let err = read_within(&huge).unwrap_err();
        assert!(
            matches!(err, BookError::TooLarge { size, .. } if size == 3 << 30),
            "{err}"
        );
        assert!(
            err.to_string().contains(&format!(
                "3221225472 bytes is more than the largest book ({MAX_FILE_SIZE} bytes)"
            )),
            "{err}"
        );
        // Within the limit, but not the size the header announces: only the header is read.
        let book = sample().to_bytes();
        let header_len = 30 + "persian-princess".len();
        let big = sparse("big.bin", &book, 1 << 30);
        let err = read_within(&big).unwrap_err();
        assert!(
            matches!(
                err,
                BookError::Format {
                    error: FormatError::SizeMismatch { entries: 5, expected, actual: 1_073_741_824 },
                    ..
                } if expected == book.len() as u64
            ),
            "{err}"
        );
        // A header that announces more entries than a file can hold.
        let mut announced = book.clone();
        announced[header_len - 4..header_len].copy_from_slice(&u32::MAX.to_le_bytes());
        let path = dir.join("announced.bin");
        std::fs::write(&path, &announced).unwrap();
        let err = read_within(&path).unwrap_err();
        assert!(err.to_string().contains("announces 4294967295 entries"), "{err}");
        // A file that ends inside the header.
        std::fs::write(&path, &book[..12]).unwrap();
        let err = read_within(&path).unwrap_err();
        assert!(
            matches!(
                err,
                BookError::Format {
                    error: FormatError::Truncated {
                        field: "variant code",
                        offset: 12
                    },
                    ..
                }
            ),
            "{err}"
        );
        // The whole book still reads.
        std::fs::write(&path, &book).unwrap();
        assert_eq!(read_within(&path).unwrap(), sample());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
