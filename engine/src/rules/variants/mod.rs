//! One file per variant: its `VariantSpec`, and the registry below, the
//! one list of the variants the engine plays.
//!
//! Adding a variant means: its spec file here (geometry, pieces, start FEN, rules, a new stable
//! `code`), one line in `register!`, and its data files (`data/perft/<id>.perft`,
//! `data/bench/<id>.fen`, optionally `data/nets/<id>.nnue`). Every per-variant list and cache of
//! the engine is sized and indexed from this registry; the build script finds the data files by
//! the id.

pub mod citadel_common;
pub mod persian_common;

use super::variant::VariantSpec;

/// Declares the variant modules, the [`Variant`] enum, [`Variant::ALL`] and the spec of each
/// variant from one list (`Name => module`).
macro_rules! register {
    ($($(#[$doc:meta])* $name:ident => $module:ident,)*) => {
        $(pub mod $module;)*

        /// The variants the engine plays, in the order of their registration.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Variant {
            $($(#[$doc])* $name,)*
        }

        impl Variant {
            /// Number of variants.
            pub const COUNT: usize = [$(stringify!($name)),*].len();

            /// Every variant, in the order of their registration.
            pub const ALL: [Variant; Variant::COUNT] = [$(Variant::$name),*];

            /// The data that describes the variant.
            pub const fn spec(self) -> &'static VariantSpec {
                match self {
                    $(Variant::$name => &$module::SPEC,)*
                }
            }
        }
    };
}

register! {
    /// Persian Chess: Celtic Citadel (basic rules only).
    CelticCitadel => celtic_citadel,
    /// Persian Chess: Persian Princess (rendezvous, f6 centre square).
    PersianPrincess => persian_princess,
    /// Persian Chess: Egyptian Eye (rendezvous, the All-Seeing Eye on f6).
    EgyptianEye => egyptian_eye,
    /// Persian Chess: Oriental Omega (wizards and champion, champion rendezvous).
    OrientalOmega => oriental_omega,
    /// Orthodox chess on 8x8.
    Chess => chess,
    /// Parsi Chess (Bombay, 1814).
    Parsi => parsi,
    /// Nicholls' Citadel (2010) on 9x8, with a reconstructed start position.
    Citadel8 => citadel_8,
    /// Nicholls' Citadel (2010) on 9x9, with a reconstructed start position.
    Citadel9 => citadel_9,
}
