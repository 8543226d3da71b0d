//! Matches played in parts (`engine match --pairs ... --results FILE`, e.g. on several machines)
//! merged into the report one process would print for the same games: the result lines in game
//! order, the SPRT (if any) applied game by game in that order, stopping where it decides.

use std::{collections::BTreeMap, path::Path, time::Duration};

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

impl Header {
    /// Whether two headers name the same match, whatever number of games each names.
    fn same_match(&self, other: &Header) -> bool {
        self.variant == other.variant
            && self.first == other.first
            && self.second == other.second
            && self.stats == other.stats
    }
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

/// The games of a match already in its results file `path`, for a match that goes on where an
/// earlier run of it stopped ([`MatchConfig::resume`](super::MatchConfig::resume)): the file must
/// be of this match (`variant`, the players' names `first` and `second`, the statistics model
/// `stats`; its number of games may differ: a match stopped at a smaller number of games goes
/// on to `games`). Returns its games in game order, after writing the file again (through a
/// temporary file beside it) with a header for `games` games and those lines in game order. No
/// file, or an empty one, holds no games and is left as it is. A last line cut short (a run
/// killed while writing it, no line end) is dropped: that game is played again. Other lines that
/// cannot be read, a game beyond `games` and a game there twice with different lines are errors
/// naming the file and line; the file is then left as it is.
pub fn resume_results(
    path: &Path,
    variant: Variant,
    first: &str,
    second: &str,
    games: usize,
    stats: StatsModel,
) -> Result<Vec<ResultLine>, MatchError> {
    let name = path.display().to_string();
    let io = |error: std::io::Error| MatchError::Pgn {
        path: name.clone(),
        error,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(e)),
    };
    let mut lines = text.lines().enumerate();
    let Some((_, first_line)) = lines.next() else {
        return Ok(Vec::new());
    };
    let was = parse_header(first_line).map_err(|e| MatchError::Config(format!("{name}: {e}")))?;
    let this = Header {
        variant,
        first: first.to_string(),
        second: second.to_string(),
        games,
        stats,
    };
    if !was.same_match(&this) {
        return Err(MatchError::Config(format!(
            "{name} holds the results of {} vs {} ({}, {} statistics), not of this match, {first} vs {second} \
             ({variant}, {stats} statistics): give the match its own results file",
            was.first, was.second, was.variant, was.stats
        )));
    }
    // A last line cut short (no line end, unreadable) by a run killed while writing it: that game
    // is played again.
    let mut lines: Vec<(usize, &str)> = lines.collect();
    if !text.ends_with('\n')
        && lines
            .last()
            .is_some_and(|(_, l)| ResultLine::parse(l, variant).is_err())
    {
        lines.pop();
    }
    let mut played = BTreeMap::new();
    add_lines(&name, lines.into_iter(), variant, games, &mut played, &|n| {
        format!("game {n} was played, and the match is set to {games} games (it can go on to more games, not fewer)")
    })?;
    let mut out = header(variant, first, second, games, stats);
    out.push('\n');
    for (line, ..) in played.values() {
        out.push_str(&line.to_line());
        out.push('\n');
    }
    let mut temporary = path.as_os_str().to_os_string();
    temporary.push(".tmp");
    let temporary = std::path::PathBuf::from(temporary);
    std::fs::write(&temporary, out).map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)?;
    Ok(played.into_values().map(|(line, ..)| line).collect())
}

/// The games of a results file by number: game number to its line, the file's name and the line
/// number there.
type Games<'a> = BTreeMap<usize, (ResultLine, &'a str, usize)>;

/// Reads the result lines `lines` (numbered from 0, the header's line aside) of the file `name`
/// into `games`. Blank lines are skipped; a line that cannot be read, a game beyond `limit`
/// (`beyond` says why, from its number) and a game already in `games` with another line are
/// errors naming the file and line; a game already there with the same line counts once.
fn add_lines<'a>(
    name: &'a str,
    lines: impl Iterator<Item = (usize, &'a str)>,
    variant: Variant,
    limit: usize,
    games: &mut Games<'a>,
    beyond: &dyn Fn(usize) -> String,
) -> Result<(), MatchError> {
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let parsed =
            ResultLine::parse(line, variant).map_err(|e| MatchError::Config(format!("{name}:{}: {e}", i + 1)))?;
        if parsed.number > limit {
            return Err(MatchError::Config(format!(
                "{name}:{}: {}",
                i + 1,
                beyond(parsed.number)
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
    Ok(())
}

/// Merges results files (name, text) of one match, applying `sprt` in game order: from game 1 up
/// to the first game missing, stopping where it decides (without an SPRT every game found
/// counts). A game found in two files must have the same line in both (a part played twice);
/// different lines, files of different matches and unreadable lines are errors naming the file
/// and line. Files may name different numbers of games (parts of a match taken further with a
/// larger number of games, the same series of openings): the largest is the match's.
pub fn merge_results(files: &[(String, String)], sprt: Option<Sprt>) -> Result<MatchReport, MatchError> {
    let mut header: Option<(Header, &str)> = None;
    let mut games: Games = BTreeMap::new();
    for (name, text) in files {
        let mut lines = text.lines().enumerate();
        let this = match lines.next() {
            Some((_, first)) => parse_header(first).map_err(|e| MatchError::Config(format!("{name}: {e}")))?,
            None => return Err(MatchError::Config(format!("{name}: empty (no header)"))),
        };
        // Parts of one match may name different numbers of games: a match taken further (a
        // larger number of games, the same series of openings) keeps the parts it had; the
        // largest number is the match's.
        match &mut header {
            Some((h, other)) if !h.same_match(&this) => {
                return Err(MatchError::Config(format!(
                    "{name} and {other} belong to different matches ({:?} vs {:?})",
                    this, h
                )))
            }
            Some((h, _)) => h.games = h.games.max(this.games),
            None => header = Some((this.clone(), name)),
        }
        add_lines(name, lines, this.variant, this.games, &mut games, &|n| {
            format!("game {n} of a match of {} games", this.games)
        })?;
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
        resumed: 0,
    })
}
