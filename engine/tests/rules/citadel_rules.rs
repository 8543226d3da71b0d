//! Nicholls' Citadel on both boards, as a whole: the Tiger-Riders' exact moves (B.5), en passant
//! over long steps, the start positions with their alternatives (B.3, B.11), releases under the
//! princes' rules, the Green Gem, and pins along a bent ride to a Prince-Royal. The perft suites
//! in data/perft hold the counts; this file says why they are right. The releases and promotion
//! by file (B.6) and the princes' royalty (B.7, B.8) have their own tests beside the rules, at
//! the end of `special/releases.rs` and `special/prince_royalty.rs`.

#![allow(clippy::unwrap_used)]

use engine::rules::{
    geometry::Square, perft::perft, reference, variants::citadel_common::ALTERNATIVE_SETUPS, Color, FenError, Move,
    MoveKind, Outcome, PieceKind, Position, PositionError, Variant,
};

const C8: Variant = Variant::Citadel8;
const C9: Variant = Variant::Citadel9;

fn fen(v: Variant, text: &str) -> Position {
    Position::from_fen(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(pos: &Position, name: &str) -> Square {
    pos.tables().geometry.parse_square(name).unwrap()
}

fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let from = sq(pos, from);
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(|&m| pos.uci(m))
        .collect();
    v.sort();
    v
}

fn play(pos: &Position, uci: &str) -> Position {
    let mut p = pos.clone();
    p.play_uci(uci)
        .unwrap_or_else(|e| panic!("{uci} in {}: {e}", pos.fen()));
    p
}

fn is_legal(pos: &Position, uci: &str) -> bool {
    pos.parse_uci(uci).is_ok()
}

/// The squares a Tiger-Rider on (`f`, `r`) reaches on an empty `w` x `h` board, walked as the
/// rules note says (B.5): a step in a prime direction (orthogonal for T, diagonal for X), then
/// from that square three rays: straight on, and the two turned 45 degrees outward.
fn empty_board_reach(w: i32, h: i32, f: i32, r: i32, orthogonal_first: bool) -> Vec<(i32, i32)> {
    let primes: [(i32, i32); 4] = if orthogonal_first {
        [(0, 1), (1, 0), (0, -1), (-1, 0)]
    } else {
        [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    };
    let on = |x: i32, y: i32| (0..w).contains(&x) && (0..h).contains(&y);
    let mut out = Vec::new();
    for (dx, dy) in primes {
        let (sx, sy) = (f + dx, r + dy);
        if !on(sx, sy) {
            continue;
        }
        out.push((sx, sy));
        let rays = if orthogonal_first {
            // d plus and minus the perpendicular.
            [(dx, dy), (dx + dy.abs(), dy + dx.abs()), (dx - dy.abs(), dy - dx.abs())]
        } else {
            [(dx, dy), (dx, 0), (0, dy)]
        };
        for (rx, ry) in rays {
            let (mut x, mut y) = (sx + rx, sy + ry);
            while on(x, y) {
                out.push((x, y));
                x += rx;
                y += ry;
            }
        }
    }
    out
}

/// The number of moves the engine gives a Tiger-Rider (`letter`, White's) on `at` of an
/// otherwise empty board of `v` (the two princes stand where the piece cannot reach), after
/// checking the walk of [`empty_board_reach`] against it square by square.
fn reach(v: Variant, letter: char, at: &str) -> usize {
    let g = v.tables().geometry;
    let (w, h) = (g.width as i32, g.height as i32);
    let target = g.parse_square(at).unwrap();
    let (tf, tr) = (g.file(target), g.rank(target));
    let walked = empty_board_reach(w, h, tf, tr, letter == 'T');
    let free: Vec<(i32, i32)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&c| c != (tf, tr) && !walked.contains(&c))
        .collect();
    let white = free[0];
    let blue = *free
        .iter()
        .find(|&&(x, y)| (x - white.0).abs() > 1 || (y - white.1).abs() > 1)
        .unwrap();
    let mut rows = vec![vec!['.'; w as usize]; h as usize];
    rows[tr as usize][tf as usize] = letter;
    rows[white.1 as usize][white.0 as usize] = 'K';
    rows[blue.1 as usize][blue.0 as usize] = 'k';
    let board: Vec<String> = rows
        .iter()
        .rev()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    let pos = fen(v, &format!("{} w - - - 0 1", board.join("/")));
    let mut engine: Vec<(i32, i32)> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == target)
        .map(|m| (g.file(m.to()), g.rank(m.to())))
        .collect();
    let slow = reference::legal_moves(&pos)
        .into_iter()
        .filter(|m| m.from() == target)
        .count();
    assert_eq!(
        engine.len(),
        slow,
        "{letter} on {at} of {v}: fast and reference generators"
    );
    engine.sort();
    let mut walked = walked;
    walked.sort();
    assert_eq!(
        engine, walked,
        "{letter} on {at} of {v}: the engine against the rules note's walk"
    );
    engine.len()
}

#[test]
fn tiger_riders_on_an_empty_board_reach_the_rules_note_counts() {
    // B.5's table: square, T and X on 9x9, T and X on 9x8 (the 9x8 edge-middle square is e1,
    // the 9x9 one a5 as well as e1).
    for (at, t9, x9, t8, x8) in [
        ("e5", 40, 40, 37, 36),
        ("e1", 30, 28, 29, 26),
        ("a1", 30, 22, 28, 20),
        ("b2", 30, 34, 28, 31),
    ] {
        let got = (
            reach(C9, 'T', at),
            reach(C9, 'X', at),
            reach(C8, 'T', at),
            reach(C8, 'X', at),
        );
        assert_eq!(got, (t9, x9, t8, x8), "{at}: T and X on 9x9, then on 9x8");
    }
    assert_eq!((reach(C9, 'T', "a5"), reach(C9, 'X', "a5")), (30, 28));
}

#[test]
fn a_blocked_spring_off_square_blocks_both_bends() {
    // B.5: T on e5 of an empty 9x9 board with a friendly piece on e6 has 30 moves; with an
    // enemy piece there, 31 (the capture).
    let own = fen(C9, "k8/9/9/4p4/4t4/9/9/9/8K b - - - 0 1");
    assert_eq!(moves_from(&own, "e5").len(), 30, "{:?}", moves_from(&own, "e5"));
    let enemy = fen(C9, "k8/9/9/4P4/4t4/9/9/9/8K b - - - 0 1");
    let m = moves_from(&enemy, "e5");
    assert_eq!(m.len(), 31, "{m:?}");
    assert!(m.contains(&"e5e6".to_string()));
    for beyond in ["e5e7", "e5d7", "e5f7", "e5c8", "e5g8"] {
        assert!(!m.contains(&beyond.to_string()), "{beyond} jumps the blocked e6");
    }
}

#[test]
fn start_positions_and_their_alternatives_give_the_rules_note_numbers() {
    for (v, d1, d2) in [(C8, 24, 576), (C9, 33, 1080)] {
        let start = Position::startpos(v);
        assert_eq!(start.fen(), v.spec().start_fen);
        assert_eq!((perft(&start, 1), perft(&start, 2)), (d1, d2), "{v}");
        // B.11: the numbers hold for the alternatives (b) and (c) too.
        for &(name, fen8, fen9) in ALTERNATIVE_SETUPS {
            let alt = fen(v, if v == C8 { fen8 } else { fen9 });
            assert_eq!((perft(&alt, 1), perft(&alt, 2)), (d1, d2), "{v} {name}");
        }
        // The alternatives are rule settings too, by name; the default is the registered one.
        for &(name, fen8, fen9) in ALTERNATIVE_SETUPS {
            for text in [
                format!("setup={name}"),
                name.to_string(),
                format!("default, setup={name}"),
            ] {
                let tables = v.tables_with(&text).unwrap();
                assert_eq!(tables.spec.start_fen, if v == C8 { fen8 } else { fen9 });
                assert_eq!(tables.rules.settings(), format!("setup={name}"));
                assert!(std::ptr::eq(tables, v.tables_with(tables.rules.settings()).unwrap()));
            }
        }
        for text in ["", "default", "setup=reconstructed", "setup=crossed,setup=default"] {
            assert!(std::ptr::eq(v.tables_with(text).unwrap(), v.tables()), "{text}");
        }
        let err = v.tables_with("setup=mirrored").unwrap_err().to_string();
        assert!(err.contains("setup=mirrored") && err.contains("setup=swapped"), "{err}");
        // The name says that the set-up is a reconstruction.
        assert!(v.spec().name.contains("reconstructed"), "{}", v.spec().name);
    }
    // 9 ranks: plainsmen step one, two or three squares; 8 ranks: one or two.
    let start9 = Position::startpos(C9);
    assert_eq!(moves_from(&start9, "e2"), ["e2e3", "e2e4", "e2e5"]);
    assert_eq!(moves_from(&Position::startpos(C8), "e2"), ["e2e3", "e2e4"]);
    // Each White triple step to rank 5 takes Blue's triple step on that file.
    let after = play(&start9, "e2e5");
    assert_eq!(moves_from(&after, "e8"), ["e8e6", "e8e7"]);
}

#[test]
fn en_passant_takes_on_every_square_a_long_step_passed() {
    // B.11: a White plainsman on d5, Blue plays e8-e5; d5xe6 is en passant, and a White
    // plainsman on f6 may take on e7 instead.
    let before = fen(C9, "4k4/4p4/9/5P3/3P5/9/9/9/4K4 b - - YQyq 0 1");
    let after = play(&before, "e8e5");
    assert_eq!(after.fen(), "4k4/9/9/5P3/3Pp4/9/9/9/4K4 w - e7,e6 YQyq 0 2");
    assert_eq!(fen(C9, &after.fen()), after);
    let ep: Vec<Move> = after
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .collect();
    let mut ep_uci: Vec<String> = ep.iter().map(|&m| after.uci(m)).collect();
    ep_uci.sort();
    assert_eq!(ep_uci, ["d5e6", "f6e7"]);
    let e5 = sq(&after, "e5");
    for uci in ["d5e6", "f6e7"] {
        let taken = play(&after, uci);
        assert_eq!(taken.piece_at(e5), None, "{uci} removes the plainsman on e5");
        assert_eq!(taken.pieces(Color::Black, PieceKind::Pawn).count(), 0);
        assert_eq!(taken.hash(), taken.compute_hash());
    }
    assert_eq!(after.san(ep[0]).chars().nth(1), Some('x'));
    // A double step on 9 ranks passes one square.
    let double = play(&before, "e8e6");
    assert_eq!(double.fen(), "4k4/9/9/4pP3/3P5/9/9/9/4K4 w - e7 YQyq 0 2");
    assert!(is_legal(&double, "f6e7"));
    // Not the next move.
    let later = play(&play(&after, "e1d1"), "e9d9");
    assert!(!is_legal(&later, "d5e6"));
}

#[test]
fn en_passant_fields_that_do_not_fit_the_board_are_refused() {
    let base = "4k4/9/9/5P3/3Pp4/9/9/9/4K4 w - {} YQyq 0 2";
    for bad in ["e6", "e7", "e6,e7,e8", "e7,e5", "d7,d6", "e7,e6,e6"] {
        let text = base.replace("{}", bad);
        match Position::from_fen(C9, &text) {
            Err(FenError::Position(PositionError::ImpossibleEnPassant { .. })) => {}
            other => panic!("{bad}: {other:?}"),
        }
    }
    // Listed in either order, the passed squares are read alike.
    let a = fen(C9, &base.replace("{}", "e7,e6"));
    let b = fen(C9, &base.replace("{}", "e6,e7"));
    assert_eq!(a, b);
    assert!(Position::from_fen(C9, &base.replace("{}", "e7,,e6")).is_err());
    // A hand-made setup with a square beyond the board is an error, not a panic.
    let mut setup = fen(C9, &base.replace("{}", "e7,e6")).to_setup();
    setup.ep.push(Square(200));
    assert!(matches!(
        Position::from_setup(C9, &setup),
        Err(PositionError::ImpossibleEnPassant { .. })
    ));
    assert!(Position::from_fen(C9, &base.replace("{}", "z9")).is_err());
}

#[test]
fn releases_obey_the_princes_rules() {
    // Next to an opposing prince: e8 touches Blue's prince on f7.
    let next_to = fen(C8, "9/4Pk3/9/9/9/9/9/4K4 w - - YQyq 0 1");
    assert!(!is_legal(&next_to, "e7e8y"));
    // The Commander has no adjacency limit: f8 touches Blue's prince on e7.
    let commander = fen(C8, "9/4kP3/9/9/9/9/9/4K4 w - - YQyq 0 1");
    assert!(is_legal(&commander, "f7f8q"));
    // Pinned to the Prince-Royal: royalty is judged before the move (B.8 step 3).
    let pinned = fen(C8, "9/K3P3r/9/9/9/9/9/8k w - - YQyq 0 1");
    assert!(!is_legal(&pinned, "e7e8y"));
    // In check: a release that blocks the check is legal, one that does not is not.
    let blocks = fen(C8, "K7r/4P4/9/9/9/9/9/8k w - - YQyq 0 1");
    assert!(blocks.in_check());
    assert!(is_legal(&blocks, "e7e8y"));
    let does_not = fen(C8, "K8/4P4/9/9/9/9/9/r7k w - - YQyq 0 1");
    assert!(does_not.in_check());
    assert!(!is_legal(&does_not, "e7e8y"));
}

#[test]
fn the_green_gem_is_a_mate_that_takes_one_of_two_high_princes() {
    use engine::rules::game::Game;
    // White's two High Princes on a1 and i1; Blue's War Machines on h2 and i8. i8xi1 takes the
    // younger prince and mates the elder, now the Prince-Royal: the Green Gem.
    let start = fen(C8, "4k3r/9/9/9/9/9/7r1/K7Y b - - Qyq 0 1");
    assert!(!start.in_check());
    let mut game = Game::new(start.clone());
    game.play(start.parse_uci("i8i1").unwrap());
    assert_eq!(game.outcome(), Some(Outcome::GreenGem { winner: Color::Black }));
    assert_eq!(game.outcome().map(Outcome::result), Some("0-1"));
    // The position alone does not know what the last move took: a checkmate.
    assert_eq!(
        game.position().outcome(),
        Some(Outcome::Checkmate { winner: Color::Black })
    );
    // The same mate against a lone Prince-Royal is an ordinary checkmate.
    let lone = fen(C8, "4k3r/9/9/9/9/9/7r1/K8 b - - Qyq 0 1");
    let mut game = Game::new(lone.clone());
    game.play(lone.parse_uci("i8i1").unwrap());
    assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
    // Taking a High Prince without mate ends nothing; the other is royal from then on.
    let escape = fen(C8, "4k3r/9/9/9/9/9/9/K7Y b - - Qyq 0 1");
    let mut game = Game::new(escape.clone());
    game.play(escape.parse_uci("i8i1").unwrap());
    assert_eq!(game.outcome(), None);
    assert!(game.position().in_check());
}

#[test]
fn a_piece_on_a_tiger_riders_bent_path_to_a_prince_royal_is_pinned() {
    // White's only prince (royal) on e1; Blue's Tiger-Rider on c4 steps to c3 and slides
    // d2-e1. A piece on d2 or c3 alone blocks the ride and is pinned to it.
    let open = fen(C9, "k8/9/9/9/9/2t6/9/9/4K4 w - - - 0 1");
    assert!(open.in_check(), "the bent ride reaches e1");
    let knight = fen(C9, "k8/9/9/9/9/2t6/9/3N5/4K4 w - - - 0 1");
    assert!(!knight.in_check());
    assert_eq!(
        moves_from(&knight, "d2"),
        ["d2c4"],
        "a knight leaves the path unless it takes"
    );
    // On the spring-off square a War Machine may only take the rider.
    let rook = fen(C9, "k8/9/9/9/9/2t6/2R6/9/4K4 w - - - 0 1");
    assert_eq!(moves_from(&rook, "c3"), ["c3c4"]);
    // Along the path a piece may step from d2 to c3: it still blocks.
    let commander = fen(C9, "k8/9/9/9/9/2t6/9/3Q5/4K4 w - - - 0 1");
    assert_eq!(moves_from(&commander, "d2"), ["d2c3"]);
    // Two blockers: neither is pinned. With two princes nothing is royal and nothing pinned.
    let two = fen(C9, "k8/9/9/9/9/2t6/2R6/3N5/4K4 w - - - 0 1");
    assert_eq!(moves_from(&two, "d2").len(), 6);
    let high = fen(C9, "k8/9/9/9/9/2t6/9/3N5/4K3Y w - - - 0 1");
    assert_eq!(moves_from(&high, "d2").len(), 6);
    for pos in [open, knight, rook, commander, two, high] {
        let mut fast: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let mut slow = reference::legal_moves(&pos);
        fast.sort_by_key(|m| (m.from(), m.to(), m.kind() as u8));
        slow.sort_by_key(|m| (m.from(), m.to(), m.kind() as u8));
        assert_eq!(fast, slow, "{}", pos.fen());
        assert_eq!(pos.count_legal_moves(), fast.len() as u64, "{}", pos.fen());
        assert_eq!(perft(&pos, 3), reference_perft_of(&pos, 3), "{}", pos.fen());
    }
}

fn reference_perft_of(pos: &Position, depth: u32) -> u64 {
    engine::rules::perft::reference_perft(pos, depth)
}
