//! The UCI protocol, parsing layer: the lines a GUI sends, read into [`Command`]s, and the
//! engine's options with their `option name ... type ...` lines and a validating setter.
//!
//! Nothing here does I/O, spawns threads or searches: the driver reads a line, calls [`parse`],
//! and acts on the result.
//!
//! ```
//! use engine::uci::{parse, Command, PositionStart};
//!
//! let cmd = parse("position startpos moves e3e5 g2h2").unwrap();
//! assert_eq!(
//!     cmd,
//!     Some(Command::Position {
//!         start: PositionStart::StartPos,
//!         moves: vec!["e3e5".to_string(), "g2h2".to_string()],
//!     })
//! );
//! ```
#![deny(missing_docs)]

pub mod command;
pub mod options;
pub mod session;

pub use command::{parse, Command, CommandError, GoParams, PositionStart};
pub use options::{find_option, set_option, OptionError, OptionKind, OptionSpec, OptionValue, OPTIONS};

/// Most characters of a token quoted in an error message.
const MAX_SHOWN_CHARS: usize = 40;

/// A token as quoted in an error: cut to [`MAX_SHOWN_CHARS`] characters, so that a huge line
/// does not make a huge message.
fn shown(token: &str) -> String {
    match token.char_indices().nth(MAX_SHOWN_CHARS) {
        Some((cut, _)) => format!("{}...", &token[..cut]),
        None => token.to_string(),
    }
}

/// An optional sign followed by one or more ASCII digits.
fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
