//! Files named from outside (UCI options, command-line flags): only regular files are read, and
//! only up to a size limit. A device (`/dev/zero`), a FIFO or a directory is refused before it
//! is opened, and a file larger than the limit before any of it is read, so that a wrong path
//! gives an error instead of blocking the engine or filling its memory.

use std::{
    fs::{self, File, FileType, Metadata},
    io::{self, Read},
    path::Path,
};

/// Why a file named from outside was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputFileError {
    /// The file cannot be opened or read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The path names something else than a regular file.
    #[error("it is {kind}, not a regular file")]
    NotAFile {
        /// What it is, e.g. `a FIFO (named pipe)`.
        kind: &'static str,
    },
    /// The file is larger than the limit.
    #[error("it is {size} bytes long, more than the limit of {max} bytes")]
    TooLarge {
        /// Its size (at least this many bytes when it grew while it was read).
        size: u64,
        /// The limit.
        max: u64,
    },
}

/// What a file that is not a regular file is, in words.
fn kind_of(file_type: FileType) -> &'static str {
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a plain file"
}

/// The length of a regular file of at most `max` bytes, from its metadata.
fn checked_len(meta: &Metadata, max: u64) -> Result<u64, InputFileError> {
    if !meta.file_type().is_file() {
        return Err(InputFileError::NotAFile {
            kind: kind_of(meta.file_type()),
        });
    }
    match meta.len() {
        size if size > max => Err(InputFileError::TooLarge { size, max }),
        size => Ok(size),
    }
}

/// Opens `path` for reading when it is a regular file (symbolic links followed) of at most
/// `max` bytes; returns the file and its length. What the path names is checked before it is
/// opened (opening a FIFO waits for a writer), and again on the open file.
pub fn open(path: &Path, max: u64) -> Result<(File, u64), InputFileError> {
    checked_len(&fs::metadata(path)?, max)?;
    let mut options = fs::OpenOptions::new();
    options.read(true);
    // Should a FIFO take the file's place between the check and the open, the open returns at
    // once instead of waiting for a writer (the check below then refuses it). Reads of a
    // regular file do not depend on the flag.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let len = checked_len(&file.metadata()?, max)?;
    Ok((file, len))
}

/// The whole of a regular file of at most `max` bytes (see [`open`]). At most `max` bytes are
/// read even when the file grows meanwhile: a file found longer than that is refused.
pub fn read(path: &Path, max: u64) -> Result<Vec<u8>, InputFileError> {
    let (file, len) = open(path, max)?;
    // `len <= max`, and the limits callers pass fit in memory.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    let size = bytes.len() as u64;
    if size > max {
        return Err(InputFileError::TooLarge { size, max });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("engine-input-file-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_regular_file_within_the_limit_is_read_whole() {
        let path = temp_path("small");
        fs::write(&path, b"hello").unwrap();
        assert_eq!(read(&path, 5).unwrap(), b"hello");
        assert!(matches!(
            read(&path, 4),
            Err(InputFileError::TooLarge { size: 5, max: 4 })
        ));
        let (_, len) = open(&path, 100).unwrap();
        assert_eq!(len, 5);
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_longer_than_its_length_says_is_read_only_to_the_limit() {
        // Files of /proc say they are empty and are not: the limit holds on the bytes read too.
        let path = Path::new("/proc/self/status");
        assert_eq!(fs::metadata(path).unwrap().len(), 0);
        assert!(matches!(
            read(path, 100),
            Err(InputFileError::TooLarge { size: 101, max: 100 })
        ));
        assert!(read(path, 1 << 20).unwrap().starts_with(b"Name:"));
    }

    #[test]
    fn directories_and_missing_files_are_refused() {
        let dir = std::env::temp_dir();
        let err = read(&dir, 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "it is a directory, not a regular file");
        assert!(matches!(
            read(Path::new("/nonexistent/input-file"), 10),
            Err(InputFileError::Io(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading() {
        let err = read(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "it is a character device, not a regular file");
    }
}
