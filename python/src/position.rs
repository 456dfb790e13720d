//! `Position`: a board of any supported size, from a move string or an array, immutable
//! (every move returns a new position), hashable, convertible to and from numpy.

use crate::errors::err;
use connect4_ml::game::{Geometry, Outcome, Player};
use numpy::{AllowTypeChange, PyArray2, PyArrayLike2, ToPyArray};
use pyo3::prelude::*;

/// The board geometry of `width` x `height`, or a `Connect4Error` naming the size.
pub fn geometry(width: usize, height: usize) -> PyResult<Geometry> {
    Geometry::new(width, height).map_err(err)
}

/// A Connect Four position. Columns in `play`, `legal_moves` and arrays are 0-based (as in
/// numpy, OpenSpiel, PettingZoo and Kaggle); move strings are 1-based ("4453"), as in the
/// benchmark files. Arrays are `height x width`, row 0 at the top, 0 empty, 1 the first
/// player's stone, 2 the second player's.
#[pyclass(module = "connect4_ml", frozen)]
#[derive(Clone)]
pub struct Position {
    pub(crate) inner: connect4_ml::Position,
    /// The moves that made it, when known (1-based columns).
    pub(crate) moves: Option<String>,
}

impl Position {
    /// Wraps a library position reached by `moves` (if known).
    pub fn wrap(inner: connect4_ml::Position, moves: Option<String>) -> Position {
        Position { inner, moves }
    }
}

/// The player number of the arrays: 1 first, 2 second.
fn number(p: Player) -> u8 {
    match p {
        Player::First => 1,
        Player::Second => 2,
    }
}

#[pymethods]
impl Position {
    /// The position after `moves` (1-based columns, e.g. "4453") on a `width` x `height` board.
    #[new]
    #[pyo3(signature = (moves = "", width = 7, height = 6))]
    fn new(moves: &str, width: usize, height: usize) -> PyResult<Position> {
        let g = geometry(width, height)?;
        let inner = connect4_ml::Position::from_moves(g, moves).map_err(err)?;
        Ok(Position::wrap(inner, Some(moves.trim().to_string())))
    }

    /// The position drawn by `board` (`height x width`, row 0 at the top, 0 empty, 1 first
    /// player, 2 second). Refused when stones float, counts are impossible or the side to move
    /// already has four.
    #[staticmethod]
    fn from_array(board: PyArrayLike2<'_, i64, AllowTypeChange>) -> PyResult<Position> {
        let a = board.as_array();
        let (h, w) = a.dim();
        let g = geometry(w, h)?;
        let (mut first, mut second, mut mask) = (0u64, 0u64, 0u64);
        for ((r, c), &v) in a.indexed_iter() {
            let bit = g.cell_bit(c, h - 1 - r);
            match v {
                0 => {}
                1 => first |= bit,
                2 => second |= bit,
                _ => {
                    return Err(err(format!(
                        "board[{r}][{c}] is {v}: cells are 0 (empty), 1 or 2"
                    )));
                }
            }
            if v != 0 {
                mask |= bit;
            }
        }
        let first_to_move = first.count_ones() == second.count_ones();
        let current = if first_to_move { first } else { second };
        connect4_ml::Position::from_bits(g, current, mask)
            .map(|p| Position::wrap(p, None))
            .ok_or_else(|| {
                err(format!(
                    "not a reachable {w}x{h} position: {} stones of player 1 and {} of player 2, \
                     floating stones or a four for the side to move",
                    first.count_ones(),
                    second.count_ones()
                ))
            })
    }

    /// The board as a `height x width` int8 array (row 0 at the top, 1 first player, 2 second).
    fn to_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        let p = &self.inner;
        let (w, h) = (p.width(), p.height());
        ndarray::Array2::from_shape_fn((h, w), |(r, c)| {
            p.cell(c, h - 1 - r).map_or(0, |pl| number(pl) as i8)
        })
        .to_pyarray(py)
    }

    /// The position after a stone in `column` (0-based); refused when the column is full,
    /// out of the board or the game is over.
    fn play(&self, column: usize) -> PyResult<Position> {
        let w = self.inner.width();
        if column >= w {
            return Err(err(format!(
                "column {column} is off the board: columns are 0..={} (0-based)",
                w - 1
            )));
        }
        if self.is_over() {
            return Err(err("the game is over: no more moves"));
        }
        if !self.inner.can_play(column) {
            return Err(err(format!("column {column} (0-based) is full")));
        }
        let mut next = self.inner;
        next.play(column).map_err(err)?;
        let moves = self.moves.as_ref().map(|m| {
            let mut m = m.clone();
            m.push_str(&(column + 1).to_string());
            m
        });
        Ok(Position::wrap(next, moves))
    }

    /// The columns (0-based) a stone can go in; empty when the game is over.
    fn legal_moves(&self) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        self.inner.legal_columns().collect()
    }

    /// The mirror image (columns reversed).
    fn mirror(&self) -> Position {
        let w = self.inner.width();
        let moves = self.moves.as_ref().map(|m| {
            m.chars()
                .map(|c| {
                    let col = c.to_digit(10).map_or(0, |d| d as usize);
                    char::from_digit((w + 1 - col) as u32, 10).unwrap_or(c)
                })
                .collect()
        });
        Position::wrap(self.inner.mirror(), moves)
    }

    /// The move string (1-based columns) when the position was made from moves, else None.
    #[getter]
    fn moves(&self) -> Option<String> {
        self.moves.clone()
    }

    /// Board width.
    #[getter]
    fn width(&self) -> usize {
        self.inner.width()
    }

    /// Board height.
    #[getter]
    fn height(&self) -> usize {
        self.inner.height()
    }

    /// Stones on the board.
    #[getter]
    fn stones(&self) -> usize {
        self.inner.moves_played()
    }

    /// The player to move: 1 (first) or 2 (second).
    #[getter]
    fn side_to_move(&self) -> u8 {
        number(self.inner.side_to_move())
    }

    /// A unique key of this position (the solver's).
    #[getter]
    fn key(&self) -> u64 {
        self.inner.key()
    }

    /// The key shared with the mirror image.
    #[getter]
    fn canonical_key(&self) -> u64 {
        self.inner.canonical_key()
    }

    /// 1 or 2 when that player has four in a row, 0 for a full board without one, None while
    /// the game goes on.
    #[getter]
    fn winner(&self) -> Option<u8> {
        match self.inner.outcome() {
            Outcome::Won(p) => Some(number(p)),
            Outcome::Draw => Some(0),
            Outcome::Ongoing => None,
        }
    }

    /// Whether the game is over (a four or a full board).
    #[getter]
    fn is_over(&self) -> bool {
        !matches!(self.inner.outcome(), Outcome::Ongoing)
    }

    /// Equal when the stones and the board size are (however the position was made).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.extract::<PyRef<'_, Position>>().is_ok_and(|o| {
            o.inner.key() == self.inner.key() && o.inner.geometry() == self.inner.geometry()
        })
    }

    fn __hash__(&self) -> u64 {
        self.inner.key()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let size = format!(
            "width={}, height={}",
            self.inner.width(),
            self.inner.height()
        );
        match &self.moves {
            Some(m) => format!("Position({m:?}, {size})"),
            None => format!("Position.from_array(<{} stones>, {size})", self.stones()),
        }
    }
}
