//! Stage records: after a stage succeeds, `stages/NAME.json` holds its typed result, the
//! sha256 of every file it wrote, its wall time and the fingerprint of the run's
//! configuration. `--resume` reuses a stage whose record matches the configuration and whose
//! files are all there, unchanged; once one stage runs again, every later stage does too,
//! since they build on it.

use super::inputs::Inputs;
use super::{PipelineConfig, Sizes};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What `stages/NAME.json` holds.
#[derive(Serialize, Deserialize)]
pub struct StageRecord<T> {
    /// The configuration the stage ran with: seed, sizes, checksums of the data read,
    /// program version.
    pub fingerprint: serde_json::Value,
    /// Wall time of the stage.
    pub seconds: f64,
    /// Every file the stage wrote, relative to the run folder, with its sha256.
    pub outputs: Vec<(String, String)>,
    /// The stage's result.
    pub result: T,
}

/// Everything a stage's outputs depend on: seed, sizes, the data read (by checksum) and the
/// program version. Thread counts are left out: they never change results.
fn fingerprint(config: &PipelineConfig, sizes: &Sizes, inputs: &Inputs) -> serde_json::Value {
    serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "seed": config.seed,
        "quick": config.quick,
        "board": config.geometry.to_string(),
        "sizes": sizes,
        "uci_sha256": inputs.uci.as_ref().map(|u| u.sha256.clone()),
        "positions_sha256": inputs.positions.as_ref().map(|p| p.sha256.clone()),
        "heldout_sha256": inputs.heldout.as_ref().map(|p| p.sha256.clone()),
        "bench": inputs.bench_sha256,
    })
}

/// The run's stage records: reads them when resuming, writes them as stages finish.
pub(crate) struct Ledger {
    dir: PathBuf,
    run: PathBuf,
    fingerprint: serde_json::Value,
    /// False from the first stage that runs again: later stages depend on it.
    reusing: bool,
}

impl Ledger {
    /// The ledger of `config`'s run folder.
    pub fn new(config: &PipelineConfig, sizes: &Sizes, inputs: &Inputs) -> Ledger {
        Ledger {
            dir: config.out.join("stages"),
            run: config.out.clone(),
            fingerprint: fingerprint(config, sizes, inputs),
            reusing: config.resume,
        }
    }

    fn path(&self, stage: &str) -> PathBuf {
        self.dir.join(format!("{stage}.json"))
    }

    /// The recorded result of `stage` and its wall time, if it may be reused: resuming, no
    /// earlier stage ran again, the record reads, was made with this configuration, and
    /// every file it lists is there with the recorded checksum.
    pub(crate) fn reuse<T: DeserializeOwned>(&mut self, stage: &str) -> Option<(T, f64)> {
        if !self.reusing {
            return None;
        }
        let record = std::fs::read(self.path(stage))
            .ok()
            .and_then(|b| serde_json::from_slice::<StageRecord<T>>(&b).ok())
            .filter(|r| r.fingerprint == self.fingerprint)
            .filter(|r| {
                r.outputs.iter().all(|(rel, sha)| {
                    connect4_engine::io::sha256_file(&self.run.join(rel)).is_ok_and(|s| &s == sha)
                })
            });
        match record {
            Some(r) => Some((r.result, r.seconds)),
            None => {
                self.reusing = false;
                None
            }
        }
    }

    /// Records a finished stage (atomically).
    pub fn record<T: Serialize>(
        &self,
        stage: &str,
        result: &T,
        outputs: &[PathBuf],
        seconds: f64,
    ) -> std::io::Result<()> {
        let outputs = outputs
            .iter()
            .map(|p| {
                let rel = relative(&self.run, p);
                Ok((rel, connect4_engine::io::sha256_file(p)?))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        let record = StageRecord {
            fingerprint: self.fingerprint.clone(),
            seconds,
            outputs,
            result,
        };
        connect4_engine::io::write_json_atomic(&self.path(stage), &record)
    }
}

/// `path` relative to `run` as text (the path itself when it is not inside).
fn relative(run: &Path, path: &Path) -> String {
    path.strip_prefix(run)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}
