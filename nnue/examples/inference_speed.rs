//! Prints the speed of accumulator updates and evaluation per backend on the Persian layout
//! (85 playable cells, 10 piece types) with H = 256 and 32 pieces.
//!
//! `cargo run --release -p nnue --example inference_speed`

use std::{hint::black_box, time::Instant};

use nnue::{features, Accumulator, Backend, Color, FloatNetwork, Layout, PlacedPiece};

fn persian() -> Layout {
    let mut mask = 0u128;
    for rank in 1..10 {
        for file in 1..10 {
            mask |= 1 << (rank * 11 + file);
        }
    }
    for cell in [0, 10, 110, 120] {
        mask |= 1 << cell;
    }
    Layout::new(11, 11, mask, 10).expect("the Persian layout is valid")
}

/// Runs `f` `n` times and returns nanoseconds per call (best of three runs).
fn time(n: u32, mut f: impl FnMut(u32)) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            for i in 0..n {
                f(i);
            }
            start.elapsed().as_nanos() as f64 / f64::from(n)
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let layout = persian();
    let net = FloatNetwork::init_random(features::num_features(&layout), 256, 1)
        .quantise(48)
        .expect("a random net quantises");
    let pieces: Vec<PlacedPiece> = layout.cells()[2..]
        .iter()
        .step_by(2)
        .take(32)
        .enumerate()
        .map(|(i, &cell)| PlacedPiece::new(if i < 16 { Color::White } else { Color::Black }, (i % 10) as u8, cell))
        .collect();
    let from = pieces[0];
    let to = PlacedPiece {
        cell: layout.cells()[3],
        ..from
    };
    let n = 2_000_000;
    println!(
        "F = {}, H = {}, {} pieces",
        net.num_features(),
        net.hidden(),
        pieces.len()
    );
    let mut backends = vec![Backend::scalar()];
    backends.extend(Backend::avx2());
    for backend in backends {
        let mut acc = Accumulator::with_backend(&net, backend);
        acc.refresh(&net, &layout, &pieces);
        let step = |acc: &mut Accumulator, i: u32| {
            if i % 2 == 0 {
                acc.update(&net, &layout, black_box(&[to]), black_box(&[from]));
            } else {
                acc.update(&net, &layout, black_box(&[from]), black_box(&[to]));
            }
        };
        let update = time(n, |i| step(&mut acc, i));
        let evaluate = time(n, |i| {
            black_box(acc.evaluate(&net, if i % 2 == 0 { Color::White } else { Color::Black }));
        });
        let both = time(n, |i| {
            step(&mut acc, i);
            black_box(acc.evaluate(&net, Color::White));
        });
        let refresh = time(n / 10, |_| acc.refresh(&net, &layout, black_box(&pieces)));
        println!(
            "{:>6}: update {update:6.1} ns, evaluate {evaluate:6.1} ns, update+evaluate {both:6.1} ns \
             ({:.1} M/s), refresh {refresh:6.1} ns",
            backend.name(),
            1e3 / both
        );
    }
}
