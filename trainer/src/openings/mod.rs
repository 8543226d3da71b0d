//! `trainer openings`: opening statistics and an opening book from game records.
//!
//! Reads PGN files (or folders of them), builds the tree of the lines played to a depth in plies
//! with their game counts, results and mean engine scores, and writes `tree.json`, `lines.csv`,
//! a self-contained `report.html` and the opening book `book.bin` (format in `docs/openings.md`,
//! read by `engine::book`).

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};
use engine::{book::Book, rules::Variant};
use rayon::prelude::*;

pub mod book;
pub mod pgn;
pub mod report;
pub mod tree;

use pgn::{EvalView, Game, RawGame};
use tree::{GameCounts, Tree, TreeOptions};

/// What to do with games that start from a set-up position (a `FEN` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FenGames {
    /// Leave them out (they are counted in the summary).
    Skip,
    /// Count them in a tree of their own per start position.
    Group,
}

impl FenGames {
    /// The name `--fen-games` takes and `tree.json` records.
    pub fn name(self) -> &'static str {
        match self {
            FenGames::Skip => "skip",
            FenGames::Group => "group",
        }
    }
}

/// The examples at the end of `--help` and `-h`.
macro_rules! examples {
    () => {
        "Examples:\n  \
trainer openings games.pgn\n  \
trainer openings --variant egyptian-eye --plies 10 --min-games 3 selfplay/ match.pgn\n  \
trainer openings -v persian-princess --book pp.bin --book-min-games 10 games/\n\n\
Output formats and the book format: docs/openings.md"
    };
}
const EXAMPLES: &str = examples!();

/// Above this many lines, the summary suggests a larger `--min-games`.
const MANY_LINES: usize = 200_000;

/// Warnings printed one by one before they are only counted.
const MAX_WARNINGS: usize = 20;

/// Arguments of `trainer openings`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = EXAMPLES,
    after_long_help = concat!(
        "Reads game records (PGN files, or folders searched recursively for *.pgn) and builds the \
opening tree to --plies plies: for every line, the games that reached it, White wins, draws and \
Black wins, White's score and the mean engine score after the line when the records carry scores \
in comments ({+0.35/12}, {+35}, [%eval 0.35]; see docs/openings.md).\n\n\
Writes to --out (default openings-<variant>/): tree.json (the tree), lines.csv (one row per line), \
report.html (one self-contained page: sortable table, chart of the first moves, board diagrams of \
the main lines) and book.bin (the opening book for the engine's BookFile option).\n\n\
Games of other variants are left out; games from a set-up position (FEN tag) are left out or \
grouped by start position (--fen-games); unreadable games are reported and left out (--strict \
stops instead). Only the first --plies moves of each game are read and checked.\n\n",
        examples!()
    )
)]
pub struct Args {
    /// PGN files, or folders searched recursively for `*.pgn` files.
    #[arg(required = true, value_name = "PGN")]
    pub inputs: Vec<PathBuf>,
    /// Variant of the games: games of other variants are left out, games without a `[Variant]`
    /// tag are read as this variant. Without it the games' `[Variant]` tags decide, and they must
    /// all name the same variant.
    #[arg(short, long, value_name = "VARIANT", value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Depth of the tree and of the book, in plies (half-moves), 1 to 60.
    #[arg(short, long, default_value_t = 8, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub plies: u32,
    /// Output folder (created if needed; files in it are replaced). Default: `openings-<variant>`.
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Leave lines with fewer games out of tree.json, lines.csv and the report (not the book).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub min_games: u64,
    /// Games from a set-up position (`[FEN]` tag): `skip` them, or `group` them in one tree per
    /// start position.
    #[arg(long, value_enum, default_value_t = FenGames::Skip, value_name = "MODE")]
    pub fen_games: FenGames,
    /// Whose view plain scores in comments (`{+0.35/12}`, `{+35}`) give: `mover` (the side that
    /// just moved, as cutechess writes them) or `white`. `[%eval ...]` is always White's view.
    #[arg(long, value_enum, default_value_t = EvalView::Mover, value_name = "VIEW")]
    pub eval_view: EvalView,
    /// The opening book file. Default: `book.bin` in the output folder.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Do not write an opening book.
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// Fewest games a move needs to enter the book.
    #[arg(long, default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub book_min_games: u32,
    /// Count in the book the moves inside a game's `[OpeningPlies]` too (the random opening moves
    /// of `engine match`, which no player chose; left out by default).
    #[arg(long)]
    pub book_opening_plies: bool,
    /// Most lines in the report's table (the most played; lines.csv has them all).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub report_lines: usize,
    /// Stop at the first game that cannot be read instead of leaving it out.
    #[arg(long)]
    pub strict: bool,
    /// Print only warnings and errors.
    #[arg(short, long)]
    pub quiet: bool,
}

fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

/// A game split from a file.
struct Source {
    file: usize,
    raw: RawGame,
}

/// What became of one game.
enum Fate {
    Used(Box<Game>),
    OtherVariant(Variant),
    NoVariantTag,
    SetUpSkipped,
    Unreadable(String),
}

/// Runs `trainer openings`.
pub fn run(args: Args) -> Result<()> {
    let files = find_files(&args.inputs)?;
    let plies = args.plies as usize;
    let say = |text: String| {
        if !args.quiet {
            println!("{text}");
        }
    };
    let mut warnings = Warnings::new(args.strict);

    // Split every file into games.
    let mut sources: Vec<Source> = Vec::new();
    for (i, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read '{}'", path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let (games, error) = pgn::split_games(&text, plies);
        if let Some(e) = error {
            warnings.add(
                format!("{}: {e}", path.display()),
                &format!(
                    "the rest of the file is not read ({} before the error {} read)",
                    plural(games.len() as u64, "game"),
                    if games.len() == 1 { "is" } else { "are" }
                ),
            )?;
        }
        sources.extend(games.into_iter().map(|raw| Source { file: i, raw }));
    }
    if sources.is_empty() {
        bail!("no games found in {}", list_paths(&files));
    }

    let variant = match args.variant {
        Some(v) => v,
        None => variant_of(&sources)?,
    };

    // Resolve the games (in parallel; the order of the results is the order of the games).
    let fates: Vec<Fate> = sources
        .par_iter()
        .map_init(pgn::SanCache::default, |cache, s| {
            fate(
                &s.raw,
                variant,
                args.variant.is_some(),
                args.fen_games,
                args.eval_view,
                cache,
            )
        })
        .collect();

    let mut counts = GameCounts {
        read: sources.len() as u64,
        ..GameCounts::default()
    };
    let mut other_variants: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut tree = Tree::new(variant, plies);
    let mut builder = book::BookBuilder::new(plies, args.book_opening_plies);
    for (source, fate) in sources.iter().zip(&fates) {
        match fate {
            Fate::Used(game) => {
                counts.used += 1;
                if !game.standard_start {
                    counts.set_up_grouped += 1;
                }
                if game.result.is_none() {
                    counts.unfinished += 1;
                }
                if game.evals.iter().any(Option::is_some) {
                    counts.with_eval += 1;
                }
                tree.add(game);
                builder.add(game);
            }
            Fate::OtherVariant(v) => {
                counts.other_variant += 1;
                *other_variants.entry(v.id()).or_default() += 1;
            }
            Fate::NoVariantTag => counts.no_variant_tag += 1,
            Fate::SetUpSkipped => counts.set_up_skipped += 1,
            Fate::Unreadable(why) => {
                counts.unreadable += 1;
                warnings.add(
                    format!(
                        "{}: game {} (line {}): {why}",
                        files[source.file].display(),
                        source.raw.number,
                        source.raw.line
                    ),
                    "game left out",
                )?;
            }
        }
    }
    warnings.finish();
    tree.sort();

    let settings = TreeOptions {
        plies,
        min_games: args.min_games,
        eval_view: args.eval_view,
        fen_games: args.fen_games,
    };
    let lines = tree.lines(args.min_games);

    // Outputs.
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("openings-{}", variant.id())));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create the folder '{}'", out.display()))?;
    let write = |name: &str, text: &str| -> Result<PathBuf> {
        let path = out.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write '{}'", path.display()))?;
        Ok(path)
    };
    write("tree.json", &tree.to_json(&settings, &counts))?;
    write("lines.csv", &tree.to_csv(&lines))?;

    let book_path = (!args.no_book).then(|| args.book.clone().unwrap_or_else(|| out.join("book.bin")));
    let book = book_path
        .as_ref()
        .map(|_| builder.finish(variant, args.book_min_games, counts.used));
    if let (Some(path), Some((book, _))) = (&book_path, &book) {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create the folder '{}'", dir.display()))?;
        }
        book.write(path)
            .with_context(|| format!("cannot write the book '{}'", path.display()))?;
        // Read it back: what the engine will load.
        let back = Book::read(path).with_context(|| format!("the book just written, '{}'", path.display()))?;
        if back != *book {
            bail!("the book '{}' does not read back as written", path.display());
        }
    }

    let summary = summary_rows(
        &args,
        variant,
        &files,
        &counts,
        &other_variants,
        &lines,
        &tree,
        &book_path,
        &book,
    );
    let html = report::render(&report::ReportInput {
        tree: &tree,
        lines: &lines,
        summary: summary.clone(),
        max_rows: args.report_lines,
        chart_moves: 15,
        diagrams: 6,
    });
    write("report.html", &html)?;

    for (label, value) in &summary {
        say(format!("{label:<16} {value}"));
    }
    say(format!(
        "{:<16} {}",
        "wrote",
        ["tree.json", "lines.csv", "report.html"]
            .iter()
            .map(|f| out.join(f).display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if lines.len() > MANY_LINES {
        eprintln!(
            "note: {} lines: --min-games {} would keep {}",
            lines.len(),
            args.min_games.max(1) * 2,
            tree.lines(args.min_games.max(1) * 2).len()
        );
    }
    if counts.used == 0 {
        eprintln!("warning: no game was used: the outputs are empty");
    } else if lines.len() <= 1 {
        eprintln!(
            "warning: no line has at least {} games (--min-games): the outputs list no moves",
            args.min_games
        );
    }
    if let Some((_, c)) = &book {
        if c.entries == 0 && counts.used > 0 {
            eprintln!(
                "warning: the book is empty: no move was played in at least {} games (--book-min-games)",
                args.book_min_games
            );
        }
    }
    Ok(())
}

/// What to do with a game.
fn fate(
    raw: &RawGame,
    variant: Variant,
    variant_given: bool,
    fen_games: FenGames,
    view: EvalView,
    cache: &mut pgn::SanCache,
) -> Fate {
    match raw.tag("Variant").map(str::parse::<Variant>) {
        Some(Ok(v)) if v != variant => return Fate::OtherVariant(v),
        Some(Ok(_)) => {}
        Some(Err(e)) => return Fate::Unreadable(e.to_string()),
        None if !variant_given => return Fate::NoVariantTag,
        None => {}
    }
    if fen_games == FenGames::Skip && raw.tag("FEN").is_some() {
        // A FEN tag holding the start position itself is no set-up position.
        // (A FEN that cannot be read makes the game unreadable, below.)
        if let Ok(start) = pgn::start_under_rules(raw, variant) {
            match engine::rules::Position::from_fen_in(start.tables(), raw.tag("FEN").unwrap_or_default()) {
                Ok(p) if p != start => return Fate::SetUpSkipped,
                _ => {}
            }
        }
    }
    match pgn::resolve(raw, variant, view, cache) {
        Ok(g) => Fate::Used(Box::new(g)),
        Err(e) => Fate::Unreadable(e.to_string()),
    }
}

/// The variant named by the games' tags, when no `--variant` is given.
fn variant_of(sources: &[Source]) -> Result<Variant> {
    let mut seen: BTreeMap<Variant, u64> = BTreeMap::new();
    let mut untagged = 0;
    for s in sources {
        match s.raw.tag("Variant").map(str::parse::<Variant>) {
            Some(Ok(v)) => *seen.entry(v).or_default() += 1,
            Some(Err(_)) => {}
            None => untagged += 1,
        }
    }
    match seen.len() {
        0 => bail!(
            "no game names its variant ({} without a [Variant] tag): say which variant they are with --variant",
            plural(untagged, "game")
        ),
        1 => Ok(*seen.keys().next().unwrap_or(&Variant::DEFAULT)),
        _ => {
            let list: Vec<String> = seen.iter().map(|(v, n)| format!("{v}: {n}")).collect();
            bail!(
                "the games are of several variants ({}): choose one with --variant",
                list.join(", ")
            )
        }
    }
}

/// The files to read: files as given, folders searched recursively for `*.pgn` (sorted).
fn find_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input).with_context(|| format!("cannot read '{}'", input.display()))?;
        if meta.is_dir() {
            let before = files.len();
            walk(input, &mut files)?;
            if files.len() == before {
                bail!("the folder '{}' holds no .pgn file", input.display());
            }
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list the folder '{}'", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("pgn"))
        {
            files.push(path);
        }
    }
    Ok(())
}

/// `1 game`, `2 games`.
fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn list_paths(files: &[PathBuf]) -> String {
    let names: Vec<String> = files.iter().take(5).map(|f| format!("'{}'", f.display())).collect();
    let more = files.len().saturating_sub(5);
    if more > 0 {
        format!("{} and {more} more files", names.join(", "))
    } else {
        names.join(", ")
    }
}

/// The summary: printed at the end and shown in the report.
#[allow(clippy::too_many_arguments)]
fn summary_rows(
    args: &Args,
    variant: Variant,
    files: &[PathBuf],
    counts: &GameCounts,
    other_variants: &BTreeMap<&'static str, u64>,
    lines: &[tree::Line],
    tree: &Tree,
    book_path: &Option<PathBuf>,
    book: &Option<(Book, book::BookCounts)>,
) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    let mut row = |label: &str, value: String| rows.push((label.to_string(), value));
    row("variant", format!("{} ({})", variant.spec().name, variant.id()));
    let mut names: Vec<String> = files
        .iter()
        .take(10)
        .map(|f| {
            f.file_name()
                .map_or(f.display().to_string(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    if files.len() > 10 {
        names.push(format!("and {} more", files.len() - 10));
    }
    row("files", format!("{} ({})", files.len(), names.join(", ")));
    row("games read", counts.read.to_string());
    let mut used = format!("{}", counts.used);
    if counts.set_up_grouped > 0 {
        used.push_str(&format!(
            " ({} from set-up positions, grouped by start position)",
            counts.set_up_grouped
        ));
    }
    if counts.unfinished > 0 {
        used.push_str(&format!(", {} without a result", counts.unfinished));
    }
    row("games used", used);
    let mut skipped = Vec::new();
    if counts.other_variant > 0 {
        let list: Vec<String> = other_variants.iter().map(|(v, n)| format!("{v} {n}")).collect();
        skipped.push(format!(
            "{} of other variants ({})",
            counts.other_variant,
            list.join(", ")
        ));
    }
    if counts.no_variant_tag > 0 {
        skipped.push(format!(
            "{} without a [Variant] tag (use --variant)",
            counts.no_variant_tag
        ));
    }
    if counts.set_up_skipped > 0 {
        skipped.push(format!(
            "{} from set-up positions (FEN tag; --fen-games group keeps them)",
            counts.set_up_skipped
        ));
    }
    if counts.unreadable > 0 {
        skipped.push(format!("{} unreadable", counts.unreadable));
    }
    row(
        "games left out",
        if skipped.is_empty() {
            "none".to_string()
        } else {
            skipped.join("; ")
        },
    );
    row(
        "tree",
        format!(
            "{} plies, {} lines{}{}",
            args.plies,
            lines.len(),
            if args.min_games > 1 {
                format!(" with at least {} games", args.min_games)
            } else {
                String::new()
            },
            if tree.roots.len() > 1 {
                format!(", {} start positions", tree.roots.len())
            } else {
                String::new()
            }
        ),
    );
    row(
        "evaluations",
        if counts.with_eval > 0 {
            format!(
                "{} games carry scores ({} view for plain scores; clamped to +-{} cp, mates count as the clamp)",
                counts.with_eval,
                match args.eval_view {
                    EvalView::Mover => "mover's",
                    EvalView::White => "White's",
                },
                pgn::EVAL_CLAMP_CP
            )
        } else {
            "none in the records".to_string()
        },
    );
    match (book_path, book) {
        (Some(path), Some((b, c))) => row(
            "book",
            format!(
                "{}: {} positions, {} moves played in at least {} (of {} position-move pairs){}",
                path.display(),
                c.positions,
                c.entries,
                plural(b.min_games() as u64, "game"),
                c.candidates,
                if c.forced_left_out > 0 {
                    format!(
                        "; {} inside OpeningPlies left out (--book-opening-plies counts them)",
                        plural(c.forced_left_out, "move")
                    )
                } else {
                    String::new()
                }
            ),
        ),
        _ => row("book", "not written (--no-book)".to_string()),
    }
    rows
}

/// Problems with single games or files: printed (the first ones) or, with `--strict`, fatal.
struct Warnings {
    strict: bool,
    count: usize,
}

impl Warnings {
    fn new(strict: bool) -> Warnings {
        Warnings { strict, count: 0 }
    }

    /// A problem and what is done about it when not `--strict`.
    fn add(&mut self, text: String, consequence: &str) -> Result<()> {
        if self.strict {
            bail!("{text}");
        }
        self.count += 1;
        if self.count <= MAX_WARNINGS {
            eprintln!("warning: {text}; {consequence}");
        }
        Ok(())
    }

    fn finish(&self) {
        if self.count > MAX_WARNINGS {
            eprintln!("warning: ... and {} more problems", self.count - MAX_WARNINGS);
        }
    }
}
