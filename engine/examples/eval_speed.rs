//! Times the static evaluation and move generation on the bench positions:
//! `cargo run --release --example eval_speed`.

use std::time::Instant;

use engine::{
    bench,
    rules::{MoveList, Variant},
};

fn main() {
    for v in Variant::ALL {
        let positions = bench::positions(v);
        let n = 200_000;
        let t = Instant::now();
        let mut sum = 0i64;
        for i in 0..n {
            sum += engine::eval::evaluate(&positions[i % positions.len()]) as i64;
        }
        let eval_ns = t.elapsed().as_nanos() as f64 / n as f64;
        let mut list = MoveList::new();
        let t = Instant::now();
        for i in 0..n {
            positions[i % positions.len()].generate_legal(&mut list);
            sum += list.len() as i64;
        }
        let gen_ns = t.elapsed().as_nanos() as f64 / n as f64;
        let t = Instant::now();
        for i in 0..n {
            let p = &positions[i % positions.len()];
            p.generate_legal(&mut list);
            let m = list.as_slice()[i % list.len()];
            sum += p.after(m).hash() as i64 & 1;
        }
        let make_ns = t.elapsed().as_nanos() as f64 / n as f64 - gen_ns;
        println!(
            "{:<17} eval {eval_ns:6.0} ns  movegen {gen_ns:6.0} ns  make {make_ns:6.0} ns  ({sum})",
            v.id()
        );
    }
}
