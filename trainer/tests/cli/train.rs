//! `trainer train` end to end on records from a tiny self-play run: the files of a run, the
//! net the engine loads, exact resume, and the errors for bad configurations.

use crate::common::TempDir;
use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
    sync::OnceLock,
};

use engine::{
    eval::nnue::NnueNet,
    rules::{position::Position, Variant},
};

const BIN: &str = env!("CARGO_BIN_EXE_persian-trainer");

fn run(args: &[&str]) -> Output {
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
    let out = run(args);
    let t = text(&out);
    assert!(out.status.success(), "trainer {args:?} failed:\n{t}");
    t
}

fn fails(args: &[&str]) -> String {
    let out = run(args);
    let t = text(&out);
    assert!(!out.status.success(), "trainer {args:?} should fail:\n{t}");
    assert!(!t.contains("panicked"), "{t}");
    t
}

/// Records of 40 short self-play games, made once for all tests of this file.
fn data() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("trainer-train-test-{}-data", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let d = dir.display().to_string();
        ok(&[
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
            "--games",
            "40",
            "--threads",
            "1",
            "--engine-plies",
            "0",
            "--quiet",
            "--out",
            &d,
        ]);
        dir
    })
}

fn train_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "train",
        "--variant",
        "persian-princess",
        "--data",
        data().to_str().expect("utf-8 temp path"),
        "--out",
        out,
        "--hidden",
        "16",
        "--batch-size",
        "256",
        "--val-fraction",
        "0.2",
        "--checkpoint-every",
        "3",
        "--threads",
        "2",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_run_writes_its_files_and_a_net_the_engine_uses() {
    let dir = TempDir::new("run");
    let out = dir.join("r");
    let o = out.to_str().unwrap();
    let report = ok(&train_args(o, &["--epochs", "4", "--lr", "0.003"]));
    assert!(report.contains("positions/s"), "{report}");
    for f in [
        "config.toml",
        "checkpoint.bin",
        "net.nnue",
        "last.nnue",
        "curves.csv",
        "curves.svg",
        "summary.json",
    ] {
        assert!(out.join(f).is_file(), "{f} missing:\n{report}");
    }
    let csv = fs::read_to_string(out.join("curves.csv")).unwrap();
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap_or(f64::NAN)).collect())
        .collect();
    assert_eq!(rows.len(), 4, "{csv}");
    assert!(rows[3][3] < rows[0][3], "training loss must fall:\n{csv}");
    assert!(
        rows.iter().all(|r| r[4].is_finite()),
        "validation loss every epoch:\n{csv}"
    );

    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["epochs"], 4);
    let parity = &summary["parity_best_net_vs_dequantised_cp"];
    assert!(parity["max_cp"].as_f64().unwrap() <= 1.5, "{parity}");
    assert!(summary["positions_per_second"].as_f64().unwrap() > 0.0);

    // The engine loads the net and evaluates with it.
    let net = NnueNet::from_file(Variant::PersianPrincess, out.join("net.nnue").to_str().unwrap()).unwrap();
    let _ = net.evaluate_position(&Position::startpos(Variant::PersianPrincess));
    assert!(net.summary().contains("16"), "{}", net.summary());
    // A net for another variant is refused by the engine.
    assert!(NnueNet::from_file(Variant::EgyptianEye, out.join("net.nnue").to_str().unwrap()).is_err());

    // The run directory is not overwritten by accident.
    let again = fails(&train_args(o, &["--epochs", "1"]));
    assert!(again.contains("--resume") && again.contains("--force"), "{again}");
}

#[test]
fn resume_continues_exactly_where_the_run_stopped() {
    let dir = TempDir::new("resume");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    ok(&train_args(a, &["--epochs", "3"]));
    let first = ok(&train_args(b, &["--epochs", "3", "--max-steps", "4"]));
    assert!(first.contains("--resume"), "{first}");
    assert!(!Path::new(b).join("last.nnue").exists());
    let second = ok(&["train", "--resume", "--out", b, "--max-steps", "7", "--quiet"]);
    assert!(second.contains("stopped at step 7"), "{second}");
    ok(&["train", "--resume", "--out", b, "--quiet"]);
    for f in ["last.nnue", "net.nnue"] {
        assert_eq!(
            fs::read(Path::new(a).join(f)).unwrap(),
            fs::read(Path::new(b).join(f)).unwrap(),
            "{f} differs between the uninterrupted and the resumed run"
        );
    }
    // The curves too, but for the seconds (last column).
    let curve = |dir: &str| -> Vec<String> {
        fs::read_to_string(Path::new(dir).join("curves.csv"))
            .unwrap()
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head).to_string())
            .collect()
    };
    assert_eq!(curve(a), curve(b));
    // --resume takes the saved configuration only.
    let refused = fails(&["train", "--resume", "--out", b, "--hidden", "32"]);
    assert!(refused.contains("saved configuration"), "{refused}");
}

/// The net of the run in `b` says `description` first, and the engine's evaluation of it
/// equals the trainer's float net's within 1.5 cp.
fn described_and_exported_exactly(b: &str, net: &nnue::format::LoadedNet, description: &str) {
    assert!(
        net.header.description.starts_with(description),
        "{}",
        net.header.description
    );
    let text = fs::read_to_string(format!("{b}/summary.json")).expect("the run's summary.json");
    let summary: serde_json::Value = serde_json::from_str(&text).expect("summary.json is JSON");
    let parity = &summary["parity_best_net_vs_dequantised_cp"];
    let max = parity["max_cp"].as_f64().expect("the parity's max_cp");
    assert!(max <= 1.5, "{parity}");
}

/// The run of `settings` in `c`, stopped after 3 steps and resumed, ends with the net that the
/// uninterrupted run in `b` ended with.
fn resumed_run_ends_alike(b: &str, c: &str, settings: &[&str]) {
    let mut stopped = settings.to_vec();
    stopped.extend(["--max-steps", "3"]);
    ok(&train_args(c, &stopped));
    ok(&["train", "--resume", "--out", c, "--quiet"]);
    assert_eq!(
        fs::read(format!("{b}/net.nnue")).expect("the uninterrupted run's net"),
        fs::read(format!("{c}/net.nnue")).expect("the resumed run's net")
    );
}

#[test]
fn output_buckets_start_from_a_single_head_resume_exactly_and_play() {
    let dir = TempDir::new("buckets");
    let (base, b, c) = (dir.join("base"), dir.join("b"), dir.join("c"));
    let (base, b, c) = (base.to_str().unwrap(), b.to_str().unwrap(), c.to_str().unwrap());
    ok(&train_args(base, &["--epochs", "2"]));
    let start = format!("{base}/net.nnue");
    let mut args = train_args(b, &["--epochs", "2", "--buckets", "8", "--init-from", &start]);
    args.retain(|a| *a != "--quiet");
    let report = ok(&args);
    assert!(
        report.contains("into 8 output buckets") && report.contains("x2 -> 8 SCReLU"),
        "{report}"
    );
    let net = nnue::format::read_any(&fs::read(format!("{b}/net.nnue")).unwrap()).unwrap();
    assert_eq!(net.network.buckets(), 8);
    described_and_exported_exactly(b, &net, "Persian Princess net (H 16, 8 output buckets), learned from ");
    // The heads have parted: training moved them apart from the copies they started as.
    let float = nnue::FloatNetwork::dequantise(&net.network);
    let (first, _) = float.head(0);
    assert!((1..8).any(|k| float.head(k).0 != first));
    // The engine plays with it.
    let engine_net = NnueNet::from_file(Variant::PersianPrincess, format!("{b}/net.nnue")).unwrap();
    assert!(
        engine_net.summary().contains("16 hidden, 8 output buckets"),
        "{}",
        engine_net.summary()
    );
    let _ = engine_net.evaluate_position(&Position::startpos(Variant::PersianPrincess));
    resumed_run_ends_alike(b, c, &["--epochs", "2", "--buckets", "8", "--init-from", &start]);
    // Bad bucket counts and nets of another bucket count are refused.
    let (x, y) = (format!("{c}x"), format!("{c}y"));
    let too_many = fails(&train_args(&x, &["--buckets", "17"]));
    assert!(too_many.contains("buckets = 17: must be 1..=16"), "{too_many}");
    let bucketed_start = format!("{b}/net.nnue");
    let other = fails(&train_args(&y, &["--buckets", "4", "--init-from", &bucketed_start]));
    assert!(other.contains("8 buckets) net, this run trains"), "{other}");
}

#[test]
fn king_buckets_start_from_a_v1_net_resume_exactly_and_play() {
    let dir = TempDir::new("kings");
    let (base, b, c) = (dir.join("base"), dir.join("b"), dir.join("c"));
    let (base, b, c) = (base.to_str().unwrap(), b.to_str().unwrap(), c.to_str().unwrap());
    ok(&train_args(base, &["--epochs", "1"]));
    let start = format!("{base}/net.nnue");
    let mut args = train_args(b, &["--epochs", "2", "--king-buckets", "4", "--init-from", &start]);
    args.retain(|a| *a != "--quiet");
    let report = ok(&args);
    assert!(report.contains("into 4 king buckets"), "{report}");
    let net = nnue::format::read_any(&fs::read(format!("{b}/net.nnue")).unwrap()).unwrap();
    assert_eq!(net.header.feature_set, nnue::features::FEATURE_SET_KB);
    let kings = net.network.king_buckets().unwrap();
    assert_eq!(kings.count(), 4);
    let v1 = nnue::format::read_any(&fs::read(&start).unwrap()).unwrap();
    assert_eq!(net.network.num_features(), 4 * v1.network.num_features());
    described_and_exported_exactly(b, &net, "Persian Princess net (H 16, 4 king buckets), learned from ");
    // The buckets have parted: the copies of the start net's rows learned different things.
    let float = nnue::FloatNetwork::dequantise(&net.network);
    let rows = float.ft_weights.len() / 4;
    assert!((1..4).any(|k| float.ft_weights[k * rows..(k + 1) * rows] != float.ft_weights[..rows]));
    // The engine plays with it, and its summary says what it is.
    let engine_net = NnueNet::from_file(Variant::PersianPrincess, format!("{b}/net.nnue")).unwrap();
    assert!(
        engine_net.summary().contains("16 hidden, 4 king buckets"),
        "{}",
        engine_net.summary()
    );
    let _ = engine_net.evaluate_position(&Position::startpos(Variant::PersianPrincess));
    let shown = ok(&["net", "show", &format!("{b}/net.nnue")]);
    assert!(shown.contains("KB-PS-2xPxN, 4 king buckets"), "{shown}");
    resumed_run_ends_alike(b, c, &["--epochs", "2", "--king-buckets", "4", "--init-from", &start]);
    // A bad count, and a start net with other king buckets, are refused with the reason.
    let (x, y) = (format!("{c}x"), format!("{c}y"));
    let bad = fails(&train_args(&x, &["--king-buckets", "3"]));
    assert!(bad.contains("king_buckets = 3: must be 0 (none), 2"), "{bad}");
    let kb_start = format!("{b}/net.nnue");
    let other = fails(&train_args(&y, &["--king-buckets", "2", "--init-from", &kb_start]));
    assert!(other.contains("its king buckets (4) are not this run's (2)"), "{other}");
}

#[test]
fn configuration_files_and_bad_settings() {
    let dir = TempDir::new("config");
    let cfg = dir.join("run.toml");
    let out = dir.join("r");
    fs::write(
        &cfg,
        format!(
            "variant = \"persian-princess\"\ndata = [{:?}]\nout = {:?}\nhidden = 8\nbatch_size = 128\nepochs = 1\nlr_schedule = \"step\"\n",
            data().display().to_string(),
            out.display().to_string()
        ),
    )
    .unwrap();
    let c = cfg.to_str().unwrap();
    ok(&["train", "--config", c, "--quiet"]);
    let saved = fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(
        saved.contains("hidden = 8") && saved.contains("lr_schedule = \"step\""),
        "{saved}"
    );
    // Flags win over the file.
    ok(&["train", "--config", c, "--hidden", "4", "--force", "--quiet"]);
    assert!(fs::read_to_string(out.join("config.toml"))
        .unwrap()
        .contains("hidden = 4"));

    fs::write(&cfg, "hiden = 3\n").unwrap();
    let e = fails(&["train", "--config", c]);
    assert!(e.contains("hiden"), "{e}");
    let e = fails(&["train", "--out", dir.join("x").to_str().unwrap()]);
    assert!(e.contains("no training data"), "{e}");
    let d = data().to_str().unwrap();
    let x = dir.join("x");
    let x = x.to_str().unwrap();
    let e = fails(&["train", "--data", d, "--out", x, "--variant", "egyptian-eye"]);
    assert!(e.contains("no training positions of egyptian-eye"), "{e}");
    let e = fails(&["train", "--data", d, "--out", x, "--clip", "5"]);
    assert!(e.contains("clip"), "{e}");
    let e = fails(&["train", "--data", "/nonexistent/records", "--out", x]);
    assert!(e.contains("/nonexistent/records"), "{e}");
    let e = fails(&["train", "--resume", "--out", dir.join("none").to_str().unwrap()]);
    assert!(e.contains("cannot resume"), "{e}");
    if !cfg!(feature = "cuda") {
        let e = fails(&["train", "--data", d, "--out", x, "--device", "cuda"]);
        assert!(e.contains("--features cuda"), "{e}");
    }
}

#[test]
fn pre_training_on_other_variants_and_fine_tuning() {
    let dir = TempDir::new("pretrain");
    let (base, tuned) = (dir.join("base"), dir.join("tuned"));
    let d = data().to_str().unwrap();
    // The data holds Persian Princess records only: an Egyptian Eye net can learn from them.
    ok(&[
        "train",
        "--variant",
        "egyptian-eye",
        "--also-variant",
        "persian-princess",
        "--data",
        d,
        "--out",
        base.to_str().unwrap(),
        "--hidden",
        "16",
        "--batch-size",
        "256",
        "--epochs",
        "2",
        "--quiet",
    ]);
    let bytes = fs::read(base.join("net.nnue")).unwrap();
    assert!(NnueNet::from_bytes(Variant::EgyptianEye, &bytes, "base").is_ok());
    // The same weights for the other variant, with its own header.
    let other = fs::read(base.join("net.persian-princess.nnue")).unwrap();
    assert!(NnueNet::from_bytes(Variant::PersianPrincess, &other, "other").is_ok());
    assert!(NnueNet::from_bytes(Variant::EgyptianEye, &other, "other").is_err());
    let start = Position::startpos(Variant::PersianPrincess);
    let a = NnueNet::from_bytes(Variant::EgyptianEye, &bytes, "a").unwrap();
    let b = NnueNet::from_bytes(Variant::PersianPrincess, &other, "b").unwrap();
    assert_eq!(a.evaluate_position(&start), b.evaluate_position(&start));
    // Each header says in plain words what its net learned from.
    let header = |path: &Path| nnue::format::read_any(&fs::read(path).unwrap()).unwrap().header;
    let mine = header(&base.join("net.nnue")).description;
    assert!(
        mine.starts_with("Egyptian Eye net (H 16), learned jointly for Egyptian Eye and Persian Princess from "),
        "{mine}"
    );
    assert!(
        mine.contains("; target: search score; ") && mine.ends_with(", seed 1"),
        "{mine}"
    );
    assert!(
        mine.contains(" self-play games (hand-crafted evaluation at 150 nodes a move); "),
        "{mine}"
    );
    let theirs = header(&base.join("net.persian-princess.nnue")).description;
    assert!(
        theirs.starts_with("Persian Princess net (H 16), learned jointly for Egyptian Eye and Persian Princess from "),
        "{theirs}"
    );
    // `trainer net describe` relabels a net and keeps its weights.
    let relabelled = dir.join("relabelled.nnue");
    ok(&[
        "net",
        "describe",
        base.join("net.persian-princess.nnue").to_str().unwrap(),
        "--set",
        "Persian Princess test net",
        "--out",
        relabelled.to_str().unwrap(),
    ]);
    let (was, now) = (
        nnue::format::read_any(&other).unwrap(),
        nnue::format::read_any(&fs::read(&relabelled).unwrap()).unwrap(),
    );
    assert_eq!(now.header.description, "Persian Princess test net");
    assert_eq!(now.network, was.network);
    assert_eq!(
        (now.header.variant_id.as_str(), now.header.layout_hash),
        (was.header.variant_id.as_str(), was.header.layout_hash)
    );
    let shown = ok(&["net", "show", relabelled.to_str().unwrap()]);
    assert!(
        shown.contains("persian-princess") && shown.contains("Persian Princess test net"),
        "{shown}"
    );
    assert!(
        shown.contains("scale:        400 cp per unit of output (as trained)"),
        "{shown}"
    );
    // `trainer net scale` calibrates a net to the search: every evaluation times new / old.
    let scaled = dir.join("scaled.nnue");
    let said = ok(&[
        "net",
        "scale",
        relabelled.to_str().unwrap(),
        "--set",
        "160",
        "--out",
        scaled.to_str().unwrap(),
    ]);
    assert!(
        said.contains("scale 160 cp per unit of output (was 400: its evaluations times 0.400)"),
        "{said}"
    );
    let now_scaled = nnue::format::read_any(&fs::read(&scaled).unwrap()).unwrap();
    assert_eq!(now_scaled.network.scale(), 160);
    assert_eq!(now_scaled.header, now.header);
    assert_eq!(now_scaled.network.clone().with_scale(400).unwrap(), now.network);
    let shown = ok(&["net", "show", scaled.to_str().unwrap()]);
    assert!(
        shown.contains("scale:        160 cp per unit of output (calibrated; trained at 400)"),
        "{shown}"
    );
    let refused = fails(&["net", "scale", scaled.to_str().unwrap(), "--set", "5000"]);
    assert!(refused.contains("scale 5000 is out of range 25..=3200"), "{refused}");
    assert_eq!(
        nnue::format::read_any(&fs::read(&scaled).unwrap())
            .unwrap()
            .network
            .scale(),
        160,
        "a refused scale leaves the file alone"
    );
    // --like fits the scale to another net's over the records' positions: the net as trained,
    // fitted to its own copy at 160, comes out at 160 (within the rounding of the evaluations to
    // whole centipawns).
    let fitted = dir.join("fitted.nnue");
    let said = ok(&[
        "net",
        "scale",
        relabelled.to_str().unwrap(),
        "--like",
        scaled.to_str().unwrap(),
        "--data",
        d,
        "--out",
        fitted.to_str().unwrap(),
    ]);
    assert!(
        said.contains("positions the reference net's median absolute evaluation is ") && said.contains(" (was 400)"),
        "{said}"
    );
    let fitted_net = nnue::format::read_any(&fs::read(&fitted).unwrap()).unwrap();
    assert!((158..=162).contains(&fitted_net.network.scale()), "{said}");
    assert_eq!(fitted_net.network.with_scale(400).unwrap(), now.network);
    let no_data = fails(&[
        "net",
        "scale",
        relabelled.to_str().unwrap(),
        "--like",
        scaled.to_str().unwrap(),
    ]);
    assert!(no_data.contains("--data"), "{no_data}");
    assert!(fails(&["net", "scale", relabelled.to_str().unwrap()]).contains("--set"));
    let other = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/nets/parsi.nnue");
    let unlike = fails(&[
        "net",
        "scale",
        relabelled.to_str().unwrap(),
        "--like",
        other.to_str().unwrap(),
        "--data",
        d,
    ]);
    assert!(unlike.contains("not a net of persian-princess"), "{unlike}");
    assert!(fails(&["net", "show", d]).contains("cannot read"));
    // Fine-tuning starts from the base run's weights.
    let init = base.join("checkpoint.bin");
    let report = ok(&[
        "train",
        "--variant",
        "persian-princess",
        "--data",
        d,
        "--out",
        tuned.to_str().unwrap(),
        "--hidden",
        "16",
        "--batch-size",
        "256",
        "--epochs",
        "1",
        "--init-from",
        init.to_str().unwrap(),
    ]);
    assert!(report.contains("starting from the weights"), "{report}");
    let tuned_says = header(&tuned.join("net.nnue")).description;
    assert!(
        tuned_says.starts_with("Persian Princess net (H 16), learned from ")
            && tuned_says.ends_with("; target: search score; 1 epoch, continued from checkpoint.bin, seed 1"),
        "{tuned_says}"
    );
    // A .nnue file works as a start too. A smaller net is widened to --hidden (its neurons
    // keep their weights); a larger one cannot be narrowed.
    let from_net = base.join("net.nnue");
    let wide = dir.join("x");
    let report = ok(&[
        "train",
        "--variant",
        "persian-princess",
        "--data",
        d,
        "--out",
        wide.to_str().unwrap(),
        "--hidden",
        "32",
        "--batch-size",
        "256",
        "--epochs",
        "1",
        "--init-from",
        from_net.to_str().unwrap(),
    ]);
    assert!(report.contains("from 16 to 32 hidden neurons"), "{report}");
    assert!(
        header(&wide.join("net.nnue"))
            .description
            .starts_with("Persian Princess net (H 32), learned from "),
        "{report}"
    );
    let e = fails(&[
        "train",
        "--variant",
        "persian-princess",
        "--data",
        d,
        "--out",
        dir.join("x8").to_str().unwrap(),
        "--hidden",
        "8",
        "--init-from",
        from_net.to_str().unwrap(),
    ]);
    assert!(e.contains("-> 16"), "{e}");
    let e = fails(&[
        "train",
        "--variant",
        "chess",
        "--also-variant",
        "persian-princess",
        "--data",
        d,
        "--out",
        dir.join("y").to_str().unwrap(),
    ]);
    assert!(e.contains("another board layout"), "{e}");
}

#[test]
fn the_pure_burn_formulation_trains_too() {
    let dir = TempDir::new("dense");
    let out = dir.join("r");
    let o = out.to_str().unwrap();
    ok(&train_args(o, &["--epochs", "2", "--ft", "dense"]));
    assert!(out.join("net.nnue").is_file());
}

#[test]
fn games_of_two_directories_are_two_sets_of_games() {
    // Every self-play run numbers its games from 0, so two rounds' directories hold the same
    // game ids for different games: the run counts them apart.
    let dir = TempDir::new("two-dirs");
    let copy = dir.join("copy");
    fs::create_dir_all(&copy).unwrap();
    for entry in fs::read_dir(data()).unwrap() {
        let p = entry.unwrap().path();
        fs::copy(&p, copy.join(p.file_name().unwrap())).unwrap();
    }
    let (one, two) = (dir.join("one"), dir.join("two"));
    ok(&train_args(one.to_str().unwrap(), &["--epochs", "1"]));
    ok(&train_args(
        two.to_str().unwrap(),
        &["--epochs", "1", "--data", copy.to_str().unwrap()],
    ));
    let data_of = |run: &Path| -> serde_json::Value {
        let s: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
        s["data"].clone()
    };
    let (a, b) = (data_of(&one), data_of(&two));
    for key in ["train", "validation", "train_games", "validation_games"] {
        let (x, y) = (a[key].as_u64().unwrap(), b[key].as_u64().unwrap());
        assert!(x > 0 || key == "validation_games", "{key}: {a}");
        assert_eq!(y, 2 * x, "{key}: one directory {a}, two {b}");
    }
}
