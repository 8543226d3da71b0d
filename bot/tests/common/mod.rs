//! Helpers: an in-process arena with fast keep-alives, bots on it, a raw HTTP client.
#![allow(dead_code)]

use std::{path::PathBuf, time::Duration};

use bot::{
    api::{
        client::{ChallengeRequest, TypedStream},
        types::{Event, GameEvent, GameState},
        Client, Token,
    },
    arena::{AccountSpec, Arena, ArenaConfig},
    config::Config,
    demo::arena_bot_config,
    events::Bot,
    game::GameReport,
};
use engine::rules::{game::Game, Color, Position, Variant};
use tokio::sync::{mpsc, watch};

pub async fn arena() -> Arena {
    arena_with(Vec::new()).await
}

/// An arena with the built-in accounts and `extra` ones.
pub async fn arena_with(extra: Vec<AccountSpec>) -> Arena {
    let mut accounts = ArenaConfig::builtin_accounts();
    accounts.extend(extra);
    Arena::start(ArenaConfig {
        accounts,
        event_keepalive: Duration::from_millis(500),
        game_keepalive: Duration::from_millis(500),
        // Fast test games send more moves per second than a server would allow; the rate
        // limit has its own test.
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        ..ArenaConfig::default()
    })
    .await
    .expect("arena starts")
}

/// An account `name` with token `<name in lower case>-token`.
pub fn account(name: &str, bot: bool, scopes: &[&str]) -> AccountSpec {
    AccountSpec {
        username: name.into(),
        token: format!("{}-token", name.to_lowercase()),
        bot,
        rating: 1500,
        scopes: scopes.iter().map(|s| s.to_string()).collect(),
    }
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bot-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A bot configuration for the arena. Stopping leaves running games (tests end at once).
pub fn config(arena: &Arena, variant: &str, pgn_dir: PathBuf) -> Config {
    let mut config = arena_bot_config(&arena.url(), variant, 1500, pgn_dir);
    config.games.on_shutdown = bot::config::ShutdownPolicy::Leave;
    config
}

pub struct RunningBot {
    pub reports: mpsc::UnboundedReceiver<GameReport>,
    pub shutdown: watch::Sender<bool>,
    pub task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

pub async fn start_bot(config: Config, token: &str) -> RunningBot {
    let (tx, reports) = mpsc::unbounded_channel();
    let (shutdown, rx) = watch::channel(false);
    let bot = Bot::connect(config, Token::new(token))
        .await
        .expect("bot connects")
        .with_reports(tx);
    let task = tokio::spawn(bot.run(rx));
    RunningBot {
        reports,
        shutdown,
        task,
    }
}

impl RunningBot {
    pub async fn next_report(&mut self, within: Duration) -> GameReport {
        tokio::time::timeout(within, self.reports.recv())
            .await
            .expect("a game report in time")
            .expect("report channel open")
    }

    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        let _ = self.task.await;
    }
}

pub fn client(arena: &Arena, token: &str) -> Client {
    let config = arena_bot_config(&arena.url(), "persian-princess", 1, temp_dir("unused"));
    Client::new(config.client_options(Token::new(token))).expect("client")
}

pub fn request(variant: &str, clock: Option<(u64, u64)>, rated: bool, color: &str) -> ChallengeRequest {
    ChallengeRequest {
        variant: variant.into(),
        clock,
        rated,
        color: color.into(),
        fen: None,
    }
}

/// Waits until `user` has opened its event stream `n` times.
pub async fn wait_event_streams(arena: &Arena, user: &str, n: usize) {
    for _ in 0..200 {
        if arena.stats().event_stream_opens.get(user).copied().unwrap_or(0) >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{user} did not open its event stream {n} times");
}

/// The next `gameStart` on an event stream.
pub async fn next_game_start(events: &mut TypedStream<Event>) -> bot::api::types::GameEventInfo {
    loop {
        let e = tokio::time::timeout(Duration::from_secs(10), events.next())
            .await
            .expect("gameStart in time")
            .expect("stream ok")
            .expect("stream open");
        if let Event::GameStart { game } = e {
            return game;
        }
    }
}

/// Waits for the `gameStart` of game `id` on an event stream.
pub async fn wait_game_start(events: &mut TypedStream<Event>, id: &str) {
    while next_game_start(events).await.game_id != id {}
}

/// A scripted opponent: Alpha (a raw client) plays the first legal move when asked, reading
/// its own game stream.
pub struct Opponent {
    pub client: Client,
    pub stream: TypedStream<GameEvent>,
    pub id: String,
    pub start: Position,
    pub color: Color,
}

impl Opponent {
    /// Alpha challenges Beta (Alpha white) in `variant` from `fen` and waits for the game.
    pub async fn start(arena: &Arena, variant: &str, fen: Option<&str>, clock: Option<(u64, u64)>) -> Opponent {
        let client = client(arena, "alpha-token");
        let mut events = client.stream_events().await.expect("event stream");
        let mut req = request(variant, clock, false, "white");
        req.fen = fen.map(str::to_string);
        let ch = client.create_challenge("beta", &req).await.expect("challenge created");
        wait_game_start(&mut events, &ch.id).await;
        Opponent::attach(client, &ch.id, variant, fen, Color::White).await
    }

    /// Follows game `id` (already started) where Alpha plays `color`.
    pub async fn attach(client: Client, id: &str, variant: &str, fen: Option<&str>, color: Color) -> Opponent {
        let stream = client.stream_game(id).await.expect("game stream");
        let variant: Variant = variant.parse().expect("variant");
        let start = match fen {
            Some(f) => Position::from_fen(variant, f).expect("FEN"),
            None => Position::startpos(variant),
        };
        Opponent {
            client,
            stream,
            id: id.to_string(),
            start,
            color,
        }
    }

    /// The next state (the one inside `gameFull` included).
    pub async fn next_state(&mut self) -> GameState {
        loop {
            let e = tokio::time::timeout(Duration::from_secs(20), self.stream.next())
                .await
                .expect("game event in time")
                .expect("stream ok")
                .expect("stream open");
            match e {
                GameEvent::GameFull(full) => return full.state,
                GameEvent::GameState(s) => return s,
                _ => {}
            }
        }
    }

    /// Waits for a state with `plies` moves (or the end).
    pub async fn wait_plies(&mut self, plies: usize) -> GameState {
        loop {
            let s = self.next_state().await;
            if s.move_list().len() >= plies || !s.is_running() {
                return s;
            }
        }
    }

    /// Waits for the end.
    pub async fn wait_end(&mut self) -> GameState {
        loop {
            let s = self.next_state().await;
            if !s.is_running() {
                return s;
            }
        }
    }

    /// Whether Alpha is to move in `state`.
    pub fn to_move(&self, state: &GameState) -> bool {
        let plies = state.move_list().len();
        let turn = if plies.is_multiple_of(2) {
            self.start.turn()
        } else {
            !self.start.turn()
        };
        state.is_running() && turn == self.color
    }

    /// Plays the first legal move after `state`, perhaps offering a draw with it.
    pub async fn play(&mut self, state: &GameState, offering_draw: bool) {
        self.try_play(state, offering_draw).await.expect("move accepted");
    }

    /// As `play`, returning the server's answer.
    pub async fn try_play(&mut self, state: &GameState, offering_draw: bool) -> Result<(), bot::api::ApiError> {
        let mut game = Game::new(self.start.clone());
        for uci in state.move_list() {
            let m = game.position().parse_uci(&uci).expect("legal");
            game.play(m);
        }
        assert_eq!(game.position().turn(), self.color, "Alpha's turn");
        let m = game.position().legal_moves().iter().copied().next().expect("a move");
        let uci = game.position().uci(m);
        self.client.make_move(&self.id, &uci, offering_draw).await
    }
}

/// A raw HTTP client of the arena: status and body text of each call.
pub struct Raw {
    pub http: reqwest::Client,
    pub base: String,
}

impl Raw {
    pub fn new(arena: &Arena) -> Raw {
        Raw::at(&arena.url())
    }

    /// A client of the server at `url` (another process).
    pub fn at(url: &str) -> Raw {
        Raw {
            http: reqwest::Client::new(),
            base: url.to_string(),
        }
    }

    pub async fn get(&self, token: &str, path: &str) -> (u16, String) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("request");
        (r.status().as_u16(), r.text().await.expect("body"))
    }

    pub async fn post(&self, token: &str, path: &str, form: &[(&str, &str)]) -> (u16, String) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .form(form)
            .send()
            .await
            .expect("request");
        (r.status().as_u16(), r.text().await.expect("body"))
    }

    /// A GET with an `Accept` header.
    pub async fn get_accept(&self, token: &str, path: &str, accept: &str) -> (u16, String) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .header("Accept", accept)
            .send()
            .await
            .expect("request");
        (r.status().as_u16(), r.text().await.expect("body"))
    }

    /// A POST with a JSON body (as berserk sends them).
    pub async fn post_json(&self, token: &str, path: &str, body: &serde_json::Value) -> (u16, String) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .expect("request");
        (r.status().as_u16(), r.text().await.expect("body"))
    }

    /// Reads a stream in the background; its non-blank lines collect in the vector.
    pub async fn lines(&self, token: &str, path: &str) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
        let resp = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("stream");
        assert_eq!(resp.status().as_u16(), 200, "{path}");
        collect_lines(resp)
    }
}

/// Collects the non-blank lines of a streamed response in the background.
pub fn collect_lines(resp: reqwest::Response) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
    use futures::StreamExt;
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = lines.clone();
    tokio::spawn(async move {
        let mut body = resp.bytes_stream();
        let mut buf = Vec::new();
        while let Some(Ok(chunk)) = body.next().await {
            buf.extend_from_slice(&chunk);
            while let Some(i) = buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = buf.drain(..=i).collect();
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if !text.is_empty() {
                    sink.lock().expect("lines").push(text);
                }
            }
        }
    });
    lines
}

/// The JSON lines of a collected stream.
pub fn json_lines(lines: &std::sync::Arc<std::sync::Mutex<Vec<String>>>) -> Vec<serde_json::Value> {
    lines
        .lock()
        .expect("lines")
        .iter()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Waits until a collected stream has a line of `type` (or panics after 10 s).
pub async fn wait_line(
    lines: &std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    pred: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    for _ in 0..200 {
        if let Some(v) = json_lines(lines).into_iter().find(|v| pred(v)) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no such line in {:?}", lines.lock().expect("lines"));
}

/// The `bot` binary, with quiet logs and plain errors.
pub fn bot_command() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_persian-bot"));
    c.env("RUST_BACKTRACE", "0").env("RUST_LOG", "warn");
    c
}

/// `bot arena --db DB account add NAME [--bot] [extra...]`: the token it prints.
pub fn add_account(db: &std::path::Path, name: &str, bot_account: bool, extra: &[&str]) -> String {
    let mut c = bot_command();
    c.args(["arena", "--db"])
        .arg(db)
        .args(["account", "add", name])
        .args(extra);
    if bot_account {
        c.arg("--bot");
    }
    let out = c.output().expect("bot runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    text.split_whitespace()
        .find(|t| t.starts_with("lip_"))
        .unwrap_or_else(|| panic!("no token in: {text}"))
        .to_string()
}

/// A running `bot arena --db DB` process on a free port; killed (SIGKILL) when dropped.
pub struct ArenaProcess {
    pub child: std::process::Child,
    pub url: String,
}

impl ArenaProcess {
    pub fn start(db: &std::path::Path) -> ArenaProcess {
        ArenaProcess::start_with(db, &[])
    }

    /// `bot arena --port 0 --db DB ARGS...`.
    pub fn start_with(db: &std::path::Path, args: &[&str]) -> ArenaProcess {
        use std::io::BufRead as _;
        let mut child = bot_command()
            .args(["arena", "--port", "0", "--db"])
            .arg(db)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("arena starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = std::io::BufReader::new(stdout).lines();
        let url = loop {
            let line = lines.next().expect("a line").expect("text");
            if let Some(rest) = line.strip_prefix("arena listening on ") {
                break rest.split(',').next().expect("url").to_string();
            }
        };
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        ArenaProcess { child, url }
    }

    /// SIGKILL: no chance to write anything more.
    pub fn kill(mut self) {
        self.child.kill().expect("killed");
        let _ = self.child.wait();
    }
}

impl Drop for ArenaProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A folder with an opening tree of Persian Princess as `trainer openings` writes it: the first
/// two legal moves of the start position (10 and 6 games), each with two replies.
pub fn opening_tree_dir(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let sub = dir.join("openings-persian-princess");
    std::fs::create_dir_all(&sub).expect("dir");
    let start = Position::startpos(Variant::PersianPrincess);
    let line = |pos: &Position, m: engine::rules::Move, games: u64, children: Vec<serde_json::Value>| {
        serde_json::json!({
            "uci": pos.uci(m), "san": pos.san(m), "games": games,
            "white_wins": games / 2, "draws": games / 4, "black_wins": games - games / 2 - games / 4,
            "unfinished": 0, "score": 50.0, "score_low": 30.0, "score_high": 70.0,
            "eval_cp": 12.5, "eval_games": games, "children": children,
        })
    };
    let mut firsts = Vec::new();
    for (i, &m) in start.legal_moves().iter().take(2).enumerate() {
        let after = start.after(m);
        let games = if i == 0 { 10 } else { 6 };
        let replies: Vec<serde_json::Value> = after
            .legal_moves()
            .iter()
            .take(2)
            .map(|&r| line(&after, r, games / 2, Vec::new()))
            .collect();
        firsts.push(line(&start, m, games, replies));
    }
    let tree = serde_json::json!({
        "format": "persian-chess-opening-tree", "version": 1, "variant": "persian-princess",
        "plies": 2, "min_games": 1, "eval_view": "mover", "fen_games": "skip",
        "games": { "read": 16, "used": 16 },
        "roots": [{
            "start": "startpos", "fen": start.fen(), "games": 16, "white_wins": 8, "draws": 4,
            "black_wins": 4, "unfinished": 0, "score": 62.5, "eval_cp": null, "eval_games": 0,
            "children": firsts,
        }],
    });
    std::fs::write(
        sub.join("tree.json"),
        serde_json::to_string_pretty(&tree).expect("json"),
    )
    .expect("written");
    dir
}

/// An arena like [`arena`] that also serves the opening tree of [`opening_tree_dir`].
pub async fn arena_with_openings(name: &str) -> Arena {
    Arena::start(ArenaConfig {
        accounts: ArenaConfig::builtin_accounts(),
        event_keepalive: Duration::from_millis(500),
        game_keepalive: Duration::from_millis(500),
        max_requests_per_second: 0,
        max_requests_per_second_per_ip: 0,
        stream_opens_per_minute: 0,
        openings: Some(opening_tree_dir(name)),
        ..ArenaConfig::default()
    })
    .await
    .expect("arena starts")
}

/// The first line of a player's game stream (`gameFull`).
pub async fn game_full(h: &Raw, token: &str, api: &str, id: &str) -> serde_json::Value {
    let mut r = h
        .http
        .get(format!("{}/api/{api}/game/stream/{id}", h.base))
        .bearer_auth(token)
        .send()
        .await
        .expect("stream");
    assert_eq!(r.status().as_u16(), 200, "stream of {id}");
    let mut buf = Vec::new();
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), r.chunk())
            .await
            .expect("in time")
            .expect("chunk")
            .expect("more");
        buf.extend_from_slice(&chunk);
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            return serde_json::from_slice(&buf[..i]).expect("JSON line");
        }
    }
}

/// A pseudo-random legal move of `variant` after `moves` (none when the game is over).
pub fn random_move(variant: engine::rules::Variant, moves: &[String], seed: u64) -> Option<String> {
    let mut game = engine::rules::game::Game::new(engine::rules::Position::startpos(variant));
    for uci in moves {
        let m = game.position().parse_uci(uci).expect("legal");
        game.play(m);
    }
    if game.outcome().is_some() {
        return None;
    }
    let legal = game.position().legal_moves();
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ moves.len() as u64;
    x ^= x >> 29;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 32;
    let m = legal.as_slice().get((x % legal.len().max(1) as u64) as usize)?;
    Some(game.position().uci(*m))
}
