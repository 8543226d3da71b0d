//! The rules of Parsi Chess (rules note A.4 to A.8) on the registered variant: the hand-derived
//! numbers and cases of A.11, the king's leap and its FEN letters in the fourth field, promotion
//! by arrival square and the bonus leap, the stalemate and perpetual-check bans, the bare king,
//! random games against the reference generator; and the double step alone on a variant defined
//! here.

use std::sync::OnceLock;

use engine::{
    rng::SplitMix64,
    rules::{
        geometry::Geometry,
        perft::{self, perft, reference_perft},
        reference,
        special::unmoved_double_step::UnmovedDoubleStep,
        tables::Tables,
        variant::{PawnSpec, PieceSpec},
        variants::persian_common::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK},
        DrawReason, FenError, MoveKind, Outcome, ParseFenError, PieceKind, Position, Rule, Variant, VariantSpec,
    },
};

/// Parsi's pieces move as the orthodox ones (vizier = queen, camel = bishop, horse = knight).
const PIECES: &[PieceSpec] = &[PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING];
const NET_KINDS: &[PieceKind] = &[
    PieceKind::Pawn,
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
    PieceKind::King,
];

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

fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let from = pos.tables().geometry.parse_square(from).expect("a square");
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
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

fn attacked(pos: &Position, square: &str) -> bool {
    let sq = pos.tables().geometry.parse_square(square).expect("a square");
    let by_fast = pos.is_attacked(sq, engine::rules::Color::White, pos.occupied());
    assert_eq!(
        by_fast,
        reference::is_attacked(pos, sq, engine::rules::Color::White),
        "{square} in {}",
        pos.fen()
    );
    by_fast
}

/// A.11: a pawn on b7 with both knights on the board may not go to b8, and attacks a8 and c8 only
/// once a rook, or the bishop of c8's colour (f1's), is lost.
#[test]
fn promotion_needs_a_lost_piece_of_the_square() {
    let full = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RNBQKBNR w - - 0 1");
    assert!(moves_from(&full, "b7").is_empty());
    assert!(!attacked(&full, "a8") && !attacked(&full, "c8"));
    agrees_with_reference(&full);
    let rook_lost = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RNBQKBN1 w - - 0 1");
    assert_eq!(moves_from(&rook_lost, "b7"), ["b7a8r"]);
    assert!(attacked(&rook_lost, "a8") && !attacked(&rook_lost, "c8"));
    agrees_with_reference(&rook_lost);
    let light_bishop_lost = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RNBQK1NR w - - 0 1");
    assert_eq!(moves_from(&light_bishop_lost, "b7"), ["b7c8b"]);
    assert!(attacked(&light_bishop_lost, "c8"));
    // The dark bishop lost instead does not open the light c8.
    let dark_bishop_lost = fen("r1bkq3/1P6/8/8/8/8/P2PP2P/RN1QKBNR w - - 0 1");
    assert!(moves_from(&dark_bishop_lost, "b7").is_empty());
}

/// A capture wakes a stuck pawn: the captured piece is now a lost kind, so the pawn attacks its
/// promotion square. The capture is illegal when that square holds the mover's king (or is where
/// the king captures).
#[test]
fn a_capture_that_wakes_a_stuck_pawn_next_to_the_king_is_illegal() {
    // The pawn on d2 may not promote on e1 while Black has lost nothing, so the king is not in
    // check; taking the knight on a4 would make e1 a square where it promotes (to a knight).
    let rook_takes = fen("r1bkqbnr/ppp1pppp/8/8/n7/8/3p4/R3K3 w - - 0 1");
    assert!(!rook_takes.in_check());
    assert!(
        rook_takes.parse_uci("a1a4").is_err(),
        "Rxa4 would leave the king attacked by d2"
    );
    assert!(rook_takes.parse_uci("a1a3").is_ok());
    agrees_with_reference(&rook_takes);
    // Kxg1 takes a knight of Black's two: f2 then promotes on g1 (to a knight) and attacks it.
    let king_takes = fen("rnbkqb1r/ppppp1pp/8/8/8/8/5p1K/R5n1 w - - 0 1");
    assert!(
        king_takes.parse_uci("h2g1").is_err(),
        "the pawn on f2 wakes when the knight goes"
    );
    agrees_with_reference(&king_takes);
    // The same capture with the pawn one rank back is legal.
    let far = fen("rnbkqb1r/ppppp1pp/8/8/8/5p2/7K/R5n1 w - - 0 1");
    assert!(far.parse_uci("h2g1").is_ok());
    agrees_with_reference(&far);
}

/// A.11: with the vizier on the board e7-e8 is illegal, and the stuck pawn gives no check to the
/// king on d8; with one rook and the c1 bishop lost, a pawn arriving on d8 chooses R or B.
#[test]
fn the_kings_square_offers_every_lost_kind() {
    let stuck = fen("3k4/4P3/8/8/8/8/P2P3P/RNBQKBNR b - - 0 1");
    assert!(!stuck.in_check(), "a pawn that cannot promote on d8 does not attack it");
    let white = fen("3k4/4P3/8/8/8/8/P2P3P/RNBQKBNR w - - 0 1");
    assert!(moves_from(&white, "e7").is_empty());
    let choice = fen("k7/3P4/8/8/8/8/P6P/RN1QKBN1 w - - 0 1");
    assert_eq!(moves_from(&choice, "d7"), ["d7d8b", "d7d8r"]);
    agrees_with_reference(&choice);
    // The king on d8 is in check once the pawn may promote there.
    let check = fen("3k4/4P3/8/8/8/8/P2P3P/RN1QKBN1 b - - 0 1");
    assert!(check.in_check());
}

/// A knight may not give check on arrival; a knight promotion may be followed by one knight move
/// in the same turn (a compound move with its own UCI and SAN).
#[test]
fn knight_promotions_and_the_bonus_leap() {
    let checking = fen("8/1P1k4/8/8/8/8/P2P3P/R1BQKBNR w - - 0 1");
    assert!(moves_from(&checking, "b7").is_empty(), "Nb8 would check the king on d7");
    agrees_with_reference(&checking);
    let pos = fen("8/1P2k3/8/8/8/8/P6P/R1BQKBNR w - - 0 1");
    assert_eq!(moves_from(&pos, "b7"), ["b7b8n", "b7b8na6", "b7b8nc6", "b7b8nd7"]);
    agrees_with_reference(&pos);
    let leap = pos.parse_uci("b7b8nc6").expect("the compound move reads from its text");
    assert_eq!(leap.kind(), MoveKind::Rule);
    assert!(pos.san(leap).starts_with("b8=N~c6"), "{}", pos.san(leap));
    assert_eq!(pos.parse_san(&pos.san(leap)), Ok(leap));
    let after = pos.after(leap);
    assert_eq!(after.fen(), "8/4k3/2N5/8/8/8/P6P/R1BQKBNR b - - 0 1");
    assert!(after.in_check(), "the bonus leap may give check");
    assert_eq!(after.hash(), after.compute_hash());
    let delta = pos.move_delta(leap);
    assert_eq!((delta.removed().count(), delta.added().count()), (1, 1));
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

#[test]
fn the_leap_is_once_per_game_and_written_in_the_fourth_field() {
    let mut pos = fen(SPEC.start_fen);
    let leap = pos.parse_uci("e1f3").expect("the leap");
    assert_eq!(leap.kind(), MoveKind::Rule);
    assert_eq!(pos.san(leap), "Kf3");
    assert_eq!(pos.parse_san("Kf3"), Ok(leap));
    pos.play_unchecked(leap);
    // The king left e1: White's E flag goes with the leap right.
    assert_eq!(
        pos.fen(),
        "rnbkqbnr/pppppppp/8/8/8/5K2/PPPPPPPP/RNBQ1BNR b ADHadeh l 1 1"
    );
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.play_uci("d8c6").expect("Black's leap");
    assert!(pos.fen().contains(" ADHaeh - "), "{}", pos.fen());
    assert!(leaps(&pos).is_empty());
    // Given back in the FEN, it is there again.
    let again = fen("rnbkqbnr/pppppppp/8/8/8/5K2/PPPPPPPP/RNBQ1BNR w ADHadeh L 2 2");
    assert_eq!(leaps(&again), ["f3d4", "f3e1", "f3e5", "f3g5", "f3h4"]);
}

#[test]
fn the_leap_captures_escapes_check_and_avoids_attacked_squares() {
    // The white king on e1 is checked by the rook on e8; it may leap away, also onto the knight
    // on d3 (a capture), but not onto f3, which the black bishop on h5 attacks.
    let pos = fen("3kr3/8/8/7b/8/3n4/8/4K3 w - Ll 0 1");
    assert!(pos.in_check());
    assert_eq!(leaps(&pos), ["e1c2", "e1d3", "e1g2"]);
    let take = pos.parse_uci("e1d3").expect("the leap takes");
    assert_eq!(pos.san(take), "Kxd3");
    assert_eq!(pos.after(take).halfmove_clock(), 0);
    // The leap never takes a king, nor counts as an attack: kings a leap apart are legal.
    let kings = fen("8/8/8/8/8/3k4/8/4K3 w - Ll 0 1");
    assert!(!kings.in_check());
    assert!(!leaps(&kings).contains(&"e1d3".to_string()));
    // Without the right, only steps.
    assert!(leaps(&fen("3kr3/8/8/7b/8/3n4/8/4K3 w - l 0 1")).is_empty());
}

#[test]
fn the_fourth_field_takes_only_leap_letters() {
    for bad in ["e3", "Lx", "K"] {
        let text = format!("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh {bad} 0 1");
        let e = Position::from_fen_in(tables(), &text).unwrap_err();
        assert!(
            matches!(e, FenError::Parse(ParseFenError::BadRightsField(_))),
            "{bad}: {e}"
        );
    }
    // The leap letters do not belong in the castling field.
    assert!(Position::from_fen_in(
        tables(),
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadehL - 0 1"
    )
    .is_err());
    assert_eq!(
        fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1").fen(),
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
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

/// A.7: a move that leaves the opponent without a move and not in check is illegal; a
/// stalemate given in a FEN is a draw.
#[test]
fn stalemating_is_forbidden() {
    // Black's king on a8 with its pawn blocked: Qc7 would leave it no move.
    let pos = fen("k7/p7/P2Q4/8/8/8/8/4K3 w - - 0 1");
    let stalemating = reference::pseudo_legal_moves(&pos)
        .into_iter()
        .find(|&m| pos.uci(m) == "d6c7")
        .expect("the vizier reaches c7");
    assert!(pos.legal_moves_unfiltered().contains(stalemating));
    assert!(!pos.legal_moves().contains(stalemating));
    assert!(!pos.is_legal_move(stalemating));
    assert!(pos.parse_uci("d6d7").is_ok(), "Qd7 leaves b8");
    agrees_with_reference(&pos);
    // A pin stalemates too: Bc3 pins Black's only movable piece, the knight, against the king
    // stuck on h8; Be3 does not.
    let pin = fen("7k/5K2/6P1/8/3n4/8/3B4/8 w - - 0 1");
    assert!(pin.parse_uci("d2c3").is_err(), "Bc3 would pin the knight and stalemate");
    assert!(pin.parse_uci("d2e3").is_ok());
    agrees_with_reference(&pin);
    // Black to move there has no move and is not in check: a draw.
    let stalemate = fen("k7/p1Q5/P7/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
}

/// A.8: a side left with only its king draws at once, unless it is mated by that move.
/// The staged lists the search generates (captures, then the rest) obey the ban as the whole
/// list does: Qxd3 takes Black's last piece and stalemates, and it was the only capture, so a
/// filter that judged the captures alone took it for "nothing else to play" and kept it.
#[test]
fn staged_lists_obey_the_stalemate_ban() {
    let pos = fen("5B1k/8/5N2/8/8/3n4/P5KP/R2Q2NR w - - 0 8");
    let qxd3 = *pos
        .legal_moves_unfiltered()
        .iter()
        .find(|&&m| pos.uci(m) == "d1d3")
        .expect("Qxd3 is a move by the other rules");
    assert!(pos.parse_uci("d1d3").is_err(), "the UCI reader refuses it");
    assert!(!pos.legal_moves().contains(qxd3), "Qxd3 stalemates");
    assert!(!pos.capture_moves().contains(qxd3), "nor is it a legal capture");
    let mut quiets = engine::rules::MoveList::new();
    pos.generate_quiets(&mut quiets);
    let mut staged: Vec<u32> = pos
        .capture_moves()
        .iter()
        .chain(quiets.iter())
        .map(|m| m.raw())
        .collect();
    let mut whole: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
    staged.sort_unstable();
    whole.sort_unstable();
    assert_eq!(staged, whole, "captures and the rest make the whole list");
}

#[test]
fn a_bare_king_draws_unless_mated() {
    let bare = fen("k7/8/8/8/8/8/P7/4K3 b - - 0 1");
    assert_eq!(bare.immediate_outcome(), Some(Outcome::Draw(DrawReason::BareKing)));
    assert_eq!(bare.outcome(), Some(Outcome::Draw(DrawReason::BareKing)));
    // Mate of the bare king wins: two rooks on the a- and b-files.
    let mate = fen("k7/8/8/8/8/8/1R6/R3K3 b - - 0 1");
    assert!(mate.in_check());
    assert_eq!(mate.immediate_outcome(), None);
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Checkmate {
            winner: engine::rules::Color::White
        })
    );
    assert_eq!(fen(SPEC.start_fen).immediate_outcome(), None);
}

/// A.8: a check that would make a position occur for the third time, when every move of the
/// checking side since its first occurrence gave check, is illegal (in a game, which knows the
/// history); a bare position forbids nothing.
#[test]
fn perpetual_check_is_forbidden_in_a_game() {
    let start = fen("4Q2k/p5p1/7p/8/8/8/P7/K7 b - - 0 1");
    let mut game = engine::rules::game::Game::new(start);
    for m in ["h8h7", "e8e4", "h7h8", "e4e8", "h8h7", "e8e4", "h7h8"] {
        let mv = game.position().parse_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert!(game.legal_moves().contains(mv), "{m} is legal in the game");
        game.play(mv);
    }
    assert_eq!(game.outcome(), None);
    assert_eq!(game.position().checking_run(engine::rules::Color::White), 3);
    let check = game
        .position()
        .parse_uci("e4e8")
        .expect("Qe8+ is a move of the position");
    assert!(
        game.position().legal_moves().contains(check),
        "without the history it is legal"
    );
    assert!(
        !game.legal_moves().contains(check),
        "the third Qe8+ is a perpetual check"
    );
    assert!(game.legal_moves().len() > 10, "White has other moves");
    // A quiet move in between starts the count again.
    let quiet = fen("7k/p5p1/7p/8/4Q3/8/P7/K7 w - - 0 1");
    let after = quiet.after(quiet.parse_uci("a2a3").unwrap());
    assert_eq!(after.checking_run(engine::rules::Color::White), 0);
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

/// The double step alone (no leap, no other rule), as A.11 counts it without the leaps.
mod double_step_alone {
    use super::*;
    use engine::rules::PositionError;

    static SPEC: VariantSpec = VariantSpec {
        variant: None,
        id: "parsi-pawns",
        code: 254,
        aliases: &[],
        name: "Parsi pawns",
        server_key: "parsi-pawns",
        pgn_name: "parsi-pawns",
        geometry: Geometry::rectangle(8, 8),
        pieces: PIECES,
        net_kinds: NET_KINDS,
        start_fen: "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ADEHadeh - 0 1",
        pawns: PawnSpec {
            double_step_rank: 1,
            first_step_max: 2,
            promotion_rank: 7,
            promotion_kinds: &[PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight],
            en_passant: false,
        },
        castling: &[],
        dead_material: &[&[]],
        game_points: None,
        piece_values: &[],
        settings: None,
        rules: &[Rule::UnmovedDoubleStep(UnmovedDoubleStep {
            files: &[0, 3, 4, 7],
            while_present: false,
        })],
    };

    fn tables() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(|| Tables::build(&SPEC))
    }

    fn fen(text: &str) -> Result<Position, FenError> {
        Position::from_fen_in(tables(), text)
    }

    fn start() -> Position {
        fen(SPEC.start_fen).expect("start FEN")
    }

    /// A.11 without the king's leap: 8 single steps, 4 double steps (a, d, e, h), 4 knight moves;
    /// no first move of one side changes the other's 16.
    #[test]
    fn start_perft() {
        let pos = start();
        assert_eq!(pos.fen(), SPEC.start_fen);
        assert_eq!(perft(&pos, 1), 16);
        assert_eq!(perft(&pos, 2), 256);
        let mut doubles: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.kind() == engine::rules::MoveKind::DoubleStep)
            .map(|&m| pos.uci(m))
            .collect();
        doubles.sort();
        assert_eq!(doubles, ["a2a4", "d2d4", "e2e4", "h2h4"]);
        assert_eq!(perft(&pos, 3), reference_perft(&pos, 3));
    }

    /// A.11: after 1.Nc3 Nc6 2.Rb1 Nb8 3.Ra1 Nc6 the rook is back on a1 but has moved, so a2-a4 is
    /// illegal and a2-a3 legal; the FEN has lost White's `A`.
    #[test]
    fn a_piece_that_moved_and_came_back_no_longer_allows_the_double_step() {
        let mut pos = start();
        for m in ["b1c3", "b8c6", "a1b1", "c6b8", "b1a1", "b8c6"] {
            pos.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        assert!(pos.parse_uci("a2a4").is_err());
        assert!(pos.parse_uci("a2a3").is_ok());
        assert!(pos.parse_uci("h2h4").is_ok());
        assert_eq!(
            pos.fen(),
            "r1bkqbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w DEHadeh - 6 4"
        );
        // The king's first step ends the e-pawn's double step too, for good.
        pos.play_uci("e2e3").unwrap();
        pos.play_uci("c6b4").unwrap();
        pos.play_uci("e1e2").unwrap();
        pos.play_uci("b4c6").unwrap();
        pos.play_uci("e2e1").unwrap();
        pos.play_uci("c6b4").unwrap();
        assert!(pos.fen().contains(" DHadeh "), "{}", pos.fen());
        assert!(pos.parse_uci("d2d4").is_ok());
    }

    /// The piece behind a pawn leaving its square ends that pawn's double step, and so does its
    /// capture there (the same rights mask covers moves from and to the square).
    #[test]
    fn a_captured_piece_ends_the_right() {
        let mut pos = fen("rnbkqbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR b ADEHadeh - 0 1").expect("no a2 pawn");
        // A black knight checks from c2 and the vizier takes it.
        for m in ["b8c6", "g2g3", "c6b4", "g3g4", "b4c2", "d1c2"] {
            pos.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        // The vizier left d1 (it took the knight on c2): White's D is gone.
        assert!(pos.fen().contains(" AEHadeh "), "{}", pos.fen());
        // A knight takes the rook on a1: White's A is gone.
        let mut pos = fen("rnbkqb1r/pppppppp/8/8/8/1n6/PPPPPPPP/RNBQKBNR b ADEHadeh - 0 1").expect("knight on b3");
        pos.play_uci("b3a1").expect("Nxa1");
        assert!(pos.fen().contains(" DEHadeh "), "{}", pos.fen());
        assert!(pos.parse_uci("a2a4").is_err());
    }

    #[test]
    fn fen_rights_are_checked() {
        // No rook on a1, but the A flag.
        let e = fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w ADEHadeh - 0 1").unwrap_err();
        assert!(
            matches!(
                e,
                FenError::Position(PositionError::RightWithoutPiece { letter: 'A', .. })
            ),
            "{e}"
        );
        assert!(e.to_string().contains("a1"), "{e}");
        // A letter that is no right here.
        assert!(fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ABDEHadeh - 0 1").is_err());
        // Twice the same letter.
        assert!(matches!(
            fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AADEHadeh - 0 1"),
            Err(FenError::Position(PositionError::DuplicateCastlingRight('A')))
        ));
        // Fewer rights than pieces is fine: those pawns step once.
        let few = fen("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Ea - 0 1").unwrap();
        assert_eq!(perft(&few, 1), 13);
        assert_eq!(few.fen(), "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Ea - 0 1");
    }

    /// Random games: the generator agrees with the reference generator, the hash with a recount,
    /// and the FEN round-trips.
    #[test]
    fn random_games_agree_with_the_reference_generator() {
        let mut rng = SplitMix64::new(0xa4);
        let mut doubles = 0;
        for _ in 0..40 {
            let mut pos = start();
            for _ in 0..60 {
                let mut fast: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
                let mut slow: Vec<u32> = reference::legal_moves(&pos).iter().map(|m| m.raw()).collect();
                fast.sort_unstable();
                slow.sort_unstable();
                assert_eq!(fast, slow, "{}", pos.fen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    assert!(pos.is_legal_move(m), "{} in {}", pos.uci(m), pos.fen());
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                doubles += usize::from(m.kind() == engine::rules::MoveKind::DoubleStep);
                pos.play_unchecked(m);
                assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
                assert_eq!(fen(&pos.fen()).expect("FEN round trip"), pos, "{}", pos.fen());
            }
        }
        assert!(doubles > 20, "{doubles} double steps");
    }
}

/// The rule settings of A.12 (`Variant::tables_with`): each reading the engine did not choose,
/// and the Ludii set as one switch.
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
    fn the_leap_without_capture() {
        let text = "3kr3/8/8/7b/8/3n4/8/4K3 w - Ll 0 1";
        assert_eq!(leaps(&fen_with("leap_no_capture", text)), ["e1c2", "e1g2"]);
        assert_eq!(leaps(&fen_with("", text)), ["e1c2", "e1d3", "e1g2"]);
    }

    #[test]
    fn the_leap_lost_when_checked() {
        // Re2+ checks the king on e1 along the rank.
        let pos = fen_with("leap_lost_when_checked", "3k4/8/8/8/8/8/r7/4K3 b - Ll 0 1");
        let checked = pos.after(pos.parse_uci("a2e2").expect("Re2+"));
        assert!(checked.in_check());
        assert!(leaps(&checked).is_empty(), "the leap never escapes a check");
        assert!(
            checked.fen().contains(" - l "),
            "White's right is gone: {}",
            checked.fen()
        );
        assert_eq!(checked.hash(), checked.compute_hash());
        // A FEN that gives the right in check still has no leap.
        let given = fen_with("leap_lost_when_checked", "3k4/8/8/8/8/8/4r3/4K3 w - Ll 0 1");
        assert!(leaps(&given).is_empty());
        // By default the right stays.
        let default = fen("3k4/8/8/8/8/8/r7/4K3 b - Ll 0 1");
        let checked = default.after(default.parse_uci("a2e2").expect("Re2+"));
        assert!(!leaps(&checked).is_empty());
        assert!(checked.fen().contains(" - Ll "), "{}", checked.fen());
    }

    #[test]
    fn promotion_by_own_file() {
        // White has lost its vizier: d7-d8 becomes a vizier (the d-file's own start piece); the
        // e-file (the king's) never promotes.
        let text = "k7/3P4/8/8/8/8/P6P/RNB1KBNR w - - 0 1";
        let pos = fen_with("promotion_by_own_file", text);
        assert_eq!(moves_from(&pos, "d7"), ["d7d8q"]);
        let e = fen_with("promotion_by_own_file", "k7/4P3/8/8/8/8/P6P/RNB1KBNR w - - 0 1");
        assert!(moves_from(&e, "e7").is_empty());
        agrees_with_reference(&pos);
        // By default d8 (the black king's start square) takes any lost kind: the vizier.
        assert_eq!(moves_from(&fen(text), "d7"), ["d7d8q"]);
        assert!(moves_from(&fen("k7/4P3/8/8/8/8/P6P/RNB1KBNR w - - 0 1"), "e7")
            .iter()
            .any(|m| m == "e7e8q"));
    }

    #[test]
    fn bishops_without_the_colour_test() {
        // The dark bishop lost: c8 (light) opens only without the colour test.
        let text = "r1bkq3/1P6/8/8/8/8/P2PP2P/RN1QKBNR w - - 0 1";
        assert!(moves_from(&fen(text), "b7").is_empty());
        assert_eq!(moves_from(&fen_with("bishop_colour_test=off", text), "b7"), ["b7c8b"]);
    }

    #[test]
    fn knights_and_the_bonus_leap() {
        let checking = "8/1P1k4/8/8/8/8/P2P3P/R1BQKBNR w - - 0 1";
        assert_eq!(
            moves_from(&fen_with("knight_no_check_on_arrival=off", checking), "b7"),
            ["b7b8n", "b7b8na6", "b7b8nc6"]
        );
        let text = "8/1P2k3/8/8/8/8/P6P/R1BQKBNR w - - 0 1";
        assert_eq!(moves_from(&fen_with("bonus_leap=off", text), "b7"), ["b7b8n"]);
        let ludii = fen_with("ludii", text);
        assert!(ludii.parse_uci("b7b8nc6").is_err());
        agrees_with_reference(&ludii);
    }

    /// A.11: after 1.Nc3 Nc6 2.Rb1 Nb8 3.Ra1 Nc6 the rook is back on a1: a2-a4 is illegal by
    /// default (it moved), legal when the piece merely has to stand there.
    #[test]
    fn the_double_step_while_the_piece_is_present() {
        let moves = ["b1c3", "b8c6", "a1b1", "c6b8", "b1a1", "b8c6"];
        let play = |settings: &str| {
            let mut pos = fen_with(settings, SPEC.start_fen);
            for m in moves {
                pos.play_uci(m).expect("legal");
            }
            pos
        };
        let default = play("");
        assert!(default.parse_uci("a2a4").is_err());
        assert!(default.parse_uci("a2a3").is_ok());
        let present = play("double_step_while_present");
        assert!(present.parse_uci("a2a4").is_ok());
        assert!(present.fen().contains(" ADEHadeh "), "{}", present.fen());
        assert_eq!(present.hash(), present.compute_hash());
        agrees_with_reference(&present);
        // Away from its square, the rook takes the right with it; a FEN cannot give it back.
        let mut away = fen_with("double_step_while_present", SPEC.start_fen);
        for m in ["b1c3", "b8c6", "a1b1"] {
            away.play_uci(m).expect("legal");
        }
        assert!(away.fen().contains(" DEHadeh "), "{}", away.fen());
        let start = fen_with("double_step_while_present", SPEC.start_fen);
        assert_eq!(perft(&start, 4), reference_perft(&start, 4));
        let long = fen_with(
            "double_step_while_present",
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - Ll 0 1",
        );
        assert!(
            long.fen().contains(" ADEHadeh "),
            "rights follow the board: {}",
            long.fen()
        );
    }

    /// A.9: with a series of two, White moves twice (Black passes between), then Black twice
    /// (White passes), then play alternates. Moves of the series stay in the mover's half.
    #[test]
    fn the_opening_series() {
        let start = fen_with("opening_series=2", &format!("{} 0", SPEC.start_fen));
        assert_eq!(start.fen(), format!("{} 0", SPEC.start_fen));
        assert!(start.in_opening_series());
        // 18 first moves, one pass each, 352 second moves, then Black's series.
        assert_eq!(perft(&start, 1), 18);
        assert_eq!(perft(&start, 2), 18);
        assert_eq!(perft(&start, 3), 352);
        assert_eq!(perft(&start, 4), 6324);
        assert_eq!(perft(&start, 5), reference_perft(&start, 5));
        let mut pos = start.clone();
        pos.play_uci("e2e4").expect("White's first move");
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 1, "Black's only move is the pass");
        let pass = moves.as_slice()[0];
        assert_eq!((pos.uci(pass), pos.san(pass)), ("0000".to_string(), "--".to_string()));
        assert_eq!(pos.parse_uci("0000"), Ok(pass));
        assert_eq!(pos.parse_san("--"), Ok(pass));
        pos.play_unchecked(pass);
        assert_eq!(
            pos.fen(),
            "rnbkqbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w ADEHadeh Ll 1 2 2"
        );
        assert!(pos.parse_uci("e4e5").is_err(), "the series stays in White's half");
        assert!(pos.parse_uci("d2d4").is_ok());
        pos.play_uci("d2d4").expect("White's second move");
        assert!(pos.parse_uci("0000").is_err(), "Black's own series begins: no pass");
        pos.play_uci("e7e5").expect("Black's first move");
        assert!(pos.parse_uci("d4e5").is_err(), "White passes");
        pos.play_uci("0000").expect("White's pass");
        assert!(pos.parse_uci("e5d4").is_err(), "no landing in White's half");
        pos.play_uci("d7d5").expect("Black's second move");
        assert!(!pos.in_opening_series());
        assert_eq!(
            pos.fen(),
            "rnbkqbnr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RNBQKBNR w ADEHadeh Ll 0 4"
        );
        assert!(pos.parse_uci("d4e5").is_ok(), "play alternates, captures again");
        assert_eq!(pos.hash(), pos.compute_hash());
        // The FEN gives the series back where it was.
        let back = fen_with(
            "opening_series=2",
            "rnbkqbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w ADEHadeh Ll 1 2 2",
        );
        assert!(back.in_opening_series() && back.parse_uci("d2d4").is_ok());
        let Err(e) = Position::from_fen_in(
            Variant::Parsi.tables_with("opening_series=2").unwrap(),
            "rnbkqbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w ADEHadeh Ll 0 2 6",
        ) else {
            panic!("a series of two has six plies, 0 to 5")
        };
        assert!(e.to_string().contains("0 to 5"), "{e}");
    }

    /// A check given during the series is answered when the checked side's turn comes: the
    /// checked side passes meanwhile, and the FEN of such a position reads.
    #[test]
    fn a_check_in_the_series_waits() {
        // White to move in its series, Black's king checked by the rook on d1 (the d-file open).
        let text = "3k4/8/8/8/8/8/8/3RK3 w - - 0 1 0";
        let pos = fen_with("opening_series=2", text);
        let after = pos.after(pos.parse_uci("e1e2").expect("a move in White's half"));
        assert!(after.in_check());
        assert_eq!(after.legal_moves().len(), 1, "Black passes, in check");
        let passed = after.after(after.parse_uci("0000").expect("the pass"));
        assert!(passed.in_opening_series());
        // Black answers once its series begins.
        assert!(passed.legal_moves().iter().all(|&m| passed.uci(m) != "0000"));
        assert!(fen_with("opening_series=2", &passed.fen()).in_opening_series());
        let settings_text = Variant::Parsi
            .tables_with("ludii,opening_series=4")
            .unwrap()
            .rules
            .settings()
            .to_string();
        assert_eq!(settings_text, "ludii,opening_series=4");
        assert!(Variant::Parsi.tables_with("opening_series=12").is_err());
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
