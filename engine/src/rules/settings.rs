//! Rule settings: the readings a variant's rules leave open (Parsi Chess's A.12 readings, the
//! Citadel's set-up), declared by the variant's spec ([`VariantSpec::settings`]) and read from
//! text (`engine ... --rules`, the UCI option `VariantRules`, the PGN tag `VariantRules`).
//!
//! A rule set is a spec of its own: the variant's spec with the rules and start position the
//! settings give, and the tables built from it. A position refers to its tables by a plain
//! `&'static` reference (copied at every node of the search), so the tables of a rule set live
//! as long as the process, as a registered variant's do ([`Variant::tables`]). A variant with
//! settings numbers its rule sets densely and gives each number one slot (`RuleSetSlot`, in
//! the registry), filled the first time that rule set is asked for: nothing is leaked, no lock
//! is shared between rule sets, and the storage is fixed by the settings the variant has,
//! whatever the callers ask.
//!
//! What a spec declares is a [`RuleSettings`] (beside the spec's other parts, in `variant`);
//! this module holds the words the settings text is read into.
//!
//! [`Variant::tables`]: super::variant::Variant::tables
//! [`VariantSpec::settings`]: super::variant::VariantSpec::settings
//! [`RuleSettings`]: super::variant::RuleSettings

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
