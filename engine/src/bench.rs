//! `engine bench`: a fixed search over fixed positions of every variant (`data/bench/*.fen`,
//! compiled in), one thread, fixed hash, the table cleared before each position. The node total
//! is deterministic and is the behaviour signature of search and evaluation (`Bench:` trailer).

use std::time::Instant;

use crate::{
    engine::{Engine, EvalSource},
    eval::nnue::NetError,
    rules::{Position, Variant},
    search::Limits,
};

include!(concat!(env!("OUT_DIR"), "/bench_positions.rs"));

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// The bench positions of a variant.
pub fn positions(variant: Variant) -> Vec<Position> {
    let text = BENCH_POSITIONS
        .iter()
        .find(|(id, _)| *id == variant.id())
        .map_or("", |(_, t)| t);
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|fen| Position::from_fen(variant, fen).expect("bench FENs are valid (tested)"))
        .collect()
}

/// The totals of a bench run.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Runs the bench with each variant's default evaluation, printing one line per position and
/// per variant through `print`.
pub fn run(depth: u32, variants: &[Variant], print: &mut dyn FnMut(&str)) -> BenchResult {
    run_with(depth, variants, &EvalSource::Default, print).expect("the default evaluation always loads")
}

/// Runs the bench with the given evaluation.
pub fn run_with(
    depth: u32,
    variants: &[Variant],
    eval: &EvalSource,
    print: &mut dyn FnMut(&str),
) -> Result<BenchResult, NetError> {
    let mut engine = Engine::new();
    engine.set_hash(16);
    let mut total = 0;
    let start = Instant::now();
    for &v in variants {
        engine.set_variant(v);
        engine.set_eval(eval.clone())?;
        print(&format!("{:<17} evaluation: {}", v.id(), engine.eval_summary()));
        let mut variant_nodes = 0;
        for (i, pos) in positions(v).iter().enumerate() {
            engine.new_game();
            if engine.set_game(pos.clone(), &[]).is_err() {
                continue;
            }
            let t = Instant::now();
            let r = engine.search(
                Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
                &mut |_| {},
            );
            let ms = t.elapsed().as_millis();
            print(&format!(
                "{:<17} {:>2}  {:>10} nodes {:>6} ms  best {:<7} {}",
                v.id(),
                i + 1,
                r.nodes,
                ms,
                pos.uci(r.best),
                r.score
            ));
            variant_nodes += r.nodes;
        }
        print(&format!("{:<17} total {:>10} nodes", v.id(), variant_nodes));
        total += variant_nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(BenchResult {
        nodes: total,
        nps: (total as f64 / secs.max(1e-9)) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_valid_bench_positions() {
        for v in Variant::ALL {
            let ps = positions(v);
            assert!(ps.len() >= 4, "{v}");
            for p in ps {
                assert!(p.outcome().is_none(), "{v}: bench position is over: {}", p.fen());
            }
        }
    }

    #[test]
    fn every_bench_file_names_a_variant() {
        for (id, _) in BENCH_POSITIONS {
            assert!(
                id.parse::<Variant>().is_ok_and(|v| v.id() == *id),
                "data/bench/{id}.fen"
            );
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let a = run(4, &[Variant::PersianPrincess], &mut |_| {});
        let b = run(4, &[Variant::PersianPrincess], &mut |_| {});
        assert_eq!(a.nodes, b.nodes);
    }
}
