//! The arena's browser pages: sign up / sign in / out, the token page, the lobby, the game page
//! (play and watch), TV, the game list. The pages are HTML written here and scripts served from
//! `assets/` (compiled into the binary: no build step, no external resource); the scripts are
//! clients of the same API the bots use, signed in by the session cookie. Every page is sent
//! with a strict Content-Security-Policy; every form and script POST carries a CSRF token.

mod assets;
pub mod auth;
mod html;

use std::{collections::HashMap, sync::Arc};

use axum::{
    body::Bytes,
    extract::{Path, RawQuery, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Router,
};

use self::{
    auth::{CSRF_COOKIE, MAX_PASSWORD, MIN_PASSWORD, SESSION_COOKIE},
    html::{esc, Page},
};
use super::{
    form::parse_urlencoded,
    state::{check_scopes, KNOWN_SCOPES, SESSION_MS},
    Shared,
};

type S = State<Arc<Shared>>;

/// Who is looking at a page.
pub struct Viewer {
    /// Account id and display name, when signed in.
    pub user: Option<(String, String)>,
    /// The CSRF token the page's forms and scripts send back.
    pub csrf: String,
    /// A new visitor CSRF cookie to set (visitors not signed in who have none yet).
    pub new_csrf_cookie: Option<String>,
    /// Whether the request came over TLS (cookies get `Secure`).
    pub secure: bool,
}

impl Viewer {
    fn of(shared: &Shared, headers: &HeaderMap) -> Viewer {
        let secure = auth::secure(shared, headers);
        if let Some(s) = auth::session(shared, headers) {
            let name = shared.lock().display_name(&s.user).unwrap_or_else(|| s.user.clone());
            return Viewer {
                user: Some((s.user, name)),
                csrf: s.csrf,
                new_csrf_cookie: None,
                secure,
            };
        }
        match auth::cookie(headers, CSRF_COOKIE) {
            Some(c) => Viewer {
                user: None,
                csrf: c.to_string(),
                new_csrf_cookie: None,
                secure,
            },
            None => {
                let fresh = super::state::new_token()
                    .map(|t| t.trim_start_matches("lip_").to_string())
                    .unwrap_or_default();
                Viewer {
                    user: None,
                    csrf: fresh.clone(),
                    new_csrf_cookie: Some(fresh),
                    secure,
                }
            }
        }
    }

    fn id(&self) -> Option<&str> {
        self.user.as_ref().map(|u| u.0.as_str())
    }
}

/// The page routes (merged into the API router, which applies the limits and the CSRF check).
pub fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/", get(lobby_page))
        .route("/signup", get(signup_page).post(signup))
        .route("/login", get(login_page).post(login))
        .route("/logout", post(logout))
        .route("/account/oauth/token", get(tokens_page))
        .route("/account/oauth/token/create", post(create_token))
        .route("/account/oauth/token/revoke", post(revoke_token))
        .route("/tv", get(tv_page))
        .route("/games", get(games_page))
        .route("/explorer", get(explorer_page))
        .route("/analysis", get(analysis_page))
        .route("/assets/{name}", get(asset))
        .route("/{id}", get(game_page))
}

/// Whether a path is one of the pages (not the API): its POSTs are forms and always need the
/// CSRF token.
pub fn is_page_path(path: &str) -> bool {
    !path.starts_with("/api/") && !path.starts_with("/game/export/")
}

fn redirect(to: &str) -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, to.to_string())]).into_response()
}

fn form(body: &Bytes) -> HashMap<String, String> {
    parse_urlencoded(&String::from_utf8_lossy(body))
}

/// A safe place to go back to after signing in: a path of this site only. Browsers drop tabs
/// and line breaks from a URL and read `\` as `/`, so `/\t/host` and `/\\host` lead to another
/// host: any control character, space or backslash, and a second leading slash, give `/`.
fn local_path(target: Option<&String>) -> String {
    match target {
        Some(t)
            if t.starts_with('/')
                && !t.starts_with("//")
                && !t.chars().any(|c| c.is_control() || c.is_whitespace() || c == '\\') =>
        {
            t.clone()
        }
        _ => "/".into(),
    }
}

/// An asset, gzipped when the browser takes gzip (every browser does).
async fn asset(headers: HeaderMap, Path(name): Path<String>) -> Response {
    let Some((kind, bytes)) = assets::get(&name) else {
        return (StatusCode::NOT_FOUND, "No such file").into_response();
    };
    let takes_gzip = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().split(';').next() == Some("gzip")));
    let head = [
        (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
        (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600")),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::VARY, HeaderValue::from_static("Accept-Encoding")),
    ];
    match assets::gzipped(&name).filter(|_| takes_gzip) {
        Some(z) => (head, [(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"))], z).into_response(),
        None => (head, bytes).into_response(),
    }
}

async fn lobby_page(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    let variants = html::variant_options("persian-princess");
    let mine = if v.user.is_some() {
        r#"<div class="panel"><h2>Your games in progress</h2><table id="my-games" class="list"><tbody><tr><td>Loading…</td></tr></tbody></table></div>"#
    } else {
        ""
    };
    let body = format!(
        r#"<h1 class="sr-only">Lobby</h1>
<section class="lobby">
<div class="panel"><h2>Bots online</h2><table id="bots" class="list"><thead><tr><th>Bot</th><th>Ratings</th><th>Plays</th><th><span class="sr-only">Challenge</span></th></tr></thead><tbody><tr><td colspan="4">Loading…</td></tr></tbody></table></div>
<div class="panel" id="new-game-panel"><h2 id="new-game-title">New game</h2>
<form id="new-game" class="stack">
<label>Opponent <select name="opponent" id="opponent"><option value="">(an open seek)</option></select></label>
<label>Variant <select name="variant">{variants}</select></label>
<label>Minutes <input name="minutes" type="number" min="0" max="180" step="0.5" value="5"></label>
<label>Increment (s) <input name="increment" type="number" min="0" max="60" value="3"></label>
<label>From position (FEN; empty: the start position) <input name="fen" id="new-game-fen" spellcheck="false" autocomplete="off"></label>
<label>Colour <select name="color"><option value="random">random</option><option value="white">white</option><option value="black">black</option></select></label>
<label class="check"><input name="rated" type="checkbox"> rated</label>
<p id="new-game-warning" class="status warn" role="status" hidden></p>
<button type="submit" id="create-game">Play</button>
<p id="new-game-status" class="status" role="status"></p>
<button type="button" id="cancel-challenge" hidden>Cancel the challenge</button>
</form>{login_hint}</div>
<div class="panel"><h2>Challenges to you</h2><table id="challenges" class="list"><tbody><tr><td>None.</td></tr></tbody></table></div>
{mine}
<div class="panel"><h2>Open seeks</h2><table id="seeks" class="list"><tbody></tbody></table></div>
<div class="panel"><h2>Games in progress</h2><table id="playing" class="list"><tbody></tbody></table></div>
</section>"#,
        login_hint = if v.user.is_none() {
            r#"<p class="hint">Please <a href="/login?referrer=/">sign in</a> or <a href="/signup">sign up</a> to play.</p>"#
        } else {
            ""
        }
    );
    Page::new("Lobby", "lobby.js", body).render(&v)
}

fn signup_form(v: &Viewer, error: &str, username: &str) -> String {
    format!(
        r#"<section class="panel narrow"><h1>Sign up</h1>{err}
<form method="post" action="/signup" class="stack">
<input type="hidden" name="csrf" value="{csrf}">
<label>Username <input name="username" autocomplete="username" required minlength="2" maxlength="30" pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" value="{user}"></label>
<label>Password <input name="password" type="password" autocomplete="new-password" required minlength="{MIN_PASSWORD}" maxlength="{MAX_PASSWORD}"></label>
<label>Password again <input name="password2" type="password" autocomplete="new-password" required minlength="{MIN_PASSWORD}" maxlength="{MAX_PASSWORD}"></label>
<button type="submit">Sign up</button></form>
<p>Already have an account? <a href="/login">Sign in</a>.</p></section>"#,
        err = html::error_line(error),
        csrf = esc(&v.csrf),
        user = esc(username),
    )
}

fn login_form(v: &Viewer, error: &str, username: &str, referrer: &str) -> String {
    format!(
        r#"<section class="panel narrow"><h1>Sign in</h1>{err}
<form method="post" action="/login" class="stack">
<input type="hidden" name="csrf" value="{csrf}">
<input type="hidden" name="referrer" value="{referrer}">
<label>Username <input name="username" autocomplete="username" required value="{user}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>
<p>No account yet? <a href="/signup">Sign up</a>.</p></section>"#,
        err = html::error_line(error),
        csrf = esc(&v.csrf),
        user = esc(username),
        referrer = esc(referrer),
    )
}

async fn signup_page(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    Page::new("Sign up", "", signup_form(&v, "", "")).render(&v)
}

async fn login_page(State(s): S, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    let v = Viewer::of(&s, &headers);
    let q = parse_urlencoded(q.as_deref().unwrap_or(""));
    let referrer = local_path(q.get("referrer"));
    Page::new("Sign in", "", login_form(&v, "", "", &referrer)).render(&v)
}

/// Signs `user` in: a new session and its cookie, then on to `to`.
fn signed_in(s: &Shared, v: &Viewer, user: &str, to: &str) -> Response {
    match s.lock().create_session(user) {
        Ok((cookie, _)) => {
            let mut r = redirect(to);
            let c = auth::set_cookie(SESSION_COOKIE, &cookie, SESSION_MS / 1000, "Lax", v.secure);
            if let Ok(value) = HeaderValue::from_str(&c) {
                r.headers_mut().append(header::SET_COOKIE, value);
            }
            r
        }
        Err(e) => {
            let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            Page::new("Sign in", "", html::error_line(&e.message))
                .status(status)
                .render(v)
        }
    }
}

/// Counts a sign-up or sign-in from the requester; over its budget, the wait until the next.
fn within_account_budget(
    s: &Shared,
    headers: &HeaderMap,
    extensions: &axum::http::Extensions,
) -> Result<(), std::time::Duration> {
    let who = auth::requester(s, headers, extensions);
    let now = std::time::Instant::now();
    let mut budget = s.account_budget.lock().unwrap_or_else(|p| p.into_inner());
    if budget.allow(&who, now) {
        Ok(())
    } else {
        Err(budget.wait(&who, now))
    }
}

/// A wait as people read it: "7 s", "2 minutes" (rounded up).
pub fn wait_text(wait: std::time::Duration) -> String {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    match secs {
        0 | 1 => "1 s".to_string(),
        s if s < 120 => format!("{s} s"),
        s => format!("{} minutes", s.div_ceil(60)),
    }
}

/// Hashes or checks a password off the async threads, a few at a time.
async fn with_password_slot<T: Send + 'static>(s: &Shared, job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let _permit = s.password_slots.acquire().await.ok()?;
    tokio::task::spawn_blocking(job).await.ok()
}

async fn signup(State(s): S, headers: HeaderMap, extensions: axum::http::Extensions, body: Bytes) -> Response {
    let v = Viewer::of(&s, &headers);
    if let Err(wait) = within_account_budget(&s, &headers, &extensions) {
        let text = format!(
            "Too many sign-ups and sign-ins from here: try again in {}.",
            wait_text(wait)
        );
        return Page::new("Sign up", "", signup_form(&v, &text, ""))
            .status(StatusCode::TOO_MANY_REQUESTS)
            .render(&v);
    }
    let f = form(&body);
    let username = f.get("username").map_or("", |u| u.trim());
    let password = f.get("password").map_or("", String::as_str);
    let again = f.get("password2").map_or("", String::as_str);
    let refuse = |msg: &str| {
        Page::new("Sign up", "", signup_form(&v, msg, username))
            .status(StatusCode::BAD_REQUEST)
            .render(&v)
    };
    if !super::state::valid_username(username) {
        return refuse("The username must be 2 to 30 letters, digits, _ or -, starting with a letter or digit.");
    }
    if password.chars().count() < MIN_PASSWORD || password.len() > MAX_PASSWORD {
        return refuse(&format!(
            "The password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters."
        ));
    }
    if password != again {
        return refuse("The two passwords differ.");
    }
    if s.lock().display_name(&username.to_lowercase()).is_some() {
        return refuse(&format!("The username {username} is taken."));
    }
    let pw = password.to_string();
    let phc = match with_password_slot(&s, move || auth::hash_password(&pw)).await {
        Some(Ok(h)) => h,
        _ => return (StatusCode::INTERNAL_SERVER_ERROR, "The password could not be hashed").into_response(),
    };
    let made = s.lock().transact(|inner| {
        let id = inner.create_account(username, false, false)?;
        inner.set_password(&id, &phc)?;
        Ok(id)
    });
    let id = match made {
        Ok(id) => id,
        Err(e) if e.status == 503 => {
            return Page::new("Sign up", "", signup_form(&v, &e.message, username))
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .render(&v)
        }
        Err(e) => return refuse(&e.message),
    };
    signed_in(&s, &v, &id, "/")
}

async fn login(State(s): S, headers: HeaderMap, extensions: axum::http::Extensions, body: Bytes) -> Response {
    let v = Viewer::of(&s, &headers);
    let f = form(&body);
    let username = f.get("username").map_or("", |u| u.trim());
    let password = f.get("password").cloned().unwrap_or_default();
    let referrer = local_path(f.get("referrer"));
    let id = username.to_lowercase();
    let (refused, phc) = match within_account_budget(&s, &headers, &extensions) {
        Ok(()) => {
            let mut inner = s.lock();
            let wait = inner.sign_in_wait(&id);
            let refused = (!wait.is_zero()).then(|| {
                format!(
                    "Too many sign-in attempts for this account: try again in {}.",
                    wait_text(wait)
                )
            });
            (refused, inner.password_of(&id))
        }
        Err(wait) => (
            Some(format!(
                "Too many sign-in attempts from here: try again in {}.",
                wait_text(wait)
            )),
            None,
        ),
    };
    if let Some(text) = refused {
        return Page::new("Sign in", "", login_form(&v, &text, username, &referrer))
            .status(StatusCode::TOO_MANY_REQUESTS)
            .render(&v);
    }
    let known = phc.is_some();
    let phc = phc.unwrap_or_else(|| auth::decoy_hash().to_string());
    let ok = with_password_slot(&s, move || auth::verify_password(&password, &phc))
        .await
        .unwrap_or(false);
    if !(ok && known) {
        s.lock().count_failed_sign_in(&id);
        return Page::new(
            "Sign in",
            "",
            login_form(&v, "Wrong username or password.", username, &referrer),
        )
        .status(StatusCode::UNAUTHORIZED)
        .render(&v);
    }
    signed_in(&s, &v, &id, &referrer)
}

async fn logout(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    if let Some(c) = auth::cookie(&headers, SESSION_COOKIE) {
        if let Err(e) = s.lock().end_session(c) {
            return Page::new("Sign out", "", html::error_line(&e.message))
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .render(&v);
        }
    }
    let mut r = redirect("/");
    if let Ok(value) = HeaderValue::from_str(&auth::set_cookie(SESSION_COOKIE, "", 0, "Lax", v.secure)) {
        r.headers_mut().append(header::SET_COOKIE, value);
    }
    r
}

fn tokens_body(s: &Shared, v: &Viewer, user: &str, created: Option<&str>) -> String {
    let tokens = s.lock().tokens_of(user);
    let mut rows = String::new();
    for t in &tokens {
        rows.push_str(&format!(
            r#"<tr><td>{desc}</td><td>{scopes}</td><td>{when}</td><td><form method="post" action="/account/oauth/token/revoke"><input type="hidden" name="csrf" value="{csrf}"><input type="hidden" name="hash" value="{hash}"><button type="submit" class="danger">Revoke</button></form></td></tr>"#,
            desc = esc(&t.description),
            scopes = esc(&t.scopes.join(", ")),
            when = html::date(t.created_at),
            csrf = esc(&v.csrf),
            hash = esc(&t.hash),
        ));
    }
    if tokens.is_empty() {
        rows.push_str(r#"<tr><td colspan="4">No token yet.</td></tr>"#);
    }
    let boxes: String = KNOWN_SCOPES
        .iter()
        .map(|sc| {
            let checked = if matches!(*sc, "board:play" | "challenge:read" | "challenge:write") {
                " checked"
            } else {
                ""
            };
            format!(
                r#"<label class="check"><input type="checkbox" name="scopes[]" value="{sc}"{checked}> {sc}</label>"#
            )
        })
        .collect();
    let fresh = created.map_or(String::new(), |t| {
        format!(
            r#"<div class="notice"><p>Your new token (copy it now: it is not shown again):</p><code id="new-token">{}</code></div>"#,
            esc(t)
        )
    });
    format!(
        r#"<section class="panel"><h1>Personal API access tokens</h1>{fresh}
<p>A token lets a program (a bot, a board client, a script) act for your account through the API, with the scopes you give it.</p>
<table class="list" id="tokens"><thead><tr><th>Description</th><th>Scopes</th><th>Created</th><th><span class="sr-only">Revoke</span></th></tr></thead><tbody>{rows}</tbody></table>
<h2>New token</h2>
<form method="post" action="/account/oauth/token/create" class="stack">
<input type="hidden" name="csrf" value="{csrf}">
<label>Description <input name="description" required maxlength="100" placeholder="my board client"></label>
<fieldset><legend>Scopes</legend>{boxes}</fieldset>
<button type="submit">Create</button></form></section>"#,
        csrf = esc(&v.csrf),
    )
}

async fn tokens_page(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    let Some(user) = v.id().map(str::to_string) else {
        return redirect("/login?referrer=/account/oauth/token");
    };
    Page::new("API tokens", "", tokens_body(&s, &v, &user, None)).render(&v)
}

async fn create_token(State(s): S, headers: HeaderMap, body: Bytes) -> Response {
    let v = Viewer::of(&s, &headers);
    let Some(user) = v.id().map(str::to_string) else {
        return redirect("/login?referrer=/account/oauth/token");
    };
    let text = String::from_utf8_lossy(&body);
    let mut description = String::new();
    let mut scopes = Vec::new();
    for (k, val) in super::form::parse_pairs(&text) {
        match k.as_str() {
            "description" => description = val.trim().chars().take(100).collect(),
            "scopes[]" | "scopes" => scopes.push(val),
            _ => {}
        }
    }
    if description.is_empty() {
        description = "personal token".into();
    }
    if let Err(e) = check_scopes(&scopes) {
        return Page::new("API tokens", "", html::error_line(&e.message))
            .status(StatusCode::BAD_REQUEST)
            .render(&v);
    }
    let made = s.lock().create_token(&user, &scopes, &description);
    match made {
        Ok(token) => Page::new("API tokens", "", tokens_body(&s, &v, &user, Some(&token))).render(&v),
        Err(e) => Page::new("API tokens", "", html::error_line(&e.message))
            .status(StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST))
            .render(&v),
    }
}

async fn revoke_token(State(s): S, headers: HeaderMap, body: Bytes) -> Response {
    let v = Viewer::of(&s, &headers);
    let Some(user) = v.id().map(str::to_string) else {
        return redirect("/login?referrer=/account/oauth/token");
    };
    let f = form(&body);
    let hash = f.get("hash").map_or("", String::as_str);
    match s.lock().revoke_token_of(&user, hash) {
        Ok(true) => {}
        Ok(false) => {
            return Page::new("API tokens", "", html::error_line("No such token of yours."))
                .status(StatusCode::NOT_FOUND)
                .render(&v)
        }
        Err(e) => {
            return Page::new("API tokens", "", html::error_line(&e.message))
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .render(&v)
        }
    }
    redirect("/account/oauth/token")
}

/// The answer to a path that is no page and no API call: a browser (which asks for HTML) gets
/// a page saying so, anything else the API's JSON error.
pub fn not_found(s: &Shared, headers: &HeaderMap) -> Option<Response> {
    let wants_html = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    wants_html.then(|| {
        let v = Viewer::of(s, headers);
        let body = r#"<section class="panel narrow"><h1>Not found</h1><p class="error" role="alert">No such page: it was not found here.</p><p><a href="/">Back to the lobby</a></p></section>"#;
        Page::new("Not found", "", body.to_string())
            .status(StatusCode::NOT_FOUND)
            .render(&v)
    })
}

async fn game_page(State(s): S, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let v = Viewer::of(&s, &headers);
    let id: String = id.chars().take(8).collect();
    let exists = s.lock().game_view(&id, Some(0), None).is_ok();
    if !exists {
        let body = r#"<section class="panel narrow"><h1>Not found</h1><p class="error" role="alert">No such game: it was not found here.</p><p><a href="/">Back to the lobby</a></p></section>"#;
        return Page::new("Not found", "", body.to_string())
            .status(StatusCode::NOT_FOUND)
            .render(&v);
    }
    let body = format!(
        r#"<section class="game" id="game" data-game="{id}">
<div class="board-col">
<div class="player top" id="player-top"><span class="name"></span><span class="prisoners" hidden></span><span class="clock"></span></div>
<div class="board-wrap"><div id="board" class="board" aria-label="board"></div></div>
<div class="player bottom" id="player-bottom"><span class="name"></span><span class="prisoners" hidden></span><span class="clock"></span></div>
</div>
<div class="side">
<h1 class="sr-only" id="game-title">Game {id}</h1>
<div class="meta" id="meta"></div>
<div class="result" id="result" role="status"></div>
<p class="notice-line" id="notice" role="status" aria-live="polite"></p>
<div class="offer" id="offer"></div>
<p class="hint" id="claim-wait" hidden></p>
<form id="keyboard-move" class="keyboard-move" hidden><label for="move-input">Your move (SAN or UCI, Enter plays)</label><span class="row"><input id="move-input" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="move-input-error"><button type="submit">Play</button></span>
<span id="move-input-error" class="error" role="alert"></span></form>
<div id="move-announcer" class="sr-only" aria-live="polite" aria-atomic="true"></div>
<div class="moves" id="moves"></div>
<div class="nav"><button id="first" title="first">|&lt;</button><button id="prev" title="previous">&lt;</button><button id="next" title="next">&gt;</button><button id="last" title="last">&gt;|</button><button id="flip" title="flip the board">flip</button><button id="sound" type="button" aria-pressed="true">Sound on</button></div>
<div class="over" id="over" hidden><p class="end-reason" id="end-reason"></p><div class="rating-change" id="rating-change"></div>
<div class="actions"><button id="rematch" type="button">Rematch</button><a id="new-opponent" class="button" href="/">New opponent</a><a id="analyse-game" class="button" href="/analysis">Analyse this game</a></div>
<p class="status" id="rematch-status" role="status"></p></div>
<div class="actions" id="actions">
<button id="draw">Offer draw</button><button id="takeback">Takeback</button><button id="abort">Abort</button><button id="resign" class="danger">Resign</button><button id="claim">Claim victory</button><button id="claim-draw">Call it a draw</button>
</div>
<p><a id="pgn" href="/game/export/{id}" download="{id}.pgn">Download PGN</a></p>
<div class="chat" id="chat" hidden><h2>Chat</h2><div class="lines" id="chat-lines" aria-live="polite"></div>
<form id="chat-form" class="row"><label for="chat-text" class="sr-only">Message to the players' chat</label><input id="chat-text" maxlength="140" autocomplete="off" placeholder="Say something"><button type="submit">Send</button></form></div>
</div>
<div id="chooser" class="chooser" hidden></div>
</section>"#,
        id = esc(&id)
    );
    Page::new("Game", "game.js", body).render(&v)
}

async fn tv_page(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    let body = r#"<section class="tv"><h1>Watch</h1><p class="hint">Bot games in progress, live. Click a board to open the game.</p><div id="tv" class="tv-grid"></div></section>"#;
    Page::new("Watch", "tv.js", body.to_string()).render(&v)
}

async fn games_page(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    let variants = html::variant_options("");
    let body = format!(
        r#"<section class="panel"><h1>Games</h1>
<form id="filters" class="row"><label>Player <input name="user" maxlength="30"></label><label>Variant <select name="variant"><option value="">any</option>{variants}</select></label><label>State <select name="state"><option value="finished">finished</option><option value="running">in progress</option></select></label><button type="submit">Show</button></form>
<table class="list" id="games"><thead><tr><th>Game</th><th>White</th><th>Black</th><th>Variant</th><th>Result</th><th>Plies</th></tr></thead><tbody></tbody></table></section>"#
    );
    Page::new("Games", "games.js", body).render(&v)
}

/// The name of a speed key.
fn speed_name(key: &str) -> &str {
    match key {
        "ultraBullet" => "UltraBullet",
        "bullet" => "Bullet",
        "blitz" => "Blitz",
        "rapid" => "Rapid",
        "classical" => "Classical",
        "correspondence" => "Correspondence",
        other => other,
    }
}

async fn explorer_page(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    let speeds: String = ["ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"]
        .iter()
        .map(|k| {
            format!(
                r#"<label class="check"><input type="checkbox" name="speed" value="{k}" checked> {}</label>"#,
                speed_name(k)
            )
        })
        .collect();
    let body = format!(
        r#"<section class="game explorer">
<div class="board-col"><div class="board-wrap"><div id="board" class="board" aria-label="board"></div></div></div>
<div class="side">
<h1>Opening explorer</h1>
<label>Variant <select id="variant"></select></label>
<form id="fen-form" class="row"><label>Position (FEN; empty: the start) <input id="fen" name="fen" spellcheck="false"></label><button type="submit">Look up</button></form>
<p id="fen-error" class="error" role="alert" hidden></p>
<div class="line" id="line"></div>
<div class="nav"><button id="start" type="button">Start</button><button id="back" type="button">Back</button><button id="flip" type="button">flip</button></div>
<section id="played" aria-labelledby="played-title">
<h2 id="played-title">Games played here</h2>
<form id="games-filter" class="row"><fieldset class="speeds"><legend>Speeds</legend>{speeds}</fieldset>
<label>Mean rating from <input id="min-rating" name="minRating" type="number" min="0" max="4000" step="50" inputmode="numeric"></label>
<label>to <input id="max-rating" name="maxRating" type="number" min="0" max="4000" step="50" inputmode="numeric"></label></form>
<p id="games-summary" class="hint" aria-live="polite"></p>
<table class="list" id="games-moves"><thead><tr><th>Move</th><th>Games</th><th>White / draw / Black</th><th>Mean rating</th></tr></thead><tbody></tbody></table>
<h3>Recent games</h3>
<ul id="recent-games" class="recent"></ul>
<p class="hint">The arena's finished games from the start position, by position: every move order that reaches this position counts. Click a move to go on.</p>
</section>
<section id="selfplay" aria-labelledby="selfplay-title">
<h2 id="selfplay-title">Self-play statistics</h2>
<p id="summary" class="hint"></p>
<table class="list" id="moves"><thead><tr><th>Move</th><th>Games</th><th>White / draw / Black</th><th>White's score (95%)</th><th>Eval</th></tr></thead><tbody></tbody></table>
<p class="hint">From the self-play statistics the arena was started with (<code>--openings</code>): the moves played along this line, how often, how they scored, and the mean evaluation after them.</p>
</section>
</div></section>"#
    );
    Page::new("Opening explorer", "explorer.js", body).render(&v)
}

async fn analysis_page(State(s): S, headers: HeaderMap) -> Response {
    let v = Viewer::of(&s, &headers);
    let variants = html::variant_options("");
    let body = format!(
        r#"<section class="game analysis">
<div class="board-col"><div class="board-wrap"><div id="board" class="board" aria-label="board"></div></div></div>
<div class="side">
<h1>Analysis board</h1>
<form id="setup" class="stack">
<label>Variant <select name="variant" id="variant">{variants}</select></label>
<label>FEN (empty: the start position) <input name="fen" id="fen" spellcheck="false"></label>
<button type="submit">Set up</button></form>
<details><summary>Paste a PGN</summary><form id="pgn-form" class="stack"><label for="pgn">PGN of a game</label><textarea id="pgn" rows="6" spellcheck="false"></textarea><button type="submit">Load the PGN</button></form></details>
<p id="status" class="status" role="status" aria-live="polite"></p>
<div class="moves" id="moves"></div>
<div class="nav"><button id="first" type="button" title="the start (Home)">|&lt;</button><button id="prev" type="button" title="back one move (left arrow)">&lt;</button><button id="next" type="button" title="on one move (right arrow)">&gt;</button><button id="last" type="button" title="the end of the line (End)">&gt;|</button><button id="flip" type="button">flip</button><label>Nodes <select id="nodes"><option>50000</option><option selected>200000</option><option>1000000</option></select></label><button id="analyse" type="button">Analyse</button></div>
<div id="analysis" class="analysis-out"></div>
</div></section>"#
    );
    Page::new("Analysis board", "analysis.js", body).render(&v)
}
