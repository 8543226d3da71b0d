//! The `engine` command line.

use std::{path::PathBuf, time::Instant};

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use engine::{
    engine::EvalSource,
    rules::{game::Game, perft, tables::Tables, Color, Position, Variant},
    search::time::TimeLimit,
};

/// Persian Chess engine: rules, search, UCI, analysis and matches for Celtic Citadel, Persian Princess,
/// Egyptian Eye, Oriental Omega, chess, Parsi Chess and Nicholls' Citadel.
#[derive(Parser)]
#[command(
    name = "persian-engine",
    version,
    about,
    long_about = "Persian Chess engine: rules, search and UCI for Celtic Citadel, Persian \
Princess, Egyptian Eye, Oriental Omega, chess, Parsi Chess and Nicholls' Citadel (9x8 and 9x9, \
reconstructed set-up; `engine variants` lists the ids).\n\nWithout a subcommand the engine speaks UCI on standard input and \
output (choose the variant with `setoption name UCI_Variant value <id>`)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Which position a command works on.
#[derive(clap::Args)]
struct PositionArgs {
    /// Variant id or alias (`engine variants` lists them).
    #[arg(short, long, default_value_t = Variant::DEFAULT)]
    variant: Variant,
    /// Rule settings of the variant, for the readings its rules note leaves open (Parsi Chess:
    /// `ludii` for the Ludii set, or items such as `leap_no_capture=on,bonus_leap=off`;
    /// docs/rules.md lists them).
    #[arg(long, value_name = "SETTINGS", default_value = "")]
    rules: String,
    /// Start from this FEN instead of the start position (either empty-cell convention).
    #[arg(short, long)]
    fen: Option<String>,
    /// Moves in UCI notation to play from the position first, as one quoted list
    /// (`-m "e3e5 e9e7"`) or repeated (`-m e3e5 -m e9e7`).
    #[arg(short, long, value_delimiter = ' ')]
    moves: Vec<String>,
}

impl PositionArgs {
    fn load(&self) -> Result<Position> {
        let tables = self.variant.tables_with(&self.rules)?;
        load(tables, self.fen.as_deref(), &self.moves)
    }

    /// The game of the FEN (or start position) and the moves: the position with the positions
    /// before it, which the rules that look at the game (Parsi's perpetual-check ban) read.
    /// A move those rules forbid is refused.
    fn load_game(&self) -> Result<Game> {
        let tables = self.variant.tables_with(&self.rules)?;
        let start = match self.fen.as_deref() {
            Some(f) => Position::from_fen_in(tables, f).with_context(|| format!("reading FEN '{f}'"))?,
            None => Position::from_fen_in(tables, tables.spec.start_fen)?,
        };
        let mut game = Game::new(start);
        for m in self.moves.iter().flat_map(|m| m.split_whitespace()) {
            let pos = game.position();
            let mv = pos
                .parse_uci(m)
                .with_context(|| format!("playing move '{m}' in {}", pos.fen()))?;
            if !game.legal_moves().contains(mv) {
                bail!(
                    "playing move '{m}' in {}: the game forbids it here (it would repeat a position by perpetual check)",
                    pos.fen()
                );
            }
            game.play(mv);
        }
        Ok(game)
    }
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaf nodes of the legal-move tree (move-generator test and benchmark).
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Print the count below each root move.
        #[arg(short, long)]
        divide: bool,
        /// Count with the slow reference generator, written directly from the variant's spec,
        /// instead of the fast one: the independent recount of a perft number.
        #[arg(long)]
        reference: bool,
        /// Threads for `--reference` (the root moves are shared among them).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Depth in plies.
        depth: u32,
    },
    /// Prints a position as a board diagram with its FEN and legal moves.
    Show {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Lists the variants with their ids and aliases.
    Variants,
    /// Speaks UCI on standard input and output (the default without a subcommand).
    Uci,
    /// Searches the fixed bench positions of every variant to a fixed depth and prints the node
    /// total (the behaviour signature of search and evaluation) and the speed.
    Bench {
        /// Search depth.
        #[arg(default_value_t = engine::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Only this variant (default: all).
        #[arg(short, long)]
        variant: Option<Variant>,
        /// Evaluation: a .nnue file for the variant, `hce` for the hand-crafted evaluation, or
        /// `<embedded>` (default) for the net built into the binary when there is one.
        #[arg(long, default_value_t = EvalSource::Default)]
        net: EvalSource,
    },
    /// Prints the static evaluation of a position with its terms (or of every position of a
    /// file: --epd, --pgn).
    Eval {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        batch: BatchArgs,
        /// Evaluation: a .nnue file for the variant, `hce` for the hand-crafted evaluation, or
        /// `<embedded>` (default) for the net built into the binary when there is one.
        #[arg(long, default_value_t = EvalSource::Default)]
        net: EvalSource,
    },
    /// Searches a position and prints each iteration with its principal variation in UCI and SAN;
    /// or searches every position of a file (--epd, --pgn), several at once (--jobs), one result
    /// each (--json: one JSON object per line).
    Analyse(Box<AnalyseArgs>),
    /// Plays a match between two engines (this engine in-process, or any UCI engine run as a
    /// program) and reports W/D/L, score, Elo difference with its 95% interval, LOS and
    /// optionally an SPRT.
    #[command(
        long_about = "Plays a match between two players and reports the result from the first one's point \
of view: wins/draws/losses, game pairs, score, Elo difference with its 95% confidence interval \
(pentanomial: from game pairs, by default), likelihood of superiority (LOS) and, with --sprt, the \
SPRT log-likelihood ratio and verdict.\n\nEvery opening is played twice with colours swapped. A \
player is a comma-separated list of key=value pairs. This engine in-process: name, depth, nodes, \
movetime (ms), st (s), tc (clock, e.g. 40/60+0.6 or 10+0.1), hash (MB, default 16), threads \
(default 1), eval (hce, default or a .nnue file). A UCI engine run as a program: cmd (the \
program), name, args, dir, option.NAME=VALUE (repeatable), tc, st, movetime, depth, nodes, hash and \
threads (sent as its options), timeout (s, for its start and for moves without a clock). Both: \
timemargin (ms a move may go beyond the clock before it loses on time, default 100). At least one \
of tc, st, movetime, depth and nodes is required.\n\n--first and --second give the two sides; \
each --engine fills the next side not given; a side still missing is this engine in-process with \
the other side's limits. --each adds keys to both sides.\n\nExamples:\n  engine match -v persian-princess \
-n 20 --first \"name=deep,depth=5\" --second depth=1 --pgn games.pgn\n  engine match -n 200 --engine \
cmd=target/release/persian-engine,name=new --engine cmd=old/persian-engine,name=old --each tc=10+0.1 -c 2 --sprt 0,10\n\n\
See docs/match.md for the options and the meaning of the statistics."
    )]
    Match(Box<MatchArgs>),
    /// Merges the results files of a match played in parts (`engine match --pairs ... --results
    /// FILE`) into the report one process gives for the same games; with --sprt the test is
    /// applied game by game in game order and stops where it decides.
    MatchMerge {
        /// Results files written by `engine match --results`.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        sprt: SprtArgs,
    },
    /// Lists the search's tunable parameters (the `SearchParams` option): name, default, range,
    /// SPSA perturbation (c_end) and meaning; then the games whose defaults differ, and how.
    Params,
    /// Tunes the search's parameters by SPSA on self-play at fixed nodes: each iteration, the
    /// engine with the parameters perturbed one way plays the engine perturbed the other way
    /// (game pairs, both colours), and the parameters move toward the side that scored.
    #[command(
        long_about = "Tunes the search's parameters (engine params) by SPSA on self-play at fixed \
nodes. Each iteration perturbs every tuned parameter by +-c_k (a fair coin each), plays --pairs game pairs \
of the engine with theta + c_k delta against the engine with theta - c_k delta (each opening with both \
colours, random openings as engine match draws them, seeded per iteration), and moves theta by \
a_k * (games won - games lost) * delta / c_k, clamped to the ranges.\n\nThe state is saved in --out \
after every iteration (state.json; theta.csv, one row per iteration; params.txt, the current values as \
a SearchParams option string): the same command run again resumes where it stopped. Accept a result \
with an SPRT of the tuned values against the defaults (docs/strength.md, \"Tuning by SPSA\")."
    )]
    Spsa(Box<SpsaArgs>),
}

/// Options of `engine spsa`.
#[derive(clap::Args)]
struct SpsaArgs {
    /// Variant id or alias (`engine variants` lists them).
    #[arg(short, long, default_value_t = Variant::DEFAULT)]
    variant: Variant,
    /// Rule settings of the variant (as for `engine match --rules`).
    #[arg(long, value_name = "SETTINGS", default_value = "")]
    rules: String,
    /// Nodes per move of both engines.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Iterations of the run (the gain schedule depends on it: a run is resumed with the same
    /// number).
    #[arg(long, default_value_t = 1000)]
    iterations: usize,
    /// Game pairs per iteration (each on its own opening, both colours).
    #[arg(long, default_value_t = 1)]
    pairs: usize,
    /// The parameters to tune, by name separated by commas (default: all; `engine params`
    /// lists them). The others keep their defaults.
    #[arg(long, value_name = "NAMES", default_value = "all")]
    params: String,
    /// Games played at the same time (at most 2 x --pairs are useful).
    #[arg(short, long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the perturbations and the openings.
    #[arg(long, default_value_t = engine::play::openings::DEFAULT_SEED)]
    seed: u64,
    /// The folder of the run's state (created if needed; a run found there is resumed).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Decay exponent of the step gain a_k = a / (k + 1 + A)^alpha.
    #[arg(long, default_value_t = 0.602)]
    alpha: f64,
    /// Decay exponent of the perturbation c_k = c / (k + 1)^gamma.
    #[arg(long, default_value_t = 0.101)]
    gamma: f64,
    /// The stability constant A of a_k (default: a tenth of the iterations).
    #[arg(long = "big-a", value_name = "A")]
    big_a: Option<f64>,
    /// The gain a: at the first iteration, one game won net moves a parameter by this many of
    /// its c_end.
    #[arg(long, default_value_t = engine::tournament::spsa::DEFAULT_EARLY_STEP)]
    early_step: f64,
    /// Transposition table of each engine, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Evaluation: a .nnue file for the variant, `hce` for the hand-crafted evaluation, or
    /// `<embedded>` (default) for the net built into the binary when there is one.
    #[arg(long, default_value_t = EvalSource::Default)]
    net: EvalSource,
    /// Print only the closing lines, not a line per iteration.
    #[arg(short, long)]
    quiet: bool,
}

/// The options of `engine analyse`.
#[derive(clap::Args)]
struct AnalyseArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    batch: BatchArgs,
    /// Positions searched at the same time in a batch (--epd, --pgn), each by its own engine
    /// with --threads threads and --hash MB: keep jobs times threads at or below the cores.
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// Search depth (default: 12 unless a time or node limit is given).
    #[arg(short, long)]
    depth: Option<u32>,
    /// Search time in milliseconds (per position).
    #[arg(short, long, visible_alias = "movetime")]
    time: Option<u64>,
    /// Node limit.
    #[arg(short, long)]
    nodes: Option<u64>,
    /// Number of principal variations.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluation: a .nnue file for the variant, `hce` for the hand-crafted evaluation, or
    /// `<embedded>` (default) for the net built into the binary when there is one.
    #[arg(long, default_value_t = EvalSource::Default)]
    net: EvalSource,
}

/// The batch options of `engine analyse` and `engine eval`.
#[derive(clap::Args)]
struct BatchArgs {
    /// Work on every position of this file, one per line: EPD, or FEN (`-`: standard input).
    /// A line that cannot be read gives an error result naming it; the others are done.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves", "pgn"])]
    epd: Option<PathBuf>,
    /// Work on the games of this PGN file (`-`: standard input): each game's last position, or
    /// with --each-ply every position of the game.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    pgn: Option<PathBuf>,
    /// With --pgn: every position of each game, from its start to its end.
    #[arg(long, requires = "pgn")]
    each_ply: bool,
    /// One JSON object per position, one per line (docs/engine.md lists the fields).
    #[arg(long)]
    json: bool,
    /// In a batch, stop at the first line that cannot be read (exit status 1) instead of
    /// writing an error result for it and going on.
    #[arg(long)]
    stop_on_error: bool,
}

impl BatchArgs {
    /// The items of the batch, if one was asked for.
    fn items(&self, tables: &'static Tables) -> Result<Option<Vec<engine::batch::Item>>> {
        let (path, pgn) = match (&self.epd, &self.pgn) {
            (Some(p), _) => (p, false),
            (None, Some(p)) => (p, true),
            (None, None) => return Ok(None),
        };
        let text = if path.as_os_str() == "-" {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).context("reading standard input")?;
            text
        } else {
            let bytes =
                engine::input_file::read(path, 1 << 30).with_context(|| format!("cannot read {}", path.display()))?;
            String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", path.display()))?
        };
        let items = if pgn {
            engine::batch::read_pgn(tables, &text, self.each_ply)
        } else {
            engine::batch::read_epd(tables, &text)
        };
        Ok(Some(items))
    }

    /// What a bad item becomes: an error (with --stop-on-error), else its error result line.
    fn bad_item(&self, item: &engine::batch::Item, error: &str, errors: &mut usize) -> Result<String> {
        let place = match item.game {
            Some(g) => format!("game {g} (line {})", item.line),
            None => format!("line {}", item.line),
        };
        if self.stop_on_error {
            bail!("{place}: {error}");
        }
        *errors += 1;
        Ok(if self.json {
            engine::batch::error_json(item, error)
        } else {
            format!("{place}: error: {error}")
        })
    }
}

/// The label of a batch item in text output: `line N`, or `game G ply P`.
fn item_label(item: &engine::batch::Item) -> String {
    match (item.game, item.ply) {
        (Some(g), Some(p)) => format!("game {g} ply {p}"),
        _ => format!("line {}", item.line),
    }
}

/// Ends a batch: a summary on standard error, exit status 2 when some items were errors.
fn finish_batch(done: usize, errors: usize) -> Result<()> {
    eprintln!("{done} positions, {errors} errors");
    if errors > 0 {
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        std::process::exit(2);
    }
    Ok(())
}

/// The SPRT options of `engine match` and `engine match-merge`.
#[derive(clap::Args)]
struct SprtArgs {
    /// Run a sequential probability ratio test of H0 "Elo difference <= ELO0" against H1 "Elo
    /// difference >= ELO1" (e.g. 0,50) and stop as soon as it accepts one of them.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    sprt: Option<String>,
    /// SPRT: probability of accepting H1 when H0 holds (false positive).
    #[arg(long, default_value_t = engine::tournament::Sprt::DEFAULT_ALPHA, requires = "sprt")]
    alpha: f64,
    /// SPRT: probability of accepting H0 when H1 holds (false negative).
    #[arg(long, default_value_t = engine::tournament::Sprt::DEFAULT_BETA, requires = "sprt")]
    beta: f64,
}

impl SprtArgs {
    /// The test asked for, if any.
    fn test(&self) -> Result<Option<engine::tournament::Sprt>> {
        Ok(match &self.sprt {
            Some(text) => Some(engine::tournament::Sprt::parse(text, self.alpha, self.beta)?),
            None => None,
        })
    }
}

/// Options of `engine match`.
#[derive(clap::Args)]
struct MatchArgs {
    /// Variant id or alias (`engine variants` lists them).
    #[arg(short, long, default_value_t = Variant::DEFAULT)]
    variant: Variant,
    /// Rule settings of the variant (as for `engine perft --rules`; Parsi Chess: `ludii`, ...).
    #[arg(long, value_name = "SETTINGS", default_value = "")]
    rules: String,
    /// Number of games. Each opening is played twice (colours swapped); with an odd number the
    /// last opening is played once, with the first configuration as White.
    #[arg(short = 'n', long, default_value_t = 10)]
    games: usize,
    /// The first player, e.g. "name=deep,depth=6", "nodes=20000,hash=16" or
    /// "cmd=./old-engine,tc=10+0.1,option.Hash=64" (docs/match.md lists the keys). The statistics
    /// are from its point of view.
    #[arg(long, value_name = "SPEC")]
    first: Option<String>,
    /// The second player (same keys as --first).
    #[arg(long, value_name = "SPEC")]
    second: Option<String>,
    /// A player (repeatable, cutechess style): fills the first side not given by --first or
    /// --second, e.g. "cmd=/usr/bin/fairy-stockfish,name=fairy,tc=40/60+0.6,option.Threads=1".
    #[arg(long = "engine", value_name = "SPEC")]
    engines: Vec<String>,
    /// Keys for both players, e.g. "tc=10+0.1" (a player's own keys win).
    #[arg(long, value_name = "SPEC")]
    each: Option<String>,
    /// Games played at the same time, each on its own thread with its own two engines (programs
    /// are started once per game slot). Keep concurrency times engine threads at or below the
    /// number of cores.
    #[arg(short, long, default_value_t = 1)]
    concurrency: usize,
    /// Random openings: this many random legal plies from the start position (no position on the
    /// way may end the game; every opening ends in a different position while there are enough).
    /// Not used with --openings.
    #[arg(long, value_name = "N", default_value_t = engine::play::openings::DEFAULT_RANDOM_PLIES, conflicts_with = "openings")]
    random_plies: usize,
    /// Openings file: FILE, or "file=FILE,format=pgn|epd|lines,order=sequential|random,plies=N".
    /// The format comes from the extension (.pgn, .epd) or the content; lines are this project's
    /// (a FEN, a FEN followed by `moves` and UCI moves, or UCI moves; '#' starts a comment). The
    /// openings are used in order (or shuffled with --seed), from the first again when the match
    /// needs more; plies=N cuts each to N moves.
    #[arg(long, value_name = "FILE|SPEC")]
    openings: Option<String>,
    /// Seed of the random openings and of order=random (the same seed gives the same openings).
    #[arg(long, default_value_t = engine::play::openings::DEFAULT_SEED)]
    seed: u64,
    /// Append every game to this PGN file as it finishes (the file is created if needed).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    #[command(flatten)]
    sprt: SprtArgs,
    /// The model of the Elo interval and the SPRT: pentanomial (game pairs scoring 0, 1/2, 1,
    /// 3/2 or 2 points: the pairs of a match are its independent trials) or trinomial (single
    /// games: win, draw, loss).
    #[arg(long, value_name = "MODEL", default_value_t = engine::tournament::StatsModel::Pentanomial)]
    stats: engine::tournament::StatsModel,
    /// Adjudicate a draw when a game reaches this many plies (opening plies included).
    #[arg(long, value_name = "PLIES", default_value_t = engine::play::DEFAULT_MAX_PLIES)]
    max_plies: usize,
    /// Resign adjudication: a game is won by the side that both engines score at least CP
    /// centipawns ahead for --resign-moves consecutive moves each (mate scores count as beyond).
    #[arg(long, value_name = "CP", allow_hyphen_values = true)]
    resign_score: Option<i32>,
    /// Resign adjudication: consecutive moves of each engine (with --resign-score).
    #[arg(long, value_name = "K", default_value_t = 3, requires = "resign_score")]
    resign_moves: usize,
    /// Draw adjudication: a game is drawn when both engines' scores stay within CP centipawns of 0
    /// for --draw-moves consecutive moves each, counting moves from ply --draw-after on.
    #[arg(long, value_name = "CP")]
    draw_score: Option<i32>,
    /// Draw adjudication: consecutive moves of each engine (with --draw-score).
    #[arg(long, value_name = "K", default_value_t = 8, requires = "draw_score")]
    draw_moves: usize,
    /// Draw adjudication: only moves from this ply on count (opening plies included).
    #[arg(long, value_name = "PLY", default_value_t = 80, requires = "draw_score")]
    draw_after: usize,
    /// Print only the summary, not a line per game.
    #[arg(short, long)]
    quiet: bool,
    /// Play only these game pairs (0-based; pair P is opening P with both colours, games 2P+1
    /// and 2P+2), e.g. "0-9,20": a part of the match, each game exactly as the whole match plays
    /// it. Not with --sprt (match-merge applies it to the merged parts).
    #[arg(long, value_name = "LIST", conflicts_with = "sprt")]
    pairs: Option<String>,
    /// Append one result line per finished game to FILE (after a header naming the match), for
    /// `engine match-merge`.
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Go on with the match whose --results file an earlier run wrote: the games there are
    /// counted first and not played again, and an SPRT goes on over all of them. For a match cut
    /// short, run the same command again with --resume; for an SPRT inconclusive at its -n, run
    /// it again with a larger -n (random openings continue the same series). Every other setting
    /// must be as before: the file's variant and players' names are checked, the rest is yours
    /// to keep. New games are appended to --pgn.
    #[arg(long, requires = "results", conflicts_with = "pairs")]
    resume: bool,
}

/// Reads a list of pairs: numbers and ranges separated by commas ("0-9,20").
fn parse_pairs(text: &str) -> Result<Vec<usize>> {
    let mut pairs = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .with_context(|| format!("--pairs: '{t}' is not a pair number"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    bail!("--pairs: the range {part} runs backwards");
                }
                pairs.extend(a..=b);
            }
            None => pairs.push(number(part)?),
        }
    }
    if pairs.is_empty() {
        bail!("--pairs: no pair given");
    }
    Ok(pairs)
}

fn load(tables: &'static Tables, fen: Option<&str>, moves: &[String]) -> Result<Position> {
    let mut pos = match fen {
        Some(f) => Position::from_fen_in(tables, f).with_context(|| format!("reading FEN '{f}'"))?,
        None => Position::from_fen_in(tables, tables.spec.start_fen)?,
    };
    for m in moves.iter().flat_map(|m| m.split_whitespace()) {
        pos.play_uci(m)
            .with_context(|| format!("playing move '{m}' in {}", pos.fen()))?;
    }
    Ok(pos)
}

fn main() -> Result<()> {
    engine::cli::quiet_on_broken_pipe();
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        engine::uci::session::run_stdio()?;
        return Ok(());
    };
    match command {
        Command::Uci => engine::uci::session::run_stdio()?,
        Command::Bench { depth, variant, net } => bench(depth, variant, net)?,
        Command::Eval { position, batch, net } => eval(position, batch, net)?,
        Command::Analyse(args) => analyse(*args)?,
        Command::Perft {
            position,
            divide,
            reference,
            threads,
            depth,
        } => perft_command(position, divide, reference, threads, depth)?,
        Command::Show { position } => show(position)?,
        Command::Match(args) => run_match(*args)?,
        Command::MatchMerge { files, sprt } => match_merge(files, sprt)?,
        Command::Variants => variants()?,
        Command::Params => print!("{}", engine::search::params::table()),
        Command::Spsa(args) => spsa(*args)?,
    }
    Ok(())
}

/// `engine bench`: the fixed search of the bench positions, the node signature and the speed.
fn bench(depth: u32, variant: Option<Variant>, net: EvalSource) -> Result<()> {
    let variants = match variant {
        Some(v) => vec![v],
        None => Variant::ALL.to_vec(),
    };
    let source = net;
    if matches!(source, EvalSource::File(_)) && variants.len() != 1 {
        bail!("a net file evaluates one variant: give it with --variant");
    }
    let r = engine::bench::run_with(depth.clamp(1, 64), &variants, &source, &mut |l| println!("{l}"))?;
    println!("Bench: {} nodes {} nps", r.nodes, r.nps);
    Ok(())
}

/// `engine eval`: the static evaluation of a position (or of a batch) with its terms.
fn eval(position: PositionArgs, batch: BatchArgs, net: EvalSource) -> Result<()> {
    let tables = position.variant.tables_with(&position.rules)?;
    if let Some(items) = batch.items(tables)? {
        let mut e = engine::engine::Engine::new();
        e.set_rules(tables);
        e.set_eval(net)?;
        let errors = &mut 0;
        for item in &items {
            let line = match item.position() {
                None => batch.bad_item(item, item.game_state.as_ref().err().map_or("", |e| e), errors)?,
                Some(pos) if batch.json => engine::batch::eval_json(item, &pos, &e),
                Some(pos) => {
                    let cp = e
                        .net()
                        .map_or_else(|| engine::eval::trace(&pos).total, |n| n.evaluate_position(&pos));
                    format!("{}: {cp} cp for the side to move  {}", item_label(item), pos.fen())
                }
            };
            say(&line);
        }
        return finish_batch(items.len(), *errors);
    }
    let pos = position.load()?;
    if batch.json {
        let mut e = engine::engine::Engine::new();
        e.set_rules(pos.tables());
        e.set_eval(net)?;
        let item = engine::batch::Item {
            line: 1,
            game: None,
            ply: None,
            id: None,
            text: String::new(),
            game_state: Ok((pos.clone(), Vec::new())),
        };
        say(&engine::batch::eval_json(&item, &pos, &e));
        return Ok(());
    }
    let mut e = engine::engine::Engine::new();
    e.set_variant(pos.variant());
    e.set_eval(net)?;
    print!("{}", pos.diagram());
    println!("FEN: {}\n", pos.fen());
    print!("{}", engine::uci::session::eval_report(&pos));
    if let Some(n) = e.net() {
        let cp = n.evaluate_position(&pos);
        println!("NNUE evaluation: {cp} cp for the side to move");
        for line in outcome_estimate(pos.variant(), cp, n.network.scale()) {
            println!("  {line}");
        }
    }
    println!("Evaluation in use: {}", e.eval_summary());
    Ok(())
}

/// `engine analyse`: a search of a position (or of a batch, one result per position).
fn analyse(args: AnalyseArgs) -> Result<()> {
    let AnalyseArgs {
        position,
        batch,
        jobs,
        depth,
        time,
        nodes,
        multipv,
        hash,
        threads,
        net,
    } = args;
    let limits = engine::search::Limits {
        depth: depth.or(if time.is_none() && nodes.is_none() {
            Some(12)
        } else {
            None
        }),
        nodes,
        budget: engine::search::time::plan(time.map_or(TimeLimit::Unlimited, TimeLimit::MoveTime), 0, None),
        multipv,
        ..Default::default()
    };
    let tables = position.variant.tables_with(&position.rules)?;
    let items = match batch.items(tables)? {
        Some(items) => items,
        None if batch.json => {
            let pos = position.load()?;
            vec![engine::batch::Item {
                line: 1,
                game: None,
                ply: None,
                id: None,
                text: String::new(),
                game_state: Ok((pos, Vec::new())),
            }]
        }
        None => return analyse_one(&position, limits, hash, threads, net),
    };
    let settings = engine::batch::BatchSettings {
        limits,
        jobs: usize::from(jobs),
        threads,
        hash_mb: hash,
        eval: net,
        tables,
    };
    let (mut errors, mut failed) = (0, None);
    engine::batch::analyse(&items, &settings, &mut |item, outcome| {
        use engine::batch::Outcome;
        let line = match outcome {
            Outcome::Error(e) => match batch.bad_item(item, &e, &mut errors) {
                Ok(line) => line,
                Err(e) => {
                    failed = Some(e);
                    return false;
                }
            },
            Outcome::Over(pos, fields) if batch.json => engine::batch::over_json(item, &pos, &fields),
            Outcome::Over(pos, _) => format!(
                "{}: the game is over ({})  {}",
                item_label(item),
                pos.outcome().map_or("repetition", |o| o.description()),
                pos.fen()
            ),
            Outcome::Searched {
                position,
                result,
                seldepth,
                time_ms,
            } if batch.json => engine::batch::analysis_json(item, &position, &result, seldepth, time_ms),
            Outcome::Searched { position, result, .. } => format!(
                "{}: {} ({}) {} depth {} nodes {}  {}",
                item_label(item),
                position.san(result.best),
                position.uci(result.best),
                result.score,
                result.depth,
                result.nodes,
                position.fen()
            ),
        };
        say(&line);
        true
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    finish_batch(items.len(), errors)
}

/// `engine perft`: the leaf count of the game's legal-move tree, by the fast or the reference generator.
fn perft_command(position: PositionArgs, divide: bool, reference: bool, threads: u16, depth: u32) -> Result<()> {
    let game = position.load_game()?;
    let (pos, history) = (game.position(), game.history());
    perft::check_depth(depth)?;
    let start = Instant::now();
    let nodes = if reference {
        let counts = perft::reference_divide(pos, depth, history, usize::from(threads));
        if divide {
            for (m, n) in &counts {
                println!("{}: {n}", pos.uci(*m));
            }
            println!();
        }
        counts.iter().map(|(_, n)| n).sum()
    } else if divide {
        let mut total = 0;
        for (m, n) in perft::divide(pos, depth, history) {
            println!("{}: {n}", pos.uci(m));
            total += n;
        }
        println!();
        total
    } else {
        perft::perft_after(pos, depth, history)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!(
        "Time: {:.3} s, {:.1} M nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

/// `engine show`: the board, FEN, hash, the moves the game allows and its result.
fn show(position: PositionArgs) -> Result<()> {
    let game = position.load_game()?;
    let pos = game.position();
    print!("{}", pos.diagram());
    println!();
    println!("Variant:  {} ({})", pos.variant().spec().name, pos.variant());
    if !pos.tables().rules.settings().is_empty() {
        println!("Rules:    {}", pos.tables().rules.settings());
    }
    println!("FEN:      {}", pos.fen());
    println!(
        "To move:  {}{}",
        if pos.turn() == Color::White { "White" } else { "Black" },
        if pos.in_check() { " (in check)" } else { "" }
    );
    println!("Hash:     {:016x}", pos.hash());
    let moves: Vec<String> = game.legal_moves().iter().map(|&m| pos.san(m)).collect();
    println!("Moves:    {} {}", moves.len(), moves.join(" "));
    if let Some(o) = game.outcome() {
        println!("Result:   {} ({})", o.result(), o.description());
    }
    Ok(())
}

/// `engine match-merge`: the results of several match files as one.
fn match_merge(files: Vec<PathBuf>, sprt: SprtArgs) -> Result<()> {
    let sprt = sprt.test()?;
    let mut texts = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        texts.push((f.display().to_string(), text));
    }
    let report = engine::tournament::merge_results(&texts, sprt)?;
    println!(
        "Merged {} vs {} ({}): {} of {} games{} from {} file(s)",
        report.first,
        report.second,
        report.variant,
        report.games(),
        report.games_planned,
        if report.stopped_early {
            " (stopped by the SPRT)"
        } else {
            ""
        },
        files.len()
    );
    for line in report.summary_lines().into_iter().skip(1) {
        println!("{line}");
    }
    // The SPRT reads the games in order and stops at the first one missing: say how many games
    // the files hold beyond that gap, which it (and the figures above) left out.
    if sprt.is_some() && !report.stopped_early {
        let all = engine::tournament::merge_results(&texts, None)?;
        let left_out = all.games().saturating_sub(report.games());
        if left_out > 0 {
            println!(
                "Not counted: {left_out} game(s) after game {} (missing); the SPRT reads the games in order up to the first missing one (without --sprt every game counts)",
                report.games() + 1
            );
        }
    }
    Ok(())
}

/// `engine variants`: the ids, names and aliases.
fn variants() -> Result<()> {
    for v in Variant::ALL {
        let s = v.spec();
        println!("{:<18} {:<18} aliases: {}", s.id, s.name, s.aliases.join(", "));
    }
    Ok(())
}

/// `engine analyse` on one position: each iteration, then the best move.
fn analyse_one(
    position: &PositionArgs,
    limits: engine::search::Limits,
    hash: usize,
    threads: usize,
    net: EvalSource,
) -> Result<()> {
    let multipv = limits.multipv;
    // The game of the moves given, so that the search sees its earlier positions (repetitions,
    // and the rules that look at the game).
    let game = position.load_game()?;
    let pos = game.position().clone();
    let mut e = engine::engine::Engine::new();
    e.set_variant(pos.variant());
    e.set_eval(net)?;
    e.set_hash(hash);
    e.set_threads(threads);
    e.set_multipv(multipv);
    e.set_game(game.start().clone(), game.moves())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    print!("{}", pos.diagram());
    println!("FEN: {}", pos.fen());
    println!("Evaluation: {}", e.eval_summary());
    if let Some(o) = game.outcome() {
        println!("The game is over: {} ({})", o.result(), o.description());
        return Ok(());
    }
    let result = e.search(limits, &mut |info| {
        let mut p = pos.clone();
        let mut san = Vec::new();
        for &m in &info.pv {
            san.push(p.san(m));
            p.play_unchecked(m);
        }
        let uci: Vec<String> = info.pv.iter().map(|&m| pos.uci(m)).collect();
        println!(
            "depth {:>2}/{:<2} {:>9} {:>10} nodes {:>7} ms  {}\n{:>40}{}",
            info.depth,
            info.seldepth,
            info.score.to_string(),
            info.nodes,
            info.time.as_millis(),
            uci.join(" "),
            "",
            san.join(" ")
        );
    });
    if result.best.is_null() {
        println!("No legal move.");
    } else {
        println!(
            "Best move: {} ({}), score {}",
            pos.uci(result.best),
            pos.san(result.best),
            result.score
        );
        if let (engine::search::Score::Cp(cp), Some(n)) = (result.score, e.net()) {
            for line in outcome_estimate(pos.variant(), cp, n.network.scale()) {
                println!("  {line}");
            }
        }
    }
    Ok(())
}

/// The two players of a match from --first, --second, --engine and --each.
fn match_players(args: &MatchArgs) -> Result<(engine::tournament::PlayerConfig, engine::tournament::PlayerConfig)> {
    use engine::tournament::PlayerConfig;
    let each = args.each.as_deref();
    let parse =
        |spec: &str, what: &str| PlayerConfig::parse_with(spec, each).with_context(|| format!("{what} '{spec}'"));
    let mut first = args.first.as_deref().map(|s| parse(s, "--first")).transpose()?;
    let mut second = args.second.as_deref().map(|s| parse(s, "--second")).transpose()?;
    for spec in &args.engines {
        let player = parse(spec, "--engine")?;
        if first.is_none() {
            first = Some(player);
        } else if second.is_none() {
            second = Some(player);
        } else {
            bail!("--engine '{spec}': both players are given already (two at most, with --first and --second)");
        }
    }
    // A side not given: this engine in-process, with the other side's limits.
    let in_process = |other: &PlayerConfig| -> Result<PlayerConfig> {
        let mut keys = vec!["name=in-process".to_string()];
        if let Some(tc) = other.tc {
            keys.push(format!("tc={tc}"));
        }
        if let Some(ms) = other.movetime_ms {
            keys.push(format!("movetime={ms}"));
        }
        if let Some(d) = other.depth {
            keys.push(format!("depth={d}"));
        }
        if let Some(n) = other.nodes {
            keys.push(format!("nodes={n}"));
        }
        keys.push(format!("timemargin={}", other.time_margin_ms));
        Ok(PlayerConfig::parse_with(&keys.join(","), each)?)
    };
    match (first, second) {
        (Some(a), Some(b)) => Ok((a, b)),
        (Some(a), None) => {
            let b = in_process(&a)?;
            Ok((a, b))
        }
        (None, Some(b)) => {
            let a = in_process(&b)?;
            Ok((a, b))
        }
        (None, None) => {
            bail!("no players: give --first and --second, or --engine (twice, or once against this engine)")
        }
    }
}

/// The openings of `--openings FILE` or `--openings file=FILE,format=...,order=...,plies=N`.
fn match_openings(variant: Variant, spec: &str, seed: u64) -> Result<Vec<engine::play::Opening>> {
    use engine::play::openings::{cut_to, read_openings_as, shuffled, OpeningsFormat};
    let (mut file, mut format, mut random, mut plies) = (None, None, false, None);
    if spec.starts_with("file=") {
        for item in spec.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                bail!("--openings: '{item}' is not key=value (keys: file, format, order, plies)");
            };
            match key.trim() {
                "file" => file = Some(PathBuf::from(value.trim())),
                "format" => format = Some(value.parse::<OpeningsFormat>().map_err(anyhow::Error::msg)?),
                "order" => {
                    random = match value.trim() {
                        "random" => true,
                        "sequential" => false,
                        other => bail!("--openings: order '{other}' is not sequential or random"),
                    }
                }
                "plies" => {
                    plies = Some(
                        value
                            .trim()
                            .parse::<usize>()
                            .with_context(|| format!("--openings: plies '{value}' is not a number"))?,
                    )
                }
                other => bail!("--openings: unknown key '{other}' (keys: file, format, order, plies)"),
            }
        }
    } else {
        file = Some(PathBuf::from(spec));
    }
    let Some(file) = file else {
        bail!("--openings: no file= given");
    };
    let mut openings = read_openings_as(variant, &file, format)?;
    if let Some(p) = plies {
        openings = cut_to(openings, p);
    }
    if random {
        openings = shuffled(openings, seed);
    }
    Ok(openings)
}

/// Writes a line of the match's output; a closed standard output ends the program quietly.
fn say(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

fn run_match(args: MatchArgs) -> Result<()> {
    use engine::{
        play::{Adjudication, DrawRule, OpeningSource, ResignRule},
        tournament::{progress_line, run_match, MatchConfig},
    };
    let variant = args.variant;
    let (first, second) = match_players(&args)?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if args.max_plies == 0 {
        bail!("--max-plies must be at least 1");
    }
    if args.resign_score.is_some_and(|s| s <= 0) {
        bail!("--resign-score must be positive (centipawns)");
    }
    if args.draw_score.is_some_and(|s| s < 0) {
        bail!("--draw-score must not be negative (centipawns)");
    }
    if args.resign_moves == 0 || args.draw_moves == 0 {
        bail!("--resign-moves and --draw-moves must be at least 1");
    }
    let sprt = args.sprt.test()?;
    let openings = match &args.openings {
        Some(spec) => OpeningSource::List(match_openings(variant, spec, args.seed)?),
        None => OpeningSource::Random {
            plies: args.random_plies,
            seed: args.seed,
        },
    };
    // Programs may exit at any time: writing to one must be an error, not the end of the match.
    engine::cli::error_on_broken_pipe();
    let mut config = MatchConfig::new(variant, args.games, first, second);
    config.rules = variant.tables_with(&args.rules)?;
    config.concurrency = args.concurrency;
    config.openings = openings;
    config.adjudication = Adjudication {
        max_plies: args.max_plies,
        resign: args.resign_score.map(|score_cp| ResignRule {
            score_cp,
            // K moves of each engine.
            plies: 2 * args.resign_moves,
        }),
        draw: args.draw_score.map(|score_cp| DrawRule {
            score_cp,
            plies: 2 * args.draw_moves,
            after_ply: args.draw_after,
        }),
    };
    config.sprt = sprt;
    config.stats = args.stats;
    config.pgn = args.pgn.clone();
    config.results = args.results.clone();
    config.resume = args.resume;
    config.pairs = args.pairs.as_deref().map(parse_pairs).transpose()?;
    engine::tournament::name_programs(&mut config)?;
    say(&format!(
        "Match {} ({}) vs {} ({}), {}, {} games, concurrency {}",
        config.first.name,
        config.first.spec(),
        config.second.name,
        config.second.spec(),
        variant.spec().name,
        config.games,
        config.concurrency
    ));
    let quiet = args.quiet;
    let report = run_match(&config, &mut |record, tally| {
        if !quiet {
            say(&progress_line(record, config.games, tally));
        }
    })?;
    say("");
    for line in report.summary_lines() {
        say(&line);
    }
    if let Some(path) = &args.pgn {
        say(&format!("Games appended to {}", path.display()));
    }
    Ok(())
}

/// `engine spsa`: a tuning run, resumed when its folder holds one.
fn spsa(args: SpsaArgs) -> Result<()> {
    use engine::tournament::{
        spsa::{parse_tuned, run_spsa, saved_iterations, Schedule, SpsaRun, RESULT_FILE},
        PlayerConfig,
    };
    let tuned = parse_tuned(&args.params).map_err(anyhow::Error::msg)?;
    if args.hash == 0 || args.hash > engine::tournament::player::MAX_HASH_MB {
        bail!(
            "--hash must be between 1 and {} MB",
            engine::tournament::player::MAX_HASH_MB
        );
    }
    let mut player: PlayerConfig = format!("nodes={},hash={}", args.nodes, args.hash).parse()?;
    player.eval = args.net.clone();
    let mut schedule = Schedule::new(args.iterations);
    schedule.alpha = args.alpha;
    schedule.gamma = args.gamma;
    schedule.early_step = args.early_step;
    if let Some(a) = args.big_a {
        schedule.big_a = a;
    }
    let run = SpsaRun {
        variant: args.variant,
        rules: args.variant.tables_with(&args.rules)?,
        player,
        pairs: args.pairs,
        concurrency: args.concurrency,
        tuned,
        schedule,
        seed: args.seed,
        out: args.out.clone(),
    };
    say(&format!(
        "SPSA {}, {} nodes per move, {} iterations of {} game pair(s), {} parameters, concurrency {}, state in {}",
        args.variant.spec().name,
        args.nodes,
        args.iterations,
        args.pairs,
        run.tuned.len(),
        args.concurrency,
        args.out.display()
    ));
    let saved = saved_iterations(&run)?;
    if saved > 0 {
        say(&format!("resuming after iteration {saved}"));
    }
    let quiet = args.quiet;
    let outcome = run_spsa(&run, &mut |report| {
        if !quiet {
            say(&report.line());
        }
    })?;
    say(&format!(
        "done: {} iterations; theta+ against theta-: {}-{}-{}",
        outcome.done, outcome.total.wins, outcome.total.draws, outcome.total.losses
    ));
    let text = outcome.params.to_string();
    say(&format!(
        "SearchParams: {}",
        if text.is_empty() {
            "<empty> (the defaults)"
        } else {
            &text
        }
    ));
    say(&format!("(also in {})", args.out.join(RESULT_FILE).display()));
    if !text.is_empty() {
        say(&format!(
            "accept with an SPRT (docs/strength.md): engine match -v {} -n 20000 -c 1 \\\n    --engine \"name=tuned,option.SearchParams={}\" --engine name=default --each nodes=20000{} \\\n    --sprt 0,5 --resign-score 800 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 80 --seed 34",
            args.variant.id(),
            outcome.params.text(";"),
            if args.net == EvalSource::Default {
                String::new()
            } else {
                format!(",eval={}", args.net)
            }
        ));
    }
    Ok(())
}

/// What a net's score means for the game: the expected score on the net's training scale (its
/// `scale`, centipawns per unit of output: 400 as trained, another once calibrated), and a
/// win/draw/loss estimate where a draw model has been fitted for the variant.
fn outcome_estimate(variant: Variant, cp: i32, scale: i32) -> Vec<String> {
    use engine::eval::wdl;
    let mut lines = vec![format!(
        "expected score {:.1}% for the side to move (the net's training scale: sigmoid(cp / {scale}))",
        100.0 * wdl::expected_score(cp, scale),
    )];
    match wdl::WdlModel::for_variant(variant) {
        Some((model, source)) => lines.push(format!("estimate: {} ({source})", model.estimate(cp))),
        None => lines.push(format!(
            "no win/draw/loss model fitted for {} yet (`trainer data wdl` fits one)",
            variant.id()
        )),
    }
    lines
}
