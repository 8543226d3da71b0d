//! The `engine` command line.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use engine::rules::{perft, Color, Position, Variant};

/// Persian Chess engine: rules, perft and board display for Celtic Citadel, Persian Princess,
/// Egyptian Eye, Oriental Omega and chess.
#[derive(Parser)]
#[command(
    version,
    about,
    long_about = "Persian Chess engine: rules, search and UCI for Celtic Citadel, Persian \
Princess, Egyptian Eye, Oriental Omega and chess.\n\nWithout a subcommand the engine speaks UCI on standard input and \
output (choose the variant with `setoption name UCI_Variant value <id>`)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaf nodes of the legal-move tree (move-generator test and benchmark).
    Perft {
        /// Variant id or alias: celtic-citadel, persian-princess, egyptian-eye, oriental-omega, chess.
        #[arg(short, long, default_value = "persian-princess")]
        variant: String,
        /// Start from this FEN instead of the start position (either empty-cell convention).
        #[arg(short, long)]
        fen: Option<String>,
        /// Moves in UCI notation to play from the position first.
        #[arg(short, long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
        /// Print the count below each root move.
        #[arg(short, long)]
        divide: bool,
        /// Depth in plies.
        depth: u32,
    },
    /// Prints a position as a board diagram with its FEN and legal moves.
    Show {
        /// Variant id or alias.
        #[arg(short, long, default_value = "persian-princess")]
        variant: String,
        /// The position (default: the start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// Moves in UCI notation to play from the position first.
        #[arg(short, long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
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
        variant: Option<String>,
    },
    /// Prints the static evaluation of a position with its terms.
    Eval {
        /// Variant id or alias.
        #[arg(short, long, default_value = "persian-princess")]
        variant: String,
        /// The position (default: the start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// Moves in UCI notation to play from the position first.
        #[arg(short, long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
    },
    /// Searches a position and prints each iteration with its principal variation in UCI and SAN.
    Analyse {
        /// Variant id or alias.
        #[arg(short, long, default_value = "persian-princess")]
        variant: String,
        /// The position (default: the start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// Moves in UCI notation to play from the position first.
        #[arg(short, long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
        /// Search depth (default: 12 unless a time or node limit is given).
        #[arg(short, long)]
        depth: Option<u32>,
        /// Search time in milliseconds.
        #[arg(short, long)]
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
    },
}

fn load(variant: &str, fen: Option<&str>, moves: &[String]) -> Result<Position> {
    let variant: Variant = variant.parse()?;
    let mut pos = match fen {
        Some(f) => Position::from_fen(variant, f).with_context(|| format!("reading FEN '{f}'"))?,
        None => Position::startpos(variant),
    };
    for m in moves.iter().flat_map(|m| m.split_whitespace()) {
        pos.play_uci(m)
            .with_context(|| format!("playing move '{m}' in {}", pos.fen()))?;
    }
    Ok(pos)
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        engine::uci::session::run_stdio()?;
        return Ok(());
    };
    match command {
        Command::Uci => engine::uci::session::run_stdio()?,
        Command::Bench { depth, variant } => {
            let variants = match variant {
                Some(v) => vec![v.parse::<Variant>()?],
                None => Variant::ALL.to_vec(),
            };
            let r = engine::bench::run(depth.clamp(1, 64), &variants, &mut |l| println!("{l}"));
            println!("Bench: {} nodes {} nps", r.nodes, r.nps);
        }
        Command::Eval { variant, fen, moves } => {
            let pos = load(&variant, fen.as_deref(), &moves)?;
            print!("{}", pos.diagram());
            println!("FEN: {}\n", pos.fen());
            print!("{}", engine::uci::session::eval_report(&pos));
        }
        Command::Analyse {
            variant,
            fen,
            moves,
            depth,
            time,
            nodes,
            multipv,
            hash,
            threads,
        } => {
            let pos = load(&variant, fen.as_deref(), &moves)?;
            let mut e = engine::engine::Engine::new();
            e.set_variant(pos.variant());
            e.set_hash(hash);
            e.set_threads(threads);
            e.set_multipv(multipv);
            e.set_position(Some(&pos.fen()), &[])
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            print!("{}", pos.diagram());
            println!("FEN: {}", pos.fen());
            if let Some(o) = pos.outcome() {
                println!("The game is over: {} ({})", o.result(), o.description());
                return Ok(());
            }
            let limits = engine::search::Limits {
                depth: depth.or(if time.is_none() && nodes.is_none() {
                    Some(12)
                } else {
                    None
                }),
                nodes,
                budget: time.map(|t| engine::search::time::fixed(t, 0)),
                multipv,
                ..Default::default()
            };
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
            }
        }
        Command::Perft {
            variant,
            fen,
            moves,
            divide,
            depth,
        } => {
            let pos = load(&variant, fen.as_deref(), &moves)?;
            if depth > 12 {
                bail!("depth {depth} is too deep for perft (at most 12)");
            }
            let start = Instant::now();
            let nodes = if divide {
                let mut total = 0;
                for (m, n) in perft::divide(&pos, depth) {
                    println!("{}: {n}", pos.uci(m));
                    total += n;
                }
                println!();
                total
            } else {
                perft::perft(&pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            println!("Nodes searched: {nodes}");
            println!(
                "Time: {:.3} s, {:.1} M nodes/s",
                secs,
                nodes as f64 / secs.max(1e-9) / 1e6
            );
        }
        Command::Show { variant, fen, moves } => {
            let pos = load(&variant, fen.as_deref(), &moves)?;
            print!("{}", pos.diagram());
            println!();
            println!("Variant:  {} ({})", pos.variant().spec().name, pos.variant());
            println!("FEN:      {}", pos.fen());
            println!(
                "To move:  {}{}",
                if pos.turn() == Color::White { "White" } else { "Black" },
                if pos.in_check() { " (in check)" } else { "" }
            );
            println!("Hash:     {:016x}", pos.hash());
            let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.san(m)).collect();
            println!("Moves:    {} {}", moves.len(), moves.join(" "));
            if let Some(o) = pos.outcome() {
                println!("Result:   {} ({})", o.result(), o.description());
            }
        }
        Command::Variants => {
            for v in Variant::ALL {
                let s = v.spec();
                println!("{:<18} {:<18} aliases: {}", s.id, s.name, s.aliases.join(", "));
            }
        }
    }
    Ok(())
}
