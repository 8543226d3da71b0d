//! `trainer openings` on a fixed corpus (`tests/golden/openings/corpus`): the tree and the lines
//! equal the golden files, the report holds the lines, the book holds the tree's moves and the
//! engine plays them over UCI; damaged books are refused.
//!
//! The golden files are `tests/golden/openings/expected/{tree.json,lines.csv}`. After a deliberate
//! change of the outputs, regenerate them with
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test -p trainer --test cli openings::
//! ```
//!
//! and review the diff. The corpus itself (`selfplay.pgn`) was generated once by the ignored test
//! `generate_corpus` (`cargo test -p trainer --test cli -- --ignored generate_corpus`);
//! `misc.pgn` is written by hand (comment formats, variations, other variants, a set-up position,
//! unfinished and broken games).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::Command,
    sync::{Arc, Mutex},
};

use engine::{
    book::{Book, BookRng, FormatError},
    engine::Engine,
    rules::{game::Game, Color, Position, Variant},
    search::{Limits, Score},
    uci::session::{Output, Session},
};
use serde_json::Value;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/openings")
}

fn corpus() -> PathBuf {
    golden_dir().join("corpus")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("trainer-openings-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `trainer openings` with `args`; returns (success, stdout, stderr).
fn trainer(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .arg("openings")
        .args(args)
        .output()
        .expect("runs trainer");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the golden configuration into a fresh folder.
fn golden_run(name: &str) -> PathBuf {
    let out = temp_dir(name);
    let corpus = corpus();
    let (ok, stdout, stderr) = trainer(&[
        "--variant",
        "persian-princess",
        "--out",
        out.to_str().unwrap(),
        "--book-min-games",
        "3",
        corpus.to_str().unwrap(),
    ]);
    assert!(ok, "trainer failed:\n{stdout}\n{stderr}");
    out
}

fn check_golden(actual: &Path, name: &str) {
    let expected = golden_dir().join("expected").join(name);
    let text = std::fs::read_to_string(actual).unwrap();
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(expected.parent().unwrap()).unwrap();
        std::fs::write(&expected, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&expected)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", expected.display()));
    if text != want {
        let line = text
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .map_or(text.lines().count().min(want.lines().count()), |i| i);
        panic!(
            "{name} differs from {} from line {}:\n  got:      {:?}\n  expected: {:?}\n\
             (if the change is intended: UPDATE_GOLDEN=1 cargo test -p trainer --test cli openings::)",
            expected.display(),
            line + 1,
            text.lines().nth(line),
            want.lines().nth(line)
        );
    }
}

#[test]
fn tree_and_lines_match_the_golden_files() {
    let out = golden_run("golden");
    check_golden(&out.join("tree.json"), "tree.json");
    check_golden(&out.join("lines.csv"), "lines.csv");
}

#[test]
fn counts_are_consistent() {
    let out = golden_run("counts");
    let tree: Value = serde_json::from_str(&std::fs::read_to_string(out.join("tree.json")).unwrap()).unwrap();
    let games = &tree["games"];
    let n = |k: &str| games[k].as_u64().unwrap();
    // selfplay.pgn: 30 games; misc.pgn: see the file.
    assert_eq!(n("read"), 39);
    assert_eq!(n("other_variant"), 1, "{games}");
    assert_eq!(n("set_up_skipped"), 1, "{games}");
    assert_eq!(n("unreadable"), 2, "{games}");
    assert_eq!(n("no_variant_tag"), 0, "{games}");
    assert_eq!(n("used"), 35, "{games}");
    assert_eq!(n("unfinished"), 1, "{games}");
    assert_eq!(n("with_eval"), 23, "{games}");
    assert_eq!(tree["variant"], "persian-princess");
    assert_eq!(tree["plies"], 8);
    let roots = tree["roots"].as_array().unwrap();
    assert_eq!(roots.len(), 1);
    assert_eq!(roots[0]["start"], "startpos");
    assert_eq!(roots[0]["games"], 35);
    // Every node: children's games add up to at most the parent's; W+D+B+unfinished = games.
    fn check(node: &Value) {
        let g = node["games"].as_u64().unwrap();
        let parts: u64 = ["white_wins", "draws", "black_wins", "unfinished"]
            .iter()
            .map(|k| node[*k].as_u64().unwrap())
            .sum();
        assert_eq!(parts, g, "{node}");
        let children = node["children"].as_array().unwrap();
        assert!(children.iter().map(|c| c["games"].as_u64().unwrap()).sum::<u64>() <= g);
        children.iter().for_each(check);
    }
    check(&roots[0]);
    // The lines: one row per node, the root included.
    let csv = std::fs::read_to_string(out.join("lines.csv")).unwrap();
    fn count(node: &Value) -> usize {
        1 + node["children"].as_array().unwrap().iter().map(count).sum::<usize>()
    }
    assert_eq!(csv.lines().count(), 1 + count(&roots[0]));
}

#[test]
fn the_report_holds_the_lines() {
    let out = golden_run("report");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let csv = std::fs::read_to_string(out.join("lines.csv")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Self-contained: no external resource.
    for outside in ["<link", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(outside), "{outside}");
    }
    assert!(html.contains("<script>") && html.contains("<style>"));
    // One table row per line (fewer than --report-lines).
    assert_eq!(html.matches("<tr class=\"line-row\">").count(), csv.lines().count() - 1);
    // The most played first move is in the table, the chart and a diagram.
    let first = csv.lines().nth(2).unwrap();
    let cols: Vec<&str> = first.split(',').collect();
    assert_eq!(cols[1], "1");
    let (uci, san, games) = (cols[2], cols[3], cols[4]);
    assert!(html.contains(&format!(
        "<td class=\"san\">{san}</td><td class=\"uci\">{uci}</td><td class=\"num\">{games}</td>"
    )));
    assert!(html.contains(&format!("{games} games, score")));
    assert_eq!(html.matches("<svg").count(), 1 + 6.min(count_first_moves(&csv)));
    // Boards: 85 squares each, four citadels.
    assert!(html.contains("(citadel)</title>"));
    assert!(html.contains("Opening statistics: Persian Princess"));
}

fn count_first_moves(csv: &str) -> usize {
    csv.lines().filter(|l| l.split(',').nth(1) == Some("1")).count()
}

/// The book of the golden run: for every position of the tree, the moves with at least 3 games.
#[test]
fn the_book_holds_the_trees_moves() {
    let out = golden_run("book");
    let book = Book::load(out.join("book.bin"), Variant::PersianPrincess).unwrap();
    assert_eq!(book.plies(), 8);
    assert_eq!(book.min_games(), 3);
    assert_eq!(book.source_games(), 35);
    let tree: Value = serde_json::from_str(&std::fs::read_to_string(out.join("tree.json")).unwrap()).unwrap();
    let root = &tree["roots"][0];
    let start = Position::startpos(Variant::PersianPrincess);
    // At the start position (no transposition possible) the book equals the tree's first moves.
    let mut expected: Vec<(String, u64, u64, u64, u64)> = root["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["games"].as_u64().unwrap() >= 3)
        .map(|c| {
            let n = |k: &str| c[k].as_u64().unwrap();
            (
                c["uci"].as_str().unwrap().to_string(),
                n("games"),
                n("white_wins"),
                n("draws"),
                n("black_wins"),
            )
        })
        .collect();
    expected.sort();
    let mut got: Vec<(String, u64, u64, u64, u64)> = book
        .moves(&start)
        .iter()
        .map(|m| {
            let e = m.entry;
            (
                start.uci(m.mv),
                e.games as u64,
                e.white_wins as u64,
                e.draws as u64,
                e.black_wins as u64,
            )
        })
        .collect();
    got.sort();
    assert!(!expected.is_empty());
    assert_eq!(got, expected);
    // Every entry of the book is a legal move of a position of the tree.
    let mut positions = 0;
    fn walk(node: &Value, pos: &Position, book: &Book, positions: &mut usize) {
        if !book.entries_for(pos.hash()).is_empty() {
            *positions += 1;
            assert_eq!(book.moves(pos).len(), book.entries_for(pos.hash()).len());
        }
        for c in node["children"].as_array().unwrap() {
            let mut next = pos.clone();
            next.play_uci(c["uci"].as_str().unwrap()).unwrap();
            walk(c, &next, book, positions);
        }
    }
    walk(root, &start, &book, &mut positions);
    assert_eq!(positions, book.positions());
    // A seeded choice is reproducible and is one of the book moves.
    let pick = |seed| book.pick(&start, &mut BookRng::new(seed)).unwrap().mv;
    assert_eq!(pick(3), pick(3));
    assert!(got.iter().any(|(u, ..)| *u == start.uci(pick(3))));
}

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }

    /// Waits until the output has `count` `bestmove` lines.
    fn wait_bestmoves(&self, count: usize) -> String {
        for _ in 0..4000 {
            let t = self.text();
            if t.matches("bestmove").count() >= count {
                return t;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("no bestmove:\n{}", self.text())
    }
}

#[test]
fn the_uci_session_plays_book_moves() {
    let out = golden_run("uci");
    let book_path = out.join("book.bin");
    let book = Book::read(&book_path).unwrap();
    let start = Position::startpos(Variant::PersianPrincess);
    let book_moves: Vec<String> = book.moves(&start).iter().map(|m| start.uci(m.mv)).collect();

    let buffer = Buffer::default();
    let output: Output = Arc::new(Mutex::new(Box::new(buffer.clone())));
    let mut session = Session::new(output);
    session.handle("uci");
    session.handle("setoption name UCI_Variant value persian-princess");
    session.handle(&format!("setoption name BookFile value {}", book_path.display()));
    assert!(buffer.text().contains("info string book: "), "{}", buffer.text());
    session.handle("position startpos");
    session.handle("go wtime 1000 btime 1000");
    let text = buffer.wait_bestmoves(1);
    let info = text
        .lines()
        .find(|l| l.starts_with("info string book move"))
        .expect("a book move");
    let best = text.lines().find(|l| l.starts_with("bestmove")).unwrap();
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(book_moves.iter().any(|m| m == mv), "{mv} not in {book_moves:?}");
    assert!(info.contains(mv), "{info}");
    assert!(
        !text.contains("info depth"),
        "searched instead of playing from the book:\n{text}"
    );

    // A damaged book is refused and the previous one stays.
    let mut bytes = std::fs::read(&book_path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    let damaged = out.join("damaged.bin");
    std::fs::write(&damaged, &bytes).unwrap();
    session.handle(&format!("setoption name BookFile value {}", damaged.display()));
    assert!(
        buffer.text().contains("info string error: BookFile not changed: "),
        "{}",
        buffer.text()
    );
    session.handle("setoption name BookFile value /nonexistent/book.bin");
    assert!(
        buffer.text().contains("cannot read book '/nonexistent/book.bin'"),
        "{}",
        buffer.text()
    );
    session.handle("go depth 3");
    buffer.wait_bestmoves(2);
    assert_eq!(buffer.text().matches("info string book move").count(), 2);

    // Analysis searches even in book.
    session.handle("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(50));
    session.handle("stop");
    let text = buffer.wait_bestmoves(3);
    assert_eq!(text.matches("info string book move").count(), 2);

    // Out of book: a search.
    session.handle("position startpos moves b3b4 b9b8");
    assert!(!buffer.text().contains("error: position"), "{}", buffer.text());
    let before = buffer.text().len();
    session.handle("go depth 2");
    let text = buffer.wait_bestmoves(4);
    assert!(!text[before..].contains("book move"), "{}", &text[before..]);

    // Another variant drops the book; a book of another variant is refused.
    session.handle("setoption name UCI_Variant value egyptian-eye");
    assert!(buffer
        .text()
        .contains("info string book off: the book is for persian-princess, not egyptian-eye"));
    session.handle(&format!("setoption name BookFile value {}", book_path.display()));
    assert!(
        buffer.text().contains("is for persian-princess, not for egyptian-eye"),
        "{}",
        buffer.text()
    );
    session.handle("position startpos");
    let before = buffer.text().len();
    session.handle("go depth 2");
    let text = buffer.wait_bestmoves(5);
    assert!(!text[before..].contains("book move"));

    // Back to the book's variant, then the empty value turns it off.
    session.handle("setoption name UCI_Variant value persian-princess");
    session.handle(&format!("setoption name BookFile value {}", book_path.display()));
    session.handle("setoption name BookFile value <empty>");
    assert!(buffer.text().ends_with("info string book off\n"), "{}", buffer.text());
    session.handle("position startpos");
    let before = buffer.text().len();
    session.handle("go depth 2");
    let text = buffer.wait_bestmoves(6);
    assert!(!text[before..].contains("book move"));
    session.handle("quit");
}

#[test]
fn the_engine_facade_uses_the_book() {
    let out = golden_run("facade");
    let path = out.join("book.bin");
    let mut e = Engine::new();
    e.set_variant(Variant::PersianPrincess);
    e.set_book(Some(&path)).unwrap();
    e.set_book_seed(Some(42));
    let a: Vec<_> = (0..20).map(|_| e.book_move().unwrap().mv).collect();
    e.set_book_seed(Some(42));
    let b: Vec<_> = (0..20).map(|_| e.book_move().unwrap().mv).collect();
    assert_eq!(a, b);
    assert!(e
        .book_move_for(&Limits {
            infinite: true,
            ..Limits::default()
        })
        .is_none());
    // A refused book leaves the previous one.
    assert!(e.set_book(Some(Path::new("/nonexistent.bin"))).is_err());
    assert!(e.book().is_some());
    e.set_variant(Variant::OrientalOmega);
    assert!(e.book().is_none());
    assert!(e.set_book(Some(&path)).is_err());
}

#[test]
fn damaged_book_files_are_refused() {
    let out = golden_run("damaged");
    let bytes = std::fs::read(out.join("book.bin")).unwrap();
    assert!(Book::from_bytes(&bytes).is_ok());
    for len in 0..bytes.len() {
        assert!(Book::from_bytes(&bytes[..len]).is_err(), "truncated to {len} bytes");
    }
    // Every single-bit error (a sample of bit positions for large books).
    let bits = bytes.len() * 8;
    let step = (bits / 20_000).max(1);
    for bit in (0..bits).step_by(step) {
        let mut b = bytes.clone();
        b[bit / 8] ^= 1 << (bit % 8);
        assert!(Book::from_bytes(&b).is_err(), "bit {bit} flipped");
    }
    // Random garbage never panics.
    let mut rng = BookRng::new(1);
    for n in 0..500 {
        let junk: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
        assert!(Book::from_bytes(&junk).is_err());
    }
    assert_eq!(Book::from_bytes(b"[Event \"x\"]"), Err(FormatError::WrongMagic));
    // Through the loader, errors name the file.
    let bad = out.join("bad.bin");
    std::fs::write(&bad, &bytes[..bytes.len() - 3]).unwrap();
    let err = Book::load(&bad, Variant::PersianPrincess).unwrap_err().to_string();
    assert!(
        err.contains("bad.bin") && err.contains("not a valid opening book"),
        "{err}"
    );
}

#[test]
fn min_games_prunes_and_group_keeps_set_up_games() {
    let out = temp_dir("group");
    let corpus = corpus();
    let (ok, stdout, stderr) = trainer(&[
        "-v",
        "persian-princess",
        "-o",
        out.to_str().unwrap(),
        "--min-games",
        "4",
        "--fen-games",
        "group",
        "--no-book",
        "--plies",
        "4",
        corpus.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(!out.join("book.bin").exists());
    let tree: Value = serde_json::from_str(&std::fs::read_to_string(out.join("tree.json")).unwrap()).unwrap();
    assert_eq!(tree["games"]["set_up_grouped"], 1);
    assert_eq!(tree["games"]["used"], 36);
    // The set-up game's root has 1 game: pruned by --min-games 4.
    assert_eq!(tree["roots"].as_array().unwrap().len(), 1);
    let csv = std::fs::read_to_string(out.join("lines.csv")).unwrap();
    for row in csv.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        assert!(cols[4].parse::<u64>().unwrap() >= 4, "{row}");
        assert!(cols[1].parse::<u64>().unwrap() <= 4, "{row}");
    }
    // With --min-games 1 both start positions are listed.
    let out1 = temp_dir("group1");
    let (ok, ..) = trainer(&[
        "-v",
        "persian-princess",
        "-o",
        out1.to_str().unwrap(),
        "--fen-games",
        "group",
        "--no-book",
        corpus.to_str().unwrap(),
    ]);
    assert!(ok);
    let tree: Value = serde_json::from_str(&std::fs::read_to_string(out1.join("tree.json")).unwrap()).unwrap();
    let roots = tree["roots"].as_array().unwrap();
    assert_eq!(roots.len(), 2);
    assert_eq!(roots[1]["games"], 1);
    assert!(roots[1]["start"].as_str().unwrap().contains(" b "));
    let csv = std::fs::read_to_string(out1.join("lines.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with(roots[1]["fen"].as_str().unwrap())));
}

#[test]
fn errors_and_variant_choice() {
    let corpus = corpus();
    // Several variants and no --variant.
    let (ok, _, stderr) = trainer(&[corpus.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains("several variants") && stderr.contains("--variant"),
        "{stderr}"
    );
    // One tagged file: the variant comes from the tags, output to the default folder.
    let dir = temp_dir("default-out");
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .current_dir(&dir)
        .args(["openings", corpus.join("selfplay.pgn").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for f in ["tree.json", "lines.csv", "report.html", "book.bin"] {
        assert!(dir.join("openings-persian-princess").join(f).exists(), "{f}");
    }
    // Missing input, empty folder, bad variant, bad numbers.
    let (ok, _, stderr) = trainer(&["/nonexistent/games.pgn"]);
    assert!(
        !ok && stderr.contains("cannot read '/nonexistent/games.pgn'"),
        "{stderr}"
    );
    let empty = temp_dir("empty");
    let (ok, _, stderr) = trainer(&[empty.to_str().unwrap()]);
    assert!(!ok && stderr.contains("holds no .pgn file"), "{stderr}");
    let (ok, _, stderr) = trainer(&["-v", "xiangqi", corpus.to_str().unwrap()]);
    assert!(!ok && stderr.contains("unknown variant 'xiangqi'"), "{stderr}");
    let (ok, _, stderr) = trainer(&["--plies", "0", corpus.to_str().unwrap()]);
    assert!(!ok && stderr.contains("--plies"), "{stderr}");
    // --strict stops at the first unreadable game.
    let (ok, _, stderr) = trainer(&[
        "--strict",
        "-v",
        "persian-princess",
        "-o",
        temp_dir("strict").to_str().unwrap(),
        corpus.to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains("misc.pgn: game"), "{stderr}");
    // Without it, the problems are warnings naming file, game and line.
    let (ok, _, stderr) = trainer(&[
        "-v",
        "persian-princess",
        "-q",
        "-o",
        temp_dir("warn").to_str().unwrap(),
        corpus.to_str().unwrap(),
    ]);
    assert!(ok);
    assert!(
        stderr.contains("warning: ") && stderr.contains("game left out"),
        "{stderr}"
    );
}

#[test]
fn help_explains_the_options() {
    let out = Command::new(env!("CARGO_BIN_EXE_persian-trainer"))
        .args(["openings", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for word in [
        "--plies",
        "--min-games",
        "--book-min-games",
        "--fen-games",
        "--eval-view",
        "--out",
        "[default: 8]",
        "[default: 5]",
        "report.html",
    ] {
        assert!(help.contains(word), "{word} missing from:\n{help}");
    }
}

/// Writes `corpus/selfplay.pgn`: 30 short games of Persian Princess played by the engine at
/// depth 2 (hand-crafted evaluation), with varied first moves and scores in comments. Run it only
/// to change the corpus (then update the golden files).
#[test]
#[ignore]
fn generate_corpus() {
    let v = Variant::PersianPrincess;
    let mut rng = BookRng::new(2024);
    let mut text = String::new();
    for g in 0..30 {
        let mut engine = Engine::new();
        engine.set_variant(v);
        engine.set_hash(4);
        engine.set_eval(engine::engine::EvalSource::HandCrafted).unwrap();
        let mut game = Game::new(Position::startpos(v));
        let mut ucis: Vec<String> = Vec::new();
        let mut tokens: Vec<String> = Vec::new();
        let mut white_view = 0;
        let result = loop {
            if let Some(o) = game.outcome() {
                break (o.result().to_string(), "normal");
            }
            if game.moves().len() >= 40 {
                let r = if white_view > 150 {
                    "1-0"
                } else if white_view < -150 {
                    "0-1"
                } else {
                    "1/2-1/2"
                };
                break (r.to_string(), "adjudication");
            }
            let pos = game.position().clone();
            engine.set_game(Position::startpos(v), game.moves()).unwrap();
            let r = engine.search(
                Limits {
                    depth: Some(2),
                    ..Limits::default()
                },
                &mut |_| {},
            );
            let ply = game.moves().len();
            // Varied openings: in the first four plies, half the time a random pawn move.
            let mut m = r.best;
            if ply < 4 && rng.next_u64().is_multiple_of(2) {
                let pawn_moves: Vec<_> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&x| pos.piece_at(x.from()).is_some_and(|p| p.kind.letter() == 'P'))
                    .filter(|&x| ["e", "f", "g", "d"].iter().any(|f| pos.uci(x).starts_with(f)))
                    .collect();
                m = pawn_moves[(rng.next_u64() % pawn_moves.len() as u64) as usize];
            }
            let cp = match r.score {
                Score::Cp(c) => c,
                Score::Mate(n) => {
                    if n > 0 {
                        10000
                    } else {
                        -10000
                    }
                }
            };
            white_view = if pos.turn() == Color::White { cp } else { -cp };
            let san = pos.san(m);
            if pos.turn() == Color::White {
                tokens.push(format!("{}.", pos.fullmove_number()));
            }
            tokens.push(san);
            match g / 10 {
                0 => tokens.push(format!("{{{:+.2}/2}}", cp as f64 / 100.0)),
                1 => tokens.push(format!("{{{cp:+}}}")),
                _ => {}
            }
            ucis.push(pos.uci(m));
            game.play(m);
        };
        let (res, termination) = result;
        text.push_str(&format!(
            "[Event \"openings test corpus\"]\n[Site \"trainer tests\"]\n[Date \"2025.01.01\"]\n[Round \"{}\"]\n\
             [White \"depth=2\"]\n[Black \"depth=2\"]\n[Result \"{res}\"]\n[Variant \"persian-princess\"]\n\
             [PlyCount \"{}\"]\n[Termination \"{termination}\"]\n\n",
            g + 1,
            game.moves().len()
        ));
        tokens.push(res);
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        text.push_str(&line);
        text.push_str("\n\n");
    }
    std::fs::create_dir_all(corpus()).unwrap();
    std::fs::write(corpus().join("selfplay.pgn"), text).unwrap();
}

#[test]
fn games_are_read_under_their_rule_settings() {
    let dir = temp_dir("rules");
    // With the opening series of two moves, White plays e4 and d4 in a row (Black passes, `--`)
    // and then Black two: legal only under the game's VariantRules, which the tree must honour.
    let pgn = dir.join("series.pgn");
    std::fs::write(
        &pgn,
        "[Variant \"Parsi\"]\n[VariantRules \"opening_series=2\"]\n[Result \"1-0\"]\n\n1. e4 -- 2. d4 e5 3. -- d5 1-0\n\n\
         [Variant \"Parsi\"]\n[VariantRules \"no_such_setting\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (ok, stdout, stderr) = trainer(&["--out", out.to_str().unwrap(), pgn.to_str().unwrap()]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stderr.contains("VariantRules"), "the bad settings are named: {stderr}");
    let tree: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tree.json")).unwrap()).unwrap();
    assert_eq!(tree["games"]["used"], 1, "{tree}");
    let first = &tree["roots"][0]["children"][0];
    assert_eq!(first["san"], "e4");
    assert_eq!(first["children"][0]["san"], "--", "Black passes");
    assert_eq!(
        first["children"][0]["children"][0]["san"], "d4",
        "White's second move of the series"
    );
    // Without the tag the same moves are not a game of Parsi Chess.
    let plain = dir.join("plain.pgn");
    std::fs::write(
        &plain,
        "[Variant \"Parsi\"]\n[Result \"1-0\"]\n\n1. e4 -- 2. d4 e5 3. -- d5 1-0\n",
    )
    .unwrap();
    let (ok, _, stderr) = trainer(&["--out", dir.join("plain").to_str().unwrap(), plain.to_str().unwrap()]);
    assert!(!ok || stderr.contains("not a legal move"), "{stderr}");
}
