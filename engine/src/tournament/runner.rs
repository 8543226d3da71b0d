//! Running a match: game pairs scheduled on worker threads (each opening twice, colours
//! swapped), each game played by the game layer, and the finished games collected on the
//! calling thread (PGN file, tally, SPRT).

use std::{
    fs::{File, OpenOptions},
    io::Write as _,
    path::Path,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
    time::Instant,
};

use super::{
    config::{check_config, check_players, distinct_names, MatchConfig, MatchError},
    elo::{Sprt, SprtVerdict, StatsModel, Wdl},
    player::PlayerConfig,
    record::{game_pgn, GameContext, GameRecord, ResultLine},
    report::{MatchReport, Tally},
};
use crate::{
    engine::Engine,
    play::{
        self, Adjudication, EnginePlayer, GameTime, Opening, Pick, PickError, PickFailure, PlayedGame, Player, Seats,
        StopFlag, TimeView, UciPlayer,
    },
    rules::{game::Game, ByColor, Variant},
    search::Limits,
};

/// Plays one game of a match from `opening` between the engine `white` (searching with the
/// limits of its configuration, on its clock if it has one) and `black`. Returns `None` if `stop`
/// was raised before the game ended.
pub fn play_game(
    white: (&mut Engine, &PlayerConfig),
    black: (&mut Engine, &PlayerConfig),
    opening: &Opening,
    rules: &Adjudication,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let time = game_time(white.1, black.1);
    let mut white_player = EnginePlayer::new(white.0, white.1.limits());
    let mut black_player = EnginePlayer::new(black.0, black.1.limits());
    let seats = Seats::Apart {
        white: &mut white_player,
        black: &mut black_player,
    };
    play::play_timed_game(opening, seats, rules, &time, &mut StopFlag(stop))
}

/// The clocks of a game between the configurations `white` and `black`.
pub fn game_time(white: &PlayerConfig, black: &PlayerConfig) -> GameTime {
    GameTime {
        controls: ByColor([white.time_control(), black.time_control()]),
        margins_ms: ByColor([white.time_margin_ms, black.time_margin_ms]),
    }
}

/// One side of the games of a worker: this engine in-process, or a program.
enum Seat {
    InProcess { engine: Box<Engine>, limits: Limits },
    Program(Box<UciPlayer>),
}

impl Seat {
    /// The side of `config` for a match of `variant` under `rules` (a program is started).
    fn start(config: &PlayerConfig, variant: Variant, rules: &str) -> Result<Seat, String> {
        match &config.external {
            Some(x) => UciPlayer::start(x.clone(), variant, rules, config.depth, config.nodes)
                .map(|p| Seat::Program(Box::new(p)))
                .map_err(|e| e.to_string()),
            None => config
                .engine_for(variant)
                .map(|engine| Seat::InProcess {
                    engine: Box::new(engine),
                    limits: config.limits(),
                })
                .map_err(|e| e.to_string()),
        }
    }

    /// Starts a program again that failed in the last game; whether it had to be.
    fn revive(&mut self) -> Result<bool, String> {
        match self {
            Seat::InProcess { .. } => Ok(false),
            Seat::Program(p) => p.revive().map_err(|e| e.to_string()),
        }
    }
}

impl Player for Seat {
    fn new_game(&mut self, game: &Game) {
        match self {
            Seat::InProcess { engine, limits } => EnginePlayer::new(engine, limits.clone()).new_game(game),
            Seat::Program(p) => p.new_game(game),
        }
    }

    fn pick(&mut self, game: &Game) -> Result<Pick, PickError> {
        match self {
            Seat::InProcess { engine, limits } => EnginePlayer::new(engine, limits.clone()).pick(game),
            Seat::Program(p) => p.pick(game),
        }
    }

    fn pick_timed(&mut self, game: &Game, time: &TimeView) -> Result<Pick, PickFailure> {
        match self {
            Seat::InProcess { engine, limits } => EnginePlayer::new(engine, limits.clone()).pick_timed(game, time),
            Seat::Program(p) => p.pick_timed(game, time),
        }
    }
}

/// Plays a match. `on_game` is called on the calling thread for each finished game, in the order
/// they finish, with the running tally of the first configuration. Games are appended to the PGN
/// file (if any) as they finish, each with a single write. With an SPRT the match stops as soon as
/// the test accepts a hypothesis; games still running then are abandoned and not counted.
pub fn run_match(config: &MatchConfig, on_game: &mut dyn FnMut(&GameRecord, Wdl)) -> Result<MatchReport, MatchError> {
    let openings = check_config(config)?;
    check_players(config)?;
    let started = Instant::now();
    let pgn_file = match &config.pgn {
        Some(path) => Some(PgnFile::open(path)?),
        None => None,
    };
    let (first, second) = distinct_names(config);
    // The games an earlier run of this match played (the file written again for this run).
    let played = match (&config.results, config.resume) {
        (Some(path), true) => super::merge::resume_results(
            path,
            config.variant,
            &first.name,
            &second.name,
            config.games,
            config.stats,
        )?,
        _ => Vec::new(),
    };
    let results_file = match &config.results {
        Some(path) => {
            let mut file = PgnFile::open(path)?;
            if file.is_empty() {
                file.append_text(&format!(
                    "{}\n",
                    super::merge::header(config.variant, &first.name, &second.name, config.games, config.stats)
                ))?;
            }
            Some(file)
        }
        None => None,
    };
    // The games to play, in order: all, or those of the pairs asked for; not those played
    // already (numbered from 1 in the results file, from 0 here).
    let done: std::collections::HashSet<usize> = played.iter().map(|l| l.number - 1).collect();
    let games: Vec<usize> = match &config.pairs {
        None => (0..config.games).filter(|g| !done.contains(g)).collect(),
        Some(pairs) => {
            let mut pairs = pairs.clone();
            pairs.sort_unstable();
            pairs.dedup();
            pairs
                .iter()
                .flat_map(|&p| [2 * p, 2 * p + 1])
                .filter(|&g| g < config.games && !done.contains(&g))
                .collect()
        }
    };
    // This run's games and those counted from the earlier run's.
    let planned = games.len() + played.len();
    let date = crate::rules::notation::pgn::today();
    let stop = AtomicBool::new(false);
    let schedule = Schedule {
        config,
        first: &first,
        second: &second,
        openings: &openings,
        date: &date,
        games: &games,
        next: AtomicUsize::new(0),
        stop: &stop,
        restarts: [AtomicUsize::new(0), AtomicUsize::new(0)],
    };
    let mut collector = Collector {
        games_planned: planned,
        pgn_file,
        results_file,
        tally: Tally::default(),
        sprt: config.sprt.map(|s| (s, 0.0, SprtVerdict::Continue)),
        stats: config.stats,
        stopped_early: false,
        failure: None,
        stop: &stop,
        on_game,
    };
    // The games played before count first; an SPRT they decide ends the match before it starts.
    collector.count_played(&played);
    let workers = config.concurrency.min(games.len());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Result<GameRecord, MatchError>>();
        for _ in 0..workers {
            let tx = tx.clone();
            let schedule = &schedule;
            scope.spawn(move || schedule.work(&tx));
        }
        drop(tx);
        for received in rx {
            match received {
                Ok(record) => collector.receive(record),
                Err(e) => {
                    if collector.failure.is_none() {
                        collector.failure = Some(e);
                    }
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = collector.failure {
        return Err(e);
    }
    let tally = collector.tally;
    let restarts = schedule.restarts.each_ref().map(|r| r.load(Ordering::Relaxed));
    Ok(MatchReport {
        first: first.name,
        second: second.name,
        variant: config.variant,
        games_planned: planned,
        wdl: tally.wdl,
        by_colour: tally.by_colour,
        penta: tally.penta,
        stats: config.stats,
        terminations: tally.sorted_terminations(),
        faults: tally.faults,
        game_points: tally.game_points,
        sprt: collector.sprt,
        stopped_early: collector.stopped_early,
        elapsed: started.elapsed(),
        restarts,
        resumed: played.len(),
    })
}

/// The games of a match, handed out to the workers in order: game `i` plays opening `i / 2`
/// (from the top again when the list is shorter), the first configuration White when `i` is even.
struct Schedule<'a> {
    config: &'a MatchConfig,
    first: &'a PlayerConfig,
    second: &'a PlayerConfig,
    openings: &'a [Opening],
    date: &'a str,
    /// The games to play (indices into the whole match), in order.
    games: &'a [usize],
    /// Position in `games` of the next game to start.
    next: AtomicUsize,
    stop: &'a AtomicBool,
    /// Programs of the first and the second configuration started again after a failure.
    restarts: [AtomicUsize; 2],
}

impl Schedule<'_> {
    /// The next game to play, `None` when all are started or the match is stopping.
    fn next_game(&self) -> Option<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let at = self.next.fetch_add(1, Ordering::Relaxed);
        self.games.get(at).copied()
    }

    /// A worker: its own two sides (engines, or programs it starts) play games until none is
    /// left, each finished game sent to `tx`. A program that failed in a game is started again
    /// before the next; one that cannot be is an error that ends the match.
    fn work(&self, tx: &mpsc::Sender<Result<GameRecord, MatchError>>) {
        let variant = self.config.variant;
        let rules = self.config.rules.rules.settings();
        let start = |config: &PlayerConfig, which: &str| {
            Seat::start(config, variant, rules)
                .map_err(|e| MatchError::Config(format!("{which} configuration ({}): {e}", config.name)))
        };
        let (mut a, mut b) = match (start(self.first, "first"), start(self.second, "second")) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        while let Some(index) = self.next_game() {
            for (seat, config, count) in [
                (&mut a, self.first, &self.restarts[0]),
                (&mut b, self.second, &self.restarts[1]),
            ] {
                match seat.revive() {
                    Ok(true) => {
                        count.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(false) => {}
                    Err(e) => {
                        let _ = tx.send(Err(MatchError::Config(format!(
                            "{} failed and cannot be started again: {e}",
                            config.name
                        ))));
                        return;
                    }
                }
            }
            let opening_index = (index / 2) % self.openings.len();
            let opening = &self.openings[opening_index];
            let first_is_white = index % 2 == 0;
            let (first, second, rules) = (self.first, self.second, &self.config.adjudication);
            let (white, black, time) = if first_is_white {
                (
                    &mut a as &mut dyn Player,
                    &mut b as &mut dyn Player,
                    game_time(first, second),
                )
            } else {
                (
                    &mut b as &mut dyn Player,
                    &mut a as &mut dyn Player,
                    game_time(second, first),
                )
            };
            let seats = Seats::Apart { white, black };
            let played = play::play_timed_game(opening, seats, rules, &time, &mut StopFlag(self.stop));
            let Some(played) = played else { break };
            let context = GameContext {
                index,
                first,
                second,
                first_is_white,
                date: self.date,
            };
            let pgn = game_pgn(&context, opening, &played);
            let record = GameRecord {
                number: index + 1,
                opening: opening_index + 1,
                opening_label: opening.label.clone(),
                first_is_white,
                result: played.result,
                termination: played.termination,
                pgn,
            };
            if tx.send(Ok(record)).is_err() {
                break;
            }
        }
    }
}

/// The PGN file games are appended to.
struct PgnFile {
    file: File,
    name: String,
}

impl PgnFile {
    fn open(path: &Path) -> Result<PgnFile, MatchError> {
        let name = path.display().to_string();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|error| MatchError::Pgn {
                path: name.clone(),
                error,
            })?;
        Ok(PgnFile { file, name })
    }

    /// Whether nothing has been written to the file yet.
    fn is_empty(&self) -> bool {
        self.file.metadata().map(|m| m.len() == 0).unwrap_or(false)
    }

    /// Appends one game with a single write.
    fn append(&mut self, record: &GameRecord) -> Result<(), MatchError> {
        self.append_text(&record.pgn.to_pgn())
    }

    /// Appends text with a single write.
    fn append_text(&mut self, text: &str) -> Result<(), MatchError> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| MatchError::Pgn {
                path: self.name.clone(),
                error,
            })
    }
}

/// Takes the finished games on the calling thread: PGN file, tally, caller, SPRT.
struct Collector<'a, 'f> {
    games_planned: usize,
    pgn_file: Option<PgnFile>,
    results_file: Option<PgnFile>,
    tally: Tally,
    sprt: Option<(Sprt, f64, SprtVerdict)>,
    stats: StatsModel,
    stopped_early: bool,
    failure: Option<MatchError>,
    stop: &'a AtomicBool,
    on_game: &'f mut dyn FnMut(&GameRecord, Wdl),
}

impl Collector<'_, '_> {
    /// Counts the games an earlier run of the match played (in game order), and applies the SPRT
    /// to them: one they decide stops the match before any game starts.
    fn count_played(&mut self, played: &[ResultLine]) {
        if played.is_empty() {
            return;
        }
        for line in played {
            self.tally.add_line(line);
        }
        self.apply_sprt();
    }

    /// The SPRT after the games counted so far: a decision before the last game stops the match.
    fn apply_sprt(&mut self) {
        let games = self.tally.wdl.games() as usize;
        if let Some((sprt, llr, verdict)) = self.sprt.as_mut() {
            *llr = self.tally.llr(sprt, self.stats);
            *verdict = sprt.verdict_of(*llr);
            if *verdict != SprtVerdict::Continue && games < self.games_planned {
                self.stopped_early = true;
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn receive(&mut self, record: GameRecord) {
        if self.stopped_early || self.failure.is_some() {
            return;
        }
        if let Some(file) = self.pgn_file.as_mut() {
            if let Err(e) = file.append(&record) {
                self.failure = Some(e);
                self.stop.store(true, Ordering::Relaxed);
                return;
            }
        }
        if let Some(file) = self.results_file.as_mut() {
            let line = format!("{}\n", ResultLine::of(&record).to_line());
            if let Err(e) = file.append_text(&line) {
                self.failure = Some(e);
                self.stop.store(true, Ordering::Relaxed);
                return;
            }
        }
        self.tally.add(&record);
        let wdl = self.tally.wdl;
        (self.on_game)(&record, wdl);
        self.apply_sprt();
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::{
        play::{random_openings, OpeningSource},
        rules::{Color, Variant},
        search::Score,
    };

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
        c.openings = OpeningSource::List(random_openings(Variant::Chess, 1, 2, 1));
        assert!(matches!(err(&c), MatchError::Config(_)));
        c.openings = OpeningSource::Random { plies: 4, seed: 1 };
        c.pgn = Some(PathBuf::from("/nonexistent/dir/games.pgn"));
        assert!(matches!(err(&c), MatchError::Pgn { .. }));
    }
}
