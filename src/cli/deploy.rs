//! `c4 deploy`: the cluster jobs from their description (see `connect4_ml::deploy`).

use anyhow::{Result, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct DeployArgs {
    /// The jobs' description.
    #[arg(long, default_value = connect4_ml::deploy::DEFAULT_DESCRIPTION)]
    from: PathBuf,
    /// The folder that gets k8s/ and slurm/.
    #[arg(long, default_value = "deploy")]
    out: PathBuf,
    /// Write nothing: fail, listing them, when the files under --out are not those the
    /// description makes.
    #[arg(long)]
    check: bool,
}

pub fn run(a: DeployArgs) -> Result<()> {
    let d = connect4_ml::deploy::Description::load(&a.from)?;
    if a.check {
        let stale = connect4_ml::deploy::stale(&d, &a.out)?;
        if !stale.is_empty() {
            bail!(
                "{} is not what {} describes: {}; run `c4 deploy` and commit the files",
                a.out.display(),
                a.from.display(),
                stale.join(", ")
            );
        }
        println!(
            "{}: the files of {} jobs are up to date",
            a.out.display(),
            d.jobs.len()
        );
        return Ok(());
    }
    let written = connect4_ml::deploy::write(&d, &a.out)?;
    super::print_written(&written);
    Ok(())
}
