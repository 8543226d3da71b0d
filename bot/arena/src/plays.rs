//! What an account is seen to play: the terms of the games it played (variants, clocks, rated
//! or casual) and the challenges it declined for their terms (Lichess's decline reasons
//! `variant`, `standard`, `timeControl`, `tooFast`, `tooSlow`, `rated`, `casual`). The lobby
//! shows it for each bot, so that a player does not send a challenge the bot turns down.
//!
//! A decline is shown until the account plays those terms after it (a bot that declined Citadel
//! 9x9 and later played it no longer reads "declined Citadel 9x9").

use std::collections::BTreeMap;

use serde_json::{json, Value};

use lichess_api::types::{speed_of, DeclineReason, VariantRef};

/// `5+3`, or `½+0` / `¼+0` / `¾+0` under a minute as Lichess writes them (and `1.5+0`).
pub fn clock_show(limit: u64, inc: u64) -> String {
    let minutes = match limit {
        15 => "¼".to_string(),
        30 => "½".to_string(),
        45 => "¾".to_string(),
        90 => "1.5".to_string(),
        l => (l / 60).to_string(),
    };
    format!("{minutes}+{inc}")
}

/// Whether a decline reason is about the terms (the others, `generic`, `later`, `noBot` and
/// `onlyBot`, say nothing of what the account plays).
pub fn about_terms(reason: DeclineReason) -> bool {
    !matches!(
        reason,
        DeclineReason::Generic | DeclineReason::Later | DeclineReason::NoBot | DeclineReason::OnlyBot
    )
}

/// The terms of one game or challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The variant as the API names it.
    pub variant: VariantRef,
    /// Clock: initial time and increment, seconds (none: correspondence or unlimited).
    pub clock: Option<(u64, u64)>,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// Rated.
    pub rated: bool,
    /// When, ms since the epoch.
    pub at: u64,
}

impl Seen {
    /// Lichess's estimate of a clock's length (limit + 40 x increment), seconds; correspondence
    /// and unlimited games are longer than any clock.
    fn estimate(&self) -> u64 {
        match self.clock {
            Some((limit, inc)) => limit + 40 * inc,
            None => u64::MAX,
        }
    }

    /// The time control in words: `5+3`, `3 days`, `unlimited`.
    fn time_control(&self) -> String {
        match (self.clock, self.days) {
            (Some((limit, inc)), _) => clock_show(limit, inc),
            (None, Some(1)) => "1 day".to_string(),
            (None, Some(d)) => format!("{d} days"),
            (None, None) => "unlimited".to_string(),
        }
    }

    fn speed(&self) -> &'static str {
        match self.clock {
            Some((limit, inc)) => speed_of(limit, inc),
            None => "correspondence",
        }
    }
}

/// What a decline was about.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Declined {
    /// The variant (`variant`, `standard`).
    Variant(VariantRef),
    /// The time control (`timeControl`, `tooFast`, `tooSlow`).
    TimeControl(Seen),
    /// Rated (`casual`: the bot wants casual games) or casual (`rated`).
    Rated(bool),
}

/// One decline kept: why, what, when.
#[derive(Clone, Debug)]
struct Decline {
    reason: DeclineReason,
    what: Declined,
    at: u64,
}

/// What an account is seen to play. Empty: never seen.
#[derive(Clone, Debug, Default)]
pub struct Plays {
    /// Each variant played (by key), with when it was last played.
    variants: BTreeMap<String, (VariantRef, u64)>,
    /// The shortest and the longest clock played.
    clock_range: Option<(Seen, Seen)>,
    /// Each time control played (as written), with when it was last played.
    time_controls: BTreeMap<String, u64>,
    /// Speeds played.
    speeds: std::collections::BTreeSet<&'static str>,
    /// Days per move of the correspondence games played.
    days: std::collections::BTreeSet<u32>,
    unlimited: bool,
    /// When a rated / a casual game was last played.
    rated: Option<u64>,
    casual: Option<u64>,
    /// Declines about the terms, one per reason and thing declined (the latest).
    declines: Vec<Decline>,
}

impl Plays {
    /// Whether nothing was seen.
    pub fn is_empty(&self) -> bool {
        self.variants.is_empty() && self.declines.is_empty()
    }

    /// A game the account played (a challenge it accepted, or made and had accepted).
    pub fn played(&mut self, s: &Seen) {
        let v = self
            .variants
            .entry(s.variant.key.clone())
            .or_insert_with(|| (s.variant.clone(), s.at));
        v.1 = v.1.max(s.at);
        let tc = self.time_controls.entry(s.time_control()).or_insert(s.at);
        *tc = (*tc).max(s.at);
        self.speeds.insert(s.speed());
        match (s.clock, s.days) {
            (Some(_), _) => {
                let range = self.clock_range.get_or_insert_with(|| (s.clone(), s.clone()));
                if s.estimate() < range.0.estimate() {
                    range.0 = s.clone();
                }
                if s.estimate() > range.1.estimate() {
                    range.1 = s.clone();
                }
            }
            (None, Some(d)) => {
                self.days.insert(d);
            }
            (None, None) => self.unlimited = true,
        }
        let when = if s.rated { &mut self.rated } else { &mut self.casual };
        *when = Some(when.map_or(s.at, |w| w.max(s.at)));
    }

    /// A challenge with the terms `s` the account declined for `reason`; reasons that are not
    /// about the terms (`generic`, `later`, `noBot`, `onlyBot`) say nothing of them and are
    /// not kept.
    pub fn declined(&mut self, reason: DeclineReason, s: &Seen) {
        if !about_terms(reason) {
            return;
        }
        let what = match reason {
            DeclineReason::Variant | DeclineReason::Standard => Declined::Variant(s.variant.clone()),
            DeclineReason::TimeControl | DeclineReason::TooFast | DeclineReason::TooSlow => {
                Declined::TimeControl(s.clone())
            }
            _ => Declined::Rated(s.rated),
        };
        let same = |d: &Decline| {
            d.reason == reason
                && match (&d.what, &what) {
                    (Declined::Variant(a), Declined::Variant(b)) => a.key == b.key,
                    (Declined::TimeControl(a), Declined::TimeControl(b)) => a.time_control() == b.time_control(),
                    (a, b) => a == b,
                }
        };
        self.declines.retain(|d| !same(d));
        self.declines.push(Decline { reason, what, at: s.at });
        self.declines.sort_by_key(|d| d.at);
    }

    /// The declines not contradicted by a game played after them.
    fn standing_declines(&self) -> impl Iterator<Item = &Decline> {
        self.declines.iter().filter(|d| match &d.what {
            Declined::Variant(v) => self.variants.get(&v.key).is_none_or(|(_, at)| *at < d.at),
            Declined::TimeControl(s) => self.time_controls.get(&s.time_control()).is_none_or(|at| *at < d.at),
            Declined::Rated(rated) => {
                let last = if *rated { self.rated } else { self.casual };
                last.is_none_or(|at| at < d.at)
            }
        })
    }

    /// The summary in words: `plays Persian Princess, Celtic Citadel · 1+0 to 15+10 · rated
    /// and casual · declined Citadel 9x9`. Empty when nothing was seen.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.variants.is_empty() {
            let mut names: Vec<&(VariantRef, u64)> = self.variants.values().collect();
            // The most recently played first.
            names.sort_by_key(|(_, at)| std::cmp::Reverse(*at));
            parts.push(format!(
                "plays {}",
                names
                    .iter()
                    .map(|(v, _)| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            let mut times = Vec::new();
            if let Some((short, long)) = &self.clock_range {
                let (a, b) = (short.time_control(), long.time_control());
                times.push(if a == b { a } else { format!("{a} to {b}") });
            }
            match (self.days.first(), self.days.last()) {
                (Some(1), Some(1)) => times.push("1 day".to_string()),
                (Some(a), Some(b)) if a == b => times.push(format!("{a} days")),
                (Some(a), Some(b)) => times.push(format!("{a} to {b} days")),
                _ => {}
            }
            if self.unlimited {
                times.push("unlimited".to_string());
            }
            parts.push(times.join(", "));
            parts.push(
                match (self.rated.is_some(), self.casual.is_some()) {
                    (true, true) => "rated and casual",
                    (true, false) => "rated",
                    _ => "casual",
                }
                .to_string(),
            );
        }
        let declined: Vec<String> = self.standing_declines().map(Decline::text).collect();
        if !declined.is_empty() {
            parts.push(format!("declined {}", declined.join(", ")));
        }
        parts.join(" · ")
    }

    /// The JSON of `GET /api/arena/lobby`'s `bots[].plays`: null when nothing was seen.
    pub fn json(&self) -> Value {
        if self.is_empty() {
            return Value::Null;
        }
        let mut variants: Vec<&(VariantRef, u64)> = self.variants.values().collect();
        variants.sort_by_key(|(_, at)| std::cmp::Reverse(*at));
        let clock = |s: &Seen| {
            s.clock
                .map(|(limit, increment)| json!({ "limit": limit, "increment": increment, "show": s.time_control() }))
        };
        let declined: Vec<Value> = self
            .standing_declines()
            .map(|d| {
                let mut o = json!({ "reason": d.reason.key(), "text": d.text() });
                match &d.what {
                    Declined::Variant(v) => o["variant"] = json!({ "key": v.key, "name": v.name }),
                    Declined::TimeControl(s) => {
                        o["clock"] = json!(clock(s));
                        o["days"] = json!(s.days);
                        o["timeControl"] = json!(s.time_control());
                    }
                    Declined::Rated(rated) => o["rated"] = json!(rated),
                }
                o
            })
            .collect();
        json!({
            "variants": variants.iter().map(|(v, _)| json!({ "key": v.key, "name": v.name })).collect::<Vec<_>>(),
            "speeds": self.speeds,
            "clock": self.clock_range.as_ref().map(|(a, b)| json!({ "min": clock(a), "max": clock(b) })),
            "days": self.days,
            "unlimited": self.unlimited,
            "rated": self.rated.is_some(),
            "casual": self.casual.is_some(),
            "declined": declined,
            "summary": self.summary(),
        })
    }
}

impl Decline {
    /// What was declined, in words: `Citadel 9x9`, `1+0 (too fast)`, `rated`.
    fn text(&self) -> String {
        match (&self.what, self.reason) {
            (Declined::Variant(v), _) => v.name.clone(),
            (Declined::TimeControl(s), DeclineReason::TooFast) => format!("{} (too fast)", s.time_control()),
            (Declined::TimeControl(s), DeclineReason::TooSlow) => format!("{} (too slow)", s.time_control()),
            (Declined::TimeControl(s), _) => s.time_control(),
            (Declined::Rated(true), _) => "rated".to_string(),
            (Declined::Rated(false), _) => "casual".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(key: &str, name: &str) -> VariantRef {
        VariantRef {
            key: key.into(),
            name: name.into(),
            short: None,
        }
    }

    fn seen(variant: VariantRef, clock: Option<(u64, u64)>, rated: bool, at: u64) -> Seen {
        Seen {
            variant,
            clock,
            days: None,
            rated,
            at,
        }
    }

    #[test]
    fn nothing_seen_is_null() {
        let p = Plays::default();
        assert!(p.is_empty());
        assert_eq!(p.json(), Value::Null);
        assert_eq!(p.summary(), "");
        // A decline that is not about the terms says nothing.
        let mut p = Plays::default();
        p.declined(
            DeclineReason::Later,
            &seen(v("parsi", "Parsi"), Some((60, 0)), false, 1),
        );
        assert!(p.is_empty());
    }

    #[test]
    fn games_and_declines_make_the_summary() {
        let mut p = Plays::default();
        let pp = v("persian-princess", "Persian Princess");
        let cc = v("celtic-citadel", "Celtic Citadel");
        p.played(&seen(cc.clone(), Some((60, 0)), false, 1));
        p.played(&seen(pp.clone(), Some((900, 10)), true, 2));
        p.played(&seen(pp.clone(), Some((300, 3)), true, 3));
        p.declined(
            DeclineReason::Variant,
            &seen(v("citadel-9", "Citadel 9x9"), Some((300, 3)), false, 4),
        );
        p.declined(DeclineReason::TooFast, &seen(pp.clone(), Some((15, 0)), false, 5));
        p.declined(DeclineReason::Casual, &seen(pp.clone(), Some((300, 3)), true, 6));
        assert_eq!(
            p.summary(),
            "plays Persian Princess, Celtic Citadel · 1+0 to 15+10 · rated and casual · declined Citadel 9x9, ¼+0 (too fast), rated"
        );
        let j = p.json();
        assert_eq!(j["variants"][0]["key"], "persian-princess");
        assert_eq!(j["clock"]["min"]["show"], "1+0");
        assert_eq!(j["clock"]["max"]["limit"], 900);
        assert_eq!(j["speeds"], json!(["blitz", "bullet", "rapid"]));
        assert_eq!(j["declined"][0]["reason"], "variant");
        assert_eq!(j["declined"][0]["variant"]["key"], "citadel-9");
        assert_eq!(j["declined"][1]["reason"], "tooFast");
        assert_eq!(j["declined"][1]["clock"]["limit"], 15);
        // `casual` (a rated challenge declined) stands: the last rated game came before it.
        assert_eq!(j["declined"].as_array().map(Vec::len), Some(3));
        assert_eq!(j["declined"][2]["rated"], true);
        assert_eq!(j["declined"][2]["text"], "rated");
    }

    #[test]
    fn a_later_game_lifts_a_decline_and_repeats_are_one() {
        let mut p = Plays::default();
        let c9 = v("citadel-9", "Citadel 9x9");
        p.declined(DeclineReason::Variant, &seen(c9.clone(), Some((60, 0)), false, 1));
        p.declined(DeclineReason::Variant, &seen(c9.clone(), Some((180, 2)), false, 2));
        assert_eq!(p.summary(), "declined Citadel 9x9");
        assert_eq!(p.json()["variants"], json!([]));
        p.played(&seen(c9.clone(), Some((180, 2)), false, 3));
        assert_eq!(p.summary(), "plays Citadel 9x9 · 3+2 · casual");
        // Declined again afterwards: said again.
        p.declined(DeclineReason::Standard, &seen(c9, None, false, 4));
        assert!(p.summary().ends_with("· declined Citadel 9x9"), "{}", p.summary());
    }

    #[test]
    fn correspondence_and_unlimited_are_named() {
        let mut p = Plays::default();
        let pp = v("persian-princess", "Persian Princess");
        p.played(&Seen {
            days: Some(3),
            ..seen(pp.clone(), None, false, 1)
        });
        p.played(&seen(pp.clone(), None, false, 2));
        assert_eq!(p.summary(), "plays Persian Princess · 3 days, unlimited · casual");
        p.declined(DeclineReason::TimeControl, &seen(pp, Some((30, 0)), false, 3));
        assert!(p.summary().ends_with("declined ½+0"), "{}", p.summary());
    }
}
