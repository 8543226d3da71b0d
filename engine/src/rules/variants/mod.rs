//! One file per variant: its `VariantSpec`, and the registry below, which gives each variant
//! of the [`Variant`] enum its spec.
//!
//! Adding a variant means: its spec file here (geometry, pieces, start FEN, rules, a new stable
//! `code`), its name at the end of the [`Variant`] enum, one line in `register!` (the compiler
//! holds the two lists to the same names in the same order), and its data files (`data/perft/<id>.perft`,
//! `data/bench/<id>.fen`, optionally `data/nets/<id>.nnue`). Every per-variant list and cache of
//! the engine is sized and indexed from this registry; the build script finds the data files by
//! the id.

pub mod citadel_common;
pub mod persian_common;

use std::sync::OnceLock;

use super::{
    special::Rule,
    tables::Tables,
    variant::{Variant, VariantSpec},
};

/// Declares the variant modules and gives each [`Variant`] its spec ([`Variant::spec`]), from
/// one list (`Name => module`) in the order of the enum, which a check at compile time holds
/// to.
macro_rules! register {
    ($($name:ident => $module:ident,)*) => {
        $(pub mod $module;)*

        impl Variant {
            /// The data that describes the variant.
            pub const fn spec(self) -> &'static VariantSpec {
                match self {
                    $(Variant::$name => &$module::SPEC,)*
                }
            }
        }

        // The registry lists every variant once, in the enum's order.
        const _: () = {
            let registered = [$(Variant::$name),*];
            assert!(registered.len() == Variant::COUNT);
            let mut i = 0;
            while i < registered.len() {
                assert!(registered[i] as usize == i);
                i += 1;
            }
        };
    };
}

register! {
    CelticCitadel => celtic_citadel,
    PersianPrincess => persian_princess,
    EgyptianEye => egyptian_eye,
    OrientalOmega => oriental_omega,
    Chess => chess,
    Parsi => parsi,
    Citadel8 => citadel_8,
    Citadel9 => citadel_9,
}

/// The storage of one rule set of a variant: its rules, its spec and its tables, each built
/// once, on first use (see the module documentation of `rules::settings`).
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
