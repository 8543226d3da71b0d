//! The PGN writer: tags in their order, SAN movetext with move numbers and comments, wrapped
//! at [`LINE_WIDTH`] columns.

use std::fmt::Write as _;

use super::{PgnGame, LINE_WIDTH, SEVEN_TAG_ROSTER};
use crate::rules::variant::Variant;

/// Writes one game in PGN (see the module documentation), ending with an empty line.
pub fn write_game(game: &PgnGame) -> String {
    let variant = game.variant();
    let derived = [
        "Result",
        "Variant",
        "VariantRules",
        "SetUp",
        "FEN",
        "PlyCount",
        "Termination",
    ];
    let mut out = String::new();
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => game.result.clone(),
            "Date" => game.tag(name).unwrap_or("????.??.??").to_string(),
            _ => game.tag(name).unwrap_or("?").to_string(),
        };
        write_tag(&mut out, name, &value);
    }
    // The game's own name of its variant (Lichess writes "From Position" for chess from a set-up
    // position) when it names the same variant; the variant's PGN name otherwise.
    let variant_name = game
        .tag("Variant")
        .filter(|name| name.parse::<Variant>() == Ok(variant))
        .unwrap_or(variant.spec().pgn_name);
    write_tag(&mut out, "Variant", variant_name);
    // Rule settings other than the variant's defaults (the readings its rules note leaves open).
    let rules = &game.start.tables().rules.rule_settings;
    if !rules.is_empty() {
        write_tag(&mut out, "VariantRules", rules);
    }
    if game.start.fen() != game.start.tables().spec.start_fen {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", &game.start.fen());
    }
    write_tag(&mut out, "PlyCount", &game.moves.len().to_string());
    let termination = match game.tag("Termination") {
        Some(t) => t,
        None if game.result == "*" => "Unterminated",
        None => "Normal",
    };
    write_tag(&mut out, "Termination", termination);
    for (name, value) in &game.tags {
        if !SEVEN_TAG_ROSTER.contains(&name.as_str()) && !derived.contains(&name.as_str()) {
            write_tag(&mut out, name, value);
        }
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::with_capacity(game.moves.len() * 3 / 2 + 8);
    let mut pos = game.start.clone();
    let mut after_comment = false;
    for (i, &m) in game.moves.iter().enumerate() {
        // A move number stays on the line of its move; Black's move after a comment gets one.
        let number = pos.fullmove_number();
        let san = pos.san(m);
        if pos.turn() == crate::rules::Color::White {
            tokens.push(format!("{number}. {san}"));
        } else if i == 0 || after_comment {
            tokens.push(format!("{number}... {san}"));
        } else {
            tokens.push(san);
        }
        pos.play_unchecked(m);
        let comment = game.move_comments.get(i).map(|c| c.trim()).unwrap_or("");
        after_comment = !comment.is_empty();
        if after_comment {
            push_comment(&mut tokens, comment);
        }
    }
    if let Some(c) = &game.final_comment {
        push_comment(&mut tokens, c);
    }
    tokens.push(game.result.clone());
    out.push_str(&wrap_movetext(&tokens));
    out
}

/// A `{comment}` as tokens: split into words so that long comments wrap too; a brace inside
/// would end it early, so it becomes a parenthesis.
fn push_comment(tokens: &mut Vec<String>, comment: &str) {
    let clean: String = comment.chars().map(|ch| if ch == '}' { ')' } else { ch }).collect();
    // Words, an embedded command such as `[%clk 0:01:00.0]` kept as one (a line is not broken
    // inside it).
    let mut words: Vec<String> = Vec::new();
    let mut in_command = false;
    for w in clean.split_whitespace() {
        match words.last_mut() {
            Some(last) if in_command => {
                last.push(' ');
                last.push_str(w);
            }
            _ => words.push(w.to_string()),
        }
        if w.starts_with("[%") {
            in_command = true;
        }
        if w.ends_with(']') {
            in_command = false;
        }
    }
    if words.is_empty() {
        return;
    }
    let last = words.len() - 1;
    for (i, w) in words.iter().enumerate() {
        let mut t = String::new();
        if i == 0 {
            t.push('{');
        }
        t.push_str(w);
        if i == last {
            t.push('}');
        }
        tokens.push(t);
    }
}

/// The civil date (year, month, day; UTC) of a time in milliseconds since the Unix epoch.
pub fn civil_date_from_unix_ms(ms: u64) -> (i64, i64, i64) {
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (ms / 86_400_000) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The PGN date (`YYYY.MM.DD`, UTC) of a time in milliseconds since the Unix epoch.
pub fn date_from_unix_ms(ms: u64) -> String {
    let (year, month, day) = civil_date_from_unix_ms(ms);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Today's PGN date (UTC).
pub fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    date_from_unix_ms(ms)
}

/// Joins movetext tokens (move numbers, moves, comments, the result) with single spaces into
/// lines of at most [`LINE_WIDTH`] characters, and ends the game with a blank line.
pub fn wrap_movetext(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}
