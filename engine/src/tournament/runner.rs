//! Playing a match: games between two configurations on worker threads, adjudication, the
//! running tally, the PGN file and the final report.

use std::{
    fmt::Write as _,
    fs::{File, OpenOptions},
    io::Write as _,
    path::PathBuf,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use super::{
    elo::{los, EloEstimate, Sprt, SprtVerdict, Wdl},
    openings::{random_openings, Opening, OpeningsError},
    player::PlayerConfig,
};
use crate::{
    engine::Engine,
    rules::{game::Game, notation::pgn::PgnGame, Color, Move, Outcome, Variant},
};

/// Plies after which a game is adjudicated a draw when none is given.
pub const DEFAULT_MAX_PLIES: usize = 400;

/// Resign adjudication: a game is won when the engines' scores agree that one side is ahead by
/// at least `score_cp` for `moves` consecutive moves of each engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Threshold in centipawns (mate scores are beyond every threshold).
    pub score_cp: i32,
    /// Consecutive moves of each engine.
    pub moves: usize,
}

/// Draw adjudication: a game is drawn when both engines' scores stay within `score_cp` of 0 for
/// `moves` consecutive moves each, counting only moves played from ply `after_ply` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Threshold in centipawns.
    pub score_cp: i32,
    /// Consecutive moves of each engine.
    pub moves: usize,
    /// Moves before this ply (counted from the game start, opening included) do not count.
    pub after_ply: usize,
}

/// When the match ends games before the rules do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Games reaching this many plies (opening included) are drawn.
    pub max_plies: usize,
    /// Resign adjudication, if any.
    pub resign: Option<ResignRule>,
    /// Draw adjudication, if any.
    pub draw: Option<DrawRule>,
}

impl Default for Adjudication {
    fn default() -> Adjudication {
        Adjudication {
            max_plies: DEFAULT_MAX_PLIES,
            resign: None,
            draw: None,
        }
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// The PGN form.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result of a game that ended by the rules.
    pub fn of_outcome(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Checkmate { winner } => GameResult::win_for(winner),
            Outcome::Draw(_) => GameResult::Draw,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: checkmate, stalemate, citadel, 50 moves, repetition, insufficient material.
    Rules(Outcome),
    /// Adjudicated a draw at the ply limit.
    MaxPlies(usize),
    /// Adjudicated a win by the resign rule.
    Resign,
    /// Adjudicated a draw by the draw rule.
    DrawScore,
    /// An engine returned a null or illegal move and lost.
    IllegalMove {
        /// The offender's colour.
        by: Color,
        /// The move in UCI (`0000` for the null move).
        text: String,
    },
}

impl Termination {
    /// A short description, e.g. `checkmate` or `adjudication: 400 plies`.
    pub fn description(&self) -> String {
        match self {
            Termination::Rules(o) => o.description().to_string(),
            Termination::MaxPlies(n) => format!("adjudicated draw: {n} plies"),
            Termination::Resign => "adjudicated win: scores agree".to_string(),
            Termination::DrawScore => "adjudicated draw: scores near 0".to_string(),
            Termination::IllegalMove { by, text } => format!("illegal move {text} by {}", by.name()),
        }
    }

    /// The value of the PGN `Termination` tag.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::Rules(_) => "normal",
            Termination::MaxPlies(_) | Termination::Resign | Termination::DrawScore => "adjudication",
            Termination::IllegalMove { .. } => "rules infraction",
        }
    }
}

/// Applies the resign and draw rules to the scores reported move by move.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with White ahead, with Black ahead, near 0.
    white_ahead: usize,
    black_ahead: usize,
    near_zero: usize,
}

impl Adjudicator {
    /// An adjudicator for a new game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            white_ahead: 0,
            black_ahead: 0,
            near_zero: 0,
        }
    }

    /// Records the score (centipawns, White's view) the engine reported for the move it played at
    /// `ply` (0-based, opening included) and says whether the game is now adjudicated.
    pub fn record(&mut self, ply: usize, white_cp: i32) -> Option<(GameResult, Termination)> {
        if let Some(r) = self.rules.resign {
            let threshold = r.score_cp.max(0);
            if white_cp >= threshold {
                self.white_ahead += 1;
                self.black_ahead = 0;
            } else if white_cp <= -threshold {
                self.black_ahead += 1;
                self.white_ahead = 0;
            } else {
                self.white_ahead = 0;
                self.black_ahead = 0;
            }
            let needed = 2 * r.moves.max(1);
            if self.white_ahead >= needed {
                return Some((GameResult::WhiteWins, Termination::Resign));
            }
            if self.black_ahead >= needed {
                return Some((GameResult::BlackWins, Termination::Resign));
            }
        }
        if let Some(d) = self.rules.draw {
            if ply >= d.after_ply && white_cp.abs() <= d.score_cp.max(0) {
                self.near_zero += 1;
            } else {
                self.near_zero = 0;
            }
            if self.near_zero >= 2 * d.moves.max(1) {
                return Some((GameResult::Draw, Termination::DrawScore));
            }
        }
        None
    }
}

/// A finished game, before it is placed in the match.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// All moves from the opening's start position, opening moves included.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
}

/// Plays one game from `opening` between the engine `white` (searching with `white_limits`) and
/// `black`. Both engines get `new_game` first and are switched to the opening's variant if
/// needed. Returns `None` if `stop` was raised before the game ended.
pub fn play_game(
    white: (&mut Engine, &PlayerConfig),
    black: (&mut Engine, &PlayerConfig),
    opening: &Opening,
    rules: &Adjudication,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let variant = opening.start.variant();
    let (white_engine, white_config) = white;
    let (black_engine, black_config) = black;
    let mut engines: [(&mut Engine, &PlayerConfig); 2] = [(white_engine, white_config), (black_engine, black_config)];
    for (e, _) in engines.iter_mut() {
        if e.variant() != variant {
            e.set_variant(variant);
        }
        e.new_game();
    }
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.play(m);
    }
    let mut adjudicator = Adjudicator::new(*rules);
    let finish = |game: Game, result: GameResult, termination: Termination| PlayedGame {
        moves: game.moves().to_vec(),
        result,
        termination,
    };
    loop {
        if let Some(o) = game.outcome() {
            return Some(finish(game, GameResult::of_outcome(o), Termination::Rules(o)));
        }
        let ply = game.moves().len();
        if ply >= rules.max_plies {
            return Some(finish(game, GameResult::Draw, Termination::MaxPlies(ply)));
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let turn = game.position().turn();
        let (engine, config) = &mut engines[turn.index()];
        let searched = engine
            .set_game(opening.start.clone(), game.moves())
            .map(|()| engine.search(config.limits(), &mut |_| {}));
        let result = match searched {
            Ok(r) => r,
            Err(e) => {
                // The moves come from the generator, so this cannot happen; the engine that cannot
                // take the position loses like one that plays an illegal move.
                let text = format!("(position rejected: {e})");
                return Some(finish(
                    game,
                    GameResult::win_for(!turn),
                    Termination::IllegalMove { by: turn, text },
                ));
            }
        };
        let m = result.best;
        if m.is_null() || !game.position().legal_moves().contains(m) {
            let text = if m.is_null() {
                "0000".to_string()
            } else {
                game.position().uci(m)
            };
            return Some(finish(
                game,
                GameResult::win_for(!turn),
                Termination::IllegalMove { by: turn, text },
            ));
        }
        game.play(m);
        if game.outcome().is_some() {
            continue;
        }
        if let Some((result, termination)) = adjudicator.record(ply, result.score.white_cp(turn)) {
            return Some(finish(game, result, termination));
        }
    }
}

/// Where the openings of a match come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Random legal moves from the start position.
    Random {
        /// Plies per opening.
        plies: usize,
        /// Seed of the random generator.
        seed: u64,
    },
    /// Given openings, used in order and from the beginning again when the match needs more.
    List(Vec<Opening>),
}

/// Everything that defines a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant.
    pub variant: Variant,
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
    /// Append every finished game to this PGN file.
    pub pgn: Option<PathBuf>,
}

impl MatchConfig {
    /// A match with default settings: random 8-ply openings with the default seed, one game at a
    /// time, 400 plies at most, no resign or draw adjudication, no SPRT, no PGN.
    pub fn new(variant: Variant, games: usize, first: PlayerConfig, second: PlayerConfig) -> MatchConfig {
        MatchConfig {
            variant,
            games,
            first,
            second,
            concurrency: 1,
            openings: OpeningSource::Random {
                plies: super::openings::DEFAULT_RANDOM_PLIES,
                seed: super::openings::DEFAULT_SEED,
            },
            adjudication: Adjudication::default(),
            sprt: None,
            pgn: None,
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
    /// The PGN file cannot be written.
    #[error("PGN file {path}: {error}")]
    Pgn {
        /// The file.
        path: String,
        /// The error.
        error: std::io::Error,
    },
}

/// A finished game of a match.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number (the order games were started in).
    pub number: usize,
    /// 1-based number of the opening.
    pub opening: usize,
    /// Where the opening comes from.
    pub opening_label: String,
    /// Whether the first configuration played White.
    pub first_is_white: bool,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The game as PGN data (tags, start position, moves, result).
    pub pgn: PgnGame,
}

impl GameRecord {
    /// The game as a tally of the first configuration (one win, draw or loss).
    pub fn first_wdl(&self) -> Wdl {
        match (self.result, self.first_is_white) {
            (GameResult::Draw, _) => Wdl::new(0, 1, 0),
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Wdl::new(1, 0, 0),
            _ => Wdl::new(0, 0, 1),
        }
    }
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Name of the first configuration.
    pub first: String,
    /// Name of the second configuration.
    pub second: String,
    /// The variant.
    pub variant: Variant,
    /// Games the match was set to play.
    pub games_planned: usize,
    /// Wins, draws and losses of the first configuration.
    pub wdl: Wdl,
    /// Wins of White, draws, wins of Black (as White's tally).
    pub by_colour: Wdl,
    /// How many games ended each way, by description, most frequent first.
    pub terminations: Vec<(String, usize)>,
    /// Games lost by a null or illegal move (a bug in the engine): game number and what happened.
    pub illegal_moves: Vec<(usize, String)>,
    /// The SPRT, its LLR and verdict, if one was run.
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// Whether the SPRT ended the match before all games were played.
    pub stopped_early: bool,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl MatchReport {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wdl.games()
    }

    /// The closing summary, one line per figure.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let n = self.wdl.games();
        out.push(format!(
            "Match {} vs {} ({}): {} of {} games{} in {:.1} s",
            self.first,
            self.second,
            self.variant,
            n,
            self.games_planned,
            if self.stopped_early {
                " (stopped by the SPRT)"
            } else {
                ""
            },
            self.elapsed.as_secs_f64()
        ));
        out.push(format!(
            "W/D/L: {}/{}/{} (wins, draws, losses of {})",
            self.wdl.wins, self.wdl.draws, self.wdl.losses, self.first
        ));
        out.push(format!(
            "Score: {:.1}% ({}/{})",
            100.0 * self.wdl.score(),
            trim_points(self.wdl.points()),
            n
        ));
        match EloEstimate::from_wdl(self.wdl) {
            Some(e) => out.push(format!("Elo difference: {e}")),
            None => out.push("Elo difference: - (no games)".to_string()),
        }
        out.push(format!("LOS: {:.1}%", 100.0 * los(self.wdl)));
        out.push(format!(
            "White/draw/Black: {}/{}/{}",
            self.by_colour.wins, self.by_colour.draws, self.by_colour.losses
        ));
        if !self.terminations.is_empty() {
            let parts: Vec<String> = self.terminations.iter().map(|(d, c)| format!("{d} {c}")).collect();
            out.push(format!("Terminations: {}", parts.join(", ")));
        }
        if let Some((sprt, llr, verdict)) = self.sprt {
            out.push(format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                llr,
                sprt.lower_bound(),
                sprt.upper_bound(),
                verdict
            ));
        }
        if !self.illegal_moves.is_empty() {
            out.push(format!(
                "WARNING: {} game(s) lost by a null or illegal move (engine bug):",
                self.illegal_moves.len()
            ));
            for (g, what) in &self.illegal_moves {
                out.push(format!("  game {g}: {what}"));
            }
        }
        out
    }
}

fn trim_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// The progress line of a finished game: number, opening, colours, result, termination, plies
/// and the running W/D/L of the first configuration.
pub fn progress_line(record: &GameRecord, planned: usize, tally: Wdl) -> String {
    let white = record.pgn.tag("White").unwrap_or("?");
    let black = record.pgn.tag("Black").unwrap_or("?");
    let mut s = String::new();
    let width = planned.to_string().len();
    let _ = write!(
        s,
        "Game {:>width$}/{planned} [{}] {} (White) vs {} (Black): {} {} ({} plies); W/D/L {}/{}/{}",
        record.number,
        record.opening_label,
        white,
        black,
        record.result.pgn(),
        record.termination.description(),
        record.pgn.moves.len(),
        tally.wins,
        tally.draws,
        tally.losses
    );
    s
}

fn check_config(config: &MatchConfig) -> Result<Vec<Opening>, MatchError> {
    if config.games == 0 {
        return Err(MatchError::Config("the match needs at least one game".into()));
    }
    if config.concurrency == 0 {
        return Err(MatchError::Config("concurrency must be at least 1".into()));
    }
    if config.adjudication.max_plies == 0 {
        return Err(MatchError::Config("max plies must be at least 1".into()));
    }
    let pairs = config.games.div_ceil(2);
    let openings = match &config.openings {
        OpeningSource::Random { plies, seed } => random_openings(config.variant, pairs, *plies, *seed),
        OpeningSource::List(list) => {
            if list.is_empty() {
                return Err(MatchError::Config("the opening list is empty".into()));
            }
            if let Some(o) = list.iter().find(|o| o.start.variant() != config.variant) {
                return Err(MatchError::Config(format!(
                    "opening {} is a {} position, the match is {}",
                    o.label,
                    o.start.variant(),
                    config.variant
                )));
            }
            list.clone()
        }
    };
    Ok(openings)
}

/// Plays a match. `on_game` is called on the calling thread for each finished game, in the order
/// they finish, with the running tally of the first configuration. Games are appended to the PGN
/// file (if any) as they finish, each with a single write. With an SPRT the match stops as soon as
/// the test accepts a hypothesis; games still running then are abandoned and not counted.
pub fn run_match(config: &MatchConfig, on_game: &mut dyn FnMut(&GameRecord, Wdl)) -> Result<MatchReport, MatchError> {
    let openings = check_config(config)?;
    for (which, player) in [("first", &config.first), ("second", &config.second)] {
        player
            .engine_for(config.variant)
            .map_err(|e| MatchError::Config(format!("{which} configuration ({}): {e}", player.name)))?;
    }
    let started = Instant::now();
    let mut pgn_file: Option<(File, String)> = match &config.pgn {
        Some(path) => {
            let name = path.display().to_string();
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|error| MatchError::Pgn {
                    path: name.clone(),
                    error,
                })?;
            Some((file, name))
        }
        None => None,
    };
    let (first, second) = if config.first.name == config.second.name {
        let mut a = config.first.clone();
        let mut b = config.second.clone();
        a.name.push_str(" (1)");
        b.name.push_str(" (2)");
        (a, b)
    } else {
        (config.first.clone(), config.second.clone())
    };
    let date = crate::rules::notation::pgn::today();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.min(config.games);
    let mut wdl = Wdl::default();
    let mut by_colour = Wdl::default();
    let mut terminations: Vec<(String, usize)> = Vec::new();
    let mut illegal_moves = Vec::new();
    let mut sprt_state = config.sprt.map(|s| (s, 0.0, SprtVerdict::Continue));
    let mut stopped_early = false;
    let mut failure: Option<MatchError> = None;

    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (first, second, openings, next, stop, date) = (&first, &second, &openings, &next, &stop, &date);
            scope.spawn(move || {
                // Both configurations were checked to build before the match started.
                let (Ok(mut a), Ok(mut b)) = (first.engine_for(config.variant), second.engine_for(config.variant))
                else {
                    return;
                };
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let opening_index = (index / 2) % openings.len();
                    let opening = &openings[opening_index];
                    let first_is_white = index % 2 == 0;
                    let played = if first_is_white {
                        play_game((&mut a, first), (&mut b, second), opening, &config.adjudication, stop)
                    } else {
                        play_game((&mut b, second), (&mut a, first), opening, &config.adjudication, stop)
                    };
                    let Some(played) = played else { break };
                    let (white, black) = if first_is_white {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    let mut pgn = PgnGame::new(opening.start.clone());
                    pgn.set_tag("Event", format!("{} vs {}", first.name, second.name));
                    pgn.set_tag("Site", "engine match");
                    pgn.set_tag("Date", date.clone());
                    pgn.set_tag("Round", (index + 1).to_string());
                    pgn.set_tag("White", white.name.clone());
                    pgn.set_tag("Black", black.name.clone());
                    pgn.set_tag("Termination", played.termination.pgn_tag());
                    pgn.set_tag("OpeningPlies", opening.moves.len().to_string());
                    pgn.set_tag("WhiteConfig", white.spec());
                    pgn.set_tag("BlackConfig", black.spec());
                    pgn.moves = played.moves;
                    pgn.result = played.result.pgn().to_string();
                    pgn.final_comment = Some(played.termination.description());
                    let record = GameRecord {
                        number: index + 1,
                        opening: opening_index + 1,
                        opening_label: opening.label.clone(),
                        first_is_white,
                        result: played.result,
                        termination: played.termination,
                        pgn,
                    };
                    if tx.send(record).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for record in rx {
            if stopped_early || failure.is_some() {
                continue;
            }
            if let Some((file, name)) = pgn_file.as_mut() {
                let text = record.pgn.to_pgn();
                if let Err(error) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                    failure = Some(MatchError::Pgn {
                        path: name.clone(),
                        error,
                    });
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            }
            let g = record.first_wdl();
            wdl = Wdl::new(wdl.wins + g.wins, wdl.draws + g.draws, wdl.losses + g.losses);
            match record.result {
                GameResult::WhiteWins => by_colour.wins += 1,
                GameResult::Draw => by_colour.draws += 1,
                GameResult::BlackWins => by_colour.losses += 1,
            }
            let description = match &record.termination {
                Termination::IllegalMove { .. } => "illegal move".to_string(),
                t => t.description(),
            };
            match terminations.iter_mut().find(|(d, _)| *d == description) {
                Some((_, c)) => *c += 1,
                None => terminations.push((description, 1)),
            }
            if let Termination::IllegalMove { by, text } = &record.termination {
                let name = record.pgn.tag(if *by == Color::White { "White" } else { "Black" });
                illegal_moves.push((
                    record.number,
                    format!("{} ({}) played {text}", name.unwrap_or("?"), by.name()),
                ));
            }
            on_game(&record, wdl);
            if let Some((sprt, llr, verdict)) = sprt_state.as_mut() {
                *llr = sprt.llr(wdl);
                *verdict = sprt.verdict(wdl);
                if *verdict != SprtVerdict::Continue && (wdl.games() as usize) < config.games {
                    stopped_early = true;
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    terminations.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(MatchReport {
        first: first.name,
        second: second.name,
        variant: config.variant,
        games_planned: config.games,
        wdl,
        by_colour,
        terminations,
        illegal_moves,
        sprt: sprt_state,
        stopped_early,
        elapsed: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

    fn rules(resign: Option<(i32, usize)>, draw: Option<(i32, usize, usize)>) -> Adjudication {
        Adjudication {
            max_plies: 400,
            resign: resign.map(|(score_cp, moves)| ResignRule { score_cp, moves }),
            draw: draw.map(|(score_cp, moves, after_ply)| DrawRule {
                score_cp,
                moves,
                after_ply,
            }),
        }
    }

    #[test]
    fn resign_needs_both_engines_for_k_moves_each() {
        let mut a = Adjudicator::new(rules(Some((500, 2)), None));
        // White-view scores of alternating engines: three in a row beyond 500, then one below.
        assert_eq!(a.record(10, 600), None);
        assert_eq!(a.record(11, 700), None);
        assert_eq!(a.record(12, 650), None);
        assert_eq!(a.record(13, 400), None);
        assert_eq!(a.record(14, 600), None);
        assert_eq!(a.record(15, 600), None);
        assert_eq!(a.record(16, 600), None);
        assert_eq!(a.record(17, 99_990), Some((GameResult::WhiteWins, Termination::Resign)));
        let mut b = Adjudicator::new(rules(Some((300, 1)), None));
        assert_eq!(b.record(0, -300), None);
        assert_eq!(b.record(1, -99_000), Some((GameResult::BlackWins, Termination::Resign)));
    }

    #[test]
    fn draw_counts_only_after_the_given_ply() {
        let mut a = Adjudicator::new(rules(None, Some((10, 2, 20))));
        for ply in 16..20 {
            assert_eq!(a.record(ply, 0), None);
        }
        assert_eq!(a.record(20, 5), None);
        assert_eq!(a.record(21, -10), None);
        assert_eq!(a.record(22, 11), None);
        assert_eq!(a.record(23, 0), None);
        assert_eq!(a.record(24, 0), None);
        assert_eq!(a.record(25, 0), None);
        assert_eq!(a.record(26, 0), Some((GameResult::Draw, Termination::DrawScore)));
        // Without rules nothing is adjudicated.
        let mut none = Adjudicator::new(Adjudication::default());
        assert!((0..100).all(|p| none.record(p, 0).is_none()));
    }

    #[test]
    fn white_view_of_scores() {
        assert_eq!(Score::Cp(30).white_cp(Color::White), 30);
        assert_eq!(Score::Cp(30).white_cp(Color::Black), -30);
        assert!(Score::Mate(3).white_cp(Color::Black) < -90_000);
        assert!(Score::Mate(-2).white_cp(Color::Black) > 90_000);
    }

    #[test]
    fn pgn_date_looks_like_a_date() {
        let d = crate::rules::notation::pgn::today();
        assert_eq!(d.len(), 10, "{d}");
        assert!(d.starts_with("20"), "{d}");
        assert_eq!(&d[4..5], ".");
    }

    #[test]
    fn config_errors() {
        let p: PlayerConfig = "depth=1".parse().expect("valid");
        let mut c = MatchConfig::new(Variant::PersianPrincess, 0, p.clone(), p);
        let err = |c: &MatchConfig| run_match(c, &mut |_, _| {}).expect_err("invalid");
        assert!(matches!(err(&c), MatchError::Config(_)));
        c.games = 2;
        c.concurrency = 0;
        assert!(matches!(err(&c), MatchError::Config(_)));
        c.concurrency = 1;
        c.openings = OpeningSource::List(Vec::new());
        assert!(matches!(err(&c), MatchError::Config(_)));
        c.openings = OpeningSource::List(super::super::openings::random_openings(Variant::Chess, 1, 2, 1));
        assert!(matches!(err(&c), MatchError::Config(_)));
        c.openings = OpeningSource::Random { plies: 4, seed: 1 };
        c.pgn = Some(PathBuf::from("/nonexistent/dir/games.pgn"));
        assert!(matches!(err(&c), MatchError::Pgn { .. }));
    }
}
