//! The PGN of a finished game, written with the engine's PGN writer, one file per game.

use std::path::{Path, PathBuf};

use engine::{
    play::{GameResult, PgnTermination},
    rules::{notation::pgn::PgnGame, Color, Position},
};

/// What the PGN needs to know about a game.
pub struct GameRecord<'a> {
    /// Game id.
    pub id: &'a str,
    /// Server URL (for `Site`).
    pub site: String,
    /// Start position.
    pub start: &'a Position,
    /// Moves, UCI.
    pub moves: &'a [String],
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// Status name.
    pub status: &'a str,
    /// `white` / `black`.
    pub winner: Option<&'a str>,
    /// Rated.
    pub rated: bool,
    /// Creation time, ms since the epoch.
    pub created_at: u64,
    /// The server's key of the variant: Lichess's `fromPosition` is written as the `Variant`
    /// "From Position", as Lichess writes it; other keys take the variant's name
    /// ([`crate::variants::pgn_name`]).
    pub variant_key: &'a str,
    /// A comment per move (`[%eval 0.35] [%clk 0:04:59]`, or empty), as lichess-bot writes
    /// them; fewer than the moves (or none) is fine.
    pub comments: &'a [String],
}

/// The game result of a Lichess status and winner (`None` while unfinished or aborted).
pub fn game_result(status: &str, winner: Option<&str>) -> Option<GameResult> {
    match (winner, status) {
        (Some("white"), _) => Some(GameResult::win_for(Color::White)),
        (Some("black"), _) => Some(GameResult::win_for(Color::Black)),
        (_, "aborted" | "noStart" | "created" | "started") => None,
        _ => Some(GameResult::Draw),
    }
}

/// The PGN result of a status and winner.
pub fn result(status: &str, winner: Option<&str>) -> &'static str {
    GameResult::pgn_or_unfinished(game_result(status, winner))
}

/// The PGN `Termination` of a Lichess status.
pub fn termination(status: &str) -> PgnTermination {
    match status {
        "outoftime" => PgnTermination::TimeForfeit,
        "aborted" | "noStart" | "timeout" => PgnTermination::Abandoned,
        "started" | "created" => PgnTermination::Unterminated,
        _ => PgnTermination::Normal,
    }
}

/// The PGN text. Moves that do not parse end the move list (with a warning).
pub fn to_pgn(rec: &GameRecord<'_>) -> String {
    let mut game = PgnGame::new(rec.start.clone());
    let mut pos = rec.start.clone();
    for text in rec.moves {
        match pos.parse_uci(text) {
            Ok(m) => {
                pos.play_unchecked(m);
                game.moves.push(m);
            }
            Err(e) => {
                tracing::warn!("game {}: move '{text}' does not parse ({e}); PGN cut there", rec.id);
                break;
            }
        }
    }
    let kind = if rec.rated { "Rated" } else { "Casual" };
    game.set_tag("Event", format!("{kind} {} game", rec.start.variant().spec().name));
    game.set_tag("Site", format!("{}/{}", rec.site.trim_end_matches('/'), rec.id));
    game.set_tag("Date", engine::rules::notation::pgn::date_from_unix_ms(rec.created_at));
    let from_position = rec.variant_key == crate::variants::LICHESS_FROM_POSITION;
    game.set_tag("Variant", crate::variants::pgn_name(rec.start.variant(), from_position));
    game.set_tag("White", rec.white);
    game.set_tag("Black", rec.black);
    game.set_tag("Termination", termination(rec.status).tag());
    game.result = result(rec.status, rec.winner).to_string();
    game.move_comments = rec.comments.iter().take(game.moves.len()).cloned().collect();
    game.final_comment = Some(match rec.winner {
        Some(w) => format!("{}, {w} wins", rec.status),
        None => rec.status.to_string(),
    });
    game.to_pgn()
}

/// Writes `<dir>/<id>.pgn` and returns the path.
pub fn save(dir: &Path, rec: &GameRecord<'_>) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let safe: String = rec.id.chars().filter(char::is_ascii_alphanumeric).collect();
    let path = dir.join(format!("{safe}.pgn"));
    std::fs::write(&path, to_pgn(rec))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_results() {
        assert_eq!(engine::rules::notation::pgn::date_from_unix_ms(0), "1970.01.01");
        assert_eq!(
            engine::rules::notation::pgn::date_from_unix_ms(1_745_112_707_998),
            "2025.04.20"
        );
        assert_eq!(result("mate", Some("black")), "0-1");
        assert_eq!(result("draw", None), "1/2-1/2");
        assert_eq!(result("aborted", None), "*");
    }

    #[test]
    fn variant_tags_as_lichess_writes_them() {
        let chess = Position::startpos(engine::rules::Variant::Chess);
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let set_up = Position::from_fen(engine::rules::Variant::Chess, fen).expect("FEN");
        let record = |start: &Position, key| {
            to_pgn(&GameRecord {
                id: "abcdefgh",
                site: "http://arena".into(),
                start,
                moves: &[],
                white: "A",
                black: "B",
                status: "aborted",
                winner: None,
                rated: false,
                created_at: 0,
                comments: &[],
                variant_key: key,
            })
        };
        assert!(record(&chess, "standard").contains("[Variant \"Standard\"]"));
        let text = record(&set_up, "fromPosition");
        assert!(text.contains("[Variant \"From Position\"]"), "{text}");
        assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    }

    fn record_of(start: &Position, key: &str, status: &str, winner: Option<&str>, moves: &[String]) -> String {
        to_pgn(&GameRecord {
            id: "abcdefgh",
            site: "http://arena".into(),
            start,
            moves,
            white: "Alpha",
            black: "Beta",
            status,
            winner,
            rated: true,
            created_at: 1_745_112_707_998,
            comments: &[],
            variant_key: key,
        })
    }

    /// The tag lines of a PGN text.
    fn tags(text: &str) -> Vec<&str> {
        text.lines().take_while(|l| l.starts_with('[')).collect()
    }

    #[test]
    fn golden_tags() {
        let pp = Position::startpos(engine::rules::Variant::PersianPrincess);
        let m = pp.legal_moves().iter().copied().next().expect("a move");
        let text = record_of(&pp, "persian-princess", "resign", Some("white"), &[pp.uci(m)]);
        assert_eq!(
            tags(&text),
            [
                "[Event \"Rated Persian Princess game\"]",
                "[Site \"http://arena/abcdefgh\"]",
                "[Date \"2025.04.20\"]",
                "[Round \"?\"]",
                "[White \"Alpha\"]",
                "[Black \"Beta\"]",
                "[Result \"1-0\"]",
                "[Variant \"Persian Princess\"]",
                "[PlyCount \"1\"]",
                "[Termination \"Normal\"]",
            ],
            "{text}"
        );
        // Each Termination value as the PGN standard writes it.
        for (status, winner, termination) in [
            ("mate", Some("black"), "Normal"),
            ("draw", None, "Normal"),
            ("outoftime", Some("white"), "Time forfeit"),
            ("timeout", Some("white"), "Abandoned"),
            ("aborted", None, "Abandoned"),
            ("started", None, "Unterminated"),
        ] {
            let text = record_of(&pp, "persian-princess", status, winner, &[]);
            let tag = format!("[Termination \"{termination}\"]");
            assert!(tags(&text).contains(&tag.as_str()), "{status}: {text}");
        }
        // Every variant's tag is its name, and the engine's reader reads the game back.
        for (id, key, name) in [
            ("celtic-citadel", "celtic-citadel", "Celtic Citadel"),
            ("egyptian-eye", "egyptian-eye", "Egyptian Eye"),
            ("oriental-omega", "oriental-omega", "Oriental Omega"),
            ("parsi", "parsi", "Parsi"),
            ("citadel-8", "citadel-8", "Citadel 8"),
            ("citadel-9", "citadel-9", "Citadel 9"),
            ("chess", "standard", "Standard"),
            // A key of the `[variants]` table: the tag still names the variant.
            ("oriental-omega", "persian", "Oriental Omega"),
        ] {
            let v: engine::rules::Variant = id.parse().expect("variant");
            let text = record_of(&Position::startpos(v), key, "draw", None, &[]);
            let tag = format!("[Variant \"{name}\"]");
            assert!(tags(&text).contains(&tag.as_str()), "{id}: {text}");
            let back = engine::rules::notation::pgn::read_game(&text, engine::rules::Variant::Chess)
                .expect("reads")
                .expect("a game");
            assert_eq!(back.variant(), v, "{text}");
        }
    }

    #[test]
    fn old_variant_tags_still_read() {
        // PGNs written before: the key of a Persian sub-variant, lower-case terminations.
        for (tag, id) in [
            ("persian-princess", "persian-princess"),
            ("Persian Princess", "persian-princess"),
            ("celtic-citadel", "celtic-citadel"),
            ("Celtic Citadel", "celtic-citadel"),
            ("egyptian-eye", "egyptian-eye"),
            ("Egyptian Eye", "egyptian-eye"),
            ("oriental-omega", "oriental-omega"),
            ("Oriental Omega", "oriental-omega"),
            ("Parsi", "parsi"),
            ("Standard", "chess"),
            ("From Position", "chess"),
        ] {
            let text = format!("[Variant \"{tag}\"]\n[Termination \"normal\"]\n\n*\n");
            let game = engine::rules::notation::pgn::read_game(&text, engine::rules::Variant::Chess)
                .expect("reads")
                .expect("a game");
            assert_eq!(game.variant().id(), id, "{tag}");
        }
    }
}
