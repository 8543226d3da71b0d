//! Property tests of the rules layer, through the public API only.
//!
//! - Random playouts in every variant, from the start position, from hand-made open positions
//!   and from random legal setups. At every ply: the incremental hash equals the recomputed one;
//!   copy-make leaves the parent untouched; the FEN reads back in both conventions; the fast
//!   generator equals the reference generator; counting, capture generation and the UCI and SAN
//!   round trips agree with the move list; `Game` counts repetitions like a naive count. The
//!   playouts are biased towards special moves, captures, checks, pawn advances and king walks,
//!   and the special moves seen are counted: each rule of a variant must actually occur.
//! - Threefold repetition in [`Game`] on constructed examples.
//! - Fuzzing: random text, mutated FENs and random setups fed to the FEN, setup, UCI and SAN
//!   readers, which must return (Ok or Err) and never panic.
//! - A corpus of bad FENs, each rejected with its specific error.

use engine::{
    rng::SplitMix64,
    rules::{
        game::Game, notation::fen::parse_setup, reference, Color, Convention, DrawReason, FenError, Move, MoveKind,
        Outcome, ParseFenError, Piece, PieceKind, Position, PositionError, Rule, Setup, Square, UciMove, Variant,
    },
};

// ---------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------

/// The workspace's SplitMix64 with the helpers these tests use (`below` by modulo, as the
/// random games of these tests were first drawn).
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(
            seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x9E37_79B9_7F4A_7C15,
        ))
    }

    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn has_rule(v: Variant, f: fn(&Rule) -> bool) -> bool {
    v.spec().rules.iter().any(f)
}

fn has_rendezvous(v: Variant) -> bool {
    has_rule(v, |r| matches!(r, Rule::Rendezvous(_)))
}

fn has_citadel_draw(v: Variant) -> bool {
    has_rule(v, |r| matches!(r, Rule::CitadelDraw(_)))
}

fn has_eye(v: Variant) -> bool {
    has_rule(v, |r| matches!(r, Rule::AllSeeingEye(_)))
}

fn square(v: Variant, name: &str) -> Square {
    v.spec()
        .geometry
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is a square name"))
}

fn name(v: Variant, s: Square) -> String {
    v.spec().geometry.square_name(s)
}

fn file_rank(v: Variant, s: Square) -> (i32, i32) {
    let g = v.spec().geometry;
    (g.file(s), g.rank(s))
}

/// Whether `s` is a corner square that exists (the citadels of Persian Chess).
fn is_citadel(v: Variant, s: Square) -> bool {
    let g = v.spec().geometry;
    let (f, r) = file_rank(v, s);
    Variant::PERSIAN.contains(&v)
        && (f == 0 || f == g.width as i32 - 1)
        && (r == 0 || r == g.height as i32 - 1)
        && g.is_playable(s)
}

/// Chebyshev distance to the nearest corner of the grid.
fn corner_distance(v: Variant, s: Square) -> i32 {
    let g = v.spec().geometry;
    let (f, r) = file_rank(v, s);
    let df = f.min(g.width as i32 - 1 - f);
    let dr = r.min(g.height as i32 - 1 - r);
    df.max(dr)
}

/// A pawn's rank counted from its own side (0 = its first rank).
fn relative_rank(v: Variant, s: Square, color: Color) -> i32 {
    let g = v.spec().geometry;
    let r = g.rank(s);
    match color {
        Color::White => r,
        Color::Black => g.height as i32 - 1 - r,
    }
}

/// Whether a legal move captures (an enemy piece on the destination, or en passant).
fn is_capture(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || (m.kind() != MoveKind::Rendezvous
            && m.kind() != MoveKind::Castle
            && pos.piece_at(m.to()).is_some_and(|p| p.color != pos.turn()))
}

fn moved_kind(pos: &Position, m: Move) -> Option<PieceKind> {
    pos.piece_at(m.from()).map(|p| p.kind)
}

/// The board part of a FEN (multi-digit convention) with the given pieces.
fn board_fen(v: Variant, pieces: &[(Square, char)]) -> String {
    let g = v.spec().geometry;
    let (w, h) = (g.width as usize, g.height as usize);
    let mut cells = vec![None; w * h];
    for &(s, c) in pieces {
        cells[s.index()] = Some(c);
    }
    let mut out = String::new();
    for rank in (0..h).rev() {
        let mut empty = 0;
        for cell in &cells[rank * w..(rank + 1) * w] {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// A FEN from named squares, e.g. `fen(v, &[("f2", 'K'), ("f10", 'k')], "w - - 0 1")`.
fn fen(v: Variant, pieces: &[(&str, char)], rest: &str) -> String {
    let list: Vec<(Square, char)> = pieces.iter().map(|&(n, c)| (square(v, n), c)).collect();
    format!("{} {rest}", board_fen(v, &list))
}

fn ucis(pos: &Position, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|&m| pos.uci(m)).collect()
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| m.raw());
    moves
}

/// Panics with the FEN and the differing moves when two move sets differ.
fn assert_same_moves(pos: &Position, what: &str, got: &[Move], expected: &[Move]) {
    if got != expected {
        let missing: Vec<Move> = expected.iter().copied().filter(|m| !got.contains(m)).collect();
        let extra: Vec<Move> = got.iter().copied().filter(|m| !expected.contains(m)).collect();
        panic!(
            "{what} differ in {} position {}\n  missing: {:?}\n  extra:   {:?}\n  (got {} moves, expected {})",
            pos.variant(),
            pos.fen(),
            ucis(pos, &missing),
            ucis(pos, &extra),
            got.len(),
            expected.len()
        );
    }
}

/// The FEN fields that make a position the same for repetition (pieces, side, castling,
/// en passant, rendezvous rights): everything but the two clocks.
fn repetition_key(pos: &Position) -> String {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let mut key: Vec<&str> = fields[..4].to_vec();
    key.extend(fields.iter().skip(6));
    key.join(" ")
}

// ---------------------------------------------------------------------------------------------
// Playouts
// ---------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Stats {
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
enum Style {
    Uniform,
    Tactical,
    PawnPusher,
    KingWalker,
}

const STYLES: [Style; 4] = [Style::Uniform, Style::Tactical, Style::PawnPusher, Style::KingWalker];

/// Every check of one position. Returns the legal moves in generator order.
fn check_position(pos: &Position, check_san: bool, rng: &mut Rng, stats: &mut Stats) -> Vec<Move> {
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
        .filter(|&m| is_capture(pos, m) || m.kind() == MoveKind::Promotion)
        .collect();
    assert_same_moves(pos, "capture_moves and filtered legal moves", &captures, &expected);

    // Check detection agrees with the reference attack test.
    let us = pos.turn();
    let king = pos.king(us);
    assert_eq!(
        pos.in_check(),
        reference::is_attacked(pos, king, !us),
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
    assert!(ep_moves.iter().all(|m| Some(m.to()) == pos.ep_square()), "{v}: {fen}");
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
        // The mover's king is safe afterwards (the reference attack test).
        assert!(
            !reference::is_attacked(&child, child.king(us), !us),
            "{v}: {} leaves the king attacked in {fen}",
            pos.uci(m)
        );

        let text = pos.uci(m);
        assert_eq!(
            pos.parse_uci(&text),
            Ok(m),
            "{v}: UCI '{text}' does not read back in {fen}"
        );
        let parsed: UciMove = text.parse().unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(parsed.to_string(), text);
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
            let expected = if pos.in_check() {
                Outcome::Checkmate { winner: !us }
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
fn is_special(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant | MoveKind::Castle | MoveKind::Rendezvous | MoveKind::Promotion => true,
        MoveKind::DoubleStep => false,
        MoveKind::Normal => moved_kind(pos, m) == Some(PieceKind::King) && is_citadel(pos.variant(), m.to()),
    }
}

fn choose(pos: &Position, moves: &[Move], rng: &mut Rng, style: Style) -> Move {
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
fn check_transition(pos: &Position, m: Move, after: &Position, stats: &mut Stats) {
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
        MoveKind::Normal | MoveKind::DoubleStep => {
            assert_eq!(after.piece_at(m.to()), Some(mover), "{}", ctx());
            if m.kind() == MoveKind::DoubleStep {
                stats.double_steps += 1;
            }
        }
        MoveKind::EnPassant => {
            assert_eq!(after.piece_at(m.to()), Some(mover), "{}", ctx());
            let (f, _) = file_rank(v, m.to());
            let (_, r) = file_rank(v, m.from());
            let victim = v.spec().geometry.square(f, r).unwrap_or_else(|| panic!("{}", ctx()));
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

fn playout(start: Position, max_plies: usize, style: Style, rng: &mut Rng, stats: &mut Stats) {
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
            let bare_kings = pos.occupied().count() == 2;
            let expected = if pos.halfmove_clock() >= 100 {
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
        let m = choose(&pos, &moves, rng, style);
        game.play(m);
        check_transition(&pos, m, game.position(), stats);
        keys.push(repetition_key(game.position()));
        stats.plies += 1;
    }
}

/// Hand-made open positions of the Persian variants (Omega gets wizards and a champion).
const PERSIAN_OPEN: &[(&[(&str, char)], &str)] = &[
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

const CHESS_OPEN: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
];

fn open_positions(v: Variant) -> Vec<Position> {
    let fens: Vec<String> = if v == Variant::Chess {
        CHESS_OPEN.iter().map(|s| s.to_string()).collect()
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
fn random_position(v: Variant, rng: &mut Rng) -> Position {
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
    let letter = |color: Color, kind: PieceKind| Piece { color, kind }.char();
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
        let mut text = format!(
            "{} {side} {castling} - {} {}",
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
const PLAYOUTS_FROM_START: usize = 120;
/// Games of up to 120 plies from each hand-made open position.
const PLAYOUTS_PER_OPEN_POSITION: usize = 16;
/// Games of up to 60 plies from random legal setups, per variant.
const PLAYOUTS_FROM_RANDOM_SETUPS: usize = 400;

fn run_playouts(v: Variant, seed: u64, from_start: usize, per_open: usize, random: usize) -> Stats {
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

fn assert_special_moves_occur(v: Variant, s: &Stats) {
    assert!(s.en_passant > 0, "{v}: no en passant played: {s:?}");
    assert!(s.castle_king_side > 0, "{v}: no king-side castling played: {s:?}");
    assert!(s.castle_queen_side > 0, "{v}: no queen-side castling played: {s:?}");
    assert!(s.promotions > 0, "{v}: no promotion played: {s:?}");
    assert!(s.under_promotions > 0, "{v}: no under-promotion played: {s:?}");
    assert!(s.captures > 0 && s.checks > 0, "{v}: {s:?}");
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

#[test]
fn playouts_celtic_citadel() {
    let s = run_playouts(
        Variant::CelticCitadel,
        11,
        PLAYOUTS_FROM_START,
        PLAYOUTS_PER_OPEN_POSITION,
        PLAYOUTS_FROM_RANDOM_SETUPS,
    );
    assert_special_moves_occur(Variant::CelticCitadel, &s);
}

#[test]
fn playouts_persian_princess() {
    let s = run_playouts(
        Variant::PersianPrincess,
        12,
        PLAYOUTS_FROM_START,
        PLAYOUTS_PER_OPEN_POSITION,
        PLAYOUTS_FROM_RANDOM_SETUPS,
    );
    assert_special_moves_occur(Variant::PersianPrincess, &s);
}

#[test]
fn playouts_egyptian_eye() {
    let s = run_playouts(
        Variant::EgyptianEye,
        13,
        PLAYOUTS_FROM_START,
        PLAYOUTS_PER_OPEN_POSITION,
        PLAYOUTS_FROM_RANDOM_SETUPS,
    );
    assert_special_moves_occur(Variant::EgyptianEye, &s);
}

#[test]
fn playouts_oriental_omega() {
    let s = run_playouts(
        Variant::OrientalOmega,
        14,
        PLAYOUTS_FROM_START,
        PLAYOUTS_PER_OPEN_POSITION,
        PLAYOUTS_FROM_RANDOM_SETUPS,
    );
    assert_special_moves_occur(Variant::OrientalOmega, &s);
}

#[test]
fn playouts_chess() {
    let s = run_playouts(
        Variant::Chess,
        15,
        PLAYOUTS_FROM_START,
        PLAYOUTS_PER_OPEN_POSITION,
        PLAYOUTS_FROM_RANDOM_SETUPS,
    );
    assert_special_moves_occur(Variant::Chess, &s);
}

// ---------------------------------------------------------------------------------------------
// Repetition
// ---------------------------------------------------------------------------------------------

fn play(game: &mut Game, text: &str) {
    let m = game
        .position()
        .parse_uci(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.position().fen()));
    game.play(m);
}

/// Plays `moves` and checks `Game::repetitions` after each ply; the game must be drawn by
/// repetition exactly when the count reaches 3.
fn play_and_count(game: &mut Game, moves: &[&str], counts: &[usize]) {
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
fn knights_shuffling_repeat_the_start_position() {
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
fn lost_castling_rights_make_a_different_position() {
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
fn irreversible_moves_end_the_repetition_window() {
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

// ---------------------------------------------------------------------------------------------
// Fuzzing
// ---------------------------------------------------------------------------------------------

const FEN_ALPHABET: &[char] = &[
    'K', 'Q', 'R', 'B', 'N', 'P', 'S', 'F', 'W', 'C', 'k', 'q', 'r', 'b', 'n', 'p', 's', 'f', 'w', 'c', '0', '1', '1',
    '1', '2', '5', '9', '1', '/', '/', ' ', ' ', '-', 'e', 'a', 'h', 'j', 'l', 'x', 'X', 'Z', '+', '.', '\t', '\n',
    '\0', 'é', 'ß', '€', '😀', '\u{200b}', '½',
];

const WEIRD_FIELDS: &[&str] = &[
    "",
    "0",
    "00",
    "01",
    "-0",
    "-1",
    "+5",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e5",
    "é",
    "😀",
    "-",
    "--",
    "KQkqKQkq",
    "Rr",
    "rR",
    "RRr",
    "a0",
    "a12",
    "p16",
    "k11",
    "e10",
    "e99999999999",
    "w",
    "b",
];

const WEIRD_RANKS: &[&str] = &[
    "99999999999999999999999P",
    "18446744073709551616",
    "18446744073709551615K",
    "0",
    "00",
    "0P",
    "011",
    "1P0",
    "11111111111111111111111",
    "",
    "é",
    "P😀P",
    "KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK",
];

fn random_text(rng: &mut Rng, alphabet: &[char], max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| *rng.pick(alphabet)).collect()
}

fn random_bytes(rng: &mut Rng, max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// One to four random edits of a text: characters replaced, inserted, deleted or duplicated,
/// fields swapped, dropped, added or replaced with odd values, ranks replaced.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut s = text.to_string();
    for _ in 0..1 + rng.below(4) {
        let mut chars: Vec<char> = s.chars().collect();
        match rng.below(10) {
            0 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                chars[i] = *rng.pick(FEN_ALPHABET);
                s = chars.into_iter().collect();
            }
            1 => {
                let i = rng.below(chars.len() + 1);
                chars.insert(i, *rng.pick(FEN_ALPHABET));
                s = chars.into_iter().collect();
            }
            2 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                chars.remove(i);
                s = chars.into_iter().collect();
            }
            3 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                let j = (i + rng.below(8)).min(chars.len());
                let piece: Vec<char> = chars[i..j].to_vec();
                let at = rng.below(chars.len() + 1);
                chars.splice(at..at, piece);
                s = chars.into_iter().collect();
            }
            4 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                let (i, j) = (rng.below(fields.len()), rng.below(fields.len()));
                fields.swap(i, j);
                s = fields.join(" ");
            }
            5 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                let i = rng.below(fields.len());
                fields[i] = rng.pick(WEIRD_FIELDS).to_string();
                s = fields.join(" ");
            }
            6 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                if rng.chance(1, 2) && fields.len() > 1 {
                    let i = rng.below(fields.len());
                    fields.remove(i);
                } else {
                    fields.push(rng.pick(WEIRD_FIELDS).to_string());
                }
                s = fields.join(" ");
            }
            7 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                let mut ranks: Vec<String> = fields[0].split('/').map(str::to_string).collect();
                let i = rng.below(ranks.len());
                match rng.below(3) {
                    0 => ranks[i] = rng.pick(WEIRD_RANKS).to_string(),
                    1 => {
                        let r = ranks[i].clone();
                        ranks.insert(i, r);
                    }
                    _ => {
                        ranks.remove(i);
                    }
                }
                fields[0] = ranks.join("/");
                s = fields.join(" ");
            }
            8 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                chars.truncate(i);
                s = chars.into_iter().collect();
            }
            _ => {
                // Insert an odd value (a huge number, a zero, non-ASCII text) anywhere.
                let i = rng.below(chars.len() + 1);
                let run: Vec<char> = rng.pick(WEIRD_FIELDS).chars().collect();
                chars.splice(i..i, run);
                s = chars.into_iter().collect();
            }
        }
    }
    s
}

/// Sample positions of every variant: start, open positions and short random games.
fn sample_positions(rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        out.push(Position::startpos(v));
        out.extend(open_positions(v));
        for _ in 0..6 {
            let mut pos = if rng.chance(1, 2) {
                Position::startpos(v)
            } else {
                random_position(v, rng)
            };
            for _ in 0..rng.below(40) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = *rng.pick(moves.as_slice());
                pos.play_unchecked(m);
            }
            out.push(pos);
        }
    }
    out
}

/// What must hold for any position a reader accepted.
fn check_accepted(pos: &Position) {
    let v = pos.variant();
    let fen = pos.fen();
    assert_eq!(pos.hash(), pos.compute_hash(), "{v}: {fen}");
    for convention in [Convention::MultiDigit, Convention::OnePerCell] {
        let text = pos.fen_with(convention);
        let back = Position::from_fen(v, &text).unwrap_or_else(|e| panic!("{v}: '{text}' does not read back: {e}"));
        assert_eq!(&back, pos, "{v}: {text}");
    }
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves() as usize, moves.len(), "{v}: {fen}");
    // Every move can be played (clocks and counters included).
    for &m in moves.iter() {
        let child = pos.after(m);
        assert_eq!(child.hash(), child.compute_hash(), "{v}: {} in {fen}", pos.uci(m));
    }
    let _ = pos.outcome();
}

#[test]
fn fuzz_fen_readers_never_panic() {
    let mut rng = Rng::new(0xF00D);
    let mut seeds: Vec<String> = Vec::new();
    for pos in sample_positions(&mut rng) {
        seeds.push(pos.fen());
        seeds.push(pos.fen_with(Convention::OnePerCell));
    }
    let mut accepted = 0;
    let mut rejected = 0;
    for i in 0..30_000 {
        let text = match i % 6 {
            0 => random_bytes(&mut rng, 100),
            1 => random_text(&mut rng, FEN_ALPHABET, 140),
            _ => mutate(rng.pick(&seeds).clone().as_str(), &mut rng),
        };
        for v in Variant::ALL {
            let setup = parse_setup(v, &text);
            let result = Position::from_fen(v, &text);
            match (&setup, &result) {
                (Err(e), Err(FenError::Parse(f))) => assert_eq!(e, f, "{v}: '{text}'"),
                (Ok(s), Err(FenError::Position(e))) => {
                    assert_eq!(Position::from_setup(v, s).as_ref(), Err(e), "{v}: '{text}'")
                }
                (Ok(_), Ok(pos)) => {
                    check_accepted(pos);
                    accepted += 1;
                }
                _ => panic!("{v}: parse_setup and from_fen disagree on '{text}': {setup:?} / {result:?}"),
            }
            if result.is_err() {
                rejected += 1;
            }
        }
    }
    eprintln!("FEN fuzz: {accepted} accepted, {rejected} rejected");
    assert!(accepted > 100 && rejected > 100);
}

#[test]
fn fuzz_setup_validation_never_panics() {
    let mut rng = Rng::new(0xBEEF);
    let kinds = PieceKind::ALL;
    let mut accepted = 0;
    for _ in 0..20_000 {
        let v = *rng.pick(&Variant::ALL);
        let cells = v.spec().geometry.cells();
        let mut board = Vec::new();
        // Kings are usually there, so that the later checks are reached.
        if rng.chance(4, 5) {
            for color in Color::ALL {
                let s = Square(rng.below(cells) as u8);
                board.push((
                    s,
                    Piece {
                        color,
                        kind: PieceKind::King,
                    },
                ));
            }
        }
        for _ in 0..rng.below(12) {
            let s = if rng.chance(1, 10) {
                Square(rng.next_u64() as u8)
            } else {
                Square(rng.below(cells) as u8)
            };
            let color = if rng.chance(1, 2) { Color::White } else { Color::Black };
            board.push((
                s,
                Piece {
                    color,
                    kind: *rng.pick(&kinds),
                },
            ));
        }
        let castling: Vec<char> = (0..rng.below(4))
            .map(|_| *rng.pick(&['K', 'Q', 'k', 'q', 'K', 'X', 'é', '-']))
            .collect();
        let number = |rng: &mut Rng| match rng.below(4) {
            0 => u32::MAX,
            1 => u32::MAX - 1,
            _ => rng.below(200) as u32,
        };
        let setup = Setup {
            board,
            turn: if rng.chance(1, 2) { Color::White } else { Color::Black },
            castling,
            ep: match rng.below(3) {
                0 => None,
                1 => Some(Square(rng.next_u64() as u8)),
                _ => Some(Square(rng.below(cells) as u8)),
            },
            halfmove: number(&mut rng),
            fullmove: number(&mut rng),
            rendezvous: match rng.below(3) {
                0 => None,
                _ => Some((rng.chance(1, 2), rng.chance(1, 2))),
            },
        };
        for v in Variant::ALL {
            if let Ok(pos) = Position::from_setup(v, &setup) {
                check_accepted(&pos);
                accepted += 1;
            }
        }
    }
    eprintln!("setup fuzz: {accepted} accepted");
    assert!(accepted > 100);
}

const MOVE_ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'p', 'z', '0', '1', '1', '2', '3', '5', '9', '1', '0',
    'q', 'r', 'n', 's', 'w', 'K', 'Q', 'R', 'B', 'N', 'S', 'F', 'W', 'C', 'P', 'O', 'x', '=', '+', '#', '~', '-', '!',
    '?', ' ', 'é', '😀', '\0',
];

#[test]
fn fuzz_move_readers_never_panic() {
    let mut rng = Rng::new(0xCAFE);
    let positions = sample_positions(&mut rng);
    let mut uci_ok = 0;
    let mut san_ok = 0;
    for i in 0..40_000 {
        let pos = rng.pick(&positions).clone();
        let moves = pos.legal_moves();
        let text = match i % 4 {
            0 => random_text(&mut rng, MOVE_ALPHABET, 8),
            1 => random_bytes(&mut rng, 8),
            _ if moves.is_empty() => "0000".to_string(),
            _ => mutate(&pos.uci(*rng.pick(moves.as_slice())), &mut rng),
        };
        if let Ok(m) = text.parse::<UciMove>() {
            assert_eq!(m.to_string().parse::<UciMove>(), Ok(m), "'{text}'");
        }
        if let Ok(m) = pos.parse_uci(&text) {
            assert!(moves.contains(m), "{}: '{text}' gives an illegal move", pos.fen());
            assert_eq!(pos.uci(m), text, "{}", pos.fen());
            uci_ok += 1;
        }
        // SAN is slower to read: fewer inputs.
        if i % 8 == 0 {
            let text = match i % 3 {
                0 => random_text(&mut rng, MOVE_ALPHABET, 8),
                1 => random_bytes(&mut rng, 8),
                _ if moves.is_empty() => "O-O".to_string(),
                _ => mutate(&pos.san(*rng.pick(moves.as_slice())), &mut rng),
            };
            if let Ok(m) = pos.parse_san(&text) {
                assert!(moves.contains(m), "{}: '{text}' gives an illegal move", pos.fen());
                san_ok += 1;
            }
        }
    }
    eprintln!("move fuzz: {uci_ok} UCI and {san_ok} SAN texts accepted");
    assert!(uci_ok > 0 && san_ok > 0);
}

// ---------------------------------------------------------------------------------------------
// Bad FENs
// ---------------------------------------------------------------------------------------------

fn error_of(v: Variant, text: &str) -> FenError {
    match Position::from_fen(v, text) {
        Ok(pos) => panic!("{v}: '{text}' was accepted as {}", pos.fen()),
        Err(e) => e,
    }
}

fn parse_error(v: Variant, text: &str) -> ParseFenError {
    match error_of(v, text) {
        FenError::Parse(e) => e,
        FenError::Position(e) => panic!("{v}: '{text}': expected a parse error, got {e:?}"),
    }
}

fn position_error(v: Variant, text: &str) -> PositionError {
    match error_of(v, text) {
        FenError::Position(e) => e,
        FenError::Parse(e) => panic!("{v}: '{text}': expected a position error, got {e:?}"),
    }
}

/// The start FEN of a Persian variant with one rank (1 = bottom) replaced and other trailing fields.
fn start_with(v: Variant, rank: usize, text: &str, rest: &str) -> String {
    let start = v.spec().start_fen;
    let board = start.split(' ').next().unwrap_or("");
    let mut ranks: Vec<&str> = board.split('/').collect();
    let n = ranks.len();
    ranks[n - rank] = text;
    format!("{} {rest}", ranks.join("/"))
}

const PP: Variant = Variant::PersianPrincess;
const KINGS: [(&str, char); 2] = [("f2", 'K'), ("f10", 'k')];

fn with_kings(v: Variant, extra: &[(&str, char)], rest: &str) -> String {
    let mut pieces = KINGS.to_vec();
    pieces.extend_from_slice(extra);
    fen(v, &pieces, rest)
}

#[test]
fn bad_fens_give_their_specific_errors() {
    // Pieces on holes, in both conventions.
    for (rank, text, piece, sq) in [
        (1, "FN8F", 'N', "b1"),
        (5, "N10", 'N', "a5"),
        (7, "10n", 'n', "k7"),
        (11, "f8Rf", 'R', "j11"),
    ] {
        let e = position_error(PP, &start_with(PP, rank, text, "w KQkq - 0 1"));
        assert_eq!(
            e,
            PositionError::PieceOnHole {
                piece,
                square: sq.to_string()
            }
        );
    }
    let one_per_cell = Position::startpos(PP).fen_with(Convention::OnePerCell);
    let bad = one_per_cell.replacen("F111111111F", "FN11111111F", 1);
    assert_ne!(bad, one_per_cell);
    assert_eq!(
        position_error(PP, &bad),
        PositionError::PieceOnHole {
            piece: 'N',
            square: "b1".into()
        }
    );

    // f6 in the Egyptian Eye.
    let eye = Variant::EgyptianEye;
    for piece in ['N', 'p', 'Q', 's'] {
        let text = start_with(eye, 6, &format!("5{piece}5"), "w KQkq - 0 1");
        assert_eq!(
            position_error(eye, &text),
            PositionError::PieceOnBlockedSquare {
                piece,
                square: "f6".into()
            }
        );
    }
    // A king on a square the Eye sees.
    for sq in ["e5", "b2", "j10", "c9"] {
        let text = fen(eye, &[(sq, 'K'), ("f10", 'k')], "w - - 0 1");
        assert_eq!(
            position_error(eye, &text),
            PositionError::KingOnSeenSquare {
                color: "white",
                square: sq.into()
            }
        );
    }
    let text = fen(eye, &[("f2", 'K'), ("k11", 'k')], "w - - 0 1");
    assert!(matches!(
        position_error(eye, &text),
        PositionError::KingOnSeenSquare { color: "black", .. }
    ));

    // Pieces the variant does not have.
    for (v, text) in [
        (PP, with_kings(PP, &[("a1", 'W')], "w - - 0 1")),
        (
            Variant::CelticCitadel,
            with_kings(Variant::CelticCitadel, &[("e4", 'c')], "w - - 0 1"),
        ),
        (
            Variant::OrientalOmega,
            with_kings(Variant::OrientalOmega, &[("e4", 'S')], "w - - 0 1"),
        ),
        (Variant::Chess, "4k3/8/8/8/8/8/8/F3K3 w - - 0 1".to_string()),
    ] {
        assert!(
            matches!(position_error(v, &text), PositionError::PieceNotInVariant { .. }),
            "{v}: {text}"
        );
    }

    // Not exactly one king per side.
    let e = position_error(PP, &start_with(PP, 2, "1RNBQ1SBNR1", "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "white",
            count: 0
        }
    );
    let e = position_error(PP, &start_with(PP, 8, "5k5", "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "black",
            count: 2
        }
    );
    let e = position_error(PP, &fen(PP, &[("f2", 'K')], "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "black",
            count: 0
        }
    );
    let e = position_error(PP, &with_kings(PP, &[("a1", 'K')], "w - - 0 1"));
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "white",
            count: 2
        }
    );
    let e = position_error(Variant::Chess, "4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(
        e,
        PositionError::KingCount {
            color: "white",
            count: 0
        }
    );

    // Castling rights without their rook or king.
    let e = position_error(PP, &start_with(PP, 2, "1RNBQKSBN2", "w K - 0 1"));
    assert_eq!(e, PositionError::CastlingWithoutRook('K'));
    let e = position_error(PP, &start_with(PP, 10, "2nbqksbnr1", "w Qq - 0 1"));
    assert_eq!(e, PositionError::CastlingWithoutRook('q'));
    let e = position_error(
        PP,
        &start_with(PP, 2, "1RNBQ1SBNR1", "w KQkq - 0 1").replace("/11/11/11/1P", "/11/11/5K5/1P"),
    );
    assert_eq!(e, PositionError::CastlingWithoutKing('K'));
    let text = fen(PP, &[("e2", 'K'), ("b2", 'R'), ("f10", 'k')], "w Q - 0 1");
    assert_eq!(position_error(PP, &text), PositionError::CastlingWithoutKing('Q'));
    let text = fen(PP, &[("f2", 'K'), ("j10", 'r'), ("f9", 'k')], "b k - 0 1");
    assert_eq!(position_error(PP, &text), PositionError::CastlingWithoutKing('k'));
    let e = position_error(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1");
    assert_eq!(e, PositionError::CastlingWithoutRook('K'));
    let e = position_error(PP, &start_with(PP, 1, "F9F", "w KK - 0 1"));
    assert_eq!(e, PositionError::DuplicateCastlingRight('K'));
    // A castling letter the variant does not have can only come from a hand-made setup.
    let mut setup = Position::startpos(PP).to_setup();
    setup.castling = vec!['X'];
    assert_eq!(
        Position::from_setup(PP, &setup),
        Err(PositionError::UnknownCastlingRight('X'))
    );

    // Impossible en-passant squares.
    let impossible = |v: Variant, text: &str, why: &str| match position_error(v, text) {
        PositionError::ImpossibleEnPassant { reason, .. } => assert!(reason.contains(why), "{text}: {reason}"),
        e => panic!("{v}: '{text}': expected ImpossibleEnPassant, got {e:?}"),
    };
    let start = |ep: &str, side: &str| start_with(PP, 1, "F9F", &format!("{side} KQkq {ep} 0 1"));
    impossible(PP, &start("e6", "w"), "double step passes"); // wrong rank
    impossible(PP, &start("e4", "w"), "double step passes"); // White's own side
    impossible(PP, &start("e8", "b"), "double step passes"); // Black's own side
    impossible(PP, &start("a4", "b"), "double step passes"); // a hole
    impossible(PP, &start("k8", "w"), "double step passes"); // a hole
    impossible(PP, &start("e4", "b"), "not empty"); // the start square e3 is occupied
                                                    // After e3e5: the passed square e4 is occupied.
    let after_double = |e4: &str| {
        let text = start_with(PP, 3, "1PPP1PPPPP1", "b KQkq e4 0 1");
        let text = text.replacen("/11/11/1PPP1", &format!("/4P6/{e4}/1PPP1"), 1);
        text
    };
    impossible(PP, &after_double("4N6"), "not empty");
    // No pawn in front of the passed square.
    impossible(PP, &start_with(PP, 3, "1PPP1PPPPP1", "b KQkq e4 0 1"), "no pawn");
    let e = position_error(
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    );
    assert!(matches!(e, PositionError::ImpossibleEnPassant { .. }));
    // A possible ep square is accepted, and kept only when a capture is legal.
    let pos = Position::from_fen(PP, &after_double("11")).expect("a legal double step");
    assert_eq!(pos.ep_square(), None, "no black pawn can capture");
    let text = after_double("11").replacen("/4P6/", "/4Pp5/", 1);
    let pos = Position::from_fen(PP, &text).expect("a legal double step");
    assert_eq!(pos.ep_square(), Some(square(PP, "e4")), "{text}");

    // Rank widths in both conventions, and the rank count.
    let e = parse_error(PP, &start_with(PP, 8, "12", "w KQkq - 0 1"));
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 8,
            found: 12,
            expected: 11
        }
    );
    let e = parse_error(PP, &start_with(PP, 3, "1PPPPPPPPP", "w KQkq - 0 1"));
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 3,
            found: 10,
            expected: 11
        }
    );
    let e = parse_error(PP, &start_with(PP, 10, "1rnbqksbnr1p", "w KQkq - 0 1"));
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 10,
            found: 12,
            expected: 11
        }
    );
    // One per cell: a rank one cell short or long makes the board unreadable in either convention.
    for (from, to) in [("11111111111", "1111111111"), ("11111111111", "111111111111")] {
        let bad = one_per_cell.replacen(from, to, 1);
        assert_ne!(bad, one_per_cell);
        assert!(
            matches!(parse_error(PP, &bad), ParseFenError::RankWidth { expected: 11, .. }),
            "{bad}"
        );
    }
    let bad = one_per_cell.replacen("1PPPPPPPPP1", "1PPPPPPPPP", 1);
    assert!(matches!(
        parse_error(PP, &bad),
        ParseFenError::RankWidth { expected: 11, .. }
    ));
    let e = parse_error(
        Variant::Chess,
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert_eq!(
        e,
        ParseFenError::RankWidth {
            rank: 6,
            found: 9,
            expected: 8
        }
    );
    let e = parse_error(
        Variant::Chess,
        "rnbqkbnr/pppppppp/1111111/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(matches!(e, ParseFenError::RankWidth { rank: 6, .. }));
    let start_fen = PP.spec().start_fen;
    let e = parse_error(PP, &format!("11/{start_fen}"));
    assert_eq!(
        e,
        ParseFenError::RankCount {
            found: 12,
            expected: 11
        }
    );
    let e = parse_error(PP, start_fen.replacen("11/", "", 1).as_str());
    assert_eq!(
        e,
        ParseFenError::RankCount {
            found: 10,
            expected: 11
        }
    );
    let e = parse_error(Variant::Chess, "8/8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(e, ParseFenError::RankCount { found: 9, expected: 8 });
    // Huge runs of empty cells are a width error, not an overflow.
    for run in [
        "99999999999999999999999",
        "18446744073709551616",
        "18446744073709551615",
    ] {
        for text in [run.to_string(), format!("{run}P"), format!("P{run}")] {
            let e = parse_error(PP, &start_with(PP, 5, &text, "w KQkq - 0 1"));
            assert!(matches!(e, ParseFenError::RankWidth { rank: 5, .. }), "{text}: {e:?}");
        }
    }

    // Pawns on ranks where no pawn can stand.
    for (v, sq, piece, color) in [
        (PP, "c2", 'P', "white"),
        (PP, "c10", 'P', "white"),
        (PP, "a1", 'P', "white"),
        (PP, "k11", 'P', "white"),
        (PP, "c10", 'p', "black"),
        (PP, "c2", 'p', "black"),
        (PP, "a11", 'p', "black"),
        (Variant::OrientalOmega, "j2", 'p', "black"),
    ] {
        let text = with_kings(v, &[(sq, piece)], "w - - 0 1");
        assert_eq!(
            position_error(v, &text),
            PositionError::PawnOnImpossibleRank {
                color,
                square: sq.into()
            },
            "{text}"
        );
    }
    for (text, sq) in [
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a1"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a8"),
    ] {
        assert_eq!(
            position_error(Variant::Chess, text),
            PositionError::PawnOnImpossibleRank {
                color: "white",
                square: sq.into()
            }
        );
    }

    // The side not to move is in check.
    let text = with_kings(PP, &[("f5", 'R')], "w - - 0 1"); // through the empty f6
    assert_eq!(position_error(PP, &text), PositionError::OpponentInCheck("black"));
    let text = with_kings(PP, &[("b6", 'q')], "b - - 0 1");
    assert_eq!(position_error(PP, &text), PositionError::OpponentInCheck("white"));
    let text = with_kings(Variant::OrientalOmega, &[("f4", 'c')], "b - - 0 1"); // champion's D leap
    assert_eq!(
        position_error(Variant::OrientalOmega, &text),
        PositionError::OpponentInCheck("white")
    );
    let e = position_error(Variant::Chess, "4k2R/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(e, PositionError::OpponentInCheck("black"));

    // Unknown characters on the board.
    for (rank, text, ch) in [
        (5, "5X5", 'X'),
        (5, "5é5", 'é'),
        (7, "5!5", '!'),
        (5, "5P0P3", '0'),
        (6, "0", '0'),
    ] {
        let e = parse_error(PP, &start_with(PP, rank, text, "w KQkq - 0 1"));
        assert_eq!(e, ParseFenError::BadBoardChar { rank, ch }, "{text}");
    }
    let e = parse_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w - - 0 1");
    assert_eq!(e, ParseFenError::BadBoardChar { rank: 1, ch: 'Z' });

    // The fields after the board.
    let fields = |rest: &str| start_with(PP, 1, "F9F", rest);
    for side in ["x", "W", "white", "-", "é"] {
        assert_eq!(parse_error(PP, &fields(side)), ParseFenError::BadSide(side.into()));
    }
    for castling in ["KQkqX", "abc", "1", "KQ-"] {
        let e = parse_error(PP, &fields(&format!("w {castling} - 0 1")));
        assert_eq!(e, ParseFenError::BadCastling(castling.into()));
    }
    for ep in ["e", "z5", "e0", "e05", "e12", "l5", "5e", "E3", "e3e"] {
        let e = parse_error(PP, &fields(&format!("w KQkq {ep} 0 1")));
        assert_eq!(e, ParseFenError::BadEnPassant(ep.into()));
    }
    assert_eq!(
        parse_error(Variant::Chess, "8/8/8/8/8/8/8/K6k w - e9 0 1"),
        ParseFenError::BadEnPassant("e9".into())
    );
    for half in ["-1", "x", "4294967296", "1.5", "99999999999999999999"] {
        let e = parse_error(PP, &fields(&format!("w KQkq - {half} 1")));
        assert_eq!(e, ParseFenError::BadHalfmove(half.into()));
    }
    for full in ["0", "-1", "abc", "4294967296", "1.0"] {
        let e = parse_error(PP, &fields(&format!("w KQkq - 0 {full}")));
        assert_eq!(e, ParseFenError::BadFullmove(full.into()));
    }
    for rdv in ["RR", "rr", "Rx", "RrR", "x", "R-", "1"] {
        let e = parse_error(PP, &fields(&format!("w KQkq - 0 1 {rdv}")));
        assert_eq!(e, ParseFenError::BadRendezvous(rdv.into()));
    }
    assert_eq!(
        parse_error(PP, &fields("w KQkq - 0 1 Rr extra")),
        ParseFenError::TooManyFields(8)
    );
    assert_eq!(
        parse_error(PP, start_fen.split(' ').next().unwrap_or("")),
        ParseFenError::MissingSide
    );
    assert_eq!(parse_error(PP, ""), ParseFenError::Empty);
    assert_eq!(parse_error(PP, " \t\n "), ParseFenError::Empty);

    // Rendezvous rights where there is no rendezvous.
    let celtic = Variant::CelticCitadel;
    for rdv in ["Rr", "R", "r"] {
        let text = format!("{} {rdv}", celtic.spec().start_fen);
        assert_eq!(
            position_error(celtic, &text),
            PositionError::NoRendezvousInVariant("Celtic Citadel")
        );
        let text = format!("{} {rdv}", Variant::Chess.spec().start_fen);
        assert!(matches!(
            position_error(Variant::Chess, &text),
            PositionError::NoRendezvousInVariant(_)
        ));
    }
    // "-" (no rights) is fine anywhere, and absent rights mean both where the rule exists.
    let pos = Position::from_fen(celtic, &format!("{} -", celtic.spec().start_fen)).expect("'-' is accepted");
    assert_eq!(pos, Position::startpos(celtic));
    let pos = Position::from_fen(PP, start_fen.trim_end_matches(" Rr")).expect("defaults");
    assert!(pos.has_rendezvous_right(Color::White) && pos.has_rendezvous_right(Color::Black));
    let pos = Position::from_fen(PP, &fields("b")).expect("only side given");
    assert_eq!(
        (pos.halfmove_clock(), pos.fullmove_number(), pos.castling_rights()),
        (0, 1, 0)
    );
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the tests above
// ---------------------------------------------------------------------------------------------

#[test]
fn capture_moves_include_promotions_without_capture() {
    let uci_set = |pos: &Position, moves: &[Move]| {
        let mut v = ucis(pos, moves);
        v.sort();
        v
    };
    // Persian: a pawn on c9 promotes on the empty c10, and may capture on b10.
    let v = PP;
    let pos = Position::from_fen(v, &with_kings(v, &[("c9", 'P'), ("b10", 'r')], "w - - 0 1")).expect("valid");
    let captures: Vec<Move> = pos.capture_moves().iter().copied().collect();
    let expected = [
        "c9b10b", "c9b10n", "c9b10q", "c9b10r", "c9c10b", "c9c10n", "c9c10q", "c9c10r",
    ];
    assert_eq!(uci_set(&pos, &captures), expected);
    // Chess, in check: the promotion that blocks the check is in the list too.
    let pos = Position::from_fen(Variant::Chess, "r6K/1P6/8/8/8/8/8/k7 w - - 0 1").expect("valid");
    assert!(pos.in_check());
    let captures: Vec<Move> = pos.capture_moves().iter().copied().collect();
    let expected = ["b7a8b", "b7a8n", "b7a8q", "b7a8r", "b7b8b", "b7b8n", "b7b8q", "b7b8r"];
    assert_eq!(uci_set(&pos, &captures), expected);
}

#[test]
fn clocks_at_their_maximum_do_not_overflow() {
    for v in Variant::ALL {
        let start = v.spec().start_fen;
        let fields: Vec<&str> = start.split(' ').collect();
        let text = format!("{} b {} - 4294967295 4294967295", fields[0], fields[2]);
        let pos = Position::from_fen(v, &text).expect("the clocks are in range");
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| pos.piece_at(m.from()).map(|p| p.kind) == Some(PieceKind::Knight));
        let child = pos.after(m.expect("a knight move"));
        assert_eq!(child.halfmove_clock(), u32::MAX, "{v}");
        assert_eq!(child.fullmove_number(), u32::MAX, "{v}");
        assert_eq!(child.hash(), child.compute_hash());
        let mut null = pos.clone();
        null.play_null();
        assert_eq!((null.halfmove_clock(), null.fullmove_number()), (u32::MAX, u32::MAX));
    }
}

#[test]
fn san_texts() {
    let san = |v: Variant, fen_text: &str, uci: &str| -> String {
        let pos = Position::from_fen(v, fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
        let m = pos
            .parse_uci(uci)
            .unwrap_or_else(|e| panic!("{uci} in {fen_text}: {e}"));
        let text = pos.san(m);
        assert_eq!(pos.parse_san(&text), Ok(m), "{text}");
        text
    };
    let chess = Variant::Chess;
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for (uci, expected) in [
        ("e1g1", "O-O"),
        ("e1c1", "O-O-O"),
        ("e5f7", "Nxf7"),
        ("d5e6", "dxe6"),
        ("f3f6", "Qxf6"),
        ("e2a6", "Bxa6"),
        ("a2a4", "a4"),
    ] {
        assert_eq!(san(chess, kiwipete, uci), expected);
    }
    // Disambiguation by file, by rank, by both.
    assert_eq!(san(chess, "7k/8/8/8/8/8/8/R5RK w - - 0 1", "a1d1"), "Rad1");
    assert_eq!(san(chess, "7k/8/8/R7/8/8/8/R6K w - - 0 1", "a1a3"), "R1a3");
    let queens = "6k1/8/8/Q1Q5/8/8/8/Q6K w - - 0 1";
    assert_eq!(san(chess, queens, "a1c3"), "Q1c3");
    assert_eq!(san(chess, queens, "a5c3"), "Qa5c3");
    assert_eq!(san(chess, queens, "c5c3"), "Qcc3");
    // Promotions, en passant, check and mate marks.
    assert_eq!(san(chess, "8/P7/8/8/8/1k6/8/7K w - - 0 1", "a7a8q"), "a8=Q");
    assert_eq!(san(chess, "8/P7/8/8/8/1k6/8/7K w - - 0 1", "a7a8n"), "a8=N");
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(san(chess, ep, "e5f6"), "exf6");
    assert_eq!(san(chess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
    assert_eq!(san(chess, "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", "a1a8"), "Ra8#");

    // Persian Chess: the rendezvous, castling on the 11x11 board, two-digit ranks.
    assert_eq!(san(PP, PP.spec().start_fen, "g2h2"), "S~h2");
    assert_eq!(san(PP, PP.spec().start_fen, "c2d4"), "Nd4");
    assert_eq!(san(PP, PP.spec().start_fen, "b3b5"), "b5");
    let omega = Variant::OrientalOmega;
    assert_eq!(san(omega, omega.spec().start_fen, "g2h2"), "C~h2");
    let castles = with_kings(PP, &[("b2", 'R'), ("j2", 'R')], "w KQ - 0 1");
    assert_eq!(san(PP, &castles, "f2i2"), "O-O");
    assert_eq!(san(PP, &castles, "f2d2"), "O-O-O");
    let rooks = fen(PP, &[("f2", 'K'), ("c10", 'R'), ("c4", 'R'), ("i8", 'k')], "w - - 0 1");
    assert_eq!(san(PP, &rooks, "c10c7"), "R10c7");
    assert_eq!(san(PP, &rooks, "c4c7"), "R4c7");
    assert_eq!(san(PP, &rooks, "c10i10"), "Ri10+");
    let promotion = with_kings(PP, &[("c9", 'P'), ("b10", 'r')], "w - - 0 1");
    assert_eq!(san(PP, &promotion, "c9b10q"), "cxb10=Q+");
    assert_eq!(san(PP, &promotion, "c9c10r"), "c10=R+");
    // Input variants that are accepted.
    let pos = Position::from_fen(PP, &castles).expect("valid");
    let (oo, ooo) = (
        pos.parse_uci("f2i2").expect("legal"),
        pos.parse_uci("f2d2").expect("legal"),
    );
    assert_eq!(pos.parse_san("0-0"), Ok(oo));
    assert_eq!(pos.parse_san("O-O-O+!?"), Ok(ooo));
    assert_eq!(pos.parse_san("Rb2b3"), Ok(pos.parse_uci("b2b3").expect("legal")));
    assert!(pos.parse_san("Rb3b2").is_err());
}
