//! A finished game of a match: its record, its PGN and its progress line.

use std::fmt::Write as _;

use super::{elo::Wdl, player::PlayerConfig};
use crate::{
    play::{GameResult, Opening, PlayedGame, Termination},
    rules::notation::pgn::PgnGame,
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
    pgn.moves = played.moves.clone();
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
