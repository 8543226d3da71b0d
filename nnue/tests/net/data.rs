//! Training records: round trips on both layouts, streaming, every decode error and robustness of
//! decoding against random bytes.
#![allow(clippy::unwrap_used)] // Test code: a failed unwrap is a failed test.

use std::io::{self, Read};

use crate::common::{chess, persian, Board, Rng};
use nnue::{
    data::{
        GameResult, ReadRecordError, Record, RecordError, RecordReader, RecordWriter, TrainingPosition, RECORD_SIZE,
    },
    Color, Layout, PlacedPiece,
};

fn random_position(layout: &Layout, rng: &mut Rng) -> TrainingPosition {
    let count = rng.below(49).min(layout.num_playable());
    let mut pieces = Board::random(layout, count, rng).pieces();
    // Encoding accepts any order.
    pieces.reverse();
    TrainingPosition {
        pieces,
        stm: rng.color(),
        score: if rng.chance(10) {
            None
        } else {
            Some((rng.next_u64() as i16).max(i16::MIN + 1))
        },
        result: GameResult::from_code(rng.below(3) as u8).unwrap(),
        in_check: rng.chance(2),
        noisy_best_move: rng.chance(2),
        ply: rng.next_u64() as u16,
        variant_code: rng.next_u64() as u8,
        halfmove: rng.next_u64() as u8,
        best_move: rng.next_u64() as u32,
        game_id: rng.next_u64() as u32,
    }
}

fn sorted(mut position: TrainingPosition) -> TrainingPosition {
    position.pieces.sort_by_key(|p| p.cell);
    position
}

#[test]
fn round_trips_on_both_layouts() {
    for layout in [persian(), chess()] {
        let mut rng = Rng::new(layout.num_playable() as u64);
        for _ in 0..2000 {
            let position = random_position(&layout, &mut rng);
            let record = Record::encode(&position, &layout).unwrap();
            let decoded = record.decode(&layout).unwrap();
            assert_eq!(decoded, sorted(position));
            assert_eq!(Record::encode(&decoded, &layout).unwrap(), record);
        }
    }
}

#[test]
fn full_record_of_48_pieces() {
    let layout = persian();
    let pieces: Vec<PlacedPiece> = layout.cells()[..48]
        .iter()
        .enumerate()
        .map(|(i, &cell)| {
            PlacedPiece::new(
                if i % 3 == 0 { Color::Black } else { Color::White },
                (i % 10) as u8,
                cell,
            )
        })
        .collect();
    let position = TrainingPosition {
        pieces,
        ..TrainingPosition::default()
    };
    let record = Record::encode(&position, &layout).unwrap();
    assert_eq!(record.occupancy().count_ones(), 48);
    assert_eq!(record.decode(&layout).unwrap(), position);
}

#[test]
fn streaming_writer_and_reader() {
    let layout = persian();
    let mut rng = Rng::new(5);
    let records: Vec<Record> = (0..1000)
        .map(|_| Record::encode(&random_position(&layout, &mut rng), &layout).unwrap())
        .collect();
    let mut writer = RecordWriter::new(Vec::new());
    for record in &records {
        writer.write(record).unwrap();
    }
    writer.flush().unwrap();
    assert_eq!(writer.written(), 1000);
    let bytes = writer.into_inner();
    assert_eq!(bytes.len(), 1000 * RECORD_SIZE);

    let read: Vec<Record> = RecordReader::new(&bytes[..]).collect::<Result<_, _>>().unwrap();
    assert_eq!(read, records);

    // A reader that hands out a few bytes at a time, and is sometimes interrupted.
    let trickle = Trickle {
        bytes: &bytes,
        pos: 0,
        step: 0,
    };
    let read: Vec<Record> = RecordReader::new(trickle).collect::<Result<_, _>>().unwrap();
    assert_eq!(read, records);

    // A trailing partial record is an error naming its offset, and ends the stream.
    let mut partial = bytes.clone();
    partial.extend_from_slice(&[1; 10]);
    let mut reader = RecordReader::new(&partial[..]);
    assert_eq!(reader.by_ref().take(1000).filter(Result::is_ok).count(), 1000);
    match reader.next() {
        Some(Err(ReadRecordError::PartialRecord { offset, len })) => assert_eq!((offset, len), (64_000, 10)),
        other => panic!("expected a partial record error, got {other:?}"),
    }
    assert!(reader.next().is_none());
    assert_eq!(reader.offset(), 64_010);

    // An empty stream has no records; an I/O error is passed on once.
    assert_eq!(RecordReader::new(io::empty()).count(), 0);
    let mut failing = RecordReader::new(Failing);
    assert!(matches!(failing.next(), Some(Err(ReadRecordError::Io(_)))));
    assert!(failing.next().is_none());
}

struct Trickle<'a> {
    bytes: &'a [u8],
    pos: usize,
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.step += 1;
        if self.step % 5 == 0 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = (1 + self.step % 23).min(buf.len()).min(self.bytes.len() - self.pos);
        buf[..n].copy_from_slice(&self.bytes[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

struct Failing;

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::other("disk on fire"))
    }
}

#[test]
fn decode_errors() {
    let layout = chess();
    let position = TrainingPosition {
        pieces: vec![
            PlacedPiece::new(Color::White, 5, 4),
            PlacedPiece::new(Color::Black, 5, 60),
        ],
        ..TrainingPosition::default()
    };
    let good = Record::encode(&position, &layout).unwrap();
    let with = |f: &dyn Fn(&mut [u8; RECORD_SIZE])| {
        let mut bytes = good.0;
        f(&mut bytes);
        Record(bytes).decode(&layout)
    };
    assert_eq!(with(&|b| b[62] = 2), Err(RecordError::Version { found: 2 }));
    assert_eq!(
        with(&|b| b[8] |= 1),
        Err(RecordError::OccupancyBeyondLayout { bit: 64, playable: 64 })
    );
    assert_eq!(
        with(&|b| b[0..8].copy_from_slice(&u64::MAX.to_le_bytes())),
        Err(RecordError::TooManyPieces { count: 64 })
    );
    // The first piece (the white king on e1) becomes type 7 of a 6-type layout.
    assert_eq!(
        with(&|b| b[16] = (b[16] & !0x0F) | 7),
        Err(RecordError::PieceType {
            kind: 7,
            piece_types: 6
        })
    );
    assert_eq!(with(&|b| b[48] = 3), Err(RecordError::Result(3)));
    assert_eq!(with(&|b| b[49] = 0x08), Err(RecordError::ReservedFlags(0x08)));
    assert_eq!(with(&|b| b[45] = 0x80), Err(RecordError::Padding));
    assert_eq!(with(&|_| {}).unwrap(), position);
    // A record for a larger board does not fit a smaller one.
    let big = Record::encode(
        &TrainingPosition {
            pieces: vec![PlacedPiece::new(Color::White, 0, 120)],
            ..Default::default()
        },
        &persian(),
    )
    .unwrap();
    assert_eq!(
        big.decode(&layout),
        Err(RecordError::OccupancyBeyondLayout { bit: 84, playable: 64 })
    );
}

#[test]
fn random_records_never_panic_and_valid_ones_are_canonical() {
    for layout in [persian(), chess()] {
        let mut rng = Rng::new(3);
        let mut valid = 0;
        for round in 0..50_000 {
            let mut bytes = [0u8; RECORD_SIZE];
            for chunk in bytes.chunks_mut(8) {
                chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
            }
            // Make many records plausible enough to get past the first checks.
            if round % 2 == 0 {
                bytes[62..64].copy_from_slice(&1u16.to_le_bytes());
                let keep = layout.num_playable().min(48) as u32;
                let mut occupancy = u128::from_le_bytes(bytes[..16].try_into().unwrap());
                occupancy &= (1u128 << keep) - 1;
                if round % 4 == 0 {
                    occupancy &= u128::from(rng.next_u64() | rng.next_u64());
                }
                bytes[..16].copy_from_slice(&occupancy.to_le_bytes());
                bytes[48] %= 3;
                bytes[49] &= 7;
                // Piece codes with valid types (one in 50 records keeps a random one) and zero
                // padding (one in 50 keeps random padding).
                if round % 100 != 0 {
                    let mut packed = 0u128;
                    let mut high = 0u128;
                    for k in 0..occupancy.count_ones() as usize {
                        let mut code = u128::from(rng.next_u64() % 32);
                        if code & 0xF >= layout.piece_types() as u128 && round % 50 != 2 {
                            code &= 0x10;
                        }
                        let bit = 5 * k;
                        if bit < 128 {
                            packed |= code << bit;
                            if bit > 123 {
                                high |= code >> (128 - bit);
                            }
                        } else {
                            high |= code << (bit - 128);
                        }
                    }
                    let mut field = [0u8; 32];
                    field[..16].copy_from_slice(&packed.to_le_bytes());
                    field[16..].copy_from_slice(&high.to_le_bytes());
                    bytes[16..46].copy_from_slice(&field[..30]);
                }
            }
            if let Ok(position) = Record(bytes).decode(&layout) {
                valid += 1;
                assert_eq!(Record::encode(&position, &layout).unwrap(), Record(bytes));
            }
        }
        assert!(
            valid > 0,
            "no random record decoded: the test does not reach the success path"
        );
    }
}
