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

/// Makes writing to a closed pipe an error instead of the end of the program: what a program
/// that talks to other programs through pipes needs (`engine match` with UCI engines, one of
/// which may exit at any time). Rust programs start so; [`quiet_on_broken_pipe`] undoes it.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn error_on_broken_pipe() {
    // SAFETY: as in `quiet_on_broken_pipe`: only the disposition of SIGPIPE changes, before the
    // command starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Makes writing to a closed pipe an error (nothing to do where the workspace does not change
/// SIGPIPE).
#[cfg(not(target_os = "linux"))]
pub fn error_on_broken_pipe() {}
