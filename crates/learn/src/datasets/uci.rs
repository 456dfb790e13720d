//! The UCI Connect-4 data set (Tromp, 1995): reading, validation and summary statistics.
//!
//! Each row is 42 cells in file order a1..a6, b1..b6, ..., g1..g6 (`x`, `o` or `b`) and a
//! class (`win`, `loss`, `draw`) from the first player's (`x`'s) point of view. Every row is an
//! 8-ply position, so `x` is always the side to move and the class is also the mover's result.

use super::Label;
use connect4_engine::game::uci::{Cell, cell_name};
use connect4_engine::game::{GameError, Geometry, Position};

use std::path::{Path, PathBuf};
use thiserror::Error;

/// Where the data file is looked up when no `--uci PATH` is given: the published archive
/// member (Unix `compress`), shipped with the repository and compiled into the program.
pub const DEFAULT_UCI_PATH: &str = "data/uci/connect-4.data.Z";

/// sha256 of the published `connect-4.data` (after decompression).
pub const UCI_SHA256: &str = "063152e6eadbb424c7ef4645df76e493a43812edd9c992400983da4fa54f8cba";

/// Stones on the board in every row of the file.
pub const UCI_PLY: usize = 8;

/// One validated row: the position and its class (from `x`'s view, who is to move).
#[derive(Clone, Copy, Debug)]
pub struct UciRow {
    /// The 8-ply position.
    pub position: Position,
    /// The file's class.
    pub label: Label,
}

/// Everything that can go wrong reading the data file, with the line and column at fault.
#[derive(Debug, Error)]
pub enum UciError {
    /// The file is not there: says how to get it.
    #[error(
        "UCI data file {path} not found. The repository ships it as {default}; \
         `c4 data fetch-uci` downloads the official archive from archive.ics.uci.edu"
    , path = path.display(), default = DEFAULT_UCI_PATH)]
    Missing {
        /// The path that was tried.
        path: PathBuf,
    },
    /// The file exists but could not be read.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A .Z file could not be decompressed.
    #[error("{path}: {source}", path = path.display())]
    Compressed {
        /// The file.
        path: PathBuf,
        /// What the decoder found.
        source: crate::datasets::lzw::LzwError,
    },
    /// The shipped file is not the published one.
    #[error(
        "{path}: sha256 of the uncompressed data is {found}, not the published {UCI_SHA256}: the shipped file is damaged (restore it from git, or run `c4 data fetch-uci`)",
        path = path.display()
    )]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The checksum found.
        found: String,
    },
    /// A row is malformed.
    #[error("{path}:{line}: {source}", path = path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: u64,
        /// What is wrong, naming the column (field) where there is one.
        source: RowError,
    },
}

/// What is wrong with one row of a UCI-format file; columns are 1-based fields.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RowError {
    /// Not as many fields as the board has cells, plus the class.
    #[error("expected {expected} fields ({cells} cells and a class), found {found}", cells = expected - 1)]
    FieldCount {
        /// Fields a row must have.
        expected: usize,
        /// Fields found.
        found: usize,
    },
    /// The line cannot be split into comma-separated fields.
    #[error("the line cannot be read as comma-separated fields")]
    Unreadable,
    /// A field that is not text.
    #[error("column {column}: not UTF-8 text")]
    NotText {
        /// The field.
        column: usize,
    },
    /// A cell that is not `x`, `o` or `b`.
    #[error("column {column} ({cell}): cell {cell} holds {found:?}; expected x, o or b")]
    Cell {
        /// The field.
        column: usize,
        /// The cell's name, e.g. `c4`.
        cell: String,
        /// What it holds.
        found: String,
    },
    /// A class that is not `win`, `loss` or `draw`.
    #[error("column {column} ({name}): unknown class {found:?}; expected win, loss or draw")]
    Class {
        /// The field.
        column: usize,
        /// What the field is called in this file ("class", or "label" in position files).
        name: &'static str,
        /// What it holds.
        found: String,
    },
    /// Not the stone counts of the file's ply.
    #[error("{x} x and {o} o stones; every row must have {} x and {} o ({ply} plies)", ply.div_ceil(2), ply / 2)]
    Stones {
        /// `x` stones.
        x: usize,
        /// `o` stones.
        o: usize,
        /// The file's ply.
        ply: usize,
    },
    /// A stone above an empty cell.
    #[error("column {column} ({cell}): stone above an empty cell (gravity)")]
    Floating {
        /// The field.
        column: usize,
        /// The cell's name.
        cell: String,
    },
    /// The cells do not make a position (e.g. a finished game).
    #[error(transparent)]
    Position(GameError),
}

impl RowError {
    /// The same error with the class field renamed and moved (for files that keep the label
    /// elsewhere than right after the cells).
    pub(crate) fn class_at(self, column: usize, name: &'static str) -> RowError {
        match self {
            RowError::Class { found, .. } => RowError::Class {
                column,
                name,
                found,
            },
            other => other,
        }
    }
}

/// Parses one record (43 fields) of a UCI-format file on `geom`; the error names the field.
pub(crate) fn parse_record(
    geom: Geometry,
    fields: &[&str],
    ply: Option<usize>,
) -> Result<UciRow, RowError> {
    let n = geom.cells();
    if fields.len() != n + 1 {
        return Err(RowError::FieldCount {
            expected: n + 1,
            found: fields.len(),
        });
    }
    let mut cells = Vec::with_capacity(n);
    for (i, f) in fields[..n].iter().enumerate() {
        let name = cell_name(geom, i);
        let cell = Cell::parse(f, &name).map_err(|_| RowError::Cell {
            column: i + 1,
            cell: name.clone(),
            found: f.trim().to_string(),
        })?;
        cells.push(cell);
    }
    let class = fields[n];
    let label = Label::parse(class).ok_or_else(|| RowError::Class {
        column: n + 1,
        name: "class",
        found: class.trim().to_string(),
    })?;
    if let Some(ply) = ply {
        let x = cells.iter().filter(|&&c| c == Cell::X).count();
        let o = cells.iter().filter(|&&c| c == Cell::O).count();
        if x != ply.div_ceil(2) || o != ply / 2 {
            return Err(RowError::Stones { x, o, ply });
        }
    }
    let position = Position::from_uci_cells(geom, &cells).map_err(|e| match e {
        GameError::Floating { cell } => {
            let idx = (0..n).find(|&i| cell_name(geom, i) == cell).unwrap_or(0);
            RowError::Floating {
                column: idx + 1,
                cell,
            }
        }
        other => RowError::Position(other),
    })?;
    Ok(UciRow { position, label })
}

/// Reads and validates a UCI-format file of `ply`-stone positions on `geom` (the published
/// file: 7x6, ply 8), plain or Unix-compressed (.Z). Stops at the first bad row with its line
/// and column.
pub fn read_uci_with(
    path: &Path,
    geom: Geometry,
    ply: Option<usize>,
) -> Result<Vec<UciRow>, UciError> {
    let text = read_text(path)?;
    parse_uci_text(&text.bytes, path, geom, ply)
}

/// The shipped copy of the published archive member, compiled into the program so that every
/// command's default works from any folder (the same bytes as `data/uci/connect-4.data.Z`).
const SHIPPED_UCI_Z: &[u8] = include_bytes!("../../../../data/uci/connect-4.data.Z");

/// A UCI-format file's text, decompressed, and where it came from.
struct UciText {
    bytes: Vec<u8>,
    /// The path, or the path and "(embedded)" when the compiled-in copy was used.
    source: String,
    /// Whether this is the shipped file, whose checksum must match.
    shipped: bool,
}

fn read_text(path: &Path) -> Result<UciText, UciError> {
    let is_default = path == Path::new(DEFAULT_UCI_PATH);
    let (raw, source) = match std::fs::read(path) {
        Ok(raw) => (raw, path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && is_default => (
            SHIPPED_UCI_Z.to_vec(),
            format!("{DEFAULT_UCI_PATH} (embedded)"),
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(UciError::Missing {
                path: path.to_path_buf(),
            });
        }
        Err(source) => {
            return Err(UciError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let bytes = if raw.starts_with(&[0x1f, 0x9d]) {
        crate::datasets::lzw::decompress(&raw).map_err(|e| UciError::Compressed {
            path: path.to_path_buf(),
            source: e,
        })?
    } else {
        raw
    };
    Ok(UciText {
        bytes,
        source,
        shipped: is_default,
    })
}

/// A UCI-format data set as loaded: its rows and the identity of what was read.
#[derive(Clone, Debug)]
pub struct UciData {
    /// The validated rows.
    pub rows: Vec<UciRow>,
    /// sha256 of the uncompressed text.
    pub sha256: String,
    /// Where it came from (the path; "(embedded)" when the compiled-in copy was used).
    pub source: String,
}

impl UciData {
    /// Whether this is the published file, byte for byte.
    pub fn is_published(&self) -> bool {
        self.sha256 == UCI_SHA256
    }
}

/// Loads the published data set (7x6, 8 plies) from `path`: plain or .Z. The default path
/// (`data/uci/connect-4.data.Z`, shipped with the repository) falls back to the copy compiled
/// into the program when the file is not there, and must match the published checksum.
pub fn load_uci(path: &Path) -> Result<UciData, UciError> {
    let text = read_text(path)?;
    let sha256 = connect4_engine::io::sha256_hex(&text.bytes);
    if text.shipped && sha256 != UCI_SHA256 {
        return Err(UciError::Checksum {
            path: path.to_path_buf(),
            found: sha256,
        });
    }
    let rows = parse_uci_text(&text.bytes, path, Geometry::default(), Some(UCI_PLY))?;
    Ok(UciData {
        rows,
        sha256,
        source: text.source,
    })
}

/// Parses UCI-format text held in memory (`name` only names it in errors); the same checks
/// as [`read_uci_with`].
pub fn parse_uci_bytes(
    bytes: &[u8],
    name: &Path,
    geom: Geometry,
    ply: Option<usize>,
) -> Result<Vec<UciRow>, UciError> {
    parse_uci_text(bytes, name, geom, ply)
}

fn parse_uci_text(
    bytes: &[u8],
    path: &Path,
    geom: Geometry,
    ply: Option<usize>,
) -> Result<Vec<UciRow>, UciError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut rows = Vec::new();
    let mut record = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let line = record.position().map_or(0, |p| p.line());
                let row_error = |source: RowError| UciError::Row {
                    path: path.to_path_buf(),
                    line,
                    source,
                };
                let fields: Vec<&str> = record
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        std::str::from_utf8(f)
                            .map_err(|_| row_error(RowError::NotText { column: i + 1 }))
                    })
                    .collect::<Result<_, _>>()?;
                if fields.len() == 1 && fields[0].trim().is_empty() {
                    continue;
                }
                rows.push(parse_record(geom, &fields, ply).map_err(row_error)?);
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                return Err(UciError::Row {
                    path: path.to_path_buf(),
                    line,
                    source: RowError::Unreadable,
                });
            }
        }
    }
    Ok(rows)
}

/// Reads the published data set (7x6, 8 plies) from `path` (see [`load_uci`]).
pub fn read_uci(path: &Path) -> Result<Vec<UciRow>, UciError> {
    load_uci(path).map(|d| d.rows)
}

/// One row of a UCI-format file, as text.
pub(crate) fn format_row(pos: &Position, label: Label) -> String {
    format!("{},{}", pos.to_uci_string(), label)
}

/// The example a row of this file gives every learner.
impl From<&UciRow> for crate::datasets::Example {
    fn from(r: &UciRow) -> Self {
        crate::datasets::Example {
            position: r.position,
            label: r.label,
            score: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(s: &str) -> Vec<&str> {
        s.split(',').collect()
    }

    const ROW: &str =
        "b,b,b,b,b,b,b,b,b,b,b,b,x,o,b,b,b,b,x,o,x,o,x,o,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,win";

    #[test]
    fn parses_the_first_row_of_the_file() {
        let r = parse_record(Geometry::default(), &fields(ROW), Some(8)).unwrap();
        assert_eq!(r.label, Label::Win);
        assert_eq!(r.position.moves_played(), 8);
        assert_eq!(format_row(&r.position, r.label), ROW);
    }

    #[test]
    fn bad_rows_name_the_column() {
        let g = Geometry::default();
        let bad_cell = ROW.replacen("x", "q", 1);
        let e = parse_record(g, &fields(&bad_cell), Some(8))
            .unwrap_err()
            .to_string();
        assert!(e.contains("column 13 (c1)"), "{e}");
        let bad_class = ROW.replace("win", "won");
        let e = parse_record(g, &fields(&bad_class), Some(8))
            .unwrap_err()
            .to_string();
        assert!(e.contains("column 43 (class)"), "{e}");
        let short = &ROW[2..];
        let e = parse_record(g, &fields(short), Some(8))
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 43 fields"), "{e}");
        // c2 (o) moved up to c3: a floating stone
        let mut f = fields(ROW);
        f.swap(13, 14);
        let e = parse_record(g, &f, Some(8)).unwrap_err().to_string();
        assert!(e.contains("column 15 (c3)") && e.contains("gravity"), "{e}");
        let nine = ROW.replacen("b", "x", 1);
        let e = parse_record(g, &fields(&nine), Some(8))
            .unwrap_err()
            .to_string();
        assert!(e.contains("5 x and 4 o"), "{e}");
    }

    #[test]
    fn labels_round_trip() {
        for l in Label::ALL {
            assert_eq!(Label::parse(l.as_str()), Some(l));
            assert_eq!(Label::from_index(l.index()), Some(l));
            assert_eq!(l.flip().flip(), l);
        }
        assert_eq!(Label::from_score(-3), Label::Loss);
        assert_eq!(Label::from_score(0), Label::Draw);
    }
}
