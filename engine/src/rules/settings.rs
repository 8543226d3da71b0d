//! Rule settings: the readings a variant's rules leave open (Parsi Chess's A.12 readings, the
//! Citadel's set-up), declared by the variant's spec ([`VariantSpec::settings`]) and read from
//! text (`engine ... --rules`, the UCI option `VariantRules`, the PGN tag `VariantRules`).
//!
//! A rule set is a spec of its own: the variant's spec with the rules and start position the
//! settings give, and the tables built from it. A position refers to its tables by a plain
//! `&'static` reference (copied at every node of the search), so the tables of a rule set live
//! as long as the process, as a registered variant's do ([`Variant::tables`]). A variant with
//! settings numbers its rule sets densely and gives each number one [`RuleSetSlot`], filled the
//! first time that rule set is asked for: nothing is leaked, no lock is shared between rule
//! sets, and the storage is fixed by the settings the variant has, whatever the callers ask.
//!
//! [`Variant::tables`]: super::variant::Variant::tables

use std::sync::OnceLock;

use super::{
    special::Rule,
    tables::Tables,
    variant::{RuleSettingsError, VariantSpec},
};

/// A whole set of readings that a settings text starts from, before its items: the engine's
/// own, or another implementation's that a variant's settings can reproduce as a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Readings {
    /// The readings the engine chose (docs/rules.md): a variant's defaults.
    #[default]
    Default,
    /// The Ludii implementation's readings (Parsi Chess, rules note A.12; the setting `ludii`,
    /// the UCI switch `Parsi_Ludii`).
    Ludii,
}

impl std::fmt::Display for Readings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Readings::Default => "default",
            Readings::Ludii => "ludii",
        })
    }
}

/// How a variant reads rule settings: part of its spec ([`VariantSpec::settings`]).
#[derive(Debug)]
pub struct RuleSettings {
    /// Each setting: its name (as the settings text names it) and what it does.
    pub names: &'static [(&'static str, &'static str)],
    /// The sets of readings besides [`Readings::Default`] the variant can start from.
    pub readings: &'static [Readings],
    /// Reads a settings text (items applied in order to the given readings, one of
    /// [`RuleSettings::readings`] or the defaults) into the tables of that rule set; empty
    /// under the defaults, or `default`: the registered variant's tables. Each distinct rule
    /// set's tables are built once, so positions under equal settings share them and compare
    /// equal.
    pub tables: fn(Readings, &str) -> Result<&'static Tables, RuleSettingsError>,
}

impl RuleSettings {
    /// Whether settings may start from `readings`.
    pub fn knows(&self, readings: Readings) -> bool {
        readings == Readings::Default || self.readings.contains(&readings)
    }
}

/// The storage of one rule set of a variant: its rules, its spec and its tables, each built
/// once, on first use (see the module documentation).
pub(crate) struct RuleSetSlot {
    rules: OnceLock<Box<[Rule]>>,
    spec: OnceLock<Box<VariantSpec>>,
    tables: OnceLock<Box<Tables>>,
}

impl RuleSetSlot {
    /// An empty slot (for the arrays of slots in statics).
    pub(crate) const fn new() -> RuleSetSlot {
        RuleSetSlot {
            rules: OnceLock::new(),
            spec: OnceLock::new(),
            tables: OnceLock::new(),
        }
    }

    /// The tables of the slot's rule set, built on the first call: `rules` gives its rules,
    /// `spec` its spec around them, and `finish` sets what the tables keep beside the spec
    /// (the settings text, the 50-move rule). Later calls return the same tables.
    pub(crate) fn tables(
        &'static self,
        rules: impl FnOnce() -> Vec<Rule>,
        spec: impl FnOnce(&'static [Rule]) -> VariantSpec,
        finish: impl FnOnce(&mut Tables),
    ) -> &'static Tables {
        self.tables.get_or_init(|| {
            let rules: &'static [Rule] = self.rules.get_or_init(|| rules().into_boxed_slice());
            let spec: &'static VariantSpec = self.spec.get_or_init(|| Box::new(spec(rules)));
            let mut tables = Tables::build(spec);
            finish(&mut tables);
            Box::new(tables)
        })
    }
}
