//! `c4 site`: the static site (see `connect4_ml::site`).

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SiteArgs {
    /// The folder to write the site into (created if needed; files of the same name are
    /// replaced).
    #[arg(long)]
    out: PathBuf,
    /// Folder of the model files to ship (the copies built into c4 stand in for missing ones).
    #[arg(long, default_value = "models")]
    models: PathBuf,
    /// Print the sizes as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(a: SiteArgs) -> Result<()> {
    let r = connect4_ml::site::write_site(&a.out, &a.models)
        .with_context(|| format!("writing the site into {}", a.out.display()))?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    let kb = |b: u64| b as f64 / 1024.0;
    println!(
        "{}: {} files, {:.0} KiB: page {:.0} KiB, engine {:.0} KiB ({:.0} KiB gzipped), models {:.0} KiB (fetched when an agent needs one)",
        a.out.display(),
        r.files,
        kb(r.total),
        kb(r.page),
        kb(r.wasm),
        kb(r.wasm_gzip),
        kb(r.models)
    );
    println!(
        "serve it from any static host, e.g. python3 -m http.server --directory {}",
        a.out.display()
    );
    Ok(())
}
