//! Readers of the data files into numpy arrays: the UCI file and labelled "MOVES SCORE" files,
//! named by path or, from any folder, by the name of a data set the package carries.

use crate::board::{geometry, needs_wide};
use crate::bridge::quick;
use crate::errors::err;
use connect4_engine::game::{BitBoard, Geometry, Player};
use connect4_learn::datasets::labelled::{Expect, read_moves_file};
use connect4_learn::datasets::uci::load_uci;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Boards of `positions` as an `n x height x width` int8 array (row 0 at the top, 1 the first
/// player's stone, 2 the second's).
fn boards<B: BitBoard>(
    positions: &[connect4_engine::Position<B>],
    w: usize,
    h: usize,
) -> ndarray::Array3<i8> {
    ndarray::Array3::from_shape_fn((positions.len(), h, w), |(i, r, c)| {
        match positions[i].cell(c, h - 1 - r) {
            Some(Player::First) => 1,
            Some(Player::Second) => 2,
            None => 0,
        }
    })
}

/// Boards of `positions` as side-to-move planes, the observation of the package's
/// Gymnasium and PettingZoo environments: `n x height x width x 2` int8 (row 0 at the top),
/// plane 0 the stones of the side to move, plane 1 the opponent's.
fn planes<B: BitBoard>(
    positions: &[connect4_engine::Position<B>],
    w: usize,
    h: usize,
) -> ndarray::Array4<i8> {
    ndarray::Array4::from_shape_fn((positions.len(), h, w, 2), |(i, r, c, k)| {
        let p = &positions[i];
        let mine = p.side_to_move();
        match p.cell(c, h - 1 - r) {
            Some(pl) if (pl == mine) == (k == 0) => 1,
            _ => 0,
        }
    })
}

/// `positions` as the numpy array asked for: cells (`n x height x width`, 1 and 2) or, with
/// `planes`, side-to-move planes (`n x height x width x 2`).
fn board_array<'py, B: BitBoard>(
    py: Python<'py>,
    positions: &[connect4_engine::Position<B>],
    w: usize,
    h: usize,
    with_planes: bool,
) -> Bound<'py, PyAny> {
    if with_planes {
        planes(positions, w, h).into_pyarray(py).into_any()
    } else {
        boards(positions, w, h).into_pyarray(py).into_any()
    }
}

/// Boards and labels as `read_uci` returns them.
type UciArrays<'py> = (Bound<'py, PyAny>, Bound<'py, PyArray1<i8>>);

/// The UCI Connect-4 file (plain or .Z; `"uci"` or `data/uci/connect-4.data.Z` find the copy
/// the package carries from any folder): `(boards, labels)`, boards `n x 6 x 7` int8 as
/// `Position.to_array` (with `planes=True`, `n x 6 x 7 x 2` side-to-move planes), labels
/// int8 from the first player's view (who is to move): 1 win, 0 draw, -1 loss.
#[pyfunction]
#[pyo3(signature = (path = crate::args::FilePath("uci".into()), planes = false))]
pub fn read_uci<'py>(
    py: Python<'py>,
    path: crate::args::FilePath,
    planes: bool,
) -> PyResult<UciArrays<'py>> {
    let path = crate::datasets::resolve(&path.0)?;
    let data = quick(py, || load_uci(&path))?.map_err(err)?;
    let ps: Vec<_> = data.rows.iter().map(|r| r.position).collect();
    let labels: Vec<i8> = data
        .rows
        .iter()
        .map(|r| r.label.index() as i8 - 1)
        .collect();
    Ok((board_array(py, &ps, 7, 6, planes), labels.into_pyarray(py)))
}

/// A labelled "MOVES SCORE" file (plain or gzip, e.g. `data/positions/heldout.txt.gz`, or a
/// data set's name, "heldout", found from any folder): a dict with `moves` (list of str),
/// `boards` (`n x height x width` int8; with `planes=True`, `n x height x width x 2`
/// side-to-move planes), `scores` (int32, the exact score from the side to move) and
/// `stones` (int32). Any board up to 128 bits (`c4 data label --width 8 --height 8` files
/// too). A bad line raises an error naming the file and line.
#[pyfunction]
#[pyo3(signature = (path, width = 7, height = 6, planes = false))]
pub fn read_labelled<'py>(
    py: Python<'py>,
    path: crate::args::FilePath,
    width: usize,
    height: usize,
    planes: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let path = crate::datasets::resolve(&path.0)?;
    if needs_wide(width, height)? {
        let g = Geometry::<u128>::sized(width, height).map_err(err)?;
        labelled_dict(py, &path, g, planes)
    } else {
        labelled_dict(py, &path, geometry(width, height)?, planes)
    }
}

/// [`read_labelled`] on boards of `B`'s bitboards.
fn labelled_dict<'py, B: BitBoard>(
    py: Python<'py>,
    path: &std::path::Path,
    g: Geometry<B>,
    planes: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let lines = quick(py, || read_moves_file(path, g, Expect::Labelled))?.map_err(err)?;
    let ps: Vec<_> = lines.iter().map(|l| l.position).collect();
    let scores: Vec<i32> = lines.iter().map(|l| l.score.unwrap_or(0)).collect();
    let stones: Vec<i32> = ps.iter().map(|p| p.moves_played() as i32).collect();
    let moves: Vec<String> = lines.into_iter().map(|l| l.moves).collect();
    let d = PyDict::new(py);
    d.set_item("moves", moves)?;
    d.set_item(
        "boards",
        board_array(py, &ps, g.width(), g.height(), planes),
    )?;
    d.set_item("scores", scores.into_pyarray(py))?;
    d.set_item("stones", stones.into_pyarray(py))?;
    Ok(d)
}
