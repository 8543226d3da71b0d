//! The files of a complete run: the last net, the best net, the parity checks of both against
//! the engine's quantised inference, the nets for the other variants learned from, `summary.json`
//! and the closing lines.

use std::{fs, path::Path};

use anyhow::{anyhow, Context, Result};
use burn::tensor::Device;
use engine::{eval::nnue::layout, rules::Variant};

use super::{
    checkpoint::Progress,
    config::TrainConfig,
    export,
    model::Params,
    session::{say, Session, State},
};
use crate::data::io::{thousands, write_atomic};

/// Writes the files of a complete run and prints its summary.
pub(super) fn finish(session: &Session<'_>, state: &State, also: &[Variant], device: &Device) -> Result<()> {
    let (config, variant, progress) = (session.config, session.variant, &state.progress);
    let (last_bytes, rounding_before, rounding_after) = session.export_net(state, &config.out.join("last.nnue"))?;
    let best_path = config.out.join("net.nnue");
    if session.data.validation.is_empty() || !best_path.exists() {
        write_atomic(&best_path, &last_bytes)?;
    }
    let best_bytes = fs::read(&best_path).with_context(|| format!("cannot read {}", best_path.display()))?;
    let best = nnue::format::read(&best_bytes, &engine::eval::nnue::expected(variant))
        .map_err(|e| anyhow!("{}: {e}", best_path.display()))?;
    let best_params = Params::from_float(&nnue::FloatNetwork::dequantise(&best.network), device);
    let positions = export::fixed_positions(variant, 256, 1);
    let parity_last = export::parity(&state.params, &last_bytes, variant, &positions)?;
    let parity_best = export::parity(&best_params, &best_bytes, variant, &positions)?;
    let best_epoch = match progress.best_val {
        Some((_, epoch)) if !session.data.validation.is_empty() => epoch,
        _ => progress.epoch,
    };
    let others = nets_for_other_variants(session, also, best_epoch, &best, &best_params)?;
    let speed = progress.positions as f64 / progress.seconds.max(1e-9);
    let summary = serde_json::json!({
        "variant": variant.id(),
        "config": config,
        "data": session.data.summary,
        "steps": progress.step,
        "epochs": progress.epoch,
        "stopped_early": progress.stopped_early,
        "positions_seen": progress.positions,
        "training_seconds": progress.seconds,
        "positions_per_second": speed,
        "best_validation": progress.best_val.map(|(v, e)| serde_json::json!({"loss": v, "epoch": e})),
        "final_train_loss": progress.curve.last().map(|p| p.train_loss),
        "final_validation_loss": progress.curve.last().and_then(|p| p.val_loss),
        "parity_last_net_vs_float_cp": parity_last,
        "output_rounding_rms_cp": {
            "round_to_nearest": rounding_before * f64::from(nnue::network::SCALE),
            "adaptive": rounding_after * f64::from(nnue::network::SCALE),
        },
        "parity_best_net_vs_dequantised_cp": parity_best,
        "nets_for_other_variants": others,
        "curve": progress.curve,
    });
    write_atomic(
        &config.out.join("summary.json"),
        serde_json::to_string_pretty(&summary).context("summary")?.as_bytes(),
    )?;
    print_summary(config, variant, progress, speed, &parity_last, &best_path);
    Ok(())
}

/// The best net for each of the other variants it learned from (same layout, their own header),
/// with their parity checks.
fn nets_for_other_variants(
    session: &Session<'_>,
    also: &[Variant],
    best_epoch: u64,
    best: &nnue::format::LoadedNet,
    best_params: &Params,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let config = session.config;
    let mut others = serde_json::Map::new();
    for &v in also {
        let path = config.out.join(format!("net.{}.nnue", v.id()));
        let header = nnue::format::NetHeader::new(v.code(), v.id(), &layout(v), session.description(best_epoch, v));
        let bytes = nnue::format::to_bytes(&header, &best.network).context("cannot encode the net")?;
        write_atomic(&path, &bytes)?;
        let parity = export::parity(best_params, &bytes, v, &export::fixed_positions(v, 256, 1))?;
        say(
            session.quiet,
            None,
            format!("also written: {} (for {})", path.display(), v.id()),
        );
        others.insert(
            v.id().to_string(),
            serde_json::json!({"file": path.display().to_string(), "parity_vs_dequantised_cp": parity}),
        );
    }
    Ok(others)
}

fn print_summary(
    config: &TrainConfig,
    variant: Variant,
    progress: &Progress,
    speed: f64,
    parity: &export::Parity,
    best: &Path,
) {
    println!("trainer train: {} done", variant.id());
    println!(
        "  steps          {} ({} epochs{}), {} positions seen",
        progress.step,
        progress.epoch,
        if progress.stopped_early { ", stopped early" } else { "" },
        thousands(progress.positions)
    );
    println!(
        "  speed          {speed:.0} positions/s ({:.1} s of training)",
        progress.seconds
    );
    if let Some(p) = progress.curve.last() {
        println!(
            "  loss           train {:.6}, validation {}",
            p.train_loss,
            p.val_loss.map(|v| format!("{v:.6}")).unwrap_or_else(|| "-".into())
        );
    }
    if let Some((v, e)) = progress.best_val {
        println!("  best           validation {v:.6} after epoch {e}");
    }
    println!(
        "  parity         engine (quantised) vs trainer (float): max {:.2} cp, mean {:.2} cp over {} positions",
        parity.max_cp, parity.mean_cp, parity.positions
    );
    println!("  net            {}", best.display());
    println!(
        "  run directory  {} (curves.csv, curves.svg, summary.json, checkpoint.bin)",
        config.out.display()
    );
}
