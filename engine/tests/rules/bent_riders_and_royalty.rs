//! Two things Nicholls' Citadel needs, shown on a variant defined in this test: bent riders (a
//! movement kind of their own, with Citadel's two Tiger-Riders: a rook with an orthogonal-first
//! bend and a bishop with a diagonal-first bend) and royalty decided by a rule (two princes per
//! side, royal only while a side has one of them). Nothing in the engine names either piece or
//! the rule: the tables, the one move generator (which plays moves out for such variants), the
//! reference generator, attack tests, FEN, UCI, SAN and the hash take them from the spec and the
//! royalty hook.

use std::sync::OnceLock;

use engine::{
    eval::params::see_value,
    rng::SplitMix64,
    rules::{
        geometry::{Bitboard, Geometry, Square},
        piece::{Bent, Movement, F, W},
        reference,
        special::CustomRule,
        tables::Tables,
        variant::{CastlingSpec, PawnSpec, PieceSpec},
        variants::persian_common::{PAWN, QUEEN, ROOK},
        Color, Move, MoveKind, Outcome, Piece, PieceKind, Position, Rule, VariantSpec,
    },
    search::see::see,
};

/// The rook with an orthogonal-first bend (Citadel's Blue Tiger-Rider).
const TIGER: PieceKind = PieceKind::custom(10);
/// The bishop with a diagonal-first bend (Citadel's White Tiger-Rider).
const GRIFFIN: PieceKind = PieceKind::custom(11);
/// The younger prince; the king is the elder.
const YOUNGER: PieceKind = PieceKind::custom(12);

/// Each side's princes (king and younger prince) are royal only while the side has exactly one
/// of them on the board (Citadel B.7); a side needs at least one.
#[derive(Debug)]
struct PrinceRoyalty;

fn princes(pos: &Position, color: Color) -> Bitboard {
    pos.pieces(color, PieceKind::King) | pos.pieces(color, YOUNGER)
}

impl CustomRule for PrinceRoyalty {
    fn name(&self) -> &'static str {
        "prince royalty"
    }

    fn has_royalty(&self) -> bool {
        true
    }

    fn royals(&self, pos: &Position, color: Color) -> Bitboard {
        let p = princes(pos, color);
        if p.more_than_one() {
            Bitboard::EMPTY
        } else {
            p
        }
    }

    fn check_setup(&self, pos: &Position) -> Result<(), String> {
        match Color::ALL.into_iter().find(|&c| princes(pos, c).is_empty()) {
            Some(c) => Err(format!("{} has no prince", c.name())),
            None => Ok(()),
        }
    }
}

static ROYALTY: PrinceRoyalty = PrinceRoyalty;

const PIECES: &[PieceSpec] = &[
    PAWN,
    ROOK,
    QUEEN,
    PieceSpec {
        kind: PieceKind::King,
        letter: 'K',
        name: "elder prince",
        movement: Movement::leaper(&[W, F]),
    },
    PieceSpec {
        kind: YOUNGER,
        letter: 'Y',
        name: "younger prince",
        movement: Movement::leaper(&[W, F]),
    },
    PieceSpec {
        kind: TIGER,
        letter: 'T',
        name: "tiger",
        movement: Movement {
            bent: Bent::AfterOrthogonalStep,
            ..Movement::slider(&[], true, false)
        },
    },
    PieceSpec {
        kind: GRIFFIN,
        letter: 'X',
        name: "griffin",
        movement: Movement {
            bent: Bent::AfterDiagonalStep,
            ..Movement::slider(&[], false, true)
        },
    },
];

const NET_KINDS: &[PieceKind] = &[
    PieceKind::Pawn,
    PieceKind::Rook,
    PieceKind::Queen,
    PieceKind::King,
    YOUNGER,
    TIGER,
    GRIFFIN,
];

/// The princes' board: 9x9, one castling each way for the king (the elder prince) that tests
/// its squares only while he is royal.
static PRINCES: VariantSpec = VariantSpec {
    variant: None,
    id: "princes",
    code: 251,
    aliases: &[],
    name: "Princes 9x9",
    server_key: "princes",
    pgn_name: "princes",
    geometry: Geometry::rectangle(9, 9),
    pieces: PIECES,
    net_kinds: NET_KINDS,
    start_fen: "r2kyxt1r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R2KYXT1R w Qq - 0 1",
    pawns: PawnSpec {
        double_step_rank: 1,
        first_step_max: 2,
        promotion_rank: 8,
        promotion_kinds: &[TIGER, GRIFFIN, PieceKind::Rook],
        en_passant: true,
    },
    castling: &[CastlingSpec {
        letter: 'Q',
        king_side: false,
        king_from: (3, 0),
        king_to: (1, 0),
        rook_from: (0, 0),
        rook_to: (2, 0),
        must_be_empty: &[(1, 0), (2, 0)],
        must_be_safe: &[(3, 0), (2, 0), (1, 0)],
    }],
    dead_material: &[&[]],
    game_points: None,
    piece_values: &[],
    search_defaults: &[],
    selfplay_random_plies: 3,
    settings: None,
    rules: &[Rule::Custom(&ROYALTY)],
};

/// The same pieces with an ordinary king (no royalty rule) on 9x8: bent riders alone.
static TIGERS_9X8: VariantSpec = VariantSpec {
    variant: None,
    id: "tigers",
    code: 252,
    aliases: &[],
    name: "Tigers 9x8",
    server_key: "tigers",
    pgn_name: "tigers",
    geometry: Geometry::rectangle(9, 8),
    pieces: PIECES,
    net_kinds: NET_KINDS,
    start_fen: "rq1kxt2r/ppppppppp/9/9/9/9/PPPPPPPPP/RQ1KXT2R w - - 0 1",
    pawns: PawnSpec {
        double_step_rank: 1,
        first_step_max: 2,
        promotion_rank: 7,
        promotion_kinds: &[TIGER, GRIFFIN, PieceKind::Queen],
        en_passant: true,
    },
    castling: &[],
    dead_material: &[&[]],
    game_points: None,
    piece_values: &[],
    search_defaults: &[],
    selfplay_random_plies: 3,
    settings: None,
    rules: &[],
};

fn princes_tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::build(&PRINCES))
}

fn tigers_tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::build(&TIGERS_9X8))
}

fn fen(text: &str) -> Position {
    Position::from_fen_in(princes_tables(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(t: &Tables, name: &str) -> Square {
    t.geometry.parse_square(name).expect("square name")
}

fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let from = sq(pos.tables(), from);
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(|&m| pos.uci(m))
        .collect();
    v.sort();
    v
}

/// The empty-board counts of the Citadel rules note (B.5): tiger, griffin and queen on the
/// centre, an edge's middle, a corner and b2 of 9x9 and 9x8 boards.
#[test]
fn empty_board_counts_match_the_rules_note() {
    let cases: [(&Tables, &str, [u32; 3]); 8] = [
        (princes_tables(), "e5", [40, 40, 32]),
        (princes_tables(), "e1", [30, 28, 24]),
        (princes_tables(), "a5", [30, 28, 24]),
        (princes_tables(), "a1", [30, 22, 24]),
        (princes_tables(), "b2", [30, 34, 26]),
        (tigers_tables(), "e5", [37, 36, 0]),
        (tigers_tables(), "e1", [29, 26, 0]),
        (tigers_tables(), "a1", [28, 20, 0]),
    ];
    for (t, square, [tiger, griffin, queen]) in cases {
        let s = sq(t, square);
        let count = |kind| t.attacks(kind, s, Bitboard::EMPTY).count();
        assert_eq!(count(TIGER), tiger, "tiger on {square} of {}", t.spec.id);
        assert_eq!(count(GRIFFIN), griffin, "griffin on {square} of {}", t.spec.id);
        if queen > 0 {
            assert_eq!(count(PieceKind::Queen), queen, "queen on {square}");
        }
    }
    assert_eq!(
        tigers_tables()
            .attacks(TIGER, sq(tigers_tables(), "b2"), Bitboard::EMPTY)
            .count(),
        28
    );
    assert_eq!(
        tigers_tables()
            .attacks(GRIFFIN, sq(tigers_tables(), "b2"), Bitboard::EMPTY)
            .count(),
        31
    );
    assert!(princes_tables().rules.legal_by_playing() && tigers_tables().rules.legal_by_playing());
    assert_eq!(princes_tables().rules.royalty_rule(), Some(0));
    assert_eq!(tigers_tables().rules.royalty_rule(), None);
}

/// A blocked first square blocks the bend and the straight line behind it (B.5's blocking test).
#[test]
fn a_blocked_first_square_stops_every_path_through_it() {
    let friendly = fen("8y/9/9/4R4/4T4/9/9/9/K7k w - - 0 1");
    assert_eq!(moves_from(&friendly, "e5").len(), 30);
    let enemy = fen("8y/9/9/4r4/4T4/9/9/9/K7k w - - 0 1");
    let m = moves_from(&enemy, "e5");
    assert_eq!(m.len(), 31);
    assert!(m.contains(&"e5e6".to_string()));
    assert!(!m.contains(&"e5d7".to_string()) && !m.contains(&"e5e7".to_string()));
    // With e6 empty the bend reaches d7, c8 and b9.
    let open = fen("8y/9/9/9/4T4/9/9/9/K7k w - - 0 1");
    assert_eq!(moves_from(&open, "e5").len(), 40);
    assert!(moves_from(&open, "e5").contains(&"e5b9".to_string()));
}

/// A bent rider gives check along its bend, pins along it, and a check along a bend is blocked
/// on its path; the reference generator agrees.
#[test]
fn checks_and_pins_along_a_bend() {
    let t = tigers_tables();
    let pos = |text: &str| Position::from_fen_in(t, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    // The black tiger on e2 checks the king on i5 through f2, g3 and h4 (first step east, then
    // the north-east slide).
    let check = pos("k8/9/9/8K/9/9/4t4/9 w - - 0 1");
    assert!(check.in_check());
    assert_eq!(check.checkers(), sq(t, "e2").bb());
    // A rook on g1 blocks on g3, the one square of the path it reaches.
    let blocked = pos("k8/9/9/8K/9/9/4t4/6R2 w - - 0 1");
    assert_eq!(moves_from(&blocked, "g1"), ["g1g3"]);
    // A queen on g3 is pinned along the bend: it may move only to the path's other squares.
    let pinned = pos("k8/9/9/8K/9/6Q2/4t4/9 w - - 0 1");
    assert!(!pinned.in_check());
    assert_eq!(moves_from(&pinned, "g3"), ["g3f2", "g3h4"]);
    for p in [&check, &blocked, &pinned] {
        let mut fast: Vec<u32> = p.legal_moves().iter().map(|m| m.raw()).collect();
        let mut slow: Vec<u32> = reference::legal_moves(p).iter().map(|m| m.raw()).collect();
        fast.sort_unstable();
        slow.sort_unstable();
        assert_eq!(fast, slow, "{}", p.fen());
    }
}

#[test]
fn two_princes_are_not_royal_and_one_is() {
    let t = princes_tables();
    // Two White princes: the black rook attacks c1, and the king may step there.
    let two = fen("2r1k4/9/9/9/9/9/9/9/3KY4 w - - 0 1");
    assert!(!two.in_check());
    assert_eq!(two.royals(Color::White), Bitboard::EMPTY);
    assert!(moves_from(&two, "d1").contains(&"d1c1".to_string()));
    // Black takes the younger prince: the king is royal again, in check from e1, and c1 is
    // closed to him.
    let mut pos = fen("2r1k4/9/9/9/9/9/9/9/3KY2r1 b - - 0 1");
    pos.play_uci("h1e1").expect("the rook takes the younger prince");
    assert_eq!(pos.royals(Color::White), sq(t, "d1").bb());
    assert!(pos.in_check());
    let king = moves_from(&pos, "d1");
    assert!(
        king.contains(&"d1e1".to_string()) && !king.contains(&"d1c1".to_string()),
        "{king:?}"
    );
    // A lone prince may not step into attacks.
    let one = fen("4k4/9/9/9/9/9/9/9/3K3r1 w - - 0 1");
    assert!(one.in_check());
    // Mate of a lone prince, and no mate while a side has two.
    let mate = fen("4k4/9/9/9/9/9/9/r8/r2K5 w - - 0 1");
    assert_eq!(mate.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
    let two_attacked = fen("4k4/9/9/9/9/9/9/r8/r2K1Y3 w - - 0 1");
    assert!(!two_attacked.in_check());
    assert!(two_attacked.legal_moves().iter().any(|m| m.from() == sq(t, "d1")));
    // A side needs a prince; the rule names the problem.
    let e = Position::from_fen_in(t, "4k4/9/9/9/9/9/9/9/7r1 w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(e.contains("prince royalty") && e.contains("no prince"), "{e}");
    // The side not to move may not have its lone prince attacked.
    assert!(Position::from_fen_in(t, "4k4/9/9/9/9/9/9/9/3K3r1 b - - 0 1").is_err());
}

#[test]
fn only_a_royal_king_castles_out_of_through_or_into_attacks() {
    let t = princes_tables();
    // The black rook on c9 attacks c1, a square the castling king crosses.
    let lone = fen("2r1k4/9/9/9/9/9/9/9/R2K5 w Q - 0 1");
    let castle = Move::new(sq(t, "d1"), sq(t, "b1"), MoveKind::Castle);
    assert!(!lone.legal_moves().contains(castle));
    let with_younger = fen("2r1k4/9/9/9/9/9/9/9/R2K3Y1 w Q - 0 1");
    assert!(with_younger.legal_moves().contains(castle));
    assert_eq!(with_younger.san(castle), "O-O-O");
    assert!(reference::legal_moves(&with_younger).contains(&castle));
    assert!(!reference::legal_moves(&lone).contains(&castle));
}

/// The exchange on a square by the definition: each side takes with its least valuable attacker
/// found again after every capture (bent rides open anywhere); between kinds of one value the
/// lower kind index, then the lower square, takes first, as the engine does.
fn see_by_definition(pos: &Position, m: Move) -> i32 {
    if matches!(
        m.kind(),
        MoveKind::Castle | MoveKind::Rendezvous | MoveKind::EnPassant | MoveKind::Rule
    ) {
        return 0;
    }
    let (from, to) = (m.from(), m.to());
    let mut gain = vec![pos.piece_at(to).map_or(0, |p| see_value(p.kind))];
    let mut on_square = pos.piece_at(from).expect("a mover").kind;
    if let Some(k) = m.promotion_piece() {
        gain[0] += see_value(k) - see_value(PieceKind::Pawn);
        on_square = k;
    }
    let mut occ = pos.occupied() ^ from.bb();
    let mut side = !pos.turn();
    loop {
        let attackers = pos.attackers(to, side, occ) & occ;
        let Some((s, kind)) = attackers
            .iter()
            .map(|s| (s, pos.piece_at(s).expect("an attacker").kind))
            .min_by_key(|&(s, k)| (see_value(k), k.index(), s.0))
        else {
            break;
        };
        if kind == PieceKind::King && (pos.attackers(to, !side, occ ^ s.bb()) & occ & !s.bb()).any() {
            break;
        }
        let last = *gain.last().expect("a gain");
        gain.push(see_value(on_square) - last);
        if (-last).max(see_value(on_square) - last) < 0 {
            break;
        }
        on_square = kind;
        occ ^= s.bb();
        side = !side;
    }
    while gain.len() > 1 {
        let g = gain.pop().expect("a gain");
        let last = gain.last_mut().expect("a gain");
        *last = -(-*last).max(g);
    }
    gain[0]
}

/// Random games in both variants: the generator that plays moves out agrees with the
/// reference generator, the attack tests with the reference's, the captures and quiets split
/// the list, the hash with a recount, the static exchange with its definition, and every move
/// reads back from its UCI and SAN text and the FEN round-trips.
#[test]
fn random_games_agree_with_the_reference_generator() {
    let mut rng = SplitMix64::new(0xc17a);
    let mut bent_moves = 0;
    let mut royalty_changes = 0;
    let mut castles = 0;
    let starts = [
        (princes_tables(), PRINCES.start_fen),
        (
            princes_tables(),
            "r2k1xt1r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R2K1XT1R w Qq - 0 1",
        ),
        (tigers_tables(), TIGERS_9X8.start_fen),
    ];
    for game in 0..36 {
        let (t, start) = starts[game % starts.len()];
        let mut pos = Position::from_fen_in(t, start).expect("start FEN");
        for _ply in 0..120 {
            let mut fast: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
            let mut slow: Vec<u32> = reference::legal_moves(&pos).iter().map(|m| m.raw()).collect();
            fast.sort_unstable();
            slow.sort_unstable();
            assert_eq!(fast, slow, "{}", pos.fen());
            assert_eq!(pos.count_legal_moves(), fast.len() as u64, "{}", pos.fen());
            let mut split: Vec<u32> = pos.capture_moves().iter().map(|m| m.raw()).collect();
            let mut quiets = engine::rules::MoveList::new();
            pos.generate_quiets(&mut quiets);
            split.extend(quiets.iter().map(|m| m.raw()));
            split.sort_unstable();
            assert_eq!(split, fast, "captures and quiets of {}", pos.fen());
            let occ = pos.occupied();
            for s in t.geometry.playable {
                for c in Color::ALL {
                    assert_eq!(
                        pos.is_attacked(s, c, occ),
                        reference::is_attacked(&pos, s, c),
                        "attacks on {} by {c:?} in {}",
                        t.geometry.square_name(s),
                        pos.fen()
                    );
                }
            }
            if fast.is_empty() || pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            for &m in &moves {
                assert!(pos.is_legal_move(m), "{} in {}", pos.uci(m), pos.fen());
                assert_eq!(
                    see(&pos, m),
                    see_by_definition(&pos, m),
                    "{} in {}",
                    pos.uci(m),
                    pos.fen()
                );
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m), "{}", pos.fen());
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{}", pos.fen());
            if let Some(p) = pos.piece_at(m.from()) {
                if (p.kind == TIGER || p.kind == GRIFFIN) && t.direction[m.from().index()][m.to().index()] == 0xff {
                    bent_moves += 1;
                }
            }
            castles += usize::from(m.kind() == MoveKind::Castle);
            let royals_before = pos.royals(!pos.turn());
            let after = pos.after(m);
            royalty_changes += usize::from(after.royals(after.turn()) != royals_before);
            pos = after;
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
            let again = Position::from_fen_in(t, &pos.fen()).expect("FEN round trip");
            assert_eq!(again, pos, "FEN round trip of {}", pos.fen());
            assert_eq!(pos.checkers(), again.checkers());
        }
    }
    assert!(bent_moves > 100, "the playouts made {bent_moves} bent moves");
    assert!(royalty_changes > 5, "no prince became royal in the playouts");
    assert!(castles > 0, "the playouts never castled");
    // A piece of the variant's own letters only.
    assert!(Piece::from_char('T').is_none());
}
