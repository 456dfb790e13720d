//! `c4 site`: the page and the WebAssembly engine as a static site, which plays and analyses
//! in the browser with no `c4` process: any static file host serves it (a folder opened by
//! `python3 -m http.server` will do). Links (`#moves=...`) open the same position as on
//! `c4 serve`'s page.

use crate::serve::ASSETS;
use std::io::Write;
use std::path::Path;

/// What a written site holds, in bytes.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SiteReport {
    /// Files written.
    pub files: usize,
    /// Every file together.
    pub total: u64,
    /// The page: HTML, scripts, style sheet, icon.
    pub page: u64,
    /// The engine's module.
    pub wasm: u64,
    /// The engine's module gzip-compressed (what a host that compresses sends).
    pub wasm_gzip: u64,
    /// The model files (fetched only when an agent needs one).
    pub models: u64,
    /// The opening book file given to the site, deeper than the engine's built-in one (the
    /// page's engine fetches it in the background after its first request and reads it from
    /// then on); 0 without one.
    pub book: u64,
}

/// The name of the deeper book in a site, beside the page (the worker fetches it).
pub const SITE_BOOK: &str = "book-7x6.bin";

/// Writes the site into `out` (created if needed): the page, telling it to use the engine,
/// the engine, and the shipped models (from `models_dir` where it has them, else the copies
/// built into c4) with the ladder whose Elo the presets show, and `book`'s bytes (a book
/// file checked by the caller) as [`SITE_BOOK`] when given. Each file is written atomically.
pub fn write_site(
    out: &Path,
    models_dir: &Path,
    book: Option<&[u8]>,
) -> std::io::Result<SiteReport> {
    let mut report = SiteReport {
        files: 0,
        total: 0,
        page: 0,
        wasm: 0,
        wasm_gzip: 0,
        models: 0,
        book: 0,
    };
    let mut put = |rel: &str, bytes: &[u8]| -> std::io::Result<u64> {
        connect4_engine::io::write_bytes_atomic(&out.join(rel), bytes)?;
        report.files += 1;
        report.total += bytes.len() as u64;
        Ok(bytes.len() as u64)
    };
    let mut page = 0;
    let (mut wasm, mut wasm_bytes) = (0, &[][..]);
    for a in ASSETS {
        if a.name == "index.html" {
            // The page's engine asks for the deeper book only when the site ships one, so
            // that it fetches nothing the host does not have (no 404 at each start).
            let body = if book.is_some() {
                format!("<body data-backend=\"engine\" data-book=\"{SITE_BOOK}\">")
            } else {
                "<body data-backend=\"engine\">".to_string()
            };
            let html = String::from_utf8_lossy(a.bytes).replacen("<body>", &body, 1);
            page += put(a.name, html.as_bytes())?;
        } else if a.name == "connect4.wasm" {
            wasm = put(a.name, a.bytes)?;
            wasm_bytes = a.bytes;
        } else {
            page += put(a.name, a.bytes)?;
        }
    }
    let mut models = 0;
    for &(name, built_in) in crate::builtin::MODELS {
        let bytes = std::fs::read(models_dir.join(name)).unwrap_or_else(|_| built_in.to_vec());
        models += put(&format!("models/{name}"), &bytes)?;
    }
    models += put(
        "models/ladder.json",
        crate::builtin::ladder_in(models_dir).as_bytes(),
    )?;
    if let Some(bytes) = book {
        report.book = put(SITE_BOOK, bytes)?;
    }
    report.page = page;
    report.wasm = wasm;
    report.models = models;
    report.wasm_gzip = gzip_len(wasm_bytes)?;
    Ok(report)
}

fn gzip_len(bytes: &[u8]) -> std::io::Result<u64> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?.len() as u64)
}
