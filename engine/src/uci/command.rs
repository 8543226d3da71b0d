//! The commands a GUI sends, parsed from one line of text.
//!
//! Parsing is syntax only: FENs, moves and option values are kept as text and checked later,
//! against the variant chosen with `UCI_Variant` (see [`super::options`]).
//!
//! Rules:
//! - Tokens are separated by any run of whitespace (Unicode whitespace included, so a trailing
//!   `\r` is harmless), and a byte-order mark at the start is dropped. An empty or all-whitespace line is `Ok(None)`.
//! - Command words and keywords are lowercase, as in the UCI spec; an unknown command is an error.
//! - Commands without arguments (`uci`, `isready`, `stop`, ...) ignore any tokens after them, as
//!   the UCI spec asks for unknown tokens: dropping a `stop` or `quit` would do more harm.
//! - Anything inside a command that cannot be read is an error naming the token and the reason,
//!   never a guess: an unknown `go` parameter, a number that does not fit, a parameter given
//!   twice with a value, a `position` without `startpos`/`fen`, a FEN of more than 7 fields
//!   (usually a forgotten `moves`).
//! - Parsing never panics; tokens quoted in errors are cut to a readable length.

use std::{fmt::Display, num::ParseIntError, str::FromStr};

use super::{is_integer_text, shown};
use crate::rules::UciMove;

/// Most fields a FEN of any variant may have: board, side, castling, en passant, halfmove,
/// fullmove, the rendezvous field and one field per custom rule. Which of them a variant has is
/// checked when the FEN is read against the variant.
const MAX_FEN_FIELDS: usize = 7 + crate::rules::special::MAX_CUSTOM_RULES;

/// One line sent by the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify the engine and list its options, then `uciok`.
    Uci,
    /// `debug on` / `debug off`.
    Debug(bool),
    /// `isready`: answer `readyok` once ready.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name as sent, tokens joined by single spaces. Match it case-insensitively
        /// (see [`super::options::find_option`]).
        name: String,
        /// The text after `value`, as sent (inner whitespace kept, ends trimmed); `None` when
        /// there is no `value` keyword (buttons), `Some("")` when nothing follows it.
        value: Option<String>,
    },
    /// `ucinewgame`: the next position is from a different game.
    UciNewGame,
    /// `position (startpos | fen <fen>) [moves <move>...]`.
    Position {
        /// Where the game starts.
        start: PositionStart,
        /// The moves played from there, in UCI notation, not yet checked.
        moves: Vec<String>,
    },
    /// `go ...`: start searching (or run perft).
    Go(GoParams),
    /// `stop`: stop searching and report the best move.
    Stop,
    /// `ponderhit`: the opponent played the pondered move.
    PonderHit,
    /// `quit`: exit.
    Quit,
    /// `d` (non-standard): print the current position.
    Display,
    /// `eval` (non-standard): print the static evaluation of the current position.
    Eval,
}

/// The start of a `position` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`: the start position of the current variant.
    StartPos,
    /// `fen <fen>`: the FEN's fields joined by single spaces, not yet validated (Persian FENs
    /// have 11 ranks and may have a 7th, rendezvous, field; the variant decides what is valid).
    Fen(String),
}

/// The parameters of `go`. Absent parameters are `None` / `false` / empty.
///
/// Clock times and increments are kept signed and exactly as sent: GUIs do send negative
/// remaining times after a time overrun, and the time manager decides how to treat them
/// (typically by clamping to a small positive budget).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `searchmoves <move>...`: restrict the root to these moves (UCI notation, not yet checked).
    /// Empty when absent or when no move follows the keyword.
    pub searchmoves: Vec<String>,
    /// `ponder`: search in pondering mode.
    pub ponder: bool,
    /// `wtime <ms>`: White's remaining time in milliseconds (may be negative).
    pub wtime: Option<i64>,
    /// `btime <ms>`: Black's remaining time in milliseconds (may be negative).
    pub btime: Option<i64>,
    /// `winc <ms>`: White's increment per move in milliseconds.
    pub winc: Option<i64>,
    /// `binc <ms>`: Black's increment per move in milliseconds.
    pub binc: Option<i64>,
    /// `movestogo <n>`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `depth <plies>`: search this deep only.
    pub depth: Option<u32>,
    /// `nodes <n>`: search this many nodes only.
    pub nodes: Option<u64>,
    /// `mate <moves>`: search for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime <ms>`: search exactly this long.
    pub movetime: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `perft <depth>` (non-standard): count the leaves of the legal-move tree instead of
    /// searching.
    pub perft: Option<u32>,
}

/// A line that is not a valid command. The message names the command, the token and what was
/// expected, e.g. `go: 'wtime' needs a number, got 'abc'`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first token is not a command.
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    /// Something required is missing at the end of the line.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing, e.g. `'startpos' or 'fen'`.
        what: &'static str,
    },
    /// A token that does not belong where it is.
    #[error("{command}: expected {expected}, got '{token}'")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The token found (possibly cut short).
        token: String,
        /// What could be there, e.g. `'moves'`.
        expected: &'static str,
    },
    /// A keyword that takes a value is the last token.
    #[error("{command}: missing value after '{keyword}'")]
    MissingValue {
        /// The command.
        command: &'static str,
        /// The keyword, e.g. `wtime`.
        keyword: &'static str,
    },
    /// A keyword's value is not what the keyword takes.
    #[error("{command}: '{keyword}' needs {expected}, got '{token}'")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The keyword whose value is wrong, e.g. `wtime`.
        keyword: &'static str,
        /// What it takes, e.g. `a number` or `a number from 0 to 4294967295`.
        expected: String,
        /// The token found (possibly cut short).
        token: String,
    },
    /// A keyword given twice in one command.
    #[error("{command}: '{keyword}' given twice")]
    Duplicate {
        /// The command.
        command: &'static str,
        /// The repeated keyword.
        keyword: &'static str,
    },
    /// A `position fen` with more tokens than a FEN has fields.
    #[error("position: FEN has {0} fields, at most {MAX_FEN_FIELDS} are allowed (is the 'moves' keyword missing?)")]
    TooManyFenFields(usize),
    /// A token after a FEN's six standard fields that reads as a move.
    #[error("position: '{0}' after the FEN's six fields is a move, not a FEN field (is the 'moves' keyword missing?)")]
    MoveInFen(String),
}

/// Parses one line sent by the GUI: `Ok(None)` for an empty or all-whitespace line.
///
/// ```
/// use engine::uci::{parse, Command, GoParams};
///
/// let go = parse("go wtime 1000 btime 1000 winc 10 binc 10").unwrap().unwrap();
/// let Command::Go(p) = go else { panic!() };
/// assert_eq!((p.wtime, p.binc), (Some(1000), Some(10)));
/// assert!(parse("   ").unwrap().is_none());
/// assert_eq!(
///     parse("go wtime abc").unwrap_err().to_string(),
///     "go: 'wtime' needs a number, got 'abc'"
/// );
/// ```
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    // A byte-order mark (Windows pipes) is not whitespace; drop it at the start of the line.
    let line = line.trim_start_matches('\u{feff}');
    let tokens = tokenize(line);
    let Some((first, args)) = tokens.split_first() else {
        return Ok(None);
    };
    let cmd = match first.text {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "debug" => parse_debug(args)?,
        "setoption" => parse_setoption(line, args)?,
        "position" => parse_position(args)?,
        "go" => Command::Go(parse_go(args)?),
        other => return Err(CommandError::UnknownCommand(shown(other))),
    };
    Ok(Some(cmd))
}

/// A token of the line and where it starts (byte offset).
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    start: usize,
    text: &'a str,
}

impl Token<'_> {
    /// Byte offset just past the token.
    fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

/// Splits a line at runs of whitespace.
fn tokenize(line: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                tokens.push(Token {
                    start: s,
                    text: &line[s..i],
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        tokens.push(Token {
            start: s,
            text: &line[s..],
        });
    }
    tokens
}

fn joined(tokens: &[Token<'_>]) -> String {
    tokens.iter().map(|t| t.text).collect::<Vec<_>>().join(" ")
}

fn parse_debug(args: &[Token<'_>]) -> Result<Command, CommandError> {
    match args.first().map(|t| t.text) {
        Some("on") => Ok(Command::Debug(true)),
        Some("off") => Ok(Command::Debug(false)),
        Some(other) => Err(CommandError::Unexpected {
            command: "debug",
            token: shown(other),
            expected: "'on' or 'off'",
        }),
        None => Err(CommandError::Missing {
            command: "debug",
            what: "'on' or 'off'",
        }),
    }
}

fn parse_setoption(line: &str, args: &[Token<'_>]) -> Result<Command, CommandError> {
    const CMD: &str = "setoption";
    let rest = match args.split_first() {
        Some((first, rest)) if first.text == "name" => rest,
        Some((first, _)) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: shown(first.text),
                expected: "'name'",
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'name'",
            })
        }
    };
    let value_at = rest.iter().position(|t| t.text == "value");
    let name_tokens = &rest[..value_at.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Err(CommandError::Missing {
            command: CMD,
            what: "option name after 'name'",
        });
    }
    let value = value_at.map(|i| line[rest[i].end()..].trim().to_string());
    Ok(Command::SetOption {
        name: joined(name_tokens),
        value,
    })
}

fn parse_position(args: &[Token<'_>]) -> Result<Command, CommandError> {
    const CMD: &str = "position";
    let (first, rest) = args.split_first().ok_or(CommandError::Missing {
        command: CMD,
        what: "'startpos' or 'fen'",
    })?;
    let (start, rest) = match first.text {
        "startpos" => (PositionStart::StartPos, rest),
        "fen" => {
            let fen_len = rest.iter().position(|t| t.text == "moves").unwrap_or(rest.len());
            let fen = &rest[..fen_len];
            if fen.is_empty() {
                return Err(CommandError::Missing {
                    command: CMD,
                    what: "FEN after 'fen'",
                });
            }
            if fen.len() > MAX_FEN_FIELDS {
                return Err(CommandError::TooManyFenFields(fen.len()));
            }
            // Fields after the standard six belong to the variant's rules; a move there means
            // the `moves` keyword was forgotten.
            if let Some(t) = fen.iter().skip(6).find(|t| t.text.parse::<UciMove>().is_ok()) {
                return Err(CommandError::MoveInFen(shown(t.text)));
            }
            (PositionStart::Fen(joined(fen)), &rest[fen_len..])
        }
        other => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: shown(other),
                expected: "'startpos' or 'fen'",
            })
        }
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((kw, moves)) if kw.text == "moves" => {
            if moves.iter().any(|t| t.text == "moves") {
                return Err(CommandError::Duplicate {
                    command: CMD,
                    keyword: "moves",
                });
            }
            moves.iter().map(|t| t.text.to_string()).collect()
        }
        Some((other, _)) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: shown(other.text),
                expected: "'moves'",
            })
        }
    };
    Ok(Command::Position { start, moves })
}

/// The keywords of `go`; they also end the move list of `searchmoves`.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(args: &[Token<'_>]) -> Result<GoParams, CommandError> {
    let mut p = GoParams::default();
    let mut seen_searchmoves = false;
    let mut i = 0;
    while let Some(tok) = args.get(i) {
        i += 1;
        let value = args.get(i).map(|t| t.text);
        // Keywords that take a number consume the next token.
        match tok.text {
            "searchmoves" => {
                if seen_searchmoves {
                    return Err(dup("searchmoves"));
                }
                seen_searchmoves = true;
                while let Some(m) = args.get(i).filter(|t| !GO_KEYWORDS.contains(&t.text)) {
                    p.searchmoves.push(m.text.to_string());
                    i += 1;
                }
                continue;
            }
            "ponder" => {
                p.ponder = true;
                continue;
            }
            "infinite" => {
                p.infinite = true;
                continue;
            }
            "wtime" => set(&mut p.wtime, "wtime", value)?,
            "btime" => set(&mut p.btime, "btime", value)?,
            "winc" => set(&mut p.winc, "winc", value)?,
            "binc" => set(&mut p.binc, "binc", value)?,
            "movestogo" => set(&mut p.movestogo, "movestogo", value)?,
            "depth" => set(&mut p.depth, "depth", value)?,
            "nodes" => set(&mut p.nodes, "nodes", value)?,
            "mate" => set(&mut p.mate, "mate", value)?,
            "movetime" => set(&mut p.movetime, "movetime", value)?,
            "perft" => set(&mut p.perft, "perft", value)?,
            other => {
                return Err(CommandError::Unexpected {
                    command: "go",
                    token: shown(other),
                    expected: "a 'go' parameter",
                })
            }
        }
        i += 1;
    }
    Ok(p)
}

fn dup(keyword: &'static str) -> CommandError {
    CommandError::Duplicate { command: "go", keyword }
}

/// An integer type a `go` parameter takes.
trait GoNumber: FromStr<Err = ParseIntError> + Display {
    const MIN: Self;
    const MAX: Self;
}

impl GoNumber for i64 {
    const MIN: Self = i64::MIN;
    const MAX: Self = i64::MAX;
}

impl GoNumber for u64 {
    const MIN: Self = u64::MIN;
    const MAX: Self = u64::MAX;
}

impl GoNumber for u32 {
    const MIN: Self = u32::MIN;
    const MAX: Self = u32::MAX;
}

/// Reads the number after `keyword` into `slot`, which must still be empty.
fn set<T: GoNumber>(slot: &mut Option<T>, keyword: &'static str, value: Option<&str>) -> Result<(), CommandError> {
    if slot.is_some() {
        return Err(dup(keyword));
    }
    let Some(text) = value else {
        return Err(CommandError::MissingValue { command: "go", keyword });
    };
    match text.parse::<T>() {
        Ok(n) => {
            *slot = Some(n);
            Ok(())
        }
        Err(_) => {
            // Integer text that does not fit gets the range; anything else just "a number".
            let expected = if is_integer_text(text) {
                format!("a number from {} to {}", T::MIN, T::MAX)
            } else {
                "a number".to_string()
            };
            Err(CommandError::BadValue {
                command: "go",
                keyword,
                expected,
                token: shown(text),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PP_FEN: &str = "f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w KQkq - 0 1 Rr";

    fn ok(line: &str) -> Command {
        match parse(line) {
            Ok(Some(cmd)) => cmd,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> String {
        match parse(line) {
            Err(e) => e.to_string(),
            other => panic!("{line:?} gave {other:?}, expected an error"),
        }
    }

    fn go(line: &str) -> GoParams {
        match ok(line) {
            Command::Go(p) => p,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn empty_lines() {
        for line in ["", " ", "\t", "\r\n", " \u{a0}\u{3000} ", "\n\n"] {
            assert_eq!(parse(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("ucinewgame"), Command::UciNewGame);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("ponderhit"), Command::PonderHit);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("eval"), Command::Eval);
        // Sloppy whitespace and line endings.
        assert_eq!(ok("  isready \r\n"), Command::IsReady);
        assert_eq!(ok("\tuci\t"), Command::Uci);
        // Tokens after an argument-less command are ignored.
        assert_eq!(ok("quit now"), Command::Quit);
        assert_eq!(ok("stop please"), Command::Stop);
    }

    #[test]
    fn unknown_commands() {
        assert_eq!(err("foo"), "unknown command 'foo'");
        assert_eq!(err("GO depth 5"), "unknown command 'GO'");
        assert_eq!(err("bench"), "unknown command 'bench'");
        assert_eq!(err("register later"), "unknown command 'register'");
        assert_eq!(err("\u{4f60}\u{597d} uci"), "unknown command '\u{4f60}\u{597d}'");
        assert!(matches!(parse("\u{0}"), Err(CommandError::UnknownCommand(_))));
    }

    #[test]
    fn debug() {
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert_eq!(ok("debug off"), Command::Debug(false));
        assert_eq!(err("debug"), "debug: missing 'on' or 'off'");
        assert_eq!(err("debug yes"), "debug: expected 'on' or 'off', got 'yes'");
    }

    #[test]
    fn setoption() {
        assert_eq!(
            ok("setoption name UCI_Variant value persian-princess"),
            Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("persian-princess".into())
            }
        );
        assert_eq!(
            ok("setoption name Hash value 128"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("128".into())
            }
        );
        // Names with spaces, sloppy whitespace inside the name collapses to one space.
        assert_eq!(
            ok("setoption  name  Move   Overhead  value  100 "),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        // A button has no value.
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        // A value keeps its inner whitespace (file names); the ends are trimmed.
        assert_eq!(
            ok("setoption name BookFile value  C:\\My  Books\\pp.bin \r"),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some("C:\\My  Books\\pp.bin".into())
            }
        );
        // `value` with nothing after it: the empty string.
        assert_eq!(
            ok("setoption name BookFile value"),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some(String::new())
            }
        );
        // Only the first `value` separates; the rest belongs to the value.
        assert_eq!(
            ok("setoption name EvalFile value value.nnue"),
            Command::SetOption {
                name: "EvalFile".into(),
                value: Some("value.nnue".into())
            }
        );
        assert_eq!(
            ok("setoption name X value a value b"),
            Command::SetOption {
                name: "X".into(),
                value: Some("a value b".into())
            }
        );
        // Original case is kept; matching is done later.
        assert_eq!(
            ok("setoption name hash value 1"),
            Command::SetOption {
                name: "hash".into(),
                value: Some("1".into())
            }
        );
        // Unicode in values.
        assert_eq!(
            ok("setoption name BookFile value /home/\u{15f}ahin/kitap.bin"),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some("/home/\u{15f}ahin/kitap.bin".into())
            }
        );
    }

    #[test]
    fn setoption_errors() {
        assert_eq!(err("setoption"), "setoption: missing 'name'");
        assert_eq!(err("setoption Hash value 1"), "setoption: expected 'name', got 'Hash'");
        assert_eq!(err("setoption name"), "setoption: missing option name after 'name'");
        assert_eq!(
            err("setoption name value 5"),
            "setoption: missing option name after 'name'"
        );
    }

    #[test]
    fn position_startpos() {
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            }
        );
        // cutechess and others send `moves` with nothing after it.
        assert_eq!(
            ok("position startpos moves"),
            Command::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position   startpos   moves  e3e5\tg2h2  "),
            Command::Position {
                start: PositionStart::StartPos,
                moves: strings(&["e3e5", "g2h2"])
            }
        );
        assert_eq!(
            ok("position startpos moves e2e4 e7e5 g1f3 b8c6 e9e10q"),
            Command::Position {
                start: PositionStart::StartPos,
                moves: strings(&["e2e4", "e7e5", "g1f3", "b8c6", "e9e10q"])
            }
        );
    }

    #[test]
    fn position_fen() {
        assert_eq!(
            ok(&format!("position fen {PP_FEN} moves e3e5 g2h2")),
            Command::Position {
                start: PositionStart::Fen(PP_FEN.into()),
                moves: strings(&["e3e5", "g2h2"])
            }
        );
        assert_eq!(
            ok(&format!("position fen {PP_FEN}")),
            Command::Position {
                start: PositionStart::Fen(PP_FEN.into()),
                moves: vec![]
            }
        );
        assert_eq!(
            ok(&format!("position fen {PP_FEN} moves")),
            Command::Position {
                start: PositionStart::Fen(PP_FEN.into()),
                moves: vec![]
            }
        );
        // Whitespace inside the FEN is normalised to single spaces.
        let sloppy = PP_FEN.replace(' ', "  \t ");
        assert_eq!(
            ok(&format!("position fen {sloppy}  moves  e3e5")),
            Command::Position {
                start: PositionStart::Fen(PP_FEN.into()),
                moves: strings(&["e3e5"])
            }
        );
        // Chess FEN with 6 fields, and short FENs (validated later, not here).
        let chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert_eq!(
            ok(&format!("position fen {chess} moves e7e5")),
            Command::Position {
                start: PositionStart::Fen(chess.into()),
                moves: strings(&["e7e5"])
            }
        );
        assert_eq!(
            ok("position fen 8/8/8/8/8/8/8/K6k w"),
            Command::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K6k w".into()),
                moves: vec![]
            }
        );
    }

    #[test]
    fn position_errors() {
        assert_eq!(err("position"), "position: missing 'startpos' or 'fen'");
        assert_eq!(err("position fen"), "position: missing FEN after 'fen'");
        assert_eq!(err("position fen moves e2e4"), "position: missing FEN after 'fen'");
        assert_eq!(
            err("position moves e2e4"),
            "position: expected 'startpos' or 'fen', got 'moves'"
        );
        assert_eq!(err("position startpos e2e4"), "position: expected 'moves', got 'e2e4'");
        assert_eq!(
            err("position startpos fen x w"),
            "position: expected 'moves', got 'fen'"
        );
        assert_eq!(
            err("position startpos moves e2e4 moves e7e5"),
            "position: 'moves' given twice"
        );
        // A forgotten `moves` keyword puts moves among the FEN's fields.
        assert_eq!(
            err(&format!("position fen {PP_FEN} e3e5")),
            "position: 'e3e5' after the FEN's six fields is a move, not a FEN field (is the 'moves' keyword missing?)"
        );
        assert_eq!(
            err("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 e2e4 e7e5"),
            "position: 'e2e4' after the FEN's six fields is a move, not a FEN field (is the 'moves' keyword missing?)"
        );
        // Rule fields that are not moves pass to the variant's FEN reader.
        assert!(parse(&format!("position fen {PP_FEN} - Ss")).is_ok());
        let long = vec!["-"; MAX_FEN_FIELDS + 1 - 6].join(" ");
        assert_eq!(
            err(&format!("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 {long}")),
            format!(
                "position: FEN has {} fields, at most {MAX_FEN_FIELDS} are allowed (is the 'moves' keyword missing?)",
                MAX_FEN_FIELDS + 1
            )
        );
    }

    #[test]
    fn go_typical() {
        assert_eq!(
            go("go wtime 1000 btime 1000 winc 10 binc 10"),
            GoParams {
                wtime: Some(1000),
                btime: Some(1000),
                winc: Some(10),
                binc: Some(10),
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go perft 5"),
            GoParams {
                perft: Some(5),
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go infinite"),
            GoParams {
                infinite: true,
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go movetime 500"),
            GoParams {
                movetime: Some(500),
                ..GoParams::default()
            }
        );
        assert_eq!(go("go"), GoParams::default());
        assert_eq!(
            go("go depth 12"),
            GoParams {
                depth: Some(12),
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go nodes 18446744073709551615"),
            GoParams {
                nodes: Some(u64::MAX),
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go mate 3"),
            GoParams {
                mate: Some(3),
                ..GoParams::default()
            }
        );
        // cutechess in a moves/time control, pondering.
        assert_eq!(
            go("go ponder wtime 59000 btime 60000 movestogo 40"),
            GoParams {
                ponder: true,
                wtime: Some(59000),
                btime: Some(60000),
                movestogo: Some(40),
                ..GoParams::default()
            }
        );
    }

    #[test]
    fn go_negative_times_are_kept() {
        let p = go("go wtime -250 btime 1000 winc 0 binc 0");
        assert_eq!(p.wtime, Some(-250));
        assert_eq!(p.btime, Some(1000));
        assert_eq!(go("go wtime +5").wtime, Some(5));
    }

    #[test]
    fn go_searchmoves() {
        let p = go("go searchmoves e3e5 g2h2 depth 3");
        assert_eq!(p.searchmoves, strings(&["e3e5", "g2h2"]));
        assert_eq!(p.depth, Some(3));
        let p = go("go infinite searchmoves e2e4 d2d4");
        assert!(p.infinite);
        assert_eq!(p.searchmoves, strings(&["e2e4", "d2d4"]));
        // No moves after the keyword: no restriction.
        let p = go("go searchmoves infinite");
        assert!(p.infinite);
        assert!(p.searchmoves.is_empty());
        assert_eq!(
            err("go searchmoves e2e4 depth 2 searchmoves d2d4"),
            "go: 'searchmoves' given twice"
        );
    }

    #[test]
    fn go_errors() {
        assert_eq!(err("go wtime abc"), "go: 'wtime' needs a number, got 'abc'");
        assert_eq!(err("go wtime 1000.5"), "go: 'wtime' needs a number, got '1000.5'");
        assert_eq!(err("go wtime btime 100"), "go: 'wtime' needs a number, got 'btime'");
        assert_eq!(err("go depth"), "go: missing value after 'depth'");
        assert_eq!(
            err("go depth -1"),
            "go: 'depth' needs a number from 0 to 4294967295, got '-1'"
        );
        assert_eq!(
            err("go movetime -5"),
            "go: 'movetime' needs a number from 0 to 18446744073709551615, got '-5'"
        );
        assert_eq!(
            err("go wtime 99999999999999999999"),
            "go: 'wtime' needs a number from -9223372036854775808 to 9223372036854775807, got '99999999999999999999'"
        );
        assert_eq!(err("go depth 5 depth 6"), "go: 'depth' given twice");
        assert_eq!(err("go depht 5"), "go: expected a 'go' parameter, got 'depht'");
        assert_eq!(err("go perft"), "go: missing value after 'perft'");
        assert_eq!(err("go perft x"), "go: 'perft' needs a number, got 'x'");
        // Repeated flags are harmless.
        assert!(go("go infinite infinite").infinite);
    }

    #[test]
    fn long_tokens_are_cut_in_messages() {
        let long = "9".repeat(10_000);
        let msg = err(&format!("go nodes {long}"));
        assert!(msg.len() < 200, "{msg}");
        assert!(msg.ends_with(&format!("got '{}...'", "9".repeat(40))), "{msg}");
        let msg = err(&"\u{e9}".repeat(5_000));
        assert_eq!(msg, format!("unknown command '{}...'", "\u{e9}".repeat(40)));
    }

    /// Lines built from a vocabulary of keywords, numbers and odd tokens: parsing never panics,
    /// and every error has a message.
    #[test]
    fn never_panics() {
        const VOCAB: &[&str] = &[
            "uci",
            "isready",
            "go",
            "position",
            "setoption",
            "debug",
            "name",
            "value",
            "fen",
            "startpos",
            "moves",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "mate",
            "movetime",
            "perft",
            "infinite",
            "ponder",
            "searchmoves",
            "on",
            "off",
            "-",
            "0",
            "-1",
            "+",
            "-0",
            "18446744073709551616",
            "-9223372036854775809",
            "e3e5",
            "\u{1f0a1}",
            "\u{0}",
            "\u{669}",
            "1e5",
            "0x10",
            "\u{a0}",
            "\u{2028}",
            "w",
            "KQkq",
            "Rr",
            "11",
            "f9f",
        ];
        const SEPARATORS: &[&str] = &[" ", "  ", "\t", "\u{a0}", "\r", ""];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..20_000 {
            let len = next(10);
            let mut line = String::new();
            for _ in 0..len {
                line.push_str(VOCAB[next(VOCAB.len())]);
                line.push_str(SEPARATORS[next(SEPARATORS.len())]);
            }
            if let Err(e) = parse(&line) {
                assert!(!e.to_string().is_empty());
            }
        }
        // Odd fixed inputs.
        for line in [
            "position fen",
            "position fen \u{0}",
            "setoption name \u{a0}value\u{a0}x",
            "go searchmoves",
            "go wtime -",
            "go wtime +",
            "go wtime --1",
            "go wtime \u{661}\u{662}",
            "debug \u{feff}on",
        ] {
            let _ = parse(line);
        }
    }

    #[test]
    fn byte_order_mark() {
        assert_eq!(ok("\u{feff}uci"), Command::Uci);
        assert_eq!(
            ok("\u{feff}setoption name Hash value 1"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("1".into())
            }
        );
    }

    #[test]
    fn every_go_keyword_is_handled() {
        for kw in GO_KEYWORDS {
            let result = parse(&format!("go {kw} 1"));
            assert!(
                !matches!(&result, Err(CommandError::Unexpected { token, .. }) if token == kw),
                "{kw}: {result:?}"
            );
        }
    }
}
