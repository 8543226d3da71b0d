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
    elo::{Sprt, SprtVerdict, Wdl},
    player::PlayerConfig,
    record::{game_pgn, GameContext, GameRecord, ResultLine},
    report::{MatchReport, Tally},
};
use crate::{
    engine::Engine,
    play::{self, Adjudication, EnginePlayer, Opening, PlayedGame, Seats, StopFlag},
};

/// Plays one game of a match from `opening` between the engine `white` (searching with the
/// limits of its configuration) and `black`. Returns `None` if `stop` was raised before the game
/// ended.
pub fn play_game(
    white: (&mut Engine, &PlayerConfig),
    black: (&mut Engine, &PlayerConfig),
    opening: &Opening,
    rules: &Adjudication,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let mut white = EnginePlayer::new(white.0, white.1.limits());
    let mut black = EnginePlayer::new(black.0, black.1.limits());
    let seats = Seats::Apart {
        white: &mut white,
        black: &mut black,
    };
    play::play_game(opening, seats, rules, &mut StopFlag(stop))
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
    let results_file = match &config.results {
        Some(path) => {
            let mut file = PgnFile::open(path)?;
            if file.is_empty() {
                file.append_text(&format!(
                    "{}\n",
                    super::merge::header(config.variant, &first.name, &second.name, config.games)
                ))?;
            }
            Some(file)
        }
        None => None,
    };
    // The games to play, in order: all, or those of the pairs asked for.
    let games: Vec<usize> = match &config.pairs {
        None => (0..config.games).collect(),
        Some(pairs) => {
            let mut pairs = pairs.clone();
            pairs.sort_unstable();
            pairs.dedup();
            pairs
                .iter()
                .flat_map(|&p| [2 * p, 2 * p + 1])
                .filter(|&g| g < config.games)
                .collect()
        }
    };
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
    };
    let mut collector = Collector {
        games_planned: games.len(),
        pgn_file,
        results_file,
        tally: Tally::default(),
        sprt: config.sprt.map(|s| (s, 0.0, SprtVerdict::Continue)),
        stopped_early: false,
        failure: None,
        stop: &stop,
        on_game,
    };
    let workers = config.concurrency.min(games.len());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for _ in 0..workers {
            let tx = tx.clone();
            let schedule = &schedule;
            scope.spawn(move || schedule.work(&tx));
        }
        drop(tx);
        for record in rx {
            collector.receive(record);
        }
    });
    if let Some(e) = collector.failure {
        return Err(e);
    }
    let tally = collector.tally;
    Ok(MatchReport {
        first: first.name,
        second: second.name,
        variant: config.variant,
        games_planned: games.len(),
        wdl: tally.wdl,
        by_colour: tally.by_colour,
        terminations: tally.sorted_terminations(),
        illegal_moves: tally.illegal_moves,
        game_points: tally.game_points,
        sprt: collector.sprt,
        stopped_early: collector.stopped_early,
        elapsed: started.elapsed(),
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

    /// A worker: its own two engines play games until none is left, each finished game sent to
    /// `tx`.
    fn work(&self, tx: &mpsc::Sender<GameRecord>) {
        let variant = self.config.variant;
        // Both configurations were checked to build before the match started.
        let (Ok(mut a), Ok(mut b)) = (self.first.engine_for(variant), self.second.engine_for(variant)) else {
            return;
        };
        while let Some(index) = self.next_game() {
            let opening_index = (index / 2) % self.openings.len();
            let opening = &self.openings[opening_index];
            let first_is_white = index % 2 == 0;
            let (first, second, rules) = (self.first, self.second, &self.config.adjudication);
            let played = if first_is_white {
                play_game((&mut a, first), (&mut b, second), opening, rules, self.stop)
            } else {
                play_game((&mut b, second), (&mut a, first), opening, rules, self.stop)
            };
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
            if tx.send(record).is_err() {
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
    stopped_early: bool,
    failure: Option<MatchError>,
    stop: &'a AtomicBool,
    on_game: &'f mut dyn FnMut(&GameRecord, Wdl),
}

impl Collector<'_, '_> {
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
        if let Some((sprt, llr, verdict)) = self.sprt.as_mut() {
            *llr = sprt.llr(wdl);
            *verdict = sprt.verdict(wdl);
            if *verdict != SprtVerdict::Continue && (wdl.games() as usize) < self.games_planned {
                self.stopped_early = true;
                self.stop.store(true, Ordering::Relaxed);
            }
        }
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
