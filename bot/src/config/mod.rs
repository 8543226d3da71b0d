//! `bot.toml`: every key has a default; unknown keys are errors. Values written as text (clocks,
//! speeds, modes, engine variants, the evaluation) are parsed into typed values ([`Clock`],
//! [`Speed`], [`Mode`], `Variant`, `EvalSource`) as the file is read; `validate` checks the rest
//! at start-up.

mod values;

use std::{collections::BTreeMap, path::PathBuf, time::Duration};

use engine::{engine::EvalSource, rules::Variant};
use serde::Deserialize;

pub use self::values::{eval_text, Clock, Mode, ParseClockError, ParseModeError, ParseSpeedError, Speed};
use crate::{
    api::{client::RetryPolicy, ClientOptions, Token},
    variants,
};

/// The whole configuration.
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Server and token.
    pub server: ServerConfig,
    /// Engine settings.
    pub engine: EngineConfig,
    /// Which challenges to accept.
    pub challenge: ChallengeConfig,
    /// Game handling: PGN folder, chat.
    pub games: GamesConfig,
    /// Timeouts, retries, backoff.
    pub network: NetworkConfig,
    /// Resign, draw offers and answers, first-move abort.
    pub decisions: DecisionsConfig,
    /// Extra server variant key -> engine variant mappings (written as engine variant ids).
    #[serde(deserialize_with = "values::variant_table")]
    pub variants: BTreeMap<String, Variant>,
    /// Challenging other bots when idle.
    pub matchmaking: MatchmakingConfig,
}

/// `[matchmaking]`: when the bot has had no game for `interval_s`, it challenges a bot (one of
/// `opponents`, or any bot online) to a game of a random variant and clock from the lists.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatchmakingConfig {
    /// Off by default.
    pub enabled: bool,
    /// Idle seconds before a challenge (and between unanswered challenges).
    pub interval_s: u64,
    /// Variant keys to choose from.
    pub variants: Vec<String>,
    /// Clocks to choose from, written `SECONDS+INCREMENT` (e.g. `180+2`).
    #[serde(deserialize_with = "values::matchmaking_clocks")]
    pub clocks: Vec<Clock>,
    /// Rated games.
    pub rated: bool,
    /// Accounts to challenge, in turn; empty: any bot online (but us and the block list).
    pub opponents: Vec<String>,
}

impl Default for MatchmakingConfig {
    fn default() -> MatchmakingConfig {
        MatchmakingConfig {
            enabled: false,
            interval_s: 600,
            variants: vec!["persian-princess".into()],
            clocks: vec![Clock {
                limit_s: 180,
                increment_s: 2,
            }],
            rated: false,
            opponents: Vec::new(),
        }
    }
}

/// `[server]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Base URL.
    pub url: String,
    /// Environment variable holding the token (read first).
    pub token_env: String,
    /// File holding the token (read when the variable is unset).
    pub token_file: Option<PathBuf>,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            url: "https://lichess.org".into(),
            token_env: "LICHESS_BOT_TOKEN".into(),
            token_file: None,
        }
    }
}

/// `[engine]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// Transposition table per game, MB.
    pub hash_mb: usize,
    /// Search threads per game.
    pub threads: usize,
    /// Milliseconds kept back per move for the network.
    pub move_overhead_ms: u64,
    /// Node cap per move.
    pub nodes: Option<u64>,
    /// Depth cap per move.
    pub depth: Option<u32>,
    /// Longest time per move, ms.
    pub max_move_time_ms: Option<u64>,
    /// Time per move in games without a clock, ms.
    pub unlimited_move_time_ms: u64,
    /// `default` (embedded net or hand-crafted), `hce`, or a net file.
    #[serde(deserialize_with = "values::eval_source")]
    pub eval: EvalSource,
    /// Playing strength as the engine's `Skill Level`, 0 (weakest) to 20 (full strength);
    /// none: full strength (docs/strength.md).
    pub skill: Option<u8>,
    /// Playing strength as an Elo on the scale of docs/strength.md (the engine's `UCI_Elo`);
    /// not with `skill`.
    pub elo: Option<i64>,
    /// Opening books written by `trainer openings` (one file, or a list: each game uses the book
    /// of its variant, the first one listed).
    #[serde(deserialize_with = "values::paths")]
    pub book: Vec<std::path::PathBuf>,
    /// Plies from the start of a game in which book moves are played (0: never).
    pub book_depth: u32,
    /// The books of `book`, read by [`EngineConfig::load_books`] (done by [`Config::load`]).
    #[serde(skip)]
    pub books: Books,
}

/// Opening books read from `engine.book`.
#[derive(Clone, Default)]
pub struct Books(pub Vec<std::sync::Arc<engine::book::Book>>);

impl std::fmt::Debug for Books {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.iter().map(|b| b.summary())).finish()
    }
}

impl Books {
    /// The book for `variant`, if one was read.
    pub fn for_variant(&self, variant: Variant) -> Option<std::sync::Arc<engine::book::Book>> {
        self.0.iter().find(|b| b.variant() == variant).cloned()
    }
}

impl EngineConfig {
    /// The playing strength of `skill` or `elo` (full strength without either).
    pub fn strength(&self) -> engine::skill::Strength {
        match (self.skill, self.elo) {
            (Some(level), _) => engine::skill::Strength::from_skill(level),
            (None, Some(elo)) => engine::skill::Strength::from_elo(elo),
            (None, None) => engine::skill::Strength::FULL,
        }
    }

    /// Reads the books of `book` (an error names the file that cannot be read).
    pub fn load_books(&mut self) -> anyhow::Result<()> {
        let mut books = Vec::new();
        for path in &self.book {
            let book = engine::book::Book::read(path).map_err(|e| anyhow::anyhow!("engine.book: {e}"))?;
            books.push(std::sync::Arc::new(book));
        }
        self.books = Books(books);
        Ok(())
    }
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            hash_mb: 64,
            threads: 1,
            move_overhead_ms: 300,
            nodes: None,
            depth: None,
            max_move_time_ms: None,
            unlimited_move_time_ms: 5000,
            eval: EvalSource::Default,
            skill: None,
            elo: None,
            book: Vec::new(),
            book_depth: 20,
            books: Books::default(),
        }
    }
}

/// `[challenge]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ChallengeConfig {
    /// Accept challenges at all.
    pub accept: bool,
    /// Accepted variant keys.
    pub variants: Vec<String>,
    /// Accepted speeds: ultraBullet, bullet, blitz, rapid, classical, correspondence.
    #[serde(deserialize_with = "values::challenge_speeds")]
    pub speeds: Vec<Speed>,
    /// Shortest initial time, seconds.
    pub min_base_s: u64,
    /// Longest initial time, seconds.
    pub max_base_s: u64,
    /// Smallest increment, seconds.
    pub min_increment_s: u64,
    /// Largest increment, seconds.
    pub max_increment_s: u64,
    /// Accepted modes: casual, rated.
    #[serde(deserialize_with = "values::challenge_modes")]
    pub modes: Vec<Mode>,
    /// Accept bots.
    pub accept_bot: bool,
    /// Accept only bots.
    pub only_bot: bool,
    /// Real-time games (with a clock) at the same time.
    pub max_games: usize,
    /// Correspondence (and unlimited) games at the same time, counted apart from real-time
    /// ones: a game of days per move never blocks a blitz challenge.
    pub max_correspondence_games: usize,
    /// Accounts whose challenges are always declined (names, any case).
    pub block_list: Vec<String>,
}

impl Default for ChallengeConfig {
    fn default() -> ChallengeConfig {
        ChallengeConfig {
            accept: true,
            // Every variant the arena offers (each engine variant's server key) and Lichess's
            // chess from a position.
            variants: engine::rules::Variant::ALL
                .into_iter()
                .map(|v| crate::variants::server_key(v).to_string())
                .chain([crate::variants::LICHESS_FROM_POSITION.to_string()])
                .collect(),
            speeds: vec![Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical],
            min_base_s: 0,
            max_base_s: 10800,
            min_increment_s: 0,
            max_increment_s: 180,
            modes: vec![Mode::Casual, Mode::Rated],
            accept_bot: true,
            only_bot: false,
            max_games: 1,
            max_correspondence_games: 5,
            block_list: Vec::new(),
        }
    }
}

/// `[games]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GamesConfig {
    /// Folder for the PGN of every finished game (one file per game).
    pub pgn_dir: PathBuf,
    /// Said in the player chat before our first move (empty: nothing).
    pub greeting: String,
    /// Said at the end (empty: nothing).
    pub goodbye: String,
    /// Claim victory when the opponent leaves and the server allows it.
    pub claim_victory: bool,
    /// What a stop (Ctrl-C, SIGTERM) does with running games: `finish` them (a second signal
    /// switches to `resign`), `resign` them (games still abortable are aborted), or `leave`
    /// them (the bot exits at once; the server's clock decides them).
    pub on_shutdown: ShutdownPolicy,
}

/// See `GamesConfig::on_shutdown`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum ShutdownPolicy {
    /// Play the running games to their end, accepting no new ones.
    #[default]
    Finish,
    /// Abort or resign the running games.
    Resign,
    /// Exit at once.
    Leave,
}

impl Default for GamesConfig {
    fn default() -> GamesConfig {
        GamesConfig {
            pgn_dir: PathBuf::from("games"),
            greeting: "Hello! Persian Chess engine here. Good luck!".into(),
            goodbye: "Thanks for the game!".into(),
            claim_victory: true,
            on_shutdown: ShutdownPolicy::Finish,
        }
    }
}

/// `[network]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// A stream that sends no complete line (keep-alives included) for this long is reconnected,
    /// seconds.
    pub stream_timeout_s: u64,
    /// Timeout of ordinary calls, seconds.
    pub request_timeout_s: u64,
    /// Attempts per call on network errors, 5xx and 429.
    pub max_attempts: u32,
    /// First backoff delay, ms (doubled per failure).
    pub backoff_base_ms: u64,
    /// Longest backoff delay, ms.
    pub backoff_max_ms: u64,
    /// Pause of an endpoint after it answered HTTP 429, seconds.
    pub rate_limit_wait_s: u64,
    /// First delay before the event stream is reopened after it ended or failed, ms (doubled
    /// after each stream that ends at once, back to this after one that lived).
    pub reconnect_base_ms: u64,
    /// Longest delay before the event stream is reopened, ms.
    pub reconnect_max_ms: u64,
}

impl NetworkConfig {
    /// The event stream's reconnection delays: first and longest.
    pub fn reconnect_delays(&self) -> (Duration, Duration) {
        (
            Duration::from_millis(self.reconnect_base_ms),
            Duration::from_millis(self.reconnect_max_ms),
        )
    }
}

impl Default for NetworkConfig {
    fn default() -> NetworkConfig {
        NetworkConfig {
            stream_timeout_s: 20,
            request_timeout_s: 15,
            max_attempts: 8,
            backoff_base_ms: 250,
            backoff_max_ms: 30_000,
            rate_limit_wait_s: 60,
            reconnect_base_ms: 1000,
            reconnect_max_ms: 60_000,
        }
    }
}

/// `[decisions]`: when to resign, offer or accept a draw, and abort. Scores are centipawns
/// from our side, as our last searches returned them (a mate counts as +/-30000).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DecisionsConfig {
    /// Resign when our score is at or below this (cp, negative) ... (0: never resign).
    pub resign_score: i32,
    /// ... for this many consecutive own moves.
    pub resign_moves: usize,
    /// Offer a draw when |score| is at most this (cp) ...
    pub offer_draw_score: i32,
    /// ... for this many consecutive own moves (0: never offer) ...
    pub offer_draw_moves: usize,
    /// ... and at least this many plies have been played.
    pub offer_draw_after_ply: usize,
    /// Accept an opponent's draw offer when our latest score is at most this (cp).
    pub accept_draw_score: i32,
    /// Abort when the opponent has not made its first move within this many seconds, while the
    /// game can still be aborted (0: never).
    pub abort_first_move_seconds: u64,
}

impl Default for DecisionsConfig {
    fn default() -> DecisionsConfig {
        DecisionsConfig {
            resign_score: -1000,
            resign_moves: 3,
            offer_draw_score: 10,
            offer_draw_moves: 10,
            offer_draw_after_ply: 80,
            accept_draw_score: 0,
            abort_first_move_seconds: 60,
        }
    }
}

impl Config {
    /// Reads and validates a TOML file.
    pub fn load(path: &std::path::Path) -> anyhow::Result<Config> {
        use anyhow::Context as _;
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let mut config = Config::parse(&text).with_context(|| format!("in {}", path.display()))?;
        config
            .engine
            .load_books()
            .with_context(|| format!("in {}", path.display()))?;
        Ok(config)
    }

    /// Parses and validates TOML text.
    pub fn parse(text: &str) -> anyhow::Result<Config> {
        let config: Config = toml::from_str(text)?;
        config.validate()?;
        Ok(config)
    }

    /// Checks what parsing each value alone cannot: ranges, non-empty lists, and variant keys
    /// against the `[variants]` table.
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.server.url.starts_with("http://") || self.server.url.starts_with("https://"),
            "server.url must start with http:// or https://, got '{}'",
            self.server.url
        );
        for v in &self.challenge.variants {
            anyhow::ensure!(
                variants::engine_variant(v, &self.variants).is_some(),
                "challenge.variants: the engine cannot play '{v}'"
            );
        }
        anyhow::ensure!(self.challenge.max_games >= 1, "challenge.max_games must be at least 1");
        anyhow::ensure!(
            self.challenge.max_correspondence_games >= 1,
            "challenge.max_correspondence_games must be at least 1"
        );
        let m = &self.matchmaking;
        if m.enabled {
            anyhow::ensure!(!m.variants.is_empty(), "matchmaking.variants must not be empty");
            anyhow::ensure!(!m.clocks.is_empty(), "matchmaking.clocks must not be empty");
            anyhow::ensure!(m.interval_s >= 1, "matchmaking.interval_s must be at least 1");
        }
        for v in &m.variants {
            anyhow::ensure!(
                variants::engine_variant(v, &self.variants).is_some(),
                "matchmaking.variants: the engine cannot play '{v}'"
            );
        }
        anyhow::ensure!(self.engine.hash_mb >= 1, "engine.hash_mb must be at least 1");
        anyhow::ensure!(self.engine.threads >= 1, "engine.threads must be at least 1");
        let e = &self.engine;
        anyhow::ensure!(
            e.skill.is_none() || e.elo.is_none(),
            "engine.skill and engine.elo: give one of them, not both"
        );
        if let Some(level) = e.skill {
            anyhow::ensure!(
                level <= engine::skill::MAX_SKILL,
                "engine.skill must be between 0 and {}, got {level}",
                engine::skill::MAX_SKILL
            );
        }
        if let Some(elo) = e.elo {
            let (min, max) = (engine::skill::ELO_MIN, engine::skill::ELO_MAX);
            anyhow::ensure!(
                (min..=max).contains(&elo),
                "engine.elo must be between {min} and {max} (docs/strength.md), got {elo}"
            );
        }
        anyhow::ensure!(
            self.network.max_attempts >= 1,
            "network.max_attempts must be at least 1"
        );
        let n = &self.network;
        anyhow::ensure!(
            n.reconnect_base_ms >= 1 && n.reconnect_base_ms <= n.reconnect_max_ms,
            "network.reconnect_base_ms must be at least 1 and at most network.reconnect_max_ms ({}), got {}",
            n.reconnect_max_ms,
            n.reconnect_base_ms
        );
        let d = &self.decisions;
        anyhow::ensure!(
            d.resign_score <= 0,
            "decisions.resign_score must be negative (or 0: never), got {}",
            d.resign_score
        );
        anyhow::ensure!(
            d.resign_score == 0 || d.resign_moves >= 1,
            "decisions.resign_moves must be at least 1"
        );
        anyhow::ensure!(
            d.offer_draw_score >= 0,
            "decisions.offer_draw_score is an absolute value and must not be negative, got {}",
            d.offer_draw_score
        );
        Ok(())
    }

    /// The token: from the environment variable, else from the token file.
    pub fn token(&self) -> anyhow::Result<Token> {
        if let Ok(t) = std::env::var(&self.server.token_env) {
            if !t.trim().is_empty() {
                return Ok(Token::new(&t));
            }
        }
        if let Some(path) = &self.server.token_file {
            let t = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("reading the token file {}: {e}", path.display()))?;
            anyhow::ensure!(!t.trim().is_empty(), "the token file {} is empty", path.display());
            return Ok(Token::new(&t));
        }
        anyhow::bail!(
            "no token: set the environment variable {} or server.token_file",
            self.server.token_env
        )
    }

    /// Client options for `token`.
    pub fn client_options(&self, token: Token) -> ClientOptions {
        let n = &self.network;
        ClientOptions {
            base_url: self.server.url.clone(),
            token,
            retry: RetryPolicy {
                max_attempts: n.max_attempts,
                base_delay: Duration::from_millis(n.backoff_base_ms),
                max_delay: Duration::from_millis(n.backoff_max_ms),
                rate_limit_wait: Duration::from_secs(n.rate_limit_wait_s),
            },
            stream_timeout: Duration::from_secs(n.stream_timeout_s),
            request_timeout: Duration::from_secs(n.request_timeout_s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_errors() {
        let c = Config::parse("").expect("empty config is valid");
        assert_eq!(c.server.url, "https://lichess.org");
        let c =
            Config::parse("[engine]\nnodes = 1000\n[challenge]\nvariants = [\"persian-princess\"]\n").expect("valid");
        assert_eq!(c.engine.nodes, Some(1000));
        assert!(Config::parse("[engine]\nhash = 1\n").is_err(), "unknown key");
        assert!(Config::parse("[challenge]\nvariants = [\"atomic\"]\n").is_err());
        assert!(Config::parse("[challenge]\nspeeds = [\"fast\"]\n").is_err());
        assert!(Config::parse("[server]\nurl = \"ftp://x\"\n").is_err());
    }

    #[test]
    fn strength_and_book_keys() {
        use engine::skill::{Strength, ELO_MAX, ELO_MIN};
        let full = Config::parse("").expect("valid");
        assert!(full.engine.strength().is_full());
        assert!(full.engine.book.is_empty() && full.engine.book_depth == 20);
        let c = Config::parse("[engine]\nskill = 3\n").expect("valid");
        assert_eq!(c.engine.strength(), Strength::from_skill(3));
        let c = Config::parse(&format!("[engine]\nelo = {ELO_MIN}\n")).expect("valid");
        assert_eq!(c.engine.strength(), Strength::from_elo(ELO_MIN));
        let err = |text: &str| format!("{:#}", Config::parse(text).expect_err(text));
        assert!(err("[engine]\nskill = 21\n").contains("engine.skill must be between 0 and 20"));
        assert!(err("[engine]\nskill = -1\n").contains("skill"));
        assert!(err("[engine]\nskill = 3\nelo = 1000\n").contains("not both"));
        let e = err(&format!("[engine]\nelo = {}\n", ELO_MAX + 1));
        assert!(e.contains("engine.elo must be between"), "{e}");
        let c = Config::parse("[engine]\nbook = \"a.book\"\nbook_depth = 8\n").expect("valid");
        assert_eq!((c.engine.book.len(), c.engine.book_depth), (1, 8));
        let c = Config::parse("[engine]\nbook = [\"a.book\", \"b.book\"]\n").expect("valid");
        assert_eq!(c.engine.book.len(), 2);
        assert!(err("[engine]\nbook = 3\n").contains("file name"));
        // A book that cannot be read is an error naming it.
        let mut c = Config::parse("[engine]\nbook = \"no-such.book\"\n").expect("valid");
        let e = format!("{:#}", c.engine.load_books().expect_err("missing file"));
        assert!(e.contains("no-such.book"), "{e}");
    }

    #[test]
    fn the_default_accepts_every_variant_the_arena_offers() {
        let accepted = Config::parse("").expect("valid").challenge.variants;
        for v in engine::rules::Variant::ALL {
            let key = crate::variants::server_key(v);
            assert!(accepted.iter().any(|a| a == key), "{key} is accepted");
        }
        assert!(accepted.iter().any(|a| a == "fromPosition"));
        assert!(accepted.iter().any(|a| a == "citadel-8") && accepted.iter().any(|a| a == "citadel-9"));
    }

    #[test]
    fn event_stream_reconnection_delays() {
        let n = Config::parse("").expect("valid").network;
        assert_eq!(
            n.reconnect_delays(),
            (Duration::from_secs(1), Duration::from_secs(60)),
            "the documented defaults"
        );
        let n = Config::parse("[network]\nreconnect_base_ms = 50\nreconnect_max_ms = 400\n")
            .expect("valid")
            .network;
        assert_eq!(
            n.reconnect_delays(),
            (Duration::from_millis(50), Duration::from_millis(400))
        );
        assert!(Config::parse("[network]\nreconnect_base_ms = 0\n").is_err());
        assert!(Config::parse("[network]\nreconnect_base_ms = 90000\n").is_err());
    }

    /// The error text of `toml` (with its causes).
    fn error_of(toml: &str) -> String {
        format!("{:#}", Config::parse(toml).expect_err(toml))
    }

    #[test]
    fn text_values_are_typed_when_read() {
        let c = Config::parse(
            "[engine]\neval = \"hce\"\n[challenge]\nspeeds = [\"ultraBullet\", \"correspondence\"]\n\
             modes = [\"rated\"]\n[matchmaking]\nclocks = [\"60+1\", \"300\"]\n[variants]\npersian = \"omega\"\n",
        )
        .expect("valid");
        assert_eq!(c.engine.eval, EvalSource::HandCrafted);
        assert_eq!(c.challenge.speeds, [Speed::UltraBullet, Speed::Correspondence]);
        assert_eq!(c.challenge.modes, [Mode::Rated]);
        assert_eq!(
            c.matchmaking.clocks,
            [
                Clock {
                    limit_s: 60,
                    increment_s: 1
                },
                Clock {
                    limit_s: 300,
                    increment_s: 0
                }
            ]
        );
        assert_eq!(c.variants.get("persian").map(|v| v.id()), Some("oriental-omega"));
        let c = Config::parse("[engine]\neval = \"nets/x.nnue\"\n").expect("valid");
        assert_eq!(c.engine.eval, EvalSource::File("nets/x.nnue".into()));
        assert_eq!(Config::default().engine.eval, EvalSource::Default);
    }

    #[test]
    fn bad_text_values_name_their_key_and_value() {
        for (toml, key, value) in [
            (
                "[matchmaking]\nclocks = [\"180+2\", \"3m+2\"]\n",
                "matchmaking.clocks",
                "'3m+2'",
            ),
            (
                "[challenge]\nspeeds = [\"blitz\", \"fast\"]\n",
                "challenge.speeds",
                "'fast'",
            ),
            ("[challenge]\nmodes = [\"ranked\"]\n", "challenge.modes", "'ranked'"),
            ("[variants]\nmine = \"atomic\"\n", "variants.mine", "'atomic'"),
            (
                "[challenge]\nvariants = [\"atomic\"]\n",
                "challenge.variants",
                "'atomic'",
            ),
            (
                "[matchmaking]\nvariants = [\"horde\"]\n",
                "matchmaking.variants",
                "'horde'",
            ),
        ] {
            let e = error_of(toml);
            assert!(e.contains(key) && e.contains(value), "{toml}: {e}");
        }
    }

    #[test]
    fn decisions_section() {
        let d = Config::parse("").expect("valid").decisions;
        assert_eq!((d.resign_score, d.resign_moves), (-1000, 3));
        assert_eq!(
            (d.offer_draw_score, d.offer_draw_moves, d.offer_draw_after_ply),
            (10, 10, 80)
        );
        assert_eq!((d.accept_draw_score, d.abort_first_move_seconds), (0, 60));
        let c = Config::parse("[decisions]\nresign_score = 0\nabort_first_move_seconds = 5\n").expect("valid");
        assert_eq!((c.decisions.resign_score, c.decisions.abort_first_move_seconds), (0, 5));
        assert!(Config::parse("[decisions]\nresign = 1\n").is_err(), "unknown key");
        assert!(Config::parse("[decisions]\nresign_score = 300\n").is_err());
        assert!(Config::parse("[decisions]\nresign_moves = 0\n").is_err());
        assert!(Config::parse("[decisions]\noffer_draw_score = -5\n").is_err());
    }
}
