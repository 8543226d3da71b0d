//! Parsi Chess as a whole, on the registered variant (rules note A.4 to A.12): the hand-derived
//! start numbers of A.11, random games against the reference generator with every rule in
//! force, perft under the perpetual-check ban with the game's history, and the rule settings
//! as a set. Each rule's own cases (the double step, the king's leap, promotion by arrival
//! square, the bonus leap, the stalemate and perpetual-check bans, the bare king, the opening
//! series) sit beside the rule, at the end of its module in `engine/src/rules/special/`.

use engine::{
    rng::SplitMix64,
    rules::{
        perft::{self, perft, reference_perft},
        reference,
        tables::Tables,
        DrawReason, MoveKind, Outcome, PieceKind, Position, Variant, VariantSpec,
    },
};

/// The registered variant: these tests are its rule tests.
const SPEC: &VariantSpec = Variant::Parsi.spec();

fn tables() -> &'static Tables {
    Variant::Parsi.tables()
}

fn fen(text: &str) -> Position {
    Position::from_fen_in(tables(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn leaps(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::Rule && pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceKind::King))
        .map(|&m| pos.uci(m))
        .collect();
    v.sort();
    v
}

fn agrees_with_reference(pos: &Position) {
    let mut fast: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
    let mut slow: Vec<u32> = reference::legal_moves(pos).iter().map(|m| m.raw()).collect();
    fast.sort_unstable();
    slow.sort_unstable();
    assert_eq!(fast, slow, "{}", pos.fen());
}

/// A.11: 8 single steps, 4 double steps, 4 knight moves and 2 king leaps (d3, f3) for White, the
/// same 18 for Black whatever White played.
#[test]
fn the_hand_derived_perft_numbers() {
    let pos = fen(SPEC.start_fen);
    assert_eq!(pos.fen(), SPEC.start_fen);
    assert_eq!(perft(&pos, 1), 18);
    assert_eq!(perft(&pos, 2), 324);
    assert_eq!(leaps(&pos), ["e1d3", "e1f3"]);
    let black = pos.after(pos.parse_uci("e1d3").expect("the leap"));
    assert_eq!(leaps(&black), ["d8c6", "d8e6"]);
}

/// Random games: the generator agrees with the reference generator, the hash with a recount,
/// and the FEN, UCI and SAN round-trip.
#[test]
fn random_games_agree_with_the_reference_generator() {
    let mut rng = SplitMix64::new(0xa6);
    let mut king_leaps = 0;
    let mut promotions = 0;
    let mut bonus_leaps = 0;
    // The start, and an ending with pawns about to promote and most pieces lost.
    let starts = [SPEC.start_fen, "1n1k2n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - Ll 0 1"];
    for game in 0..60 {
        let mut pos = fen(starts[game % 2]);
        for _ in 0..60 {
            agrees_with_reference(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let occ = pos.occupied();
            for s in pos.tables().geometry.playable {
                for c in [engine::rules::Color::White, engine::rules::Color::Black] {
                    assert_eq!(
                        pos.is_attacked(s, c, occ),
                        reference::is_attacked(&pos, s, c),
                        "{}",
                        pos.fen()
                    );
                }
            }
            // The stalemate ban's quick test never claims a move that is not there, and a legal
            // move stalemates only when every legal move does (the fallback).
            let mut stalemating = 0;
            for &m in &moves {
                let after = pos.after(m);
                let no_reply = after.legal_moves_unfiltered().is_empty();
                if engine::rules::special::no_stalemating::surely_has_a_move(&after) {
                    assert!(!no_reply, "{}", after.fen());
                }
                stalemating += usize::from(no_reply && !after.in_check());
            }
            assert!(stalemating == 0 || stalemating == moves.len(), "{}", pos.fen());
            let m = moves.as_slice()[rng.below(moves.len())];
            assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m), "{}", pos.fen());
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{}", pos.fen());
            let by_king = pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceKind::King);
            king_leaps += usize::from(m.kind() == MoveKind::Rule && by_king);
            bonus_leaps += usize::from(m.kind() == MoveKind::Rule && !by_king);
            promotions += usize::from(m.kind() == MoveKind::Promotion);
            pos.play_unchecked(m);
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
            assert_eq!(fen(&pos.fen()), pos, "{}", pos.fen());
        }
    }
    assert!(king_leaps > 10, "{king_leaps} king leaps");
    assert!(promotions > 10, "{promotions} promotions");
    assert!(bonus_leaps > 3, "{bonus_leaps} bonus leaps");
}

/// The listed moves and perft are the moves the game allows: a count of the legal-move tree
/// sees the game's positions and the tree's path, so a ninth-ply Nf7+ that would repeat a
/// position for the third time by checks alone is not counted (31,680,678 is the count of an
/// independent implementation of the rule; without it the count was one more).
#[test]
fn perft_obeys_the_perpetual_check_ban() {
    let root = fen("5b1k/4p1pp/4P3/6N1/8/8/8/K7 w - - 0 1");
    assert_eq!(perft(&root, 9), 31_680_678);
    let mut game = engine::rules::game::Game::new(root.clone());
    let line = ["g5f7", "h8g8", "f7h6", "g8h8", "h6f7", "h8g8", "f7h6", "g8h8"];
    for (i, m) in line.iter().enumerate() {
        let mv = game.position().parse_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert!(game.legal_moves().contains(mv), "{m} is legal in the game");
        game.play(mv);
        // Below each node of the line the count with the game's history agrees with the
        // reference generator given the same history.
        if i == 3 {
            let (pos, history) = (game.position(), game.history());
            let fast: u64 = perft::divide(pos, 5, history).iter().map(|&(_, n)| n).sum();
            assert_eq!(fast, perft::perft_after(pos, 5, history));
            let slow: u64 = perft::reference_divide(pos, 5, history, 1)
                .iter()
                .map(|&(_, n)| n)
                .sum();
            assert_eq!(fast, slow, "fast and reference counts after {:?}", &line[..=i]);
        }
    }
    let (pos, history) = (game.position(), game.history());
    let check = pos.parse_uci("h6f7").expect("Nf7+ is a move of the position");
    assert!(pos.legal_moves().contains(check), "set up on its own, Nf7+ is legal");
    assert!(
        !game.legal_moves().contains(check),
        "in the game it is a perpetual check"
    );
    assert_eq!(perft::perft_after(pos, 1, history), 6);
    assert_eq!(perft::perft_after(pos, 1, history), game.legal_moves().len() as u64);
    assert_eq!(perft(pos, 1), 7, "without the game's positions nothing is forbidden");
    assert_eq!(
        reference::legal_moves_with_history(pos, history).len(),
        6,
        "the reference generator agrees"
    );
}

/// The rule settings of A.12 (`Variant::tables_with`) as a set: the Ludii set as one switch, the
/// fifty-move rule, the errors. Each rule's own readings are tested beside the rule.
mod settings {
    use super::*;

    fn fen_with(settings: &str, text: &str) -> Position {
        let tables = Variant::Parsi.tables_with(settings).expect("settings read");
        Position::from_fen_in(tables, text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// A.11: the start's numbers hold under the Ludii readings; the generator agrees with the
    /// reference generator deeper.
    #[test]
    fn ludii_start_perft() {
        let pos = fen_with("ludii", SPEC.start_fen);
        assert_eq!(pos.tables().rules.settings(), "ludii");
        assert_eq!(perft(&pos, 1), 18);
        assert_eq!(perft(&pos, 2), 324);
        assert_eq!(perft(&pos, 4), reference_perft(&pos, 4));
        assert_ne!(pos, fen(SPEC.start_fen), "positions of other rules differ");
    }

    #[test]
    fn the_fifty_move_rule_can_be_off() {
        let text = "3k4/8/8/8/8/8/r7/4K2R w - - 100 80";
        assert_eq!(fen(text).outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
        assert_eq!(fen_with("fifty_move_rule=off", text).outcome(), None);
    }

    #[test]
    fn bad_settings_are_named() {
        let Err(err) = Variant::Parsi.tables_with("leap_no_capture=sometimes") else {
            panic!("a bad value")
        };
        assert!(err.to_string().contains("sometimes"), "{err}");
        let Err(err) = Variant::PersianPrincess.tables_with("ludii") else {
            panic!("no settings there")
        };
        assert!(err.to_string().contains("persian-princess"), "{err}");
        assert!(Variant::PersianPrincess.tables_with("default").is_ok());
    }
}
