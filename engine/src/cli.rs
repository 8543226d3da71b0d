//! What the command-line programs of the workspace share: pipes, and the escaping of text in
//! the HTML they write (the openings report, the training curves, the arena's pages).

/// Escapes text for HTML content and attribute values (`&`, `<`, `>`, `"` and `'`).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

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

#[cfg(test)]
mod tests {
    #[test]
    fn html_escaping() {
        assert_eq!(
            super::escape_html(r#"<a href="x">Tom & Jerry's</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        );
        assert_eq!(super::escape_html("plain"), "plain");
    }
}
