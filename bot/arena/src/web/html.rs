//! HTML of the pages: escaping, the page frame (navigation, the signed-in user, the CSRF token
//! for scripts) and the security headers every page is sent with.

use axum::{
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use engine::rules::Variant;

use super::{auth, Viewer};

/// The Content-Security-Policy of every page: only this origin's scripts, styles, images and
/// connections; no inline script, no plugin, no framing, forms only to this origin.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Escapes text for HTML content and attribute values (the workspace's one escaping).
pub use engine::cli::escape_html as esc;

/// An error paragraph (empty text: nothing).
pub fn error_line(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!(r#"<p class="error" role="alert">{}</p>"#, esc(text))
    }
}

/// A date (UTC) of ms since the epoch, `YYYY-MM-DD` (the PGN date with dashes).
pub fn date(ms: u64) -> String {
    engine::rules::notation::pgn::date_from_unix_ms(ms).replace('.', "-")
}

/// `<option>`s of the variants the arena plays, by server key, under the names the games get
/// (chess is "Standard", as on Lichess and on the game page); `selected` is chosen.
pub fn variant_options(selected: &str) -> String {
    Variant::ALL
        .iter()
        .map(|&v| {
            let r = lichess_api::variants::variant_ref(v, false);
            let chosen = if r.key == selected { " selected" } else { "" };
            format!(r#"<option value="{}"{chosen}>{}</option>"#, esc(&r.key), esc(&r.name))
        })
        .collect()
}

/// A page: title, its script (none: ""), its main content, its status.
pub struct Page {
    title: String,
    script: &'static str,
    body: String,
    status: StatusCode,
}

impl Page {
    /// A 200 page.
    pub fn new(title: &str, script: &'static str, body: String) -> Page {
        Page {
            title: title.to_string(),
            script,
            body,
            status: StatusCode::OK,
        }
    }

    /// Another status.
    pub fn status(mut self, status: StatusCode) -> Page {
        self.status = status;
        self
    }

    /// The HTML with its headers (and the visitor's new CSRF cookie, if any).
    pub fn render(self, v: &Viewer) -> Response {
        let me = match &v.user {
            Some((_, name)) => format!(
                r#"<a href="/account/oauth/token" id="me">{}</a><form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="{}"><button type="submit" id="logout">Sign out</button></form>"#,
                esc(name),
                esc(&v.csrf)
            ),
            None => r#"<a href="/login" id="login">Sign in</a><a href="/signup" id="signup">Sign up</a>"#.to_string(),
        };
        let script = if self.script.is_empty() {
            String::new()
        } else {
            format!(r#"<script src="/assets/{}" defer></script>"#, self.script)
        };
        let user = v.user.as_ref().map_or("", |u| u.0.as_str());
        let html = format!(
            r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Persian Chess arena</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/arena.css">
<script src="/assets/common.js" defer></script><script src="/assets/board.js" defer></script>{script}
</head><body data-csrf="{csrf}" data-user="{user}">
<header class="top"><nav><a href="/" class="brand">Persian Chess arena</a><a href="/">Lobby</a><a href="/tv">Watch</a><a href="/games">Games</a><a href="/explorer">Openings</a><a href="/analysis">Analysis</a></nav><div class="me"><label class="theme">Board <select id="board-theme"><option value="wood">wood</option><option value="blue">blue</option></select></label>{me}</div></header>
<main>{body}</main>
</body></html>"#,
            title = esc(&self.title),
            csrf = esc(&v.csrf),
            user = esc(user),
            body = self.body,
        );
        let mut r = (self.status, html).into_response();
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
        h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some(c) = &v.new_csrf_cookie {
            let cookie = auth::set_cookie(auth::CSRF_COOKIE, c, 30 * 86_400, "Strict", v.secure);
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                h.append(header::SET_COOKIE, value);
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_dates_are_civil() {
        assert_eq!(
            esc(r#"<b a="x">'&'</b>"#),
            "&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;"
        );
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(1_795_000_000_000), "2026-11-18");
        assert_eq!(date(951_782_400_000), "2000-02-29");
    }
}
