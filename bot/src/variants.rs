//! Variant keys of the server <-> engine variants. Lichess's `standard` and `fromPosition` are
//! chess; our own keys are the engine ids (`persian-princess`, ...). A configured table can add
//! or override keys.

use std::collections::BTreeMap;

use engine::rules::Variant;

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
        }
    }
}
