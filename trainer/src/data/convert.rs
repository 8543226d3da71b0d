//! `trainer data convert`: records to text and back.

use std::{
    fs::File,
    io::{BufRead, BufReader, BufWriter, Write},
    path::PathBuf,
};

use anyhow::{bail, Context, Result};
use engine::rules::Variant;

use super::{
    io::{for_each_record, record_files, thousands, write_atomic_with},
    text::{from_text, to_text},
};

/// Which way to convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Text lines `<FEN> | <score> | <result> | key=value...`.
    Text,
    /// 64-byte records.
    Bin,
}

/// Arguments of `trainer data convert`.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Converts records to text lines or text lines to records.\n\nText form, one \
position per line:\n\n  <FEN> | <score> | <result> | variant=<id> ply=<n> game=<id> move=<raw> noisy=<0|1>\n\n\
FEN: the board, side to move and half-move clock of the record; castling, en-passant and \
rendezvous rights are not recorded and written as '-'; the move number is 1 + ply/2. Score: \
centipawns from the side to move's view, or 'none'. Result: from White's view, 1.0 (White won), \
0.5 (draw), 0.0 (Black won). The fourth field is optional (left out with --minimal); with it a \
record converts to text and back byte for byte. When reading text, '#' lines and empty lines are \
skipped, the variant comes from the variant= key or --variant, a missing ply from the FEN's move \
number.\n\nThe direction follows from the inputs (.bin files or directories: to text; anything \
else: to records) unless --to is given. Examples:\n  trainer data convert data/selfplay/persian-princess \
-o positions.txt\n  trainer data convert positions.txt -o positions.bin"
)]
pub struct Args {
    /// Input files: record files or directories (to text), or text files (to records; `-` for
    /// standard input).
    #[arg(required = true, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// Output file (`-`: standard output, for text only).
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
    /// Output format (default: text for .bin inputs and directories, else bin).
    #[arg(long, value_enum)]
    pub to: Option<Format>,
    /// Variant of text lines without a variant= key.
    #[arg(short, long, default_value = "persian-princess")]
    pub variant: String,
    /// Text output: only '<FEN> | <score> | <result>'.
    #[arg(long)]
    pub minimal: bool,
}

fn is_record_input(p: &std::path::Path) -> bool {
    p.is_dir() || p.extension().is_some_and(|e| e == "bin")
}

/// Runs `trainer data convert`.
pub fn run(args: Args) -> Result<()> {
    let to = args.to.unwrap_or(if args.inputs.iter().all(|p| is_record_input(p)) {
        Format::Text
    } else {
        Format::Bin
    });
    match to {
        Format::Text => to_text_file(&args),
        Format::Bin => to_bin_file(&args),
    }
}

fn to_text_file(args: &Args) -> Result<()> {
    let files = record_files(&args.inputs)?;
    let mut count = 0u64;
    let mut write = |w: &mut dyn Write| -> Result<()> {
        for f in &files {
            for_each_record(f, |i, r| {
                let line = to_text(r, args.minimal).with_context(|| format!("{}: record {i}", f.display()))?;
                writeln!(w, "{line}")?;
                count += 1;
                Ok(())
            })?;
        }
        w.flush()?;
        Ok(())
    };
    if args.out.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut w = BufWriter::new(stdout.lock());
        if let Err(e) = write(&mut w) {
            // The reader went away (`| head`): not an error.
            let closed = e
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
            if !closed {
                return Err(e);
            }
        }
    } else {
        let mut failure = None;
        write_atomic_with(&args.out, |f| {
            let mut w = BufWriter::new(f);
            if let Err(e) = write(&mut w) {
                failure = Some(e);
                return Err(std::io::Error::other("conversion failed"));
            }
            Ok(())
        })
        .map_err(|e| failure.take().unwrap_or(e))?;
        eprintln!(
            "wrote {} line(s) from {} file(s) to {}",
            thousands(count),
            files.len(),
            args.out.display()
        );
    }
    Ok(())
}

fn to_bin_file(args: &Args) -> Result<()> {
    if args.out.as_os_str() == "-" {
        bail!("records are not written to standard output: give a file with --out");
    }
    let variant: Variant = args.variant.parse()?;
    let mut count = 0u64;
    let mut failure = None;
    let mut convert = |w: &mut dyn Write| -> Result<()> {
        for input in &args.inputs {
            let name = input.display().to_string();
            let reader: Box<dyn BufRead> = if name == "-" {
                Box::new(BufReader::new(std::io::stdin()))
            } else {
                Box::new(BufReader::new(
                    File::open(input).with_context(|| format!("cannot open {name}"))?,
                ))
            };
            for (n, line) in reader.lines().enumerate() {
                let line = line.with_context(|| format!("{name}: reading line {}", n + 1))?;
                let t = line.trim();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                let r = from_text(t, variant).with_context(|| format!("{name}:{}", n + 1))?;
                w.write_all(r.as_bytes())?;
                count += 1;
            }
        }
        w.flush()?;
        Ok(())
    };
    write_atomic_with(&args.out, |f| {
        let mut w = BufWriter::new(f);
        if let Err(e) = convert(&mut w) {
            failure = Some(e);
            return Err(std::io::Error::other("conversion failed"));
        }
        Ok(())
    })
    .map_err(|e| failure.take().unwrap_or(e))?;
    eprintln!(
        "wrote {} record(s) from {} input(s) to {}",
        thousands(count),
        args.inputs.len(),
        args.out.display()
    );
    Ok(())
}
