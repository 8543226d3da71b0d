//! The output directory of a self-play run: `run.json` (the settings), and per shard
//! `shard_NNNNNN.pgn`, `shard_NNNNNN.json` (its summary) and `shard_NNNNNN.bin` (the records),
//! each written atomically, the `.bin` last: a shard exists once its `.bin` does.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};
use nnue::data::RECORD_SIZE;
use serde::{Deserialize, Serialize};

use engine::play::GameResult;

use super::game::{PlayedGame, Skipped};
use crate::data::io::{write_atomic, TMP_SUFFIX};

/// The name of the settings file.
pub const RUN_FILE: &str = "run.json";

/// Paths of shard `index` in `dir`.
pub struct ShardPaths {
    /// The training records.
    pub bin: PathBuf,
    /// The games.
    pub pgn: PathBuf,
    /// The summary.
    pub json: PathBuf,
}

impl ShardPaths {
    /// The paths of shard `index`.
    pub fn new(dir: &Path, index: u64) -> ShardPaths {
        let stem = format!("shard_{index:06}");
        ShardPaths {
            bin: dir.join(format!("{stem}.bin")),
            pgn: dir.join(format!("{stem}.pgn")),
            json: dir.join(format!("{stem}.json")),
        }
    }
}

/// Results from White's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Results {
    /// 1-0.
    pub white: u64,
    /// 1/2-1/2.
    pub draw: u64,
    /// 0-1.
    pub black: u64,
}

impl Results {
    /// Counts one game.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::WhiteWins => self.white += 1,
            GameResult::Draw => self.draw += 1,
            GameResult::BlackWins => self.black += 1,
        }
    }
}

/// What a shard (or a set of shards) holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSummary {
    /// Games.
    pub games: u64,
    /// Id of the first game (the others follow).
    pub first_game_id: u32,
    /// Records written.
    pub positions: u64,
    /// Positions the engine searched.
    pub searched: u64,
    /// Searched positions not written, by reason.
    pub skipped: Skipped,
    /// Results.
    pub results: Results,
    /// Plies of all games together.
    pub plies: u64,
    /// Games by way of ending.
    pub terminations: BTreeMap<String, u64>,
    /// The opening of each game, in game order, as the hash of its last position (16 hex
    /// digits; see `opening::opening_hash`): what the run's count of repeated openings is made
    /// of. Shards written before the field existed have none (their runs are complete or
    /// refused: see `run_file::RUN_SCHEMA`), and their openings are not counted.
    #[serde(default, with = "hex_hashes")]
    pub opening_hashes: Vec<u64>,
}

impl ShardSummary {
    /// How the openings of these games repeat among them (games, repeats, pairs); `None` when
    /// some of the games come from shards without opening hashes.
    pub fn duplicate_openings(&self) -> Option<super::opening::Repeats> {
        (self.opening_hashes.len() as u64 == self.games).then(|| super::opening::duplicates(&self.opening_hashes))
    }
}

/// Hashes as strings of 16 hex digits (JSON readers that turn numbers into doubles, as
/// Python's and JavaScript's may, would lose bits of a 64-bit number).
mod hex_hashes {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(hashes: &[u64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(hashes.iter().map(|h| format!("{h:016x}")))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| {
                if t.len() != 16 {
                    return Err(D::Error::custom(format!("opening hash '{t}' is not 16 hex digits")));
                }
                u64::from_str_radix(t, 16)
                    .map_err(|_| D::Error::custom(format!("opening hash '{t}' is not 16 hex digits")))
            })
            .collect()
    }
}

impl ShardSummary {
    /// Counts one game.
    pub fn add_game(&mut self, g: &PlayedGame) {
        self.games += 1;
        self.positions += g.records.len() as u64;
        self.searched += g.searched;
        self.skipped.add(&g.skipped);
        self.results.add(g.result);
        self.plies += g.plies as u64;
        *self.terminations.entry(g.termination.key().to_string()).or_default() += 1;
        self.opening_hashes.push(g.opening_hash);
    }

    /// Adds another summary.
    pub fn merge(&mut self, o: &ShardSummary) {
        self.games += o.games;
        self.positions += o.positions;
        self.searched += o.searched;
        self.skipped.add(&o.skipped);
        self.results.white += o.results.white;
        self.results.draw += o.results.draw;
        self.results.black += o.results.black;
        self.plies += o.plies;
        for (k, v) in &o.terminations {
            *self.terminations.entry(k.clone()).or_default() += v;
        }
        self.opening_hashes.extend_from_slice(&o.opening_hashes);
    }
}

/// Writes a finished shard: PGN, summary, records (the records last: they make it complete).
pub fn write_shard(dir: &Path, index: u64, games: &[PlayedGame]) -> Result<ShardSummary> {
    let paths = ShardPaths::new(dir, index);
    let mut summary = ShardSummary {
        first_game_id: games.first().map_or(0, |g| g.id),
        ..ShardSummary::default()
    };
    let mut pgn = String::new();
    let mut bin: Vec<u8> = Vec::new();
    for g in games {
        summary.add_game(g);
        pgn.push_str(&g.pgn);
        for r in &g.records {
            bin.extend_from_slice(r.as_bytes());
        }
    }
    write_atomic(&paths.pgn, pgn.as_bytes())?;
    let json = serde_json::to_string_pretty(&summary)?;
    write_atomic(&paths.json, json.as_bytes())?;
    crash_point(&paths.bin, &bin)?;
    write_atomic(&paths.bin, &bin)?;
    Ok(summary)
}

/// Test hook: with `TRAINER_SELFPLAY_CRASH_AFTER=N` in the environment, the process stops at
/// once (exit status 86, no clean-up) while writing its (N+1)-th shard of records, leaving half
/// a temporary file behind, as a kill at the worst moment would.
fn crash_point(path: &Path, bin: &[u8]) -> Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static WRITTEN: AtomicU64 = AtomicU64::new(0);
    let Some(limit) = std::env::var("TRAINER_SELFPLAY_CRASH_AFTER")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    else {
        return Ok(());
    };
    if WRITTEN.fetch_add(1, Ordering::SeqCst) >= limit {
        let tmp = crate::data::io::tmp_path(path);
        fs::write(&tmp, &bin[..bin.len() / 2])?;
        eprintln!(
            "TRAINER_SELFPLAY_CRASH_AFTER={limit}: stopping while writing {}",
            path.display()
        );
        std::process::exit(86);
    }
    Ok(())
}

/// The complete shards of a directory (those whose `.bin` was written, the last file of a shard).
pub struct Existing {
    /// Complete shards by index, with their summaries.
    pub shards: BTreeMap<u64, ShardSummary>,
}

impl Existing {
    /// Games in the complete shards.
    pub fn games(&self) -> u64 {
        self.shards.values().map(|s| s.games).sum()
    }

    /// All summaries merged.
    pub fn total(&self) -> ShardSummary {
        let mut t = ShardSummary::default();
        self.shards.values().for_each(|s| t.merge(s));
        t
    }
}

/// The index and extension of a shard's file name (`shard_000012.bin` gives 12 and `bin`).
pub fn shard_index(name: &str) -> Option<(u64, &str)> {
    let rest = name.strip_prefix("shard_")?;
    let (num, ext) = rest.split_once('.')?;
    if num.len() < 6 || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((num.parse().ok()?, ext))
}

/// Removes what a killed run left behind in `dir`: temporary files, and the `.pgn` and `.json`
/// of shards whose `.bin` was never written; returns the files removed. Only the run that is
/// about to write the directory calls it: a reader ([`scan`]) must not touch the files of a run
/// that may be writing them now.
pub fn clean(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut bins = BTreeSet::new();
    let mut others: Vec<(u64, PathBuf)> = Vec::new();
    let mut removed = Vec::new();
    for (name, path) in entries(dir)? {
        if name.ends_with(TMP_SUFFIX) && (name.starts_with("shard_") || name.starts_with(RUN_FILE)) {
            fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
            removed.push(path);
            continue;
        }
        match shard_index(&name) {
            Some((i, "bin")) => {
                bins.insert(i);
            }
            Some((i, "pgn" | "json")) => others.push((i, path)),
            _ => {}
        }
    }
    for (i, path) in others {
        if !bins.contains(&i) {
            fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
            removed.push(path);
        }
    }
    Ok(removed)
}

/// The files of `dir` with their names (those whose names are not UTF-8 left out).
fn entries(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry?.path();
        if let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_string) {
            out.push((name, path));
        }
    }
    Ok(out)
}

/// Reads the complete shards of `dir` (see [`Existing`]) without changing anything: the
/// temporary files and half-written shards of a run still going (or killed) are passed over.
pub fn scan(dir: &Path) -> Result<Existing> {
    let bins: BTreeSet<u64> = entries(dir)?
        .iter()
        .filter_map(|(name, _)| match shard_index(name) {
            Some((i, "bin")) => Some(i),
            _ => None,
        })
        .collect();
    let mut shards = BTreeMap::new();
    for i in bins {
        let p = ShardPaths::new(dir, i);
        let text = fs::read_to_string(&p.json).with_context(|| {
            format!(
                "{} has no readable summary {}: the shard is incomplete; remove {} to have it generated again",
                p.bin.display(),
                p.json.display(),
                p.bin.display()
            )
        })?;
        let summary: ShardSummary =
            serde_json::from_str(&text).with_context(|| format!("reading {}", p.json.display()))?;
        let len = fs::metadata(&p.bin)?.len();
        if len != summary.positions * RECORD_SIZE as u64 {
            bail!(
                "{} holds {len} bytes, but its summary says {} records ({} bytes): the shard is corrupt; remove its \
                 .bin, .pgn and .json to have it generated again",
                p.bin.display(),
                summary.positions,
                summary.positions * RECORD_SIZE as u64
            );
        }
        // No list at all: a shard of an earlier trainer (see `opening_hashes`).
        if !summary.opening_hashes.is_empty() && summary.opening_hashes.len() as u64 != summary.games {
            bail!(
                "{} lists {} opening(s) for {} games: the shard is corrupt; remove its .bin, .pgn and .json to have it \
                 generated again",
                p.json.display(),
                summary.opening_hashes.len(),
                summary.games
            );
        }
        shards.insert(i, summary);
    }
    Ok(Existing { shards })
}

/// The shards a run still has to write to reach `total` games: indices not yet complete, in
/// order (gaps left by a killed run first), with their number of games (`per_shard` except
/// perhaps the last).
pub fn plan(existing: &Existing, total: u64, per_shard: u64) -> Vec<(u64, u64)> {
    let mut remaining = total.saturating_sub(existing.games());
    let mut out = Vec::new();
    let mut index = 0;
    while remaining > 0 {
        if !existing.shards.contains_key(&index) {
            let n = remaining.min(per_shard);
            out.push((index, n));
            remaining -= n;
        }
        index += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn existing(shards: &[(u64, u64)]) -> Existing {
        Existing {
            shards: shards
                .iter()
                .map(|&(i, games)| {
                    (
                        i,
                        ShardSummary {
                            games,
                            ..ShardSummary::default()
                        },
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn plans_fill_gaps_then_continue() {
        assert_eq!(plan(&existing(&[]), 250, 100), vec![(0, 100), (1, 100), (2, 50)]);
        assert_eq!(plan(&existing(&[(0, 100), (2, 100)]), 250, 100), vec![(1, 50)]);
        assert_eq!(
            plan(&existing(&[(0, 100), (2, 100)]), 350, 100),
            vec![(1, 100), (3, 50)]
        );
        assert_eq!(plan(&existing(&[(0, 100), (1, 50)]), 300, 100), vec![(2, 100), (3, 50)]);
        assert!(plan(&existing(&[(0, 100)]), 80, 100).is_empty());
    }

    #[test]
    fn opening_hashes_are_hex_strings_and_merge_in_order() {
        let mut a = ShardSummary {
            games: 3,
            opening_hashes: vec![1, u64::MAX, 1],
            ..ShardSummary::default()
        };
        let json = serde_json::to_string(&a).expect("json");
        assert!(
            json.contains(r#""opening_hashes":["0000000000000001","ffffffffffffffff","0000000000000001"]"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<ShardSummary>(&json).expect("reads back"), a);
        assert_eq!(
            a.duplicate_openings().map(|r| (r.games, r.repeated, r.pairs)),
            Some((3, 1, 1))
        );
        let b = ShardSummary {
            games: 2,
            opening_hashes: vec![7, u64::MAX],
            ..ShardSummary::default()
        };
        a.merge(&b);
        assert_eq!(a.opening_hashes, [1, u64::MAX, 1, 7, u64::MAX]);
        assert_eq!(
            a.duplicate_openings().map(|r| (r.games, r.repeated, r.pairs)),
            Some((5, 2, 2))
        );
        // A shard of an earlier trainer lists none: the run's repeats are not known.
        let old: ShardSummary = serde_json::from_str(
            r#"{"games": 4, "first_game_id": 0, "positions": 0,
            "searched": 0, "skipped": {"in_check": 0, "noisy": 0, "mate": 0, "early": 0},
            "results": {"white": 0, "draw": 4, "black": 0}, "plies": 0, "terminations": {}}"#,
        )
        .expect("an old summary reads");
        a.merge(&old);
        assert_eq!(a.duplicate_openings(), None);
        for bad in ["\"12\"", "\"zzzzzzzzzzzzzzzz\"", "12"] {
            let text = json.replacen("\"0000000000000001\"", bad, 1);
            assert!(serde_json::from_str::<ShardSummary>(&text).is_err(), "{text}");
        }
    }

    #[test]
    fn shard_names() {
        assert_eq!(shard_index("shard_000012.bin"), Some((12, "bin")));
        assert_eq!(shard_index("shard_1234567.pgn"), Some((1234567, "pgn")));
        assert_eq!(shard_index("shard_12.bin"), None);
        assert_eq!(shard_index("other.bin"), None);
    }
}
