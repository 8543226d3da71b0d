//! HTTP handlers: authentication, request parsing, and the mapping of state results to Lichess
//! responses (`{"ok":true}`, `{"error":...}` with 400/401/404).

use std::{collections::HashMap, io::Write as _, sync::Arc};

use axum::{
    body::{Body, Bytes},
    extract::{Path, RawQuery, Request, State},
    http::{header, HeaderMap, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use tokio::sync::mpsc;

use super::{
    faults::{Endpoint, Fault, RecordedRequest},
    form::{parse_body, parse_urlencoded, truthy},
    state::{ChallengeParams, ExportOptions, GameFilter, Refusal, SeekParams},
    stream::{ndjson_body, Guard, StreamKind},
    web, Shared,
};
use lichess_api::types::{DeclineReason, ErrorBody, Ok as OkBody};

type S = State<Arc<Shared>>;

/// An error response.
struct ApiErr(StatusCode, String);

impl IntoResponse for ApiErr {
    fn into_response(self) -> Response {
        (self.0, Json(ErrorBody { error: self.1 })).into_response()
    }
}

impl From<Refusal> for ApiErr {
    fn from(r: Refusal) -> ApiErr {
        ApiErr(
            StatusCode::from_u16(r.status).unwrap_or(StatusCode::BAD_REQUEST),
            r.message,
        )
    }
}

type Answer = Result<Response, ApiErr>;

fn ok() -> Answer {
    Ok(Json(OkBody { ok: true }).into_response())
}

/// The account of a request: its bearer token's, else (no `Authorization` header) the signed-in
/// browser session's (whose POSTs carry the CSRF token, checked in [`intercept`]).
fn auth(shared: &Shared, headers: &HeaderMap) -> Result<String, ApiErr> {
    token_user(shared, headers).ok_or_else(|| ApiErr(StatusCode::UNAUTHORIZED, "No such token".into()))
}

/// The parameters of a form or JSON body; a malformed JSON body is a 400 naming the problem.
fn body_map(headers: &HeaderMap, body: &Bytes) -> Result<HashMap<String, String>, ApiErr> {
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    parse_body(ct, body).map_err(|e| ApiErr(StatusCode::BAD_REQUEST, e))
}

pub fn router(shared: Arc<Shared>) -> Router {
    let routes = Router::new()
        .route("/api/account", get(account))
        .route("/api/account/preferences", get(preferences))
        .route("/api/user/{name}", get(user))
        .route("/api/users/status", get(users_status))
        .route("/api/admin/account", post(admin_account))
        .route("/game/export/{id}", get(export_game))
        .route("/api/arena/game/{id}/legal", get(legal_moves))
        .route("/api/games/user/{name}", get(export_user_games))
        .route("/api/account/playing", get(playing))
        .route("/api/stream/event", get(event_stream))
        .route("/api/challenge/open", post(open_challenge))
        .route("/api/board/seek", post(seek))
        .route("/api/challenge", get(list_challenges))
        .route("/api/challenge/{name}", post(create_challenge))
        .route("/api/challenge/{id}/show", get(show_challenge))
        .route("/api/challenge/{id}/accept", post(accept))
        .route("/api/challenge/{id}/decline", post(decline))
        .route("/api/challenge/{id}/cancel", post(cancel))
        .merge(game_routes(Api::Bot))
        .merge(game_routes(Api::Board))
        .route("/api/bot/account/upgrade", post(upgrade))
        .route("/api/token/test", post(token_test))
        .route("/api/bot/online", get(online_bots))
        .route("/api/arena/game/{id}/view", get(game_view))
        .route("/api/arena/lobby", get(lobby))
        .route("/api/arena/games", get(game_list))
        .route("/api/stream/game/{id}", get(spectator_stream))
        .merge(web::router())
        .merge(super::study::router())
        .merge(super::ops::router());
    // The route templates are only needed for the metrics.
    let routes = if shared.metrics.is_some() {
        routes.route_layer(middleware::from_fn(stamp_route))
    } else {
        routes
    };
    routes
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(shared.clone(), intercept))
        .with_state(shared)
}

/// A path the arena does not serve: 404, as an HTML page for a browser's GET of a page path,
/// else as the API's JSON error.
async fn not_found(State(s): S, method: axum::http::Method, uri: axum::http::Uri, headers: HeaderMap) -> Response {
    if method == axum::http::Method::GET && web::is_page_path(uri.path()) {
        if let Some(page) = web::not_found(&s, &headers) {
            return page;
        }
    }
    ApiErr(StatusCode::NOT_FOUND, "Not found".into()).into_response()
}

/// The route template a response answered (for the metrics).
#[derive(Clone)]
struct RouteName(axum::extract::MatchedPath);

/// Stamps the matched route's template on the response, for [`intercept`].
async fn stamp_route(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map(|m| RouteName(m.clone()));
    let mut response = next.run(request).await;
    if let Some(r) = route {
        response.extensions_mut().insert(r);
    }
    response
}

/// Every API error is JSON, as on Lichess: the few that the HTTP layers answer by themselves
/// (405 with no body, a path that is not UTF-8 as plain text) get `{"error": ...}` too.
async fn json_error(response: Response, path: &str) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if status.as_u16() < 400 || is_json || web::is_page_path(path) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("Error").to_string()
    } else {
        text
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    let body = serde_json::to_vec(&ErrorBody { error: message }).unwrap_or_default();
    Response::from_parts(parts, Body::from(body))
}

/// Drops a trailing slash of the path (`/api/x/` is `/api/x`), keeping the query.
pub fn trim_trailing_slash(mut request: Request) -> Request {
    let path = request.uri().path();
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = path.trim_end_matches('/');
        let trimmed = if trimmed.is_empty() { "/" } else { trimmed };
        let rebuilt = match request.uri().query() {
            Some(q) => format!("{trimmed}?{q}"),
            None => trimmed.to_string(),
        };
        if let Ok(uri) = rebuilt.parse() {
            *request.uri_mut() = uri;
        }
    }
    request
}

/// Largest request body read (forms and JSON of a few fields).
const MAX_BODY: usize = 64 * 1024;

/// The scope a valid token lacks for `endpoint` (the first of those that would do), if any.
fn missing_scope(shared: &Shared, headers: &HeaderMap, endpoint: Endpoint) -> Option<&'static str> {
    let needed = endpoint.scopes();
    if needed.is_empty() {
        return None;
    }
    let token = web::auth::bearer(headers)?;
    let info = shared.lock().token(token)?;
    let has = needed.iter().any(|n| info.scopes.iter().any(|s| s == n));
    (!has).then(|| needed[0])
}

fn token_user(shared: &Shared, headers: &HeaderMap) -> Option<String> {
    web::auth::account(shared, headers)
}

fn sorted(map: HashMap<String, String>) -> Vec<(String, String)> {
    let mut v: Vec<_> = map.into_iter().collect();
    v.sort();
    v
}

/// The client's address: the connection's, or the last `X-Forwarded-For` entry when the
/// arena is told it runs behind a reverse proxy.
fn client_ip(parts: &axum::http::request::Parts, trust_forwarded: bool) -> std::net::IpAddr {
    let forwarded = trust_forwarded
        .then(|| parts.headers.get("x-forwarded-for"))
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse().ok());
    forwarded.unwrap_or_else(|| {
        parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |c| c.0.ip())
    })
}

/// Around every request: serves it through [`screen`], makes its error JSON, counts it in the
/// metrics and writes its line of the access log.
async fn intercept(State(s): S, request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let observed = s.metrics.is_some() || s.access_log.is_some();
    let seen = observed.then(|| {
        let agent = request
            .headers()
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        (request.method().to_string(), agent)
    });
    let path = (observed || !web::is_page_path(request.uri().path())).then(|| request.uri().path().to_string());
    let (response, user, ip) = screen(&s, request, next).await;
    let path = path.unwrap_or_default();
    let response = if path.is_empty() {
        response
    } else {
        json_error(response, &path).await
    };
    if let Some((method, agent)) = seen {
        let status = response.status().as_u16();
        if let Some(m) = &s.metrics {
            let route = response
                .extensions()
                .get::<RouteName>()
                .map_or("unmatched", |r| r.0.as_str());
            m.request(&method, route, status);
        }
        if let Some(log) = &s.access_log {
            let line = super::ops::access_line(ip, user.as_deref(), &method, &path, status, started.elapsed(), &agent);
            let mut out = log.lock().unwrap_or_else(|p| p.into_inner());
            if let Err(e) = out.write_all(line.as_bytes()) {
                tracing::warn!("arena: writing the access log: {e}");
            }
        }
    }
    response
}

/// Logs every request, applies the rate limits and scopes, and answers the injected faults
/// instead of serving. Returns the answer, the account and the client address.
async fn screen(s: &Arc<Shared>, request: Request, next: Next) -> (Response, Option<String>, std::net::IpAddr) {
    let (parts, body) = request.into_parts();
    let (body_timeout, trust_forwarded) = {
        let inner = s.lock();
        (inner.config.body_timeout, inner.config.trust_forwarded_for)
    };
    let bytes = match tokio::time::timeout(body_timeout, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => {
            let ip = client_ip(&parts, trust_forwarded);
            return (
                ApiErr(StatusCode::PAYLOAD_TOO_LARGE, "Request body too large".into()).into_response(),
                None,
                ip,
            );
        }
        Err(_) => {
            let ip = client_ip(&parts, trust_forwarded);
            return (
                ApiErr(StatusCode::REQUEST_TIMEOUT, "Request body too slow".into()).into_response(),
                None,
                ip,
            );
        }
    };
    let ip = client_ip(&parts, trust_forwarded);
    let endpoint = Endpoint::classify(parts.method.as_str(), parts.uri.path());
    let user = token_user(s, &parts.headers);
    let query = sorted(parse_urlencoded(parts.uri.query().unwrap_or("")));
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let is_form =
        content_type.starts_with("application/x-www-form-urlencoded") || content_type.starts_with("application/json");
    let form = if is_form {
        sorted(body_map(&parts.headers, &bytes).unwrap_or_default())
    } else {
        Vec::new()
    };
    let mut record = RecordedRequest {
        method: parts.method.to_string(),
        path: parts.uri.path().to_string(),
        endpoint,
        query,
        form,
        user: user.clone(),
        status: 0,
    };
    let streaming = matches!(
        endpoint,
        Endpoint::EventStream | Endpoint::GameStream | Endpoint::BoardGameStream | Endpoint::Seek
    );
    let over_limit = if streaming {
        let key = format!(
            "{}:{}",
            user.as_deref().unwrap_or("-"),
            parts.uri.path().trim_end_matches('/')
        );
        !s.lock().stream_open_allowed(&key, ip)
    } else {
        let mut inner = s.lock();
        !inner.ip_within_rate(ip) || user.as_deref().is_some_and(|u| !inner.within_rate(u))
    };
    // `user` with an Authorization header is the bearer token's (a session never counts then).
    let by_token = user.is_some() && parts.headers.contains_key(header::AUTHORIZATION);
    if let Some(refused) = csrf_refusal(s, &parts, &bytes, by_token) {
        record.status = refused.status().as_u16();
        s.lock().record_request(record);
        return (refused, user, ip);
    }
    if let Some(missing) = missing_scope(s, &parts.headers, endpoint) {
        let response = ApiErr(StatusCode::FORBIDDEN, format!("Missing scope: {missing}")).into_response();
        record.status = response.status().as_u16();
        s.lock().record_request(record);
        return (response, user, ip);
    }
    let fault = if over_limit {
        Some(Fault::new(endpoint, 429))
    } else {
        s.lock().faults.take(endpoint, user.as_deref())
    };
    let response = match fault {
        Some(f) => {
            tracing::debug!("arena: injected {} on {}", f.status, record.path);
            let status = StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            ApiErr(status, f.message().to_string()).into_response()
        }
        None => next.run(Request::from_parts(parts, Body::from(bytes))).await,
    };
    record.status = response.status().as_u16();
    s.lock().record_request(record);
    (response, user, ip)
}

/// A state-changing request from a browser (a signed-in session, or any page form) must carry
/// the CSRF token, in the `X-CSRF-Token` header or the `csrf` form field: else 403.
fn csrf_refusal(s: &Shared, parts: &axum::http::request::Parts, body: &Bytes, by_token: bool) -> Option<Response> {
    use axum::http::Method;
    if matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    let page = web::is_page_path(parts.uri.path());
    let expected = web::auth::expected_csrf(s, &parts.headers, page, by_token)?;
    let sent = parts
        .headers
        .get(web::auth::CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| body_map(&parts.headers, body).ok()?.remove(web::auth::CSRF_FIELD));
    match (expected, sent) {
        (Ok(e), Some(sent)) if web::auth::same_secret(&e, &sent) => None,
        _ => Some(
            ApiErr(
                StatusCode::FORBIDDEN,
                "Missing or wrong CSRF token: reload the page and try again".into(),
            )
            .into_response(),
        ),
    }
}

async fn game_view(State(s): S, headers: HeaderMap, Path(id): Path<String>, RawQuery(query): RawQuery) -> Answer {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let ply = match q.get("ply") {
        Some(p) => Some(
            p.parse::<usize>()
                .map_err(|_| ApiErr(StatusCode::BAD_REQUEST, format!("Invalid ply: {p}")))?,
        ),
        None => None,
    };
    let me = token_user(&s, &headers);
    let json = s.lock().game_view(&id, ply, me.as_deref())?;
    Ok(Json(json).into_response())
}

async fn lobby(State(s): S) -> Answer {
    let json = s.lock().lobby();
    Ok(Json(json).into_response())
}

async fn game_list(State(s): S, RawQuery(query): RawQuery) -> Answer {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let running = match q.get("state").map(String::as_str) {
        None | Some("" | "finished") => false,
        Some("running") => true,
        Some(other) => {
            return Err(ApiErr(
                StatusCode::BAD_REQUEST,
                format!("Invalid state: {other} (finished or running)"),
            ))
        }
    };
    let user = q.get("user").map(|u| u.trim().to_lowercase()).filter(|u| !u.is_empty());
    let variant = q.get("variant").filter(|v| !v.is_empty());
    let max = q.get("max").and_then(|m| m.parse().ok()).unwrap_or(50);
    let list = s
        .lock()
        .game_list(running, user.as_deref(), variant.map(String::as_str), max);
    Ok(Json(list).into_response())
}

async fn spectator_stream(State(s): S, Path(id): Path<String>) -> Answer {
    let (tx, rx) = mpsc::unbounded_channel();
    let conn = s.conn_id();
    let keepalive = {
        let mut inner = s.lock();
        inner.open_spectator_stream(&id, conn, tx)?;
        inner.config.game_keepalive
    };
    let guard = Guard::new(
        s.clone(),
        conn,
        StreamKind::Game {
            game: id,
            user: String::new(),
        },
    );
    Ok(ndjson(ndjson_body(rx, keepalive, guard)))
}

async fn token_test(State(s): S, body: Bytes) -> Answer {
    let text = String::from_utf8_lossy(&body);
    let answer = s.lock().test_tokens(&text);
    Ok(Json(answer).into_response())
}

async fn upgrade(State(s): S, headers: HeaderMap) -> Answer {
    let user = auth(&s, &headers)?;
    s.lock().upgrade(&user)?;
    ok()
}

async fn online_bots(State(s): S, RawQuery(query): RawQuery) -> Answer {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let nb = q.get("nb").and_then(|n| n.parse().ok()).unwrap_or(50).min(300);
    let lines: String = s.lock().online_bots(nb).iter().map(|b| format!("{b}\n")).collect();
    Ok(ndjson(Body::from(lines)))
}

async fn account(State(s): S, headers: HeaderMap) -> Answer {
    let user = auth(&s, &headers)?;
    let account = s.lock().user_json(&user);
    match account {
        Some(a) => Ok(Json(a).into_response()),
        None => Err(ApiErr(StatusCode::UNAUTHORIZED, "No such token".into())),
    }
}

async fn user(State(s): S, Path(name): Path<String>) -> Answer {
    let json = s.lock().user_json(&name.to_lowercase());
    json.map(|j| Json(j).into_response())
        .ok_or_else(|| ApiErr(StatusCode::NOT_FOUND, "Not found".into()))
}

async fn users_status(State(s): S, RawQuery(query): RawQuery) -> Answer {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let ids = q
        .get("ids")
        .ok_or_else(|| ApiErr(StatusCode::BAD_REQUEST, "ids is required".into()))?;
    let list = s.lock().users_status(ids, truthy(q.get("withGameIds")));
    Ok(Json(list).into_response())
}

/// The board and clock preferences Lichess returns; the arena has no settings to change, so
/// every account gets Lichess's defaults.
async fn preferences(State(s): S, headers: HeaderMap) -> Answer {
    auth(&s, &headers)?;
    Ok(Json(serde_json::json!({
        "prefs": {
            "dark": false, "transp": false, "is3d": false, "theme": "brown", "pieceSet": "cburnett",
            "soundSet": "standard", "autoQueen": 2, "autoThreefold": 3, "takeback": 3, "moretime": 3,
            "clockTenths": 1, "clockBar": true, "clockSound": true, "premove": true, "animation": 2,
            "captured": true, "follow": true, "highlight": true, "destination": true, "coords": 1,
            "replay": 2, "challenge": 4, "message": 3, "submitMove": 4, "confirmResign": 1,
            "insightShare": 1, "keyboardMove": 0, "zen": 0, "moveEvent": 2, "rookCastle": 1
        },
        "language": "en-US"
    }))
    .into_response())
}

async fn legal_moves(State(s): S, Path(id): Path<String>) -> Answer {
    let json = s.lock().legal_moves(&id)?;
    Ok(Json(json).into_response())
}

/// Whether the `Accept` header asks for `kind` (`application/json`, ...).
fn accepts(headers: &HeaderMap, kind: &str) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim().starts_with(kind)))
}

const PGN_TYPE: &str = "application/x-chess-pgn";

async fn export_game(State(s): S, headers: HeaderMap, Path(id): Path<String>, RawQuery(query): RawQuery) -> Answer {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let opts = ExportOptions::from_query(&q, true)?;
    let json = accepts(&headers, "application/json");
    let id: String = id.chars().take(8).collect();
    let text = s.lock().export_game(&id, opts, json)?;
    let kind = if json { "application/json" } else { PGN_TYPE };
    Ok(([(header::CONTENT_TYPE, kind)], text).into_response())
}

async fn export_user_games(
    State(s): S,
    headers: HeaderMap,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
) -> Answer {
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let opts = ExportOptions::from_query(&q, false)?;
    let filter = GameFilter::from_query(&q)?;
    let json = accepts(&headers, "application/x-ndjson") || accepts(&headers, "application/json");
    let text = s.lock().export_user_games(&name, &filter, opts, json)?;
    let kind = if json { "application/x-ndjson" } else { PGN_TYPE };
    Ok(([(header::CONTENT_TYPE, kind)], text).into_response())
}

/// `POST /api/admin/account` (admin accounts only): `username`, `bot`, `scopes` (comma
/// separated; default every play scope). Answers the account and its new token, shown once.
async fn admin_account(State(s): S, headers: HeaderMap, body: Bytes) -> Answer {
    let admin = auth(&s, &headers)?;
    let f = body_map(&headers, &body)?;
    let mut inner = s.lock();
    if !inner.is_admin(&admin) {
        return Err(ApiErr(StatusCode::FORBIDDEN, "Admin accounts only".into()));
    }
    let username = f
        .get("username")
        .ok_or_else(|| ApiErr(StatusCode::BAD_REQUEST, "username is required".into()))?;
    let scopes: Vec<String> = f
        .get("scopes")
        .map(|l| {
            l.split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let scopes = super::default_scopes(&scopes);
    super::state::check_scopes(&scopes)?;
    let bot = truthy(f.get("bot"));
    let (id, token) = inner.transact(|inner| {
        let id = inner.create_account(username, bot, false)?;
        let token = inner.create_token(&id, &scopes, "created by an admin")?;
        Ok((id, token))
    })?;
    Ok(Json(serde_json::json!({ "id": id, "username": username, "token": token })).into_response())
}

async fn playing(State(s): S, headers: HeaderMap) -> Answer {
    let user = auth(&s, &headers)?;
    let games = s.lock().playing(&user);
    Ok(Json(serde_json::json!({ "nowPlaying": games })).into_response())
}

fn ndjson(body: axum::body::Body) -> Response {
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

async fn event_stream(State(s): S, headers: HeaderMap) -> Answer {
    let user = auth(&s, &headers)?;
    let (tx, rx) = mpsc::unbounded_channel();
    let conn = s.conn_id();
    let keepalive = {
        let mut inner = s.lock();
        inner.open_event_stream(&user, conn, tx);
        inner.config.event_keepalive
    };
    let guard = Guard::new(s.clone(), conn, StreamKind::Event { user });
    Ok(ndjson(ndjson_body(rx, keepalive, guard)))
}

/// The terms of a challenge form (`variant`, `clock.limit`, `clock.increment`, `days`, `rated`,
/// `color`, `fen`); absent keys take Lichess's defaults.
fn challenge_params(f: &HashMap<String, String>) -> Result<ChallengeParams, ApiErr> {
    let days = f
        .get("days")
        .map(|v| {
            v.parse::<u32>()
                .map_err(|_| ApiErr(StatusCode::BAD_REQUEST, format!("Invalid days: {v}")))
        })
        .transpose()?;
    Ok(ChallengeParams {
        variant: f.get("variant").cloned().unwrap_or_else(|| "standard".into()),
        clock: form_clock(f)?,
        days,
        rated: truthy(f.get("rated")),
        color: f.get("color").cloned().unwrap_or_else(|| "random".into()),
        fen: f.get("fen").cloned().filter(|s| !s.is_empty()),
    })
}

async fn create_challenge(
    State(s): S,
    headers: HeaderMap,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
    body: Bytes,
) -> Answer {
    let user = auth(&s, &headers)?;
    let f = body_map(&headers, &body)?;
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    let params = challenge_params(&f)?;
    let keep_alive = truthy(q.get("keepAliveStream").or_else(|| f.get("keepAliveStream")));
    if !keep_alive {
        let challenge = s.lock().create_challenge(&user, &name, params, None)?;
        return Ok(Json(challenge).into_response());
    }
    // Streamed: the challenge, keep-alives while it waits, then `{"done": ...}`.
    let (tx, rx) = mpsc::unbounded_channel();
    let conn = s.conn_id();
    let keepalive = {
        let mut inner = s.lock();
        let challenge = inner.create_challenge(&user, &name, params, Some((conn, tx.clone())))?;
        let _ = tx.send(serde_json::to_string(&challenge).unwrap_or_default());
        inner.config.event_keepalive
    };
    drop(tx);
    let guard = Guard::new(s.clone(), conn, StreamKind::Challenge);
    Ok(ndjson(ndjson_body(rx, keepalive, guard)))
}

async fn list_challenges(State(s): S, headers: HeaderMap) -> Answer {
    let user = auth(&s, &headers)?;
    let list = s.lock().list_challenges(&user);
    Ok(Json(list).into_response())
}

async fn show_challenge(State(s): S, headers: HeaderMap, Path(id): Path<String>) -> Answer {
    let user = auth(&s, &headers)?;
    let challenge = s.lock().show_challenge(&id, &user)?;
    Ok(Json(challenge).into_response())
}

async fn accept(State(s): S, headers: HeaderMap, Path(id): Path<String>, RawQuery(query): RawQuery) -> Answer {
    let user = auth(&s, &headers)?;
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    s.lock()
        .accept_challenge(&id, &user, q.get("color").map(String::as_str))?;
    ok()
}

/// Reads `clock.limit`/`clock.increment` (seconds) of a challenge form.
fn form_clock(f: &HashMap<String, String>) -> Result<Option<(u64, u64)>, ApiErr> {
    let num = |k: &str| -> Result<Option<u64>, ApiErr> {
        f.get(k)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| ApiErr(StatusCode::BAD_REQUEST, format!("Invalid {k}: {v}")))
            })
            .transpose()
    };
    match (num("clock.limit")?, num("clock.increment")?) {
        (Some(l), Some(i)) => Ok(Some((l, i))),
        (Some(l), None) => Ok(Some((l, 0))),
        (None, Some(_)) => Err(ApiErr(StatusCode::BAD_REQUEST, "clock.limit is required".into())),
        (None, None) => Ok(None),
    }
}

async fn open_challenge(State(s): S, headers: HeaderMap, body: Bytes) -> Answer {
    // Authentication is optional: with a token, its owner may cancel the challenge.
    let creator = token_user(&s, &headers);
    let f = body_map(&headers, &body)?;
    let params = ChallengeParams {
        color: "random".into(),
        ..challenge_params(&f)?
    };
    let users = match f.get("users").filter(|u| !u.is_empty()) {
        Some(list) => {
            let names: Vec<String> = list.split(',').map(|u| u.trim().to_lowercase()).collect();
            match names.as_slice() {
                [a, b] if a != b => Some([a.clone(), b.clone()]),
                _ => {
                    return Err(ApiErr(
                        StatusCode::BAD_REQUEST,
                        format!("users must be two different names separated by a comma, got '{list}'"),
                    ))
                }
            }
        }
        None => None,
    };
    let json = s.lock().create_open_challenge(creator.as_deref(), params, users)?;
    Ok(Json(json).into_response())
}

async fn seek(State(s): S, headers: HeaderMap, body: Bytes) -> Answer {
    let user = auth(&s, &headers)?;
    let f = body_map(&headers, &body)?;
    let bad = |k: &str, v: &str| ApiErr(StatusCode::BAD_REQUEST, format!("Invalid {k}: {v}"));
    let time = f
        .get("time")
        .map(|v| v.parse::<f64>().map_err(|_| bad("time", v)))
        .transpose()?;
    let increment = f
        .get("increment")
        .map(|v| v.parse::<u64>().map_err(|_| bad("increment", v)))
        .transpose()?;
    let days = f
        .get("days")
        .map(|v| v.parse::<u32>().map_err(|_| bad("days", v)))
        .transpose()?;
    let clock = match (time, increment) {
        (Some(t), Some(i)) => Some((t, i)),
        (None, None) => None,
        _ => return Err(ApiErr(StatusCode::BAD_REQUEST, "time and increment go together".into())),
    };
    let params = SeekParams {
        variant: f.get("variant").cloned().unwrap_or_else(|| "standard".into()),
        rated: truthy(f.get("rated")),
        clock,
        days,
        color: f.get("color").cloned().unwrap_or_else(|| "random".into()),
    };
    if clock.is_none() {
        // Correspondence: answered at once with the seek id.
        let id = s.lock().seek(&user, params, 0, None)?;
        return Ok(Json(serde_json::json!({ "id": id.unwrap_or_default() })).into_response());
    }
    let (tx, rx) = mpsc::unbounded_channel();
    let conn = s.conn_id();
    let keepalive = {
        let mut inner = s.lock();
        inner.seek(&user, params, conn, Some(tx))?;
        inner.config.event_keepalive
    };
    let guard = Guard::new(s.clone(), conn, StreamKind::Seek);
    Ok(ndjson(ndjson_body(rx, keepalive, guard)))
}

async fn decline(State(s): S, headers: HeaderMap, Path(id): Path<String>, body: Bytes) -> Answer {
    let user = auth(&s, &headers)?;
    let f = body_map(&headers, &body)?;
    let reason = f
        .get("reason")
        .and_then(|r| DeclineReason::from_key(r))
        .unwrap_or(DeclineReason::Generic);
    s.lock().decline_challenge(&id, &user, reason)?;
    ok()
}

async fn cancel(State(s): S, headers: HeaderMap, Path(id): Path<String>) -> Answer {
    let user = auth(&s, &headers)?;
    s.lock().cancel_challenge(&id, &user)?;
    ok()
}

/// The two APIs that play games: the Bot API (`/api/bot/game/...`, bot accounts only) and the
/// Board API (`/api/board/game/...`, every other account), as Lichess separates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Api {
    Bot,
    Board,
}

impl Api {
    fn prefix(self) -> &'static str {
        match self {
            Api::Bot => "/api/bot/game",
            Api::Board => "/api/board/game",
        }
    }
}

/// The user of the token, if the account may use `api`.
fn player(shared: &Shared, headers: &HeaderMap, api: Api) -> Result<String, ApiErr> {
    let user = auth(shared, headers)?;
    // Lichess answers both with 400 (the API description lists 400 for these calls).
    match (api, shared.lock().is_bot(&user)) {
        (Api::Bot, false) => Err(ApiErr(
            StatusCode::BAD_REQUEST,
            "This endpoint can only be used with a Bot account".into(),
        )),
        (Api::Board, true) => Err(ApiErr(
            StatusCode::BAD_REQUEST,
            "This endpoint cannot be used with a Bot account: use the Bot API".into(),
        )),
        _ => Ok(user),
    }
}

/// The accept value of a path, read as Lichess reads it: `yes`, `true`, `1` or `on` (any
/// case) say yes, anything else says no.
fn yes_no(text: &str) -> Result<bool, ApiErr> {
    Ok(matches!(
        text.to_ascii_lowercase().as_str(),
        "yes" | "true" | "1" | "on"
    ))
}

/// The game routes of one API.
fn game_routes(api: Api) -> Router<Arc<Shared>> {
    let p = api.prefix();
    let mut r = Router::new()
        .route(
            &format!("{p}/stream/{{id}}"),
            get(move |State(s): S, h: HeaderMap, Path(id): Path<String>| game_stream(api, s, h, id)),
        )
        .route(
            &format!("{p}/{{id}}/move/{{mv}}"),
            post(
                move |State(s): S, h: HeaderMap, Path((id, mv)): Path<(String, String)>, RawQuery(q): RawQuery| {
                    make_move(api, s, h, id, mv, q)
                },
            ),
        )
        .route(
            &format!("{p}/{{id}}/chat"),
            post(move |State(s): S, h: HeaderMap, Path(id): Path<String>, body: Bytes| chat(api, s, h, id, body))
                .get(move |State(s): S, h: HeaderMap, Path(id): Path<String>| chat_lines(api, s, h, id)),
        )
        .route(
            &format!("{p}/{{id}}/abort"),
            post(move |s: S, h: HeaderMap, Path(id): Path<String>| async move {
                let user = player(&s, &h, api)?;
                s.lock().abort(&id, &user)?;
                ok()
            }),
        )
        .route(
            &format!("{p}/{{id}}/resign"),
            post(move |s: S, h: HeaderMap, Path(id): Path<String>| async move {
                let user = player(&s, &h, api)?;
                s.lock().resign(&id, &user)?;
                ok()
            }),
        )
        .route(
            &format!("{p}/{{id}}/draw/{{accept}}"),
            post(
                move |s: S, h: HeaderMap, Path((id, accept)): Path<(String, String)>| async move {
                    let user = player(&s, &h, api)?;
                    let yes = yes_no(&accept)?;
                    s.lock().draw(&id, &user, yes)?;
                    ok()
                },
            ),
        )
        .route(
            &format!("{p}/{{id}}/takeback/{{accept}}"),
            post(
                move |s: S, h: HeaderMap, Path((id, accept)): Path<(String, String)>| async move {
                    let user = player(&s, &h, api)?;
                    let yes = yes_no(&accept)?;
                    s.lock().takeback(&id, &user, yes)?;
                    ok()
                },
            ),
        )
        .route(
            &format!("{p}/{{id}}/claim-victory"),
            post(move |s: S, h: HeaderMap, Path(id): Path<String>| async move {
                let user = player(&s, &h, api)?;
                s.lock().claim_victory(&id, &user)?;
                ok()
            }),
        )
        .route(
            &format!("{p}/{{id}}/claim-draw"),
            post(move |s: S, h: HeaderMap, Path(id): Path<String>| async move {
                let user = player(&s, &h, api)?;
                s.lock().claim_draw(&id, &user)?;
                ok()
            }),
        );
    if api == Api::Board {
        r = r.route(
            &format!("{p}/{{id}}/berserk"),
            post(move |s: S, h: HeaderMap, Path(id): Path<String>| async move {
                let user = player(&s, &h, api)?;
                s.lock().berserk(&id, &user)?;
                ok()
            }),
        );
    }
    r
}

async fn game_stream(api: Api, s: Arc<Shared>, headers: HeaderMap, id: String) -> Answer {
    let user = player(&s, &headers, api)?;
    let (tx, rx) = mpsc::unbounded_channel();
    let conn = s.conn_id();
    let keepalive = {
        let mut inner = s.lock();
        inner.open_game_stream(&id, &user, conn, tx)?;
        inner.config.game_keepalive
    };
    let guard = Guard::new(s.clone(), conn, StreamKind::Game { game: id, user });
    Ok(ndjson(ndjson_body(rx, keepalive, guard)))
}

async fn make_move(
    api: Api,
    s: Arc<Shared>,
    headers: HeaderMap,
    id: String,
    mv: String,
    query: Option<String>,
) -> Answer {
    let user = player(&s, &headers, api)?;
    let q = parse_urlencoded(query.as_deref().unwrap_or(""));
    s.lock().play(&id, &user, &mv, truthy(q.get("offeringDraw")))?;
    ok()
}

async fn chat(api: Api, s: Arc<Shared>, headers: HeaderMap, id: String, body: Bytes) -> Answer {
    let user = player(&s, &headers, api)?;
    let f = body_map(&headers, &body)?;
    let room = f.get("room").map_or("player", String::as_str);
    let text = f.get("text").map_or("", String::as_str);
    s.lock().chat(&id, &user, room, text)?;
    ok()
}

async fn chat_lines(api: Api, s: Arc<Shared>, headers: HeaderMap, id: String) -> Answer {
    let user = player(&s, &headers, api)?;
    let lines = s.lock().chat_lines(&id, &user)?;
    Ok(Json(lines).into_response())
}
