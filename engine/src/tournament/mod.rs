//! Engine matches: two players, each this engine in-process or any UCI engine run as a program,
//! play each other from a set of openings (each opening twice, colours swapped), with clocks,
//! adjudication, a PGN record and statistics (pentanomial by default). The games themselves are
//! played by the game layer ([`crate::play`]).
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
//! - [`player`]: configurations from text such as `name=deep,depth=8,hash=16` or
//!   `cmd=./old-engine,tc=10+0.1`.
//! - [`config`]: what defines a match and the checks before it starts.
//! - [`runner`]: scheduling the game pairs on worker threads and collecting the finished games.
//! - [`record`]: a finished game's record, PGN and progress line.
//! - [`report`]: the running tally and the closing summary.
//! - [`elo`]: Elo difference with its confidence interval, LOS and the SPRT, on single games
//!   (trinomial) or game pairs (pentanomial).
//! - [`merge`]: the results of a match played in parts, merged.
//! - [`spsa`]: tuning the search's constants by SPSA on self-play.
#![deny(missing_docs)]

pub mod config;
pub mod elo;
pub mod merge;
pub mod player;
pub mod record;
pub mod report;
pub mod runner;
pub mod spsa;

pub use config::{name_programs, MatchConfig, MatchError};
pub use elo::{EloEstimate, Penta, Sprt, SprtVerdict, StatsModel, Wdl};
pub use merge::{merge_results, resume_results};
pub use player::{PlayerConfig, PlayerConfigError};
pub use record::{progress_line, GameRecord, ResultLine};
pub use report::MatchReport;
pub use runner::{play_game, run_match};

/// The game layer's types that a match's settings and records are made of.
pub use crate::play::{
    Adjudication, DrawRule, GameResult, Opening, OpeningSource, OpeningsError, PlayedGame, ResignRule, Termination,
};
