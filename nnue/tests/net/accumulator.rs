//! Incremental updates equal a full refresh, and the AVX2 kernels equal the scalar reference bit
//! for bit, over random sequences of move-like piece changes.
#![allow(clippy::unwrap_used)] // Test code: a failed unwrap is a failed test.

use crate::common::{bucketed, chess, persian, Board, Rng};
use nnue::{features, Accumulator, Backend, Color, FloatNetwork, Layout, Network};

const MOVES: usize = 4000;

fn random_net(layout: &Layout, hidden: usize, seed: u64) -> Network {
    FloatNetwork::init_random(features::num_features(layout), hidden, seed)
        .quantise(48)
        .unwrap()
}

/// A net whose parameters are arbitrary `i16` values: accumulators overflow and wrap, and the
/// output weights are too large for the AVX2 output kernel (so evaluation falls back to scalar).
fn wild_net(layout: &Layout, hidden: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let features = features::num_features(layout);
    let mut values = |n: usize| (0..n).map(|_| rng.next_u64() as i16).collect::<Vec<_>>();
    let (ft_weights, ft_bias, out_weights) = (values(features * hidden), values(hidden), values(2 * hidden));
    Network::from_parts(features, hidden, &ft_weights, &ft_bias, &out_weights, 12345).unwrap()
}

fn backends() -> Vec<Backend> {
    match Backend::avx2() {
        Some(avx2) => vec![Backend::scalar(), avx2],
        None => {
            eprintln!("this CPU has no AVX2: only the scalar backend is tested");
            vec![Backend::scalar()]
        }
    }
}

/// Plays `MOVES` random changes; after each, every backend's incrementally updated accumulator
/// must equal a fresh refresh, all backends must agree, and undoing must restore the previous
/// accumulator.
fn check_incremental(layout: &Layout, net: &Network, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut board = Board::random(layout, 32, &mut rng);
    let backends = backends();
    let mut accs: Vec<Accumulator> = backends.iter().map(|&b| Accumulator::with_backend(net, b)).collect();
    for acc in &mut accs {
        acc.refresh(net, layout, &board.pieces());
    }
    let mut fresh: Vec<Accumulator> = accs.clone();
    let mut child: Vec<Accumulator> = accs.clone();
    for step in 0..MOVES {
        let change = board.random_change(&mut rng, 48);
        let before = accs[0].clone();
        board.apply(&change);
        let pieces = board.pieces();
        for (i, acc) in accs.iter_mut().enumerate() {
            child[i].update_from(acc, net, layout, &change.added, &change.removed);
            acc.update(net, layout, &change.added, &change.removed);
            fresh[i].refresh(net, layout, &pieces);
            assert_eq!(
                *acc,
                fresh[i],
                "step {step}: incremental != refresh ({})",
                acc.backend().name()
            );
            assert_eq!(
                child[i],
                fresh[i],
                "step {step}: update_from != refresh ({})",
                acc.backend().name()
            );
        }
        let evals: Vec<[i32; 2]> = accs
            .iter()
            .map(|acc| [acc.evaluate(net, Color::White), acc.evaluate(net, Color::Black)])
            .collect();
        assert!(
            evals.iter().all(|e| *e == evals[0]),
            "step {step}: backends disagree: {evals:?}"
        );
        assert_eq!(evals[0][0], net.evaluate(layout, &pieces, Color::White));
        if step % 10 == 0 {
            let mut undo = accs[0].clone();
            undo.update(net, layout, &change.removed, &change.added);
            assert_eq!(undo, before, "step {step}: undo did not restore the accumulator");
        }
    }
}

#[test]
fn persian_layout_incremental_equals_refresh() {
    let layout = persian();
    assert_eq!(features::num_features(&layout), 2 * 10 * 85);
    check_incremental(&layout, &random_net(&layout, 256, 1), 11);
}

#[test]
fn chess_layout_incremental_equals_refresh() {
    check_incremental(&chess(), &random_net(&chess(), 256, 2), 12);
}

#[test]
fn odd_hidden_sizes_are_padded_correctly() {
    for hidden in [1, 15, 17, 40] {
        check_incremental(&chess(), &random_net(&chess(), hidden, 3), 13 + hidden as u64);
    }
}

#[test]
fn bucketed_nets_incremental_equals_refresh() {
    // The random changes take the board through many piece counts, so through every bucket.
    let layout = persian();
    let float = FloatNetwork::init_random(features::num_features(&layout), 64, 5);
    let net = bucketed(&float, 8).quantise(48).unwrap();
    assert_eq!(net.buckets(), 8);
    check_incremental(&layout, &net, 15);
}

#[test]
fn the_accumulator_counts_pieces() {
    let layout = persian();
    let net = random_net(&layout, 16, 6);
    let mut rng = Rng::new(7);
    let mut board = Board::random(&layout, 30, &mut rng);
    let mut acc = Accumulator::new(&net);
    acc.refresh(&net, &layout, &board.pieces());
    assert_eq!(acc.pieces(), 30);
    for _ in 0..200 {
        let change = board.random_change(&mut rng, 48);
        acc.update(&net, &layout, &change.added, &change.removed);
        board.apply(&change);
        assert_eq!(acc.pieces(), board.pieces().len());
    }
}

#[test]
fn wrapping_nets_agree_across_backends() {
    let layout = persian();
    let net = wild_net(&layout, 48, 4);
    check_incremental(&layout, &net, 14);
}

#[test]
fn avx2_output_matches_scalar_at_the_weight_limit() {
    let Some(avx2) = Backend::avx2() else {
        eprintln!("skipping: this CPU has no AVX2");
        return;
    };
    let layout = chess();
    let features = features::num_features(&layout);
    let hidden = 1024;
    // Every weight at a bound and every bias saturating: the largest output sums.
    for weight in [nnue::MAX_FAST_OUTPUT_WEIGHT, -nnue::MAX_FAST_OUTPUT_WEIGHT] {
        let net = Network::from_parts(
            features,
            hidden,
            &vec![0; features * hidden],
            &vec![i16::MAX; hidden],
            &vec![weight; 2 * hidden],
            0,
        )
        .unwrap();
        let (mut a, mut b) = (
            Accumulator::with_backend(&net, Backend::scalar()),
            Accumulator::with_backend(&net, avx2),
        );
        a.refresh(&net, &layout, &[]);
        b.refresh(&net, &layout, &[]);
        let expected = (2 * hidden as i64 * 255 * 255 * i64::from(weight) / 255) * 400 / (255 * 64);
        assert_eq!(i64::from(a.evaluate(&net, Color::White)), expected);
        assert_eq!(a.evaluate(&net, Color::White), b.evaluate(&net, Color::White));
    }
}
