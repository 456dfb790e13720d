//! Checking a data set's labels against the solver (`c4 data verify-uci`).

use super::{ScoreMany, SolverPool};
use connect4_engine::game::Position;

/// How a sample of labelled rows compares with the solver (`c4 data verify-uci`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct VerifyReport {
    /// Rows checked.
    pub checked: usize,
    /// Rows whose label the solver confirms.
    pub agree: usize,
    /// The others: "line N: file says X, solver says Y".
    pub disagreements: Vec<String>,
    /// Wall time of the solving.
    pub seconds: f64,
}

/// Weak-solves `sample` rows of `rows` (all when 0 or more than there are), drawn with
/// `seed`, in file order, and compares each with its label; `progress` advances per row.
pub fn verify_labels(
    rows: &[crate::datasets::uci::UciRow],
    sample: usize,
    seed: u64,
    pool: &SolverPool,
    progress: &dyn connect4_engine::progress::Progress,
) -> VerifyReport {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    if sample > 0 && sample < rows.len() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        idx.shuffle(&mut rng);
        idx.truncate(sample);
        idx.sort_unstable();
    }
    let positions: Vec<Position> = idx.iter().map(|&i| rows[i].position).collect();
    let start = std::time::Instant::now();
    let scores = pool.scores(&positions, connect4_engine::solver::Mode::Weak, progress);
    let mut report = VerifyReport {
        checked: idx.len(),
        agree: 0,
        disagreements: vec![],
        seconds: start.elapsed().as_secs_f64(),
    };
    for (&i, s) in idx.iter().zip(scores) {
        let solved = crate::datasets::Label::from_score(s);
        if solved == rows[i].label {
            report.agree += 1;
        } else {
            report.disagreements.push(format!(
                "line {}: file says {}, solver says {}",
                i + 1,
                rows[i].label,
                solved
            ));
        }
    }
    report
}
