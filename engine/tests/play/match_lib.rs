//! `engine match` through the library: tiny matches in every Persian variant finish, their
//! results add up, and the PGN they write reads back with every move legal.

use std::{
    path::PathBuf,
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
};

use engine::{
    play::random_openings,
    rules::{game::Game, notation::pgn::read_games, Variant},
    tournament::{
        play_game, run_match, Adjudication, GameResult, MatchConfig, OpeningSource, PlayerConfig, Sprt, Termination,
        Wdl,
    },
};

fn temp_pgn(tag: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("engine-match-test-{}-{tag}-{n}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn tiny_match_in_every_persian_variant() {
    for variant in Variant::PERSIAN {
        let first: PlayerConfig = "name=d1,depth=1,hash=1".parse().expect("valid");
        let second: PlayerConfig = "name=d2,depth=2,hash=1".parse().expect("valid");
        let pgn = temp_pgn(variant.id());
        let mut config = MatchConfig::new(variant, 2, first, second);
        config.concurrency = 2;
        config.pgn = Some(pgn.clone());
        let mut seen = Vec::new();
        let report = run_match(&config, &mut |record, tally| {
            seen.push((record.number, record.first_wdl(), record.result, tally));
        })
        .expect("match runs");

        // The results add up.
        assert_eq!(report.games(), 2, "{variant}");
        assert_eq!(report.wdl.games(), 2);
        assert_eq!(report.by_colour.games(), 2);
        assert_eq!(report.terminations.iter().map(|(_, n)| n).sum::<usize>(), 2);
        assert!(report.faults.is_empty(), "{:?}", report.faults);
        assert!(!report.stopped_early);
        assert_eq!(seen.len(), 2);
        let total = seen.iter().fold(Wdl::default(), |t, (_, g, _, _)| {
            Wdl::new(t.wins + g.wins, t.draws + g.draws, t.losses + g.losses)
        });
        assert_eq!(total, report.wdl);
        assert_eq!(seen.last().map(|s| s.3), Some(report.wdl));
        let mut numbers: Vec<usize> = seen.iter().map(|s| s.0).collect();
        numbers.sort_unstable();
        assert_eq!(numbers, vec![1, 2]);
        assert!(report.summary_lines().iter().any(|l| l.starts_with("W/D/L: ")));

        // The PGN reads back: two games, every move legal, results and tags consistent.
        let text = std::fs::read_to_string(&pgn).expect("PGN written");
        let _ = std::fs::remove_file(&pgn);
        let games = read_games(&text, Variant::Chess).expect("PGN reads back");
        assert_eq!(games.len(), 2, "{text}");
        let mut from_pgn = Wdl::default();
        for g in &games {
            assert_eq!(g.variant(), variant);
            assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
            assert_eq!(g.tag("OpeningPlies"), Some("8"));
            let mut replay = Game::new(g.start.clone());
            for &m in &g.moves {
                assert!(replay.position().legal_moves().contains(m));
                assert!(replay.outcome().is_none(), "move after the end of the game");
                replay.play(m);
            }
            // Games that end by the rules end in a final position that says so.
            if g.tag("Termination") == Some("Normal") {
                let o = replay.outcome().expect("a game over by the rules");
                assert_eq!(o.result(), g.result);
            }
            let first_white = g.tag("White") == Some("d1");
            match (g.result.as_str(), first_white) {
                ("1/2-1/2", _) => from_pgn.draws += 1,
                ("1-0", true) | ("0-1", false) => from_pgn.wins += 1,
                ("1-0", false) | ("0-1", true) => from_pgn.losses += 1,
                (r, _) => panic!("unexpected result {r}"),
            }
        }
        assert_eq!(from_pgn, report.wdl, "{variant}");
        // Each opening twice, colours swapped.
        assert_eq!(games[0].moves[..8], games[1].moves[..8]);
        assert_ne!(games[0].tag("White"), games[1].tag("White"));
    }
}

#[test]
fn colours_alternate_and_odd_counts_work() {
    let first: PlayerConfig = "depth=1,hash=1".parse().expect("valid");
    let mut config = MatchConfig::new(Variant::CelticCitadel, 3, first.clone(), first);
    config.adjudication.max_plies = 30;
    let mut records = Vec::new();
    let report = run_match(&config, &mut |r, _| records.push(r.clone())).expect("match runs");
    assert_eq!(report.games(), 3);
    // Same names get told apart.
    assert_eq!(report.first, "depth=1,hash=1 (1)");
    assert_eq!(report.second, "depth=1,hash=1 (2)");
    records.sort_by_key(|r| r.number);
    assert!(records[0].first_is_white && !records[1].first_is_white && records[2].first_is_white);
    assert_eq!(records[0].opening, records[1].opening);
    assert_ne!(records[1].opening, records[2].opening);
    for r in &records {
        assert!(r.pgn.moves.len() <= 30);
        if let Termination::MaxPlies(n) = r.termination {
            assert_eq!(n, 30);
            assert_eq!(r.result, GameResult::Draw);
        }
    }
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let strong: PlayerConfig = "name=strong,depth=3,hash=1".parse().expect("valid");
    let weak: PlayerConfig = "name=weak,depth=1,hash=1".parse().expect("valid");
    let mut config = MatchConfig::new(Variant::PersianPrincess, 200, strong, weak);
    config.concurrency = 2;
    config.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05).expect("valid"));
    config.adjudication.resign = Some(engine::tournament::ResignRule {
        score_cp: 700,
        plies: 4,
    });
    let report = run_match(&config, &mut |_, _| {}).expect("match runs");
    let (_, llr, verdict) = report.sprt.expect("SPRT ran");
    assert!(report.stopped_early, "{:?}", report.summary_lines());
    assert!(report.games() < 200);
    assert_eq!(verdict, engine::tournament::SprtVerdict::AcceptH1);
    assert!(llr >= 2.94);
}

#[test]
fn play_game_from_a_list_opening_and_stop_flag() {
    let v = Variant::OrientalOmega;
    let openings = random_openings(v, 1, 4, 9);
    let a: PlayerConfig = "depth=1,hash=1".parse().expect("valid");
    let b: PlayerConfig = "nodes=300,hash=1".parse().expect("valid");
    let (mut ea, mut eb) = (a.engine(), b.engine());
    let rules = Adjudication {
        max_plies: 24,
        ..Adjudication::default()
    };
    let stop = AtomicBool::new(false);
    let g = play_game((&mut ea, &a), (&mut eb, &b), &openings[0], &rules, &stop).expect("finished");
    assert!(g.moves.len() <= 24);
    assert_eq!(g.moves[..4], openings[0].moves[..]);
    // A raised stop flag abandons the game.
    stop.store(true, Ordering::Relaxed);
    assert!(play_game((&mut ea, &a), (&mut eb, &b), &openings[0], &rules, &stop).is_none());

    // FEN openings: the game starts there and the PGN has the FEN.
    let fen_opening =
        engine::play::openings::parse_openings(v, &openings[0].position().fen(), "list").expect("valid FEN");
    let mut config = MatchConfig::new(v, 2, a.clone(), b.clone());
    config.openings = OpeningSource::List(fen_opening);
    config.adjudication.max_plies = 20;
    let mut texts = Vec::new();
    run_match(&config, &mut |r, _| texts.push(r.pgn.to_pgn())).expect("match runs");
    assert_eq!(texts.len(), 2);
    for t in &texts {
        assert!(t.contains("[SetUp \"1\"]") && t.contains("[FEN \""), "{t}");
        let back = read_games(t, Variant::Chess).expect("reads back");
        assert_eq!(back[0].start, openings[0].position());
    }
}

/// Citadel counts game points (B.9): 3 a checkmate, 5 the Green Gem, 1 each a draw; the match
/// adds them up beside the usual score.
#[test]
fn citadel_matches_count_game_points() {
    for variant in [Variant::Citadel8, Variant::Citadel9] {
        let first: PlayerConfig = "name=d1,depth=1,hash=1".parse().expect("valid");
        let second: PlayerConfig = "name=d2,depth=2,hash=1".parse().expect("valid");
        let mut config = MatchConfig::new(variant, 4, first, second);
        config.concurrency = 2;
        let mut records = Vec::new();
        let report = run_match(&config, &mut |r, _| records.push(r.clone())).expect("match runs");
        assert_eq!(report.games(), 4, "{variant}");
        let (points, [a, b]) = report.game_points.expect("Citadel counts game points");
        assert_eq!((points.win, points.green_gem, points.draw), (3, 5, 1));
        let expected = records.iter().fold([0u64, 0], |[x, y], r| {
            let won = if r.termination.key() == "green-gem" { 5 } else { 3 };
            let g = r.first_wdl();
            match (g.wins, g.draws) {
                (1, _) => [x + won, y],
                (_, 1) => [x + 1, y + 1],
                _ => [x, y + won],
            }
        });
        assert_eq!([a, b], expected, "{variant}");
        assert!(
            report
                .summary_lines()
                .iter()
                .any(|l| l.starts_with("Game points (3 a win, 5 a Green Gem")),
            "{:?}",
            report.summary_lines()
        );
    }
    // Other variants count none.
    let first: PlayerConfig = "name=d1,depth=1,hash=1".parse().expect("valid");
    let second: PlayerConfig = "name=d1b,depth=1,hash=1".parse().expect("valid");
    let report = run_match(&MatchConfig::new(Variant::Chess, 2, first, second), &mut |_, _| {}).expect("runs");
    assert!(report.game_points.is_none());
}

/// A match played in parts (`--pairs`, `--results`), merged, gives the report of the whole match
/// played in one process: the same games, W/D/L, Elo, terminations, and with an SPRT the same
/// decision after the same number of games.
#[test]
fn parts_of_a_match_merge_into_the_whole() {
    use engine::tournament::merge_results;
    let config = |games: usize, pairs: Option<Vec<usize>>, results: &PathBuf, concurrency: usize| {
        let first: PlayerConfig = "name=strong,nodes=400,hash=1,eval=hce".parse().expect("valid");
        let second: PlayerConfig = "name=weak,depth=1,hash=1,eval=hce".parse().expect("valid");
        let mut c = MatchConfig::new(Variant::PersianPrincess, games, first, second);
        c.pairs = pairs;
        c.results = Some(results.clone());
        c.concurrency = concurrency;
        c
    };
    let read = |p: &PathBuf| (p.display().to_string(), std::fs::read_to_string(p).expect("results"));
    let whole = temp_pgn("whole");
    let report = run_match(&config(12, None, &whole, 1), &mut |_, _| {}).expect("match");
    // Three parts, out of order, one with two games at a time and one pair played twice.
    let parts = [temp_pgn("part-a"), temp_pgn("part-b"), temp_pgn("part-c")];
    run_match(&config(12, Some(vec![4, 5]), &parts[0], 2), &mut |_, _| {}).expect("part");
    run_match(&config(12, Some(vec![0, 1, 2]), &parts[1], 1), &mut |_, _| {}).expect("part");
    run_match(&config(12, Some(vec![3, 2]), &parts[2], 1), &mut |_, _| {}).expect("part");
    let files: Vec<(String, String)> = parts.iter().map(read).collect();
    let merged = merge_results(&files, None).expect("merge");
    assert_eq!(merged.games(), 12);
    assert_eq!(merged.summary_lines()[1..], report.summary_lines()[1..]);
    // The whole match's own results file merges to the same.
    let alone = merge_results(&[read(&whole)], None).expect("merge");
    assert_eq!(alone.summary_lines()[1..], report.summary_lines()[1..]);

    // With an SPRT: the one-process match (games finish in order with one at a time) and the
    // merged parts stop at the same game with the same verdict.
    let sprt = Sprt::parse("0,200", 0.05, 0.05).expect("bounds");
    let mut one = config(12, None, &temp_pgn("sprt"), 1);
    one.sprt = Some(sprt);
    let direct = run_match(&one, &mut |_, _| {}).expect("match");
    let merged = merge_results(&files, Some(sprt)).expect("merge");
    assert_eq!(merged.summary_lines()[1..], direct.summary_lines()[1..]);
    assert_eq!(merged.stopped_early, direct.stopped_early);
    // A missing part: the SPRT reads only up to the first missing game.
    let gap = merge_results(&[read(&parts[1]), read(&parts[0])], Some(sprt)).expect("merge");
    assert!(gap.games() <= 6, "{}", gap.games());

    // Parts of the match taken further (16 games, the same openings first) merge with the parts
    // of 12: the match of 16 games.
    let further = temp_pgn("further");
    run_match(&config(16, Some(vec![6, 7]), &further, 1), &mut |_, _| {}).expect("part");
    let whole16 = run_match(&config(16, None, &temp_pgn("whole16"), 1), &mut |_, _| {}).expect("match");
    let mut with_further = files.clone();
    with_further.push(read(&further));
    let merged = merge_results(&with_further, None).expect("merge");
    assert_eq!(merged.summary_lines()[1..], whole16.summary_lines()[1..]);
    // What cannot be merged is named.
    let other = temp_pgn("other");
    let mut another = config(12, Some(vec![0]), &other, 1);
    another.second.name = "other".into();
    run_match(&another, &mut |_, _| {}).expect("part");
    let e = merge_results(&[read(&parts[0]), read(&other)], None).expect_err("another match");
    assert!(e.to_string().contains("different matches"), "{e}");
    // (Part a played two games at a time: its lines come in the order the games ended, so the
    // first `w` colour may be on any line.)
    let (name, text) = read(&parts[0]);
    let line = 1 + text
        .lines()
        .position(|l| l.contains("\tw\t"))
        .expect("a game with White first");
    let broken = (name, text.replacen("\tw\t", "\tx\t", 1));
    let e = merge_results(&[broken], None).expect_err("bad line");
    assert!(
        e.to_string().contains(&format!(":{line}: colour 'x' is not w or b")),
        "{e}"
    );
    let (name, text) = read(&parts[1]);
    let changed = ["\t1-0\t", "\t0-1\t"]
        .iter()
        .find(|r| text.contains(*r))
        .map(|r| text.replacen(r, "\t1/2-1/2\t", 1))
        .expect("a decisive game");
    let e = merge_results(&[(name.clone(), text), (format!("{name}-again"), changed)], None)
        .expect_err("a game twice, different");
    assert!(e.to_string().contains("differs between"), "{e}");
    // Pairs beyond the match and an SPRT on a part are refused.
    let e = run_match(&config(12, Some(vec![6]), &temp_pgn("x"), 1), &mut |_, _| {}).expect_err("pair 6 of 6");
    assert!(e.to_string().contains("pair 6 is beyond the match's 6 pairs"), "{e}");
    let mut part_sprt = config(12, Some(vec![0]), &temp_pgn("y"), 1);
    part_sprt.sprt = Some(sprt);
    assert!(run_match(&part_sprt, &mut |_, _| {}).is_err());
}

/// A match resumed from the results file of an earlier run (`--resume`: cut short, or stopped at
/// a smaller number of games) counts those games and plays only the rest: the report is the one
/// the whole match gives, and with an SPRT it stops at the same game with the same verdict.
#[test]
fn a_resumed_match_gives_the_whole_match() {
    use engine::tournament::merge_results;
    let config = |games: usize, results: &PathBuf, resume: bool| {
        let first: PlayerConfig = "name=strong,nodes=400,hash=1,eval=hce".parse().expect("valid");
        let second: PlayerConfig = "name=weak,depth=1,hash=1,eval=hce".parse().expect("valid");
        let mut c = MatchConfig::new(Variant::PersianPrincess, games, first, second);
        c.results = Some(results.clone());
        c.resume = resume;
        c
    };
    let read = |p: &PathBuf| (p.display().to_string(), std::fs::read_to_string(p).expect("results"));
    let whole_file = temp_pgn("resume-whole");
    let whole = run_match(&config(12, &whole_file, false), &mut |_, _| {}).expect("match");
    assert_eq!(whole.resumed, 0);

    // Six games, then the same match resumed to twelve: six played by the second run.
    let file = temp_pgn("resume");
    run_match(&config(6, &file, false), &mut |_, _| {}).expect("first run");
    let mut played = 0;
    let resumed = run_match(&config(12, &file, true), &mut |_, _| played += 1).expect("resumed");
    assert_eq!((played, resumed.resumed, resumed.games()), (6, 6, 12));
    assert_eq!(resumed.summary_lines()[1..], whole.summary_lines()[1..]);
    assert!(
        resumed.summary_lines()[0].contains("6 of them played by an earlier run"),
        "{:?}",
        resumed.summary_lines()
    );
    // Its file is the whole match's: the header for 12 games, every game once.
    let (_, text) = read(&file);
    assert!(
        text.lines().next().is_some_and(|h| h.contains("\tgames=12\t")),
        "{text}"
    );
    assert_eq!(text.lines().count(), 13, "{text}");
    let merged = merge_results(&[read(&file)], None).expect("merge");
    assert_eq!(merged.summary_lines()[1..], whole.summary_lines()[1..]);
    // Resumed again with nothing left: no game played, the same report.
    let mut played = 0;
    let again = run_match(&config(12, &file, true), &mut |_, _| played += 1).expect("nothing left");
    assert_eq!((played, again.resumed), (0, 12));
    assert_eq!(again.summary_lines()[1..], whole.summary_lines()[1..]);

    // A run killed while writing a line: that line is dropped and its game played again.
    let cut = temp_pgn("resume-cut");
    run_match(&config(4, &cut, false), &mut |_, _| {}).expect("first run");
    let (_, text) = read(&cut);
    let keep = text.trim_end().rfind('\t').expect("a tab");
    std::fs::write(&cut, &text[..keep]).expect("cut the last line");
    let mut played = 0;
    let resumed = run_match(&config(12, &cut, true), &mut |_, _| played += 1).expect("resumed");
    assert_eq!((played, resumed.resumed), (9, 3));
    assert_eq!(resumed.summary_lines()[1..], whole.summary_lines()[1..]);

    // With an SPRT: one pair first, then resumed under the test, it stops where the match
    // played in one run stops (one game at a time: games end in order).
    let sprt = Sprt::parse("0,200", 0.05, 0.05).expect("bounds");
    let mut one = config(12, &temp_pgn("resume-sprt-direct"), false);
    one.sprt = Some(sprt);
    let direct = run_match(&one, &mut |_, _| {}).expect("match");
    let split = temp_pgn("resume-sprt");
    run_match(&config(2, &split, false), &mut |_, _| {}).expect("first pair");
    let mut rest = config(12, &split, true);
    rest.sprt = Some(sprt);
    let resumed = run_match(&rest, &mut |_, _| {}).expect("resumed");
    assert_eq!(resumed.summary_lines()[1..], direct.summary_lines()[1..]);
    assert_eq!(resumed.stopped_early, direct.stopped_early);

    // What cannot be resumed is named, and the file is left as it was.
    let (_, before) = read(&file);
    let e = run_match(&config(10, &file, true), &mut |_, _| {}).expect_err("fewer games");
    assert!(
        e.to_string()
            .contains("game 11 was played, and the match is set to 10 games"),
        "{e}"
    );
    let mut other = config(12, &file, true);
    other.first.name = "another".into();
    let e = run_match(&other, &mut |_, _| {}).expect_err("another match");
    assert!(e.to_string().contains("not of this match"), "{e}");
    assert_eq!(read(&file).1, before);
    let mut no_file = config(12, &file, true);
    no_file.results = None;
    let e = run_match(&no_file, &mut |_, _| {}).expect_err("no results file");
    assert!(e.to_string().contains("needs its results file"), "{e}");
    let mut in_pairs = config(12, &file, true);
    in_pairs.pairs = Some(vec![0]);
    let e = run_match(&in_pairs, &mut |_, _| {}).expect_err("pairs");
    assert!(e.to_string().contains("resumes whole, not in pairs"), "{e}");
    // No file yet: the match starts from its first game.
    let fresh = temp_pgn("resume-fresh");
    let report = run_match(&config(12, &fresh, true), &mut |_, _| {}).expect("from the start");
    assert_eq!(report.summary_lines()[1..], whole.summary_lines()[1..]);
}

/// A `%clk` comment's reading in milliseconds (`[%clk 0:01:02.3]` is 62,300).
fn clk_ms(comment: &str) -> Option<i64> {
    let text = comment.strip_prefix("[%clk ")?.strip_suffix(']')?;
    let mut parts = text.split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let (s, tenths) = parts.next()?.split_once('.')?;
    let (s, tenths): (i64, i64) = (s.parse().ok()?, tenths.parse().ok()?);
    Some(((h * 60 + m) * 60 + s) * 1000 + tenths * 100)
}

#[test]
fn in_process_sides_on_a_clock_with_periods_and_on_a_time_per_move() {
    // One side has 0.5 s for every 3 moves (the search sees the moves to go), the other 200 ms
    // a move; the margins are wide so that a busy machine loses no game on time.
    let period: PlayerConfig = "name=period,tc=3/0.5,timemargin=5000,hash=1".parse().expect("valid");
    let fixed: PlayerConfig = "name=fixed,movetime=200,timemargin=5000,hash=1".parse().expect("valid");
    let pgn = temp_pgn("periods");
    let mut config = MatchConfig::new(Variant::PersianPrincess, 2, period, fixed);
    config.adjudication.max_plies = 24;
    config.openings = OpeningSource::Random { plies: 4, seed: 5 };
    config.pgn = Some(pgn.clone());
    let mut records = Vec::new();
    let report = run_match(&config, &mut |r, _| records.push(r.clone())).expect("match runs");
    assert_eq!(report.games(), 2);
    assert!(report.faults.is_empty(), "{:?}", report.faults);

    for r in &records {
        assert!(
            !matches!(r.termination, Termination::TimeForfeit { .. }),
            "{:?}",
            r.termination
        );
        // Each side's clock after each of its moves, in order.
        let period_white = r.first_is_white;
        let mut period_clocks = Vec::new();
        let mut fixed_clocks = Vec::new();
        for (ply, comment) in r.pgn.move_comments.iter().enumerate().skip(4) {
            let ms = clk_ms(comment).unwrap_or_else(|| panic!("ply {ply}: '{comment}'"));
            if (ply % 2 == 0) == period_white {
                period_clocks.push(ms);
            } else {
                fixed_clocks.push(ms);
            }
        }
        assert!(period_clocks.len() >= 3, "{:?}", r.pgn.move_comments);
        // The period's time is added after its third move: the clock then shows at least it.
        for (i, &ms) in period_clocks.iter().enumerate() {
            assert!(ms >= 0, "{period_clocks:?}");
            if i % 3 == 2 {
                assert!(ms >= 500, "move {}: {period_clocks:?}", i + 1);
            }
        }
        // A time per move is given again for every move.
        assert!(fixed_clocks.iter().all(|&ms| ms == 200), "{fixed_clocks:?}");
    }

    // The PGN reads back; the sides' clocks differ, so the time control is "?" with one tag per
    // side (docs/match.md).
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);
    let games = read_games(&text, Variant::Chess).expect("PGN reads back");
    assert_eq!(games.len(), 2, "{text}");
    for g in &games {
        assert_eq!(g.tag("TimeControl"), Some("?"));
        assert!(g.tag("WhiteTimeControl").is_some() && g.tag("BlackTimeControl").is_some());
        let mut replay = Game::new(g.start.clone());
        for &m in &g.moves {
            assert!(replay.position().legal_moves().contains(m));
            replay.play(m);
        }
    }
}
