//! What the command-line programs of the workspace share.

/// Makes a closed standard output end the program quietly, as other command-line tools do
/// (`engine perft ... | head -1`), instead of a panic in `println!` on the broken pipe.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn quiet_on_broken_pipe() {
    // SAFETY: restoring the default disposition of SIGPIPE touches no memory of the program;
    // it is called at the start of `main`, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Makes a closed standard output end the program quietly (only done on Linux, where the
/// workspace depends on libc).
#[cfg(not(target_os = "linux"))]
pub fn quiet_on_broken_pipe() {}
