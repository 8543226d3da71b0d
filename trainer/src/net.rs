//! `trainer net`: what a net file says about itself, and a new description for it (the weights
//! are kept bit for bit).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Subcommand;

use crate::data::io::write_atomic;

/// The `trainer net` subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Prints a net's header: variant, feature set, board layout, size and description.
    Show {
        /// The .nnue file.
        file: PathBuf,
    },
    /// Replaces a net's description (the text `engine eval` and the UCI `info string` show);
    /// the parameters are written back unchanged.
    Describe {
        /// The .nnue file, rewritten in place unless `--out` is given.
        file: PathBuf,
        /// The new description, in plain words: what the net learned from.
        #[arg(long)]
        set: String,
        /// Writes the relabelled net here instead.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Runs a `trainer net` subcommand.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Show { file } => {
            let net = load(&file)?;
            let h = &net.header;
            println!("file:         {}", file.display());
            println!("variant:      {} (code {})", h.variant_id, h.variant_code);
            match net.network.king_buckets() {
                Some(kings) => println!(
                    "feature set:  {} ({}, {} king buckets, king = piece type {})",
                    h.feature_set,
                    nnue::features::FEATURE_SET_KB_NAME,
                    kings.count(),
                    kings.king_type()
                ),
                None => println!(
                    "feature set:  {} ({})",
                    h.feature_set,
                    nnue::features::FEATURE_SET_V1_NAME
                ),
            }
            println!("layout hash:  {:#018x}", h.layout_hash);
            println!(
                "network:      ({} -> {})x2 -> {}{}",
                net.network.num_features(),
                net.network.hidden(),
                net.network.buckets(),
                if net.network.buckets() > 1 {
                    " (output buckets by piece count)"
                } else {
                    ""
                }
            );
            println!("description:  {}", h.description);
            Ok(())
        }
        Command::Describe { file, set, out } => {
            if set.trim().is_empty() {
                bail!("--set: the description is empty");
            }
            let mut net = load(&file)?;
            net.header.description = set;
            let bytes = nnue::format::to_bytes(&net.header, &net.network).context("cannot encode the net")?;
            let target = out.unwrap_or(file);
            write_atomic(&target, &bytes)?;
            println!("{}: {}", target.display(), net.header.description);
            Ok(())
        }
    }
}

fn load(file: &PathBuf) -> Result<nnue::format::LoadedNet> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    nnue::format::read_any(&bytes).with_context(|| format!("{} is not a readable net", file.display()))
}
