//! The optional opening series of Parsi Chess (rules note A.9): White makes `moves` moves in a
//! row, then Black as many, then play alternates. During the series no piece may land in the
//! opponent's half (so nothing is captured), each sub-move must leave the mover's king safe, a
//! check is answered when the checked side's turn comes, and the stalemate ban and the
//! perpetual-check rule do not apply.
//!
//! ENGINE POLICY (how it is modelled): the side waiting for its series passes. While White
//! makes its series, every other ply is Black's forced pass, and while Black makes its series,
//! White passes. So the plies still alternate, and the search, the hash and the game layer need
//! nothing new: White's series of `n` moves is `2n - 1` plies, Black's another `2n - 1`. The pass
//! is a rule move, written `0000` in UCI and `--` in SAN. The plies of the series played so far
//! are a counter in the rights (hashed with them) and the rule's FEN field: a number while the
//! series runs, absent once it is over (a FEN without the field is a position after the
//! series). While the series runs, the side not to move may be in check (it answers later).

use super::{CustomRule, RuleEdit};
use crate::rules::{
    geometry::Square,
    moves::{Move, MoveKind, MoveList},
    piece::{Color, PieceKind},
    position::Position,
    rule_set::SeriesTables,
    tables::Tables,
    variant::Coord,
};

/// Bits of the series counter (plies played: 0 to 4 * 9 - 2 = 34).
const COUNTER_BITS: u32 = 6;

/// The rule: the length of each side's series.
#[derive(Debug)]
pub struct OpeningSeries {
    /// Moves each side makes in a row (3 to 9 in the sources; 1 to 9 here).
    pub moves: u8,
}

impl SeriesTables {
    /// Plies of the whole series (both sides' moves and the passes between them).
    pub fn plies(&self) -> u32 {
        4 * u32::from(self.moves) - 2
    }

    /// Plies of the series played in `pos` (`plies()` once it is over).
    pub fn played(&self, pos: &Position) -> u32 {
        (pos.rights() >> self.first_bit) & ((1 << COUNTER_BITS) - 1)
    }

    /// Whether the series runs in `pos`.
    pub fn runs(&self, pos: &Position) -> bool {
        self.played(pos) < self.plies()
    }

    /// The side that passes while the series runs: Black during White's series, White during
    /// Black's.
    pub fn passer(&self, pos: &Position) -> Color {
        if self.played(pos) < 2 * u32::from(self.moves) - 1 {
            Color::Black
        } else {
            Color::White
        }
    }

    fn pass(&self, pos: &Position) -> Move {
        let sq = pos
            .pieces(pos.turn(), PieceKind::King)
            .iter()
            .next()
            .unwrap_or(Square(0));
        Move::rule(sq, sq, self.index, 0)
    }
}

impl CustomRule for OpeningSeries {
    fn name(&self) -> &'static str {
        "opening series"
    }

    fn build(&self, tables: &mut Tables, _resolve: &dyn Fn(Coord) -> Square, index: u8) {
        assert!(
            (1..=9).contains(&self.moves),
            "{}: a series of 1 to 9 moves",
            tables.spec.id
        );
        let first_bit = tables.allocate_rights(COUNTER_BITS);
        tables.rules.opening_series = Some(SeriesTables {
            index,
            first_bit,
            moves: self.moves,
        });
    }

    fn has_moves(&self) -> bool {
        true
    }

    fn extra_moves(&self, pos: &Position, _index: u8, moves: &mut MoveList) {
        if let Some(s) = pos
            .tables()
            .rules
            .opening_series
            .filter(|s| s.runs(pos) && pos.turn() == s.passer(pos))
        {
            moves.push(s.pass(pos));
        }
    }

    fn make(&self, _edit: &mut RuleEdit<'_>, _m: Move) {}

    fn has_filter(&self) -> bool {
        true
    }

    /// While the series runs: the passing side's only move is the pass (in check too); the
    /// other side's moves land in its own half.
    fn filter(&self, pos: &Position, _history: &[u64], moves: &mut MoveList) {
        let Some(s) = pos.tables().rules.opening_series.filter(|s| s.runs(pos)) else {
            return;
        };
        let us = pos.turn();
        if us == s.passer(pos) {
            let mut only = MoveList::new();
            only.push(s.pass(pos));
            *moves = only;
            return;
        }
        let g = pos.tables().geometry;
        let height = g.height as i32;
        let own_half = |sq: Square| {
            let rank = g.rank(sq);
            if us == Color::White {
                2 * rank < height
            } else {
                2 * rank >= height
            }
        };
        let mut kept = MoveList::new();
        for &m in moves.iter() {
            let pass = m.kind() == MoveKind::Rule && m.rule_index() == s.index as usize;
            if !pass && own_half(m.to()) {
                kept.push(m);
            }
        }
        *moves = kept;
    }

    fn has_after_move(&self) -> bool {
        true
    }

    /// Every ply of the series counts, passes included.
    fn after_move(&self, edit: &mut RuleEdit<'_>, _index: u8) {
        let pos = edit.position();
        let Some(s) = pos.tables().rules.opening_series else {
            return;
        };
        let played = s.played(pos);
        if played < s.plies() {
            let mask = ((1u32 << COUNTER_BITS) - 1) << s.first_bit;
            edit.set_rights(mask, (played + 1) << s.first_bit);
        }
    }

    fn uci(&self, _pos: &Position, _m: Move) -> String {
        "0000".to_string()
    }

    fn san(&self, _pos: &Position, _m: Move) -> String {
        "--".to_string()
    }

    fn has_fen_field(&self) -> bool {
        true
    }

    fn fen_field(&self, pos: &Position, _index: u8) -> Option<String> {
        let s = pos.tables().rules.opening_series?;
        s.runs(pos).then(|| s.played(pos).to_string())
    }

    fn parse_fen_field(&self, tables: &Tables, _index: u8, field: Option<&str>) -> Result<u32, String> {
        let Some(s) = tables.rules.opening_series else {
            return Ok(0);
        };
        let played = match field {
            None => s.plies(),
            Some(text) => match text.parse::<u32>() {
                Ok(n) if n < s.plies() => n,
                _ => {
                    return Err(format!(
                        "the opening series field gives the plies of the series played, 0 to {}, not '{text}'",
                        s.plies() - 1
                    ))
                }
            },
        };
        Ok(played << s.first_bit)
    }

    fn side_not_to_move_may_be_in_check(&self, pos: &Position) -> bool {
        pos.in_opening_series()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        perft::{perft, reference_perft},
        special::test_support::parsi::{fen_with, SPEC},
        Position, Variant,
    };

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
}
