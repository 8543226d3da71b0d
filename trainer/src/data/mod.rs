//! `trainer data`: tools for training-record files (`nnue::data`, 64 bytes per position, see
//! docs/training-data.md): stats, validate, shuffle, convert, wdl.

pub mod convert;
pub mod io;
pub mod shuffle;
pub mod stats;
pub mod text;
pub mod validate;
pub mod wdl;

use anyhow::Result;

/// The `trainer data` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Counts and distributions: records, games (and the games self-play runs played), variants,
    /// results, scores, plies, piece counts.
    Stats(stats::Args),
    /// Finds corrupt records and impossible positions; exit status 1 when there are any.
    Validate(validate::Args),
    /// Shuffles records (in memory) into new shards of a given size.
    Shuffle(shuffle::Args),
    /// Converts records to text lines '<FEN> | <score> | <result>' and back.
    Convert(convert::Args),
    /// Fits the win/draw/loss model (score -> win, draw, loss) to the records' scores and results.
    Wdl(wdl::Args),
}

/// Runs a `trainer data` subcommand.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Stats(a) => stats::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Shuffle(a) => shuffle::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Wdl(a) => wdl::run(a),
    }
}
