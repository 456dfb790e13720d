//! `Position`: a board of any supported size, from a move string or an array, immutable
//! (every move returns a new position), hashable, convertible to and from numpy.

use crate::args::{Nat, short_repr};
use crate::board::{Board, geometry, needs_wide, on_board};
use crate::errors::err;
use connect4_engine::game::{BitBoard, Geometry, LineRules, Outcome, Player, random_line};
use connect4_engine::seed;
use numpy::{PyArray2, PyArrayMethods, PyUntypedArrayMethods, ToPyArray};
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A Connect Four position. Columns in `play`, `legal_moves` and arrays are 0-based (as in
/// numpy, OpenSpiel, PettingZoo and Kaggle); move strings are 1-based ("4453"), as in the
/// benchmark files. Arrays are `height x width`, row 0 at the top, 0 empty, 1 the first
/// player's stone, 2 the second player's.
#[pyclass(module = "connect4_ml", frozen)]
#[derive(Clone)]
pub struct Position {
    pub(crate) inner: Board,
    /// The moves that made it, when known (1-based columns).
    pub(crate) moves: Option<String>,
}

impl Position {
    /// Wraps a library position reached by `moves` (if known).
    pub fn wrap(inner: connect4_engine::Position, moves: Option<String>) -> Position {
        Position::wrap_board(Board::Narrow(inner), moves)
    }

    /// Wraps a position of either integer reached by `moves` (if known).
    pub fn wrap_board(inner: Board, moves: Option<String>) -> Position {
        Position { inner, moves }
    }
}

/// The cells of `p` as a `height x width` array (row 0 at the top, 1 first player, 2 second).
fn cells_of<B: BitBoard>(p: &connect4_engine::Position<B>) -> ndarray::Array2<i8> {
    let (w, h) = (p.width(), p.height());
    ndarray::Array2::from_shape_fn((h, w), |(r, c)| {
        p.cell(c, h - 1 - r).map_or(0, |pl| number(pl) as i8)
    })
}

/// The position drawn by `cells` (checked by [`board_cells`]) on `g`, or a `Connect4Error`
/// naming the cell or the count that is wrong.
fn position_of_cells<B: BitBoard>(
    g: Geometry<B>,
    cells: &ndarray::Array2<i64>,
) -> PyResult<connect4_engine::Position<B>> {
    let (h, w) = cells.dim();
    let second_value = if cells.iter().any(|&v| v == -1) {
        -1
    } else {
        2
    };
    let (mut first, mut second, mut mask) = (B::ZERO, B::ZERO, B::ZERO);
    for ((r, c), &v) in cells.indexed_iter() {
        let bit = g.cell_bit(c, h - 1 - r);
        match v {
            0 => continue,
            1 => first |= bit,
            v if v == second_value => second |= bit,
            _ => {
                return Err(err(format!(
                    "board[{r}][{c}] is {v}: cells are 0 (empty), 1 (first player) and 2, or \
                     0, 1 and -1 (second player), not both"
                )));
            }
        }
        mask |= bit;
    }
    let first_to_move = first.count_ones() == second.count_ones();
    let current = if first_to_move { first } else { second };
    connect4_engine::Position::from_bits(g, current, mask).ok_or_else(|| {
        err(format!(
            "not a reachable {w}x{h} position: {} stones of player 1 and {} of player 2, \
             floating stones or a four for the side to move",
            first.count_ones(),
            second.count_ones()
        ))
    })
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
    #[pyo3(signature = (moves = crate::args::Text(String::new()), width = Nat(7), height = Nat(6)))]
    fn new(moves: crate::args::Text, width: Nat, height: Nat) -> PyResult<Position> {
        let moves = moves.0.as_str();
        let inner = Board::from_moves(width.get(), height.get(), moves)?;
        Ok(Position::wrap_board(inner, Some(moves.trim().to_string())))
    }

    /// The position drawn by `board`, a 2-D array (or nested lists) of shape `(height, width)`,
    /// row 0 at the top: 0 empty, 1 first player, 2 second (or -1 for the second player).
    /// Cells must be whole numbers. A shape taller than wide is refused unless `width` and
    /// `height` confirm it (a transposed standard board is the usual cause). Refused when
    /// stones float, counts are impossible or the side to move already has four.
    #[staticmethod]
    #[pyo3(signature = (board, width = None, height = None))]
    fn from_array(
        board: &Bound<'_, PyAny>,
        width: Option<Nat>,
        height: Option<Nat>,
    ) -> PyResult<Position> {
        let cells = board_cells(board, width.map(Nat::get), height.map(Nat::get))?;
        let (h, w) = cells.dim();
        let inner = if needs_wide(w, h)? {
            let g = Geometry::<u128>::sized(w, h).map_err(err)?;
            Board::Wide(position_of_cells(g, &cells)?)
        } else {
            Board::Narrow(position_of_cells(geometry(w, h)?, &cells)?)
        };
        Ok(Position::wrap_board(inner, None))
    }

    /// A random position after `plies` uniformly random moves from the empty board, with the
    /// moves (0-based columns): the game is never over and, with `forbid_direct_win`, the side
    /// to move cannot win at once. `rng`: None, an int seed, a `random.Random` or a numpy
    /// `Generator` (as `Solver.best_move`).
    #[staticmethod]
    #[pyo3(signature = (plies, rng = None, forbid_direct_win = true, width = Nat(7), height = Nat(6)))]
    fn random(
        py: Python<'_>,
        plies: Nat,
        rng: Option<&Bound<'_, PyAny>>,
        forbid_direct_win: bool,
        width: Nat,
        height: Nat,
    ) -> PyResult<(Position, Vec<usize>)> {
        random_position(
            py,
            plies.get(),
            rng,
            forbid_direct_win,
            width.get(),
            height.get(),
        )
    }

    /// The board as a `height x width` int8 array (row 0 at the top, 1 first player, 2 second).
    fn to_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        on_board!(&self.inner, p => cells_of(p)).to_pyarray(py)
    }

    /// The position after a stone in `column` (0-based); refused when the column is full,
    /// out of the board or the game is over.
    fn play(&self, column: &Bound<'_, PyAny>) -> PyResult<Position> {
        let w = self.inner.width();
        let Ok(column) = column.extract::<i64>() else {
            return Err(err(format!(
                "column {}: expected a whole number 0..={} (0-based)",
                short_repr(column),
                w - 1
            )));
        };
        if column < 0 || column >= w as i64 {
            return Err(err(format!(
                "column {column} is off the board: columns are 0..={} (0-based)",
                w - 1
            )));
        }
        if self.is_over() {
            return Err(err("the game is over: no more moves"));
        }
        let column = column as usize;
        if !on_board!(&self.inner, p => p.can_play(column)) {
            return Err(err(format!("column {column} (0-based) is full")));
        }
        let next = on_board!(self.inner, p => {
            let mut next = p;
            next.play(column).map_err(err)?;
            Board::from(next)
        });
        let moves = self.moves.as_ref().map(|m| {
            let mut m = m.clone();
            m.push(connect4_engine::game::moves::column_char(column).unwrap_or('?'));
            m
        });
        Ok(Position::wrap_board(next, moves))
    }

    /// The columns (0-based) a stone can go in; empty when the game is over. With
    /// `non_losing`, only the moves after which the opponent cannot win at once (all of them
    /// when every move loses that way; just the winning ones when the side to move can win).
    #[pyo3(signature = (non_losing = false))]
    fn legal_moves(&self, non_losing: bool) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        on_board!(&self.inner, p => {
            let g = p.geometry();
            let keep = if non_losing {
                p.one_move_rule_cells()
            } else {
                p.possible()
            };
            p.legal_columns()
                .filter(|&c| (keep & g.column_mask(c)).count_ones() != 0)
                .collect()
        })
    }

    /// Whether the side to move can win with its next stone.
    fn can_win_next(&self) -> bool {
        !self.is_over() && on_board!(&self.inner, p => p.can_win_next())
    }

    /// The mirror image (columns reversed).
    fn mirror(&self) -> Position {
        let w = self.inner.width();
        let moves = self.moves.as_ref().map(|m| {
            m.chars()
                .map(|c| {
                    use connect4_engine::game::moves::{char_column, column_char};
                    char_column(c)
                        .and_then(|col| column_char(w - 1 - col))
                        .unwrap_or(c)
                })
                .collect()
        });
        let mirrored = on_board!(&self.inner, p => Board::from(p.mirror()));
        Position::wrap_board(mirrored, moves)
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
        on_board!(&self.inner, p => p.moves_played())
    }

    /// The player to move: 1 (first) or 2 (second).
    #[getter]
    fn side_to_move(&self) -> u8 {
        number(on_board!(&self.inner, p => p.side_to_move()))
    }

    /// A unique key of this position (the solver's; past 64 bits a wider int).
    #[getter]
    fn key(&self) -> u128 {
        on_board!(&self.inner, p => p.key().low_u128())
    }

    /// The key shared with the mirror image.
    #[getter]
    fn canonical_key(&self) -> u128 {
        on_board!(&self.inner, p => p.canonical_key().low_u128())
    }

    /// 1 or 2 when that player has four in a row, 0 for a full board without one, None while
    /// the game goes on.
    #[getter]
    fn winner(&self) -> Option<u8> {
        match on_board!(&self.inner, p => p.outcome()) {
            Outcome::Won(p) => Some(number(p)),
            Outcome::Draw => Some(0),
            Outcome::Ongoing => None,
        }
    }

    /// Whether the game is over (a four or a full board).
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// Equal when the stones and the board size are (however the position was made).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, Position>>()
            .is_ok_and(|o| o.inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        on_board!(&self.inner, p => p.key().fold_u64())
    }

    fn __str__(&self) -> String {
        on_board!(&self.inner, p => p.to_string())
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

/// The cells of `board` as a `(height, width)` array of whole numbers, or a `Connect4Error`
/// naming what is wrong: not 2-D, a shape that `width` / `height` contradict (or, when they
/// are not given, taller than wide), cells that are not whole numbers.
fn board_cells(
    board: &Bound<'_, PyAny>,
    width: Option<usize>,
    height: Option<usize>,
) -> PyResult<ndarray::Array2<i64>> {
    let py = board.py();
    let np = py.import("numpy")?;
    let arr = np.call_method1("asarray", (board,)).map_err(|_| {
        err(format!(
            "expected a 2-D array of shape (height, width), got {}",
            short_repr(board)
        ))
    })?;
    let arr = arr
        .cast_into::<numpy::PyUntypedArray>()
        .map_err(|_| err("expected a 2-D array of shape (height, width)"))?;
    let shape = arr.shape().to_vec();
    if shape.len() != 2 {
        return Err(err(format!(
            "expected a 2-D array of shape (height, width), got {}-D shape {shape:?}",
            shape.len()
        )));
    }
    let (h, w) = (shape[0], shape[1]);
    match (width, height) {
        (Some(wd), Some(ht)) if (ht, wd) != (h, w) => {
            return Err(err(format!(
                "expected a 2-D array of shape (height, width) = ({ht}, {wd}), got ({h}, {w})"
            )));
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(err("give both width and height, or neither"));
        }
        (None, None) if h > w => {
            return Err(err(format!(
                "an array of shape ({h}, {w}) would be a board {w} wide and {h} high: arrays \
                 are (height, width), e.g. (6, 7); transpose it, or pass width={w}, height={h} \
                 if that is the board you mean"
            )));
        }
        _ => {}
    }
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let ints = match kind.as_str() {
        "i" | "u" | "b" => arr.call_method1("astype", ("int64",))?,
        "f" => {
            let whole: bool = np
                .call_method1(
                    "all",
                    (np.call_method1("equal", (&arr, np.call_method1("round", (&arr,))?))?,),
                )?
                .extract()?;
            if !whole {
                return Err(err(
                    "board cells must be whole numbers 0, 1, 2 (or -1): the array holds fractions",
                ));
            }
            arr.call_method1("astype", ("int64",))?
        }
        _ => {
            return Err(err(format!(
                "board cells must be whole numbers 0, 1, 2 (or -1), not {} values",
                arr.getattr("dtype")?.str()?
            )));
        }
    };
    let ints = ints
        .cast_into::<numpy::PyArray2<i64>>()
        .map_err(|_| err("expected a 2-D array of shape (height, width)"))?;
    Ok(ints.readonly().as_array().to_owned())
}

/// See [`Position::random`]; also the module's `random_board`.
pub fn random_position(
    py: Python<'_>,
    plies: usize,
    rng: Option<&Bound<'_, PyAny>>,
    forbid_direct_win: bool,
    width: usize,
    height: usize,
) -> PyResult<(Position, Vec<usize>)> {
    let cells = if needs_wide(width, height)? {
        width * height
    } else {
        geometry(width, height)?.cells()
    };
    if plies >= cells {
        return Err(err(format!(
            "plies={plies}: a {width}x{height} game is over after {cells} stones at most"
        )));
    }
    // Python-side generators are asked for every draw; a seed (or none: one from Python's
    // `random`) drives the library's seeded stream. The line itself is the library's.
    let seed = match rng {
        None => Some(
            py.import("random")?
                .call_method1("getrandbits", (64,))?
                .extract::<u64>()?,
        ),
        Some(r) if r.hasattr("randrange")? || r.hasattr("integers")? => None,
        Some(r) => Some(r.extract::<Nat>()?.0),
    };
    let mut stream = seed
        .map(|s| ChaCha8Rng::seed_from_u64(seed::derive_seed(s, seed::Stream::RandomBoard, &[])));
    let draw = |n: usize| -> PyResult<usize> {
        match stream.as_mut() {
            Some(r) => Ok(r.gen_range(0..n)),
            None => crate::random::draw_index(py, rng, n),
        }
    };
    let rules = LineRules {
        no_winning_moves: true,
        no_win_in_one: forbid_direct_win,
    };
    // Retrying is rare for the plies people ask for.
    let line = if needs_wide(width, height)? {
        let g = Geometry::<u128>::sized(width, height).map_err(err)?;
        random_line(g, plies, rules, draw, Some(10_000))?
    } else {
        random_line(geometry(width, height)?, plies, rules, draw, Some(10_000))?
    };
    let Some(moves) = line else {
        return Err(err(format!(
            "no random {width}x{height} position of {plies} stones found in 10000 tries"
        )));
    };
    let text = connect4_engine::game::moves::format_moves(&moves);
    let p = Board::from_moves(width, height, &text)?;
    Ok((Position::wrap_board(p, Some(text)), moves))
}

/// A random position after `plies` random moves and those moves (0-based columns); see
/// `Position.random`, whose arguments it takes.
#[pyfunction]
#[pyo3(signature = (plies, rng = None, forbid_direct_win = true, width = Nat(7), height = Nat(6)))]
pub fn random_board(
    py: Python<'_>,
    plies: Nat,
    rng: Option<&Bound<'_, PyAny>>,
    forbid_direct_win: bool,
    width: Nat,
    height: Nat,
) -> PyResult<(Position, Vec<usize>)> {
    random_position(
        py,
        plies.get(),
        rng,
        forbid_direct_win,
        width.get(),
        height.get(),
    )
}
