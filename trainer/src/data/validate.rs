//! `trainer data validate`: finds records that are corrupt or describe impossible positions.

use std::{collections::HashMap, path::PathBuf};

use anyhow::{bail, Result};
use engine::{
    eval::nnue::{layout, position_of},
    rules::{Move, MoveKind, Position, Variant},
};
use nnue::{data::Record, Layout};

use super::io::{for_each_record, record_files, thousands};

/// Arguments of `trainer data validate`.
#[derive(clap::Args, Debug)]
#[command(
    after_long_help = "Checks every record of the files: it must decode (version, occupancy, piece codes, \
result, flags), name a known variant (the one given with --variant, if any), and describe a legal \
position of that variant (pieces on real squares only, one king each, no piece the variant lacks, \
no pawn on an impossible rank, the side not to move not in check); the in-check flag must match \
the position, the best move (when one is stored) must start on a piece of the side to move and, \
for ordinary moves, be legal, and the capture/promotion flag must match it.\n\nEach problem is \
reported with its file, record index and byte offset. The exit status is 1 when a problem is \
found, 0 otherwise."
)]
pub struct Args {
    /// Record files (.bin) or directories (searched recursively for .bin files).
    #[arg(required = true, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// Every record must be of this variant.
    #[arg(short, long)]
    pub variant: Option<String>,
    /// Problems printed at most (all are counted).
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub max_reports: u64,
}

/// What is wrong with one record, or `None`.
pub fn check(record: &Record, only: Option<Variant>, layouts: &mut HashMap<u8, Layout>) -> Option<String> {
    let code = record.variant_code();
    let Some(variant) = Variant::from_code(code) else {
        return Some(format!("unknown variant code {code}"));
    };
    if let Some(v) = only.filter(|&v| v != variant) {
        return Some(format!("record of {} (code {code}), expected {}", variant.id(), v.id()));
    }
    let l = layouts.entry(code).or_insert_with(|| layout(variant));
    let tp = match record.decode(l) {
        Ok(tp) => tp,
        Err(e) => return Some(format!("bad record bytes: {e}")),
    };
    let pos: Position = match position_of(variant, &tp) {
        Ok(p) => p,
        Err(e) => return Some(format!("impossible {} position: {e}", variant.id())),
    };
    if pos.in_check() != tp.in_check {
        return Some(format!(
            "the in-check flag says {}, the position says {} ({})",
            tp.in_check,
            pos.in_check(),
            pos.fen()
        ));
    }
    if tp.best_move != 0 {
        let m = Move::from_raw(tp.best_move);
        let g = variant.spec().geometry;
        // Only rule moves use the bits above 21 (their rule's index and tag).
        let rule_bits_ok = if m.kind() == MoveKind::Rule {
            m.rule_index() < variant.tables().rules.custom_rule_count()
        } else {
            tp.best_move >> 21 == 0
        };
        if !g.is_playable(m.from()) || !g.is_playable(m.to()) || !rule_bits_ok {
            return Some(format!("best move {:#x} is not a move of this board", tp.best_move));
        }
        let own = pos.piece_at(m.from()).is_some_and(|p| p.color == pos.turn());
        if !own {
            return Some(format!(
                "best move {m:?} does not start on a piece of the side to move ({})",
                pos.fen()
            ));
        }
        // Castling, en passant, the rendezvous, rule moves and (where rights gate them) double
        // steps depend on rights a record does not keep.
        let needs_rights = match m.kind() {
            MoveKind::Normal | MoveKind::Promotion => false,
            MoveKind::DoubleStep => variant.tables().rules.double_steps_need_rights(),
            _ => true,
        };
        if !needs_rights && !pos.is_legal_move(m) {
            return Some(format!("best move {} is not legal in {}", pos.uci(m), pos.fen()));
        }
        let noisy = pos.is_capture_or_promotion(m);
        if noisy != tp.noisy_best_move {
            return Some(format!(
                "the capture/promotion flag says {}, the best move {m:?} says {noisy}",
                tp.noisy_best_move
            ));
        }
    }
    None
}

/// Runs `trainer data validate`.
pub fn run(args: Args) -> Result<()> {
    let only: Option<Variant> = args.variant.as_deref().map(str::parse).transpose()?;
    let files = record_files(&args.inputs)?;
    let mut layouts = HashMap::new();
    let mut problems = 0u64;
    let mut records = 0u64;
    let mut bad_files = 0u64;
    for file in &files {
        let before = problems;
        let read = for_each_record(file, |i, r| {
            if let Some(what) = check(r, only, &mut layouts) {
                problems += 1;
                if problems <= args.max_reports {
                    println!("{}: record {i} (byte {}): {what}", file.display(), i * 64);
                }
            }
            Ok(())
        });
        match read {
            Ok(n) => records += n,
            Err(e) => {
                problems += 1;
                if problems <= args.max_reports {
                    println!("{e:#}");
                }
            }
        }
        if problems > before {
            bad_files += 1;
        }
    }
    if problems > args.max_reports {
        println!(
            "... {} more problem(s) not shown (--max-reports)",
            problems - args.max_reports
        );
    }
    if problems > 0 {
        bail!(
            "{} problem(s) in {bad_files} of {} file(s) ({} records read)",
            thousands(problems),
            files.len(),
            thousands(records)
        );
    }
    println!(
        "ok: {} records in {} file(s), no problem found",
        thousands(records),
        files.len()
    );
    Ok(())
}
