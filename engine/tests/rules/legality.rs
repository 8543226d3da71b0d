//! `Position::is_legal_move` (used for hash-table moves) agrees with the move generator, for the
//! position's own moves and for moves taken from other positions.
#![allow(clippy::unwrap_used)]

use engine::rules::{Move, Position, Variant};

use engine::rng::SplitMix64 as Rng;

#[test]
fn is_legal_move_matches_the_generator() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for v in Variant::ALL {
        let mut checked = 0;
        for _game in 0..40 {
            let mut pos = Position::startpos(v);
            let mut foreign: Vec<Move> = Vec::new();
            for _ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    assert!(
                        pos.is_legal_move(m),
                        "{v}: legal move {} rejected in {}",
                        pos.uci(m),
                        pos.fen()
                    );
                }
                for &m in &foreign {
                    assert_eq!(
                        pos.is_legal_move(m),
                        moves.contains(m),
                        "{v}: foreign move {:?} in {}",
                        m,
                        pos.fen()
                    );
                    checked += 1;
                }
                // Keep a window of moves from recent positions as candidates for later ones.
                for _ in 0..8 {
                    foreign.push(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
                }
                if foreign.len() > 64 {
                    foreign.drain(..foreign.len() - 64);
                }
                let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(checked > 10_000, "{v}: only {checked} foreign moves checked");
        // Random raw values never pass unless they are legal.
        let pos = Position::startpos(v);
        for _ in 0..20_000 {
            let m = Move::from_raw((rng.next_u64() & 0x1f_ffff) as u32);
            assert_eq!(pos.is_legal_move(m), pos.legal_moves().contains(m), "{v}: {m:?}");
        }
    }
}

/// Captures (with promotions) and quiet moves split the legal moves: together all of them,
/// none twice, in every variant, in check or not.
#[test]
fn captures_and_quiets_partition_the_legal_moves() {
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    for v in Variant::ALL {
        let mut positions = 0;
        for _game in 0..30 {
            let mut pos = Position::startpos(v);
            for _ply in 0..150 {
                let all = pos.legal_moves();
                if all.is_empty() {
                    break;
                }
                let captures = pos.capture_moves();
                let mut quiets = engine::rules::MoveList::new();
                pos.generate_quiets(&mut quiets);
                let mut both: Vec<Move> = captures.iter().chain(quiets.iter()).copied().collect();
                let mut expected: Vec<Move> = all.iter().copied().collect();
                both.sort_by_key(|m| m.raw());
                expected.sort_by_key(|m| m.raw());
                assert_eq!(both, expected, "{v}: {}", pos.fen());
                for &m in quiets.iter() {
                    assert!(
                        pos.piece_at(m.to()).is_none_or(|p| p.color == pos.turn()) && m.promotion_piece().is_none(),
                        "{v}: {} is no quiet move in {}",
                        pos.uci(m),
                        pos.fen()
                    );
                }
                positions += 1;
                let captures = captures.as_slice();
                // Captures half of the time, so that the boards thin out.
                let m = if !captures.is_empty() && rng.next_u64() % 2 == 0 {
                    captures[(rng.next_u64() % captures.len() as u64) as usize]
                } else {
                    all.as_slice()[(rng.next_u64() % all.len() as u64) as usize]
                };
                pos.play_unchecked(m);
            }
        }
        assert!(positions > 1_000, "{v}: only {positions} positions");
    }
}
