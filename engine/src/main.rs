//! The `engine` command line.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use engine::rules::{perft, Color, Position, Square, Variant};

/// Persian Chess engine: rules, perft and board display for Celtic Citadel, Persian Princess,
/// Egyptian Eye, Oriental Omega and chess.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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

fn diagram(pos: &Position) -> String {
    let t = pos.tables();
    let g = t.geometry;
    let mut out = String::new();
    for rank in (0..g.height as i32).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..g.width as i32 {
            let sq = Square((rank * g.width as i32 + file) as u8);
            let c = if !g.is_playable(sq) {
                ' '
            } else if let Some(p) = pos.piece_at(sq) {
                p.char()
            } else if t.blocked.has(sq) {
                '*'
            } else {
                '.'
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("    ");
    for file in 0..g.width {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    out
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
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
            print!("{}", diagram(&pos));
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
