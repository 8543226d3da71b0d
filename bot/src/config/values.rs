//! The typed values of `bot.toml` that are written as text: clocks, speeds, modes, the engine
//! variants of `[variants]` and the evaluation. Each is parsed once, when the file is read; a bad
//! value is an error naming its key and the value.

use std::{collections::BTreeMap, fmt, str::FromStr};

use engine::{engine::EvalSource, rules::Variant};
use serde::{de::Error as _, Deserialize, Deserializer};

/// A clock: initial time and increment, in seconds. Written `SECONDS+INCREMENT` (e.g. `180+2`);
/// without `+INCREMENT` the increment is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Initial time, seconds.
    pub limit_s: u64,
    /// Increment per move, seconds.
    pub increment_s: u64,
}

/// A clock that is not `SECONDS+INCREMENT`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("clock '{0}': expected SECONDS+INCREMENT, e.g. 180+2")]
pub struct ParseClockError(pub String);

impl FromStr for Clock {
    type Err = ParseClockError;

    fn from_str(text: &str) -> Result<Clock, ParseClockError> {
        let (limit, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| s.trim().parse::<u64>().map_err(|_| ParseClockError(text.to_string()));
        Ok(Clock {
            limit_s: seconds(limit)?,
            increment_s: seconds(increment)?,
        })
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.limit_s, self.increment_s)
    }
}

/// A speed category of Lichess, as `challenge.speeds` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// `ultraBullet`.
    UltraBullet,
    /// `bullet`.
    Bullet,
    /// `blitz`.
    Blitz,
    /// `rapid`.
    Rapid,
    /// `classical`.
    Classical,
    /// `correspondence` (also games without a clock).
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The key Lichess uses (`ultraBullet`, `bullet`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// A speed that is not one of [`Speed::ALL`]'s keys.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown speed '{0}' (known: ultraBullet, bullet, blitz, rapid, classical, correspondence)")]
pub struct ParseSpeedError(pub String);

impl FromStr for Speed {
    type Err = ParseSpeedError;

    fn from_str(text: &str) -> Result<Speed, ParseSpeedError> {
        Speed::ALL
            .into_iter()
            .find(|s| s.key() == text)
            .ok_or_else(|| ParseSpeedError(text.to_string()))
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Rated or casual, as `challenge.modes` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `casual`.
    Casual,
    /// `rated`.
    Rated,
}

impl Mode {
    /// The mode of a game that is `rated` or not.
    pub fn of(rated: bool) -> Mode {
        if rated {
            Mode::Rated
        } else {
            Mode::Casual
        }
    }

    /// `casual` or `rated`.
    pub fn key(self) -> &'static str {
        match self {
            Mode::Casual => "casual",
            Mode::Rated => "rated",
        }
    }
}

/// A mode that is neither `casual` nor `rated`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown mode '{0}' (known: casual, rated)")]
pub struct ParseModeError(pub String);

impl FromStr for Mode {
    type Err = ParseModeError;

    fn from_str(text: &str) -> Result<Mode, ParseModeError> {
        [Mode::Casual, Mode::Rated]
            .into_iter()
            .find(|m| m.key() == text)
            .ok_or_else(|| ParseModeError(text.to_string()))
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The text `engine.eval` would hold for `source` (for messages).
pub fn eval_text(source: &EvalSource) -> std::borrow::Cow<'_, str> {
    match source {
        EvalSource::Default => "default".into(),
        EvalSource::HandCrafted => "hce".into(),
        EvalSource::File(path) => path.to_string_lossy(),
    }
}

/// Reads a list of texts and parses each; an error names `field` and the bad value.
fn parse_list<'de, D, T>(d: D, field: &str) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    Vec::<String>::deserialize(d)?
        .iter()
        .map(|text| text.parse().map_err(|e| D::Error::custom(format!("{field}: {e}"))))
        .collect()
}

/// `challenge.speeds`.
pub(super) fn challenge_speeds<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Speed>, D::Error> {
    parse_list(d, "challenge.speeds")
}

/// `challenge.modes`.
pub(super) fn challenge_modes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Mode>, D::Error> {
    parse_list(d, "challenge.modes")
}

/// `matchmaking.clocks`.
pub(super) fn matchmaking_clocks<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Clock>, D::Error> {
    parse_list(d, "matchmaking.clocks")
}

/// `[variants]`: server key -> engine variant id.
pub(super) fn variant_table<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, Variant>, D::Error> {
    BTreeMap::<String, String>::deserialize(d)?
        .into_iter()
        .map(|(key, id)| {
            let variant = id
                .parse::<Variant>()
                .map_err(|e| D::Error::custom(format!("variants.{key}: {e}")))?;
            Ok((key, variant))
        })
        .collect()
}

/// `engine.eval`: `default`, `hce` or a net file (see [`EvalSource::parse`]).
pub(super) fn eval_source<'de, D: Deserializer<'de>>(d: D) -> Result<EvalSource, D::Error> {
    Ok(EvalSource::parse(&String::deserialize(d)?))
}

/// `engine.book`: one path, or a list of paths.
pub(super) fn paths<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<std::path::PathBuf>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(std::path::PathBuf),
        Many(Vec<std::path::PathBuf>),
    }
    match OneOrMany::deserialize(d) {
        Ok(OneOrMany::One(p)) => Ok(vec![p]),
        Ok(OneOrMany::Many(v)) => Ok(v),
        Err(_) => Err(D::Error::custom("expected a file name or a list of file names")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(
            "180+2".parse(),
            Ok(Clock {
                limit_s: 180,
                increment_s: 2
            })
        );
        assert_eq!(
            " 60 ".parse(),
            Ok(Clock {
                limit_s: 60,
                increment_s: 0
            })
        );
        assert_eq!("60+1".parse::<Clock>().map(|c| c.to_string()), Ok("60+1".to_string()));
        for bad in ["", "x+1", "60+", "60+1+1", "-5+0", "1.5+0"] {
            let e = bad.parse::<Clock>().expect_err(bad);
            assert_eq!(
                e.to_string(),
                format!("clock '{bad}': expected SECONDS+INCREMENT, e.g. 180+2")
            );
        }
    }

    #[test]
    fn speeds_and_modes() {
        for s in Speed::ALL {
            assert_eq!(s.key().parse(), Ok(s));
        }
        assert!("Bullet".parse::<Speed>().is_err(), "keys are case-sensitive, as before");
        assert_eq!("rated".parse(), Ok(Mode::Rated));
        assert_eq!(Mode::of(false), Mode::Casual);
        assert!("ranked".parse::<Mode>().is_err());
    }
}
