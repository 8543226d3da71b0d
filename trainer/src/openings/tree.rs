//! The opening tree: one node per line (sequence of moves from a start position) with its game
//! count, results and mean score; its JSON and CSV forms.

use std::{collections::HashMap, fmt::Write as _};

use engine::{
    opening_tree::{LineStats, Node as JsonNode, Root as JsonRoot, TreeFile, TreeSettings},
    rules::{Color, Move, Position, Variant},
};

use engine::play::GameResult;

/// What happened to the games read: the `games` of `tree.json` (one type with the arena's
/// reader, in the engine crate).
pub use engine::opening_tree::GameCounts;

use super::pgn::Game;

/// What the games that reached a line did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games that reached the line.
    pub games: u64,
    /// Of those, games White won.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Sum of the scores after the line (centipawns, White's view).
    pub eval_sum: i64,
    /// Games with a score after the line.
    pub eval_games: u64,
}

impl Stats {
    fn add(&mut self, result: Option<GameResult>) {
        self.games += 1;
        match result {
            Some(GameResult::WhiteWins) => self.white_wins += 1,
            Some(GameResult::Draw) => self.draws += 1,
            Some(GameResult::BlackWins) => self.black_wins += 1,
            None => {}
        }
    }

    /// Games without a result.
    pub fn unfinished(&self) -> u64 {
        self.games - self.white_wins - self.draws - self.black_wins
    }

    /// White's score in percent over the finished games, rounded to 0.1.
    pub fn score_pct(&self) -> Option<f64> {
        let finished = self.white_wins + self.draws + self.black_wins;
        (finished > 0).then(|| round1(100.0 * (self.white_wins as f64 + self.draws as f64 / 2.0) / finished as f64))
    }

    /// A 95 % confidence interval of White's score in percent (Wilson's interval on the points,
    /// each draw half a point: wider than the exact trinomial one when there are draws, never
    /// empty for one game), each end rounded to 0.1.
    pub fn score_interval(&self) -> Option<(f64, f64)> {
        let n = (self.white_wins + self.draws + self.black_wins) as f64;
        if n == 0.0 {
            return None;
        }
        let p = (self.white_wins as f64 + self.draws as f64 / 2.0) / n;
        const Z: f64 = 1.959_964;
        let z2 = Z * Z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Some((
            round1(100.0 * (centre - half).max(0.0)),
            round1(100.0 * (centre + half).min(1.0)),
        ))
    }

    /// The mean score after the line (centipawns, White's view), rounded to 0.1.
    pub fn mean_eval(&self) -> Option<f64> {
        (self.eval_games > 0).then(|| round1(self.eval_sum as f64 / self.eval_games as f64))
    }
}

fn round1(x: f64) -> f64 {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// One line: the last move and what follows.
#[derive(Clone, Debug)]
pub struct Node {
    /// The last move of the line (null at a root).
    pub mv: Move,
    /// Its UCI text.
    pub uci: String,
    /// Its SAN.
    pub san: String,
    /// Plies from the start position.
    pub ply: usize,
    /// The statistics.
    pub stats: Stats,
    /// The lines one move longer.
    pub children: Vec<usize>,
}

/// A start position and the tree of lines from it.
#[derive(Clone, Debug)]
pub struct Root {
    /// The start position.
    pub start: Position,
    /// Whether it is the variant's start position.
    pub standard: bool,
    /// Its node.
    pub node: usize,
}

/// The opening tree of one variant.
pub struct Tree {
    /// The variant.
    pub variant: Variant,
    /// The depth in plies.
    pub plies: usize,
    /// Every node.
    pub nodes: Vec<Node>,
    /// The start positions: the standard one first, then by games.
    pub roots: Vec<Root>,
    /// Root of each start FEN (until [`Tree::sort`]).
    root_index: HashMap<String, usize>,
}

/// One line of the tree, as listed in `lines.csv` and the report.
#[derive(Clone, Debug)]
pub struct Line {
    /// Index of the root.
    pub root: usize,
    /// Index of the node.
    pub node: usize,
    /// Plies.
    pub ply: usize,
    /// The moves in UCI, separated by spaces.
    pub uci: String,
    /// The moves in SAN with move numbers (`1. e5 e7 2. Nd4`).
    pub san: String,
    /// The statistics.
    pub stats: Stats,
}

impl Tree {
    /// An empty tree.
    pub fn new(variant: Variant, plies: usize) -> Tree {
        Tree {
            variant,
            plies,
            nodes: Vec::new(),
            roots: Vec::new(),
            root_index: HashMap::new(),
        }
    }

    fn root_for(&mut self, game: &Game) -> usize {
        let fen = game.start.fen();
        if let Some(&i) = self.root_index.get(&fen) {
            return i;
        }
        self.root_index.insert(fen, self.roots.len());
        self.nodes.push(Node {
            mv: Move::NULL,
            uci: String::new(),
            san: String::new(),
            ply: 0,
            stats: Stats::default(),
            children: Vec::new(),
        });
        self.roots.push(Root {
            start: game.start.clone(),
            standard: game.standard_start,
            node: self.nodes.len() - 1,
        });
        self.roots.len() - 1
    }

    /// Adds a game: every line it reached within the depth counts it.
    pub fn add(&mut self, game: &Game) {
        let root = self.root_for(game);
        let mut node = self.roots[root].node;
        self.nodes[node].stats.add(game.result);
        let mut pos = game.start.clone();
        for (i, &m) in game.moves.iter().take(self.plies).enumerate() {
            let found = self.nodes[node]
                .children
                .iter()
                .copied()
                .find(|&c| self.nodes[c].mv == m);
            let child = match found {
                Some(c) => c,
                None => {
                    self.nodes.push(Node {
                        mv: m,
                        uci: pos.uci(m),
                        san: pos.san(m),
                        ply: i + 1,
                        stats: Stats::default(),
                        children: Vec::new(),
                    });
                    let c = self.nodes.len() - 1;
                    self.nodes[node].children.push(c);
                    c
                }
            };
            pos.play_unchecked(m);
            let stats = &mut self.nodes[child].stats;
            stats.add(game.result);
            if let Some(cp) = game.evals.get(i).copied().flatten() {
                stats.eval_sum += cp as i64;
                stats.eval_games += 1;
            }
            node = child;
        }
    }

    /// Orders children by games (most first, then by UCI text) and roots with the standard start
    /// first, then by games, then by FEN. Call it once, after the last [`Tree::add`].
    pub fn sort(&mut self) {
        self.root_index.clear();
        for i in 0..self.nodes.len() {
            let mut children = std::mem::take(&mut self.nodes[i].children);
            children.sort_by(|&a, &b| {
                let (a, b) = (&self.nodes[a], &self.nodes[b]);
                b.stats.games.cmp(&a.stats.games).then_with(|| a.uci.cmp(&b.uci))
            });
            self.nodes[i].children = children;
        }
        let nodes = &self.nodes;
        self.roots.sort_by(|a, b| {
            b.standard
                .cmp(&a.standard)
                .then_with(|| nodes[b.node].stats.games.cmp(&nodes[a.node].stats.games))
                .then_with(|| a.start.fen().cmp(&b.start.fen()))
        });
    }

    /// Every line with at least `min_games` games, depth first (a line before its longer lines,
    /// the most played first), root lines (no moves) included. A root with fewer games is left out
    /// with all its lines.
    pub fn lines(&self, min_games: u64) -> Vec<Line> {
        let mut out = Vec::new();
        for (r, root) in self.roots.iter().enumerate() {
            if self.nodes[root.node].stats.games < min_games {
                continue;
            }
            let mut uci = Vec::new();
            let mut san = Vec::new();
            self.collect(r, root.node, &root.start, min_games, &mut uci, &mut san, &mut out);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn collect(
        &self,
        root: usize,
        node: usize,
        start: &Position,
        min_games: u64,
        uci: &mut Vec<String>,
        san: &mut Vec<String>,
        out: &mut Vec<Line>,
    ) {
        let n = &self.nodes[node];
        out.push(Line {
            root,
            node,
            ply: n.ply,
            uci: uci.join(" "),
            san: numbered_san(start, san),
            stats: n.stats,
        });
        for &c in &n.children {
            let child = &self.nodes[c];
            if child.stats.games < min_games {
                continue;
            }
            uci.push(child.uci.clone());
            san.push(child.san.clone());
            self.collect(root, c, start, min_games, uci, san, out);
            uci.pop();
            san.pop();
        }
    }

    /// The position after a line of a root.
    pub fn position_after(&self, root: usize, line_uci: &str) -> Option<Position> {
        let mut pos = self.roots.get(root)?.start.clone();
        for m in line_uci.split_whitespace() {
            pos.play_uci(m).ok()?;
        }
        Some(pos)
    }
}

/// SAN moves with move numbers, counted from `start`: `1. e5 e7 2. Nd4`, `7... e7 8. Nd4`.
pub fn numbered_san(start: &Position, moves: &[String]) -> String {
    let mut out = String::new();
    let mut number = start.fullmove_number();
    let mut white = start.turn() == Color::White;
    for (i, m) in moves.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if white {
            let _ = write!(out, "{number}. ");
        } else if i == 0 {
            let _ = write!(out, "{number}... ");
        }
        out.push_str(m);
        if !white {
            number += 1;
        }
        white = !white;
    }
    out
}

/// The settings recorded in `tree.json`.
#[derive(Clone, Debug)]
pub struct TreeOptions {
    /// `--plies`.
    pub plies: usize,
    /// `--min-games`.
    pub min_games: u64,
    /// `--eval-view`.
    pub eval_view: super::pgn::EvalView,
    /// `--fen-games`.
    pub fen_games: super::FenGames,
}

impl From<&TreeOptions> for TreeSettings {
    fn from(s: &TreeOptions) -> TreeSettings {
        TreeSettings {
            plies: s.plies,
            min_games: s.min_games,
            eval_view: s.eval_view.name().to_string(),
            fen_games: s.fen_games.name().to_string(),
        }
    }
}

impl From<&Stats> for LineStats {
    fn from(s: &Stats) -> LineStats {
        LineStats {
            games: s.games,
            white_wins: s.white_wins,
            draws: s.draws,
            black_wins: s.black_wins,
            unfinished: s.unfinished(),
            score: s.score_pct(),
            score_low: s.score_interval().map(|i| i.0),
            score_high: s.score_interval().map(|i| i.1),
            eval_cp: s.mean_eval(),
            eval_games: s.eval_games,
        }
    }
}

impl Tree {
    /// The start column of a root: `startpos` or its FEN.
    pub fn start_name(&self, root: usize) -> String {
        let r = &self.roots[root];
        if r.standard {
            "startpos".to_string()
        } else {
            r.start.fen()
        }
    }

    /// `tree.json`: settings, game counts and the pruned tree (see `docs/openings.md`).
    pub fn to_json(&self, settings: &TreeOptions, counts: &GameCounts) -> String {
        let min = settings.min_games;
        let mut roots = Vec::new();
        for (i, r) in self.roots.iter().enumerate() {
            let node = &self.nodes[r.node];
            if node.stats.games < min {
                continue;
            }
            let mut san = Vec::new();
            roots.push(JsonRoot {
                start: self.start_name(i),
                fen: r.start.fen(),
                stats: (&node.stats).into(),
                children: self.json_children(r.node, &r.start, min, &mut san),
            });
        }
        TreeFile {
            format: engine::opening_tree::FORMAT.to_string(),
            version: engine::opening_tree::VERSION,
            variant: self.variant.id().to_string(),
            settings: settings.into(),
            games: counts.clone(),
            roots,
        }
        .to_json()
    }

    fn json_children(&self, node: usize, start: &Position, min: u64, san: &mut Vec<String>) -> Vec<JsonNode> {
        let mut out = Vec::new();
        for &c in &self.nodes[node].children {
            let n = &self.nodes[c];
            if n.stats.games < min {
                continue;
            }
            san.push(n.san.clone());
            out.push(JsonNode {
                ply: n.ply,
                uci: n.uci.clone(),
                san: n.san.clone(),
                line: numbered_san(start, san),
                stats: (&n.stats).into(),
                children: self.json_children(c, start, min, san),
            });
            san.pop();
        }
        out
    }

    /// `lines.csv`: one row per line (see `docs/openings.md`).
    pub fn to_csv(&self, lines: &[Line]) -> String {
        let mut out = String::from(
            "start,ply,moves_uci,moves_san,games,white_wins,draws,black_wins,unfinished,score,score_low,score_high,eval_cp,eval_games\n",
        );
        let opt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.1}"));
        for l in lines {
            let s = &l.stats;
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&self.start_name(l.root)),
                l.ply,
                csv_field(&l.uci),
                csv_field(&l.san),
                s.games,
                s.white_wins,
                s.draws,
                s.black_wins,
                s.unfinished(),
                opt(s.score_pct()),
                opt(s.score_interval().map(|i| i.0)),
                opt(s.score_interval().map(|i| i.1)),
                opt(s.mean_eval()),
                s.eval_games
            );
        }
        out
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(variant: Variant, ucis: &[&str], result: Option<GameResult>, evals: &[Option<i32>]) -> Game {
        let start = Position::startpos(variant);
        let mut pos = start.clone();
        let moves = ucis.iter().map(|u| pos.play_uci(u).unwrap()).collect();
        Game {
            standard_start: true,
            start,
            moves,
            evals: evals.to_vec(),
            result,
            opening_plies: 0,
        }
    }

    #[test]
    fn counts_lines() {
        let v = Variant::PersianPrincess;
        let mut t = Tree::new(v, 2);
        t.add(&game(
            v,
            &["e3e5", "e9e7", "g3g4"],
            Some(GameResult::WhiteWins),
            &[Some(20), Some(10)],
        ));
        t.add(&game(v, &["e3e5", "g9g8"], Some(GameResult::Draw), &[Some(40), None]));
        t.add(&game(v, &["g3g4"], Some(GameResult::BlackWins), &[]));
        t.add(&game(v, &["e3e5", "e9e7"], None, &[]));
        t.sort();
        let lines = t.lines(1);
        let rows: Vec<(String, u64, Option<f64>, Option<f64>)> = lines
            .iter()
            .map(|l| (l.san.clone(), l.stats.games, l.stats.score_pct(), l.stats.mean_eval()))
            .collect();
        assert_eq!(
            rows,
            [
                (String::new(), 4, Some(50.0), None),
                ("1. e5".to_string(), 3, Some(75.0), Some(30.0)),
                ("1. e5 e7".to_string(), 2, Some(100.0), Some(10.0)),
                ("1. e5 g8".to_string(), 1, Some(50.0), None),
                ("1. g4".to_string(), 1, Some(0.0), None),
            ]
        );
        assert_eq!(t.lines(2).len(), 3);
        assert_eq!(lines[2].uci, "e3e5 e9e7");
        assert_eq!(lines[2].stats.unfinished(), 1);
        let csv = t.to_csv(&lines);
        assert!(
            csv.contains("\nstartpos,2,e3e5 e9e7,1. e5 e7,2,1,0,0,1,100.0,20.7,100.0,10.0,1\n"),
            "{csv}"
        );
    }

    #[test]
    fn tree_json_reads_back_with_the_shared_type() {
        use clap::ValueEnum;
        let v = Variant::PersianPrincess;
        let mut t = Tree::new(v, 2);
        t.add(&game(
            v,
            &["e3e5", "e9e7"],
            Some(GameResult::WhiteWins),
            &[Some(20), Some(10)],
        ));
        t.add(&game(v, &["e3e5", "g9g8"], Some(GameResult::Draw), &[]));
        t.sort();
        let settings = TreeOptions {
            plies: 2,
            min_games: 1,
            eval_view: super::super::pgn::EvalView::White,
            fen_games: super::super::FenGames::Group,
        };
        let counts = GameCounts {
            read: 3,
            used: 2,
            unreadable: 1,
            with_eval: 1,
            ..GameCounts::default()
        };
        let text = t.to_json(&settings, &counts);
        // What the arena reads (engine::opening_tree), field by field.
        let file = TreeFile::from_json(&text).expect("the written tree reads");
        assert_eq!(file.variant, v.id());
        assert_eq!(file.settings.eval_view, "white");
        assert_eq!(file.settings.fen_games, "group");
        assert_eq!(file.games, counts);
        let root = file.standard_root().expect("the start position's tree");
        assert_eq!(root.fen, Position::startpos(v).fen());
        assert_eq!((root.stats.games, root.stats.white_wins, root.stats.draws), (2, 1, 1));
        assert_eq!(root.children.len(), 1);
        let e5 = &root.children[0];
        assert_eq!((e5.ply, e5.uci.as_str(), e5.line.as_str()), (1, "e3e5", "1. e5"));
        assert_eq!(
            (e5.stats.score, e5.stats.eval_cp, e5.stats.eval_games),
            (Some(75.0), Some(20.0), 1)
        );
        let replies: Vec<&str> = e5.children.iter().map(|c| c.line.as_str()).collect();
        assert_eq!(replies, ["1. e5 e7", "1. e5 g8"]);
        // Written again from what was read, the text is the same.
        assert_eq!(file.to_json(), text);
        // The names recorded are the ones the options take.
        for view in super::super::pgn::EvalView::value_variants() {
            assert_eq!(
                view.to_possible_value().map(|p| p.get_name().to_string()),
                Some(view.name().to_string())
            );
        }
        for mode in super::super::FenGames::value_variants() {
            assert_eq!(
                mode.to_possible_value().map(|p| p.get_name().to_string()),
                Some(mode.name().to_string())
            );
        }
    }

    #[test]
    fn numbering_from_black() {
        let mut start = Position::startpos(Variant::Chess);
        start.play_uci("e2e4").unwrap();
        assert_eq!(numbered_san(&start, &["e5".into(), "Nf3".into()]), "1... e5 2. Nf3");
        assert_eq!(
            numbered_san(
                &Position::startpos(Variant::Chess),
                &["e4".into(), "e5".into(), "Nf3".into()]
            ),
            "1. e4 e5 2. Nf3"
        );
    }

    #[test]
    fn score_intervals() {
        let stats = |w, d, b| Stats {
            games: w + d + b,
            white_wins: w,
            draws: d,
            black_wins: b,
            ..Stats::default()
        };
        assert_eq!(stats(0, 0, 0).score_interval(), None);
        // One win: Wilson's interval for 1 of 1.
        assert_eq!(stats(1, 0, 0).score_interval(), Some((20.7, 100.0)));
        // 540 points of 1000 games: 54 % +- about 3.1.
        let (lo, hi) = stats(400, 280, 320).score_interval().unwrap();
        assert!((lo - 50.9).abs() < 0.2 && (hi - 57.1).abs() < 0.2, "{lo} {hi}");
        assert!(stats(400, 280, 320).score_pct().is_some_and(|s| lo < s && s < hi));
        // Symmetric for Black.
        let (a, b) = stats(3, 2, 10).score_interval().unwrap();
        let (c, d) = stats(10, 2, 3).score_interval().unwrap();
        assert!((a + d - 100.0).abs() < 0.11 && (b + c - 100.0).abs() < 0.11);
    }

    #[test]
    fn csv_quoting() {
        assert_eq!(csv_field("a b"), "a b");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("a\"b"), "\"a\"\"b\"");
    }
}
