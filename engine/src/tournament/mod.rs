//! Engine matches: two configurations of the engine play each other from a set of openings
//! (each opening twice, colours swapped), with adjudication, a PGN record and statistics.
//!
//! ```no_run
//! use engine::rules::Variant;
//! use engine::tournament::{run_match, MatchConfig, PlayerConfig};
//!
//! let first: PlayerConfig = "name=deep,depth=5".parse()?;
//! let second: PlayerConfig = "name=shallow,depth=1".parse()?;
//! let config = MatchConfig::new(Variant::DEFAULT, 20, first, second);
//! let report = run_match(&config, &mut |game, tally| {
//!     println!("game {} {} -> {}", game.number, game.result.pgn(), tally);
//! })?;
//! for line in report.summary_lines() {
//!     println!("{line}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! - [`player`]: configurations from text such as `name=deep,depth=8,hash=16`.
//! - [`openings`]: random openings (seeded) and openings files.
//! - [`runner`]: the game loop, adjudication, worker threads, progress and the report.
//! - [`elo`]: Elo difference with its confidence interval, LOS and the SPRT.
#![deny(missing_docs)]

pub mod elo;
pub mod openings;
pub mod player;
pub mod runner;

pub use elo::{EloEstimate, Sprt, SprtVerdict, Wdl};
pub use openings::{Opening, OpeningsError};
pub use player::{PlayerConfig, PlayerConfigError};
pub use runner::{
    play_game, progress_line, run_match, Adjudication, Adjudicator, DrawRule, GameRecord, GameResult, MatchConfig,
    MatchError, MatchReport, OpeningSource, PlayedGame, ResignRule, Termination,
};
