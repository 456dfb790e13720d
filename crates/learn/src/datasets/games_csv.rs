//! Solver-labelled position files (what `c4 data selfplay` writes): CSV with a header, one row
//! per position: the cells in UCI order (`x`, `o`, `b`), the side to move (`x` or `o`), the
//! ply, the solver's label and score from the side to move, and the result the game it was
//! sampled from actually had, also from the side to move.

use super::Label;
use super::uci::{RowError, parse_record};
use connect4_engine::game::uci::cell_name;
use connect4_engine::game::{Geometry, Player, Position};
use std::path::{Path, PathBuf};

/// One labelled position.
#[derive(Clone, Copy, Debug)]
pub struct LabelledPosition {
    /// The position.
    pub position: Position,
    /// Solver result for the side to move.
    pub label: Label,
    /// Solver score (exact with strong labels, -1/0/1 with weak ones).
    pub score: i32,
    /// The result of the game the position came from, for the side to move.
    pub result: Label,
}

/// Errors reading a position file, naming file, line and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    /// File trouble.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A bad row.
    #[error("{path}:{line}: {problem}", path = path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        problem: PositionRowError,
    },
}

/// What is wrong with one row (or the header) of a position file; columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionRowError {
    /// The header is not the one of this board size.
    #[error("header is not {expected} (a {width}x{height} position file)")]
    Header {
        /// The header expected.
        expected: String,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// The line is not comma-separated text.
    #[error("not a comma-separated text row")]
    Unreadable,
    /// Not as many fields as the header.
    #[error("expected {expected} fields, found {found}")]
    FieldCount {
        /// Fields expected.
        expected: usize,
        /// Fields found.
        found: usize,
    },
    /// The cells or the label (see [`RowError`]).
    #[error(transparent)]
    Cells(#[from] RowError),
    /// A field that does not parse, or contradicts the board.
    #[error("column {column} ({name}): {problem}")]
    Field {
        /// The field.
        column: usize,
        /// Its header name.
        name: &'static str,
        /// What is wrong.
        problem: FieldProblem,
    },
}

/// What is wrong with one field of a position file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldProblem {
    /// Neither `x` nor `o`.
    #[error("{0:?} is not x or o")]
    NotASide(String),
    /// The side to move given differs from the stones'.
    #[error("the stones say {0} is to move")]
    WrongSide(char),
    /// Not a number.
    #[error("not a number")]
    NotANumber,
    /// The ply differs from the stones on the board.
    #[error("{given}, but the board holds {stones} stones")]
    WrongPly {
        /// The ply given.
        given: usize,
        /// Stones on the board.
        stones: usize,
    },
    /// The score's sign contradicts the label.
    #[error("{score} contradicts label {label}")]
    ScoreVsLabel {
        /// The score given.
        score: i32,
        /// The label given.
        label: Label,
    },
    /// Not a result word.
    #[error("not win, loss or draw")]
    NotAResult,
}

/// The header row for boards of `geom`.
pub fn header(geom: Geometry) -> Vec<String> {
    let mut h: Vec<String> = (0..geom.cells()).map(|i| cell_name(geom, i)).collect();
    h.extend(["to_move", "ply", "label", "score", "result"].map(String::from));
    h
}

/// One row as CSV fields.
pub fn record(p: &LabelledPosition) -> Vec<String> {
    let mut r: Vec<String> = p
        .position
        .to_uci_cells()
        .iter()
        .map(|c| c.to_string())
        .collect();
    r.push(p.position.side_to_move().symbol().to_string());
    r.push(p.position.moves_played().to_string());
    r.push(p.label.to_string());
    r.push(p.score.to_string());
    r.push(p.result.to_string());
    r
}

/// Reads a position file for boards of `geom`, checking every field.
pub fn read_positions(
    path: &Path,
    geom: Geometry,
) -> Result<Vec<LabelledPosition>, PositionsError> {
    let file = std::fs::File::open(path).map_err(|source| PositionsError::Io {
        path: path.into(),
        source,
    })?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(std::io::BufReader::new(file));
    let mut out = Vec::new();
    let expected = header(geom);
    let got: Vec<String> = rdr
        .headers()
        .map_err(|_| PositionsError::Row {
            path: path.into(),
            line: 1,
            problem: PositionRowError::Unreadable,
        })?
        .iter()
        .map(String::from)
        .collect();
    if got != expected {
        return Err(PositionsError::Row {
            path: path.into(),
            line: 1,
            problem: PositionRowError::Header {
                expected: expected.join(","),
                width: geom.width(),
                height: geom.height(),
            },
        });
    }
    for rec in rdr.records() {
        let rec = rec.map_err(|e| PositionsError::Row {
            path: path.into(),
            line: e.position().map_or(0, |p| p.line()),
            problem: PositionRowError::Unreadable,
        })?;
        out.push(position_row(path, geom, &rec)?);
    }
    Ok(out)
}

/// One record of a position CSV, every field checked against the others (the side to move
/// and the ply against the cells, the score against the label).
fn position_row(
    path: &Path,
    geom: Geometry,
    rec: &csv::StringRecord,
) -> Result<LabelledPosition, PositionsError> {
    let n = geom.cells();
    let line = rec.position().map_or(0, |p| p.line());
    let bad = |problem: PositionRowError| PositionsError::Row {
        path: path.into(),
        line,
        problem,
    };
    let field = |column: usize, name: &'static str, problem: FieldProblem| {
        bad(PositionRowError::Field {
            column,
            name,
            problem,
        })
    };
    if rec.len() != n + 5 {
        return Err(bad(PositionRowError::FieldCount {
            expected: n + 5,
            found: rec.len(),
        }));
    }
    let mut fields: Vec<&str> = rec.iter().take(n).collect();
    let label_field = rec[n + 2].trim();
    fields.push(label_field);
    let row =
        parse_record(geom, &fields, None).map_err(|e| bad(e.class_at(n + 3, "label").into()))?;
    check_side_and_ply(rec, n, &row.position, &field)?;
    let score: i32 = rec[n + 3]
        .trim()
        .parse()
        .map_err(|_| field(n + 4, "score", FieldProblem::NotANumber))?;
    if Label::from_score(score) != row.label {
        return Err(field(
            n + 4,
            "score",
            FieldProblem::ScoreVsLabel {
                score,
                label: row.label,
            },
        ));
    }
    let result = Label::parse(&rec[n + 4])
        .ok_or_else(|| field(n + 5, "result", FieldProblem::NotAResult))?;
    Ok(LabelledPosition {
        position: row.position,
        label: row.label,
        score,
        result,
    })
}

/// The record's side to move and ply (fields `n` and `n + 1`) against its cells.
fn check_side_and_ply(
    rec: &csv::StringRecord,
    n: usize,
    position: &connect4_engine::game::Position,
    field: &dyn Fn(usize, &'static str, FieldProblem) -> PositionsError,
) -> Result<(), PositionsError> {
    let to_move = match rec[n].trim() {
        "x" => Player::First,
        "o" => Player::Second,
        other => {
            return Err(field(
                n + 1,
                "to_move",
                FieldProblem::NotASide(other.to_string()),
            ));
        }
    };
    if to_move != position.side_to_move() {
        return Err(field(
            n + 1,
            "to_move",
            FieldProblem::WrongSide(position.side_to_move().symbol()),
        ));
    }
    let ply: usize = rec[n + 1]
        .trim()
        .parse()
        .map_err(|_| field(n + 2, "ply", FieldProblem::NotANumber))?;
    if ply != position.moves_played() {
        return Err(field(
            n + 2,
            "ply",
            FieldProblem::WrongPly {
                given: ply,
                stones: position.moves_played(),
            },
        ));
    }
    Ok(())
}

/// Writes `positions` of boards of `geom` to `path` as a position CSV (header and one
/// [`record`] per position), atomically.
pub fn write_positions(
    path: &std::path::Path,
    geom: Geometry,
    positions: &[LabelledPosition],
) -> std::io::Result<()> {
    connect4_engine::io::write_atomic(path, |w| {
        let mut c = csv::Writer::from_writer(w);
        c.write_record(header(geom))?;
        for p in positions {
            c.write_record(record(p))?;
        }
        c.flush()
    })
}

/// The example a row of this file gives every learner.
impl From<&LabelledPosition> for crate::datasets::Example {
    fn from(p: &LabelledPosition) -> Self {
        crate::datasets::Example {
            position: p.position,
            label: p.label,
            score: Some(p.score),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_rows() {
        let g = Geometry::default();
        let dir = std::env::temp_dir().join(format!("c4-pos-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.csv");
        let p = LabelledPosition {
            position: Position::from_moves(g, "4453").unwrap(),
            label: Label::Loss,
            score: -2,
            result: Label::Win,
        };
        let mut w = csv::Writer::from_path(&path).unwrap();
        w.write_record(header(g)).unwrap();
        w.write_record(record(&p)).unwrap();
        w.flush().unwrap();
        drop(w);
        let back = read_positions(&path, g).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].position.key(), p.position.key());
        assert_eq!(
            (back[0].label, back[0].score, back[0].result),
            (Label::Loss, -2, Label::Win)
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let bad = text.replace(",x,4,loss,", ",o,4,loss,");
        std::fs::write(&path, bad).unwrap();
        let e = read_positions(&path, g).unwrap_err().to_string();
        assert!(e.contains(":2:") && e.contains("to_move"), "{e}");
        let bad = text.replace(",loss,-2,", ",win,-2,");
        std::fs::write(&path, bad).unwrap();
        let e = read_positions(&path, g).unwrap_err().to_string();
        assert!(e.contains("score"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
