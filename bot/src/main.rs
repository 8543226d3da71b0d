//! `bot`: play on Lichess (or any compatible server), run the local arena, or run the demo.

use std::path::{Path, PathBuf};
#[cfg(feature = "arena")]
use std::time::Duration;

use anyhow::Context as _;
#[cfg(feature = "arena")]
use bot::{
    arena::{AccountSpec, Arena, ArenaConfig, Storage},
    config::Clock,
    demo::{self, DemoOptions},
};
use bot::{config::Config, events::Bot};
use clap::{Parser, Subcommand};
#[cfg(feature = "arena")]
use engine::rules::Variant;
use tokio::sync::watch;

#[derive(Parser)]
#[command(name = "persian-bot", version, about = "Persian Chess Lichess bot and local arena")]
struct Cli {
    /// Log filter (e.g. info, debug, bot=debug); RUST_LOG wins when set. Default: info (warn
    /// for the demo, whose moves are printed).
    #[arg(long, global = true)]
    log: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Connect to the server and play challenges.
    Play {
        /// The configuration file. Repeat it to run several bots in one process, each with its
        /// own account (token) and settings, e.g. one per strength level (docs/bot.md).
        #[arg(long = "config", value_name = "CONFIG", default_value = "bot.toml")]
        configs: Vec<PathBuf>,
        /// Override server.url.
        #[arg(long)]
        url: Option<String>,
    },
    /// Upgrade the token's account to a BOT account (asks for confirmation; cannot be undone).
    Upgrade {
        /// The configuration file (server.url and the token settings are read).
        #[arg(long, default_value = "bot.toml")]
        config: PathBuf,
        /// Override server.url.
        #[arg(long)]
        url: Option<String>,
        /// Do not ask: upgrade at once.
        #[arg(long)]
        yes: bool,
    },
    #[cfg(feature = "arena")]
    /// Run the arena, a Lichess-compatible server for our games, or manage its accounts.
    ///
    /// Without a subcommand it serves. State lives in a SQLite file (--db, created and migrated
    /// on start) unless --memory is given; see docs/arena.md.
    Arena {
        /// Port (0: any free port).
        #[arg(long, default_value_t = 9663)]
        port: u16,
        /// Address to bind (keep 127.0.0.1 behind a reverse proxy).
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// The database file.
        #[arg(long, global = true, default_value = "arena.sqlite")]
        db: PathBuf,
        /// Keep everything in memory (tests, trying it out); with no --account, the built-in
        /// accounts Alpha, Beta (bots) and Human exist.
        #[arg(long, conflicts_with = "demo")]
        memory: bool,
        /// Extra accounts as NAME:TOKEN[:human], repeatable (added when missing).
        #[arg(long = "account", value_parser = parse_account)]
        accounts: Vec<AccountSpec>,
        /// Seconds between keep-alive lines.
        #[arg(long, default_value_t = 7)]
        keepalive: u64,
        /// Behind a reverse proxy: rate-limit by the last X-Forwarded-For address.
        #[arg(long)]
        behind_proxy: bool,
        /// The opening statistics for the explorer page: a folder with the `tree.json` files of
        /// `trainer openings` (its `openings-<variant>/` folders), read at start.
        #[arg(long, value_name = "DIR")]
        openings: Option<std::path::PathBuf>,
        /// Run the demo on an in-memory arena instead of serving.
        #[arg(long)]
        demo: bool,
        /// Write one line per request to this file (`-`: standard output): address, account,
        /// time, method, path (never the query), status, milliseconds, user agent.
        #[arg(long, value_name = "FILE")]
        access_log: Option<PathBuf>,
        /// Do not serve Prometheus metrics at /metrics.
        #[arg(long)]
        no_metrics: bool,
        /// Tests: limit the database to N pages of 4 KiB, so that writes beyond fail as on a
        /// full disk.
        #[arg(long, hide = true, value_name = "N")]
        test_max_db_pages: Option<u64>,
        #[command(subcommand)]
        action: Option<ArenaAction>,
    },
    #[cfg(feature = "arena")]
    /// Measure the bot's own costs: N games at once between two bots on an in-process arena;
    /// prints the latency from a gameState to the move beyond the search, and memory per game.
    Bench {
        /// Games at the same time.
        #[arg(long, default_value_t = 8)]
        games: usize,
        /// Variant (an engine variant id or alias, e.g. persian-princess, omega, standard).
        #[arg(long, default_value = "persian-princess")]
        variant: Variant,
        /// Nodes per move.
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        /// Hash per game, MB (the default of bot.toml).
        #[arg(long, default_value_t = bot::config::EngineConfig::default().hash_mb)]
        hash_mb: usize,
    },
    #[cfg(feature = "arena")]
    /// Load-test the arena: N bot-vs-bot games at once on an in-process arena (random legal
    /// moves, the cost of a one-node search); prints moves per second, the latency of a move
    /// POST (median, 99th percentile) and memory per game.
    Load {
        /// Games at the same time.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Plies per game before the side to move resigns.
        #[arg(long, default_value_t = 120)]
        plies: usize,
        /// Variant.
        #[arg(long, default_value = "persian-princess")]
        variant: Variant,
        /// Keep the arena in memory instead of a SQLite file (in a temporary directory).
        #[arg(long)]
        memory: bool,
        /// Stop after this many seconds.
        #[arg(long, default_value_t = 120)]
        seconds: u64,
        /// What the arena observes: `on` (metrics and an access log, as served in public),
        /// `off` (neither), or `both` (the same load with each, alternating, three runs each,
        /// and the cost of observing: the medians' difference of moves per second).
        #[arg(long, default_value = "off", value_parser = ["on", "off", "both"])]
        observe: String,
    },
    #[cfg(feature = "arena")]
    /// Play one demo game between two bots on an in-process arena.
    Demo {
        /// Variant (an engine variant id or alias, e.g. persian-princess, omega, standard).
        #[arg(long, default_value = "persian-princess")]
        variant: Variant,
        /// Nodes per move.
        #[arg(long, default_value_t = 20000)]
        nodes: u64,
        /// Clock, e.g. 60+1 (seconds + increment).
        #[arg(long, default_value = "60+1")]
        clock: Clock,
        /// Folder for the PGN.
        #[arg(long, default_value = "games/demo")]
        pgn_dir: PathBuf,
        /// Do not print the moves.
        #[arg(long)]
        quiet: bool,
    },
}

#[cfg(feature = "arena")]
/// Managing the arena's accounts and tokens in its database.
#[derive(Subcommand, Debug)]
enum ArenaAction {
    /// Accounts.
    Account {
        #[command(subcommand)]
        action: AccountAction,
    },
    /// Personal API tokens.
    Token {
        #[command(subcommand)]
        action: TokenAction,
    },
    /// Copy the database, consistently, while a server may be using it (no need to stop it).
    /// The copy is a complete database: serve it with --db to restore.
    Backup {
        /// The copy (a new file).
        to: PathBuf,
    },
}

#[cfg(feature = "arena")]
#[derive(Subcommand, Debug)]
enum AccountAction {
    /// Create an account and print its first token (shown once; stored only hashed).
    Add {
        /// User name (2 to 30 letters, digits, _ or -).
        name: String,
        /// A BOT account (plays through the Bot API).
        #[arg(long)]
        bot: bool,
        /// May create accounts through POST /api/admin/account.
        #[arg(long)]
        admin: bool,
        /// Scopes of the token, comma-separated (default: bot:play, board:play,
        /// challenge:read, challenge:write, preference:read).
        #[arg(long, value_delimiter = ',')]
        scopes: Vec<String>,
    },
    /// List the accounts with their kind and tokens.
    List,
    /// Set the password an account signs in with on the arena's pages (read from the first
    /// line of standard input, 8 to 256 characters); ends the account's sessions.
    Password {
        /// User name.
        name: String,
    },
    /// Disable an account: no sign-in, no token works, its running games end (aborted before
    /// both sides moved, else lost), its challenges and seeks are withdrawn. A running server
    /// applies it at once.
    Disable {
        /// User name.
        name: String,
    },
    /// Enable a disabled account again.
    Enable {
        /// User name.
        name: String,
    },
}

#[cfg(feature = "arena")]
#[derive(Subcommand, Debug)]
enum TokenAction {
    /// Create another token for an account and print it (shown once).
    Add {
        /// User name.
        name: String,
        /// Scopes, comma-separated (default as for `account add`).
        #[arg(long, value_delimiter = ',')]
        scopes: Vec<String>,
        /// What the token is for.
        #[arg(long, default_value = "created on the command line")]
        description: String,
    },
    /// Revoke a token (a running server forgets it at its next start).
    Revoke {
        /// The token.
        token: String,
    },
}

#[cfg(feature = "arena")]
/// Reads `--account NAME:TOKEN[:bot|:human]`.
fn parse_account(text: &str) -> Result<AccountSpec, String> {
    let parts: Vec<&str> = text.split(':').collect();
    match parts.as_slice() {
        [name, token] | [name, token, "bot"] => Ok(AccountSpec {
            username: name.to_string(),
            token: token.to_string(),
            bot: true,
            rating: 1500,
            scopes: Vec::new(),
        }),
        [name, token, "human"] => Ok(AccountSpec {
            username: name.to_string(),
            token: token.to_string(),
            bot: false,
            rating: 1500,
            scopes: Vec::new(),
        }),
        _ => Err(format!("expected NAME:TOKEN or NAME:TOKEN:human, got '{text}'")),
    }
}

/// `bot upgrade`: shows the account, asks to type its name, upgrades it.
async fn upgrade(config: Config, yes: bool) -> anyhow::Result<()> {
    let token = config.token()?;
    let client = bot::api::Client::new(config.client_options(token))?;
    let account = client
        .account()
        .await
        .with_context(|| format!("checking the account at {}", client.base_url()))?;
    if account.is_bot() {
        println!(
            "{} is already a BOT account on {}.",
            account.username,
            client.base_url()
        );
        return Ok(());
    }
    if !yes {
        println!(
            "This turns the account {} on {} into a BOT account.\n\
             It cannot be undone, the account must not have played any game, and it can then\n\
             play only through the Bot API. Type the account name to confirm:",
            account.username,
            client.base_url()
        );
        let mut answer = String::new();
        std::io::stdin()
            .read_line(&mut answer)
            .context("reading the confirmation")?;
        if !answer.trim().eq_ignore_ascii_case(&account.username) {
            anyhow::bail!(
                "not confirmed ('{}' is not the account name); nothing changed",
                answer.trim()
            );
        }
    }
    client
        .upgrade_to_bot()
        .await
        .with_context(|| format!("upgrading {}", account.username))?;
    println!("{} is now a BOT account.", account.username);
    Ok(())
}

/// A watch that becomes true on Ctrl-C or SIGTERM, and is sent again on each further signal
/// (the bot's second-signal escalation listens for that).
async fn shutdown_signal() -> watch::Receiver<bool> {
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        #[cfg(unix)]
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        loop {
            #[cfg(unix)]
            let terminated = async {
                match term.as_mut() {
                    Some(t) => {
                        t.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            #[cfg(not(unix))]
            let terminated = std::future::pending::<()>();
            tokio::select! {
                r = tokio::signal::ctrl_c() => if r.is_err() { return },
                _ = terminated => {}
            }
            tracing::info!("stop signal received");
            if tx.send(true).is_err() {
                return;
            }
        }
    });
    rx
}

#[cfg(feature = "arena")]
async fn run_demo(options: DemoOptions) -> anyhow::Result<()> {
    let summary = demo::run(options).await?;
    println!();
    println!("Demo summary ({:.1} s):", summary.elapsed.as_secs_f64());
    for r in &summary.reports {
        println!(
            "  {} as {}: {}{} after {} plies, PGN {}",
            r.id,
            r.color,
            r.status,
            r.winner.as_deref().map(|w| format!(" ({w} wins)")).unwrap_or_default(),
            r.plies,
            r.pgn.as_ref().map_or("not saved".into(), |p| p.display().to_string())
        );
    }
    Ok(())
}

/// Reads the configuration file and applies a `--url` override.
fn load_config(path: &Path, url: Option<String>) -> anyhow::Result<Config> {
    let mut config = Config::load(path)?;
    if let Some(url) = url {
        config.server.url = url;
    }
    Ok(config)
}

/// `bot play`: connects each configuration's bot and plays until a stop signal. Every bot is
/// connected before any plays; the first one to fail stops them all.
async fn play(configs: Vec<Config>) -> anyhow::Result<()> {
    let mut bots = Vec::with_capacity(configs.len());
    for config in configs {
        let token = config.token()?;
        bots.push(Bot::connect(config, token).await?);
    }
    let shutdown = shutdown_signal().await;
    let mut running = tokio::task::JoinSet::new();
    for bot in bots {
        running.spawn(bot.run(shutdown.clone()));
    }
    while let Some(done) = running.join_next().await {
        match done {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(e),
            Err(e) => anyhow::bail!("a bot's task failed: {e}"),
        }
    }
    Ok(())
}

#[cfg(feature = "arena")]
/// `bot bench`: runs the bench and prints what it measured.
async fn bench(options: bot::bench::BenchOptions) -> anyhow::Result<()> {
    let bot::bench::BenchOptions {
        games,
        variant,
        nodes,
        hash_mb,
    } = &options;
    anyhow::ensure!(*games >= 1, "--games must be at least 1");
    println!("bench: {games} games of {variant} at once, {nodes} nodes per move, hash {hash_mb} MB per game...");
    let r = bot::bench::run(options).await?;
    println!("games finished        {} in {:.1} s", r.games, r.elapsed.as_secs_f64());
    println!("moves sent            {}", r.moves);
    println!(
        "latency beyond search median {:.2} ms, 90th percentile {:.2} ms (gameState received -> move sent)",
        r.overhead_median_ms, r.overhead_p90_ms
    );
    println!(
        "memory                {:.1} MB before, {:.1} MB peak: {:.1} MB per running game (two bot sides)",
        r.rss_before_mb,
        r.rss_peak_mb,
        r.mb_per_game()
    );
    Ok(())
}

#[cfg(feature = "arena")]
/// `bot arena account|token|backup ...`: changes (or copies) the database directly; a running
/// server picks the changes up at once.
fn manage_arena(db: &std::path::Path, action: ArenaAction) -> anyhow::Result<()> {
    if let ArenaAction::Backup { to } = &action {
        bot::arena::backup(db, to)?;
        println!("copied {} to {} (integrity checked)", db.display(), to.display());
        return Ok(());
    }
    let store = bot::arena::store::Store::open(db)
        .map_err(|e| anyhow::anyhow!("opening the arena database {}: {e}", db.display()))?;
    let admin = bot::arena::Admin::new(store)?;
    match action {
        ArenaAction::Account {
            action:
                AccountAction::Add {
                    name,
                    bot,
                    admin: is_admin,
                    scopes,
                },
        } => {
            let token = admin.add_account(&name, bot, is_admin, &scopes)?;
            let kind = if bot { "bot" } else { "human" };
            println!("created the {kind} account {name} in {}", db.display());
            println!("its token (shown once, keep it secret): {token}");
        }
        ArenaAction::Account {
            action: AccountAction::Password { name },
        } => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            let password = line.trim_end_matches(['\n', '\r']);
            admin.set_password(&name, password)?;
            println!("set the password of {name} in {}", db.display());
        }
        ArenaAction::Account {
            action: AccountAction::Disable { name },
        } => {
            if admin.set_disabled(&name, true)? {
                println!("disabled {name} in {}", db.display());
            } else {
                println!("{name} was already disabled");
            }
        }
        ArenaAction::Account {
            action: AccountAction::Enable { name },
        } => {
            if admin.set_disabled(&name, false)? {
                println!("enabled {name} in {}", db.display());
            } else {
                println!("{name} was not disabled");
            }
        }
        ArenaAction::Backup { .. } => {}
        ArenaAction::Account {
            action: AccountAction::List,
        } => {
            for line in admin.list()? {
                println!("{line}");
            }
        }
        ArenaAction::Token {
            action:
                TokenAction::Add {
                    name,
                    scopes,
                    description,
                },
        } => {
            let token = admin.add_token(&name, &scopes, &description)?;
            println!("a new token for {name} (shown once, keep it secret): {token}");
        }
        ArenaAction::Token {
            action: TokenAction::Revoke { token },
        } => {
            if admin.revoke(&token)? {
                println!("revoked (a running arena refuses it at once)");
            } else {
                anyhow::bail!("no such token in {}", db.display());
            }
        }
    }
    Ok(())
}

#[cfg(feature = "arena")]
/// `bot arena`: serves the arena until a stop signal.
async fn serve_arena(mut config: ArenaConfig) -> anyhow::Result<()> {
    if config.accounts.is_empty() && config.storage == Storage::Memory {
        config.accounts = ArenaConfig::builtin_accounts();
    }
    let where_ = match &config.storage {
        Storage::Memory => "in memory".to_string(),
        Storage::File(p) => format!("in {}", p.display()),
    };
    let arena = Arena::start(config).await?;
    let names = arena.account_names();
    println!("arena listening on {}, state {where_}", arena.url());
    if names.is_empty() {
        println!("no accounts yet: create one with `bot arena account add NAME [--bot]`");
    } else {
        println!("accounts: {}", names.join(", "));
    }
    let mut stop = shutdown_signal().await;
    let _ = stop.changed().await;
    arena.stop();
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        #[cfg(feature = "arena")]
        let quiet = matches!(cli.command, Command::Demo { .. } | Command::Arena { demo: true, .. });
        #[cfg(not(feature = "arena"))]
        let quiet = false;
        let default = if quiet { "warn" } else { "info" };
        tracing_subscriber::EnvFilter::new(cli.log.as_deref().unwrap_or(default))
    });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    match cli.command {
        Command::Play { configs, url } => {
            let mut loaded = Vec::with_capacity(configs.len());
            for path in &configs {
                loaded.push(load_config(path, url.clone())?);
            }
            play(loaded).await
        }
        #[cfg(feature = "arena")]
        Command::Bench {
            games,
            variant,
            nodes,
            hash_mb,
        } => {
            bench(bot::bench::BenchOptions {
                games,
                variant,
                nodes,
                hash_mb,
            })
            .await
        }
        #[cfg(feature = "arena")]
        Command::Load {
            games,
            plies,
            variant,
            memory,
            seconds,
            observe,
        } => {
            let modes: Vec<bool> = match observe.as_str() {
                "on" => vec![true],
                "off" => vec![false],
                _ => vec![false, true, false, true, false, true],
            };
            let mut rates: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
            for on in modes {
                let r = bot::load::run(bot::load::LoadOptions {
                    games,
                    plies,
                    variant,
                    sqlite: !memory,
                    seconds,
                    metrics: on,
                    access_log: on,
                })
                .await?;
                println!(
                    "{} games ({}, metrics and access log {}) at once, {} plies each: {} moves in {:.1} s = {:.0} moves/s; move POST p50 {:.2} ms, p99 {:.2} ms; {:.2} MB per game",
                    games,
                    if memory { "in memory" } else { "SQLite" },
                    if on { "on" } else { "off" },
                    plies,
                    r.moves,
                    r.elapsed.as_secs_f64(),
                    r.moves_per_second(),
                    r.move_p50_ms,
                    r.move_p99_ms,
                    r.mb_per_game
                );
                if r.games < games {
                    println!("only {} of {} games finished within {seconds} s", r.games, games);
                }
                rates[usize::from(on)].push(r.moves_per_second());
            }
            if let ([_, ..], [_, ..]) = (&rates[0][..], &rates[1][..]) {
                let median = |v: &mut Vec<f64>| {
                    v.sort_by(f64::total_cmp);
                    v[v.len() / 2]
                };
                let (off, on) = (median(&mut rates[0]), median(&mut rates[1]));
                println!(
                    "median moves/s: off {off:.0}, on {on:.0}: observing costs {:.1} %",
                    (off - on) / off.max(1e-9) * 100.0
                );
            }
            Ok(())
        }
        Command::Upgrade { config, url, yes } => upgrade(load_config(&config, url)?, yes).await,
        #[cfg(feature = "arena")]
        Command::Arena {
            action: Some(action),
            db,
            ..
        } => manage_arena(&db, action),
        #[cfg(feature = "arena")]
        Command::Arena { demo: true, .. } => run_demo(DemoOptions::default()).await,
        #[cfg(feature = "arena")]
        Command::Arena {
            port,
            bind,
            db,
            memory,
            accounts,
            keepalive,
            behind_proxy,
            openings,
            access_log,
            no_metrics,
            test_max_db_pages,
            ..
        } => {
            let storage = if memory { Storage::Memory } else { Storage::File(db) };
            let config = ArenaConfig {
                port,
                bind,
                accounts,
                event_keepalive: Duration::from_secs(keepalive.max(1)),
                game_keepalive: Duration::from_secs(keepalive.max(1)),
                trust_forwarded_for: behind_proxy,
                storage,
                openings,
                access_log,
                metrics: !no_metrics,
                store_page_limit: test_max_db_pages,
                ..ArenaConfig::default()
            };
            serve_arena(config).await
        }
        #[cfg(feature = "arena")]
        Command::Demo {
            variant,
            nodes,
            clock,
            pgn_dir,
            quiet,
        } => {
            run_demo(DemoOptions {
                variant,
                nodes,
                clock,
                pgn_dir,
                print_moves: !quiet,
                ..DemoOptions::default()
            })
            .await
        }
    }
}

#[cfg(all(test, feature = "arena"))]
mod tests {
    use clap::CommandFactory as _;

    use super::*;

    #[test]
    fn arguments_are_typed_when_parsed() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from(["bot", "demo", "--variant", "omega", "--clock", "30+0"]).expect("valid");
        let Command::Demo { variant, clock, .. } = cli.command else {
            panic!("not the demo");
        };
        assert_eq!(variant.id(), "oriental-omega");
        assert_eq!(
            clock,
            Clock {
                limit_s: 30,
                increment_s: 0
            }
        );
        let cli = Cli::try_parse_from(["bot", "arena", "--account", "Carol:c-token:human"]).expect("valid");
        let Command::Arena { accounts, .. } = cli.command else {
            panic!("not the arena");
        };
        assert_eq!((accounts[0].username.as_str(), accounts[0].bot), ("Carol", false));
        for (args, value) in [
            (["bot", "demo", "--variant", "atomic"], "'atomic'"),
            (["bot", "demo", "--clock", "3m"], "'3m'"),
            (["bot", "bench", "--variant", "horde"], "'horde'"),
            (["bot", "arena", "--account", "nobody"], "'nobody'"),
        ] {
            let e = Cli::try_parse_from(args).err().expect("refused").to_string();
            assert!(e.contains(value), "{args:?}: {e}");
        }
    }
}
