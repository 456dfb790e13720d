//! The answers a player's page reads, as JSON-ready values: the solver's verdict on a
//! position, a reviewed game, an agent's move, the agent kinds on offer, the board-size
//! rule and the opening book held. `c4 serve` sends them over HTTP and the WebAssembly engine returns them to the page
//! in the browser, so one page reads both back ends the same way.

mod adaptive;
mod analyze;
mod error;
mod factories;
mod play;
mod presets;
mod review;
mod spec;

pub use adaptive::{AdaptiveAnswer, DialRange, adaptive_answer, adaptive_in_game, dial_range};
pub use analyze::{AnalyzeAnswer, ColumnAnswer, game_over_analysis, result_words};
pub use error::{AnswerError, BoardLimit};
pub use factories::FactoryCache;
pub use play::{PlayError, play_move};
pub use presets::{NETWORK_BOARDS, PRESETS, Preset, SOLVED_BOARDS, presets};
pub use review::{ReviewAnswer, ReviewCounts};
pub use spec::spec_in_folder;

use crate::agents::AGENT_KINDS;
use crate::game::{Geometry, Position};
use serde::Serialize;

/// Board sizes the page accepts: at least 4 columns (at most what move strings name), at
/// least 4 rows, and at most 128 bits of board (`width * (height + 1)`); boards of up to 64
/// bits play in 64-bit bitboards ([`position_of`]), the others in 128-bit ones
/// ([`wide_position_of`]).
pub(crate) const MIN_SIDE: usize = 4;
/// The widest board: what a move string names (columns 1-9, then a-z).
pub const MAX_WIDTH: usize = crate::game::moves::MAX_WIDTH;
/// The most bits a board in 64-bit bitboards may take, `width * (height + 1)`.
pub const MAX_BITS: usize = 64;

/// The board-size rule as the page reads it.
#[derive(Clone, Debug, Serialize)]
pub struct BoardRule {
    /// Fewest columns.
    pub min_width: usize,
    /// Most columns.
    pub max_width: usize,
    /// Fewest rows.
    pub min_height: usize,
    /// Most bits, `width * (height + 1)`.
    pub max_bits: usize,
    /// The rule in words.
    pub text: String,
}

/// The opening book a back end's exact answers read, as the page reads it: how deep perfect
/// play answers at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BookSummary {
    /// Stones of the deepest positions in the book (0: no book).
    pub plies: usize,
    /// Positions the book holds (mirror images folded).
    pub positions: usize,
}

impl BookSummary {
    /// The summary of `book` (zeros for none).
    pub fn of(book: Option<&crate::solver::book::Book>) -> Self {
        BookSummary {
            plies: book.map_or(0, |b| b.plies()),
            positions: book.map_or(0, |b| b.len()),
        }
    }
}

/// The board-size rule.
pub fn board_rule() -> BoardRule {
    BoardRule {
        min_width: MIN_SIDE,
        max_width: MAX_WIDTH,
        min_height: MIN_SIDE,
        max_bits: MAX_ANALYSIS_BITS,
        text: format!(
            "boards are {MIN_SIDE} to {MAX_WIDTH} columns wide and at least {MIN_SIDE} rows high, \
             with width x (height + 1) at most {MAX_ANALYSIS_BITS}"
        ),
    }
}

/// The board of `width` x `height` in 64-bit bitboards when [`board_rule`] allows it and it
/// takes at most [`MAX_BITS`], else the part of the rule it breaks (try [`wide_position_of`] first for
/// the boards past it).
///
/// ```
/// use connect4_engine::answers::board_of;
/// assert!(board_of(7, 6).is_ok());
/// assert!(board_of(10, 5).is_ok()); // columns 10 and on are the letters a, b, ...
/// assert!(board_of(10, 6).unwrap_err().to_string().contains("at most 64"));
/// assert!(board_of(3, 6).unwrap_err().to_string().contains("4 to 35 columns"));
/// ```
pub fn board_of(width: usize, height: usize) -> Result<Geometry, AnswerError> {
    let limit = if !ok_sides(width, height) {
        Some(BoardLimit::Sides)
    } else if width.saturating_mul(height.saturating_add(1)) > MAX_BITS {
        Some(BoardLimit::Narrow)
    } else {
        None
    };
    if let Some(limit) = limit {
        return Err(AnswerError::Board {
            width,
            height,
            limit,
        });
    }
    Geometry::new(width, height).map_err(AnswerError::Geometry)
}

/// Whether a board's sides are within [`board_rule`] (its bits aside).
fn ok_sides(width: usize, height: usize) -> bool {
    (MIN_SIDE..=MAX_WIDTH).contains(&width) && height >= MIN_SIDE
}

/// The position after `moves` (1-based columns; empty or `-` for the empty board) on a
/// `width` x `height` board (7 x 6 unless given), or what is wrong, naming the move or size.
///
/// ```
/// use connect4_engine::answers::position_of;
/// assert_eq!(position_of("44", None, None).unwrap().moves_played(), 2);
/// assert_eq!(position_of("-", Some(5), Some(4)).unwrap().moves_played(), 0);
/// assert!(position_of("4x", None, None).unwrap_err().to_string().starts_with("moves \"4x\""));
/// ```
pub fn position_of(
    moves: &str,
    width: Option<usize>,
    height: Option<usize>,
) -> Result<Position, AnswerError> {
    let geom = board_of(width.unwrap_or(7), height.unwrap_or(6))?;
    let moves = moves.trim();
    let moves = if moves == "-" { "" } else { moves };
    Position::from_moves(geom, moves).map_err(|e| AnswerError::moves(moves, e))
}

/// The most bits a board may take (`width * (height + 1)`): wide (`u128`) bitboards reach
/// past [`MAX_BITS`].
pub const MAX_ANALYSIS_BITS: usize = 128;

/// The table of a solver made for one answer on a board past [`MAX_BITS`], MiB (as
/// `c4 analyze`'s per-thread table: one analysis touches little of it). The back ends pool
/// the narrow boards' solvers only.
pub const WIDE_TT_MIB: usize = 16;

/// The position after `moves` on a board past [`MAX_BITS`] of at most
/// [`MAX_ANALYSIS_BITS`] (8 x 8, 9 x 7, ...), in wide bitboards: `Ok(None)` for any board
/// [`position_of`] answers (or refuses for another reason than its size), so a caller tries
/// this first and falls back to [`position_of`].
///
/// ```
/// use connect4_engine::answers::wide_position_of;
/// assert_eq!(wide_position_of("45", Some(8), Some(8)).unwrap().unwrap().moves_played(), 2);
/// assert!(wide_position_of("45", None, None).unwrap().is_none()); // 7x6: the narrow code
/// assert!(wide_position_of("9", Some(8), Some(8)).unwrap_err().to_string().contains("column 9"));
/// assert!(wide_position_of("", Some(12), Some(10)).unwrap_err().to_string().contains("at most 128"));
/// ```
pub fn wide_position_of(
    moves: &str,
    width: Option<usize>,
    height: Option<usize>,
) -> Result<Option<Position<u128>>, AnswerError> {
    let (width, height) = (width.unwrap_or(7), height.unwrap_or(6));
    let bits = width.saturating_mul(height.saturating_add(1));
    if !ok_sides(width, height) || bits <= MAX_BITS {
        return Ok(None);
    }
    if bits > MAX_ANALYSIS_BITS {
        return Err(AnswerError::Board {
            width,
            height,
            limit: BoardLimit::Bits { bits },
        });
    }
    let geom = Geometry::<u128>::sized(width, height).map_err(AnswerError::Geometry)?;
    let moves = moves.trim();
    let moves = if moves == "-" { "" } else { moves };
    Position::from_moves(geom, moves)
        .map(Some)
        .map_err(|e| AnswerError::moves(moves, e))
}

/// `text` cut to 40 characters for messages, so that a huge input is not echoed back.
pub fn short(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    }
}

/// One agent kind as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct KindAnswer {
    /// The kind's name, e.g. `ntuple`.
    pub name: &'static str,
    /// How to write its spec.
    pub usage: &'static str,
    /// What it is.
    pub summary: &'static str,
    /// The options it takes.
    pub keys: &'static [&'static str],
}

/// Every agent kind (see [`AGENT_KINDS`]).
pub fn kinds() -> Vec<KindAnswer> {
    AGENT_KINDS
        .iter()
        .map(|k| KindAnswer {
            name: k.name,
            usage: k.usage,
            summary: k.summary,
            keys: k.keys,
        })
        .collect()
}

/// An agent's move.
#[derive(Clone, Debug, Serialize)]
pub struct MoveAnswer {
    /// The agent's spec.
    pub agent: String,
    /// The chosen column, 1-based.
    pub column: usize,
    /// The moves after it.
    pub moves: String,
    /// Thinking time in milliseconds.
    pub ms: f64,
    /// Whether the time limit cut the agent short: the column is then the best it had found
    /// so far.
    pub stopped: bool,
}

impl MoveAnswer {
    /// The answer for `column` (0-based) played after `moves`.
    pub fn new(agent: String, moves: &str, column: usize, ms: f64, stopped: bool) -> Self {
        MoveAnswer {
            agent,
            column: column + 1,
            moves: format!(
                "{}{}",
                moves.trim().trim_start_matches('-'),
                crate::game::moves::column_char(column).unwrap_or('?')
            ),
            ms,
            stopped,
        }
    }
}
