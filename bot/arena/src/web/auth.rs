//! Sign-in plumbing of the pages: cookies, the viewer of a request (signed in or not), the CSRF
//! token every form and script POST must carry, and password hashing with Argon2id (memory-hard,
//! run off the async threads).

use axum::http::{header, HeaderMap};

use super::super::{state::Session, Shared};

/// The session cookie (HttpOnly, SameSite=Lax).
pub const SESSION_COOKIE: &str = "arena_session";
/// The CSRF cookie of visitors not signed in (double-submit: forms carry the same value).
pub const CSRF_COOKIE: &str = "arena_csrf";
/// The form field of the CSRF token.
pub const CSRF_FIELD: &str = "csrf";
/// The header of the CSRF token (scripts).
pub const CSRF_HEADER: &str = "x-csrf-token";

/// Shortest password accepted.
pub const MIN_PASSWORD: usize = 8;
/// Longest password accepted (hashing cost is bounded by the body limit anyway).
pub const MAX_PASSWORD: usize = 256;

/// The value of cookie `name`, if sent.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// The signed-in session of a request, if any.
pub fn session(shared: &Shared, headers: &HeaderMap) -> Option<Session> {
    let value = cookie(headers, SESSION_COOKIE)?;
    shared.lock().session(value)
}

/// The bearer token of a request, if any.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// The account of a request: its bearer token's, else (no `Authorization` header) the
/// signed-in browser session's (whose POSTs carry the CSRF token, checked before any handler).
pub fn account(shared: &Shared, headers: &HeaderMap) -> Option<String> {
    if headers.contains_key(header::AUTHORIZATION) {
        let token = bearer(headers)?;
        return shared.lock().user_of_token(token);
    }
    session(shared, headers).map(|s| s.user)
}

/// Who asks, for per-user budgets: the account, else the client address (the last
/// `X-Forwarded-For` entry behind a proxy).
pub fn requester(shared: &Shared, headers: &HeaderMap, extensions: &axum::http::Extensions) -> String {
    if let Some(user) = account(shared, headers) {
        return user;
    }
    let trust = shared.lock().config.trust_forwarded_for;
    let forwarded = trust
        .then(|| headers.get("x-forwarded-for"))
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .map(|v| v.trim().to_string());
    forwarded.unwrap_or_else(|| {
        extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map_or_else(|| "-".to_string(), |c| c.0.ip().to_string())
    })
}

/// Whether the request came over TLS (a reverse proxy in front says so with
/// `X-Forwarded-Proto: https`, trusted only when the arena runs behind one).
pub fn secure(shared: &Shared, headers: &HeaderMap) -> bool {
    shared.lock().config.trust_forwarded_for
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// A `Set-Cookie` value: HttpOnly, `SameSite`, `Secure` behind TLS; `max_age` 0 deletes it.
pub fn set_cookie(name: &str, value: &str, max_age_s: u64, same_site: &str, secure: bool) -> String {
    format!(
        "{name}={value}; Path=/; Max-Age={max_age_s}; HttpOnly; SameSite={same_site}{}",
        if secure { "; Secure" } else { "" }
    )
}

/// Compares two secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The CSRF token a state-changing request must carry, if it needs one: the session's when
/// signed in, else the visitor's CSRF cookie (forms before sign-in). `None`: the request needs
/// none: a valid bearer token authenticates it (a browser never sends one by itself). Any other
/// `Authorization` header (a wrong token, `Basic ...`) exempts nothing: a request that a
/// session cookie would authenticate needs the CSRF token whatever else it carries.
/// `by_token`: whether a valid bearer token authenticates the request (the caller has looked
/// it up already).
pub fn expected_csrf(shared: &Shared, headers: &HeaderMap, page: bool, by_token: bool) -> Option<Result<String, ()>> {
    if by_token {
        return None;
    }
    if let Some(s) = session(shared, headers) {
        return Some(Ok(s.csrf));
    }
    if !page {
        // An API call with neither a token nor a session: it gets 401 from the handler.
        return None;
    }
    Some(cookie(headers, CSRF_COOKIE).map(str::to_string).ok_or(()))
}

/// Hashes a password with Argon2id and a random salt (PHC string).
pub fn hash_password(password: &str) -> Result<String, String> {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no random numbers: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches a PHC string (a malformed one never matches).
pub fn verify_password(password: &str, phc: &str) -> bool {
    use argon2::password_hash::{PasswordHash, PasswordVerifier};
    PasswordHash::new(phc).is_ok_and(|h| {
        argon2::Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A PHC string that matches no password, verified for unknown accounts so that a sign-in
/// takes as long whether the account exists or not.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("a password nobody has, for timing").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let phc = hash_password("correct horse").expect("hash");
        assert!(phc.starts_with("$argon2id$"), "{phc}");
        assert!(verify_password("correct horse", &phc));
        assert!(!verify_password("correct horsf", &phc));
        assert!(!verify_password("x", "not a hash"));
        assert_ne!(hash_password("correct horse").expect("hash"), phc, "salted");
    }

    #[test]
    fn cookies_are_read_by_name() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_static("a=1; arena_session=xyz; b=2"));
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("xyz"));
        assert_eq!(cookie(&h, "b"), Some("2"));
        assert_eq!(cookie(&h, "c"), None);
        assert!(same_secret("abc", "abc") && !same_secret("abc", "abd") && !same_secret("ab", "abc"));
        let c = set_cookie(SESSION_COOKIE, "v", 10, "Lax", true);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && c.ends_with("; Secure"));
    }
}
