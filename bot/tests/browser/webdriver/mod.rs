//! WebDriver helpers for the browser tests: a headless Chromium driven over chromedriver, with
//! the calls the tests use (open a page, find, click, type, drag, press keys, run a script, wait
//! for a condition, save a screenshot).
#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use base64::Engine as _;
use serde_json::{json, Value};

pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names
        .iter()
        .find_map(|n| std::env::split_paths(&path).map(|d| d.join(n)).find(|p| p.is_file()))
}

/// A WebDriver session on a chromedriver child process.
pub struct Browser {
    http: reqwest::Client,
    base: String,
    driver: std::process::Child,
    shots: PathBuf,
    step: std::sync::atomic::AtomicUsize,
    profile: PathBuf,
    /// Chromium's own temporary folder (its `TMPDIR`), removed with the browser.
    scratch: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ending the session makes chromedriver quit Chromium; killing chromedriver alone would
        // leave Chromium's processes running (about 15 a browser, each using CPU).
        self.end_session();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

impl Browser {
    /// `DELETE` of the WebDriver session, blocking (it runs in `drop`): chromedriver answers
    /// once Chromium has quit. Errors are ignored: the driver is killed next anyway.
    fn end_session(&self) {
        use std::io::{Read, Write};
        let Some(rest) = self.base.strip_prefix("http://") else {
            return;
        };
        let Some((addr, path)) = rest.split_once('/') else {
            return;
        };
        let Ok(mut stream) = std::net::TcpStream::connect(addr) else {
            return;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
        let request =
            format!("DELETE /{path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        if stream.write_all(request.as_bytes()).is_ok() {
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer);
        }
    }

    pub async fn start(chromium: &Path, driver: &Path, shots: PathBuf, name: &str) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        // Chromium leaves a folder with its singleton socket in its temporary folder: give it one
        // of its own, removed with the browser. It stays in the system's temporary folder, whose
        // short path keeps the socket's path within the length a Unix socket allows.
        let scratch = std::env::temp_dir().join(format!("arena-chr-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).expect("Chromium's temporary folder");
        let child = std::process::Command::new(driver)
            .env("TMPDIR", &scratch)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let http = reqwest::Client::new();
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(r) = http.get(format!("{url}/status")).send().await {
                if r.status().is_success() {
                    break;
                }
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("arena-chromium-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let r: Value = http
            .post(format!("{url}/session"))
            .json(&caps)
            .send()
            .await
            .expect("new session")
            .json()
            .await
            .expect("json");
        let session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {r}"))
            .to_string();
        std::fs::create_dir_all(&shots).expect("screenshot dir");
        Browser {
            http,
            base: format!("{url}/session/{session}"),
            driver: child,
            shots,
            step: 0.into(),
            profile,
            scratch,
        }
    }

    pub async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r: Value = req.send().await.expect("webdriver").json().await.expect("json");
        r["value"].clone()
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn go(&self, url: &str) {
        self.post("/url", json!({ "url": url })).await;
    }

    pub async fn js(&self, script: &str, args: Value) -> Value {
        self.post("/execute/sync", json!({ "script": script, "args": args }))
            .await
    }

    /// The element of a CSS selector, waiting up to 20 s for it.
    pub async fn find(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let v = self
                .post("/element", json!({ "using": "css selector", "value": css }))
                .await;
            if let Some(id) = v[ELEMENT].as_str() {
                return id.to_string();
            }
            assert!(Instant::now() < deadline, "no element {css}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Clicks an element; the board is redrawn when the game changes, so an element found a
    /// moment before may be gone: it is found again.
    pub async fn click(&self, css: &str) {
        for _ in 0..20 {
            let id = self.find(css).await;
            let r = self.post(&format!("/element/{id}/click"), json!({})).await;
            if r.is_null() || r.get("error").is_none() {
                return;
            }
            assert!(r["error"] == "stale element reference", "click {css}: {r}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{css} kept going stale");
    }

    pub async fn type_in(&self, css: &str, text: &str) {
        let id = self.find(css).await;
        self.post(&format!("/element/{id}/clear"), json!({})).await;
        self.post(&format!("/element/{id}/value"), json!({ "text": text }))
            .await;
    }

    pub async fn text(&self, css: &str) -> String {
        let id = self.find(css).await;
        self.call(reqwest::Method::GET, &format!("/element/{id}/text"), None)
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Drags from one element to another with the mouse (pointer down, moves, up).
    pub async fn drag(&self, from: &str, to: &str) {
        let a = self.find(from).await;
        let b = self.find(to).await;
        let actions = json!({"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": {ELEMENT: a}, "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "duration": 150, "origin": {ELEMENT: a}, "x": 12, "y": 6},
                {"type": "pointerMove", "duration": 250, "origin": {ELEMENT: b}, "x": 0, "y": 0},
                {"type": "pointerUp", "button": 0}
            ]
        }]});
        self.post("/actions", actions).await;
        self.call(reqwest::Method::DELETE, "/actions", None).await;
    }

    /// Waits until `script` (a function body returning a value) returns something truthy.
    pub async fn until(&self, what: &str, script: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let v = self.js(script, json!([])).await;
            let truthy = !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0));
            if truthy && v.get("error").is_none() {
                return v;
            }
            if Instant::now() > deadline {
                self.shot("timeout").await;
                panic!("timed out waiting for {what}: {v}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn shot(&self, name: &str) {
        let step = self.step.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let v = self.call(reqwest::Method::GET, "/screenshot", None).await;
        if let Some(b64) = v.as_str() {
            let png = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .expect("base64 screenshot");
            let file = self.shots.join(format!("{step:02}-{name}.png"));
            std::fs::write(&file, png).expect("screenshot written");
        }
    }
}

pub async fn get_json(url: &str) -> Value {
    reqwest::get(url).await.expect("get").json().await.expect("json")
}

/// Chromium and chromedriver, when installed; `None` (the test passes, saying why) when they
/// are not, unless `REQUIRE_BROWSER` is set (as in CI).
pub fn programs() -> Option<(PathBuf, PathBuf)> {
    match (
        find_program(&["chromium", "chromium-browser", "google-chrome"]),
        find_program(&["chromedriver"]),
    ) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            assert!(
                std::env::var("REQUIRE_BROWSER").is_err(),
                "REQUIRE_BROWSER is set but chromium or chromedriver is missing"
            );
            eprintln!("skipped: chromium and chromedriver are not installed");
            None
        }
    }
}

/// A browser for the test `name`, its screenshots under the test target directory's
/// `browser-<name>/`; `None` without Chromium (see [`programs`]).
pub async fn launch(name: &str) -> Option<Browser> {
    let (chromium, driver) = programs()?;
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{name}"));
    let _ = std::fs::remove_dir_all(&shots);
    Some(Browser::start(&chromium, &driver, shots, name).await)
}

/// WebDriver's codes of the keys the tests press.
pub mod key {
    pub const END: &str = "\u{E010}";
    pub const HOME: &str = "\u{E011}";
    pub const LEFT: &str = "\u{E012}";
    pub const UP: &str = "\u{E013}";
    pub const RIGHT: &str = "\u{E014}";
    pub const DOWN: &str = "\u{E015}";
    pub const ENTER: &str = "\u{E007}";
    pub const ESCAPE: &str = "\u{E00C}";
}

impl Browser {
    /// Presses and releases `keys` one after another, in the focused element (or the page).
    pub async fn press(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|k| {
                [
                    json!({"type": "keyDown", "value": k}),
                    json!({"type": "keyUp", "value": k}),
                ]
            })
            .collect();
        self.post(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
        )
        .await;
        self.call(reqwest::Method::DELETE, "/actions", None).await;
    }

    /// Signs up `name` on the arena at `url` (the password is `correct horse`); the browser
    /// ends on the lobby, signed in.
    pub async fn sign_up(&self, url: &str, name: &str) {
        self.go(&format!("{url}/signup")).await;
        self.type_in("input[name=username]", name).await;
        self.type_in("input[name=password]", "correct horse").await;
        self.type_in("input[name=password2]", "correct horse").await;
        self.click("button[type=submit]").await;
        assert_eq!(self.text("#me").await, name);
    }

    /// Runs a Chrome DevTools Protocol command (chromedriver's `goog/cdp/execute`).
    pub async fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.post("/goog/cdp/execute", json!({ "cmd": cmd, "params": params }))
            .await
    }

    /// Emulates the system's colour scheme, `dark` or `light`, for `prefers-color-scheme`.
    pub async fn color_scheme(&self, scheme: &str) {
        let r = self
            .cdp(
                "Emulation.setEmulatedMedia",
                json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
            )
            .await;
        assert!(r.get("error").is_none(), "the colour scheme is emulated: {r}");
    }

    /// The page's path now.
    pub async fn path(&self) -> String {
        self.js("return location.pathname", json!([]))
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

impl Browser {
    /// Runs `script` (a function body whose last argument is the callback to call with the
    /// result) and waits for its answer (WebDriver's asynchronous script).
    pub async fn js_async(&self, script: &str, args: Value) -> Value {
        self.post("/execute/async", json!({ "script": script, "args": args }))
            .await
    }

    /// Sets how long an asynchronous script may run.
    pub async fn script_timeout(&self, limit: Duration) {
        self.post("/timeouts", json!({ "script": limit.as_millis() as u64 }))
            .await;
    }
}

/// The accessibility checker the tests inject into pages: axe-core, unpacked by `.ci/run` from
/// the npm registry (a pinned version) into the workspace's `target/axe-core` (or the file
/// `AXE_CORE_JS` names). `None` (the test passes, saying why) when it is missing, unless
/// `REQUIRE_AXE` is set (as in CI).
pub fn axe_source() -> Option<String> {
    let path = std::env::var_os("AXE_CORE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/axe-core/package/axe.min.js"));
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            assert!(
                std::env::var("REQUIRE_AXE").is_err(),
                "REQUIRE_AXE is set but axe-core is missing at {} ({e}): .ci/run installs it",
                path.display()
            );
            eprintln!("skipped: axe-core is not at {} (.ci/run installs it)", path.display());
            None
        }
    }
}

impl Browser {
    /// Checks the page shown with axe-core (`source`, injected through WebDriver, which the
    /// page's Content-Security-Policy does not govern): every violation, each as `{id, impact,
    /// help, nodes: [{target, summary}]}`.
    pub async fn axe_violations(&self, source: &str) -> Vec<Value> {
        let loaded = self
            .js(
                &format!("if (typeof window.axe === 'undefined') {{ {source}\n }} return typeof window.axe.run;"),
                json!([]),
            )
            .await;
        assert_eq!(loaded, json!("function"), "axe-core is loaded into the page");
        self.script_timeout(Duration::from_secs(60)).await;
        let r = self
            .js_async(
                "const done = arguments[arguments.length - 1];
                 window.axe.run(document, { resultTypes: ['violations'] })
                   .then((r) => done({ ok: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })) })) }))
                   .catch((e) => done({ error: String(e && e.stack || e) }));",
                json!([]),
            )
            .await;
        assert!(r.get("error").is_none(), "axe-core ran: {r}");
        r["ok"]
            .as_array()
            .cloned()
            .unwrap_or_else(|| panic!("axe-core's answer: {r}"))
    }
}
