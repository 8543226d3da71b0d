//! A legality filter that looks at the game's history reaches the search: a variant defined in
//! this test forbids any move back to a position the game has already seen, and the search
//! (root and inner nodes, with the game's history and its own path) plays by it. The search
//! and evaluation take a variant outside the registry.

use std::sync::{atomic::AtomicBool, Arc, OnceLock};

use engine::{
    rules::{
        special::CustomRule,
        tables::Tables,
        variant::PawnSpec,
        variants::persian_common::{KING, PAWN, ROOK},
        Geometry, MoveList, PieceKind, Position, Rule, VariantSpec,
    },
    search::{tt::TranspositionTable, Limits, Score, Searcher},
};

/// A move may not lead to a position the game has seen before.
#[derive(Debug)]
struct NoReturn;

impl CustomRule for NoReturn {
    fn name(&self) -> &'static str {
        "no return"
    }

    fn has_filter(&self) -> bool {
        true
    }

    fn filter(&self, pos: &Position, history: &[u64], moves: &mut MoveList) {
        let keep: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| !history.contains(&pos.after(m).hash()))
            .collect();
        moves.clear();
        for m in keep {
            moves.push(m);
        }
    }
}

static NO_RETURN: NoReturn = NoReturn;

static SPEC: VariantSpec = VariantSpec {
    variant: None,
    id: "no-return",
    code: 253,
    aliases: &[],
    name: "No return 6x6",
    server_key: "no-return",
    pgn_name: "no-return",
    geometry: Geometry::rectangle(6, 6),
    pieces: &[PAWN, ROOK, KING],
    net_kinds: &[PieceKind::Pawn, PieceKind::Rook, PieceKind::King],
    start_fen: "k5/6/2K3/6/6/5R w - - 0 1",
    pawns: PawnSpec {
        double_step_rank: 1,
        first_step_max: 2,
        promotion_rank: 5,
        promotion_kinds: &[PieceKind::Rook],
        en_passant: true,
    },
    castling: &[],
    dead_material: &[&[]],
    game_points: None,
    piece_values: &[],
    search_defaults: &[],
    selfplay_random_plies: 3,
    settings: None,
    rules: &[Rule::Custom(&NO_RETURN)],
};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::build(&SPEC))
}

fn search(pos: &Position, history: &[u64], depth: u32) -> (String, Score) {
    let mut s = Searcher::new(Arc::new(TranspositionTable::new(4)), Arc::new(AtomicBool::new(false)));
    let r = s.search(
        pos,
        history,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &mut |_| {},
    );
    (pos.uci(r.best), r.score)
}

/// Rf6+ leaves the black king one move, Ka5. When the game has seen the position after Ka5,
/// that move is forbidden, so Rf6 mates: the search finds it only through the history.
#[test]
fn the_search_sees_the_game_history_through_the_filter() {
    let pos = Position::from_fen_in(tables(), SPEC.start_fen).expect("start FEN");
    let check = pos.parse_uci("f1f6").expect("Rf6+");
    let after_check = pos.after(check);
    assert!(after_check.in_check());
    let escapes = after_check.legal_moves();
    assert_eq!(escapes.len(), 1, "Ka5 is the only escape");
    let seen = after_check.after(escapes.as_slice()[0]).hash();
    assert!(after_check.legal_moves_with_history(&[seen]).is_empty());

    let (_, score) = search(&pos, &[], 4);
    assert_ne!(score, Score::Mate(1), "no mate in one without the history");
    let (best, score) = search(&pos, &[seen], 4);
    assert_eq!((best.as_str(), score), ("f1f6", Score::Mate(1)));

    // At the root: with every move but one already seen, the search plays that one.
    let moves = pos.legal_moves();
    let kept = moves.as_slice()[moves.len() / 2];
    let history: Vec<u64> = moves
        .iter()
        .filter(|&&m| m != kept)
        .map(|&m| pos.after(m).hash())
        .collect();
    let (best, _) = search(&pos, &history, 3);
    assert_eq!(best, pos.uci(kept));
}
