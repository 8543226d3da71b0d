//! Prints positions reached by seeded random playouts, for building test suites:
//! `cargo run --release --example random_positions -- <variant> <seed> <plies> [count]`.

use engine::rules::{Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: random_positions <variant> <seed> <plies> [count]";
    let (Some(v), Some(seed), Some(plies)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let variant: Variant = match v.parse() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut state: u64 = seed.parse().unwrap_or(1) | 1;
    let plies: usize = plies.parse().unwrap_or(20);
    let count: usize = args.get(4).and_then(|c| c.parse().ok()).unwrap_or(1);
    for _ in 0..count {
        let mut pos = Position::startpos(variant);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = moves.as_slice()[(state % moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        println!("{}", pos.fen());
    }
}
