//! `trainer selfplay` end to end: tiny runs of the real binary (few games, few nodes).

use crate::common::{shard_files, shard_pgn, succeeded, TempDir};
use std::{
    collections::HashSet,
    fs,
    path::Path,
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use engine::rules::{notation::pgn::read_games, Variant};
use nnue::data::{Record, RecordReader};

const BIN: &str = env!("CARGO_BIN_EXE_persian-trainer");

/// The tiny settings every test uses (fast: 150 nodes per move, short games).
fn selfplay_args(out: &Path, games: u64, seed: u64) -> Vec<String> {
    [
        "selfplay",
        "--variant",
        "persian-princess",
        "--net",
        "hce",
        "--nodes",
        "150",
        "--opening-check-nodes",
        "100",
        "--max-plies",
        "120",
        "--games-per-shard",
        "2",
        "--threads",
        "1",
        "--quiet",
        // The openings of the tests that are not about them: 8 random plies (the fast kind).
        "--engine-plies",
        "0",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        "--games".to_string(),
        games.to_string(),
        "--seed".to_string(),
        seed.to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ])
    .collect()
}

fn trainer(args: &[String]) -> Output {
    Command::new(BIN).args(args).output().expect("run trainer")
}

fn ok(args: &[String]) -> String {
    succeeded(&trainer(args), &format!("trainer {args:?}"))
}

fn records(dir: &Path) -> Vec<Record> {
    shard_files(dir, "bin")
        .iter()
        .flat_map(|f| {
            RecordReader::new(fs::File::open(f).expect("open"))
                .map(|r| r.expect("record"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Game ids of the PGN files, checking each game reads back.
fn pgn_game_ids(dir: &Path) -> Vec<u32> {
    let mut ids = Vec::new();
    for f in shard_files(dir, "pgn") {
        let text = fs::read_to_string(&f).expect("pgn");
        let games = read_games(&text, Variant::PersianPrincess).expect("the PGN reads back");
        for g in games {
            assert_eq!(g.variant(), Variant::PersianPrincess);
            assert!(["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()), "{}", g.result);
            assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
            assert!(g.tag("Opening").is_some());
            ids.push(g.tag("GameId").expect("GameId tag").parse().expect("id"));
        }
    }
    ids
}

fn no_leftovers(dir: &Path) {
    for f in fs::read_dir(dir).expect("list") {
        let name = f.expect("entry").file_name().to_string_lossy().to_string();
        assert!(!name.ends_with(".tmp"), "leftover {name}");
    }
    for bin in shard_files(dir, "bin") {
        assert!(bin.with_extension("pgn").exists() && bin.with_extension("json").exists());
    }
    for pgn in shard_files(dir, "pgn") {
        assert!(
            pgn.with_extension("bin").exists(),
            "{} without its records",
            pgn.display()
        );
    }
}

#[test]
fn a_tiny_run_writes_valid_shards_and_pgn() {
    let dir = TempDir::new("tiny");
    let out = ok(&selfplay_args(dir.path(), 5, 1));
    assert!(out.contains("5 games"), "{out}");
    assert!(out.contains("positions/s"), "{out}");
    // 5 games, 2 per shard: shards 0, 1 and 2 (one game).
    assert_eq!(shard_files(dir.path(), "bin").len(), 3);
    assert!(dir.path().join("run.json").exists());
    no_leftovers(dir.path());
    let validate = ok(&[
        "data".to_string(),
        "validate".to_string(),
        "--variant".to_string(),
        "persian-princess".to_string(),
        dir.path().display().to_string(),
    ]);
    assert!(validate.contains("no problem found"), "{validate}");
    let recs = records(dir.path());
    assert!(recs.len() > 20, "only {} records", recs.len());
    let mut ids = pgn_game_ids(dir.path());
    ids.sort_unstable();
    assert_eq!(ids, vec![0, 1, 2, 3, 4]);
    for r in &recs {
        assert!(r.game_id() < 5);
        assert_eq!(r.flags() & 0b110, 0, "in check or noisy best move written");
        assert!(r.ply() >= 8, "opening position written");
        assert_ne!(r.score(), nnue::data::NO_SCORE);
    }
    // Every game's positions carry its result (side to move's view): alternating sides of one
    // game see opposite results unless it was drawn.
    let g0: Vec<&Record> = recs.iter().filter(|r| r.game_id() == 0).collect();
    for w in g0.windows(2) {
        let flip = (w[0].flags() ^ w[1].flags()) & 1 == 1;
        if flip {
            assert_eq!(w[0].result_code(), 2 - w[1].result_code());
        } else {
            assert_eq!(w[0].result_code(), w[1].result_code());
        }
    }
    // The run is complete: asking again does nothing.
    let again = ok(&selfplay_args(dir.path(), 5, 1));
    assert!(again.contains("nothing to do"), "{again}");
}

#[test]
fn the_same_seed_gives_the_same_files() {
    let a = TempDir::new("det-a");
    let b = TempDir::new("det-b");
    let c = TempDir::new("det-c");
    ok(&selfplay_args(a.path(), 4, 7));
    ok(&selfplay_args(b.path(), 4, 7));
    let mut two_threads = selfplay_args(c.path(), 4, 7);
    let t = two_threads.iter().position(|s| s == "--threads").expect("threads");
    two_threads[t + 1] = "2".to_string();
    ok(&two_threads);
    for ext in ["bin", "pgn", "json"] {
        let fa = shard_files(a.path(), ext);
        assert_eq!(fa.len(), 2);
        for f in fa {
            let name = f.file_name().expect("name");
            let bytes = fs::read(&f).expect("read");
            assert_eq!(
                bytes,
                fs::read(b.path().join(name)).expect("read"),
                "{name:?} differs between runs"
            );
            assert_eq!(
                bytes,
                fs::read(c.path().join(name)).expect("read"),
                "{name:?} differs with 2 threads"
            );
        }
    }
    let d = TempDir::new("det-d");
    ok(&selfplay_args(d.path(), 4, 8));
    assert_ne!(records(a.path()), records(d.path()), "another seed, other games");
}

#[test]
fn a_crash_while_writing_then_resume_gives_the_uninterrupted_result() {
    let reference = TempDir::new("crash-ref");
    ok(&selfplay_args(reference.path(), 6, 3));

    let dir = TempDir::new("crash");
    let out = Command::new(BIN)
        .args(selfplay_args(dir.path(), 6, 3))
        .env("TRAINER_SELFPLAY_CRASH_AFTER", "1")
        .output()
        .expect("run");
    assert!(!out.status.success(), "the crash hook should abort the run");
    // Shard 0 is complete; shard 1 died half written: its records only as a .tmp file.
    assert!(dir.path().join("shard_000000.bin").exists());
    assert!(!dir.path().join("shard_000001.bin").exists());
    assert!(dir.path().join("shard_000001.bin.tmp").exists());
    let validate = ok(&[
        "data".to_string(),
        "validate".to_string(),
        dir.path().display().to_string(),
    ]);
    assert!(validate.contains("no problem found"), "{validate}");

    let resumed = ok(&selfplay_args(dir.path(), 6, 3));
    assert!(resumed.contains("4 games") || resumed.contains("6 games"), "{resumed}");
    no_leftovers(dir.path());
    for ext in ["bin", "pgn", "json"] {
        let got = shard_files(dir.path(), ext);
        assert_eq!(got.len(), 3);
        for f in got {
            let name = f.file_name().expect("name");
            assert_eq!(
                fs::read(&f).expect("read"),
                fs::read(reference.path().join(name)).expect("read"),
                "{name:?}: the resumed run differs from the uninterrupted one"
            );
        }
    }
}

#[test]
fn killed_and_resumed_runs_reach_the_total_without_duplicates() {
    let dir = TempDir::new("kill");
    let mut child = Command::new(BIN)
        .args(selfplay_args(dir.path(), 40, 5))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let first = dir.path().join("shard_000000.bin");
    let start = Instant::now();
    while !first.exists() && start.elapsed() < Duration::from_secs(60) {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert!(first.exists(), "no shard within a minute");
    let done_before = shard_files(dir.path(), "bin").len();
    assert!(done_before < 20, "the run finished before it was killed");
    no_leftovers_after_resume_of(dir.path(), 40);
    // Then more games on top of the same directory.
    no_leftovers_after_resume_of(dir.path(), 43);
}

fn no_leftovers_after_resume_of(dir: &Path, games: u64) {
    ok(&selfplay_args(dir, games, 5));
    no_leftovers(dir);
    let ids = pgn_game_ids(dir);
    assert_eq!(ids.len() as u64, games, "games in the directory");
    let unique: HashSet<u32> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "duplicate game ids");
    let record_ids: HashSet<u32> = records(dir).iter().map(Record::game_id).collect();
    assert!(record_ids.is_subset(&unique));
    let validate = ok(&["data".to_string(), "validate".to_string(), dir.display().to_string()]);
    assert!(validate.contains("no problem found"), "{validate}");
}

#[test]
fn resuming_with_other_settings_is_refused() {
    let dir = TempDir::new("settings");
    ok(&selfplay_args(dir.path(), 1, 1));
    let mut args = selfplay_args(dir.path(), 2, 1);
    let n = args.iter().position(|s| s == "--nodes").expect("nodes");
    args[n + 1] = "300".to_string();
    let out = trainer(&args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("other settings") && err.contains("nodes"), "{err}");
}

#[test]
fn opening_files_give_distinct_openings_or_a_clear_error() {
    let dir = TempDir::new("book");
    let book = dir.path().join("book.txt");
    // Two lines ending in the same position, one other.
    fs::write(&book, "# test book\ne3e4\nstartpos moves e3e4\nf3f4\n").expect("write");
    let out_dir = dir.path().join("out");
    let mut args = selfplay_args(&out_dir, 3, 1);
    args.extend(["--book".to_string(), book.display().to_string()]);
    let out = trainer(&args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 distinct positions") && err.contains("--random-plies"),
        "{err}"
    );
    args.extend(["--random-plies".to_string(), "2".to_string()]);
    ok(&args);
    let text = shard_pgn(&out_dir);
    assert!(text.contains("book.txt:2 + 2 random plies"), "{text}");
    let bad = dir.path().join("bad.txt");
    fs::write(&bad, "e3e4\nnonsense\n").expect("write");
    let mut args = selfplay_args(&dir.path().join("out2"), 1, 1);
    args.extend(["--book".to_string(), bad.display().to_string()]);
    let out = trainer(&args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt:2"), "{err}");
}

#[test]
fn rule_settings_are_played_recorded_and_part_of_the_run() {
    let dir = TempDir::new("rules");
    let with_rules = |games: u64, rules: &str| -> Vec<String> {
        let mut args = selfplay_args(dir.path(), games, 3);
        let v = args.iter().position(|s| s == "--variant").expect("variant");
        args[v + 1] = "parsi".to_string();
        args.extend(["--rules".to_string(), rules.to_string()]);
        args
    };
    let out = ok(&with_rules(2, "ludii"));
    assert!(out.contains("rules "), "the log names the rules: {out}");
    let settings = Variant::Parsi
        .tables_with("ludii")
        .expect("settings")
        .rules
        .settings()
        .to_string();
    assert!(!settings.is_empty());
    let run = fs::read_to_string(dir.path().join("run.json")).expect("run.json");
    assert!(run.contains(&format!("\"rules\": \"{settings}\"")), "{run}");
    // The PGN carries them, and the games read back as legal under them.
    let mut games = 0;
    for file in shard_files(dir.path(), "pgn") {
        let text = fs::read_to_string(&file).expect("pgn");
        assert!(text.contains(&format!("[VariantRules \"{settings}\"]")), "{text}");
        for g in read_games(&text, Variant::Parsi).expect("readable") {
            assert_eq!(g.start.tables().rules.settings(), settings);
            games += 1;
        }
    }
    assert_eq!(games, 2);
    // Other rules are other settings: no resumption.
    let refused = trainer(&with_rules(3, ""));
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("other settings") && err.contains("rules"), "{err}");
    // Unknown settings are refused with the known ones named.
    let bad = trainer(&with_rules(3, "nonsense"));
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--rules nonsense") && err.contains("nonsense"), "{err}");
}

#[test]
fn shards_played_apart_are_the_shards_of_one_run() {
    let whole = TempDir::new("shards-whole");
    let a = TempDir::new("shards-a");
    let b = TempDir::new("shards-b");
    ok(&selfplay_args(whole.path(), 5, 11));
    let part = |dir: &Path, shards: &str| {
        let mut args = selfplay_args(dir, 5, 11);
        args.extend(["--shards".to_string(), shards.to_string()]);
        args
    };
    let out = ok(&part(a.path(), "0,2"));
    assert!(out.contains("3 games"), "shards 0 (2 games) and 2 (1 game): {out}");
    ok(&part(b.path(), "1"));
    // Each shard file is the one the single run wrote, byte for byte, and so is run.json.
    for ext in ["bin", "pgn", "json"] {
        let all = shard_files(whole.path(), ext);
        assert_eq!(all.len(), 3, "{ext}");
        for f in all {
            let name = f.file_name().expect("name");
            let apart = [a.path().join(name), b.path().join(name)]
                .into_iter()
                .find(|p| p.exists())
                .unwrap_or_else(|| panic!("{name:?} played by neither part"));
            assert_eq!(fs::read(&f).expect("read"), fs::read(&apart).expect("read"), "{name:?}");
        }
    }
    // run.json holds the same settings (its creation time aside).
    let settings = |dir: &Path| -> serde_json::Value {
        let text = fs::read_to_string(dir.join("run.json")).expect("run.json");
        serde_json::from_str::<serde_json::Value>(&text).expect("json")["settings"].clone()
    };
    assert_eq!(settings(whole.path()), settings(a.path()));
    assert_eq!(settings(whole.path()), settings(b.path()));
    // Put together, the parts are a complete run that the same command finds done.
    for f in shard_files(b.path(), "bin")
        .into_iter()
        .chain(shard_files(b.path(), "pgn"))
        .chain(shard_files(b.path(), "json"))
    {
        fs::copy(&f, a.path().join(f.file_name().expect("name"))).expect("copied");
    }
    let done = ok(&selfplay_args(a.path(), 5, 11));
    assert!(done.contains("nothing to do"), "{done}");
    assert!(!b.path().join("shard_000000.bin").exists(), "b played only shard 1");
    // Asked again: nothing to do. A shard beyond the run is refused.
    let again = ok(&part(b.path(), "1"));
    assert!(
        again.contains("nothing to do") && again.contains("shard(s) 1"),
        "{again}"
    );
    let beyond = trainer(&part(b.path(), "3"));
    assert!(!beyond.status.success());
    let err = String::from_utf8_lossy(&beyond.stderr);
    assert!(err.contains("--shards 3") && err.contains("0 to 2"), "{err}");
    let junk = trainer(&part(b.path(), "2-1"));
    assert!(!junk.status.success());
}

/// `--engine-plies`: after the random plies the engine picks the next ones (MultiPV, softmax);
/// the games carry score comments for them, `OpeningPlies` counts only the random plies and
/// `EnginePlies` the engine's; the run is reproducible and resumes with the same settings only.
#[test]
fn engine_chosen_opening_plies() {
    let run = |dir: &Path, extra: &[&str]| {
        let mut args = without_engine_plies(selfplay_args(dir, 6, 5));
        args.extend(["--random-plies", "1", "--engine-ply-nodes", "300"].map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        ok(&args)
    };
    let a = TempDir::new("engine-plies-a");
    let b = TempDir::new("engine-plies-b");
    run(a.path(), &["--engine-plies", "4"]);
    // Two workers, each with its own opening generator (their searches shared): the same games.
    let mut two = with(
        without_engine_plies(selfplay_args(b.path(), 6, 5)),
        &[
            ("--threads", "2"),
            ("--random-plies", "1"),
            ("--engine-ply-nodes", "300"),
        ],
    );
    two.extend(["--engine-plies", "4"].map(String::from));
    ok(&two);
    let (ta, tb) = (shard_pgn(a.path()), shard_pgn(b.path()));
    assert_eq!(ta, tb, "the same seed gives the same games");
    let games = read_games(&ta, Variant::PersianPrincess).expect("the PGN reads back");
    assert_eq!(games.len(), 6);
    let mut first_engine_plies = HashSet::new();
    for g in &games {
        assert_eq!(g.tag("OpeningPlies"), Some("1"));
        assert_eq!(g.tag("EnginePlies"), Some("4"));
        assert!(g.tag("Opening").is_some_and(|o| o.ends_with("+ 4 engine plies")));
        first_engine_plies.insert(g.moves[1]);
    }
    // The first score comment follows the second ply, the first engine ply: the random ply
    // before it has none.
    for game in ta.split("[Event ").skip(1) {
        let moves = &game[game.find("\n\n").expect("movetext")..];
        let first_comment = moves.find('{').expect("a score comment");
        let before: Vec<&str> = moves[..first_comment].split_whitespace().collect();
        assert_eq!(
            before.len(),
            3,
            "one random ply, then the engine's with a comment: {moves}"
        );
    }
    // A directory made with engine plies refuses to resume without them.
    let mut args = selfplay_args(a.path(), 8, 5);
    args.extend(["--random-plies", "1", "--engine-ply-nodes", "300"].map(String::from));
    let out = trainer(&args);
    assert!(!out.status.success(), "resumed with other settings");
    // With --engine-plies 0 the openings are random plies only: no EnginePlies tag.
    let c = TempDir::new("engine-plies-c");
    run(c.path(), &["--engine-plies", "0"]);
    assert!(!shard_pgn(c.path()).contains("EnginePlies"));

    // The default: 3 random plies, then 12 engine plies.
    let d = TempDir::new("engine-plies-d");
    let mut args = without_engine_plies(selfplay_args(d.path(), 2, 5));
    args.extend(["--engine-ply-nodes", "100"].map(String::from));
    ok(&args);
    let games = read_games(&shard_pgn(d.path()), Variant::PersianPrincess).expect("the PGN reads back");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("OpeningPlies"), Some("3"));
        assert_eq!(g.tag("EnginePlies"), Some("12"));
    }
    // Parsi Chess's default is 5 random plies (its engine plies gather on fewer lines), Citadel
    // 9x8's, Celtic Citadel's and Egyptian Eye's 4 (with 3 their openings repeat about 1 % of a
    // million games or more, docs/training.md).
    for (name, variant, plies) in [
        ("parsi", Variant::Parsi, "5"),
        ("citadel-8", Variant::Citadel8, "4"),
        ("celtic-citadel", Variant::CelticCitadel, "4"),
        ("egyptian-eye", Variant::EgyptianEye, "4"),
    ] {
        let e = TempDir::new(&format!("engine-plies-{name}"));
        let mut args = without_engine_plies(selfplay_args(e.path(), 1, 5));
        let at = args.iter().position(|a| a == "persian-princess").expect("the variant");
        args[at] = name.to_string();
        args.extend(["--engine-ply-nodes", "100"].map(String::from));
        ok(&args);
        let games = read_games(&shard_pgn(e.path()), variant).expect("the PGN reads back");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("OpeningPlies"), Some(plies), "{name}");
        assert_eq!(games[0].tag("EnginePlies"), Some("12"), "{name}");
    }
}

/// The tests' settings less their `--engine-plies 0`.
fn without_engine_plies(args: Vec<String>) -> Vec<String> {
    let at = args
        .iter()
        .position(|a| a == "--engine-plies")
        .expect("set by selfplay_args");
    args.into_iter()
        .enumerate()
        .filter(|&(i, _)| i != at && i != at + 1)
        .map(|(_, a)| a)
        .collect()
}

/// `args` with option `name` set to `value` (replaced when there, else added).
fn with(mut args: Vec<String>, settings: &[(&str, &str)]) -> Vec<String> {
    for &(name, value) in settings {
        match args.iter().position(|a| a == name) {
            Some(i) => args[i + 1] = value.to_string(),
            None => args.extend([name.to_string(), value.to_string()]),
        }
    }
    args
}

/// One random ply, no opening check, short games.
const ONE_PLY: [(&str, &str); 3] = [
    ("--random-plies", "1"),
    ("--opening-check-nodes", "0"),
    ("--max-plies", "12"),
];

/// The opening hashes the shards of `dir` list, in game order.
fn opening_hashes(dir: &Path) -> Vec<String> {
    shard_files(dir, "json")
        .iter()
        .flat_map(|f| {
            let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(f).expect("json")).expect("json");
            v["opening_hashes"]
                .as_array()
                .expect("opening_hashes")
                .iter()
                .map(|h| h.as_str().expect("a string").to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Openings are not kept apart any more: each game's comes from the seed and its number. With
/// one random ply there are fewer positions than games, so openings repeat; each shard lists
/// its games' openings and the run reports the repeats over all shards.
#[test]
fn repeated_openings_are_counted_over_the_whole_run() {
    let dir = TempDir::new("repeats");
    let out = ok(&with(selfplay_args(dir.path(), 30, 4), &ONE_PLY));
    let hashes = opening_hashes(dir.path());
    assert_eq!(hashes.len(), 30);
    // Each listed hash is the one of the position after the game's opening ply.
    let text = shard_pgn(dir.path());
    let games = read_games(&text, Variant::PersianPrincess).expect("the PGN reads back");
    assert_eq!(games.len(), 30);
    for (g, h) in games.iter().zip(&hashes) {
        assert_eq!(g.tag("OpeningPlies"), Some("1"));
        let mut p = g.start.clone();
        p.play_unchecked(g.moves[0]);
        assert_eq!(&format!("{:016x}", p.hash()), h);
    }
    let distinct: HashSet<&String> = hashes.iter().collect();
    let repeats = 30 - distinct.len();
    assert!(repeats > 0, "one ply from the start: fewer positions than 30 games");
    let line = format!(
        "{} distinct of 30 games: {repeats} duplicate opening(s) ({:.2}%) over the whole run",
        distinct.len(),
        100.0 * repeats as f64 / 30.0
    );
    assert!(out.contains(&line), "expected `{line}` in:\n{out}");
    // The pairs of games with one opening project the repeats of a million games (an upper
    // bound; with one ply nearly every game of a long run repeats: capped at 100 %).
    let mut counts = std::collections::HashMap::new();
    hashes.iter().for_each(|h| *counts.entry(h).or_insert(0u64) += 1);
    let pairs: u64 = counts.values().map(|k| k * (k - 1) / 2).sum();
    let line = format!(
        "projected      at most 100.00% of a run of 1,000,000 games would repeat an earlier opening ({pairs} pair(s) \
         of games with the same opening among these 30;"
    );
    assert!(out.contains(&line), "expected `{line}` in:\n{out}");
    // The directory's count covers every shard, also after a resume that adds games.
    let out = ok(&with(selfplay_args(dir.path(), 34, 4), &ONE_PLY));
    let hashes = opening_hashes(dir.path());
    let distinct: HashSet<&String> = hashes.iter().collect();
    assert_eq!(hashes.len(), 34);
    assert!(
        out.contains(&format!(
            "{} distinct of 34 games: {} duplicate opening(s)",
            distinct.len(),
            34 - distinct.len()
        )),
        "{out}"
    );
    // --dry-run draws the same openings, plays and writes nothing.
    let dry_dir = dir.path().join("dry");
    let mut dry = with(selfplay_args(&dry_dir, 34, 4), &ONE_PLY);
    dry.push("--dry-run".to_string());
    let out = ok(&dry);
    assert!(
        out.contains(&format!(
            "{} distinct, {} repeat an earlier one",
            distinct.len(),
            34 - distinct.len()
        )),
        "{out}"
    );
    assert!(
        out.contains("projected      at most 100.00% of a run of 1,000,000 games"),
        "{out}"
    );
    assert!(!dry_dir.exists(), "a dry run writes nothing");
}

/// A shard far into a run is played without the games before it, and is the shard a run of
/// these settings plays there: its opening depends on the seed and the game's number alone.
#[test]
fn a_shard_far_into_a_run_needs_no_earlier_game() {
    let a = TempDir::new("far-a");
    let b = TempDir::new("far-b");
    let far = |dir: &Path, shards: &str| {
        let mut args = selfplay_args(dir, 200_002, 9);
        args.extend(["--shards".to_string(), shards.to_string()]);
        args
    };
    ok(&far(a.path(), "100000"));
    // The same shard next to another one, in a directory of its own: the same bytes.
    ok(&far(b.path(), "3,100000"));
    for ext in ["bin", "pgn", "json"] {
        let name = format!("shard_100000.{ext}");
        assert_eq!(
            fs::read(a.path().join(&name)).expect("read"),
            fs::read(b.path().join(&name)).expect("read"),
            "{name}"
        );
    }
    let mut ids = pgn_game_ids(a.path());
    ids.sort_unstable();
    assert_eq!(ids, [200_000, 200_001]);
}

/// A directory of a run begun before the openings were drawn per game (run.json without a
/// schema) is not continued: the error names the file and what to do. Complete, it is left
/// as it is.
#[test]
fn a_run_of_the_earlier_schema_is_refused() {
    let dir = TempDir::new("schema");
    ok(&selfplay_args(dir.path(), 2, 1));
    let path = dir.path().join("run.json");
    let mut run: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path).expect("run.json")).expect("json");
    assert_eq!(run["schema"], 2);
    run.as_object_mut().expect("object").remove("schema");
    fs::write(&path, serde_json::to_string_pretty(&run).expect("json")).expect("write");
    // Its shards had no opening hashes either.
    let shard = dir.path().join("shard_000000.json");
    let mut summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&shard).expect("json")).expect("json");
    summary.as_object_mut().expect("object").remove("opening_hashes");
    fs::write(&shard, serde_json::to_string_pretty(&summary).expect("json")).expect("write");
    // Complete, it has nothing to continue: the same command finds nothing to do (a pipeline
    // that runs every round's command again goes on), its openings not counted.
    let done = ok(&selfplay_args(dir.path(), 2, 1));
    assert!(
        done.contains("nothing to do") && done.contains("run openings   not counted: 2 of the 2 games"),
        "{done}"
    );
    // Asked for more games, it is refused.
    let out = trainer(&selfplay_args(dir.path(), 4, 1));
    assert!(!out.status.success(), "an old run was continued");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&path.display().to_string()) && err.contains("schema 1") && err.contains("another --out"),
        "{err}"
    );
    assert_eq!(shard_files(dir.path(), "bin").len(), 1, "nothing was played");
}
