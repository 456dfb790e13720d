//! `c4 data fetch-uci`: download the UCI archive, unpack the data file (a zip holding the
//! Unix-compressed `connect-4.data.Z`), check its sha256 and write it atomically.

use connect4_learn::datasets::lzw;
use connect4_learn::datasets::uci::UCI_SHA256;
use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// The official archive of the data set.
pub const UCI_ARCHIVE_URL: &str = "https://archive.ics.uci.edu/static/public/26/connect+4.zip";

/// Largest download accepted (the archive is about 120 kB).
const MAX_DOWNLOAD: u64 = 64 << 20;

/// Why the data file could not be fetched.
#[derive(Debug, Error)]
pub enum FetchError {
    /// The request failed.
    #[error("downloading {url}: {source}")]
    Http {
        /// The address.
        url: String,
        /// What went wrong.
        source: Box<ureq::Error>,
    },
    /// The response body could not be read.
    #[error("downloading {url}: {source}")]
    Body {
        /// The address.
        url: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The zip archive could not be read.
    #[error("reading the zip archive: {0}")]
    Zip(#[from] zip::result::ZipError),
    /// The zip entry could not be read.
    #[error("reading {entry} from the archive: {source}")]
    Entry {
        /// The entry.
        entry: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The archive does not hold the data file.
    #[error("the archive holds no connect-4.data(.Z); it holds: {}", names.join(", "))]
    NoDataFile {
        /// The entries it holds.
        names: Vec<String>,
    },
    /// The .Z stream is broken.
    #[error("decompressing connect-4.data.Z: {0}")]
    Lzw(#[from] lzw::LzwError),
    /// The result is not the published file.
    #[error(
        "sha256 of the unpacked data is {found}, expected {expected}: not the published connect-4.data"
    )]
    Checksum {
        /// What the download gave.
        found: String,
        /// The published checksum.
        expected: String,
    },
    /// Writing the file failed.
    #[error("writing {path}: {source}", path = path.display())]
    Write {
        /// The destination.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// Downloads `url` (http or https) into memory.
pub fn download(url: &str) -> Result<Vec<u8>, FetchError> {
    let resp = ureq::get(url).call().map_err(|e| FetchError::Http {
        url: url.to_string(),
        source: Box::new(e),
    })?;
    let mut bytes = Vec::new();
    resp.into_reader()
        .take(MAX_DOWNLOAD)
        .read_to_end(&mut bytes)
        .map_err(|source| FetchError::Body {
            url: url.to_string(),
            source,
        })?;
    Ok(bytes)
}

/// The data file from a download: a zip archive (its `connect-4.data.Z` or `connect-4.data`
/// entry), a bare .Z stream, or the plain file.
pub fn unpack(payload: &[u8]) -> Result<Vec<u8>, FetchError> {
    if payload.starts_with(b"PK\x03\x04") {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(payload))?;
        let names: Vec<String> = zip
            .file_names()
            .map(|n| n.map(|n| n.into_owned()))
            .collect::<Result<_, _>>()?;
        let pick = names
            .iter()
            .find(|n| n.ends_with("connect-4.data.Z"))
            .or_else(|| names.iter().find(|n| n.ends_with("connect-4.data")))
            .ok_or_else(|| FetchError::NoDataFile {
                names: names.clone(),
            })?
            .clone();
        let mut entry = zip.by_name(&pick)?;
        let mut inner = Vec::new();
        entry
            .read_to_end(&mut inner)
            .map_err(|source| FetchError::Entry {
                entry: pick.clone(),
                source,
            })?;
        return unpack(&inner);
    }
    if payload.starts_with(&[0x1f, 0x9d]) {
        return Ok(lzw::decompress(payload)?);
    }
    Ok(payload.to_vec())
}

/// Downloads, unpacks and checks the data file, then writes it to `out` atomically.
/// Returns the number of bytes written.
pub fn fetch_uci(url: &str, out: &Path) -> Result<usize, FetchError> {
    let data = unpack(&download(url)?)?;
    let found = connect4_engine::io::sha256_hex(&data);
    if found != UCI_SHA256 {
        return Err(FetchError::Checksum {
            found,
            expected: UCI_SHA256.into(),
        });
    }
    connect4_engine::io::write_bytes_atomic(out, &data).map_err(|source| FetchError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    Ok(data.len())
}
