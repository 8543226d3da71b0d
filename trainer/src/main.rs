//! The `trainer` command line: self-play data generation, training-data tools and opening
//! statistics for the Persian Chess engine.

use anyhow::Result;
use clap::{Parser, Subcommand};

mod data;
mod net;
mod openings;
mod pipeline;
mod scale;
mod selfplay;
mod train;

/// mimalloc keeps freed memory for reuse: training allocates and frees tensors of tens of
/// megabytes every step, which the system allocator returns to the kernel each time (page faults
/// cost about a third of a step).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Self-play data generation, training-data tools and opening statistics for the Persian Chess
/// engine's four sub-variants (and chess).
#[derive(Parser)]
#[command(name = "persian-trainer", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays engine games against itself and writes training records and PGN.
    Selfplay(Box<selfplay::Args>),
    /// Tools for training-record shards: stats, validate, shuffle, convert.
    #[command(subcommand)]
    Data(data::Command),
    /// Opening statistics from game records: tree, JSON, CSV, HTML report, opening book.
    Openings(openings::Args),
    /// Trains an NNUE net for one variant from self-play records (burn; sparse first layer).
    Train(Box<train::Args>),
    /// A net file's header: show it, or give the net a new description.
    #[command(subcommand)]
    Net(net::Command),
    /// The NNUE learning loop, round by round and resumable: self-play, training, an SPRT match
    /// against the current net, installation with a report, the rounds table.
    Pipeline(Box<pipeline::Args>),
}

fn main() -> Result<()> {
    engine::cli::quiet_on_broken_pipe();
    match Cli::parse().command {
        Command::Selfplay(args) => selfplay::run(*args),
        Command::Data(cmd) => data::run(cmd),
        Command::Openings(args) => openings::run(args),
        Command::Train(args) => train::run(*args),
        Command::Net(cmd) => net::run(cmd),
        Command::Pipeline(args) => pipeline::run(*args),
    }
}
