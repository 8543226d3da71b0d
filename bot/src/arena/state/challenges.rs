//! Challenges: direct challenges (create, accept, decline, cancel, expiry notice) and open
//! challenges that any two players join.

use std::time::Instant;

use engine::rules::Position;

use super::{now_ms, Inner, Refusal};
use crate::{
    api::types::{
        speed_of, Challenge, ChallengeUser, Compat, DeclineReason, Event, GameClock, Perf, TimeControl, VariantRef,
    },
    arena::{game::ArenaGame, ArenaLog},
    variants,
};

pub(super) struct PendingChallenge {
    pub(super) json: Challenge,
    start: Position,
    pub(super) created: Instant,
}

/// An open challenge: any two players join it (`POST /api/challenge/open`).
pub(super) struct OpenChallenge {
    start: Position,
    variant_key: String,
    initial_fen: Option<String>,
    rated: bool,
    clock: Option<GameClock>,
    creator: Option<String>,
    /// Only these users may join (white, black), when given.
    users: Option<[String; 2]>,
    /// Who joined as white and as black.
    seats: [Option<String>; 2],
}

/// What a challenge asks for (parsed from the request).
pub struct ChallengeParams {
    /// Variant key.
    pub variant: String,
    /// Clock seconds.
    pub clock: Option<(u64, u64)>,
    /// Rated.
    pub rated: bool,
    /// white / black / random.
    pub color: String,
    /// Start FEN.
    pub fen: Option<String>,
}

impl Inner {
    fn challenge_user(&self, id: &str) -> ChallengeUser {
        let u = self.users.get(id);
        ChallengeUser {
            id: id.to_string(),
            name: u.map_or_else(|| id.to_string(), |u| u.username.clone()),
            rating: u.map(|u| u.rating),
            title: u.filter(|u| u.bot).map(|_| "BOT".to_string()),
            online: Some(self.event_subs.contains_key(id)),
        }
    }

    /// `POST /api/challenge/{username}`.
    pub fn create_challenge(&mut self, from: &str, to: &str, p: ChallengeParams) -> Result<Challenge, Refusal> {
        let dest = to.to_lowercase();
        if !self.users.contains_key(&dest) {
            return Err(Refusal::bad(format!("No such user: {to}")));
        }
        if dest == from {
            return Err(Refusal::bad("You cannot challenge yourself"));
        }
        let (variant, start, time_control, speed) = terms(&p)?;
        let id = self.new_id();
        let json = Challenge {
            id: id.clone(),
            url: format!("http://{}/{}", self.config.public_host(), id),
            status: "created".to_string(),
            challenger: self.challenge_user(from),
            dest_user: Some(self.challenge_user(&dest)),
            variant: VariantRef {
                key: p.variant.clone(),
                name: variant.spec().name.to_string(),
                short: None,
            },
            rated: p.rated,
            speed: speed.to_string(),
            time_control,
            color: p.color.clone(),
            final_color: None,
            perf: Perf {
                icon: Some("\u{265f}".to_string()),
                name: speed.to_string(),
            },
            direction: None,
            initial_fen: p.fen.clone(),
            decline_reason: None,
            decline_reason_key: None,
        };
        self.challenges.insert(
            id,
            PendingChallenge {
                json: json.clone(),
                start,
                created: Instant::now(),
            },
        );
        let compat = Some(Compat { bot: true, board: true });
        let mut incoming = json.clone();
        incoming.direction = Some("in".into());
        self.send_event(
            &dest,
            &Event::Challenge {
                challenge: incoming,
                compat,
            },
        );
        let mut outgoing = json.clone();
        outgoing.direction = Some("out".into());
        self.send_event(
            from,
            &Event::Challenge {
                challenge: outgoing.clone(),
                compat,
            },
        );
        Ok(outgoing)
    }

    fn take_challenge_for(&mut self, id: &str, user: &str, as_dest: bool) -> Result<PendingChallenge, Refusal> {
        let ok = self.challenges.get(id).is_some_and(|c| {
            if as_dest {
                c.json.dest_user.as_ref().is_some_and(|d| d.id == user)
            } else {
                c.json.challenger.id == user || c.json.dest_user.as_ref().is_some_and(|d| d.id == user)
            }
        });
        if !ok {
            return Err(Refusal::not_found("Challenge not found"));
        }
        self.challenges
            .remove(id)
            .ok_or_else(|| Refusal::not_found("Challenge not found"))
    }

    /// `POST /api/challenge/open`: a challenge any two players can join (by accepting it).
    pub fn create_open_challenge(
        &mut self,
        creator: Option<&str>,
        p: ChallengeParams,
        users: Option<[String; 2]>,
    ) -> Result<serde_json::Value, Refusal> {
        let (variant, start, time_control, speed) = terms(&p)?;
        if let Some(users) = &users {
            for u in users {
                if !self.users.contains_key(u) {
                    return Err(Refusal::bad(format!("No such user: {u}")));
                }
            }
        }
        let id = self.new_id();
        let url = format!("http://{}/{}", self.config.public_host(), id);
        let clock = match time_control {
            TimeControl::Clock { limit, increment, .. } => Some(GameClock {
                initial: limit * 1000,
                increment: increment * 1000,
            }),
            _ => None,
        };
        let mut json = serde_json::json!({
            "id": id,
            "url": url,
            "status": "created",
            "challenger": null,
            "destUser": null,
            "variant": VariantRef { key: p.variant.clone(), name: variant.spec().name.to_string(), short: None },
            "rated": p.rated,
            "speed": speed,
            "timeControl": time_control,
            "color": "random",
            "finalColor": "white",
            "perf": { "icon": "\u{265f}", "name": speed },
            "urlWhite": format!("{url}?color=white"),
            "urlBlack": format!("{url}?color=black"),
        });
        if let Some(fen) = &p.fen {
            json["initialFen"] = fen.clone().into();
        }
        if let Some(users) = &users {
            json["open"] = serde_json::json!({ "userIds": users });
        }
        self.open_challenges.insert(
            id,
            OpenChallenge {
                start,
                variant_key: p.variant,
                initial_fen: p.fen,
                rated: p.rated,
                clock,
                creator: creator.map(str::to_string),
                users,
                seats: [None, None],
            },
        );
        Ok(json)
    }

    /// Joins an open challenge (`accept`, optionally `?color=`); the second player starts it.
    fn join_open(&mut self, id: &str, user: &str, color: Option<&str>) -> Result<(), Refusal> {
        let o = self
            .open_challenges
            .get_mut(id)
            .ok_or_else(|| Refusal::not_found("Challenge not found"))?;
        let allowed = match &o.users {
            Some(users) => users.iter().position(|u| u == user).map(|i| vec![i]),
            None => Some(vec![0, 1]),
        }
        .ok_or_else(|| Refusal::bad("This challenge is for other players"))?;
        let wanted: Vec<usize> = match color {
            Some("white") => vec![0],
            Some("black") => vec![1],
            None | Some("random") => vec![0, 1],
            Some(other) => return Err(Refusal::bad(format!("Invalid color: {other}"))),
        };
        if o.seats.iter().flatten().any(|u| u == user) {
            return Err(Refusal::bad("You already joined this challenge"));
        }
        let seat = wanted
            .into_iter()
            .find(|i| allowed.contains(i) && o.seats[*i].is_none())
            .ok_or_else(|| Refusal::bad("That color is taken"))?;
        o.seats[seat] = Some(user.to_string());
        if let [Some(white), Some(black)] = o.seats.clone() {
            let Some(o) = self.open_challenges.remove(id) else {
                return Ok(());
            };
            self.start_game(ArenaGame::new(
                id.to_string(),
                o.variant_key.clone(),
                o.start,
                o.initial_fen,
                white,
                black,
                o.rated,
                o.clock,
                now_ms(),
            ));
        }
        Ok(())
    }

    /// `POST /api/challenge/{id}/accept`: starts the game (same id). `color` is for open
    /// challenges only.
    pub fn accept_challenge(&mut self, id: &str, user: &str, color: Option<&str>) -> Result<(), Refusal> {
        if self.open_challenges.contains_key(id) {
            return self.join_open(id, user, color);
        }
        let c = self.take_challenge_for(id, user, true)?;
        let challenger = c.json.challenger.id.clone();
        let challenger_white = match c.json.color.as_str() {
            "white" => true,
            "black" => false,
            _ => (self.next_id >> 7) & 1 == 0,
        };
        let (white, black) = if challenger_white {
            (challenger.clone(), user.to_string())
        } else {
            (user.to_string(), challenger.clone())
        };
        let clock = match c.json.time_control {
            TimeControl::Clock { limit, increment, .. } => Some(GameClock {
                initial: limit * 1000,
                increment: increment * 1000,
            }),
            _ => None,
        };
        self.start_game(ArenaGame::new(
            id.to_string(),
            c.json.variant.key.clone(),
            c.start,
            c.json.initial_fen.clone(),
            white,
            black,
            c.json.rated,
            clock,
            now_ms(),
        ));
        Ok(())
    }

    /// `POST /api/challenge/{id}/decline`.
    pub fn decline_challenge(&mut self, id: &str, user: &str, reason: DeclineReason) -> Result<(), Refusal> {
        let c = self.take_challenge_for(id, user, true)?;
        let mut json = c.json;
        json.status = "declined".into();
        json.decline_reason = Some(reason.sentence().to_string());
        json.decline_reason_key = Some(reason.key().to_lowercase());
        let challenger = json.challenger.id.clone();
        let _ = self.log.send(ArenaLog::ChallengeDeclined {
            challenge: id.to_string(),
            reason: reason.key().to_string(),
        });
        self.send_event(&challenger, &Event::ChallengeDeclined { challenge: json });
        Ok(())
    }

    /// `POST /api/challenge/{id}/cancel`.
    pub fn cancel_challenge(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        if self
            .games
            .get(id)
            .is_some_and(|g| g.side_of(user).is_some() && g.abortable())
        {
            return self.abort(id, user);
        }
        if let Some(o) = self.open_challenges.get(id) {
            if o.creator.as_deref() != Some(user) {
                return Err(Refusal::not_found("Challenge not found"));
            }
            self.open_challenges.remove(id);
            return Ok(());
        }
        let c = self.take_challenge_for(id, user, false)?;
        self.notify_canceled(c.json);
        Ok(())
    }

    pub(super) fn notify_canceled(&mut self, mut json: Challenge) {
        json.status = "canceled".into();
        let users = [
            Some(json.challenger.id.clone()),
            json.dest_user.as_ref().map(|d| d.id.clone()),
        ];
        for u in users.into_iter().flatten() {
            self.send_event(
                &u,
                &Event::ChallengeCanceled {
                    challenge: json.clone(),
                },
            );
        }
    }
}

/// Checks the terms of a challenge: (variant, start position, time control, speed).
fn terms(p: &ChallengeParams) -> Result<(engine::rules::Variant, Position, TimeControl, &'static str), Refusal> {
    let none = Default::default();
    let variant = variants::engine_variant(&p.variant, &none)
        .ok_or_else(|| Refusal::bad(format!("Unsupported variant: {}", p.variant)))?;
    let start = match &p.fen {
        Some(fen) => Position::from_fen(variant, fen).map_err(|e| Refusal::bad(format!("Invalid FEN: {e}")))?,
        None => Position::startpos(variant),
    };
    if !matches!(p.color.as_str(), "white" | "black" | "random") {
        return Err(Refusal::bad(format!("Invalid color: {}", p.color)));
    }
    let (time_control, speed) = match p.clock {
        Some((limit, inc)) => {
            if limit == 0 && inc == 0 {
                return Err(Refusal::bad("Invalid clock"));
            }
            (
                TimeControl::Clock {
                    limit,
                    increment: inc,
                    show: format!("{}+{}", limit / 60, inc),
                },
                speed_of(limit, inc),
            )
        }
        None => (TimeControl::Unlimited, "correspondence"),
    };
    Ok((variant, start, time_control, speed))
}
