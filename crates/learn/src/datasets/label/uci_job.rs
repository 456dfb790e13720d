//! Labelling the reconstructed UCI positions (`c4 data generate-uci`).

use super::{
    GenerateError, GenerateReport, PartialRowError, ScoreMany, Shard, SolverPool, write_resumable,
};
use connect4_engine::game::{Geometry, Position};
use connect4_engine::solver::Mode;

/// Labels `positions` (this shard's part) with the weak solver and writes them in UCI format
/// to `out`, resumably: rows go to `out.partial` in flushed chunks, `resume` continues from
/// it (a torn last line is dropped), and the file is renamed to `out` when complete.
pub fn generate_uci(
    positions: &[Position],
    shard: Shard,
    out: &std::path::Path,
    resume: bool,
    pool: &SolverPool,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<GenerateReport, GenerateError> {
    use std::collections::HashMap;
    let mine = shard.select(positions);
    let index: HashMap<u64, usize> = mine.iter().enumerate().map(|(i, p)| (p.key(), i)).collect();
    let geom = mine
        .first()
        .map_or_else(Geometry::default, |p| p.geometry());
    let classes = std::cell::RefCell::new([0usize; 3]);
    let resumed_item = |line: &str| -> Result<usize, PartialRowError> {
        let fields: Vec<&str> = line.split(',').collect();
        let row = crate::datasets::uci::parse_record(geom, &fields, None)
            .map_err(PartialRowError::Row)?;
        let i = *index
            .get(&row.position.key())
            .ok_or(PartialRowError::NotInJob)?;
        classes.borrow_mut()[row.label.index()] += 1;
        Ok(i)
    };
    let mut make_lines = |chunk: &[Position]| -> Vec<String> {
        let scores = pool.scores(chunk, Mode::Weak, progress);
        chunk
            .iter()
            .zip(scores)
            .map(|(p, s)| {
                let label = crate::datasets::Label::from_score(s);
                classes.borrow_mut()[label.index()] += 1;
                crate::datasets::uci::format_row(p, label)
            })
            .collect()
    };
    let start = std::time::Instant::now();
    let resumed = write_resumable(
        &mine,
        out,
        resume,
        super::DEFAULT_CHUNK,
        &resumed_item,
        &mut make_lines,
        progress,
    )?;
    Ok(GenerateReport {
        total: mine.len(),
        resumed,
        labelled: mine.len() - resumed,
        seconds: start.elapsed().as_secs_f64(),
        classes: classes.into_inner(),
    })
}
