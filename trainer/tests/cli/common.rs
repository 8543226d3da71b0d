//! Helpers shared by the trainer's integration tests.

#![allow(dead_code)] // each test file uses its own part

use std::{
    fs,
    path::{Path, PathBuf},
};

/// A fresh directory under the system's temporary directory, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `<tmp>/trainer-test-<pid>-<name>`, emptied first.
    pub fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("trainer-test-{}-{name}", std::process::id()));
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

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
