//! The epochs of a run: AdamW steps over the shuffled training positions, then at each epoch's
//! end the validation loss, the curves, the best net so far, early stopping and a checkpoint.

use std::time::Instant;

use anyhow::{bail, Result};
use indicatif::ProgressBar;

use super::{
    checkpoint::CurvePoint,
    dataset::epoch_order,
    model::Params,
    session::{say, Session, State},
};

/// What the progress bar shows besides the step.
struct Meter {
    /// The last validation loss.
    last_val: Option<f64>,
    /// Positions per second, smoothed.
    recent_speed: f64,
}

/// Trains until the configured epochs are done, early stopping ends the run or `max_steps`
/// steps are reached. Returns the state and whether `max_steps` stopped the run.
pub(super) fn train_epochs(session: &Session<'_>, mut state: State, max_steps: Option<u64>) -> Result<(State, bool)> {
    let config = session.config;
    let bar = session.progress_bar()?;
    bar.set_position(state.progress.step);
    let mut meter = Meter {
        last_val: state.progress.curve.last().and_then(|p| p.val_loss),
        recent_speed: 0.0,
    };
    let mut stopped_by_limit = false;
    while state.progress.epoch < config.epochs && !state.progress.stopped_early {
        let (next, lr) = run_steps(session, state, &bar, &mut meter, max_steps)?;
        state = next;
        let Some(lr) = lr else {
            stopped_by_limit = true;
            break;
        };
        end_epoch(session, &mut state, &bar, &mut meter, lr)?;
    }
    bar.finish_and_clear();
    Ok((state, stopped_by_limit))
}

/// The remaining steps of the current epoch. Returns the state and the last learning rate, or
/// `None` for it when `max_steps` stopped the epoch.
fn run_steps(
    session: &Session<'_>,
    mut state: State,
    bar: &ProgressBar,
    meter: &mut Meter,
    max_steps: Option<u64>,
) -> Result<(State, Option<f64>)> {
    let config = session.config;
    let (batch_size, total_steps) = (session.batch_size, session.total_steps);
    let train_set = &session.data.train;
    let order = epoch_order(train_set.len(), config.seed, state.progress.epoch);
    let mut lr = config.lr_at(state.progress.step, total_steps, state.progress.epoch);
    while state.progress.batch_in_epoch < session.steps_per_epoch {
        let progress = &mut state.progress;
        if max_steps.is_some_and(|m| progress.step >= m) {
            return Ok((state, None));
        }
        let t0 = Instant::now();
        let start = (progress.batch_in_epoch as usize) * batch_size;
        let batch = train_set.gather(&order[start..start + batch_size]);
        lr = config.lr_at(progress.step, total_steps, progress.epoch);
        let (loss, grads) = state.params.gradients(&batch, config.ft)?;
        if !loss.is_finite() {
            bail!(
                "the training loss became {loss} at step {}: lower the learning rate",
                progress.step
            );
        }
        state.params = state.trainer.step(state.params, grads, lr);
        let progress = &mut state.progress;
        let dt = t0.elapsed().as_secs_f64();
        progress.seconds += dt;
        progress.step += 1;
        progress.batch_in_epoch += 1;
        progress.positions += batch_size as u64;
        progress.epoch_loss_sum += loss;
        let speed = batch_size as f64 / dt.max(1e-9);
        meter.recent_speed = if meter.recent_speed == 0.0 {
            speed
        } else {
            0.9 * meter.recent_speed + 0.1 * speed
        };
        bar.set_position(progress.step);
        bar.set_message(format!(
            "epoch {}/{} | {:.0} pos/s | loss {:.5} | val {} | lr {:.2e}",
            progress.epoch + 1,
            config.epochs,
            meter.recent_speed,
            progress.epoch_loss_sum / progress.batch_in_epoch as f64,
            meter.last_val.map(|v| format!("{v:.5}")).unwrap_or_else(|| "-".into()),
            lr
        ));
        if config.checkpoint_every > 0 && progress.step.is_multiple_of(config.checkpoint_every) {
            session.save(&state)?;
        }
    }
    Ok((state, Some(lr)))
}

/// The mean loss over the validation positions, `None` without any.
fn validation_loss(params: &Params, session: &Session<'_>) -> Result<Option<f64>> {
    let val_set = &session.data.validation;
    if val_set.is_empty() {
        return Ok(None);
    }
    let mut sum = 0.0;
    let chunk = 16384;
    for start in (0..val_set.len()).step_by(chunk) {
        let idx: Vec<u32> = (start as u32..(start + chunk).min(val_set.len()) as u32).collect();
        let b = val_set.gather(&idx);
        sum += params.loss(&b)? * b.len() as f64;
    }
    Ok(Some(sum / val_set.len() as f64))
}

/// The end of an epoch: validation, curves, best net, early stopping, checkpoint.
fn end_epoch(session: &Session<'_>, state: &mut State, bar: &ProgressBar, meter: &mut Meter, lr: f64) -> Result<()> {
    let config = session.config;
    let val_loss = validation_loss(&state.params, session)?;
    meter.last_val = val_loss;
    let progress = &mut state.progress;
    let train_loss = progress.epoch_loss_sum / session.steps_per_epoch.max(1) as f64;
    progress.epoch += 1;
    progress.batch_in_epoch = 0;
    progress.epoch_loss_sum = 0.0;
    progress.curve.push(CurvePoint {
        epoch: progress.epoch,
        step: progress.step,
        positions: progress.positions,
        train_loss,
        val_loss,
        lr,
        seconds: progress.seconds,
    });
    let mut line = format!(
        "epoch {:>3}: train loss {train_loss:.6}, validation {}",
        progress.epoch,
        val_loss.map(|v| format!("{v:.6}")).unwrap_or_else(|| "-".into())
    );
    if let Some(v) = val_loss {
        let better = progress.best_val.is_none_or(|(best, _)| v < best);
        if better {
            progress.best_val = Some((v, progress.epoch));
            session.export_net(state, &config.out.join("net.nnue"))?;
            line.push_str(" (best so far: net.nnue)");
        } else if config.early_stop > 0
            && progress
                .best_val
                .is_some_and(|(_, e)| progress.epoch - e >= config.early_stop)
        {
            progress.stopped_early = true;
            line.push_str(&format!(" (no better for {} epochs: stopping)", config.early_stop));
        }
    }
    say(session.quiet, Some(bar), line);
    session.write_curves(&state.progress)?;
    session.save(state)
}

/// Writes the checkpoint and the curves of a run stopped by `--max-steps` and says how to go on.
pub(super) fn stop_at_limit(session: &Session<'_>, state: &State) -> Result<()> {
    session.save(state)?;
    session.write_curves(&state.progress)?;
    println!(
        "stopped at step {} of {} (--max-steps); `trainer train --resume --out {}` goes on",
        state.progress.step,
        session.total_steps,
        session.config.out.display()
    );
    Ok(())
}
