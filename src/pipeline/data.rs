//! Stage 1, data: solver-labelled self-play positions beside the UCI rows.

use super::inputs::Inputs;
use super::{PipelineConfig, PipelineError, Sizes, fail};
use connect4_engine::agents::AgentSpec;
use connect4_engine::progress::Progress;
use connect4_engine::solver::Mode;
use connect4_learn::datasets::Example;
use connect4_learn::datasets::games_csv::{LabelledPosition, read_positions, write_positions};
use connect4_learn::train::games::{GamesConfig, generate};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Where the stage writes its positions, inside the run folder.
pub(crate) const SELFPLAY_FILE: &str = "data/selfplay.csv";

/// The UCI file as read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UciUsed {
    /// Where it came from.
    pub source: String,
    /// Rows.
    pub rows: usize,
    /// sha256 of the uncompressed text.
    pub sha256: String,
    /// Whether it is the published file.
    pub published: bool,
}

/// A labelled position file as read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LabelledUsed {
    /// Where it came from.
    pub source: String,
    /// Rows read.
    pub rows: usize,
    /// sha256 of the file.
    pub sha256: String,
}

impl LabelledUsed {
    fn of(set: &super::inputs::LabelledSet) -> LabelledUsed {
        LabelledUsed {
            source: set.source.clone(),
            rows: set.rows.len(),
            sha256: set.sha256.clone(),
        }
    }
}

/// What the data stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DataResult {
    /// The UCI file, unless the run goes without it.
    pub uci: Option<UciUsed>,
    /// The labelled training positions, unless the run goes without them.
    pub positions: Option<LabelledUsed>,
    /// The labelled held-out positions, unless the run goes without them.
    pub heldout: Option<LabelledUsed>,
    /// The two self-play agents.
    pub agents: [String; 2],
    /// Distinct self-play positions labelled.
    pub selfplay_positions: usize,
    /// sha256 of `data/selfplay.csv`.
    pub selfplay_sha256: String,
}

impl DataResult {
    /// The data sources a model file records.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(u) = &self.uci {
            notes.push(format!("uci:{} sha256={}", u.source, u.sha256));
        }
        if let Some(p) = &self.positions {
            notes.push(format!(
                "positions:{} rows={} sha256={}",
                p.source, p.rows, p.sha256
            ));
        }
        notes.push(format!(
            "selfplay:{SELFPLAY_FILE} sha256={}",
            self.selfplay_sha256
        ));
        notes
    }
}

/// The self-play positions split for the GBT stage: half train, half are held out by phase.
pub struct DataSplit {
    /// Self-play rows that join the GBT's training rows.
    pub train: Vec<Example>,
    /// Held-out positions (the phases test set).
    pub held_out: Vec<LabelledPosition>,
}

/// Plays, labels and writes the self-play positions.
pub fn run(
    config: &PipelineConfig,
    sizes: &Sizes,
    inputs: &Inputs,
    observer: &dyn Progress,
) -> Result<(DataResult, Vec<PathBuf>), PipelineError> {
    let geom = config.geometry;
    let plies = sizes.selfplay_plies_on(geom);
    let agents = [
        "hard".parse::<AgentSpec>().map_err(fail("data"))?,
        AgentSpec::builtin("handtuned", sizes.depth).map_err(fail("data"))?,
    ];
    let sp = GamesConfig {
        agents: agents.clone(),
        games: sizes.selfplay_games,
        plies: plies.0..=plies.1,
        label: Mode::Weak,
        opening_plies: sizes.selfplay_openings,
        seed: config.seed,
        tt_mib: 64,
        book: config.book.clone(),
    };
    let out = generate(&sp, geom, observer).map_err(fail("data"))?;
    let path = config.out.join(SELFPLAY_FILE);
    write_positions(&path, geom, &out.positions).map_err(fail("data"))?;
    let result = DataResult {
        uci: inputs.uci.as_ref().map(|u| UciUsed {
            source: u.source.clone(),
            rows: u.rows.len(),
            sha256: u.sha256.clone(),
            published: u.is_published(),
        }),
        positions: inputs.positions.as_ref().map(LabelledUsed::of),
        heldout: inputs.heldout.as_ref().map(LabelledUsed::of),
        agents: agents.map(|a| a.to_string()),
        selfplay_positions: out.positions.len(),
        selfplay_sha256: connect4_engine::io::sha256_file(&path).map_err(fail("data"))?,
    };
    Ok((result, vec![path]))
}

/// Reads the stage's positions back and splits them by a seeded shuffle (the same split
/// whether the stage ran now or in an earlier, resumed run).
pub fn split(config: &PipelineConfig, _result: &DataResult) -> Result<DataSplit, PipelineError> {
    let path = config.out.join(SELFPLAY_FILE);
    let mut positions = read_positions(&path, config.geometry).map_err(fail("data"))?;
    positions.shuffle(&mut ChaCha8Rng::seed_from_u64(
        connect4_engine::seed::derive_seed(
            config.seed,
            connect4_engine::seed::Stream::PipelineShuffle,
            &[],
        ),
    ));
    let half = positions.len() / 2;
    let held_out = positions.split_off(half);
    Ok(DataSplit {
        train: positions.iter().map(Example::from).collect(),
        held_out,
    })
}
