//! `run.json`: the settings of an output directory. The first run writes it; a later run
//! resumes only with the same settings.

use std::{
    path::Path,
    time::{SystemTime, UNIX_EPOCH},
};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::data::io::write_atomic;

/// What decides the content of the files: a run resumes only with the same settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
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

/// The content of `run.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct RunFile {
    /// The trainer's version.
    trainer_version: String,
    /// When the run started (seconds since 1970).
    created_unix: u64,
    /// The opening file as given, if any.
    book_path: Option<String>,
    /// The settings.
    settings: Settings,
}

/// Differences between two settings, as `name: old -> new` lines.
fn differences(old: &Settings, new: &Settings) -> Vec<String> {
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

/// Refuses to continue the run in `out` (whose run file is `run_path`) with other settings.
pub(super) fn check_same_settings(run_path: &Path, out: &Path, settings: &Settings) -> Result<()> {
    if !run_path.exists() {
        return Ok(());
    }
    let text = std::fs::read_to_string(run_path).with_context(|| format!("cannot read {}", run_path.display()))?;
    let old: RunFile =
        serde_json::from_str(&text).with_context(|| format!("{} is not a run file", run_path.display()))?;
    let diff = differences(&old.settings, settings);
    if !diff.is_empty() {
        bail!(
            "{} holds a run with other settings; continue it with the same settings or choose another --out:\n  {}",
            out.display(),
            diff.join("\n  ")
        );
    }
    Ok(())
}

/// Writes the run file unless the directory has one: from now on the directory belongs to these
/// settings.
pub(super) fn write_if_new(run_path: &Path, book: Option<&Path>, settings: &Settings) -> Result<()> {
    if run_path.exists() {
        return Ok(());
    }
    let run_file = RunFile {
        trainer_version: env!("CARGO_PKG_VERSION").to_string(),
        created_unix: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        book_path: book.map(|p| p.display().to_string()),
        settings: settings.clone(),
    };
    write_atomic(run_path, serde_json::to_string_pretty(&run_file)?.as_bytes())
}
