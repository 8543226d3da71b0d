//! The browser pages over plain HTTP (the headless-browser tests are in `browser.rs`): sign up,
//! sign in and out, sessions and their CSRF token, the token page, the security headers, the
//! escaping of what users type, and the JSON views the page scripts read.

use crate::common;

use std::collections::HashMap;

use common::{arena, Raw};

/// A cookie-keeping client that does not follow redirects.
struct Visitor {
    http: reqwest::Client,
    base: String,
    cookies: HashMap<String, String>,
}

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: String,
}

impl Visitor {
    fn new(base: &str) -> Visitor {
        Visitor {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
            base: base.to_string(),
            cookies: HashMap::new(),
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    async fn keep(&mut self, r: reqwest::Response) -> Answer {
        for c in r.headers().get_all(reqwest::header::SET_COOKIE) {
            let text = c.to_str().expect("ascii cookie");
            let first = text.split(';').next().expect("a pair");
            let (k, v) = first.split_once('=').expect("name=value");
            if v.is_empty() || text.contains("Max-Age=0") {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_string(), v.to_string());
            }
        }
        Answer {
            status: r.status().as_u16(),
            headers: r.headers().clone(),
            body: r.text().await.expect("body"),
        }
    }

    async fn get(&mut self, path: &str) -> Answer {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .send()
            .await
            .expect("request");
        self.keep(r).await
    }

    async fn post(&mut self, path: &str, form: &[(&str, &str)], csrf_header: Option<&str>) -> Answer {
        let mut req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .form(form);
        if let Some(c) = csrf_header {
            req = req.header("x-csrf-token", c);
        }
        let r = req.send().await.expect("request");
        self.keep(r).await
    }

    /// The CSRF token the last page carried (`data-csrf` of the body).
    fn csrf_of(page: &Answer) -> String {
        let at = page.body.find("data-csrf=\"").expect("a page with a CSRF token") + 11;
        page.body[at..].split('"').next().expect("closed").to_string()
    }

    async fn sign_up(&mut self, name: &str, password: &str) -> Answer {
        let page = self.get("/signup").await;
        let csrf = Visitor::csrf_of(&page);
        self.post(
            "/signup",
            &[
                ("csrf", &csrf),
                ("username", name),
                ("password", password),
                ("password2", password),
            ],
            None,
        )
        .await
    }

    async fn csrf(&mut self) -> String {
        let page = self.get("/").await;
        Visitor::csrf_of(&page)
    }
}

#[tokio::test]
async fn sign_up_in_and_out_with_sessions_and_csrf() {
    let arena = arena().await;
    let mut v = Visitor::new(&arena.url());
    let lobby = v.get("/").await;
    assert_eq!(lobby.status, 200);
    let csp = lobby.headers["content-security-policy"].to_str().expect("ascii");
    assert!(
        csp.contains("default-src 'self'") && csp.contains("script-src 'self'") && !csp.contains("unsafe"),
        "{csp}"
    );
    assert_eq!(lobby.headers["x-frame-options"], "DENY");
    assert!(lobby.body.contains("id=\"login\""), "not signed in yet");
    assert!(v.cookies.contains_key("arena_csrf"), "a visitor gets a CSRF cookie");

    // A form without the token, or with another one, is refused and creates nothing.
    let no_csrf = v
        .post(
            "/signup",
            &[
                ("username", "Mallory"),
                ("password", "long enough"),
                ("password2", "long enough"),
            ],
            None,
        )
        .await;
    assert_eq!(no_csrf.status, 403, "{}", no_csrf.body);
    let wrong = v
        .post(
            "/signup",
            &[
                ("csrf", "forged"),
                ("username", "Mallory"),
                ("password", "long enough"),
                ("password2", "long enough"),
            ],
            None,
        )
        .await;
    assert_eq!(wrong.status, 403);
    assert_eq!(Raw::new(&arena).get("", "/api/user/mallory").await.0, 404);

    // Bad sign-ups say why, and echo what was typed escaped.
    let page = v.get("/signup").await;
    let csrf = Visitor::csrf_of(&page);
    let bad = v
        .post(
            "/signup",
            &[
                ("csrf", &csrf),
                ("username", "<b>x</b>"),
                ("password", "long enough"),
                ("password2", "long enough"),
            ],
            None,
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(
        bad.body.contains("&lt;b&gt;x&lt;/b&gt;") && !bad.body.contains("<b>x</b>"),
        "{}",
        bad.body
    );
    let short = v.sign_up("Alice", "short").await;
    assert_eq!(short.status, 400);
    assert!(short.body.contains("8 to 256 characters"));
    let taken = v.sign_up("human", "long enough").await;
    assert_eq!(taken.status, 400);
    assert!(taken.body.contains("taken"));

    // A good one signs in at once: a session cookie, HttpOnly and SameSite=Lax.
    let ok = v.sign_up("Alice", "correct horse").await;
    assert_eq!(ok.status, 303, "{}", ok.body);
    let set = ok.headers["set-cookie"].to_str().expect("ascii");
    assert!(
        set.starts_with("arena_session=") && set.contains("HttpOnly") && set.contains("SameSite=Lax"),
        "{set}"
    );
    assert!(!set.contains("Secure"), "plain HTTP: no Secure flag");
    let home = v.get("/").await;
    assert!(
        home.body.contains(r#"id="me">Alice<"#),
        "signed in: {}",
        &home.body[..800]
    );
    assert!(home.body.contains(r#"data-user="alice""#));
    let user: serde_json::Value =
        serde_json::from_str(&Raw::new(&arena).get("", "/api/user/alice").await.1).expect("json");
    assert_eq!(user["username"], "Alice");
    assert!(user["title"].is_null(), "a person, not a bot");

    // The session works on the API; its POSTs need the CSRF token in a header or the form.
    let account = v.get("/api/account").await;
    assert_eq!(account.status, 200, "{}", account.body);
    let csrf = v.csrf().await;
    let seek_less = v
        .post("/api/challenge/Beta", &[("variant", "persian-princess")], None)
        .await;
    assert_eq!(seek_less.status, 403, "{}", seek_less.body);
    assert!(seek_less.body.contains("CSRF"));
    let challenged = v
        .post("/api/challenge/Beta", &[("variant", "persian-princess")], Some(&csrf))
        .await;
    assert_eq!(challenged.status, 200, "{}", challenged.body);

    // Sign out: the old cookie no longer signs in.
    let old = v.cookies["arena_session"].clone();
    let out = v.post("/logout", &[("csrf", &csrf)], None).await;
    assert_eq!(out.status, 303);
    assert!(!v.cookies.contains_key("arena_session"));
    v.cookies.insert("arena_session".into(), old);
    assert_eq!(v.get("/api/account").await.status, 401);
    v.cookies.remove("arena_session");

    // Sign in again: a wrong password is refused without saying which part was wrong.
    let page = v.get("/login").await;
    let csrf = Visitor::csrf_of(&page);
    let wrong = v
        .post(
            "/login",
            &[("csrf", &csrf), ("username", "alice"), ("password", "wrong horse")],
            None,
        )
        .await;
    assert_eq!(wrong.status, 401);
    assert!(wrong.body.contains("Wrong username or password"));
    let nobody = v
        .post(
            "/login",
            &[("csrf", &csrf), ("username", "nobody"), ("password", "wrong horse")],
            None,
        )
        .await;
    assert_eq!(nobody.status, 401);
    assert!(nobody.body.contains("Wrong username or password"));
    let right = v
        .post(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "ALICE"),
                ("password", "correct horse"),
                ("referrer", "//evil.example/"),
            ],
            None,
        )
        .await;
    assert_eq!(right.status, 303);
    assert_eq!(right.headers["location"], "/", "no redirect off the site");
    assert_eq!(v.get("/api/account").await.status, 200);

    // Too many failures lock the account's sign-in for a while (the right password included).
    let mut guesser = Visitor::new(&arena.url());
    let page = guesser.get("/login").await;
    let csrf = Visitor::csrf_of(&page);
    let mut last = 0;
    for _ in 0..6 {
        last = guesser
            .post(
                "/login",
                &[("csrf", &csrf), ("username", "alice"), ("password", "guess guess")],
                None,
            )
            .await
            .status;
    }
    assert_eq!(last, 429);
    let locked = guesser
        .post(
            "/login",
            &[("csrf", &csrf), ("username", "alice"), ("password", "correct horse")],
            None,
        )
        .await;
    assert_eq!(locked.status, 429, "locked for a while, whatever the password");
}

#[tokio::test]
async fn the_token_page_creates_and_revokes_tokens_with_scopes() {
    let arena = arena().await;
    let mut v = Visitor::new(&arena.url());
    assert_eq!(
        v.get("/account/oauth/token").await.status,
        303,
        "signed out: to the sign-in page"
    );
    assert_eq!(v.sign_up("Tokyo", "correct horse").await.status, 303);
    let page = v.get("/account/oauth/token").await;
    assert_eq!(page.status, 200);
    let csrf = Visitor::csrf_of(&page);
    let made = v
        .post(
            "/account/oauth/token/create",
            &[
                ("csrf", &csrf),
                ("description", "<i>my</i> board"),
                ("scopes[]", "challenge:read"),
            ],
            None,
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    assert!(
        made.body.contains("&lt;i&gt;my&lt;/i&gt; board"),
        "descriptions are escaped"
    );
    let at = made
        .body
        .find("id=\"new-token\">")
        .expect("the new token is shown once")
        + 15;
    let token = made.body[at..].split('<').next().expect("token").to_string();
    assert!(token.starts_with("lip_"), "{token}");
    let raw = Raw::new(&arena);
    assert_eq!(raw.get(&token, "/api/account").await.0, 200);
    // The token lacks board:play: it cannot play (403 Missing scope), though the session can.
    let (status, body) = raw
        .post(&token, "/api/board/seek", &[("time", "5"), ("increment", "0")])
        .await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("board:play"));
    let listed = v.get("/account/oauth/token").await;
    assert!(!listed.body.contains(&token), "the list never shows a token");
    let hash_at = listed.body.find("name=\"hash\" value=\"").expect("a revoke form") + 19;
    let hash = listed.body[hash_at..].split('"').next().expect("hash").to_string();
    // Another account cannot revoke it.
    let mut eve = Visitor::new(&arena.url());
    assert_eq!(eve.sign_up("Eve", "correct horse").await.status, 303);
    let eve_csrf = eve.csrf().await;
    let refused = eve
        .post(
            "/account/oauth/token/revoke",
            &[("csrf", &eve_csrf), ("hash", &hash)],
            None,
        )
        .await;
    assert_eq!(refused.status, 404);
    assert_eq!(raw.get(&token, "/api/account").await.0, 200);
    let revoked = v
        .post("/account/oauth/token/revoke", &[("csrf", &csrf), ("hash", &hash)], None)
        .await;
    assert_eq!(revoked.status, 303);
    assert_eq!(raw.get(&token, "/api/account").await.0, 401);
}

#[tokio::test]
async fn another_users_game_cannot_be_moved_in_and_views_show_the_board() {
    let arena = arena().await;
    let raw = Raw::new(&arena);
    // Human challenges Alpha (a bot driven here by its token).
    let mut v = Visitor::new(&arena.url());
    assert_eq!(v.sign_up("Carol", "correct horse").await.status, 303);
    let (status, body) = raw
        .post(
            "alpha-token",
            "/api/challenge/Human",
            &[("variant", "egyptian-eye"), ("color", "white")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let challenge: serde_json::Value = serde_json::from_str(&body).expect("json");
    let id = challenge["id"].as_str().expect("id").to_string();
    assert_eq!(
        raw.post("human-token", &format!("/api/challenge/{id}/accept"), &[])
            .await
            .0,
        200
    );

    // Carol is signed in but not a player: her moves are refused, the game is unchanged.
    let csrf = v.csrf().await;
    let refused = v
        .post(&format!("/api/board/game/{id}/move/f2f3"), &[], Some(&csrf))
        .await;
    assert!(
        matches!(refused.status, 400 | 404),
        "{} {}",
        refused.status,
        refused.body
    );
    let view: serde_json::Value =
        serde_json::from_str(&v.get(&format!("/api/arena/game/{id}/view")).await.body).expect("json");
    assert_eq!(view["san"].as_array().expect("san").len(), 0);
    assert!(view["you"].is_null());
    assert!(
        view["board"]["moves"].as_array().expect("moves").is_empty(),
        "no moves offered to a spectator"
    );
    assert_eq!(view["board"]["width"], 11);
    assert!(view["board"]["marks"]
        .as_array()
        .expect("marks")
        .iter()
        .any(|m| m["mark"] == "eye"));

    // The bot moves; the page of the game and the spectator stream show it.
    let legal: serde_json::Value =
        serde_json::from_str(&raw.get("", &format!("/api/arena/game/{id}/legal")).await.1).expect("json");
    let first = legal["moves"][0]["uci"].as_str().expect("a move").to_string();
    let spectator = raw
        .http
        .get(format!("{}/api/stream/game/{id}", arena.url()))
        .send()
        .await
        .expect("stream");
    let lines = common::collect_lines(spectator);
    assert_eq!(
        raw.post("alpha-token", &format!("/api/bot/game/{id}/move/{first}"), &[])
            .await
            .0,
        200
    );
    common::wait_line(&lines, |l| l.get("lm").is_some()).await;
    let all = common::json_lines(&lines);
    assert_eq!(all[0]["id"], id.as_str());
    assert_eq!(all[0]["players"]["white"]["user"]["title"], "BOT");
    assert!(all.iter().any(|l| l["lm"] == first.as_str() && l["fen"].is_string()));
    let page = v.get(&format!("/{id}")).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&format!("data-game=\"{id}\"")));
    assert_eq!(v.get("/nosuchgm").await.status, 404);
    let human_view: serde_json::Value =
        serde_json::from_str(&raw.get("human-token", &format!("/api/arena/game/{id}/view")).await.1).expect("json");
    assert_eq!(human_view["you"], "black");
    assert!(
        !human_view["board"]["moves"].as_array().expect("moves").is_empty(),
        "the player to move gets moves"
    );
    let at_start: serde_json::Value = serde_json::from_str(
        &raw.get("human-token", &format!("/api/arena/game/{id}/view?ply=0"))
            .await
            .1,
    )
    .expect("json");
    assert!(at_start["board"]["lastMove"].is_null());
    assert!(
        at_start["board"]["moves"].as_array().expect("moves").is_empty(),
        "no moves at a past ply"
    );
    assert_eq!(raw.get("", &format!("/api/arena/game/{id}/view?ply=9")).await.0, 400);
    assert_eq!(raw.get("", &format!("/api/arena/game/{id}/view?ply=x")).await.0, 400);
    let lobby: serde_json::Value = serde_json::from_str(&raw.get("", "/api/arena/lobby").await.1).expect("json");
    assert_eq!(lobby["playing"][0]["id"], id.as_str());
}

#[tokio::test]
async fn assets_are_served_from_the_arena_with_nothing_external() {
    let arena = arena().await;
    let mut v = Visitor::new(&arena.url());
    for (name, kind) in [
        ("arena.css", "text/css"),
        ("common.js", "text/javascript"),
        ("board.js", "text/javascript"),
        ("game.js", "text/javascript"),
        ("lobby.js", "text/javascript"),
        ("pieces.svg", "image/svg+xml"),
    ] {
        let a = v.get(&format!("/assets/{name}")).await;
        assert_eq!(a.status, 200, "{name}");
        assert!(
            a.headers["content-type"].to_str().expect("ascii").starts_with(kind),
            "{name}"
        );
        // No address elsewhere: only the SVG namespace name, which is never fetched.
        let outside = a.body.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !outside.contains("http://") && !outside.contains("https://"),
            "{name} names another site"
        );
    }
    assert_eq!(v.get("/assets/nothing.js").await.status, 404);
    for page in ["/", "/signup", "/login", "/tv", "/games"] {
        let p = v.get(page).await;
        assert_eq!(p.status, 200, "{page}");
        assert!(
            !p.body.contains("http://") && !p.body.contains("https://"),
            "{page} names another site"
        );
        assert!(!p.body.contains("<script>"), "{page}: no inline script");
    }
}

#[tokio::test]
async fn the_explorer_walks_the_opening_tree() {
    let arena = common::arena_with_openings("web-explorer").await;
    let raw = Raw::new(&arena);
    let get = |path: String| {
        let raw = &raw;
        async move {
            let (status, body) = raw.get("", &path).await;
            (
                status,
                serde_json::from_str::<serde_json::Value>(&body).unwrap_or(serde_json::Value::Null),
            )
        }
    };
    let (status, list) = get("/api/arena/explorer".into()).await;
    assert_eq!(status, 200);
    assert_eq!(
        list["variants"],
        serde_json::json!([{"key": "persian-princess", "name": "Persian Princess"}])
    );
    let (status, root) = get("/api/arena/explorer?variant=persian-princess".into()).await;
    assert_eq!(status, 200, "{root}");
    assert_eq!(root["position"]["games"], 16);
    let moves = root["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["games"], 10);
    assert_eq!(moves[0]["white"], 5);
    assert_eq!(moves[0]["evalCp"], 12.5);
    // The score's confidence interval where the tree has one (trees written before it: none).
    assert_eq!(
        (moves[0]["scoreLow"].clone(), moves[0]["scoreHigh"].clone()),
        (30.0.into(), 70.0.into())
    );
    assert!(root["position"]["scoreLow"].is_null(), "{root}");
    let first = moves[0]["uci"].as_str().expect("uci").to_string();
    let (status, deeper) = get(format!("/api/arena/explorer?variant=persian-princess&play={first}")).await;
    assert_eq!(status, 200);
    assert_eq!(deeper["position"]["games"], 10);
    assert_eq!(deeper["line"].as_array().expect("line").len(), 1);
    assert_eq!(deeper["moves"].as_array().expect("moves").len(), 2);
    assert_eq!(deeper["board"]["turn"], "black");
    let reply = deeper["moves"][0]["uci"].as_str().expect("uci").to_string();
    let (_, two) = get(format!(
        "/api/arena/explorer?variant=persian-princess&play={first},{reply}"
    ))
    .await;
    assert_eq!(two["position"]["games"], 5);
    assert!(two["moves"].as_array().expect("moves").is_empty());
    // A legal line the tree does not have: no games. An illegal one: 400. No tree: 404.
    let legal = get(format!("/api/arena/explorer?variant=persian-princess&play={reply}")).await;
    assert_eq!(legal.0, 400, "{reply} is Black's move, not White's");
    assert_eq!(get("/api/arena/explorer?variant=egyptian-eye".into()).await.0, 404);
    assert_eq!(get("/api/arena/explorer?variant=nonsense".into()).await.0, 400);
}

/// The explorer of arena games without any: every variant listed with no game, an empty answer
/// for a legal position, and clear errors for a bad filter, FEN or line.
#[tokio::test]
async fn the_explorer_of_arena_games_checks_what_it_is_asked() {
    let arena = arena().await;
    let raw = Raw::new(&arena);
    let (status, body) = raw.get("", "/api/arena/explorer").await;
    assert_eq!(status, 200, "{body}");
    let list: serde_json::Value = serde_json::from_str(&body).expect("json");
    let arena_variants = list["arena"].as_array().expect("arena");
    assert_eq!(arena_variants.len(), engine::rules::Variant::ALL.len());
    assert!(arena_variants.iter().all(|v| v["games"] == 0), "{list}");
    assert!(arena_variants
        .iter()
        .any(|v| v["key"] == "standard" && v["name"] == "Standard"));
    let (status, body) = raw
        .get(
            "",
            "/api/arena/explorer/games?variant=standard&play=e2e4&speeds=blitz,rapid&minRating=1000",
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(v["games"], 0);
    assert_eq!(v["line"], serde_json::json!(["e4"]));
    assert_eq!(v["moves"], serde_json::json!([]));
    assert_eq!(v["recentGames"], serde_json::json!([]));
    assert_eq!(v["board"]["turn"], "black");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let (status, body) = raw
        .get(
            "",
            &format!(
                "/api/arena/explorer/games?variant=standard&fen={}",
                fen.replace(' ', "%20")
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    for (query, error) in [
        ("variant=standard&speeds=lightning", "Unknown speed: lightning"),
        ("variant=standard&minRating=high", "Invalid minRating: high"),
        ("variant=standard&maxRating=99999", "Invalid maxRating: 99999"),
        ("variant=standard&fen=nonsense", "Invalid FEN"),
        ("variant=standard&play=e2e5", "Not a legal line"),
        ("variant=nonsense", "Unknown variant: nonsense"),
    ] {
        let (status, body) = raw.get("", &format!("/api/arena/explorer/games?{query}")).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(error), "{query}: {body}");
    }
}

#[tokio::test]
async fn a_bad_openings_folder_stops_the_start_with_the_file_named() {
    let dir = common::temp_dir("bad-openings");
    std::fs::create_dir_all(dir.join("openings-x")).expect("dir");
    std::fs::write(dir.join("openings-x/tree.json"), "{\"format\": 1}").expect("file");
    let err = bot::arena::Arena::start(bot::arena::ArenaConfig {
        openings: Some(dir.clone()),
        ..bot::arena::ArenaConfig::default()
    })
    .await
    .err()
    .expect("refused");
    assert!(err.to_string().contains("openings-x/tree.json"), "{err}");
    let missing = bot::arena::Arena::start(bot::arena::ArenaConfig {
        openings: Some(dir.join("nowhere")),
        ..bot::arena::ArenaConfig::default()
    })
    .await
    .err()
    .expect("refused");
    assert!(missing.to_string().contains("nowhere"), "{missing}");
}

#[tokio::test]
async fn positions_pgn_and_engine_analysis_for_the_analysis_board() {
    let arena = arena().await;
    let raw = Raw::new(&arena);
    let json = |t: &str| serde_json::from_str::<serde_json::Value>(t).expect("json");
    let (status, body) = raw
        .get("", "/api/arena/position?variant=standard&moves=e2e4,e7e5")
        .await;
    assert_eq!(status, 200, "{body}");
    let p = json(&body);
    assert_eq!(p["san"], serde_json::json!(["e4", "e5"]));
    assert_eq!(p["board"]["moves"].as_array().expect("moves").len(), 29);
    assert_eq!(p["board"]["lastMove"], serde_json::json!({"from": "e7", "to": "e5"}));
    let (status, body) = raw
        .get("", "/api/arena/position?variant=standard&moves=e2e4,e2e4")
        .await;
    assert_eq!(status, 400);
    assert!(body.contains("move 2 'e2e4'"), "{body}");
    let (status, body) = raw.get("", "/api/arena/position?variant=standard&fen=nonsense").await;
    assert_eq!(status, 400);
    assert!(body.contains("Invalid FEN"), "{body}");

    let pgn = "[Variant \"egyptian-eye\"]\n\n1. f4 f8 *\n";
    assert_eq!(
        raw.post("", "/api/arena/pgn", &[("pgn", pgn)]).await.0,
        400,
        "the variant is required"
    );
    // The game's Variant tag wins over the variant given for games without one.
    let (status, body) = raw
        .post("", "/api/arena/pgn", &[("pgn", pgn), ("variant", "standard")])
        .await;
    assert_eq!(status, 200, "{body}");
    let g = json(&body);
    assert_eq!(g["variant"]["key"], "egyptian-eye");
    assert_eq!(g["moves"], serde_json::json!(["f3f4", "f9f8"]));
    // The variant's name, as PGNs are written now, reads as the key of older files does.
    let named = "[Variant \"Egyptian Eye\"]\n\n1. f4 f8 *\n";
    let (status, body) = raw
        .post("", "/api/arena/pgn", &[("pgn", named), ("variant", "standard")])
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["variant"]["key"], "egyptian-eye");
    assert_eq!(
        raw.post("", "/api/arena/pgn", &[("pgn", "1. e9 *"), ("variant", "standard")])
            .await
            .0,
        400
    );
    let (status, body) = raw
        .post("", "/api/arena/pgn", &[("pgn", "1. e4 e5 *"), ("variant", "standard")])
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["moves"], serde_json::json!(["e2e4", "e7e5"]));

    // Mate in one for White: the engine finds it.
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let (status, body) = raw
        .post(
            "",
            "/api/arena/analyse",
            &[("variant", "standard"), ("fen", fen), ("nodes", "20000")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let a = json(&body);
    assert_eq!(a["best"]["san"], "Ra8#");
    assert_eq!(a["mate"], 1);
    assert!(a["nodes"].as_u64().expect("nodes") <= 20_000 + 1000);
    let (status, body) = raw
        .post(
            "",
            "/api/arena/analyse",
            &[("variant", "standard"), ("nodes", "99999999")],
        )
        .await;
    assert_eq!(status, 400);
    assert!(body.contains("Invalid nodes"), "{body}");
    // The budget: 10 at once per user (here: per address), then refused for a while.
    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(
            raw.post("", "/api/arena/analyse", &[("variant", "standard"), ("nodes", "500")])
                .await
                .0,
        );
    }
    assert_eq!(statuses.iter().filter(|&&s| s == 429).count(), 1, "{statuses:?}");
    assert_eq!(*statuses.last().expect("some"), 429);
}

#[tokio::test]
async fn behind_a_tls_proxy_the_session_cookie_is_secure() {
    let arena = bot::arena::Arena::start(bot::arena::ArenaConfig {
        trust_forwarded_for: true,
        ..bot::arena::ArenaConfig::default()
    })
    .await
    .expect("arena starts");
    let mut v = Visitor::new(&arena.url());
    let page = v.get("/signup").await;
    let csrf = Visitor::csrf_of(&page);
    let r = v
        .http
        .post(format!("{}/signup", arena.url()))
        .header("cookie", v.cookie_header())
        .header("x-forwarded-proto", "https")
        .header("x-forwarded-for", "203.0.113.9")
        .form(&[
            ("csrf", csrf.as_str()),
            ("username", "Tls"),
            ("password", "correct horse"),
            ("password2", "correct horse"),
        ])
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 303);
    let set = r.headers()["set-cookie"].to_str().expect("ascii").to_string();
    assert!(set.starts_with("arena_session=") && set.ends_with("; Secure"), "{set}");
}

/// `bot arena account password NAME` with `input` on standard input: success and output.
fn set_password(db: &std::path::Path, name: &str, input: &str) -> (bool, String) {
    use std::io::Write as _;
    let mut child = common::bot_command()
        .args(["arena", "--db"])
        .arg(db)
        .args(["account", "password", name])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bot runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("ends");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[tokio::test]
async fn a_password_set_on_the_command_line_signs_in_and_sessions_survive_a_restart() {
    let dir = common::temp_dir("web-password");
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("arena.sqlite");
    common::add_account(&db, "Dana", false, &[]);
    let (ok, text) = set_password(&db, "Dana", "short\n");
    assert!(!ok && text.contains("8 to 256 characters"), "{text}");
    let (ok, text) = set_password(&db, "Nobody", "correct horse\n");
    assert!(!ok && text.contains("no account Nobody"), "{text}");
    let (ok, text) = set_password(&db, "Dana", "correct horse\n");
    assert!(ok, "{text}");

    let server = common::ArenaProcess::start(&db);
    let mut v = Visitor::new(&server.url);
    let page = v.get("/login").await;
    let csrf = Visitor::csrf_of(&page);
    let r = v
        .post(
            "/login",
            &[("csrf", &csrf), ("username", "dana"), ("password", "correct horse")],
            None,
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(v.get("/api/account").await.status, 200);
    server.kill();
    // The session is in the database: the same cookie signs in after a restart (and SIGKILL).
    let again = common::ArenaProcess::start(&db);
    let mut same = Visitor::new(&again.url);
    same.cookies = v.cookies.clone();
    let account = same.get("/api/account").await;
    assert_eq!(account.status, 200, "{}", account.body);
    assert!(account.body.contains("\"username\":\"Dana\""), "{}", account.body);
    // A password changed on the command line ends the sessions in the running server at once.
    let (ok, text) = set_password(&db, "Dana", "battery staple\n");
    assert!(ok, "{text}");
    let mut ended = false;
    for _ in 0..100 {
        if same.get("/api/account").await.status == 401 {
            ended = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    }
    assert!(ended, "the session outlived the password change");
    let mut fresh = Visitor::new(&again.url);
    assert_eq!(sign_in(&mut fresh, "Dana", "battery staple", None).await.status, 303);
    // No password, no cookie or token is stored in clear.
    again.kill();
    let mut stored = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("dir").flatten() {
        stored.extend(std::fs::read(entry.path()).unwrap_or_default());
    }
    let text = String::from_utf8_lossy(&stored);
    assert!(!text.contains("correct horse") && !text.contains("battery staple"));
    assert!(!text.contains(&v.cookies["arena_session"]));
    assert!(text.contains("$argon2id$"), "the password's hash is there");
}

#[tokio::test]
async fn a_seek_from_the_lobby_is_listed_and_joined_by_another_person() {
    let arena = arena().await;
    let mut ann = Visitor::new(&arena.url());
    assert_eq!(ann.sign_up("Ann", "correct horse").await.status, 303);
    let mut ben = Visitor::new(&arena.url());
    assert_eq!(ben.sign_up("Ben", "correct horse").await.status, 303);
    let seek = |v: &mut Visitor| {
        let req = v
            .http
            .post(format!("{}/api/board/seek", arena.url()))
            .header("cookie", v.cookie_header())
            .form(&[
                ("variant", "celtic-citadel"),
                ("time", "5"),
                ("increment", "3"),
                ("color", "random"),
            ]);
        req
    };
    // Without the CSRF token a session cannot seek.
    let refused = seek(&mut ann).send().await.expect("request");
    assert_eq!(refused.status().as_u16(), 403);
    // Ann's seek stays open while her request does (as the lobby page holds it).
    let ann_csrf = ann.csrf().await;
    let waiting = tokio::spawn(seek(&mut ann).header("x-csrf-token", ann_csrf).send());
    let raw = Raw::new(&arena);
    let mut listed = serde_json::Value::Null;
    for _ in 0..100 {
        listed = serde_json::from_str(&raw.get("", "/api/arena/lobby").await.1).expect("json");
        if listed["seeks"].as_array().is_some_and(|s| !s.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(listed["seeks"][0]["user"], "Ann");
    assert_eq!(listed["seeks"][0]["variant"], "celtic-citadel");
    assert_eq!(listed["seeks"][0]["clock"]["initial"], 300_000);
    // Ben joins with the same terms: a game of the two starts, and the seek is gone.
    let ben_csrf = ben.csrf().await;
    let joined = seek(&mut ben)
        .header("x-csrf-token", ben_csrf)
        .send()
        .await
        .expect("request");
    assert_eq!(joined.status().as_u16(), 200);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
        .await
        .expect("Ann's seek ends when paired");
    let lobby: serde_json::Value = serde_json::from_str(&raw.get("", "/api/arena/lobby").await.1).expect("json");
    assert!(lobby["seeks"].as_array().expect("seeks").is_empty());
    let game = &lobby["playing"][0];
    let players = [game["white"]["name"].as_str(), game["black"]["name"].as_str()];
    assert!(
        players.contains(&Some("Ann")) && players.contains(&Some("Ben")),
        "{game}"
    );
    assert_eq!(game["variant"]["key"], "celtic-citadel");
}

#[tokio::test]
async fn assets_are_gzipped_for_browsers_that_take_gzip() {
    use std::io::Read as _;
    let arena = arena().await;
    let http = reqwest::Client::new();
    for name in ["board.js", "arena.css", "pieces.svg"] {
        let url = format!("{}/assets/{name}", arena.url());
        let plain = http.get(&url).send().await.expect("plain");
        assert!(plain.headers().get("content-encoding").is_none());
        let plain = plain.bytes().await.expect("body");
        let z = http
            .get(&url)
            .header("accept-encoding", "gzip, deflate, br")
            .send()
            .await
            .expect("gzip");
        assert_eq!(z.headers()["content-encoding"], "gzip");
        assert_eq!(z.headers()["vary"], "Accept-Encoding");
        let z = z.bytes().await.expect("body");
        assert!(
            z.len() * 2 < plain.len(),
            "{name}: {} of {} bytes",
            z.len(),
            plain.len()
        );
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&z[..])
            .read_to_end(&mut back)
            .expect("gzip");
        assert_eq!(back, plain.to_vec(), "{name}");
    }
}

#[tokio::test]
async fn sign_ins_from_one_address_are_limited_whatever_the_names() {
    let arena = arena().await;
    let mut v = Visitor::new(&arena.url());
    let page = v.get("/login").await;
    let csrf = Visitor::csrf_of(&page);
    let mut statuses = Vec::new();
    for i in 0..21 {
        let name = format!("nobody{i}");
        let r = v
            .post(
                "/login",
                &[("csrf", &csrf), ("username", &name), ("password", "some guess")],
                None,
            )
            .await;
        statuses.push(r.status);
    }
    assert!(statuses[..20].iter().all(|&s| s == 401), "{statuses:?}");
    assert_eq!(statuses[20], 429, "the address's budget is spent");
    let signup = v.sign_up("Late", "correct horse").await;
    assert_eq!(signup.status, 429, "sign-ups share the budget");
}

/// Signs in through the form; the answer.
async fn sign_in(v: &mut Visitor, name: &str, password: &str, referrer: Option<&str>) -> Answer {
    let page = v.get("/login").await;
    let csrf = Visitor::csrf_of(&page);
    let mut form = vec![("csrf", csrf.as_str()), ("username", name), ("password", password)];
    if let Some(r) = referrer {
        form.push(("referrer", r));
    }
    v.post("/login", &form, None).await
}

#[tokio::test]
async fn the_sign_in_referrer_never_leads_to_another_host() {
    let arena = arena().await;
    let mut v = Visitor::new(&arena.url());
    assert_eq!(v.sign_up("Redirected", "correct horse").await.status, 303);
    // Browsers drop tabs and line breaks from a URL and read a backslash as a slash: each of
    // these would go to evil.example.
    for bad in [
        "/\t/evil.example",
        "/\n/evil.example",
        "/\\evil.example",
        "//evil.example",
        "/ /evil.example",
        "https://evil.example",
    ] {
        let mut other = Visitor::new(&arena.url());
        // The login page itself writes a safe referrer into its form.
        let page = other
            .get(&format!(
                "/login?referrer={}",
                bad.replace('\t', "%09").replace('\n', "%0A")
            ))
            .await;
        assert!(!page.body.contains("evil.example"), "{bad:?} in the form");
        let r = sign_in(&mut other, "Redirected", "correct horse", Some(bad)).await;
        assert_eq!(r.status, 303, "{bad:?}: {}", r.body);
        assert_eq!(r.headers["location"], "/", "{bad:?}");
    }
    let mut ok = Visitor::new(&arena.url());
    let r = sign_in(&mut ok, "Redirected", "correct horse", Some("/games?x=1")).await;
    assert_eq!(r.headers["location"], "/games?x=1");
}

#[tokio::test]
async fn a_session_cookie_with_any_other_authorization_still_needs_the_csrf_token() {
    let arena = arena().await;
    let mut v = Visitor::new(&arena.url());
    assert_eq!(v.sign_up("Cookie", "correct horse").await.status, 303);
    let page = v.get("/account/oauth/token").await;
    let csrf = Visitor::csrf_of(&page);
    for auth in ["Bearer junk", "Basic Y29va2llOmNvcnJlY3QgaG9yc2U="] {
        let r = v
            .http
            .post(format!("{}/account/oauth/token/create", arena.url()))
            .header("cookie", v.cookie_header())
            .header("authorization", auth)
            .form(&[("description", "sneaky"), ("scope", "bot:play")])
            .send()
            .await
            .expect("request");
        assert_eq!(r.status().as_u16(), 403, "{auth}: no CSRF token, no token made");
    }
    let listed = v.get("/account/oauth/token").await;
    assert!(!listed.body.contains("sneaky"), "no token was made");
    // With the CSRF token it works (the Authorization header changes nothing).
    let r = v
        .http
        .post(format!("{}/account/oauth/token/create", arena.url()))
        .header("cookie", v.cookie_header())
        .header("authorization", "Bearer junk")
        .form(&[
            ("csrf", csrf.as_str()),
            ("description", "honest"),
            ("scope", "bot:play"),
        ])
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 200);
    // A valid bearer token needs no CSRF token (a browser never sends one by itself).
    let (status, _) = Raw::new(&arena)
        .post("alpha-token", "/api/challenge/beta", &[("variant", "persian-princess")])
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn correct_sign_ins_do_not_count_toward_the_lock() {
    let arena = arena().await;
    let mut v = Visitor::new(&arena.url());
    assert_eq!(v.sign_up("Often", "correct horse").await.status, 303);
    for i in 0..7 {
        let mut w = Visitor::new(&arena.url());
        let r = sign_in(&mut w, "Often", "correct horse", None).await;
        assert_eq!(r.status, 303, "correct sign-in {i}: {}", r.body);
    }
    // Five wrong passwords lock the account (as the docs say), the right one included.
    let mut w = Visitor::new(&arena.url());
    for i in 0..5 {
        let r = sign_in(&mut w, "Often", "wrong horse", None).await;
        assert_eq!(r.status, 401, "wrong sign-in {i}");
    }
    let r = sign_in(&mut w, "Often", "correct horse", None).await;
    assert_eq!(r.status, 429, "locked after five wrong passwords");
}

#[test]
fn the_nginx_sample_forwards_the_scheme() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/arena.md")).expect("docs/arena.md");
    let sample = doc
        .split("```nginx")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("an nginx sample in docs/arena.md");
    for line in [
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
    ] {
        assert!(sample.contains(line), "the sample lacks `{line}`:\n{sample}");
    }
    // What that header does is checked by behind_a_tls_proxy_the_session_cookie_is_secure.
}
