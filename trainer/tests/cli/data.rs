//! `trainer data`: convert round trip, shuffle, validate and stats on records made here from
//! random games of every variant.

use crate::common::TempDir;
use std::{
    collections::HashMap,
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use engine::{
    eval::nnue::{layout, training_position},
    play::openings::seeded_rng,
    rules::{game::Game, Variant},
};
use nnue::{
    data::{GameResult, Record, RecordReader, TrainingPosition},
    Color, PlacedPiece,
};

const BIN: &str = env!("CARGO_BIN_EXE_persian-trainer");

fn trainer(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run trainer")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(args: &[&str]) -> String {
    let out = trainer(args);
    assert!(out.status.success(), "trainer {args:?} failed:\n{}", text(&out));
    text(&out)
}

fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Records from random games of every variant: every position of each game, scores and
/// results of every kind, every sort of best move (captures, promotions, castling ...).
fn sample_records(games_per_variant: u32) -> Vec<Record> {
    let mut rng = seeded_rng(99);
    let mut out = Vec::new();
    let mut game_id = 0;
    for v in Variant::ALL {
        let l = layout(v);
        for _ in 0..games_per_variant {
            let mut game = Game::new(engine::rules::Position::startpos(v));
            let result = [GameResult::Loss, GameResult::Draw, GameResult::Win][rng.below(3)];
            for ply in 0..60u16 {
                if game.outcome().is_some() {
                    break;
                }
                let moves = game.position().legal_moves();
                let m = moves.as_slice()[rng.below(moves.len())];
                let score = match rng.below(5) {
                    0 => None,
                    _ => Some(rng.below(4001) as i16 - 2000),
                };
                let tp = training_position(game.position(), score, result, m, ply, game_id);
                out.push(Record::encode(&tp, &l).expect("encodes"));
                game.play(m);
            }
            game_id += 1;
        }
    }
    out
}

fn write_records(path: &Path, records: &[Record]) {
    let bytes: Vec<u8> = records.iter().flat_map(|r| r.as_bytes().to_vec()).collect();
    fs::write(path, bytes).expect("write records");
}

fn read_records(path: &Path) -> Vec<Record> {
    RecordReader::new(fs::File::open(path).expect("open"))
        .map(|r| r.expect("record"))
        .collect()
}

#[test]
fn convert_round_trip_is_exact() {
    let dir = TempDir::new("convert");
    let records = sample_records(3);
    let bin = dir.join("a.bin");
    write_records(&bin, &records);
    let txt = dir.join("a.txt");
    ok(&["data", "convert", p(&bin), "-o", p(&txt)]);
    let lines = fs::read_to_string(&txt).expect("text");
    assert_eq!(lines.lines().count(), records.len());
    let first = lines.lines().next().expect("a line");
    assert!(
        first.contains(" | ") && first.contains("variant=celtic-citadel ply=0 game=0"),
        "{first}"
    );
    let back = dir.join("b.bin");
    ok(&["data", "convert", p(&txt), "-o", p(&back)]);
    assert_eq!(read_records(&back), records, "bin -> text -> bin changed records");

    // The minimal form keeps board, side, score and result.
    let minimal = dir.join("m.txt");
    ok(&[
        "data",
        "convert",
        p(&bin),
        "--minimal",
        "-o",
        p(&minimal),
        "--to",
        "text",
    ]);
    let minimal_text = fs::read_to_string(&minimal).expect("text");
    assert_eq!(minimal_text.lines().count(), records.len());
    assert!(
        minimal_text.lines().all(|l| l.matches('|').count() == 2),
        "{minimal_text}"
    );
    // Text with an error names the line.
    let bad = dir.join("bad.txt");
    fs::write(
        &bad,
        format!(
            "# comment\n{}\nnot a fen | 0 | 1.0\n",
            lines.lines().nth(40).expect("line")
        ),
    )
    .expect("write");
    let out = trainer(&["data", "convert", p(&bad), "-o", p(&dir.join("bad.bin"))]);
    assert!(!out.status.success());
    assert!(text(&out).contains("bad.txt:3"), "{}", text(&out));
    assert!(!dir.join("bad.bin").exists(), "a failed conversion leaves no output");
}

#[test]
fn shuffle_keeps_every_record_and_follows_the_seed() {
    let dir = TempDir::new("shuffle");
    let records = sample_records(2);
    let (a, b) = records.split_at(records.len() / 3);
    write_records(&dir.join("in1.bin"), a);
    write_records(&dir.join("in2.bin"), b);
    let run = |out: &str, seed: &str| -> Vec<Record> {
        let out_dir = dir.join(out);
        ok(&[
            "data",
            "shuffle",
            p(&dir.join("in1.bin")),
            p(&dir.join("in2.bin")),
            "--out",
            p(&out_dir),
            "--records-per-shard",
            "100",
            "--seed",
            seed,
        ]);
        let mut files: Vec<PathBuf> = fs::read_dir(&out_dir)
            .expect("list")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        assert_eq!(files.len(), records.len().div_ceil(100));
        assert!(files.iter().all(|f| fs::metadata(f).expect("meta").len() <= 6400));
        files.iter().flat_map(|f| read_records(f)).collect()
    };
    let s1 = run("s1", "5");
    let s2 = run("s2", "5");
    let s3 = run("s3", "6");
    assert_eq!(s1, s2, "same seed, same order");
    assert_ne!(s1, s3, "another seed, another order");
    assert_ne!(s1, records, "shuffled");
    let count = |v: &[Record]| {
        let mut m: HashMap<[u8; 64], usize> = HashMap::new();
        v.iter().for_each(|r| *m.entry(r.0).or_default() += 1);
        m
    };
    assert_eq!(count(&s1), count(&records), "the multiset of records changed");
    // An existing output is not overwritten without --force.
    let out = trainer(&["data", "shuffle", p(&dir.join("in1.bin")), "--out", p(&dir.join("s1"))]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--force"), "{}", text(&out));
}

#[test]
fn validate_reports_each_kind_of_problem() {
    let dir = TempDir::new("validate");
    let good = sample_records(1);
    let good_file = dir.join("good.bin");
    write_records(&good_file, &good);
    let out = ok(&["data", "validate", p(&good_file)]);
    assert!(out.contains("no problem found"), "{out}");

    let v = Variant::PersianPrincess;
    let l = layout(v);
    let base = good
        .iter()
        .find(|r| r.variant_code() == v.code())
        .copied()
        .expect("a persian record");
    let tp = base.decode(&l).expect("decodes");
    let mut bad = Vec::new();
    // 0: bad version bytes.
    let mut r = base;
    r.0[62] = 9;
    bad.push(r);
    // 1: no white king.
    let king = engine::rules::PieceKind::King.index() as u8;
    let mut t = tp.clone();
    t.pieces.retain(|pc| !(pc.kind == king && pc.color == Color::White));
    bad.push(Record::encode(&t, &l).expect("encodes"));
    // 2: the in-check flag does not match.
    let mut t = tp.clone();
    t.in_check = !t.in_check;
    bad.push(Record::encode(&t, &l).expect("encodes"));
    // 3: a piece on a cell the All-Seeing Eye blocks: valid for Persian Princess, not for
    // Egyptian Eye (same board), so re-label the record as Egyptian Eye with a piece on f6.
    let e = Variant::EgyptianEye;
    let mut t: TrainingPosition = tp.clone();
    t.variant_code = e.code();
    let f6 = e.spec().geometry.square(5, 5).expect("f6").0;
    t.pieces.retain(|pc| pc.cell != f6);
    t.pieces.push(PlacedPiece::new(
        Color::White,
        engine::rules::PieceKind::Knight.index() as u8,
        f6,
    ));
    t.best_move = 0;
    bad.push(Record::encode(&t, &layout(e)).expect("encodes"));
    // 4: unknown variant code.
    let mut r = base;
    r.0[52] = 77;
    bad.push(r);
    // 5: the side not to move in check: a position with the side to move in check, turned
    // over to the other side.
    let checked = good
        .iter()
        .find(|r| r.variant_code() == v.code() && r.flags() & nnue::data::FLAG_IN_CHECK != 0)
        .expect("a persian record in check");
    let mut t = checked.decode(&l).expect("decodes");
    t.stm = t.stm.opponent();
    t.in_check = false;
    t.best_move = 0;
    bad.push(Record::encode(&t, &l).expect("encodes"));
    let bad_file = dir.join("bad.bin");
    let mut all = vec![good[0]];
    all.extend(&bad);
    write_records(&bad_file, &all);
    let out = trainer(&["data", "validate", p(&bad_file)]);
    assert!(!out.status.success(), "problems must fail the command");
    let report = text(&out);
    for (i, what) in [
        "version",
        "kings",
        "in-check flag",
        "f6",
        "unknown variant code",
        "side not to move",
    ]
    .iter()
    .enumerate()
    {
        let line = report
            .lines()
            .find(|l| l.contains(&format!("record {} ", i + 1)))
            .unwrap_or_else(|| panic!("record {} not reported:\n{report}", i + 1));
        assert!(line.contains("bad.bin") && line.contains(what), "{line}");
    }
    assert!(!report.contains("record 0 "), "the good record was reported:\n{report}");

    // Wrong variant for --variant.
    let out = trainer(&["data", "validate", "--variant", "chess", p(&good_file)]);
    assert!(!out.status.success());
    assert!(text(&out).contains("expected chess"), "{}", text(&out));

    // A truncated file.
    let cut = dir.join("cut.bin");
    let mut bytes = fs::read(&good_file).expect("read");
    bytes.truncate(64 * 3 + 10);
    fs::write(&cut, bytes).expect("write");
    let out = trainer(&["data", "validate", p(&cut)]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("partial record") && text(&out).contains("cut.bin"),
        "{}",
        text(&out)
    );
}

#[test]
fn stats_counts_and_histograms() {
    let dir = TempDir::new("stats");
    let records = sample_records(1);
    let f = dir.join("s.bin");
    write_records(&f, &records);
    let out = ok(&["data", "stats", p(dir.path())]);
    assert!(
        out.contains(&format!("{} record(s) in 1 file(s)", records.len())),
        "{out}"
    );
    for v in Variant::ALL {
        assert!(out.contains(v.id()), "{out}");
    }
    for section in [
        "results (side to move's view)",
        "scores (centipawns",
        "plies",
        "pieces on the board",
    ] {
        assert!(out.contains(section), "{section} missing:\n{out}");
    }
    assert!(out.contains("without score"), "{out}");
}
