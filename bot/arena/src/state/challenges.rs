//! Challenges: direct challenges (create, accept, decline, cancel, expiry notice) and open
//! challenges that any two players join.

use std::time::Instant;

use engine::rules::Position;
use tokio::sync::mpsc::UnboundedSender;

use super::{now_ms, Inner, Refusal};
use lichess_api::{
    types::{
        speed_of, Challenge, ChallengeUser, Compat, DeclineReason, Event, GameClock, Perf, TimeControl, VariantRef,
    },
    variants::{self, perf_key, perf_name},
};

use crate::{
    game::GameSetup,
    plays::{about_terms, clock_show, Plays, Seen},
    store::{ChallengeRow, DeclineRow, Store},
    ArenaLog,
};

/// The perf of a challenge (`{"icon", "name"}`), named as Lichess names it.
fn challenge_perf(variant: &VariantRef, speed: &str) -> Perf {
    Perf {
        icon: Some("\u{265f}".to_string()),
        name: perf_name(variant, speed),
    }
}

/// The setup of a game started from accepted terms.
pub(super) fn setup(
    id: &str,
    terms: Terms,
    white: String,
    black: String,
    rated: bool,
    source: &'static str,
) -> GameSetup {
    GameSetup {
        id: id.to_string(),
        variant: terms.variant,
        start: terms.start,
        initial_fen: terms.initial_fen,
        white,
        black,
        rated,
        clock: terms.clock,
        days: terms.days,
        source,
        created_at: now_ms(),
    }
}

#[derive(Clone)]
pub(super) struct PendingChallenge {
    pub(super) json: Challenge,
    terms: Terms,
    pub(super) created: Instant,
    /// A `keepAliveStream` challenge: kept until this connection closes (no expiry), told
    /// `{"done": ...}` when it is accepted, declined or canceled.
    pub(super) keep_alive: Option<(u64, UnboundedSender<String>)>,
}

/// An open challenge: any two players join it (`POST /api/challenge/open`).
#[derive(Clone)]
pub(super) struct OpenChallenge {
    terms: Terms,
    rated: bool,
    creator: Option<String>,
    /// Only these users may join (white, black), when given.
    users: Option<[String; 2]>,
    /// Who joined as white and as black.
    seats: [Option<String>; 2],
}

impl OpenChallenge {
    /// Whether `user` created it, joined it or is one of the two it is for.
    pub(super) fn involves(&self, user: &str) -> bool {
        self.creator.as_deref() == Some(user)
            || self.seats.iter().flatten().any(|u| u == user)
            || self.users.as_ref().is_some_and(|us| us.iter().any(|u| u == user))
    }
}

/// What a challenge asks for (parsed from the request).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ChallengeParams {
    /// Variant key.
    pub variant: String,
    /// Clock seconds.
    pub clock: Option<(u64, u64)>,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// Rated.
    pub rated: bool,
    /// white / black / random.
    pub color: String,
    /// Start FEN.
    pub fen: Option<String>,
}

impl Inner {
    fn challenge_user(&self, id: &str, perf: &str) -> ChallengeUser {
        let u = self.users.get(id);
        let online = self.event_subs.contains_key(id);
        ChallengeUser {
            id: id.to_string(),
            name: u.map_or_else(|| id.to_string(), |u| u.username.clone()),
            rating: self.rating_in(id, perf),
            title: u.filter(|u| u.bot).map(|_| "BOT".to_string()),
            online: Some(online),
        }
    }

    /// A coin for random colours.
    pub(super) fn coin(&mut self) -> bool {
        self.next_id = self
            .next_id
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.next_id >> 33) & 1 == 0
    }

    /// `POST /api/challenge/{username}`. The challenger's colour is decided now (`finalColor`),
    /// as Lichess does. `keep_alive`: the connection of a `keepAliveStream` request.
    pub fn create_challenge(
        &mut self,
        from: &str,
        to: &str,
        p: ChallengeParams,
        keep_alive: Option<(u64, UnboundedSender<String>)>,
    ) -> Result<Challenge, Refusal> {
        self.transact(|inner| inner.create_challenge_unit(from, to, p, keep_alive))
    }

    fn create_challenge_unit(
        &mut self,
        from: &str,
        to: &str,
        p: ChallengeParams,
        keep_alive: Option<(u64, UnboundedSender<String>)>,
    ) -> Result<Challenge, Refusal> {
        let dest = to.to_lowercase();
        if self.users.get(&dest).is_none_or(|u| u.disabled) {
            return Err(Refusal::bad(format!("No such user: {to}")));
        }
        if dest == from {
            return Err(Refusal::bad("You cannot challenge yourself"));
        }
        let terms = terms(&p)?;
        let final_color = match p.color.as_str() {
            "white" | "black" => p.color.clone(),
            _ => if self.coin() { "white" } else { "black" }.to_string(),
        };
        let id = self.new_id();
        let perf = perf_key(&terms.variant, terms.speed);
        let json = Challenge {
            id: id.clone(),
            url: format!("http://{}/{}", self.config.public_host(), id),
            status: "created".to_string(),
            challenger: self.challenge_user(from, &perf),
            dest_user: Some(self.challenge_user(&dest, &perf)),
            variant: terms.variant.clone(),
            rated: p.rated,
            speed: terms.speed.to_string(),
            time_control: terms.time_control.clone(),
            color: p.color.clone(),
            final_color: Some(final_color),
            perf: challenge_perf(&terms.variant, terms.speed),
            direction: None,
            initial_fen: terms.initial_fen.clone(),
            decline_reason: None,
            decline_reason_key: None,
        };
        if keep_alive.is_none() {
            // A kept-alive challenge lives as long as its connection: not stored.
            let row = ChallengeRow {
                id: id.clone(),
                challenger: from.to_string(),
                dest: dest.clone(),
                params: serde_json::to_string(&p).unwrap_or_default(),
                json: serde_json::to_string(&json).unwrap_or_default(),
                created_at: now_ms(),
            };
            self.persist("saving a challenge", |s| s.add_challenge(&row));
        }
        self.challenges.insert(
            id,
            PendingChallenge {
                json: json.clone(),
                terms,
                created: Instant::now(),
                keep_alive,
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

    /// `GET /api/challenge`: the user's pending challenges, incoming and outgoing.
    pub fn list_challenges(&self, user: &str) -> serde_json::Value {
        let mut ins: Vec<&PendingChallenge> = Vec::new();
        let mut outs: Vec<&PendingChallenge> = Vec::new();
        for c in self.challenges.values() {
            if c.json.dest_user.as_ref().is_some_and(|d| d.id == user) {
                ins.push(c);
            } else if c.json.challenger.id == user {
                outs.push(c);
            }
        }
        let listed = |list: &mut Vec<&PendingChallenge>, direction: &str| {
            list.sort_by_key(|c| std::cmp::Reverse(c.created));
            list.iter()
                .map(|c| {
                    let mut json = c.json.clone();
                    json.direction = Some(direction.to_string());
                    json
                })
                .collect::<Vec<_>>()
        };
        serde_json::json!({ "in": listed(&mut ins, "in"), "out": listed(&mut outs, "out") })
    }

    /// `GET /api/challenge/{id}/show`.
    pub fn show_challenge(&self, id: &str, user: &str) -> Result<Challenge, Refusal> {
        let c = self
            .challenges
            .get(id)
            .ok_or_else(|| Refusal::not_found("Challenge not found"))?;
        let incoming = c.json.dest_user.as_ref().is_some_and(|d| d.id == user);
        if !incoming && c.json.challenger.id != user {
            return Err(Refusal::not_found("Challenge not found"));
        }
        let mut json = c.json.clone();
        json.direction = Some(if incoming { "in" } else { "out" }.to_string());
        Ok(json)
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
        self.remove_challenge(id)
            .ok_or_else(|| Refusal::not_found("Challenge not found"))
    }

    /// Takes a pending challenge out (and out of the database).
    pub(super) fn remove_challenge(&mut self, id: &str) -> Option<PendingChallenge> {
        let c = self.challenges.remove(id)?;
        let id = id.to_string();
        self.persist("removing a challenge", |s| s.remove_challenge(&id));
        Some(c)
    }

    /// Reads the stored pending challenges; those older than the expiry are dropped.
    pub(super) fn load_challenges(&mut self, store: &Store) -> anyhow::Result<()> {
        let ttl_ms = self.config.challenge_ttl.as_millis() as u64;
        let now = now_ms();
        for row in store.challenges()? {
            let age = now.saturating_sub(row.created_at);
            let rebuilt = serde_json::from_str::<ChallengeParams>(&row.params)
                .ok()
                .zip(serde_json::from_str::<Challenge>(&row.json).ok())
                .and_then(|(p, json)| terms(&p).ok().map(|t| (t, json)));
            match rebuilt {
                Some((terms, json)) if age < ttl_ms => {
                    let created = Instant::now()
                        .checked_sub(std::time::Duration::from_millis(age))
                        .unwrap_or_else(Instant::now);
                    self.challenges.insert(
                        row.id.clone(),
                        PendingChallenge {
                            json,
                            terms,
                            created,
                            keep_alive: None,
                        },
                    );
                }
                _ => {
                    store.remove_challenge(&row.id)?;
                }
            }
        }
        Ok(())
    }

    /// `POST /api/challenge/open`: a challenge any two players can join (by accepting it).
    pub fn create_open_challenge(
        &mut self,
        creator: Option<&str>,
        p: ChallengeParams,
        users: Option<[String; 2]>,
    ) -> Result<serde_json::Value, Refusal> {
        self.transact(|inner| inner.create_open_challenge_unit(creator, p, users))
    }

    fn create_open_challenge_unit(
        &mut self,
        creator: Option<&str>,
        p: ChallengeParams,
        users: Option<[String; 2]>,
    ) -> Result<serde_json::Value, Refusal> {
        let terms = terms(&p)?;
        if let Some(users) = &users {
            for u in users {
                if !self.users.contains_key(u) {
                    return Err(Refusal::bad(format!("No such user: {u}")));
                }
            }
        }
        let id = self.new_id();
        let url = format!("http://{}/{}", self.config.public_host(), id);
        let mut json = serde_json::json!({
            "id": id,
            "url": url,
            "status": "created",
            "challenger": null,
            "destUser": null,
            "variant": terms.variant,
            "rated": p.rated,
            "speed": terms.speed,
            "timeControl": terms.time_control,
            "color": "random",
            "finalColor": "white",
            "perf": challenge_perf(&terms.variant, terms.speed),
            "urlWhite": format!("{url}?color=white"),
            "urlBlack": format!("{url}?color=black"),
        });
        if let Some(fen) = &terms.initial_fen {
            json["initialFen"] = fen.clone().into();
        }
        // Always there (the API lists it as required); `userIds` only when the game is for
        // two given players.
        json["open"] = match &users {
            Some(users) => serde_json::json!({ "userIds": users }),
            None => serde_json::json!({}),
        };
        self.open_challenges.insert(
            id,
            OpenChallenge {
                terms,
                rated: p.rated,
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
            self.start_game(setup(id, o.terms, white, black, o.rated, "friend"));
        }
        Ok(())
    }

    /// `POST /api/challenge/{id}/accept`: starts the game (same id). `color` is for open
    /// challenges only.
    pub fn accept_challenge(&mut self, id: &str, user: &str, color: Option<&str>) -> Result<(), Refusal> {
        self.transact(|inner| inner.accept_challenge_unit(id, user, color))
    }

    fn accept_challenge_unit(&mut self, id: &str, user: &str, color: Option<&str>) -> Result<(), Refusal> {
        if self.open_challenges.contains_key(id) {
            return self.join_open(id, user, color);
        }
        let c = self.take_challenge_for(id, user, true)?;
        let challenger = c.json.challenger.id.clone();
        let (white, black) = if c.json.final_color.as_deref() == Some("white") {
            (challenger, user.to_string())
        } else {
            (user.to_string(), challenger)
        };
        let rated = c.json.rated;
        if let Some((_, tx)) = &c.keep_alive {
            self.emit(tx, r#"{"done":"accepted"}"#.to_string());
        }
        self.start_game(setup(id, c.terms, white, black, rated, "friend"));
        Ok(())
    }

    /// `POST /api/challenge/{id}/decline`.
    pub fn decline_challenge(&mut self, id: &str, user: &str, reason: DeclineReason) -> Result<(), Refusal> {
        self.transact(|inner| inner.decline_challenge_unit(id, user, reason))
    }

    fn decline_challenge_unit(&mut self, id: &str, user: &str, reason: DeclineReason) -> Result<(), Refusal> {
        let c = self.take_challenge_for(id, user, true)?;
        if let Some((_, tx)) = &c.keep_alive {
            self.emit(tx, r#"{"done":"declined"}"#.to_string());
        }
        self.note_decline(id, user, reason, &c);
        let mut json = c.json;
        json.status = "declined".into();
        json.decline_reason = Some(reason.sentence().to_string());
        json.decline_reason_key = Some(reason.key().to_lowercase());
        let challenger = json.challenger.id.clone();
        self.emit_log(ArenaLog::ChallengeDeclined {
            challenge: id.to_string(),
            reason: reason.key().to_string(),
        });
        self.send_event(&challenger, &Event::ChallengeDeclined { challenge: json });
        Ok(())
    }

    /// Keeps a decline about the terms (what the lobby says the account does not play).
    fn note_decline(&mut self, id: &str, user: &str, reason: DeclineReason, c: &PendingChallenge) {
        if !about_terms(reason) {
            return;
        }
        let seen = Seen {
            variant: c.terms.variant.clone(),
            clock: c.terms.clock.map(|k| (k.initial / 1000, k.increment / 1000)),
            days: c.terms.days,
            rated: c.json.rated,
            at: now_ms(),
        };
        self.note_plays(user, |p| p.declined(reason, &seen));
        let row = DeclineRow {
            challenge_id: id.to_string(),
            dest: user.to_string(),
            reason: reason.key().to_string(),
            variant_key: seen.variant.key.clone(),
            variant_name: seen.variant.name.clone(),
            clock: seen.clock,
            days: seen.days,
            rated: seen.rated,
            at: seen.at,
        };
        self.persist("saving a decline", |s| s.add_decline(&row));
    }

    /// Changes what `user` is seen to play.
    pub(super) fn note_plays(&mut self, user: &str, f: impl FnOnce(&mut Plays)) {
        let mut p = self.plays.get(user).cloned().unwrap_or_default();
        f(&mut p);
        self.plays.insert(user.to_string(), p);
    }

    /// What `user` is seen to play (see [`Plays`]); null when never seen.
    pub fn plays_json(&self, user: &str) -> serde_json::Value {
        self.plays.get(user).map_or(serde_json::Value::Null, Plays::json)
    }

    /// Rebuilds what each account is seen to play: the stored games, then the stored declines.
    pub(super) fn load_plays(&mut self, store: &Store) -> anyhow::Result<()> {
        let mut games: Vec<(u64, String)> = self.games.values().map(|g| (g.created_at, g.id.clone())).collect();
        games.sort();
        for (_, id) in games {
            self.note_played(&id);
        }
        for d in store.declines()? {
            let Some(reason) = DeclineReason::ALL.into_iter().find(|r| r.key() == d.reason) else {
                tracing::warn!("a stored decline with an unknown reason is skipped: {}", d.reason);
                continue;
            };
            let seen = Seen {
                variant: VariantRef {
                    key: d.variant_key,
                    name: d.variant_name,
                    short: None,
                },
                clock: d.clock,
                days: d.days,
                rated: d.rated,
                at: d.at,
            };
            self.note_plays(&d.dest, |p| p.declined(reason, &seen));
        }
        Ok(())
    }

    /// A game started: both players are seen to play its terms.
    pub(super) fn note_played(&mut self, id: &str) {
        let Some(g) = self.games.get(id) else {
            return;
        };
        let seen = Seen {
            variant: g.variant_ref.clone(),
            clock: g.clock.map(|k| (k.initial / 1000, k.increment / 1000)),
            days: g.days,
            rated: g.rated,
            at: g.created_at,
        };
        for u in [g.white.clone(), g.black.clone()] {
            self.note_plays(&u, |p| p.played(&seen));
        }
    }

    /// `POST /api/challenge/{id}/cancel`.
    pub fn cancel_challenge(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
        self.transact(|inner| inner.cancel_challenge_unit(id, user))
    }

    fn cancel_challenge_unit(&mut self, id: &str, user: &str) -> Result<(), Refusal> {
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
        self.cancel_pending(c);
        Ok(())
    }

    /// Cancels a pending challenge: the players hear `challengeCanceled`, a kept-alive request
    /// `{"done":"canceled"}`.
    pub(super) fn cancel_pending(&mut self, c: PendingChallenge) {
        if let Some((_, tx)) = &c.keep_alive {
            self.emit(tx, r#"{"done":"canceled"}"#.to_string());
        }
        self.notify_canceled(c.json);
    }

    /// The connection of a `keepAliveStream` challenge closed: the challenge is canceled.
    pub fn close_kept_challenge(&mut self, conn: u64) {
        let closed = self.transact(|inner| {
            inner.close_kept_challenge_unit(conn);
            Ok(())
        });
        if let Err(e) = closed {
            tracing::warn!("arena: canceling the challenge of a closed connection: {}", e.message);
        }
    }

    fn close_kept_challenge_unit(&mut self, conn: u64) {
        let ids: Vec<String> = self
            .challenges
            .iter()
            .filter(|(_, c)| c.keep_alive.as_ref().is_some_and(|(k, _)| *k == conn))
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            if let Some(mut c) = self.remove_challenge(&id) {
                c.keep_alive = None;
                self.notify_canceled(c.json);
            }
        }
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

/// The checked terms of a challenge.
#[derive(Clone)]
pub(super) struct Terms {
    pub(super) variant: VariantRef,
    pub(super) start: Position,
    pub(super) initial_fen: Option<String>,
    pub(super) time_control: TimeControl,
    pub(super) speed: &'static str,
    pub(super) clock: Option<GameClock>,
    pub(super) days: Option<u32>,
}

/// Days per move Lichess offers for correspondence games.
pub(super) const CORRESPONDENCE_DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

/// Checks the terms of a challenge. As on Lichess: a clock makes a real-time game, `days`
/// without a clock a correspondence game, neither an unlimited one; chess from a FEN other than
/// the start position is `fromPosition`.
pub(super) fn terms(p: &ChallengeParams) -> Result<Terms, Refusal> {
    let variant = variants::arena_variant(&p.variant)
        .ok_or_else(|| Refusal::bad(format!("Unsupported variant: {}", p.variant)))?;
    let (start, initial_fen) = match &p.fen {
        Some(fen) => {
            let start = Position::from_fen(variant, fen).map_err(|e| Refusal::bad(format!("Invalid FEN: {e}")))?;
            let set_up = start.fen() != Position::startpos(variant).fen();
            (start, set_up.then(|| fen.clone()))
        }
        None => (Position::startpos(variant), None),
    };
    if initial_fen.is_some() && p.rated {
        return Err(Refusal::bad("Games from a position cannot be rated"));
    }
    if let Some(outcome) = start.outcome() {
        // The game would start over, with no move to play.
        let why = match outcome {
            engine::rules::Outcome::Draw(reason) => format!("a draw: {reason:?}"),
            won => format!("checkmate, {}", won.result()),
        };
        return Err(Refusal::bad(format!(
            "Invalid FEN: the game is already over in this position ({why})"
        )));
    }
    if !matches!(p.color.as_str(), "white" | "black" | "random") {
        return Err(Refusal::bad(format!("Invalid color: {}", p.color)));
    }
    let (time_control, speed, clock, days) = match (p.clock, p.days) {
        (Some((limit, inc)), _) => {
            if limit == 0 && inc == 0 {
                return Err(Refusal::bad("Invalid clock"));
            }
            if limit > 10_800 || inc > 180 {
                return Err(Refusal::bad("Invalid clock: at most 10800 s and 180 s increment"));
            }
            (
                TimeControl::Clock {
                    limit,
                    increment: inc,
                    show: clock_show(limit, inc),
                },
                speed_of(limit, inc),
                Some(GameClock {
                    initial: limit * 1000,
                    increment: inc * 1000,
                }),
                None,
            )
        }
        (None, Some(days)) => {
            if !CORRESPONDENCE_DAYS.contains(&days) {
                return Err(Refusal::bad(format!(
                    "Invalid days: {days} (one of {CORRESPONDENCE_DAYS:?})"
                )));
            }
            (
                TimeControl::Correspondence { days_per_turn: days },
                "correspondence",
                None,
                Some(days),
            )
        }
        (None, None) => (TimeControl::Unlimited, "correspondence", None, None),
    };
    Ok(Terms {
        variant: variants::variant_ref(variant, initial_fen.is_some()),
        start,
        initial_fen,
        time_control,
        speed,
        clock,
        days,
    })
}
