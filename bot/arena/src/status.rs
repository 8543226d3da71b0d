//! The status of an arena game, named on the wire and in the database as Lichess names it
//! (`started`, `mate`, `resign`, `stalemate`, `timeout`, `draw`, `outoftime`, `noStart`,
//! `aborted`).

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

/// Where a game stands. Its Lichess name is [`GameStatus::as_str`]; serde writes and reads the
/// same names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameStatus {
    /// The game goes on.
    #[serde(rename = "started")]
    Started,
    /// Aborted before both sides moved (or by a moderator).
    #[serde(rename = "aborted")]
    Aborted,
    /// Checkmate (and Citadel's Green Gem).
    #[serde(rename = "mate")]
    Mate,
    /// A side resigned (or a moderator decided the winner).
    #[serde(rename = "resign")]
    Resign,
    /// Stalemate.
    #[serde(rename = "stalemate")]
    Stalemate,
    /// The win claimed after the opponent left.
    #[serde(rename = "timeout")]
    Timeout,
    /// A draw: agreed, claimed, or by the rules of the position.
    #[serde(rename = "draw")]
    Draw,
    /// A flag fell, or a correspondence deadline passed.
    #[serde(rename = "outoftime")]
    OutOfTime,
    /// A side did not make its first move in time.
    #[serde(rename = "noStart")]
    NoStart,
}

/// A stored status the arena does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game status {0:?} (the arena writes one of {names})", names = GameStatus::names())]
pub struct UnknownStatus(pub String);

impl GameStatus {
    /// Every status.
    pub const ALL: [GameStatus; 9] = [
        GameStatus::Started,
        GameStatus::Aborted,
        GameStatus::Mate,
        GameStatus::Resign,
        GameStatus::Stalemate,
        GameStatus::Timeout,
        GameStatus::Draw,
        GameStatus::OutOfTime,
        GameStatus::NoStart,
    ];

    /// The Lichess name.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Started => "started",
            GameStatus::Aborted => "aborted",
            GameStatus::Mate => "mate",
            GameStatus::Resign => "resign",
            GameStatus::Stalemate => "stalemate",
            GameStatus::Timeout => "timeout",
            GameStatus::Draw => "draw",
            GameStatus::OutOfTime => "outoftime",
            GameStatus::NoStart => "noStart",
        }
    }

    /// Lichess's number for the status (`status.id` in the API's JSON).
    pub fn id(self) -> u32 {
        lichess_api::types::status_id(self.as_str())
    }

    /// The names, comma-separated (for error messages).
    fn names() -> String {
        GameStatus::ALL.map(GameStatus::as_str).join(", ")
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameStatus {
    type Err = UnknownStatus;

    /// The status of a Lichess name (exactly as written: `noStart`, not `nostart`).
    fn from_str(s: &str) -> Result<GameStatus, UnknownStatus> {
        GameStatus::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| UnknownStatus(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_serde() {
        for s in GameStatus::ALL {
            assert_eq!(s.as_str().parse::<GameStatus>(), Ok(s));
            assert_eq!(s.to_string(), s.as_str());
            let json = serde_json::to_string(&s).expect("serialises");
            assert_eq!(json, format!("\"{}\"", s.as_str()));
            assert_eq!(serde_json::from_str::<GameStatus>(&json).expect("reads"), s);
        }
        assert_eq!(GameStatus::OutOfTime.as_str(), "outoftime");
        assert_eq!(GameStatus::NoStart.as_str(), "noStart");
        assert_eq!(GameStatus::Started.id(), 20);
        assert_eq!(GameStatus::NoStart.id(), 37);
    }

    #[test]
    fn an_unknown_name_is_a_clear_error() {
        let err = "variantEnd".parse::<GameStatus>().expect_err("not ours");
        assert_eq!(err, UnknownStatus("variantEnd".into()));
        let text = err.to_string();
        assert!(
            text.contains("\"variantEnd\"") && text.contains("outoftime, noStart"),
            "{text}"
        );
        assert!("Mate".parse::<GameStatus>().is_err(), "names are exact");
        assert!(serde_json::from_str::<GameStatus>("\"cheat\"").is_err());
    }
}
