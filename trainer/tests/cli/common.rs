//! Helpers shared by the trainer's integration tests.

#![allow(dead_code)] // each test file uses its own part

use std::{
    fs,
    path::{Path, PathBuf},
};

/// A fresh directory under the build's folder for test files (`target/tmp`), removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `target/tmp/trainer-test-<pid>-<name>`, emptied first.
    pub fn new(name: &str) -> TempDir {
        let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("trainer-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&p);
        fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

/// The output of a command that must have succeeded (`what` names it in the failure), as its
/// standard output followed by its standard error.
pub fn succeeded(out: &std::process::Output, what: &str) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

/// The shard files of a self-play directory with the extension `ext` (`bin`, `pgn`, `json`), in
/// shard order.
pub fn shard_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("shard_")))
        .collect();
    v.sort();
    v
}

/// The games of a self-play directory: its shards' PGN, one text.
pub fn shard_pgn(dir: &Path) -> String {
    shard_files(dir, "pgn")
        .iter()
        .map(|p| fs::read_to_string(p).expect("pgn"))
        .collect()
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
