//! The HTTP client: bearer token, one ordinary request at a time, retries with exponential
//! backoff on network errors and 5xx, a pause of the endpoint that answered 429, typed errors.

use std::{
    collections::HashMap,
    fmt,
    sync::{Arc, Mutex as StdMutex},
    time::Duration,
};

use reqwest::{Method, RequestBuilder, StatusCode};
use serde::de::DeserializeOwned;
use tokio::{sync::Mutex, time::Instant};

pub use super::error::ApiError;
use super::{
    endpoints,
    ndjson::NdjsonReader,
    types::{Account, Challenge, DeclineReason, ErrorBody, Event, GameEvent},
};

/// A secret token: never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Wraps a token (surrounding white space removed).
    pub fn new(secret: &str) -> Token {
        Token(secret.trim().to_string())
    }

    fn secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

/// How calls are retried.
#[derive(Clone, Debug)]
pub struct RetryPolicy {
    /// Attempts per call (network errors, 5xx and 429 count).
    pub max_attempts: u32,
    /// First backoff delay; doubled after each failure.
    pub base_delay: Duration,
    /// Longest backoff delay.
    pub max_delay: Duration,
    /// Pause after HTTP 429 (Lichess asks for a full minute).
    pub rate_limit_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 8,
            base_delay: Duration::from_millis(250),
            max_delay: Duration::from_secs(30),
            rate_limit_wait: Duration::from_secs(60),
        }
    }
}

/// Client settings.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// e.g. `https://lichess.org` (no trailing slash needed).
    pub base_url: String,
    /// The bearer token.
    pub token: Token,
    /// Retries.
    pub retry: RetryPolicy,
    /// Longest silence accepted on a stream (keep-alives included).
    pub stream_timeout: Duration,
    /// Timeout of ordinary calls.
    pub request_timeout: Duration,
}

/// The Lichess API client. Cheap to clone; clones share the one-request-at-a-time limiter.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: Token,
    retry: RetryPolicy,
    stream_timeout: Duration,
    request_timeout: Duration,
    limiter: Arc<Mutex<()>>,
    /// Per endpoint (path template): no call before this instant (set by HTTP 429).
    cooldowns: Arc<StdMutex<HashMap<&'static str, Instant>>>,
}

/// What `POST /api/challenge/{username}` sends.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    /// Variant key.
    pub variant: String,
    /// Clock (seconds): initial time and increment; `None` for unlimited.
    pub clock: Option<(u64, u64)>,
    /// Rated.
    pub rated: bool,
    /// white / black / random.
    pub color: String,
    /// Start position (FEN); `None` for the variant's start position.
    pub fen: Option<String>,
}

/// The User-Agent of a client, with the account's name once it is known (Lichess asks bots to
/// name their account there).
pub fn user_agent(account: Option<&str>) -> String {
    let base = concat!("persian-chess-bot/", env!("CARGO_PKG_VERSION"));
    match account {
        Some(name) => format!("{base} user:{name}"),
        None => base.to_string(),
    }
}

impl Client {
    /// A client for `options`.
    pub fn new(options: ClientOptions) -> Result<Client, ApiError> {
        Client::with_user_agent(options, &user_agent(None))
    }

    /// The same client, with the account's name in its User-Agent.
    pub fn for_account(self, name: &str) -> Result<Client, ApiError> {
        let http = reqwest::Client::builder()
            .user_agent(user_agent(Some(name)))
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| ApiError::Network(e.to_string()))?;
        Ok(Client { http, ..self })
    }

    fn with_user_agent(options: ClientOptions, agent: &str) -> Result<Client, ApiError> {
        let http = reqwest::Client::builder()
            .user_agent(agent)
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| ApiError::Network(e.to_string()))?;
        Ok(Client {
            http,
            base: options.base_url.trim_end_matches('/').to_string(),
            token: options.token,
            retry: options.retry,
            stream_timeout: options.stream_timeout,
            request_timeout: options.request_timeout,
            limiter: Arc::new(Mutex::new(())),
            cooldowns: Arc::new(StdMutex::new(HashMap::new())),
        })
    }

    /// The server's base URL.
    pub fn base_url(&self) -> &str {
        &self.base
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.http
            .request(method, format!("{}{}", self.base, path))
            .bearer_auth(self.token.secret())
    }

    /// The end of the 429 pause of `endpoint`, if one is running.
    pub fn cooldown(&self, endpoint: &'static str) -> Option<Instant> {
        let map = self.cooldowns.lock().unwrap_or_else(|p| p.into_inner());
        map.get(endpoint).copied().filter(|&t| t > Instant::now())
    }

    fn start_cooldown(&self, endpoint: &'static str) {
        tracing::warn!(
            "HTTP 429 on {endpoint}: no calls to it for {:?}",
            self.retry.rate_limit_wait
        );
        let until = Instant::now() + self.retry.rate_limit_wait;
        self.cooldowns
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(endpoint, until);
    }

    /// Sends an ordinary request (one at a time), retrying network errors, 5xx and 429.
    /// `endpoint` (the path template) keys the 429 pause: after a 429 the calls of that
    /// endpoint wait `rate_limit_wait`, while other endpoints go on.
    async fn send(
        &self,
        endpoint: &'static str,
        build: impl Fn() -> RequestBuilder,
    ) -> Result<reqwest::Response, ApiError> {
        let mut delay = self.retry.base_delay;
        let mut attempt = 0;
        loop {
            attempt += 1;
            if let Some(until) = self.cooldown(endpoint) {
                tokio::time::sleep_until(until).await;
            }
            let permit = self.limiter.lock().await;
            let result = build().timeout(self.request_timeout).send().await;
            drop(permit);
            let last = attempt >= self.retry.max_attempts;
            let failure = match result {
                Ok(resp) if resp.status() == StatusCode::TOO_MANY_REQUESTS => {
                    self.start_cooldown(endpoint);
                    if last {
                        return Err(ApiError::RateLimited);
                    }
                    continue;
                }
                Ok(resp) if resp.status().is_server_error() => ApiError::Http {
                    status: resp.status().as_u16(),
                    message: error_message(resp).await,
                },
                Ok(resp) if !resp.status().is_success() => {
                    return Err(ApiError::Http {
                        status: resp.status().as_u16(),
                        message: error_message(resp).await,
                    });
                }
                Ok(resp) => return Ok(resp),
                Err(e) => ApiError::Network(e.to_string()),
            };
            if last {
                return Err(failure);
            }
            tracing::debug!("{endpoint}: {failure}; retrying in {delay:?}");
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(self.retry.max_delay);
        }
    }

    async fn get_json<T: DeserializeOwned>(&self, endpoint: &'static str, path: &str) -> Result<T, ApiError> {
        let resp = self.send(endpoint, || self.request(Method::GET, path)).await?;
        resp.json().await.map_err(|e| ApiError::Decode(e.to_string()))
    }

    async fn post_form(
        &self,
        endpoint: &'static str,
        path: &str,
        form: &[(&str, &str)],
    ) -> Result<reqwest::Response, ApiError> {
        self.send(endpoint, || self.request(Method::POST, path).form(form))
            .await
    }

    /// `GET /api/account`.
    pub async fn account(&self) -> Result<Account, ApiError> {
        self.get_json(endpoints::ACCOUNT, endpoints::ACCOUNT).await
    }

    /// Upgrades the token's account to a bot account. Lichess allows it only for accounts
    /// that have not played a game, and it cannot be undone.
    pub async fn upgrade_to_bot(&self) -> Result<(), ApiError> {
        self.post_form(endpoints::BOT_UPGRADE, endpoints::BOT_UPGRADE, &[])
            .await
            .map(drop)
    }

    /// Up to `nb` bots online now.
    pub async fn online_bots(&self, nb: usize) -> Result<Vec<Account>, ApiError> {
        let path = format!("{}?nb={nb}", endpoints::BOTS_ONLINE);
        let resp = self
            .send(endpoints::BOTS_ONLINE, || self.request(Method::GET, &path))
            .await?;
        let text = resp.text().await.map_err(|e| ApiError::Network(e.to_string()))?;
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).map_err(|e| ApiError::Decode(e.to_string())))
            .collect()
    }

    /// The OAuth scopes of our token (`POST /api/token/test`); `None` when the server does
    /// not know the token.
    pub async fn token_scopes(&self) -> Result<Option<Vec<String>>, ApiError> {
        let path = endpoints::TOKEN_TEST;
        let resp = self
            .send(path, || {
                self.http
                    .post(format!("{}{path}", self.base))
                    .header(reqwest::header::CONTENT_TYPE, "text/plain")
                    .body(self.token.secret().to_string())
            })
            .await?;
        let map: HashMap<String, Option<TokenInfo>> = resp.json().await.map_err(|e| ApiError::Decode(e.to_string()))?;
        Ok(map.into_values().next().flatten().map(|info| {
            info.scopes
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        }))
    }

    /// Cancels a challenge we sent.
    pub async fn cancel_challenge(&self, id: &str) -> Result<(), ApiError> {
        self.post_form(
            "/api/challenge/{challengeId}/cancel",
            &endpoints::challenge_cancel(id),
            &[],
        )
        .await
        .map(drop)
    }

    /// Accepts a challenge.
    pub async fn accept_challenge(&self, id: &str) -> Result<(), ApiError> {
        self.post_form(
            "/api/challenge/{challengeId}/accept",
            &endpoints::challenge_accept(id),
            &[],
        )
        .await
        .map(drop)
    }

    /// Declines a challenge with a reason.
    pub async fn decline_challenge(&self, id: &str, reason: DeclineReason) -> Result<(), ApiError> {
        self.post_form(
            "/api/challenge/{challengeId}/decline",
            &endpoints::challenge_decline(id),
            &[("reason", reason.key())],
        )
        .await
        .map(drop)
    }

    /// Challenges a user.
    pub async fn create_challenge(&self, username: &str, req: &ChallengeRequest) -> Result<Challenge, ApiError> {
        let rated = req.rated.to_string();
        let (limit, inc) = req.clock.map(|(l, i)| (l.to_string(), i.to_string())).unzip();
        let mut form: Vec<(&str, &str)> = vec![("variant", &req.variant), ("rated", &rated), ("color", &req.color)];
        if let (Some(l), Some(i)) = (limit.as_deref(), inc.as_deref()) {
            form.push(("clock.limit", l));
            form.push(("clock.increment", i));
        }
        if let Some(fen) = req.fen.as_deref() {
            form.push(("fen", fen));
        }
        let resp = self
            .post_form(
                "/api/challenge/{username}",
                &endpoints::challenge_create(username),
                &form,
            )
            .await?;
        resp.json().await.map_err(|e| ApiError::Decode(e.to_string()))
    }

    /// Makes a move (UCI).
    pub async fn make_move(&self, game: &str, uci: &str, offering_draw: bool) -> Result<(), ApiError> {
        let path = endpoints::game_move(game, uci);
        let path = if offering_draw {
            format!("{path}?offeringDraw=true")
        } else {
            path
        };
        self.post_form("/api/bot/game/{gameId}/move/{move}", &path, &[])
            .await
            .map(drop)
    }

    /// Writes in the chat (`player` or `spectator` room).
    pub async fn chat(&self, game: &str, room: &str, text: &str) -> Result<(), ApiError> {
        self.post_form(
            "/api/bot/game/{gameId}/chat",
            &endpoints::game_chat(game),
            &[("room", room), ("text", text)],
        )
        .await
        .map(drop)
    }

    /// Aborts a game.
    pub async fn abort(&self, game: &str) -> Result<(), ApiError> {
        self.post_form("/api/bot/game/{gameId}/abort", &endpoints::game_abort(game), &[])
            .await
            .map(drop)
    }

    /// Resigns a game.
    pub async fn resign(&self, game: &str) -> Result<(), ApiError> {
        self.post_form("/api/bot/game/{gameId}/resign", &endpoints::game_resign(game), &[])
            .await
            .map(drop)
    }

    /// Offers or accepts (`true`) or declines (`false`) a draw.
    pub async fn draw(&self, game: &str, accept: bool) -> Result<(), ApiError> {
        self.post_form(
            "/api/bot/game/{gameId}/draw/{accept}",
            &endpoints::game_draw(game, accept),
            &[],
        )
        .await
        .map(drop)
    }

    /// Accepts (`true`) or declines (`false`) the opponent's takeback proposal.
    pub async fn takeback(&self, game: &str, accept: bool) -> Result<(), ApiError> {
        self.post_form(
            "/api/bot/game/{gameId}/takeback/{accept}",
            &endpoints::game_takeback(game, accept),
            &[],
        )
        .await
        .map(drop)
    }

    /// Claims victory after the opponent left.
    pub async fn claim_victory(&self, game: &str) -> Result<(), ApiError> {
        self.post_form(
            "/api/bot/game/{gameId}/claim-victory",
            &endpoints::game_claim_victory(game),
            &[],
        )
        .await
        .map(drop)
    }

    /// Opens a stream (no retry: the caller reconnects).
    async fn open_stream(&self, endpoint: &'static str, path: &str) -> Result<NdjsonReader, ApiError> {
        if let Some(until) = self.cooldown(endpoint) {
            tokio::time::sleep_until(until).await;
        }
        let resp = self
            .request(Method::GET, path)
            .send()
            .await
            .map_err(|e| ApiError::Network(e.to_string()))?;
        let status = resp.status();
        if status == StatusCode::TOO_MANY_REQUESTS {
            self.start_cooldown(endpoint);
            return Err(ApiError::RateLimited);
        }
        if !status.is_success() {
            return Err(ApiError::Http {
                status: status.as_u16(),
                message: error_message(resp).await,
            });
        }
        Ok(NdjsonReader::new(resp, self.stream_timeout))
    }

    /// Opens the event stream.
    pub async fn stream_events(&self) -> Result<TypedStream<Event>, ApiError> {
        Ok(TypedStream::new(
            self.open_stream(endpoints::STREAM_EVENT, endpoints::STREAM_EVENT)
                .await?,
        ))
    }

    /// Opens a game stream.
    pub async fn stream_game(&self, game: &str) -> Result<TypedStream<GameEvent>, ApiError> {
        Ok(TypedStream::new(
            self.open_stream("/api/bot/game/stream/{gameId}", &endpoints::game_stream(game))
                .await?,
        ))
    }
}

/// One entry of `POST /api/token/test`.
#[derive(serde::Deserialize)]
struct TokenInfo {
    #[serde(default)]
    scopes: String,
}

/// An NDJSON stream of `T`.
pub struct TypedStream<T> {
    reader: NdjsonReader,
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> TypedStream<T> {
    fn new(reader: NdjsonReader) -> TypedStream<T> {
        TypedStream {
            reader,
            _t: std::marker::PhantomData,
        }
    }

    /// The next message, `None` when the server closed the stream.
    pub async fn next(&mut self) -> Result<Option<T>, ApiError> {
        self.reader.next_json().await
    }
}

async fn error_message(resp: reqwest::Response) -> String {
    let text = resp.text().await.unwrap_or_default();
    match serde_json::from_str::<ErrorBody>(&text) {
        Ok(body) => body.error,
        Err(_) => text.chars().take(200).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::Token;

    #[test]
    fn token_is_never_printed() {
        let t = Token::new(" lip_secret ");
        assert_eq!(format!("{t:?}"), "Token(***)");
    }
}
