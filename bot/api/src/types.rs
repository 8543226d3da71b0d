//! Serde types of the JSON and NDJSON messages of the Lichess Bot API (the subset the bot and
//! the arena use). Both sides use the same types, so the arena writes what the bot reads.
//! Reading is lenient: unknown fields are ignored, optional fields default, unknown event types
//! become `Other`, and variant keys and statuses stay open strings.

use serde::{Deserialize, Serialize};

/// `{"ok": true}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ok {
    /// Always true.
    pub ok: bool,
}

/// `{"error": "..."}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The cause.
    pub error: String,
}

/// `GET /api/account` (the fields the bot needs of UserExtended).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    /// Lower-case id.
    pub id: String,
    /// Display name.
    pub username: String,
    /// `"BOT"` for bot accounts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The profile page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl Account {
    /// Whether the account is a bot account.
    pub fn is_bot(&self) -> bool {
        self.title.as_deref() == Some("BOT")
    }
}

/// A variant as the API describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantRef {
    /// The key (`standard`, or one of ours such as `persian-princess`).
    pub key: String,
    /// The display name.
    #[serde(default)]
    pub name: String,
    /// Short name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short: Option<String>,
}

/// `{"id": 20, "name": "started"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusRef {
    /// Numeric id (do not key on it).
    pub id: u32,
    /// Status name (GameStatusName).
    pub name: String,
}

/// `{"bot": true, "board": true}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compat {
    /// Playable through the Bot API.
    pub bot: bool,
    /// Playable through the Board API.
    pub board: bool,
}

/// The opponent in a `gameStart`/`gameFinish` event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    /// Lower-case id (null against the AI).
    #[serde(default)]
    pub id: Option<String>,
    /// Display name.
    #[serde(default)]
    pub username: String,
    /// Rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
}

/// GameEventInfo: the `game` of `gameStart` and `gameFinish`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameEventInfo {
    /// 12 characters (game id + player id).
    pub full_id: String,
    /// 8 characters.
    pub game_id: String,
    /// Same as `game_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Current FEN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Our colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Last move, UCI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move: Option<String>,
    /// Where the game comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusRef>,
    /// Variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<VariantRef>,
    /// Speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<String>,
    /// Perf key (`blitz`, or the variant's key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perf: Option<String>,
    /// Rated.
    #[serde(default)]
    pub rated: bool,
    /// Whether we have moved.
    #[serde(default)]
    pub has_moved: bool,
    /// Opponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Opponent>,
    /// Whether it is our turn.
    #[serde(default)]
    pub is_my_turn: bool,
    /// Seconds left on our clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds_left: Option<i64>,
    /// Winner (finish only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Compatibility.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compat: Option<Compat>,
}

/// ChallengeUser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeUser {
    /// Lower-case id.
    pub id: String,
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// Rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
    /// Title (`"BOT"` for bots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Online.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub online: Option<bool>,
}

/// A challenge's time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TimeControl {
    /// Real time: seconds.
    Clock {
        /// Initial time, seconds.
        limit: u64,
        /// Increment, seconds.
        increment: u64,
        /// e.g. `"3+2"`.
        #[serde(default)]
        show: String,
    },
    /// Days per move.
    #[serde(rename_all = "camelCase")]
    Correspondence {
        /// Days per turn.
        days_per_turn: u32,
    },
    /// No clock.
    Unlimited,
}

/// `{"icon": "...", "name": "Blitz"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Perf {
    /// Icon character.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// Name.
    #[serde(default)]
    pub name: String,
}

/// ChallengeJson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    /// Id (the game id once accepted).
    pub id: String,
    /// URL.
    #[serde(default)]
    pub url: String,
    /// created / offline / canceled / declined / accepted.
    pub status: String,
    /// Who challenges.
    pub challenger: ChallengeUser,
    /// Who is challenged (null for open challenges).
    #[serde(default)]
    pub dest_user: Option<ChallengeUser>,
    /// Variant.
    pub variant: VariantRef,
    /// Rated.
    #[serde(default)]
    pub rated: bool,
    /// Speed.
    #[serde(default)]
    pub speed: String,
    /// Time control.
    pub time_control: TimeControl,
    /// white / black / random.
    #[serde(default)]
    pub color: String,
    /// The colour the challenger got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_color: Option<String>,
    /// Perf.
    #[serde(default)]
    pub perf: Perf,
    /// in / out (relative to the reader).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// Start FEN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_fen: Option<String>,
    /// Translated decline sentence (declined challenges).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline_reason: Option<String>,
    /// Decline reason key (declined challenges; lower case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline_reason_key: Option<String>,
}

/// One line of `GET /api/stream/event`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// A game started.
    GameStart {
        /// The game.
        game: GameEventInfo,
    },
    /// A game finished.
    GameFinish {
        /// The game.
        game: GameEventInfo,
    },
    /// A challenge (incoming or our own outgoing one).
    Challenge {
        /// The challenge.
        challenge: Challenge,
        /// Compatibility.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        compat: Option<Compat>,
    },
    /// A challenge was canceled.
    ChallengeCanceled {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge was declined.
    ChallengeDeclined {
        /// The challenge.
        challenge: Challenge,
    },
    /// Anything else (ignored).
    #[serde(other)]
    Other,
}

/// A player in `gameFull`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePlayer {
    /// Lower-case id (absent for the AI).
    #[serde(default)]
    pub id: Option<String>,
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// Title (null or e.g. `"BOT"`).
    #[serde(default)]
    pub title: Option<String>,
    /// Rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
}

/// `clock` of `gameFull`, milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    /// Initial time, ms.
    pub initial: u64,
    /// Increment, ms.
    pub increment: u64,
}

/// `expiration` of `gameState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expiration {
    /// Milliseconds since the last move or the start.
    pub idle_millis: u64,
    /// Time to make the first move.
    pub millis_to_move: u64,
}

/// GameStateEvent (without the `type` tag; see [`GameEvent`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// `"gameState"` when nested in `gameFull` (the tag of the event otherwise).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Every move so far, UCI, space separated.
    #[serde(default)]
    pub moves: String,
    /// White's time left, ms.
    #[serde(default)]
    pub wtime: i64,
    /// Black's time left, ms.
    #[serde(default)]
    pub btime: i64,
    /// White's increment, ms.
    #[serde(default)]
    pub winc: i64,
    /// Black's increment, ms.
    #[serde(default)]
    pub binc: i64,
    /// GameStatusName.
    #[serde(default)]
    pub status: String,
    /// Winner, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// White offers a draw.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wdraw: bool,
    /// Black offers a draw.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bdraw: bool,
    /// White proposes a takeback.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wtakeback: bool,
    /// Black proposes a takeback.
    #[serde(default, skip_serializing_if = "is_false")]
    pub btakeback: bool,
    /// First-move timer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiration: Option<Expiration>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl GameState {
    /// The moves as a list.
    pub fn move_list(&self) -> Vec<String> {
        self.moves.split_whitespace().map(str::to_string).collect()
    }

    /// Whether the game is still going on.
    pub fn is_running(&self) -> bool {
        matches!(self.status.as_str(), "created" | "started" | "")
    }
}

/// GameFullEvent (without the `type` tag).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFull {
    /// Game id.
    pub id: String,
    /// Variant.
    pub variant: VariantRef,
    /// Speed.
    #[serde(default)]
    pub speed: String,
    /// Perf.
    #[serde(default)]
    pub perf: Perf,
    /// Rated.
    #[serde(default)]
    pub rated: bool,
    /// Creation time, ms since the epoch.
    #[serde(default)]
    pub created_at: u64,
    /// White.
    pub white: GamePlayer,
    /// Black.
    pub black: GamePlayer,
    /// `"startpos"` or a FEN.
    #[serde(default = "startpos")]
    pub initial_fen: String,
    /// Clock (absent for correspondence and unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<GameClock>,
    /// Days per turn (correspondence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_turn: Option<u32>,
    /// The state.
    pub state: GameState,
}

fn startpos() -> String {
    "startpos".to_string()
}

/// One line of `GET /api/bot/game/stream/{gameId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GameEvent {
    /// First line.
    GameFull(Box<GameFull>),
    /// A move, an offer or the end.
    GameState(GameState),
    /// A chat message (ours echo back).
    ChatLine {
        /// player / spectator.
        room: String,
        /// Who wrote it.
        username: String,
        /// Text.
        text: String,
    },
    /// The opponent left or came back.
    #[serde(rename_all = "camelCase")]
    OpponentGone {
        /// Whether gone.
        gone: bool,
        /// Seconds until a win can be claimed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        claim_win_in_seconds: Option<u64>,
    },
    /// Anything else (ignored).
    #[serde(other)]
    Other,
}

/// Decline reasons (the `reason` form field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclineReason {
    /// generic
    Generic,
    /// later
    Later,
    /// tooFast
    TooFast,
    /// tooSlow
    TooSlow,
    /// timeControl
    TimeControl,
    /// rated
    Rated,
    /// casual
    Casual,
    /// standard
    Standard,
    /// variant
    Variant,
    /// noBot
    NoBot,
    /// onlyBot
    OnlyBot,
}

impl DeclineReason {
    /// Every reason.
    pub const ALL: [DeclineReason; 11] = [
        DeclineReason::Generic,
        DeclineReason::Later,
        DeclineReason::TooFast,
        DeclineReason::TooSlow,
        DeclineReason::TimeControl,
        DeclineReason::Rated,
        DeclineReason::Casual,
        DeclineReason::Standard,
        DeclineReason::Variant,
        DeclineReason::NoBot,
        DeclineReason::OnlyBot,
    ];

    /// The key sent in the form.
    pub fn key(self) -> &'static str {
        match self {
            DeclineReason::Generic => "generic",
            DeclineReason::Later => "later",
            DeclineReason::TooFast => "tooFast",
            DeclineReason::TooSlow => "tooSlow",
            DeclineReason::TimeControl => "timeControl",
            DeclineReason::Rated => "rated",
            DeclineReason::Casual => "casual",
            DeclineReason::Standard => "standard",
            DeclineReason::Variant => "variant",
            DeclineReason::NoBot => "noBot",
            DeclineReason::OnlyBot => "onlyBot",
        }
    }

    /// The reason of a key, ignoring case (as `challengeDeclined` writes keys in lower case).
    pub fn from_key(key: &str) -> Option<DeclineReason> {
        DeclineReason::ALL
            .into_iter()
            .find(|r| r.key().eq_ignore_ascii_case(key))
    }

    /// The English sentence Lichess shows.
    pub fn sentence(self) -> &'static str {
        match self {
            DeclineReason::Generic => "I'm not accepting challenges at the moment.",
            DeclineReason::Later => "This is not the right time for me, please ask again later.",
            DeclineReason::TooFast => {
                "This time control is too fast for me, please challenge again with a slower game."
            }
            DeclineReason::TooSlow => {
                "This time control is too slow for me, please challenge again with a faster game."
            }
            DeclineReason::TimeControl => "I'm not accepting challenges with this time control.",
            DeclineReason::Rated => "Please send me a rated challenge instead.",
            DeclineReason::Casual => "Please send me a casual challenge instead.",
            DeclineReason::Standard => "I'm not accepting variant challenges right now.",
            DeclineReason::Variant => "I'm not willing to play this variant right now.",
            DeclineReason::NoBot => "I'm not accepting challenges from bots.",
            DeclineReason::OnlyBot => "I'm only accepting challenges from bots.",
        }
    }
}

/// The speed of a clock (seconds), by Lichess's estimate `limit + 40 * increment`.
pub fn speed_of(limit_s: u64, increment_s: u64) -> &'static str {
    let estimate = limit_s + 40 * increment_s;
    match estimate {
        0..30 => "ultraBullet",
        30..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        _ => "classical",
    }
}

/// Lichess's display name of a speed key (`blitz` -> "Blitz").
pub fn speed_name(speed: &str) -> &'static str {
    match speed {
        "ultraBullet" => "UltraBullet",
        "bullet" => "Bullet",
        "blitz" => "Blitz",
        "rapid" => "Rapid",
        "classical" => "Classical",
        _ => "Correspondence",
    }
}

/// The id Lichess gives a status name (for `status.id` in events).
pub fn status_id(name: &str) -> u32 {
    match name {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "cheat" => 36,
        "noStart" => 37,
        "insufficientMaterialClaim" => 38,
        "variantEnd" => 60,
        _ => 50,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_spec_examples() {
        let line = r#"{"type":"gameFull","id":"BEOucQJo","variant":{"key":"standard","name":"Standard","short":"Std"},"speed":"rapid","perf":{"name":"Rapid"},"rated":false,"createdAt":1745112707998,"white":{"id":"bobby","name":"Bobby","title":null,"rating":1751},"black":{"id":"mary","name":"Mary","title":null,"rating":1021},"initialFen":"startpos","clock":{"initial":900000,"increment":0},"state":{"type":"gameState","moves":"d2d3","wtime":900000,"btime":900000,"winc":0,"binc":0,"status":"started"}}"#;
        let ev: GameEvent = serde_json::from_str(line).expect("gameFull parses");
        match ev {
            GameEvent::GameFull(full) => {
                assert_eq!(full.state.move_list(), vec!["d2d3"]);
                assert_eq!(full.clock.map(|c| c.initial), Some(900_000));
            }
            other => panic!("unexpected {other:?}"),
        }
        let line = r#"{"type":"challengeDeclined","challenge":{"id":"jWAgu6ga","url":"https://lichess.org/jWAgu6ga","status":"declined","challenger":{"name":"Adriana","id":"adriana","rating":734},"destUser":{"name":"Gabriela","id":"gabriela","rating":1528,"provisional":true,"online":true},"variant":{"key":"standard","name":"Standard","short":"Std"},"rated":false,"speed":"correspondence","timeControl":{"type":"unlimited"},"color":"random","finalColor":"black","perf":{"icon":"x","name":"Correspondence"},"declineReason":"I'm not accepting challenges at the moment.","declineReasonKey":"generic"}}"#;
        let ev: Event = serde_json::from_str(line).expect("challengeDeclined parses");
        assert!(matches!(ev, Event::ChallengeDeclined { .. }));
        let ev: Event = serde_json::from_str(r#"{"type":"ping"}"#).expect("unknown type parses");
        assert_eq!(ev, Event::Other);
        let ev: GameEvent =
            serde_json::from_str(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":8}"#).expect("parses");
        assert!(matches!(
            ev,
            GameEvent::OpponentGone {
                gone: true,
                claim_win_in_seconds: Some(8)
            }
        ));
    }

    #[test]
    fn decline_keys_round_trip() {
        for r in DeclineReason::ALL {
            assert_eq!(DeclineReason::from_key(&r.key().to_lowercase()), Some(r));
        }
        assert_eq!(speed_of(180, 2), "blitz");
        assert_eq!(speed_of(60, 0), "bullet");
    }
}
