//! `Position::is_legal_move` (used for hash-table moves) agrees with the move generator, for the
//! position's own moves and for moves taken from other positions.
#![allow(clippy::unwrap_used)]

use engine::rules::{Move, Position, Variant};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn is_legal_move_matches_the_generator() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
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
                    foreign.push(moves.as_slice()[(rng.next() % moves.len() as u64) as usize]);
                }
                if foreign.len() > 64 {
                    foreign.drain(..foreign.len() - 64);
                }
                let m = moves.as_slice()[(rng.next() % moves.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(checked > 10_000, "{v}: only {checked} foreign moves checked");
        // Random raw values never pass unless they are legal.
        let pos = Position::startpos(v);
        for _ in 0..20_000 {
            let m = Move::from_raw((rng.next() & 0x1f_ffff) as u32);
            assert_eq!(pos.is_legal_move(m), pos.legal_moves().contains(m), "{v}: {m:?}");
        }
    }
}
