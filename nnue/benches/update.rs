//! Incremental accumulator update of a typical move plus evaluation, per backend, on the
//! Persian layout (85 playable cells, 10 piece types, F = 1700) with H = 256 and 32 pieces.
//!
//! `cargo bench -p nnue --bench update`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use nnue::{features, Accumulator, Backend, Color, FloatNetwork, Layout, Network, PlacedPiece};

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

/// 16 pieces per side on ranks 2-3 and 9-10 (cells b2..j3 and b9..j10, minus two per rank).
fn start_pieces() -> Vec<PlacedPiece> {
    let mut pieces = Vec::new();
    for (color, ranks) in [(Color::White, [1u8, 2]), (Color::Black, [9, 8])] {
        for (r, rank) in ranks.into_iter().enumerate() {
            for file in 1..9u8 {
                let kind = if r == 0 { file % 9 } else { 0 };
                pieces.push(PlacedPiece::new(color, kind, rank * 11 + file));
            }
        }
    }
    pieces
}

fn bench(c: &mut Criterion) {
    let layout = persian();
    let net: Network = FloatNetwork::init_random(features::num_features(&layout), 256, 1)
        .quantise(48)
        .expect("a random net quantises");
    let pieces = start_pieces();
    assert_eq!(pieces.len(), 32);
    // A knight-like move b2 -> c4 (cell 12 -> 47) and back; a capture c4 x e9 (47 x 103).
    let (from, to) = (pieces[0], PlacedPiece { cell: 47, ..pieces[0] });
    let victim = pieces.iter().copied().find(|p| p.cell == 103).expect("a piece on e9");

    let mut backends = vec![Backend::scalar()];
    backends.extend(Backend::avx2());
    for backend in backends {
        let name = backend.name();
        let mut acc = Accumulator::with_backend(&net, backend);
        acc.refresh(&net, &layout, &pieces);
        let start = acc.clone();
        let expected = [acc.evaluate(&net, Color::White), {
            let mut moved = acc.clone();
            moved.update(&net, &layout, &[to], &[from]);
            moved.evaluate(&net, Color::Black)
        }];

        let mut forward = true;
        c.bench_function(&format!("update+evaluate quiet move ({name})"), |b| {
            b.iter(|| {
                let (add, remove, stm) = if forward {
                    (to, from, Color::Black)
                } else {
                    (from, to, Color::White)
                };
                acc.update(&net, &layout, black_box(&[add]), black_box(&[remove]));
                forward = !forward;
                black_box(acc.evaluate(&net, stm))
            });
        });
        if !forward {
            acc.update(&net, &layout, &[from], &[to]);
        }
        assert_eq!(acc, start, "{name}: the accumulator drifted");
        assert_eq!(acc.evaluate(&net, Color::White), expected[0]);

        // Copy-make form: child = parent + move, as a search stack would do it.
        let mut moved_acc = acc.clone();
        acc.update(&net, &layout, &[to], &[from]);
        let parent = acc.clone();
        c.bench_function(&format!("update_from+evaluate capture ({name})"), |b| {
            let captured = PlacedPiece { cell: 103, ..to };
            b.iter(|| {
                moved_acc.update_from(&parent, &net, &layout, black_box(&[captured]), black_box(&[to, victim]));
                black_box(moved_acc.evaluate(&net, Color::Black))
            });
        });
        assert_eq!(parent.evaluate(&net, Color::Black), expected[1]);

        c.bench_function(&format!("refresh 32 pieces+evaluate ({name})"), |b| {
            b.iter(|| {
                acc.refresh(&net, &layout, black_box(&pieces));
                black_box(acc.evaluate(&net, Color::White))
            });
        });
        assert_eq!(acc.evaluate(&net, Color::White), expected[0]);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
