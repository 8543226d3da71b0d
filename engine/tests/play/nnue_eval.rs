//! The engine with NNUE evaluation: incremental accumulators equal a full refresh after every
//! move of random games in every variant; nets are checked for their variant; search and UCI
//! use a net when told to.
#![allow(clippy::unwrap_used)]

use std::{
    io::Write,
    sync::{mpsc, Arc, Mutex},
    thread,
    time::Duration,
};

use engine::{
    engine::{parse_game, Engine, EvalSource},
    eval::nnue::{king_type, layout, NetError, NnueNet},
    rules::{Position, Variant},
    search::Limits,
    uci::session::{Output, Session},
};
use nnue::{features, format, FloatNetwork};

fn random_net_bytes(variant: Variant, hidden: usize, seed: u64) -> Vec<u8> {
    random_net_bytes_with_kings(variant, hidden, seed, 0)
}

/// A random net with `king_buckets` standard king buckets (0: feature set v1).
fn random_net_bytes_with_kings(variant: Variant, hidden: usize, seed: u64, king_buckets: usize) -> Vec<u8> {
    let layout = layout(variant);
    let kings =
        (king_buckets > 0).then(|| features::KingBuckets::standard(&layout, king_type(variant), king_buckets).unwrap());
    let mut float = FloatNetwork::init_random(features::num_features_with(&layout, kings.as_ref()), hidden, seed);
    float.kings = kings;
    let net = float.quantise(64).unwrap();
    let header = format::NetHeader::new(variant.code(), variant.id(), &layout, "random test net");
    format::to_bytes(&header, &net).unwrap()
}

fn temp_path(name: &str) -> String {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("engine-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().to_string()
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let path = temp_path(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

use engine::rng::SplitMix64 as Rng;

#[test]
fn incremental_accumulators_equal_a_full_refresh() {
    for king_buckets in [0, 4] {
        incremental_accumulators_equal_a_full_refresh_with(king_buckets);
    }
}

fn incremental_accumulators_equal_a_full_refresh_with(king_buckets: usize) {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    for v in Variant::ALL {
        let bytes = random_net_bytes_with_kings(v, 32, v.code() as u64, king_buckets);
        let net = NnueNet::from_bytes(v, &bytes, "test").unwrap();
        assert_eq!(net.network.king_buckets().map_or(0, |k| k.count()), king_buckets);
        let mut moves_checked = 0;
        for _game in 0..20 {
            let mut pos = Position::startpos(v);
            let mut acc = net.accumulator();
            net.refresh(&mut acc, &pos);
            for _ply in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                let mut child = net.accumulator();
                net.update(&mut child, &acc, &pos, &pos.move_delta(m));
                pos.play_unchecked(m);
                let mut fresh = net.accumulator();
                net.refresh(&mut fresh, &pos);
                for c in [nnue::Color::White, nnue::Color::Black] {
                    assert!(
                        child.values(c).eq(fresh.values(c)),
                        "{v}: accumulator differs after {}",
                        pos.fen()
                    );
                }
                assert_eq!(net.evaluate(&child, &pos), net.evaluate_position(&pos));
                acc = child;
                moves_checked += 1;
            }
        }
        assert!(moves_checked > 1000, "{v}: {moves_checked}");
    }
    // A Parsi compound move that takes twice: a7xb8=N, then the knight takes on c6 (three men
    // leave the board, one arrives).
    let v = Variant::Parsi;
    let net = NnueNet::from_bytes(v, &random_net_bytes_with_kings(v, 32, 9, king_buckets), "test").unwrap();
    let pos = Position::from_fen(v, "1r1k4/P7/2n5/8/8/8/3P3P/R1BQKBNR w - - 0 1").unwrap();
    let m = pos.parse_uci("a7b8nc6").expect("the compound move");
    let delta = pos.move_delta(m);
    assert_eq!((delta.removed().count(), delta.added().count()), (3, 1));
    let mut acc = net.accumulator();
    net.refresh(&mut acc, &pos);
    let mut child = net.accumulator();
    net.update(&mut child, &acc, &pos, &delta);
    let after = pos.after(m);
    assert_eq!(net.evaluate(&child, &after), net.evaluate_position(&after));
}

#[test]
fn nets_are_checked_for_their_variant() {
    let princess = temp_file("princess.nnue", &random_net_bytes(Variant::PersianPrincess, 16, 1));
    // The right variant loads.
    assert!(NnueNet::from_file(Variant::PersianPrincess, &princess).is_ok());
    // Another variant with the same board refuses it.
    match NnueNet::from_file(Variant::EgyptianEye, &princess) {
        Err(NetError::Load { .. }) => {}
        other => panic!("expected a load error, got {:?}", other.map(|_| ())),
    }
    // A missing file and a damaged file are errors, not panics.
    assert!(matches!(
        NnueNet::from_file(Variant::PersianPrincess, "/nonexistent/x.nnue"),
        Err(NetError::Io { .. })
    ));
    let mut bytes = random_net_bytes(Variant::PersianPrincess, 16, 1);
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    let damaged = temp_file("damaged.nnue", &bytes);
    assert!(matches!(
        NnueNet::from_file(Variant::PersianPrincess, &damaged),
        Err(NetError::Load { .. })
    ));
    // The engine keeps its previous evaluation when a net is refused.
    let mut e = Engine::new();
    e.set_variant(Variant::PersianPrincess);
    e.set_eval(EvalSource::File(princess.clone().into())).unwrap();
    assert!(e.eval_summary().starts_with("NNUE"), "{}", e.eval_summary());
    assert!(e.set_eval(EvalSource::File(damaged.into())).is_err());
    assert!(e.eval_summary().starts_with("NNUE"));
    e.set_eval(EvalSource::HandCrafted).unwrap();
    assert_eq!(e.eval_summary(), "hand-crafted");
    // Switching to another variant drops a net file made for the old one.
    e.set_eval(EvalSource::File(princess.into())).unwrap();
    e.set_variant(Variant::OrientalOmega);
    assert!(e.net().is_none_or(|n| n.variant == Variant::OrientalOmega));
}

/// `f()`, run on a thread and waited for at most 20 seconds: a read that blocks (a FIFO) or
/// runs on (`/dev/zero`) fails the test instead of hanging it.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what}: no answer within 20 s"))
}

fn load(path: &str) -> Result<(), NetError> {
    let path = path.to_string();
    within(&path.clone(), move || {
        NnueNet::from_file(Variant::PersianPrincess, &path).map(|_| ())
    })
}

#[cfg(unix)]
#[test]
fn devices_and_fifos_are_refused_as_nets_without_reading() {
    let err = load("/dev/zero").unwrap_err();
    assert!(
        matches!(
            err,
            NetError::NotAFile {
                kind: "a character device",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "cannot read net file '/dev/zero': it is a character device, not a regular file"
    );
    // Opening a FIFO for reading waits for a writer: it must not be opened.
    let fifo = temp_path("net.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let err = load(&fifo).unwrap_err();
    assert!(matches!(err, NetError::NotAFile { .. }), "{err}");
    assert!(
        err.to_string()
            .contains(&format!("'{fifo}': it is a FIFO (named pipe), not a regular file")),
        "{err}"
    );
    // So is a directory.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .to_string_lossy()
        .to_string();
    assert!(load(&dir).unwrap_err().to_string().contains("it is a directory"));
    let _ = std::fs::remove_file(&fifo);
}

#[test]
fn net_files_larger_than_any_net_are_refused_without_reading() {
    // A 3 GiB sparse file takes no disk space, and would take 3 GiB of memory to read.
    let path = temp_file("huge.nnue", b"");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let err = load(&path).unwrap_err();
    match &err {
        NetError::TooLarge { size, max, .. } => {
            assert_eq!(*size, 3 << 30);
            assert_eq!(*max, format::MAX_FILE_LEN);
        }
        other => panic!("expected TooLarge, got {other}"),
    }
    let text = err.to_string();
    assert!(text.contains(&path) && text.contains("3221225472 bytes"), "{text}");
    assert!(text.contains(&format::MAX_FILE_LEN.to_string()), "{text}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn net_files_with_a_cut_or_overblown_header_are_refused() {
    let good = random_net_bytes(Variant::PersianPrincess, 16, 1);
    // Cut inside the header.
    let cut = temp_file("cut.nnue", &good[..20]);
    let err = load(&cut).unwrap_err();
    assert!(
        matches!(
            err,
            NetError::Load {
                source: nnue::LoadNetError::Truncated { .. },
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("truncated"), "{err}");
    // A header that announces the largest net (32,768 inputs, 4096 neurons: 268 MB of
    // weights) in a file of a few kilobytes: refused before anything that size is allocated.
    let mut big = good.clone();
    let dims = 14 + Variant::PersianPrincess.id().len() + 4 + 8 + 4;
    let (features, hidden) = (nnue::network::MAX_FEATURES as u32, nnue::network::MAX_HIDDEN as u32);
    let hash = nnue::network::architecture_hash(nnue::network::ARCH_V1, features, hidden, 1);
    big[dims..dims + 8].copy_from_slice(&hash.to_le_bytes());
    big[dims + 8..dims + 12].copy_from_slice(&features.to_le_bytes());
    big[dims + 12..dims + 16].copy_from_slice(&hidden.to_le_bytes());
    let big = temp_file("big-header.nnue", &big);
    let err = load(&big).unwrap_err();
    assert!(
        matches!(
            err,
            NetError::Load {
                source: nnue::LoadNetError::Truncated {
                    field: "feature-transformer weights",
                    ..
                },
                ..
            }
        ),
        "{err}"
    );
    // Dimensions beyond the architecture's.
    let mut over = good.clone();
    over[dims + 12..dims + 16].copy_from_slice(&(nnue::network::MAX_HIDDEN as u32 + 1).to_le_bytes());
    let over = temp_file("over-header.nnue", &over);
    let err = load(&over).unwrap_err();
    assert!(err.to_string().contains("hidden = 4097 is out of range"), "{err}");
    // The intact file still loads.
    assert!(load(&temp_file("good.nnue", &good)).is_ok());
}

#[test]
fn search_with_a_net_is_legal_and_reproducible() {
    for v in Variant::ALL {
        let path = temp_file(&format!("{}.nnue", v.id()), &random_net_bytes(v, 64, 7));
        let run = || {
            let mut e = Engine::new();
            e.set_variant(v);
            e.set_eval(EvalSource::File(path.clone().into())).unwrap();
            let (start, moves) = parse_game(v, None, &["e3e5".to_string()])
                .or_else(|_| parse_game(v, None, &["e2e4".to_string()]))
                .unwrap();
            e.set_game(start, &moves).unwrap();
            let r = e.search(
                Limits {
                    nodes: Some(5000),
                    ..Limits::default()
                },
                &mut |_| {},
            );
            (e.position().clone(), r.best, r.nodes)
        };
        let (pos, best, nodes) = run();
        assert!(pos.legal_moves().contains(best), "{v}");
        let (_, best2, nodes2) = run();
        assert_eq!((best, nodes), (best2, nodes2), "{v}: not reproducible");
    }
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

#[test]
fn uci_eval_file_option() {
    let path = temp_file("uci-eye.nnue", &random_net_bytes(Variant::EgyptianEye, 16, 3));
    let buffer = Buffer::default();
    let out: Output = Arc::new(Mutex::new(Box::new(buffer.clone())));
    let mut session = Session::new(out);
    let text = |b: &Buffer| String::from_utf8(b.0.lock().unwrap().clone()).unwrap();
    session.handle("setoption name UCI_Variant value egyptian-eye");
    session.handle(&format!("setoption name EvalFile value {path}"));
    assert!(
        text(&buffer).contains("info string evaluation: NNUE"),
        "{}",
        text(&buffer)
    );
    session.handle("setoption name EvalFile value /nonexistent/net.nnue");
    assert!(
        text(&buffer).contains("info string error: EvalFile not changed"),
        "{}",
        text(&buffer)
    );
    session.handle("go depth 3");
    session.handle("isready");
    // Wait for the search to finish.
    for _ in 0..2000 {
        if text(&buffer).contains("bestmove") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let all = text(&buffer);
    assert!(all.contains("bestmove"), "{all}");
    let last_eval = all.lines().rfind(|l| l.starts_with("info string evaluation")).unwrap();
    assert!(last_eval.contains("NNUE"), "{last_eval}");
    session.handle("setoption name EvalFile value hce");
    session.handle("quit");
    assert!(
        text(&buffer).lines().last().unwrap().contains("hand-crafted"),
        "{}",
        text(&buffer)
    );
}

#[test]
fn training_records_round_trip_positions() {
    use engine::eval::nnue::{position_of, training_position};
    use nnue::data::{GameResult, Record};
    let mut rng = Rng::new(77);
    for v in Variant::ALL {
        let layout = layout(v);
        let mut pos = Position::startpos(v);
        for ply in 0..120u16 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
            let tp = training_position(&pos, Some(-37), GameResult::Win, m, ply, 9);
            let record = Record::encode(&tp, &layout).unwrap();
            let back = record.decode(&layout).unwrap();
            let restored = position_of(v, &back).unwrap();
            assert_eq!(restored.turn(), pos.turn());
            for sq in pos.occupied() {
                assert_eq!(restored.piece_at(sq), pos.piece_at(sq));
            }
            assert_eq!(restored.occupied(), pos.occupied());
            assert_eq!(back.best_move, m.raw());
            assert!(position_of(
                if v == Variant::Chess {
                    Variant::EgyptianEye
                } else {
                    Variant::Chess
                },
                &back
            )
            .is_err());
            pos.play_unchecked(m);
        }
    }
}

/// `engine eval` and `engine analyse` with the built-in net: its plain description, the expected
/// score on the training scale and the win/draw/loss estimate of the fitted model.
#[test]
fn eval_and_analyse_print_the_outcome_estimate() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_persian-engine"))
            .args(args)
            .output()
            .expect("engine runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let eval = run(&["eval", "-v", "persian-princess"]);
    assert!(eval.contains("NNUE evaluation: "), "{eval}");
    assert!(
        eval.contains("expected score ") && eval.contains("sigmoid(cp / 400)"),
        "{eval}"
    );
    assert!(eval.contains("estimate: win "), "{eval}");
    assert!(eval.contains("learned jointly for Celtic Citadel"), "{eval}");
    // A calibrated net (docs/nnue-format.md) says so, and reads its expected score on its scale.
    let eval = run(&["eval", "-v", "citadel-8"]);
    assert!(
        eval.contains("sigmoid(cp / 160)") && eval.contains(", scale 160: "),
        "{eval}"
    );
    let analyse = run(&["analyse", "-v", "persian-princess", "-d", "3"]);
    assert!(analyse.contains("Best move: "), "{analyse}");
    assert!(analyse.contains("estimate: win "), "{analyse}");
    // The hand-crafted evaluation has no such scale: no estimate.
    let hce = run(&["analyse", "-v", "persian-princess", "-d", "2", "--net", "hce"]);
    assert!(!hce.contains("estimate:"), "{hce}");
}

#[test]
fn every_embedded_net_loads() {
    // A net in data/nets that the engine refused would leave its variant on the hand-crafted
    // evaluation without a word (the engine falls back): every embedded net must load.
    let mut loaded = 0;
    for v in Variant::ALL {
        if let Some(net) = NnueNet::embedded(v) {
            let net = net.unwrap_or_else(|e| panic!("{v}: the embedded net is refused: {e}"));
            assert_eq!(net.variant, v);
            assert!(net.evaluate_position(&Position::startpos(v)).abs() < 1_000, "{v}");
            loaded += 1;
        }
    }
    let shipped = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/nets"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "nnue"))
        .count();
    assert_eq!(
        loaded, shipped,
        "every .nnue file of data/nets is a variant's embedded net"
    );
}
