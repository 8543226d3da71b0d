//! A player of a match: this engine in-process, or any UCI engine run as a program, given as
//! `key=value` pairs separated by commas, e.g. `name=deep,depth=8`, `nodes=20000,hash=16` or
//! `cmd=./old-engine,name=old,tc=10+0.1,option.Hash=64`.
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `name` | name in the output and the PGN | in-process: the specification without `name`; a program: the `id name` it gives (its file name when it gives none) |
//! | `cmd` | a UCI engine to run (a path, or a name found on `PATH`): this side is that program | - (this engine, in-process) |
//! | `args` | the program's arguments, separated by spaces | none |
//! | `dir` | the program's working directory | the match's |
//! | `option.NAME` | a UCI option sent with `setoption` (repeatable); in-process: `Hash`, `Threads`, `EvalFile`, `SearchParams` (its items separated by `;`, as commas separate the keys here) | - |
//! | `proto` | the protocol: `uci` | `uci` |
//! | `tc` | a clock: `[MOVES/]SECONDS[+INCREMENT]`, e.g. `40/60+0.6`, `10+0.1` (seconds may be `M:SS`) | - |
//! | `st` | seconds per move (as `movetime`, in seconds) | - |
//! | `movetime` | milliseconds per move | - |
//! | `depth` | search depth in plies per move | - |
//! | `nodes` | nodes per move | - |
//! | `timemargin` | milliseconds a move may go beyond the time left before it loses on time | 100 |
//! | `timeout` | seconds to wait for a program's start and for a move without a clock | 60 |
//! | `hash` | transposition table in MB (a program: option `Hash`, sent only when given) | 16 |
//! | `threads` | search threads (a program: option `Threads`, sent only when given) | 1 |
//! | `eval` | in-process: `hce` (hand-crafted), `default` (the embedded net, else hand-crafted) or a `.nnue` file | `default` |
//!
//! At least one of `tc`, `st`/`movetime`, `depth` and `nodes` is required; when several are given
//! the search stops at the first limit reached. A clock (`tc`) or a time per move is judged: a
//! move that takes longer than the time left and the margin loses on time.

use std::{fmt, path::PathBuf, str::FromStr, time::Duration};

use crate::{
    engine::{Engine, EvalSource},
    eval::nnue::NetError,
    play::{
        clock::{parse_seconds, TimeControl},
        uci_engine::{UciEngineConfig, DEFAULT_TIMEOUT},
    },
    rules::Variant,
    search::{params::SearchParams, time, Limits},
};

/// Largest accepted depth.
pub const MAX_DEPTH: u32 = 100;
/// Largest accepted transposition table, MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest accepted thread count.
pub const MAX_THREADS: usize = 256;
/// The default of `timemargin`, milliseconds.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 100;

/// The keys of a player specification, for messages.
const KEYS: &str = "name, cmd, args, dir, option.NAME, proto, tc, st, movetime, depth, nodes, timemargin, timeout, \
                    hash, threads, eval";

/// An engine configuration: this engine in-process, or a UCI program (`external`).
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
    /// A clock.
    pub tc: Option<TimeControl>,
    /// How far a move may go beyond the time left before it loses on time, milliseconds.
    pub time_margin_ms: u64,
    /// Transposition table size, MB (in-process).
    pub hash_mb: usize,
    /// Search threads (in-process).
    pub threads: usize,
    /// The evaluation (in-process).
    pub eval: EvalSource,
    /// The search's tunable constants (in-process; `option.SearchParams`).
    pub params: SearchParams,
    /// The program, when this side is a UCI engine run as a program.
    pub external: Option<UciEngineConfig>,
    /// Whether the name was given (`name=`); a program's name not given is its `id name`
    /// ([`crate::tournament::name_programs`]).
    pub named: bool,
}

/// Why a player specification is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerConfigError {
    /// An item is not `key=value`.
    #[error("'{0}' is not of the form key=value (keys: {KEYS})")]
    NotKeyValue(String),
    /// A key that is not known.
    #[error("unknown key '{0}' (keys: {KEYS})")]
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
    #[error("'{0}' has no search limit: give at least one of tc, st, movetime, depth or nodes")]
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

/// The `key=value` items of a specification, keys in lower case (`option.NAME` keeps the
/// option's name as written).
fn items(spec: &str) -> Result<Vec<(String, String)>, PlayerConfigError> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(PlayerConfigError::NotKeyValue(item.to_string()));
        };
        let key = key.trim();
        let key = match key.get(..7) {
            Some(prefix) if prefix.eq_ignore_ascii_case("option.") => format!("option.{}", &key[7..]),
            _ => key.to_ascii_lowercase(),
        };
        out.push((key, value.trim().to_string()));
    }
    Ok(out)
}

/// The key that `key` is the same setting as (`st` is `movetime`; option names in any case).
fn canonical_key(key: &str) -> String {
    match key {
        "st" => "movetime".to_string(),
        k if k.starts_with("option.") => k.to_ascii_lowercase(),
        k => k.to_string(),
    }
}

impl FromStr for PlayerConfig {
    type Err = PlayerConfigError;

    fn from_str(spec: &str) -> Result<PlayerConfig, PlayerConfigError> {
        PlayerConfig::from_items(&items(spec)?, spec)
    }
}

impl PlayerConfig {
    /// A specification with keys shared by both sides (`--each`): the keys of `each` that `spec`
    /// does not give are added to it.
    pub fn parse_with(spec: &str, each: Option<&str>) -> Result<PlayerConfig, PlayerConfigError> {
        let mut own = items(spec)?;
        if let Some(each) = each {
            let given: Vec<String> = own.iter().map(|(k, _)| canonical_key(k)).collect();
            for (k, v) in items(each)? {
                if !given.contains(&canonical_key(&k)) {
                    own.push((k, v));
                }
            }
        }
        let text = own
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",");
        PlayerConfig::from_items(&own, &text)
    }

    fn from_items(items: &[(String, String)], spec: &str) -> Result<PlayerConfig, PlayerConfigError> {
        let mut name: Option<String> = None;
        let mut config = PlayerConfig {
            name: String::new(),
            depth: None,
            nodes: None,
            movetime_ms: None,
            tc: None,
            time_margin_ms: DEFAULT_TIME_MARGIN_MS,
            hash_mb: 16,
            threads: 1,
            eval: EvalSource::Default,
            params: SearchParams::default(),
            external: None,
            named: false,
        };
        let mut external = UciEngineConfig {
            command: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
        };
        let (mut command, mut hash, mut threads, mut eval) = (None, None, None, None);
        let mut params: Option<SearchParams> = None;
        let mut seen: Vec<String> = Vec::new();
        let mut unnamed: Vec<String> = Vec::new();
        for (key, value) in items {
            let (key, value) = (key.as_str(), value.as_str());
            let bad = |reason: &str| PlayerConfigError::BadValue {
                key: key.to_string(),
                value: value.to_string(),
                reason: reason.to_string(),
            };
            let canonical = canonical_key(key);
            if seen.contains(&canonical) {
                return Err(PlayerConfigError::Duplicate(key.to_string()));
            }
            seen.push(canonical);
            match key {
                "name" => {
                    if value.is_empty() {
                        return Err(bad("the name must not be empty"));
                    }
                    name = Some(value.to_string());
                    continue;
                }
                "cmd" => {
                    if value.is_empty() {
                        return Err(bad("give the program to run"));
                    }
                    command = Some(PathBuf::from(value));
                }
                "args" => external.args = value.split_whitespace().map(str::to_string).collect(),
                "dir" => external.dir = Some(PathBuf::from(value)),
                "proto" => {
                    if !value.eq_ignore_ascii_case("uci") {
                        return Err(bad("only uci is spoken"));
                    }
                }
                "depth" => config.depth = Some(number(key, value, 1, MAX_DEPTH)?),
                "nodes" => config.nodes = Some(number(key, value, 1, u64::MAX)?),
                "movetime" => config.movetime_ms = Some(number(key, value, 1, 86_400_000)?),
                "st" => {
                    let ms = parse_seconds(value).map_err(|e| bad(&e))?;
                    if ms == 0 {
                        return Err(bad("must be at least 0.001 s"));
                    }
                    config.movetime_ms = Some(ms);
                }
                "tc" => {
                    config.tc = Some(
                        value
                            .parse()
                            .map_err(|e: crate::play::clock::ParseTimeControlError| bad(&e.reason))?,
                    )
                }
                "timemargin" => config.time_margin_ms = number(key, value, 0, 3_600_000)?,
                "timeout" => {
                    let ms = parse_seconds(value).map_err(|e| bad(&e))?;
                    if ms < 100 {
                        return Err(bad("must be at least 0.1 s"));
                    }
                    external.timeout = Duration::from_millis(ms);
                }
                "hash" => hash = Some(number(key, value, 1, MAX_HASH_MB)?),
                "threads" => threads = Some(number(key, value, 1, MAX_THREADS)?),
                "eval" => {
                    if value.is_empty() {
                        return Err(bad("give hce, default or the path of a .nnue file"));
                    }
                    eval = Some(EvalSource::parse(value));
                }
                k if k.starts_with("option.") && k.len() > 7 => {
                    external.options.push((k[7..].to_string(), value.to_string()));
                }
                _ => return Err(PlayerConfigError::UnknownKey(key.to_string())),
            }
            unnamed.push(format!("{key}={value}"));
        }
        if config.depth.is_none() && config.nodes.is_none() && config.movetime_ms.is_none() && config.tc.is_none() {
            return Err(PlayerConfigError::NoLimit(spec.to_string()));
        }
        config.named = name.is_some();
        if let Some(command) = command {
            if eval.is_some() {
                return Err(PlayerConfigError::BadValue {
                    key: "eval".into(),
                    value: String::new(),
                    reason: "is for this engine in-process; give a program's net with option.EvalFile=...".into(),
                });
            }
            // Hash and threads of a program are its options, sent only when given.
            for (option, value) in [
                ("Hash", hash.map(|h| h.to_string())),
                ("Threads", threads.map(|t| t.to_string())),
            ] {
                if let Some(v) = value {
                    if external.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(option)) {
                        return Err(PlayerConfigError::Duplicate(format!("option.{option}")));
                    }
                    external.options.push((option.to_string(), v));
                }
            }
            config.name = name.unwrap_or_else(|| {
                command
                    .file_name()
                    .map_or_else(|| command.display().to_string(), |f| f.to_string_lossy().into_owned())
            });
            external.command = command;
            config.external = Some(external);
            return Ok(config);
        }
        // In-process: the options it has.
        for (option, value) in &external.options {
            let key = format!("option.{option}");
            match option.to_ascii_lowercase().as_str() {
                "hash" if hash.is_none() => hash = Some(number(&key, value, 1, MAX_HASH_MB)?),
                "threads" if threads.is_none() => threads = Some(number(&key, value, 1, MAX_THREADS)?),
                "evalfile" if eval.is_none() => eval = Some(EvalSource::parse(value)),
                "searchparams" if params.is_none() => {
                    params = Some(SearchParams::parse(value).map_err(|e| PlayerConfigError::BadValue {
                        key: key.clone(),
                        value: value.clone(),
                        reason: e.to_string(),
                    })?)
                }
                "hash" | "threads" | "evalfile" | "searchparams" => return Err(PlayerConfigError::Duplicate(key)),
                _ => {
                    return Err(PlayerConfigError::BadValue {
                        key,
                        value: value.clone(),
                        reason: "this engine in-process takes the options Hash, Threads, EvalFile and SearchParams \
                                 (a program needs cmd=...)"
                            .into(),
                    })
                }
            }
        }
        if !external.args.is_empty() || external.dir.is_some() {
            return Err(PlayerConfigError::BadValue {
                key: if external.dir.is_some() { "dir" } else { "args" }.into(),
                value: String::new(),
                reason: "is for a program given with cmd=...".into(),
            });
        }
        config.hash_mb = hash.unwrap_or(16);
        config.threads = threads.unwrap_or(1);
        config.eval = eval.unwrap_or(EvalSource::Default);
        config.params = params.unwrap_or_default();
        config.name = name.unwrap_or_else(|| unnamed.join(","));
        Ok(config)
    }

    /// Whether this side is a program.
    pub fn is_external(&self) -> bool {
        self.external.is_some()
    }

    /// The time control the game loop judges this side by: the clock, else the time per move;
    /// `None` for searches limited by depth or nodes only.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.tc.or(self.movetime_ms.map(TimeControl::MoveTime))
    }

    /// The configuration without its name, in canonical form (e.g. `depth=8,hash=16,threads=1`,
    /// `cmd=./old,option.Hash=64,tc=10+0.1`).
    pub fn spec(&self) -> String {
        let mut parts = Vec::new();
        if let Some(x) = &self.external {
            parts.push(format!("cmd={}", x.command.display()));
            if !x.args.is_empty() {
                parts.push(format!("args={}", x.args.join(" ")));
            }
            if let Some(d) = &x.dir {
                parts.push(format!("dir={}", d.display()));
            }
            for (n, v) in &x.options {
                parts.push(format!("option.{n}={v}"));
            }
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("movetime={t}"));
        }
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if self.time_control().is_some() && self.time_margin_ms != DEFAULT_TIME_MARGIN_MS {
            parts.push(format!("timemargin={}", self.time_margin_ms));
        }
        if self.external.is_none() {
            parts.push(format!("hash={}", self.hash_mb));
            parts.push(format!("threads={}", self.threads));
            match &self.eval {
                EvalSource::Default => {}
                EvalSource::HandCrafted => parts.push("eval=hce".into()),
                EvalSource::File(path) => parts.push(format!("eval={}", path.display())),
            }
            if !self.params.is_default() {
                parts.push(format!("option.SearchParams={}", self.params.text(";")));
            }
        }
        parts.join(",")
    }

    /// The search limits of one move without a clock (in-process).
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
        e.set_search_params(self.params.clone());
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
        if let Some(tc) = self.tc {
            parts.push(format!("clock {tc}"));
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
        // Keys for programs only, or for in-process only.
        assert!(matches!(err("depth=2,args=-x"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(
            err("depth=2,option.Ponder=true"),
            PlayerConfigError::BadValue { .. }
        ));
        assert!(matches!(
            err("cmd=x,depth=2,eval=hce"),
            PlayerConfigError::BadValue { .. }
        ));
        assert!(matches!(err("cmd=x"), PlayerConfigError::NoLimit(_)));
        assert!(matches!(err("cmd=,depth=1"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(
            err("cmd=x,depth=1,proto=xboard"),
            PlayerConfigError::BadValue { .. }
        ));
        assert!(matches!(err("st=1,movetime=20"), PlayerConfigError::Duplicate(_)));
        assert!(matches!(
            err("cmd=x,tc=1,hash=4,option.hash=8"),
            PlayerConfigError::Duplicate(_)
        ));
        assert!(matches!(
            err("cmd=x,tc=1,option.Hash=4,option.HASH=8"),
            PlayerConfigError::Duplicate(_)
        ));
        assert!(matches!(err("tc=40/x"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(err("st=0"), PlayerConfigError::BadValue { .. }));
        assert!(matches!(
            err("cmd=x,tc=1,timeout=0.01"),
            PlayerConfigError::BadValue { .. }
        ));
    }

    #[test]
    fn programs_and_clocks() {
        let p: PlayerConfig =
            "cmd=/opt/engines/fairy,args=--a  --b,option.Hash=64,option.UCI_Variant=shatar,tc=40/60+0.6"
                .parse()
                .expect("valid");
        assert_eq!(p.name, "fairy");
        let x = p.external.as_ref().expect("a program");
        assert_eq!(x.command, PathBuf::from("/opt/engines/fairy"));
        assert_eq!(x.args, vec!["--a", "--b"]);
        assert_eq!(
            x.options,
            vec![("Hash".into(), "64".into()), ("UCI_Variant".into(), "shatar".into())]
        );
        assert_eq!(x.timeout, DEFAULT_TIMEOUT);
        assert_eq!(p.time_control(), Some("40/60+0.6".parse().expect("valid")));
        assert_eq!(
            p.spec(),
            "cmd=/opt/engines/fairy,args=--a --b,option.Hash=64,option.UCI_Variant=shatar,tc=40/60+0.6"
        );
        let q: PlayerConfig = "name=old,cmd=old,nodes=2000,hash=32,threads=2,timeout=5,timemargin=20,st=0.5"
            .parse()
            .expect("valid");
        assert_eq!(q.name, "old");
        let x = q.external.as_ref().expect("a program");
        assert_eq!(
            x.options,
            vec![("Hash".into(), "32".into()), ("Threads".into(), "2".into())]
        );
        assert_eq!(x.timeout, Duration::from_secs(5));
        assert_eq!(q.time_control(), Some(TimeControl::MoveTime(500)));
        assert_eq!(
            q.spec(),
            "cmd=old,option.Hash=32,option.Threads=2,nodes=2000,movetime=500,timemargin=20"
        );
        // In-process: options Hash, Threads and EvalFile; a clock.
        let r: PlayerConfig = "option.Hash=8,option.threads=2,option.EvalFile=hce,tc=10+0.1"
            .parse()
            .expect("valid");
        assert!(!r.is_external());
        assert_eq!((r.hash_mb, r.threads, r.eval.clone()), (8, 2, EvalSource::HandCrafted));
        assert_eq!(r.spec(), "tc=10+0.1,hash=8,threads=2,eval=hce");
        assert_eq!(r.limits_text(), "clock 10+0.1");
        // Keys shared by both sides: a side's own keys win.
        let s = PlayerConfig::parse_with("name=a,nodes=100", Some("tc=10+0.1,nodes=5,hash=2")).expect("valid");
        assert_eq!((s.nodes, s.hash_mb), (Some(100), 2));
        assert_eq!(s.tc, Some("10+0.1".parse().expect("valid")));
        let t = PlayerConfig::parse_with("st=0.2", Some("movetime=50")).expect("valid");
        assert_eq!(t.movetime_ms, Some(200));
    }

    #[test]
    fn search_params_in_process() {
        let p: PlayerConfig = "nodes=500,option.SearchParams=rfp_margin=90;lmr_div=240"
            .parse()
            .expect("valid");
        assert_eq!((p.params.rfp_margin, p.params.lmr_div), (90, 240));
        assert_eq!(
            p.spec(),
            "nodes=500,hash=16,threads=1,option.SearchParams=rfp_margin=90;lmr_div=240"
        );
        // The specification reads back to the same configuration.
        let again: PlayerConfig = p.spec().parse().expect("valid");
        assert_eq!(again.params, p.params);
        assert_eq!(p.engine().settings().search_params, p.params);
        // The defaults are not written.
        let d: PlayerConfig = "nodes=500,option.SearchParams=".parse().expect("valid");
        assert!(d.params.is_default());
        assert_eq!(d.spec(), "nodes=500,hash=16,threads=1");
        // Bad values name what is wrong.
        let err = "nodes=5,option.SearchParams=rfp_margin=1"
            .parse::<PlayerConfig>()
            .expect_err("out of range");
        assert_eq!(
            err.to_string(),
            "option.SearchParams=rfp_margin=1: search parameter rfp_margin must be between 20 and 250, got 1"
        );
        let err = "nodes=5,option.SearchParams=foo=1"
            .parse::<PlayerConfig>()
            .expect_err("unknown");
        assert!(err.to_string().contains("unknown search parameter 'foo'"), "{err}");
        // A program gets the text as it is.
        let x: PlayerConfig = "cmd=old,nodes=5,option.SearchParams=rfp_margin=90;lmr_div=240"
            .parse()
            .expect("valid");
        assert_eq!(
            x.external.expect("a program").options,
            vec![("SearchParams".into(), "rfp_margin=90;lmr_div=240".into())]
        );
    }
}
