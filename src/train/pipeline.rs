//! `c4 pipeline`: the main job, end to end, into one run directory.
//!
//! Stages, in order; each writes its files (atomically) before the next starts, so a stage
//! that fails stops the run with its error and leaves every earlier stage's output and a
//! `report.md` that says what finished:
//!
//! 1. **data**: the UCI file when present (a note when not), plus solver-labelled positions
//!    from games between `hard` and `handtuned` over plies 10-41 (`data/selfplay.csv`). Half
//!    of them (by a seeded shuffle) join the GBT's training rows; the other half is the
//!    "phases" test set, on which the GBT's probabilities are recorded by ply.
//! 2. **lms**: LMS weights by self-play (`models/lms.bin` and its curves).
//! 3. **gbt**: the GBT, reference configuration (`models/gbt.bin`, curve, importance, report,
//!    `models/gbt.phases.csv`).
//! 4. **ladder**: a round robin of random, easy, hard, handtuned, lms, gbt, hybrid and
//!    perfect with Elo (`ladder/`), then the model agents, `hard` and `handtuned` in a
//!    longer round robin (`detail/`): every model agent against the hand-tuned agent in
//!    detail.
//! 5. **bench**: every agent but `perfect` (the oracle) graded against the solver on the
//!    Pons benchmark files (`bench/error_rates.json`, `bench/moves.csv`).
//! 6. **plots**: every chart `c4 plot` knows, into `plots/`.
//! 7. **report**: `report.md`.

use super::lms::{LmsConfig, LmsReport};
use super::selfplay::{SelfplayConfig, generate};
use crate::agents::AgentSpec;
use crate::arena::bench_sets::BenchSet;
use crate::arena::{
    GradeSummary, Tournament, TournamentConfig, TournamentSummary, grade_positions,
    read_graded_file,
};
use crate::features::FeatureSet;
use crate::game::Geometry;
use crate::io::model_format::TrainingMeta;
use crate::io::{beside, write_csv_atomic, write_json_atomic};
use crate::ml::experiment::{Example, ExperimentConfig, ExperimentReport, run_experiment};
use crate::ml::gbt::GbtParams;
use crate::ml::positions::{LabelledPosition, write_positions};
use crate::ml::uci;
use crate::solver::Mode;
use linfa::ParamGuard;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug)]
pub struct PipelineConfig {
    /// The run directory.
    pub out: PathBuf,
    /// The small run (about a minute) instead of the default (about ten).
    pub quick: bool,
    /// Seed of every stage.
    pub seed: u64,
    /// The UCI data file (`None`: the GBT learns from self-play positions only).
    pub uci: Option<PathBuf>,
    /// Folder of the benchmark files: the shipped sets (`data/bench`) or the Pons files.
    pub bench: PathBuf,
    /// Worker threads for games and grading.
    pub jobs: usize,
}

/// Sizes of every stage, from `--quick` or the default.
#[derive(Clone, Debug, Serialize)]
pub struct Sizes {
    /// Self-play games whose positions are labelled.
    pub selfplay_games: usize,
    /// Most LMS training games.
    pub lms_games: usize,
    /// LMS evaluation interval and match size.
    pub lms_eval_every: usize,
    /// Games per LMS evaluation match.
    pub lms_eval_games: usize,
    /// Most boosting iterations.
    pub gbt_max_iter: usize,
    /// Search depth of handtuned, lms, gbt and hybrid.
    pub depth: u32,
    /// Games per ladder pairing.
    pub ladder_games: usize,
    /// Random opening plies in the ladder. The perfect agent's book ends at three stones
    /// and solving a 4-stone position takes up to a minute, so ladder games start later
    /// than the detailed round robin's (which has no perfect agent).
    pub ladder_openings: usize,
    /// Games per pairing in the detailed round robin.
    pub detail_games: usize,
    /// Positions graded per benchmark file.
    pub bench_positions: usize,
    /// Benchmark sets graded (names of [`crate::arena::bench_sets::BENCH_SETS`]).
    pub bench_files: Vec<String>,
}

impl Sizes {
    /// The sizes for a quick or a default run.
    pub fn new(quick: bool) -> Sizes {
        if quick {
            Sizes {
                selfplay_games: 16,
                lms_games: 200,
                lms_eval_every: 50,
                lms_eval_games: 20,
                gbt_max_iter: 40,
                depth: 3,
                ladder_games: 2,
                ladder_openings: 8,
                detail_games: 10,
                bench_positions: 5,
                bench_files: ["end-easy", "middle-easy", "begin-easy"]
                    .map(String::from)
                    .to_vec(),
            }
        } else {
            Sizes {
                selfplay_games: 400,
                lms_games: LmsConfig::default().max_games,
                lms_eval_every: LmsConfig::default().eval_every,
                lms_eval_games: LmsConfig::default().eval_games,
                gbt_max_iter: 490,
                depth: 3,
                ladder_games: 10,
                ladder_openings: 6,
                detail_games: 200,
                bench_positions: 50,
                bench_files: [
                    "end-easy",
                    "middle-easy",
                    "middle-medium",
                    "begin-easy",
                    "begin-medium",
                ]
                .map(String::from)
                .to_vec(),
            }
        }
    }
}

/// Hears about the run's progress (implemented by the CLI's progress bars).
pub trait Observer: Sync {
    /// A stage (or part of one) starts with `total` steps (0 when unknown).
    fn start(&self, label: &str, total: usize);
    /// One step done.
    fn step(&self);
    /// The current part finished.
    fn finish(&self);
    /// Something the user should read (e.g. the UCI file is missing).
    fn note(&self, text: &str);
}

/// Why the pipeline stopped.
#[derive(Debug, thiserror::Error)]
#[error("stage '{stage}' failed: {message}")]
pub struct PipelineError {
    /// The stage.
    pub stage: &'static str,
    /// What went wrong.
    pub message: String,
}

fn fail<E: std::fmt::Display>(stage: &'static str) -> impl Fn(E) -> PipelineError {
    move |e| PipelineError {
        stage,
        message: e.to_string(),
    }
}

/// The agents of the ladder, as specs; model paths point into the run.
fn agents(run: &Path, depth: u32) -> Vec<(String, String)> {
    let lms = run.join("models/lms.bin");
    let gbt = run.join("models/gbt.bin");
    vec![
        ("random".into(), "random".into()),
        ("easy".into(), "easy".into()),
        ("hard".into(), "hard".into()),
        ("handtuned".into(), format!("handtuned:depth={depth}")),
        ("lms".into(), format!("lms:{},depth={depth}", lms.display())),
        (
            "gbt".into(),
            format!("model:{},depth={depth}", gbt.display()),
        ),
        (
            "hybrid".into(),
            format!("hybrid:model={},depth={depth}", gbt.display()),
        ),
        ("perfect".into(), "perfect".into()),
    ]
}

/// One row of `bench/moves.csv`: a graded move with the position's ply.
#[derive(Serialize)]
struct MoveRow<'a> {
    agent: &'a str,
    set: &'a str,
    index: usize,
    ply: usize,
    column: usize,
    score: i32,
    optimal: bool,
    error: bool,
    ms: f64,
}

/// One row of `models/gbt.phases.csv`: the GBT's probabilities on a held-out self-play
/// position.
#[derive(Serialize)]
struct PhaseRow {
    ply: usize,
    label: &'static str,
    p_loss: f64,
    p_draw: f64,
    p_win: f64,
}

/// What the run did, for the report.
#[derive(Default)]
struct Done {
    lines: String,
    timings: Vec<(&'static str, f64)>,
}

impl Done {
    fn section(&mut self, text: &str) {
        self.lines.push_str(text);
        self.lines.push('\n');
    }
}

/// Runs the pipeline; returns the path of `report.md`.
pub fn run_pipeline(
    config: &PipelineConfig,
    observer: &dyn Observer,
) -> Result<PathBuf, PipelineError> {
    let started = Instant::now();
    let inputs = check_inputs(config)?;
    let mut done = Done::default();
    let result = stages(config, inputs, observer, &mut done);
    let total = started.elapsed().as_secs_f64();
    let report = config.out.join("report.md");
    let mut text = String::new();
    let sizes = Sizes::new(config.quick);
    let _ = writeln!(
        text,
        "# connect4-ml pipeline run\n\nCommand: `c4 pipeline --out {}{} --seed {}` (connect4-ml {}).\n",
        config.out.display(),
        if config.quick { " --quick" } else { "" },
        config.seed,
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(
        text,
        "Sizes: {} self-play games; LMS up to {} games (a match of {} games every {}); GBT up to {} iterations; depth {} for handtuned, lms, gbt and hybrid; ladder {} games per pairing ({} random opening plies); detail round robin {} games per pairing; {} positions graded per benchmark file.\n",
        sizes.selfplay_games,
        sizes.lms_games,
        sizes.lms_eval_games,
        sizes.lms_eval_every,
        sizes.gbt_max_iter,
        sizes.depth,
        sizes.ladder_games,
        sizes.ladder_openings,
        sizes.detail_games,
        sizes.bench_positions
    );
    text.push_str(&done.lines);
    let _ = writeln!(text, "## Wall time\n\n| stage | seconds |\n|---|---:|");
    for (s, t) in &done.timings {
        let _ = writeln!(text, "| {s} | {t:.1} |");
    }
    let _ = writeln!(text, "| total | {total:.1} |\n");
    if let Err(e) = &result {
        let _ = writeln!(
            text,
            "## Run stopped\n\n{e}\n\nEverything above finished and its files are kept."
        );
    }
    crate::io::write_bytes_atomic(&report, text.as_bytes()).map_err(fail("report"))?;
    result.map(|()| report)
}

fn timed<T>(
    done: &mut Done,
    stage: &'static str,
    f: impl FnOnce(&mut Done) -> Result<T, PipelineError>,
) -> Result<T, PipelineError> {
    let t = Instant::now();
    let r = f(done);
    done.timings.push((stage, t.elapsed().as_secs_f64()));
    r
}

/// What the run reads, loaded and checked before the first stage.
struct Inputs {
    /// The UCI rows, unless the run goes without them.
    uci: Option<uci::UciData>,
    /// The benchmark positions to grade, per set (file name, positions).
    bench: Vec<(String, Vec<GradedInput>)>,
}

type GradedInput = (crate::game::Position, Option<i32>);

/// Checks everything the run needs before any stage starts, so that a bad path or file fails
/// in a second, not after minutes of work: the run folder can be written, the UCI file reads
/// and validates, every benchmark set is there and parses, every agent spec parses.
fn check_inputs(config: &PipelineConfig) -> Result<Inputs, PipelineError> {
    let bad = fail("inputs");
    let out = &config.out;
    if out.exists() && !out.is_dir() {
        return Err(bad(format!(
            "the run folder {} exists and is not a folder",
            out.display()
        )));
    }
    std::fs::create_dir_all(out).map_err(|e| {
        bad(format!(
            "cannot create the run folder {}: {e}",
            out.display()
        ))
    })?;
    let probe = out.join(format!(".c4-write-check.{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| {
        bad(format!(
            "cannot write in the run folder {}: {e}",
            out.display()
        ))
    })?;
    let _ = std::fs::remove_file(&probe);
    let uci = match &config.uci {
        Some(path) => Some(uci::load_uci(path).map_err(fail("inputs"))?),
        None => None,
    };
    let sizes = Sizes::new(config.quick);
    let mut bench = Vec::new();
    for name in &sizes.bench_files {
        let set =
            BenchSet::named(name).ok_or_else(|| bad(format!("unknown benchmark set {name}")))?;
        let path = set.file_in(&config.bench).ok_or_else(|| {
            bad(format!(
                "benchmark set {} not found in {} (looked for {} and {})",
                set.name,
                config.bench.display(),
                set.name,
                set.pons_name
            ))
        })?;
        let positions = read_graded_file(&path, Geometry::STANDARD, Some(sizes.bench_positions))
            .map_err(fail("inputs"))?;
        if positions.len() < sizes.bench_positions {
            return Err(bad(format!(
                "{} has {} positions; the run grades {}",
                path.display(),
                positions.len(),
                sizes.bench_positions
            )));
        }
        let file_name = path.file_name().map_or_else(
            || set.name.to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        bench.push((file_name, positions));
    }
    for (_, s) in agents(out, sizes.depth) {
        s.parse::<AgentSpec>().map_err(fail("inputs"))?;
    }
    Ok(Inputs { uci, bench })
}

fn stages(
    config: &PipelineConfig,
    inputs: Inputs,
    observer: &dyn Observer,
    done: &mut Done,
) -> Result<(), PipelineError> {
    let geom = Geometry::STANDARD;
    let sizes = Sizes::new(config.quick);
    let run = &config.out;
    let spec = |s: &str| s.parse::<AgentSpec>().map_err(fail("setup"));
    let Inputs { uci, bench } = inputs;

    // 1. Data.
    let (uci_rows, phase_test, gbt_extra, data_notes) = timed(done, "data", |done| {
        let mut notes = Vec::new();
        done.section("## Data\n");
        let uci_rows: Vec<Example> = match uci {
            Some(data) => {
                notes.push(format!("uci:{} sha256={}", data.source, data.sha256));
                done.section(&format!(
                    "- UCI: `{}`, {} rows, sha256 of the uncompressed data `{}`{}",
                    data.source,
                    data.rows.len(),
                    data.sha256,
                    if data.is_published() {
                        " (the published file)"
                    } else {
                        ""
                    }
                ));
                data.rows.iter().map(Example::from).collect()
            }
            None => {
                done.section("- UCI: **not used** (`--no-uci`): the GBT learns from self-play positions only");
                Vec::new()
            }
        };
        let sp = SelfplayConfig {
            agents: [
                spec("hard")?,
                spec(&format!("handtuned:depth={}", sizes.depth))?,
            ],
            games: sizes.selfplay_games,
            plies: 10..=41,
            label: Mode::Weak,
            opening_plies: 4,
            seed: config.seed,
            tt_mib: 64,
        };
        observer.start("data: self-play games", sizes.selfplay_games);
        let labelled = std::sync::Mutex::new(false);
        let out = generate(
            &sp,
            geom,
            &|| observer.step(),
            &|n| {
                observer.finish();
                observer.start("data: solver labels", n);
                *labelled.lock().expect("no panics while held") = true;
            },
            &|| observer.step(),
        )
        .map_err(fail("data"))?;
        observer.finish();
        let path = run.join("data/selfplay.csv");
        write_positions(&path, geom, &out.positions).map_err(fail("data"))?;
        let hash = crate::io::sha256_file(&path).map_err(fail("data"))?;
        notes.push(format!("selfplay:data/selfplay.csv sha256={hash}"));
        let mut positions: Vec<LabelledPosition> = out.positions;
        positions.shuffle(&mut ChaCha8Rng::seed_from_u64(config.seed ^ 0xda7a));
        let half = positions.len() / 2;
        let phase_test = positions.split_off(half);
        done.section(&format!(
            "- Self-play: {} games `hard` vs `handtuned:depth={}` (4 random opening plies), positions of plies 10-41 labelled by the solver (win/draw/loss): {} distinct positions in `data/selfplay.csv` (sha256 `{hash}`); {} join the GBT's training rows, {} are held out as the phases test set.\n",
            sizes.selfplay_games,
            sizes.depth,
            half + phase_test.len(),
            half,
            phase_test.len()
        ));
        let extra: Vec<Example> = positions.iter().map(Example::from).collect();
        Ok((uci_rows, phase_test, extra, notes))
    })?;

    // 2. LMS.
    timed(done, "lms", |done| {
        let cfg = LmsConfig {
            max_games: sizes.lms_games,
            eval_every: sizes.lms_eval_every,
            eval_games: sizes.lms_eval_games,
            window: LmsConfig::default().window.min(sizes.lms_games / 2).max(1),
            depth: sizes.depth,
            seed: config.seed,
            ..LmsConfig::default()
        };
        observer.start("lms: training games", cfg.max_games);
        let lms_run = super::lms::train(&cfg, &mut |p| {
            if let super::lms::Progress::Game(_) = p {
                observer.step();
            }
        })
        .map_err(fail("lms"))?;
        observer.finish();
        let report = LmsReport::new(&cfg, &lms_run);
        let meta = TrainingMeta::new("c4 pipeline (stage lms)", config.seed)
            .rows(lms_run.games)
            .data(vec![format!(
                "self-play against handtuned:depth={}",
                cfg.depth
            )])
            .metrics(report.metrics());
        super::lms::save_run(&run.join("models/lms.bin"), &cfg, &lms_run, meta)
            .map_err(fail("lms"))?;
        done.section("## LMS weights\n");
        done.section(&format!(
            "`models/lms.bin`: {} training games against `handtuned:depth={}`, stopped: {}; kept the weights after game {}; mean squared error over the last {} games {:.4}; cosine similarity to the hand-tuned weights {:.3}.\n",
            lms_run.games,
            cfg.depth,
            lms_run.stop,
            lms_run.kept_after_games,
            cfg.window,
            report.final_window_mse,
            report.cosine_to_hand_tuned
        ));
        done.section("| feature | learned | hand-tuned |\n|---|---:|---:|");
        for i in 0..8 {
            done.section(&format!(
                "| {} | {:.3} | {:.3} |",
                report.features[i], report.weights[i], report.hand_tuned_weights[i]
            ));
        }
        let scores: Vec<String> = lms_run
            .evaluations
            .iter()
            .map(|e| format!("{}: {:.0}%", e.after_games, 100.0 * e.score))
            .collect();
        done.section(&format!(
            "\nEvaluation matches ({} games each; training games: score): {}.\n",
            cfg.eval_games,
            scores.join(", ")
        ));
        Ok(())
    })?;

    // 3. GBT.
    timed(done, "gbt", |done| {
        let params = GbtParams::reference()
            .max_iter(sizes.gbt_max_iter)
            .check()
            .map_err(fail("gbt"))?;
        let (main, extra) = if uci_rows.is_empty() {
            (gbt_extra.clone(), Vec::new())
        } else {
            (uci_rows, gbt_extra)
        };
        if main.len() < 10 {
            return Err(fail("gbt")(format!(
                "only {} labelled positions: too few to train on",
                main.len()
            )));
        }
        let cfg = ExperimentConfig {
            features: FeatureSet::Cells,
            params: params.clone(),
            mirror_augment: false,
            test_fraction: 0.2,
            split_seed: config.seed,
            cv: None,
            baselines: false,
            forest_size: 0,
        };
        observer.start("gbt: boosting iterations", params.max_iter());
        let out = run_experiment(&cfg, &main, &extra, &|_| observer.step(), &|_, _| {})
            .map_err(fail("gbt"))?;
        observer.finish();
        let r: &ExperimentReport = &out.report;
        let h = &r.holdout;
        let model_path = run.join("models/gbt.bin");
        let meta = TrainingMeta::new("c4 pipeline (stage gbt)", config.seed)
            .rows(h.train_rows)
            .data(data_notes.clone())
            .metrics(h.headline_metrics());
        crate::ml::model_file::save_gbt_experiment(
            &model_path,
            &out,
            FeatureSet::Cells,
            geom,
            meta,
        )
        .map_err(fail("gbt"))?;
        // The held-out self-play positions: how the model does away from 8-ply positions.
        let ext = FeatureSet::Cells.extractor(geom);
        let mut rows = Vec::with_capacity(phase_test.len());
        let mut correct = 0;
        let mut buf = vec![0.0; ext.len()];
        for p in &phase_test {
            ext.extract(&p.position, &mut buf);
            let mut prob = [0.0; 3];
            out.model.predict_proba_row(&buf, &mut prob);
            if crate::ml::metrics::argmax(&prob) == p.label.index() {
                correct += 1;
            }
            rows.push(PhaseRow {
                ply: p.position.moves_played(),
                label: p.label.as_str(),
                p_loss: prob[0],
                p_draw: prob[1],
                p_win: prob[2],
            });
        }
        write_csv_atomic(&beside(&model_path, ".phases.csv"), &rows).map_err(fail("gbt"))?;
        done.section("## GBT\n");
        done.section(&format!(
            "`models/gbt.bin`: reference configuration, `cells` features, {} training rows ({} main, {} of {} self-play rows kept), {} iterations, fit {:.2} s. Holdout ({} rows): accuracy **{:.4}**, log loss **{:.4}**; recall loss/draw/win {:.3}/{:.3}/{:.3}. On the {} held-out self-play positions of plies 10-41: accuracy {:.4} (`models/gbt.phases.csv`).\n",
            h.train_rows,
            r.main_rows - h.test_rows,
            r.extra_kept,
            r.extra_rows,
            h.iterations,
            h.fit_seconds,
            h.test_rows,
            h.test.accuracy,
            h.test.log_loss,
            h.test.recall[0],
            h.test.recall[1],
            h.test.recall[2],
            rows.len(),
            if rows.is_empty() { f64::NAN } else { correct as f64 / rows.len() as f64 }
        ));
        Ok(())
    })?;

    // 4. Tournaments.
    let roster = agents(run, sizes.depth);
    timed(done, "ladder", |done| {
        let specs: Vec<AgentSpec> = roster
            .iter()
            .map(|(_, s)| spec(s))
            .collect::<Result<_, _>>()?;
        let ladder = tournament(
            observer,
            "ladder: games",
            specs,
            sizes.ladder_games,
            sizes.ladder_openings,
            config,
        )?;
        save_tournament(&run.join("ladder"), &ladder).map_err(fail("ladder"))?;
        done.section("## Tournament ladder\n");
        done.section(&format!(
            "Round robin, {} games per pairing, colours alternating, {} random opening plies (`ladder/games.csv`, `ladder/summary.json`).\n",
            sizes.ladder_games, sizes.ladder_openings
        ));
        done.section(&elo_table(&ladder, &roster));
        let detail_names = ["handtuned", "hard", "lms", "gbt", "hybrid"];
        let detail: Vec<AgentSpec> = roster
            .iter()
            .filter(|(n, _)| detail_names.contains(&n.as_str()))
            .map(|(_, s)| spec(s))
            .collect::<Result<_, _>>()?;
        let detail = tournament(
            observer,
            "detail: games",
            detail,
            sizes.detail_games,
            2,
            config,
        )?;
        save_tournament(&run.join("detail"), &detail).map_err(fail("ladder"))?;
        done.section("### Every model agent against the hand-tuned agent (and hard)\n");
        done.section(&format!(
            "Round robin of handtuned, hard, lms, gbt and hybrid, {} games per pairing, 2 random opening plies (`detail/`).\n",
            sizes.detail_games
        ));
        done.section(&pairing_table(&detail, &roster));
        done.section(&elo_table(&detail, &roster));
        Ok(())
    })?;

    // 5. Error rates against the solver.
    timed(done, "bench", |done| {
        let mut summaries = Vec::new();
        let mut moves = Vec::new();
        let graded_agents: Vec<&(String, String)> =
            roster.iter().filter(|(n, _)| n != "perfect").collect();
        let files = bench;
        let total = graded_agents.len() * files.iter().map(|f| f.1.len()).sum::<usize>();
        observer.start("bench: graded moves", total);
        for (name, s) in &graded_agents {
            let factory = spec(s)?.factory(geom).map_err(fail("bench"))?;
            for (set, positions) in &files {
                let graded =
                    grade_positions(&factory, positions, config.jobs, 64, &|| observer.step())
                        .map_err(fail("bench"))?;
                for (i, (g, (pos, _))) in graded.iter().zip(positions).enumerate() {
                    moves.push((name.clone(), set.clone(), i, pos.moves_played(), g.clone()));
                }
                summaries.push(GradeSummary::from_moves(name, set, &graded));
            }
        }
        observer.finish();
        write_json_atomic(&run.join("bench/error_rates.json"), &summaries)
            .map_err(fail("bench"))?;
        let rows: Vec<MoveRow> = moves
            .iter()
            .map(|(a, s, i, ply, g)| MoveRow {
                agent: a,
                set: s,
                index: *i,
                ply: *ply,
                column: g.column + 1,
                score: g.score,
                optimal: g.optimal,
                error: g.error,
                ms: g.ms,
            })
            .collect();
        write_csv_atomic(&run.join("bench/moves.csv"), &rows).map_err(fail("bench"))?;
        done.section("## Error rates against the solver\n");
        done.section(&format!(
            "The first {} positions of each benchmark set in `{}`, one move per position, graded by the solver: an error is a move that loses game-theoretic value (win to draw or loss, draw to loss). `perfect` is the oracle and is not graded. The begin-hard set is left out: its positions take seconds each to grade. (`bench/error_rates.json`, per move with its ply in `bench/moves.csv`.)\n",
            sizes.bench_positions,
            config.bench.display()
        ));
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        let mut t = format!("| agent | {} |\n|---|", names.join(" | "));
        t.push_str(&"---:|".repeat(names.len()));
        t.push('\n');
        for (name, _) in &graded_agents {
            let cells: Vec<String> = names
                .iter()
                .map(|f| {
                    summaries
                        .iter()
                        .find(|s| &s.agent == name && s.set == *f)
                        .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s.error_rate))
                })
                .collect();
            let _ = writeln!(t, "| {name} | {} |", cells.join(" | "));
        }
        done.section(&t);
        Ok(())
    })?;

    // 6. Plots.
    timed(done, "plots", |done| {
        observer.start("plots", 0);
        let written = crate::plot::files::plot_paths(
            &[
                run.join("models"),
                run.join("ladder"),
                run.join("detail"),
                run.join("bench"),
            ],
            &run.join("plots"),
        )
        .map_err(fail("plots"))?;
        observer.finish();
        done.section("## Plots\n");
        for p in written
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "png"))
        {
            let name = p
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let stem = name.trim_end_matches(".png");
            done.section(&format!(
                "- [{stem}](plots/{name}) ([svg](plots/{stem}.svg))"
            ));
        }
        done.section("");
        Ok(())
    })?;
    Ok(())
}

fn tournament(
    observer: &dyn Observer,
    label: &str,
    agents: Vec<AgentSpec>,
    games: usize,
    openings: usize,
    config: &PipelineConfig,
) -> Result<TournamentSummary, PipelineError> {
    let t = Tournament::new(TournamentConfig {
        agents,
        games,
        openings,
        seed: config.seed,
        jobs: config.jobs,
        geometry: Geometry::STANDARD,
    })
    .map_err(fail("ladder"))?;
    observer.start(label, t.total_games());
    let s = t.run(&|| observer.step()).map_err(fail("ladder"))?;
    observer.finish();
    Ok(s)
}

fn save_tournament(dir: &Path, s: &TournamentSummary) -> std::io::Result<()> {
    write_csv_atomic(&dir.join("games.csv"), &s.rows)?;
    write_json_atomic(&dir.join("summary.json"), s)
}

/// The short name of a spec in the roster (the spec itself when it is not there).
fn name_of<'a>(spec: &'a str, roster: &'a [(String, String)]) -> &'a str {
    roster
        .iter()
        .find(|(_, s)| s == spec)
        .map_or(spec, |(n, _)| n.as_str())
}

fn elo_table(s: &TournamentSummary, roster: &[(String, String)]) -> String {
    let mut t = String::from(
        "| agent | spec | Elo | 95% interval | games | score % |\n|---|---|---:|---|---:|---:|\n",
    );
    for e in &s.elo {
        let _ = writeln!(
            t,
            "| {} | `{}` | {:.0} | [{:.0}, {:.0}] | {} | {:.1} |",
            name_of(&e.agent, roster),
            crate::plot::files::short_label(&e.agent),
            e.elo,
            e.low,
            e.high,
            e.games,
            e.score_pct
        );
    }
    t
}

fn pairing_table(s: &TournamentSummary, roster: &[(String, String)]) -> String {
    let mut t = String::from(
        "| agent | opponent | games | wins | draws | losses | score % |\n|---|---|---:|---:|---:|---:|---:|\n",
    );
    for p in &s.pairings {
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} | {:.1} |",
            name_of(&p.agent, roster),
            name_of(&p.opponent, roster),
            p.games,
            p.wins,
            p.draws,
            p.losses,
            p.score_pct
        );
    }
    t
}
