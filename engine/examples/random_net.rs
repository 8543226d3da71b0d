//! Writes a randomly initialised net for a variant (for tests and speed measurements; it plays
//! badly): `cargo run --release --example random_net -- <variant> <out.nnue> [hidden] [seed]`.

use engine::{eval::nnue::layout, rules::Variant};
use nnue::{features, format, FloatNetwork};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(v), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: random_net <variant> <out.nnue> [hidden] [seed]");
        std::process::exit(2);
    };
    let variant: Variant = match v.parse() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let hidden: usize = args.get(3).and_then(|h| h.parse().ok()).unwrap_or(256);
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let layout = layout(variant);
    let float = FloatNetwork::init_random(features::num_features(&layout), hidden, seed);
    let net = match float.quantise(64) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let header = format::NetHeader::new(variant.code(), variant.id(), &layout, "random net (untrained)");
    match format::to_bytes(&header, &net).map(|bytes| std::fs::write(out, bytes)) {
        Ok(Ok(())) => println!("wrote {out}"),
        Ok(Err(e)) => {
            eprintln!("cannot write {out}: {e}");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
