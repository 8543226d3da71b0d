//! The `.nnue` reader: round trips, every error it can report, and robustness against damaged or
//! random input (truncation at every length, every single-bit flip, random bytes).
#![allow(clippy::unwrap_used)] // Test code: a failed unwrap is a failed test.

use crate::common::{persian, Rng};
use nnue::{
    features,
    format::{self, Expected, LoadNetError, NetHeader},
    network::{architecture_hash, ARCH_V1, MAX_SCALE, MIN_SCALE},
    Color, FloatNetwork, Layout, Network, NetworkError, PlacedPiece,
};

const VARIANT: &str = "persian-princess";
const L: usize = VARIANT.len();

// Byte offsets of the header fields after the variant id (see docs/nnue-format.md).
const FEATURE_SET: usize = 14 + L;
const ARCH_ID: usize = 26 + L;
const FEATURES: usize = 38 + L;
const HIDDEN: usize = 42 + L;
const BUCKETS: usize = 46 + L;
const QA_OFFSET: usize = 50 + L;
const SCALE_OFFSET: usize = 58 + L;

fn tiny_layout() -> Layout {
    Layout::new(3, 3, 0b101_000_101, 2).unwrap()
}

fn tiny() -> (Layout, Network, Vec<u8>) {
    let layout = tiny_layout();
    let net = FloatNetwork::init_random(features::num_features(&layout), 16, 9)
        .quantise(4)
        .unwrap();
    let bytes = format::to_bytes(&NetHeader::new(2, VARIANT, &layout, "tiny test net"), &net).unwrap();
    (layout, net, bytes)
}

fn expected(layout: &Layout) -> Expected {
    Expected::new(2, VARIANT, layout)
}

fn patch_u32(bytes: &[u8], offset: usize, value: u32) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    bytes
}

fn read(bytes: &[u8], layout: &Layout) -> Result<Network, LoadNetError> {
    format::read(bytes, &expected(layout)).map(|loaded| loaded.network)
}

#[test]
fn round_trip_keeps_every_field() {
    let layout = persian();
    let net = FloatNetwork::init_random(features::num_features(&layout), 256, 1)
        .quantise(48)
        .unwrap();
    let header = NetHeader::new(2, VARIANT, &layout, "epoch 30, 12 M positions, wdl 0.4 — ünïcode ok");
    let mut file = Vec::new();
    format::write(&mut file, &header, &net).unwrap();
    assert_eq!(
        file.len(),
        62 + L + 2 * (256 + 1700 * 256 + 512) + 4 + 4 + header.description.len() + 4
    );
    let loaded = format::read(&file, &expected(&layout)).unwrap();
    assert_eq!(loaded.header, header);
    assert_eq!(loaded.network, net);
    assert_eq!(format::read_any(&file).unwrap().network, net);
    let mut strict = expected(&layout);
    strict.architecture_hash = Some(architecture_hash(ARCH_V1, 1700, 256, 1));
    assert!(format::read(&file, &strict).is_ok());
}

#[test]
fn bucketed_nets_round_trip() {
    let layout = persian();
    let float = FloatNetwork::init_random(features::num_features(&layout), 32, 3);
    let one = float.quantise(48).unwrap();
    let net = crate::common::bucketed(&float, 8).quantise(48).unwrap();
    let header = NetHeader::new(2, VARIANT, &layout, "eight buckets");
    let (file, single) = (
        format::to_bytes(&header, &net).unwrap(),
        format::to_bytes(&header, &one).unwrap(),
    );
    // Seven more heads of 2H i16 weights and an i32 bias each.
    assert_eq!(file.len(), single.len() + 7 * (2 * 2 * 32 + 4));
    assert_eq!(&file[BUCKETS..BUCKETS + 4], &8u32.to_le_bytes());
    let loaded = format::read(&file, &expected(&layout)).unwrap();
    assert_eq!(loaded.network, net);
    assert_eq!(loaded.network.buckets(), 8);
    assert_eq!(
        loaded.network.architecture_hash(),
        architecture_hash(ARCH_V1, 1700, 32, 8)
    );
    // Bucket 0 is the single-bucket net's head; the others differ.
    assert_eq!(net.out_bias(0), one.out_bias(0));
    assert_ne!(net.out_bias(3), one.out_bias(0));
    // A one-bucket file that claims eight fails its architecture hash.
    let mut strict = expected(&layout);
    strict.architecture_hash = Some(architecture_hash(ARCH_V1, 1700, 32, 1));
    assert!(matches!(
        format::read(&file, &strict),
        Err(LoadNetError::WrongArchitectureHash { .. })
    ));
    assert!(matches!(
        format::read(&patch_u32(&single, BUCKETS, 8), &expected(&layout)),
        Err(LoadNetError::DimensionsMismatch { buckets: 8, .. })
    ));
}

#[test]
fn truncation_at_every_length_is_reported_with_its_offset() {
    let (layout, _, bytes) = tiny();
    for len in 0..bytes.len() {
        match read(&bytes[..len], &layout) {
            Err(LoadNetError::Truncated {
                offset,
                needed,
                available,
                ..
            }) => {
                assert_eq!(offset + available, len, "length {len}");
                assert!(needed > available);
            }
            other => panic!("length {len}: expected Truncated, got {other:?}"),
        }
    }
    assert!(read(&bytes, &layout).is_ok());
}

#[test]
fn structural_errors() {
    let (layout, _, bytes) = tiny();
    let mut wrong_magic = bytes.clone();
    wrong_magic[0] = b'X';
    assert!(matches!(read(&wrong_magic, &layout), Err(LoadNetError::WrongMagic { found }) if found[0] == b'X'));

    assert_eq!(
        read(&patch_u32(&bytes, 8, 3), &layout),
        Err(LoadNetError::UnsupportedVersion { found: 3 })
    );

    let mut bad_text = bytes.clone();
    bad_text[14] = 0xFF;
    assert_eq!(
        read(&bad_text, &layout),
        Err(LoadNetError::InvalidText {
            field: "variant id",
            offset: 14
        })
    );

    assert_eq!(
        read(&patch_u32(&bytes, ARCH_ID, 7), &layout),
        Err(LoadNetError::UnknownArchitecture { found: 7 })
    );

    for (offset, name, value, max) in [
        (FEATURES, "features", 0, 32_768),
        (FEATURES, "features", 32_769, 32_768),
        (HIDDEN, "hidden", 0, 4096),
        (HIDDEN, "hidden", 100_000, 4096),
        (BUCKETS, "output buckets", 0, 16),
        (BUCKETS, "output buckets", 17, 16),
    ] {
        assert_eq!(
            read(&patch_u32(&bytes, offset, value), &layout),
            Err(LoadNetError::DimensionOutOfRange {
                name,
                value,
                min: 1,
                max
            }),
        );
    }

    let stored = architecture_hash(ARCH_V1, 16, 16, 1);
    assert_eq!(
        read(&patch_u32(&bytes, HIDDEN, 8), &layout),
        Err(LoadNetError::DimensionsMismatch {
            features: 16,
            hidden: 8,
            buckets: 1,
            stored,
            computed: architecture_hash(ARCH_V1, 16, 8, 1)
        })
    );

    assert_eq!(
        read(&patch_u32(&bytes, QA_OFFSET, 181), &layout),
        Err(LoadNetError::UnsupportedQuantisation {
            qa: 181,
            qb: 64,
            scale: 400
        })
    );

    let mut corrupt = bytes.clone();
    corrupt[100] ^= 0x10;
    assert!(
        matches!(read(&corrupt, &layout), Err(LoadNetError::ChecksumMismatch { stored, computed }) if stored != computed)
    );

    // A damaged field that is checked against `Expected` is reported as damage, not as a
    // mismatch, because the checksum is verified first.
    assert!(matches!(
        read(&patch_u32(&bytes, FEATURE_SET, 2), &layout),
        Err(LoadNetError::ChecksumMismatch { .. })
    ));

    let mut trailing = bytes.clone();
    trailing.extend_from_slice(&[0, 0, 0]);
    assert_eq!(
        read(&trailing, &layout),
        Err(LoadNetError::TrailingBytes {
            offset: bytes.len(),
            count: 3
        })
    );
}

#[test]
fn expectation_errors() {
    let (layout, net, bytes) = tiny();

    let mut other_code = expected(&layout);
    other_code.variant_code = 3;
    assert_eq!(
        format::read(&bytes, &other_code),
        Err(LoadNetError::WrongVariant {
            expected_code: 3,
            expected_id: VARIANT.into(),
            found_code: 2,
            found_id: VARIANT.into()
        })
    );
    let other_id = Expected::new(2, "egyptian-eye", &layout);
    assert!(matches!(
        format::read(&bytes, &other_id),
        Err(LoadNetError::WrongVariant { ref expected_id, ref found_id, .. }) if expected_id == "egyptian-eye" && found_id == VARIANT
    ));

    let mut header = NetHeader::new(2, VARIANT, &layout, "");
    header.feature_set = 2;
    let other_features = format::to_bytes(&header, &net).unwrap();
    assert_eq!(
        format::read(&other_features, &expected(&layout)),
        Err(LoadNetError::WrongFeatureSet { expected: 1, found: 2 })
    );

    // Same number of inputs, different board: 4 playable cells in a column of a 1x4 grid.
    let other_layout = Layout::new(1, 4, 0b1111, 2).unwrap();
    assert_eq!(features::num_features(&other_layout), features::num_features(&layout));
    assert_eq!(
        read(&bytes, &other_layout),
        Err(LoadNetError::WrongLayoutHash {
            expected: other_layout.layout_hash(),
            found: layout.layout_hash()
        })
    );

    let mut more_inputs = expected(&layout);
    more_inputs.num_features = 20;
    assert_eq!(
        format::read(&bytes, &more_inputs),
        Err(LoadNetError::WrongFeatureCount {
            expected: 20,
            found: 16
        })
    );

    let mut other_arch = expected(&layout);
    other_arch.architecture_hash = Some(architecture_hash(ARCH_V1, 16, 256, 1));
    assert_eq!(
        format::read(&bytes, &other_arch),
        Err(LoadNetError::WrongArchitectureHash {
            expected: architecture_hash(ARCH_V1, 16, 256, 1),
            found: architecture_hash(ARCH_V1, 16, 16, 1)
        })
    );
}

#[test]
fn every_single_bit_flip_is_refused() {
    let (layout, _, bytes) = tiny();
    let mut flipped = bytes.clone();
    for bit in 0..8 * bytes.len() {
        flipped[bit / 8] ^= 1 << (bit % 8);
        assert!(read(&flipped, &layout).is_err(), "flip of bit {bit} went unnoticed");
        flipped[bit / 8] ^= 1 << (bit % 8);
    }
}

#[test]
fn random_and_mutated_input_never_panics() {
    let (layout, _, bytes) = tiny();
    let mut rng = Rng::new(77);
    for round in 0..20_000 {
        let mut input = match round % 3 {
            // Pure noise.
            0 => (0..rng.below(1000)).map(|_| rng.next_u64() as u8).collect::<Vec<_>>(),
            // A valid prefix (magic and version) then noise, to get past the first checks.
            1 => {
                let mut v = bytes[..12].to_vec();
                v.extend((0..rng.below(1000)).map(|_| rng.next_u64() as u8));
                v
            }
            // The valid file with a few random bytes changed and maybe cut short.
            _ => {
                let mut v = bytes.clone();
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(v.len());
                    v[i] = rng.next_u64() as u8;
                }
                v.truncate(rng.below(v.len() + 1).max(v.len() - rng.below(8)));
                v
            }
        };
        // Header-sized length fields with huge values must not make the reader allocate much.
        if round % 7 == 0 && input.len() > FEATURES + 8 {
            input[FEATURES..FEATURES + 4].copy_from_slice(&4096u32.to_le_bytes());
            input[HIDDEN..HIDDEN + 4].copy_from_slice(&4096u32.to_le_bytes());
        }
        let _ = read(&input, &layout);
        let _ = format::read_any(&input);
    }
}

#[test]
fn errors_have_readable_messages() {
    let (layout, _, bytes) = tiny();
    let message = read(&bytes[..20], &layout).unwrap_err().to_string();
    assert!(
        message.contains("truncated") && message.contains("byte 14"),
        "{message}"
    );
    let message = format::read(&bytes, &Expected::new(2, "celtic-citadel", &layout))
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("celtic-citadel") && message.contains(VARIANT),
        "{message}"
    );
}

/// A net's scale (centipawns per unit of output) is its own: written and read back, checked for
/// its range, and every evaluation follows it while the weights stay as they were.
#[test]
fn a_calibrated_scale_round_trips_and_scales_every_evaluation() {
    let (layout, net, bytes) = tiny();
    assert_eq!(net.scale(), 400);
    let half = net.clone().with_scale(200).unwrap();
    let file = format::to_bytes(&NetHeader::new(2, VARIANT, &layout, "tiny test net"), &half).unwrap();
    assert_eq!(file.len(), bytes.len());
    assert_eq!(file[SCALE_OFFSET..SCALE_OFFSET + 4], 200i32.to_le_bytes());
    let back = read(&file, &layout).unwrap();
    assert_eq!(back, half);
    assert_eq!(back.scale(), 200);
    assert_ne!(back, net, "the scale is part of the net");
    assert_eq!(back.clone().with_scale(400).unwrap(), net, "and nothing else changed");
    // Every evaluation is the same output times the new scale (the same truncations).
    let pieces = [
        PlacedPiece {
            cell: 0,
            kind: 0,
            color: Color::White,
        },
        PlacedPiece {
            cell: 8,
            kind: 1,
            color: Color::Black,
        },
    ];
    for stm in [Color::White, Color::Black] {
        let (full, halved) = (
            net.evaluate(&layout, &pieces, stm),
            back.evaluate(&layout, &pieces, stm),
        );
        assert!(full.abs() > 20, "a test net that says something: {full}");
        assert!(
            (i64::from(full) - 2 * i64::from(halved)).abs() <= 2,
            "{full} vs {halved}"
        );
    }
    // The range: the ends are accepted (the patched file then fails only its checksum), the
    // values beyond them are refused by name, before the checksum, as by `with_scale`.
    for scale in [MIN_SCALE, MAX_SCALE] {
        assert!(matches!(
            read(&patch_u32(&bytes, SCALE_OFFSET, scale as u32), &layout),
            Err(LoadNetError::ChecksumMismatch { .. })
        ));
        assert_eq!(net.clone().with_scale(scale).unwrap().scale(), scale);
    }
    for scale in [MIN_SCALE - 1, MAX_SCALE + 1, 0, -400] {
        assert_eq!(
            read(&patch_u32(&bytes, SCALE_OFFSET, scale as u32), &layout),
            Err(LoadNetError::UnsupportedQuantisation { qa: 255, qb: 64, scale })
        );
        assert_eq!(net.clone().with_scale(scale), Err(NetworkError::Scale(scale)));
    }
    let message = LoadNetError::UnsupportedQuantisation {
        qa: 255,
        qb: 64,
        scale: 5000,
    }
    .to_string();
    assert!(
        message.contains("SCALE=5000") && message.contains("25..=3200"),
        "{message}"
    );
}
