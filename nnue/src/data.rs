//! The training-record format shared by the self-play generator and the trainer: fixed 64-byte
//! little-endian records (layout in `docs/training-data.md`), their conversion to and from a
//! neutral [`TrainingPosition`], and streaming [`RecordWriter`] / [`RecordReader`].
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0-15 | occupancy `u128` | bit `i` = playable square `i` (`0..N`) is occupied |
//! | 16-45 | pieces `[u8; 30]` | 5-bit codes in ascending square order, LSB first: bits 0-3 type, bit 4 colour; up to 48 |
//! | 46-47 | score `i16` | search score in cp, side to move's view; `i16::MIN` = none |
//! | 48 | result `u8` | 0/1/2 = side to move lost / drew / won |
//! | 49 | flags `u8` | bit 0 side to move is Black, bit 1 in check, bit 2 best move is a capture or promotion |
//! | 50-51 | ply `u16` | half-moves since the game's start |
//! | 52 | variant code `u8` | which rule set |
//! | 53 | halfmove `u8` | half-move clock |
//! | 54-57 | best move `u32` | engine move encoding, opaque here |
//! | 58-61 | game id `u32` | for splitting by game and deduplication |
//! | 62-63 | version `u16` | [`RECORD_VERSION`] |
//!
//! ```
//! use nnue::data::{GameResult, Record, RecordReader, RecordWriter, TrainingPosition};
//! use nnue::{Color, Layout, PlacedPiece};
//!
//! let layout = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
//! let position = TrainingPosition {
//!     pieces: vec![PlacedPiece::new(Color::White, 5, 4), PlacedPiece::new(Color::Black, 5, 60)],
//!     stm: Color::White,
//!     score: Some(0),
//!     result: GameResult::Draw,
//!     ..TrainingPosition::default()
//! };
//! let mut writer = RecordWriter::new(Vec::new());
//! writer.write(&Record::encode(&position, &layout).unwrap()).unwrap();
//! let bytes = writer.into_inner();
//! assert_eq!(bytes.len(), 64);
//!
//! let records: Vec<Record> = RecordReader::new(&bytes[..]).collect::<Result<_, _>>().unwrap();
//! assert_eq!(records[0].decode(&layout).unwrap(), position);
//! ```

use std::{
    fmt,
    io::{self, Read, Write},
};

use thiserror::Error;

use crate::board::{Color, Layout, PlacedPiece};

/// Bytes per record.
pub const RECORD_SIZE: usize = 64;

/// The record version this crate reads and writes.
pub const RECORD_VERSION: u16 = 1;

/// Most pieces a record holds.
pub const MAX_RECORD_PIECES: usize = 48;

/// The stored score that means "no score".
pub const NO_SCORE: i16 = i16::MIN;

/// Flag bit: the side to move is Black.
pub const FLAG_BLACK_TO_MOVE: u8 = 1 << 0;
/// Flag bit: the side to move is in check.
pub const FLAG_IN_CHECK: u8 = 1 << 1;
/// Flag bit: the best move is a capture or a promotion.
pub const FLAG_NOISY_BEST_MOVE: u8 = 1 << 2;
const KNOWN_FLAGS: u8 = FLAG_BLACK_TO_MOVE | FLAG_IN_CHECK | FLAG_NOISY_BEST_MOVE;

const PIECES_OFFSET: usize = 16;
const PIECES_LEN: usize = 30;

/// The game's result from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The side to move lost (stored as 0).
    Loss = 0,
    /// Draw (stored as 1).
    #[default]
    Draw = 1,
    /// The side to move won (stored as 2).
    Win = 2,
}

impl GameResult {
    /// The result for a stored code, `None` above 2.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(GameResult::Loss),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::Win),
            _ => None,
        }
    }
}

/// One training position in neutral terms. Pieces stand on grid cells of a [`Layout`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TrainingPosition {
    /// The pieces (any order when encoding; ascending cell order when decoded).
    pub pieces: Vec<PlacedPiece>,
    /// The side to move.
    pub stm: Color,
    /// The search score in centipawns from the side to move's view, if any (`i16::MIN` cannot
    /// be stored: it means "none").
    pub score: Option<i16>,
    /// The game's result from the side to move's view.
    pub result: GameResult,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Whether the best move is a capture or a promotion (for filtering quiet positions).
    pub noisy_best_move: bool,
    /// Half-moves played since the start of the game.
    pub ply: u16,
    /// The caller's code of the variant (rule set).
    pub variant_code: u8,
    /// The half-move clock.
    pub halfmove: u8,
    /// The best move in the engine's move encoding (opaque to this crate; by convention from
    /// square in bits 0-6, to square in bits 7-13, promotion type in bits 14-18, move kind above).
    pub best_move: u32,
    /// The id of the game the position comes from.
    pub game_id: u32,
}

/// Why a position could not be encoded or a record could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    /// More pieces than a record holds.
    #[error("{count} pieces, a record holds at most {MAX_RECORD_PIECES}")]
    TooManyPieces {
        /// The number of pieces.
        count: usize,
    },
    /// A piece type is not below the layout's number of types.
    #[error("piece type {kind} is out of range (the layout has {piece_types} types)")]
    PieceType {
        /// The type.
        kind: u8,
        /// The layout's number of types.
        piece_types: usize,
    },
    /// A piece stands on a cell that is not playable.
    #[error("cell {cell} is not playable")]
    CellNotPlayable {
        /// The cell.
        cell: u8,
    },
    /// Two pieces stand on the same cell.
    #[error("two pieces on cell {cell}")]
    DuplicateCell {
        /// The cell.
        cell: u8,
    },
    /// The score `i16::MIN` is reserved for "no score".
    #[error("score {NO_SCORE} cannot be stored (it means no score)")]
    ReservedScore,
    /// The record's version is not [`RECORD_VERSION`].
    #[error("record version {found} is not supported (expected {RECORD_VERSION})")]
    Version {
        /// The version in the record.
        found: u16,
    },
    /// The occupancy has a bit at or beyond the layout's number of playable squares.
    #[error("occupancy bit {bit} set, but the layout has {playable} playable squares")]
    OccupancyBeyondLayout {
        /// The lowest offending bit.
        bit: u32,
        /// The layout's `N`.
        playable: usize,
    },
    /// The result byte is above 2.
    #[error("result code {0} is not 0, 1 or 2")]
    Result(u8),
    /// Flag bits this version does not define are set.
    #[error("unknown flag bits set in {0:#04x}")]
    ReservedFlags(u8),
    /// Bits after the last piece code are not zero.
    #[error("piece bytes have non-zero bits after the last piece")]
    Padding,
}

/// One 64-byte record, as stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record(pub [u8; RECORD_SIZE]);

impl fmt::Debug for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Record")
            .field("occupancy", &format_args!("{:#x}", self.occupancy()))
            .field("score", &self.score())
            .field("result", &self.result_code())
            .field("flags", &self.flags())
            .field("ply", &self.ply())
            .field("variant_code", &self.variant_code())
            .field("game_id", &self.game_id())
            .field("version", &self.version())
            .finish_non_exhaustive()
    }
}

impl Record {
    /// Packs `position` (whose pieces stand on cells of `layout`).
    ///
    /// # Errors
    /// More than 48 pieces, a piece type `>= P`, a cell that is not playable, two pieces on one
    /// cell, or the reserved score `i16::MIN`.
    pub fn encode(position: &TrainingPosition, layout: &Layout) -> Result<Self, RecordError> {
        if position.pieces.len() > MAX_RECORD_PIECES {
            return Err(RecordError::TooManyPieces {
                count: position.pieces.len(),
            });
        }
        let mut by_square: Vec<(usize, u8)> = Vec::with_capacity(position.pieces.len());
        for piece in &position.pieces {
            if usize::from(piece.kind) >= layout.piece_types() {
                return Err(RecordError::PieceType {
                    kind: piece.kind,
                    piece_types: layout.piece_types(),
                });
            }
            let square = layout
                .playable_index(piece.cell)
                .ok_or(RecordError::CellNotPlayable { cell: piece.cell })?;
            by_square.push((square, piece.kind | (piece.color as u8) << 4));
        }
        by_square.sort_unstable_by_key(|&(square, _)| square);
        let mut occupancy = 0u128;
        for (i, &(square, _)) in by_square.iter().enumerate() {
            if i > 0 && by_square[i - 1].0 == square {
                return Err(RecordError::DuplicateCell {
                    cell: layout.cells()[square],
                });
            }
            occupancy |= 1 << square;
        }
        let score = match position.score {
            Some(NO_SCORE) => return Err(RecordError::ReservedScore),
            Some(score) => score,
            None => NO_SCORE,
        };
        let mut flags = 0;
        if position.stm == Color::Black {
            flags |= FLAG_BLACK_TO_MOVE;
        }
        if position.in_check {
            flags |= FLAG_IN_CHECK;
        }
        if position.noisy_best_move {
            flags |= FLAG_NOISY_BEST_MOVE;
        }
        let mut bytes = [0u8; RECORD_SIZE];
        bytes[0..16].copy_from_slice(&occupancy.to_le_bytes());
        bytes[16..46].copy_from_slice(&pack_codes(by_square.iter().map(|&(_, code)| code)));
        bytes[46..48].copy_from_slice(&score.to_le_bytes());
        bytes[48] = position.result as u8;
        bytes[49] = flags;
        bytes[50..52].copy_from_slice(&position.ply.to_le_bytes());
        bytes[52] = position.variant_code;
        bytes[53] = position.halfmove;
        bytes[54..58].copy_from_slice(&position.best_move.to_le_bytes());
        bytes[58..62].copy_from_slice(&position.game_id.to_le_bytes());
        bytes[62..64].copy_from_slice(&RECORD_VERSION.to_le_bytes());
        Ok(Record(bytes))
    }

    /// Unpacks the record onto `layout`; pieces come out in ascending cell order.
    ///
    /// # Errors
    /// A version other than [`RECORD_VERSION`], occupancy bits at or beyond `N`, more than 48
    /// pieces, a piece type `>= P`, a result code above 2, unknown flag bits, or non-zero bits
    /// after the last piece code.
    pub fn decode(&self, layout: &Layout) -> Result<TrainingPosition, RecordError> {
        let version = self.version();
        if version != RECORD_VERSION {
            return Err(RecordError::Version { found: version });
        }
        let occupancy = self.occupancy();
        let playable = layout.num_playable();
        if playable < 128 && occupancy >> playable != 0 {
            let bit = (occupancy >> playable).trailing_zeros() + playable as u32;
            return Err(RecordError::OccupancyBeyondLayout { bit, playable });
        }
        let count = occupancy.count_ones() as usize;
        if count > MAX_RECORD_PIECES {
            return Err(RecordError::TooManyPieces { count });
        }
        let pieces_bytes = &self.0[PIECES_OFFSET..PIECES_OFFSET + PIECES_LEN];
        let mut pieces = Vec::with_capacity(count);
        let mut rest = occupancy;
        for index in 0..count {
            let square = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let code = read_code(pieces_bytes, index);
            let kind = code & 0xF;
            if usize::from(kind) >= layout.piece_types() {
                return Err(RecordError::PieceType {
                    kind,
                    piece_types: layout.piece_types(),
                });
            }
            let color = if code & 0x10 == 0 { Color::White } else { Color::Black };
            pieces.push(PlacedPiece::new(color, kind, layout.cells()[square]));
        }
        let codes = pieces.iter().map(|p| p.kind | (p.color as u8) << 4);
        if pack_codes(codes)[..] != *pieces_bytes {
            return Err(RecordError::Padding);
        }
        let result = GameResult::from_code(self.result_code()).ok_or(RecordError::Result(self.result_code()))?;
        let flags = self.flags();
        if flags & !KNOWN_FLAGS != 0 {
            return Err(RecordError::ReservedFlags(flags));
        }
        Ok(TrainingPosition {
            pieces,
            stm: if flags & FLAG_BLACK_TO_MOVE == 0 {
                Color::White
            } else {
                Color::Black
            },
            score: Some(self.score()).filter(|&score| score != NO_SCORE),
            result,
            in_check: flags & FLAG_IN_CHECK != 0,
            noisy_best_move: flags & FLAG_NOISY_BEST_MOVE != 0,
            ply: self.ply(),
            variant_code: self.variant_code(),
            halfmove: self.halfmove(),
            best_move: self.best_move(),
            game_id: self.game_id(),
        })
    }

    /// The raw bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8; RECORD_SIZE] {
        &self.0
    }

    /// Raw occupancy field (bit `i` = playable square `i`).
    #[must_use]
    pub fn occupancy(&self) -> u128 {
        u128::from_le_bytes(self.field())
    }

    /// Raw score field (`NO_SCORE` = none).
    #[must_use]
    pub fn score(&self) -> i16 {
        i16::from_le_bytes(self.field_at(46))
    }

    /// Raw result byte.
    #[must_use]
    pub fn result_code(&self) -> u8 {
        self.0[48]
    }

    /// Raw flags byte.
    #[must_use]
    pub fn flags(&self) -> u8 {
        self.0[49]
    }

    /// Raw ply field.
    #[must_use]
    pub fn ply(&self) -> u16 {
        u16::from_le_bytes(self.field_at(50))
    }

    /// Raw variant code.
    #[must_use]
    pub fn variant_code(&self) -> u8 {
        self.0[52]
    }

    /// Raw half-move clock.
    #[must_use]
    pub fn halfmove(&self) -> u8 {
        self.0[53]
    }

    /// Raw best move (engine move encoding).
    #[must_use]
    pub fn best_move(&self) -> u32 {
        u32::from_le_bytes(self.field_at(54))
    }

    /// Raw game id.
    #[must_use]
    pub fn game_id(&self) -> u32 {
        u32::from_le_bytes(self.field_at(58))
    }

    /// Raw version field.
    #[must_use]
    pub fn version(&self) -> u16 {
        u16::from_le_bytes(self.field_at(62))
    }

    fn field<const N: usize>(&self) -> [u8; N] {
        self.field_at(0)
    }

    fn field_at<const N: usize>(&self, offset: usize) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.0[offset..offset + N]);
        out
    }
}

/// Packs 5-bit codes LSB first (code `k` in bits `5k..5k+5` of the 240-bit field).
fn pack_codes(codes: impl Iterator<Item = u8>) -> [u8; PIECES_LEN] {
    let mut out = [0u8; PIECES_LEN];
    for (index, code) in codes.enumerate().take(MAX_RECORD_PIECES) {
        let bit = 5 * index;
        let window = u16::from(code & 0x1F) << (bit % 8);
        out[bit / 8] |= window as u8;
        if let Some(next) = out.get_mut(bit / 8 + 1) {
            *next |= (window >> 8) as u8;
        }
    }
    out
}

/// Code `index` (below 48) of a packed field.
fn read_code(bytes: &[u8], index: usize) -> u8 {
    let bit = 5 * index;
    let low = u16::from(bytes[bit / 8]);
    let high = u16::from(bytes.get(bit / 8 + 1).copied().unwrap_or(0));
    ((low | high << 8) >> (bit % 8)) as u8 & 0x1F
}

/// Writes records to a byte stream, one after the other. Wrap files in a `BufWriter`.
#[derive(Debug)]
pub struct RecordWriter<W: Write> {
    inner: W,
    written: u64,
}

impl<W: Write> RecordWriter<W> {
    /// A writer appending to `inner`.
    pub fn new(inner: W) -> Self {
        RecordWriter { inner, written: 0 }
    }

    /// Writes one record.
    ///
    /// # Errors
    /// The underlying writer's error.
    pub fn write(&mut self, record: &Record) -> io::Result<()> {
        self.inner.write_all(&record.0)?;
        self.written += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Flushes the underlying writer.
    ///
    /// # Errors
    /// The underlying writer's error.
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }

    /// The underlying writer (not flushed).
    pub fn into_inner(self) -> W {
        self.inner
    }
}

/// Why a record could not be read from a stream.
#[derive(Debug, Error)]
pub enum ReadRecordError {
    /// The stream ends inside a record.
    #[error("stream ends with a partial record of {len} bytes at byte offset {offset}")]
    PartialRecord {
        /// Byte offset where the partial record starts.
        offset: u64,
        /// Its length (1..=63).
        len: usize,
    },
    /// The reader failed.
    #[error("reading records failed: {0}")]
    Io(#[from] io::Error),
}

/// Reads records from a byte stream: an iterator of `Result<Record, ReadRecordError>` that ends
/// at the end of the stream, after a partial record (reported as an error) or after an I/O
/// error. Wrap files in a `BufReader`.
#[derive(Debug)]
pub struct RecordReader<R: Read> {
    inner: R,
    offset: u64,
    done: bool,
}

impl<R: Read> RecordReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> Self {
        RecordReader {
            inner,
            offset: 0,
            done: false,
        }
    }

    /// Bytes consumed so far (a multiple of 64 unless the stream ended early).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The underlying reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<Record, ReadRecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut bytes = [0u8; RECORD_SIZE];
        let mut filled = 0;
        while filled < RECORD_SIZE {
            match self.inner.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(e.into()));
                }
            }
        }
        let start = self.offset;
        self.offset += filled as u64;
        match filled {
            0 => {
                self.done = true;
                None
            }
            RECORD_SIZE => Some(Ok(Record(bytes))),
            len => {
                self.done = true;
                Some(Err(ReadRecordError::PartialRecord { offset: start, len }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap()
    }

    #[test]
    fn codes_pack_lsb_first() {
        let packed = pack_codes([0b10101, 0b00011, 0b11111].into_iter());
        // 10101 | 00011 << 5 | 11111 << 10 = 0b11111_00011_10101
        assert_eq!(packed[0], 0b0111_0101);
        assert_eq!(packed[1], 0b0111_1100);
        assert!(packed[2..].iter().all(|&b| b == 0));
        for (index, code) in [0b10101, 0b00011, 0b11111].into_iter().enumerate() {
            assert_eq!(read_code(&packed, index), code);
        }
        let all: Vec<u8> = (0..48).map(|i| (i * 7 % 32) as u8).collect();
        let packed = pack_codes(all.iter().copied());
        for (index, &code) in all.iter().enumerate() {
            assert_eq!(read_code(&packed, index), code);
        }
    }

    #[test]
    fn field_offsets() {
        let position = TrainingPosition {
            pieces: vec![
                PlacedPiece::new(Color::Black, 3, 63),
                PlacedPiece::new(Color::White, 2, 1),
            ],
            stm: Color::Black,
            score: Some(-123),
            result: GameResult::Win,
            in_check: true,
            noisy_best_move: false,
            ply: 0x1234,
            variant_code: 9,
            halfmove: 17,
            best_move: 0xDEAD_BEEF,
            game_id: 0x0102_0304,
        };
        let record = Record::encode(&position, &layout()).unwrap();
        let b = record.as_bytes();
        assert_eq!(u128::from_le_bytes(b[0..16].try_into().unwrap()), 1 << 1 | 1 << 63);
        // Codes 0b00010 (white type 2) then 0b10011 (black type 3), LSB first.
        assert_eq!(b[16], 0b0110_0010);
        assert_eq!(b[17], 0b0000_0010);
        assert_eq!(&b[46..48], &(-123i16).to_le_bytes());
        assert_eq!(&b[48..54], &[2, 0b011, 0x34, 0x12, 9, 17]);
        assert_eq!(&b[54..58], &0xDEAD_BEEFu32.to_le_bytes());
        assert_eq!(&b[58..62], &[4, 3, 2, 1]);
        assert_eq!(&b[62..64], &[1, 0]);
        let mut sorted = position.clone();
        sorted.pieces.reverse();
        assert_eq!(record.decode(&layout()).unwrap(), sorted);
    }

    #[test]
    fn encode_errors() {
        let layout = Layout::new(3, 3, 0b101_000_101, 2).unwrap();
        let mut position = TrainingPosition {
            pieces: vec![PlacedPiece::new(Color::White, 0, 1)],
            ..Default::default()
        };
        assert_eq!(
            Record::encode(&position, &layout),
            Err(RecordError::CellNotPlayable { cell: 1 })
        );
        position.pieces = vec![PlacedPiece::new(Color::White, 2, 0)];
        assert_eq!(
            Record::encode(&position, &layout),
            Err(RecordError::PieceType {
                kind: 2,
                piece_types: 2
            })
        );
        position.pieces = vec![
            PlacedPiece::new(Color::White, 0, 8),
            PlacedPiece::new(Color::Black, 1, 8),
        ];
        assert_eq!(
            Record::encode(&position, &layout),
            Err(RecordError::DuplicateCell { cell: 8 })
        );
        position.pieces = vec![PlacedPiece::new(Color::White, 0, 8); 49];
        assert_eq!(
            Record::encode(&position, &layout),
            Err(RecordError::TooManyPieces { count: 49 })
        );
        position.pieces.clear();
        position.score = Some(NO_SCORE);
        assert_eq!(Record::encode(&position, &layout), Err(RecordError::ReservedScore));
    }
}
