//! The board of a position in the integer its size needs (`Board`: u64 up to 64 bits, u128
//! past them) and the size checks every Python entry point makes.

use crate::errors::err;
use connect4_engine::game::{Geometry, Outcome};
use pyo3::PyResult;

/// The board geometry of `width` x `height` (up to 64 bits), or a `Connect4Error` naming the
/// size: past 64 bits, that only `Position` and `Solver` take such boards.
pub fn geometry(width: usize, height: usize) -> PyResult<Geometry> {
    if needs_wide(width, height)? {
        return Err(err(format!(
            "{width}x{height} boards are {}",
            past_64_bits(width, height)
        )));
    }
    Geometry::new(width, height).map_err(err)
}

/// Why a board past 64 bits is refused where it is (the tail of a message).
fn past_64_bits(width: usize, height: usize) -> String {
    format!(
        "past 64 bits (width x (height + 1) = {}): Position, Solver, Model (n-tuple \
         networks), read_labelled, spec agents, tournament, evaluate, rate and bench_agent take \
         boards of up to 128 bits, the rest of the package (features, agents of Python code) \
         boards of up to 64",
        width * (height + 1)
    )
}

/// Whether a `width` x `height` board needs 128-bit bitboards (past 64 bits), or a
/// `Connect4Error` naming a size no bitboard takes (past 128 bits, empty, too wide).
pub fn needs_wide(width: usize, height: usize) -> PyResult<bool> {
    connect4_engine::game::needs_wide(width, height).map_err(err)
}

/// The engine's position in the integer its board needs: `u64` up to 64 bits
/// (width x (height + 1)), `u128` past them (8x8, 9x7, ...). The size picks the variant, so
/// two positions of one board always hold the same one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// A board of up to 64 bits: every part of the package takes it.
    Narrow(connect4_engine::Position),
    /// A board past 64 bits: `Position`, `Solver`, spec agents and tournaments take it.
    Wide(connect4_engine::Position<u128>),
}

impl From<connect4_engine::Position> for Board {
    fn from(p: connect4_engine::Position) -> Board {
        Board::Narrow(p)
    }
}

impl From<connect4_engine::Position<u128>> for Board {
    fn from(p: connect4_engine::Position<u128>) -> Board {
        Board::Wide(p)
    }
}

/// Runs `$body` with `$p` bound to the engine's position of either integer: the one place
/// the two kinds of board meet, so every method below is written once.
macro_rules! on_board {
    ($board:expr, $p:ident => $body:expr) => {
        match $board {
            $crate::board::Board::Narrow($p) => $body,
            $crate::board::Board::Wide($p) => $body,
        }
    };
}
pub(crate) use on_board;

impl Board {
    /// The position after `moves` (1-based columns) on a `width` x `height` board, in the
    /// integer that board needs.
    pub fn from_moves(width: usize, height: usize, moves: &str) -> PyResult<Board> {
        Ok(if needs_wide(width, height)? {
            let g = Geometry::<u128>::sized(width, height).map_err(err)?;
            Board::Wide(connect4_engine::Position::from_moves(g, moves).map_err(err)?)
        } else {
            Board::Narrow(
                connect4_engine::Position::from_moves(geometry(width, height)?, moves)
                    .map_err(err)?,
            )
        })
    }

    /// Board width.
    pub fn width(&self) -> usize {
        on_board!(self, p => p.width())
    }

    /// Board height.
    pub fn height(&self) -> usize {
        on_board!(self, p => p.height())
    }

    /// Whether the game is over: a four or a full board.
    pub fn is_over(&self) -> bool {
        !matches!(on_board!(self, p => p.outcome()), Outcome::Ongoing)
    }

    /// The 64-bit position, or a `Connect4Error` saying that this part of the package takes
    /// boards of up to 64 bits only (models, data, evaluations, ratings, Python code's agents).
    pub fn narrow(&self) -> PyResult<connect4_engine::Position> {
        self.narrow_named("")
    }

    /// As [`Board::narrow`], the message starting with `what` (e.g. "positions[3]: ").
    pub fn narrow_named(&self, what: &str) -> PyResult<connect4_engine::Position> {
        match self {
            Board::Narrow(p) => Ok(*p),
            Board::Wide(p) => Err(err(format!(
                "{what}the {}x{} position is {}",
                p.width(),
                p.height(),
                past_64_bits(p.width(), p.height())
            ))),
        }
    }
}
