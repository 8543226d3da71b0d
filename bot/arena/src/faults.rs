//! Faults on demand and the request log.
//!
//! Tests (and anyone probing a bot) can tell the arena to answer the next calls of an endpoint
//! with an error status instead of serving them: 429 on a move or on an accept, 500s, a move
//! rejected with 400, a dropped stream. Every request is also logged (method, path, endpoint,
//! query and form keys, status) so the conformance test can check what a bot sends against the
//! official API description.

use std::collections::VecDeque;

/// The endpoints the arena serves, by their path templates in the Lichess API description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// `GET /api/account`
    Account,
    /// `GET /api/account/playing`
    Playing,
    /// `GET /api/stream/event`
    EventStream,
    /// `POST /api/bot/account/upgrade`
    Upgrade,
    /// `POST /api/token/test`
    TokenTest,
    /// `GET /api/bot/online`
    OnlineBots,
    /// `POST /api/challenge/open`
    OpenChallenge,
    /// `POST /api/board/seek`
    Seek,
    /// `POST /api/challenge/{username}`
    CreateChallenge,
    /// `POST /api/challenge/{challengeId}/accept`
    Accept,
    /// `POST /api/challenge/{challengeId}/decline`
    Decline,
    /// `POST /api/challenge/{challengeId}/cancel`
    Cancel,
    /// `GET /api/bot/game/stream/{gameId}`
    GameStream,
    /// `POST /api/bot/game/{gameId}/move/{move}`
    Move,
    /// `POST /api/bot/game/{gameId}/chat`
    Chat,
    /// `POST /api/bot/game/{gameId}/abort`
    Abort,
    /// `POST /api/bot/game/{gameId}/resign`
    Resign,
    /// `POST /api/bot/game/{gameId}/draw/{accept}`
    Draw,
    /// `POST /api/bot/game/{gameId}/claim-victory`
    ClaimVictory,
    /// `GET /api/challenge`
    ListChallenges,
    /// `GET /api/challenge/{challengeId}/show`
    ShowChallenge,
    /// `GET /api/bot/game/{gameId}/chat`
    BotChatGet,
    /// `POST /api/bot/game/{gameId}/takeback/{accept}`
    BotTakeback,
    /// `POST /api/bot/game/{gameId}/claim-draw`
    BotClaimDraw,
    /// `GET /api/board/game/stream/{gameId}`
    BoardGameStream,
    /// `POST /api/board/game/{gameId}/move/{move}`
    BoardMove,
    /// `POST /api/board/game/{gameId}/chat`
    BoardChat,
    /// `GET /api/board/game/{gameId}/chat`
    BoardChatGet,
    /// `POST /api/board/game/{gameId}/abort`
    BoardAbort,
    /// `POST /api/board/game/{gameId}/resign`
    BoardResign,
    /// `POST /api/board/game/{gameId}/draw/{accept}`
    BoardDraw,
    /// `POST /api/board/game/{gameId}/takeback/{accept}`
    BoardTakeback,
    /// `POST /api/board/game/{gameId}/claim-victory`
    BoardClaimVictory,
    /// `POST /api/board/game/{gameId}/claim-draw`
    BoardClaimDraw,
    /// `POST /api/board/game/{gameId}/berserk`
    BoardBerserk,
    /// `GET /api/user/{username}`
    User,
    /// `GET /api/users/status`
    UsersStatus,
    /// `GET /api/account/preferences`
    Preferences,
    /// `GET /game/export/{gameId}`
    ExportGame,
    /// `GET /api/games/user/{username}`
    UserGames,
    /// Anything else (answered 404).
    Unknown,
}

impl Endpoint {
    /// Every endpoint the arena serves.
    pub const ALL: [Endpoint; 40] = [
        Endpoint::Account,
        Endpoint::Playing,
        Endpoint::EventStream,
        Endpoint::Upgrade,
        Endpoint::TokenTest,
        Endpoint::OnlineBots,
        Endpoint::OpenChallenge,
        Endpoint::Seek,
        Endpoint::CreateChallenge,
        Endpoint::Accept,
        Endpoint::Decline,
        Endpoint::Cancel,
        Endpoint::GameStream,
        Endpoint::Move,
        Endpoint::Chat,
        Endpoint::Abort,
        Endpoint::Resign,
        Endpoint::Draw,
        Endpoint::ClaimVictory,
        Endpoint::ListChallenges,
        Endpoint::ShowChallenge,
        Endpoint::BotChatGet,
        Endpoint::BotTakeback,
        Endpoint::BotClaimDraw,
        Endpoint::BoardGameStream,
        Endpoint::BoardMove,
        Endpoint::BoardChat,
        Endpoint::BoardChatGet,
        Endpoint::BoardAbort,
        Endpoint::BoardResign,
        Endpoint::BoardDraw,
        Endpoint::BoardTakeback,
        Endpoint::BoardClaimVictory,
        Endpoint::BoardClaimDraw,
        Endpoint::BoardBerserk,
        Endpoint::User,
        Endpoint::UsersStatus,
        Endpoint::Preferences,
        Endpoint::ExportGame,
        Endpoint::UserGames,
    ];

    /// HTTP method and path template as the API description writes them.
    pub fn template(self) -> (&'static str, &'static str) {
        match self {
            Endpoint::Account => ("GET", "/api/account"),
            Endpoint::Playing => ("GET", "/api/account/playing"),
            Endpoint::EventStream => ("GET", "/api/stream/event"),
            Endpoint::Upgrade => ("POST", "/api/bot/account/upgrade"),
            Endpoint::TokenTest => ("POST", "/api/token/test"),
            Endpoint::OnlineBots => ("GET", "/api/bot/online"),
            Endpoint::OpenChallenge => ("POST", "/api/challenge/open"),
            Endpoint::Seek => ("POST", "/api/board/seek"),
            Endpoint::CreateChallenge => ("POST", "/api/challenge/{username}"),
            Endpoint::Accept => ("POST", "/api/challenge/{challengeId}/accept"),
            Endpoint::Decline => ("POST", "/api/challenge/{challengeId}/decline"),
            Endpoint::Cancel => ("POST", "/api/challenge/{challengeId}/cancel"),
            Endpoint::GameStream => ("GET", "/api/bot/game/stream/{gameId}"),
            Endpoint::Move => ("POST", "/api/bot/game/{gameId}/move/{move}"),
            Endpoint::Chat => ("POST", "/api/bot/game/{gameId}/chat"),
            Endpoint::Abort => ("POST", "/api/bot/game/{gameId}/abort"),
            Endpoint::Resign => ("POST", "/api/bot/game/{gameId}/resign"),
            Endpoint::Draw => ("POST", "/api/bot/game/{gameId}/draw/{accept}"),
            Endpoint::ClaimVictory => ("POST", "/api/bot/game/{gameId}/claim-victory"),
            Endpoint::ListChallenges => ("GET", "/api/challenge"),
            Endpoint::ShowChallenge => ("GET", "/api/challenge/{challengeId}/show"),
            Endpoint::BotChatGet => ("GET", "/api/bot/game/{gameId}/chat"),
            Endpoint::BotTakeback => ("POST", "/api/bot/game/{gameId}/takeback/{accept}"),
            Endpoint::BotClaimDraw => ("POST", "/api/bot/game/{gameId}/claim-draw"),
            Endpoint::BoardGameStream => ("GET", "/api/board/game/stream/{gameId}"),
            Endpoint::BoardMove => ("POST", "/api/board/game/{gameId}/move/{move}"),
            Endpoint::BoardChat => ("POST", "/api/board/game/{gameId}/chat"),
            Endpoint::BoardChatGet => ("GET", "/api/board/game/{gameId}/chat"),
            Endpoint::BoardAbort => ("POST", "/api/board/game/{gameId}/abort"),
            Endpoint::BoardResign => ("POST", "/api/board/game/{gameId}/resign"),
            Endpoint::BoardDraw => ("POST", "/api/board/game/{gameId}/draw/{accept}"),
            Endpoint::BoardTakeback => ("POST", "/api/board/game/{gameId}/takeback/{accept}"),
            Endpoint::BoardClaimVictory => ("POST", "/api/board/game/{gameId}/claim-victory"),
            Endpoint::BoardClaimDraw => ("POST", "/api/board/game/{gameId}/claim-draw"),
            Endpoint::BoardBerserk => ("POST", "/api/board/game/{gameId}/berserk"),
            Endpoint::User => ("GET", "/api/user/{username}"),
            Endpoint::UsersStatus => ("GET", "/api/users/status"),
            Endpoint::Preferences => ("GET", "/api/account/preferences"),
            Endpoint::ExportGame => ("GET", "/game/export/{gameId}"),
            Endpoint::UserGames => ("GET", "/api/games/user/{username}"),
            Endpoint::Unknown => ("", ""),
        }
    }

    /// The scopes a token needs for the endpoint, any one of them (as the API description lists
    /// them); empty: none.
    pub fn scopes(self) -> &'static [&'static str] {
        use Endpoint::*;
        match self {
            EventStream => &["challenge:read", "bot:play", "board:play"],
            CreateChallenge | Accept | Decline | Cancel => &["challenge:write", "bot:play", "board:play"],
            ListChallenges | ShowChallenge => &["challenge:read"],
            Upgrade | GameStream | Move | Chat | BotChatGet | Abort | Resign | Draw | BotTakeback | ClaimVictory
            | BotClaimDraw => &["bot:play"],
            Seek | BoardGameStream | BoardMove | BoardChat | BoardChatGet | BoardAbort | BoardResign | BoardDraw
            | BoardTakeback | BoardClaimVictory | BoardClaimDraw | BoardBerserk => &["board:play"],
            Preferences => &["preference:read"],
            Account | Playing | TokenTest | OnlineBots | OpenChallenge | User | UsersStatus | ExportGame
            | UserGames | Unknown => &[],
        }
    }

    /// The endpoint of a request (`Unknown` when none matches).
    pub fn classify(method: &str, path: &str) -> Endpoint {
        let path = path.split('?').next().unwrap_or(path);
        let req: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        Endpoint::ALL
            .into_iter()
            .find(|e| {
                let (m, template) = e.template();
                let t: Vec<&str> = template.split('/').collect();
                m == method
                    && t.len() == req.len()
                    && t.iter()
                        .zip(&req)
                        .all(|(t, r)| (t.starts_with('{') && !r.is_empty()) || t == r)
            })
            .unwrap_or(Endpoint::Unknown)
    }
}

/// A fault: the next `times` calls of `endpoint` (by `user`, if set) are answered with
/// `status` and an error body instead of being served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Which calls.
    pub endpoint: Endpoint,
    /// Only this user's calls (user id, lower case); `None`: anybody's.
    pub user: Option<String>,
    /// The status answered (429, 500, 400, ...).
    pub status: u16,
    /// How many calls it hits.
    pub times: usize,
}

impl Fault {
    /// One call of `endpoint` answered with `status`.
    pub fn new(endpoint: Endpoint, status: u16) -> Fault {
        Fault {
            endpoint,
            user: None,
            status,
            times: 1,
        }
    }

    /// Hits the next `n` calls.
    pub fn times(mut self, n: usize) -> Fault {
        self.times = n;
        self
    }

    /// Only calls of `user`.
    pub fn for_user(mut self, user: &str) -> Fault {
        self.user = Some(user.to_lowercase());
        self
    }

    /// The error text Lichess would send with this status.
    pub fn message(&self) -> &'static str {
        match self.status {
            429 => "Too many requests. Try again later.",
            400 if matches!(self.endpoint, Endpoint::Move | Endpoint::BoardMove) => {
                "Not your turn, or game already over"
            }
            400 => "Bad request",
            401 => "No such token",
            404 => "Not found",
            s if s >= 500 => "Internal server error (injected)",
            _ => "Injected fault",
        }
    }
}

/// The queue of pending faults.
#[derive(Debug, Default)]
pub struct Faults {
    pending: VecDeque<Fault>,
    /// Faults answered so far, by endpoint and status.
    pub injected: Vec<(Endpoint, u16)>,
}

impl Faults {
    /// Adds a fault.
    pub fn push(&mut self, fault: Fault) {
        if fault.times > 0 {
            self.pending.push_back(fault);
        }
    }

    /// The fault that hits this call, if any (its count goes down by one).
    pub fn take(&mut self, endpoint: Endpoint, user: Option<&str>) -> Option<Fault> {
        let i = self
            .pending
            .iter()
            .position(|f| f.endpoint == endpoint && f.user.as_deref().is_none_or(|u| Some(u) == user))?;
        let fault = self.pending[i].clone();
        self.pending[i].times -= 1;
        if self.pending[i].times == 0 {
            self.pending.remove(i);
        }
        self.injected.push((endpoint, fault.status));
        Some(fault)
    }

    /// Faults not yet used.
    pub fn pending(&self) -> usize {
        self.pending.iter().map(|f| f.times).sum()
    }
}

/// One request as the arena received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedRequest {
    /// HTTP method.
    pub method: String,
    /// Path without the query.
    pub path: String,
    /// The endpoint it matched.
    pub endpoint: Endpoint,
    /// Query parameters (name, value).
    pub query: Vec<(String, String)>,
    /// Form (or JSON) body fields (name, value).
    pub form: Vec<(String, String)>,
    /// The account of the token, if valid.
    pub user: Option<String>,
    /// Status answered.
    pub status: u16,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_paths() {
        assert_eq!(
            Endpoint::classify("POST", "/api/bot/game/abc/move/e2e4"),
            Endpoint::Move
        );
        assert_eq!(
            Endpoint::classify("GET", "/api/bot/game/stream/abc"),
            Endpoint::GameStream
        );
        assert_eq!(
            Endpoint::classify("GET", "/api/bot/game/abc/move/e2e4"),
            Endpoint::Unknown
        );
        assert_eq!(
            Endpoint::classify("POST", "/api/challenge/Beta"),
            Endpoint::CreateChallenge
        );
        assert_eq!(Endpoint::classify("POST", "/api/challenge/x1/accept"), Endpoint::Accept);
        assert_eq!(Endpoint::classify("GET", "/api/stream/event"), Endpoint::EventStream);
        assert_eq!(Endpoint::classify("GET", "/api/nothing"), Endpoint::Unknown);
        for e in Endpoint::ALL {
            let (m, t) = e.template();
            let concrete = t.replace("{username}", "u").replace(['{', '}'], "");
            assert_eq!(Endpoint::classify(m, &concrete), e, "{t}");
        }
    }

    #[test]
    fn faults_are_used_up_in_order_and_per_user() {
        let mut f = Faults::default();
        f.push(Fault::new(Endpoint::Move, 429).times(2).for_user("Alpha"));
        f.push(Fault::new(Endpoint::Accept, 500));
        assert_eq!(f.pending(), 3);
        assert!(f.take(Endpoint::Move, Some("beta")).is_none());
        assert_eq!(f.take(Endpoint::Move, Some("alpha")).map(|f| f.status), Some(429));
        assert_eq!(f.take(Endpoint::Move, Some("alpha")).map(|f| f.status), Some(429));
        assert!(f.take(Endpoint::Move, Some("alpha")).is_none());
        assert_eq!(f.take(Endpoint::Accept, None).map(|f| f.status), Some(500));
        assert_eq!(f.pending(), 0);
        assert_eq!(f.injected.len(), 3);
    }
}
