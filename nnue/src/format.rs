//! The `.nnue` file format (version 1): a header that says which variant, feature set, board
//! layout and architecture the net is for, the quantised parameters, a free-text description and
//! a CRC-32. `docs/nnue-format.md` documents it byte by byte.
//!
//! [`read()`] accepts exactly the files [`write()`] produces and refuses everything else with a
//! [`LoadNetError`] that names the problem; it never panics, whatever the bytes.
//!
//! ```
//! use nnue::{format, FloatNetwork, Layout};
//!
//! let layout = Layout::new(8, 8, u128::from(u64::MAX), 6).unwrap();
//! let net = FloatNetwork::init_random(nnue::features::num_features(&layout), 16, 1).quantise(32).unwrap();
//! let header = format::NetHeader::new(0, "chess", &layout, "random test net");
//! let bytes = format::to_bytes(&header, &net).unwrap();
//!
//! let loaded = format::read(&bytes, &format::Expected::new(0, "chess", &layout)).unwrap();
//! assert_eq!(loaded.network, net);
//! assert_eq!(loaded.header.description, "random test net");
//!
//! let err = format::read(&bytes, &format::Expected::new(1, "persian-princess", &layout)).unwrap_err();
//! assert!(matches!(err, format::LoadNetError::WrongVariant { .. }));
//! ```

use std::io::{self, Write};

use thiserror::Error;

use crate::{
    board::Layout,
    features::{num_features, KingBuckets, FEATURE_SET_KB, FEATURE_SET_V1},
    hash::crc32,
    network::{
        architecture_hash, Network, ARCH_V1, MAX_FEATURES, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, MAX_SCALE, MIN_SCALE, QA, QB,
    },
};

/// The first eight bytes of every `.nnue` file.
pub const MAGIC: [u8; 8] = *b"PCNNUE\0\0";

/// The format version of a net without king buckets (feature set v1).
pub const FORMAT_VERSION: u32 = 1;

/// The format version of a net with king buckets (feature set v2): version 1 with the king
/// section (king type, `K`, `N` and the `N` buckets, one byte each) after the layout hash.
pub const FORMAT_VERSION_KB: u32 = 2;

/// Longest variant id, in bytes (its length is stored in one byte).
pub const MAX_VARIANT_ID_LEN: usize = u8::MAX as usize;

/// Longest description [`write`] stores, in bytes (the nets trained so far carry a few hundred).
pub const MAX_DESCRIPTION_LEN: usize = 1 << 20;

/// Bytes of the longest header: magic, version, variant code, id length and id, feature set,
/// layout hash, the king section, architecture id and hash, three dimensions, three
/// quantisation constants.
pub const MAX_HEADER_LEN: usize =
    8 + 4 + 1 + 1 + MAX_VARIANT_ID_LEN + 4 + 8 + (3 + crate::board::MAX_CELLS) + 4 + 8 + 3 * 4 + 3 * 4;

/// The largest net file [`write`] produces: the longest header, the parameters of the largest
/// architecture ([`MAX_FEATURES`] inputs, [`MAX_HIDDEN`] neurons, [`MAX_OUTPUT_BUCKETS`]
/// buckets), the output biases, the longest description and the checksum. Larger files are no
/// nets: whoever reads net files from disk refuses them before reading (the engine does).
pub const MAX_FILE_LEN: u64 = (MAX_HEADER_LEN
    + 2 * ((1 + 2 * MAX_OUTPUT_BUCKETS) * MAX_HIDDEN + MAX_FEATURES * MAX_HIDDEN)
    + 4 * MAX_OUTPUT_BUCKETS
    + 4
    + MAX_DESCRIPTION_LEN
    + 4) as u64;

/// What a net file says about itself, besides its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetHeader {
    /// The caller's numeric code of the variant (rule set) the net was trained for.
    pub variant_code: u8,
    /// The caller's name of that variant, e.g. `"persian-princess"` (at most 255 bytes of UTF-8).
    pub variant_id: String,
    /// The feature set id, e.g. [`FEATURE_SET_V1`].
    pub feature_set: u32,
    /// [`Layout::layout_hash`] of the board the features index.
    pub layout_hash: u64,
    /// Free text, e.g. how and on what data the net was trained.
    pub description: String,
}

impl NetHeader {
    /// A header for a feature-set-v1 net on `layout`.
    #[must_use]
    pub fn new(
        variant_code: u8,
        variant_id: impl Into<String>,
        layout: &Layout,
        description: impl Into<String>,
    ) -> Self {
        NetHeader {
            variant_code,
            variant_id: variant_id.into(),
            feature_set: FEATURE_SET_V1,
            layout_hash: layout.layout_hash(),
            description: description.into(),
        }
    }
}

/// What the caller needs a net to be; [`read`] refuses a file that says otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The variant code the net must carry.
    pub variant_code: u8,
    /// The variant id the net must carry.
    pub variant_id: String,
    /// The feature set id the net must use.
    pub feature_set: u32,
    /// The layout hash the net must carry.
    pub layout_hash: u64,
    /// The number of inputs `F` the caller's feature set produces.
    pub num_features: usize,
    /// The architecture hash the caller needs, if it needs a particular one (e.g. only `H = 256`).
    pub architecture_hash: Option<u64>,
    /// The playable cells `N` of the caller's layout (the length of a king-bucket map).
    pub num_playable: usize,
    /// The caller's king type, when it accepts nets with king buckets (feature set v2) too;
    /// `None` accepts v1 only.
    pub king_type: Option<u8>,
}

impl Expected {
    /// Expect a feature-set-v1 net for `layout` and the given variant, of any hidden size.
    #[must_use]
    pub fn new(variant_code: u8, variant_id: impl Into<String>, layout: &Layout) -> Self {
        Expected {
            variant_code,
            variant_id: variant_id.into(),
            feature_set: FEATURE_SET_V1,
            layout_hash: layout.layout_hash(),
            num_features: num_features(layout),
            architecture_hash: None,
            num_playable: layout.num_playable(),
            king_type: None,
        }
    }

    /// The same expectations, also accepting nets with king buckets (feature set v2) whose king
    /// is the caller's type `king_type`.
    #[must_use]
    pub fn with_king_type(mut self, king_type: u8) -> Self {
        self.king_type = Some(king_type);
        self
    }
}

/// A net read from a file: its header and its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedNet {
    /// The header.
    pub header: NetHeader,
    /// The parameters.
    pub network: Network,
}

/// Why a net file was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoadNetError {
    /// The file ends before a field does.
    #[error("net file truncated: {field} at byte {offset} needs {needed} bytes, {available} left")]
    Truncated {
        /// The field being read.
        field: &'static str,
        /// Its byte offset.
        offset: usize,
        /// Bytes it needs.
        needed: usize,
        /// Bytes left in the file.
        available: usize,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not a net file: magic is {found:02x?}, expected {MAGIC:02x?}")]
    WrongMagic {
        /// The first eight bytes.
        found: [u8; 8],
    },
    /// The format version is neither [`FORMAT_VERSION`] nor [`FORMAT_VERSION_KB`].
    #[error("net file format version {found} is not supported (this build reads versions {FORMAT_VERSION} and {FORMAT_VERSION_KB})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// A text field is not UTF-8.
    #[error("{field} at byte {offset} is not valid UTF-8")]
    InvalidText {
        /// The field.
        field: &'static str,
        /// Its byte offset.
        offset: usize,
    },
    /// The architecture id is not one this build knows.
    #[error("unknown architecture id {found} (this build knows {ARCH_V1})")]
    UnknownArchitecture {
        /// The id in the file.
        found: u32,
    },
    /// A dimension is outside what the architecture allows.
    #[error("{name} = {value} is out of range {min}..={max}")]
    DimensionOutOfRange {
        /// `"features"`, `"hidden"` or `"output buckets"`.
        name: &'static str,
        /// The value in the file.
        value: u32,
        /// The smallest allowed value.
        min: u32,
        /// The largest allowed value.
        max: u32,
    },
    /// The dimensions do not hash to the header's own architecture hash.
    #[error(
        "dimensions (features {features}, hidden {hidden}, buckets {buckets}) hash to {computed:#018x}, \
         but the header says {stored:#018x}"
    )]
    DimensionsMismatch {
        /// Inputs in the header.
        features: u32,
        /// Hidden size in the header.
        hidden: u32,
        /// Output buckets in the header.
        buckets: u32,
        /// The architecture hash in the header.
        stored: u64,
        /// The hash of the header's dimensions.
        computed: u64,
    },
    /// The quantisation constants are not the ones this build uses.
    #[error(
        "quantisation QA={qa} QB={qb} SCALE={scale} is not supported (expected QA {QA}, QB {QB}, SCALE within {MIN_SCALE}..={MAX_SCALE})"
    )]
    UnsupportedQuantisation {
        /// QA in the file.
        qa: i32,
        /// QB in the file.
        qb: i32,
        /// SCALE in the file.
        scale: i32,
    },
    /// The CRC-32 at the end does not match the bytes before it.
    #[error("checksum mismatch: file says {stored:#010x}, contents give {computed:#010x}")]
    ChecksumMismatch {
        /// The checksum in the file.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    /// Bytes follow the checksum.
    #[error("{count} unexpected bytes after the end of the net at byte {offset}")]
    TrailingBytes {
        /// Where the net ends.
        offset: usize,
        /// How many bytes follow.
        count: usize,
    },
    /// The net is for another variant.
    #[error("net is for variant {found_id:?} (code {found_code}), expected {expected_id:?} (code {expected_code})")]
    WrongVariant {
        /// The code the caller needs.
        expected_code: u8,
        /// The id the caller needs.
        expected_id: String,
        /// The code in the file.
        found_code: u8,
        /// The id in the file.
        found_id: String,
    },
    /// The net uses another feature set.
    #[error("net uses feature set {found}, expected {expected}")]
    WrongFeatureSet {
        /// The id the caller needs.
        expected: u32,
        /// The id in the file.
        found: u32,
    },
    /// The net's king buckets do not fit the caller: another king type, a map of another
    /// length, or buckets numbered wrongly.
    #[error("net's king buckets do not fit: {0}")]
    WrongKingBuckets(String),
    /// The net was made for another board layout.
    #[error("net is for layout hash {found:#018x}, expected {expected:#018x}")]
    WrongLayoutHash {
        /// The hash the caller needs.
        expected: u64,
        /// The hash in the file.
        found: u64,
    },
    /// The net has another number of inputs than the caller's feature set produces.
    #[error("net has {found} inputs, the feature set produces {expected}")]
    WrongFeatureCount {
        /// `F` the caller needs.
        expected: usize,
        /// `F` in the file.
        found: u32,
    },
    /// The net has another architecture than the caller needs.
    #[error("net has architecture hash {found:#018x}, expected {expected:#018x}")]
    WrongArchitectureHash {
        /// The hash the caller needs.
        expected: u64,
        /// The hash in the file.
        found: u64,
    },
}

/// Why a net could not be written.
#[derive(Debug, Error)]
pub enum SaveNetError {
    /// The variant id is longer than [`MAX_VARIANT_ID_LEN`] bytes.
    #[error("variant id is {0} bytes long, at most {MAX_VARIANT_ID_LEN} allowed")]
    VariantIdTooLong(usize),
    /// The description is longer than [`MAX_DESCRIPTION_LEN`] bytes.
    #[error("description is {0} bytes long, at most {MAX_DESCRIPTION_LEN} allowed")]
    DescriptionTooLong(usize),
    /// The writer failed.
    #[error("writing the net failed: {0}")]
    Io(#[from] io::Error),
}

/// The whole file for `net` with `header`, as bytes.
///
/// # Errors
/// [`SaveNetError::VariantIdTooLong`] or [`SaveNetError::DescriptionTooLong`].
pub fn to_bytes(header: &NetHeader, net: &Network) -> Result<Vec<u8>, SaveNetError> {
    let variant_len =
        u8::try_from(header.variant_id.len()).map_err(|_| SaveNetError::VariantIdTooLong(header.variant_id.len()))?;
    let description_len = u32::try_from(header.description.len())
        .ok()
        .filter(|&len| len as usize <= MAX_DESCRIPTION_LEN)
        .ok_or(SaveNetError::DescriptionTooLong(header.description.len()))?;
    let (features, hidden, buckets) = (net.num_features(), net.hidden(), net.buckets());
    let mut out = Vec::with_capacity(
        128 + 2 * (features * hidden + (1 + 2 * buckets) * hidden) + 4 * buckets + header.description.len(),
    );
    let kings = net.king_buckets();
    let (version, feature_set) = match kings {
        Some(_) => (FORMAT_VERSION_KB, FEATURE_SET_KB),
        None => (FORMAT_VERSION, header.feature_set),
    };
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.push(header.variant_code);
    out.push(variant_len);
    out.extend_from_slice(header.variant_id.as_bytes());
    out.extend_from_slice(&feature_set.to_le_bytes());
    out.extend_from_slice(&header.layout_hash.to_le_bytes());
    if let Some(kings) = kings {
        // The map has one entry per playable cell: at most MAX_CELLS (128).
        out.extend_from_slice(&[kings.king_type(), kings.count() as u8, kings.map().len() as u8]);
        out.extend_from_slice(kings.map());
    }
    out.extend_from_slice(&ARCH_V1.to_le_bytes());
    out.extend_from_slice(&net.architecture_hash().to_le_bytes());
    for dimension in [features, hidden, buckets] {
        out.extend_from_slice(&(dimension as u32).to_le_bytes());
    }
    for constant in [QA, QB, net.scale()] {
        out.extend_from_slice(&constant.to_le_bytes());
    }
    for value in (0..hidden).map(|j| net.ft_bias(j)).chain(net.ft_weights_iter()) {
        out.extend_from_slice(&value.to_le_bytes());
    }
    for value in (0..buckets * 2 * hidden).map(|i| net.out_weight(i)) {
        out.extend_from_slice(&value.to_le_bytes());
    }
    for bucket in 0..buckets {
        out.extend_from_slice(&net.out_bias(bucket).to_le_bytes());
    }
    out.extend_from_slice(&description_len.to_le_bytes());
    out.extend_from_slice(header.description.as_bytes());
    let checksum = crc32(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    Ok(out)
}

/// Writes `net` with `header` to `writer` (in one `write_all`).
///
/// # Errors
/// See [`SaveNetError`].
pub fn write(writer: &mut impl Write, header: &NetHeader, net: &Network) -> Result<(), SaveNetError> {
    writer.write_all(&to_bytes(header, net)?)?;
    Ok(())
}

/// Reads a net file and checks that it is what `expected` says.
///
/// # Errors
/// Every problem has its own [`LoadNetError`] variant. The file's structure and checksum are
/// checked first (so a damaged file reports the damage), then the expectations in the order
/// variant, feature set, layout hash, number of inputs, architecture hash.
pub fn read(bytes: &[u8], expected: &Expected) -> Result<LoadedNet, LoadNetError> {
    let loaded = read_any(bytes)?;
    let header = &loaded.header;
    if header.variant_code != expected.variant_code || header.variant_id != expected.variant_id {
        return Err(LoadNetError::WrongVariant {
            expected_code: expected.variant_code,
            expected_id: expected.variant_id.clone(),
            found_code: header.variant_code,
            found_id: header.variant_id.clone(),
        });
    }
    let kb_accepted = header.feature_set == FEATURE_SET_KB && expected.king_type.is_some();
    if header.feature_set != expected.feature_set && !kb_accepted {
        return Err(LoadNetError::WrongFeatureSet {
            expected: expected.feature_set,
            found: header.feature_set,
        });
    }
    let mut expected_features = expected.num_features;
    if let Some(kings) = loaded.network.king_buckets() {
        if Some(kings.king_type()) != expected.king_type {
            return Err(LoadNetError::WrongKingBuckets(format!(
                "its king is piece type {}, this variant's is {:?}",
                kings.king_type(),
                expected.king_type
            )));
        }
        if kings.map().len() != expected.num_playable {
            return Err(LoadNetError::WrongKingBuckets(format!(
                "its map has {} cells, the board {}",
                kings.map().len(),
                expected.num_playable
            )));
        }
        expected_features *= kings.count();
    }
    if header.layout_hash != expected.layout_hash {
        return Err(LoadNetError::WrongLayoutHash {
            expected: expected.layout_hash,
            found: header.layout_hash,
        });
    }
    let features = loaded.network.num_features();
    if features != expected_features {
        return Err(LoadNetError::WrongFeatureCount {
            expected: expected_features,
            found: features as u32,
        });
    }
    let found = loaded.network.architecture_hash();
    match expected.architecture_hash {
        Some(expected) if expected != found => Err(LoadNetError::WrongArchitectureHash { expected, found }),
        _ => Ok(loaded),
    }
}

/// Reads any well-formed net file, whatever variant, feature set and layout it is for (for tools
/// that list or convert nets). [`read`] is this plus the checks against [`Expected`].
///
/// # Errors
/// The structural [`LoadNetError`]s: truncation, magic, version, text, architecture,
/// dimensions, quantisation, checksum, trailing bytes.
pub fn read_any(bytes: &[u8]) -> Result<LoadedNet, LoadNetError> {
    let mut cursor = Cursor { bytes, pos: 0 };
    let magic = cursor.array::<8>("magic")?;
    if magic != MAGIC {
        return Err(LoadNetError::WrongMagic { found: magic });
    }
    let version = cursor.u32("format version")?;
    if version != FORMAT_VERSION && version != FORMAT_VERSION_KB {
        return Err(LoadNetError::UnsupportedVersion { found: version });
    }
    let variant_code = cursor.u8("variant code")?;
    let variant_len = cursor.u8("variant id length")?;
    let variant_id = cursor.text(usize::from(variant_len), "variant id")?;
    let feature_set = cursor.u32("feature set id")?;
    let layout_hash = cursor.u64("layout hash")?;
    let kings = if version == FORMAT_VERSION_KB {
        if feature_set != FEATURE_SET_KB {
            return Err(LoadNetError::WrongKingBuckets(format!(
                "a version-{FORMAT_VERSION_KB} file must use feature set {FEATURE_SET_KB}, it says {feature_set}"
            )));
        }
        let king_type = cursor.u8("king type")?;
        let count = cursor.u8("king buckets")?;
        let cells = cursor.u8("king-bucket cells")?;
        let map = cursor.array_of(usize::from(cells), "king-bucket map")?;
        let kings = KingBuckets::numbered(king_type, map).map_err(|e| LoadNetError::WrongKingBuckets(e.to_string()))?;
        if kings.count() != usize::from(count) {
            return Err(LoadNetError::WrongKingBuckets(format!(
                "the header says {count} buckets, the map numbers {}",
                kings.count()
            )));
        }
        Some(kings)
    } else {
        None
    };
    let arch_id = cursor.u32("architecture id")?;
    let stored_hash = cursor.u64("architecture hash")?;
    let features = cursor.u32("features")?;
    let hidden = cursor.u32("hidden")?;
    let buckets = cursor.u32("output buckets")?;
    if arch_id != ARCH_V1 {
        return Err(LoadNetError::UnknownArchitecture { found: arch_id });
    }
    for (name, value, max) in [
        ("features", features, MAX_FEATURES),
        ("hidden", hidden, MAX_HIDDEN),
        ("output buckets", buckets, MAX_OUTPUT_BUCKETS),
    ] {
        let max = max as u32;
        if !(1..=max).contains(&value) {
            return Err(LoadNetError::DimensionOutOfRange {
                name,
                value,
                min: 1,
                max,
            });
        }
    }
    let computed = architecture_hash(arch_id, features, hidden, buckets);
    if computed != stored_hash {
        return Err(LoadNetError::DimensionsMismatch {
            features,
            hidden,
            buckets,
            stored: stored_hash,
            computed,
        });
    }
    let (qa, qb, scale) = (cursor.i32("QA")?, cursor.i32("QB")?, cursor.i32("SCALE")?);
    if (qa, qb) != (QA, QB) || !(MIN_SCALE..=MAX_SCALE).contains(&scale) {
        return Err(LoadNetError::UnsupportedQuantisation { qa, qb, scale });
    }
    // The dimensions are in range, so these sizes are at most a few tens of megabytes and are
    // checked against the file length before anything is allocated.
    let (features, hidden, buckets) = (features as usize, hidden as usize, buckets as usize);
    let ft_bias = cursor.i16s(hidden, "feature-transformer biases")?;
    let ft_weights = cursor.i16s(features * hidden, "feature-transformer weights")?;
    let out_weights = cursor.i16s(buckets * 2 * hidden, "output weights")?;
    let out_bias = (0..buckets)
        .map(|_| cursor.i32("output bias"))
        .collect::<Result<Vec<_>, _>>()?;
    let description_len = cursor.u32("description length")?;
    let description = cursor.text(description_len as usize, "description")?;
    let body_end = cursor.pos;
    let stored = cursor.u32("checksum")?;
    let computed = crc32(&bytes[..body_end]);
    if stored != computed {
        return Err(LoadNetError::ChecksumMismatch { stored, computed });
    }
    if cursor.pos != bytes.len() {
        return Err(LoadNetError::TrailingBytes {
            offset: cursor.pos,
            count: bytes.len() - cursor.pos,
        });
    }
    let network = Network::from_parts_bucketed(features, hidden, &ft_weights, &ft_bias, &out_weights, &out_bias)
        .unwrap_or_else(|_| unreachable!("dimensions and lengths were checked above"))
        .with_king_buckets(kings)
        .map_err(|e| LoadNetError::WrongKingBuckets(e.to_string()))?
        .with_scale(scale)
        .unwrap_or_else(|_| unreachable!("the scale was checked above"));
    Ok(LoadedNet {
        header: NetHeader {
            variant_code,
            variant_id,
            feature_set,
            layout_hash,
            description,
        },
        network,
    })
}

/// A bounds-checked little-endian reader over the file bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, needed: usize, field: &'static str) -> Result<&'a [u8], LoadNetError> {
        let available = self.bytes.len() - self.pos;
        if needed > available {
            return Err(LoadNetError::Truncated {
                field,
                offset: self.pos,
                needed,
                available,
            });
        }
        let slice = &self.bytes[self.pos..self.pos + needed];
        self.pos += needed;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], LoadNetError> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N, field)?);
        Ok(array)
    }

    fn array_of(&mut self, len: usize, field: &'static str) -> Result<Vec<u8>, LoadNetError> {
        Ok(self.take(len, field)?.to_vec())
    }

    fn u8(&mut self, field: &'static str) -> Result<u8, LoadNetError> {
        Ok(self.array::<1>(field)?[0])
    }

    fn u32(&mut self, field: &'static str) -> Result<u32, LoadNetError> {
        self.array(field).map(u32::from_le_bytes)
    }

    fn i32(&mut self, field: &'static str) -> Result<i32, LoadNetError> {
        self.array(field).map(i32::from_le_bytes)
    }

    fn u64(&mut self, field: &'static str) -> Result<u64, LoadNetError> {
        self.array(field).map(u64::from_le_bytes)
    }

    fn i16s(&mut self, count: usize, field: &'static str) -> Result<Vec<i16>, LoadNetError> {
        let bytes = self.take(2 * count, field)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect())
    }

    fn text(&mut self, len: usize, field: &'static str) -> Result<String, LoadNetError> {
        let offset = self.pos;
        let bytes = self.take(len, field)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| LoadNetError::InvalidText { field, offset })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FloatNetwork;

    #[test]
    fn layout_of_a_tiny_file() {
        let layout = Layout::new(1, 2, 0b11, 1).unwrap();
        let net = FloatNetwork::init_random(4, 3, 5).quantise(2).unwrap();
        let bytes = to_bytes(&NetHeader::new(7, "ab", &layout, "xyz"), &net).unwrap();
        // 8 magic + 4 version + 1 code + 1 len + 2 id + 4 fs + 8 layout + 4 arch + 8 hash
        // + 12 dims + 12 quantisation = 64 header bytes; payload 2*(3 + 12 + 6) + 4 = 46;
        // description 4 + 3; checksum 4.
        assert_eq!(bytes.len(), 64 + 46 + 7 + 4);
        assert_eq!(&bytes[..8], b"PCNNUE\0\0");
        assert_eq!(&bytes[12..16], &[7, 2, b'a', b'b']);
        assert_eq!(&bytes[64..66], &net.ft_bias(0).to_le_bytes());
        assert_eq!(&bytes[70..72], &net.ft_weight(0, 0).to_le_bytes());
        assert_eq!(&bytes[bytes.len() - 7..bytes.len() - 4], b"xyz");
        let crc = crc32(&bytes[..bytes.len() - 4]);
        assert_eq!(&bytes[bytes.len() - 4..], &crc.to_le_bytes());
        let loaded = read_any(&bytes).unwrap();
        assert_eq!(loaded.network, net);
        assert_eq!(loaded.header.variant_id, "ab");
    }

    #[test]
    fn the_largest_file_is_the_largest_net_with_the_longest_description() {
        // Built at the largest dimensions, a net of `MAX_FILE_LEN` bytes would take a few
        // hundred megabytes of floats: its size is counted from a small net instead.
        // A net with king buckets, whose map is as long as the board (2 cells here, at most
        // MAX_CELLS).
        let layout = Layout::new(1, 2, 0b11, 1).unwrap();
        let kings = KingBuckets::new(&layout, 0, vec![0, 1]).unwrap();
        let mut float = FloatNetwork::init_random(8, 3, 5);
        float.kings = Some(kings);
        let net = float.quantise(2).unwrap();
        let id = "x".repeat(MAX_VARIANT_ID_LEN);
        let header = NetHeader::new(0, id, &layout, "d".repeat(MAX_DESCRIPTION_LEN));
        let bytes = to_bytes(&header, &net).unwrap();
        let parameters = |features: usize, hidden: usize, buckets: usize| {
            (2 * ((1 + 2 * buckets) * hidden + features * hidden) + 4 * buckets) as u64
        };
        assert_eq!(
            MAX_FILE_LEN,
            bytes.len() as u64 - parameters(8, 3, 1)
                + parameters(MAX_FEATURES, MAX_HIDDEN, MAX_OUTPUT_BUCKETS)
                + (crate::board::MAX_CELLS - 2) as u64
        );
        // The figure docs/nnue-format.md quotes.
        assert_eq!(MAX_FILE_LEN, 269_754_888);
        // One byte more of description is refused.
        let header = NetHeader::new(0, "x", &layout, "d".repeat(MAX_DESCRIPTION_LEN + 1));
        assert!(matches!(
            to_bytes(&header, &net),
            Err(SaveNetError::DescriptionTooLong(len)) if len == MAX_DESCRIPTION_LEN + 1
        ));
    }

    #[test]
    fn overlong_variant_id_is_refused() {
        let layout = Layout::new(1, 2, 0b11, 1).unwrap();
        let net = FloatNetwork::zeros(4, 1).quantise(1).unwrap();
        let header = NetHeader::new(0, "x".repeat(256), &layout, "");
        assert!(matches!(
            to_bytes(&header, &net),
            Err(SaveNetError::VariantIdTooLong(256))
        ));
    }
}
