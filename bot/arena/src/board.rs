//! The board as the browser pages draw it: the grid, its holes and marked squares, the pieces,
//! the side to move, the checked royal pieces, the last move and the legal moves with the
//! squares a click or a drag names. The pages know no rules: everything comes from here.

use engine::rules::{tables::Tables, Color, Move, PieceKind, Position, Square};
use serde_json::{json, Value};

/// A piece as the pages draw it: colour, kind, name, letter. The arena's piece set draws the
/// built-in kinds; a piece of a variant's own on a built-in kind's index (Citadel's
/// Plains-Marshall on the fortress's) is named by the variant and drawn as its letter.
fn piece_json(t: &Tables, color: Color, kind: PieceKind) -> Value {
    json!({
        "color": color.name(),
        "kind": if t.letter(kind) == kind.letter() {
            kind.name().to_string()
        } else {
            t.name(kind).replace(' ', "-")
        },
        "name": t.name(kind),
        "letter": t.letter(kind).to_string(),
    })
}

/// The drawing of `pos`: `last` is the move that led to it (highlighted), `moves` whether to
/// list the legal moves (a running game's current position, the analysis board), `history` the
/// hashes of the game's positions before `pos`, oldest first (empty for a position alone): the
/// legal moves obey the rules that read them.
pub fn board_json(pos: &Position, history: &[u64], last: Option<Move>, moves: bool) -> Value {
    let t = pos.tables();
    let g = t.geometry;
    let name = |sq: Square| g.square_name(sq);
    let mut holes = Vec::new();
    let mut pieces = Vec::new();
    for i in 0..g.cells() {
        let sq = Square(i as u8);
        if !g.is_playable(sq) {
            holes.push(name(sq));
        } else if let Some(p) = pos.piece_at(sq) {
            let mut piece = piece_json(t, p.color, p.kind);
            if let Some(o) = piece.as_object_mut() {
                o.insert("sq".into(), json!(name(sq)));
            }
            pieces.push(piece);
        }
    }
    let marks: Vec<Value> = t
        .spec
        .square_marks()
        .into_iter()
        .map(|(sq, m)| json!({ "sq": name(sq), "mark": m.name() }))
        .collect();
    let check: Vec<String> = if pos.in_check() {
        pos.royals(pos.turn()).iter().map(name).collect()
    } else {
        Vec::new()
    };
    let legal: Vec<Value> = if moves && pos.outcome().is_none() {
        pos.legal_moves_with_history(history)
            .iter()
            .map(|&m| {
                json!({
                    "uci": pos.uci(m),
                    "san": pos.san(m),
                    "from": name(m.from()),
                    "to": name(m.to()),
                    "promotion": m.promotion_piece().map(|k| piece_json(t, pos.turn(), k)),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let files: Vec<String> = (0..g.width).map(|f| ((b'a' + f) as char).to_string()).collect();
    json!({
        "variant": t.spec.id,
        "width": g.width,
        "height": g.height,
        "files": files,
        "holes": holes,
        "marks": marks,
        "pieces": pieces,
        "turn": pos.turn().name(),
        "check": check,
        "lastMove": last.map(|m| json!({ "from": name(m.from()), "to": name(m.to()) })),
        "fen": pos.fen(),
        "moves": legal,
        "prisoners": prisoners_json(pos),
    })
}

/// Citadel's prisoners still held, per side (`null` in variants without prisoners): each the
/// piece a release brings (`color`, `kind`, `name`, `letter`, as on the board) and `squares`,
/// the last-rank squares on which that side's plainsman releases it.
fn prisoners_json(pos: &Position) -> Value {
    let t = pos.tables();
    if !pos.has_reserves() {
        return Value::Null;
    }
    let side = |color: Color| -> Vec<Value> {
        pos.reserves(color)
            .map(|r| {
                let mut p = piece_json(t, color, r.kind);
                if let Some(o) = p.as_object_mut() {
                    let names: Vec<String> = r.arrival.into_iter().map(|sq| t.geometry.square_name(sq)).collect();
                    o.insert("squares".into(), json!(names));
                }
                p
            })
            .collect()
    };
    json!({ "white": side(Color::White), "black": side(Color::Black) })
}

/// The premoves of the side not to move in `pos` (a player waiting for the opponent's move):
/// the moves it could make if it were its turn now, and the captures back of each of its own
/// pieces (the opponent may take there first), as `{from, to}` (several moves between the
/// same squares, a promotion, once). Whether one is still legal is judged when it is played.
pub fn premoves_json(pos: &Position) -> Vec<Value> {
    let t = pos.tables();
    let g = t.geometry;
    let me = !pos.turn();
    let mut pairs: Vec<(Square, Square)> = Vec::new();
    if pos.outcome().is_none() {
        let mut mine = pos.clone();
        mine.play_null();
        pairs.extend(mine.legal_moves().iter().map(|m| (m.from(), m.to())));
        let occ = pos.occupied();
        for sq in pos.color_bb(me) {
            for from in pos.attackers(sq, me, occ) {
                pairs.push((from, sq));
            }
        }
    }
    pairs.sort_by_key(|&(a, b)| (a.0, b.0));
    pairs.dedup();
    pairs
        .into_iter()
        .map(|(from, to)| json!({ "from": g.square_name(from), "to": g.square_name(to) }))
        .collect()
}

/// The positions of a game: the start and after each of `moves` (legal moves, as a game
/// records them), with the SAN of each move.
pub fn replay(start: &Position, moves: &[Move]) -> (Vec<Position>, Vec<String>) {
    let mut positions = vec![start.clone()];
    let mut sans = Vec::with_capacity(moves.len());
    let mut pos = start.clone();
    for &m in moves {
        sans.push(pos.san(m));
        pos = pos.after(m);
        positions.push(pos.clone());
    }
    (positions, sans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::rules::Variant;

    #[test]
    fn the_persian_board_has_holes_marks_and_moves() {
        let pos = Position::startpos(Variant::EgyptianEye);
        let b = board_json(&pos, &[], None, true);
        assert_eq!(b["width"], 11);
        assert_eq!(b["height"], 11);
        let holes = b["holes"].as_array().expect("holes");
        // The 9x9 board and the four citadels: 121 - 81 - 4 = 36 holes.
        assert_eq!(holes.len(), 36);
        assert!(holes.contains(&json!("a2")) && !holes.contains(&json!("a1")));
        assert!(b["marks"]
            .as_array()
            .expect("marks")
            .contains(&json!({"sq": "f6", "mark": "eye"})));
        let moves = b["moves"].as_array().expect("moves");
        assert_eq!(moves.len(), pos.legal_moves().len());
        assert!(moves.iter().all(|m| m["from"].is_string() && m["to"].is_string()));
        assert!(b["check"].as_array().expect("check").is_empty());
        assert!(b["lastMove"].is_null());
        let none = board_json(&pos, &[], None, false);
        assert!(none["moves"].as_array().expect("moves").is_empty());
        assert!(b["prisoners"].is_null(), "no prisoners outside Citadel");
    }

    #[test]
    fn citadel_prisoners_are_listed_until_released() {
        let v: Variant = "citadel-8".parse().expect("variant");
        let b = board_json(&Position::startpos(v), &[], None, false);
        for side in ["white", "black"] {
            let held = b["prisoners"][side].as_array().expect("prisoners");
            assert_eq!(held.len(), 2, "{side}: {held:?}");
            assert!(held
                .iter()
                .all(|p| p["color"] == side && p["squares"].as_array().is_some_and(|s| !s.is_empty())));
            assert!(
                held.iter().any(|p| p["kind"] == "queen"),
                "the Chief Commander: {held:?}"
            );
        }
        // White's Chief Commander released (no `Q` in the prisoners field): one left.
        let fen = Position::startpos(v).fen();
        let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
        let i = fields
            .iter()
            .position(|f| f.contains('Q') && f.chars().all(|c| "YQyq".contains(c)))
            .expect("the prisoners field");
        fields[i] = fields[i].replace('Q', "");
        let pos = Position::from_fen(v, &fields.join(" ")).expect("fen");
        let b = board_json(&pos, &[], None, false);
        assert_eq!(b["prisoners"]["white"].as_array().map(Vec::len), Some(1));
        assert_eq!(b["prisoners"]["black"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn premoves_include_captures_back() {
        // White to move; Black (waiting) may premove its pawn and take back on d5 with e6xd5.
        let pos = Position::from_fen(Variant::Chess, "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1").expect("fen");
        let pre = premoves_json(&pos);
        let has = |f: &str, t: &str| pre.iter().any(|m| m["from"] == f && m["to"] == t);
        assert!(has("e6", "d5"), "a capture back: {pre:?}");
        assert!(has("e8", "f8") && has("d5", "d4"));
        assert!(!has("d1", "d5"), "only the waiting side's moves");
    }

    #[test]
    fn pieces_of_a_variants_own_are_named_by_it() {
        // Citadel: the War Machine is a rook under its own letter (drawn as a rook); the
        // Plains-Marshall sits on the fortress's index under another letter (drawn as "M").
        let v: Variant = "citadel-9".parse().expect("variant");
        let b = board_json(&Position::startpos(v), &[], None, false);
        let piece = |sq: &str| {
            b["pieces"]
                .as_array()
                .expect("pieces")
                .iter()
                .find(|p| p["sq"] == sq)
                .cloned()
                .expect("a piece there")
        };
        assert_eq!(piece("a1")["kind"], "rook");
        assert_eq!(piece("a1")["name"], "war machine");
        assert_eq!(piece("d9")["kind"], "plains-marshall");
        assert_eq!(piece("d9")["letter"], "M");
        assert_eq!(piece("f1")["kind"], "white-tiger-rider");
        assert_eq!(piece("f1")["letter"], "X");
    }

    #[test]
    fn a_check_and_the_last_move_are_named() {
        let pos = Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("fen");
        let m = pos.parse_uci("h1h8").expect("legal");
        let after = pos.after(m);
        let b = board_json(&after, &[], Some(m), true);
        assert_eq!(b["check"], json!(["e8"]));
        assert_eq!(b["lastMove"], json!({"from": "h1", "to": "h8"}));
        assert_eq!(b["turn"], "black");
        let (positions, sans) = replay(&pos, &[m]);
        assert_eq!(positions.len(), 2);
        assert_eq!(sans, ["Rh8+"]);
    }

    /// The legal moves a page is given obey the rules that read the game's earlier positions:
    /// after a knight's checks repeated the position twice, Parsi forbids the check that would
    /// repeat it a third time, which the bare position allows.
    #[test]
    fn the_legal_moves_obey_the_games_history() {
        let moves: Vec<String> = "g5f7 h8g8 f7h6 g8h8 h6f7 h8g8 f7h6 g8h8"
            .split(' ')
            .map(String::from)
            .collect();
        let (start, played) =
            engine::engine::parse_game(Variant::Parsi, Some("5b1k/4p1pp/4P3/6N1/8/1q6/8/K7 w - - 0 1"), &moves)
                .expect("a legal line");
        let (mut positions, _) = replay(&start, &played);
        let pos = positions.pop().expect("the end");
        let history: Vec<u64> = positions.iter().map(Position::hash).collect();
        let listed = |b: &Value| -> Vec<String> {
            b["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m["uci"].as_str().expect("uci").to_string())
                .collect()
        };
        let bare = listed(&board_json(&pos, &[], None, true));
        let game = listed(&board_json(&pos, &history, None, true));
        assert!(bare.contains(&"h6f7".to_string()));
        assert!(!game.contains(&"h6f7".to_string()));
        assert_eq!(game.len() + 1, bare.len());
    }
}
