//! Guard rails of the design: variant-specific code stays in the rules' variant specs.
//!
//! Search, evaluation, UCI, the trainer and the bot read what they need from a variant's spec;
//! they never name a variant (`Variant::PersianPrincess`) nor compare a variant id with a string
//! (`variant.id() == "chess"`). Listing every variant (`Variant::ALL`) is fine.

use std::{
    fs,
    path::{Path, PathBuf},
};

use engine::rules::Variant;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

/// The source files checked: every crate's `src/` but the rules' variant registry and specs.
fn checked_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for krate in ["engine", "nnue", "trainer", "bot", "bot/api", "bot/arena"] {
        let src = root.join(krate).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        assert!(!files.is_empty(), "no sources found in {krate}/src");
        for f in files {
            let rel = f
                .strip_prefix(&root)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            if rel == "engine/src/rules/variant.rs" || rel.starts_with("engine/src/rules/variants/") {
                continue;
            }
            let text = fs::read_to_string(&f).unwrap_or_default();
            // Code before the unit tests only (a module of test helpers, `#![cfg(test)]`, has none).
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let code = code.split("#![cfg(test)]").next().unwrap_or("").to_string();
            out.push((rel, code));
        }
    }
    out
}

/// The code lines of a file (comments left out), numbered from 1.
fn code_lines(code: &str) -> impl Iterator<Item = (usize, &str)> {
    code.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
}

/// Whether a code line names one variant (`Variant::X` for a variant, not a listing such as
/// `Variant::ALL`).
fn names_a_variant(line: &str) -> bool {
    let mut rest = line;
    while let Some(pos) = rest.find("Variant::") {
        let after = &rest[pos + 9..];
        let word: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let listing = ["ALL", "PERSIAN", "DEFAULT", "COUNT"].contains(&word.as_str());
        let variant_like =
            word.starts_with(|c: char| c.is_ascii_uppercase()) && word.chars().any(|c| c.is_ascii_lowercase());
        if variant_like && !listing {
            return true;
        }
        rest = after;
    }
    false
}

/// The ids, server keys and aliases of every variant.
fn variant_names() -> Vec<&'static str> {
    let mut names = Vec::new();
    for v in Variant::ALL {
        let s = v.spec();
        names.push(s.id);
        names.push(s.server_key);
        names.extend(s.aliases.iter().copied());
    }
    names
}

/// Whether a code line compares a string with one of `names` (`== "chess"`, `"chess" =>`).
fn compares_a_variant_id(line: &str, names: &[&str]) -> bool {
    // `|| "x"` is a closure returning a literal, not an or-pattern.
    let line = line.replace("|| ", "");
    names.iter().any(|name| {
        let lit = format!("\"{name}\"");
        [
            format!("== {lit}"),
            format!("!= {lit}"),
            format!("{lit} =="),
            format!("{lit} !="),
            format!("{lit} =>"),
            format!("{lit} |"),
            format!("| {lit}"),
            format!(".eq({lit})"),
        ]
        .iter()
        .any(|c| line.contains(c.as_str()))
    })
}

/// `Variant::X` may appear only in `rules/variant.rs` and `rules/variants/` (and tests).
#[test]
fn no_variant_names_outside_the_rules() {
    let mut leaks = Vec::new();
    for (rel, code) in checked_files() {
        for (n, line) in code_lines(&code) {
            if names_a_variant(line) {
                leaks.push(format!("{rel}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "variant names outside the rules:\n{}",
        leaks.join("\n")
    );
}

/// No comparison of a string with a variant's id, alias or server key: such code is a
/// per-variant branch in disguise.
#[test]
fn no_variant_id_comparisons_outside_the_rules() {
    let names = variant_names();
    let mut leaks = Vec::new();
    for (rel, code) in checked_files() {
        for (n, line) in code_lines(&code) {
            if compares_a_variant_id(line, &names) {
                leaks.push(format!("{rel}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "variant ids compared as strings outside the rules:\n{}",
        leaks.join("\n")
    );
}

/// The guards find what they must find, and let listings and closures pass.
#[test]
fn the_guards_see_leaks() {
    assert!(names_a_variant("let v = Variant::PersianPrincess;"));
    assert!(names_a_variant("for v in Variant::ALL { f(Variant::Chess) }"));
    assert!(!names_a_variant("for v in Variant::ALL {}"));
    assert!(!names_a_variant("[x; Variant::COUNT]"));
    let names = variant_names();
    assert!(compares_a_variant_id("if variant.id() == \"chess\" {", &names));
    assert!(compares_a_variant_id("\"persian-princess\" => 2,", &names));
    assert!(compares_a_variant_id("\"standard\" | \"fromPosition\" => x,", &names));
    assert!(compares_a_variant_id("x if \"omega\" != key", &names));
    assert!(!compares_a_variant_id(
        "f.get(\"variant\").unwrap_or_else(|| \"standard\".into())",
        &names
    ));
    assert!(!compares_a_variant_id("if key == \"chess960\" {", &names));
}

/// The docs' lists that name every variant, UCI option or server key, against the code: a
/// variant, option or key added to the code and not to the docs (or left in the docs after it
/// went) fails here.
mod docs_agree_with_the_code {
    use std::{collections::BTreeSet, fs, path::Path};

    use engine::{rules::Variant, uci::OPTIONS};

    fn doc(name: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs").join(name);
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The rows of the first table after `heading` (the lines starting with `|`, header and
    /// rule lines left out), each split into its cells.
    fn table_after(text: &str, heading: &str) -> Vec<Vec<String>> {
        let start = text.find(heading).unwrap_or_else(|| panic!("no heading {heading:?}"));
        text[start..]
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2)
            .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
            .collect()
    }

    /// The `code` spans of a text, in order.
    fn code_spans(text: &str) -> Vec<String> {
        text.split('`').skip(1).step_by(2).map(str::to_string).collect()
    }

    fn ids() -> Vec<String> {
        Variant::ALL.iter().map(|v| v.id().to_string()).collect()
    }

    #[test]
    fn the_variants_table_of_the_rules() {
        let rows = table_after(&doc("rules.md"), "## Variants on the command line");
        let documented: Vec<(String, Vec<String>)> = rows
            .iter()
            .map(|r| (code_spans(&r[0]).concat(), code_spans(&r[2])))
            .collect();
        let code: Vec<(String, Vec<String>)> = Variant::ALL
            .iter()
            .map(|v| {
                (
                    v.id().to_string(),
                    v.spec().aliases.iter().map(|a| a.to_string()).collect(),
                )
            })
            .collect();
        assert_eq!(
            documented, code,
            "docs/rules.md's variant table (id, aliases) against Variant::ALL"
        );
    }

    #[test]
    fn the_uci_options_of_the_engine_doc() {
        let rows = table_after(&doc("engine.md"), "| option | type | default | meaning |");
        let documented: BTreeSet<String> = rows.iter().map(|r| code_spans(&r[0]).concat()).collect();
        let code: BTreeSet<String> = OPTIONS.iter().map(|o| o.name.to_string()).collect();
        assert_eq!(
            documented, code,
            "docs/engine.md's UCI option table against the engine's options"
        );
        let variant_row = rows
            .iter()
            .find(|r| r[0] == "`UCI_Variant`")
            .expect("a UCI_Variant row");
        let listed: BTreeSet<String> = code_spans(&variant_row[3])
            .into_iter()
            .filter(|v| Variant::ALL.iter().any(|x| x.id() == v))
            .collect();
        assert_eq!(listed, ids().into_iter().collect(), "the UCI_Variant row's values");
    }

    #[test]
    fn the_arena_variant_keys() {
        let text = doc("arena.md");
        let start = text.find("Variant keys: ").expect("arena.md lists the variant keys");
        let para: String = text[start..].split("\n\n").next().unwrap_or_default().to_string();
        let listed: BTreeSet<String> = code_spans(&para).into_iter().filter(|k| k != "chess").collect();
        let mut keys: BTreeSet<String> = Variant::ALL.iter().map(|v| v.spec().server_key.to_string()).collect();
        keys.insert("fromPosition".to_string());
        assert_eq!(
            listed, keys,
            "docs/arena.md's variant keys against the variants' server keys"
        );
    }
}
