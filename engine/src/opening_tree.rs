//! The opening tree file, `tree.json`: what `trainer openings` writes and the arena's opening
//! explorer reads, declared once for both (the format is described in docs/openings.md).
//!
//! The writer fills every field. The reader takes files of version 1 as they were written over
//! time: fields added later (`score_low`, `score_high`) and the ones the explorer does not need
//! (the settings, the game counts, a node's `ply` and `line`) may be missing.

use serde::{Deserialize, Serialize};

/// The `format` of an opening tree file.
pub const FORMAT: &str = "persian-chess-opening-tree";
/// The `version` of the format this code writes and reads.
pub const VERSION: u32 = 1;

/// A whole `tree.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeFile {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The variant's engine id.
    pub variant: String,
    /// The settings the tree was built with (written beside the fields above).
    #[serde(flatten)]
    pub settings: TreeSettings,
    /// What happened to the games read.
    #[serde(default)]
    pub games: GameCounts,
    /// One per start position, the variant's start first, then by games.
    pub roots: Vec<Root>,
}

/// The settings of `trainer openings` that a tree records.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TreeSettings {
    /// `--plies`: the depth in plies.
    pub plies: usize,
    /// `--min-games`: fewest games of a line in the file.
    pub min_games: u64,
    /// `--eval-view`: `mover` or `white`.
    pub eval_view: String,
    /// `--fen-games`: `skip` or `group`.
    pub fen_games: String,
}

/// What happened to the games read (`tree.json`'s `games` and the report's summary).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameCounts {
    /// Games found in the files.
    pub read: u64,
    /// Games counted in the tree.
    pub used: u64,
    /// Games of another variant, left out.
    pub other_variant: u64,
    /// Games without a `Variant` tag while no `--variant` was given, left out.
    pub no_variant_tag: u64,
    /// Games from a set-up position (`FEN` tag), left out (`--fen-games skip`).
    pub set_up_skipped: u64,
    /// Games from a set-up position counted under their own start (`--fen-games group`).
    pub set_up_grouped: u64,
    /// Games that could not be read (bad FEN, illegal move, unknown variant), left out.
    pub unreadable: u64,
    /// Of the games used, those without a result (`*`).
    pub unfinished: u64,
    /// Of the games used, those with at least one score in a comment within the depth.
    pub with_eval: u64,
}

/// What the games that reached a line did (written beside the line's other fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LineStats {
    /// Games that reached the line.
    pub games: u64,
    /// White wins among them.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Games without a result.
    #[serde(default)]
    pub unfinished: u64,
    /// White's score in percent over the finished games, when some finished.
    #[serde(default)]
    pub score: Option<f64>,
    /// The low end of the 95 % confidence interval of that score.
    #[serde(default)]
    pub score_low: Option<f64>,
    /// The high end of that interval.
    #[serde(default)]
    pub score_high: Option<f64>,
    /// The mean score after the line, centipawns, White's view.
    #[serde(default)]
    pub eval_cp: Option<f64>,
    /// Games with a score after the line.
    #[serde(default)]
    pub eval_games: u64,
}

/// A start position and the lines from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// `startpos` for the variant's start position, else its FEN.
    pub start: String,
    /// The start position's FEN.
    #[serde(default)]
    pub fen: String,
    /// The games from it.
    #[serde(flatten)]
    pub stats: LineStats,
    /// The lines of one move, most played first.
    #[serde(default)]
    pub children: Vec<Node>,
}

/// One line: its last move, its statistics and the lines one move longer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Plies from the start position.
    #[serde(default)]
    pub ply: usize,
    /// The last move, UCI.
    #[serde(default)]
    pub uci: String,
    /// Its SAN.
    #[serde(default)]
    pub san: String,
    /// The whole line in SAN with move numbers (`1. e4 e5 2. Nf3`).
    #[serde(default)]
    pub line: String,
    /// The games that played it.
    #[serde(flatten)]
    pub stats: LineStats,
    /// The lines one move longer, most played first (ties by UCI text).
    #[serde(default)]
    pub children: Vec<Node>,
}

/// A text that is not an opening tree this code reads.
#[derive(Debug, thiserror::Error)]
pub enum TreeFileError {
    /// Not JSON, or not of the tree's shape.
    #[error("not an opening tree of `trainer openings`: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format or version.
    #[error("format {format} version {version} (this code reads {FORMAT} version {VERSION})")]
    Format {
        /// The file's `format`.
        format: String,
        /// The file's `version`.
        version: u32,
    },
}

impl TreeFile {
    /// Reads a `tree.json`, checking its format and version.
    pub fn from_json(text: &str) -> Result<TreeFile, TreeFileError> {
        let tree: TreeFile = serde_json::from_str(text)?;
        if tree.format != FORMAT || tree.version != VERSION {
            return Err(TreeFileError::Format {
                format: tree.format,
                version: tree.version,
            });
        }
        Ok(tree)
    }

    /// The file's text: indented JSON with a final line break.
    pub fn to_json(&self) -> String {
        // Every field is a string, a number, an option or a list of these: serialising cannot
        // fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The tree of the variant's start position, when the file has one.
    pub fn standard_root(&self) -> Option<&Root> {
        self.roots.iter().find(|r| r.start == "startpos")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TreeFile {
        let stats = |games, score: Option<f64>| LineStats {
            games,
            white_wins: games / 2,
            draws: games / 4,
            black_wins: games - games / 2 - games / 4,
            unfinished: 0,
            score,
            score_low: score.map(|s| s - 10.0),
            score_high: score.map(|s| s + 10.0),
            eval_cp: None,
            eval_games: 0,
        };
        TreeFile {
            format: FORMAT.to_string(),
            version: VERSION,
            variant: "chess".to_string(),
            settings: TreeSettings {
                plies: 2,
                min_games: 1,
                eval_view: "mover".to_string(),
                fen_games: "skip".to_string(),
            },
            games: GameCounts {
                read: 5,
                used: 4,
                unreadable: 1,
                ..GameCounts::default()
            },
            roots: vec![Root {
                start: "startpos".to_string(),
                fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
                stats: stats(4, Some(62.5)),
                children: vec![Node {
                    ply: 1,
                    uci: "e2e4".to_string(),
                    san: "e4".to_string(),
                    line: "1. e4".to_string(),
                    stats: LineStats {
                        eval_cp: Some(12.5),
                        eval_games: 4,
                        ..stats(4, Some(62.5))
                    },
                    children: Vec::new(),
                }],
            }],
        }
    }

    #[test]
    fn a_tree_reads_back_as_written() {
        let tree = sample();
        let text = tree.to_json();
        assert!(text.ends_with("}\n"));
        assert_eq!(TreeFile::from_json(&text).expect("reads"), tree);
        // The settings sit beside the format, as the trainer has always written them.
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(value["plies"], 2);
        assert_eq!(value["roots"][0]["children"][0]["eval_cp"], 12.5);
        assert!(value["roots"][0]["eval_cp"].is_null());
    }

    #[test]
    fn the_trainers_golden_tree_reads() {
        let text = include_str!("../../trainer/tests/golden/openings/expected/tree.json");
        let tree = TreeFile::from_json(text).expect("the golden tree reads");
        assert_eq!(tree.variant, "persian-princess");
        assert_eq!((tree.settings.plies, tree.games.read, tree.games.used), (8, 39, 35));
        let root = tree.standard_root().expect("a start-position tree");
        assert_eq!(root.stats.games, 35);
        assert_eq!(root.children[0].uci, "g2f4");
        assert_eq!(root.children[0].line, "1. Sf4");
        // Written back, it is the same text byte for byte.
        assert_eq!(tree.to_json(), text);
    }

    #[test]
    fn older_and_smaller_trees_read() {
        // No settings, partial counts, no intervals, no ply or line: still a tree.
        let text = r#"{"format": "persian-chess-opening-tree", "version": 1, "variant": "chess",
            "games": {"read": 3}, "roots": [{"start": "startpos", "games": 3, "white_wins": 1,
            "draws": 1, "black_wins": 1, "score": 50.0,
            "children": [{"uci": "e2e4", "san": "e4", "games": 3, "white_wins": 1, "draws": 1,
            "black_wins": 1}]}]}"#;
        let tree = TreeFile::from_json(text).expect("reads");
        assert_eq!(tree.games.read, 3);
        let root = tree.standard_root().expect("root");
        assert_eq!(root.stats.score_low, None);
        assert_eq!(root.children[0].san, "e4");
        assert_eq!(root.children[0].stats.score, None);
    }

    #[test]
    fn other_formats_are_refused_clearly() {
        let err = TreeFile::from_json("[1, 2]").expect_err("not a tree").to_string();
        assert!(err.contains("not an opening tree"), "{err}");
        let text = r#"{"format": "persian-chess-opening-tree", "version": 2, "variant": "chess", "roots": []}"#;
        let err = TreeFile::from_json(text).expect_err("version 2").to_string();
        assert!(err.contains("version 2") && err.contains("version 1"), "{err}");
    }
}
