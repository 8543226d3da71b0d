//! The search through the library: forced mates of exact length in every Persian variant (each
//! position checked first by an exhaustive solver written here), the citadel draw and stalemate
//! scored as draws, reproducible fixed-node searches, and legal best moves in random positions.

#![allow(clippy::unwrap_used)]

use std::sync::{atomic::AtomicBool, Arc};

use engine::{
    engine::{parse_game, Engine},
    rules::{Color, DrawReason, Move, Outcome, Piece, Position, Rule, Setup, Variant},
    search::{params::SearchParams, tt::TranspositionTable, Limits, Score, SearchResult, Searcher},
};

// ---- building positions -------------------------------------------------------------------------

/// A position from a list like `"Kc2 Rb4 ki10 ph9"` (upper case White), without castling or
/// rendezvous rights.
fn pos(v: Variant, pieces: &str, turn: Color) -> Position {
    let g = v.spec().geometry;
    let board = pieces
        .split_whitespace()
        .map(|t| {
            let piece = Piece::from_char(t.chars().next().unwrap()).unwrap();
            let sq = g.parse_square(&t[1..]).unwrap_or_else(|| panic!("bad square in {t}"));
            (sq, piece)
        })
        .collect();
    let rendezvous = v.spec().rules.iter().any(|r| matches!(r, Rule::Rendezvous(_)));
    let setup = Setup {
        board,
        turn,
        castling: Vec::new(),
        ep: Vec::new(),
        halfmove: 0,
        fullmove: 1,
        rendezvous: rendezvous.then_some((false, false)),
        rule_fields: Vec::new(),
    };
    Position::from_setup(v, &setup).unwrap_or_else(|e| panic!("{v} {pieces}: {e}"))
}

fn white(v: Variant, pieces: &str) -> Position {
    pos(v, pieces, Color::White)
}

fn black(v: Variant, pieces: &str) -> Position {
    pos(v, pieces, Color::Black)
}

/// The same position seen from the other side: ranks mirrored (Black's setup mirrors White's),
/// colours swapped, the other side to move.
fn mirrored(v: Variant, pieces: &str, turn: Color) -> Position {
    let flipped: Vec<String> = pieces
        .split_whitespace()
        .map(|t| {
            let mut chars = t.chars();
            let letter = chars.next().unwrap();
            let file = chars.next().unwrap();
            let rank: u32 = chars.as_str().parse().unwrap();
            let letter = if letter.is_ascii_uppercase() {
                letter.to_ascii_lowercase()
            } else {
                letter.to_ascii_uppercase()
            };
            format!("{letter}{file}{}", 12 - rank)
        })
        .collect();
    pos(v, &flipped.join(" "), !turn)
}

fn uci(p: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = p.clone();
    moves
        .iter()
        .map(|&m| {
            let s = p.uci(m);
            p.play_unchecked(m);
            s
        })
        .collect()
}

// ---- an exhaustive mate solver, to check the test positions themselves ------------------------------

/// Whether `m` forces mate within `n` moves of the side playing it (draws by rule do not count).
fn forces_mate(p: &Position, m: Move, n: u32) -> bool {
    let after = p.after(m);
    match after.outcome() {
        Some(Outcome::Checkmate { .. } | Outcome::GreenGem { .. }) => return true,
        Some(Outcome::Draw(_)) => return false,
        None => {}
    }
    n > 1
        && after.legal_moves().iter().all(|&reply| {
            let next = after.after(reply);
            next.outcome().is_none() && mate_within(&next, n - 1).is_some()
        })
}

/// A move that mates within `n` moves, if there is one.
fn mate_within(p: &Position, n: u32) -> Option<Move> {
    p.legal_moves().iter().copied().find(|&m| forces_mate(p, m, n))
}

/// Asserts the side to move mates in exactly `n` moves.
fn assert_exact_mate(p: &Position, n: u32) {
    assert!(mate_within(p, n).is_some(), "{p:?}: no mate in {n}");
    if n > 1 {
        assert!(mate_within(p, n - 1).is_none(), "{p:?}: already a mate in {}", n - 1);
    }
}

// ---- searching ----------------------------------------------------------------------------------------

/// Sets the engine to its variant's start position and the moves given in UCI text.
fn play_text(e: &mut Engine, moves: &[&str]) {
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let (start, moves) = parse_game(e.variant(), None, &moves).expect("legal test moves");
    e.set_game(start, &moves).expect("legal test moves");
}

fn engine_on(p: &Position) -> Engine {
    let mut e = Engine::new();
    e.set_variant(p.variant());
    e.set_game(p.clone(), &[]).unwrap_or_else(|err| panic!("{p:?}: {err}"));
    assert_eq!(e.position(), p);
    e
}

fn search(p: &Position, limits: Limits) -> SearchResult {
    let mut e = engine_on(p);
    e.search(limits, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Checks that the result's move, ponder move and principal variation are legal in `p`.
fn assert_legal_result(p: &Position, r: &SearchResult) {
    let legal = p.legal_moves();
    if legal.is_empty() {
        assert!(r.best.is_null(), "{p:?}: a move where there is none");
        return;
    }
    assert!(legal.contains(r.best), "{p:?}: bestmove {:?} is not legal", r.best);
    assert_eq!(
        r.pv.first(),
        Some(&r.best),
        "{p:?}: pv does not start with the best move"
    );
    let mut q = p.clone();
    for &m in &r.pv {
        assert!(
            q.legal_moves().contains(m),
            "{p:?}: pv {:?} has an illegal move",
            uci(p, &r.pv)
        );
        q.play_unchecked(m);
    }
    if let Some(ponder) = r.ponder {
        assert!(
            p.after(r.best).legal_moves().contains(ponder),
            "{p:?}: illegal ponder move"
        );
    }
}

/// Searches for the mate in `n` and checks the engine finds exactly it: the score is `Mate(n)`
/// and the best move starts a forced mate in `n`.
fn assert_finds_mate(p: &Position, n: u32) {
    assert_exact_mate(p, n);
    let limits = Limits {
        mate: Some(n),
        // Guards only: the search stops as soon as it has proved the mate.
        depth: Some(30),
        nodes: Some(50_000_000),
        ..Limits::default()
    };
    let r = search(p, limits);
    assert_legal_result(p, &r);
    assert_eq!(r.score, Score::Mate(n as i32), "{p:?}: pv {:?}", uci(p, &r.pv));
    assert!(
        forces_mate(p, r.best, n),
        "{p:?}: {} does not mate in {n}",
        p.uci(r.best)
    );
    if n == 1 {
        assert!(
            matches!(p.after(r.best).outcome(), Some(Outcome::Checkmate { winner }) if winner == p.turn()),
            "{p:?}: {} is not mate",
            p.uci(r.best)
        );
    }
    // The mating side's line ends in mate.
    if r.pv.len() == 2 * n as usize - 1 {
        let mut q = p.clone();
        for &m in &r.pv {
            q.play_unchecked(m);
        }
        assert!(
            matches!(q.outcome(), Some(Outcome::Checkmate { .. })),
            "{p:?}: pv {:?}",
            uci(p, &r.pv)
        );
    }
}

/// The defender of a mate in `n` (after the first mating move) sees itself mated.
fn assert_defender_sees_mate(p: &Position, first: &str, n: u32) {
    let after = p.after(p.parse_uci(first).unwrap());
    let r = search(&after, depth(2 * n + 8));
    assert_legal_result(&after, &r);
    assert_eq!(
        r.score,
        Score::Mate(-(n as i32 - 1)),
        "{after:?}: pv {:?}",
        uci(&after, &r.pv)
    );
}

// ---- Celtic Citadel ---------------------------------------------------------------------------------

/// The citadel corner mate: a king in its own citadel has a single exit square, so a bishop on
/// the long diagonal mates it (rules document, "Insufficient material").
#[test]
fn celtic_mate_in_one_in_the_citadel() {
    let p = white(Variant::CelticCitadel, "Kf2 Bg3 ka11 pi9 pj9");
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(search(&p, depth(1)).best), "g3h4", "found at depth 1");
}

/// 1.Re10+ drives the king into its citadel (its only square), 2.F(d8)b9# or Fc10#: the
/// fortress's knight jump checks the citadel.
#[test]
fn celtic_mate_in_two_with_the_fortress() {
    let p = white(Variant::CelticCitadel, "Kf2 Re4 Fd8 kb10 pb9 pc9");
    assert_finds_mate(&p, 2);
    assert_defender_sees_mate(&p, "e4e10", 2);
}

/// King, fortress and knight against a lone king sitting in its citadel.
#[test]
fn celtic_mate_in_three_against_the_citadel() {
    let p = white(Variant::CelticCitadel, "Kh2 Ff6 Nd9 ka11");
    assert_finds_mate(&p, 3);
}

// ---- Persian Princess ---------------------------------------------------------------------------------

/// Qh5# works only because no king may enter f6 in the Princess (and the Eye); in Celtic
/// Citadel and Oriental Omega the king escapes to f6.
#[test]
fn princess_mate_in_one_thanks_to_the_centre_square() {
    let pieces = "Kc2 Qh2 Pd5 kf7 be7 bg7 pf8 pg8";
    let p = white(Variant::PersianPrincess, pieces);
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(search(&p, depth(3)).best), "h2h5");
    assert!(mate_within(&white(Variant::EgyptianEye, pieces), 1).is_some());
    for v in [Variant::CelticCitadel, Variant::OrientalOmega] {
        let q = white(v, pieces);
        assert!(mate_within(&q, 1).is_none(), "{v}");
        assert!(!matches!(search(&q, depth(4)).score, Score::Mate(1)), "{v}");
    }
}

/// The princess lands on f6, where only a pawn or a princess may capture her: the king next to
/// her cannot take. In Celtic Citadel Kxf6 is legal and there is no mate.
#[test]
fn princess_mate_in_one_on_the_centre_square() {
    let pieces = "Kc2 Se4 kg7 pf7 pf8 pg6 ph6";
    let p = white(Variant::PersianPrincess, pieces);
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(search(&p, depth(3)).best), "e4f6");
    assert!(mate_within(&white(Variant::CelticCitadel, pieces), 3).is_none());
}

#[test]
fn princess_mate_in_two() {
    let pieces = "Kc6 Sh6 Rc10 ke7 pj5";
    let p = white(Variant::PersianPrincess, pieces);
    assert_finds_mate(&p, 2);
    // The centre-square rule is what makes it a mate in two.
    assert!(mate_within(&white(Variant::CelticCitadel, pieces), 2).is_none());
}

#[test]
fn princess_mate_in_three() {
    let pieces = "Kj6 Sh9 Rd4 kg6 pb4";
    let p = white(Variant::PersianPrincess, pieces);
    assert_finds_mate(&p, 3);
    assert!(mate_within(&white(Variant::CelticCitadel, pieces), 3).is_none());
}

// ---- Egyptian Eye -----------------------------------------------------------------------------------

/// Rb4-i4#: j10 and i9 are Eye squares, so the king cannot flee there. In Persian Princess the
/// king escapes to j10.
#[test]
fn eye_mate_in_one_thanks_to_the_eye() {
    let pieces = "Kc2 Rb4 ki10 rh10 ph9 pj9";
    let p = white(Variant::EgyptianEye, pieces);
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(search(&p, depth(1)).best), "b4i4");
    let q = white(Variant::PersianPrincess, pieces);
    assert!(mate_within(&q, 2).is_none());
    assert!(!matches!(search(&q, depth(5)).score, Score::Mate(_)));
}

#[test]
fn eye_mate_in_two() {
    let pieces = "Ke10 Qf8 ki10 ph9 pd8";
    let p = white(Variant::EgyptianEye, pieces);
    assert_finds_mate(&p, 2);
    assert!(mate_within(&white(Variant::PersianPrincess, pieces), 2).is_none());
}

/// 1.Rh3! leaves the king no square (h10, h9 on the rook's file, i9 and j10 Eye squares, j9 next
/// to the white king), then a waiting bishop move and Rh10#.
#[test]
fn eye_mate_in_three() {
    let pieces = "Kj8 Re3 Be9 ki10 pc7";
    let p = white(Variant::EgyptianEye, pieces);
    assert_finds_mate(&p, 3);
    assert!(mate_within(&white(Variant::PersianPrincess, pieces), 3).is_none());
}

/// The official Egyptian Eye diagram: White is checkmated, because the king may not take the
/// queen on j2, an Eye square. In Persian Princess the same position is only check.
#[test]
fn eye_official_checkmate_is_scored_as_mated() {
    let fen = "11/5k1r3/2p5p2/1pQ6p1/7p3/6p4/3r2P1N2/2Q4NPP1/7P1K1/9q1/11 w - - 0 1";
    let p = Position::from_fen(Variant::EgyptianEye, fen).unwrap();
    let r = search(&p, depth(4));
    assert!(r.best.is_null());
    assert_eq!(r.score, Score::Mate(0));
    let q = Position::from_fen(Variant::PersianPrincess, fen).unwrap();
    let r = search(&q, depth(4));
    assert_legal_result(&q, &r);
    assert_eq!(q.uci(r.best), "j3j2");
}

// ---- Oriental Omega -----------------------------------------------------------------------------------

/// The champion's (0,2) leap to f8 checks f10 over the pawn-free f9, which it also guards.
#[test]
fn omega_mate_in_one_with_the_champion() {
    let p = white(Variant::OrientalOmega, "Kc2 Ch6 kf10 be10 bg10 re9 rg9");
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(search(&p, depth(1)).best), "h6f8");
}

#[test]
fn omega_mate_in_two_with_wizard_and_champion() {
    let p = white(Variant::OrientalOmega, "Kc6 Wd8 Cd5 kb8 ph9");
    assert_finds_mate(&p, 2);
    assert_defender_sees_mate(&p, p.uci(mate_within(&p, 2).unwrap()).as_str(), 2);
}

#[test]
fn omega_mate_in_three_with_wizard_and_champion() {
    let p = white(Variant::OrientalOmega, "Ke2 We6 Cb6 kb10 pi9");
    assert_finds_mate(&p, 3);
}

/// Black mates too: the Omega mate in one with colours swapped.
#[test]
fn black_mates_as_well() {
    let p = mirrored(Variant::OrientalOmega, "Kc2 Ch6 kf10 be10 bg10 re9 rg9", Color::White);
    assert_eq!(p.turn(), Color::Black);
    assert_finds_mate(&p, 1);
    let p = mirrored(Variant::CelticCitadel, "Kf2 Re4 Fd8 kb10 pb9 pc9", Color::White);
    assert_finds_mate(&p, 2);
}

// ---- Parsi Chess ----------------------------------------------------------------------------------

/// Parsi positions keep a man beside the defending king: a bare king draws at once.
fn parsi(fen: &str) -> Position {
    Position::from_fen(Variant::Parsi, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn parsi_back_rank_mate_in_one() {
    let p = parsi("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(mate_within(&p, 1).unwrap()), "a1a8");
}

#[test]
fn parsi_two_rook_mate_in_two() {
    let p = parsi("4k3/p7/P7/8/8/8/1R6/4K2R w - - 0 1");
    assert_finds_mate(&p, 2);
    assert_defender_sees_mate(&p, "h1h7", 2);
}

/// The king's leap is an escape: with Black's leap right, Ra8+ no longer mates.
#[test]
fn parsi_the_leap_escapes_the_back_rank_mate() {
    let p = parsi("6k1/5ppp/8/8/8/8/8/R5K1 w - l 0 1");
    assert!(mate_within(&p, 1).is_none());
    let after = p.after(p.parse_uci("a1a8").unwrap());
    assert!(after.in_check() && after.legal_moves().iter().any(|&m| after.uci(m) == "g8e7"));
    let r = search(&p, depth(6));
    assert_legal_result(&p, &r);
    assert_ne!(r.score, Score::Mate(1));
}

/// Parsi's perpetual-check ban in the search: a move the ban forbids in the game is not played,
/// even when the hash table names it as the best move of the bare position (where it is legal).
/// White, lost against the queen, has only the knight's checks; in the game after the moves
/// below a third Nf7+ by checks alone is forbidden.
#[test]
fn parsi_a_table_move_the_game_forbids_is_not_played() {
    let bare = parsi("5b1k/4p1pp/4P2N/8/8/1q6/8/K7 w - - 8 5");
    let check = bare.parse_uci("h6f7").unwrap();
    let moves: Vec<String> = "g5f7 h8g8 f7h6 g8h8 h6f7 h8g8 f7h6 g8h8"
        .split(' ')
        .map(String::from)
        .collect();
    let (start, moves) = parse_game(Variant::Parsi, Some("5b1k/4p1pp/4P3/6N1/8/1q6/8/K7 w - - 0 1"), &moves).unwrap();
    let mut engine = Engine::new();
    engine.set_game(start.clone(), &moves).unwrap();
    assert_eq!(engine.position().hash(), bare.hash());
    let allowed = engine.position().legal_moves_with_history(engine.history());
    assert!(!allowed.contains(check), "the ban forbids Nf7+ in the game");
    assert!(bare.legal_moves().contains(check), "the bare position allows it");
    assert!(bare.is_legal_move(check));
    assert!(!engine.position().is_legal_move_with_history(check, engine.history()));
    for &m in allowed.iter() {
        assert!(engine.position().is_legal_move_with_history(m, engine.history()));
    }

    // The bare position's search stores Nf7+ as the table move of the position.
    engine.set_game(bare.clone(), &[]).unwrap();
    let r = engine.search(
        Limits {
            depth: Some(6),
            searchmoves: vec![check],
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.best, check);
    // The game's search at every depth plays a move the game allows, found by the search: its
    // line starts with it (a forbidden move found best would be replaced by the first legal
    // move, with the forbidden move's line and score).
    for d in 1..=6 {
        engine.set_game(start.clone(), &moves).unwrap();
        let r = engine.search(depth(d), &mut |_| {});
        assert!(
            allowed.contains(r.best),
            "depth {d}: {} is forbidden in the game",
            bare.uci(r.best)
        );
        assert_eq!(r.pv.first(), Some(&r.best), "depth {d}: {r:?}");
    }
}

// ---- the citadel draw ----------------------------------------------------------------------------------

/// White's lone king, in check from the c10 rook (i10 on the rook's rank, i9 covered by the
/// knight), either steps into Black's citadel k11, a draw on the spot, or to j9, cut off from the
/// citadel for good by the rook on the 10th rank, against queen, rook and knight.
const CITADEL_ESCAPE: &str = "Kj10 kd3 rc10 ng8 qd5";

#[test]
fn entering_the_opponents_citadel_saves_the_lost_game() {
    for v in [Variant::CelticCitadel, Variant::PersianPrincess, Variant::OrientalOmega] {
        for p in [white(v, CITADEL_ESCAPE), mirrored(v, CITADEL_ESCAPE, Color::White)] {
            let r = search(&p, depth(8));
            assert_legal_result(&p, &r);
            let citadel = if p.turn() == Color::White { "j10k11" } else { "j2k1" };
            assert_eq!(p.uci(r.best), citadel, "{v} {p:?}");
            assert_eq!(r.score, Score::Cp(0), "{v} {p:?}");
            assert_eq!(p.after(r.best).outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
            // Every other move loses.
            let others: Vec<Move> = p.legal_moves().iter().copied().filter(|&m| m != r.best).collect();
            assert!(!others.is_empty());
            let r = search(
                &p,
                Limits {
                    depth: Some(8),
                    searchmoves: others,
                    ..Limits::default()
                },
            );
            match r.score {
                Score::Cp(cp) => assert!(cp < -200, "{v} {p:?}: {cp}"),
                Score::Mate(m) => assert!(m < 0, "{v} {p:?}: mate {m}"),
            }
        }
    }
}

/// The citadel draw wins over everything: even a side that mates at will scores the king's
/// step into the enemy citadel as 0, and does not play it.
#[test]
fn the_citadel_draw_is_scored_zero_even_when_winning() {
    for v in [Variant::CelticCitadel, Variant::PersianPrincess, Variant::OrientalOmega] {
        let p = white(v, "Kj10 Qe2 Rb4 kd6");
        let citadel = p.parse_uci("j10k11").unwrap();
        let r = search(
            &p,
            Limits {
                depth: Some(6),
                searchmoves: vec![citadel],
                ..Limits::default()
            },
        );
        assert_eq!(r.best, citadel);
        assert_eq!(r.score, Score::Cp(0), "{v}");
        let r = search(&p, depth(6));
        assert_ne!(r.best, citadel, "{v}");
        match r.score {
            Score::Cp(cp) => assert!(cp > 500, "{v}: {cp}"),
            Score::Mate(m) => assert!(m > 0, "{v}: mate {m}"),
        }
    }
}

// ---- stalemate ------------------------------------------------------------------------------------------

#[test]
fn stalemate_at_the_root_is_a_draw_without_a_move() {
    // The black king in its citadel: its only exit b10 is covered by the knight.
    for v in [Variant::CelticCitadel, Variant::PersianPrincess, Variant::OrientalOmega] {
        let p = black(v, "Kf2 Nc8 Pc3 ka11");
        assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
        let r = search(&p, depth(5));
        assert!(r.best.is_null(), "{v}");
        assert_eq!(r.score, Score::Cp(0), "{v}");
    }
}

/// Qb7 would stalemate the king in its citadel; Qc9 mates. The stalemating move scores 0.
#[test]
fn a_stalemating_move_scores_zero_and_is_avoided() {
    for v in [Variant::CelticCitadel, Variant::PersianPrincess, Variant::OrientalOmega] {
        let p = white(v, "Kf2 Qc7 ka11");
        let stalemate = p.parse_uci("c7b7").unwrap();
        assert_eq!(p.after(stalemate).outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
        let r = search(
            &p,
            Limits {
                depth: Some(5),
                searchmoves: vec![stalemate],
                ..Limits::default()
            },
        );
        assert_eq!(r.score, Score::Cp(0), "{v}");
        assert_finds_mate(&p, 1);
    }
}

/// Black is lost, but the desperado rook check Rj3+ must be taken (by king or fortress), and
/// then the black king, alone in its citadel with b10 covered, is stalemated.
#[test]
fn the_losing_side_finds_the_stalemate() {
    for v in [Variant::CelticCitadel, Variant::PersianPrincess] {
        let p = black(v, "Kj2 Ni2 Fk1 Nc8 Qe6 ka11 rd3");
        let r = search(&p, depth(8));
        assert_legal_result(&p, &r);
        assert_eq!(p.uci(r.best), "d3j3", "{v}");
        assert_eq!(r.score, Score::Cp(0), "{v}");
        let after = p.after(r.best);
        for &reply in after.legal_moves().iter() {
            assert_eq!(
                after.after(reply).outcome(),
                Some(Outcome::Draw(DrawReason::Stalemate)),
                "{v}: {}",
                after.uci(reply)
            );
        }
        let others: Vec<Move> = p.legal_moves().iter().copied().filter(|&m| m != r.best).collect();
        let r = search(
            &p,
            Limits {
                depth: Some(8),
                searchmoves: others,
                ..Limits::default()
            },
        );
        match r.score {
            Score::Cp(cp) => assert!(cp < -500, "{v}: {cp}"),
            Score::Mate(m) => assert!(m < 0, "{v}: mate {m}"),
        }
    }
}

// ---- reproducibility and limits --------------------------------------------------------------------------

fn fingerprint(r: &SearchResult) -> (Move, Option<Move>, Score, u32, u64, Vec<Move>) {
    (r.best, r.ponder, r.score, r.depth, r.nodes, r.pv.clone())
}

#[test]
fn fixed_node_searches_are_reproducible() {
    for v in Variant::PERSIAN {
        let mut e = Engine::new();
        e.set_variant(v);
        play_text(&mut e, &["e3e5", "e9e7"]);
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        e.new_game();
        let first = e.search(limits.clone(), &mut |_| {});
        e.new_game();
        let second = e.search(limits.clone(), &mut |_| {});
        assert_eq!(fingerprint(&first), fingerprint(&second), "{v}");
        assert_legal_result(e.position(), &first);
        // A fresh engine and a bare searcher agree.
        let mut fresh = Engine::new();
        fresh.set_variant(v);
        play_text(&mut fresh, &["e3e5", "e9e7"]);
        let third = fresh.search(limits.clone(), &mut |_| {});
        assert_eq!(fingerprint(&first), fingerprint(&third), "{v}");
        let tt = Arc::new(TranspositionTable::new(16));
        let mut s = Searcher::new(tt, Arc::new(AtomicBool::new(false)));
        // The searcher evaluates as the engine does (its embedded net, if the build has one).
        s.set_nnue(e.net().cloned());
        let fourth = s.search(e.position(), e.history(), limits, &mut |_| {});
        assert_eq!(fingerprint(&first), fingerprint(&fourth), "{v}");
    }
}

/// Singular extensions (on by default from depth 6; `se_depth=64` switches them off) change the
/// search, and its results stay legal and reproducible in every variant; two of this file's
/// Celtic mates (in 2 and in 3) are still found exactly with them, also from depth 4 and with
/// the table move's reduction (`se_neg`).
#[test]
fn singular_extensions() {
    let off = SearchParams::parse("se_depth=64").unwrap();
    assert_params_change_search(&off, &SearchParams::default(), 0x51e6_0000);
    assert_params_find_mates(&SearchParams::default());
    assert_params_find_mates(&SearchParams::parse("se_depth=4").unwrap());
    assert_params_find_mates(&SearchParams::parse("se_depth=4;se_neg=1").unwrap());
}

/// The candidates behind parameters that are off by default (double singular extensions,
/// `se_double`; the first move of an all node searched as a cut node, `cut_child`; less
/// reduction at nodes the table marks as having been on a principal variation, `tt_pv`; a
/// re-search after a reduction a ply deeper or shallower by its score, `lmr_deeper`; reductions
/// from the second move, `lmr_after=1`; no check extension, `check_ext=0`, or only for checks
/// that lose no material, `check_ext=2`; reductions of losing captures, `lmr_bad_captures`;
/// history pruning of shallow quiet moves, `hist_prune`; capture history in the ordering of
/// captures, `cap_hist`; history for a quiet best move at an exact node, `hist_exact`; a bonus
/// for the quiet move into a node where no move reached alpha, `prior_bonus`; quiet moves
/// ordered by the enemy pawns' attacks on their cells, `quiet_threat`; futility pruning of
/// captures, `cap_fut`; the reductions of killers and countermoves by their history,
/// `ref_hist`; the continuation history of our move four plies before, `cont_ply4`; the
/// correction history's continuation table, `corr_cont`; the pawn history in the ordering of
/// quiet moves, `pawn_hist`; more reduction of quiet moves after a tactical table move,
/// `tt_cap_r`; history for the opponent's quiet move by the evaluations before and after it,
/// `eval_hist`; the siblings' cutoff count in the reductions, `cut_cnt`; shallower later moves
/// after alpha is raised, `alpha_red`; the cut node's extra reduction, `cut_r`, raised and
/// lowered; no table move from a node that failed low, `fl_move`; late-move reductions and
/// pruning counting pruned moves, `lmr_count`; the fail-soft score raised by what pruning
/// skipped, `fs_prune`; the table move first in quiescence, `qs_tt`; the table's bound as
/// quiescence's stand pat, `qs_tt_eval`, and as the main search's pruning evaluation,
/// `tt_eval`; table cutoffs updating the
/// history, `tt_hist`; the quiets before a cutoff losing more history than the cutoff move gains,
/// `hist_malus`; the net's evaluation scaled by the 50-move clock, `net_r50`, and by a percent,
/// `net_scale`, in the games with a net) change the search when switched on,
/// and its results stay legal and reproducible; the Celtic mates are still found exactly. The
/// continuation history in the ordering of quiet moves (`cont_hist`), the correction history
/// of the static evaluation (`corr_hist`) and the history bonus linear in the depth
/// (`hist_lin`), all on by default, are checked the other way: switched off.
#[test]
fn candidates_behind_parameters() {
    for (text, seed) in [
        ("se_double=20", 0xd0b1_0000),
        ("se_depth=4;se_double=1", 0xd0b2_0000),
        ("cut_child=1", 0xc07c_0000),
        ("tt_pv=1", 0x77b0_0000),
        ("lmr_deeper=50", 0xdee9_0000),
        ("lmr_after=1", 0xaf7e_0000),
        ("check_ext=0", 0xce00_0000),
        ("check_ext=2", 0xce02_0000),
        ("lmr_bad_captures=1", 0xbadc_0000),
        ("hist_prune=100", 0x4157_0000),
        ("cap_hist=16", 0xcab1_0000),
        ("hist_exact=1", 0xe8ac_0000),
        ("prior_bonus=100", 0x9b10_0000),
        ("quiet_threat=8000", 0x7e8a_0000),
        ("cap_fut=150", 0xcaf0_0000),
        ("ref_hist=1", 0x4ef4_0000),
        ("cont_hist=0", 0xc047_0000),
        ("cont_ply4=100", 0xc044_0000),
        ("corr_hist=0", 0xc0ee_0000),
        ("corr_cont=100", 0xc0cc_0000),
        ("pawn_hist=100", 0x9a40_0000),
        ("tt_cap_r=1", 0x77ca_0000),
        ("eval_hist=50", 0xe4a1_0000),
        ("cut_cnt=1", 0xc0c1_0000),
        ("alpha_red=1", 0xa14e_0000),
        ("cut_r=2", 0xc072_0000),
        ("cut_r=0", 0xc070_0000),
        ("fl_move=1", 0xf170_0000),
        ("lmr_count=1", 0x1c07_0000),
        ("fs_prune=1", 0xf59e_0000),
        ("qs_tt=1", 0x9577_0000),
        ("qs_tt_eval=1", 0x97e0_0000),
        ("tt_eval=1", 0x77e0_0000),
        ("tt_hist=1", 0x7781_0000),
        ("hist_lin=0", 0x4171_0000),
        ("hist_malus=150", 0x4a15_0000),
        ("net_r50=200", 0x4e50_0000),
        ("net_scale=50", 0x4e5c_0000),
    ] {
        let on = SearchParams::parse(text).unwrap();
        assert_params_change_search(&SearchParams::default(), &on, seed);
        assert_params_find_mates(&on);
    }
}

/// `net_r50` and `net_scale` scale only a net's evaluation: with the hand-crafted one the search
/// is node for node the same.
#[test]
fn net_r50_leaves_the_hand_crafted_evaluation_alone() {
    for (on, seed) in [("net_r50=200", 0x4e51_0000), ("net_scale=50", 0x4e5d_0000)] {
        net_scaling_leaves_the_hand_crafted_evaluation_alone(&SearchParams::parse(on).unwrap(), seed);
    }
}

fn net_scaling_leaves_the_hand_crafted_evaluation_alone(on: &SearchParams, seed: u64) {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        for p in random_positions(v, 2, seed + i as u64) {
            if !p.has_legal_move() {
                continue;
            }
            let run = |params: &SearchParams| {
                let mut e = engine_on(&p);
                e.set_eval(engine::engine::EvalSource::HandCrafted).unwrap();
                e.set_search_params(params.clone());
                fingerprint(&e.search(depth(6), &mut |_| {}))
            };
            assert_eq!(run(&SearchParams::default()), run(on), "{p:?}");
        }
    }
}

/// With `partial=1` a search stopped by its node limit may play a move its last, incomplete
/// iteration found: the result stays legal and reproducible, its principal variation starts
/// with its move, and some searches end with another move or line than without it. Searches to
/// a depth (no limit stops them) are node for node the same.
#[test]
fn partial_iterations_behind_a_parameter() {
    let on = SearchParams::parse("partial=1").unwrap();
    let mut changed = 0;
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        for p in random_positions(v, 6, 0x9a27_0000 + i as u64) {
            if !p.has_legal_move() {
                continue;
            }
            // A partial iteration decides only when a limit stops the search right after it
            // found a new best move: several limits give it more chances.
            for nodes in [8_000, 15_000, 25_000] {
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let before = engine_on(&p).search(limits.clone(), &mut |_| {});
                let mut e = engine_on(&p);
                e.set_search_params(on.clone());
                let first = e.search(limits.clone(), &mut |_| {});
                assert_legal_result(&p, &first);
                e.new_game();
                let second = e.search(limits.clone(), &mut |_| {});
                assert_eq!(fingerprint(&first), fingerprint(&second), "{p:?}");
                assert!(
                    first.depth >= before.depth,
                    "{p:?}: a partial iteration lowers the depth"
                );
                changed += usize::from((first.best, &first.pv) != (before.best, &before.pv));
            }
            let mut base = engine_on(&p);
            let mut e = engine_on(&p);
            e.set_search_params(on.clone());
            assert_eq!(
                fingerprint(&e.search(depth(6), &mut |_| {})),
                fingerprint(&base.search(depth(6), &mut |_| {})),
                "{p:?}"
            );
        }
    }
    assert!(changed > 0, "partial=1 changed no search");
}

/// Searches random positions of every variant to depth 8 with `base` and with `other`: the
/// results with `other` are legal and the same again after `ucinewgame`, and at least one search
/// differs from `base`'s.
fn assert_params_change_search(base: &SearchParams, other: &SearchParams, seed: u64) {
    let mut changed = 0;
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        for p in random_positions(v, 3, seed + i as u64) {
            if !p.has_legal_move() {
                continue;
            }
            let mut base_engine = engine_on(&p);
            base_engine.set_search_params(base.clone());
            let before = base_engine.search(depth(8), &mut |_| {});
            let mut e = engine_on(&p);
            e.set_search_params(other.clone());
            let first = e.search(depth(8), &mut |_| {});
            assert_legal_result(&p, &first);
            e.new_game();
            let second = e.search(depth(8), &mut |_| {});
            assert_eq!(fingerprint(&first), fingerprint(&second), "{other}: {p:?}");
            changed += usize::from(first.nodes != before.nodes);
        }
    }
    assert!(changed > 0, "{other} (against {base}) changed no search");
}

/// Two of this file's Celtic mates (in 2 and in 3) are found exactly with `params`.
fn assert_params_find_mates(params: &SearchParams) {
    for (pieces, n) in [("Kf2 Re4 Fd8 kb10 pb9 pc9", 2), ("Kh2 Ff6 Nd9 ka11", 3)] {
        let p = white(Variant::CelticCitadel, pieces);
        let mut e = engine_on(&p);
        e.set_search_params(params.clone());
        let limits = Limits {
            mate: Some(n),
            depth: Some(30),
            nodes: Some(50_000_000),
            ..Limits::default()
        };
        let r = e.search(limits, &mut |_| {});
        assert_legal_result(&p, &r);
        assert_eq!(
            r.score,
            Score::Mate(n as i32),
            "{params}: {p:?}: pv {:?}",
            uci(&p, &r.pv)
        );
        assert!(
            forces_mate(&p, r.best, n),
            "{params}: {p:?}: {} does not mate in {n}",
            p.uci(r.best)
        );
    }
}

#[test]
fn node_limit_is_respected() {
    for limit in [1u64, 1_000, 30_000] {
        let mut e = Engine::new();
        play_text(&mut e, &["e3e5"]);
        let mut reported = 0;
        let r = e.search(
            Limits {
                nodes: Some(limit),
                ..Limits::default()
            },
            &mut |info| reported = reported.max(info.nodes),
        );
        assert_legal_result(e.position(), &r);
        // The limit is checked every 1024 nodes.
        assert!(r.nodes <= limit + 2048, "{limit}: {}", r.nodes);
        assert!(reported <= limit + 2048, "{limit}: reported {reported}");
    }
}

#[test]
fn depth_limit_is_respected_and_reported() {
    let mut e = Engine::new();
    let mut depths = Vec::new();
    let r = e.search(depth(5), &mut |info| depths.push(info.depth));
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
    assert_legal_result(e.position(), &r);
}

// ---- random positions ----------------------------------------------------------------------------------

use engine::rng::SplitMix64 as Rng;

/// Positions reached by random playouts of random length from the start position.
fn random_positions(v: Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut p = Position::startpos(v);
            let plies = rng.below(160);
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() || p.outcome().is_some() {
                    break;
                }
                p.play_unchecked(moves.as_slice()[rng.below(moves.len())]);
            }
            p
        })
        .collect()
}

#[test]
fn best_moves_are_legal_in_random_positions() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let mut e = Engine::new();
        e.set_variant(v);
        for p in random_positions(v, 100, 0x5eed_0000 + i as u64) {
            e.set_game(p.clone(), &[]).unwrap_or_else(|err| panic!("{p:?}: {err}"));
            let r = e.search(depth(3), &mut |_| {});
            assert_legal_result(&p, &r);
            if !p.has_legal_move() {
                let expected = if p.in_check() { Score::Mate(0) } else { Score::Cp(0) };
                assert_eq!(r.score, expected, "{p:?}");
            }
        }
    }
}

#[test]
fn multipv_lines_are_legal_and_distinct_in_random_positions() {
    for (i, v) in Variant::PERSIAN.into_iter().enumerate() {
        let mut e = Engine::new();
        e.set_variant(v);
        e.set_multipv(3);
        for p in random_positions(v, 20, 0xabc0 + i as u64) {
            e.set_game(p.clone(), &[]).unwrap();
            let mut last: Vec<(usize, Vec<Move>)> = Vec::new();
            let mut last_depth = 0;
            let r = e.search(depth(3), &mut |info| {
                if info.depth != last_depth {
                    last.clear();
                    last_depth = info.depth;
                }
                last.push((info.multipv, info.pv.clone()));
            });
            assert_legal_result(&p, &r);
            let expected = p.legal_moves().len().min(3);
            assert_eq!(last.len(), expected, "{p:?}");
            let mut firsts: Vec<Move> = last.iter().map(|(_, pv)| pv[0]).collect();
            for (k, (index, pv)) in last.iter().enumerate() {
                assert_eq!(*index, k + 1);
                let mut q = p.clone();
                for &m in pv {
                    assert!(q.legal_moves().contains(m), "{p:?}");
                    q.play_unchecked(m);
                }
            }
            firsts.sort_by_key(|m| format!("{m:?}"));
            firsts.dedup();
            assert_eq!(firsts.len(), expected, "{p:?}: the same first move twice");
        }
    }
}

// ---- known weakness -------------------------------------------------------------------------------------

/// Known search weakness (engine/src/search/mod.rs, not fixed here): `go mate n` searches to
/// depth 2n+1 (uci/session.rs), which a full-width search needs, but the pruning (late-move
/// reductions together with reverse futility, null move, futility and late-move pruning) hides
/// these quiet mates much longer: the mates in three are first reported at depths 14 to 18 (the
/// Eye one as a mate in 4 from depth 12 to 17), the Princess mate in two at depth 8. With all
/// five pruning methods off, each is found at depth 2n+1.
#[test]
#[ignore = "search weakness: quiet forced mates need far more than depth 2n+1 (see the comment)"]
fn mates_are_found_at_the_depth_go_mate_uses() {
    let cases = [
        (Variant::CelticCitadel, "Kh2 Ff6 Nd9 ka11", 3),
        (Variant::PersianPrincess, "Kc6 Sh6 Rc10 ke7 pj5", 2),
        (Variant::PersianPrincess, "Kj6 Sh9 Rd4 kg6 pb4", 3),
        (Variant::EgyptianEye, "Kj8 Re3 Be9 ki10 pc7", 3),
    ];
    let mut failures = Vec::new();
    for (v, pieces, n) in cases {
        let p = white(v, pieces);
        assert_exact_mate(&p, n);
        let r = search(
            &p,
            Limits {
                mate: Some(n),
                depth: Some(2 * n + 1),
                ..Limits::default()
            },
        );
        if r.score != Score::Mate(n as i32) {
            failures.push(format!("{v} {pieces}: mate in {n}, found {:?}", r.score));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ---- Citadel ---------------------------------------------------------------------------------------

fn citadel(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The White Tiger-Rider mates from a distance: e1-f2 and up the f-file to f7, from where its
/// bent line e8-d8-c8-b8-a8 checks the corner and the prince covers the rest.
#[test]
fn citadel_tiger_rider_mate_in_one() {
    let p = citadel(Variant::Citadel8, "k8/9/1K7/9/9/9/9/4X4 w - - YQyq 0 1");
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(search(&p, depth(1)).best), "e1f7");
}

/// The elder prince steps off the Tiger-Rider's long diagonal with a discovered check, then the
/// rider mates.
#[test]
fn citadel_mate_in_two_by_a_discovered_check() {
    let p = citadel(Variant::Citadel8, "k8/9/2K6/9/9/9/9/7X1 w - - YQyq 0 1");
    assert_finds_mate(&p, 2);
}

/// The Green Gem: taking one of White's two High Princes leaves the other royal, and mated.
#[test]
fn citadel_green_gem_mate_in_one() {
    let p = citadel(Variant::Citadel8, "4k3r/9/9/9/9/9/7r1/K7Y b - - Qyq 0 1");
    assert_finds_mate(&p, 1);
    assert_eq!(p.uci(search(&p, depth(1)).best), "i8i1");
}
