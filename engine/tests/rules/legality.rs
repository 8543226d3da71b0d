//! `Position::is_legal_move` (used for hash-table moves) agrees with the move generator, for the
//! position's own moves and for moves taken from other positions.
#![allow(clippy::unwrap_used)]

use engine::rules::{reference, Move, Position, Variant};

use engine::rng::SplitMix64 as Rng;

#[test]
fn is_legal_move_matches_the_generator() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for v in Variant::ALL {
        let (mut checked, mut pseudo) = (0, 0);
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
                // Every pseudo-legal move, those that expose the mover's king included.
                for m in reference::pseudo_legal_moves(&pos) {
                    assert_eq!(
                        pos.is_legal_move(m),
                        moves.contains(m),
                        "{v}: pseudo-legal move {} in {}",
                        pos.uci(m),
                        pos.fen()
                    );
                    pseudo += 1;
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
        assert!(pseudo > 10_000, "{v}: only {pseudo} pseudo-legal moves checked");
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

/// Parsi Chess's legality filters (the stalemate ban, the perpetual-check ban) judge a move from
/// elsewhere alone in `is_legal_move` and `is_legal_move_with_history`: both agree with the
/// filtered lists, for the position's moves by the other rules and for moves of earlier
/// positions, in games that prefer captures and checks (so that they reach bare endings, where
/// the ban forbids moves, and repeated checks).
#[test]
fn filtered_legality_of_one_move_matches_the_lists() {
    let mut rng = Rng::new(0x51a1_e3a7_e000_0007);
    let (mut positions, mut banned, mut banned_by_history) = (0u64, 0u64, 0u64);
    for _game in 0..400 {
        let mut pos = Position::startpos(Variant::Parsi);
        let mut history: Vec<u64> = Vec::new();
        let mut foreign: Vec<Move> = Vec::new();
        for _ply in 0..300 {
            let unfiltered = pos.legal_moves_unfiltered();
            let bare = pos.legal_moves();
            let in_game = pos.legal_moves_with_history(&history);
            if in_game.is_empty() {
                break;
            }
            positions += 1;
            banned += unfiltered.iter().filter(|&&m| !bare.contains(m)).count() as u64;
            banned_by_history += bare.iter().filter(|&&m| !in_game.contains(m)).count() as u64;
            for &m in unfiltered.iter().chain(&foreign) {
                assert_eq!(pos.is_legal_move(m), bare.contains(m), "{:?} in {}", m, pos.fen());
                assert_eq!(
                    pos.is_legal_move_with_history(m, &history),
                    bare.contains(m) && in_game.contains(m),
                    "{:?} in {} after {} positions",
                    m,
                    pos.fen(),
                    history.len()
                );
            }
            for _ in 0..4 {
                foreign.push(unfiltered.as_slice()[(rng.next_u64() % unfiltered.len() as u64) as usize]);
            }
            if foreign.len() > 32 {
                foreign.drain(..foreign.len() - 32);
            }
            // Captures first, then checks, else any move.
            let pick = |keep: &dyn Fn(Move) -> bool, rng: &mut Rng| {
                let some: Vec<Move> = in_game.iter().copied().filter(|&m| keep(m)).collect();
                (!some.is_empty()).then(|| some[(rng.next_u64() % some.len() as u64) as usize])
            };
            let roll = rng.next_u64() % 10;
            let m = (roll < 6)
                .then(|| pick(&|m| pos.is_capture_or_promotion(m), &mut rng))
                .flatten()
                .or_else(|| {
                    (roll < 9)
                        .then(|| pick(&|m| pos.after(m).in_check(), &mut rng))
                        .flatten()
                })
                .unwrap_or_else(|| in_game.as_slice()[(rng.next_u64() % in_game.len() as u64) as usize]);
            history.push(pos.hash());
            pos.play_unchecked(m);
        }
    }
    assert!(positions > 20_000, "only {positions} positions");
    assert!(
        banned > 10,
        "few moves was forbidden by the stalemate ban in {positions} positions"
    );
    assert!(
        banned_by_history > 0,
        "no move was forbidden by the perpetual-check ban"
    );
    eprintln!("{positions} positions, {banned} moves stalemating, {banned_by_history} perpetual checks");
}
