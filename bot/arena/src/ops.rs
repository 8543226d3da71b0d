//! Running the arena in public: the health check, the Prometheus metrics, the access log, and
//! the moderators' API (disable or enable an account, abort or adjudicate a game, remove a
//! chat line). The moderators' calls need an admin account's token.

use std::{sync::Arc, time::Duration};

use axum::{
    body::Bytes,
    extract::{Path, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};

use super::{
    form::parse_body,
    state::{moderation::Adjudication, Refusal},
    Shared,
};

type S = State<Arc<Shared>>;

fn refused(r: Refusal) -> Response {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::BAD_REQUEST);
    (status, Json(serde_json::json!({ "error": r.message }))).into_response()
}

fn ok() -> Response {
    Json(serde_json::json!({ "ok": true })).into_response()
}

/// The operators' routes.
pub fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/arena/health", get(health))
        .route("/metrics", get(metrics))
        .route("/api/arena/admin/account/{name}/disable", post(disable))
        .route("/api/arena/admin/account/{name}/enable", post(enable))
        .route("/api/arena/admin/game/{id}/abort", post(abort_game))
        .route("/api/arena/admin/game/{id}/adjudicate", post(adjudicate))
        .route("/api/arena/admin/game/{id}/chat", get(game_chat))
        .route("/api/arena/admin/game/{id}/chat/{index}/remove", post(remove_chat))
}

/// `GET /api/arena/health`: 200 `{"status":"ok",...}` while the arena takes writes, 503
/// `{"status":"degraded",...}` (with the database's error) while it does not.
async fn health(State(s): S) -> Response {
    let (degraded, database, (games, streams)) = {
        let inner = s.lock();
        (
            inner.degraded().map(str::to_string),
            inner.database_path(),
            inner.counts(),
        )
    };
    let body = serde_json::json!({
        "status": if degraded.is_some() { "degraded" } else { "ok" },
        "database": {
            "kind": if database.is_some() { "sqlite" } else { "memory" },
            "writable": degraded.is_none(),
            "error": degraded,
        },
        "runningGames": games,
        "openStreams": streams,
        "uptimeSeconds": s.started.elapsed().as_secs(),
        "version": env!("CARGO_PKG_VERSION"),
    });
    let status = if degraded.is_some() {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    (status, [(header::CACHE_CONTROL, "no-store")], Json(body)).into_response()
}

/// `GET /metrics`: the Prometheus text (404 when the arena runs without metrics).
async fn metrics(State(s): S) -> Response {
    let Some(m) = s.metrics.clone() else {
        return refused(Refusal::not_found("Metrics are off (the arena runs with --no-metrics)"));
    };
    let ((games, streams), degraded) = {
        let inner = s.lock();
        (inner.counts(), inner.degraded().is_some())
    };
    let text = m.render(games, streams, degraded);
    ([(header::CONTENT_TYPE, super::metrics::CONTENT_TYPE)], text).into_response()
}

/// The admin account of a request, else the refusal (401 without a valid token, 403 for
/// others).
fn admin(s: &Shared, headers: &HeaderMap) -> Result<String, Refusal> {
    let user = super::web::auth::account(s, headers).ok_or_else(|| Refusal {
        status: 401,
        message: "No such token".into(),
    })?;
    if !s.lock().is_admin(&user) {
        return Err(Refusal::forbidden("Admin accounts only"));
    }
    Ok(user)
}

async fn set_disabled(s: Arc<Shared>, headers: HeaderMap, name: String, disabled: bool) -> Response {
    let who = match admin(&s, &headers) {
        Ok(u) => u,
        Err(r) => return refused(r),
    };
    if disabled && who == name.to_lowercase() {
        return refused(Refusal::bad("An admin cannot disable their own account"));
    }
    let changed = s.lock().set_disabled(&name, disabled);
    match changed {
        Ok(changed) => {
            tracing::info!(
                "arena: {who} {} account {name}{}",
                if disabled { "disabled" } else { "enabled" },
                if changed { "" } else { " (no change)" }
            );
            Json(serde_json::json!({ "ok": true, "changed": changed })).into_response()
        }
        Err(r) => refused(r),
    }
}

/// `POST /api/arena/admin/account/{name}/disable`.
async fn disable(State(s): S, headers: HeaderMap, Path(name): Path<String>) -> Response {
    set_disabled(s, headers, name, true).await
}

/// `POST /api/arena/admin/account/{name}/enable`.
async fn enable(State(s): S, headers: HeaderMap, Path(name): Path<String>) -> Response {
    set_disabled(s, headers, name, false).await
}

/// `POST /api/arena/admin/game/{id}/abort`.
async fn abort_game(State(s): S, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if let Err(r) = admin(&s, &headers) {
        return refused(r);
    }
    let ended = s.lock().admin_end_game(&id, None);
    ended.map_or_else(refused, |()| ok())
}

/// `POST /api/arena/admin/game/{id}/adjudicate` with `result` = `white`, `black` or `draw`.
async fn adjudicate(State(s): S, headers: HeaderMap, Path(id): Path<String>, body: Bytes) -> Response {
    if let Err(r) = admin(&s, &headers) {
        return refused(r);
    }
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let f = match parse_body(ct, &body) {
        Ok(f) => f,
        Err(e) => return refused(Refusal::bad(e)),
    };
    let given = f.get("result").map_or("", String::as_str);
    let Some(result) = Adjudication::parse(given) else {
        return refused(Refusal::bad(format!("Invalid result '{given}': white, black or draw")));
    };
    let ended = s.lock().admin_end_game(&id, Some(result));
    ended.map_or_else(refused, |()| ok())
}

/// `GET /api/arena/admin/game/{id}/chat`: every line, both rooms, with its index.
async fn game_chat(State(s): S, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if let Err(r) = admin(&s, &headers) {
        return refused(r);
    }
    let lines = s.lock().admin_chat(&id);
    lines.map_or_else(refused, |l| Json(l).into_response())
}

/// `POST /api/arena/admin/game/{id}/chat/{index}/remove`.
async fn remove_chat(State(s): S, headers: HeaderMap, Path((id, index)): Path<(String, String)>) -> Response {
    if let Err(r) = admin(&s, &headers) {
        return refused(r);
    }
    let Ok(index) = index.parse::<usize>() else {
        return refused(Refusal::bad(format!("Invalid index: {index}")));
    };
    let removed = s.lock().admin_remove_chat(&id, index);
    removed.map_or_else(refused, |()| ok())
}

/// One line of the access log: client address, account (or `-`), time (UTC, RFC 3339),
/// method, path (never the query, which may carry secrets), status, milliseconds, the
/// user agent. No header that carries a token or a cookie is ever written.
pub fn access_line(
    ip: std::net::IpAddr,
    user: Option<&str>,
    method: &str,
    path: &str,
    status: u16,
    took: Duration,
    agent: &str,
) -> String {
    let agent: String = agent
        .chars()
        .take(200)
        .map(|c| if c == '"' || c.is_control() { '?' } else { c })
        .collect();
    let path: String = path
        .chars()
        .take(500)
        .map(|c| if c.is_control() || c == ' ' { '?' } else { c })
        .collect();
    format!(
        "{ip} {} {} \"{method} {path}\" {status} {:.1}ms \"{agent}\"\n",
        user.unwrap_or("-"),
        rfc3339(std::time::SystemTime::now()),
        took.as_secs_f64() * 1000.0
    )
}

/// `2026-11-26T02:29:34.123Z`.
fn rfc3339(t: std::time::SystemTime) -> String {
    let ms = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let (y, m, d) = engine::rules::notation::pgn::civil_date_from_unix_ms(ms);
    let rest = ms % 86_400_000;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_lines_quote_nothing_secret_and_dates_are_civil() {
        let t = std::time::UNIX_EPOCH + Duration::from_millis(1_795_660_174_123);
        assert_eq!(rfc3339(t), "2026-11-26T02:29:34.123Z");
        assert_eq!(rfc3339(std::time::UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let line = access_line(
            "127.0.0.1".parse().expect("ip"),
            Some("alpha"),
            "POST",
            "/api/bot/game/abc/move/e2e4",
            200,
            Duration::from_micros(1500),
            "bot \"x\"\n",
        );
        assert!(line.starts_with("127.0.0.1 alpha 20"), "{line}");
        assert!(
            line.ends_with(" \"POST /api/bot/game/abc/move/e2e4\" 200 1.5ms \"bot ?x??\"\n"),
            "{line}"
        );
    }
}
