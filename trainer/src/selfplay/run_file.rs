//! `run.json`: the settings of an output directory. The first run writes it; a later run
//! resumes only with the same settings and the same schema.

use std::{
    path::Path,
    time::{SystemTime, UNIX_EPOCH},
};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::data::io::write_atomic;

/// What decides the content of the files: a run resumes only with the same settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Variant id.
    pub variant: String,
    /// Rule settings of the variant (empty: its defaults; runs written before the setting
    /// existed read as empty).
    #[serde(default)]
    pub rules: String,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// The evaluation, as the engine describes it.
    pub eval: String,
    /// Transposition table, MB.
    pub hash_mb: usize,
    /// Seed.
    pub seed: u64,
    /// Games per shard.
    pub games_per_shard: u64,
    /// First game id.
    pub first_game_id: u32,
    /// Random plies per opening.
    pub random_plies: usize,
    /// FNV-1a hash of the opening file's content, if one is used.
    pub book_hash: Option<String>,
    /// Opening check nodes (0: none).
    pub opening_check_nodes: u64,
    /// Opening check threshold.
    pub opening_max_score: i32,
    /// Resign threshold.
    pub resign_score: i32,
    /// Resign plies.
    pub resign_plies: usize,
    /// Draw threshold.
    pub draw_score: i32,
    /// Draw plies.
    pub draw_plies: usize,
    /// Draw adjudication start.
    pub draw_after: usize,
    /// Ply limit.
    pub max_plies: usize,
    /// First ply written.
    pub min_ply: usize,
    /// The engine-chosen plies after the random ones (`None`: none; runs written before the
    /// option existed read as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_plies: Option<EnginePlies>,
}

/// Settings of the engine-chosen opening plies (`--engine-plies` and its companions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnginePlies {
    /// Plies per opening.
    pub plies: usize,
    /// Nodes of each MultiPV search.
    pub nodes: u64,
    /// Lines per search.
    pub multipv: usize,
    /// Softmax temperature, centipawns.
    pub temperature: u32,
    /// Largest loss against the best line, centipawns.
    pub max_loss: i32,
}

/// The version of `run.json` and of what the run's files mean. 2: each game's opening is drawn
/// from the seed and the game's number alone and the shards list their openings' hashes (1,
/// written without the field: each opening depended on all the games before it, and none was
/// repeated). A run of another schema cannot be continued: its next games would not be the
/// ones it started.
pub const RUN_SCHEMA: u32 = 2;

fn schema_one() -> u32 {
    1
}

/// The content of `run.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct RunFile {
    /// See [`RUN_SCHEMA`].
    #[serde(default = "schema_one")]
    schema: u32,
    /// The trainer's version.
    trainer_version: String,
    /// When the run started (seconds since 1970).
    created_unix: u64,
    /// The opening file as given, if any.
    book_path: Option<String>,
    /// The settings.
    settings: RunSettings,
}

/// Differences between two settings, as `name: old -> new` lines.
fn differences(old: &RunSettings, new: &RunSettings) -> Vec<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return vec!["(settings cannot be compared)".to_string()];
    };
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| {
            format!(
                "{k}: {v} in the directory, {} now",
                b.get(k).cloned().unwrap_or_default()
            )
        })
        .collect()
}

/// Refuses to continue the run in `out` (whose run file is `run_path`) with other settings or
/// of a newer schema. A run of an earlier schema with the same settings gives `Some(why it
/// cannot be continued)`: the caller refuses it unless the run is already complete (then there
/// is nothing to continue, and a pipeline that runs every round's command again goes on).
pub(super) fn check_same_settings(run_path: &Path, out: &Path, settings: &RunSettings) -> Result<Option<String>> {
    if !run_path.exists() {
        return Ok(None);
    }
    let Some(old) = read_run_file(run_path)? else {
        return Ok(None);
    };
    let earlier = (old.schema < RUN_SCHEMA).then(|| {
        format!(
            "{} belongs to a run of an earlier trainer (run.json schema {}, this trainer writes schema \
             {RUN_SCHEMA}): there each game's opening depended on all the games before it, here it is drawn from the \
             seed and the game's number alone, so the run cannot be continued. Keep its shards as they are (they \
             are complete training data) and start a new run in another --out directory, or remove {} to play the \
             run again from the start",
            run_path.display(),
            old.schema,
            out.display()
        )
    });
    if old.schema > RUN_SCHEMA {
        bail!(
            "{} belongs to a run of a newer trainer (run.json schema {}, this trainer knows schema {RUN_SCHEMA}): \
             continue it with that trainer",
            run_path.display(),
            old.schema
        );
    }
    let diff = differences(&old.settings, settings);
    if !diff.is_empty() {
        bail!(
            "{} holds a run with other settings; continue it with the same settings or choose another --out:\n  {}",
            out.display(),
            diff.join("\n  ")
        );
    }
    Ok(earlier)
}

/// The run file at `run_path` (`None` when there is none).
fn read_run_file(run_path: &Path) -> Result<Option<RunFile>> {
    if !run_path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(run_path).with_context(|| format!("cannot read {}", run_path.display()))?;
    let file = serde_json::from_str(&text).with_context(|| format!("{} is not a run file", run_path.display()))?;
    Ok(Some(file))
}

/// The settings of the run whose run file is `run_path` (`None` when there is none).
pub fn read_settings(run_path: &Path) -> Result<Option<RunSettings>> {
    Ok(read_run_file(run_path)?.map(|f| f.settings))
}

impl RunSettings {
    /// The search limit of each self-play move, as a table cell says it: `1000 nodes`,
    /// `depth 8`, or both.
    pub fn limit_text(&self) -> String {
        match (self.nodes, self.depth) {
            (Some(n), Some(d)) => format!("{n} nodes or depth {d}"),
            (Some(n), None) => format!("{n} nodes"),
            (None, Some(d)) => format!("depth {d}"),
            (None, None) => "no limit".to_string(),
        }
    }
}

/// Writes the run file unless the directory has one: from now on the directory belongs to these
/// settings.
pub(super) fn write_if_new(run_path: &Path, book: Option<&Path>, settings: &RunSettings) -> Result<()> {
    if run_path.exists() {
        return Ok(());
    }
    let run_file = RunFile {
        schema: RUN_SCHEMA,
        trainer_version: env!("CARGO_PKG_VERSION").to_string(),
        created_unix: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        book_path: book.map(|p| p.display().to_string()),
        settings: settings.clone(),
    };
    write_atomic(run_path, serde_json::to_string_pretty(&run_file)?.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> RunSettings {
        serde_json::from_value(serde_json::json!({
            "variant": "persian-princess", "nodes": 150, "depth": null, "eval": "hce", "hash_mb": 16,
            "seed": 1, "games_per_shard": 2, "first_game_id": 0, "random_plies": 8, "book_hash": null,
            "opening_check_nodes": 100, "opening_max_score": 300, "resign_score": 1000, "resign_plies": 4,
            "draw_score": 10, "draw_plies": 8, "draw_after": 80, "max_plies": 120, "min_ply": 8
        }))
        .expect("settings")
    }

    #[test]
    fn a_run_of_another_schema_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("run-file-schema-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join(super::super::shard::RUN_FILE);
        let s = settings();
        write_if_new(&path, None, &s).expect("written");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(&format!("\"schema\": {RUN_SCHEMA}")), "{text}");
        assert_eq!(check_same_settings(&path, &dir, &s).expect("the same run"), None);
        // A run.json of before the schema field (schema 1): refused, naming the file and the way out.
        let mut old: serde_json::Value = serde_json::from_str(&text).expect("json");
        old.as_object_mut().expect("object").remove("schema");
        std::fs::write(&path, old.to_string()).expect("write");
        let err = check_same_settings(&path, &dir, &s)
            .expect("the same settings")
            .expect("not to be continued");
        assert!(
            err.contains(&path.display().to_string()) && err.contains("schema 1") && err.contains("another --out"),
            "{err}"
        );
        old["schema"] = serde_json::json!(RUN_SCHEMA + 1);
        std::fs::write(&path, old.to_string()).expect("write");
        let err = check_same_settings(&path, &dir, &s).expect_err("refused").to_string();
        assert!(err.contains("newer trainer"), "{err}");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
