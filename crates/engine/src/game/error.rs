//! Typed errors for everything that builds a position from outside input.

use thiserror::Error;

/// What went wrong while building a board or a position, and where.
///
/// Positions in move strings are 1-based character (= move) numbers, so a message points at the
/// exact offending character of what the user typed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// Width or height is zero.
    #[error("board {width}x{height} is empty: width and height must be at least 1")]
    BoardEmpty {
        /// Requested number of columns.
        width: usize,
        /// Requested number of rows.
        height: usize,
    },
    /// The bitboard needs one sentinel row per column: width*(height+1) bits must fit in the
    /// bitboard's integer (64 bits, or 128 where the wide code is used).
    #[error(
        "board {width}x{height} is too large: width*(height+1) = {bits} bits, at most {limit} fit a bitboard"
    )]
    BoardTooLarge {
        /// Requested number of columns.
        width: usize,
        /// Requested number of rows.
        height: usize,
        /// Bits the requested board would need.
        bits: usize,
        /// Bits the bitboard holds.
        limit: usize,
    },
    /// Move strings write one character a column (1-9, then a-z): at most 35 columns.
    #[error(
        "board {width}x{height} is too wide: move strings name columns 1-9 then a-z, so at most 35 columns"
    )]
    TooWide {
        /// Requested number of columns.
        width: usize,
        /// Requested number of rows.
        height: usize,
    },
    /// A character of a move string names no column (columns are 1-9, then a-z).
    #[error("move {at}: '{ch}' is not a column digit (columns are 1-9, then a-z)")]
    NotADigit {
        /// 1-based move number (character position).
        at: usize,
        /// The offending character.
        ch: char,
    },
    /// A column outside `1..=width`.
    #[error("move {at}: column {column} is out of range 1..={width}")]
    ColumnOutOfRange {
        /// 1-based move number.
        at: usize,
        /// The 1-based column asked for.
        column: usize,
        /// Board width.
        width: usize,
    },
    /// A column that has no empty cell left.
    #[error("move {at}: column {column} is full")]
    ColumnFull {
        /// 1-based move number.
        at: usize,
        /// The 1-based column asked for.
        column: usize,
    },
    /// A move after one player already has four in a row.
    #[error("move {at}: the game was already won by the previous move")]
    GameOver {
        /// 1-based move number.
        at: usize,
    },
    /// A cell list of the wrong length for the board.
    #[error("expected {expected} cells for a {width}x{height} board, found {found}")]
    CellCount {
        /// Cells the board has.
        expected: usize,
        /// Cells given.
        found: usize,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// A cell value that is not `x`, `o` or `b`.
    #[error("cell {cell}: '{value}' is not one of x, o, b")]
    BadCell {
        /// Cell name such as `c4`.
        cell: String,
        /// The value found.
        value: String,
    },
    /// A stone with an empty cell below it.
    #[error("cell {cell}: stone floats above an empty cell")]
    Floating {
        /// Cell name such as `c4`.
        cell: String,
    },
    /// Stone counts that no game can reach (x moves first).
    #[error("{x} x stones and {o} o stones: x moves first, so x must equal o or o + 1")]
    StoneCounts {
        /// Number of first-player stones.
        x: usize,
        /// Number of second-player stones.
        o: usize,
    },
    /// Both players, or the player to move, already have four in a row.
    #[error("the position cannot arise in a game: {reason}")]
    Unreachable {
        /// Why.
        reason: &'static str,
    },
}
