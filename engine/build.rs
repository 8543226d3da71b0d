//! Embeds the data files of the variants, found by name so that adding a variant needs no edit
//! here:
//! - every `data/nets/<id>.nnue` is compiled into the binary and becomes that variant's default
//!   evaluation (`EMBEDDED_NETS`);
//! - every `data/bench/<id>.fen` holds that variant's `engine bench` positions
//!   (`BENCH_POSITIONS`).
//!
//! Files are listed in name order, so the generated code does not depend on the directory order.

use std::{
    env, fs,
    path::{Path, PathBuf},
};

/// The files of `dir` with extension `ext`, as (stem, absolute path), sorted by stem.
fn files(dir: &Path, ext: &str) -> Vec<(String, PathBuf)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else { return out };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|e| e == ext) {
            if let Some(stem) = path.file_stem().and_then(|s| s.to_str()).map(str::to_string) {
                println!("cargo:rerun-if-changed={}", path.display());
                let path = path.canonicalize().unwrap_or(path);
                out.push((stem, path));
            }
        }
    }
    out.sort();
    out
}

/// A `&[(&str, &[u8] or &str)]` constant that includes each file.
fn table(name: &str, doc: &str, item: &str, include: &str, files: &[(String, PathBuf)]) -> String {
    let mut code = format!("/// {doc}\npub const {name}: &[(&str, {item})] = &[\n");
    for (stem, path) in files {
        code.push_str(&format!(
            "    ({stem:?}, {include}!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    code
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let data = manifest.join("..").join("data");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let nets = files(&data.join("nets"), "nnue");
    let code = table(
        "EMBEDDED_NETS",
        "Nets found in data/nets at build time: (variant id, file bytes).",
        "&[u8]",
        "include_bytes",
        &nets,
    );
    fs::write(out.join("embedded_nets.rs"), code).expect("writing embedded_nets.rs");
    let bench = files(&data.join("bench"), "fen");
    let code = table(
        "BENCH_POSITIONS",
        "Bench positions found in data/bench at build time: (variant id, file text).",
        "&str",
        "include_str",
        &bench,
    );
    fs::write(out.join("bench_positions.rs"), code).expect("writing bench_positions.rs");
}
