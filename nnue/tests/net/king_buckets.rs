//! Feature set v2 (king buckets): the map, the accumulator's refresh on a king's change of
//! bucket, the float reference, the file format and its checks.
#![allow(clippy::unwrap_used)] // Test code: a failed unwrap is a failed test.

use crate::common::{chess, persian, Board, Change, Rng};
use nnue::{
    features::{self, KingBuckets, KingBucketsError, FEATURE_SET_KB},
    format::{self, Expected, LoadNetError, NetHeader},
    Accumulator, Color, FloatNetwork, Layout, Network, PlacedPiece,
};

/// The king's type in these tests (the last one of the layout).
fn king(layout: &Layout) -> u8 {
    layout.piece_types() as u8 - 1
}

fn kb_float(layout: &Layout, count: usize, hidden: usize, seed: u64) -> FloatNetwork {
    let kings = KingBuckets::standard(layout, king(layout), count).unwrap();
    let mut net = FloatNetwork::init_random(features::num_features_with(layout, Some(&kings)), hidden, seed);
    net.kings = Some(kings);
    net
}

#[test]
fn the_standard_maps_split_back_rank_and_files() {
    let layout = chess();
    let four = KingBuckets::standard(&layout, 5, 4).unwrap();
    assert_eq!(four.count(), 4);
    // a1 (0) and d1 (3): back rank, left; e1 (4) h1 (7): back rank, right; a2 left, h8 right.
    assert_eq!(four.bucket_of_cell(&layout, Color::White, 0), 0);
    assert_eq!(four.bucket_of_cell(&layout, Color::White, 3), 0);
    assert_eq!(four.bucket_of_cell(&layout, Color::White, 4), 1);
    assert_eq!(four.bucket_of_cell(&layout, Color::White, 8), 2);
    assert_eq!(four.bucket_of_cell(&layout, Color::White, 63), 3);
    // Black sees the board mirrored: e8 is its back rank.
    assert_eq!(four.bucket_of_cell(&layout, Color::Black, 60), 1);
    assert_eq!(four.bucket_of_cell(&layout, Color::Black, 4), 3);
    let two = KingBuckets::standard(&layout, 5, 2).unwrap();
    assert_eq!(two.bucket_of_cell(&layout, Color::White, 7), 0);
    assert_eq!(two.bucket_of_cell(&layout, Color::White, 9), 1);
    assert!(KingBuckets::standard(&layout, 5, 3).is_none());
    // 9 files: the middle file goes right.
    let nine = Layout::new(9, 9, (1u128 << 81) - 1, 10).unwrap();
    let nine4 = KingBuckets::standard(&nine, 9, 4).unwrap();
    assert_eq!(nine4.bucket_of_cell(&nine, Color::White, 3), 0);
    assert_eq!(nine4.bucket_of_cell(&nine, Color::White, 4), 1);
    assert_eq!(features::num_features_with(&nine, Some(&nine4)), 4 * 2 * 10 * 81);
}

#[test]
fn bad_maps_are_refused_with_the_reason() {
    let layout = chess();
    assert_eq!(
        KingBuckets::new(&layout, 6, vec![0; 64]),
        Err(KingBucketsError::KingType { king_type: 6, types: 6 })
    );
    assert_eq!(
        KingBuckets::new(&layout, 5, vec![0; 63]),
        Err(KingBucketsError::MapLength { cells: 64, found: 63 })
    );
    let mut gap = vec![0; 64];
    gap[5] = 2;
    assert!(matches!(
        KingBuckets::new(&layout, 5, gap),
        Err(KingBucketsError::Numbering { .. })
    ));
    let nine: Vec<u8> = (0..64).map(|c| (c % 9) as u8).collect();
    assert!(matches!(
        KingBuckets::new(&layout, 5, nine),
        Err(KingBucketsError::Numbering { .. })
    ));
}

#[test]
fn copying_a_v1_net_into_every_bucket_keeps_its_function() {
    let layout = persian();
    let mut rng = Rng::new(3);
    let v1 = FloatNetwork::init_random(features::num_features(&layout), 32, 5);
    let kb = v1
        .with_king_buckets(KingBuckets::standard(&layout, king(&layout), 4).unwrap())
        .unwrap();
    assert_eq!(kb.num_features, 4 * v1.num_features);
    assert!(kb
        .with_king_buckets(KingBuckets::standard(&layout, 9, 2).unwrap())
        .is_none());
    let (q1, qkb) = (v1.quantise(48).unwrap(), kb.quantise(48).unwrap());
    for _ in 0..50 {
        let pieces = Board::random(&layout, 2 + rng.below(30), &mut rng).pieces();
        for stm in Color::ALL {
            assert_eq!(v1.evaluate(&layout, &pieces, stm), kb.evaluate(&layout, &pieces, stm));
            assert_eq!(q1.evaluate(&layout, &pieces, stm), qkb.evaluate(&layout, &pieces, stm));
        }
    }
}

/// A board with one king per side and `others` pieces of other types.
fn board_with_kings(layout: &Layout, others: usize, rng: &mut Rng) -> Board {
    loop {
        let board = Board::random(layout, others + 2, rng);
        let pieces = board.pieces();
        let kings: Vec<&PlacedPiece> = pieces.iter().filter(|p| p.kind == king(layout)).collect();
        if kings.len() == 2 && kings[0].color != kings[1].color {
            return board;
        }
    }
}

/// A king step to a random empty cell, or a random change that involves no king.
fn random_move(board: &Board, rng: &mut Rng) -> Change {
    let layout = &board.layout;
    let pieces = board.pieces();
    if rng.chance(3) {
        let kings: Vec<PlacedPiece> = pieces.iter().copied().filter(|p| p.kind == king(layout)).collect();
        let from = kings[rng.below(2)];
        let empty: Vec<u8> = layout
            .cells()
            .iter()
            .copied()
            .filter(|&c| pieces.iter().all(|p| p.cell != c))
            .collect();
        let to = empty[rng.below(empty.len())];
        return Change {
            added: vec![PlacedPiece::new(from.color, from.kind, to)],
            removed: vec![from],
        };
    }
    loop {
        let change = board.random_change(rng, 40);
        if change
            .added
            .iter()
            .chain(&change.removed)
            .all(|p| p.kind != king(layout))
        {
            return change;
        }
    }
}

fn check_walk(layout: &Layout, net: &Network, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut board = board_with_kings(layout, 20, &mut rng);
    let mut acc = Accumulator::new(net);
    acc.refresh(net, layout, &board.pieces());
    let (mut child, mut fresh) = (acc.clone(), acc.clone());
    let float = FloatNetwork::dequantise(net);
    let mut refreshes = 0;
    for step in 0..3000 {
        let change = random_move(&board, &mut rng);
        let refresh = acc.needs_refresh(net, layout, &change.added, &change.removed);
        board.apply(&change);
        let pieces = board.pieces();
        if refresh {
            refreshes += 1;
            // The one-check update refuses and leaves the child as it was.
            let before = child.clone();
            assert!(
                !child.try_update_from(&acc, net, layout, &change.added, &change.removed),
                "step {step}: try_update_from took a king across buckets"
            );
            assert_eq!(child, before, "step {step}: a refused update changed the accumulator");
            // Only the perspective whose king moved is recomputed; a full refresh is the same.
            child.update_from_refreshing(&acc, net, layout, &change.added, &change.removed, &pieces);
        } else if step % 3 == 0 {
            child.update_from(&acc, net, layout, &change.added, &change.removed);
        } else if step % 3 == 1 {
            assert!(
                child.try_update_from(&acc, net, layout, &change.added, &change.removed),
                "step {step}: try_update_from refused a move within the buckets"
            );
        } else {
            // Refreshing where no king changes bucket is an ordinary update.
            child.update_from_refreshing(&acc, net, layout, &change.added, &change.removed, &pieces);
        }
        fresh.refresh(net, layout, &pieces);
        assert_eq!(child, fresh, "step {step}: incremental != refresh ({change:?})");
        for stm in Color::ALL {
            let cp = child.evaluate(net, stm);
            assert_eq!(cp, net.evaluate(layout, &pieces, stm));
            assert!(
                (cp as f32 - float.evaluate(layout, &pieces, stm)).abs() <= 1.1,
                "step {step}: quantised {cp} vs float"
            );
        }
        std::mem::swap(&mut acc, &mut child);
    }
    refreshes
}

#[test]
fn incremental_updates_equal_a_refresh_as_kings_change_buckets() {
    for (layout, count) in [(chess(), 4), (persian(), 4), (chess(), 2)] {
        let net = kb_float(&layout, count, 48, 7).quantise(48).unwrap();
        let refreshes = check_walk(&layout, &net, 11);
        assert!(refreshes > 200, "the walk must cross buckets often: {refreshes}");
    }
}

/// Chess with a 4-bucket net and only the kings on e1 and e8: (layout, net, accumulator, white
/// king, black king).
fn bare_kings() -> (Layout, Network, Accumulator, PlacedPiece, PlacedPiece) {
    let layout = chess();
    let net = kb_float(&layout, 4, 16, 1).quantise(48).unwrap();
    let (wk, bk) = (
        PlacedPiece::new(Color::White, 5, 4),
        PlacedPiece::new(Color::Black, 5, 60),
    );
    let mut acc = Accumulator::new(&net);
    acc.refresh(&net, &layout, &[wk, bk]);
    (layout, net, acc, wk, bk)
}

#[test]
fn a_king_crossing_buckets_is_not_updated_incrementally() {
    let (layout, net, acc, wk, bk) = bare_kings();
    // e1 -> f1 stays in the back-rank right bucket; e1 -> d1 and e1 -> e2 leave it.
    let f1 = PlacedPiece::new(Color::White, 5, 5);
    assert!(!acc.needs_refresh(&net, &layout, &[f1], &[wk]));
    assert!(acc.needs_refresh(&net, &layout, &[PlacedPiece::new(Color::White, 5, 3)], &[wk]));
    assert!(acc.needs_refresh(&net, &layout, &[PlacedPiece::new(Color::White, 5, 12)], &[wk]));
    // Removing a king for good changes its side's bucket to 0.
    assert!(acc.needs_refresh(&net, &layout, &[], &[bk]));
    // A v1 net never needs one.
    let v1 = FloatNetwork::init_random(features::num_features(&layout), 16, 1)
        .quantise(48)
        .unwrap();
    let mut acc1 = Accumulator::new(&v1);
    acc1.refresh(&v1, &layout, &[wk, bk]);
    assert!(!acc1.needs_refresh(&v1, &layout, &[PlacedPiece::new(Color::White, 5, 12)], &[wk]));
}

#[test]
#[should_panic(expected = "needs a refresh")]
fn an_update_across_buckets_panics_instead_of_computing_garbage() {
    let (layout, net, mut acc, wk, _) = bare_kings();
    acc.update(&net, &layout, &[PlacedPiece::new(Color::White, 5, 12)], &[wk]);
}

fn expected_kb(layout: &Layout) -> Expected {
    Expected::new(2, "persian-princess", layout).with_king_type(king(layout))
}

fn kb_file(layout: &Layout) -> (Network, Vec<u8>) {
    let net = kb_float(layout, 4, 16, 9).quantise(48).unwrap();
    let bytes = format::to_bytes(&NetHeader::new(2, "persian-princess", layout, "kb"), &net).unwrap();
    (net, bytes)
}

#[test]
fn a_king_bucket_net_round_trips_and_says_so_in_its_header() {
    let layout = persian();
    let (net, bytes) = kb_file(&layout);
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        format::FORMAT_VERSION_KB
    );
    let loaded = format::read(&bytes, &expected_kb(&layout)).unwrap();
    assert_eq!(loaded.header.feature_set, FEATURE_SET_KB);
    assert_eq!(loaded.network, net);
    assert_eq!(loaded.network.king_buckets().map(KingBuckets::count), Some(4));
    assert_eq!(format::to_bytes(&loaded.header, &loaded.network).unwrap(), bytes);
    // A v1 net still reads where king buckets are accepted.
    let v1 = FloatNetwork::init_random(features::num_features(&layout), 16, 9)
        .quantise(48)
        .unwrap();
    let v1_bytes = format::to_bytes(&NetHeader::new(2, "persian-princess", &layout, "v1"), &v1).unwrap();
    assert_eq!(format::read(&v1_bytes, &expected_kb(&layout)).unwrap().network, v1);
}

#[test]
fn a_king_bucket_net_is_refused_where_it_does_not_fit() {
    let layout = persian();
    let (_, bytes) = kb_file(&layout);
    // A caller that accepts v1 only.
    assert!(matches!(
        format::read(&bytes, &Expected::new(2, "persian-princess", &layout)),
        Err(LoadNetError::WrongFeatureSet { expected: 1, found: 2 })
    ));
    // Another king type.
    let other = Expected::new(2, "persian-princess", &layout).with_king_type(0);
    let err = format::read(&bytes, &other).unwrap_err();
    assert!(matches!(err, LoadNetError::WrongKingBuckets(_)), "{err}");
    assert!(err.to_string().contains("piece type 9"), "{err}");
    // A damaged bucket count (the checksum is fixed up, so the count itself is what is refused).
    let offset = 8 + 4 + 1 + 1 + "persian-princess".len() + 4 + 8 + 1;
    let mut bad = bytes.clone();
    bad[offset] = 3;
    let body = bad.len() - 4;
    let crc = nnue::hash::crc32(&bad[..body]);
    bad[body..].copy_from_slice(&crc.to_le_bytes());
    let err = format::read(&bad, &expected_kb(&layout)).unwrap_err();
    assert!(err.to_string().contains("says 3 buckets"), "{err}");
    // Every truncation is an error, never a panic.
    for len in 0..bytes.len() {
        assert!(format::read(&bytes[..len], &expected_kb(&layout)).is_err(), "{len}");
    }
}
