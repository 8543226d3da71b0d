//! The text form of training records, one position per line:
//!
//! ```text
//! <FEN> | <score> | <result> | variant=<id> ply=<n> game=<id> move=<raw> noisy=<0|1>
//! ```
//!
//! - FEN: the position as the record holds it, so without castling, en-passant or rendezvous
//!   rights (`-`); the half-move clock is the record's, the move number `1 + ply / 2`.
//! - score: the search score in centipawns from the **side to move's** view, or `none`.
//! - result: the game's result from **White's** view: `1.0` White won, `0.5` draw, `0.0` Black
//!   won (also read: `1`, `0`, `1/2`, `1-0`, `1/2-1/2`, `0-1`).
//! - the fourth field is optional, `key=value` pairs: `variant` (else the `--variant` given),
//!   `ply` (else from the FEN's move number and side), `game` (game id, else 0), `move` (the
//!   engine's raw best-move number, else 0), `noisy` (the best move is a capture or promotion:
//!   else computed from `move`, or 0). With all of them a record converts to text and back to
//!   the same 64 bytes.

use anyhow::{anyhow, bail, Context, Result};
use engine::{
    eval::nnue::{layout, placed_pieces, position_of},
    rules::{Color, Move, MoveKind, Position, Variant},
};
use nnue::data::{GameResult, Record, TrainingPosition, NO_SCORE};

/// The text line of a record (without newline); `minimal` leaves out the fourth field.
pub fn to_text(record: &Record, minimal: bool) -> Result<String> {
    let code = record.variant_code();
    let variant = Variant::from_code(code).ok_or_else(|| anyhow!("unknown variant code {code}"))?;
    let tp = record.decode(&layout(variant))?;
    let pos = position_of(variant, &tp)?;
    let score = tp.score.map_or("none".to_string(), |s| s.to_string());
    let white_result = match (tp.result, tp.stm) {
        (GameResult::Draw, _) => "0.5",
        (GameResult::Win, nnue::Color::White) | (GameResult::Loss, nnue::Color::Black) => "1.0",
        _ => "0.0",
    };
    let mut line = format!("{} | {score} | {white_result}", pos.fen());
    if !minimal {
        line.push_str(&format!(
            " | variant={} ply={} game={} move={} noisy={}",
            variant.id(),
            tp.ply,
            tp.game_id,
            tp.best_move,
            u8::from(tp.noisy_best_move)
        ));
    }
    Ok(line)
}

/// The record of a text line (see the module documentation); `variant` is used when the line
/// does not name one.
pub fn from_text(line: &str, variant: Variant) -> Result<Record> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    if !(3..=4).contains(&fields.len()) {
        bail!(
            "expected '<FEN> | <score> | <result>' with an optional fourth field of key=value pairs, found {} field(s)",
            fields.len()
        );
    }
    let mut variant = variant;
    let mut ply: Option<u16> = None;
    let mut game = 0u32;
    let mut best: Option<u32> = None;
    let mut noisy: Option<bool> = None;
    if let Some(extra) = fields.get(3) {
        for pair in extra.split_whitespace() {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| anyhow!("'{pair}' in the fourth field is not key=value"))?;
            let bad = || anyhow!("bad value in '{pair}'");
            match key {
                "variant" => variant = value.parse()?,
                "ply" => ply = Some(value.parse().map_err(|_| bad())?),
                "game" => game = value.parse().map_err(|_| bad())?,
                "move" => best = Some(value.parse().map_err(|_| bad())?),
                "noisy" => {
                    noisy = Some(match value {
                        "0" | "false" => false,
                        "1" | "true" => true,
                        _ => return Err(bad()),
                    })
                }
                _ => bail!("unknown key '{key}' (known: variant, ply, game, move, noisy)"),
            }
        }
    }
    let pos = Position::from_fen(variant, fields[0]).with_context(|| format!("FEN '{}'", fields[0]))?;
    let score = match fields[1] {
        "none" | "-" => None,
        s => {
            let v: i32 = s
                .parse()
                .map_err(|_| anyhow!("score '{s}' is not a number of centipawns or 'none'"))?;
            if v <= i32::from(NO_SCORE) || v > i32::from(i16::MAX) {
                bail!("score {v} is out of range (-32767..=32767)");
            }
            Some(v as i16)
        }
    };
    let white = match fields[2] {
        "1.0" | "1" | "1-0" => GameResult::Win,
        "0.5" | "1/2" | "1/2-1/2" | ".5" => GameResult::Draw,
        "0.0" | "0" | "0-1" => GameResult::Loss,
        r => bail!("result '{r}' is not 1.0, 0.5 or 0.0 (White's view)"),
    };
    let result = match (white, pos.turn()) {
        (r, Color::White) | (r @ GameResult::Draw, _) => r,
        (GameResult::Win, Color::Black) => GameResult::Loss,
        (GameResult::Loss, Color::Black) => GameResult::Win,
    };
    let best = best.unwrap_or(0);
    let noisy = noisy.unwrap_or_else(|| {
        let m = Move::from_raw(best);
        best != 0 && (m.kind() == MoveKind::Promotion || pos.is_capture(m))
    });
    let black = pos.turn() == Color::Black;
    let tp = TrainingPosition {
        pieces: placed_pieces(&pos),
        stm: if black { nnue::Color::Black } else { nnue::Color::White },
        score,
        result,
        in_check: pos.in_check(),
        noisy_best_move: noisy,
        ply: ply
            .unwrap_or_else(|| (2 * (pos.fullmove_number().saturating_sub(1)) + u32::from(black)).min(65535) as u16),
        variant_code: variant.code(),
        halfmove: pos.halfmove_clock().min(255) as u8,
        best_move: best,
        game_id: game,
    };
    Ok(Record::encode(&tp, &layout(variant))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::nnue::training_position;

    #[test]
    fn round_trip_of_a_record() {
        let v = Variant::PersianPrincess;
        let mut pos = Position::startpos(v);
        for _ in 0..7 {
            let m = pos.legal_moves().as_slice()[3];
            pos.play_unchecked(m);
        }
        let best = pos.legal_moves().as_slice()[0];
        let tp = training_position(&pos, Some(-37), GameResult::Win, best, 7, 42);
        let record = Record::encode(&tp, &layout(v)).expect("encodes");
        let text = to_text(&record, false).expect("text");
        assert!(
            text.contains("| -37 | 0.0 | variant=persian-princess ply=7 game=42"),
            "{text}"
        );
        assert_eq!(from_text(&text, Variant::Chess).expect("parses"), record);
        let minimal = to_text(&record, true).expect("text");
        assert_eq!(minimal.matches('|').count(), 2);
        let back = from_text(&minimal, v).expect("parses");
        assert_eq!(back.score(), -37);
        assert_eq!(back.result_code(), GameResult::Win as u8);
        assert_eq!(back.ply(), 7);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let v = Variant::PersianPrincess;
        let fen = Position::startpos(v).fen();
        let err = |line: &str| format!("{:#}", from_text(line, v).expect_err(line));
        assert!(err(&format!("{fen} | 12")).contains("field"));
        assert!(err(&format!("{fen} | x | 1.0")).contains("score 'x'"));
        assert!(err(&format!("{fen} | -32768 | 1.0")).contains("out of range"));
        assert!(err(&format!("{fen} | 0 | 2")).contains("result '2'"));
        assert!(err(&format!("{fen} | 0 | 1 | foo=1")).contains("unknown key"));
        assert!(err("not a fen | 0 | 1").contains("FEN"));
        assert!(from_text(&format!("{fen} | none | 1/2-1/2"), v).is_ok());
    }
}
