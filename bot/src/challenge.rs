//! Which challenges to accept: the configured filters, in lichess-bot's order; the first failing
//! filter gives the decline reason.

use crate::{
    api::types::{Challenge, Compat, DeclineReason, TimeControl},
    config::{Config, Mode, Speed},
    variants,
};

/// Games the bot plays now: real-time ones (with a clock) and correspondence ones (days per
/// move, or unlimited), limited apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActiveGames {
    /// Games with a clock.
    pub real_time: usize,
    /// Correspondence and unlimited games.
    pub correspondence: usize,
}

/// Accept (`Ok`) or decline with a reason.
pub fn decide(
    ch: &Challenge,
    compat: Option<Compat>,
    config: &Config,
    active: ActiveGames,
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
    let correspondence = !matches!(ch.time_control, TimeControl::Clock { .. });
    let full = if correspondence {
        active.correspondence >= c.max_correspondence_games
    } else {
        active.real_time >= c.max_games
    };
    if full {
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

    fn busy(real_time: usize, correspondence: usize) -> ActiveGames {
        ActiveGames {
            real_time,
            correspondence,
        }
    }

    #[test]
    fn correspondence_games_are_limited_apart() {
        let mut cfg = Config::default();
        cfg.challenge.variants = vec!["persian-princess".into()];
        cfg.challenge.speeds.push(Speed::Correspondence);
        cfg.challenge.max_games = 1;
        cfg.challenge.max_correspondence_games = 2;
        let blitz = challenge("persian-princess", 180, 2, false, true);
        let mut days = challenge("persian-princess", 0, 0, false, true);
        days.time_control = TimeControl::Correspondence { days_per_turn: 3 };
        days.speed = "correspondence".into();
        // A correspondence game does not block a real-time challenge, nor the other way round.
        assert_eq!(decide(&blitz, None, &cfg, busy(0, 2)), Ok(()));
        assert_eq!(decide(&days, None, &cfg, busy(1, 1)), Ok(()));
        assert_eq!(decide(&blitz, None, &cfg, busy(1, 0)), Err(DeclineReason::Later));
        assert_eq!(decide(&days, None, &cfg, busy(0, 2)), Err(DeclineReason::Later));
    }

    #[test]
    fn filters_in_order() {
        let mut cfg = Config::default();
        cfg.challenge.variants = vec!["persian-princess".into()];
        cfg.challenge.modes = vec![Mode::Casual];
        cfg.challenge.min_base_s = 60;
        let ok = challenge("persian-princess", 180, 2, false, true);
        assert_eq!(decide(&ok, None, &cfg, ActiveGames::default()), Ok(()));
        assert_eq!(decide(&ok, None, &cfg, busy(1, 0)), Err(DeclineReason::Later));
        assert_eq!(
            decide(
                &challenge("chess960", 180, 2, false, true),
                None,
                &cfg,
                ActiveGames::default()
            ),
            Err(DeclineReason::Variant)
        );
        assert_eq!(
            decide(
                &challenge("persian-princess", 30, 0, false, true),
                None,
                &cfg,
                ActiveGames::default()
            ),
            Err(DeclineReason::TooFast)
        );
        assert_eq!(
            decide(
                &challenge("persian-princess", 180, 2, true, true),
                None,
                &cfg,
                ActiveGames::default()
            ),
            Err(DeclineReason::Casual)
        );
        cfg.challenge.block_list = vec!["someone".into(), "x".into()];
        assert_eq!(
            decide(&ok, None, &cfg, ActiveGames::default()),
            Err(DeclineReason::Generic),
            "blocked"
        );
        cfg.challenge.block_list.clear();
        cfg.challenge.accept_bot = false;
        assert_eq!(
            decide(&ok, None, &cfg, ActiveGames::default()),
            Err(DeclineReason::NoBot)
        );
        cfg.challenge.accept_bot = true;
        cfg.challenge.only_bot = true;
        assert_eq!(
            decide(
                &challenge("persian-princess", 180, 2, false, false),
                None,
                &cfg,
                ActiveGames::default()
            ),
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
                ActiveGames::default()
            ),
            Err(DeclineReason::Generic)
        );
    }
}
