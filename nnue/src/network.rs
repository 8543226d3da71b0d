//! Architecture v1, `(F -> H) x 2 -> B` with SCReLU: the quantised [`Network`] used for
//! inference, the float [`FloatNetwork`] used by training, the quantiser between them and the
//! float reference forward pass.
//!
//! # Output buckets
//!
//! A net has `B` output heads (`1..=`[`MAX_OUTPUT_BUCKETS`]; the nets trained before buckets
//! have one). Each position uses the head of its material: [`output_bucket`] of the number of
//! pieces on the board (which is also the number of active features per perspective). With one
//! bucket the net is the plain `(F -> H) x 2 -> 1`.
//!
//! # The computation
//!
//! The feature transformer (`F` inputs, `H` hidden neurons, weights shared by both perspectives)
//! gives two accumulators, one per perspective: `acc[p] = bias + sum of the weight rows of the
//! active features of perspective p`. The output neuron (of the position's bucket) sees the
//! side to move's accumulator first, then the other one:
//!
//! ```text
//! float:     y  = sum_j screlu(acc_stm[j]) * w[j] + sum_j screlu(acc_ntm[j]) * w[H+j] + b
//!            screlu(x) = clamp(x, 0, 1)^2,          eval_cp = y * SCALE
//! quantised: s  = sum_j screlu_q(a_stm[j]) * w_q[j] + sum_j screlu_q(a_ntm[j]) * w_q[H+j]   (exact, i64)
//!            screlu_q(x) = clamp(x, 0, QA)^2
//!            eval_cp = (s / QA + b_q) * SCALE / (QA * QB)   (i64, each `/` truncates toward zero)
//! ```
//!
//! with feature-transformer weights and biases stored as `i16` scaled by [`QA`] = 255, output
//! weights as `i16` scaled by [`QB`] = 64 and the output bias as `i32` scaled by `QA * QB`.
//! Accumulators are `i16` with wrapping adds; [`FloatNetwork::quantise`] refuses a net whose
//! worst-case accumulator could leave the `i16` range.

use thiserror::Error;

use crate::{
    board::{Color, Layout, PlacedPiece, MAX_CELLS, MAX_PIECE_TYPES},
    features::{self, KingBuckets},
    hash::Fnv64,
    rng::SplitMix64,
    simd::{blocks_for, Block, LANES, MAX_FAST_OUTPUT_WEIGHT},
};

/// Id of architecture v1, `(F -> H) x 2 -> 1` SCReLU, as stored in `.nnue` headers.
pub const ARCH_V1: u32 = 1;

/// Name of architecture v1.
pub const ARCH_V1_NAME: &str = "(F->H)x2->B SCReLU";

pub use crate::quant::{MAX_SCALE, MIN_SCALE, QA, QB, SCALE};

/// The default hidden size `H`.
pub const DEFAULT_HIDDEN: usize = 256;

/// Most inputs a net may have (`2 * 16 piece types * 128 cells`, once per king bucket).
pub const MAX_FEATURES: usize = features::MAX_KING_BUCKETS * 2 * MAX_PIECE_TYPES * MAX_CELLS;

/// Most hidden neurons a net may have.
pub const MAX_HIDDEN: usize = 4096;

/// Most output buckets a net may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// The piece count that [`output_bucket`] maps to the last bucket: the pieces of the largest
/// start position of the games played here (40, the Persian sub-variants'; the engine's tests
/// check it against every variant).
pub const BUCKET_PIECES: usize = 40;

/// The output bucket of a position with `pieces` pieces in a net with `buckets` buckets: the
/// range `2..=BUCKET_PIECES` split into `buckets` equal parts,
/// `min(buckets - 1, (pieces - 2) * buckets / (BUCKET_PIECES - 2))` (fewer than two pieces count
/// as two). Always 0 for a single bucket.
#[inline]
#[must_use]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    if buckets <= 1 {
        return 0;
    }
    (pieces.saturating_sub(2) * buckets / (BUCKET_PIECES - 2)).min(buckets - 1)
}

/// The architecture hash stored in `.nnue` headers: FNV-1a 64 over the little-endian `u32`s
/// `arch_id, features, hidden, output_buckets`.
#[must_use]
pub fn architecture_hash(arch_id: u32, features: u32, hidden: u32, output_buckets: u32) -> u64 {
    let mut hash = Fnv64::new();
    for value in [arch_id, features, hidden, output_buckets] {
        hash.write(&value.to_le_bytes());
    }
    hash.finish()
}

/// Why a network could not be built or quantised.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NetworkError {
    /// `F`, `H` or `B` is zero or above its maximum.
    #[error("{name} = {value} is out of range 1..={max}")]
    Dimension {
        /// `"features"`, `"hidden"` or `"output buckets"`.
        name: &'static str,
        /// The value given.
        value: usize,
        /// The largest allowed value.
        max: usize,
    },
    /// The number of king buckets does not divide the number of inputs.
    #[error("{buckets} king buckets do not divide {features} inputs")]
    KingBuckets {
        /// `F`.
        features: usize,
        /// `K`.
        buckets: usize,
    },
    /// The centipawns per unit of output are outside `MIN_SCALE..=MAX_SCALE`.
    #[error("scale {0} is out of range {MIN_SCALE}..={MAX_SCALE} (centipawns per unit of the net's output)")]
    Scale(i32),
    /// A parameter array has the wrong length for `F` and `H`.
    #[error("{what} has {found} values, expected {expected}")]
    Shape {
        /// Which array.
        what: &'static str,
        /// The length `F` and `H` call for.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// A float parameter is NaN or infinite.
    #[error("{what}[{index}] is not finite")]
    NonFinite {
        /// Which array.
        what: &'static str,
        /// Index of the value.
        index: usize,
    },
    /// A float parameter does not fit its integer type once scaled.
    #[error("{what}[{index}] = {value} does not fit once quantised (allowed magnitude {limit})")]
    OutOfRange {
        /// Which array.
        what: &'static str,
        /// Index of the value.
        index: usize,
        /// The float value.
        value: f32,
        /// The largest float magnitude that fits.
        limit: f32,
    },
    /// The worst-case accumulator of a hidden neuron leaves the `i16` range.
    #[error(
        "hidden neuron {neuron} can reach an accumulator of {worst_case} with {max_active} active features \
         (|bias| + max_active * max |weight|), beyond i16"
    )]
    AccumulatorOverflow {
        /// The neuron.
        neuron: usize,
        /// Its worst-case quantised accumulator magnitude.
        worst_case: i64,
        /// The number of active features assumed.
        max_active: usize,
    },
}

fn check_dimensions(features: usize, hidden: usize, buckets: usize) -> Result<(), NetworkError> {
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
        return Err(NetworkError::Dimension {
            name: "output buckets",
            value: buckets,
            max: MAX_OUTPUT_BUCKETS,
        });
    }
    if !(1..=MAX_FEATURES).contains(&features) {
        return Err(NetworkError::Dimension {
            name: "features",
            value: features,
            max: MAX_FEATURES,
        });
    }
    if !(1..=MAX_HIDDEN).contains(&hidden) {
        return Err(NetworkError::Dimension {
            name: "hidden",
            value: hidden,
            max: MAX_HIDDEN,
        });
    }
    Ok(())
}

fn check_len(what: &'static str, expected: usize, found: usize) -> Result<(), NetworkError> {
    if expected == found {
        Ok(())
    } else {
        Err(NetworkError::Shape { what, expected, found })
    }
}

/// Copies `values` into blocks of `hidden` values each, padding each group to whole blocks.
fn to_blocks(values: &[i16], hidden: usize) -> Vec<Block> {
    let per_group = blocks_for(hidden);
    let mut blocks = vec![Block::default(); values.len() / hidden * per_group];
    for (group, chunk) in blocks.chunks_mut(per_group).zip(values.chunks(hidden)) {
        for (index, &value) in chunk.iter().enumerate() {
            group[index / LANES].0[index % LANES] = value;
        }
    }
    blocks
}

/// The quantised network used for inference (architecture v1).
///
/// Build one with [`FloatNetwork::quantise`], [`Network::from_parts`] or
/// [`crate::format::read`]. Parameters are kept in 32-byte aligned blocks of 16 values, each
/// weight row padded with zeros to a whole number of blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    features: usize,
    hidden: usize,
    buckets: usize,
    /// Row `f` (blocks `f * B .. (f + 1) * B`, `B = ceil(H / 16)`) holds feature `f`'s weights.
    ft_weights: Vec<Block>,
    ft_bias: Vec<Block>,
    /// Per output bucket, the side-to-move half (`ceil(H / 16)` blocks) then the other half.
    out_weights: Vec<Block>,
    /// One per output bucket.
    out_bias: Vec<i32>,
    /// Every output weight is within [`MAX_FAST_OUTPUT_WEIGHT`] in magnitude.
    fast_output: bool,
    /// The king buckets of feature set v2, `None` for v1.
    kings: Option<KingBuckets>,
    /// `F / K`: the inputs of one king bucket (`F` for v1).
    bucket_features: usize,
    /// Centipawns per unit of output ([`SCALE`] unless the net was calibrated).
    scale: i32,
}

impl Network {
    /// Builds a network from quantised parameters: `ft_weights` is feature-major (`F * H` values,
    /// row `f` = the weights from feature `f` to hidden neurons `0..H`), `ft_bias` has `H` values,
    /// `out_weights` has `2 * H` values (the side to move's half first), one output bucket.
    ///
    /// # Errors
    /// [`NetworkError::Dimension`] or [`NetworkError::Shape`].
    pub fn from_parts(
        features: usize,
        hidden: usize,
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_weights: &[i16],
        out_bias: i32,
    ) -> Result<Self, NetworkError> {
        Self::from_parts_bucketed(features, hidden, ft_weights, ft_bias, out_weights, &[out_bias])
    }

    /// Like [`Network::from_parts`] with `B = out_bias.len()` output buckets: `out_weights` has
    /// `B * 2 * H` values, bucket after bucket, each the side to move's half first.
    ///
    /// # Errors
    /// [`NetworkError::Dimension`] or [`NetworkError::Shape`].
    pub fn from_parts_bucketed(
        features: usize,
        hidden: usize,
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_weights: &[i16],
        out_bias: &[i32],
    ) -> Result<Self, NetworkError> {
        let buckets = out_bias.len();
        check_dimensions(features, hidden, buckets)?;
        check_len("ft_weights", features * hidden, ft_weights.len())?;
        check_len("ft_bias", hidden, ft_bias.len())?;
        check_len("out_weights", buckets * 2 * hidden, out_weights.len())?;
        Ok(Network {
            features,
            hidden,
            buckets,
            ft_weights: to_blocks(ft_weights, hidden),
            ft_bias: to_blocks(ft_bias, hidden),
            out_weights: to_blocks(out_weights, hidden),
            out_bias: out_bias.to_vec(),
            fast_output: out_weights
                .iter()
                .all(|w| w.unsigned_abs() <= MAX_FAST_OUTPUT_WEIGHT.unsigned_abs()),
            kings: None,
            bucket_features: features,
            scale: SCALE,
        })
    }

    /// This network with another number of centipawns per unit of its output: its calibration
    /// to the search, which the weights do not change (`SCALE`, 400, as trained).
    ///
    /// # Errors
    /// [`NetworkError::Scale`] outside `MIN_SCALE..=MAX_SCALE`.
    pub fn with_scale(mut self, scale: i32) -> Result<Self, NetworkError> {
        if !(MIN_SCALE..=MAX_SCALE).contains(&scale) {
            return Err(NetworkError::Scale(scale));
        }
        self.scale = scale;
        Ok(self)
    }

    /// Centipawns per unit of the net's output.
    #[must_use]
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// This network with the king buckets of feature set v2 (`None`: v1), whose `K` must
    /// divide `F`.
    ///
    /// # Errors
    /// [`NetworkError::KingBuckets`] when `K` does not divide `F`.
    pub fn with_king_buckets(mut self, kings: Option<KingBuckets>) -> Result<Self, NetworkError> {
        let k = kings.as_ref().map_or(1, KingBuckets::count);
        if self.features % k != 0 {
            return Err(NetworkError::KingBuckets {
                features: self.features,
                buckets: k,
            });
        }
        self.bucket_features = self.features / k;
        self.kings = kings;
        Ok(self)
    }

    /// The king buckets (feature set v2), `None` for a v1 net.
    #[must_use]
    pub fn king_buckets(&self) -> Option<&KingBuckets> {
        self.kings.as_ref()
    }

    /// The inputs of one king bucket (`F / K`; `F` for a v1 net).
    #[must_use]
    pub fn bucket_features(&self) -> usize {
        self.bucket_features
    }

    /// Number of inputs `F`.
    #[must_use]
    pub fn num_features(&self) -> usize {
        self.features
    }

    /// Number of hidden neurons `H` per perspective.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Number of output buckets `B`.
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// This network's [`architecture_hash`].
    #[must_use]
    pub fn architecture_hash(&self) -> u64 {
        architecture_hash(ARCH_V1, self.features as u32, self.hidden as u32, self.buckets as u32)
    }

    /// The weight from feature `feature` to hidden neuron `neuron`. Panics if out of range.
    #[must_use]
    pub fn ft_weight(&self, feature: usize, neuron: usize) -> i16 {
        assert!(
            feature < self.features && neuron < self.hidden,
            "parameter index out of range"
        );
        self.row(feature)[neuron / LANES].0[neuron % LANES]
    }

    /// The bias of hidden neuron `neuron`. Panics if out of range.
    #[must_use]
    pub fn ft_bias(&self, neuron: usize) -> i16 {
        assert!(neuron < self.hidden, "parameter index out of range");
        self.ft_bias[neuron / LANES].0[neuron % LANES]
    }

    /// Output weight `index` in `0..B * 2H` (bucket after bucket, each the side to move's half
    /// first). Panics if out of range.
    #[must_use]
    pub fn out_weight(&self, index: usize) -> i16 {
        assert!(index < self.buckets * 2 * self.hidden, "parameter index out of range");
        let (half, neuron) = (index / self.hidden, index % self.hidden);
        self.out_weights[half * self.blocks() + neuron / LANES].0[neuron % LANES]
    }

    /// The output bias of `bucket` (scaled by `QA * QB`). Panics if out of range.
    #[must_use]
    pub fn out_bias(&self, bucket: usize) -> i32 {
        self.out_bias[bucket]
    }

    /// Blocks per weight row.
    pub(crate) fn blocks(&self) -> usize {
        blocks_for(self.hidden)
    }

    /// The weight row of `feature` (panics if `feature >= F`).
    #[inline]
    pub(crate) fn row(&self, feature: usize) -> &[Block] {
        let blocks = self.blocks();
        &self.ft_weights[feature * blocks..(feature + 1) * blocks]
    }

    pub(crate) fn bias_blocks(&self) -> &[Block] {
        &self.ft_bias
    }

    /// The output weights of `bucket` (both halves).
    pub(crate) fn out_blocks(&self, bucket: usize) -> &[Block] {
        let per_bucket = 2 * self.blocks();
        &self.out_weights[bucket * per_bucket..(bucket + 1) * per_bucket]
    }

    pub(crate) fn fast_output(&self) -> bool {
        self.fast_output
    }

    /// All values of a block array in order, without the padding lanes.
    pub(crate) fn unpadded<'a>(&self, blocks: &'a [Block]) -> impl Iterator<Item = i16> + 'a {
        let hidden = self.hidden;
        blocks
            .chunks(self.blocks())
            .flat_map(move |group| group.iter().flat_map(|b| b.0).take(hidden))
    }

    /// Feature-transformer weights in file order (feature-major, no padding).
    pub(crate) fn ft_weights_iter(&self) -> impl Iterator<Item = i16> + '_ {
        self.unpadded(&self.ft_weights)
    }
}

/// SCReLU on floats: `clamp(x, 0, 1)^2`.
#[must_use]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The network in floats, as trained (architecture v1). Same layout as
/// [`Network::from_parts_bucketed`]: `ft_weights` feature-major (`F * H`), `ft_bias` (`H`),
/// `out_weights` (`B * 2 * H`, bucket after bucket, the side to move's half first), `out_bias`
/// (`B`).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Number of inputs `F`.
    pub num_features: usize,
    /// Number of hidden neurons `H`.
    pub hidden: usize,
    /// Feature-transformer weights, row `f` = weights from feature `f` (`F * H` values).
    pub ft_weights: Vec<f32>,
    /// Feature-transformer biases (`H` values).
    pub ft_bias: Vec<f32>,
    /// Output weights (`B * 2 * H` values: per bucket, side to move, then the other side).
    pub out_weights: Vec<f32>,
    /// Output biases, one per bucket (`B` values).
    pub out_bias: Vec<f32>,
    /// The king buckets of feature set v2 (`F` is then `K` times the v1 inputs), `None` for v1.
    pub kings: Option<KingBuckets>,
}

impl FloatNetwork {
    /// A network with all parameters zero and one output bucket.
    #[must_use]
    pub fn zeros(num_features: usize, hidden: usize) -> Self {
        Self::zeros_bucketed(num_features, hidden, 1)
    }

    /// A network with all parameters zero and `buckets` output buckets.
    #[must_use]
    pub fn zeros_bucketed(num_features: usize, hidden: usize, buckets: usize) -> Self {
        FloatNetwork {
            num_features,
            hidden,
            ft_weights: vec![0.0; num_features * hidden],
            ft_bias: vec![0.0; hidden],
            out_weights: vec![0.0; buckets * 2 * hidden],
            out_bias: vec![0.0; buckets],
            kings: None,
        }
    }

    /// Number of output buckets `B` (the length of `out_bias`).
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// This network with `buckets` output buckets, each a copy of bucket 0, so that it computes
    /// what bucket 0 computes for every position (training then lets the buckets part).
    /// `None` when `buckets` is out of range or the network has more than one bucket already.
    #[must_use]
    pub fn with_buckets(&self, buckets: usize) -> Option<Self> {
        if self.buckets() != 1 || !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return None;
        }
        let mut net = self.clone();
        net.out_weights = self.out_weights.repeat(buckets);
        net.out_bias = self.out_bias.repeat(buckets);
        Some(net)
    }

    /// The output weights (`2 * H`) and bias of `bucket`. Panics if out of range.
    #[must_use]
    pub fn head(&self, bucket: usize) -> (&[f32], f32) {
        let width = 2 * self.hidden;
        (
            &self.out_weights[bucket * width..(bucket + 1) * width],
            self.out_bias[bucket],
        )
    }

    /// A deterministic random network for tests and as a training start: feature weights uniform
    /// in `[-0.1, 0.1)`, feature biases in `[0, 0.5)`, output weights in `[-0.5, 0.5)`, output
    /// bias in `[-0.1, 0.1)`, drawn from SplitMix64 seeded with `seed`. These magnitudes keep the
    /// SCReLU inputs mostly inside `[0, 1]` for positions with a few dozen pieces, so that the
    /// net's output depends on the position.
    #[must_use]
    pub fn init_random(num_features: usize, hidden: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut net = Self::zeros(num_features, hidden);
        for w in &mut net.ft_weights {
            *w = 0.1 * rng.next_signed_unit();
        }
        for b in &mut net.ft_bias {
            *b = 0.25 + 0.25 * rng.next_signed_unit();
        }
        for w in &mut net.out_weights {
            *w = 0.5 * rng.next_signed_unit();
        }
        net.out_bias = vec![0.1 * rng.next_signed_unit()];
        net
    }

    /// This network with `hidden` neurons (more than it has), computing the same function: the
    /// old neurons keep their weights, the new ones get feature weights uniform in
    /// `[-ft_range, ft_range)` and biases in `[0, 0.5)` (drawn from SplitMix64 seeded with
    /// `seed`) and output weights of zero, so that training can grow them from a net that
    /// already plays. `None` when `hidden` is not larger than the network's.
    #[must_use]
    pub fn widened(&self, hidden: usize, seed: u64, ft_range: f32) -> Option<Self> {
        if hidden <= self.hidden {
            return None;
        }
        let (old, f) = (self.hidden, self.num_features);
        let mut rng = SplitMix64::new(seed);
        let mut net = Self::zeros_bucketed(f, hidden, self.buckets());
        net.kings.clone_from(&self.kings);
        for feature in 0..f {
            let row = &mut net.ft_weights[feature * hidden..(feature + 1) * hidden];
            row[..old].copy_from_slice(&self.ft_weights[feature * old..(feature + 1) * old]);
            for w in &mut row[old..] {
                *w = ft_range * rng.next_signed_unit();
            }
        }
        net.ft_bias[..old].copy_from_slice(&self.ft_bias);
        for b in &mut net.ft_bias[old..] {
            *b = 0.25 + 0.25 * rng.next_signed_unit();
        }
        // Per bucket, side to move, then the other side: each half keeps its old weights at its
        // start.
        for (new_half, old_half) in net.out_weights.chunks_mut(hidden).zip(self.out_weights.chunks(old)) {
            new_half[..old].copy_from_slice(old_half);
        }
        net.out_bias.clone_from(&self.out_bias);
        Some(net)
    }

    /// The float version of a quantised network (every parameter divided by its scale).
    #[must_use]
    pub fn dequantise(net: &Network) -> Self {
        let (qa, qb) = (QA as f32, QB as f32);
        FloatNetwork {
            num_features: net.features,
            hidden: net.hidden,
            ft_weights: net.ft_weights_iter().map(|w| f32::from(w) / qa).collect(),
            ft_bias: net.unpadded(&net.ft_bias).map(|b| f32::from(b) / qa).collect(),
            out_weights: net.unpadded(&net.out_weights).map(|w| f32::from(w) / qb).collect(),
            out_bias: net.out_bias.iter().map(|&b| b as f32 / (qa * qb)).collect(),
            kings: net.kings.clone(),
        }
    }

    /// This v1 network with the king buckets `kings` (feature set v2), computing the same
    /// function: every bucket's weight rows are a copy of the v1 rows, so that training can let
    /// them part. `None` when the network has king buckets already.
    #[must_use]
    pub fn with_king_buckets(&self, kings: KingBuckets) -> Option<Self> {
        if self.kings.is_some() {
            return None;
        }
        let mut net = self.clone();
        net.ft_weights = self.ft_weights.repeat(kings.count());
        net.num_features = self.num_features * kings.count();
        net.kings = Some(kings);
        Some(net)
    }

    /// Checks the dimensions and the lengths of the parameter arrays.
    ///
    /// # Errors
    /// [`NetworkError::Dimension`] or [`NetworkError::Shape`].
    pub fn check_shape(&self) -> Result<(), NetworkError> {
        check_dimensions(self.num_features, self.hidden, self.buckets())?;
        if let Some(kings) = &self.kings {
            if self.num_features % kings.count() != 0 {
                return Err(NetworkError::KingBuckets {
                    features: self.num_features,
                    buckets: kings.count(),
                });
            }
        }
        check_len("ft_weights", self.num_features * self.hidden, self.ft_weights.len())?;
        check_len("ft_bias", self.hidden, self.ft_bias.len())?;
        check_len("out_weights", self.buckets() * 2 * self.hidden, self.out_weights.len())
    }

    /// The float accumulator of one perspective: bias plus the rows of `active`.
    /// Panics if a feature index is `F` or more.
    #[must_use]
    pub fn accumulate(&self, active: &[usize]) -> Vec<f32> {
        let mut acc = self.ft_bias.clone();
        for &feature in active {
            let row = &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The raw network output `y` (before scaling to centipawns) for the active features of the
    /// side to move (`stm`) and of the other side (`ntm`), through the output bucket of
    /// `stm.len()` pieces. The reference forward pass.
    #[must_use]
    pub fn forward(&self, stm: &[usize], ntm: &[usize]) -> f32 {
        let (weights, bias) = self.head(output_bucket(stm.len(), self.buckets()));
        let (w_us, w_them) = weights.split_at(self.hidden);
        let half = |acc: Vec<f32>, w: &[f32]| acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
        half(self.accumulate(stm), w_us) + half(self.accumulate(ntm), w_them) + bias
    }

    /// The float evaluation in centipawns (`forward * SCALE`) of a position for the side to move.
    #[must_use]
    pub fn evaluate(&self, layout: &Layout, pieces: &[PlacedPiece], stm: Color) -> f32 {
        let us = features::active_features_with(layout, self.kings.as_ref(), stm, pieces);
        let them = features::active_features_with(layout, self.kings.as_ref(), stm.opponent(), pieces);
        self.forward(&us, &them) * SCALE as f32
    }

    /// Quantises the network (round to nearest). `max_active` is the largest number of active
    /// features per perspective the engine will see (the most pieces a position can have); the
    /// quantiser checks that `|bias| + max_active * max |weight|` of every hidden neuron fits in
    /// `i16`, so that no reachable accumulator overflows.
    ///
    /// # Errors
    /// A bad shape, a non-finite value, a value that does not fit its integer type, or a possible
    /// accumulator overflow (see [`NetworkError`]).
    pub fn quantise(&self, max_active: usize) -> Result<Network, NetworkError> {
        self.check_shape()?;
        let ft_weights = quantise_all("ft_weights", &self.ft_weights, QA)?;
        let ft_bias = quantise_all("ft_bias", &self.ft_bias, QA)?;
        let out_weights = quantise_all("out_weights", &self.out_weights, QB)?;
        let out_bias = self
            .out_bias
            .iter()
            .enumerate()
            .map(|(index, &b)| quantise_bias(b, index))
            .collect::<Result<Vec<_>, _>>()?;
        for (neuron, bias) in ft_bias.iter().enumerate() {
            let max_weight = ft_weights
                .iter()
                .skip(neuron)
                .step_by(self.hidden)
                .map(|w| i64::from(w.unsigned_abs()))
                .max()
                .unwrap_or(0);
            let worst_case = i64::from(bias.unsigned_abs()) + max_active as i64 * max_weight;
            if worst_case > i64::from(i16::MAX) {
                return Err(NetworkError::AccumulatorOverflow {
                    neuron,
                    worst_case,
                    max_active,
                });
            }
        }
        Network::from_parts_bucketed(
            self.num_features,
            self.hidden,
            &ft_weights,
            &ft_bias,
            &out_weights,
            &out_bias,
        )?
        .with_king_buckets(self.kings.clone())
    }
}

fn quantise_all(what: &'static str, values: &[f32], scale: i32) -> Result<Vec<i16>, NetworkError> {
    let limit = f32::from(i16::MAX) / scale as f32;
    values
        .iter()
        .enumerate()
        .map(|(index, &value)| {
            if !value.is_finite() {
                return Err(NetworkError::NonFinite { what, index });
            }
            let q = (value * scale as f32).round();
            if q < f32::from(i16::MIN) || q > f32::from(i16::MAX) {
                return Err(NetworkError::OutOfRange {
                    what,
                    index,
                    value,
                    limit,
                });
            }
            Ok(q as i16)
        })
        .collect()
}

fn quantise_bias(value: f32, index: usize) -> Result<i32, NetworkError> {
    let scale = f64::from(QA * QB);
    let limit = (f64::from(i32::MAX) / scale) as f32;
    if !value.is_finite() {
        return Err(NetworkError::NonFinite {
            what: "out_bias",
            index,
        });
    }
    let q = (f64::from(value) * scale).round();
    if q < f64::from(i32::MIN) || q > f64::from(i32::MAX) {
        return Err(NetworkError::OutOfRange {
            what: "out_bias",
            index,
            value,
            limit,
        });
    }
    Ok(q as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantise_round_trip() {
        let float = FloatNetwork::init_random(40, 20, 7);
        let net = float.quantise(32).unwrap();
        assert_eq!((net.num_features(), net.hidden()), (40, 20));
        let back = FloatNetwork::dequantise(&net);
        for (a, b) in float.ft_weights.iter().zip(&back.ft_weights) {
            assert!((a - b).abs() <= 0.5 / QA as f32 + 1e-6);
        }
        for (a, b) in float.out_weights.iter().zip(&back.out_weights) {
            assert!((a - b).abs() <= 0.5 / QB as f32 + 1e-6);
        }
        assert_eq!(back.quantise(32).unwrap(), net);
        assert_eq!(
            net.ft_weight(3, 19),
            (float.ft_weights[3 * 20 + 19] * QA as f32).round() as i16
        );
        assert_eq!(net.out_weight(39), (float.out_weights[39] * QB as f32).round() as i16);
    }

    #[test]
    fn widening_keeps_the_function() {
        let small = FloatNetwork::init_random(40, 20, 7);
        let wide = small.widened(32, 9, 0.01).unwrap();
        assert_eq!((wide.num_features, wide.hidden), (40, 32));
        wide.check_shape().unwrap();
        for (stm, ntm) in [
            (vec![0, 5, 17], vec![3, 39]),
            (vec![], vec![1]),
            (vec![2, 8, 30, 31], vec![2, 8]),
        ] {
            let (a, b) = (small.forward(&stm, &ntm), wide.forward(&stm, &ntm));
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        // The new neurons are alive (non-zero feature weights) but not yet heard.
        assert!(wide.ft_weights[32 + 20..2 * 32].iter().any(|w| *w != 0.0));
        assert!(wide.out_weights[20..32]
            .iter()
            .chain(&wide.out_weights[52..])
            .all(|w| *w == 0.0));
        assert!(small.widened(20, 9, 0.01).is_none());
        assert!(small.widened(10, 9, 0.01).is_none());
    }

    #[test]
    fn quantise_errors() {
        let mut float = FloatNetwork::zeros(4, 2);
        float.ft_weights[5] = f32::NAN;
        assert_eq!(
            float.quantise(1),
            Err(NetworkError::NonFinite {
                what: "ft_weights",
                index: 5
            })
        );
        float.ft_weights[5] = 200.0;
        assert!(matches!(
            float.quantise(1),
            Err(NetworkError::OutOfRange {
                what: "ft_weights",
                index: 5,
                ..
            })
        ));
        float.ft_weights[5] = 1.98;
        float.ft_bias[1] = 0.5;
        // Neuron 1: |bias| 128 + 64 * 505 = 32448 fits in i16; 128 + 65 * 505 = 32953 does not.
        assert!(float.quantise(64).is_ok());
        assert_eq!(
            float.quantise(65),
            Err(NetworkError::AccumulatorOverflow {
                neuron: 1,
                worst_case: 128 + 65 * 505,
                max_active: 65
            })
        );
        float.out_bias[0] = 1e9;
        assert!(matches!(
            float.quantise(1),
            Err(NetworkError::OutOfRange { what: "out_bias", .. })
        ));
        float.out_weights.pop();
        assert_eq!(
            float.quantise(1),
            Err(NetworkError::Shape {
                what: "out_weights",
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            FloatNetwork::zeros(0, 2).quantise(1),
            Err(NetworkError::Dimension {
                name: "features",
                value: 0,
                max: MAX_FEATURES
            })
        );
        assert!(matches!(
            FloatNetwork::zeros(1, MAX_HIDDEN + 1).quantise(1),
            Err(NetworkError::Dimension { .. })
        ));
    }

    #[test]
    fn output_buckets_split_the_piece_counts_evenly() {
        assert!((0..100).all(|n| output_bucket(n, 1) == 0));
        let eight: Vec<usize> = (0..=40).map(|n| output_bucket(n, 8)).collect();
        // 2..=40 pieces in eight equal parts; fewer count as two, more as 40.
        assert_eq!(eight[0], 0);
        assert_eq!(eight[2], 0);
        assert_eq!(eight[6], 0);
        assert_eq!(eight[7], 1);
        assert_eq!(eight[36], 7);
        assert_eq!(eight[35], 6);
        assert_eq!(eight[40], 7);
        assert!(eight.windows(2).all(|w| w[0] <= w[1]));
        for buckets in 1..=MAX_OUTPUT_BUCKETS {
            let used: std::collections::BTreeSet<usize> =
                (2..=BUCKET_PIECES).map(|n| output_bucket(n, buckets)).collect();
            assert_eq!(used.len(), buckets, "every one of {buckets} buckets is reachable");
        }
    }

    #[test]
    fn more_buckets_keep_the_function_until_trained() {
        let one = FloatNetwork::init_random(40, 20, 7);
        let eight = one.with_buckets(8).unwrap();
        assert_eq!((eight.buckets(), eight.out_weights.len()), (8, 8 * 40));
        eight.check_shape().unwrap();
        for stm in [vec![0], vec![0, 5, 17], (0..30).collect::<Vec<_>>()] {
            let ntm = vec![3, 39];
            assert_eq!(one.forward(&stm, &ntm), eight.forward(&stm, &ntm));
        }
        assert!(eight.with_buckets(2).is_none());
        assert!(one.with_buckets(MAX_OUTPUT_BUCKETS + 1).is_none());
        // Widening keeps every bucket.
        let wide = eight.widened(32, 1, 0.01).unwrap();
        assert_eq!(wide.buckets(), 8);
        let stm: Vec<usize> = (0..25).collect();
        assert!((wide.forward(&stm, &[1, 2]) - eight.forward(&stm, &[1, 2])).abs() < 1e-5);
        // Quantised, each bucket keeps its own bias.
        let mut net = eight.clone();
        net.out_bias[5] = 0.5;
        let q = net.quantise(32).unwrap();
        assert_eq!(q.buckets(), 8);
        assert_eq!(q.out_bias(5), (0.5 * (QA * QB) as f32).round() as i32);
        assert_eq!(FloatNetwork::dequantise(&q).buckets(), 8);
        assert!(matches!(
            FloatNetwork::zeros_bucketed(4, 2, 0).quantise(1),
            Err(NetworkError::Dimension {
                name: "output buckets",
                ..
            })
        ));
    }

    #[test]
    fn architecture_hash_depends_on_every_dimension() {
        let base = architecture_hash(ARCH_V1, 1700, 256, 1);
        assert_ne!(base, architecture_hash(ARCH_V1, 1700, 255, 1));
        assert_ne!(base, architecture_hash(ARCH_V1, 1701, 256, 1));
        assert_ne!(base, architecture_hash(ARCH_V1, 1700, 256, 2));
        assert_ne!(base, architecture_hash(2, 1700, 256, 1));
    }
}
