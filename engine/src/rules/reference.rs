//! A slow, obviously-correct move generator written directly from the variant spec: it walks
//! the grid cell by cell with the spec's vectors and reads the special rules from `spec.rules`,
//! without the attack tables, pins or bitboard tricks of the fast generator.
//!
//! It is the reference the fast generator is tested against, and it tells "illegal here" from
//! "not a move" when a UCI move is rejected.

use super::{
    geometry::Square,
    moves::{Move, MoveKind},
    piece::{Bent, Color, Piece, PieceKind, Vector},
    position::Position,
    special::{releases::Releases, square_promotion::SquarePromotion, Rule},
    tables::DIRECTIONS,
    variant::{Coord, VariantSpec},
};

fn square(spec: &VariantSpec, c: Coord) -> Option<Square> {
    spec.geometry.playable_square(c.0 as i32, c.1 as i32)
}

fn step(spec: &VariantSpec, sq: Square, v: Vector) -> Option<Square> {
    spec.geometry.offset(sq, v.0 as i32, v.1 as i32)
}

/// Whether a piece of `kind` may end a move on `sq` (centre-square rules).
fn may_end_on(spec: &VariantSpec, kind: PieceKind, sq: Square) -> bool {
    spec.rules.iter().all(|r| match r {
        Rule::CentreSquare(c) => square(spec, c.square) != Some(sq) || c.may_enter.contains(&kind),
        Rule::AllSeeingEye(e) => square(spec, e.square) != Some(sq),
        _ => true,
    })
}

/// Whether the All-Seeing Eye attacks `sq`.
fn eye_sees(spec: &VariantSpec, sq: Square) -> bool {
    spec.rules.iter().any(|r| match r {
        Rule::AllSeeingEye(e) => {
            let Some(eye) = square(spec, e.square) else {
                return false;
            };
            [(1, 1), (1, -1), (-1, 1), (-1, -1)].into_iter().any(|v| {
                let mut cur = eye;
                while let Some(next) = step(spec, cur, v) {
                    if next == sq {
                        return true;
                    }
                    cur = next;
                }
                false
            })
        }
        _ => false,
    })
}

fn forward(color: Color) -> i8 {
    if color == Color::White {
        1
    } else {
        -1
    }
}

fn slide_vectors(spec: &VariantSpec, kind: PieceKind) -> Vec<Vector> {
    let Some(p) = spec.piece(kind) else { return Vec::new() };
    DIRECTIONS
        .iter()
        .copied()
        .filter(|&(df, dr)| {
            if df == 0 || dr == 0 {
                p.movement.slides_orthogonally
            } else {
                p.movement.slides_diagonally
            }
        })
        .collect()
}

/// The bent rides of a kind: for each first step, the vectors of the slides from the first
/// square (those of the other line type at 45 degrees, pointing away from the start: their dot
/// product with the step is 1).
fn bent_rides(spec: &VariantSpec, kind: PieceKind) -> Vec<(Vector, Vec<Vector>)> {
    let Some(p) = spec.piece(kind) else { return Vec::new() };
    let (firsts, turns): (&[Vector], &[Vector]) = match p.movement.bent {
        Bent::None => return Vec::new(),
        Bent::AfterOrthogonalStep => (
            &[(0, 1), (1, 0), (0, -1), (-1, 0)],
            &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
        ),
        Bent::AfterDiagonalStep => (
            &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
            &[(0, 1), (1, 0), (0, -1), (-1, 0)],
        ),
    };
    firsts
        .iter()
        .map(|&v| {
            let outward = turns.iter().copied().filter(|u| u.0 * v.0 + u.1 * v.1 == 1).collect();
            (v, outward)
        })
        .collect()
}

/// The squares a bent rider on `from` reaches (captures included), walking cell by cell.
fn bent_targets(pos: &Position, from: Square, kind: PieceKind) -> Vec<Square> {
    let spec = pos.tables().spec;
    let mut out = Vec::new();
    for (v, outward) in bent_rides(spec, kind) {
        let Some(first) = step(spec, from, v) else { continue };
        out.push(first);
        if pos.piece_at(first).is_some() {
            continue;
        }
        for u in outward {
            let mut cur = first;
            while let Some(next) = step(spec, cur, u) {
                out.push(next);
                if pos.piece_at(next).is_some() {
                    break;
                }
                cur = next;
            }
        }
    }
    out
}

fn leap_vectors(spec: &VariantSpec, kind: PieceKind) -> Vec<Vector> {
    spec.piece(kind)
        .map(|p| p.movement.leaps.iter().flat_map(|g| g.iter().copied()).collect())
        .unwrap_or_default()
}

/// Whether the piece on `from` attacks `target` (ignoring where it may end its move).
fn piece_attacks(pos: &Position, from: Square, piece: Piece, target: Square) -> bool {
    let spec = pos.tables().spec;
    if piece.kind == PieceKind::Pawn {
        let f = forward(piece.color);
        let diagonal = [(1, f), (-1, f)]
            .into_iter()
            .any(|v| step(spec, from, v) == Some(target));
        // A pawn that may not promote on a square of its last rank does not attack it.
        return diagonal
            && !(is_promotion_square(spec, piece.color, target)
                && square_promotion(spec)
                    .is_some_and(|r| square_promotion_kinds(pos, r, piece.color, target).is_empty()));
    }
    if leap_vectors(spec, piece.kind)
        .into_iter()
        .any(|v| step(spec, from, v) == Some(target))
    {
        return true;
    }
    if bent_targets(pos, from, piece.kind).contains(&target) {
        return true;
    }
    slide_vectors(spec, piece.kind).into_iter().any(|v| {
        let mut cur = from;
        while let Some(next) = step(spec, cur, v) {
            if next == target {
                return true;
            }
            if pos.piece_at(next).is_some() {
                return false;
            }
            cur = next;
        }
        false
    })
}

/// Whether side `by` attacks `sq` (the All-Seeing Eye included).
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let spec = pos.tables().spec;
    if eye_sees(spec, sq) {
        return true;
    }
    all_squares(spec).any(|from| match pos.piece_at(from) {
        Some(p) if p.color == by => piece_attacks(pos, from, p, sq),
        _ => false,
    })
}

fn all_squares(spec: &VariantSpec) -> impl Iterator<Item = Square> + '_ {
    (0..spec.geometry.cells() as u8)
        .map(Square)
        .filter(|&s| spec.geometry.is_playable(s))
}

/// The royal pieces of a side: its kings, or what the variant's royalty rule says.
fn royal_squares(pos: &Position, color: Color) -> Vec<Square> {
    let t = pos.tables();
    if let Some(i) = t.rules.royalty_rule {
        return t.rules.custom_rules[i as usize].royals(pos, color).iter().collect();
    }
    all_squares(t.spec)
        .filter(|&s| {
            pos.piece_at(s)
                == Some(Piece {
                    color,
                    kind: PieceKind::King,
                })
        })
        .collect()
}

fn is_promotion_square(spec: &VariantSpec, color: Color, sq: Square) -> bool {
    let g = spec.geometry;
    g.rank(sq)
        == if color == Color::White {
            spec.pawns.promotion_rank as i32
        } else {
            g.height as i32 - 1 - spec.pawns.promotion_rank as i32
        }
}

fn releases(spec: &VariantSpec) -> Option<&Releases> {
    spec.rules.iter().find_map(|r| match r {
        Rule::Releases(r) => Some(r),
        _ => None,
    })
}

/// What `color`'s pawn becomes on `to` under promotion by file and releases: the square's
/// fixed kind, or the prisoner released there while the FEN still lists it as held.
fn release_kind(pos: &Position, r: &Releases, color: Color, to: Square) -> Option<PieceKind> {
    let spec = pos.tables().spec;
    let black = color == Color::Black;
    let at = |c: Coord| square(spec, spec.mirror(c, black));
    if let Some(&(_, k)) = r.fixed.iter().find(|&&(c, _)| at(c) == Some(to)) {
        return Some(k);
    }
    let held = pos.to_setup().castling;
    r.prisoners
        .iter()
        .find(|p| {
            let letter = if black { p.letter.to_ascii_lowercase() } else { p.letter };
            held.contains(&letter) && p.squares.iter().any(|&c| at(c) == Some(to))
        })
        .map(|p| p.kind)
}

fn square_promotion(spec: &VariantSpec) -> Option<&SquarePromotion> {
    spec.rules.iter().find_map(|r| match r {
        Rule::SquarePromotion(r) => Some(r),
        _ => None,
    })
}

/// The kinds `color`'s pawn may become on `to` under promotion by arrival square, worked out
/// from the start position and the pieces on the board cell by cell.
fn square_promotion_kinds(pos: &Position, r: &SquarePromotion, color: Color, to: Square) -> Vec<PieceKind> {
    let spec = pos.tables().spec;
    let g = spec.geometry;
    let start = Position::from_fen_in(pos.tables(), spec.start_fen).expect("the start FEN reads");
    let source_square = if r.by_own_file {
        let home = if color == Color::White { 0 } else { g.height as i32 - 1 };
        g.playable_square(g.file(to), home)
    } else {
        Some(to)
    };
    let count = |p: &Position, kind: PieceKind| {
        all_squares(spec)
            .filter(|&s| p.piece_at(s) == Some(Piece { color, kind }))
            .count()
    };
    let colour = |s: Square| (g.file(s) + g.rank(s)) % 2;
    let available = |kind: PieceKind| {
        if r.colour_bound.contains(&kind) {
            all_squares(spec).all(|s| colour(s) != colour(to) || pos.piece_at(s) != Some(Piece { color, kind }))
        } else {
            count(pos, kind) < count(&start, kind)
        }
    };
    match source_square.and_then(|s| start.piece_at(s)) {
        Some(p) if p.kind == PieceKind::King && !r.by_own_file => spec
            .pawns
            .promotion_kinds
            .iter()
            .copied()
            .filter(|&k| available(k))
            .collect(),
        Some(p) if p.kind != PieceKind::King && p.kind != PieceKind::Pawn && available(p.kind) => vec![p.kind],
        _ => Vec::new(),
    }
}

/// Whether the promotion `m` makes a piece that may not give check on arrival, and it attacks an
/// enemy royal piece from its square.
fn gives_check_on_arrival(pos: &Position, r: &SquarePromotion, m: Move) -> bool {
    let Some(kind) = m.promotion_piece() else { return false };
    if !r.no_check_on_arrival.contains(&kind) {
        return false;
    }
    let after = pos.after(m);
    let piece = Piece {
        color: pos.turn(),
        kind,
    };
    royal_squares(&after, !pos.turn())
        .into_iter()
        .any(|k| piece_attacks(&after, m.to(), piece, k))
}

/// Whether the rules let the pawn on `from` (on its start rank) double-step: always, unless a
/// rule limits double steps to some files while the piece that started behind has not moved
/// (its right, held by the letter right whose home is that square).
fn double_step_allowed(pos: &Position, from: Square) -> bool {
    let t = pos.tables();
    let spec = t.spec;
    let g = spec.geometry;
    let us = pos.turn();
    spec.rules.iter().all(|r| match r {
        Rule::UnmovedDoubleStep(r) if r.while_present => {
            // The piece that started behind the pawn stands there (again).
            let behind = step(spec, from, (0, -forward(us)));
            let start = Position::from_fen_in(t, spec.start_fen).expect("the start FEN reads");
            r.files.contains(&(g.file(from) as u8))
                && behind.is_some_and(|b| pos.piece_at(b).is_some() && pos.piece_at(b) == start.piece_at(b))
        }
        Rule::UnmovedDoubleStep(r) => {
            let behind = step(spec, from, (0, -forward(us)));
            r.files.contains(&(g.file(from) as u8))
                && t.rules.letter_rights.iter().any(|lr| {
                    lr.home.is_some() && lr.home == behind.map(|b| (b, us)) && pos.rights() & (1 << lr.bit) != 0
                })
        }
        _ => true,
    })
}

/// Every pseudo-legal move: moves by the pieces' movement, castling with its empty squares, the
/// rendezvous with its right and pieces, without testing the king's safety.
pub fn pseudo_legal_moves(pos: &Position) -> Vec<Move> {
    let spec = pos.tables().spec;
    let g = spec.geometry;
    let us = pos.turn();
    let mut moves = Vec::new();
    let own = |sq: Square| pos.piece_at(sq).is_some_and(|p| p.color == us);
    let enemy = |sq: Square| pos.piece_at(sq).is_some_and(|p| p.color != us);
    let promotion_rank = |sq: Square| {
        g.rank(sq)
            == if us == Color::White {
                spec.pawns.promotion_rank as i32
            } else {
                g.height as i32 - 1 - spec.pawns.promotion_rank as i32
            }
    };

    for from in all_squares(spec) {
        let Some(piece) = pos.piece_at(from) else { continue };
        if piece.color != us {
            continue;
        }
        let kind = piece.kind;
        if kind == PieceKind::Pawn {
            let f = forward(us);
            let add = |to: Square, moves: &mut Vec<Move>| {
                if let Some(r) = releases(spec) {
                    match release_kind(pos, r, us, to) {
                        Some(k) => moves.push(Move::promotion(from, to, k)),
                        None => moves.push(Move::new(from, to, MoveKind::Normal)),
                    }
                } else if promotion_rank(to) {
                    let kinds = match square_promotion(spec) {
                        None => spec.pawns.promotion_kinds.to_vec(),
                        Some(r) => square_promotion_kinds(pos, r, us, to)
                            .into_iter()
                            .filter(|&k| !gives_check_on_arrival(pos, r, Move::promotion(from, to, k)))
                            .collect(),
                    };
                    for k in kinds {
                        moves.push(Move::promotion(from, to, k));
                    }
                } else {
                    moves.push(Move::new(from, to, MoveKind::Normal));
                }
            };
            if let Some(one) = step(spec, from, (0, f)) {
                if pos.piece_at(one).is_none() {
                    if may_end_on(spec, kind, one) {
                        add(one, &mut moves);
                    }
                    let start_rank = if us == Color::White {
                        spec.pawns.double_step_rank as i32
                    } else {
                        g.height as i32 - 1 - spec.pawns.double_step_rank as i32
                    };
                    if g.rank(from) == start_rank && double_step_allowed(pos, from) {
                        // Two squares, and (where the pawns have it) three, every square
                        // passed empty.
                        let mut passed = one;
                        for _ in 2..=spec.pawns.first_step_max {
                            let Some(next) = step(spec, passed, (0, f)) else { break };
                            if pos.piece_at(next).is_some() {
                                break;
                            }
                            if may_end_on(spec, kind, next) {
                                moves.push(Move::new(from, next, MoveKind::DoubleStep));
                            }
                            passed = next;
                        }
                    }
                }
            }
            for df in [-1, 1] {
                if let Some(to) = step(spec, from, (df, f)) {
                    if enemy(to) && may_end_on(spec, kind, to) {
                        add(to, &mut moves);
                    }
                    if pos.en_passant_squares().has(to) {
                        moves.push(Move::new(from, to, MoveKind::EnPassant));
                    }
                }
            }
            continue;
        }
        for v in leap_vectors(spec, kind) {
            if let Some(to) = step(spec, from, v) {
                if !own(to) && may_end_on(spec, kind, to) {
                    moves.push(Move::new(from, to, MoveKind::Normal));
                }
            }
        }
        for to in bent_targets(pos, from, kind) {
            if !own(to) && may_end_on(spec, kind, to) {
                moves.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        for v in slide_vectors(spec, kind) {
            let mut cur = from;
            while let Some(to) = step(spec, cur, v) {
                if own(to) {
                    break;
                }
                if may_end_on(spec, kind, to) {
                    moves.push(Move::new(from, to, MoveKind::Normal));
                }
                if enemy(to) {
                    break;
                }
                cur = to;
            }
        }
    }
    moves.sort_by_key(|m| m.raw());
    moves.dedup();

    for (i, c) in pos.tables().castling.iter().enumerate() {
        if c.color == us
            && pos.castling_rights() & (1 << i) != 0
            && c.must_be_empty.iter().all(|s| pos.piece_at(s).is_none())
        {
            moves.push(Move::new(c.king_from, c.king_to, MoveKind::Castle));
        }
    }
    let t = pos.tables();
    for &i in &t.rules.custom_move_rules {
        let mut list = crate::rules::moves::MoveList::new();
        t.rules.custom_rules[i as usize].extra_moves(pos, i, &mut list);
        moves.extend(list.iter().copied());
    }
    for r in spec.rules {
        if let Rule::Rendezvous(r) = r {
            let black = us == Color::Black;
            let p = square(spec, spec.mirror(r.partner_square, black));
            let b = square(spec, spec.mirror(r.bishop_square, black));
            if let (Some(p), Some(b)) = (p, b) {
                if pos.has_rendezvous_right(us)
                    && pos.piece_at(p)
                        == Some(Piece {
                            color: us,
                            kind: r.partner,
                        })
                    && pos.piece_at(b)
                        == Some(Piece {
                            color: us,
                            kind: PieceKind::Bishop,
                        })
                {
                    moves.push(Move::new(p, b, MoveKind::Rendezvous));
                }
            }
        }
    }
    moves
}

/// The legal moves, from the pseudo-legal ones by playing each and testing the royal pieces
/// (those royal before the move, where they stand after it).
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    legal_moves_with_history(pos, &[])
}

/// As [`legal_moves`], the legality filters of the rules given the hashes of the game's earlier
/// positions (oldest first).
pub fn legal_moves_with_history(pos: &Position, history: &[u64]) -> Vec<Move> {
    let us = pos.turn();
    let royals = royal_squares(pos, us);
    let in_check = royals.iter().any(|&k| is_attacked(pos, k, !us));
    let safe_after = |m: Move| {
        let after = pos.after(m);
        royals
            .iter()
            .map(|&k| if k == m.from() { m.to() } else { k })
            .all(|k| !is_attacked(&after, k, !us))
    };
    // A rule may ban pieces of some kinds from some squares (Citadel: princes next to an
    // opposing prince): the piece standing on the to-square after the move is the one arriving.
    let ban = pos.arrival_ban();
    let allowed_arrival = |m: Move| {
        pos.after(m)
            .piece_at(m.to())
            .is_none_or(|p| !ban.squares_for(p.kind).has(m.to()))
    };
    let legal: Vec<Move> = pseudo_legal_moves(pos)
        .into_iter()
        .filter(|&m| allowed_arrival(m))
        .filter(|&m| match m.kind() {
            MoveKind::Castle => {
                let c = pos
                    .tables()
                    .castling
                    .iter()
                    .find(|c| c.color == us && c.king_from == m.from() && c.king_to == m.to());
                let Some(c) = c else { return false };
                // Only a royal piece castles out of, through or into attacks.
                (!royals.contains(&c.king_from) || c.must_be_safe.iter().all(|s| !is_attacked(pos, s, !us)))
                    && safe_after(m)
            }
            MoveKind::Rendezvous => !in_check,
            _ => safe_after(m),
        })
        .collect();
    // The legality filters of custom rules see the whole list.
    let t = pos.tables();
    if t.rules.custom_filter_rules.is_empty() {
        return legal;
    }
    let mut list = crate::rules::moves::MoveList::new();
    for &m in &legal {
        list.push(m);
    }
    for &i in &t.rules.custom_filter_rules {
        t.rules.custom_rules[i as usize].filter(pos, history, &mut list);
    }
    list.iter().copied().collect()
}
