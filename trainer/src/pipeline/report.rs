//! What an accepted round leaves behind: the installed net with its report
//! (<nets-dir>/<variant>.md) and a line per round and variant in the rounds table.

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use anyhow::{Context, Result};
use engine::rules::notation::pgn::civil_date_from_unix_ms;

use super::{
    matches::{MatchSummary, Yardsticks},
    plan::Eval,
    Pipeline,
};
use crate::{
    data::io::{for_each_record, record_files, thousands, total_size, write_atomic},
    selfplay,
};

/// The marker line after the rounds table: new lines go just before it.
const MARKER: &str = "<!-- rounds -->";

/// The rounds table's header and separator.
const HEADER: &str = "| date | round | variant | self-play | SPRT vs previous (W/D/L) | Elo vs previous | \
                      Elo vs hce | installed | Elo vs previous at equal time (W/D/L) | r1 ladder (score per rung) |\n\
                      |---|---|---|---|---|---|---|---|---|---|\n";

/// The header of tables written before the equal-time match and the ladder: it is replaced by
/// [`HEADER`], and its lines show the new columns empty.
const OLD_HEADER: &str =
    "| date | round | variant | self-play | SPRT vs previous (W/D/L) | Elo vs previous | Elo vs hce | installed |";

/// Today's date, `YYYY-MM-DD` (UTC).
fn today() -> String {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let (y, m, d) = civil_date_from_unix_ms(ms);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The round an installed net's report names (its line `Round N of ...`), if it has one.
pub fn installed_round(report: &Path) -> Option<u32> {
    let text = fs::read_to_string(report).ok()?;
    text.lines().find_map(|line| {
        let (n, _) = line.strip_prefix("Round ")?.split_once(" of ")?;
        n.parse().ok()
    })
}

/// Appends the line of a round and variant to the rounds table of `--strength` (nothing when it
/// is ""), creating the table at the end of the file when it has none.
pub fn strength_line(
    p: &Pipeline,
    round: u32,
    variant: &str,
    sprt: &MatchSummary,
    hce: Option<&MatchSummary>,
    yard: &Yardsticks,
    installed: &str,
) -> Result<()> {
    let a = &p.args;
    let path = &a.strength;
    if path.as_os_str().is_empty() {
        return Ok(());
    }
    let mut text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if !text.lines().any(|l| l == MARKER) {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(
            "\n## Rounds of the NNUE pipeline\n\n\
             One line per round and variant, appended by `trainer pipeline`. Matches at equal nodes \
             unless the column says otherwise; Elo with its 95% interval. The r1 ladder: the \
             candidate's score against the variant's round-1 net at 1, 2, 4... times its nodes.\n\n",
        );
        text.push_str(HEADER);
        text.push_str(MARKER);
        text.push('\n');
    }
    let name = a.name.as_deref().filter(|n| !n.is_empty());
    let line = format!(
        "| {} | {round}{} | {variant} | {} games, {} | {} ({}) | {} | {} | {installed} | {} | {} |",
        today(),
        name.map_or(String::new(), |n| format!(" ({n})")),
        p.round_games(round, variant)?,
        p.round_limit(round, variant)?,
        sprt.verdict_text(),
        sprt.wdl_text(),
        sprt.elo_text(),
        hce.map_or_else(|| "-".to_string(), MatchSummary::elo_text),
        yard.time_text(),
        yard.ladder_text(),
    );
    // Before the marker, so that the table stays one table; an old header gets the new columns
    // (its lines have fewer cells: those show empty).
    let mut out = String::with_capacity(text.len() + line.len() + HEADER.len());
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(l) = lines.next() {
        let bare = l.trim_end_matches(['\n', '\r']);
        if bare == OLD_HEADER {
            out.push_str(HEADER);
            // Its separator line goes with it.
            if lines.peek().is_some_and(|next| next.starts_with("|---")) {
                lines.next();
            }
            continue;
        }
        if bare == MARKER {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(l);
    }
    write_atomic(path, out.as_bytes())
}

/// An accepted net and where it comes from.
pub struct Accepted<'a> {
    pub variant: &'a str,
    pub round: u32,
    pub run: &'a Path,
    /// The variant's fine-tune run, whose net this is (`--fine-tune-epochs`).
    pub fine_tune: Option<&'a Path>,
    pub net: &'a Path,
    pub match_file: &'a Path,
    pub previous: &'a Eval,
    pub data: &'a [PathBuf],
    pub yardsticks: &'a Yardsticks,
}

/// Copies an accepted net to <nets-dir>/<variant>.nnue and writes its report beside it; returns
/// the net's new path.
pub fn install(p: &Pipeline, acc: &Accepted) -> Result<PathBuf> {
    let dir = &p.args.nets_dir;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let target = dir.join(format!("{}.nnue", acc.variant));
    let bytes = fs::read(acc.net).with_context(|| format!("cannot read {}", acc.net.display()))?;
    write_atomic(&target, &bytes)?;
    let report = net_report(p, acc)?;
    write_atomic(&target.with_extension("md"), report.as_bytes())?;
    Ok(target)
}

/// A self-play directory: its size, as `trainer data stats` gives it on its first line, and the
/// games its shards hold, which its self-play command names (a game that wrote no record, every
/// position in check or with a tactical best move, has no id among the records; a directory
/// without shards counts those ids).
fn data_line(dir: &Path) -> Result<(String, u64)> {
    let files = record_files(&[dir.to_path_buf()])?;
    let mut records = 0u64;
    let mut games = std::collections::HashSet::new();
    for file in &files {
        records += for_each_record(file, |_, r| {
            games.insert((r.variant_code(), r.game_id()));
            Ok(())
        })?;
    }
    let line = format!(
        "{} record(s) in {} file(s), {} bytes; {} game id(s)",
        thousands(records),
        files.len(),
        thousands(total_size(&files)),
        thousands(games.len() as u64)
    );
    let played = super::steps::generated(dir).ok().flatten();
    Ok((line, played.unwrap_or(games.len() as u64)))
}

/// The evaluation a self-play run's settings name, as `--net` takes it: `hce`, or the net's file
/// (the engine describes nets as `NNUE (<file>, <description>)`).
fn net_of(eval: &str) -> String {
    if eval == "hand-crafted" {
        return "hce".to_string();
    }
    eval.strip_prefix("NNUE (")
        .and_then(|rest| rest.split_once(','))
        .map_or_else(|| eval.to_string(), |(file, _)| file.to_string())
}

/// The report of an accepted net: data, training configuration and losses, the match, and the
/// commands that reproduce it.
fn net_report(p: &Pipeline, acc: &Accepted) -> Result<String> {
    let a = &p.args;
    let mut o = String::new();
    let spec = if a.variants.joint() {
        a.variants.spec()
    } else {
        acc.variant.to_string()
    };
    let _ = writeln!(o, "# {}.nnue\n", acc.variant);
    let _ = writeln!(
        o,
        "Round {} of `trainer pipeline --variants {spec}`, accepted {}.",
        acc.round,
        today()
    );
    let _ = writeln!(
        o,
        "Net: `{}` of the run `{}`.\n\n## Data\n",
        acc.net.display(),
        acc.run.display()
    );
    for d in acc.data {
        let run_json = d.join("run.json");
        let (stats, games) = data_line(d).unwrap_or_else(|e| (format!("(cannot be read: {e:#})"), 0));
        let _ = writeln!(o, "- `{}`: {stats}", d.display());
        let settings = selfplay::read_settings(&run_json).ok().flatten();
        match settings {
            Some(s) => {
                let net = net_of(&s.eval);
                let limit = match (s.nodes, s.depth) {
                    (Some(n), _) => format!("--nodes {n}"),
                    (None, Some(depth)) => format!("--depth {depth}"),
                    (None, None) => String::new(),
                };
                // The opening settings are written out: their defaults are variant data that
                // can change between versions (Citadel 9x8's random plies did).
                let openings = match s.engine_plies {
                    Some(_) => format!("--random-plies {}", s.random_plies),
                    None => format!("--random-plies {} --engine-plies 0", s.random_plies),
                };
                let _ = writeln!(
                    o,
                    "  (`trainer selfplay --variant {} --games {games} {limit} --net {net} --seed {} {openings} --out {}`",
                    s.variant,
                    s.seed,
                    d.display()
                );
                if net == "hce" {
                    let _ = writeln!(o, "  settings in `{}`)", run_json.display());
                } else {
                    let _ = writeln!(
                        o,
                        "  with `{net}` as it was then, the net of the round before; settings in `{}`)",
                        run_json.display()
                    );
                }
            }
            None => {
                let _ = writeln!(o, "  (settings in `{}`)", run_json.display());
            }
        }
    }
    let read = |name: &str| -> Result<String> {
        let path = acc.run.join(name);
        fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))
    };
    let _ = write!(o, "\n## Training\n\n```toml\n{}", read("config.toml")?);
    let _ = write!(
        o,
        "```\n\nLoss per epoch (`curves.csv`):\n\n```\n{}",
        read("curves.csv")?
    );
    if let Some(ft) = acc.fine_tune {
        let read_ft = |name: &str| -> Result<String> {
            let path = ft.join(name);
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))
        };
        let _ = write!(
            o,
            "```\n\n## Fine-tune on {}'s records\n\nThe run `{}` went on from this variant's copy of the \
             joint net on its records of the window alone.\n\n```toml\n{}",
            acc.variant,
            ft.display(),
            read_ft("config.toml")?
        );
        let _ = write!(
            o,
            "```\n\nLoss per epoch (`curves.csv`):\n\n```\n{}",
            read_ft("curves.csv")?
        );
    }
    o.push_str("```\n\n");
    // The candidate's scale fitted to the net it played (--calibrate), where it was.
    if let Some(dir) = acc.net.parent() {
        let fit = dir.join(format!("calibration.{}.txt", acc.variant));
        if let Ok(text) = fs::read_to_string(&fit) {
            let _ = write!(o, "## Scale\n\n{} (`{}`)\n\n", text.trim_end(), fit.display());
        }
    }
    let match_text =
        fs::read_to_string(acc.match_file).with_context(|| format!("cannot read {}", acc.match_file.display()))?;
    let _ = write!(
        o,
        "## Match against {} at {} nodes per move\n\n```\n{match_text}```\n\n",
        acc.previous, a.match_nodes
    );
    o.push_str(&yardsticks_section(acc.previous, &a.match_tc, acc.yardsticks));
    let mut command = format!(
        "trainer pipeline --variants {spec} --rounds {} --first-round {} --skip-gen \\\n    \
         --hidden {} --epochs {} --wdl {} --lr {} --lr-later {} --init {} --window {} \\\n    ",
        acc.round, a.first_round, a.hidden, a.epochs, a.wdl, a.lr, a.lr_later, a.init, a.window
    );
    if a.buckets != 1 {
        let _ = write!(command, "--buckets {} ", a.buckets);
    }
    if a.king_buckets != 0 {
        let _ = write!(command, "--king-buckets {} ", a.king_buckets);
    }
    if let Some(init) = &a.init_from {
        let _ = write!(command, "--init-from {} ", init.display());
    }
    for (flag, value) in [("--name", &a.name), ("--previous-name", &a.previous_name)] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            let _ = write!(command, "{flag} {v} ");
        }
    }
    if a.fine_tune_epochs > 0 {
        let _ = write!(command, "--fine-tune-epochs {} ", a.fine_tune_epochs);
    }
    if a.calibrate != super::Calibrate::Auto {
        let name = clap::ValueEnum::to_possible_value(&a.calibrate).map(|v| v.get_name().to_string());
        let _ = write!(command, "--calibrate {} ", name.unwrap_or_default());
    }
    if a.hce_games > 0 {
        let _ = write!(command, "--hce-games {} ", a.hce_games);
        if let Some(seed) = a.hce_seed {
            let _ = write!(command, "--hce-seed {seed} ");
        }
        for (variant, file) in &a.hce_openings {
            let _ = write!(command, "--hce-openings {variant}={} ", file.display());
        }
    }
    let _ = write!(
        command,
        "--data-dir {} --runs-dir {} \\\n    --match-nodes {} --match-games {} --sprt={},{} --seed {} \\\n    \
         --time-games {} --match-tc {} --ladder-games {} --ladder-rungs {}",
        a.data_dir.display(),
        a.runs_dir.display(),
        a.match_nodes,
        a.match_games,
        a.sprt.elo0,
        a.sprt.elo1,
        a.seed,
        a.time_games,
        a.match_tc,
        a.ladder_games,
        a.ladder_rungs.spec()
    );
    let _ = write!(
        o,
        "## Reproduce\n\n\
         The self-play records come from the commands listed under Data (deterministic: the same\n\
         settings give the same games). With them in place:\n\n```sh\n{command}\n```\n\n\
         or everything, self-play included: the same without `--skip-gen`, with `--games {} --sp-nodes {}`.\n",
        games_flags(p, acc.round)?,
        a.sp_nodes
    );
    Ok(o)
}

/// The value of `--games` (and `--games-by-variant` where the variants differ) that generates
/// a round's records again: the flags' games, or with --skip-gen the games each variant's
/// directory holds.
fn games_flags(p: &Pipeline, round: u32) -> Result<String> {
    let a = &p.args;
    if !a.skip_gen {
        return Ok(if a.games_by_variant.text().is_empty() {
            a.games.to_string()
        } else {
            format!("{} --games-by-variant {}", a.games, a.games_by_variant.text())
        });
    }
    let counts = a
        .variants
        .variants()
        .iter()
        .map(|v| Ok((v, p.round_games(round, v)?)))
        .collect::<Result<Vec<(&String, u64)>>>()?;
    let first = counts.first().map_or(a.games, |c| c.1);
    let others: Vec<String> = counts
        .iter()
        .filter(|c| c.1 != first)
        .map(|(v, n)| format!("{v}={n}"))
        .collect();
    Ok(if others.is_empty() {
        first.to_string()
    } else {
        format!("{first} --games-by-variant {}", others.join(","))
    })
}

/// The report's part on the fixed matches beside the SPRT: at equal time, and the ladder.
fn yardsticks_section(previous: &Eval, tc: &str, yard: &Yardsticks) -> String {
    let mut o = String::new();
    if let (Some(time), Some(file)) = (&yard.time, &yard.time_file) {
        let text = fs::read_to_string(file).unwrap_or_else(|e| format!("(cannot be read: {e})\n"));
        let _ = write!(
            o,
            "## Match against {previous} at equal time ({tc})\n\nElo {} (W/D/L {}).\n\n```\n{text}```\n\n",
            time.elo_text(),
            time.wdl_text()
        );
    }
    if !yard.ladder.is_empty() {
        let _ = write!(
            o,
            "## Reference ladder\n\nAgainst the variant's round-1 net searching a multiple of this net's \
             nodes; a rung is beaten above 50 %. Beaten: {} of {}.\n\n\
             | rung | its nodes | W/D/L | score | Elo | beaten | match file |\n|---|---|---|---|---|---|---|\n",
            yard.ladder.iter().filter(|r| r.beaten()).count(),
            yard.ladder.len()
        );
        for r in &yard.ladder {
            let _ = writeln!(
                o,
                "| x{} | {} | {} | {} | {} | {} | `{}` |",
                r.multiple,
                r.nodes,
                r.summary.wdl_text(),
                r.summary
                    .score()
                    .map_or_else(|| "-".to_string(), |s| format!("{:.1} %", 100.0 * s)),
                r.summary.elo_text(),
                if r.beaten() { "yes" } else { "no" },
                r.file.display()
            );
        }
        o.push('\n');
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_of_run_files() {
        assert_eq!(net_of("hand-crafted"), "hce");
        assert_eq!(
            net_of("NNUE (data/nets/egyptian-eye.nnue, r9 joint net)"),
            "data/nets/egyptian-eye.nnue"
        );
        assert_eq!(net_of("something else"), "something else");
    }

    /// The games a self-play directory holds count those that wrote no record, which the
    /// records' game ids cannot show.
    #[test]
    fn data_lines_count_the_games_of_the_shards() {
        let dir = std::env::temp_dir().join(format!("trainer-pipeline-data-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp dir");
        fs::write(dir.join(selfplay::shard::RUN_FILE), "{}").expect("run file");
        let game = selfplay::game::PlayedGame::without_records;
        selfplay::shard::write_shard(&dir, 0, &[game(0), game(1)]).expect("shard");
        let (line, games) = data_line(&dir).expect("data line");
        assert!(line.ends_with("; 0 game id(s)"), "{line}");
        assert_eq!(games, 2);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn rounds_of_reports() {
        let dir = std::env::temp_dir().join(format!("trainer-pipeline-report-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let report = dir.join("v.md");
        fs::write(
            &report,
            "# v.nnue\n\nRound 9 of `scripts/pipeline.sh all`, accepted 2026-11-25.\n",
        )
        .expect("write");
        assert_eq!(installed_round(&report), Some(9));
        fs::write(&report, "# v.nnue\n\nRound nine of it\n").expect("write");
        assert_eq!(installed_round(&report), None);
        assert_eq!(installed_round(&dir.join("missing.md")), None);
        let _ = fs::remove_dir_all(&dir);
    }

    /// A pipeline of the given command-line settings.
    fn pipeline(args: &[&str]) -> Pipeline {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: super::super::Args,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(std::iter::once("pipeline").chain(args.iter().copied()))
            .expect("settings");
        Pipeline {
            args: cli.args,
            threads: 1,
            bin_dir: PathBuf::new(),
        }
    }

    #[test]
    fn rounds_table_lines() {
        let dir = std::env::temp_dir().join(format!("trainer-pipeline-table-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("strength.md");
        fs::write(&file, "# Strength\n\nText.").expect("write");
        let strength = file.display().to_string();
        let p = pipeline(&[
            "--variants",
            "all",
            "--games",
            "6",
            "--games-by-variant",
            "egyptian-eye=8",
            "--sp-nodes",
            "40",
            "--strength",
            &strength,
        ]);
        let h1 = MatchSummary {
            verdict: Some(engine::tournament::SprtVerdict::AcceptH1),
            wdl: Some((5, 1, 2)),
            elo: Some("+120.0 (+10.0 .. +230.0)".to_string()),
        };
        let none = Yardsticks::default();
        let yard = Yardsticks {
            time: Some(h1.clone()),
            time_file: None,
            ladder: vec![super::super::matches::Rung {
                multiple: 2,
                nodes: 80,
                summary: h1.clone(),
                file: PathBuf::new(),
            }],
        };
        strength_line(&p, 3, "egyptian-eye", &h1, None, &yard, "yes").expect("first line");
        strength_line(
            &p,
            3,
            "oriental-omega",
            &MatchSummary::default(),
            Some(&h1),
            &none,
            "no",
        )
        .expect("second line");
        let text = fs::read_to_string(&file).expect("read");
        let date = today();
        assert!(
            text.starts_with("# Strength\n\nText.\n\n## Rounds of the NNUE pipeline\n"),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(
                "|---|---|---|---|---|---|---|---|---|---|\n\
                 | {date} | 3 | egyptian-eye | 8 games, 40 nodes | H1 accepted (5/1/2) | +120.0 (+10.0 .. +230.0) | - | yes | \
                 +120.0 (+10.0 .. +230.0) (5/1/2) | x2 68.8 % (1 of 1) |\n\
                 | {date} | 3 | oriental-omega | 6 games, 40 nodes |  () | - | +120.0 (+10.0 .. +230.0) | no | - | - |\n\
                 <!-- rounds -->\n"
            )),
            "{text}"
        );
        // Lines go before the marker wherever it is, and a second candidate's name follows the round.
        fs::write(&file, "| a |\n<!-- rounds -->\n\nLater text.\n").expect("write");
        let named = pipeline(&["--variants", "egyptian-eye", "--name", "r3b", "--strength", &strength]);
        strength_line(&named, 3, "egyptian-eye", &h1, None, &none, "yes").expect("line");
        let text = fs::read_to_string(&file).expect("read");
        assert_eq!(
            text,
            format!(
                "| a |\n| {date} | 3 (r3b) | egyptian-eye | 30000 games, 1000 nodes | H1 accepted (5/1/2) | \
                 +120.0 (+10.0 .. +230.0) | - | yes | - | - |\n<!-- rounds -->\n\nLater text.\n"
            )
        );
        // A table of the eight old columns gets the new header; its lines stay as they were.
        let old_line =
            "| 2026-11-25 | 9 | parsi | 6 games, 40 nodes | H0 accepted (1/2/3) | -5.0 (-9.0 .. +1.0) | - | no |";
        fs::write(
            &file,
            format!("Text.\n\n{OLD_HEADER}\n|---|---|---|---|---|---|---|---|\n{old_line}\n<!-- rounds -->\n"),
        )
        .expect("write");
        strength_line(&named, 3, "egyptian-eye", &h1, None, &none, "yes").expect("line");
        let text = fs::read_to_string(&file).expect("read");
        assert_eq!(
            text,
            format!(
                "Text.\n\n{HEADER}{old_line}\n| {date} | 3 (r3b) | egyptian-eye | 30000 games, 1000 nodes | \
                 H1 accepted (5/1/2) | +120.0 (+10.0 .. +230.0) | - | yes | - | - |\n<!-- rounds -->\n"
            )
        );
        assert_eq!(text.lines().filter(|l| l.starts_with("|---")).count(), 1, "{text}");
        // --strength "": no table anywhere.
        let nothing = pipeline(&["--variants", "all", "--strength", ""]);
        strength_line(&nothing, 3, "egyptian-eye", &h1, None, &none, "yes").expect("nothing");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn dates() {
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        assert!(d.starts_with("20"), "{d}");
    }
}
