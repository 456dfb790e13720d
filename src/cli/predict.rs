//! `c4 predict`: a model's values (and a GBT's probabilities) of every position of a file.

use super::BoardArgs;
use anyhow::Result;
use clap::Args;
use connect4_engine::eval::ModelEvaluator;
use connect4_learn::datasets::labelled::{Expect, read_moves_head};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PredictArgs {
    /// The model file (GBT, linear weights or n-tuple network).
    model: PathBuf,
    /// Positions: "MOVES" or "MOVES SCORE" lines, plain or gzip.
    file: PathBuf,
    /// Only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
    #[command(flatten)]
    board: BoardArgs,
}

/// Prints CSV to stdout: `moves,value,p_loss,p_draw,p_win` (value for the side to move;
/// probabilities empty for models without them). Past 64 bits (8x8, 9x7) the model is an
/// n-tuple network of the board, the only kind whose features reach there.
pub fn run(a: PredictArgs) -> Result<()> {
    if a.board.is_wide()? {
        return run_wide(&a);
    }
    let geom = a.board.geometry()?;
    let model = ModelEvaluator::load(&a.model, geom)?;
    let lines = read_moves_head(&a.file, geom, Expect::Any, a.limit)?;
    let positions: Vec<_> = lines.iter().map(|l| l.position).collect();
    let values = model.values(&positions);
    let probs = model.probabilities(&positions);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(out, "moves,value,p_loss,p_draw,p_win")?;
    for (i, (line, v)) in lines.iter().zip(&values).enumerate() {
        match &probs {
            Some(p) => writeln!(
                out,
                "{},{v},{},{},{}",
                line.moves,
                p[3 * i],
                p[3 * i + 1],
                p[3 * i + 2]
            )?,
            None => writeln!(out, "{},{v},,,", line.moves)?,
        }
    }
    out.flush()?;
    Ok(())
}

/// `c4 predict` on a board past 64 bits: an n-tuple network's values.
fn run_wide(a: &PredictArgs) -> Result<()> {
    use connect4_engine::eval::{Evaluator, NTupleEvaluator};
    let geom = a.board.wide_geometry()?;
    let model = NTupleEvaluator::load(&a.model, geom).map_err(|e| {
        if e.is_other_kind() {
            anyhow::anyhow!(
                "{e} (past 64 bits, on {geom}, only n-tuple networks load: GBT and linear features are 64-bit)"
            )
        } else {
            e.into()
        }
    })?;
    let lines = read_moves_head(&a.file, geom, Expect::Any, a.limit)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(out, "moves,value,p_loss,p_draw,p_win")?;
    for line in &lines {
        writeln!(out, "{},{},,,", line.moves, model.evaluate(&line.position))?;
    }
    out.flush()?;
    Ok(())
}
