//! `c4 plot`: charts (PNG and SVG) from the CSV and JSON files that training, tournaments
//! and benchmarks write.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Files or run directories: LMS curves (NAME.curve.csv, NAME.eval.csv), GBT curves and
    /// importance (NAME.curve.csv, NAME.importance.csv), tournament summary.json, `c4 bench
    /// agent --out` JSON. A directory plots every such file in it and its subdirectories.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Folder for the pictures (default: `plots` inside the first input directory, or
    /// beside the first input file).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(a: PlotArgs) -> Result<()> {
    let out = a.out.clone().unwrap_or_else(|| {
        let first = &a.inputs[0];
        if first.is_dir() {
            first.join("plots")
        } else {
            first
                .parent()
                .map_or_else(|| PathBuf::from("plots"), |p| p.join("plots"))
        }
    });
    let written = connect4_ml::plot::files::plot_paths(&a.inputs, &out)?;
    for p in &written {
        println!("{}", p.display());
    }
    Ok(())
}
