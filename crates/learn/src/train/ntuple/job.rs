//! A whole training job, the one entry point `c4 train ntuple` and the pipeline's n-tuple
//! stage share: a recipe trained once, or several times with seeds `seed, seed + 1, ...`,
//! each run saved with its curve and report, and the run that won most against the perfect
//! player at its last curve point copied to the job's file.

use super::config::ValidNTupleConfig;
use super::curve::{CurvePoint, CurveProbe};
use super::error::NTupleTrainError;
use super::files::{save_run, write_perfect_csv};
use super::run::{Checkpointing, Machine};
use super::trainer::{Sources, train_ntuple};
use crate::arena::Side;
use crate::datasets::Example;
use crate::train::outputs;
use connect4_engine::agents::AgentBoard;
use connect4_engine::io::model_format::{ModelFileError, TrainingMeta};
use connect4_engine::progress::Progress;
use std::path::{Path, PathBuf};

/// What to train and where to put it, on a board of any integer (`Job` alone: 64-bit
/// boards; `Job<u128>` trains on boards past 64 bits).
pub struct Job<'a, B: AgentBoard = u64> {
    /// The recipe, checked (its seed is the first run's).
    pub config: ValidNTupleConfig,
    /// Labelled positions for the supervised part (empty: self-play alone).
    pub examples: &'a [Example],
    /// The learning curve's measurements, if any.
    pub probe: Option<&'a CurveProbe<B>>,
    /// Threads and curve cadence: they change nothing a run learns (each run's
    /// checkpointing is the job's, below, beside the run's file).
    pub machine: Machine,
    /// Save a checkpoint beside each run's file every K self-play games (0: never).
    pub checkpoint_every: usize,
    /// Resume each run from its checkpoint when one is there.
    pub resume: bool,
    /// Runs of the recipe (at least 1).
    pub runs: usize,
    /// The network's file; with several runs, run k is saved beside it as `.run{k}.bin`.
    pub out: PathBuf,
    /// What every model file records beside the recipe and the metrics (command, data).
    pub meta: TrainingMeta,
}

/// One run of a job, as saved.
#[derive(Clone, Debug)]
pub struct JobRun {
    /// Its seed.
    pub seed: u64,
    /// Its model file.
    pub path: PathBuf,
    /// Its learning curve.
    pub curve: Vec<CurvePoint>,
    /// Self-play games.
    pub games: usize,
    /// Labelled positions of the supervised part.
    pub labelled: usize,
    /// Training seconds (measurements excluded).
    pub seconds: f64,
    /// Where self-play's time went beyond playing.
    pub sync: super::SyncTimes,
    /// Weights in the network.
    pub weights: usize,
    /// The curve point whose network was handed over instead of the last weights (the
    /// curve fell clearly below it), if any.
    pub kept: Option<usize>,
}

impl JobRun {
    /// The curve point that measured the network the run handed over: the kept one, else
    /// the last.
    pub fn handed_point(&self) -> Option<&CurvePoint> {
        super::handed_point(&self.curve, self.kept)
    }

    /// Wins against the perfect player at the curve point of the network handed over (the
    /// last, unless one was kept), as first and as second player (all eps together): what
    /// picks a job's best run.
    pub fn last_wins(&self) -> (usize, usize) {
        self.handed_point().map_or((0, 0), |pt| {
            let wins = |side: Side| -> usize {
                pt.vs_perfect
                    .iter()
                    .filter(|m| m.side == side)
                    .map(|m| m.wins)
                    .sum()
            };
            (wins(Side::First), wins(Side::Second))
        })
    }
}

/// What a job made.
#[derive(Clone, Debug)]
pub struct JobOutcome {
    /// Every run in order.
    pub runs: Vec<JobRun>,
    /// The run copied to the job's file: the most wins as first player at the last curve
    /// point, then as second, then the earliest.
    pub best: usize,
    /// Every file written, the job's file last.
    pub written: Vec<PathBuf>,
}

/// Why a job stopped.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Training failed (settings, checkpoint, curve, divergence).
    #[error(transparent)]
    Train(#[from] NTupleTrainError),
    /// A file could not be written.
    #[error(transparent)]
    Save(#[from] ModelFileError),
}

/// Trains and saves the job's runs; `done(k, run)` hears of each run as it is saved (the CLI
/// prints its curve). A single run is saved straight to the job's file.
pub fn train_job<B: AgentBoard>(
    job: &Job<B>,
    progress: &dyn Progress,
    done: &mut dyn FnMut(usize, &JobRun),
) -> Result<JobOutcome, JobError> {
    let runs = job.runs.max(1);
    let mut out = JobOutcome {
        runs: Vec::with_capacity(runs),
        best: 0,
        written: Vec::new(),
    };
    let recipe = &job.config;
    for k in 0..runs {
        let config = recipe.with_seed(recipe.seed + k as u64);
        let path = if runs == 1 {
            job.out.clone()
        } else {
            progress.note(&format!("run {k} of {runs}: seed {}", config.seed));
            outputs::run_model(&job.out, k)
        };
        let (run, written) = train_one(job, &config, &path, progress)?;
        done(k, &run);
        out.written.extend(written);
        out.runs.push(run);
    }
    out.best = (0..runs)
        .max_by_key(|&k| (out.runs[k].last_wins(), std::cmp::Reverse(k)))
        .unwrap_or(0);
    if runs > 1 {
        let table: Vec<(usize, u64, &[CurvePoint])> = out
            .runs
            .iter()
            .enumerate()
            .map(|(k, r)| (k, r.seed, &r.curve[..]))
            .collect();
        let perfect = outputs::perfect_csv(&job.out);
        write_perfect_csv(&perfect, &table).map_err(|source| ModelFileError::Io {
            path: perfect.clone(),
            source,
        })?;
        out.written.push(perfect);
        copy_atomic(&out.runs[out.best].path, &job.out)?;
        out.written.push(job.out.clone());
    }
    Ok(out)
}

/// Trains one run of `config` and saves it to `path` with its curve and report.
fn train_one<B: AgentBoard>(
    job: &Job<B>,
    config: &ValidNTupleConfig,
    path: &Path,
    progress: &dyn Progress,
) -> Result<(JobRun, Vec<PathBuf>), JobError> {
    // An interval of 0: no checkpoint on the way (a run told to resume still resumes from
    // an earlier one, and saves at its end).
    let checkpointing = (job.checkpoint_every > 0 || job.resume).then(|| Checkpointing {
        path: outputs::checkpoint(path),
        every: match job.checkpoint_every {
            0 => usize::MAX,
            k => k,
        },
        resume: job.resume,
    });
    let machine = Machine {
        checkpointing,
        ..job.machine.clone()
    };
    let sources = Sources {
        examples: job.examples,
        probe: job.probe,
    };
    let run = train_ntuple(config, &sources, &machine, progress)?;
    let mut meta = TrainingMeta {
        seed: config.seed,
        ..job.meta.clone()
    }
    .rows(run.labelled + run.games)
    .recipe(config.to_toml());
    if let Some(last) = super::handed_point(&run.curve, run.kept) {
        let mut metrics = vec![("curve_score".to_string(), last.score)];
        metrics.extend(
            last.mistakes
                .iter()
                .map(|(s, m)| (format!("mistakes_{s}"), *m)),
        );
        metrics.extend(
            last.vs_perfect
                .iter()
                .map(|m| (format!("perfect_{}_eps{}_wins", m.side, m.eps), m.win_rate)),
        );
        if run.kept.is_some() {
            metrics.push(("kept_games".to_string(), last.games as f64));
        }
        meta = meta.metrics(metrics);
    }
    let written = save_run(path, config, &run, meta)?;
    // The run is saved: its checkpoint has nothing left to resume.
    let _ = std::fs::remove_file(outputs::checkpoint(path));
    Ok((
        JobRun {
            seed: config.seed,
            path: path.to_path_buf(),
            curve: run.curve,
            games: run.games,
            labelled: run.labelled,
            seconds: run.seconds,
            sync: run.sync,
            weights: run.network.len(),
            kept: run.kept,
        },
        written,
    ))
}

/// Copies `from` to `to` atomically (the job's file is never seen half written).
fn copy_atomic(from: &Path, to: &Path) -> Result<(), ModelFileError> {
    let bytes = std::fs::read(from).map_err(|source| ModelFileError::Io {
        path: from.to_path_buf(),
        source,
    })?;
    connect4_engine::io::write_bytes_atomic(to, &bytes).map_err(|source| ModelFileError::Io {
        path: to.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::super::config::NTupleConfig;
    use super::*;
    use crate::train::ntuple::Guide;
    use connect4_engine::game::Geometry;
    use connect4_engine::ml::ntuple::NTupleLayout;
    use connect4_engine::progress::Quiet;
    use linfa::ParamGuard;

    /// A recipe small enough to train in a test: 40 games in two lanes of 10 a round.
    fn tiny() -> NTupleConfig {
        NTupleConfig {
            layout: NTupleLayout {
                tuples: 4,
                cells: 4,
                sets: 1,
                seed: 3,
            },
            games: 40,
            lanes: 2,
            lane_games: 10,
            seed: 9,
            ..NTupleConfig::default()
        }
    }

    #[test]
    fn a_job_of_several_runs_saves_each_and_copies_the_pick() {
        let dir = std::env::temp_dir().join(format!("c4-ntuple-job-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let job: Job = Job {
            config: tiny().check().unwrap(),
            examples: &[],
            probe: None,
            machine: Machine {
                threads: 2,
                curve_every: 0,
                keep_best: true,
                guide: Guide::default(),
                checkpointing: None,
            },
            checkpoint_every: 0,
            resume: false,
            runs: 2,
            out: dir.join("net.bin"),
            meta: TrainingMeta::new("test", 0),
        };
        let mut heard = Vec::new();
        let outcome = train_job(&job, &Quiet, &mut |k, r| heard.push((k, r.seed))).unwrap();
        assert_eq!(heard, [(0, 9), (1, 10)]);
        assert_eq!(outcome.runs.len(), 2);
        // No curve: no wins anywhere, so the earliest run is the pick.
        assert_eq!(outcome.best, 0);
        assert_eq!(outcome.written.last(), Some(&job.out));
        assert_eq!(
            std::fs::read(&job.out).unwrap(),
            std::fs::read(dir.join("net.run0.bin")).unwrap()
        );
        for p in &outcome.written {
            assert!(p.is_file(), "{}", p.display());
        }
        // Each run's file records its own recipe, seed included.
        let file =
            connect4_engine::ml::model_file::load_ntuple(&dir.join("net.run1.bin"), None).unwrap();
        let meta = file.header.meta;
        let recipe = NTupleConfig::from_toml(&meta.recipe.unwrap(), "net.run1.bin").unwrap();
        assert_eq!(recipe.seed, 10);
        assert_eq!(meta.seed, 10);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_run_that_kept_an_earlier_network_is_judged_and_reported_by_it() {
        use super::super::Checkpoint;
        use super::super::collapse::tests::point;
        use super::super::files::save_checkpoint;
        use super::super::tests::kept_at;
        use connect4_engine::ml::ntuple::NTupleNetwork;
        let dir = std::env::temp_dir().join(format!("c4-ntuple-kept-job-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = tiny();
        let out = dir.join("net.bin");
        let net = NTupleNetwork::new(Geometry::STANDARD, config.layout).unwrap();
        // The kept network: a short run's, so that only weights a board can reach are set.
        let short = NTupleConfig {
            games: 20,
            ..config.clone()
        };
        let one = Machine {
            threads: 1,
            curve_every: 0,
            keep_best: true,
            guide: Guide::default(),
            checkpointing: None,
        };
        let kept =
            super::super::train_ntuple(&short.check().unwrap(), &Sources::default(), &one, &Quiet)
                .unwrap()
                .network;
        assert_ne!(kept.weights(), net.weights());
        // Self-play done, its curve fell from the second point: the job resumes there.
        let state = Checkpoint {
            config: config.clone(),
            supervised_done: true,
            games_done: 40,
            seconds: 1.0,
            curve: vec![point(10, 50, 100), point(20, 92, 100), point(40, 40, 100)],
            network: net.data(),
            tcl: None,
            tail: None,
            best: kept_at(1, 0.92, &kept),
        };
        save_checkpoint(&outputs::checkpoint(&out), &state).unwrap();
        let job: Job = Job {
            config: config.check().unwrap(),
            examples: &[],
            probe: None,
            machine: Machine {
                threads: 1,
                curve_every: 0,
                keep_best: true,
                guide: Guide::default(),
                checkpointing: None,
            },
            checkpoint_every: 10,
            resume: true,
            runs: 1,
            out: out.clone(),
            meta: TrainingMeta::new("test", 0),
        };
        let outcome = train_job(&job, &Quiet, &mut |_, _| {}).unwrap();
        let run = &outcome.runs[0];
        assert_eq!(run.kept, Some(1));
        // Picked by the wins of the network it handed over, not of the last point.
        assert_eq!(run.last_wins(), (92, 0));
        let file = connect4_engine::ml::model_file::load_ntuple(&out, None).unwrap();
        assert_eq!(file.network.weights(), kept.weights());
        let metrics = file.header.meta.metrics;
        let metric = |name: &str| metrics.iter().find(|(k, _)| k == name).map(|m| m.1);
        assert_eq!(metric("kept_games"), Some(20.0));
        assert_eq!(metric("perfect_first_eps0_wins"), Some(0.92));
        let report = std::fs::read_to_string(outputs::report_json(&out)).unwrap();
        assert!(report.contains("\"kept_games\": 20"), "{report}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
