//! File helpers shared by the data tools and the self-play generator: atomic writes, finding
//! record files, reading records with their positions.

use std::{
    fs::{self, File},
    io::{BufReader, Write},
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};
use nnue::data::{ReadRecordError, Record, RecordReader, RECORD_SIZE};

/// The suffix of files being written: they become real only by the final rename.
pub const TMP_SUFFIX: &str = ".tmp";

/// `path` with [`TMP_SUFFIX`] appended (`shard_000001.bin` -> `shard_000001.bin.tmp`).
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(TMP_SUFFIX);
    PathBuf::from(name)
}

/// Writes `bytes` to `path` atomically: to `path.tmp` first, synced to disk, then renamed over
/// `path`. A kill at any moment leaves either the old file (or none) or the complete new one,
/// plus at worst a stale `.tmp` file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Like [`write_atomic`], with the content written by `fill`.
pub fn write_atomic_with(path: &Path, fill: impl FnOnce(&mut File) -> std::io::Result<()>) -> Result<()> {
    let tmp = tmp_path(path);
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        fill(&mut f)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable (best effort: not every file system allows it).
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    Ok(())
}

/// The record files named by `inputs`: files as given, directories searched recursively for
/// `*.bin` files (sorted by path, `.tmp` files skipped).
pub fn record_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    if inputs.is_empty() {
        bail!("no input given: name record files (.bin) or directories holding them");
    }
    let mut out = Vec::new();
    for input in inputs {
        let meta = fs::metadata(input).with_context(|| format!("cannot read {}", input.display()))?;
        if meta.is_dir() {
            let before = out.len();
            collect_bin(input, &mut out)?;
            if out.len() == before {
                bail!("{}: no .bin record files in this directory", input.display());
            }
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

fn collect_bin(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_bin(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "bin") {
            out.push(p);
        }
    }
    Ok(())
}

/// Calls `f(index, record)` for each record of the file; stops at the first error of `f`.
/// A trailing partial record or a read error is returned as an error naming the file.
pub fn for_each_record(path: &Path, mut f: impl FnMut(u64, &Record) -> Result<()>) -> Result<u64> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let reader = RecordReader::new(BufReader::with_capacity(1 << 20, file));
    let mut n = 0u64;
    for item in reader {
        match item {
            Ok(r) => {
                f(n, &r)?;
                n += 1;
            }
            Err(e @ ReadRecordError::PartialRecord { .. }) => {
                bail!("{}: {e} (the file is truncated or not a record file)", path.display())
            }
            Err(e) => bail!("{}: {e}", path.display()),
        }
    }
    Ok(n)
}

/// Reads every record of the file.
pub fn read_records(path: &Path) -> Result<Vec<Record>> {
    let len = fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut out = Vec::with_capacity((len / RECORD_SIZE as u64) as usize);
    for_each_record(path, |_, r| {
        out.push(*r);
        Ok(())
    })?;
    Ok(out)
}

/// Total size in bytes of the files.
pub fn total_size(files: &[PathBuf]) -> u64 {
    files.iter().filter_map(|f| fs::metadata(f).ok()).map(|m| m.len()).sum()
}

/// `n` with thousands separators: `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn tmp_path_appends() {
        assert_eq!(tmp_path(Path::new("a/b.bin")), PathBuf::from("a/b.bin.tmp"));
    }
}
