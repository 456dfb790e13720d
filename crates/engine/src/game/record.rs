//! Lines of solver test files: `MOVES` or `MOVES SCORE`, as in the standard benchmark sets.

use std::fmt;

/// One parsed test line: a move string and, when the file gives one, the expected score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestLine {
    /// a move string: columns 1-9, then a-z.
    pub moves: String,
    /// The exact score the file expects, if any.
    pub expected: Option<i32>,
}

/// Why a test line could not be read (the move string itself is checked when played).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// More than two fields.
    TooManyFields(usize),
    /// The second field is not an integer.
    BadScore(String),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooManyFields(n) => {
                write!(f, "expected \"MOVES\" or \"MOVES SCORE\", found {n} fields")
            }
            LineError::BadScore(s) => write!(f, "score '{s}' is not an integer"),
        }
    }
}

impl std::error::Error for LineError {}

/// Parses one line. Blank lines and `#` comments give `Ok(None)`; a lone `-` as the move
/// field stands for the empty board.
pub fn parse_test_line(line: &str) -> Result<Option<TestLine>, LineError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() > 2 {
        return Err(LineError::TooManyFields(fields.len()));
    }
    let moves = if fields[0] == "-" { "" } else { fields[0] };
    let expected = match fields.get(1) {
        Some(s) => Some(s.parse().map_err(|_| LineError::BadScore(s.to_string()))?),
        None => None,
    };
    Ok(Some(TestLine {
        moves: moves.to_string(),
        expected,
    }))
}
