//! Data and GBT pipeline: the UCI file's exact reconstruction, solver agreement on a fixed
//! sample, resumable labelling, the download path against a loopback HTTP server, self-play
//! data, GBT accuracy and determinism, and model files used as agents.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{both, c4, s, temp_dir};
use connect4_engine::Geometry;
use connect4_engine::features::FeatureSet;
use connect4_engine::ml::dataset::feature_matrix;
use connect4_engine::ml::gbt::{GbtParams, fit_gbt};
use connect4_engine::ml::metrics::Metrics;
use connect4_engine::ml::split::stratified_split;
use connect4_learn::datasets::Label;
use connect4_learn::datasets::enumerate::enumerate_uci;
use connect4_learn::datasets::games_csv::read_positions;
use connect4_learn::datasets::label::{Shard, for_workers, generate_uci, partial_path};
use connect4_learn::datasets::uci::read_uci;
use linfa::ParamGuard;
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The published file, plain: decompressed once from the repository's data/uci .Z file.
fn uci_path() -> PathBuf {
    static PLAIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PLAIN
        .get_or_init(|| {
            let z = std::fs::read(common::repo_data("uci/connect-4.data.Z")).unwrap();
            let plain = connect4_learn::datasets::lzw::decompress(&z).unwrap();
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
            let (path, part) = (
                dir.join("connect-4.data"),
                dir.join(format!("connect-4.data.{}", std::process::id())),
            );
            std::fs::write(&part, plain).unwrap();
            std::fs::rename(&part, &path).unwrap();
            path
        })
        .clone()
}

#[test]
fn the_file_has_the_published_counts_and_the_enumeration_rebuilds_it_exactly() {
    let rows = read_uci(&uci_path()).unwrap();
    assert_eq!(rows.len(), 67_557);
    let count = |l: Label| rows.iter().filter(|r| r.label == l).count();
    assert_eq!(
        (count(Label::Win), count(Label::Loss), count(Label::Draw)),
        (44_473, 16_635, 6_449)
    );
    let file: HashSet<u64> = rows.iter().map(|r| r.position.key()).collect();
    let ours: Vec<_> = enumerate_uci(Geometry::default(), 8);
    assert_eq!(ours.len(), 67_557);
    let ours: HashSet<u64> = ours.iter().map(|p| p.key()).collect();
    assert_eq!(ours, file);
}

#[test]
fn a_fixed_sample_agrees_with_the_solver() {
    let o = c4(&[
        "data",
        "verify-uci",
        "--uci",
        uci_path().to_str().unwrap(),
        "--sample",
        "6",
        "--seed",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", both(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["checked"], 6);
    assert_eq!(v["agree"], 6);
}

#[test]
fn the_shipped_uci_file_is_read_by_default_and_checked() {
    // From the repository root: the tracked data/uci/connect-4.data.Z.
    let o = c4(&["data", "uci"]);
    let out = both(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("data/uci/connect-4.data.Z: 67557 rows")
            && out.contains("(the published file)")
            && !out.contains("embedded"),
        "{out}"
    );
    let o = c4(&["data", "uci", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["classes"], serde_json::json!([16635, 6449, 44473]));
    // Anywhere else, the copy compiled into the program.
    let d = temp_dir("shipped");
    let run = |dir: &Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_c4"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap()
    };
    let o = run(&d, &["data", "uci"]);
    assert!(o.status.success(), "{}", both(&o));
    assert!(both(&o).contains("(embedded): 67557 rows"), "{}", both(&o));
    // A damaged shipped file is refused, not silently used.
    let z = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/uci/connect-4.data.Z"))
        .unwrap();
    std::fs::create_dir_all(d.join("data/uci")).unwrap();
    std::fs::write(d.join("data/uci/connect-4.data.Z"), &z[..z.len() / 2]).unwrap();
    let o = run(&d, &["data", "uci"]);
    assert!(!o.status.success());
    assert!(
        both(&o).contains("the shipped file is damaged"),
        "{}",
        both(&o)
    );
}

#[test]
fn bad_rows_are_reported_with_line_and_column_and_a_missing_file_says_how_to_get_it() {
    let d = temp_dir("badrow");
    let good = std::fs::read_to_string(uci_path()).unwrap();
    let lines: Vec<&str> = good.lines().take(3).collect();
    let bad = format!(
        "{}\n{}\n{}\n",
        lines[0],
        lines[1].replacen('b', "q", 1),
        lines[2]
    );
    let f = d.join("bad.data");
    std::fs::write(&f, bad).unwrap();
    let o = c4(&["data", "uci", "--uci", f.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        both(&o).contains("bad.data:2: column 1 (a1)"),
        "{}",
        both(&o)
    );
    let o = c4(&[
        "data",
        "uci",
        "--uci",
        d.join("none.data").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("c4 data fetch-uci"), "{}", both(&o));
    let o = c4(&[
        "data",
        "uci",
        "--uci",
        uci_path().to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["classes"], serde_json::json!([16635, 6449, 44473]));
    assert_eq!(v["symmetric"], 180);
}

#[test]
fn labelling_resumes_after_an_interruption_and_gives_the_same_file() {
    let d = temp_dir("resume");
    let all = enumerate_uci(Geometry::default(), 8);
    // Positions 0, 5000, 10000, ... : a small job with the real set's spread.
    let job: Vec<_> = all.iter().step_by(5000).copied().take(8).collect();
    let pool = for_workers(
        Geometry::default(),
        16,
        Some(connect4_engine::solver::book::embedded()),
    )
    .unwrap();
    let full = d.join("full.data");
    let r = generate_uci(
        &job,
        Shard::default(),
        &full,
        false,
        &pool,
        &connect4_engine::progress::Quiet,
    )
    .unwrap();
    assert_eq!((r.total, r.resumed, r.labelled), (8, 0, 8));
    let full_text = std::fs::read_to_string(&full).unwrap();
    // Every label agrees with the file's where the position is in it (all of them are).
    let file: std::collections::HashMap<u64, Label> = read_uci(&uci_path())
        .unwrap()
        .iter()
        .map(|r| (r.position.key(), r.label))
        .collect();
    for row in read_uci(&full).unwrap() {
        assert_eq!(file[&row.position.key()], row.label);
    }
    // An interrupted run: three rows written and a torn fourth line.
    let out = d.join("resumed.data");
    let lines: Vec<&str> = full_text.lines().collect();
    let torn = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..20]
    );
    std::fs::write(partial_path(&out), torn).unwrap();
    let e = generate_uci(
        &job,
        Shard::default(),
        &out,
        false,
        &pool,
        &connect4_engine::progress::Quiet,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("exists from an interrupted run"),
        "{e}"
    );
    let r = generate_uci(
        &job,
        Shard::default(),
        &out,
        true,
        &pool,
        &connect4_engine::progress::Quiet,
    )
    .unwrap();
    assert_eq!((r.resumed, r.labelled), (3, 5));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full_text);
    assert!(!partial_path(&out).exists());
    // Shards partition the job.
    let s0 = Shard { index: 0, count: 2 }.select(&job);
    let s1 = Shard { index: 1, count: 2 }.select(&job);
    assert_eq!((s0.len(), s1.len()), (4, 4));
}

/// Serves `body` to every request for `/data` (404 otherwise) on a loopback port.
fn serve(body: Vec<u8>, requests: usize) -> (String, std::thread::JoinHandle<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let h = std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let mut s = stream.unwrap();
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = s.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                req.extend_from_slice(&buf[..n]);
            }
            let ok = String::from_utf8_lossy(&req).starts_with("GET /data ");
            let (status, payload): (&str, &[u8]) = if ok {
                ("200 OK", &body)
            } else {
                ("404 Not Found", b"no")
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                payload.len()
            );
            s.write_all(head.as_bytes()).unwrap();
            s.write_all(payload).unwrap();
        }
    });
    (format!("http://{addr}"), h)
}

#[test]
fn fetch_downloads_unpacks_checks_and_writes_the_file() {
    let d = temp_dir("fetch");
    let z = std::fs::read(common::repo_data("uci/connect-4.data.Z")).unwrap();
    // The .Z file as served by a loopback server.
    let (url, h) = serve(z.clone(), 1);
    let out = d.join("uci/connect-4.data");
    let o = c4(&[
        "data",
        "fetch-uci",
        "--url",
        &format!("{url}/data"),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", both(&o));
    h.join().unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(uci_path()).unwrap()
    );
    // The same inside a zip archive, as the UCI repository ships it.
    let mut zip_bytes = Vec::new();
    {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(&mut zip_bytes));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        w.start_file("connect-4.names", opts).unwrap();
        w.write_all(b"names").unwrap();
        w.start_file("connect-4.data.Z", opts).unwrap();
        w.write_all(&z).unwrap();
        w.finish().unwrap();
    }
    let (url, h) = serve(zip_bytes, 1);
    let out2 = d.join("zip.data");
    let o = c4(&[
        "data",
        "fetch-uci",
        "--url",
        &format!("{url}/data"),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", both(&o));
    h.join().unwrap();
    assert_eq!(
        std::fs::read(&out2).unwrap(),
        std::fs::read(uci_path()).unwrap()
    );
    // A changed file fails the checksum and writes nothing; a 404 is an error too.
    let mut plain = std::fs::read(uci_path()).unwrap();
    plain[0] = b'x';
    let (url, h) = serve(plain, 2);
    let out3 = d.join("bad.data");
    let o = c4(&[
        "data",
        "fetch-uci",
        "--url",
        &format!("{url}/data"),
        "--out",
        out3.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("sha256"), "{}", both(&o));
    assert!(!out3.exists());
    let o = c4(&[
        "data",
        "fetch-uci",
        "--url",
        &format!("{url}/missing"),
        "--out",
        out3.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("404"), "{}", both(&o));
    h.join().unwrap();
}

#[test]
fn selfplay_writes_solver_labelled_positions() {
    let d = temp_dir("selfplay");
    let out = d.join("sp.csv");
    let o = c4(&[
        "data",
        "selfplay",
        "--agents",
        "easy,hard",
        "--games",
        "6",
        "--plies",
        "20..41",
        "--label",
        "strong",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", both(&o));
    let rows = read_positions(&out, Geometry::default()).unwrap();
    assert!(!rows.is_empty());
    let keys: HashSet<u64> = rows.iter().map(|r| r.position.canonical_key()).collect();
    assert_eq!(keys.len(), rows.len(), "deduplicated up to mirror");
    let mut solver = connect4_engine::Solver::with_table_mib(Geometry::default(), 16).unwrap();
    for r in rows.iter().take(20) {
        assert!((20..=41).contains(&r.position.moves_played()));
        assert_eq!(solver.solve(&r.position), r.score);
    }
    let o = c4(&[
        "data",
        "selfplay",
        "--agents",
        "easy",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("exactly two"), "{}", both(&o));
}

fn uci_split(
    set: FeatureSet,
) -> (
    ndarray::Array2<f64>,
    Vec<usize>,
    ndarray::Array2<f64>,
    Vec<usize>,
) {
    let rows = read_uci(&uci_path()).unwrap();
    let pos: Vec<_> = rows.iter().map(|r| r.position).collect();
    let y: Vec<usize> = rows.iter().map(|r| r.label.index()).collect();
    let x = feature_matrix(set, &pos);
    let (tr, te) = stratified_split(&y, 0.2, 0);
    let pick = |idx: &[usize]| {
        (
            x.select(ndarray::Axis(0), idx),
            idx.iter().map(|&i| y[i]).collect::<Vec<_>>(),
        )
    };
    let (a, b) = pick(&tr);
    let (c, d) = pick(&te);
    (a, b, c, d)
}

#[test]
fn the_reference_configuration_reaches_the_sklearn_accuracy_on_the_holdout() {
    let (x, y, tx, ty) = uci_split(FeatureSet::Cells);
    let params = GbtParams::reference().check().unwrap();
    let m = fit_gbt(
        &params,
        x.view(),
        &y,
        None,
        &connect4_engine::progress::Quiet,
    )
    .unwrap();
    let met = Metrics::from_probs(&m.predict_proba_flat(tx.view()), 3, &ty);
    assert!(met.accuracy >= 0.860, "accuracy {}", met.accuracy);
    assert!(met.log_loss <= 0.36, "log loss {}", met.log_loss);
    // Single-row prediction is the same model as the batch path.
    let mut p = [0.0; 3];
    m.predict_proba_row(&tx.row(7).to_vec(), &mut p);
    let batch = m.predict_proba(tx.view());
    for k in 0..3 {
        assert!((p[k] - batch[[7, k]]).abs() < 1e-12);
    }
}

#[test]
fn the_same_seed_gives_the_same_model() {
    let (x, y, tx, _) = uci_split(FeatureSet::Cells);
    let params = GbtParams::reference().max_iter(15).check().unwrap();
    let a = fit_gbt(
        &params,
        x.view(),
        &y,
        None,
        &connect4_engine::progress::Quiet,
    )
    .unwrap();
    let b = fit_gbt(
        &params,
        x.view(),
        &y,
        None,
        &connect4_engine::progress::Quiet,
    )
    .unwrap();
    assert!(a.data() == b.data(), "two fits with one seed differ");
    assert_eq!(
        a.predict_proba_flat(tx.view()),
        b.predict_proba_flat(tx.view())
    );
    let c = fit_gbt(
        &GbtParams::reference().max_iter(15).seed(1).check().unwrap(),
        x.view(),
        &y,
        None,
        &connect4_engine::progress::Quiet,
    )
    .unwrap();
    assert!(
        a.data().history != c.data().history,
        "another validation split"
    );
}

#[test]
fn a_trained_model_plays_in_tournaments_and_benchmarks_and_bad_files_are_refused() {
    let d = temp_dir("model");
    let model = d.join("gbt.bin");
    let o = c4(&[
        "train",
        "gbt",
        "--uci",
        uci_path().to_str().unwrap(),
        "--max-iter",
        "8",
        "--cv",
        "2",
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", both(&o));
    let t = both(&o);
    assert!(t.contains("accuracy") && t.contains("2-fold CV"), "{t}");
    for f in ["gbt.curve.csv", "gbt.report.json", "gbt.importance.csv"] {
        assert!(d.join(f).exists(), "{f}");
    }
    let curve = std::fs::read_to_string(d.join("gbt.curve.csv")).unwrap();
    assert!(
        curve.starts_with("iteration,train_loss,train_accuracy,validation_loss"),
        "{curve}"
    );
    assert_eq!(curve.lines().count(), 9);
    let spec = format!("model:{},depth=2", model.display());
    let o = c4(&[
        "tournament",
        "--agents",
        &format!("{spec},random"),
        "--games",
        "4",
        "--out",
        d.join("t").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", both(&o));
    let l3 = common::repo_data("bench/end-easy");
    let o = c4(&[
        "bench",
        "agent",
        "--agent",
        &spec,
        l3.to_str().unwrap(),
        "--limit",
        "5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", both(&o));
    // A corrupted copy and a missing file: clear errors, no panic.
    let mut bytes = std::fs::read(&model).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0xff;
    let bad = d.join("bad.bin");
    std::fs::write(&bad, &bytes).unwrap();
    let o = c4(&[
        "tournament",
        "--agents",
        &format!("model:{},depth=2,random", bad.display()),
        "--games",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("corrupted"), "{}", both(&o));
    assert!(!both(&o).contains("panicked"));
    std::fs::write(&bad, &bytes[..n / 3]).unwrap();
    let o = c4(&[
        "bench",
        "agent",
        "--agent",
        &format!("model:{}", bad.display()),
        l3.to_str().unwrap(),
        "--limit",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("truncated"), "{}", both(&o));
    let o = c4(&["bench", "agent", "--agent", "model:", l3.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(both(&o).contains("needs path"), "{}", both(&o));
}

/// The first `n` (moves, score) pairs of one of the repository's benchmark sets (data/bench:
/// exact scores, drawn like Pons' sets of the same names).
fn bench_head(set: &str, n: usize) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(common::repo_data(&format!("bench/{set}"))).unwrap();
    text.lines()
        .take(n)
        .map(|l| {
            let (m, s) = l.split_once(' ').unwrap();
            (m.to_string(), s.to_string())
        })
        .collect()
}

/// `--order-model` only changes how fast the solver finds a score, never the score: with the
/// shipped GBT ordering every node (`--order-plies 42`), the middle-easy set's scores come out
/// exactly; a model file that is not there is named.
#[test]
fn label_with_an_order_model_gives_the_exact_scores() {
    let d = temp_dir("order");
    let lines = bench_head("middle-easy", 40);
    let src = d.join("src.txt");
    let source: Vec<&str> = lines.iter().map(|(m, _)| m.as_str()).collect();
    std::fs::write(&src, source.join("\n") + "\n").unwrap();
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/gbt.bin");
    let out = d.join("out.txt");
    let args = |model: &str| {
        [
            "data",
            "label",
            src.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--order-model",
            model,
            "--order-plies",
            "42",
        ]
        .map(String::from)
    };
    let a = args(model.to_str().unwrap());
    let o = c4(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", both(&o));
    let want: Vec<String> = lines.iter().map(|(m, sc)| format!("{m} {sc}")).collect();
    let got = std::fs::read_to_string(&out).unwrap();
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
    let missing = d.join("no-such-model.bin");
    let a = args(missing.to_str().unwrap());
    let o = c4(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!o.status.success());
    assert!(
        both(&o).contains("--order-model") && both(&o).contains("no-such-model.bin"),
        "{}",
        both(&o)
    );
}

/// One labelling job shared by the tests below: 30 end-game positions of data/bench/end-easy (their scores are
/// independent of our solver) with one bad line, labelled unsharded and in three shards.
struct LabelRun {
    /// Kept for the whole process (a static is never dropped): the label tests share it.
    dir: common::TempDir,
    src: std::path::PathBuf,
    source: Vec<String>,
    /// "MOVES SCORE" as the set gives them, the bad line left out.
    want: Vec<String>,
    /// The set's scores, in order.
    scores: Vec<i32>,
    all: std::path::PathBuf,
    /// What `c4 data label` printed for the unsharded run.
    unsharded: std::process::Output,
    /// The three shard files' text.
    shards: Vec<String>,
}

fn label_run() -> &'static LabelRun {
    static RUN: std::sync::OnceLock<LabelRun> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let dir = temp_dir("label");
        let lines = bench_head("end-easy", 30);
        let mut source: Vec<String> = lines.iter().map(|(m, _)| m.to_string()).collect();
        source.insert(7, "448".into());
        let src = dir.join("src.txt");
        std::fs::write(&src, source.join("\n") + "\n").unwrap();
        let all = dir.join("all.txt");
        let unsharded = c4(&["data", "label", s(&src), "--out", s(&all)]);
        let mut shards = Vec::new();
        for i in 0..3 {
            let out = dir.join(format!("part{i}.txt"));
            let shard = format!("{i}/3");
            c4(&[
                "data",
                "label",
                s(&src),
                "--out",
                s(&out),
                "--shard",
                &shard,
            ]);
            shards.push(std::fs::read_to_string(&out).unwrap());
        }
        LabelRun {
            want: lines.iter().map(|(m, sc)| format!("{m} {sc}")).collect(),
            scores: lines.iter().map(|(_, sc)| sc.parse().unwrap()).collect(),
            dir,
            src,
            source,
            all,
            unsharded,
            shards,
        }
    })
}

#[test]
fn data_label_scores_match_the_file_and_name_the_bad_line() {
    let r = label_run();
    // Unsharded: every good line labelled in order, the bad one named, exit non-zero.
    let o = &r.unsharded;
    assert!(!o.status.success());
    assert!(
        both(o).contains("line 8: move 3: column 8 is out of range"),
        "{}",
        both(o)
    );
    let labelled = std::fs::read_to_string(&r.all).unwrap();
    assert_eq!(labelled.lines().collect::<Vec<_>>(), r.want);
    // Weak labels are the signs.
    let weak = temp_dir("label-weak").join("weak.txt");
    c4(&["data", "label", s(&r.src), "--out", s(&weak), "--weak"]);
    for (w, sc) in std::fs::read_to_string(&weak)
        .unwrap()
        .lines()
        .zip(&r.scores)
    {
        let got: i32 = w.split_once(' ').unwrap().1.parse().unwrap();
        assert_eq!(got, sc.signum());
    }
    // Flushed in chunks of 4 positions: the same file; a chunk of none is refused.
    let chunked = temp_dir("label-chunked").join("chunked.txt");
    let label_in_chunks = |n: &str| {
        c4(&[
            "data",
            "label",
            s(&r.src),
            "--out",
            s(&chunked),
            "--chunk",
            n,
        ])
    };
    label_in_chunks("4");
    assert_eq!(std::fs::read_to_string(&chunked).unwrap(), labelled);
    let o = label_in_chunks("0");
    assert_eq!(o.status.code(), Some(2), "{}", both(&o));
    assert!(both(&o).contains("--chunk"), "{}", both(&o));
}

#[test]
fn data_label_shards_cover_the_source_in_order() {
    let r = label_run();
    // Three shards: line k of the source is in shard k % 3, in order.
    let mut rebuilt = Vec::new();
    let mut next = [0usize; 3];
    let parts: Vec<Vec<&str>> = r.shards.iter().map(|t| t.lines().collect()).collect();
    for (k, line) in r.source.iter().enumerate() {
        if line == "448" {
            continue;
        }
        rebuilt.push(parts[k % 3][next[k % 3]].to_string());
        next[k % 3] += 1;
    }
    assert_eq!(rebuilt, r.want);
}

#[test]
fn data_merge_rebuilds_the_unsharded_file_and_refuses_bad_parts() {
    let r = label_run();
    // Copies of the parts (with their manifests), since this test damages them.
    let d = temp_dir("label-merge");
    for i in 0..3 {
        for suffix in ["", ".shard.json"] {
            let name = format!("part{i}.txt{suffix}");
            std::fs::copy(r.dir.join(&name), d.join(&name)).unwrap();
        }
    }
    // Merging the three parts gives the unsharded file, with or without the source.
    let part_paths: Vec<String> = (0..3)
        .map(|i| s(&d.join(format!("part{i}.txt"))).to_string())
        .collect();
    let merged = d.join("merged.txt");
    let merged_s = s(&merged);
    let merge = vec![
        "data",
        "merge",
        &part_paths[2],
        &part_paths[0],
        &part_paths[1],
        "--out",
        merged_s,
    ];
    let o = c4(&merge);
    assert!(o.status.success(), "{}", both(&o));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&r.all).unwrap()
    );
    assert!(
        both(&o).contains(&connect4_engine::io::sha256_file(&r.all).unwrap()),
        "{}",
        both(&o)
    );
    let mut with_source = merge.clone();
    with_source.extend(["--source", s(&r.src)]);
    assert!(c4(&with_source).status.success());
    // A missing shard, a doubled one and a damaged part are refused.
    let o = c4(&[
        "data",
        "merge",
        &part_paths[0],
        &part_paths[1],
        "--out",
        merged_s,
    ]);
    assert!(both(&o).contains("shard 2/3 is missing"), "{}", both(&o));
    let o = c4(&[
        "data",
        "merge",
        &part_paths[0],
        &part_paths[1],
        &part_paths[1],
        "--out",
        merged_s,
    ]);
    assert!(
        both(&o).contains("shard 1/3 is given twice"),
        "{}",
        both(&o)
    );
    let damaged = std::fs::read_to_string(&part_paths[0])
        .unwrap()
        .replacen(' ', " 9", 1);
    std::fs::write(&part_paths[0], &damaged).unwrap();
    let o = c4(&with_source);
    assert!(!o.status.success());
    let first = damaged.lines().next().unwrap().to_string();
    std::fs::write(
        &part_paths[0],
        std::fs::read_to_string(&part_paths[0])
            .unwrap()
            .replacen(&first, "1234567 1", 1),
    )
    .unwrap();
    let o = c4(&with_source);
    assert!(
        both(&o).contains("the source does not match"),
        "{}",
        both(&o)
    );
}

#[test]
fn data_label_resumes_an_interrupted_shard() {
    let r = label_run();
    // Interrupted: five lines and a torn sixth in the partial file. Without --resume it is
    // refused; with it the run finishes to the same file.
    let d = temp_dir("label-resume");
    let out = d.join("resumed.txt");
    let part2: Vec<&str> = r.shards[2].lines().collect();
    let torn = format!("{}\n{}", part2[..5].join("\n"), &part2[5][..3]);
    std::fs::write(d.join("resumed.txt.partial"), torn).unwrap();
    let args = [
        "data",
        "label",
        s(&r.src),
        "--out",
        s(&out),
        "--shard",
        "2/3",
    ];
    let o = c4(&args);
    assert!(!o.status.success());
    assert!(both(&o).contains("pass --resume"), "{}", both(&o));
    let mut with_resume = args.to_vec();
    with_resume.push("--resume");
    let o = c4(&with_resume);
    assert!(o.status.success(), "{}", both(&o));
    assert!(both(&o).contains("5 from the partial file"), "{}", both(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), r.shards[2]);
}

/// The `lines` features lift the UCI holdout well above plain cells at the same small number
/// of iterations (30: 0.853 against 0.832 on seed 0), and `--mirror-average` reports the
/// test-time-augmented score beside the plain one.
#[test]
fn line_features_beat_cells_on_the_uci_holdout() {
    let d = temp_dir("lines");
    let accuracy = |features: &str| -> (f64, f64) {
        let out = d.join(format!("{}.bin", features.replace('+', "_")));
        let o = c4(&[
            "train",
            "gbt",
            "--uci",
            uci_path().to_str().unwrap(),
            "--features",
            features,
            "--max-iter",
            "30",
            "--mirror-average",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", both(&o));
        let t = both(&o);
        let after = |key: &str| -> f64 {
            let rest = &t[t.find(key).unwrap_or_else(|| panic!("{key} in {t}")) + key.len()..];
            rest.split(|c: char| c == ',' || c.is_whitespace())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        (after(", accuracy "), after("mirror-averaged: accuracy "))
    };
    let (cells, _) = accuracy("cells");
    let (lines, lines_mirrored) = accuracy("cells+lines");
    assert!(
        lines > cells + 0.01,
        "cells+lines {lines} against cells {cells}"
    );
    assert!((0.5..1.0).contains(&lines_mirrored), "{lines_mirrored}");
}

#[test]
fn the_score_target_learns_five_classes_whose_expected_value_the_search_reads() {
    use connect4_engine::eval::{Evaluator, GbtEvaluator};
    use connect4_engine::ml::gbt::GbtTarget;
    let d = temp_dir("gbt-score");
    let model = d.join("score.bin");
    let train = |target: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "gbt",
            "--positions",
            "data/positions/heldout.txt.gz",
            "--features",
            "cells+oddeven",
            "--max-iter",
            "6",
            "--max-leaf-nodes",
            "15",
            "--target",
            target,
            "--out",
            s(&model),
        ];
        args.extend_from_slice(extra);
        c4(&args)
    };
    // The UCI rows have no exact score: refused before any fitting, saying what to do.
    let o = train("score", &[]);
    assert!(!o.status.success(), "{}", both(&o));
    let t = both(&o);
    assert!(t.contains("exact score") && t.contains("--no-uci"), "{t}");
    assert!(!t.contains("panicked") && !model.exists(), "{t}");

    let o = train("score", &["--no-uci"]);
    assert!(o.status.success(), "{}", both(&o));
    let g = Geometry::STANDARD;
    let e = GbtEvaluator::load(&model, g).unwrap();
    assert_eq!(e.target(), GbtTarget::Score);
    assert_eq!(e.model().n_classes(), 5);

    // `c4 predict` prints the value the search reads (the expected class value, which is not
    // P(win) - P(loss)) and the five classes folded into loss / draw / win.
    let o = c4(&[
        "predict",
        s(&model),
        "data/bench/middle-medium",
        "--limit",
        "40",
    ]);
    assert!(o.status.success(), "{}", both(&o));
    let out = common::text(&o.stdout);
    let mut differs = 0;
    for line in out.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let pos = connect4_engine::Position::from_moves(g, f[0]).unwrap();
        let v: f64 = f[1].parse().unwrap();
        let p: Vec<f64> = f[2..5].iter().map(|x| x.parse().unwrap()).collect();
        assert!((v - e.evaluate(&pos)).abs() < 1e-9, "{line}");
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{line}");
        let q = e.probabilities(&pos);
        assert!(
            q.iter().zip(&p).all(|(a, b)| (a - b).abs() < 1e-9),
            "{line}"
        );
        if (v - (p[2] - p[0])).abs() > 1e-6 {
            differs += 1;
        }
    }
    assert_eq!(out.lines().count(), 41);
    assert!(differs > 0, "the value should weigh a sooner win more");

    // It plays as any model agent does.
    let o = c4(&[
        "tournament",
        "--agents",
        &format!("model:{},depth=2,random", model.display()),
        "--games",
        "2",
        "--out",
        s(&d.join("t")),
    ]);
    assert!(o.status.success(), "{}", both(&o));
}

#[test]
fn train_gbt_learns_another_board_from_its_own_labelled_positions() {
    let d = temp_dir("gbt5x4");
    let (raw, labelled, model) = (d.join("p.txt"), d.join("p.lab.txt"), d.join("gbt-5x4.bin"));
    let board = ["--width", "5", "--height", "4"];
    let with_board = |args: &[&str]| -> Vec<String> {
        args.iter()
            .chain(board.iter())
            .map(|a| a.to_string())
            .collect()
    };
    let run = |args: Vec<String>, what: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = c4(&args);
        assert!(o.status.success(), "{what}: {}", both(&o));
        both(&o)
    };
    run(
        with_board(&[
            "data",
            "positions",
            "--plies",
            "6..16",
            "--count",
            "600",
            "--seed",
            "1",
            "--out",
            s(&raw),
        ]),
        "data positions",
    );
    run(
        with_board(&["data", "label", s(&raw), "--out", s(&labelled)]),
        "data label",
    );
    let t = run(
        with_board(&[
            "train",
            "gbt",
            "--positions",
            s(&labelled),
            "--features",
            "cells+oddeven",
            "--max-iter",
            "10",
            "--out",
            s(&model),
        ]),
        "train gbt on 5x4",
    );
    // 600 positions, a fifth of them held out by a stratified split.
    assert!(
        t.contains("train rows 481 (481 main") && t.contains("test rows 119"),
        "{t}"
    );
    // The model plays on its board and is refused on 7x6, naming both.
    let spec = format!("model:{},depth=2", model.display());
    let t = d.join("t");
    let tournament = [
        "tournament",
        "--agents",
        &spec,
        "random",
        "--games",
        "2",
        "--out",
        s(&t),
    ];
    run(with_board(&tournament), "the 5x4 model in a 5x4 tournament");
    let o = c4(&tournament);
    assert!(
        !o.status.success() && both(&o).contains("model is for a 5x4 board, this board is 7x6"),
        "{}",
        both(&o)
    );
    // No UCI file off 7x6: named, it is refused; left out, labelled files are needed.
    let o = c4(
        &with_board(&["train", "gbt", "--uci", s(&uci_path()), "--out", s(&model)])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(
        !o.status.success() && both(&o).contains("holds 7x6 positions and this board is 5x4"),
        "{}",
        both(&o)
    );
    let o = c4(&with_board(&["train", "gbt", "--out", s(&model)])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert!(
        !o.status.success() && both(&o).contains("on 5x4 there is no UCI file"),
        "{}",
        both(&o)
    );
}
