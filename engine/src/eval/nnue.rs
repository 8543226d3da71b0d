//! NNUE evaluation glue: turns positions and moves into the neutral piece lists of the `nnue`
//! crate, loads nets (embedded at build time or from a file) and checks that a net was made for
//! the variant, its board and its feature set.

use std::sync::Arc;

use nnue::{format, Accumulator, Layout, LoadNetError, Network, PlacedPiece};

use crate::{
    input_file::{self, InputFileError},
    rules::{
        delta::{MoveDelta, MAX_DELTA},
        ByKind, Color, Piece, Position, Variant,
    },
};

include!(concat!(env!("OUT_DIR"), "/embedded_nets.rs"));

/// A net ready for one variant.
pub struct NnueNet {
    /// The variant it evaluates.
    pub variant: Variant,
    /// The board layout of that variant, as the feature set sees it.
    pub layout: Layout,
    /// The quantised network.
    pub network: Network,
    /// The layout's type index of every kind.
    net_type: ByKind<u8>,
    /// Where it came from: `embedded` or a file path.
    pub source: String,
    /// The description stored in the file (training data, settings).
    pub description: String,
}

/// Why a net could not be used.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read.
    #[error("cannot read net file '{path}': {source}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The path names no regular file (a FIFO, a device, a directory): it is not read.
    #[error("cannot read net file '{path}': it is {kind}, not a regular file")]
    NotAFile {
        /// The path.
        path: String,
        /// What it is, e.g. `a character device`.
        kind: &'static str,
    },
    /// The file is larger than any net ([`format::MAX_FILE_LEN`]): it is not read.
    #[error("net file '{path}' refused: it is {size} bytes long, more than the largest net file ({max} bytes)")]
    TooLarge {
        /// The path.
        path: String,
        /// Its size.
        size: u64,
        /// The largest net file.
        max: u64,
    },
    /// The file is not a usable net for this variant.
    #[error("net '{path}' refused: {source}")]
    Load {
        /// The path (or `embedded`).
        path: String,
        /// Why.
        source: LoadNetError,
    },
}

/// The feature-set layout of a variant: its grid, its playable cells, all piece kinds.
pub fn layout(variant: Variant) -> Layout {
    let spec = variant.spec();
    let g = spec.geometry;
    Layout::new(g.width, g.height, g.playable.0, spec.net_kinds.len() as u8)
        .expect("every variant's board is symmetric under the rank flip (tested)")
}

/// The layout type of `variant`'s king, the piece whose cell chooses the bucket of a net with
/// king buckets (feature set v2).
pub fn king_type(variant: Variant) -> u8 {
    variant.tables().net_type[crate::rules::PieceKind::King]
}

/// The expectations a net file for `variant` must meet: feature set v1, or v2 with the
/// variant's king as the bucketing piece.
pub fn expected(variant: Variant) -> format::Expected {
    format::Expected::new(variant.code(), variant.id(), &layout(variant)).with_king_type(king_type(variant))
}

/// A piece as the `nnue` crate sees it: its colour, its type in the variant's layout (`types`,
/// from [`crate::rules::tables::Attacks::net_type`]) and its cell.
#[inline(always)]
fn placed(types: &ByKind<u8>, sq: crate::rules::Square, p: Piece) -> PlacedPiece {
    let color = if p.color == Color::White {
        nnue::Color::White
    } else {
        nnue::Color::Black
    };
    PlacedPiece::new(color, types[p.kind], sq.0)
}

impl NnueNet {
    /// Reads a net for `variant` from bytes.
    pub fn from_bytes(variant: Variant, bytes: &[u8], source: &str) -> Result<NnueNet, NetError> {
        let loaded = format::read(bytes, &expected(variant)).map_err(|source_err| NetError::Load {
            path: source.to_string(),
            source: source_err,
        })?;
        Ok(NnueNet {
            variant,
            layout: layout(variant),
            network: loaded.network,
            net_type: variant.tables().net_type,
            source: source.to_string(),
            description: loaded.header.description,
        })
    }

    /// Reads a net for `variant` from a file. Only a regular file of at most
    /// [`format::MAX_FILE_LEN`] bytes is read ([`input_file::read`]).
    pub fn from_file(variant: Variant, path: impl AsRef<std::path::Path>) -> Result<NnueNet, NetError> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let bytes = input_file::read(path, format::MAX_FILE_LEN).map_err(|error| match error {
            InputFileError::Io(source) => NetError::Io {
                path: shown.clone(),
                source,
            },
            InputFileError::NotAFile { kind } => NetError::NotAFile {
                path: shown.clone(),
                kind,
            },
            InputFileError::TooLarge { size, max } => NetError::TooLarge {
                path: shown.clone(),
                size,
                max,
            },
        })?;
        NnueNet::from_bytes(variant, &bytes, &shown)
    }

    /// The net embedded in the binary for `variant`, if one was found at build time.
    pub fn embedded(variant: Variant) -> Option<Result<NnueNet, NetError>> {
        EMBEDDED_NETS
            .iter()
            .find(|(id, _)| *id == variant.id())
            .map(|(_, bytes)| NnueNet::from_bytes(variant, bytes, "embedded"))
    }

    /// The embedded net of `variant`, shared, when there is a valid one.
    pub fn default_for(variant: Variant) -> Option<Arc<NnueNet>> {
        use std::sync::OnceLock;
        static NETS: [OnceLock<Option<Arc<NnueNet>>>; Variant::COUNT] = [const { OnceLock::new() }; Variant::COUNT];
        NETS[variant.index()]
            .get_or_init(|| NnueNet::embedded(variant).and_then(Result::ok).map(Arc::new))
            .clone()
    }

    /// A fresh accumulator for this net.
    pub fn accumulator(&self) -> Accumulator {
        Accumulator::new(&self.network)
    }

    /// Recomputes an accumulator from the pieces of a position.
    pub fn refresh(&self, acc: &mut Accumulator, pos: &Position) {
        let mut pieces = [PlacedPiece::new(nnue::Color::White, 0, 0); 128];
        let n = self.pieces_into(pos, &mut pieces);
        acc.refresh(&self.network, &self.layout, &pieces[..n]);
    }

    /// Writes the pieces of `pos` into `pieces`; returns how many.
    fn pieces_into(&self, pos: &Position, pieces: &mut [PlacedPiece; 128]) -> usize {
        let mut n = 0;
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                pieces[n] = placed(&self.net_type, sq, p);
                n += 1;
            }
        }
        n
    }

    /// Sets `child` to `parent` (the accumulator of `pos`) changed by a move's delta: an
    /// incremental update, or a refresh from the pieces after the move when a king changes
    /// buckets (a net with king buckets).
    #[inline]
    pub fn update(&self, child: &mut Accumulator, parent: &Accumulator, pos: &Position, delta: &MoveDelta) {
        let mut added = [PlacedPiece::new(nnue::Color::White, 0, 0); MAX_DELTA];
        let mut removed = [PlacedPiece::new(nnue::Color::White, 0, 0); MAX_DELTA];
        let (mut na, mut nr) = (0, 0);
        for (sq, p) in delta.added() {
            added[na] = placed(&self.net_type, sq, p);
            na += 1;
        }
        for (sq, p) in delta.removed() {
            removed[nr] = placed(&self.net_type, sq, p);
            nr += 1;
        }
        let (added, removed) = (&added[..na], &removed[..nr]);
        if !child.try_update_from(parent, &self.network, &self.layout, added, removed) {
            // The pieces after the move, for the perspective whose king changed bucket.
            let mut pieces = [PlacedPiece::new(nnue::Color::White, 0, 0); 128];
            let before = self.pieces_into(pos, &mut pieces);
            let mut n = 0;
            for i in 0..before {
                if !removed.contains(&pieces[i]) {
                    pieces[n] = pieces[i];
                    n += 1;
                }
            }
            for &p in added {
                pieces[n] = p;
                n += 1;
            }
            child.update_from_refreshing(parent, &self.network, &self.layout, added, removed, &pieces[..n]);
        }
    }

    /// The evaluation in centipawns for the side to move.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let stm = if pos.turn() == Color::White {
            nnue::Color::White
        } else {
            nnue::Color::Black
        };
        acc.evaluate(&self.network, stm)
    }

    /// Evaluates a position from scratch (no incremental state).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = self.accumulator();
        self.refresh(&mut acc, pos);
        self.evaluate(&acc, pos)
    }

    /// A one-line description for users, e.g. for `info string`.
    pub fn summary(&self) -> String {
        let first_line = self.description.lines().next().unwrap_or("").trim();
        let mut shape = match self.network.buckets() {
            1 => format!("{} hidden", self.network.hidden()),
            b => format!("{} hidden, {b} output buckets", self.network.hidden()),
        };
        if let Some(kings) = self.network.king_buckets() {
            shape.push_str(&format!(", {} king buckets", kings.count()));
        }
        if self.network.scale() != nnue::network::SCALE {
            shape.push_str(&format!(", scale {}", self.network.scale()));
        }
        if first_line.is_empty() {
            format!("NNUE ({}, {shape})", self.source)
        } else {
            format!("NNUE ({}, {shape}: {first_line})", self.source)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_buckets_span_the_largest_start_position() {
        // nnue::network::output_bucket splits 2..=BUCKET_PIECES pieces: that must be the largest
        // start position of the variants that have nets, so that no bucket is wasted or crowded.
        let most = Variant::ALL
            .iter()
            .map(|&v| crate::rules::position::Position::startpos(v).occupied().count() as usize)
            .max();
        assert_eq!(most, Some(nnue::network::BUCKET_PIECES));
    }

    #[test]
    fn persian_layouts_keep_the_type_indices_of_the_shipped_nets() {
        use crate::rules::PieceKind;
        for v in Variant::PERSIAN {
            assert_eq!(layout(v).piece_types(), 10, "{v}");
            // Type index = the kind's index, as when the layout used every kind.
            for (i, kind) in PieceKind::ALL.into_iter().take(10).enumerate() {
                assert_eq!(v.tables().net_type[kind] as usize, i, "{v}: {kind:?}");
            }
        }
        // Chess has its own six types.
        for v in Variant::ALL {
            let spec = v.spec();
            assert_eq!(layout(v).piece_types(), spec.net_kinds.len(), "{v}");
            for p in spec.pieces {
                assert!(
                    (v.tables().net_type[p.kind] as usize) < spec.net_kinds.len(),
                    "{v}: {:?}",
                    p.kind
                );
            }
        }
    }

    #[test]
    fn every_embedded_net_names_a_variant() {
        for (id, _) in EMBEDDED_NETS {
            assert!(
                id.parse::<Variant>().is_ok_and(|v| v.id() == *id),
                "data/nets/{id}.nnue"
            );
        }
    }

    #[test]
    fn every_variant_has_a_layout() {
        for v in Variant::ALL {
            let l = layout(v);
            assert_eq!(l.num_playable() as u32, v.spec().geometry.playable.count());
        }
    }
}

/// The pieces of a position as the `nnue` crate sees them.
pub fn placed_pieces(pos: &Position) -> Vec<PlacedPiece> {
    pos.occupied()
        .iter()
        .filter_map(|sq| pos.piece_at(sq).map(|p| placed(&pos.tables().net_type, sq, p)))
        .collect()
}

/// A training position: the board of `pos` with a score (side to move's view), the game's
/// result (side to move's view), the best move and where the position comes from.
pub fn training_position(
    pos: &Position,
    score: Option<i16>,
    result: nnue::data::GameResult,
    best: crate::rules::Move,
    ply: u16,
    game_id: u32,
) -> nnue::data::TrainingPosition {
    let noisy = pos.is_capture_or_promotion(best);
    nnue::data::TrainingPosition {
        pieces: placed_pieces(pos),
        stm: if pos.turn() == Color::White {
            nnue::Color::White
        } else {
            nnue::Color::Black
        },
        score,
        result,
        in_check: pos.in_check(),
        noisy_best_move: noisy,
        ply,
        variant_code: pos.variant().code(),
        halfmove: pos.halfmove_clock().min(255) as u8,
        best_move: best.raw(),
        game_id,
    }
}

/// Why a training position is not a legal position of the variant.
#[derive(Debug, thiserror::Error)]
pub enum TrainingPositionError {
    /// The record was written for another variant.
    #[error("record of variant code {found}, expected {expected} ({variant})")]
    WrongVariant {
        /// The code in the record.
        found: u8,
        /// The code of the variant asked for.
        expected: u8,
        /// Its id.
        variant: &'static str,
    },
    /// A piece type that is not a piece kind.
    #[error("piece type {0} is not a piece type of the variant's net layout")]
    PieceType(u8),
    /// The board is not a legal position.
    #[error("{0}")]
    Position(#[from] crate::rules::PositionError),
}

/// The position of a training record (castling, en-passant and rendezvous rights are not
/// recorded: the position has none of them).
pub fn position_of(variant: Variant, tp: &nnue::data::TrainingPosition) -> Result<Position, TrainingPositionError> {
    if tp.variant_code != variant.code() {
        return Err(TrainingPositionError::WrongVariant {
            found: tp.variant_code,
            expected: variant.code(),
            variant: variant.id(),
        });
    }
    let mut board = Vec::with_capacity(tp.pieces.len());
    for p in &tp.pieces {
        // Records hold the net's type index of a piece (its place in the variant's net kinds).
        let kind = *variant
            .spec()
            .net_kinds
            .get(p.kind as usize)
            .ok_or(TrainingPositionError::PieceType(p.kind))?;
        let color = if p.color == nnue::Color::White {
            Color::White
        } else {
            Color::Black
        };
        board.push((crate::rules::Square(p.cell), Piece { color, kind }));
    }
    let setup = crate::rules::Setup {
        board,
        turn: if tp.stm == nnue::Color::White {
            Color::White
        } else {
            Color::Black
        },
        castling: Vec::new(),
        ep: Vec::new(),
        halfmove: tp.halfmove as u32,
        fullmove: 1 + tp.ply as u32 / 2,
        rendezvous: variant.tables().rules.has_rendezvous().then_some((false, false)),
        rule_fields: Vec::new(),
    };
    Ok(Position::from_setup(variant, &setup)?)
}
