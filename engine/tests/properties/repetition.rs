//! Threefold repetition on constructed examples.
#![allow(clippy::wildcard_imports)]

use super::*;

// ---------------------------------------------------------------------------------------------
// Repetition
// ---------------------------------------------------------------------------------------------

pub(crate) fn play(game: &mut Game, text: &str) {
    let m = game
        .position()
        .parse_uci(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.position().fen()));
    game.play(m);
}

/// Plays `moves` and checks `Game::repetitions` after each ply; the game must be drawn by
/// repetition exactly when the count reaches 3.
pub(crate) fn play_and_count(game: &mut Game, moves: &[&str], counts: &[usize]) {
    assert_eq!(moves.len(), counts.len());
    for (i, (text, &count)) in moves.iter().zip(counts).enumerate() {
        assert_eq!(game.outcome(), None, "game over before ply {}", i + 1);
        play(game, text);
        assert_eq!(game.repetitions(), count, "repetitions after ply {} ({text})", i + 1);
        let expected = (count >= 3).then_some(Outcome::Draw(DrawReason::Repetition));
        assert_eq!(game.outcome(), expected, "outcome after ply {} ({text})", i + 1);
    }
}

#[test]
pub(crate) fn knights_shuffling_repeat_the_start_position() {
    let cycle = ["c2d4", "c10d8", "d4c2", "d8c10"];
    for v in Variant::PERSIAN {
        let mut game = Game::new(Position::startpos(v));
        assert_eq!(game.repetitions(), 1);
        let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
        play_and_count(&mut game, &moves, &[1, 1, 1, 2, 2, 2, 2, 3]);
        assert_eq!(game.position().hash(), Position::startpos(v).hash(), "{v}");
        assert_eq!(game.position().halfmove_clock(), 8, "{v}");
    }
    let mut game = Game::new(Position::startpos(Variant::Chess));
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
    play_and_count(&mut game, &moves, &[1, 1, 1, 2, 2, 2, 2, 3]);
}

#[test]
pub(crate) fn lost_castling_rights_make_a_different_position() {
    // The kings come home, but without their castling rights: the start never repeats.
    let v = Variant::Chess;
    let start = Position::from_fen(v, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid FEN");
    let mut game = Game::new(start.clone());
    let moves = [
        "e1e2", "e8e7", "e2e1", "e7e8", "e1e2", "e8e7", "e2e1", "e7e8", "e1e2", "e8e7",
    ];
    play_and_count(&mut game, &moves[..4], &[1, 1, 1, 1]);
    assert_eq!(game.position().fen().split(' ').next(), start.fen().split(' ').next());
    assert_ne!(game.position(), &start);
    // Plies 6.. repeat plies 2..; ply 5 (Black still had no rights) is new.
    play_and_count(&mut game, &moves[4..], &[1, 2, 2, 2, 2, 3]);

    // Persian: the king's trip costs both rights; the knight cannot restore them.
    let v = Variant::PersianPrincess;
    let pieces = [("f2", 'K'), ("b2", 'R'), ("j2", 'R'), ("f10", 'k'), ("c10", 'n')];
    let start = Position::from_fen(v, &fen(v, &pieces, "w KQ - 0 1")).expect("valid FEN");
    let mut game = Game::new(start.clone());
    let cycle = ["f2f3", "c10d8", "f3f2", "d8c10"];
    play_and_count(&mut game, &cycle, &[1, 1, 1, 1]);
    assert_eq!(game.position().castling_rights(), 0);
    assert_ne!(game.position(), &start);
    play_and_count(&mut game, &cycle, &[2, 2, 2, 2]);
    play_and_count(&mut game, &cycle[..1], &[3]);
}

#[test]
pub(crate) fn irreversible_moves_end_the_repetition_window() {
    let v = Variant::PersianPrincess;
    let mut game = Game::new(Position::startpos(v));
    for text in ["c2d4", "c10d8", "d4c2", "d8c10"] {
        play(&mut game, text);
    }
    assert_eq!(game.repetitions(), 2);
    // A pawn move: nothing before it can repeat.
    let cycle = ["c2d4", "c10d8", "d4c2", "d8c10"];
    play_and_count(&mut game, &["b3b4", "b9b8"], &[1, 1]);
    play_and_count(&mut game, &cycle, &[1, 1, 1, 2]);
    play_and_count(&mut game, &cycle, &[2, 2, 2, 3]);
}
