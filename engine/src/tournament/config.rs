//! What defines a match ([`MatchConfig`]), why one cannot be played ([`MatchError`]) and the
//! checks of a configuration before the first game.

use std::path::PathBuf;

use super::{
    elo::{Sprt, StatsModel},
    player::PlayerConfig,
};
use crate::{
    play::{
        openings::{DEFAULT_RANDOM_PLIES, DEFAULT_SEED},
        Adjudication, Opening, OpeningSource, OpeningsError,
    },
    rules::{tables::Tables, Variant},
};

/// Everything that defines a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant.
    pub variant: Variant,
    /// The rules: the variant's tables, under its rule settings
    /// ([`Variant::tables_with`]).
    pub rules: &'static Tables,
    /// Games to play (each opening twice, colours swapped; an odd count plays the last opening
    /// once).
    pub games: usize,
    /// The first configuration (the statistics are from its point of view).
    pub first: PlayerConfig,
    /// The second configuration.
    pub second: PlayerConfig,
    /// Games played at the same time (one thread each, with its own two engines).
    pub concurrency: usize,
    /// The openings.
    pub openings: OpeningSource,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Stop when this test accepts a hypothesis.
    pub sprt: Option<Sprt>,
    /// The model of the Elo interval and the SPRT: game pairs (pentanomial, the default) or
    /// single games (trinomial).
    pub stats: StatsModel,
    /// Append every finished game to this PGN file.
    pub pgn: Option<PathBuf>,
    /// Play only these game pairs of the match (0-based: pair `p` is games `2p` and `2p + 1`,
    /// opening `p` with both colours); `None`: all. A match split over machines plays its parts
    /// so, each game exactly as the whole match would (every game starts with cleared engines).
    pub pairs: Option<Vec<usize>>,
    /// Append a result line per finished game to this file (`ResultLine`), for `engine
    /// match-merge`.
    pub results: Option<PathBuf>,
    /// Continue the match that `results` holds: its games (from an earlier run of this match,
    /// cut short, or stopped at a smaller number of games, e.g. an SPRT inconclusive at its cap)
    /// are counted first, in game order, and not played again; the SPRT goes on over all games.
    /// The file must be of this match (variant, players' names, statistics model); it is written
    /// again with a header for [`MatchConfig::games`] games. No file, or an empty one: nothing
    /// played yet. Not with [`MatchConfig::pairs`] (a match resumes whole).
    pub resume: bool,
}

impl MatchConfig {
    /// A match with default settings: random 8-ply openings with the default seed, one game at a
    /// time, 400 plies at most, no resign or draw adjudication, no SPRT, no PGN.
    pub fn new(variant: Variant, games: usize, first: PlayerConfig, second: PlayerConfig) -> MatchConfig {
        MatchConfig {
            variant,
            rules: variant.tables(),
            games,
            first,
            second,
            concurrency: 1,
            openings: OpeningSource::Random {
                plies: DEFAULT_RANDOM_PLIES,
                seed: DEFAULT_SEED,
            },
            adjudication: Adjudication::default(),
            sprt: None,
            stats: StatsModel::default(),
            pgn: None,
            pairs: None,
            results: None,
            resume: false,
        }
    }
}

/// Why a match cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
    /// The openings cannot be used.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// The PGN file (or the results file) cannot be written.
    #[error("{path}: {error}")]
    Pgn {
        /// The file.
        path: String,
        /// The error.
        error: std::io::Error,
    },
}

/// Checks the settings of `config` and returns the openings of its game pairs, in order.
pub(super) fn check_config(config: &MatchConfig) -> Result<Vec<Opening>, MatchError> {
    if config.games == 0 {
        return Err(MatchError::Config("the match needs at least one game".into()));
    }
    if config.concurrency == 0 {
        return Err(MatchError::Config("concurrency must be at least 1".into()));
    }
    if config.adjudication.max_plies == 0 {
        return Err(MatchError::Config("max plies must be at least 1".into()));
    }
    if let Some(pairs) = &config.pairs {
        let all = config.games.div_ceil(2);
        if let Some(p) = pairs.iter().find(|&&p| p >= all) {
            return Err(MatchError::Config(format!(
                "pair {p} is beyond the match's {all} pairs (0 to {})",
                all - 1
            )));
        }
        if pairs.is_empty() {
            return Err(MatchError::Config("no pair to play".into()));
        }
        if config.sprt.is_some() {
            return Err(MatchError::Config(
                "an SPRT needs the whole match: play the pairs without it and let match-merge apply it".into(),
            ));
        }
    }
    if config.resume && config.results.is_none() {
        return Err(MatchError::Config(
            "resuming a match needs its results file (the one its earlier run wrote)".into(),
        ));
    }
    if config.resume && config.pairs.is_some() {
        return Err(MatchError::Config(
            "a match resumes whole, not in pairs: a part played again is merged by match-merge".into(),
        ));
    }
    if let Some(o) = config
        .openings
        .given()
        .and_then(|list| list.iter().find(|o| o.start.variant() != config.variant))
    {
        return Err(MatchError::Config(format!(
            "opening {} is a {} position, the match is {}",
            o.label,
            o.start.variant(),
            config.variant
        )));
    }
    let pairs = config.games.div_ceil(2);
    config
        .openings
        .openings_in(config.rules, pairs)
        .ok_or_else(|| MatchError::Config("the opening list is empty".into()))
}

/// Checks that both configurations build an engine for the match's variant: the in-process
/// engine with its evaluation, a program started (and quit again) with the variant and its
/// options set.
pub(super) fn check_players(config: &MatchConfig) -> Result<(), MatchError> {
    for (which, player) in [("first", &config.first), ("second", &config.second)] {
        let fail = |e: String| MatchError::Config(format!("{which} configuration ({}): {e}", player.name));
        match &player.external {
            Some(x) => {
                crate::play::uci_engine::UciProcess::start(x, config.variant, config.rules.rules.settings())
                    .map_err(|e| fail(e.to_string()))?;
            }
            None => {
                player.engine_for(config.variant).map_err(|e| fail(e.to_string()))?;
            }
        }
    }
    Ok(())
}

/// Names each program side given without `name=` by the `id name` it gives (kept: its file
/// name, when it gives none): each such program is started once (and quit again), which checks
/// it as the match's own start does. Names that come out equal are told apart as always, with
/// ` (1)` and ` (2)`.
pub fn name_programs(config: &mut MatchConfig) -> Result<(), MatchError> {
    let (variant, rules) = (config.variant, config.rules);
    for (which, player) in [("first", &mut config.first), ("second", &mut config.second)] {
        let Some(program) = player.external.as_ref().filter(|_| !player.named) else {
            continue;
        };
        let process = crate::play::uci_engine::UciProcess::start(program, variant, rules.rules.settings())
            .map_err(|e| MatchError::Config(format!("{which} configuration ({}): {e}", player.name)))?;
        if let Some(id) = process.id_name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            player.name = id.to_string();
        }
    }
    Ok(())
}

/// The two configurations, their names told apart with ` (1)` and ` (2)` when they are equal.
pub(super) fn distinct_names(config: &MatchConfig) -> (PlayerConfig, PlayerConfig) {
    if config.first.name == config.second.name {
        let mut a = config.first.clone();
        let mut b = config.second.clone();
        a.name.push_str(" (1)");
        b.name.push_str(" (2)");
        (a, b)
    } else {
        (config.first.clone(), config.second.clone())
    }
}
