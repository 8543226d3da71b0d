//! Guard rails of the design: variant-specific code stays in the rules' variant specs.

use std::{fs, path::Path};

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `Variant::X` may appear only in `rules/variant.rs` and `rules/variants/` (and tests): search,
/// evaluation, UCI and the bot must read what they need from the spec.
#[test]
fn no_variant_matches_outside_the_rules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut leaks = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(&src)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        if rel == "rules/variant.rs" || rel.starts_with("rules/variants/") {
            continue;
        }
        let text = fs::read_to_string(&f).unwrap_or_default();
        // Code before the unit tests only.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            let l = line.trim_start();
            if l.starts_with("//") {
                continue;
            }
            if let Some(pos) = l.find("Variant::") {
                let next = l[pos + 9..].chars().next();
                let word: String = l[pos + 9..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
                let listing = ["ALL", "PERSIAN", "DEFAULT"].contains(&word.as_str());
                if next.is_some_and(|c| c.is_ascii_uppercase()) && !listing {
                    leaks.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "variant-specific code outside the rules:\n{}",
        leaks.join("\n")
    );
}
