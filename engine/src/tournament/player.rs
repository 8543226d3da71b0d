//! A player of a match: an engine configuration given as `key=value` pairs separated by commas,
//! e.g. `name=deep,depth=8` or `nodes=20000,hash=16`.
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `name` | name in the output and the PGN | the specification without `name` |
//! | `depth` | search depth in plies per move | - |
//! | `nodes` | nodes per move | - |
//! | `movetime` | milliseconds per move | - |
//! | `hash` | transposition table in MB | 16 |
//! | `threads` | search threads | 1 |
//! | `eval` | `hce` (hand-crafted), `default` (the embedded net, else hand-crafted) or a `.nnue` file | `default` |
//!
//! At least one of `depth`, `nodes` and `movetime` is required; when several are given the search
//! stops at the first limit reached.

use std::{fmt, str::FromStr};

use crate::{
    engine::{Engine, EvalSource},
    eval::nnue::NetError,
    rules::Variant,
    search::{time, Limits},
};

/// Largest accepted depth.
pub const MAX_DEPTH: u32 = 100;
/// Largest accepted transposition table, MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest accepted thread count.
pub const MAX_THREADS: usize = 256;

/// An engine configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerConfig {
    /// The name.
    pub name: String,
    /// Depth limit per move.
    pub depth: Option<u32>,
    /// Node limit per move.
    pub nodes: Option<u64>,
    /// Time per move in milliseconds.
    pub movetime_ms: Option<u64>,
    /// Transposition table size, MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// The evaluation.
    pub eval: EvalSource,
}

/// Why a player specification is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerConfigError {
    /// An item is not `key=value`.
    #[error("'{0}' is not of the form key=value (keys: name, depth, nodes, movetime, hash, threads, eval)")]
    NotKeyValue(String),
    /// A key that is not known.
    #[error("unknown key '{0}' (keys: name, depth, nodes, movetime, hash, threads, eval)")]
    UnknownKey(String),
    /// A key given twice.
    #[error("key '{0}' is given twice")]
    Duplicate(String),
    /// A value that cannot be read or is out of range.
    #[error("{key}={value}: {reason}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// No search limit.
    #[error("'{0}' has no search limit: give at least one of depth, nodes or movetime")]
    NoLimit(String),
}

fn number<T: FromStr + PartialOrd + fmt::Display + Copy>(
    key: &str,
    value: &str,
    min: T,
    max: T,
) -> Result<T, PlayerConfigError> {
    let bad = |reason: String| PlayerConfigError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        reason,
    };
    let n: T = value.parse().map_err(|_| bad("expected a whole number".to_string()))?;
    if n < min || n > max {
        return Err(bad(format!("must be between {min} and {max}")));
    }
    Ok(n)
}

impl FromStr for PlayerConfig {
    type Err = PlayerConfigError;

    fn from_str(spec: &str) -> Result<PlayerConfig, PlayerConfigError> {
        let mut name: Option<String> = None;
        let mut config = PlayerConfig {
            name: String::new(),
            depth: None,
            nodes: None,
            movetime_ms: None,
            hash_mb: 16,
            threads: 1,
            eval: EvalSource::Default,
        };
        let mut seen: Vec<String> = Vec::new();
        let mut unnamed: Vec<String> = Vec::new();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(PlayerConfigError::NotKeyValue(item.to_string()));
            };
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
            if seen.contains(&key) {
                return Err(PlayerConfigError::Duplicate(key));
            }
            seen.push(key.clone());
            match key.as_str() {
                "name" => {
                    if value.is_empty() {
                        return Err(PlayerConfigError::BadValue {
                            key,
                            value: value.to_string(),
                            reason: "the name must not be empty".into(),
                        });
                    }
                    name = Some(value.to_string());
                    continue;
                }
                "depth" => config.depth = Some(number(&key, value, 1, MAX_DEPTH)?),
                "nodes" => config.nodes = Some(number(&key, value, 1, u64::MAX)?),
                "movetime" => config.movetime_ms = Some(number(&key, value, 1, 86_400_000)?),
                "hash" => config.hash_mb = number(&key, value, 1, MAX_HASH_MB)?,
                "threads" => config.threads = number(&key, value, 1, MAX_THREADS)?,
                "eval" => {
                    if value.is_empty() {
                        return Err(PlayerConfigError::BadValue {
                            key,
                            value: value.to_string(),
                            reason: "give hce, default or the path of a .nnue file".into(),
                        });
                    }
                    config.eval = EvalSource::parse(value);
                }
                _ => return Err(PlayerConfigError::UnknownKey(key)),
            }
            unnamed.push(format!("{key}={value}"));
        }
        if config.depth.is_none() && config.nodes.is_none() && config.movetime_ms.is_none() {
            return Err(PlayerConfigError::NoLimit(spec.to_string()));
        }
        config.name = name.unwrap_or_else(|| unnamed.join(","));
        Ok(config)
    }
}

impl PlayerConfig {
    /// The configuration without its name, in canonical form (e.g. `depth=8,hash=16,threads=1`).
    pub fn spec(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("movetime={t}"));
        }
        parts.push(format!("hash={}", self.hash_mb));
        parts.push(format!("threads={}", self.threads));
        match &self.eval {
            EvalSource::Default => {}
            EvalSource::HandCrafted => parts.push("eval=hce".into()),
            EvalSource::File(path) => parts.push(format!("eval={}", path.display())),
        }
        parts.join(",")
    }

    /// The search limits of one move.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            budget: time::plan(
                self.movetime_ms
                    .map_or(time::TimeLimit::Unlimited, time::TimeLimit::MoveTime),
                0,
                None,
            ),
            multipv: 1,
            ..Limits::default()
        }
    }

    /// A fresh engine with this configuration's hash and threads (and the default evaluation:
    /// [`PlayerConfig::engine_for`] sets the configured one).
    pub fn engine(&self) -> Engine {
        let mut e = Engine::new();
        e.set_hash(self.hash_mb);
        e.set_threads(self.threads);
        e
    }

    /// A fresh engine with this configuration for `variant`, its evaluation included.
    ///
    /// # Errors
    /// The net file cannot be read or is not a net for `variant`.
    pub fn engine_for(&self, variant: Variant) -> Result<Engine, NetError> {
        let mut e = self.engine();
        e.set_variant(variant);
        e.set_eval(self.eval.clone())?;
        Ok(e)
    }

    /// The search limits in words, e.g. `depth 8, 20000 nodes`.
    pub fn limits_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("{t} ms"));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specifications() {
        let p: PlayerConfig = "name=deep,depth=8".parse().expect("valid");
        assert_eq!(p.name, "deep");
        assert_eq!(p.depth, Some(8));
        assert_eq!(p.hash_mb, 16);
        assert_eq!(p.threads, 1);
        let q: PlayerConfig = " nodes = 20000 , hash=16,threads=2,movetime=100"
            .parse()
            .expect("valid");
        assert_eq!(q.name, "nodes=20000,hash=16,threads=2,movetime=100");
        assert_eq!(q.nodes, Some(20000));
        assert_eq!(q.movetime_ms, Some(100));
        assert_eq!(q.threads, 2);
        let l = q.limits();
        assert_eq!(l.nodes, Some(20000));
        assert!(l.budget.is_some());
        assert_eq!(q.limits_text(), "20000 nodes, 100 ms");
        assert_eq!(q.spec(), "nodes=20000,movetime=100,hash=16,threads=2");
        let back: PlayerConfig = format!("name={},{}", q.name.replace(',', ";"), q.spec())
            .parse()
            .expect("valid");
        assert_eq!(back.spec(), q.spec());
        let d: PlayerConfig = "depth=1".parse().expect("valid");
        assert_eq!(d.name, "depth=1");
        assert_eq!(d.eval, EvalSource::Default);
        let h: PlayerConfig = "nodes=100,eval=hce".parse().expect("valid");
        assert_eq!(h.eval, EvalSource::HandCrafted);
        assert_eq!(h.spec(), "nodes=100,hash=16,threads=1,eval=hce");
        let n: PlayerConfig = "nodes=100,eval=nets/x.nnue".parse().expect("valid");
        assert_eq!(n.eval, EvalSource::File("nets/x.nnue".into()));
        assert!("nodes=100,eval=".parse::<PlayerConfig>().is_err());
        let missing = n.engine_for(Variant::DEFAULT).err().expect("no such file");
        assert!(missing.to_string().contains("nets/x.nnue"), "{missing}");
        assert!(h.engine_for(Variant::DEFAULT).is_ok());
    }

    #[test]
    fn refuses_bad_specifications() {
        let err = |s: &str| s.parse::<PlayerConfig>().expect_err(s);
        assert!(matches!(err(""), PlayerConfigError::NoLimit(_)));
        assert!(matches!(err("name=x,hash=4"), PlayerConfigError::NoLimit(_)));
        assert!(matches!(err("depth"), PlayerConfigError::NotKeyValue(_)));
        assert!(matches!(err("depth=3,colour=red"), PlayerConfigError::UnknownKey(k) if k == "colour"));
        assert!(matches!(err("depth=3,depth=4"), PlayerConfigError::Duplicate(_)));
        assert!(matches!(err("depth=x"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(err("depth=-2"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(err("depth=0"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(err("depth=1000"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(err("nodes=0"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(err("depth=2,hash=0"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(
            err("depth=2,threads=100000"),
            PlayerConfigError::BadValue { .. }
        ));
        assert!(matches!(err("depth=2,name="), PlayerConfigError::BadValue { .. }));
        // Messages name the problem.
        assert_eq!(err("depth=2,hash=0").to_string(), "hash=0: must be between 1 and 65536");
    }
}
