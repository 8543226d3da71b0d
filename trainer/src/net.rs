//! `trainer net`: what a net file says about itself, a new description for it, a new scale (the
//! weights are kept bit for bit).

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
    /// Sets a net's scale: the centipawns per unit of its output, 400 as the trainer writes it.
    /// The search's margins (futility, null move, aspiration windows, the correction history)
    /// are in centipawns, so a net whose evaluations run large for them plays better with a
    /// smaller scale. Either give the scale (--set; find the value with `engine match` and the
    /// search parameter `net_scale`, a percent of the net's scale), or fit it to a net already
    /// calibrated (--like with --data): the scale at which this net's median absolute evaluation
    /// over the positions of the records equals that net's. Every evaluation of the net is
    /// multiplied by new / old; the weights are written back unchanged.
    #[command(group(clap::ArgGroup::new("how").required(true).args(["set", "like"])))]
    Scale {
        /// The .nnue file, rewritten in place unless `--out` is given.
        file: PathBuf,
        /// The new scale, centipawns per unit of output (25 to 3200).
        #[arg(long)]
        set: Option<i32>,
        /// The net whose evaluations this one's should match (of the same variant).
        #[arg(long, value_name = "NET", requires = "data")]
        like: Option<PathBuf>,
        /// Record files or directories (searched for .bin files) of the net's variant whose
        /// positions the fit reads (with --like), e.g. a self-play run of the --like net.
        #[arg(long, value_name = "PATH")]
        data: Vec<PathBuf>,
        /// Positions the fit reads at most, spread evenly over the records (with --like).
        #[arg(long, value_name = "N", default_value_t = crate::scale::DEFAULT_POSITIONS)]
        positions: usize,
        /// Writes the rescaled net here instead.
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
            let (scale, trained) = (net.network.scale(), nnue::network::SCALE);
            let how = if scale == trained {
                "as trained".to_string()
            } else {
                format!("calibrated; trained at {trained}")
            };
            println!("scale:        {scale} cp per unit of output ({how})");
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
        Command::Scale {
            file,
            set,
            like,
            data,
            positions,
            out,
        } => {
            let net = load(&file)?;
            let old = net.network.scale();
            let set = match (set, like) {
                (Some(set), _) => set,
                (None, Some(like)) => {
                    let variant = variant_of(&net, &file)?;
                    // Both read as nets of that variant: its board, its king.
                    let ours = load_for(&file, variant)?;
                    let reference = load_for(&like, variant)
                        .with_context(|| format!("--like: not a net of {} as {} is", variant.id(), file.display()))?;
                    let fit = crate::scale::fit(variant, &ours.network, &reference.network, &data, positions)?;
                    println!("fitted to {}: {}", like.display(), fit.describe());
                    fit.scale
                }
                (None, None) => bail!("give --set N or --like NET --data PATH"),
            };
            let target = out.unwrap_or(file);
            write_with_scale(&net, set, &target)?;
            println!(
                "{}: scale {set} cp per unit of output (was {old}: its evaluations times {:.3})",
                target.display(),
                f64::from(set) / f64::from(old)
            );
            Ok(())
        }
    }
}

/// Writes `net` with `scale` centipawns per unit of output to `target` (atomically), its header
/// and weights as they are.
pub fn write_with_scale(net: &nnue::format::LoadedNet, scale: i32, target: &std::path::Path) -> Result<()> {
    let network = net.network.clone().with_scale(scale)?;
    let bytes = nnue::format::to_bytes(&net.header, &network).context("cannot encode the net")?;
    write_atomic(target, &bytes)
}

/// The variant a net was made for (its header's code).
fn variant_of(net: &nnue::format::LoadedNet, file: &std::path::Path) -> Result<engine::rules::Variant> {
    engine::rules::Variant::from_code(net.header.variant_code).with_context(|| {
        format!(
            "{} is a net of variant code {} ({}), which this build does not know",
            file.display(),
            net.header.variant_code,
            net.header.variant_id
        )
    })
}

fn load(file: &PathBuf) -> Result<nnue::format::LoadedNet> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    nnue::format::read_any(&bytes).with_context(|| format!("{} is not a readable net", file.display()))
}

/// Reads a net that must be one of `variant` (its board and king), as the engine reads it.
pub fn load_for(file: &std::path::Path, variant: engine::rules::Variant) -> Result<nnue::format::LoadedNet> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    nnue::format::read(&bytes, &engine::eval::nnue::expected(variant))
        .with_context(|| format!("{} is not a net of {}", file.display(), variant.id()))
}
