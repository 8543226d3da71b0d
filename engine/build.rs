//! Embeds the trained nets: for each variant id, `data/nets/<id>.nnue` is compiled into the
//! binary when it exists at build time, and becomes that variant's default evaluation.

use std::{env, fs, path::PathBuf};

const VARIANT_IDS: [&str; 5] = [
    "celtic-citadel",
    "persian-princess",
    "egyptian-eye",
    "oriental-omega",
    "chess",
];

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let nets = manifest.join("..").join("data").join("nets");
    println!("cargo:rerun-if-changed={}", nets.display());
    let mut entries = String::new();
    for id in VARIANT_IDS {
        let path = nets.join(format!("{id}.nnue"));
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_file() {
            let path = path.canonicalize().unwrap_or(path);
            entries.push_str(&format!(
                "    ({id:?}, include_bytes!({:?})),\n",
                path.display().to_string()
            ));
        }
    }
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded_nets.rs");
    let code = format!(
        "/// Nets found in data/nets at build time: (variant id, file bytes).\npub const EMBEDDED_NETS: &[(&str, &[u8])] = &[\n{entries}];\n"
    );
    fs::write(&out, code).expect("writing embedded_nets.rs");
}
