//! The UCI Connect-4 cell encoding: one value per cell, `x` (first player), `o` (second) or
//! `b` (blank), in file order a1..a6, b1..b6, ..., g1..g6 (letter = column, digit = row from
//! the bottom). Works for any geometry; names beyond `z` columns never occur (width <= 32).

use super::{BitBoard, GameError, Geometry, Player, Position};
use std::fmt;

/// The content of one cell in the UCI encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A first-player stone.
    X,
    /// A second-player stone.
    O,
    /// An empty cell.
    Blank,
}

impl Cell {
    /// Parses `x`, `o` or `b` (surrounding spaces ignored); `cell` names the cell for errors.
    pub fn parse(value: &str, cell: &str) -> Result<Cell, GameError> {
        match value.trim() {
            "x" => Ok(Cell::X),
            "o" => Ok(Cell::O),
            "b" => Ok(Cell::Blank),
            other => Err(GameError::BadCell {
                cell: cell.to_string(),
                value: other.to_string(),
            }),
        }
    }

    /// The one-letter form used in the data file.
    pub(crate) fn as_char(self) -> char {
        match self {
            Cell::X => 'x',
            Cell::O => 'o',
            Cell::Blank => 'b',
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

/// The name of the `index`-th cell in file order, e.g. 0 -> `a1`, 6 -> `b1` on 7x6.
pub fn cell_name<B: BitBoard>(geom: Geometry<B>, index: usize) -> String {
    let col = index / geom.height();
    let row = index % geom.height();
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

impl<B: BitBoard> Position<B> {
    /// The cells of this position in UCI file order.
    pub fn to_uci_cells(&self) -> Vec<Cell> {
        let g = self.geometry();
        let mut out = Vec::with_capacity(g.cells());
        for col in 0..g.width() {
            for row in 0..g.height() {
                out.push(match self.cell(col, row) {
                    Some(Player::First) => Cell::X,
                    Some(Player::Second) => Cell::O,
                    None => Cell::Blank,
                });
            }
        }
        out
    }

    /// The cells as the comma-separated text of a data row (without a class).
    pub fn to_uci_string(&self) -> String {
        let cells: Vec<String> = self.to_uci_cells().iter().map(|c| c.to_string()).collect();
        cells.join(",")
    }

    /// The position described by `cells` in UCI file order. Rejects a wrong count, floating
    /// stones, counts no game reaches, and a four for the player to move.
    pub fn from_uci_cells(geom: Geometry<B>, cells: &[Cell]) -> Result<Self, GameError> {
        if cells.len() != geom.cells() {
            return Err(GameError::CellCount {
                expected: geom.cells(),
                found: cells.len(),
                width: geom.width(),
                height: geom.height(),
            });
        }
        let (mut x, mut o) = (B::ZERO, B::ZERO);
        for (i, cell) in cells.iter().enumerate() {
            let (col, row) = (i / geom.height(), i % geom.height());
            let bit = geom.cell_bit(col, row);
            match cell {
                Cell::X => x |= bit,
                Cell::O => o |= bit,
                Cell::Blank => continue,
            }
            if row > 0 && cells[i - 1] == Cell::Blank {
                return Err(GameError::Floating {
                    cell: cell_name(geom, i),
                });
            }
        }
        let (nx, no) = (x.count_ones() as usize, o.count_ones() as usize);
        if nx != no && nx != no + 1 {
            return Err(GameError::StoneCounts { x: nx, o: no });
        }
        let (current, other) = if nx == no { (x, o) } else { (o, x) };
        if geom.has_four(current) {
            return Err(GameError::Unreachable {
                reason: if geom.has_four(other) {
                    "both players have four in a row"
                } else {
                    "the player to move already has four in a row"
                },
            });
        }
        Position::from_bits(geom, current, x | o).ok_or(GameError::Unreachable {
            reason: "inconsistent stones",
        })
    }

    /// Parses a comma-separated row of cells (exactly `width * height` values).
    pub fn from_uci_str(geom: Geometry<B>, row: &str) -> Result<Self, GameError> {
        let cells = row
            .split(',')
            .enumerate()
            .map(|(i, v)| Cell::parse(v, &cell_name(geom, i)))
            .collect::<Result<Vec<_>, _>>()?;
        Position::from_uci_cells(geom, &cells)
    }
}
