//! Variant keys of the server <-> engine variants. Lichess's `standard` and `fromPosition` are
//! chess; our own keys are the engine ids (`persian-princess`, ...). A configured table can add
//! or override keys.

use std::collections::BTreeMap;

use engine::rules::Variant;

use crate::types::VariantRef;

/// Lichess's key of standard chess (also the key of its "only standard chess" decline reason).
pub const LICHESS_STANDARD: &str = "standard";

/// The engine variant of a server key, `None` when unsupported.
pub fn engine_variant(key: &str, overrides: &BTreeMap<String, Variant>) -> Option<Variant> {
    if let Some(&variant) = overrides.get(key) {
        return Some(variant);
    }
    // Lichess's `fromPosition` is standard chess from a FEN.
    let key = if key == "fromPosition" { LICHESS_STANDARD } else { key };
    if let Some(v) = Variant::ALL.into_iter().find(|v| v.spec().server_key == key) {
        return Some(v);
    }
    match key {
        // Lichess variants the engine does not play.
        "chess960" | "crazyhouse" | "antichess" | "atomic" | "horde" | "kingOfTheHill" | "racingKings"
        | "threeCheck" => None,
        other => other.parse().ok(),
    }
}

/// Lichess's key of chess from a set-up position.
pub const LICHESS_FROM_POSITION: &str = "fromPosition";

/// The engine variant of a key the arena accepts: a server key of the engine's variants
/// (`standard`, `persian-princess`, ...) or `fromPosition`. Engine ids that are not server keys
/// (`chess`) and aliases are refused, as Lichess refuses keys it does not know.
pub fn arena_variant(key: &str) -> Option<Variant> {
    let key = if key == LICHESS_FROM_POSITION {
        LICHESS_STANDARD
    } else {
        key
    };
    Variant::ALL.into_iter().find(|v| v.spec().server_key == key)
}

/// The variant as the API describes a game or a challenge: Lichess's names for chess
/// (`standard`/"Standard", or `fromPosition`/"From Position" when the game starts from a set-up
/// position), the server key and the engine's name for the others.
pub fn variant_ref(variant: Variant, from_position: bool) -> VariantRef {
    match (variant.spec().server_key, from_position) {
        (LICHESS_STANDARD, false) => VariantRef {
            key: LICHESS_STANDARD.into(),
            name: "Standard".into(),
            short: Some("Std".into()),
        },
        (LICHESS_STANDARD, true) => VariantRef {
            key: LICHESS_FROM_POSITION.into(),
            name: "From Position".into(),
            short: Some("FEN".into()),
        },
        (key, _) => VariantRef {
            key: key.into(),
            name: variant.spec().name.into(),
            short: None,
        },
    }
}

/// The PGN `Variant` tag of a game: a name for every variant, never a key. Chess takes
/// Lichess's names ("Standard", or "From Position" when the game starts from a set-up
/// position); a variant whose engine PGN name is a name ("Parsi", "Citadel 8") keeps it, and
/// one whose PGN name is its key (`persian-princess`) takes its display name
/// ("Persian Princess"). Each reads back as its variant with the engine's PGN reader, as the
/// older keys still do.
pub fn pgn_name(variant: Variant, from_position: bool) -> &'static str {
    let spec = variant.spec();
    match (spec.server_key, from_position) {
        (LICHESS_STANDARD, true) => "From Position",
        _ if spec.pgn_name == spec.id => spec.name,
        _ => spec.pgn_name,
    }
}

/// Whether Lichess rates games of this variant key by speed (chess: `standard`,
/// `fromPosition`) rather than by variant.
fn rated_by_speed(key: &str) -> bool {
    key == LICHESS_STANDARD || key == LICHESS_FROM_POSITION
}

/// The perf key of a game, as Lichess keys ratings: chess by speed (`blitz`, ...), every other
/// variant by its key, whatever the speed.
pub fn perf_key(variant: &VariantRef, speed: &str) -> String {
    if rated_by_speed(&variant.key) {
        speed.to_string()
    } else {
        variant.key.clone()
    }
}

/// The perf name shown for a game: "Blitz" for chess, the variant's name for the others.
pub fn perf_name(variant: &VariantRef, speed: &str) -> String {
    if rated_by_speed(&variant.key) {
        crate::types::speed_name(speed).to_string()
    } else {
        variant.name.clone()
    }
}

/// The server key of an engine variant (its spec's).
pub fn server_key(variant: Variant) -> &'static str {
    variant.spec().server_key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping() {
        let none = BTreeMap::new();
        assert_eq!(engine_variant("standard", &none).map(|v| v.id()), Some("chess"));
        assert_eq!(engine_variant("fromPosition", &none).map(|v| v.id()), Some("chess"));
        assert_eq!(
            engine_variant("persian-princess", &none).map(|v| v.id()),
            Some("persian-princess")
        );
        assert_eq!(engine_variant("atomic", &none), None);
        assert_eq!(engine_variant("nonsense", &none), None);
        let mut o = BTreeMap::new();
        o.insert(
            "persian".to_string(),
            "oriental-omega".parse().expect("an engine variant"),
        );
        assert_eq!(engine_variant("persian", &o).map(|v| v.id()), Some("oriental-omega"));
        for v in Variant::ALL {
            assert_eq!(engine_variant(server_key(v), &none), Some(v));
            assert_eq!(arena_variant(server_key(v)), Some(v));
        }
        // The arena takes only server keys: "chess" is the engine's id, not a Lichess key.
        assert_eq!(arena_variant("chess"), None);
        assert_eq!(arena_variant("persian"), None);
        assert_eq!(arena_variant("fromPosition").map(|v| v.id()), Some("chess"));
        let chess = Variant::Chess;
        assert_eq!(variant_ref(chess, false).name, "Standard");
        assert_eq!(variant_ref(chess, true).key, "fromPosition");
        assert_eq!(variant_ref(chess, true).name, "From Position");
        let pp: Variant = "persian-princess".parse().expect("known");
        assert_eq!(variant_ref(pp, true).key, "persian-princess");
    }

    #[test]
    fn pgn_variant_names() {
        let name = |id: &str| pgn_name(id.parse().expect("variant"), false);
        assert_eq!(name("chess"), "Standard");
        assert_eq!(pgn_name(Variant::Chess, true), "From Position");
        assert_eq!(name("persian-princess"), "Persian Princess");
        assert_eq!(name("celtic-citadel"), "Celtic Citadel");
        assert_eq!(name("egyptian-eye"), "Egyptian Eye");
        assert_eq!(name("oriental-omega"), "Oriental Omega");
        assert_eq!(name("parsi"), "Parsi");
        assert_eq!(name("citadel-8"), "Citadel 8");
        assert_eq!(name("citadel-9"), "Citadel 9");
        for v in Variant::ALL {
            for from_position in [false, true] {
                let name = pgn_name(v, from_position);
                assert_ne!(name, v.id(), "{v}: a name, not a key");
                assert!(name.chars().next().is_some_and(char::is_uppercase), "{v}: {name}");
                assert_eq!(name.parse::<Variant>(), Ok(v), "{v}: '{name}' reads back");
            }
            // The tags written before (the key, the engine's PGN name) still read.
            assert_eq!(v.spec().server_key.parse::<Variant>(), Ok(v));
            assert_eq!(v.spec().pgn_name.parse::<Variant>(), Ok(v));
        }
    }
}
