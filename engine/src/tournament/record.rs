//! A finished game of a match: its record, its PGN and its progress line.

use std::fmt::Write as _;

use super::{elo::Wdl, player::PlayerConfig};
use crate::{
    play::{clock::clk_text, GameResult, Opening, PlayedGame, Termination},
    rules::{notation::pgn::PgnGame, Color, Outcome, Variant},
};

/// A finished game of a match.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number (the order games were started in).
    pub number: usize,
    /// 1-based number of the opening.
    pub opening: usize,
    /// Where the opening comes from.
    pub opening_label: String,
    /// Whether the first configuration played White.
    pub first_is_white: bool,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The game as PGN data (tags, start position, moves, result).
    pub pgn: PgnGame,
}

impl GameRecord {
    /// The game as a tally of the first configuration (one win, draw or loss).
    pub fn first_wdl(&self) -> Wdl {
        match (self.result, self.first_is_white) {
            (GameResult::Draw, _) => Wdl::new(0, 1, 0),
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Wdl::new(1, 0, 0),
            _ => Wdl::new(0, 0, 1),
        }
    }
}

/// What a match's statistics need of a finished game, and the line a match writes for it with
/// `--results` (tab-separated: number, `w` or `b` for the first configuration's colour, result,
/// `gem` or `-`, termination, what an illegal move or an engine failure was or `-`). Matches played in parts, on
/// several machines, are merged from these lines (`engine match-merge`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine {
    /// The variant (not written: the file's header gives it).
    pub variant: Variant,
    /// 1-based game number.
    pub number: usize,
    /// Whether the first configuration played White.
    pub first_is_white: bool,
    /// The result.
    pub result: GameResult,
    /// Why it ended, in words ("illegal move", "time forfeit" and "engine failure" without
    /// who and what).
    pub termination: String,
    /// Whether the win was by the Green Gem (Citadel's game points).
    pub green_gem: bool,
    /// For a game lost by an engine's fault (an illegal move, a program that failed): who did
    /// what.
    pub fault: Option<String>,
}

impl ResultLine {
    /// The line of a finished game.
    pub fn of(record: &GameRecord) -> ResultLine {
        let termination = match &record.termination {
            Termination::IllegalMove { .. } => "illegal move".to_string(),
            Termination::TimeForfeit { .. } => "time forfeit".to_string(),
            Termination::EngineFailure { .. } => "engine failure".to_string(),
            t => t.description(),
        };
        let name = |by: Color| {
            record
                .pgn
                .tag(if by == Color::White { "White" } else { "Black" })
                .unwrap_or("?")
                .to_string()
        };
        let fault = match &record.termination {
            Termination::IllegalMove { by, text } => Some(format!("{} ({}) played {text}", name(*by), by.name())),
            Termination::EngineFailure { by, reason } => {
                Some(format!("{} ({}) failed: {reason}", name(*by), by.name()))
            }
            _ => None,
        };
        ResultLine {
            variant: record.pgn.start.variant(),
            number: record.number,
            first_is_white: record.first_is_white,
            result: record.result,
            termination,
            green_gem: matches!(record.termination, Termination::Rules(Outcome::GreenGem { .. })),
            fault,
        }
    }

    /// The game as a tally of the first configuration.
    pub fn first_wdl(&self) -> Wdl {
        match (self.result, self.first_is_white) {
            (GameResult::Draw, _) => Wdl::new(0, 1, 0),
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Wdl::new(1, 0, 0),
            _ => Wdl::new(0, 0, 1),
        }
    }

    /// The tab-separated line (no line break).
    pub fn to_line(&self) -> String {
        let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.number,
            if self.first_is_white { "w" } else { "b" },
            self.result.pgn(),
            if self.green_gem { "gem" } else { "-" },
            clean(&self.termination),
            self.fault.as_deref().map_or("-".to_string(), clean)
        )
    }

    /// Reads a line written by [`ResultLine::to_line`].
    pub fn parse(line: &str, variant: Variant) -> Result<ResultLine, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [number, colour, result, gem, termination, fault] = fields[..] else {
            return Err(format!("expected 6 tab-separated fields, found {}", fields.len()));
        };
        let number: usize = number
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("game number '{number}' is not a positive number"))?;
        let first_is_white = match colour {
            "w" => true,
            "b" => false,
            other => return Err(format!("colour '{other}' is not w or b")),
        };
        let result =
            GameResult::from_pgn(result).ok_or_else(|| format!("result '{result}' is not 1-0, 0-1 or 1/2-1/2"))?;
        let green_gem = match gem {
            "gem" => true,
            "-" => false,
            other => return Err(format!("'{other}' is not gem or -")),
        };
        if termination.is_empty() {
            return Err("the termination is empty".into());
        }
        Ok(ResultLine {
            variant,
            number,
            first_is_white,
            result,
            termination: termination.to_string(),
            green_gem,
            fault: (fault != "-").then(|| fault.to_string()),
        })
    }
}

/// Where a game stands in its match, for its PGN tags.
pub(super) struct GameContext<'a> {
    /// 0-based index of the game (the PGN `Round` is one more).
    pub index: usize,
    /// The first and second configurations.
    pub first: &'a PlayerConfig,
    /// See `first`.
    pub second: &'a PlayerConfig,
    /// Whether the first configuration played White.
    pub first_is_white: bool,
    /// The date tag.
    pub date: &'a str,
}

/// The PGN of a played game.
pub(super) fn game_pgn(context: &GameContext<'_>, opening: &Opening, played: &PlayedGame) -> PgnGame {
    let (first, second) = (context.first, context.second);
    let (white, black) = if context.first_is_white {
        (first, second)
    } else {
        (second, first)
    };
    let mut pgn = PgnGame::new(opening.start.clone());
    pgn.set_tag("Event", format!("{} vs {}", first.name, second.name));
    pgn.set_tag("Site", "engine match");
    pgn.set_tag("Date", context.date.to_string());
    pgn.set_tag("Round", (context.index + 1).to_string());
    pgn.set_tag("White", white.name.clone());
    pgn.set_tag("Black", black.name.clone());
    pgn.set_tag("Termination", played.termination.pgn_tag());
    pgn.set_tag("OpeningPlies", opening.moves.len().to_string());
    pgn.set_tag("WhiteConfig", white.spec());
    pgn.set_tag("BlackConfig", black.spec());
    // One clock for both: `TimeControl`. Clocks that differ (or a clock against a side without
    // one): `TimeControl "?"` and each side's own in `WhiteTimeControl` and `BlackTimeControl`
    // (`-` for a side without a clock: depth, nodes or a time per move).
    let tag = |p: &PlayerConfig| p.time_control().and_then(|tc| tc.pgn_tag());
    match (tag(white), tag(black)) {
        (None, None) => {}
        (Some(w), Some(b)) if w == b => pgn.set_tag("TimeControl", w),
        (w, b) => {
            pgn.set_tag("TimeControl", "?");
            pgn.set_tag("WhiteTimeControl", w.unwrap_or_else(|| "-".into()));
            pgn.set_tag("BlackTimeControl", b.unwrap_or_else(|| "-".into()));
        }
    }
    pgn.moves = played.moves.clone();
    // The mover's clock after each move, as `%clk` commands.
    if played.clocks.iter().any(Option::is_some) {
        pgn.move_comments = played
            .clocks
            .iter()
            .map(|c| c.map_or(String::new(), |ms| format!("[%clk {}]", clk_text(ms))))
            .collect();
    }
    pgn.result = played.result.pgn().to_string();
    pgn.final_comment = Some(played.termination.description());
    pgn
}

/// The progress line of a finished game: number, opening, colours, result, termination, plies
/// and the running W/D/L of the first configuration.
pub fn progress_line(record: &GameRecord, planned: usize, tally: Wdl) -> String {
    let white = record.pgn.tag("White").unwrap_or("?");
    let black = record.pgn.tag("Black").unwrap_or("?");
    let mut s = String::new();
    let width = planned.to_string().len();
    let _ = write!(
        s,
        "Game {:>width$}/{planned} [{}] {} (White) vs {} (Black): {} {} ({} plies); W/D/L {}/{}/{}",
        record.number,
        record.opening_label,
        white,
        black,
        record.result.pgn(),
        record.termination.description(),
        record.pgn.moves.len(),
        tally.wins,
        tally.draws,
        tally.losses
    );
    s
}
