//! `engine match` with UCI engines run as programs: two processes of this engine on the clock
//! (through the command line), and small shell scripts that misbehave: one always answers with
//! an illegal move, one exits in the middle of every game, one never answers. Each loses its
//! games by the right termination, and the match goes on.
#![cfg(unix)]

use std::{
    path::{Path, PathBuf},
    process::Command,
    sync::atomic::{AtomicUsize, Ordering},
};

use engine::{
    rules::{
        game::Game,
        notation::pgn::{read_games, PgnGame},
        Color, Variant,
    },
    tournament::{run_match, GameRecord, GameResult, MatchConfig, PlayerConfig, Termination},
};

const ENGINE: &str = env!("CARGO_BIN_EXE_persian-engine");

/// A fresh temporary path for this test process.
fn temp(tag: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("engine-match-uci-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Writes a shell script that answers `uci` (offering the Persian variants) and `isready`, and
/// runs `on_go` for each `go`. It is run as `sh SCRIPT` (no executable file is written, which
/// another test thread's fork could hold open).
fn script(tag: &str, on_go: &str) -> PathBuf {
    let path = temp(tag).with_extension("sh");
    let text = format!(
        r#"n=0
while read -r line; do
  case "$line" in
    uci) echo "id name {tag}"
         echo "option name UCI_Variant type combo default persian-princess var persian-princess var egyptian-eye"
         echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) n=$((n+1)); {on_go} ;;
    quit) exit 0 ;;
    *) ;;
  esac
done
"#
    );
    std::fs::write(&path, text).expect("script written");
    path
}

fn program(script: &Path, keys: &str) -> PlayerConfig {
    format!("cmd=/bin/sh,args={},{keys}", script.display())
        .parse()
        .expect("valid specification")
}

fn play(config: &MatchConfig) -> Vec<GameRecord> {
    let mut records = Vec::new();
    let report = run_match(config, &mut |r, _| records.push(r.clone())).expect("match runs");
    assert_eq!(report.games() as usize, config.games, "{:?}", report.summary_lines());
    records.sort_by_key(|r| r.number);
    records
}

/// Runs `engine match` through the command line: two games of `variant` (a `-v` name) with
/// four random opening plies, at most `max_plies` plies, between the two `--engine`
/// specifications with `each` for both, the PGN written to `pgn`. Asserts that it succeeded
/// and returns what it printed.
fn cli_match(variant: &str, max_plies: u32, engines: [&str; 2], each: &str, pgn: &Path) -> String {
    let out = Command::new(ENGINE)
        .args(["match", "-v", variant, "-n", "2", "--max-plies"])
        .arg(max_plies.to_string())
        .args(["--random-plies", "4"])
        .args(["--engine", engines[0]])
        .args(["--engine", engines[1]])
        .args(["--each", each])
        .arg("--pgn")
        .arg(pgn)
        .output()
        .expect("engine match runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// Reads (and removes) the PGN file of a two-game match: its text and its games, which must be
/// two.
fn read_two_games(pgn: &Path) -> (String, Vec<PgnGame>) {
    let text = std::fs::read_to_string(pgn).expect("PGN written");
    let _ = std::fs::remove_file(pgn);
    let games = read_games(&text, Variant::Chess).expect("PGN reads back");
    assert_eq!(games.len(), 2, "{text}");
    (text, games)
}

/// The colour of the second configuration in a game.
fn second_colour(r: &GameRecord) -> Color {
    if r.first_is_white {
        Color::Black
    } else {
        Color::White
    }
}

#[test]
fn two_processes_of_this_engine_on_the_clock() {
    let pgn = temp("clock").with_extension("pgn");
    // A generous margin: the test machine may be busy with other tests.
    let stdout = cli_match(
        "princess",
        24,
        [
            &format!("cmd={ENGINE},name=one,option.Hash=4"),
            &format!("cmd={ENGINE},name=two,hash=4"),
        ],
        "tc=1+0.05,timemargin=2000",
        &pgn,
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with(&format!(
            "Match one (cmd={ENGINE},option.Hash=4,tc=1+0.05,timemargin=2000) vs two (cmd={ENGINE},option.Hash=4,tc=1+0.05,timemargin=2000), Persian Princess, 2 games"
        )),
        "{stdout}"
    );
    // The lines of today's matches.
    assert!(
        lines[1].starts_with("Game 1/2 [random #1] one (White) vs two (Black): "),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("Game 2/2 [random #1] two (White) vs one (Black): "),
        "{stdout}"
    );
    for prefix in [
        "Match one vs two (persian-princess): 2 of 2 games in ",
        "W/D/L: ",
        "Score: ",
        "Pairs: ",
        "Elo difference: ",
        "LOS: ",
        "White/draw/Black: ",
        "Terminations: ",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(prefix)), "no '{prefix}' in {stdout}");
    }
    assert!(!stdout.contains("WARNING"), "{stdout}");
    assert!(!stdout.contains("time forfeit"), "{stdout}");

    // The PGN reads back: every move legal, the clocks as %clk comments, the time control.
    let (text, games) = read_two_games(&pgn);
    for g in &games {
        assert_eq!(g.variant(), Variant::PersianPrincess);
        assert_eq!(g.tag("TimeControl"), Some("1+0.05"));
        assert_eq!(g.tag("OpeningPlies"), Some("4"));
        let mut replay = Game::new(g.start.clone());
        for &m in &g.moves {
            assert!(replay.position().legal_moves().contains(m));
            replay.play(m);
        }
        // One %clk per move after the opening.
        let clocks = text.matches("[%clk 0:00:").count();
        assert!(clocks >= g.moves.len() - 4, "{text}");
    }
    assert_eq!(games[0].moves[..4], games[1].moves[..4]);
}

#[test]
fn an_engine_that_plays_illegal_moves_loses_by_them() {
    // Garbage lines, an info line with a score, then a move that is not legal.
    let path = script(
        "illegal",
        r#"echo "what is this"; echo "info depth 1 score cp 30 pv x"; echo "bestmove a1a1""#,
    );
    let first: PlayerConfig = "name=inproc,depth=1,hash=1".parse().expect("valid");
    let mut config = MatchConfig::new(Variant::PersianPrincess, 2, first, program(&path, "name=bad,depth=1"));
    config.pgn = Some(temp("illegal").with_extension("pgn"));
    let records = play(&config);
    for r in &records {
        let by = second_colour(r);
        assert_eq!(
            r.termination,
            Termination::IllegalMove {
                by,
                text: "a1a1".into()
            }
        );
        assert_eq!(r.result, GameResult::win_for(!by));
        assert_eq!(r.pgn.tag("Termination"), Some("Rules infraction"));
    }
    let pgn = config.pgn.as_ref().expect("a PGN file");
    let text = std::fs::read_to_string(pgn).expect("PGN written");
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(&path);
    assert_eq!(read_games(&text, Variant::Chess).expect("reads back").len(), 2);
    assert!(text.contains("{illegal move a1a1 by black} 1-0"), "{text}");
}

/// The referee judges an engine's move as a move of the game: in Parsi Chess a third Nf7+ by
/// checks alone, legal in the bare position, loses by the perpetual-check ban.
#[test]
fn a_move_the_game_forbids_loses_by_it() {
    let path = script("perpetual", r#"echo "bestmove h6f7""#);
    let text = std::fs::read_to_string(&path).expect("script");
    std::fs::write(
        &path,
        text.replace("var persian-princess var egyptian-eye", "var parsi"),
    )
    .expect("script");
    let first: PlayerConfig = "name=inproc,depth=1,hash=1".parse().expect("valid");
    let mut config = MatchConfig::new(Variant::Parsi, 2, first, program(&path, "name=checker,depth=1"));
    // White's knight has given check from f7 and h6 twice: the next Nf7+ is the ban's.
    let line = "5b1k/4p1pp/4P3/6N1/8/8/8/K7 w - - 0 1 moves g5f7 h8g8 f7h6 g8h8 h6f7 h8g8 f7h6 g8h8";
    let opening = engine::play::openings::parse_openings(Variant::Parsi, line, "list").expect("a legal line");
    config.openings = engine::play::OpeningSource::List(opening);
    let records = play(&config);
    let _ = std::fs::remove_file(&path);
    for r in &records {
        let by = second_colour(r);
        // As White the program answers right after the opening; as Black after one move.
        let plies = if by == Color::White { 8 } else { 9 };
        assert_eq!(r.pgn.moves.len(), plies, "{}", r.pgn.to_pgn());
        assert_eq!(
            r.termination,
            Termination::IllegalMove {
                by,
                text: "h6f7".into()
            },
            "{}",
            r.pgn.to_pgn()
        );
        assert_eq!(r.result, GameResult::win_for(!by));
    }
    // As White the program's move is Nf7+ itself, which the bare position allows.
    let white = records
        .iter()
        .find(|r| second_colour(r) == Color::White)
        .expect("a game as White");
    let game = &white.pgn;
    let mut pos = game.start.clone();
    game.moves.iter().for_each(|&m| pos.play_unchecked(m));
    assert!(pos.parse_uci("h6f7").is_ok(), "legal in the bare position");
}

#[test]
fn an_engine_that_crashes_loses_and_is_started_again() {
    // It exits at its first `go` of each game: after the opening's moves, in the middle of the
    // game. The other side plays on a clock, in-process.
    let path = script("crash", r#"echo "info string about to fail"; exit 3"#);
    let first: PlayerConfig = "name=inproc,tc=5+0.1,hash=1".parse().expect("valid");
    let mut config = MatchConfig::new(
        Variant::PersianPrincess,
        4,
        first,
        program(&path, "name=crash,nodes=100"),
    );
    config.concurrency = 2;
    let mut records = Vec::new();
    let report = run_match(&config, &mut |r, _| records.push(r.clone())).expect("the match goes on");
    let _ = std::fs::remove_file(&path);
    assert_eq!(report.games(), 4);
    for r in &records {
        let by = second_colour(r);
        match &r.termination {
            Termination::EngineFailure { by: b, reason } => {
                assert_eq!(*b, by);
                assert_eq!(reason, "exited (exit status: 3)");
            }
            t => panic!("game {}: {t:?}", r.number),
        }
        assert_eq!(r.result, GameResult::win_for(!by));
        assert_eq!(r.pgn.tag("Termination"), Some("Abandoned"));
        assert_eq!(
            r.pgn.final_comment.as_deref(),
            Some(r.termination.description().as_str())
        );
    }
    // Two game slots, each started its program once and again before each later game (a slot
    // that happened to play three of the four games restarted it twice).
    assert_eq!(report.restarts[0], 0);
    assert!((2..=3).contains(&report.restarts[1]), "{:?}", report.restarts);
    assert_eq!(report.wdl.wins, 4);
    assert_eq!(report.faults.len(), 4);
    assert!(
        report
            .summary_lines()
            .iter()
            .any(|l| l == "Terminations: engine failure 4"),
        "{:?}",
        report.summary_lines()
    );
}

#[test]
fn an_engine_that_never_answers_loses_on_time_or_by_its_timeout() {
    let path = script("silent", ":");
    let first: PlayerConfig = "name=inproc,depth=1,hash=1".parse().expect("valid");
    // On the clock: a time forfeit once its time and margin are gone.
    let timed = program(&path, "name=silent,tc=0.2,timemargin=50");
    let records = play(&MatchConfig::new(Variant::EgyptianEye, 2, first.clone(), timed));
    for r in &records {
        assert_eq!(r.termination, Termination::TimeForfeit { by: second_colour(r) });
        assert_eq!(r.pgn.tag("Termination"), Some("Time forfeit"));
        // Its clock is not written for a move it never made; the other side's is.
        assert!(r
            .pgn
            .move_comments
            .iter()
            .all(|c| c.is_empty() || c.starts_with("[%clk")));
    }
    // Without a clock: the timeout ends its wait.
    let untimed = program(&path, "name=silent,nodes=1000,timeout=0.3");
    let records = play(&MatchConfig::new(Variant::EgyptianEye, 2, first, untimed));
    let _ = std::fs::remove_file(&path);
    for r in &records {
        assert_eq!(
            r.termination,
            Termination::EngineFailure {
                by: second_colour(r),
                reason: "no move within 0.3 s".into()
            }
        );
    }
}

#[test]
fn programs_that_cannot_play_the_variant_are_refused_before_the_match() {
    let path = script("variant", ":");
    let first: PlayerConfig = "depth=1".parse().expect("valid");
    let config = MatchConfig::new(Variant::Chess, 2, first.clone(), program(&path, "depth=1"));
    let e = run_match(&config, &mut |_, _| {}).expect_err("no chess");
    assert!(e.to_string().contains("its UCI_Variant does not offer chess"), "{e}");
    let missing: PlayerConfig = "cmd=/nonexistent/engine,depth=1".parse().expect("valid");
    let config = MatchConfig::new(Variant::PersianPrincess, 2, first, missing);
    let e = run_match(&config, &mut |_, _| {}).expect_err("no program");
    assert!(e.to_string().contains("cannot start it"), "{e}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn programs_are_named_by_their_id_name_and_unequal_clocks_are_tagged_per_side() {
    let pgn = temp("unequal").with_extension("pgn");
    let stdout = cli_match(
        "eye",
        12,
        [
            &format!("cmd={ENGINE},tc=2+0.05,option.Hash=4"),
            &format!("cmd={ENGINE},tc=1+0.1,option.Hash=4"),
        ],
        "timemargin=2000",
        &pgn,
    );
    // Both programs say `id name Persian Chess engine VERSION`: told apart as (1) and (2).
    let id = format!("Persian Chess engine {}", env!("CARGO_PKG_VERSION"));
    assert!(stdout.starts_with(&format!("Match {id} (cmd=")), "{stdout}");
    assert!(
        stdout.contains(&format!("Match {id} (1) vs {id} (2) (egyptian-eye): 2 of 2 games")),
        "{stdout}"
    );
    let (text, games) = read_two_games(&pgn);
    for (g, first_white) in games.iter().zip([true, false]) {
        assert_eq!(g.tag("TimeControl"), Some("?"), "{text}");
        let (w, b) = if first_white {
            ("2+0.05", "1+0.1")
        } else {
            ("1+0.1", "2+0.05")
        };
        assert_eq!(
            (g.tag("WhiteTimeControl"), g.tag("BlackTimeControl")),
            (Some(w), Some(b)),
            "{text}"
        );
    }
}

/// `engine match-merge --sprt` reads the games in order up to the first one missing, and says
/// how many games the files hold beyond that gap; without `--sprt` every game counts.
#[test]
fn match_merge_names_the_games_an_sprt_leaves_out() {
    let header = "# match results v1\tvariant=persian-princess\tfirst=a\tsecond=b\tgames=20\tstats=pentanomial\n";
    let lines = |range: std::ops::RangeInclusive<usize>| {
        range
            .map(|n| {
                format!(
                    "{n}\t{}\t1/2-1/2\t-\tdraw by threefold repetition\t-\n",
                    if n % 2 == 1 { "w" } else { "b" }
                )
            })
            .collect::<String>()
    };
    let first = temp("merge-a");
    let second = temp("merge-b");
    std::fs::write(&first, format!("{header}{}", lines(1..=4))).unwrap();
    std::fs::write(&second, format!("{header}{}", lines(9..=14))).unwrap();
    let merge = |extra: &[&str]| {
        let out = Command::new(ENGINE)
            .arg("match-merge")
            .args(extra)
            .arg(&first)
            .arg(&second)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let with_sprt = merge(&["--sprt", "0,10"]);
    assert!(with_sprt.contains(": 4 of 20 games from 2 file(s)"), "{with_sprt}");
    assert!(
        with_sprt.contains("Not counted: 6 game(s) after game 5 (missing)"),
        "{with_sprt}"
    );
    let without = merge(&[]);
    assert!(without.contains(": 10 of 20 games from 2 file(s)"), "{without}");
    assert!(!without.contains("Not counted"), "{without}");
    let _ = std::fs::remove_file(&first);
    let _ = std::fs::remove_file(&second);
}

/// `engine match --resume` goes on from the results file of an earlier run: a match of 4 games
/// taken to 8 reports what a match of 8 games reports, and plays only the last 4; without
/// `--results` the flag is refused.
#[test]
fn match_resume_goes_on_from_the_results_file() {
    let file = temp("resume-results");
    let _ = std::fs::remove_file(&file);
    let run = |games: &str, extra: &[&str]| {
        let out = Command::new(ENGINE)
            .args(["match", "-v", "persian-princess", "-n", games])
            .args(["--engine", "name=a,depth=2,hash=1,eval=hce"])
            .args(["--engine", "name=b,depth=1,hash=1,eval=hce"])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let results = file.display().to_string();
    let (ok, _, err) = run("4", &["--results", &results]);
    assert!(ok, "{err}");
    let (ok, resumed, err) = run("8", &["--results", &results, "--resume"]);
    assert!(ok, "{err}");
    assert!(resumed.contains("(4 of them played by an earlier run"), "{resumed}");
    // A line per game played by this run: games 5 to 8.
    assert_eq!(
        resumed.lines().filter(|l| l.starts_with("Game ")).count(),
        4,
        "{resumed}"
    );
    let (ok, whole, err) = run("8", &[]);
    assert!(ok, "{err}");
    let summary = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("W/D/L:") || l.starts_with("Pairs:") || l.starts_with("Elo difference:"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(summary(&resumed).len(), 3, "{resumed}");
    assert_eq!(
        summary(&resumed),
        summary(&whole),
        "resumed:\n{resumed}\nwhole:\n{whole}"
    );
    let (ok, _, err) = run("8", &["--resume"]);
    assert!(!ok && err.contains("--results"), "{err}");
    let _ = std::fs::remove_file(&file);
}
