//! Which challenges to accept: the configured filters, in lichess-bot's order; the first failing
//! filter gives the decline reason.

use crate::{
    api::types::{Challenge, Compat, DeclineReason, TimeControl},
    config::{Config, Mode, Speed},
    variants,
};

/// Accept (`Ok`) or decline with a reason.
pub fn decide(
    ch: &Challenge,
    compat: Option<Compat>,
    config: &Config,
    active_games: usize,
) -> Result<(), DeclineReason> {
    let c = &config.challenge;
    if !c.accept || compat.is_some_and(|k| !k.bot) {
        return Err(DeclineReason::Generic);
    }
    let blocked = |name: &str| c.block_list.iter().any(|b| b.eq_ignore_ascii_case(name));
    if blocked(&ch.challenger.id) || blocked(&ch.challenger.name) {
        return Err(DeclineReason::Generic);
    }
    let is_bot = ch.challenger.title.as_deref() == Some("BOT");
    if is_bot && !c.accept_bot {
        return Err(DeclineReason::NoBot);
    }
    if !is_bot && c.only_bot {
        return Err(DeclineReason::OnlyBot);
    }
    match ch.time_control {
        TimeControl::Clock { limit, increment, .. } => {
            if limit < c.min_base_s || increment < c.min_increment_s {
                return Err(DeclineReason::TooFast);
            }
            if limit > c.max_base_s || increment > c.max_increment_s {
                return Err(DeclineReason::TooSlow);
            }
            if !c.speeds.iter().any(|s| s.key() == ch.speed) {
                return Err(DeclineReason::TimeControl);
            }
        }
        TimeControl::Correspondence { .. } | TimeControl::Unlimited => {
            if !c.speeds.contains(&Speed::Correspondence) {
                return Err(DeclineReason::TimeControl);
            }
        }
    }
    let key = &ch.variant.key;
    if !c.variants.iter().any(|v| v == key) || variants::engine_variant(key, &config.variants).is_none() {
        // Lichess's decline reason "standard": we play only standard chess, please send that.
        let only_standard = c.variants.iter().all(|v| v == variants::LICHESS_STANDARD);
        return Err(if only_standard && key != variants::LICHESS_STANDARD {
            DeclineReason::Standard
        } else {
            DeclineReason::Variant
        });
    }
    if !c.modes.contains(&Mode::of(ch.rated)) {
        return Err(if ch.rated {
            DeclineReason::Casual
        } else {
            DeclineReason::Rated
        });
    }
    if active_games >= c.max_games {
        return Err(DeclineReason::Later);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{ChallengeUser, Perf, VariantRef};

    fn challenge(variant: &str, limit: u64, inc: u64, rated: bool, bot: bool) -> Challenge {
        Challenge {
            id: "c".into(),
            url: String::new(),
            status: "created".into(),
            challenger: ChallengeUser {
                id: "x".into(),
                name: "X".into(),
                rating: None,
                title: bot.then(|| "BOT".into()),
                online: None,
            },
            dest_user: None,
            variant: VariantRef {
                key: variant.into(),
                name: String::new(),
                short: None,
            },
            rated,
            speed: crate::api::types::speed_of(limit, inc).into(),
            time_control: TimeControl::Clock {
                limit,
                increment: inc,
                show: String::new(),
            },
            color: "random".into(),
            final_color: None,
            perf: Perf::default(),
            direction: None,
            initial_fen: None,
            decline_reason: None,
            decline_reason_key: None,
        }
    }

    #[test]
    fn filters_in_order() {
        let mut cfg = Config::default();
        cfg.challenge.variants = vec!["persian-princess".into()];
        cfg.challenge.modes = vec![Mode::Casual];
        cfg.challenge.min_base_s = 60;
        let ok = challenge("persian-princess", 180, 2, false, true);
        assert_eq!(decide(&ok, None, &cfg, 0), Ok(()));
        assert_eq!(decide(&ok, None, &cfg, 1), Err(DeclineReason::Later));
        assert_eq!(
            decide(&challenge("chess960", 180, 2, false, true), None, &cfg, 0),
            Err(DeclineReason::Variant)
        );
        assert_eq!(
            decide(&challenge("persian-princess", 30, 0, false, true), None, &cfg, 0),
            Err(DeclineReason::TooFast)
        );
        assert_eq!(
            decide(&challenge("persian-princess", 180, 2, true, true), None, &cfg, 0),
            Err(DeclineReason::Casual)
        );
        cfg.challenge.block_list = vec!["someone".into(), "x".into()];
        assert_eq!(decide(&ok, None, &cfg, 0), Err(DeclineReason::Generic), "blocked");
        cfg.challenge.block_list.clear();
        cfg.challenge.accept_bot = false;
        assert_eq!(decide(&ok, None, &cfg, 0), Err(DeclineReason::NoBot));
        cfg.challenge.accept_bot = true;
        cfg.challenge.only_bot = true;
        assert_eq!(
            decide(&challenge("persian-princess", 180, 2, false, false), None, &cfg, 0),
            Err(DeclineReason::OnlyBot)
        );
        assert_eq!(
            decide(
                &ok,
                Some(Compat {
                    bot: false,
                    board: true
                }),
                &cfg,
                0
            ),
            Err(DeclineReason::Generic)
        );
    }
}
