//! Train/infer parity: the float reference forward pass and the quantised inference agree on fixed
//! random positions, for a random net that went through the file writer and reader.
//!
//! Stated tolerances:
//! * **Same weights** (the float forward of the net read back from the file, i.e. the quantised
//!   weights divided by their scales): `|quantised - float| <= 1.1 cp` on every position. The
//!   integer path only truncates twice (`/ QA`, at most 400/16320 cp, and the final division,
//!   under 1 cp); everything else is exact.
//! * **Before rounding** (the float net the quantiser was given): the difference is rounding
//!   noise of the weights (feature weights and biases to 1/255, output weights to 1/64). The test
//!   predicts its standard deviation `sigma` per position from the activations and requires
//!   `|quantised - float| <= 1.1 cp + 5 sigma`. For this random net (H = 256, 2-41 pieces) sigma
//!   is typically 5-15 cp: rounding 512 output weights to 1/64 and 20-40 feature weights per
//!   neuron to 1/255 cannot do better, whatever the inference code does.
#![allow(clippy::unwrap_used)] // Test code: a failed unwrap is a failed test.

use crate::common::{bucketed, chess, persian, Board, Rng};
use nnue::{
    features, format,
    network::{output_bucket, QA, QB, SCALE},
    Color, FloatNetwork, Layout, PlacedPiece,
};

/// The predicted standard deviation (cp) of the rounding noise of `float` on one position.
fn rounding_sigma(float: &FloatNetwork, layout: &Layout, pieces: &[PlacedPiece], stm: Color) -> f32 {
    let (qa, qb) = (QA as f32, QB as f32);
    let mut variance = 0.0;
    let (head, _) = float.head(output_bucket(pieces.len(), float.buckets()));
    for (half, persp) in [stm, stm.opponent()].into_iter().enumerate() {
        let active = features::active_features(layout, persp, pieces);
        let acc = float.accumulate(&active);
        // Bias and each active weight are rounded to 1/QA: uniform errors of variance 1/(12 QA^2).
        let acc_variance = (active.len() + 1) as f32 / (12.0 * qa * qa);
        for (j, &a) in acc.iter().enumerate() {
            let w = head[half * float.hidden + j];
            let slope = if (0.0..1.0).contains(&a) { 2.0 * a } else { 0.0 };
            let activation = a.clamp(0.0, 1.0).powi(2);
            variance += (w * slope).powi(2) * acc_variance + activation.powi(2) / (12.0 * qb * qb);
        }
    }
    SCALE as f32 * variance.sqrt()
}

fn check_parity(layout: &Layout, seed: u64, buckets: usize) {
    let float = bucketed(
        &FloatNetwork::init_random(features::num_features(layout), 256, seed),
        buckets,
    );
    let quantised = float.quantise(48).unwrap();
    let bytes = format::to_bytes(&format::NetHeader::new(3, "parity", layout, "random"), &quantised).unwrap();
    let net = format::read(&bytes, &format::Expected::new(3, "parity", layout))
        .unwrap()
        .network;
    assert_eq!(net, quantised);
    let same_weights = FloatNetwork::dequantise(&net);

    let mut rng = Rng::new(seed ^ 0x5EED);
    let positions = 300;
    let (mut worst_same, mut worst_sigmas, mut mean_abs, mut mean_rounding) = (0f32, 0f32, 0f32, 0f32);
    for _ in 0..positions {
        let board = Board::random(layout, 2 + rng.below(40), &mut rng);
        let stm = rng.color();
        let pieces = board.pieces();
        let cp = net.evaluate(layout, &pieces, stm) as f32;
        let same = same_weights.evaluate(layout, &pieces, stm);
        let original = float.evaluate(layout, &pieces, stm);
        let sigma = rounding_sigma(&float, layout, &pieces, stm);
        assert!(
            (cp - same).abs() <= 1.1 + 1e-4 * same.abs(),
            "quantised {cp} vs same-weights float {same}"
        );
        assert!(
            (cp - original).abs() <= 1.1 + 5.0 * sigma,
            "quantised {cp} vs float {original}: more than 5 sigma ({sigma:.2} cp) of rounding noise"
        );
        worst_same = worst_same.max((cp - same).abs());
        worst_sigmas = worst_sigmas.max((cp - original).abs() / sigma);
        mean_abs += original.abs() / positions as f32;
        mean_rounding += (cp - original).abs() / positions as f32;
    }
    eprintln!(
        "parity on {} cells: mean |eval| {mean_abs:.0} cp; same weights: worst {worst_same:.2} cp; \
         before rounding: mean {mean_rounding:.1} cp, worst {worst_sigmas:.1} sigma",
        layout.num_playable()
    );
    // The positions must produce evaluations of a realistic size, or the test would prove little.
    assert!(mean_abs > 50.0);
}

#[test]
fn persian_float_and_quantised_agree() {
    check_parity(&persian(), 21, 1);
}

#[test]
fn bucketed_float_and_quantised_agree() {
    check_parity(&persian(), 23, 8);
    check_parity(&chess(), 24, 3);
}

#[test]
fn chess_float_and_quantised_agree() {
    check_parity(&chess(), 22, 1);
}

#[test]
fn both_perspectives_are_used() {
    // The same pieces with the other side to move give another evaluation.
    let layout = chess();
    let net = FloatNetwork::init_random(features::num_features(&layout), 64, 5)
        .quantise(48)
        .unwrap();
    let pieces = Board::random(&layout, 20, &mut Rng::new(6)).pieces();
    assert_ne!(
        net.evaluate(&layout, &pieces, Color::White),
        net.evaluate(&layout, &pieces, Color::Black)
    );
}
