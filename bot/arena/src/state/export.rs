//! Game export as Lichess serves it: `/game/export/{id}` and `/api/games/user/{name}`, in PGN
//! (the default) or JSON / ND-JSON, with Lichess's query flags (`moves`, `tags`, `clocks`,
//! `pgnInJson`; `evals`, `opening`, `accuracy`, `division` are accepted and have nothing to add
//! here) and, for a user's games, its filters.

use std::collections::HashMap;

use engine::rules::{notation::pgn::PgnGame, Color};

use super::{Inner, Refusal};
use lichess_api::{
    pgn,
    variants::{perf_key, perf_name},
};

use crate::{
    game::{color_name, ArenaGame},
    status::GameStatus,
};

/// What an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// The moves.
    pub moves: bool,
    /// The PGN tags.
    pub tags: bool,
    /// `%clk` comments (PGN) or `clocks` (JSON).
    pub clocks: bool,
    /// The PGN inside the JSON.
    pub pgn_in_json: bool,
}

/// A boolean query flag with Lichess's default.
fn flag(q: &HashMap<String, String>, key: &str, default: bool) -> Result<bool, Refusal> {
    let Some(value) = q.get(key) else {
        return Ok(default);
    };
    // Any case: Python clients send `True`.
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => Err(Refusal::bad(format!("Invalid {key}: {value} (true or false)"))),
    }
}

impl ExportOptions {
    /// Reads the flags; `single`: the defaults of `/game/export/{id}` (clocks on), otherwise
    /// those of `/api/games/user/{name}` (clocks off).
    pub fn from_query(q: &HashMap<String, String>, single: bool) -> Result<ExportOptions, Refusal> {
        for key in [
            "evals",
            "opening",
            "accuracy",
            "division",
            "literate",
            "withBookmarked",
            "lastFen",
        ] {
            flag(q, key, false)?;
        }
        Ok(ExportOptions {
            moves: flag(q, "moves", true)?,
            tags: flag(q, "tags", true)?,
            clocks: flag(q, "clocks", single)?,
            pgn_in_json: flag(q, "pgnInJson", false)?,
        })
    }
}

/// The filters of `/api/games/user/{name}`.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Created at or after (ms).
    pub since: Option<u64>,
    /// Created at or before (ms).
    pub until: Option<u64>,
    /// At most this many.
    pub max: Option<usize>,
    /// Only against this user.
    pub vs: Option<String>,
    /// Only rated (true) or casual (false) games.
    pub rated: Option<bool>,
    /// Only these perf keys.
    pub perf_types: Option<Vec<String>>,
    /// Only games where the user played this colour.
    pub color: Option<Color>,
    /// Include running games.
    pub ongoing: bool,
    /// Include finished games.
    pub finished: bool,
    /// Oldest first.
    pub ascending: bool,
}

impl GameFilter {
    /// Reads the filters of a query.
    pub fn from_query(q: &HashMap<String, String>) -> Result<GameFilter, Refusal> {
        let num = |k: &str| -> Result<Option<u64>, Refusal> {
            q.get(k)
                .map(|v| v.parse::<u64>().map_err(|_| Refusal::bad(format!("Invalid {k}: {v}"))))
                .transpose()
        };
        let color = match q.get("color").map(String::as_str) {
            None => None,
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            Some(other) => return Err(Refusal::bad(format!("Invalid color: {other}"))),
        };
        let ascending = match q.get("sort").map(String::as_str) {
            None | Some("dateDesc") => false,
            Some("dateAsc") => true,
            Some(other) => return Err(Refusal::bad(format!("Invalid sort: {other} (dateAsc or dateDesc)"))),
        };
        Ok(GameFilter {
            since: num("since")?,
            until: num("until")?,
            max: num("max")?.map(|m| m as usize),
            vs: q.get("vs").map(|v| v.to_lowercase()),
            rated: q.get("rated").map(|_| flag(q, "rated", false)).transpose()?,
            perf_types: q
                .get("perfType")
                .map(|p| p.split(',').map(|x| x.trim().to_string()).collect()),
            color,
            ongoing: flag(q, "ongoing", false)?,
            finished: flag(q, "finished", true)?,
            ascending,
        })
    }

    fn keeps(&self, g: &ArenaGame, user: &str) -> bool {
        let Some(side) = g.side_of(user) else {
            return false;
        };
        let running = g.is_running();
        (running && self.ongoing || !running && self.finished)
            && self.since.is_none_or(|t| g.created_at >= t)
            && self.until.is_none_or(|t| g.created_at <= t)
            && self.vs.as_deref().is_none_or(|v| g.player(!side) == v)
            && self.rated.is_none_or(|r| g.rated == r)
            && self.color.is_none_or(|c| c == side)
            && self
                .perf_types
                .as_ref()
                .is_none_or(|p| p.contains(&perf_key(&g.variant_ref, g.speed())))
    }
}

/// `H:MM:SS` of milliseconds, as `%clk` writes it.
fn clock_text(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Lichess's capitalised `Termination` of a status.
fn termination_tag(status: GameStatus) -> String {
    let tag = pgn::termination(status.as_str()).tag();
    let mut chars = tag.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Inner {
    fn name_of(&self, id: &str) -> String {
        self.users
            .get(id)
            .map_or_else(|| id.to_string(), |u| u.username.clone())
    }

    /// One game in PGN.
    pub fn game_pgn(&self, g: &ArenaGame, opts: ExportOptions) -> String {
        let mut game = PgnGame::new(g.start().clone());
        if opts.moves {
            game.moves = g.played().to_vec();
            if opts.clocks && g.clock.is_some() {
                game.move_comments = g
                    .clocks()
                    .iter()
                    .map(|&ms| format!("[%clk {}]", clock_text(ms)))
                    .collect();
            }
        }
        let status = g.status();
        let winner = g.winner().map(color_name);
        let kind = if g.rated { "Rated" } else { "Casual" };
        game.set_tag("Event", format!("{kind} {} game", perf_name(&g.variant_ref, g.speed())));
        game.set_tag("Site", format!("http://{}/{}", self.config.public_host(), g.id));
        game.set_tag("Date", engine::rules::notation::pgn::date_from_unix_ms(g.created_at));
        game.set_tag("White", self.name_of(&g.white));
        game.set_tag("Black", self.name_of(&g.black));
        game.set_tag("GameId", g.id.clone());
        let date = engine::rules::notation::pgn::date_from_unix_ms(g.created_at);
        let secs = g.created_at / 1000;
        game.set_tag("UTCDate", date);
        game.set_tag(
            "UTCTime",
            format!("{:02}:{:02}:{:02}", secs / 3600 % 24, secs / 60 % 60, secs % 60),
        );
        for (i, side) in ["White", "Black"].into_iter().enumerate() {
            game.set_tag(
                &format!("{side}Elo"),
                g.ratings[i].map_or("?".to_string(), |r| r.to_string()),
            );
            if let Some(d) = g.rating_diffs[i] {
                game.set_tag(&format!("{side}RatingDiff"), format!("{d:+}"));
            }
            let player = if i == 0 { &g.white } else { &g.black };
            if self.is_bot(player) {
                game.set_tag(&format!("{side}Title"), "BOT");
            }
        }
        let from_position = g.variant_ref.key == lichess_api::variants::LICHESS_FROM_POSITION;
        game.set_tag(
            "Variant",
            lichess_api::variants::pgn_name(g.start().variant(), from_position),
        );
        game.set_tag(
            "TimeControl",
            g.clock.map_or("-".to_string(), |c| {
                format!("{}+{}", c.initial / 1000, c.increment / 1000)
            }),
        );
        game.set_tag("Termination", termination_tag(status));
        game.result = pgn::result(status.as_str(), winner).to_string();
        let text = game.to_pgn();
        let (head, body) = text.split_once("\n\n").unwrap_or((text.as_str(), ""));
        let body = if opts.moves {
            body.to_string()
        } else {
            format!("{}\n", game.result)
        };
        if opts.tags {
            format!("{head}\n\n{body}")
        } else {
            body
        }
    }

    /// One game as Lichess's game JSON.
    pub fn game_json(&self, g: &ArenaGame, opts: ExportOptions) -> serde_json::Value {
        let player = |i: usize, id: &str| {
            let mut user = serde_json::json!({ "name": self.name_of(id), "id": id });
            if self.is_bot(id) {
                user["title"] = "BOT".into();
            }
            let mut p = serde_json::json!({ "user": user, "rating": g.ratings[i].unwrap_or(1500) });
            if let Some(d) = g.rating_diffs[i] {
                p["ratingDiff"] = d.into();
            }
            let perf = perf_key(&g.variant_ref, g.speed());
            if self.users.get(id).is_some_and(|u| u.perf(&perf).provisional()) {
                p["provisional"] = true.into();
            }
            p
        };
        let mut v = serde_json::json!({
            "id": g.id,
            "rated": g.rated,
            "variant": g.variant_ref.key,
            "speed": g.speed(),
            "perf": perf_key(&g.variant_ref, g.speed()),
            "createdAt": g.created_at,
            "lastMoveAt": g.last_move_at(),
            "status": g.status(),
            "source": g.source,
            "players": { "white": player(0, &g.white), "black": player(1, &g.black) },
        });
        if let Some(w) = g.winner() {
            v["winner"] = color_name(w).into();
        }
        if opts.moves {
            v["moves"] = g.sans().join(" ").into();
        }
        if let Some(fen) = &g.initial_fen {
            v["initialFen"] = fen.clone().into();
        }
        if let Some(c) = g.clock {
            let (initial, increment) = (c.initial / 1000, c.increment / 1000);
            v["clock"] = serde_json::json!({
                "initial": initial,
                "increment": increment,
                "totalTime": initial + 40 * increment,
            });
            if opts.clocks {
                // Centiseconds, as Lichess sends them.
                v["clocks"] = g.clocks().iter().map(|&ms| ms.max(0) / 10).collect::<Vec<_>>().into();
            }
        }
        if let Some(d) = g.days {
            v["daysPerTurn"] = d.into();
        }
        if opts.pgn_in_json {
            v["pgn"] = self.game_pgn(g, opts).into();
        }
        v
    }

    /// `/game/export/{id}`: PGN, or JSON when `json`.
    pub fn export_game(&self, id: &str, opts: ExportOptions, json: bool) -> Result<String, Refusal> {
        let g = self.games.get(id).ok_or_else(|| Refusal::not_found("No such game"))?;
        Ok(if json {
            self.game_json(g, opts).to_string()
        } else {
            self.game_pgn(g, opts)
        })
    }

    /// `/api/games/user/{name}`: PGN games separated by blank lines, or one JSON per line.
    pub fn export_user_games(
        &self,
        name: &str,
        filter: &GameFilter,
        opts: ExportOptions,
        json: bool,
    ) -> Result<String, Refusal> {
        let user = name.to_lowercase();
        if !self.users.contains_key(&user) {
            return Err(Refusal::not_found(format!("No such user: {name}")));
        }
        let mut games: Vec<&ArenaGame> = self.games.values().filter(|g| filter.keeps(g, &user)).collect();
        games.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        if !filter.ascending {
            games.reverse();
        }
        games.truncate(filter.max.unwrap_or(usize::MAX));
        let mut out = String::new();
        for g in games {
            if json {
                out.push_str(&self.game_json(g, opts).to_string());
                out.push('\n');
            } else {
                out.push_str(&self.game_pgn(g, opts));
                out.push('\n');
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_terminations_as_lichess_writes_them() {
        assert_eq!(clock_text(180_000), "0:03:00");
        assert_eq!(clock_text(3_725_500), "1:02:05");
        assert_eq!(clock_text(-5), "0:00:00");
        assert_eq!(termination_tag(GameStatus::OutOfTime), "Time forfeit");
        assert_eq!(termination_tag(GameStatus::Resign), "Normal");
        let mut q = HashMap::new();
        assert_eq!(
            ExportOptions::from_query(&q, true),
            Ok(ExportOptions {
                moves: true,
                tags: true,
                clocks: true,
                pgn_in_json: false
            })
        );
        assert!(!ExportOptions::from_query(&q, false).expect("defaults").clocks);
        q.insert("clocks".to_string(), "maybe".to_string());
        assert!(ExportOptions::from_query(&q, true).is_err());
    }
}
