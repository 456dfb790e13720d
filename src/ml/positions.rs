//! Solver-labelled position files (what `c4 data selfplay` writes): CSV with a header, one row
//! per position: the cells in UCI order (`x`, `o`, `b`), the side to move (`x` or `o`), the
//! ply, the solver's label and score from the side to move, and the result the game it was
//! sampled from actually had, also from the side to move.

use super::uci::{Label, parse_record};
use crate::game::uci::cell_name;
use crate::game::{Geometry, Player, Position};
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
    #[error("{path}:{line}: {what}", path = path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
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
    let n = geom.cells();
    let mut out = Vec::new();
    let expected = header(geom);
    let got: Vec<String> = rdr
        .headers()
        .map_err(|e| PositionsError::Row {
            path: path.into(),
            line: 1,
            what: e.to_string(),
        })?
        .iter()
        .map(String::from)
        .collect();
    if got != expected {
        return Err(PositionsError::Row {
            path: path.into(),
            line: 1,
            what: format!(
                "header is not {} (a {}x{} position file)",
                expected.join(","),
                geom.width(),
                geom.height()
            ),
        });
    }
    for rec in rdr.records() {
        let rec = rec.map_err(|e| PositionsError::Row {
            path: path.into(),
            line: e.position().map_or(0, |p| p.line()),
            what: e.to_string(),
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |what: String| PositionsError::Row {
            path: path.into(),
            line,
            what,
        };
        if rec.len() != n + 5 {
            return Err(bad(format!(
                "expected {} fields, found {}",
                n + 5,
                rec.len()
            )));
        }
        let mut fields: Vec<&str> = rec.iter().take(n).collect();
        let label_field = rec[n + 2].trim();
        fields.push(label_field);
        let row = parse_record(geom, &fields, None)
            .map_err(|e| bad(e.class_at(n + 3, "label").to_string()))?;
        let to_move = match rec[n].trim() {
            "x" => Player::First,
            "o" => Player::Second,
            other => {
                return Err(bad(format!(
                    "column {} (to_move): {other:?} is not x or o",
                    n + 1
                )));
            }
        };
        if to_move != row.position.side_to_move() {
            return Err(bad(format!(
                "column {} (to_move): the stones say {} is to move",
                n + 1,
                row.position.side_to_move().symbol()
            )));
        }
        let ply: usize = rec[n + 1]
            .trim()
            .parse()
            .map_err(|_| bad(format!("column {} (ply): not a number", n + 2)))?;
        if ply != row.position.moves_played() {
            return Err(bad(format!(
                "column {} (ply): {ply}, but the board holds {} stones",
                n + 2,
                row.position.moves_played()
            )));
        }
        let score: i32 = rec[n + 3]
            .trim()
            .parse()
            .map_err(|_| bad(format!("column {} (score): not a number", n + 4)))?;
        if Label::from_score(score) != row.label {
            return Err(bad(format!(
                "column {} (score): {score} contradicts label {}",
                n + 4,
                row.label
            )));
        }
        let result = Label::parse(&rec[n + 4])
            .ok_or_else(|| bad(format!("column {} (result): not win, loss or draw", n + 5)))?;
        out.push(LabelledPosition {
            position: row.position,
            label: row.label,
            score,
            result,
        });
    }
    Ok(out)
}

/// Writes `positions` of boards of `geom` to `path` as a position CSV (header and one
/// [`record`] per position), atomically.
pub fn write_positions(
    path: &std::path::Path,
    geom: Geometry,
    positions: &[LabelledPosition],
) -> std::io::Result<()> {
    crate::io::write_atomic(path, |w| {
        let mut c = csv::Writer::from_writer(w);
        c.write_record(header(geom))?;
        for p in positions {
            c.write_record(record(p))?;
        }
        c.flush()
    })
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
