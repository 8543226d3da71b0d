//! The typed settings of a pipeline run: which variants, how many games each, which evaluation.

use std::{fmt, path::PathBuf, str::FromStr};

use anyhow::{bail, Result};
use engine::rules::Variant;

/// The variants of `--variants all`: the four Persian sub-variants (they share the board), in
/// the engine's order, the first one the joint net's main variant.
fn all() -> Vec<String> {
    Variant::PERSIAN.iter().map(|v| v.id().to_string()).collect()
}

/// The variants of a run, by id, the first one the net's main variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantSet {
    ids: Vec<String>,
}

impl VariantSet {
    /// The variant ids, in order.
    pub fn variants(&self) -> &[String] {
        &self.ids
    }

    /// Whether the variants share one net (more than one variant).
    pub fn joint(&self) -> bool {
        self.ids.len() > 1
    }

    /// The set as `--variants` takes it: `all` for the four Persian sub-variants.
    pub fn spec(&self) -> String {
        if self.ids == all() {
            "all".to_string()
        } else {
            self.ids.join(",")
        }
    }

    /// The end of the run directories' names: `all`, the variant, or the variants joined by `+`.
    pub fn run_suffix(&self) -> String {
        if self.ids == all() {
            "all".to_string()
        } else {
            self.ids.join("+")
        }
    }
}

impl FromStr for VariantSet {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<VariantSet, String> {
        if text.trim() == "all" {
            return Ok(VariantSet { ids: all() });
        }
        let mut ids: Vec<String> = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let v: Variant = part.parse().map_err(|e| format!("{e}"))?;
            let id = v.id().to_string();
            if ids.contains(&id) {
                return Err(format!("{id} is named twice"));
            }
            ids.push(id);
        }
        if ids.is_empty() {
            return Err("no variant given: `all` or variant ids separated by commas".to_string());
        }
        Ok(VariantSet { ids })
    }
}

/// `--games-by-variant`: other numbers of self-play games for some variants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamesByVariant {
    /// The text as given (for the reports' commands).
    text: String,
    /// The variant as written and its games.
    entries: Vec<(String, u64)>,
}

impl GamesByVariant {
    /// The setting as given ("" when none).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Refuses entries for variants that are not in the run.
    pub fn check(&self, set: &VariantSet) -> Result<()> {
        for (name, _) in &self.entries {
            let id = name.parse::<Variant>().ok().map(|v| v.id().to_string());
            if id.is_none_or(|id| !set.variants().contains(&id)) {
                bail!(
                    "GAMES_BY_VARIANT: {name} is not a variant of this run ({})",
                    set.variants().join(" ")
                );
            }
        }
        Ok(())
    }

    /// The games of `variant`: its entry, else `default`.
    pub fn games_of(&self, variant: &str, default: u64) -> u64 {
        self.entries
            .iter()
            .find(|(name, _)| name.parse::<Variant>().is_ok_and(|v| v.id() == variant))
            .map_or(default, |&(_, games)| games)
    }
}

impl FromStr for GamesByVariant {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<GamesByVariant, String> {
        let mut entries = Vec::new();
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let bad = || format!("'{entry}' is not VARIANT=GAMES");
            let (name, games) = entry.split_once('=').ok_or_else(bad)?;
            let games: u64 = games.trim().parse().map_err(|_| bad())?;
            if name.trim().is_empty() {
                return Err(bad());
            }
            entries.push((name.trim().to_string(), games));
        }
        Ok(GamesByVariant {
            text: text.trim().to_string(),
            entries,
        })
    }
}

/// An evaluation to generate with and to beat: the hand-crafted one or a net file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// The hand-crafted evaluation.
    Hce,
    /// A net file.
    Net(PathBuf),
}

impl fmt::Display for Eval {
    /// As `--net` and the match's `eval=` take it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Hce => f.write_str("hce"),
            Eval::Net(path) => write!(f, "{}", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_sets() {
        let all: VariantSet = "all".parse().expect("all");
        assert_eq!(
            all.variants(),
            ["celtic-citadel", "persian-princess", "egyptian-eye", "oriental-omega"]
        );
        assert!(all.joint());
        assert_eq!((all.spec().as_str(), all.run_suffix().as_str()), ("all", "all"));
        let one: VariantSet = "persian-princess".parse().expect("one");
        assert!(!one.joint());
        assert_eq!(one.run_suffix(), "persian-princess");
        let two: VariantSet = "egyptian-eye, oriental-omega".parse().expect("two");
        assert_eq!(two.run_suffix(), "egyptian-eye+oriental-omega");
        assert_eq!(two.spec(), "egyptian-eye,oriental-omega");
        assert!("nonsense".parse::<VariantSet>().is_err());
        assert!("".parse::<VariantSet>().is_err());
        assert!("egyptian-eye,egyptian-eye".parse::<VariantSet>().is_err());
    }

    #[test]
    fn games_by_variant() {
        let all: VariantSet = "all".parse().expect("all");
        let g: GamesByVariant = "egyptian-eye=20000, oriental-omega=5".parse().expect("entries");
        g.check(&all).expect("variants of the run");
        assert_eq!(g.games_of("egyptian-eye", 7), 20000);
        assert_eq!(g.games_of("oriental-omega", 7), 5);
        assert_eq!(g.games_of("celtic-citadel", 7), 7);
        assert_eq!("".parse::<GamesByVariant>().expect("empty"), GamesByVariant::default());
        for bad in ["egyptian-eye", "egyptian-eye=x", "=3", "egyptian-eye=-1"] {
            assert!(bad.parse::<GamesByVariant>().is_err(), "{bad}");
        }
        let other: GamesByVariant = "parsi=10".parse().expect("syntax");
        let e = other.check(&all).expect_err("not in the run").to_string();
        assert!(e.contains("parsi is not a variant of this run"), "{e}");
    }
}
