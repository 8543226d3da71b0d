//! `trainer data shuffle`: shuffles records across files into new shards.

use std::{fs, io::Write, path::PathBuf};

use anyhow::{bail, Context, Result};
use engine::play::openings::seeded_rng;
use nnue::data::{Record, RECORD_SIZE};

use super::io::{read_records, record_files, thousands, total_size, write_atomic_with};

/// Arguments of `trainer data shuffle`.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Reads every record of the inputs into memory, shuffles them (Fisher-Yates with the \
given seed: the same inputs in the same order and the same seed give the same output), and writes \
them as new shards of --records-per-shard records: <out>/<prefix>_000000.bin, ... Each shard is \
written to a .tmp file and renamed when complete.\n\nEverything is held in memory: 64 bytes per \
record, so 10 M records take 640 MB and 100 M take 6.4 GB. The inputs' total size is checked \
against --max-memory-gb before anything is read."
)]
pub struct Args {
    /// Record files (.bin) or directories (searched recursively for .bin files).
    #[arg(required = true, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// Output directory (created if needed).
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Records per output shard (the last one may hold fewer).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub records_per_shard: u64,
    /// Output file names: <prefix>_000000.bin, ...
    #[arg(long, default_value = "shuffled")]
    pub prefix: String,
    /// Refuse inputs larger than this (they are held in memory).
    #[arg(long, value_name = "GB", default_value_t = 8.0)]
    pub max_memory_gb: f64,
    /// Replace existing <prefix>_*.bin files in the output directory.
    #[arg(long)]
    pub force: bool,
}

fn output_name(prefix: &str, i: u64) -> String {
    format!("{prefix}_{i:06}.bin")
}

/// Existing outputs of the prefix in `dir`.
fn existing_outputs(dir: &std::path::Path, prefix: &str) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    if dir.exists() {
        for e in fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
            let p = e?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if let Some(rest) = name.strip_prefix(prefix).and_then(|r| r.strip_prefix('_')) {
                if rest.ends_with(".bin") && rest[..rest.len() - 4].bytes().all(|b| b.is_ascii_digit()) {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Shuffles `items` in place (Fisher-Yates with the workspace's generator).
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    seeded_rng(seed).shuffle(items);
}

/// Runs `trainer data shuffle`.
pub fn run(args: Args) -> Result<()> {
    if args.records_per_shard == 0 {
        bail!("--records-per-shard must be at least 1");
    }
    if args.prefix.is_empty() || args.prefix.contains(['/', '\\']) {
        bail!("--prefix must be a plain file name prefix");
    }
    let files = record_files(&args.inputs)?;
    let bytes = total_size(&files);
    let limit = (args.max_memory_gb * 1e9) as u64;
    if bytes > limit {
        bail!(
            "the inputs hold {} bytes, more than --max-memory-gb {} allows (shuffling holds every record in \
             memory): raise the limit if the machine has the memory, or shuffle subsets and interleave them",
            thousands(bytes),
            args.max_memory_gb
        );
    }
    let existing = existing_outputs(&args.out, &args.prefix)?;
    if !existing.is_empty() && !args.force {
        bail!(
            "{} already holds {} {}_*.bin file(s): use --force to replace them, or another --out or --prefix",
            args.out.display(),
            existing.len(),
            args.prefix
        );
    }
    let mut records: Vec<Record> = Vec::with_capacity((bytes / RECORD_SIZE as u64) as usize);
    for f in &files {
        records.extend(read_records(f)?);
    }
    shuffle(&mut records, args.seed);
    fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    for p in &existing {
        fs::remove_file(p).with_context(|| format!("cannot remove {}", p.display()))?;
    }
    let per = args.records_per_shard as usize;
    let mut written = 0;
    for (i, chunk) in records.chunks(per).enumerate() {
        let path = args.out.join(output_name(&args.prefix, i as u64));
        write_atomic_with(&path, |f| {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
            for r in chunk {
                w.write_all(r.as_bytes())?;
            }
            w.flush()
        })?;
        written += 1;
    }
    println!(
        "shuffled {} records from {} file(s) into {written} file(s) in {} ({}_000000.bin ...), seed {}",
        thousands(records.len() as u64),
        files.len(),
        args.out.display(),
        args.prefix,
        args.seed
    );
    Ok(())
}
