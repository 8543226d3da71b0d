//! A variant defined entirely in this test, outside the engine: a 6x6 board, a piece kind of its
//! own (the lion, `L`, a king that also leaps two squares straight or diagonally) and three rules
//! of its own behind the custom-rule hooks (a once-per-game swap of king and lion with its
//! rights bits and FEN field, a ban on stalemating moves, a draw when a king reaches the centre).
//! Nothing in the engine names any of it: the tables, the move generator, the reference
//! generator, FEN, UCI, SAN, the hash and the incremental-evaluation delta all take it from the
//! spec and the hooks.

use std::sync::OnceLock;

use engine::{
    rng::SplitMix64,
    rules::{
        game::Game,
        geometry::Square,
        piece::{Movement, A, D, F, W},
        reference,
        special::{CustomRule, RuleEdit},
        tables::Tables,
        variant::{Coord, PawnSpec, PieceSpec},
        Color, DrawReason, Move, MoveKind, MoveList, Outcome, Piece, PieceKind, Position, Rule, VariantSpec,
    },
};

const LION: PieceKind = PieceKind::custom(10);

/// Once per game each side may swap its king with its lion (when the king is not in check).
#[derive(Debug)]
struct KingLionSwap;

impl KingLionSwap {
    fn right(tables: &Tables, index: u8, color: Color) -> u32 {
        1 << (tables.rules.custom_data(index) as u32 + color.index() as u32)
    }
}

impl CustomRule for KingLionSwap {
    fn name(&self) -> &'static str {
        "king-lion swap"
    }

    fn build(&self, tables: &mut Tables, _resolve: &dyn Fn(Coord) -> Square, index: u8) {
        let first = tables.allocate_rights(2);
        tables.set_custom_data(index, u64::from(first));
    }

    fn has_moves(&self) -> bool {
        true
    }

    fn extra_moves(&self, pos: &Position, index: u8, moves: &mut MoveList) {
        let us = pos.turn();
        if pos.in_check() || pos.rights() & Self::right(pos.tables(), index, us) == 0 {
            return;
        }
        for lion in pos.pieces(us, LION) {
            moves.push(Move::rule(pos.king(us), lion, index, 0));
        }
    }

    fn make(&self, edit: &mut RuleEdit<'_>, m: Move) {
        let pos = edit.position();
        let right = Self::right(pos.tables(), m.rule_index() as u8, pos.turn());
        let king = edit.remove(m.from()).expect("the king stands on the from-square");
        let lion = edit.remove(m.to()).expect("the lion stands on the to-square");
        edit.put(m.to(), king);
        edit.put(m.from(), lion);
        edit.clear_rights(right);
    }

    fn san(&self, pos: &Position, m: Move) -> String {
        format!("K~{}", pos.tables().geometry.square_name(m.to()))
    }

    fn has_fen_field(&self) -> bool {
        true
    }

    fn fen_field(&self, pos: &Position, index: u8) -> Option<String> {
        let t = pos.tables();
        let field: String = [(Color::White, 'S'), (Color::Black, 's')]
            .into_iter()
            .filter(|&(c, _)| pos.rights() & Self::right(t, index, c) != 0)
            .map(|(_, l)| l)
            .collect();
        Some(if field.is_empty() { "-".into() } else { field })
    }

    fn parse_fen_field(&self, tables: &Tables, index: u8, field: Option<&str>) -> Result<u32, String> {
        let both = Self::right(tables, index, Color::White) | Self::right(tables, index, Color::Black);
        match field {
            None => Ok(both),
            Some("-") => Ok(0),
            Some("S") => Ok(Self::right(tables, index, Color::White)),
            Some("s") => Ok(Self::right(tables, index, Color::Black)),
            Some("Ss") => Ok(both),
            Some(other) => Err(format!("swap field '{other}' is not '-', 'S', 's' or 'Ss'")),
        }
    }
}

/// A move that leaves the opponent without a legal move while not in check is illegal.
#[derive(Debug)]
struct NoStalemating;

impl CustomRule for NoStalemating {
    fn name(&self) -> &'static str {
        "no stalemating"
    }

    fn has_filter(&self) -> bool {
        true
    }

    fn filter(&self, pos: &Position, _history: &[u64], moves: &mut MoveList) {
        let keep: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let after = pos.after(m);
                after.in_check() || !after.legal_moves_unfiltered().is_empty()
            })
            .collect();
        moves.clear();
        for m in keep {
            moves.push(m);
        }
    }
}

/// A king on one of the four centre squares draws at once.
#[derive(Debug)]
struct CentreDraw;

impl CustomRule for CentreDraw {
    fn name(&self) -> &'static str {
        "centre draw"
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        let g = pos.tables().geometry;
        let centre = ["c3", "d3", "c4", "d4"].map(|s| g.parse_square(s).expect("centre square"));
        // The toy reuses the citadel draw's reason: a king on a special square ends the game.
        Color::ALL
            .into_iter()
            .any(|c| centre.contains(&pos.king(c)))
            .then_some(Outcome::Draw(DrawReason::Citadel))
    }
}

static SWAP: KingLionSwap = KingLionSwap;
static NO_STALEMATING: NoStalemating = NoStalemating;
static CENTRE_DRAW: CentreDraw = CentreDraw;

static TOY: VariantSpec = VariantSpec {
    variant: None,
    id: "toy",
    code: 250,
    aliases: &[],
    name: "Toy 6x6",
    server_key: "toy",
    pgn_name: "toy",
    geometry: engine::rules::Geometry::rectangle(6, 6),
    pieces: &[
        PieceSpec {
            kind: PieceKind::Pawn,
            letter: 'P',
            name: "pawn",
            movement: Movement::leaper(&[]),
        },
        PieceSpec {
            kind: PieceKind::Rook,
            letter: 'R',
            name: "rook",
            movement: Movement::slider(&[], true, false),
        },
        PieceSpec {
            kind: PieceKind::King,
            letter: 'K',
            name: "king",
            movement: Movement::leaper(&[W, F]),
        },
        PieceSpec {
            kind: LION,
            letter: 'L',
            name: "lion",
            movement: Movement::leaper(&[W, F, D, A]),
        },
    ],
    net_kinds: &[PieceKind::Pawn, PieceKind::Rook, PieceKind::King, LION],
    start_fen: "rl1k1r/pppppp/6/6/PPPPPP/RL1K1R w - - 0 1 Ss",
    pawns: PawnSpec {
        double_step_rank: 1,
        first_step_max: 2,
        promotion_rank: 5,
        promotion_kinds: &[LION, PieceKind::Rook],
        en_passant: true,
    },
    castling: &[],
    dead_material: &[&[]],
    game_points: None,
    piece_values: &[],
    search_defaults: &[],
    selfplay_random_plies: 3,
    settings: None,
    rules: &[
        Rule::Custom(&SWAP),
        Rule::Custom(&NO_STALEMATING),
        Rule::Custom(&CENTRE_DRAW),
    ],
};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::build(&TOY))
}

fn fen(text: &str) -> Position {
    Position::from_fen_in(tables(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn start() -> Position {
    fen(TOY.start_fen)
}

#[test]
fn the_spec_builds_tables_with_its_own_kind_and_letters() {
    let t = tables();
    assert_eq!(t.letter(LION), 'L');
    assert_eq!(t.name(LION), "lion");
    assert_eq!(t.kind_of_letter('l'), Some(LION));
    assert_eq!(t.kind_of_letter('Q'), None, "no queen in the toy");
    // The built-in letters know nothing of the lion: only the variant's tables do.
    assert_eq!(Piece::from_char('L'), None);
    assert_eq!(t.rules.custom_rule_count(), 3);
    assert_eq!(t.rules.custom_fen_rules(), [0]);
    assert_eq!(t.rules.custom_filter_rules(), [1]);
    let pos = start();
    assert_eq!(pos.registered_variant(), None);
    assert_eq!(
        pos.fen(),
        TOY.start_fen,
        "the start FEN reads and writes back, swap field included"
    );
    assert_eq!(pos.hash(), pos.compute_hash());
    // The lion steps to the empty c1 and leaps over the pawns to b3 and d3, never onto its own
    // pieces.
    let mut lion_moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == t.geometry.parse_square("b1").unwrap() && m.kind() == MoveKind::Normal)
        .map(|&m| pos.uci(m))
        .collect();
    lion_moves.sort();
    assert_eq!(lion_moves, ["b1b3", "b1c1", "b1d3"]);
    // Bad FEN fields of the rule are named.
    let e = Position::from_fen_in(tables(), "rl1k1r/pppppp/6/6/PPPPPP/RL1K1R w - - 0 1 X")
        .unwrap_err()
        .to_string();
    assert!(e.contains("king-lion swap") && e.contains("'X'"), "{e}");
    // A queen letter is not a piece of this variant.
    assert!(Position::from_fen_in(tables(), "rl1k1r/pppppp/6/6/PPPPPP/RL1KQR w - - 0 1").is_err());
}

#[test]
fn the_swap_is_a_move_with_uci_san_rights_and_fen() {
    let mut pos = start();
    let swap = pos
        .parse_uci("d1b1")
        .expect("the swap is written king square, lion square");
    assert_eq!(swap.kind(), MoveKind::Rule);
    assert_eq!(pos.san(swap), "K~b1");
    assert_eq!(pos.parse_san("K~b1"), Ok(swap));
    let delta = pos.move_delta(swap);
    assert_eq!((delta.removed().count(), delta.added().count()), (2, 2));
    pos.play_unchecked(swap);
    assert_eq!(pos.fen(), "rl1k1r/pppppp/6/6/PPPPPP/RK1L1R b - - 1 1 s");
    assert_eq!(pos.hash(), pos.compute_hash());
    // Black swaps too; then neither side may swap again.
    pos.play_uci("d6b6").expect("Black's swap");
    assert!(pos.fen().ends_with(" -"), "{}", pos.fen());
    assert!(pos.legal_moves().iter().all(|m| m.kind() != MoveKind::Rule));
    // Given back through the FEN field, the right is there again.
    let again = fen("rk1l1r/pppppp/6/6/PPPPPP/RK1L1R w - - 2 2 S");
    assert!(again.legal_moves().iter().any(|m| m.kind() == MoveKind::Rule));
}

#[test]
fn the_filter_forbids_stalemating_moves() {
    // Black's king on a6 has only a5 free; Rd1-d5 would take it without check.
    let pos = fen("k1K3/6/6/6/6/3R2 w - - 0 1 -");
    let stalemating = reference::pseudo_legal_moves(&pos)
        .into_iter()
        .find(|&m| pos.uci(m) == "d1d5")
        .expect("the rook can go to d5");
    assert!(pos.legal_moves_unfiltered().contains(stalemating));
    assert!(!pos.legal_moves().contains(stalemating));
    assert!(!pos.is_legal_move(stalemating));
    assert!(!reference::legal_moves(&pos).contains(&stalemating));
    let e = pos.parse_uci("d1d5").unwrap_err().to_string();
    assert!(e.contains("forbids"), "{e}");
    assert_eq!(pos.count_legal_moves(), pos.legal_moves().len() as u64);
    // A game sees the same list.
    assert_eq!(Game::new(pos.clone()).legal_moves().len(), pos.legal_moves().len());
}

#[test]
fn the_outcome_hook_ends_the_game() {
    let pos = fen("k5/6/6/2K3/6/6 b - - 0 1 -");
    assert_eq!(pos.immediate_outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
    assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::Citadel)));
    assert_eq!(start().immediate_outcome(), None);
}

/// Random games: the one generator agrees with the reference generator (which walks the spec
/// and the hooks), the hash with a recount, the delta with the board after the move, and every
/// move reads back from its UCI and SAN text.
#[test]
fn random_games_agree_with_the_reference_generator() {
    let mut rng = SplitMix64::new(0x70f);
    let mut swaps = 0;
    let mut promotions = 0;
    for _game in 0..60 {
        let mut pos = start();
        for _ply in 0..80 {
            let mut fast: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
            let mut slow: Vec<u32> = reference::legal_moves(&pos).iter().map(|m| m.raw()).collect();
            fast.sort_unstable();
            slow.sort_unstable();
            assert_eq!(fast, slow, "{}", pos.fen());
            assert_eq!(pos.count_legal_moves(), fast.len() as u64, "{}", pos.fen());
            if fast.is_empty() || pos.immediate_outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            let m = moves.as_slice()[rng.below(moves.len())];
            assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m), "{}", pos.fen());
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{}", pos.fen());
            let delta = pos.move_delta(m);
            let after = pos.after(m);
            let mut board: Vec<(Square, Piece)> = pos
                .occupied()
                .iter()
                .filter_map(|s| pos.piece_at(s).map(|p| (s, p)))
                .collect();
            board.retain(|e| !delta.removed().any(|r| r == *e));
            board.extend(delta.added());
            board.sort_by_key(|(s, _)| s.0);
            let expected: Vec<(Square, Piece)> = after
                .occupied()
                .iter()
                .filter_map(|s| after.piece_at(s).map(|p| (s, p)))
                .collect();
            assert_eq!(board, expected, "delta of {} in {}", pos.uci(m), pos.fen());
            swaps += usize::from(m.kind() == MoveKind::Rule);
            promotions += usize::from(m.kind() == MoveKind::Promotion);
            pos = after;
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.fen());
            assert_eq!(fen(&pos.fen()), pos, "FEN round trip of {}", pos.fen());
        }
    }
    assert!(swaps > 10, "the playouts made {swaps} swaps");
    assert!(promotions > 0, "the playouts made no promotion");
}
