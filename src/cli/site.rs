//! `c4 site`: the static site (see `connect4_ml::site`).

use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::solver::book::{self, Book};
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

pub fn run(a: SiteArgs, book: super::BookChoice) -> Result<()> {
    let book = site_book(book.as_deref())?;
    let r = connect4_ml::site::write_site(&a.out, &a.models, book.as_deref())
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
    if r.book > 0 {
        println!(
            "book {:.0} KiB, fetched by the engine after its first request",
            kb(r.book)
        );
    }
    println!(
        "serve it from any static host, e.g. python3 -m http.server --directory {}",
        a.out.display()
    );
    Ok(())
}

/// The book the site ships beside the page: the run's book (`--book FILE`, or a deeper
/// default beside the binary) when it is not the one built into the engine, which the page
/// has already; `None` with `--no-book` or the built-in book. Refused when it is not a 7x6
/// book or is shallower than the built-in one (the page's engine would not read it).
fn site_book(book: Option<&Book>) -> Result<Option<Vec<u8>>> {
    let built_in = book::embedded();
    let Some(b) = book.filter(|b| !std::ptr::eq(*b, &*built_in)) else {
        return Ok(None);
    };
    if b.geometry() != connect4_engine::game::Geometry::STANDARD {
        bail!("--book: the site's engine reads 7x6 books; this one is for another board");
    }
    if b.plies() < built_in.plies() {
        bail!(
            "--book: {} plies, shallower than the {}-ply book built into the engine",
            b.plies(),
            built_in.plies()
        );
    }
    // The page's engine checks it again when it reads it; a damaged book is not shipped.
    b.check()?;
    Ok(Some(book::format::encode(b)))
}
