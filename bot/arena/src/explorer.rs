//! The opening explorer of the games played on the arena: every finished game from the start
//! position, indexed by the positions it went through (the first [`MAX_PLIES`] plies), so that
//! a look-up by position finds the games of every move order that reached it. The index is
//! built from the stored games at start and grows as games finish.

use std::collections::{HashMap, HashSet};

use engine::rules::{Color, Position, Variant};

/// Plies of a game that are indexed (the explorer is about openings).
pub const MAX_PLIES: usize = 50;

/// Games listed under a position, newest first.
pub const RECENT_GAMES: usize = 8;

/// A finished game, as the index needs it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game id.
    pub id: String,
    /// The start position (the variant's: games from a set-up position are not indexed).
    pub start: Position,
    /// The moves, UCI.
    pub moves: Vec<String>,
    /// The speed key (`bullet`, `blitz`, ..., `correspondence`).
    pub speed: &'static str,
    /// Display names, White then Black.
    pub names: [String; 2],
    /// Ratings at the start, White then Black.
    pub ratings: [Option<i32>; 2],
    /// The winner (none: a draw).
    pub winner: Option<Color>,
    /// Creation time, ms since the epoch.
    pub created_at: u64,
}

/// Which games count in a look-up.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// The speeds kept (empty: every speed).
    pub speeds: HashSet<String>,
    /// Lowest mean rating of the two players kept.
    pub min_rating: Option<i32>,
    /// Highest mean rating kept.
    pub max_rating: Option<i32>,
}

impl Filter {
    fn keeps(&self, g: &Meta) -> bool {
        if !self.speeds.is_empty() && !self.speeds.contains(g.speed) {
            return false;
        }
        if self.min_rating.is_none() && self.max_rating.is_none() {
            return true;
        }
        let Some(mean) = g.mean_rating() else {
            return false;
        };
        self.min_rating.is_none_or(|lo| mean >= lo) && self.max_rating.is_none_or(|hi| mean <= hi)
    }
}

/// What the index keeps of a game.
#[derive(Clone, Debug)]
pub struct Meta {
    /// Game id.
    pub id: String,
    /// The speed key.
    pub speed: &'static str,
    /// Display names, White then Black.
    pub names: [String; 2],
    /// Ratings at the start.
    pub ratings: [Option<i32>; 2],
    /// The winner (none: a draw).
    pub winner: Option<Color>,
    /// Creation time, ms since the epoch.
    pub created_at: u64,
}

impl Meta {
    /// The mean rating of the two players (none when either is unknown).
    pub fn mean_rating(&self) -> Option<i32> {
        match self.ratings {
            [Some(w), Some(b)] => Some((w + b) / 2),
            _ => None,
        }
    }
}

/// One game through a position: the game and the move it played there (none: it ended there,
/// or its indexed plies did).
#[derive(Clone, Debug)]
struct Visit {
    game: u32,
    next: Option<Box<str>>,
}

/// White wins, draws and Black wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// White won.
    pub white: u64,
    /// Drawn.
    pub draws: u64,
    /// Black won.
    pub black: u64,
}

impl Results {
    fn add(&mut self, winner: Option<Color>) {
        match winner {
            Some(Color::White) => self.white += 1,
            Some(Color::Black) => self.black += 1,
            None => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black
    }
}

/// A move played from a position, with its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveStats {
    /// The move, UCI.
    pub uci: String,
    /// The results of the games that played it.
    pub results: Results,
    /// The mean of the games' mean ratings (games with both ratings known).
    pub average_rating: Option<i32>,
}

/// The answer to a look-up.
#[derive(Clone, Debug)]
pub struct Lookup {
    /// Every game (kept by the filter) that reached the position.
    pub results: Results,
    /// The moves played from it, the most played first.
    pub moves: Vec<MoveStats>,
    /// The newest games through it, with the move each played there.
    pub recent: Vec<(Meta, Option<String>)>,
}

/// The key of a position: its FEN without the half-move clock and the move number, so that
/// move orders reaching the same position meet.
pub fn position_key(pos: &Position) -> String {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let (half, full) = (pos.halfmove_clock().to_string(), pos.fullmove_number().to_string());
    // The counters follow the board, the side, the rights and the en-passant (or fourth)
    // field, and maybe a fifth field of letters; fields of other rules come after them.
    let at = (3..fields.len().saturating_sub(1)).find(|&i| fields[i] == half && fields[i + 1] == full);
    match at {
        Some(i) => fields
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i && j != i + 1)
            .map(|(_, f)| *f)
            .collect::<Vec<_>>()
            .join(" "),
        None => fen,
    }
}

/// The index of the arena's finished games.
#[derive(Default)]
pub struct GameIndex {
    games: Vec<Meta>,
    ids: HashSet<String>,
    positions: HashMap<Variant, HashMap<String, Vec<Visit>>>,
}

impl GameIndex {
    /// Whether the game is indexed.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    /// Games indexed.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game is indexed.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Games indexed in `variant`.
    pub fn games_of(&self, variant: Variant) -> usize {
        let start = Position::startpos(variant);
        self.positions
            .get(&variant)
            .and_then(|p| p.get(&position_key(&start)))
            .map_or(0, Vec::len)
    }

    /// Adds a finished game; whether it was added (a game already indexed, one from a set-up
    /// position, one without a move, or one whose moves do not replay is not).
    pub fn add(&mut self, g: GameRecord) -> bool {
        let variant = g.start.variant();
        if self.ids.contains(&g.id) || g.moves.is_empty() || g.start.fen() != Position::startpos(variant).fen() {
            return false;
        }
        let mut pos = g.start.clone();
        let mut keys = Vec::new();
        for uci in g.moves.iter().take(MAX_PLIES) {
            let Ok(m) = pos.parse_uci(uci) else {
                tracing::warn!("explorer: game {} has a move that does not replay: {uci}", g.id);
                return false;
            };
            keys.push((position_key(&pos), Some(Box::<str>::from(pos.uci(m)))));
            pos = pos.after(m);
        }
        keys.push((position_key(&pos), None));
        // A position met twice in the game (a repetition) counts the game once, with its first
        // move from there.
        let mut seen = HashSet::new();
        let number = u32::try_from(self.games.len()).unwrap_or(u32::MAX);
        let table = self.positions.entry(variant).or_default();
        for (key, next) in keys {
            if seen.insert(key.clone()) {
                table.entry(key).or_default().push(Visit { game: number, next });
            }
        }
        self.ids.insert(g.id.clone());
        self.games.push(Meta {
            id: g.id,
            speed: g.speed,
            names: g.names,
            ratings: g.ratings,
            winner: g.winner,
            created_at: g.created_at,
        });
        true
    }

    /// The games of `variant` through `pos` that `filter` keeps.
    pub fn lookup(&self, pos: &Position, filter: &Filter) -> Lookup {
        let visits = self
            .positions
            .get(&pos.variant())
            .and_then(|p| p.get(&position_key(pos)))
            .map_or(&[][..], Vec::as_slice);
        let mut results = Results::default();
        let mut moves: Vec<(String, Results, i64, i64)> = Vec::new();
        let mut kept: Vec<(&Meta, Option<&str>)> = Vec::new();
        for v in visits {
            let Some(meta) = self.games.get(v.game as usize) else {
                continue;
            };
            if !filter.keeps(meta) {
                continue;
            }
            results.add(meta.winner);
            kept.push((meta, v.next.as_deref()));
            let Some(uci) = v.next.as_deref() else {
                continue;
            };
            let at = match moves.iter().position(|m| m.0 == uci) {
                Some(i) => i,
                None => {
                    moves.push((uci.to_string(), Results::default(), 0, 0));
                    moves.len() - 1
                }
            };
            let entry = &mut moves[at];
            entry.1.add(meta.winner);
            if let Some(r) = meta.mean_rating() {
                entry.2 += i64::from(r);
                entry.3 += 1;
            }
        }
        let mut moves: Vec<MoveStats> = moves
            .into_iter()
            .map(|(uci, results, sum, n)| MoveStats {
                uci,
                results,
                average_rating: (n > 0).then(|| i32::try_from(sum / n).unwrap_or(i32::MAX)),
            })
            .collect();
        moves.sort_by(|a, b| {
            b.results
                .games()
                .cmp(&a.results.games())
                .then_with(|| a.uci.cmp(&b.uci))
        });
        kept.sort_by(|a, b| b.0.created_at.cmp(&a.0.created_at).then_with(|| a.0.id.cmp(&b.0.id)));
        let recent = kept
            .into_iter()
            .take(RECENT_GAMES)
            .map(|(m, next)| (m.clone(), next.map(str::to_string)))
            .collect();
        Lookup { results, moves, recent }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(
        id: &str,
        moves: &str,
        speed: &'static str,
        ratings: [i32; 2],
        winner: Option<Color>,
        at: u64,
    ) -> GameRecord {
        GameRecord {
            id: id.into(),
            start: Position::startpos(Variant::Chess),
            moves: moves.split_whitespace().map(str::to_string).collect(),
            speed,
            names: ["W".into(), "B".into()],
            ratings: [Some(ratings[0]), Some(ratings[1])],
            winner,
            created_at: at,
        }
    }

    fn after(moves: &str) -> Position {
        let mut pos = Position::startpos(Variant::Chess);
        for uci in moves.split_whitespace() {
            let m = pos.parse_uci(uci).expect("legal");
            pos = pos.after(m);
        }
        pos
    }

    #[test]
    fn the_key_drops_only_the_counters() {
        let start = Position::startpos(Variant::Chess);
        assert_eq!(
            position_key(&start),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        );
        // The same position after knights out and back: other counters, the same key.
        let back = after("g1f3 g8f6 f3g1 f6g8");
        assert_ne!(back.fen(), start.fen());
        assert_eq!(position_key(&back), position_key(&start));
        // Every variant's start position keeps its other fields.
        for v in Variant::ALL {
            let p = Position::startpos(v);
            let key = position_key(&p);
            assert_eq!(key.split(' ').count() + 2, p.fen().split(' ').count(), "{v:?}: {key}");
        }
    }

    #[test]
    fn move_orders_meet_and_results_add_up() {
        let mut index = GameIndex::default();
        assert!(index.add(record(
            "a",
            "g1f3 g8f6 b1c3 b8c6",
            "blitz",
            [1500, 1600],
            Some(Color::White),
            1
        )));
        assert!(index.add(record("b", "b1c3 g8f6 g1f3 e7e5", "rapid", [1800, 2000], None, 2)));
        assert!(index.add(record("c", "e2e4 e7e5", "blitz", [1400, 1400], Some(Color::Black), 3)));
        assert!(
            !index.add(record("a", "e2e4", "blitz", [1500, 1500], None, 4)),
            "a game is indexed once"
        );
        assert_eq!(index.len(), 3);
        assert_eq!(index.games_of(Variant::Chess), 3);

        let root = index.lookup(&Position::startpos(Variant::Chess), &Filter::default());
        assert_eq!(
            root.results,
            Results {
                white: 1,
                draws: 1,
                black: 1
            }
        );
        let ucis: Vec<&str> = root.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(ucis, ["b1c3", "e2e4", "g1f3"]);
        assert_eq!(
            root.recent.iter().map(|(m, _)| m.id.as_str()).collect::<Vec<_>>(),
            ["c", "b", "a"]
        );
        assert_eq!(root.recent[0].1.as_deref(), Some("e2e4"));

        // Nf3 Nf6 Nc3 and Nc3 Nf6 Nf3: one position, both games, each with its next move.
        let meet = index.lookup(&after("g1f3 g8f6 b1c3"), &Filter::default());
        assert_eq!(
            meet.results,
            Results {
                white: 1,
                draws: 1,
                black: 0
            }
        );
        let mut next: Vec<&str> = meet.moves.iter().map(|m| m.uci.as_str()).collect();
        next.sort_unstable();
        assert_eq!(next, ["b8c6", "e7e5"]);
        let e5 = meet.moves.iter().find(|m| m.uci == "e7e5").expect("e5");
        assert_eq!(e5.average_rating, Some(1900));

        // The end of a game is a position with the game and no move.
        let end = index.lookup(&after("e2e4 e7e5"), &Filter::default());
        assert_eq!(end.results.games(), 1);
        assert!(end.moves.is_empty());
        assert_eq!(end.recent[0].1, None);
    }

    #[test]
    fn filters_by_speed_and_mean_rating() {
        let mut index = GameIndex::default();
        index.add(record("a", "e2e4", "blitz", [1500, 1600], Some(Color::White), 1));
        index.add(record("b", "d2d4", "rapid", [1800, 2000], None, 2));
        let start = Position::startpos(Variant::Chess);
        let only = |speeds: &[&str], lo: Option<i32>, hi: Option<i32>| {
            let f = Filter {
                speeds: speeds.iter().map(|s| s.to_string()).collect(),
                min_rating: lo,
                max_rating: hi,
            };
            let l = index.lookup(&start, &f);
            l.moves.into_iter().map(|m| m.uci).collect::<Vec<_>>()
        };
        assert_eq!(only(&["blitz"], None, None), ["e2e4"]);
        assert_eq!(only(&["blitz", "rapid"], None, None).len(), 2);
        assert!(only(&["bullet"], None, None).is_empty());
        // Means: 1550 and 1900.
        assert_eq!(only(&[], Some(1600), None), ["d2d4"]);
        assert_eq!(only(&[], None, Some(1550)), ["e2e4"]);
        assert!(only(&[], Some(1551), Some(1899)).is_empty());
        assert!(only(&["blitz"], Some(1600), None).is_empty());
    }

    #[test]
    fn games_that_do_not_fit_are_left_out() {
        let mut index = GameIndex::default();
        assert!(!index.add(record("empty", "", "blitz", [1500, 1500], None, 1)));
        assert!(!index.add(record("bad", "e2e4 e2e4", "blitz", [1500, 1500], None, 1)));
        let mut set_up = record("fen", "e2e4", "blitz", [1500, 1500], None, 1);
        set_up.start = after("d2d4");
        assert!(!index.add(set_up));
        assert!(index.is_empty());
        assert!(!index.contains("bad"));
        // Plies beyond MAX_PLIES are not indexed: the game stops at its last indexed position.
        let shuffle: Vec<&str> = ["g1f3", "g8f6", "f3g1", "f6g8"]
            .into_iter()
            .cycle()
            .take(MAX_PLIES + 4)
            .collect();
        assert!(index.add(record("long", &shuffle.join(" "), "blitz", [1500, 1500], None, 2)));
        let root = index.lookup(&Position::startpos(Variant::Chess), &Filter::default());
        assert_eq!(root.results.games(), 1, "a repeated position counts its game once");
        assert_eq!(root.moves.len(), 1);
        assert_eq!(root.moves[0].uci, "g1f3");
    }

    #[test]
    fn every_variant_has_its_own_table() {
        let mut index = GameIndex::default();
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            let start = Position::startpos(v);
            let m = start.legal_moves().as_slice().first().copied().expect("a move");
            let g = GameRecord {
                id: format!("g{i}"),
                start: start.clone(),
                moves: vec![start.uci(m)],
                speed: "blitz",
                names: ["W".into(), "B".into()],
                ratings: [None, None],
                winner: None,
                created_at: i as u64,
            };
            assert!(index.add(g), "{v:?}");
        }
        for v in Variant::ALL {
            assert_eq!(index.games_of(v), 1, "{v:?}");
            let l = index.lookup(&Position::startpos(v), &Filter::default());
            assert_eq!(l.results.games(), 1);
            assert_eq!(l.moves[0].average_rating, None);
        }
        // Unknown ratings: kept without a rating filter, left out with one.
        let f = Filter {
            min_rating: Some(0),
            ..Filter::default()
        };
        assert_eq!(index.lookup(&Position::startpos(Variant::Chess), &f).results.games(), 0);
    }
}
