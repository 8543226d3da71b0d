//! Random playouts in every variant (see the crate docs).
#![allow(clippy::wildcard_imports)]

use super::*;

// ---------------------------------------------------------------------------------------------
// Playouts
// ---------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
pub(crate) struct Stats {
    games: u64,
    plies: u64,
    moves_checked: u64,
    san_checked: u64,
    captures: u64,
    checks: u64,
    double_steps: u64,
    en_passant: u64,
    castle_king_side: u64,
    castle_queen_side: u64,
    promotions: u64,
    under_promotions: u64,
    rendezvous: u64,
    releases: u64,
    /// Moves of the rules' own (`MoveKind::Rule`: Parsi's king leap and bonus leap).
    rule_moves: u64,
    king_to_own_citadel: u64,
    king_to_enemy_citadel: u64,
    checkmates: u64,
    stalemates: u64,
    repetitions: u64,
    fifty_moves: u64,
    // Moves seen in generated lists (not necessarily played).
    generated_en_passant: u64,
    generated_castles: u64,
    generated_rendezvous: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Style {
    Uniform,
    Tactical,
    PawnPusher,
    KingWalker,
}

pub(crate) const STYLES: [Style; 4] = [Style::Uniform, Style::Tactical, Style::PawnPusher, Style::KingWalker];

/// Every check of one position. Returns the legal moves in generator order.
pub(crate) fn check_position(pos: &Position, check_san: bool, rng: &mut Rng, stats: &mut Stats) -> Vec<Move> {
    let v = pos.variant();
    let fen = pos.fen();

    // (a) The incremental hash equals the recomputed one.
    assert_eq!(pos.hash(), pos.compute_hash(), "{v}: incremental hash differs: {fen}");

    // (c) FEN round trips in both conventions; the written text is stable.
    for convention in [Convention::MultiDigit, Convention::OnePerCell] {
        let text = pos.fen_with(convention);
        let back = Position::from_fen(v, &text).unwrap_or_else(|e| panic!("{v}: '{text}' does not read back: {e}"));
        assert_eq!(
            back, *pos,
            "{v}: FEN round trip ({convention:?}) changes the position: {text}"
        );
        assert_eq!(back.hash(), pos.hash(), "{v}: FEN round trip changes the hash: {text}");
        assert_eq!(back.fen_with(convention), text, "{v}: FEN text is not stable");
        assert_eq!(back.fen(), fen, "{v}: FEN text is not stable");
    }
    // The setup read from the FEN is the position's own setup.
    let mut read = parse_setup(v, &fen).unwrap_or_else(|e| panic!("{v}: '{fen}' does not parse: {e}"));
    let mut own = pos.to_setup();
    read.board.sort_by_key(|&(s, _)| s);
    own.board.sort_by_key(|&(s, _)| s);
    assert_eq!(read, own, "{v}: parse_setup(fen()) differs from to_setup(): {fen}");

    // (d) The fast generator equals the reference generator.
    let legal = pos.legal_moves();
    let in_order: Vec<Move> = legal.iter().copied().collect();
    let fast = sorted(in_order.clone());
    let slow = sorted(reference::legal_moves(pos));
    assert_same_moves(pos, "fast and reference legal moves", &fast, &slow);
    let mut unique = fast.clone();
    unique.dedup();
    assert_eq!(unique.len(), fast.len(), "{v}: duplicate moves in {fen}");

    // (e) Counting agrees with listing.
    assert_eq!(
        pos.count_legal_moves() as usize,
        fast.len(),
        "{v}: count_legal_moves in {fen}"
    );
    assert_eq!(pos.has_legal_move(), !fast.is_empty());

    // (f) Captures and promotions.
    let captures = sorted(pos.capture_moves().iter().copied().collect());
    let expected: Vec<Move> = fast
        .iter()
        .copied()
        .filter(|&m| is_capture(pos, m) || m.kind() == MoveKind::Promotion || pos.rule_move_is_tactical(m))
        .collect();
    assert_same_moves(pos, "capture_moves and filtered legal moves", &captures, &expected);

    // Check detection agrees with the reference attack test (on every royal piece: the king,
    // or what a royalty rule says; Citadel's two High Princes are never in check).
    let us = pos.turn();
    let royals = pos.royals(us);
    assert_eq!(
        pos.in_check(),
        royals.iter().any(|k| reference::is_attacked(pos, k, !us)),
        "{v}: in_check disagrees with the reference in {fen}"
    );
    // The ep square is set exactly when an en-passant capture is legal, and only onto it.
    let ep_moves: Vec<Move> = fast
        .iter()
        .copied()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .collect();
    assert_eq!(
        pos.ep_square().is_some(),
        !ep_moves.is_empty(),
        "{v}: ep square in {fen}"
    );
    assert!(
        ep_moves.iter().all(|m| pos.en_passant_squares().has(m.to())),
        "{v}: {fen}"
    );
    // Rule-specific invariants.
    if has_eye(v) {
        assert!(
            fast.iter().all(|m| name(v, m.to()) != "f6"),
            "{v}: a move ends on f6 in {fen}"
        );
        for c in Color::ALL {
            let k = pos.king(c);
            assert!(!is_citadel(v, k), "{v}: king on a citadel in {fen}");
        }
    }
    if v == Variant::PersianPrincess {
        for &m in &fast {
            if name(v, m.to()) == "f6" {
                let k = moved_kind(pos, m);
                assert!(
                    matches!(k, Some(PieceKind::Pawn | PieceKind::Princess)),
                    "{v}: {k:?} moves to f6 in {fen}"
                );
            }
        }
    }
    stats.generated_en_passant += ep_moves.len() as u64;
    stats.generated_castles += fast.iter().filter(|m| m.kind() == MoveKind::Castle).count() as u64;
    stats.generated_rendezvous += fast.iter().filter(|m| m.kind() == MoveKind::Rendezvous).count() as u64;
    if !has_rendezvous(v) {
        assert!(
            fast.iter().all(|m| m.kind() != MoveKind::Rendezvous),
            "{v}: rendezvous in {fen}"
        );
    }

    // (b) Copy-make, and (g) UCI round trip, for every legal move.
    let saved = pos.clone();
    let mut texts = Vec::with_capacity(fast.len());
    for &m in &fast {
        let child = pos.after(m);
        assert_eq!(*pos, saved, "{v}: after() changed the parent {fen}");
        assert_eq!(
            child.hash(),
            child.compute_hash(),
            "{v}: hash after {} in {fen}",
            pos.uci(m)
        );
        let mut work = saved.clone();
        work.play_unchecked(m);
        assert_eq!(work, child, "{v}: play_unchecked and after() differ");
        // "Unmake" is restoring the copy.
        work = saved.clone();
        assert_eq!(work, *pos);
        assert_eq!(work.hash(), pos.hash());
        // The mover's royal pieces (those royal before the move, where they stand after it)
        // are safe afterwards (the reference attack test).
        for k in royals {
            let k = if k == m.from() { m.to() } else { k };
            assert!(
                !reference::is_attacked(&child, k, !us),
                "{v}: {} leaves a royal piece attacked in {fen}",
                pos.uci(m)
            );
        }

        let text = pos.uci(m);
        assert_eq!(
            pos.parse_uci(&text),
            Ok(m),
            "{v}: UCI '{text}' does not read back in {fen}"
        );
        // A rule's move may have a text of its own (Parsi's `c7b8na6`); the others are plain UCI.
        if m.kind() != MoveKind::Rule {
            let parsed: UciMove = text.parse().unwrap_or_else(|e| panic!("{v}: {e}"));
            assert_eq!(parsed.to_string(), text);
        }
        texts.push(text);
        stats.moves_checked += 1;
    }
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), fast.len(), "{v}: two moves share a UCI text in {fen}");
    assert_eq!(pos.hash(), saved.hash());

    // (g) SAN round trip on some plies: the specials and a sample of the other moves.
    if check_san && !fast.is_empty() {
        let mut sample: Vec<Move> = fast
            .iter()
            .copied()
            .filter(|m| !matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep))
            .collect();
        for _ in 0..6 {
            sample.push(*rng.pick(&fast));
        }
        for m in sample {
            let san = pos.san(m);
            assert_eq!(
                pos.parse_san(&san),
                Ok(m),
                "{v}: SAN '{san}' does not read back in {fen}"
            );
            let child = pos.after(m);
            let mark = match (child.in_check(), child.has_legal_move()) {
                (false, _) => None,
                (true, true) => Some('+'),
                (true, false) => Some('#'),
            };
            let last = san.chars().last().filter(|c| *c == '+' || *c == '#');
            assert_eq!(last, mark, "{v}: check mark of '{san}' in {fen}");
            stats.san_checked += 1;
        }
    }

    // The outcome agrees with the move list.
    if !pos.is_citadel_draw() {
        let outcome = pos.outcome();
        if fast.is_empty() {
            // A bare-king rule draws a bare side that is not mated before the stalemate does.
            let bare = pos.color_bb(Color::White).count() == 1 || pos.color_bb(Color::Black).count() == 1;
            let expected = if pos.in_check() {
                Outcome::Checkmate { winner: !us }
            } else if bare && has_rule(v, |r| matches!(r, Rule::BareKing(_))) {
                Outcome::Draw(DrawReason::BareKing)
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            };
            assert_eq!(outcome, Some(expected), "{v}: outcome of {fen}");
        } else {
            assert!(
                !matches!(
                    outcome,
                    Some(Outcome::Checkmate { .. } | Outcome::Draw(DrawReason::Stalemate))
                ),
                "{v}: outcome {outcome:?} with legal moves in {fen}"
            );
        }
    }
    in_order
}

/// Whether a move is one of the rare kinds the playouts should see.
pub(crate) fn is_special(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant | MoveKind::Castle | MoveKind::Rendezvous | MoveKind::Promotion | MoveKind::Rule => true,
        MoveKind::DoubleStep => false,
        MoveKind::Normal => moved_kind(pos, m) == Some(PieceKind::King) && is_citadel(pos.variant(), m.to()),
    }
}

pub(crate) fn choose(pos: &Position, moves: &[Move], rng: &mut Rng, style: Style) -> Move {
    let v = pos.variant();
    let special: Vec<Move> = moves.iter().copied().filter(|&m| is_special(pos, m)).collect();
    if !special.is_empty() && rng.chance(1, 2) {
        return *rng.pick(&special);
    }
    let preferred: Vec<Move> = match style {
        Style::Uniform => Vec::new(),
        Style::Tactical => moves
            .iter()
            .copied()
            .filter(|&m| is_capture(pos, m) || pos.after(m).in_check())
            .collect(),
        Style::PawnPusher => {
            let pawn_moves: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| moved_kind(pos, m) == Some(PieceKind::Pawn))
                .collect();
            let best = pawn_moves
                .iter()
                .map(|m| relative_rank(v, m.from(), pos.turn()))
                .max()
                .unwrap_or(0);
            if rng.chance(1, 2) {
                pawn_moves
                    .into_iter()
                    .filter(|m| relative_rank(v, m.from(), pos.turn()) == best)
                    .collect()
            } else {
                pawn_moves
            }
        }
        Style::KingWalker => moves
            .iter()
            .copied()
            .filter(|&m| {
                moved_kind(pos, m) == Some(PieceKind::King) && corner_distance(v, m.to()) < corner_distance(v, m.from())
            })
            .collect(),
    };
    if !preferred.is_empty() && rng.chance(3, 4) {
        *rng.pick(&preferred)
    } else {
        *rng.pick(moves)
    }
}

/// Checks what a played move did, and counts it.
pub(crate) fn check_transition(pos: &Position, m: Move, after: &Position, stats: &mut Stats) {
    let v = pos.variant();
    let us = pos.turn();
    let ctx = || format!("{v}: {} in {}", pos.uci(m), pos.fen());
    let mover = pos
        .piece_at(m.from())
        .unwrap_or_else(|| panic!("no piece moves: {}", ctx()));
    assert_eq!(mover.color, us, "{}", ctx());
    assert_eq!(after.turn(), !us, "{}", ctx());
    assert_eq!(
        after.castling_rights() & !pos.castling_rights(),
        0,
        "castling rights gained: {}",
        ctx()
    );
    for c in Color::ALL {
        assert!(
            pos.has_rendezvous_right(c) || !after.has_rendezvous_right(c),
            "rendezvous right gained: {}",
            ctx()
        );
    }
    let capture = is_capture(pos, m);
    let irreversible = capture || mover.kind == PieceKind::Pawn;
    let expected_clock = if irreversible { 0 } else { pos.halfmove_clock() + 1 };
    assert_eq!(after.halfmove_clock(), expected_clock, "halfmove clock: {}", ctx());
    let expected_fullmove = pos.fullmove_number() + u32::from(us == Color::Black);
    assert_eq!(after.fullmove_number(), expected_fullmove, "fullmove number: {}", ctx());
    assert_eq!(
        after.piece_at(m.from()).is_some(),
        m.kind() == MoveKind::Rendezvous,
        "{}",
        ctx()
    );

    match m.kind() {
        // A rule's own move: the mover left its square (checked above); its text, hash and
        // delta are checked with every move of the list.
        MoveKind::Rule => stats.rule_moves += 1,
        MoveKind::Normal | MoveKind::DoubleStep => {
            assert_eq!(after.piece_at(m.to()), Some(mover), "{}", ctx());
            if m.kind() == MoveKind::DoubleStep {
                stats.double_steps += 1;
            }
        }
        MoveKind::EnPassant => {
            assert_eq!(after.piece_at(m.to()), Some(mover), "{}", ctx());
            // The pawn that passed `to` stands beyond it, seen from the capturer (one square
            // after a double step, two after a triple step onto the first square it passed).
            let (f, r) = file_rank(v, m.to());
            let back = if us == Color::White { -1 } else { 1 };
            let victim = (1..=2)
                .filter_map(|i| v.spec().geometry.square(f, r + back * i))
                .find(|&s| pos.piece_at(s).is_some())
                .unwrap_or_else(|| panic!("{}", ctx()));
            assert_eq!(
                pos.piece_at(victim),
                Some(Piece {
                    color: !us,
                    kind: PieceKind::Pawn
                }),
                "{}",
                ctx()
            );
            assert_eq!(after.piece_at(victim), None, "{}", ctx());
            stats.en_passant += 1;
        }
        MoveKind::Promotion => {
            let kind = m.promotion_piece().unwrap_or_else(|| panic!("{}", ctx()));
            assert_eq!(mover.kind, PieceKind::Pawn, "{}", ctx());
            assert_eq!(after.piece_at(m.to()), Some(Piece { color: us, kind }), "{}", ctx());
            stats.promotions += 1;
            if kind != PieceKind::Queen {
                stats.under_promotions += 1;
            }
            // A release (Citadel): the prisoner leaves the FEN's prisoner field.
            let prisoners = |p: &Position| -> usize { p.reserves(us).count() };
            if prisoners(after) < prisoners(pos) {
                assert_eq!(prisoners(pos) - prisoners(after), 1, "{}", ctx());
                stats.releases += 1;
            }
        }
        MoveKind::Castle => {
            assert_eq!(mover.kind, PieceKind::King, "{}", ctx());
            assert_eq!(after.piece_at(m.to()), Some(mover), "{}", ctx());
            assert_eq!(after.king(us), m.to(), "{}", ctx());
            let own_rights = |p: &Position| {
                let castling = p.fen().split(' ').nth(2).unwrap_or("").to_string();
                castling
                    .chars()
                    .filter(|c| c.is_ascii_uppercase() == (us == Color::White) && *c != '-')
                    .count()
            };
            assert_eq!(own_rights(after), 0, "castling keeps rights: {}", ctx());
            if file_rank(v, m.to()).0 > file_rank(v, m.from()).0 {
                stats.castle_king_side += 1;
            } else {
                stats.castle_queen_side += 1;
            }
        }
        MoveKind::Rendezvous => {
            let bishop = pos.piece_at(m.to());
            assert_eq!(
                bishop,
                Some(Piece {
                    color: us,
                    kind: PieceKind::Bishop
                }),
                "{}",
                ctx()
            );
            assert_eq!(after.piece_at(m.to()), Some(mover), "{}", ctx());
            assert_eq!(after.piece_at(m.from()), bishop, "{}", ctx());
            assert!(
                pos.has_rendezvous_right(us) && !after.has_rendezvous_right(us),
                "{}",
                ctx()
            );
            assert_eq!(after.castling_rights(), pos.castling_rights(), "{}", ctx());
            stats.rendezvous += 1;
        }
    }
    if capture {
        stats.captures += 1;
    }
    if after.in_check() {
        stats.checks += 1;
    }
    if mover.kind == PieceKind::King && is_citadel(v, m.to()) {
        let enemy_rank = match us {
            Color::White => v.spec().geometry.height as i32 - 1,
            Color::Black => 0,
        };
        let enemy = file_rank(v, m.to()).1 == enemy_rank;
        assert_eq!(after.is_citadel_draw(), enemy, "citadel draw: {}", ctx());
        if enemy {
            assert_eq!(after.outcome(), Some(Outcome::Draw(DrawReason::Citadel)), "{}", ctx());
            stats.king_to_enemy_citadel += 1;
        } else {
            stats.king_to_own_citadel += 1;
        }
    } else {
        assert!(!after.is_citadel_draw(), "{}", ctx());
    }
}

fn v_of(pos: &Position) -> Variant {
    pos.variant()
}

pub(crate) fn playout(start: Position, max_plies: usize, style: Style, rng: &mut Rng, stats: &mut Stats) {
    let mut game = Game::new(start);
    let mut keys = vec![repetition_key(game.position())];
    stats.games += 1;
    for ply in 0..max_plies {
        let pos = game.position().clone();
        if pos.is_citadel_draw() {
            break;
        }
        let moves = check_position(&pos, ply % 3 == 0, rng, stats);
        // Repetitions as `Game` counts them equal a naive count of the same FEN fields.
        let key = keys.last().cloned().unwrap_or_default();
        let naive = keys.iter().filter(|k| **k == key).count();
        assert_eq!(game.repetitions(), naive, "repetitions of {}", pos.fen());
        if naive >= 3 && pos.outcome().is_none() {
            assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
            stats.repetitions += 1;
        }
        if !moves.is_empty() {
            // Two bare kings are dead, in variants with an insufficient-material rule at all
            // (a bare-king rule draws them first).
            let v = v_of(&pos);
            let bare_kings = pos.occupied().count() == 2 && !v.spec().dead_material.is_empty();
            // A bare-king rule ends the game at once, before the other draws are looked at.
            let bare_side = [Color::White, Color::Black]
                .iter()
                .any(|&c| pos.color_bb(c).count() == 1);
            let expected = if bare_side && has_rule(v, |r| matches!(r, Rule::BareKing(_))) {
                Some(Outcome::Draw(DrawReason::BareKing))
            } else if pos.halfmove_clock() >= 100 {
                Some(Outcome::Draw(DrawReason::FiftyMoves))
            } else if bare_kings {
                Some(Outcome::Draw(DrawReason::InsufficientMaterial))
            } else {
                pos.outcome()
            };
            assert_eq!(pos.outcome(), expected, "{}", pos.fen());
            if pos.halfmove_clock() == 100 {
                stats.fifty_moves += 1;
            }
        }
        if moves.is_empty() {
            if pos.in_check() {
                stats.checkmates += 1;
            } else {
                stats.stalemates += 1;
            }
            break;
        }
        // The move is one the game allows (a rule that reads the game's history, Parsi's
        // perpetual-check ban, may forbid some of the position's moves, never all).
        let allowed: Vec<Move> = game.legal_moves().iter().copied().collect();
        assert!(
            !allowed.is_empty() && allowed.iter().all(|m| moves.contains(m)),
            "{}",
            pos.fen()
        );
        let m = choose(&pos, &allowed, rng, style);
        game.play(m);
        check_transition(&pos, m, game.position(), stats);
        keys.push(repetition_key(game.position()));
        stats.plies += 1;
    }
}

/// Hand-made open positions of the Persian variants (Omega gets wizards and a champion).
pub(crate) const PERSIAN_OPEN: &[(&[(&str, char)], &str)] = &[
    // Castling on both sides, en passant and promotions for both colours.
    (
        &[
            ("f2", 'K'),
            ("b2", 'R'),
            ("j2", 'R'),
            ("d3", 'P'),
            ("e4", 'P'),
            ("c7", 'P'),
            ("g8", 'P'),
            ("a1", 'F'),
            ("f10", 'k'),
            ("b10", 'r'),
            ("j10", 'r'),
            ("e5", 'p'),
            ("d9", 'p'),
            ("h4", 'p'),
            ("k11", 'f'),
        ],
        "w KQkq - 0 1",
    ),
    // Double steps next to enemy pawns.
    (
        &[
            ("f2", 'K'),
            ("d3", 'P'),
            ("b3", 'P'),
            ("h7", 'P'),
            ("c2", 'N'),
            ("f10", 'k'),
            ("e5", 'p'),
            ("c5", 'p'),
            ("g9", 'p'),
            ("c10", 'n'),
        ],
        "w - - 0 1",
    ),
    (
        &[
            ("f2", 'K'),
            ("d3", 'P'),
            ("b3", 'P'),
            ("h7", 'P'),
            ("c2", 'N'),
            ("f10", 'k'),
            ("e5", 'p'),
            ("c5", 'p'),
            ("g9", 'p'),
            ("c10", 'n'),
        ],
        "b - - 0 1",
    ),
    // Kings close to the opponent's citadels.
    (
        &[
            ("b9", 'K'),
            ("e2", 'R'),
            ("d4", 'N'),
            ("c3", 'P'),
            ("j3", 'k'),
            ("e10", 'r'),
            ("g8", 'n'),
            ("h9", 'p'),
        ],
        "w - - 0 1",
    ),
    (
        &[
            ("b9", 'K'),
            ("e2", 'R'),
            ("d4", 'N'),
            ("c3", 'P'),
            ("j3", 'k'),
            ("e10", 'r'),
            ("g8", 'n'),
            ("h9", 'p'),
        ],
        "b - - 0 1",
    ),
    // Kings close to their own citadels.
    (
        &[
            ("b3", 'K'),
            ("f4", 'Q'),
            ("e3", 'P'),
            ("j9", 'k'),
            ("d7", 'q'),
            ("g8", 'p'),
        ],
        "w - - 0 1",
    ),
    // Partners and bishops near the rendezvous squares, after other moves.
    (
        &[
            ("e2", 'K'),
            ("e3", 'S'),
            ("h2", 'B'),
            ("d2", 'B'),
            ("c3", 'P'),
            ("e10", 'k'),
            ("e9", 's'),
            ("h10", 'b'),
            ("d10", 'b'),
            ("c9", 'p'),
        ],
        "w - - 0 1",
    ),
    // A promotion race.
    (
        &[
            ("f2", 'K'),
            ("c9", 'P'),
            ("h9", 'P'),
            ("b8", 'P'),
            ("f10", 'k'),
            ("b10", 'r'),
            ("d3", 'p'),
            ("i3", 'p'),
            ("j4", 'p'),
        ],
        "w - - 0 1",
    ),
];

pub(crate) const CHESS_OPEN: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
];

pub(crate) fn open_positions(v: Variant) -> Vec<Position> {
    let persian = v.spec().geometry == engine::rules::variants::persian_common::GEOMETRY;
    let fens: Vec<String> = if v == Variant::Chess {
        CHESS_OPEN.iter().map(|s| s.to_string()).collect()
    } else if !persian {
        // Other boards: the variant's bench positions.
        return engine::bench::positions(v);
    } else {
        let omega = v == Variant::OrientalOmega;
        PERSIAN_OPEN
            .iter()
            .map(|(pieces, rest)| {
                let pieces: Vec<(&str, char)> = pieces
                    .iter()
                    .map(|&(s, c)| {
                        let c = match (omega, c) {
                            (true, 'F') => 'W',
                            (true, 'f') => 'w',
                            (true, 'S') => 'C',
                            (true, 's') => 'c',
                            _ => c,
                        };
                        (s, c)
                    })
                    .collect();
                fen(v, &pieces, rest)
            })
            .collect()
    };
    fens.iter()
        .map(|f| Position::from_fen(v, f).unwrap_or_else(|e| panic!("{v}: open position '{f}': {e}")))
        .collect()
}

/// A random legal position: kings (often near corners), castling pieces at home with their
/// rights, rendezvous pieces on their squares, and a handful of random pieces.
pub(crate) fn random_position(v: Variant, rng: &mut Rng) -> Position {
    let spec = v.spec();
    let g = spec.geometry;
    let squares: Vec<Square> = (0..g.cells() as u8).map(Square).filter(|&s| g.is_playable(s)).collect();
    let kinds: Vec<PieceKind> = spec
        .pieces
        .iter()
        .map(|p| p.kind)
        .filter(|&k| k != PieceKind::King)
        .collect();
    let coord = |c: (i8, i8), black: bool| {
        let (f, r) = spec.mirror(c, black);
        g.playable_square(f as i32, r as i32)
            .unwrap_or_else(|| panic!("{v}: spec square"))
    };
    let letter = |color: Color, kind: PieceKind| v.tables().piece_char(Piece { color, kind });
    loop {
        let mut placed: Vec<(Square, char)> = Vec::new();
        let mut castling = String::new();
        let free = |placed: &[(Square, char)], s: Square| !placed.iter().any(|&(t, _)| t == s);
        for color in Color::ALL {
            let black = color == Color::Black;
            if rng.chance(1, 3) {
                for c in spec.castling {
                    let (k, r) = (coord(c.king_from, black), coord(c.rook_from, black));
                    if free(&placed, k) {
                        placed.push((k, letter(color, PieceKind::King)));
                    }
                    if rng.chance(3, 4) {
                        placed.push((r, letter(color, PieceKind::Rook)));
                        let l = if black { c.letter.to_ascii_lowercase() } else { c.letter };
                        castling.push(l);
                    }
                }
            }
            if rng.chance(1, 3) {
                for rule in spec.rules {
                    if let Rule::Rendezvous(r) = rule {
                        let (p, b) = (coord(r.partner_square, black), coord(r.bishop_square, black));
                        if free(&placed, p) && free(&placed, b) {
                            placed.push((p, letter(color, r.partner)));
                            placed.push((b, letter(color, PieceKind::Bishop)));
                        }
                    }
                }
            }
        }
        for color in Color::ALL {
            let king = letter(color, PieceKind::King);
            if placed.iter().any(|&(_, c)| c == king) {
                continue;
            }
            let near_corner = rng.chance(1, 2);
            loop {
                let s = *rng.pick(&squares);
                if free(&placed, s) && (!near_corner || corner_distance(v, s) <= 2) {
                    placed.push((s, king));
                    break;
                }
            }
        }
        for _ in 0..1 + rng.below(14) {
            let kind = *rng.pick(&kinds);
            let color = if rng.chance(1, 2) { Color::White } else { Color::Black };
            let s = *rng.pick(&squares);
            if !free(&placed, s) {
                continue;
            }
            if kind == PieceKind::Pawn {
                let rel = relative_rank(v, s, color);
                if rel < spec.pawns.double_step_rank as i32 || rel >= spec.pawns.promotion_rank as i32 {
                    continue;
                }
            }
            placed.push((s, letter(color, kind)));
        }
        let side = if rng.chance(1, 2) { "w" } else { "b" };
        let castling = if castling.is_empty() { "-".to_string() } else { castling };
        // A field of rights before the clocks (Citadel's prisoners): a random subset.
        let fifth: String = v
            .tables()
            .rules
            .letter_rights()
            .iter()
            .filter(|r| r.field == RightsField::Fifth && rng.chance(1, 2))
            .map(|r| r.letter)
            .collect();
        let fifth = match (v.tables().fifth_field_letters(), fifth.is_empty()) {
            (false, _) => String::new(),
            (true, true) => " -".to_string(),
            (true, false) => format!(" {fifth}"),
        };
        let mut text = format!(
            "{} {side} {castling} -{fifth} {} {}",
            board_fen(v, &placed),
            rng.below(90),
            1 + rng.below(80)
        );
        if has_rendezvous(v) {
            text.push(' ');
            let rights: &[&str] = &["Rr", "R", "r", "-"];
            text.push_str(rights[rng.below(rights.len())]);
        }
        if let Ok(pos) = Position::from_fen(v, &text) {
            return pos;
        }
    }
}

/// Games of up to 150 plies from the start position, per variant.
pub(crate) const PLAYOUTS_FROM_START: usize = 120;
/// Games of up to 120 plies from each hand-made open position.
pub(crate) const PLAYOUTS_PER_OPEN_POSITION: usize = 16;
/// Games of up to 60 plies from random legal setups, per variant.
pub(crate) const PLAYOUTS_FROM_RANDOM_SETUPS: usize = 400;

pub(crate) fn run_playouts(v: Variant, seed: u64, from_start: usize, per_open: usize, random: usize) -> Stats {
    let started = std::time::Instant::now();
    let mut rng = Rng::new(seed ^ u64::from(v.code()));
    let mut stats = Stats::default();
    for i in 0..from_start {
        playout(
            Position::startpos(v),
            150,
            STYLES[i % STYLES.len()],
            &mut rng,
            &mut stats,
        );
    }
    for pos in open_positions(v) {
        for i in 0..per_open {
            playout(pos.clone(), 120, STYLES[i % STYLES.len()], &mut rng, &mut stats);
        }
    }
    for i in 0..random {
        let pos = random_position(v, &mut rng);
        playout(pos, 60, STYLES[i % STYLES.len()], &mut rng, &mut stats);
    }
    eprintln!("{v}: {:.1} s, {stats:#?}", started.elapsed().as_secs_f64());
    stats
}

/// What the variant's spec says must occur in its playouts: captures, checks and mates always;
/// en passant and both castlings where the spec has them; promotions, and under-promotions where
/// the pawn chooses its piece; releases before promotions by file (Citadel); the rendezvous and
/// the citadels by their rules.
pub(crate) fn assert_special_moves_occur(v: Variant, s: &Stats) {
    let spec = v.spec();
    assert!(s.captures > 0 && s.checks > 0, "{v}: {s:?}");
    assert!(s.checkmates > 0, "{v}: no mate: {s:?}");
    if spec.pawns.en_passant {
        assert!(s.en_passant > 0, "{v}: no en passant played: {s:?}");
    } else {
        assert_eq!(s.en_passant, 0, "{v}: en passant without the rule: {s:?}");
    }
    if spec.castling.is_empty() {
        assert_eq!(s.castle_king_side + s.castle_queen_side, 0, "{v}: {s:?}");
    } else {
        assert!(s.castle_king_side > 0, "{v}: no king-side castling played: {s:?}");
        assert!(s.castle_queen_side > 0, "{v}: no queen-side castling played: {s:?}");
    }
    assert!(s.promotions > 0, "{v}: no promotion played: {s:?}");
    let releases = has_rule(v, |r| matches!(r, Rule::Releases(_)));
    let by_square = has_rule(v, |r| matches!(r, Rule::SquarePromotion(_)));
    if releases {
        assert!(s.releases > 0, "{v}: no release played: {s:?}");
        assert!(s.promotions > s.releases, "{v}: no promotion by file: {s:?}");
    } else if !by_square && spec.pawns.promotion_kinds.len() > 1 {
        assert!(s.under_promotions > 0, "{v}: no under-promotion played: {s:?}");
    }
    if !v.tables().rules.has_rule_moves() {
        assert_eq!(s.rule_moves, 0, "{v}: {s:?}");
    } else {
        assert!(s.rule_moves > 0, "{v}: no move of the rules' own played: {s:?}");
    }
    if has_rendezvous(v) {
        assert!(s.rendezvous > 0, "{v}: no rendezvous played: {s:?}");
    } else {
        assert_eq!(s.rendezvous + s.generated_rendezvous, 0, "{v}: {s:?}");
    }
    if has_citadel_draw(v) && !has_eye(v) {
        assert!(s.king_to_own_citadel > 0, "{v}: no king entered its own citadel: {s:?}");
        assert!(
            s.king_to_enemy_citadel > 0,
            "{v}: no king entered an enemy citadel: {s:?}"
        );
    } else {
        // In the Eye every citadel is seen by the Eye; chess has no citadels.
        assert_eq!(s.king_to_own_citadel + s.king_to_enemy_citadel, 0, "{v}: {s:?}");
    }
}

/// Playouts in every registered variant, each on a thread of its own, checked against what its
/// spec says must occur. Variants whose legal moves are found by playing them out (Citadel's bent
/// riders) get fewer games, and those whose filters read the game's history (Parsi) fewer still.
#[test]
pub(crate) fn playouts_every_variant() {
    std::thread::scope(|scope| {
        // `PLAYOUTS_ONLY=<id>` runs one variant (to debug it).
        let only = std::env::var("PLAYOUTS_ONLY").ok();
        for (i, &v) in Variant::ALL.iter().enumerate() {
            if only.as_deref().is_some_and(|o| o != v.id()) {
                continue;
            }
            scope.spawn(move || {
                let seed = 11 + i as u64;
                let start = Position::startpos(v);
                let s = if start.moves_depend_on_history() {
                    // Parsi: its filters judge every move played out, against the history too.
                    run_playouts(v, seed, 20, 4, 100)
                } else if v.tables().rules.legal_by_playing() {
                    run_playouts(v, seed, 40, 8, 200)
                } else {
                    run_playouts(
                        v,
                        seed,
                        PLAYOUTS_FROM_START,
                        PLAYOUTS_PER_OPEN_POSITION,
                        PLAYOUTS_FROM_RANDOM_SETUPS,
                    )
                };
                assert_special_moves_occur(v, &s);
            });
        }
    });
}

/// `Position::pawn_attacked_cells` is the set of cells that a pawn of that colour attacks by
/// `Position::attackers` (the promotion rules' exceptions included), along random games of
/// every variant.
#[test]
fn pawn_attacked_cells_agree_with_attackers() {
    let mut rng = Rng::new(0x9a7a_c311);
    for v in Variant::ALL {
        let mut pos = Position::startpos(v);
        for _ in 0..120 {
            let occ = pos.occupied();
            for by in [Color::White, Color::Black] {
                let cells = pos.pawn_attacked_cells(by);
                let pawns = pos.pieces(by, PieceKind::Pawn);
                for sq in pos.tables().geometry.playable {
                    assert_eq!(
                        cells.has(sq),
                        (pos.attackers(sq, by, occ) & pawns).any(),
                        "{v}: {by:?} pawns on {}: {}",
                        pos.tables().geometry.square_name(sq),
                        pos.fen()
                    );
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.play_unchecked(*rng.pick(moves.as_slice()));
        }
    }
}
