//! Matches played in parts (`engine match --pairs ... --results FILE`, e.g. on several machines)
//! merged into the report one process would print for the same games: the result lines in game
//! order, the SPRT (if any) applied game by game in that order, stopping where it decides.

use std::{collections::BTreeMap, time::Duration};

use super::{
    config::MatchError,
    elo::{Sprt, SprtVerdict, StatsModel},
    record::ResultLine,
    report::{MatchReport, Tally},
};
use crate::rules::Variant;

/// The first line of a results file: what match its games belong to, and the model of its
/// statistics.
pub fn header(variant: Variant, first: &str, second: &str, games: usize, stats: StatsModel) -> String {
    format!("# match results v1\tvariant={variant}\tfirst={first}\tsecond={second}\tgames={games}\tstats={stats}")
}

/// What a results file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Header {
    variant: Variant,
    first: String,
    second: String,
    games: usize,
    stats: StatsModel,
}

fn parse_header(line: &str) -> Result<Header, String> {
    let mut fields = line.split('\t');
    if fields.next() != Some("# match results v1") {
        return Err("not a results file of engine match (its first line is not '# match results v1 ...')".into());
    }
    let (mut variant, mut first, mut second, mut games) = (None, None, None, None);
    // Files written before the field was added: the default model.
    let mut stats = StatsModel::default();
    for field in fields {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| format!("header field '{field}' has no '='"))?;
        match key {
            "variant" => variant = Some(value.parse::<Variant>().map_err(|e| e.to_string())?),
            "first" => first = Some(value.to_string()),
            "second" => second = Some(value.to_string()),
            "stats" => stats = value.parse::<StatsModel>()?,
            "games" => {
                games = Some(
                    value
                        .parse::<usize>()
                        .map_err(|_| format!("games '{value}' is not a number"))?,
                )
            }
            _ => {}
        }
    }
    match (variant, first, second, games) {
        (Some(variant), Some(first), Some(second), Some(games)) => Ok(Header {
            variant,
            first,
            second,
            games,
            stats,
        }),
        _ => Err("the header lacks variant, first, second or games".into()),
    }
}

/// Merges results files (name, text) of one match, applying `sprt` in game order: from game 1 up
/// to the first game missing, stopping where it decides (without an SPRT every game found
/// counts). A game found in two files must have the same line in both (a part played twice);
/// different lines, files of different matches and unreadable lines are errors naming the file
/// and line.
pub fn merge_results(files: &[(String, String)], sprt: Option<Sprt>) -> Result<MatchReport, MatchError> {
    let mut header: Option<(Header, &str)> = None;
    let mut games: BTreeMap<usize, (ResultLine, &str, usize)> = BTreeMap::new();
    for (name, text) in files {
        let mut lines = text.lines().enumerate();
        let this = match lines.next() {
            Some((_, first)) => parse_header(first).map_err(|e| MatchError::Config(format!("{name}: {e}")))?,
            None => return Err(MatchError::Config(format!("{name}: empty (no header)"))),
        };
        match &header {
            Some((h, other)) if *h != this => {
                return Err(MatchError::Config(format!(
                    "{name} and {other} belong to different matches ({:?} vs {:?})",
                    this, h
                )))
            }
            Some(_) => {}
            None => header = Some((this.clone(), name)),
        }
        for (i, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let parsed = ResultLine::parse(line, this.variant)
                .map_err(|e| MatchError::Config(format!("{name}:{}: {e}", i + 1)))?;
            if parsed.number > this.games {
                return Err(MatchError::Config(format!(
                    "{name}:{}: game {} of a match of {} games",
                    i + 1,
                    parsed.number,
                    this.games
                )));
            }
            match games.get(&parsed.number) {
                Some((seen, file, at)) if *seen != parsed => {
                    return Err(MatchError::Config(format!(
                        "game {} differs between {file}:{at} and {name}:{}",
                        parsed.number,
                        i + 1
                    )))
                }
                Some(_) => {}
                None => {
                    games.insert(parsed.number, (parsed, name, i + 1));
                }
            }
        }
    }
    let Some((header, _)) = header else {
        return Err(MatchError::Config("no results file given".into()));
    };
    let mut tally = Tally::default();
    let mut verdict = sprt.map(|s| (s, 0.0, SprtVerdict::Continue));
    let mut stopped_early = false;
    for (expected, (line, ..)) in (1..).zip(games.values()) {
        // An SPRT reads the games in order: it stops at the first game not played yet.
        if stopped_early || (sprt.is_some() && line.number != expected) {
            break;
        }
        tally.add_line(line);
        if let Some((s, llr, v)) = verdict.as_mut() {
            *llr = tally.llr(s, header.stats);
            *v = s.verdict_of(*llr);
            if *v != SprtVerdict::Continue && (tally.wdl.games() as usize) < header.games {
                stopped_early = true;
            }
        }
    }
    Ok(MatchReport {
        first: header.first,
        second: header.second,
        variant: header.variant,
        games_planned: header.games,
        wdl: tally.wdl,
        by_colour: tally.by_colour,
        penta: tally.penta,
        stats: header.stats,
        terminations: tally.sorted_terminations(),
        faults: tally.faults,
        game_points: tally.game_points,
        sprt: verdict,
        stopped_early,
        elapsed: Duration::ZERO,
        restarts: [0, 0],
    })
}
