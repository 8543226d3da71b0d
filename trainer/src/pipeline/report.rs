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
use serde::Deserialize;

use super::{matches::MatchSummary, plan::Eval, Pipeline};
use crate::{
    data::io::{for_each_record, record_files, thousands, total_size, write_atomic},
    selfplay,
};

/// The marker line after the rounds table: new lines go just before it.
const MARKER: &str = "<!-- rounds -->";

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
             One line per round and variant, appended by `trainer pipeline`. Matches at equal nodes; \
             Elo with its 95% interval.\n\n\
             | date | round | variant | self-play | SPRT vs previous (W/D/L) | Elo vs previous | Elo vs hce | installed |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        text.push_str(MARKER);
        text.push('\n');
    }
    let name = a.name.as_deref().filter(|n| !n.is_empty());
    let line = format!(
        "| {} | {round}{} | {variant} | {} games, {} nodes | {} ({}) | {} | {} | {installed} |",
        today(),
        name.map_or(String::new(), |n| format!(" ({n})")),
        a.games_by_variant.games_of(variant, a.games),
        a.sp_nodes,
        sprt.verdict_text(),
        sprt.wdl_text(),
        sprt.elo_text(),
        hce.map_or_else(|| "-".to_string(), MatchSummary::elo_text),
    );
    // Before the marker, so that the table stays one table.
    let mut out = String::with_capacity(text.len() + line.len() + 1);
    for l in text.split_inclusive('\n') {
        if l.trim_end_matches(['\n', '\r']) == MARKER {
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
    pub net: &'a Path,
    pub match_file: &'a Path,
    pub previous: &'a Eval,
    pub data: &'a [PathBuf],
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

/// The part of a self-play directory's run.json the report uses.
#[derive(Deserialize)]
struct RunJson {
    settings: selfplay::Settings,
}

/// A self-play directory: its size, as `trainer data stats` gives it on its first line.
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
    Ok((line, games.len() as u64))
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
        let settings = fs::read_to_string(&run_json)
            .ok()
            .and_then(|text| serde_json::from_str::<RunJson>(&text).ok())
            .map(|r| r.settings);
        match settings {
            Some(s) => {
                let net = net_of(&s.eval);
                let limit = match (s.nodes, s.depth) {
                    (Some(n), _) => format!("--nodes {n}"),
                    (None, Some(depth)) => format!("--depth {depth}"),
                    (None, None) => String::new(),
                };
                let _ = writeln!(
                    o,
                    "  (`trainer selfplay --variant {} --games {games} {limit} --net {net} --seed {} --out {}`",
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
    let match_text =
        fs::read_to_string(acc.match_file).with_context(|| format!("cannot read {}", acc.match_file.display()))?;
    let _ = write!(
        o,
        "```\n\n## Match against {} at {} nodes per move\n\n```\n{match_text}```\n\n",
        acc.previous, a.match_nodes
    );
    let mut command = format!(
        "trainer pipeline --variants {spec} --rounds {} --first-round {} --skip-gen \\\n    \
         --hidden {} --epochs {} --wdl {} --lr {} --lr-later {} --init {} --window {} \\\n    ",
        acc.round, a.first_round, a.hidden, a.epochs, a.wdl, a.lr, a.lr_later, a.init, a.window
    );
    if let Some(init) = &a.init_from {
        let _ = write!(command, "--init-from {} ", init.display());
    }
    for (flag, value) in [("--name", &a.name), ("--previous-name", &a.previous_name)] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            let _ = write!(command, "{flag} {v} ");
        }
    }
    let _ = write!(
        command,
        "--data-dir {} --runs-dir {} \\\n    --match-nodes {} --match-games {} --sprt={},{} --seed {}",
        a.data_dir.display(),
        a.runs_dir.display(),
        a.match_nodes,
        a.match_games,
        a.sprt.elo0,
        a.sprt.elo1,
        a.seed
    );
    let _ = write!(
        o,
        "## Reproduce\n\n\
         The self-play records come from the commands listed under Data (deterministic: the same\n\
         settings give the same games). With them in place:\n\n```sh\n{command}\n```\n\n\
         or everything, self-play included: the same without `--skip-gen`, with `--games {}{} --sp-nodes {}`.\n",
        a.games,
        if a.games_by_variant.text().is_empty() {
            String::new()
        } else {
            format!(" --games-by-variant {}", a.games_by_variant.text())
        },
        a.sp_nodes
    );
    Ok(o)
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
        strength_line(&p, 3, "egyptian-eye", &h1, None, "yes").expect("first line");
        strength_line(&p, 3, "oriental-omega", &MatchSummary::default(), Some(&h1), "no").expect("second line");
        let text = fs::read_to_string(&file).expect("read");
        let date = today();
        assert!(
            text.starts_with("# Strength\n\nText.\n\n## Rounds of the NNUE pipeline\n"),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(
                "|---|---|---|---|---|---|---|---|\n\
                 | {date} | 3 | egyptian-eye | 8 games, 40 nodes | H1 accepted (5/1/2) | +120.0 (+10.0 .. +230.0) | - | yes |\n\
                 | {date} | 3 | oriental-omega | 6 games, 40 nodes |  () | - | +120.0 (+10.0 .. +230.0) | no |\n\
                 <!-- rounds -->\n"
            )),
            "{text}"
        );
        // Lines go before the marker wherever it is, and a second candidate's name follows the round.
        fs::write(&file, "| a |\n<!-- rounds -->\n\nLater text.\n").expect("write");
        let named = pipeline(&["--variants", "egyptian-eye", "--name", "r3b", "--strength", &strength]);
        strength_line(&named, 3, "egyptian-eye", &h1, None, "yes").expect("line");
        let text = fs::read_to_string(&file).expect("read");
        assert_eq!(
            text,
            format!(
                "| a |\n| {date} | 3 (r3b) | egyptian-eye | 30000 games, 1000 nodes | H1 accepted (5/1/2) | \
                 +120.0 (+10.0 .. +230.0) | - | yes |\n<!-- rounds -->\n\nLater text.\n"
            )
        );
        // --strength "": no table anywhere.
        let none = pipeline(&["--variants", "all", "--strength", ""]);
        strength_line(&none, 3, "egyptian-eye", &h1, None, "yes").expect("nothing");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn dates() {
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        assert!(d.starts_with("20"), "{d}");
    }
}
